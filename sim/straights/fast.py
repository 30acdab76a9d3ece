"""The compiled Straights engine: many rounds at once, each played by a numba kernel row by row.

``play_rounds`` plays B deals with four strategies (the same objects the reference engine takes) and
returns each seat's points and, on request, every action; ``play_games`` strings rounds into games
until someone reaches 80. ``judge_scripts`` replays scripted rounds and counts the scripted cards the
seats' strategies would not have taken (a lookahead's inference). ``sim.crosscheck`` checks that both
engines make the same moves.

State is kept by dealt *position* rather than by card. Position ``13 * k + i`` of a round is card
``i`` of the hand of the ``k``-th seat to move (``k = 0`` is the leader, who holds the 7 of spades),
so the mover at step ``t`` is ``k = t % 4`` and its 13 bits of a position mask are its hand. Per
round the engine keeps two 52-bit position masks and the table::

    held    positions still in hand
    accept  positions whose card the table accepts, or accepted once (test with held)
    table   card mask of the cards played face up

A strategy with a compiled policy (``strategy.compiled``, a ``CompiledPolicy``) is called inside
the kernel, so a lineup of such strategies plays a whole block of rounds in one kernel call. Any
other strategy is asked in Python: the kernel plays every round up to its next decision by such a
seat, the strategy gets those rounds as one ``Observation`` batch, and the kernel resumes with its
answers. Every action, compiled or not, is checked; an illegal one raises ``StrategyFault`` naming
the strategy and the decision, so it never becomes a result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import types

from sim import encoding, jit, lockstep
from sim.api import MAX_POLICY_SETTINGS, Strategy
from sim.cards import NUM_CARDS, NUM_RANKS, bits_to_bools, format_cards, make_card
from sim.games import DealSource, GamesResult, RoundsResult
from sim.lockstep import DealError
from sim.straights import policies, rules
from sim.straights.observation import (
    DISCARDED,
    ENCODED_SIZE,
    ENCODING,
    NOT_YET,
    POLICY,
    Observation,
    positions_to_cards,
)

BLOCK_SIZE = 8192  # rounds a kernel call plays: their state stays in the cache
SEATS = rules.NUM_PLAYERS
HAND = rules.HAND_SIZE
HAND_MASK = (1 << HAND) - 1
SEVEN_OF_SPADES = rules.SEVEN_OF_SPADES
OTHER_SEVENS = np.array([make_card(rules.SEVEN, suit) for suit in range(rules.NUM_SUITS - 1)], dtype=np.int64)
CARD_POINTS = np.array([rules.card_points(card) for card in range(NUM_CARDS)], dtype=np.int8)
NO_FAULT = -1
NO_CARD = NUM_CARDS  # the neighbour of an ace below it and of a king above it
NO_POSITION = 63  # NO_CARD's position: a bit beyond the 52 no hand ever holds, so opening it opens nothing
RANK_OF = np.arange(NUM_CARDS) % NUM_RANKS
LOWER = np.where(RANK_OF > 0, np.arange(NUM_CARDS) - 1, NO_CARD).astype(np.int8)  # each card's neighbour below
HIGHER = np.where(RANK_OF < NUM_RANKS - 1, np.arange(NUM_CARDS) + 1, NO_CARD).astype(np.int8)  # and above
ALL_CARDS = (1 << NUM_CARDS) - 1


@dataclass(frozen=True)
class RoundResults(RoundsResult):
    """What B rounds came to, in the order of the deals: ``points`` (B, 4) int64, what each seat
    scored (the sum of its discards), and on request the trace."""

    actions: np.ndarray | None = None
    """(B, 52) int8 the card taken at each step, when a trace was asked for."""
    discarded: np.ndarray | None = None
    """(B, 52) bool whether that card was discarded rather than played."""


@dataclass(frozen=True)
class GameResults(GamesResult):
    """What B games came to, in the order of the game ids: ``scores`` (B, 4) int64 final game scores,
    ``rounds`` (B,) int64 how many rounds each game lasted, ``winners`` (B, 4) bool the seats with
    the lowest final score (several when tied)."""


def play_rounds(
    deals: np.ndarray,
    strategies: Sequence[Strategy],
    round_ids: np.ndarray | None = None,
    scores: np.ndarray | None = None,
    trace: bool = False,
    script: np.ndarray | None = None,
    script_length: np.ndarray | None = None,
) -> RoundResults:
    """Play each deal once with ``strategies[seat]`` in each seat.

    ``round_ids`` (default ``0..B-1``) and ``scores`` (game scores before the round, default zeros)
    are what the observations report. The first ``script_length[i]`` actions of round ``i`` are
    ``script[i]``'s (B, 52), whoever is to move (a lookahead's rollouts start from its decision so),
    and the strategies take the rest. Raises ``StrategyFault`` naming the strategy that chose an
    illegal action, and ``DealError`` for a deal that is not a permutation of the 52 cards.
    """
    deals, round_ids, scores = _checked_arguments(deals, strategies, round_ids, scores)
    count = len(deals)
    points = np.zeros((count, SEATS), dtype=np.int64)
    actions = np.empty((count, NUM_CARDS), dtype=np.int8) if trace else None
    discarded = np.empty((count, NUM_CARDS), dtype=bool) if trace else None
    if script is None or script_length is None:
        script, script_length = np.empty((count, NUM_CARDS), dtype=np.int8), np.zeros(count, dtype=np.int64)
    seats = lockstep.CompiledSeats(strategies, POLICY, _never_called, policies.BUILT_IN)
    if not seats.in_python.any():
        _play_every_seat_compiled(deals, seats, round_ids, scores, script, script_length, points, actions, discarded)
        return RoundResults(points, actions, discarded)
    for start in range(0, count, BLOCK_SIZE):
        rows = slice(start, start + BLOCK_SIZE)
        block = _Block(deals[rows], round_ids[rows], scores[rows], script[rows], script_length[rows])
        block.play(seats)
        points[rows] = block.points
        if actions is not None and discarded is not None:  # trace
            actions[rows], discarded[rows] = block.actions, block.discarded
    return RoundResults(points, actions, discarded)


def _play_every_seat_compiled(
    deals: np.ndarray,
    seats: lockstep.CompiledSeats,
    round_ids: np.ndarray,
    scores: np.ndarray,
    script: np.ndarray,
    script_length: np.ndarray,
    points: np.ndarray,
    actions: np.ndarray | None,
    discarded: np.ndarray | None,
) -> None:
    """Play ``deals`` in one kernel call when no seat is played in Python: ``points`` (and the trace,
    if ``actions`` and ``discarded`` are given) filled in. A bad deal or an illegal card stops the
    kernel at its row, which the general path plays again to raise its error."""
    deals = np.ascontiguousarray(deals, dtype=np.int8)
    script = np.ascontiguousarray(script, dtype=np.int8)
    script_length = np.ascontiguousarray(script_length, dtype=np.int64)
    no_trace = np.empty((0, NUM_CARDS), dtype=np.int8), np.empty((0, NUM_CARDS), dtype=bool)
    kept = (actions, discarded) if actions is not None and discarded is not None else no_trace
    shared = int(seats.kinds[0]) if (seats.kinds == seats.kinds[0]).all() else MIXED
    kernel = _PLAY_COMPILED_ENTRIES.get(shared, _PLAY_COMPILED_ENTRIES[MIXED])
    bad = kernel(deals, seats.kinds, seats.functions, seats.settings, script, script_length, points, *kept)
    if bad >= 0:
        row = slice(bad, bad + 1)
        _Block(deals[row], round_ids[row], scores[row], script[row], script_length[row]).play(seats)
        raise AssertionError(f"the kernel stopped at row {bad}, which plays without fault")  # pragma: no cover


def judge_scripts(
    deals: np.ndarray,
    strategies: Sequence[Strategy],
    round_ids: np.ndarray,
    scores: np.ndarray,
    script: np.ndarray,
    script_length: np.ndarray,
    weights: np.ndarray,
) -> np.ndarray:
    """(B,) per round, the sum of ``weights[i, t]`` (B, 52) over the script steps ``t`` below
    ``script_length[i]`` whose scripted card the mover's strategy would not have chosen (a zero
    weight is not asked). Each round is replayed from its deal by its script (as ``play_rounds``
    takes one) and stops there. A strategy's answer is only an opinion: the scripted card is played
    whatever it says, and an illegal answer is a mismatch, not a fault. An illegal scripted card raises
    ``StrategyFault`` as in ``play_rounds``; a script, lengths or weights not of those shapes, ``ValueError``."""
    deals, round_ids, scores = _checked_arguments(deals, strategies, round_ids, scores)
    count = len(deals)
    script, script_length = np.asarray(script), np.asarray(script_length, dtype=np.int64)
    weights = np.asarray(weights, dtype=np.int64)
    if script.shape != (count, NUM_CARDS) or weights.shape != (count, NUM_CARDS) or script_length.shape != (count,):
        raise ValueError(
            f"judging {count} rounds takes scripts and weights of shape ({count}, {NUM_CARDS}) and "
            f"script lengths of shape ({count},), not {script.shape}, {weights.shape} and {script_length.shape}"
        )
    if count and (script_length.min() < 0 or script_length.max() > NUM_CARDS):
        raise ValueError(f"script lengths are 0..{NUM_CARDS}")
    seats = lockstep.CompiledSeats(strategies, POLICY, _never_called, policies.BUILT_IN)
    mismatches = np.empty(count, dtype=np.int64)
    for start in range(0, count, BLOCK_SIZE):
        rows = slice(start, start + BLOCK_SIZE)
        block = _Block(deals[rows], round_ids[rows], scores[rows], script[rows], script_length[rows])
        block.judged = np.ascontiguousarray(weights[rows])
        block.play(seats)
        mismatches[rows] = block.mismatches
    return mismatches


def play_games(game_ids: int | np.ndarray, deal_source: DealSource, strategies: Sequence[Strategy]) -> GameResults:
    """Play whole games (``game_ids`` or that many games numbered from 0) until someone reaches 80.

    Every round of every game still going is dealt by ``deal_source(game_ids, round_number)``;
    round ``r`` of game ``g`` has round id ``sim.api.round_id(g, r)``.
    """
    game_ids = np.arange(int(game_ids), dtype=np.int64) if np.ndim(game_ids) == 0 else np.asarray(game_ids, np.int64)

    def play(deals: np.ndarray, ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        return play_rounds(deals, strategies, ids, scores).points

    def is_over(scores: np.ndarray) -> np.ndarray:
        return scores.max(axis=1) >= rules.GAME_OVER_SCORE

    scores, rounds = lockstep.play_games(game_ids, deal_source, play, SEATS, is_over)
    return GameResults(scores, rounds, scores == scores.min(axis=1, keepdims=True))


def _checked_arguments(
    deals: np.ndarray, strategies: Sequence[Strategy], round_ids: np.ndarray | None, scores: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``deals``, ``round_ids`` and ``scores`` checked and filled in with their defaults (``0..B-1``, zeros)."""
    deals = np.asarray(deals)
    count = len(deals)
    if len(strategies) != SEATS:
        raise ValueError(f"Straights needs {SEATS} strategies, got {len(strategies)}")
    round_ids = np.arange(count, dtype=np.int64) if round_ids is None else np.asarray(round_ids, dtype=np.int64)
    scores = np.zeros((count, SEATS), dtype=np.int64) if scores is None else np.asarray(scores, dtype=np.int64)
    _check_deals(deals)
    return deals, round_ids, scores


