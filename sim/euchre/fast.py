"""The compiled Euchre engine: many hands at once, each played by a numba kernel row by row.

``play_rounds`` plays B deals (each the 24-card pack in the order it is dealt from, as the reference
``Hand`` takes it) with four strategies, the same objects the reference engine takes, and returns
each seat's points; ``play_games`` strings hands into games until a team reaches 10 points.
``judge_scripts`` replays scripted hands and counts the scripted actions the seats' strategies would
not have taken (a lookahead's inference). ``sim.crosscheck`` checks that both engines make the same moves.

A hand's decisions are numbered by *script position* (``sim.euchre.observation.SCRIPT_STEPS``): a
hand moves through them in increasing order, so one number says whose turn it is and what phase
the hand is in. Per hand the engine keeps each seat's cards as a card bitmask, the bids, trump and
maker, the cards played, and the card winning the trick so far (the rules' trick order decides).

A strategy with a compiled policy (``strategy.compiled``, a ``CompiledPolicy``) is called inside
the kernel: a built-in policy (``sim.euchre.policies``) directly, picked by its seat's kind, so the
compiler inlines it, any other through its address. A lineup of such strategies plays every hand of
a call in one kernel call (``_play_dealt``), each hand dealt, played and scored in locals. Any other
strategy is asked in Python: hands are laid out in blocks (``_Block``), the kernel (``_advance``)
plays every hand up to its next decision by such a seat, the strategy gets those hands as one
``Observation`` batch, and the kernel resumes with its answers. Both kernels step a hand with one
loop, ``_play_on``. Every action, compiled or not, is checked; an illegal one raises
``StrategyFault`` naming the strategy and the decision, so it never becomes a result.

``Tables`` is a block kept for the batched environments (``sim.vecenv``): each hand is dealt
afresh when it ends, paused wherever a learner is to move, and encoded for it by ``_encode``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numba import types

from sim import encoding, jit, lockstep
from sim.api import Strategy
from sim.cards import NUM_RANKS, bits_to_bools
from sim.euchre import policies, rules
from sim.euchre.observation import (
    BID_KINDS,
    BIDS,
    DISCARD_STEP,
    ENCODED_SIZE,
    ENCODING,
    FIRST_CARD_STEP,
    NONE,
    NUM_ACTIONS,
    ORDER_UP,
    PACK_INDEX,
    PASS,
    POLICY,
    SCRIPT_STEPS,
    SETTINGS,
    Observation,
    Phase,
)
from sim.games import DealSource, GamesResult, RoundsResult
from sim.lockstep import DealError

BLOCK_SIZE = 8192  # hands played together: memory stays flat however many are asked for
SEATS = rules.NUM_PLAYERS
CARDS_PLAYED = SEATS * rules.TRICKS_PER_HAND
NO_FAULT = -1
_CARD_IDS = 52
_PASS_BIT = np.int64(1) << PASS
_EVERY_ORDER = np.int64(sum(1 << (ORDER_UP + suit) for suit in range(4)))
_PACK_MASK = np.int64(rules.PACK_MASK)
_MAKING, _DISCARD, _PLAYING = int(Phase.MAKING), int(Phase.DISCARD), int(Phase.PLAYING)
_TEAM_OF_SEAT = np.array([rules.team_of(seat) for seat in range(SEATS)])
# The rules' decision tables, flat for the kernel.
_EFFECTIVE_SUIT = rules.EFFECTIVE_SUIT.ravel()  # [trump * 52 + card]
_SUIT_CARDS = rules.SUIT_CARDS.ravel()  # [trump * 4 + suit]
_STRENGTH = rules.STRENGTH.ravel()  # [(trump * 5 + led suit) * 52 + card]
# [pack position] the seat it is dealt to, counted from the dealer (the upcard and undealt cards: none).
_DEAL_OFFSET = np.array(
    [offset for position in range(rules.UPCARD_POSITION) for offset, hand in
     enumerate(rules.deal_hands(range(rules.PACK_SIZE), dealer=0)) if position in hand],
    dtype=np.int64,
)  # fmt: skip


@dataclass(frozen=True)
class HandResults(RoundsResult):
    """What B hands came to, in the order of the deals: ``points`` (B, 4) int64, each seat's (its
    team's) points, and on request the trace."""

    actions: np.ndarray | None = None
    """(B, SCRIPT_STEPS) int8 the action at each script position, ``NONE`` where none was taken."""


def play_rounds(
    deals: np.ndarray,
    strategies: Sequence[Strategy],
    round_ids: np.ndarray | None = None,
    scores: np.ndarray | None = None,
    trace: bool = False,
    script: np.ndarray | None = None,
    script_length: np.ndarray | None = None,
) -> HandResults:
    """Play each deal as one hand with ``strategies[seat]`` in each seat; each seat's points (its team's).

    Hand ``i`` is numbered ``round_ids[i]`` (default ``0..B-1``) and, as in the reference engine's
    ``new_state``, dealt by seat ``round_ids[i] % 4``. ``scores`` (B, 2) are the teams' game scores
    before the hand (default zeros), which observations report. The actions at the script positions
    below ``script_length[i]`` are ``script[i]``'s (B, SCRIPT_STEPS), whoever is to move (a
    lookahead's rollouts start from its decision so), and the strategies take the rest. With
    ``trace``, the result's ``actions`` (B, SCRIPT_STEPS) int8 are the action the kernel took at each
    script position, ``NONE`` where none was taken (bids never made, no discard). Raises
    ``StrategyFault`` naming the strategy that raised or chose what it may not, and ``DealError`` for
    a deal that is not a Euchre pack.
    """
    blocks = _blocks(deals, strategies, round_ids, scores, script, script_length)
    seats = lockstep.CompiledSeats(strategies, POLICY, _never_called, policies.BUILT_IN)
    count = len(blocks.deals)
    points = np.empty((count, SEATS), dtype=np.int64)
    actions = np.full((count, SCRIPT_STEPS), NONE, dtype=np.int8) if trace else None
    if not seats.in_python.any():
        _play_every_seat_compiled(blocks, seats, points, actions, _NOT_JUDGED, _NO_MISMATCHES)
        return HandResults(points, actions)
    for rows, block in blocks:
        block.play(seats)
        points[rows] = block.points
        if actions is not None:
            actions[rows] = block.actions
    return HandResults(points, actions)


