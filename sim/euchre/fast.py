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
the kernel, so a lineup of such strategies plays a whole block of hands in one kernel call. Any
other strategy is asked in Python: the kernel plays every hand up to its next decision by such a
seat, the strategy gets those hands as one ``Observation`` batch, and the kernel resumes with its
answers. Every action, compiled or not, is checked; an illegal one raises ``StrategyFault`` naming
the strategy and the decision, so it never becomes a result.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numba import types

from sim import jit, lockstep
from sim.api import Strategy
from sim.cards import NUM_RANKS, bits_to_bools
from sim.euchre import rules
from sim.euchre.observation import (
    BIDS,
    DISCARD_STEP,
    FIRST_CARD_STEP,
    NONE,
    NUM_ACTIONS,
    ORDER_UP,
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
    lookahead's rollouts start from its decision so), and the strategies take the rest. Raises
    ``StrategyFault`` naming the strategy that raised or chose what it may not, and ``DealError`` for
    a deal that is not a Euchre pack.
    """
    blocks = _blocks(deals, strategies, round_ids, scores, script, script_length)
    seats = lockstep.CompiledSeats(strategies, POLICY, _never_called)
    points = np.empty((len(blocks.deals), SEATS), dtype=np.int64)
    actions = np.empty((len(blocks.deals), SCRIPT_STEPS), dtype=np.int8) if trace else None
    for rows, block in blocks:
        block.play(seats)
        points[rows] = block.team_points()[:, _TEAM_OF_SEAT]
        if actions is not None:
            actions[rows] = block.actions()
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
    seats = lockstep.CompiledSeats(strategies, POLICY, _never_called)
    weights = np.asarray(weights, dtype=np.int64)
    mismatches = np.empty(len(blocks.deals), dtype=np.int64)
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


@dataclass(frozen=True)
class _Blocks:
    """A call's hands, checked, to be played ``BLOCK_SIZE`` at a time."""

    deals: np.ndarray
    round_ids: np.ndarray
    scores: np.ndarray
    script: np.ndarray
    script_length: np.ndarray

    def __iter__(self) -> Iterator[tuple[slice, _Block]]:
        for start in range(0, len(self.deals), BLOCK_SIZE):
            rows = slice(start, start + BLOCK_SIZE)
            parts = (self.deals, self.round_ids, self.scores, self.script, self.script_length)
            yield rows, _Block(*(part[rows] for part in parts))


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
    round_ids = np.arange(count, dtype=np.int64) if round_ids is None else np.asarray(round_ids, dtype=np.int64)
    scores = np.zeros((count, rules.NUM_TEAMS), dtype=np.int64) if scores is None else np.asarray(scores, np.int64)
    if script is None or script_length is None:
        script, script_length = np.empty((count, SCRIPT_STEPS), dtype=np.int8), np.zeros(count, dtype=np.int64)
    return _Blocks(deals, round_ids, scores, np.asarray(script), np.asarray(script_length, dtype=np.int64))


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
        self.dealer = (round_ids % SEATS).astype(np.int8)
        self.holdings = np.zeros((size, SEATS), dtype=np.int64)  # by seat
        self.upcard = np.empty(size, dtype=np.int8)
        if _lay_out(deals, self.dealer, self.holdings, self.upcard) >= 0:
            raise DealError("a Euchre deal holds exactly the 24 cards nine to ace")
        self.dealer.flags.writeable = self.upcard.flags.writeable = False
        self.position = np.zeros(size, dtype=np.int64)  # the next script position of each hand
        self.bids = np.full((size, BIDS), NONE, dtype=np.int8)
        self.trump = np.full(size, NONE, dtype=np.int8)
        self.maker = np.full(size, NONE, dtype=np.int8)
        self.making_round = np.ones(size, dtype=np.int8)
        self.discard = np.full(size, NONE, dtype=np.int8)
        self.history = np.full((size, CARDS_PLAYED), NONE, dtype=np.int8)
        self.tricks_won = np.zeros((size, rules.NUM_TEAMS), dtype=np.int8)
        self.leader = (self.dealer + 1) & 3  # the eldest hand leads the first trick
        self.winning = np.full(size, NONE, dtype=np.int8)  # the card winning the trick so far, and its seat
        self.winner = np.full(size, NONE, dtype=np.int8)
        self.mover = np.zeros(size, dtype=np.int8)  # at a pause: the seat to move and its legal actions
        self.legal = np.zeros(size, dtype=np.int64)
        # Copies: the Python seats' choices join the script as they are made.
        self.script = np.array(script, dtype=np.int8)
        self.script_length = np.array(script_length, dtype=np.int64)
        self.judged = np.zeros((0, SCRIPT_STEPS), dtype=np.int64)  # weights, when judging a script
        self.mismatches = np.zeros(size, dtype=np.int64)
        self.opinion = np.zeros(size, dtype=np.int64)  # a Python seat's action where the script is judged
        self.opinion_at = np.full(size, -1, dtype=np.int64)  # ... and the position it was asked about

    def play(self, seats: lockstep.CompiledSeats) -> None:
        """Play every hand to its end (to the end of its script, when judging), handing the Python
        seats their decisions as batches."""
        rows = np.arange(len(self.position))
        paused = np.empty(len(rows), dtype=np.int64)
        fault = np.full(3, NO_FAULT, dtype=np.int64)
        while rows.size:
            count = _ADVANCE_ENTRY(
                rows, self.dealer, self.upcard, self.holdings, self.position, self.bids, self.trump, self.maker,
                self.making_round, self.discard, self.history, self.tricks_won, self.leader, self.winning,
                self.winner, self.script, self.script_length, self.judged, self.mismatches, self.opinion,
                self.opinion_at, seats.functions, seats.settings, seats.in_python, self.mover, self.legal,
                paused, fault,
            )  # fmt: skip
            if fault[0] != NO_FAULT:
                self._raise_illegal(seats, *(int(value) for value in fault))
            rows = paused[:count].copy()
            if rows.size:
                self._ask_python_seats(seats, rows)

    def _ask_python_seats(self, seats: lockstep.CompiledSeats, rows: np.ndarray) -> None:
        """Each Python strategy's choices in the ``rows`` where its seat is to move: added to the
        script, or, where the script is judged, kept as its opinion."""
        seat = self.mover[rows]
        for strategy, plays in seats.seats_of:
            mine = rows[plays[seat]]
            if not mine.size:
                continue
            observation = self.observe(mine)
            position = self.position[mine]
            if self.judged.shape[0]:  # a model's opinion of a scripted action: any answer, even an illegal one
                self.opinion[mine] = np.asarray(strategy.choose(observation), dtype=np.int64)
                self.opinion_at[mine] = position
                continue
            legal = bits_to_bools(self.legal[mine], NUM_ACTIONS)
            chosen = lockstep.choose_checked(strategy, observation, legal, self.decision_steps(mine), seat[plays[seat]])
            self.script[mine, position] = chosen
            self.script_length[mine] = position + 1

    def observe(self, rows: np.ndarray) -> Observation:
        """The movers' view of the hands ``rows``: fresh read-only arrays, so no later step changes them."""
        position, seat, dealer = self.position[rows], self.mover[rows], self.dealer[rows]
        making = position < BIDS
        phase = np.where(making, Phase.MAKING, np.where(position == DISCARD_STEP, Phase.DISCARD, Phase.PLAYING))
        cards_played = np.maximum(position - FIRST_CARD_STEP, 0)
        trick_start = cards_played // SEATS * SEATS
        history = self.history[rows]
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
            "bids": self.bids[rows],
            "trump": self.trump[rows],
            "maker": self.maker[rows],
            "discard": np.where(seat == dealer, self.discard[rows], NONE).astype(np.int8),
            "leader": self.leader[rows],
            "trick": trick,
            "history": history,
            "tricks_won": self.tricks_won[rows],
            "scores": self.scores[rows],
            "round_id": self.round_ids[rows],
        }
        for values in fields.values():
            values.flags.writeable = False
        return Observation(**fields)

    def decision_steps(self, rows: np.ndarray) -> np.ndarray:
        """(n,) how many decisions each hand of ``rows`` has seen: its bids, discard and cards so far."""
        position = self.position[rows]
        bids = (self.bids[rows] != NONE).sum(axis=1)
        picked_up = self.discard[rows] != NONE
        return np.where(
            position <= DISCARD_STEP, np.minimum(position, bids), bids + picked_up + position - FIRST_CARD_STEP
        )

    def _raise_illegal(self, seats: lockstep.CompiledSeats, row: int, position: int, action: int) -> None:
        """The fault of the strategy whose compiled policy (or script) chose ``action``, not legal there."""
        seat = int(self.mover[row])
        step = int(self.decision_steps(np.array([row]))[0])
        if 0 <= action < NUM_ACTIONS:
            what = f"chose action {action}, which is not legal there"
        else:
            what = f"chose action {action}, which is not an action of this game (0..{NUM_ACTIONS - 1})"
        raise lockstep.fault(seats.strategies[seat], what, self.round_ids[row : row + 1], step, seat)

    def team_points(self) -> np.ndarray:
        """(n, 2) the points each team scored in its finished hand (``rules.hand_points``)."""
        team_zero, team_one = self.tricks_won[:, 0], self.tricks_won[:, 1]
        team_one_wins = team_zero <= team_one  # team 0 wins with more tricks, else team 1
        euchred = team_one_wins != (self.maker & 1).astype(bool)  # a maker's team is its seat's parity
        march = (team_zero == rules.TRICKS_PER_HAND) | (team_one == rules.TRICKS_PER_HAND)
        winners_points = 1 + (euchred | march)
        points = np.empty(self.tricks_won.shape, dtype=np.int64)
        points[:, 0] = winners_points * ~team_one_wins
        points[:, 1] = winners_points * team_one_wins
        return points

    def actions(self) -> np.ndarray:
        """(n, SCRIPT_STEPS) int8 the action at each script position, ``NONE`` where none was taken."""
        return np.concatenate([self.bids, self.discard[:, None], self.history], axis=1)