class _Block:
    """Up to ``BLOCK_SIZE`` rounds, played by ``_advance`` (judged by ``_judge``) and the Python strategies in turn."""

    def __init__(
        self,
        deals: np.ndarray,
        round_ids: np.ndarray,
        scores: np.ndarray,
        script: np.ndarray,
        script_length: np.ndarray,
    ) -> None:
        size = len(deals)
        self.round_ids, self.scores = round_ids, scores
        self.hands = np.empty((size, NUM_CARDS), dtype=np.int8)  # the card at each position
        self.position = np.empty((size, NUM_CARDS + 1), dtype=np.int8)
        self.leader = np.empty(size, dtype=np.int64)
        bad = _lay_out(deals, self.hands, self.position, self.leader)
        if bad >= 0:
            raise DealError(f"the deal of round {int(round_ids[bad])} is not a permutation of the {NUM_CARDS} cards")
        for array in (self.hands, self.position, self.leader):
            array.flags.writeable = False
        self.held = np.full(size, (1 << NUM_CARDS) - 1, dtype=np.int64)
        self.accept = np.left_shift(1, self.position[:, SEVEN_OF_SPADES].astype(np.int64))
        self.table = np.zeros(size, dtype=np.int64)
        self.actions = np.empty((size, NUM_CARDS), dtype=np.int8)
        self.discarded = np.zeros((size, NUM_CARDS), dtype=bool)
        self.points = np.zeros((size, SEATS), dtype=np.int64)
        self.steps = np.zeros(size, dtype=np.int64)
        # Copies: the Python seats' choices join the script as they are made.
        self.script = np.array(script, dtype=np.int8)
        self.script_length = np.array(script_length, dtype=np.int64)
        self.judged = np.zeros((0, NUM_CARDS), dtype=np.int64)  # weights, when judging a script
        self.mismatches = np.zeros(size, dtype=np.int64)
        self.opinion = np.zeros(size, dtype=np.int64)  # a Python seat's card where the script is judged
        self.opinion_at = np.full(size, -1, dtype=np.int64)  # ... and the step it was asked about

    def play(self, seats: lockstep.CompiledSeats) -> None:
        """Play every round to its end (to the end of its script, when judging), handing the Python
        seats their decisions as batches."""
        rows = self.advance(seats, np.arange(len(self.steps)))
        while rows.size:
            self._ask_python_seats(seats, rows)
            rows = self.advance(seats, rows)

    def advance(self, seats: lockstep.CompiledSeats, rows: np.ndarray) -> np.ndarray:
        """Play each of ``rows`` until its round ends (its script ends, when judging) or a seat played
        in Python is to move; returns the rows that paused so. An illegal card raises ``StrategyFault``."""
        paused = np.empty(len(rows), dtype=np.int64)
        fault = np.full(3, NO_FAULT, dtype=np.int64)
        kernel = _JUDGE_ENTRY if self.judged.shape[0] else _ADVANCE_ENTRY
        count = kernel(
            np.ascontiguousarray(rows, dtype=np.int64), self.hands.reshape(-1, HAND), self.position, self.held,
            self.accept, self.table, self.actions, self.discarded, self.points, self.steps, self.leader, self.script,
            self.script_length, self.judged, self.mismatches, self.opinion, self.opinion_at, seats.kinds,
            seats.functions, seats.settings, seats.in_python, paused, fault,
        )  # fmt: skip
        if fault[0] != NO_FAULT:
            self._raise_illegal(seats, *(int(value) for value in fault))
        return paused[:count]

    def restart(self, rows: np.ndarray, deals: np.ndarray, round_ids: np.ndarray) -> None:
        """Deal ``deals`` afresh to ``rows`` (rounds of a game's start: scores zero), unplayed and unscripted."""
        hands, position = np.empty((len(rows), NUM_CARDS), dtype=np.int8), np.empty((len(rows), NUM_CARDS + 1), np.int8)
        leader = np.empty(len(rows), dtype=np.int64)
        bad = _lay_out(np.ascontiguousarray(deals, dtype=np.int8), hands, position, leader)
        if bad >= 0:
            raise DealError(f"the deal of round {int(round_ids[bad])} is not a permutation of the {NUM_CARDS} cards")
        for array, new in ((self.hands, hands), (self.position, position), (self.leader, leader)):
            array.flags.writeable = True
            array[rows] = new
            array.flags.writeable = False
        self.round_ids[rows], self.scores[rows] = round_ids, 0
        self.held[rows], self.table[rows], self.steps[rows] = (1 << NUM_CARDS) - 1, 0, 0
        self.accept[rows] = np.left_shift(1, position[:, SEVEN_OF_SPADES].astype(np.int64))
        self.discarded[rows], self.points[rows], self.script_length[rows] = False, 0, 0

    def mover(self, rows: np.ndarray) -> np.ndarray:
        """The seat to move in each of ``rows``."""
        return (self.leader[rows] + self.steps[rows]) % SEATS

    def take(self, rows: np.ndarray, cards: np.ndarray) -> None:
        """The movers of ``rows`` play (or discard) ``cards``, when the rows next advance."""
        steps = self.steps[rows]
        self.script[rows, steps] = cards
        self.script_length[rows] = steps + 1

    def _ask_python_seats(self, seats: lockstep.CompiledSeats, rows: np.ndarray) -> None:
        """Each Python strategy's choices in the ``rows`` where its seat is to move: added to the
        script, or, where the script is judged, kept as its opinion."""
        seat = self.mover(rows)
        for strategy, plays in seats.seats_of:
            mine = rows[plays[seat]]
            if not mine.size:
                continue
            steps = self.steps[mine]
            if self.judged.shape[0]:  # a model's opinion of a scripted card: any answer, even an illegal one
                self.opinion[mine] = np.asarray(strategy.choose(self.observe(mine)), dtype=np.int64)
                self.opinion_at[mine] = steps
                continue
            # Only the number of actions: the kernel checks each card is legal where it is played.
            self.take(mine, lockstep.choose_checked(strategy, self.observe(mine), NUM_CARDS, steps, seat[plays[seat]]))

    def observe(self, rows: np.ndarray) -> Observation:
        """The movers' view of the rounds ``rows``: copies, so no later step changes them (the lazy
        fields read steps already taken), carrying their encoding (``encoding.attach``)."""
        steps, leader = self.steps[rows], self.leader[rows]
        mover = steps % SEATS
        hand = self.hands.reshape(-1, SEATS, HAND)[rows, mover]
        held = (self.held[rows] >> (HAND * mover)) & HAND_MASK
        legal = (self.accept[rows] >> (HAND * mover)) & held
        options = np.where(legal == 0, held, legal)
        observation = Observation(
            len(rows),
            {
                "seat": (leader + mover) % SEATS,
                "hand": hand,
                "held": held,
                "legal": legal,
                "options": options,
                "legal_mask": lambda: bits_to_bools(positions_to_cards(hand, options)),
                "table": self.table[rows],
                "step": steps,
                "history": lambda: _history(self.actions[rows], self.discarded[rows], steps),
                "cards_left": lambda: _cards_left(steps, leader),
                "scores": self.scores[rows],
                "round_id": self.round_ids[rows],
            },
        )
        return encoding.attach(observation, self.encoded(rows)[0])

    def encoded(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The movers' observations of ``rows`` as ``observation.encode`` lays them out and their legal
        actions' masks (int8), written by compiled code from the rounds' state."""
        encoded = np.zeros((len(rows), ENCODED_SIZE), dtype=np.float32)
        masks = np.zeros((len(rows), NUM_CARDS), dtype=np.int8)
        _encode(
            np.ascontiguousarray(rows, dtype=np.int64), self.hands.reshape(-1, HAND), self.held, self.accept,
            self.table, self.actions, self.discarded, self.steps, self.leader, self.scores, encoded, masks,
        )  # fmt: skip
        return encoded, masks

    def _raise_illegal(self, seats: lockstep.CompiledSeats, row: int, step: int, card: int) -> None:
        """The fault of the strategy whose compiled policy (or script) chose ``card``, not an option there."""
        seat = (int(self.leader[row]) + step) % SEATS
        mover = step % SEATS
        hand = self.hands[row, HAND * mover : HAND * (mover + 1)]
        held = int(self.held[row]) >> (HAND * mover) & HAND_MASK
        options = (int(self.accept[row]) >> (HAND * mover) & held) or held
        legal = format_cards(int(card) for position, card in enumerate(hand) if options >> position & 1)
        if 0 <= card < NUM_CARDS:
            what = f"chose {format_cards([card])}, which is not legal there (legal: {legal})"
        else:
            what = f"chose action {card}, which is not an action of this game (0..{NUM_CARDS - 1})"
        raise lockstep.fault(seats.strategies[seat], what, self.round_ids[row : row + 1], step, seat)


class Tables(lockstep.BlockTables):
    """Rounds dealt and played side by side, each paused wherever a seat played in Python is to move:
    the engine of the batched environments (``sim.vecenv``, whose ``Tables`` protocol this is). A
    learner's seat is one whose strategy has no compiled policy and is never asked here."""

    def __init__(
        self,
        strategies: Sequence[Strategy],
        deals: np.ndarray,
        round_ids: np.ndarray,
        scores: np.ndarray | None = None,
        script: np.ndarray | None = None,
        script_length: np.ndarray | None = None,
    ) -> None:
        """``scores``: the game scores before each round (default zeros); ``script``, ``script_length``:
        actions each round takes first, whoever is to move (``play_rounds``' script; default none):
        the tables then go on from the position they reach."""
        deals, round_ids, scores = _checked_arguments(deals, strategies, np.array(round_ids, dtype=np.int64), scores)
        count = len(deals)
        if script is None or script_length is None:
            script, script_length = np.empty((count, NUM_CARDS), dtype=np.int8), np.zeros(count, dtype=np.int64)
        block = _Block(deals, round_ids, scores, script, script_length)
        super().__init__(block, lockstep.CompiledSeats(strategies, POLICY, _never_called, policies.BUILT_IN))

    def restart(self, rows: np.ndarray, deals: np.ndarray, round_ids: np.ndarray) -> None:
        _check_deals(np.asarray(deals))
        self.block.restart(rows, deals, round_ids)

    def scored(self, rows: np.ndarray) -> np.ndarray:
        """The points of the cards each seat has discarded so far."""
        return self.block.points[rows]

    def actions_taken(self, rows: np.ndarray) -> np.ndarray:
        """(n, 52) int8 the card each of ``rows`` took at each step, face-down discards shown (what no
        seat sees: the round's true record), ``NOT_YET`` from its next step on."""
        block = self.block
        return np.where(np.arange(NUM_CARDS) < block.steps[rows][:, None], block.actions[rows], NOT_YET).astype(np.int8)

    def encoded(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.block.encoded(rows)


# Where each slice of ``observation.ENCODING`` starts in an encoded row.
_SEAT_AT, _HELD_AT, _TABLE_AT, _OWN_DISCARDS_AT, _PLAYED_BY_AT, _DISCARDS_AT, _LEFT_AT, _STEP_AT, _SCORES_AT = (
    offset for offset, _, _ in encoding.slices(ENCODING)
)


@jit.njit(cache=True, nogil=True)
def _encode(rows, hands, held, accept, table, actions, discarded, steps, leader, scores, encoded, masks):
    """Row k of ``encoded`` (zeros before) the encoding of the mover's view of round ``rows[k]``, the
    one ``observation.encode`` makes of ``_Block.observe``, and row k of ``masks`` its legal actions."""
    for k in range(rows.shape[0]):
        row = rows[k]
        step = steps[row]
        mover = step & 3  # turn order from the leader
        seat = (leader[row] + mover) & 3
        out = encoded[k]
        out[_SEAT_AT + seat] = 1.0
        own = (held[row] >> (HAND * mover)) & HAND_MASK
        legal = (accept[row] >> (HAND * mover)) & own
        options = legal if legal else own
        for at in range(HAND):
            card = hands[SEATS * row + mover, at]
            if own >> at & 1:
                out[_HELD_AT + card] = 1.0
            elif not table[row] >> card & 1:
                out[_OWN_DISCARDS_AT + card] = 1.0
            if options >> at & 1:
                masks[k, card] = 1
        for card in range(NUM_CARDS):
            if table[row] >> card & 1:
                out[_TABLE_AT + card] = 1.0
        discards = np.zeros(SEATS, dtype=np.int64)
        for past in range(step):
            actor = (past - step) & 3  # places after the mover
            if discarded[row, past]:
                discards[actor] += 1
            else:
                out[_PLAYED_BY_AT + NUM_CARDS * actor + actions[row, past]] = 1.0
        for after in range(SEATS):
            out[_DISCARDS_AT + after] = discards[after] / HAND
            out[_LEFT_AT + after] = (HAND - (step - ((mover + after) & 3) + SEATS - 1) // SEATS) / HAND
            out[_SCORES_AT + after] = scores[row, (seat + after) & 3] / rules.GAME_OVER_SCORE
        out[_STEP_AT] = step / NUM_CARDS


@jit.njit(POLICY.signature, cache=True, nogil=True)
def _never_called(hands, hand, held, legal, options, table, settings):  # pragma: no cover - a seat played in Python
    """The stand-in policy of a seat played in Python: the kernel pauses before calling it."""
    return -1


def _check_deals(deals: np.ndarray) -> None:
    """``DealError`` unless ``deals`` is (n, 52) integer card ids (``_lay_out`` checks each is a permutation)."""
    if deals.ndim != 2 or deals.shape[1] != NUM_CARDS:
        raise DealError(f"deals must be an array of shape (n, {NUM_CARDS}), not {deals.shape}")
    if deals.dtype.kind not in "iu":
        raise DealError(f"deals hold integer card ids, not {deals.dtype}")
    if deals.size and (deals.min() < 0 or deals.max() >= NUM_CARDS):
        raise DealError(f"deals hold card ids 0..{NUM_CARDS - 1}")


@jit.njit(inline="always")
def _check_and_place(deal, position):
    """``position`` (53,) each card's slot in ``deal`` (``NO_CARD``'s is ``NO_POSITION``); False if the
    deal is not a permutation of the cards."""
    seen = np.int64(0)
    for slot in range(NUM_CARDS):
        card = deal[slot]
        seen |= np.int64(1) << card
        position[card] = slot
    position[NO_CARD] = NO_POSITION
    return seen == ALL_CARDS


@jit.njit(inline="always")
def _opened(position, card):
    """The positions (a 52-bit mask) whose cards the table accepts once ``card`` is played: its
    neighbours in rank (``NO_CARD`` past an ace or a king, at a position no hand has), and after the
    7 of spades the other sevens."""
    opened = (np.int64(1) << position[LOWER[card]]) | (np.int64(1) << position[HIGHER[card]])
    if card == SEVEN_OF_SPADES:
        for seven in OTHER_SEVENS:
            opened |= np.int64(1) << position[seven]
    return opened


@jit.njit(inline="always")
def _choose(
    kind, externals, seat, hands, hand, first_position, position, held, held_cards, legal, options, table, settings
):
    """(card, its position) the policy of ``kind`` chooses for the mover holding ``hands[hand]``, whose
    cards are at positions ``first_position ..``: a built-in policy's by its position in the hand, an
    external one's (``kind`` EXTERNAL, ``externals[seat]``) by its card; the position is
    ``NUM_CARDS`` for a card that is no card."""
    if kind >= 0:
        chosen = policies.decide(kind, hands, hand, held, held_cards, legal, options, table, settings)
        return hands[hand, chosen], first_position + chosen
    card = externals[seat](hands, hand, held, legal, options, table, settings)
    return card, position[card] if 0 <= card < NUM_CARDS else NUM_CARDS


@jit.njit(cache=True, nogil=True)
def _lay_out(deals, hands, position, leader):
    """Each round's leader, its hands in turn order from the leader (``hands[row]`` is the card at each
    position) and each card's position (``NO_CARD``'s is ``NO_POSITION``). Returns the first row that
    is not a permutation of the cards, else -1."""
    for row in range(deals.shape[0]):
        if not _check_and_place(deals[row], position[row]):
            return row
        first = position[row, SEVEN_OF_SPADES] // HAND * HAND
        leader[row] = first // HAND
        for slot in range(NUM_CARDS):
            at = slot - first if slot >= first else slot - first + NUM_CARDS
            card = deals[row, slot]
            position[row, card] = at
            hands[row, at] = card
    return -1


_ADVANCE = types.int64(
    types.int64[:],  # rows to advance
    types.Array(types.int8, 2, "C", readonly=True),  # hands (4n, 13): row 4 * round + k is the k-th mover's
    types.Array(types.int8, 2, "C", readonly=True),  # position (n, 53) of each card, and of NO_CARD
    types.int64[:],  # held
    types.int64[:],  # accept
    types.int64[:],  # table
    types.int8[:, :],  # actions (n, 52)
    types.boolean[:, :],  # discarded (n, 52)
    types.int64[:, :],  # points (n, 4): each seat's discards so far
    types.int64[:],  # steps: the next step of each round
    types.Array(types.int64, 1, "C", readonly=True),  # leader
    types.int8[:, :],  # script (n, 52): actions decided before the kernel asks anyone
    types.int64[:],  # script_length: how many of them each round has
    types.int64[:, :],  # judged (n, 52) weights of the scripted cards to judge (_judge only)
    types.int64[:],  # mismatches: out, the weights of the judged cards a seat would not have chosen
    types.int64[:],  # opinion: a Python seat's card at a judged step
    types.int64[:],  # opinion_at: the step it answered for
    types.Array(types.int64, 1, "C", readonly=True),  # each seat's kind of policy (lockstep.CompiledSeats)
    types.UniTuple(POLICY, SEATS),  # each seat's external compiled policy
    types.UniTuple(types.UniTuple(types.float64, MAX_POLICY_SETTINGS), SEATS),  # and its settings
    types.Array(types.boolean, 1, "C", readonly=True),  # seats played in Python
    types.int64[:],  # paused: out, the rows waiting on a Python seat
    types.int64[:],  # fault: out, (row, step, card) of an illegal action
)


# Inlined into both kernels, where ``judging`` is a constant: the code that judges is compiled out of
# ``_advance``, whose loop it would slow by a few per cent (measured with first-legal in every seat).
@jit.njit(inline="always")
def _rounds(
    rows, hands, position, held, accept, table, actions, discarded, points, steps, leader, script,
    script_length, judged, mismatches, opinion, opinion_at, kinds, external, settings, in_python, paused, fault,
    judging,
):  # fmt: skip
    """The loop of both kernels: ``_judge``'s when ``judging``, else ``_advance``'s. A judged step of a
    seat played in Python pauses its row once, to ask the seat its opinion; when the row resumes, the
    scripted card is judged by ``opinion``."""
    count = 0
    for row in rows:
        # The round's state in locals while it plays: loads and stores through arrays cost more than the rules.
        step, in_hand, accepted, played = steps[row], held[row], accept[row], table[row]
        first, scripted = leader[row], script_length[row]
        end = scripted if judging else NUM_CARDS
        python_movers = 0  # bit k: the k-th seat to move is played in Python
        for mover in range(SEATS):
            python_movers |= in_python[(first + mover) & 3] << mover
        while step < end:
            mover = step & 3  # step % SEATS, as SEATS is 4
            seat = (first + mover) & 3
            own = (in_hand >> (HAND * mover)) & HAND_MASK
            legal = (accepted >> (HAND * mover)) & own
            options = legal if legal else own
            if step < scripted:
                card = script[row, step]
                at = position[row, card] if 0 <= card < NUM_CARDS else NUM_CARDS
                if judging and judged[row, step]:
                    if python_movers >> mover & 1:
                        if opinion_at[row] != step:
                            paused[count] = row
                            count += 1
                            break
                        wanted = opinion[row]
                    else:
                        wanted = _choose(
                            kinds[seat], external, seat, hands, SEATS * row + mover, HAND * mover, position[row],
                            own, policies.cards_held(hands, SEATS * row + mover, own), legal, options, played,
                            settings[seat],
                        )[0]  # fmt: skip
                    if wanted != card:
                        mismatches[row] += judged[row, step]
            elif python_movers >> mover & 1:
                paused[count] = row
                count += 1
                break
            else:
                card, at = _choose(
                    kinds[seat], external, seat, hands, SEATS * row + mover, HAND * mover, position[row],
                    own, policies.cards_held(hands, SEATS * row + mover, own), legal, options, played,
                    settings[seat],
                )  # fmt: skip
            if not (options << (HAND * mover)) >> at & 1:
                fault[0], fault[1], fault[2] = row, step, card
                break
            in_hand ^= np.int64(1) << at
            actions[row, step] = card
            discarded[row, step] = legal == 0
            if legal:  # a discard opens nothing
                played |= np.int64(1) << card
                accepted |= _opened(position[row], card)
            else:
                points[row, seat] += CARD_POINTS[card]
            step += 1
        steps[row], held[row], accept[row], table[row] = step, in_hand, accepted, played
        if fault[0] != NO_FAULT:
            break
    return count


@jit.njit(_ADVANCE, cache=True, nogil=True)
def _advance(
    rows, hands, position, held, accept, table, actions, discarded, points, steps, leader, script,
    script_length, judged, mismatches, opinion, opinion_at, kinds, external, settings, in_python, paused, fault,
):  # fmt: skip
    """Play each of ``rows`` until its round ends or a seat played in Python is to move; returns how
    many rows paused (their indexes in ``paused``). An illegal action stops it with ``fault`` set."""
    return _rounds(
        rows, hands, position, held, accept, table, actions, discarded, points, steps, leader, script,
        script_length, judged, mismatches, opinion, opinion_at, kinds, external, settings, in_python, paused, fault,
        False,
    )  # fmt: skip


@jit.njit(_ADVANCE, cache=True, nogil=True)
def _judge(
    rows, hands, position, held, accept, table, actions, discarded, points, steps, leader, script,
    script_length, judged, mismatches, opinion, opinion_at, kinds, external, settings, in_python, paused, fault,
):  # fmt: skip
    """Replay each of ``rows`` by its script to the script's end, adding to ``mismatches`` the weight
    (``judged``) of each scripted card its mover's strategy would not have chosen, until a seat played
    in Python is asked its opinion; returns how many rows paused. An illegal card stops it with ``fault`` set."""
    return _rounds(
        rows, hands, position, held, accept, table, actions, discarded, points, steps, leader, script,
        script_length, judged, mismatches, opinion, opinion_at, kinds, external, settings, in_python, paused, fault,
        True,
    )  # fmt: skip


_ADVANCE_ENTRY = lockstep.entry_point(_advance, _ADVANCE)
_JUDGE_ENTRY = lockstep.entry_point(_judge, _ADVANCE)


_PLAY_COMPILED = types.int64(
    types.Array(types.int8, 2, "C", readonly=True),  # deals (n, 52)
    types.Array(types.int64, 1, "C", readonly=True),  # each seat's kind of policy (lockstep.CompiledSeats)
    types.UniTuple(POLICY, SEATS),  # each seat's external compiled policy
    types.UniTuple(types.UniTuple(types.float64, MAX_POLICY_SETTINGS), SEATS),  # and its settings
    types.Array(types.int8, 2, "C", readonly=True),  # script (n, 52): cards played before any policy is asked
    types.Array(types.int64, 1, "C", readonly=True),  # script_length: how many of them each round has
    types.int64[:, :],  # points (n, 4): out, each seat's discards
    types.int8[:, :],  # actions (n, 52): out, the card taken at each step ((0, 52): not kept)
    types.boolean[:, :],  # discarded (n, 52): out, whether it was discarded
)
MIXED = -2  # a lineup whose seats' policies are not one built-in policy: each seat's kind is read as it moves


@jit.njit(inline="always")
def _play_dealt(deals, kinds, externals, settings, script, script_length, points, actions, discarded, lineup):
    """Play each deal to its end when every seat's policy is compiled, its first ``script_length[row]``
    cards from ``script`` (a lookahead's rollouts start so); returns -1, or the first row whose deal is
    not a permutation of the cards or whose mover (or script) chose a card it may not play
    (``_play_every_seat_compiled`` plays it again to say which). ``lineup`` is the kind of every
    seat's policy, or ``MIXED``: each kernel below is this loop compiled for one such constant.

    Unlike ``_Block``, a round is played in the order it was dealt (position ``13 * s + i`` is card
    ``i`` of seat ``s``, so the deal itself is the hands) and laid out as it is played: its state
    stays in registers and the cache."""
    tracing = actions.shape[0] > 0
    position = np.empty(NUM_CARDS + 1, dtype=np.int8)
    opens = np.empty(NUM_CARDS, dtype=np.int64)  # what playing the card at each position opens
    scored = np.empty(SEATS, dtype=np.int64)
    held_cards = np.empty(SEATS, dtype=np.int64)
    reads_cards = lineup != policies.FIRST_LEGAL  # a constant in each kernel: first-legal reads positions only
    for row in range(deals.shape[0]):
        deal = deals[row]
        if not _check_and_place(deal, position):
            return row
        for at in range(NUM_CARDS):
            opens[at] = _opened(position, deal[at])
        hands = deal.reshape(SEATS, HAND)
        leader = position[SEVEN_OF_SPADES] // HAND
        in_hand, accepted, played = ALL_CARDS, np.int64(1) << position[SEVEN_OF_SPADES], np.int64(0)
        scored[:] = 0
        held_cards[:] = 0  # each seat's hand as a card mask, for the policies that read cards
        if reads_cards:
            for at in range(NUM_CARDS):
                held_cards[at // HAND] |= np.int64(1) << deal[at]
        scripted = script_length[row]
        for step in range(NUM_CARDS):
            seat = (leader + step) & 3  # (leader + step) % SEATS, as SEATS is 4
            own = (in_hand >> (HAND * seat)) & HAND_MASK
            legal = (accepted >> (HAND * seat)) & own
            options = legal if legal else own
            if step < scripted:
                card = script[row, step]
                at = position[card] if 0 <= card < NUM_CARDS else NUM_CARDS
            else:
                kind = lineup if lineup != MIXED else kinds[seat]
                card, at = _choose(
                    kind, externals, seat, hands, seat, HAND * seat, position, own, held_cards[seat], legal, options,
                    played, settings[seat],
                )  # fmt: skip
            if not (options << (HAND * seat)) >> at & 1:
                return row
            in_hand ^= np.int64(1) << at
            if reads_cards:
                held_cards[seat] ^= np.int64(1) << card
            if tracing:
                actions[row, step] = card
                discarded[row, step] = legal == 0
            # Without branches: whether a card is played or discarded is too irregular to predict.
            playing = -np.int64(legal != 0)  # every bit set for a play, none for a discard
            played |= (np.int64(1) << card) & playing
            accepted |= opens[at] & playing
            scored[seat] += CARD_POINTS[card] & ~playing
        points[row] += scored
    return -1


@jit.njit(_PLAY_COMPILED, cache=True, nogil=True)
def _play_first_legal(deals, kinds, externals, settings, script, script_length, points, actions, discarded):
    """``_play_dealt`` with first-legal in every seat."""
    return _play_dealt(
        deals, kinds, externals, settings, script, script_length, points, actions, discarded, policies.FIRST_LEGAL
    )


@jit.njit(_PLAY_COMPILED, cache=True, nogil=True)
def _play_heuristic(deals, kinds, externals, settings, script, script_length, points, actions, discarded):
    """``_play_dealt`` with the heuristic in every seat (settings may differ by seat)."""
    return _play_dealt(
        deals, kinds, externals, settings, script, script_length, points, actions, discarded, policies.HEURISTIC
    )


@jit.njit(_PLAY_COMPILED, cache=True, nogil=True)
def _play_mixed(deals, kinds, externals, settings, script, script_length, points, actions, discarded):
    """``_play_dealt`` with any compiled policies."""
    return _play_dealt(deals, kinds, externals, settings, script, script_length, points, actions, discarded, MIXED)


_PLAY_COMPILED_ENTRIES = {
    policies.FIRST_LEGAL: lockstep.entry_point(_play_first_legal, _PLAY_COMPILED),
    policies.HEURISTIC: lockstep.entry_point(_play_heuristic, _PLAY_COMPILED),
    MIXED: lockstep.entry_point(_play_mixed, _PLAY_COMPILED),
}
"""The kernel for a lineup: by the kind every seat shares, else MIXED."""


def _history(actions: np.ndarray, discarded: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """(n, 52) int8 the action log: the card played at each step, ``DISCARDED`` or ``NOT_YET``."""
    history = np.where(discarded, DISCARDED, actions).astype(np.int8)
    history[np.arange(NUM_CARDS) >= steps[:, None]] = NOT_YET
    return history


def _cards_left(step: np.ndarray, leader: np.ndarray) -> np.ndarray:
    """(n, 4) cards each seat holds at ``step``: a seat k places after the leader has moved at t = k, k + 4, ..."""
    turn_order = (np.arange(SEATS) - leader[:, None]) % SEATS
    return HAND - (step[:, None] - turn_order + SEATS - 1) // SEATS