def judge_scripts(
    deals: np.ndarray,
    strategies: Sequence[Strategy],
    round_ids: np.ndarray,
    scores: np.ndarray,
    script: np.ndarray,
    script_length: np.ndarray,
    weights: np.ndarray,
) -> np.ndarray:
    """(B,) per hand, the sum of ``weights[i, p]`` (B, SCRIPT_STEPS) over the script positions ``p``
    below ``script_length[i]`` whose scripted action the mover's strategy would not have taken (a
    zero weight is not asked). Each hand is replayed from its deal by its script and stops there."""
    blocks = _blocks(deals, strategies, round_ids, scores, script, script_length)
    seats = lockstep.CompiledSeats(strategies, POLICY, _never_called, policies.BUILT_IN)
    weights = np.ascontiguousarray(weights, dtype=np.int64)
    if weights.shape != blocks.script.shape:
        raise ValueError(f"weights are (n, {SCRIPT_STEPS}), one row per deal")
    mismatches = np.zeros(len(blocks.deals), dtype=np.int64)
    if not seats.in_python.any():
        _play_every_seat_compiled(blocks, seats, _NO_POINTS, None, weights, mismatches)
        return mismatches
    for rows, block in blocks:
        block.judged = np.ascontiguousarray(weights[rows])
        block.play(seats)
        mismatches[rows] = block.mismatches
    return mismatches


def play_games(game_ids: np.ndarray, deal_source: DealSource, strategies: Sequence[Strategy]) -> GamesResult:
    """Play whole games to ``rules.DEFAULT_POINTS_TO_WIN``: hand ``r`` of every game still going is
    dealt by ``deal_source(its game ids, r)``, numbered ``sim.api.round_id(g, r)`` and dealt by seat
    ``r % 4``, as the reference ``Game`` deals (``sim.lockstep``). Games that are over drop out of later hands."""

    def play(deals: np.ndarray, ids: np.ndarray, team_scores: np.ndarray) -> np.ndarray:
        return play_rounds(deals, strategies, ids, team_scores).points[:, : rules.NUM_TEAMS]  # seats 0, 1: teams 0, 1

    def is_over(team_scores: np.ndarray) -> np.ndarray:
        return team_scores.max(axis=1) >= rules.DEFAULT_POINTS_TO_WIN

    team_scores, hands_played = lockstep.play_games(game_ids, deal_source, play, rules.NUM_TEAMS, is_over)
    winners = team_scores >= rules.DEFAULT_POINTS_TO_WIN
    return GamesResult(team_scores[:, _TEAM_OF_SEAT], hands_played, winners[:, _TEAM_OF_SEAT])


def _play_every_seat_compiled(
    blocks: _Blocks,
    seats: lockstep.CompiledSeats,
    points: np.ndarray,
    actions: np.ndarray | None,
    judged: np.ndarray,
    mismatches: np.ndarray,
) -> None:
    """Play (or judge, when ``judged`` has rows) every hand of ``blocks`` in one kernel call when no
    seat is played in Python: ``points``, ``mismatches`` and the trace (``actions``, if given) filled
    in. A bad deal or an illegal action stops the kernel at its row, which ``_Block`` plays again to
    raise its error."""
    shared = int(seats.kinds[0]) if (seats.kinds == seats.kinds[0]).all() else MIXED
    kernel = _PLAY_ENTRIES.get(shared, _PLAY_ENTRIES[MIXED])
    bad = kernel(
        blocks.deals, blocks.round_ids, seats.kinds, seats.functions, seats.settings, blocks.script,
        blocks.script_length, judged, mismatches, points, _NO_TRACE if actions is None else actions,
    )  # fmt: skip
    if bad >= 0:
        row = slice(bad, bad + 1)
        block = next(iter(_Blocks(*(part[row] for part in blocks.parts()))))[1]
        block.judged = np.array(judged[row])
        block.play(seats)
        raise AssertionError(f"the kernel stopped at row {bad}, which plays without fault")  # pragma: no cover


@dataclass(frozen=True)
class _Blocks:
    """A call's hands, checked, to be played ``BLOCK_SIZE`` at a time; ``script`` and
    ``script_length`` have no rows when nothing is scripted."""

    deals: np.ndarray
    round_ids: np.ndarray
    scores: np.ndarray
    script: np.ndarray
    script_length: np.ndarray

    def parts(self) -> tuple[np.ndarray, ...]:
        """The fields, in order."""
        return self.deals, self.round_ids, self.scores, self.script, self.script_length

    def __iter__(self) -> Iterator[tuple[slice, _Block]]:
        for start in range(0, len(self.deals), BLOCK_SIZE):
            rows = slice(start, start + BLOCK_SIZE)
            yield rows, _Block(*(part[rows] for part in self.parts()))


