"""The compiled Gin Rummy engine: many hands at once, each played by a numba kernel row by row.

``play_rounds`` plays a batch of deals (each the 52-card pack in the order it is dealt from, as the
reference ``Hand`` takes it) with two strategies (the same objects the reference engine takes) and
returns the points each seat scored; ``play_games`` strings hands into games to 100; ``play_from``
plays hands on from the middle (``HandStates``: a lookahead's rollouts). ``sim.crosscheck`` checks
that both engines make the same moves.

Per hand the engine keeps, by seat, the card masks of its hand, of the cards it took from the pile
and still holds and of the cards it threw; the pack (the stock is its cards from ``next_stock``
on), the discard pile (bottom card first) and its card mask; the seat to move, its phase, the card
it just took from the pile, and the decisions taken so far (``steps``). ``_advance`` plays a hand
one decision after another as the rules say, until a knock (scored as the reference lays the hands
down: ``sim.ginrummy.melds.knock_points``) or a discard that leaves two cards in the stock (void).

A strategy with a compiled policy (``strategy.compiled``, a ``CompiledPolicy``) is called inside
the kernel, so a lineup of such strategies plays a whole block of hands in one kernel call. Any
other strategy is asked in Python: the kernel plays every hand up to its next decision by such a
seat, the strategy gets those hands as one ``Observation`` batch, and the kernel resumes with its
answers. Every action, compiled or not, is checked; an illegal one raises ``StrategyFault`` naming
the strategy and the decision, so it never becomes a result.

The meld arithmetic (least deadwood, legal knocks, layouts) is ``sim.ginrummy.melds``; its
``deadwood``, ``best_discards`` and ``may_knock`` are also offered here, where issue 15 named them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import types

from sim import encoding, jit, lockstep
from sim.api import ROUND_ID_STRIDE, ArrayRecord, Strategy
from sim.cards import ALL_CARDS_MASK, NUM_CARDS, bits_to_bools, lowest_bit
from sim.games import DealSource, GamesResult, RoundsResult
from sim.ginrummy import policies, rules
from sim.ginrummy.melds import (
    best_discards,
    deadwood,
    hand_deadwood,
    knock_points,
    knocking_discards,
    may_knock,
    runs_only_deadwood,
    throw_deadwood,
)
from sim.ginrummy.observation import (
    DRAW_DISCARD,
    DRAW_STOCK,
    ENCODED_SIZE,
    ENCODING,
    KNOCK,
    NONE,
    NUM_ACTIONS,
    POLICY,
    SETTINGS,
    STOCK_SIZE,
    Observation,
    Phase,
    action_name,
)
from sim.lockstep import DealError

__all__ = ["best_discards", "deadwood", "may_knock", "play_from", "play_games", "play_rounds"]

BLOCK_SIZE = 8192  # hands played together: memory stays flat however many are asked for
TRACE_WIDTH = 64  # decisions a block's trace holds at first (a hand takes about 23); doubled when a hand takes more
MAX_TURNS = 10_000  # a hand is ~20 turns; one this long never ends (two players passing cards to and fro)


class EndlessHand(RuntimeError):
    """Hands that never end: their stock stops running down, as the strategies only take from the pile."""


SEATS = rules.NUM_PLAYERS
DRAW, DISCARD, OVER = int(Phase.DRAW), int(Phase.DISCARD), int(Phase.OVER)
_GAME_COLUMNS = 5  # what play_games keeps per game: points (2), hands won (2), deals passed on
NO_FAULT = -1
ENDLESS = 1  # a fault's kind (fault[3]): a hand that went on too long rather than an illegal action


@dataclass(frozen=True)
class HandResults(RoundsResult):
    """What B hands came to, in the order of the deals: ``points`` (B, 2) int64, what each seat
    scored, and on request the trace."""

    actions: np.ndarray | None = None
    """(B, T) int16 each hand's actions in the order they were taken, then -1 after its last; T is
    the most decisions any hand of the batch took. Only when a trace was asked for."""


def play_rounds(
    deals: np.ndarray,
    strategies: Sequence[Strategy],
    round_ids: np.ndarray | None = None,
    scores: np.ndarray | None = None,
    dealers: np.ndarray | None = None,
    trace: bool = False,
) -> HandResults:
    """Play each deal as one hand with ``strategies[seat]`` in each seat; the points each seat scored.

    Hand ``i`` is numbered ``round_ids[i]`` (default ``0..B-1``) and dealt by seat ``dealers[i]``
    (default, as the reference's ``new_state``: ``round_ids[i] % 2``); ``scores`` (B, 2) are the game
    points before the hand (default zeros), which observations report. With ``trace`` the result's
    ``actions`` (B, T) int16 are every hand's actions as the kernel took them, in order, padded with
    -1 after each hand's last (T: the most decisions any hand took). Raises ``StrategyFault``
    naming a strategy that raised or chose what it may not, and ``DealError`` for a deal that is not a pack.
    """
    points, _, actions = _play(deals, _seats(strategies), round_ids, scores, dealers, trace)
    return HandResults(points, actions)


def play_games(game_ids: np.ndarray, deal_source: DealSource, strategies: Sequence[Strategy]) -> GamesResult:
    """Play whole games to ``rules.GAME_TARGET`` as the reference ``Game`` does: hand ``r`` of every
    game still going is dealt by ``deal_source(its game ids, r)`` and numbered ``sim.api.round_id(g,
    r)``; game ``g``'s first dealer is seat ``g % 2``, and the deal passes after every hand but a void
    one. Scores are the grand totals, with the game bonus and the box bonuses (``rules.final_scores``)."""
    seats = _seats(strategies)

    def play(deals: np.ndarray, ids: np.ndarray, games: np.ndarray) -> np.ndarray:
        passed = games[:, 4]  # how many times the deal has passed to the other seat
        dealers = (ids // ROUND_ID_STRIDE + passed) % SEATS
        points, void, _ = _play(deals, seats, ids, games[:, :SEATS], dealers)
        gained = np.empty((len(deals), _GAME_COLUMNS), dtype=np.int64)
        gained[:, :SEATS] = points
        gained[:, SEATS : 2 * SEATS] = points > 0  # every hand that is not void has one winner
        gained[:, 4] = ~void
        return gained

    def is_over(games: np.ndarray) -> np.ndarray:
        return games[:, :SEATS].max(axis=1) >= rules.GAME_TARGET

    games, hands_played = lockstep.play_games(game_ids, deal_source, play, _GAME_COLUMNS, is_over)
    points, hands_won = games[:, :SEATS], games[:, SEATS : 2 * SEATS]
    winners = points >= rules.GAME_TARGET  # one seat scores a hand: the game ends as the first gets there
    shutout = points[:, ::-1] == 0  # the other seat scored nothing
    bonus = np.where(shutout, rules.SHUTOUT_GAME_BONUS, rules.GAME_BONUS) * winners
    return GamesResult(points + rules.BOX_BONUS * hands_won + bonus, hands_played, winners)


def _seats(strategies: Sequence[Strategy]) -> lockstep.CompiledSeats:
    """The seats' strategies as the kernel takes them; ``ValueError`` unless there are two."""
    if len(strategies) != SEATS:
        raise ValueError(f"Gin Rummy needs {SEATS} strategies, got {len(strategies)}")
    return lockstep.CompiledSeats(strategies, POLICY, _never_called, policies.BUILT_IN)


def _play(
    deals: np.ndarray,
    seats: lockstep.CompiledSeats,
    round_ids: np.ndarray | None,
    scores: np.ndarray | None,
    dealers: np.ndarray | None,
    trace: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(points (B, 2) by seat, void (B,) bool, the trace or None) of the deals played as hands
    (``play_rounds``)."""
    deals = _checked_deals(deals)
    count = len(deals)
    ids = np.arange(count, dtype=np.int64) if round_ids is None else np.asarray(round_ids, dtype=np.int64)
    scores = np.zeros((count, SEATS), dtype=np.int64) if scores is None else np.asarray(scores, dtype=np.int64)
    dealers = ids % SEATS if dealers is None else np.asarray(dealers, dtype=np.int64)
    points = np.zeros((count, SEATS), dtype=np.int64)
    void = np.zeros(count, dtype=bool)
    traces = []
    for start in range(0, count, BLOCK_SIZE):
        rows = slice(start, start + BLOCK_SIZE)
        block = _Block.dealt(deals[rows], ids[rows], scores[rows], dealers[rows])
        block.play(seats, trace)
        points[rows], void[rows] = block.points, block.void
        if trace:
            traces.append(block.trace[:, : block.steps.max(initial=0)])
    return points, void, _stacked(traces, count) if trace else None


def _stacked(traces: list[np.ndarray], count: int) -> np.ndarray:
    """(count, T) int16: the blocks' traces one under another, each padded with -1 to the widest."""
    stacked = np.full((count, max((each.shape[1] for each in traces), default=0)), -1, dtype=np.int16)
    start = 0
    for each in traces:
        stacked[start : start + len(each), : each.shape[1]] = each
        start += len(each)
    return stacked


def _checked_deals(deals: np.ndarray) -> np.ndarray:
    """The deals as int8 card ids once their shape and values are those of card ids (that each is
    exactly the pack is checked as a block is dealt)."""
    deals = np.asarray(deals)
    if deals.ndim != 2 or deals.shape[1] != NUM_CARDS or not np.issubdtype(deals.dtype, np.integer):
        raise DealError(f"Gin Rummy deals are (n, {NUM_CARDS}) arrays of card ids, not {deals.dtype} {deals.shape}")
    if deals.size and (deals.min() < 0 or deals.max() >= NUM_CARDS):
        raise DealError(f"a Gin Rummy deal holds card ids from 0 to {NUM_CARDS - 1}")
    return deals.astype(np.int8, copy=False)


@dataclass(frozen=True)
class HandStates(ArrayRecord):
    """Hands in the middle of play, one row each: everything the engine needs to play them on.

    Seats are the game's (0 and 1). ``stock`` holds each hand's stock in its last ``stock_size``
    columns, the next card drawn first; ``pile`` the discard pile in its first ``pile_size``
    columns, the top card last. ``mover`` is the seat to move and ``phase`` its step of the turn
    (``Phase.DRAW`` or ``Phase.DISCARD``); ``taken`` the card it just took from the pile, or ``NONE``.
    """

    dealer: np.ndarray  # (n,)
    mover: np.ndarray  # (n,)
    phase: np.ndarray  # (n,)
    hands: np.ndarray  # (n, 2) int64 card masks by seat
    stock: np.ndarray  # (n, 52) card ids
    stock_size: np.ndarray  # (n,)
    pile: np.ndarray  # (n, 52) card ids
    pile_size: np.ndarray  # (n,)
    took: np.ndarray  # (n, 2) int64: cards each seat took from the pile and still holds
    threw: np.ndarray  # (n, 2) int64: cards each seat threw this hand
    taken: np.ndarray  # (n,)
    round_id: np.ndarray  # (n,)
    scores: np.ndarray  # (n, 2) game points before the hand


def play_from(
    states: HandStates,
    strategies: Sequence[Strategy],
    script: np.ndarray | None = None,
    script_length: np.ndarray | None = None,
) -> RoundsResult:
    """Play hands on from ``states`` to their end: the points each seat scores in each (none while a
    hand was void). The first ``script_length[i]`` decisions of hand ``i`` from there are
    ``script[i]``'s, whoever is to move (a lookahead's rollouts start with their candidate so), and
    the strategies take the rest."""
    seats = _seats(strategies)
    count = len(states.mover)
    points = np.zeros((count, SEATS), dtype=np.int64)
    for start in range(0, count, BLOCK_SIZE):
        rows = np.arange(start, min(start + BLOCK_SIZE, count))
        block = _Block.resumed(states, rows)
        if script is not None and script_length is not None:
            block.scripted(script[rows], script_length[rows])
        block.play(seats)
        points[rows] = block.points
    return RoundsResult(points)


class _Block:
    """Up to ``BLOCK_SIZE`` hands, played by ``_advance`` and the Python strategies in turn. Seat
    arrays (``hands``, ``took``, ``threw``, ``points``) are (n, 2), by the game's seat."""

    def __init__(
        self,
        *,
        pack: np.ndarray,
        next_stock: np.ndarray,
        pile: np.ndarray,
        pile_size: np.ndarray,
        pile_mask: np.ndarray,
        hands: np.ndarray,
        took: np.ndarray,
        threw: np.ndarray,
        mover: np.ndarray,
        phase: np.ndarray,
        taken: np.ndarray,
        dealer: np.ndarray,
        round_ids: np.ndarray,
        scores: np.ndarray,
    ) -> None:
        """The arrays ``_advance`` plays on, as ``dealt`` and ``resumed`` lay them out."""
        self.pack = _constant(pack)  # (n, 52) int8: the stock is its cards from next_stock on
        self.next_stock, self.pile, self.pile_size, self.pile_mask = next_stock, pile, pile_size, pile_mask
        self.hands, self.took, self.threw = hands, took, threw
        self.seat_to_move, self.phase, self.taken = mover, phase, taken
        # What observations report and never changes: read-only, so no strategy changes it for another.
        self.dealer, self.round_ids, self.scores = _constant(dealer), _constant(round_ids), _constant(scores)
        size = len(self.pack)
        self.points = np.zeros((size, SEATS), dtype=np.int64)
        self.void = np.zeros(size, dtype=bool)
        self.steps = np.zeros(size, dtype=np.int64)  # decisions taken since dealt (or resumed)
        self.answers = np.zeros(size, dtype=np.int64)  # a Python seat's action, at step answer_step
        self.answer_step = np.full(size, -1, dtype=np.int64)
        self.script = np.zeros((size, 1), dtype=np.int64)
        self.script_length = np.zeros(size, dtype=np.int64)
        # The actions taken, by step ((0, 0): not kept), -1 after the last.
        self.trace = np.empty((0, 0), dtype=np.int16)

    @classmethod
    def dealt(cls, deals: np.ndarray, ids: np.ndarray, scores: np.ndarray, dealers: np.ndarray) -> _Block:
        """Hands just dealt from ``deals`` (int8 card ids, the pack in the order it is dealt from): the
        opener, the seat after the dealer, is to discard."""
        size = len(deals)
        pack, dealer = np.ascontiguousarray(deals), np.array(dealers, dtype=np.int64)
        hands = np.empty((size, SEATS), dtype=np.int64)
        if _deal(pack, dealer, hands) >= 0:
            raise DealError("a Gin Rummy deal holds each of the 52 cards once")
        return cls(
            pack=pack,
            next_stock=np.full(size, rules.DEALT_CARDS, dtype=np.int64),
            pile=np.zeros((size, NUM_CARDS), dtype=np.int8),
            pile_size=np.zeros(size, dtype=np.int64),
            pile_mask=np.zeros(size, dtype=np.int64),
            hands=hands,
            took=np.zeros((size, SEATS), dtype=np.int64),
            threw=np.zeros((size, SEATS), dtype=np.int64),
            mover=dealer ^ 1,
            phase=np.full(size, DISCARD, dtype=np.int64),
            taken=np.full(size, NONE, dtype=np.int64),
            dealer=dealer,
            round_ids=np.array(ids, dtype=np.int64),
            scores=np.array(scores, dtype=np.int64),
        )

    @classmethod
    def resumed(cls, states: HandStates, rows: np.ndarray) -> _Block:
        """The hands ``rows`` of ``states``."""

        def of_rows(values: np.ndarray) -> np.ndarray:
            return np.array(np.asarray(values).take(rows, axis=0), dtype=np.int64)

        pile, pile_size = np.asarray(states.pile).take(rows, axis=0).astype(np.int8), of_rows(states.pile_size)
        in_pile = np.arange(NUM_CARDS) < pile_size[:, None]
        return cls(
            pack=np.asarray(states.stock).take(rows, axis=0).astype(np.int8),
            next_stock=NUM_CARDS - of_rows(states.stock_size),
            pile=pile,
            pile_size=pile_size,
            pile_mask=np.bitwise_or.reduce((np.int64(1) << pile.astype(np.int64)) * in_pile, axis=1),
            hands=of_rows(states.hands),
            took=of_rows(states.took),
            threw=of_rows(states.threw),
            mover=of_rows(states.mover),
            phase=of_rows(states.phase),
            taken=of_rows(states.taken),
            dealer=of_rows(states.dealer),
            round_ids=of_rows(states.round_id),
            scores=of_rows(states.scores),
        )

    @classmethod
    def fresh(cls, deals: np.ndarray, round_ids: np.ndarray) -> _Block:
        """Hands of rounds of a game's start, as ``play_rounds`` deals them by default: hand ``i`` dealt by
        seat ``round_ids[i] % 2``, scores zero."""
        ids = np.array(round_ids, dtype=np.int64)
        return cls.dealt(deals, ids, np.zeros((len(ids), SEATS), dtype=np.int64), ids % SEATS)

    def scripted(self, script: np.ndarray, script_length: np.ndarray) -> None:
        """Each hand's first ``script_length`` decisions from now are its row of ``script``, whoever is to move."""
        self.script = np.ascontiguousarray(script, dtype=np.int64)
        self.script_length = np.ascontiguousarray(script_length, dtype=np.int64)

    def play(self, seats: lockstep.CompiledSeats, trace: bool = False) -> None:
        """Play every hand to its end, handing the Python seats their decisions as batches; with
        ``trace``, ``self.trace`` records every action (a row pauses when its trace is full, and the
        trace is widened)."""
        if trace:
            self.trace = np.full((len(self.steps), TRACE_WIDTH), -1, dtype=np.int16)
        rows = self.advance(seats, np.arange(len(self.steps)))
        while rows.size:
            width = self.trace.shape[1]
            if trace and (self.steps[rows] >= width).any():
                self.trace = np.pad(self.trace, ((0, 0), (0, width)), constant_values=-1)
            asking = rows[self.steps[rows] < width] if trace else rows
            if asking.size:
                self._ask_python_seats(seats, asking)
            rows = self.advance(seats, rows)

    def advance(self, seats: lockstep.CompiledSeats, rows: np.ndarray) -> np.ndarray:
        """Play each of ``rows`` until its hand ends, a seat played in Python is to move or its trace (when
        kept) is full; returns the rows that paused so. An illegal action raises ``StrategyFault``, a hand
        that never ends ``EndlessHand``."""
        paused = np.empty(len(rows), dtype=np.int64)
        fault = np.full(4, NO_FAULT, dtype=np.int64)
        count = _ADVANCE_ENTRY(
            np.ascontiguousarray(rows, dtype=np.int64), self.pack, self.next_stock, self.pile, self.pile_size,
            self.pile_mask, self.hands, self.took, self.threw, self.seat_to_move, self.phase, self.taken, self.steps,
            self.points, self.void, self.script, self.script_length, self.answers, self.answer_step, self.trace,
            2 * MAX_TURNS, seats.kinds, seats.functions, seats.settings, seats.in_python, paused, fault,
        )  # fmt: skip
        if fault[0] != NO_FAULT:
            if fault[3] == ENDLESS:
                raise EndlessHand(
                    f"hand {int(self.round_ids[fault[0]])} went on for {MAX_TURNS} turns: the strategies take"
                    " each other's throws from the pile forever and the stock never runs down"
                )
            self._raise_illegal(seats, *(int(value) for value in fault[:3]))
        return paused[:count]

    def restart(self, rows: np.ndarray, deals: np.ndarray, round_ids: np.ndarray) -> None:
        """Deal ``deals`` afresh to ``rows``: hands of rounds of a game's start (``fresh``), unplayed."""
        dealt = _Block.fresh(deals, round_ids)
        for name, array in vars(self).items():  # every array of the block is per hand, but the trace
            if name == "trace":  # kept by play_rounds' blocks, whose hands are never dealt again
                continue
            writeable = array.flags.writeable
            array.flags.writeable = True
            array[rows] = getattr(dealt, name)
            array.flags.writeable = writeable

    def mover(self, rows: np.ndarray) -> np.ndarray:
        """The seat to move in each of ``rows``."""
        return self.seat_to_move[rows]

    def take(self, rows: np.ndarray, actions: np.ndarray) -> None:
        """The movers of ``rows`` take ``actions`` when the rows next advance."""
        self.answers[rows] = actions
        self.answer_step[rows] = self.steps[rows]

    def _ask_python_seats(self, seats: lockstep.CompiledSeats, rows: np.ndarray) -> None:
        """Each Python strategy's choices in the ``rows`` where its seat is to move, kept for the kernel."""
        seat = self.seat_to_move[rows]
        for strategy, plays in seats.seats_of:
            mine = rows[plays[seat]]
            if mine.size:
                observation = self.observe(mine)
                steps = self.steps[mine]
                chosen = lockstep.choose_checked(strategy, observation, observation.legal, steps, observation.seat)
                self.take(mine, chosen)

    def observe(self, rows: np.ndarray) -> Observation:
        """The movers' view of the hands ``rows``: fresh read-only arrays, so no later step changes them,
        carrying their encoding (``encoding.attach``)."""
        seat = self.seat_to_move[rows]
        phase = self.phase[rows]
        hand = self.hands[rows, seat]
        taken = self.taken[rows]
        pile_size = self.pile_size[rows]
        top = np.where(pile_size > 0, self.pile[rows, np.maximum(pile_size - 1, 0)], NONE).astype(np.int64)
        legal = np.zeros((len(rows), NUM_ACTIONS), dtype=bool)
        drawing = phase == DRAW
        legal[drawing, DRAW_STOCK] = legal[drawing, DRAW_DISCARD] = True
        kept = ~np.where(taken >= 0, np.int64(1) << np.maximum(taken, 0), 0)
        discarding = np.flatnonzero(~drawing)
        legal[discarding, :NUM_CARDS] = bits_to_bools(hand[discarding] & kept[discarding])
        legal[discarding, KNOCK:] = bits_to_bools(knocking_discards(hand[discarding]) & kept[discarding])
        fields = {
            "seat": seat,
            "dealer": self.dealer[rows],
            "phase": phase,
            "legal": legal,
            "hand": hand,
            "top_discard": top,
            "discard_pile": self.pile_mask[rows],
            "took": self.took[rows, seat],
            "opponent_took": self.took[rows, seat ^ 1],
            "opponent_threw": self.threw[rows, seat ^ 1],
            "threw": self.threw[rows, seat],
            "taken": taken,
            "stock_size": NUM_CARDS - self.next_stock[rows],
            "scores": self.scores[rows],
            "round_id": self.round_ids[rows],
        }
        for values in fields.values():
            values.flags.writeable = False
        return encoding.attach(Observation(**fields), self.encoded(rows)[0])

    def encoded(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The movers' observations of ``rows`` as ``observation.encode`` lays them out and their legal
        actions' masks (int8), written by compiled code from the hands' state."""
        encoded = np.zeros((len(rows), ENCODED_SIZE), dtype=np.float32)
        masks = np.zeros((len(rows), NUM_ACTIONS), dtype=np.int8)
        _encode(
            np.ascontiguousarray(rows, dtype=np.int64), self.seat_to_move, self.dealer, self.phase, self.hands,
            self.pile, self.pile_size, self.pile_mask, self.took, self.threw, self.taken, self.next_stock,
            self.scores, encoded, masks,
        )  # fmt: skip
        return encoded, masks

    def _raise_illegal(self, seats: lockstep.CompiledSeats, row: int, step: int, action: int) -> None:
        """The fault of the strategy whose compiled policy (or script) chose ``action``, not legal there."""
        observation = self.observe(np.array([row]))
        seat = int(observation.seat[0])
        if 0 <= action < NUM_ACTIONS:
            legal = ", ".join(action_name(int(legal)) for legal in np.flatnonzero(observation.legal[0]))
            what = f"chose {action_name(action)}, which is not legal there (legal: {legal})"
        else:
            what = f"chose action {action}, which is not an action of this game (0..{NUM_ACTIONS - 1})"
        raise lockstep.fault(seats.strategies[seat], what, self.round_ids[row : row + 1], step, seat)


class Tables(lockstep.BlockTables):
    """Hands dealt and played side by side, each paused wherever a seat played in Python is to move:
    the engine of the batched environments (``sim.vecenv``, whose ``Tables`` protocol this is). A
    learner's seat is one whose strategy has no compiled policy and is never asked here."""

    def __init__(self, strategies: Sequence[Strategy], deals: np.ndarray, round_ids: np.ndarray) -> None:
        super().__init__(_Block.fresh(_checked_deals(deals), round_ids), _seats(strategies))

    @classmethod
    def resumed(
        cls, strategies: Sequence[Strategy], states: HandStates, script: np.ndarray, script_length: np.ndarray
    ) -> Tables:
        """Tables at the hands of ``states``, not freshly dealt, whose first ``script_length``
        decisions are ``script``'s (as ``play_from`` plays them): a lookahead's rollouts."""
        block = _Block.resumed(states, np.arange(len(states.mover)))
        block.scripted(script, script_length)
        tables = cls.__new__(cls)
        lockstep.BlockTables.__init__(tables, block, _seats(strategies))
        return tables

    def restart(self, rows: np.ndarray, deals: np.ndarray, round_ids: np.ndarray) -> None:
        self.block.restart(rows, _checked_deals(deals), round_ids)

    def encoded(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.block.encoded(rows)


# Where each slice of ``observation.ENCODING`` starts in an encoded row.
(
    _SEAT_AT, _DEALER_AT, _PHASE_AT, _HAND_AT, _TOP_AT, _PILE_AT, _TOOK_AT, _OPPONENT_TOOK_AT, _THREW_AT,
    _OPPONENT_THREW_AT, _TAKEN_AT, _STOCK_AT, _SCORES_AT,
) = (offset for offset, _, _ in encoding.slices(ENCODING))  # fmt: skip


@jit.njit(cache=True, nogil=True)
def _encode(
    rows, mover, dealer, phase, hands, pile, pile_size, pile_mask, took, threw, taken, next_stock, scores, encoded,
    masks,
):  # fmt: skip
    """Row k of ``encoded`` (zeros before) the encoding of the mover's view of hand ``rows[k]``, the
    one ``observation.encode`` makes of ``_Block.observe``, and row k of ``masks`` (zeros before) its
    legal actions."""
    for k in range(rows.shape[0]):
        row = rows[k]
        seat = mover[row]
        hand, just_taken = hands[row, seat], taken[row]
        out = encoded[k]
        out[_SEAT_AT + seat] = 1.0
        out[_DEALER_AT + (dealer[row] ^ seat)] = 1.0  # the dealer counted from the mover: 0 itself, 1 the opponent
        out[_PHASE_AT + phase[row]] = 1.0
        _set_cards(out, _HAND_AT, hand)
        if pile_size[row]:
            out[_TOP_AT + pile[row, pile_size[row] - 1]] = 1.0
        _set_cards(out, _PILE_AT, pile_mask[row])
        _set_cards(out, _TOOK_AT, took[row, seat])
        _set_cards(out, _OPPONENT_TOOK_AT, took[row, seat ^ 1])
        _set_cards(out, _THREW_AT, threw[row, seat])
        _set_cards(out, _OPPONENT_THREW_AT, threw[row, seat ^ 1])
        if just_taken != NONE:
            out[_TAKEN_AT + just_taken] = 1.0
        # Divided in float64 and rounded once to float32, as numpy's encode does.
        out[_STOCK_AT] = (NUM_CARDS - next_stock[row]) / STOCK_SIZE
        for place in range(SEATS):
            out[_SCORES_AT + place] = scores[row, seat ^ place] / rules.GAME_TARGET
        _set_legal(masks[k], phase[row], hand, just_taken)


@jit.njit(cache=True, nogil=True)
def _set_cards(out, at, cards):
    """``out[at + card]`` 1 for each card of the card mask ``cards``."""
    while cards:
        out[at + lowest_bit(cards)] = 1.0
        cards &= cards - 1


@jit.njit(cache=True, nogil=True)
def _set_legal(mask, turn, hand, just_taken):
    """``mask`` (zeros before) 1 at the actions ``_Block.observe`` finds legal for a mover holding ``hand``
    in phase ``turn``, having just taken ``just_taken`` from the pile."""
    if turn == DRAW:
        mask[DRAW_STOCK] = mask[DRAW_DISCARD] = 1
        return
    throws = hand if just_taken == NONE else hand & ~(np.int64(1) << just_taken)
    runs_deadwood = runs_only_deadwood(hand)
    while throws:
        card = lowest_bit(throws)
        throws &= throws - 1
        mask[card] = 1
        if throw_deadwood(hand, np.int64(1) << card, runs_deadwood) <= rules.KNOCK_LIMIT:
            mask[KNOCK + card] = 1


def _constant(values: np.ndarray) -> np.ndarray:
    values.flags.writeable = False
    return values


@jit.njit(POLICY.signature, cache=True, nogil=True)
def _never_called(
    phase, hand, top_discard, discard_pile, took, opponent_took, threw, opponent_threw, taken, stock_size, settings
):  # pragma: no cover - a seat played in Python
    """The stand-in policy of a seat played in Python: the kernel pauses before calling it."""
    return -1


@jit.njit(cache=True, nogil=True)
def _deal(pack, dealers, hands):
    """Each hand as dealt from its pack: the opener (the seat after the dealer) every other card
    from the first, and the 21st; the dealer the others. Returns the first row that is not a
    permutation of the cards, else -1."""
    for row in range(pack.shape[0]):
        seen = np.int64(0)
        for slot in range(NUM_CARDS):
            seen |= np.int64(1) << pack[row, slot]
        if seen != ALL_CARDS_MASK:
            return row
        opener = np.int64(1) << pack[row, rules.DEALT_CARDS - 1]
        dealer = np.int64(0)
        for slot in range(0, rules.DEALT_CARDS - 1, 2):
            opener |= np.int64(1) << pack[row, slot]
            dealer |= np.int64(1) << pack[row, slot + 1]
        hands[row, dealers[row]] = dealer
        hands[row, dealers[row] ^ 1] = opener
    return -1


_SEAT_MASKS = types.int64[:, :]
_ADVANCE = types.int64(
    types.int64[:],  # rows to advance
    types.Array(types.int8, 2, "C", readonly=True),  # pack (n, 52): the stock is its cards from next_stock on
    types.int64[:],  # next_stock
    types.int8[:, :],  # pile (n, 52), bottom card first
    types.int64[:],  # pile_size
    types.int64[:],  # pile_mask
    _SEAT_MASKS,  # hands (n, 2) by seat
    _SEAT_MASKS,  # took: cards each seat took from the pile and still holds
    _SEAT_MASKS,  # threw: cards each seat threw
    types.int64[:],  # mover: the seat to move
    types.int64[:],  # phase
    types.int64[:],  # taken: the card just taken from the pile, or NONE
    types.int64[:],  # steps: the decisions each hand has seen
    _SEAT_MASKS,  # points (n, 2): out, what each seat scored
    types.boolean[:],  # void: out, the hands that ended with the stock down to two cards
    types.Array(types.int64, 2, "C", readonly=True),  # script (n, k): actions decided before anyone is asked
    types.Array(types.int64, 1, "C", readonly=True),  # script_length: how many of them each hand has
    types.int64[:],  # answers: a Python seat's action, for the step in answer_step
    types.int64[:],  # answer_step
    types.int16[:, :],  # trace (n, width): out, the action taken at each step ((0, 0): not kept)
    types.int64,  # max_steps: a hand still going after so many decisions never ends
    types.Array(types.int64, 1, "C", readonly=True),  # each seat's kind of policy (lockstep.CompiledSeats)
    types.UniTuple(POLICY, SEATS),  # each seat's external compiled policy
    types.UniTuple(SETTINGS, SEATS),  # and its settings
    types.Array(types.boolean, 1, "C", readonly=True),  # seats played in Python
    types.int64[:],  # paused: out, the rows waiting on a Python seat
    types.int64[:],  # fault: out, (row, step, action, kind) of an illegal action or an endless hand
)


@jit.njit(_ADVANCE, cache=True, nogil=True)
def _advance(
    rows, pack, next_stock, pile, pile_size, pile_mask, hands, took, threw, mover, phase, taken, steps, points, void,
    script, script_length, answers, answer_step, trace, max_steps, kinds, external, settings, in_python, paused, fault,
):  # fmt: skip
    """Play each of ``rows`` until its hand ends, a seat played in Python is to move or its ``trace``
    (when kept) is full; returns how many rows paused (their indexes in ``paused``). An illegal
    action stops it with ``fault`` set."""
    tracing = trace.shape[0] > 0
    count = 0
    for row in rows:
        # The hand's state in locals while it plays, the mover's first: loads and stores through arrays
        # cost more than the rules.
        seat, turn, step, stock, size, pile_cards, just_taken = (
            mover[row], phase[row], steps[row], next_stock[row], pile_size[row], pile_mask[row], taken[row]
        )  # fmt: skip
        own, other = hands[row, seat], hands[row, seat ^ 1]
        own_took, other_took = took[row, seat], took[row, seat ^ 1]
        own_threw, other_threw = threw[row, seat], threw[row, seat ^ 1]
        scripted, answered_at = script_length[row], answer_step[row]
        while turn != OVER:
            if step >= max_steps:
                fault[0], fault[1], fault[2], fault[3] = row, step, -1, ENDLESS
                break
            if tracing and step >= trace.shape[1]:
                paused[count] = row
                count += 1
                break
            top = pile[row, size - 1] if size else NONE
            if step < scripted:
                action = script[row, step]
            elif answered_at == step:
                action = answers[row]
            elif in_python[seat]:
                paused[count] = row
                count += 1
                break
            else:
                action = policies.decide(
                    kinds[seat], external[seat], turn, own, top, pile_cards, own_took, other_took, own_threw,
                    other_threw, just_taken, NUM_CARDS - stock, settings[seat],
                )  # fmt: skip
            if tracing:
                trace[row, step] = action
            if turn == DRAW:
                if action == DRAW_STOCK:
                    card = pack[row, stock]
                    stock += 1
                    just_taken = NONE
                elif action == DRAW_DISCARD and size:
                    card = top
                    size -= 1
                    pile_cards ^= np.int64(1) << card
                    own_took |= np.int64(1) << card
                    just_taken = card
                else:
                    fault[0], fault[1], fault[2], fault[3] = row, step, action, 0
                    break
                own |= np.int64(1) << card
                turn = DISCARD
            else:
                knocks = action >= KNOCK
                card = action - KNOCK if knocks else action
                bit = np.int64(1) << card
                if not (0 <= card < NUM_CARDS and own & bit and card != just_taken and action < KNOCK + NUM_CARDS):
                    fault[0], fault[1], fault[2], fault[3] = row, step, action, 0
                    break
                if knocks and hand_deadwood(own ^ bit) > rules.KNOCK_LIMIT:
                    fault[0], fault[1], fault[2], fault[3] = row, step, action, 0
                    break
                own ^= bit
                own_took &= ~bit
                own_threw |= bit
                pile[row, size] = card
                size += 1
                pile_cards |= bit
                just_taken = NONE
                if knocks:
                    gained, lost = knock_points(own, other)
                    points[row, seat] += gained
                    points[row, seat ^ 1] += lost
                    turn = OVER
                elif NUM_CARDS - stock <= rules.VOID_STOCK_SIZE:
                    void[row] = True
                    turn = OVER
                else:
                    seat ^= 1
                    own, other = other, own
                    own_took, other_took = other_took, own_took
                    own_threw, other_threw = other_threw, own_threw
                    turn = DRAW
            step += 1
        mover[row], phase[row], steps[row], next_stock[row], pile_size[row], pile_mask[row], taken[row] = (
            seat, turn, step, stock, size, pile_cards, just_taken
        )  # fmt: skip
        hands[row, seat], hands[row, seat ^ 1] = own, other
        took[row, seat], took[row, seat ^ 1] = own_took, other_took
        threw[row, seat], threw[row, seat ^ 1] = own_threw, other_threw
        if fault[0] != NO_FAULT:
            break
    return count


_ADVANCE_ENTRY = lockstep.entry_point(_advance, _ADVANCE)