@jit.njit(POLICY.signature, cache=True, nogil=True)
def _never_called(
    phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning, winner, played, settings
):  # fmt: skip # pragma: no cover - a seat played in Python
    """The stand-in policy of a seat played in Python: the kernel pauses before calling it."""
    return -1


@jit.njit(cache=True, nogil=True)
def _lay_out(deals, dealer, holdings, upcard):
    """Each seat's five cards and the upcard of each deal, dealt from the seat left of the dealer.
    Returns the first row that is not the 24 cards of the pack, else -1."""
    for row in range(deals.shape[0]):
        seen = np.int64(0)
        for position in range(rules.PACK_SIZE):
            seen |= np.int64(1) << deals[row, position]
        if seen != _PACK_MASK:
            return row
        for position in range(rules.UPCARD_POSITION):
            holdings[row, (dealer[row] + _DEAL_OFFSET[position]) & 3] |= np.int64(1) << deals[row, position]
        upcard[row] = deals[row, rules.UPCARD_POSITION]
    return -1


_READ_ONLY_INT8 = types.Array(types.int8, 1, "C", readonly=True)
_ADVANCE = types.int64(
    types.int64[:],  # rows to advance
    _READ_ONLY_INT8,  # dealer
    _READ_ONLY_INT8,  # upcard
    types.int64[:, :],  # holdings (n, 4): each seat's cards
    types.int64[:],  # position: the next script position of each hand
    types.int8[:, :],  # bids (n, 8)
    types.int8[:],  # trump
    types.int8[:],  # maker
    types.int8[:],  # making_round
    types.int8[:],  # discard
    types.int8[:, :],  # history (n, 20): the cards played
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
    types.UniTuple(POLICY, SEATS),  # each seat's compiled policy
    types.UniTuple(SETTINGS, SEATS),  # and its settings
    types.Array(types.boolean, 1, "C", readonly=True),  # seats played in Python
    types.int8[:],  # mover: out, at a pause the seat to move
    types.int64[:],  # legal: out, at a pause its legal actions
    types.int64[:],  # paused: out, the rows waiting on a Python seat
    types.int64[:],  # fault: out, (row, position, action) of an illegal action
)