def _blocks(
    deals: np.ndarray,
    strategies: Sequence[Strategy],
    round_ids: np.ndarray | None,
    scores: np.ndarray | None,
    script: np.ndarray | None,
    script_length: np.ndarray | None,
) -> _Blocks:
    """The arguments of a call, checked and filled in with their defaults."""
    deals = _checked_deals(deals)
    count = len(deals)
    if len(strategies) != SEATS:
        raise ValueError(f"Euchre needs {SEATS} strategies, got {len(strategies)}")
    if round_ids is None:
        round_ids = np.arange(count, dtype=np.int64)
    round_ids = np.ascontiguousarray(round_ids, dtype=np.int64)
    scores = np.zeros((count, rules.NUM_TEAMS), dtype=np.int64) if scores is None else np.asarray(scores, np.int64)
    if script is None or script_length is None:
        return _Blocks(deals, round_ids, scores, _NO_SCRIPT, _NO_SCRIPT_LENGTH)
    script = np.ascontiguousarray(script, dtype=np.int8)
    script_length = np.ascontiguousarray(script_length, dtype=np.int64)
    if script.shape != (count, SCRIPT_STEPS) or script_length.shape != (count,):
        raise ValueError(f"a script is (n, {SCRIPT_STEPS}) actions and (n,) lengths, one row per deal")
    return _Blocks(deals, round_ids, scores, script, script_length)


def _read_only(values: np.ndarray) -> np.ndarray:
    values.flags.writeable = False
    return values


# What the kernels take for what a call does not have: no script, no weights to judge by, no points
# or trace to keep.
_NO_SCRIPT = _read_only(np.empty((0, SCRIPT_STEPS), dtype=np.int8))
_NO_SCRIPT_LENGTH = _read_only(np.empty(0, dtype=np.int64))
_NOT_JUDGED = _read_only(np.empty((0, SCRIPT_STEPS), dtype=np.int64))
_NO_MISMATCHES = np.empty(0, dtype=np.int64)
_NO_POINTS = np.empty((0, SEATS), dtype=np.int64)
_NO_TRACE = np.empty((0, SCRIPT_STEPS), dtype=np.int8)


def _checked_deals(deals: np.ndarray) -> np.ndarray:
    """The deals as int8 card ids once their shape and values are those of card ids (that each is
    exactly the pack is checked as a block is laid out)."""
    deals = np.asarray(deals)
    if deals.ndim != 2 or deals.shape[1] != rules.PACK_SIZE or not np.issubdtype(deals.dtype, np.integer):
        raise DealError(f"Euchre deals are (n, {rules.PACK_SIZE}) arrays of card ids, not {deals.dtype} {deals.shape}")
    if deals.size and (deals.min() < 0 or deals.max() >= _CARD_IDS):
        raise DealError("a Euchre deal holds card ids from 0 to 51")
    return np.ascontiguousarray(deals, dtype=np.int8)


class _Block:
    """Up to ``BLOCK_SIZE`` hands, played by ``_advance`` and the Python strategies in turn."""

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
        # Each hand's deal and state, as ``_deal`` lays them out.
        self.dealer = np.empty(size, dtype=np.int8)
        self.upcard = np.empty(size, dtype=np.int8)
        self.holdings = np.empty((size, SEATS), dtype=np.int64)  # by seat
        self.position = np.empty(size, dtype=np.int64)  # the next script position of each hand
        self.actions = np.empty((size, SCRIPT_STEPS), dtype=np.int8)  # taken at each script position
        self.trump = np.empty(size, dtype=np.int8)
        self.maker = np.empty(size, dtype=np.int8)
        self.making_round = np.empty(size, dtype=np.int8)
        self.tricks_won = np.empty((size, rules.NUM_TEAMS), dtype=np.int8)
        self.leader = np.empty(size, dtype=np.int8)  # of the current trick
        self.winning = np.empty(size, dtype=np.int8)  # the card winning the trick so far, and its seat
        self.winner = np.empty(size, dtype=np.int8)
        self.points = np.empty((size, SEATS), dtype=np.int64)  # each seat's, once its hand is over
        self._deal(np.arange(size), deals, round_ids)
        self.seat_to_move = np.zeros(size, dtype=np.int8)  # at a pause: the seat to move and its legal actions
        self.legal = np.zeros(size, dtype=np.int64)
        # Copies: the Python seats' choices join the script as they are made.
        if len(script_length):
            self.script, self.script_length = np.array(script), np.array(script_length)
        else:
            self.script = np.empty((size, SCRIPT_STEPS), dtype=np.int8)
            self.script_length = np.zeros(size, dtype=np.int64)
        self.judged = np.zeros((0, SCRIPT_STEPS), dtype=np.int64)  # weights, when judging a script
        self.mismatches = np.zeros(size, dtype=np.int64)
        self.opinion = np.zeros(size, dtype=np.int64)  # a Python seat's action where the script is judged
        self.opinion_at = np.full(size, -1, dtype=np.int64)  # ... and the position it was asked about

    def play(self, seats: lockstep.CompiledSeats) -> None:
        """Play every hand to its end (to the end of its script, when judging), handing the Python
        seats their decisions as batches."""
        rows = self.advance(seats, np.arange(len(self.position)))
        while rows.size:
            self._ask_python_seats(seats, rows)
            rows = self.advance(seats, rows)

    def advance(self, seats: lockstep.CompiledSeats, rows: np.ndarray) -> np.ndarray:
        """Play each of ``rows`` until its hand ends (its script ends, when judging) or a seat played in
        Python is to move; returns the rows that paused so. An illegal action raises ``StrategyFault``."""
        paused = np.empty(len(rows), dtype=np.int64)
        fault = np.full(3, NO_FAULT, dtype=np.int64)
        count = _ADVANCE_ENTRY(
            np.ascontiguousarray(rows, dtype=np.int64), self.dealer, self.upcard, self.holdings, self.position,
            self.actions, self.trump, self.maker, self.making_round, self.tricks_won, self.leader, self.winning,
            self.winner, self.script, self.script_length, self.judged, self.mismatches, self.opinion,
            self.opinion_at, seats.kinds, seats.functions, seats.settings, seats.in_python, self.points,
            self.seat_to_move, self.legal, paused, fault,
        )  # fmt: skip
        if fault[0] != NO_FAULT:
            self._raise_illegal(seats, *(int(value) for value in fault))
        return paused[:count]

    def restart(self, rows: np.ndarray, deals: np.ndarray, round_ids: np.ndarray) -> None:
        """Deal ``deals`` afresh to ``rows`` (hands of a game's start: scores zero), unplayed and unscripted."""
        self._deal(rows, deals, round_ids)
        self.round_ids[rows], self.scores[rows], self.script_length[rows] = round_ids, 0, 0

    def _deal(self, rows: np.ndarray, deals: np.ndarray, round_ids: np.ndarray) -> None:
        """Lay ``deals`` out in ``rows`` as hands just dealt by seat ``round_ids % 4``, no action taken
        yet; ``DealError`` for a deal that is not the pack."""
        dealer = (round_ids % SEATS).astype(np.int8)
        holdings, upcard = np.empty((len(rows), SEATS), dtype=np.int64), np.empty(len(rows), dtype=np.int8)
        if _lay_out(deals, dealer, holdings, upcard) >= 0:
            raise DealError("a Euchre deal holds exactly the 24 cards nine to ace")
        for array, dealt in ((self.dealer, dealer), (self.upcard, upcard)):
            array.flags.writeable = True
            array[rows] = dealt
            array.flags.writeable = False
        self.holdings[rows], self.position[rows], self.actions[rows] = holdings, 0, NONE
        self.trump[rows], self.maker[rows], self.making_round[rows] = NONE, NONE, 1
        self.leader[rows] = (dealer + 1) & 3  # the eldest hand leads the first trick
        self.winning[rows], self.winner[rows] = NONE, NONE
        self.tricks_won[rows], self.points[rows] = 0, 0

    def mover(self, rows: np.ndarray) -> np.ndarray:
        """The seat to move in each of ``rows``, which are paused."""
        return self.seat_to_move[rows]

    def take(self, rows: np.ndarray, actions: np.ndarray) -> None:
        """The movers of ``rows`` take ``actions``, when the rows next advance."""
        position = self.position[rows]
        self.script[rows, position] = actions
        self.script_length[rows] = position + 1

    def _ask_python_seats(self, seats: lockstep.CompiledSeats, rows: np.ndarray) -> None:
        """Each Python strategy's choices in the ``rows`` where its seat is to move: added to the
        script, or, where the script is judged, kept as its opinion."""
        seat = self.mover(rows)
        for strategy, plays in seats.seats_of:
            mine = rows[plays[seat]]
            if not mine.size:
                continue
            observation = self.observe(mine)
            if self.judged.shape[0]:  # a model's opinion of a scripted action: any answer, even an illegal one
                self.opinion[mine] = np.asarray(strategy.choose(observation), dtype=np.int64)
                self.opinion_at[mine] = self.position[mine]
                continue
            legal = bits_to_bools(self.legal[mine], NUM_ACTIONS)
            chosen = lockstep.choose_checked(strategy, observation, legal, self.decision_steps(mine), seat[plays[seat]])
            self.take(mine, chosen)

    def observe(self, rows: np.ndarray) -> Observation:
        """The movers' view of the hands ``rows``: fresh read-only arrays, so no later step changes them,
        carrying their encoding (``encoding.attach``)."""
        position, seat, dealer = self.position[rows], self.mover(rows), self.dealer[rows]
        making = position < BIDS
        phase = np.where(making, Phase.MAKING, np.where(position == DISCARD_STEP, Phase.DISCARD, Phase.PLAYING))
        cards_played = np.maximum(position - FIRST_CARD_STEP, 0)
        trick_start = cards_played // SEATS * SEATS
        history = self.actions[rows, FIRST_CARD_STEP:]
        trick = np.take_along_axis(history, np.minimum(trick_start[:, None] + np.arange(SEATS), CARDS_PLAYED - 1), 1)
        trick[cards_played[:, None] - trick_start[:, None] <= np.arange(SEATS)] = NONE
        fields = {
            "seat": seat,
            "dealer": dealer,
            "phase": phase.astype(np.int8),
            "making_round": np.where(making, 1 + position // SEATS, self.making_round[rows]).astype(np.int8),
            "legal": self.legal[rows],
            "hand": self.holdings[rows, seat],
            "upcard": self.upcard[rows],
            "bids": self.actions[rows, :BIDS],
            "trump": self.trump[rows],
            "maker": self.maker[rows],
            "discard": np.where(seat == dealer, self.actions[rows, DISCARD_STEP], NONE).astype(np.int8),
            "leader": self.leader[rows],
            "trick": trick,
            "history": history,
            "tricks_won": self.tricks_won[rows],
            "scores": self.scores[rows],
            "round_id": self.round_ids[rows],
        }
        for values in fields.values():
            values.flags.writeable = False
        return encoding.attach(Observation(**fields), self.encoded(rows)[0])

    def encoded(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The movers' observations of ``rows`` as ``observation.encode`` lays them out and their legal
        actions' masks (int8), written by compiled code from the hands' state."""
        # Left empty: the kernel writes every entry, zeroing each row as it fills it, which saves a
        # pass over the whole array.
        encoded = np.empty((len(rows), ENCODED_SIZE), dtype=np.float32)
        masks = np.empty((len(rows), NUM_ACTIONS), dtype=np.int8)
        _encode(
            np.ascontiguousarray(rows, dtype=np.int64), self.dealer, self.upcard, self.holdings, self.position,
            self.actions, self.trump, self.maker, self.making_round, self.tricks_won, self.leader,
            self.seat_to_move, self.legal, self.scores, encoded, masks,
        )  # fmt: skip
        return encoded, masks

    def decision_steps(self, rows: np.ndarray) -> np.ndarray:
        """(n,) how many decisions each hand of ``rows`` has seen: its bids, discard and cards so far."""
        position = self.position[rows]
        bids = (self.actions[rows, :BIDS] != NONE).sum(axis=1)
        picked_up = self.actions[rows, DISCARD_STEP] != NONE
        return np.where(
            position <= DISCARD_STEP, np.minimum(position, bids), bids + picked_up + position - FIRST_CARD_STEP
        )

    def _raise_illegal(self, seats: lockstep.CompiledSeats, row: int, position: int, action: int) -> None:
        """The fault of the strategy whose compiled policy (or script) chose ``action``, not legal there."""
        seat = int(self.seat_to_move[row])
        step = int(self.decision_steps(np.array([row]))[0])
        if 0 <= action < NUM_ACTIONS:
            what = f"chose action {action}, which is not legal there"
        else:
            what = f"chose action {action}, which is not an action of this game (0..{NUM_ACTIONS - 1})"
        raise lockstep.fault(seats.strategies[seat], what, self.round_ids[row : row + 1], step, seat)


class Tables(lockstep.BlockTables):
    """Hands dealt and played side by side, each paused wherever a seat played in Python is to move:
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
        """``scores``, ``script`` and ``script_length`` as ``play_rounds`` takes them (default: none):
        the tables go on from the position each round's script reaches."""
        # A copy of the round ids: restarted rows write theirs over it.
        blocks = _blocks(deals, strategies, np.array(round_ids, dtype=np.int64), scores, script, script_length)
        seats = lockstep.CompiledSeats(strategies, POLICY, _never_called, policies.BUILT_IN)
        super().__init__(_Block(*blocks.parts()), seats)

    def restart(self, rows: np.ndarray, deals: np.ndarray, round_ids: np.ndarray) -> None:
        self.block.restart(rows, _checked_deals(deals), np.asarray(round_ids, dtype=np.int64))

    def actions_taken(self, rows: np.ndarray) -> np.ndarray:
        """(n, SCRIPT_STEPS) int8 the action each of ``rows`` took at each script position, the
        dealer's discard shown (what only the dealer sees: the hand's true record), ``NONE`` where
        none was taken (yet)."""
        return self.block.actions[rows].copy()

    def encoded(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.block.encoded(rows)


# Where each slice of ``observation.ENCODING`` starts in an encoded row.
(
    _SEAT_AT, _DEALER_AT, _PHASE_AT, _MAKING_ROUND_AT, _HAND_AT, _UPCARD_AT, _BIDS_AT, _TRUMP_AT, _MAKER_AT,
    _DISCARD_AT, _LEADER_AT, _TRICKS_AT, _TRICKS_WON_AT, _SCORES_AT,
) = (offset for offset, _, _ in encoding.slices(ENCODING))  # fmt: skip


@jit.njit(cache=True, nogil=True)
def _encode(
    rows, dealer, upcard, holdings, position, actions, trump, maker, making_round, tricks_won, leader, mover, legal,
    scores, encoded, masks,
):  # fmt: skip
    """Row k of ``encoded`` the encoding of the mover's view of hand ``rows[k]``, the one
    ``observation.encode`` makes of ``_Block.observe``, and row k of ``masks`` its legal actions."""
    for k in range(rows.shape[0]):
        row = rows[k]
        at, seat, dealt_by = position[row], np.int64(mover[row]), np.int64(dealer[row])
        out = encoded[k]
        out[:] = 0.0
        out[_SEAT_AT + seat] = 1.0
        out[_DEALER_AT + ((dealt_by - seat) & 3)] = 1.0
        if at < BIDS:
            out[_PHASE_AT + _MAKING] = 1.0
            out[_MAKING_ROUND_AT + at // SEATS] = 1.0
        else:
            out[_PHASE_AT + (_DISCARD if at == DISCARD_STEP else _PLAYING)] = 1.0
            out[_MAKING_ROUND_AT + making_round[row] - 1] = 1.0
        hand = holdings[row, seat]
        for column in range(rules.PACK_SIZE):
            if hand >> rules.PACK_CARDS[column] & 1:
                out[_HAND_AT + column] = 1.0
        out[_UPCARD_AT + PACK_INDEX[upcard[row]]] = 1.0
        for bid in range(BIDS):
            if actions[row, bid] != NONE:
                out[_BIDS_AT + BID_KINDS * bid + actions[row, bid] - ORDER_UP] = 1.0
        if trump[row] != NONE:
            out[_TRUMP_AT + trump[row]] = 1.0
        if maker[row] != NONE:
            out[_MAKER_AT + ((maker[row] - seat) & 3)] = 1.0
        if seat == dealt_by and actions[row, DISCARD_STEP] != NONE:
            out[_DISCARD_AT + PACK_INDEX[actions[row, DISCARD_STEP]]] = 1.0
        out[_LEADER_AT + ((leader[row] - seat) & 3)] = 1.0
        eldest = (dealt_by + 1) & 3  # leads the first trick
        _encode_tricks(actions[row, FIRST_CARD_STEP:], eldest, np.int64(trump[row]), seat, out)
        team = seat & 1  # rules.team_of
        for after in range(rules.NUM_TEAMS):
            out[_TRICKS_WON_AT + after] = tricks_won[row, (team + after) & 1] / rules.TRICKS_PER_HAND
            out[_SCORES_AT + after] = scores[row, (team + after) & 1] / rules.DEFAULT_POINTS_TO_WIN
        for action in range(NUM_ACTIONS):
            masks[k, action] = legal[row] >> action & 1


@jit.njit(inline="always")
def _encode_tricks(history, lead_seat, trumps, seat, out):
    """The cards of ``history`` (the hand's cards played, in order) into the tricks' slice of ``out``
    as ``observation.tricks_by_seat`` lays them out, each trick's leader the last one's winner."""
    for trick in range(rules.TRICKS_PER_HAND):
        led = history[SEATS * trick]
        if led == NONE:
            break
        order = (trumps * 5 + _EFFECTIVE_SUIT[trumps * 52 + led]) * 52
        best, best_place = led, 0
        for place in range(SEATS):
            card = history[SEATS * trick + place]
            if card == NONE:
                break
            after = (lead_seat + place - seat) & 3  # places after the seat to move
            out[_TRICKS_AT + (SEATS * trick + after) * rules.PACK_SIZE + PACK_INDEX[card]] = 1.0
            if _STRENGTH[order + card] > _STRENGTH[order + best]:
                best, best_place = card, place
        lead_seat = (lead_seat + best_place) & 3


@jit.njit(POLICY.signature, cache=True, nogil=True)
def _never_called(
    phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning, winner, played, settings
):  # fmt: skip # pragma: no cover - a seat played in Python
    """The stand-in policy of a seat played in Python: the kernel pauses before calling it."""
    return -1


@jit.njit(inline="always")
def _deal(deal, dealer, held):
    """Each seat's five cards of ``deal`` to ``held`` (4,), dealt from the seat left of ``dealer``;
    False if the deal is not the 24 cards of the pack."""
    seen = np.int64(0)
    for position in range(rules.PACK_SIZE):
        card = deal[position]
        if not 0 <= card < _CARD_IDS:
            return False
        seen |= np.int64(1) << card
    if seen != _PACK_MASK:
        return False
    held[:] = 0
    for position in range(rules.UPCARD_POSITION):
        held[(dealer + _DEAL_OFFSET[position]) & 3] |= np.int64(1) << deal[position]
    return True


@jit.njit(cache=True, nogil=True)
def _lay_out(deals, dealer, holdings, upcard):
    """Each seat's five cards and the upcard of each deal, dealt from the seat left of the dealer.
    Returns the first row that is not the 24 cards of the pack, else -1."""
    for row in range(deals.shape[0]):
        if not _deal(deals[row], dealer[row], holdings[row]):
            return row
        upcard[row] = deals[row, rules.UPCARD_POSITION]
    return -1


ENDED, PAUSED, FAULT = range(3)
"""How ``_play_on`` left a hand: at the position it was to be played to, waiting on a seat played in
Python, or stopped by an illegal action."""


@jit.njit(inline="always")
def _end(scripted, judging):
    """The script position a hand is played to: its script's end when judging, else the end of the hand."""
    return min(scripted, SCRIPT_STEPS) if judging else SCRIPT_STEPS


@jit.njit(inline="always")
def _play_on(
    row, held, dealt_by, up, at, trumps, made_by, rounds, lead_seat, led, best, best_seat, won, script, scripted,
    end, judged, mismatches, opinion, opinion_at, python_seats, lineup, kinds, external, settings, actions,
):  # fmt: skip
    """Play hand ``row`` on from script position ``at`` to position ``end``, each seat's cards in
    ``held`` (4,), the hand's state in the arguments (``won``: the tricks team one has taken), the
    actions below ``scripted`` taken from ``script``; every action is written to ``actions`` when it
    has rows. Returns (how it stopped, the seat to move, its legal actions, the action, and the
    state). ``lineup`` is the kind of every seat's policy, or ``MIXED``: a constant for each kernel,
    so the compiler drops the branches it rules out. Where ``judged`` has rows, a scripted action
    of weight ``judged[row, at]`` adds its weight to ``mismatches`` when the mover's policy (or a
    Python seat's ``opinion``) would not have taken it."""
    judging, tracing = judged.shape[0] > 0, actions.shape[0] > 0
    proposed = np.int64(1) << (ORDER_UP + up // NUM_RANKS)
    # The trick in play: the cards that follow its led suit, and where its trick order is in _STRENGTH.
    following, order = np.int64(0), 0
    if led != NONE:
        led_suit = _EFFECTIVE_SUIT[trumps * 52 + led]
        following, order = _SUIT_CARDS[trumps * 4 + led_suit], (trumps * 5 + led_suit) * 52
    status, seat, legal, action = ENDED, 0, np.int64(0), 0
    while at < end:
        played = 0
        if at < BIDS:  # making: bid k from the seat k + 1 places left of the dealer
            phase, seat, rounds = _MAKING, (dealt_by + at + 1) & 3, 1 + (at >> 2)
            hand = held[seat]
            if at < SEATS:
                legal = proposed | _PASS_BIT
            else:  # round two: any other suit, and the dealer may not pass
                legal = (_EVERY_ORDER ^ proposed) | (_PASS_BIT if at < BIDS - 1 else 0)
        elif at == DISCARD_STEP:
            phase, seat = _DISCARD, dealt_by
            hand = legal = held[seat]
        else:
            phase, played = _PLAYING, (at - FIRST_CARD_STEP) & 3
            seat = (lead_seat + played) & 3
            hand = legal = held[seat]
            if played and hand & following:  # follow suit when able
                legal = hand & following
        kind = lineup if lineup != MIXED else kinds[seat]
        if at < scripted:
            action = np.int64(script[row, at])
            if judging and judged[row, at]:
                if python_seats >> seat & 1:
                    if opinion_at[row] != at:
                        status = PAUSED
                        break
                    wanted = opinion[row]
                else:
                    wanted = policies.decide(
                        kind, external, settings, phase, seat, dealt_by, rounds, legal, hand, up, trumps, made_by,
                        led, best, best_seat, played,
                    )  # fmt: skip
                if wanted != action:
                    mismatches[row] += judged[row, at]
        elif python_seats >> seat & 1:
            status = PAUSED
            break
        else:
            action = policies.decide(
                kind, external, settings, phase, seat, dealt_by, rounds, legal, hand, up, trumps, made_by, led,
                best, best_seat, played,
            )  # fmt: skip
        if not (0 <= action < NUM_ACTIONS and (legal >> action) & 1):
            status = FAULT
            break
        if tracing:
            actions[row, at] = action
        if at < BIDS:
            at += 1
            if action != PASS:
                trumps, made_by = action - ORDER_UP, seat
                if rounds == 1:  # the dealer picks up the upcard, then discards
                    held[dealt_by] |= np.int64(1) << up
                    at = DISCARD_STEP
                else:
                    at = FIRST_CARD_STEP
        else:
            held[seat] ^= np.int64(1) << action
            if at > DISCARD_STEP:
                if not played:
                    led_suit = _EFFECTIVE_SUIT[trumps * 52 + action]
                    following, order = _SUIT_CARDS[trumps * 4 + led_suit], (trumps * 5 + led_suit) * 52
                    led, best, best_seat = action, action, seat
                elif _STRENGTH[order + action] > _STRENGTH[order + best]:
                    best, best_seat = action, seat
                if played == SEATS - 1:  # the trick's winner takes it and leads the next
                    won += best_seat & 1
                    lead_seat, led, best, best_seat = best_seat, NONE, NONE, NONE
            at += 1
    return status, seat, legal, action, at, trumps, made_by, rounds, lead_seat, led, best, best_seat, won


def _points_by_tricks() -> np.ndarray:
    """[maker's team * 6 + team one's tricks] (2,) each team's points for the hand (``rules.hand_points``)."""
    table = np.zeros((rules.NUM_TEAMS * (rules.TRICKS_PER_HAND + 1), rules.NUM_TEAMS), dtype=np.int64)
    for makers in range(rules.NUM_TEAMS):
        for team_one in range(rules.TRICKS_PER_HAND + 1):
            winners, points, _ = rules.hand_points((rules.TRICKS_PER_HAND - team_one, team_one), makers)
            table[makers * (rules.TRICKS_PER_HAND + 1) + team_one, winners] = points
    return table


_POINTS = _points_by_tricks()


@jit.njit(inline="always")
def _score(points, row, made_by, won):
    """Each seat's points (its team's) for hand ``row`` to ``points[row]``, team one having taken ``won`` tricks."""
    at = (made_by & 1) * (rules.TRICKS_PER_HAND + 1) + won
    for seat in range(SEATS):
        points[row, seat] = _POINTS[at, seat & 1]


_READ_ONLY_INT8 = types.Array(types.int8, 1, "C", readonly=True)
_ADVANCE = types.int64(
    types.int64[:],  # rows to advance
    _READ_ONLY_INT8,  # dealer
    _READ_ONLY_INT8,  # upcard
    types.int64[:, :],  # holdings (n, 4): each seat's cards
    types.int64[:],  # position: the next script position of each hand
    types.int8[:, :],  # actions (n, SCRIPT_STEPS): the action taken at each position
    types.int8[:],  # trump
    types.int8[:],  # maker
    types.int8[:],  # making_round
    types.int8[:, :],  # tricks_won (n, 2)
    types.int8[:],  # leader of the current trick
    types.int8[:],  # winning: the card winning the trick so far
    types.int8[:],  # winner: the seat that played it
    types.int8[:, :],  # script (n, SCRIPT_STEPS): actions decided before the kernel asks anyone
    types.int64[:],  # script_length: the positions scripted in each hand
    types.int64[:, :],  # judged (n, SCRIPT_STEPS) weights of scripted actions to judge; no rows: play, not judge
    types.int64[:],  # mismatches: out, the weights of the judged actions a seat would not have taken
    types.int64[:],  # opinion: a Python seat's action at a judged position
    types.int64[:],  # opinion_at: the position it answered for
    types.Array(types.int64, 1, "C", readonly=True),  # each seat's kind of policy (lockstep.CompiledSeats)
    types.UniTuple(POLICY, SEATS),  # each seat's external compiled policy
    types.UniTuple(SETTINGS, SEATS),  # and its settings
    types.Array(types.boolean, 1, "C", readonly=True),  # seats played in Python
    types.int64[:, :],  # points (n, 4): out, each seat's points once its hand is over
    types.int8[:],  # mover: out, at a pause the seat to move
    types.int64[:],  # legal: out, at a pause its legal actions
    types.int64[:],  # paused: out, the rows waiting on a Python seat
    types.int64[:],  # fault: out, (row, position, action) of an illegal action
)
MIXED = -2  # a lineup whose seats' policies are not one built-in policy: each seat's kind is read as it moves


@jit.njit(_ADVANCE, cache=True, nogil=True)
def _advance(
    rows, dealer, upcard, holdings, position, actions, trump, maker, making_round, tricks_won, leader, winning,
    winner, script, script_length, judged, mismatches, opinion, opinion_at, kinds, external, settings, in_python,
    points, mover, legal_out, paused, fault,
):  # fmt: skip
    """Play each of ``rows`` until its hand ends (its script ends, when judging) or a seat played in
    Python is to move; returns how many rows paused (their indexes in ``paused``). An illegal action
    stops it with ``fault`` set."""
    python_seats = 0  # a bit per seat played in Python
    for seat in range(SEATS):
        python_seats |= in_python[seat] << seat
    judging = judged.shape[0] > 0
    count = 0
    for row in rows:
        at, scripted = position[row], script_length[row]
        led = NONE
        if FIRST_CARD_STEP <= at < SCRIPT_STEPS and (at - FIRST_CARD_STEP) & 3:
            led = np.int64(actions[row, FIRST_CARD_STEP + ((at - FIRST_CARD_STEP) & ~3)])
        stopped, seat, legal, action, at, trumps, made_by, rounds, lead_seat, led, best, best_seat, won = _play_on(
            row, holdings[row], np.int64(dealer[row]), np.int64(upcard[row]), at, np.int64(trump[row]),
            np.int64(maker[row]), np.int64(making_round[row]), np.int64(leader[row]), led, np.int64(winning[row]),
            np.int64(winner[row]), np.int64(tricks_won[row, 1]), script, scripted,
            _end(scripted, judging), judged, mismatches, opinion, opinion_at, python_seats, MIXED,
            kinds, external, settings, actions,
        )  # fmt: skip
        tricks_won[row, 1] = won
        tricks_won[row, 0] = max(at - FIRST_CARD_STEP, 0) // SEATS - won
        position[row], trump[row], maker[row], making_round[row] = at, trumps, made_by, rounds
        leader[row], winning[row], winner[row] = lead_seat, best, best_seat
        if at == SCRIPT_STEPS:
            _score(points, row, made_by, won)
        if stopped == PAUSED:
            mover[row], legal_out[row] = seat, legal
            paused[count] = row
            count += 1
        elif stopped == FAULT:
            mover[row] = seat
            fault[0], fault[1], fault[2] = row, at, action
            break
    return count


_ADVANCE_ENTRY = lockstep.entry_point(_advance, _ADVANCE)


_PLAY = types.int64(
    types.Array(types.int8, 2, "C", readonly=True),  # deals (n, 24)
    types.Array(types.int64, 1, "C", readonly=True),  # round_ids: hand i is dealt by seat round_ids[i] % 4
    types.Array(types.int64, 1, "C", readonly=True),  # each seat's kind of policy (lockstep.CompiledSeats)
    types.UniTuple(POLICY, SEATS),  # each seat's external compiled policy
    types.UniTuple(SETTINGS, SEATS),  # and its settings
    types.Array(types.int8, 2, "C", readonly=True),  # script (n, SCRIPT_STEPS) ((0, SCRIPT_STEPS): none)
    types.Array(types.int64, 1, "C", readonly=True),  # script_length (n,) ((0,): none)
    types.Array(types.int64, 2, "C", readonly=True),  # judged (n, SCRIPT_STEPS) weights ((0, SCRIPT_STEPS): play)
    types.int64[:],  # mismatches: out, when judging
    types.int64[:, :],  # points (n, 4): out, each seat's points
    types.int8[:, :],  # actions (n, SCRIPT_STEPS): out, the trace ((0, SCRIPT_STEPS): none kept)
)


@jit.njit(inline="always")
def _play_dealt(
    deals, round_ids, kinds, external, settings, script, script_length, judged, mismatches, points, actions, lineup
):  # fmt: skip
    """Play each deal from its pack to its end (to its script's end, when judging) when every seat's
    policy is compiled: ``points`` (and ``mismatches``, ``actions`` when they have rows) filled in.
    Returns -1, or the first row whose deal is not a pack or whose mover chose an illegal action
    (``_play_every_seat_compiled`` plays it again to say which). ``lineup`` is the kind of every
    seat's policy, or ``MIXED``: each kernel below is this loop compiled for one such constant.

    Unlike ``_Block``, a hand's state lives in locals from its deal to its score: no arrays are laid out."""
    judging = judged.shape[0] > 0
    held = np.empty(SEATS, dtype=np.int64)
    no_opinion = np.empty(0, dtype=np.int64)
    for row in range(deals.shape[0]):
        dealt_by = round_ids[row] % SEATS
        if not _deal(deals[row], dealt_by, held):
            return row
        scripted = script_length[row] if script_length.shape[0] else 0
        stopped, _, _, _, at, _, made_by, _, _, _, _, _, won = _play_on(
            row, held, dealt_by, np.int64(deals[row, rules.UPCARD_POSITION]), 0, NONE, NONE, 1, (dealt_by + 1) & 3,
            NONE, NONE, NONE, 0, script, scripted, _end(scripted, judging), judged, mismatches,
            no_opinion, no_opinion, 0, lineup, kinds, external, settings, actions,
        )  # fmt: skip
        if stopped != ENDED:
            return row
        if at == SCRIPT_STEPS:
            _score(points, row, made_by, won)
    return -1


@jit.njit(_PLAY, cache=True, nogil=True)
def _play_simple(
    deals, round_ids, kinds, external, settings, script, script_length, judged, mismatches, points, actions
):
    """``_play_dealt`` with Simple in every seat."""
    return _play_dealt(
        deals, round_ids, kinds, external, settings, script, script_length, judged, mismatches, points, actions,
        policies.SIMPLE,
    )  # fmt: skip


@jit.njit(_PLAY, cache=True, nogil=True)
def _play_heuristic(
    deals, round_ids, kinds, external, settings, script, script_length, judged, mismatches, points, actions
):  # fmt: skip
    """``_play_dealt`` with the heuristic in every seat (its settings may differ by seat)."""
    return _play_dealt(
        deals, round_ids, kinds, external, settings, script, script_length, judged, mismatches, points, actions,
        policies.HEURISTIC,
    )  # fmt: skip


@jit.njit(_PLAY, cache=True, nogil=True)
def _play_mixed(
    deals, round_ids, kinds, external, settings, script, script_length, judged, mismatches, points, actions
):
    """``_play_dealt`` with any compiled policies, each seat's read as it moves."""
    return _play_dealt(
        deals, round_ids, kinds, external, settings, script, script_length, judged, mismatches, points, actions, MIXED
    )


_PLAY_ENTRIES = {
    policies.SIMPLE: lockstep.entry_point(_play_simple, _PLAY),
    policies.HEURISTIC: lockstep.entry_point(_play_heuristic, _PLAY),
    MIXED: lockstep.entry_point(_play_mixed, _PLAY),
}
"""The kernel for an all-compiled lineup: by the kind every seat shares, else MIXED."""