@jit.njit(_ADVANCE, cache=True, nogil=True)
def _advance(
    rows, dealer, upcard, holdings, position, bids, trump, maker, making_round, discard, history, tricks_won,
    leader, winning, winner, script, script_length, judged, mismatches, opinion, opinion_at, policies, settings,
    in_python, mover, legal_out, paused, fault,
):  # fmt: skip
    """Play each of ``rows`` until its hand ends (its script ends, when judging) or a seat played in
    Python is to move; returns how many rows paused (their indexes in ``paused``). An illegal action
    stops it with ``fault`` set."""
    judging = judged.shape[0] > 0
    python_seats = 0  # a bit per seat played in Python
    for seat in range(SEATS):
        python_seats |= in_python[seat] << seat
    count = 0
    for row in rows:
        # The hand's state in locals while it plays: loads and stores through arrays cost more than the rules.
        at, dealt_by, up = position[row], np.int64(dealer[row]), np.int64(upcard[row])
        trumps, made_by, rounds = np.int64(trump[row]), np.int64(maker[row]), np.int64(making_round[row])
        lead_seat, best, best_seat = np.int64(leader[row]), np.int64(winning[row]), np.int64(winner[row])
        scripted = script_length[row]
        end = scripted if judging else SCRIPT_STEPS
        proposed = np.int64(1) << (ORDER_UP + up // NUM_RANKS)
        # The trick in play: its led card, the cards that follow it, and where its trick order is in _STRENGTH.
        led, following, order = NONE, np.int64(0), 0
        if FIRST_CARD_STEP <= at < SCRIPT_STEPS and (at - FIRST_CARD_STEP) & 3:
            led = np.int64(history[row, (at - FIRST_CARD_STEP) & ~3])
            led_suit = _EFFECTIVE_SUIT[trumps * 52 + led]
            following, order = _SUIT_CARDS[trumps * 4 + led_suit], (trumps * 5 + led_suit) * 52
        while at < end:
            played = 0
            if at < BIDS:  # making: bid k from the seat k + 1 places left of the dealer
                phase, seat, rounds = _MAKING, (dealt_by + at + 1) & 3, 1 + (at >> 2)
                hand = holdings[row, seat]
                if at < SEATS:
                    legal = proposed | _PASS_BIT
                else:  # round two: any other suit, and the dealer may not pass
                    legal = (_EVERY_ORDER ^ proposed) | (_PASS_BIT if at < BIDS - 1 else 0)
            elif at == DISCARD_STEP:
                phase, seat = _DISCARD, dealt_by
                hand = legal = holdings[row, seat]
            else:
                phase, played = _PLAYING, (at - FIRST_CARD_STEP) & 3
                seat = (lead_seat + played) & 3
                hand = legal = holdings[row, seat]
                if played and hand & following:  # follow suit when able
                    legal = hand & following
            if at < scripted:
                action = np.int64(script[row, at])
                if judging and judged[row, at]:
                    if python_seats >> seat & 1:
                        if opinion_at[row] != at:
                            mover[row], legal_out[row] = seat, legal
                            paused[count] = row
                            count += 1
                            break
                        wanted = opinion[row]
                    else:
                        wanted = policies[seat](
                            phase, seat, dealt_by, rounds, legal, hand, up, trumps, made_by, led, best, best_seat,
                            played, settings[seat],
                        )  # fmt: skip
                    if wanted != action:
                        mismatches[row] += judged[row, at]
            elif python_seats >> seat & 1:
                mover[row], legal_out[row] = seat, legal
                paused[count] = row
                count += 1
                break
            else:
                action = policies[seat](
                    phase, seat, dealt_by, rounds, legal, hand, up, trumps, made_by, led, best, best_seat, played,
                    settings[seat],
                )  # fmt: skip
            if not (0 <= action < NUM_ACTIONS and (legal >> action) & 1):
                mover[row] = seat
                fault[0], fault[1], fault[2] = row, at, action
                break
            if at < BIDS:
                bids[row, at] = action
                at += 1
                if action != PASS:
                    trumps, made_by = action - ORDER_UP, seat
                    if rounds == 1:  # the dealer picks up the upcard, then discards
                        holdings[row, dealt_by] |= np.int64(1) << up
                        at = DISCARD_STEP
                    else:
                        at = FIRST_CARD_STEP
            elif at == DISCARD_STEP:
                holdings[row, seat] ^= np.int64(1) << action
                discard[row] = action
                at += 1
            else:
                holdings[row, seat] ^= np.int64(1) << action
                history[row, at - FIRST_CARD_STEP] = action
                if not played:
                    led_suit = _EFFECTIVE_SUIT[trumps * 52 + action]
                    following, order = _SUIT_CARDS[trumps * 4 + led_suit], (trumps * 5 + led_suit) * 52
                    led, best, best_seat = action, action, seat
                elif _STRENGTH[order + action] > _STRENGTH[order + best]:
                    best, best_seat = action, seat
                if played == SEATS - 1:  # the trick's winner takes it and leads the next
                    tricks_won[row, best_seat & 1] += 1
                    lead_seat, led, best, best_seat = best_seat, NONE, NONE, NONE
                at += 1
        position[row], trump[row], maker[row], making_round[row] = at, trumps, made_by, rounds
        leader[row], winning[row], winner[row] = lead_seat, best, best_seat
        if fault[0] != NO_FAULT:
            break
    return count


_ADVANCE_ENTRY = lockstep.entry_point(_advance, _ADVANCE)
