"""The compiled Gemstones engine: many games at once, each played by numba kernels row by row.

A batch of games is a ``GameStates`` record, one row per game, and the engine is functions over it,
as pgx writes a game: ``deal`` makes the rows of new games, ``observe`` gives the mover's
``Observation`` of chosen rows, ``apply`` takes one action in each row and moves each game on to its
next decision. Every row is always at a decision (or over), whatever step of its turn it is at.
Between two decisions a game goes through the steps that need no choice (draws, the pull from the
discard pile, the end of the turn, the next turn's start) as the reference engine does
(``sim.gemstones.engine``): ``_go_on`` is its turn written as a loop over those steps, each step a
small function of one row that returns the step after it.

``play_rounds``, ``play_games``, ``play_on`` and ``play_from`` play games to their end (or for some
turns). A strategy with a compiled policy (``strategy.compiled``, a ``CompiledPolicy``) is called
inside the kernel, so a lineup of such strategies plays a whole block of games in one kernel call: a
built-in policy (``sim.gemstones.policies``) directly, inlined, any other through its address.
Any other strategy is asked in Python: the kernel plays every game up to its next decision by such a
seat, the strategy gets those games as one ``Observation`` batch, and the kernel resumes with its
answers. Every action, compiled or not, is checked; an illegal one raises ``StrategyFault`` naming
the strategy and the decision, so it never becomes a result.

``Tables`` are the same games for batched environments (``sim.vecenv``): a kernel pass plays each
game until it ends or a seat played in Python (a learner's) is to move, and the caller's action is
taken first when the game next advances.

**Layout.** Stones are ids 0..7 (``rules.STONES``), ``NONE`` marks an empty place. The deck holds
its cards in its first ``deck_size`` columns and is drawn from the last of them (the reference's
list, popped from its end). A hand is the ordered row ``hands[g, seat]``: front card in column 0,
drawn cards appended after the last. The trade area keeps its cards in the order they came, a
chained card leaving a ``NONE`` hole, so the leftovers reach the discard pile in trade-area order;
it is empty whenever it is filled, and ``TRADE_WIDTH`` columns hold any pull from the discard pile.
The discard pile is bottom first, ``NONE`` past its top.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from sim import encoding, jit, lockstep
from sim.api import MAX_POLICY_SETTINGS, ArrayRecord, Strategy, round_ids
from sim.cards import bits_to_bools
from sim.games import DealSource, GamesResult, RoundsResult
from sim.gemstones import policies, rules
from sim.gemstones.engine import DEFAULT_VARIANTS, NUM_PLAYERS, SOLD_CARDS_RULES, Variants
from sim.gemstones.observation import (
    BUY,
    CHAIN,
    COINS,
    COUNT_SCALE,
    DISCARD,
    DISCARD_TOP,
    ENCODED_SIZE,
    ENCODING,
    NONE,
    NUM_ACTIONS,
    PASS,
    PLAY,
    POLICY,
    SELL,
    TURN_SCALE,
    Observation,
    Phase,
)
from sim.lockstep import DealError

__all__ = [
    "COINS",
    "GameStates",
    "Tables",
    "apply",
    "deal",
    "observe",
    "play_from",
    "play_games",
    "play_on",
    "play_rounds",
    "stacked",
]

BLOCK_SIZE = 32768  # games played together: memory stays flat however many are asked for
TRADE_WIDTH = rules.NUM_CARDS  # the trade area never holds more cards than the game has
SEATS = NUM_PLAYERS
NUM_STONES = rules.NUM_STONES
HAND_WIDTH = rules.HAND_WIDTH
MAX_SLOTS = rules.MAX_SLOTS
NO_FAULT = -1
NO_ACTION = -1
NO_TURN_LIMIT = np.iinfo(np.int64).max
# The deal: the deck is popped from its end, one card to each seat in turn, seat 0 first.
_DEALT = np.arange(rules.NUM_CARDS - 1, rules.NUM_CARDS - 1 - SEATS * rules.HAND_SIZE, -1).reshape(
    rules.HAND_SIZE, SEATS
)
_STONE_IDS = np.arange(NUM_STONES)

# The decisions (``Phase``) as plain ints for the kernels, and after them the steps without a choice
# where a game goes on between decisions (the reference's _next_turn, _after_buy, ...).
BUYING, OFFERED, PLAYING_FIRST, PLAYING_SECOND, DISCARDING, TRADING, SELLING, OVER = (int(phase) for phase in Phase)
NEXT_TURN = 8
AFTER_BUY = 9
CONTINUE_OFFER = 10
OFFER_FIRST_PLAY = 11
OFFER_SECOND_PLAY = 12
OFFER_DISCARD = 13
FILL_TRADE_AREA = 14
CONTINUE_TRADE = 15
END_TURN = 16


@dataclass
class GameStates(ArrayRecord):
    """Games in play, one row each, each at a decision of ``mover`` (or over): everything the engine
    needs to play them on. Seats are absolute (0 moves first). The kernels change the arrays in place."""

    deck: np.ndarray  # (n, 104) int8: the deck in its first deck_size columns, the top card last
    deck_size: np.ndarray  # (n,)
    hands: np.ndarray  # (n, 2, HAND_WIDTH) int8: each hand front first, NONE after its last card
    hand_sizes: np.ndarray  # (n, 2)
    chain_stones: np.ndarray  # (n, 2, 3): NONE for an empty or unbought slot
    chain_lengths: np.ndarray  # (n, 2, 3): 0 for an empty slot
    slots: np.ndarray  # (n, 2): 2, or 3 once the third chain is bought
    coins: np.ndarray  # (n, 2)
    trade: np.ndarray  # (n, TRADE_WIDTH) int8: the trade area in the order its cards came, NONE holes
    trade_counts: np.ndarray  # (n, 8)
    discard: np.ndarray  # (n, 104) int8: bottom first, NONE past the top
    discard_size: np.ndarray  # (n,)
    removed_counts: np.ndarray  # (n, 8): sold cards out of play
    mover: np.ndarray  # (n,)
    phase: np.ndarray  # (n,) the Phase of the mover's decision; Phase.OVER once the game ended
    pending: np.ndarray  # (n,) in Phase.SELL the card waiting for the sale, else NONE
    resume: np.ndarray  # (n,) in Phase.SELL the step the sale interrupted, else NONE
    turn: np.ndarray  # (n,) turns started, 1 in the first
    step: np.ndarray  # (n,) decisions taken
    round_id: np.ndarray  # (n,) the game's id

    def card_counts(self) -> np.ndarray:
        """(n, 8) every card of each game by stone, wherever it is (the 104 of the spec's table)."""
        counts = self.removed_counts + self.trade_counts
        counts = counts + _counts(self.deck, self.deck_size) + _counts(self.discard, self.discard_size)
        for seat in range(SEATS):
            counts += _counts(self.hands[:, seat], self.hand_sizes[:, seat])
        for seat in range(SEATS):
            for slot in range(MAX_SLOTS):
                stones = self.chain_stones[:, seat, slot]
                counts += (stones[:, None] == _STONE_IDS) * self.chain_lengths[:, seat, slot][:, None]
        counts += self.pending[:, None] == _STONE_IDS
        return counts


def stacked(parts: Sequence[GameStates]) -> GameStates:
    """The rows of ``parts`` in one record, in order."""
    return GameStates(**{name: np.concatenate([part.arrays()[name] for part in parts]) for name in parts[0].arrays()})


def _counts(cards: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """(n, 8) the stones of each row's first ``sizes`` cards."""
    held = np.arange(cards.shape[1]) < sizes[:, None]
    return ((cards[:, :, None] == _STONE_IDS) & held[:, :, None]).sum(axis=1)


# --------------------------------------------------------------------------- the kernels' view of the state

_FIELDS: tuple[str, ...] = tuple(GameStates.__dataclass_fields__)
_Arrays = namedtuple("_Arrays", _FIELDS)  # type: ignore[misc]
"""A ``GameStates``' arrays as the kernels take them (numba passes a named tuple, not a dataclass)."""
_BYTES, _INTS = types.int8, types.int64
_ARRAY_TYPES = {
    "deck": _BYTES[:, ::1],
    "hands": _BYTES[:, :, ::1],
    "chain_stones": _INTS[:, :, ::1],
    "chain_lengths": _INTS[:, :, ::1],
    "trade": _BYTES[:, ::1],
    "discard": _BYTES[:, ::1],
    **{name: _INTS[:, ::1] for name in ("hand_sizes", "slots", "coins", "trade_counts", "removed_counts")},
}
_STATES = types.NamedTuple([_ARRAY_TYPES.get(name, _INTS[::1]) for name in _FIELDS], _Arrays)
_DTYPES = tuple(np.dtype(np.int8 if kind.dtype == _BYTES else np.int64) for kind in _STATES.types)
"""Each field's dtype in the kernels, in ``_FIELDS``' order (found once: numba's types are slow to build)."""

_Rules = namedtuple(
    "_Rules", ["third_chain_cost", "draw_at_turn_start", "finish_round", "sold_cards", "bean_protection", "final_sale"]
)
"""``Variants`` as the kernels take them: whole numbers (switches 0 or 1, ``sold_cards`` its index in
``SOLD_CARDS_RULES``)."""
_RULES = types.NamedUniTuple(types.int64, len(_Rules._fields), _Rules)
SOLD_REMOVED, SOLD_BOHNANZA = (SOLD_CARDS_RULES.index(rule) for rule in ("removed", "bohnanza"))


def _rules_of(variants: Variants) -> _Rules:
    return _Rules(
        variants.third_chain_cost,
        int(variants.draw_at_turn_start),
        int(variants.finish_round),
        SOLD_CARDS_RULES.index(variants.sold_cards),
        int(variants.bean_protection),
        int(variants.final_sale),
    )


def _arrays_of(states: GameStates) -> _Arrays:
    """The arrays of ``states`` as the kernels take them; an array of another dtype or layout is
    replaced in ``states`` by a converted copy first, so the kernels' changes stay in ``states``."""
    arrays = []
    for name, dtype in zip(_FIELDS, _DTYPES):
        values = getattr(states, name)
        if values.dtype != dtype or not values.flags.c_contiguous or not values.flags.writeable:
            values = np.array(values, dtype=dtype, order="C")
            setattr(states, name, values)
        arrays.append(values)
    return _Arrays(*arrays)


# --------------------------------------------------------------------------- new games


def deal(deals: np.ndarray, round_ids: np.ndarray | None = None, variants: Variants = DEFAULT_VARIANTS) -> GameStates:
    """New games of ``deals`` ((n, 104) stone ids, the shuffled deck drawn from its end, as the
    reference ``State.new`` takes it), numbered ``round_ids`` (default 0..n-1), at their first decision.
    ``DealError`` for a deal that is not the 104 cards of the spec's table."""
    deals = _checked_deals(deals)
    ids = np.arange(len(deals), dtype=np.int64) if round_ids is None else np.asarray(round_ids, dtype=np.int64)
    states = _dealt(deals, ids)
    _Games(states, variants).advance(np.arange(len(deals)))  # on to each game's first decision
    return states


def _dealt(deals: np.ndarray, ids: np.ndarray) -> GameStates:
    """New games of checked ``deals``, before their first turn starts (the kernel starts it)."""
    count = len(deals)
    hands = np.full((count, SEATS, HAND_WIDTH), NONE, dtype=np.int8)
    hands[:, :, : rules.HAND_SIZE] = deals[:, _DEALT].transpose(0, 2, 1)
    zeros = np.zeros(count, dtype=np.int64)
    return GameStates(
        deck=deals.astype(np.int8),
        deck_size=np.full(count, rules.NUM_CARDS - SEATS * rules.HAND_SIZE, dtype=np.int64),
        hands=hands,
        hand_sizes=np.full((count, SEATS), rules.HAND_SIZE, dtype=np.int64),
        chain_stones=np.full((count, SEATS, MAX_SLOTS), NONE, dtype=np.int64),
        chain_lengths=np.zeros((count, SEATS, MAX_SLOTS), dtype=np.int64),
        slots=np.full((count, SEATS), rules.BASE_SLOTS, dtype=np.int64),
        coins=np.zeros((count, SEATS), dtype=np.int64),
        trade=np.full((count, TRADE_WIDTH), NONE, dtype=np.int8),
        trade_counts=np.zeros((count, NUM_STONES), dtype=np.int64),
        discard=np.full((count, rules.NUM_CARDS), NONE, dtype=np.int8),
        discard_size=zeros.copy(),
        removed_counts=np.zeros((count, NUM_STONES), dtype=np.int64),
        mover=zeros.copy(),
        phase=np.full(count, NEXT_TURN, dtype=np.int64),
        pending=np.full(count, NONE, dtype=np.int64),
        resume=np.full(count, NONE, dtype=np.int64),
        turn=zeros.copy(),
        step=zeros.copy(),
        round_id=ids.copy(),
    )


def _checked_deals(deals: np.ndarray) -> np.ndarray:
    """The deals as C-ordered int8 stone ids once each is exactly the spec's 104 cards."""
    deals = np.asarray(deals)
    if deals.ndim != 2 or deals.shape[1] != rules.NUM_CARDS or not np.issubdtype(deals.dtype, np.integer):
        raise DealError(
            f"Gemstones deals are (n, {rules.NUM_CARDS}) arrays of stone ids, not {deals.dtype} {deals.shape}"
        )
    if deals.size and (deals.min() < 0 or deals.max() >= NUM_STONES):
        raise DealError(f"a Gemstones deal holds stone ids from 0 to {NUM_STONES - 1}")
    deals = np.ascontiguousarray(deals, dtype=np.int8)
    if not _whole_packs(deals):
        raise DealError("a Gemstones deal holds exactly the 104 cards of the spec's table")
    return deals


_CARDS_PER_STONE = np.array(rules.CARDS_PER_STONE, dtype=np.int64)


@jit.njit(types.boolean(types.Array(types.int8, 2, "C", readonly=True)), cache=True, nogil=True)
def _whole_packs(deals):
    """Whether every row of ``deals`` (stone ids) holds each stone as often as the spec's table."""
    counts = np.empty(NUM_STONES, dtype=np.int64)
    for row in range(deals.shape[0]):
        counts[:] = 0
        for stone in deals[row]:
            counts[stone] += 1
        for stone in range(NUM_STONES):
            if counts[stone] != _CARDS_PER_STONE[stone]:
                return False
    return True


# --------------------------------------------------------------------------- what the mover sees


def observe(states: GameStates, rows: np.ndarray | None = None, variants: Variants = DEFAULT_VARIANTS) -> Observation:
    """The mover's observation of the games in ``rows`` (default all, as read-only views of ``states``),
    none of which is over."""
    every = np.arange(len(states.mover)) if rows is None else np.asarray(rows, dtype=np.int64)
    games = _Games(states, variants)
    games.advance(every)  # each row stops at once, its legal actions found
    return _observation(states, rows, games.legal.take(every), variants)


def _observation(states: GameStates, rows: np.ndarray | None, legal: np.ndarray, variants: Variants) -> Observation:
    """``observe``'s observation, given the legal-action bits of the rows."""
    if rows is None:
        fields_of = _read_only
        rows = np.arange(len(states.mover))
    else:
        taken = rows

        def fields_of(values: np.ndarray) -> np.ndarray:
            return values.take(taken, axis=0)

    return Observation(
        seat=fields_of(states.mover),
        phase=fields_of(states.phase),
        legal_mask=bits_to_bools(legal, NUM_ACTIONS),
        hand=states.hands.reshape(-1, HAND_WIDTH).take(rows * SEATS + states.mover.take(rows), axis=0),
        hand_sizes=fields_of(states.hand_sizes),
        chain_stones=fields_of(states.chain_stones),
        chain_lengths=fields_of(states.chain_lengths),
        slots=fields_of(states.slots),
        coins=fields_of(states.coins),
        trade_counts=fields_of(states.trade_counts),
        discard=fields_of(states.discard),
        removed_counts=fields_of(states.removed_counts),
        pending=fields_of(states.pending),
        resume=fields_of(states.resume),
        deck_size=fields_of(states.deck_size),
        turn=fields_of(states.turn),
        round_id=fields_of(states.round_id),
        step=fields_of(states.step),
        third_chain_cost=np.full(len(rows), variants.third_chain_cost, dtype=np.int64),
    )


def _read_only(values: np.ndarray) -> np.ndarray:
    view = values.view()
    view.flags.writeable = False
    return view


# --------------------------------------------------------------------------- taking actions


def apply(states: GameStates, actions: np.ndarray, variants: Variants = DEFAULT_VARIANTS) -> None:
    """Take ``actions[g]`` in every game ``g`` (none over) and move each on to its next decision or its
    end. The actions must be legal (``observe``'s ``legal_mask``); they are not checked here."""
    games, every = _Games(states, variants), np.arange(len(states.mover))
    games.take(every, actions)
    games.advance(every)


# --------------------------------------------------------------------------- playing games out


@dataclass(frozen=True)
class GameResults(RoundsResult):
    """What B games came to, in the order of the deals: ``points`` (B, 2) int64, each seat's coins, and
    on request the trace."""

    actions: np.ndarray | None = None
    """(B, T) int16, when a trace was asked for: each game's actions in the order they were taken
    (``observation``'s action numbers), -1 after its last; T is the most decisions a game of the batch took."""


def play_rounds(
    deals: np.ndarray,
    strategies: Sequence[Strategy],
    round_ids: np.ndarray | None = None,
    variants: Variants = DEFAULT_VARIANTS,
    trace: bool = False,
) -> GameResults:
    """Play each deal as a whole game with ``strategies[seat]`` in each seat: each seat's coins and,
    with ``trace``, the actions the kernel took (``GameResults.actions``).

    Game ``i`` is numbered ``round_ids[i]`` (default ``0..n-1``), as the reference's ``new_state``
    numbers it. Raises ``StrategyFault`` naming a strategy that raised or chose what it may not, and
    ``DealError`` for a deal that is not the spec's 104 cards.
    """
    deals = _checked_deals(deals)
    ids = np.arange(len(deals), dtype=np.int64) if round_ids is None else np.asarray(round_ids, dtype=np.int64)
    coins = np.empty((len(deals), SEATS), dtype=np.int64)
    seats = _seats(strategies)
    traces = []
    for start in range(0, len(deals), BLOCK_SIZE):
        block = slice(start, start + BLOCK_SIZE)
        states = _dealt(deals[block], ids[block])
        games = _Games(states, variants, seats, trace=_new_trace(len(states.mover)) if trace else None)
        games.play()
        coins[block] = states.coins
        if trace:
            traces.append(games.trace[:, : states.step.max(initial=0)])
    return GameResults(coins, _joined(traces) if trace else None)


TRACE_WIDTH = 256  # a trace's columns at first: a game takes about 160 decisions, a longer one widens it


def _new_trace(size: int, width: int = TRACE_WIDTH) -> np.ndarray:
    """(size, width) int16 actions, none taken yet (-1)."""
    return np.full((size, width), NO_ACTION, dtype=np.int16)


def _joined(traces: list[np.ndarray]) -> np.ndarray:
    """The blocks' traces, one below the other, padded with -1 to the widest."""
    joined = _new_trace(sum(len(part) for part in traces), max((part.shape[1] for part in traces), default=0))
    start = 0
    for part in traces:
        joined[start : start + len(part), : part.shape[1]] = part
        start += len(part)
    return joined


def play_games(
    game_ids: np.ndarray, deal_source: DealSource, strategies: Sequence[Strategy], variants: Variants = DEFAULT_VARIANTS
) -> GamesResult:
    """Whole games ``game_ids``: a game of Gemstones is its one round, dealt ``deal_source(ids, 0)``
    and numbered ``sim.api.round_id(g, 0)``. Scores are the coins; a draw is a win both seats share."""
    game_ids = np.asarray(game_ids, dtype=np.int64)
    coins = play_rounds(deal_source(game_ids, 0), strategies, round_ids(game_ids, 0), variants).points
    return GamesResult(coins, np.ones(len(game_ids), dtype=np.int64), coins == coins.max(axis=1, keepdims=True))


def play_from(
    states: GameStates, strategies: Sequence[Strategy], variants: Variants = DEFAULT_VARIANTS
) -> RoundsResult:
    """Play games on from ``states`` (left unchanged) to their end: each seat's coins."""
    return RoundsResult(play_on(states, strategies, variants).coins)


def play_on(
    states: GameStates,
    strategies: Sequence[Strategy],
    variants: Variants = DEFAULT_VARIANTS,
    turns: int | None = None,
) -> GameStates:
    """The games of ``states`` (left unchanged) played on to their end or, given ``turns``, through the
    rest of the current turn and ``turns`` more: such a game stops at the first decision of the turn after."""
    played = states.take(np.arange(len(states.mover)))
    last_turn = None if turns is None else played.turn + turns
    _Games(played, variants, _seats(strategies), last_turn).play()
    return played


def _seats(strategies: Sequence[Strategy]) -> lockstep.CompiledSeats:
    """The seats' strategies as the kernel takes them; ``ValueError`` unless there are two. The last
    lineup's are kept: a lookahead plays on with the same strategies at every decision, and finding
    their policies' addresses took a fifth of its time."""
    global _last_seats
    if len(strategies) != SEATS:
        raise ValueError(f"Gemstones needs {SEATS} strategies, got {len(strategies)}")
    lineup = (*strategies, *(getattr(strategy, "compiled", None) for strategy in strategies))
    if _last_seats is None or any(mine is not last for mine, last in zip(lineup, _last_seats[0])):
        _last_seats = lineup, lockstep.CompiledSeats(strategies, POLICY, _never_called, policies.BUILT_IN)
    return _last_seats[1]


_last_seats: tuple[tuple[object, ...], lockstep.CompiledSeats] | None = None
"""The last lineup ``_seats`` was given (its strategies, then their compiled policies) and its seats."""


_NO_TRACE = _new_trace(0, 0)


class _Games:
    """The games of ``states`` played on in place under ``variants``, one kernel pass (``advance``) at
    a time: a pass plays each of its rows with the compiled ``seats`` (default: none, so each row
    stops at its next decision) until the game ends, passes ``last_turn`` or waits on a seat played in
    Python, whose action ``take`` hands to the next pass. With a ``trace`` (one row per game,
    ``_new_trace``) the actions taken are kept there, the trace widened as needed."""

    def __init__(
        self,
        states: GameStates,
        variants: Variants,
        seats: lockstep.CompiledSeats | None = None,
        last_turn: np.ndarray | None = None,
        trace: np.ndarray | None = None,
    ) -> None:
        size = len(states.mover)
        self.states, self.variants, self.seats = states, variants, seats or _PAUSING
        self.rules = _rules_of(variants)
        if last_turn is None:
            last_turn = np.full(size, NO_TURN_LIMIT, dtype=np.int64)
        self.last_turn = np.ascontiguousarray(last_turn, dtype=np.int64)
        self.forced = np.full(size, NO_ACTION, dtype=np.int64)  # each row's action to take first, spent as taken
        self.legal = np.zeros(size, dtype=np.int64)  # each row's legal-action bits where a pass stopped it
        self.trace = _NO_TRACE if trace is None else trace

    def play(self) -> None:
        """Play every game to its end (or, with ``last_turn``, to a decision of a turn past it),
        handing the Python seats their decisions as batches."""
        rows = self.advance(np.arange(len(self.forced)))
        while rows.size:
            self._ask_python_seats(rows)
            rows = self.advance(rows)

    def advance(self, rows: np.ndarray) -> np.ndarray:
        """One kernel pass over ``rows``: returns the rows that paused for a seat played in Python (or,
        with a trace, for a wider one); the others' games ended or passed ``last_turn``. An illegal
        action raises ``StrategyFault``."""
        if self.trace.shape[1] and self.states.step[rows].max(initial=0) >= self.trace.shape[1]:
            self.trace = np.concatenate([self.trace, _new_trace(len(self.forced), self.trace.shape[1])], axis=1)
        seats = self.seats
        paused = np.empty(len(rows), dtype=np.int64)
        fault = np.full(3, NO_FAULT, dtype=np.int64)
        count = _ADVANCE_ENTRY(
            np.ascontiguousarray(rows, dtype=np.int64), _arrays_of(self.states), self.rules, seats.kinds,
            seats.functions, seats.settings, seats.in_python, self.last_turn, self.forced, self.legal, paused, fault,
            self.trace,
        )  # fmt: skip
        if fault[0] != NO_FAULT:
            _raise_illegal(self.states, seats, *(int(value) for value in fault))
        return paused[:count]

    def restart(self, rows: np.ndarray, new: GameStates) -> None:
        """The games ``new`` (as ``_dealt`` makes them) in place of those of ``rows``."""
        for name, values in new.arrays().items():
            getattr(self.states, name)[rows] = values
        self.forced[rows] = NO_ACTION

    def mover(self, rows: np.ndarray) -> np.ndarray:
        """The seat to move in each of ``rows``."""
        return self.states.mover[rows]

    def observe(self, rows: np.ndarray) -> Observation:
        """The movers' observations of ``rows``, paused at a decision: copies, so no later pass changes
        them, carrying their encoding (``encoding.attach``)."""
        return encoding.attach(_observation(self.states, rows, self.legal[rows], self.variants), self.encoded(rows)[0])

    def encoded(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The movers' observations of ``rows`` as ``observation.encode`` lays them out and their legal
        actions' masks (int8), written by compiled code from the games' state."""
        encoded = np.zeros((len(rows), ENCODED_SIZE), dtype=np.float32)
        masks = np.empty((len(rows), NUM_ACTIONS), dtype=np.int8)
        _ENCODE_ENTRY(
            np.ascontiguousarray(rows, dtype=np.int64), _arrays_of(self.states), self.legal,
            self.variants.third_chain_cost, encoded, masks,
        )  # fmt: skip
        return encoded, masks

    def take(self, rows: np.ndarray, actions: np.ndarray) -> None:
        """The movers of ``rows`` take ``actions`` when the rows next advance (checked then)."""
        self.forced[rows] = actions

    def _ask_python_seats(self, rows: np.ndarray) -> None:
        """Each Python strategy's actions in the ``rows`` where its seat is to move."""
        seats = self.seats
        mover = self.mover(rows)
        for strategy, plays in seats.seats_of:
            mine = rows[(plays & seats.in_python)[mover]]  # a compiled seat pauses for the trace
            if mine.size:
                observation = self.observe(mine)
                legal, steps = observation.legal_mask, observation.step
                self.take(mine, lockstep.choose_checked(strategy, observation, legal, steps, observation.seat))


def _raise_illegal(states: GameStates, seats: lockstep.CompiledSeats, row: int, step: int, action: int) -> None:
    """The fault of the strategy whose compiled policy chose ``action``, which is not legal in ``row``."""
    seat = int(states.mover[row])
    if 0 <= action < NUM_ACTIONS:
        what = f"chose action {action}, which is not legal there"
    else:
        what = f"chose action {action}, which is not an action of this game (0..{NUM_ACTIONS - 1})"
    raise lockstep.fault(seats.strategies[seat], what, states.round_id[row : row + 1], step, seat)


@jit.njit(POLICY.signature, cache=True, nogil=True)
def _never_called(
    hands, hand, row, seat, phase, legal, hand_sizes, chain_stones, chain_lengths, slots, coins, trade_counts,
    discard, removed_counts, pending, deck_size, round_id, step, settings,
):  # fmt: skip  # pragma: no cover - a seat played in Python
    """The stand-in policy of a seat played in Python: the kernel pauses before calling it."""
    return -1


class _Caller:
    """Whoever chose the actions handed to ``apply``: a seat played in Python, so the kernel stops
    every game at its next decision."""

    name = "the caller"

    def choose(self, observation: Observation) -> np.ndarray:  # pragma: no cover - the kernel only pauses
        raise NotImplementedError("the caller's actions are handed to apply")


_PAUSING = lockstep.CompiledSeats([_Caller()] * SEATS, POLICY, _never_called, policies.BUILT_IN)


# --------------------------------------------------------------------------- batched environments


class Tables(lockstep.RoundsTables):
    """Games dealt and played side by side under ``variants``, each paused wherever a seat played in
    Python is to move: the engine of the batched environments (``sim.vecenv``, whose ``Tables``
    protocol this is). A learner's seat is one whose strategy has no compiled policy and is never
    asked here. An episode is a whole game, its points each seat's coins."""

    def __init__(
        self,
        strategies: Sequence[Strategy],
        deals: np.ndarray,
        round_ids: np.ndarray,
        variants: Variants = DEFAULT_VARIANTS,
    ) -> None:
        self._seat(strategies, _dealt(_checked_deals(deals), np.asarray(round_ids, dtype=np.int64)), variants)

    @classmethod
    def resumed(
        cls, strategies: Sequence[Strategy], states: GameStates, variants: Variants = DEFAULT_VARIANTS
    ) -> Tables:
        """Tables at the games of ``states`` (played on in place), not freshly dealt: a lookahead's
        rollouts from the worlds it samples."""
        tables = cls.__new__(cls)
        tables._seat(strategies, states, variants)
        return tables

    def _seat(self, strategies: Sequence[Strategy], states: GameStates, variants: Variants) -> None:
        self.games = _Games(states, variants, _seats(strategies))
        super().__init__(self.games)

    def restart(self, rows: np.ndarray, deals: np.ndarray, round_ids: np.ndarray) -> None:
        self.games.restart(rows, _dealt(_checked_deals(deals), np.asarray(round_ids, dtype=np.int64)))

    def advance(self, rows: np.ndarray) -> np.ndarray:
        return self.games.advance(rows)

    def points(self, rows: np.ndarray) -> np.ndarray:
        return self.games.states.coins[rows]

    scored = points  # coins are earned as the game plays

    def encoded(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.games.encoded(rows)


# --------------------------------------------------------------------------- the kernels


# The kernel is one function: a call of a compiled function with array arguments costs reference
# counts (tens of nanoseconds), so the steps of every decision are written out in ``_advance`` and
# only the steps taken once a turn or so (the trade area's fill, a sale) are functions.


@jit.njit(cache=True, nogil=True, inline="always")
def _fill_trade_area(row, deck, deck_size, trade, trade_counts, discard, discard_size):
    """Step 5, into the empty trade area: up to three cards from the deck, then the discard pile's
    top cards while their stone is in the area."""
    size = 0
    for _ in range(min(rules.TRADE_DRAW, deck_size[row])):
        deck_size[row] -= 1
        stone = deck[row, deck_size[row]]
        trade[row, size] = stone
        trade_counts[row, stone] += 1
        size += 1
    while discard_size[row] and trade_counts[row, discard[row, discard_size[row] - 1]]:
        discard_size[row] -= 1
        stone = discard[row, discard_size[row]]
        discard[row, discard_size[row]] = NONE
        trade[row, size] = stone
        trade_counts[row, stone] += 1
        size += 1


@jit.njit(cache=True, nogil=True, inline="always")
def _discard_leftovers(row, trade, trade_counts, discard, discard_size):
    """Step 1 ends: what is left of the offer goes to the discard pile in trade-area order."""
    left = 0
    for stone in range(NUM_STONES):
        left += trade_counts[row, stone]
        trade_counts[row, stone] = 0
    column = 0
    while left:
        stone = trade[row, column]
        if stone != NONE:
            discard[row, discard_size[row]] = stone
            discard_size[row] += 1
            trade[row, column] = NONE
            left -= 1
        column += 1


@jit.njit(cache=True, nogil=True, inline="always")
def _sell(row, seat, slot, variants, chain_stones, chain_lengths, coins, discard, discard_size, removed_counts):
    """Sell ``seat``'s chain in ``slot``: its coins to the seat, its cards out of play or to the
    discard pile as ``variants.sold_cards`` says."""
    stone, length = chain_stones[row, seat, slot], chain_lengths[row, seat, slot]
    earned = COINS[stone, length]
    coins[row, seat] += earned
    if variants.sold_cards == SOLD_REMOVED:
        kept_out = length
    elif variants.sold_cards == SOLD_BOHNANZA:
        kept_out = earned
    else:
        kept_out = 0
    removed_counts[row, stone] += kept_out
    for _ in range(length - kept_out):
        discard[row, discard_size[row]] = stone
        discard_size[row] += 1
    chain_stones[row, seat, slot] = NONE
    chain_lengths[row, seat, slot] = 0


@jit.njit(cache=True, nogil=True, inline="always")
def _after_placing(step):
    """Where a game goes on after a card placed during ``step`` (the reference's ``_after_placing``)."""
    if step == OFFERED:
        return CONTINUE_OFFER
    if step == PLAYING_FIRST:
        return OFFER_SECOND_PLAY
    if step == PLAYING_SECOND:
        return OFFER_DISCARD
    return CONTINUE_TRADE


@intrinsic
def _borrowed(typingctx, arrays):
    """``arrays`` (an array or a tuple of them) as views with no owner, whose copies cost no reference
    counts: each array a policy or a helper is handed costs two atomic operations per call otherwise
    (most of a step's time). Only for arrays their caller keeps alive while the views are used."""

    def unowned(context, builder, kind, value):
        if isinstance(kind, types.Array):
            view = context.make_array(kind)(context, builder, value=value)
            view.meminfo = cgutils.get_null_value(view.meminfo.type)
            view.parent = cgutils.get_null_value(view.parent.type)
            return view._getvalue()
        for index, member in enumerate(kind):
            value = builder.insert_value(
                value, unowned(context, builder, member, builder.extract_value(value, index)), index
            )
        return value

    def codegen(context, builder, signature, args):
        return unowned(context, builder, arrays, args[0])

    return arrays(arrays), codegen


_ROWS = types.Array(types.int64, 1, "C", readonly=True)
_ADVANCE = types.int64(
    _ROWS,  # rows to advance
    _STATES,
    _RULES,
    types.Array(types.int64, 1, "C", readonly=True),  # each seat's kind of policy (lockstep.CompiledSeats)
    types.UniTuple(POLICY, SEATS),  # each seat's external compiled policy
    types.UniTuple(types.UniTuple(types.float64, MAX_POLICY_SETTINGS), SEATS),  # and its settings
    types.Array(types.boolean, 1, "C", readonly=True),  # seats played in Python
    _ROWS,  # last_turn: a game stops at a decision of a later turn
    types.int64[::1],  # forced: an action to take first in each row (NO_ACTION: none), spent as taken
    types.int64[::1],  # legal: out, the legal-action bits of each row where it stops
    types.int64[::1],  # paused: out, the rows waiting on a Python seat
    types.int64[::1],  # fault: out, (row, step, action) of an illegal action
    types.int16[:, ::1],  # trace: out, each row's action at each step; no columns: no trace
)


@jit.njit(_ADVANCE, cache=True, nogil=True)
def _advance(rows, s, variants, kinds, external, settings, in_python, last_turn, forced, legal_out, paused, fault,
             trace):  # fmt: skip
    """Play each of ``rows`` on: its ``forced`` action first if it has one, then its compiled seats'
    until its game ends, passes its ``last_turn`` or a seat played in Python is to move. Returns how
    many rows paused (their indexes in ``paused``, their legal actions in ``legal_out``). With a
    ``trace`` (columns), each action taken goes to ``trace[row, step]``, and a compiled seat's decision
    past the trace's last column pauses too, for a wider trace. An illegal action stops it with
    ``fault`` set."""
    (deck, deck_size, hands, hand_sizes, chain_stones, chain_lengths, slots, coins, trade, trade_counts, discard,
     discard_size, removed_counts, mover, phase, pending, resume, turn, step, round_id) = _borrowed(s)  # fmt: skip
    hand_rows = hands.reshape(hands.shape[0] * SEATS, HAND_WIDTH)  # row SEATS * game + seat: a seat's hand
    tracing = trace.shape[1] > 0
    count = 0
    for row in rows:
        decision = phase[row]
        while True:
            seat = mover[row]
            # -- the steps without a choice, to the next decision (the reference's _next_turn, ...)
            while decision > OVER:
                if decision == NEXT_TURN:
                    turn[row] += 1
                    may_buy = slots[row, seat] == rules.BASE_SLOTS and coins[row, seat] >= variants.third_chain_cost
                    decision = BUYING if may_buy else AFTER_BUY
                elif decision == AFTER_BUY:
                    if variants.draw_at_turn_start and deck_size[row]:
                        deck_size[row] -= 1
                        hands[row, seat, hand_sizes[row, seat]] = deck[row, deck_size[row]]
                        hand_sizes[row, seat] += 1
                    decision = CONTINUE_OFFER
                elif decision == CONTINUE_OFFER or decision == CONTINUE_TRADE:
                    offered = False
                    for stone in range(NUM_STONES):
                        offered |= trade_counts[row, stone] > 0
                    if decision == CONTINUE_OFFER:
                        decision = OFFERED if offered else OFFER_FIRST_PLAY
                    else:
                        decision = TRADING if offered else END_TURN
                elif decision == OFFER_FIRST_PLAY or decision == OFFER_SECOND_PLAY or decision == OFFER_DISCARD:
                    # Steps 2, 3 and 4 need a card in hand; with none the turn goes on to the trade area.
                    holding = hand_sizes[row, seat] > 0
                    decision = decision - (OFFER_FIRST_PLAY - PLAYING_FIRST) if holding else FILL_TRADE_AREA
                elif decision == FILL_TRADE_AREA:
                    _fill_trade_area(row, deck, deck_size, trade, trade_counts, discard, discard_size)
                    decision = CONTINUE_TRADE
                else:  # END_TURN: step 6; the game ends with the deck (after seat 1's turn with finish_round)
                    for _ in range(min(rules.END_OF_TURN_DRAW, deck_size[row])):
                        deck_size[row] -= 1
                        hands[row, seat, hand_sizes[row, seat]] = deck[row, deck_size[row]]
                        hand_sizes[row, seat] += 1
                    if deck_size[row] == 0 and (not variants.finish_round or seat == SEATS - 1):
                        if variants.final_sale:
                            for player in range(SEATS):
                                for slot in range(MAX_SLOTS):
                                    if chain_stones[row, player, slot] != NONE:
                                        _sell(row, player, slot, variants, chain_stones, chain_lengths, coins,
                                              discard, discard_size, removed_counts)  # fmt: skip
                        decision = OVER
                    else:
                        seat = mover[row] = 1 - seat
                        decision = NEXT_TURN
            phase[row] = decision
            if decision == OVER or turn[row] > last_turn[row]:
                break
            # -- the legal actions (the reference's legal_actions)
            if decision == BUYING:  # entered only by a seat that can pay
                legal = 1 << BUY | 1 << PASS
            elif decision == OFFERED or decision == TRADING:
                legal = 1 << PASS
                for stone in range(NUM_STONES):
                    if trade_counts[row, stone]:
                        legal |= 1 << (CHAIN + stone)
            elif decision == PLAYING_FIRST:
                legal = 1 << PLAY
            elif decision == PLAYING_SECOND:
                legal = 1 << PLAY | 1 << PASS
            elif decision == DISCARDING:
                legal = 1 << PASS | ((1 << hand_sizes[row, seat]) - 1) << DISCARD
            else:  # SELLING; with bean protection no 1-card chain is sold while a longer one is there
                legal = longer = 0
                for slot in range(MAX_SLOTS):
                    if chain_stones[row, seat, slot] != NONE:
                        legal |= 1 << (SELL + slot)
                        if chain_lengths[row, seat, slot] >= 2:
                            longer |= 1 << (SELL + slot)
                if variants.bean_protection and longer:
                    legal = longer
            legal_out[row] = legal
            # -- the action: forced, or the seat's policy, unless the seat is played in Python
            if forced[row] != NO_ACTION:
                action = forced[row]
                forced[row] = NO_ACTION
            elif in_python[seat] or (tracing and step[row] >= trace.shape[1]):
                paused[count] = row
                count += 1
                break
            else:
                action = policies.decide(
                    kinds[seat], external, hand_rows, SEATS * row + seat, row, seat, decision, legal, hand_sizes,
                    chain_stones, chain_lengths, slots, coins, trade_counts, discard, removed_counts, pending,
                    deck_size, round_id, step, settings,
                )  # fmt: skip
            if not (0 <= action < NUM_ACTIONS and legal >> action & 1):
                fault[0], fault[1], fault[2] = row, step[row], action
                return count
            # -- taking it (the reference's apply): the card placed, if any, and where the game goes on
            if tracing:
                trace[row, step[row]] = action
            step[row] += 1
            placing = NONE
            if decision == SELLING:
                _sell(row, seat, action - SELL, variants, chain_stones, chain_lengths, coins, discard, discard_size,
                      removed_counts)  # fmt: skip
                placing, placed_in = pending[row], resume[row]
                pending[row] = resume[row] = NONE
            elif action == BUY:
                coins[row, seat] -= variants.third_chain_cost
                slots[row, seat] = MAX_SLOTS
                decision = AFTER_BUY
            elif decision == BUYING:
                decision = AFTER_BUY
            elif action < SELL:  # chain the first card of that stone in the offer or the trade area
                placing, placed_in = action - CHAIN, decision
                column = 0
                while trade[row, column] != placing:
                    column += 1
                trade[row, column] = NONE  # a hole: the others keep their order
                trade_counts[row, placing] -= 1
            elif decision == OFFERED:  # pass: the leftovers go to the discard pile
                _discard_leftovers(row, trade, trade_counts, discard, discard_size)
                decision = OFFER_FIRST_PLAY
            elif action == PLAY or action >= DISCARD:  # the front card, or the one discarded, leaves the hand
                position = 0 if action == PLAY else action - DISCARD
                stone = hands[row, seat, position]
                size = hand_sizes[row, seat] - 1
                for column in range(position, size):
                    hands[row, seat, column] = hands[row, seat, column + 1]
                hands[row, seat, size] = NONE
                hand_sizes[row, seat] = size
                if action == PLAY:
                    placing, placed_in = stone, decision
                else:
                    discard[row, discard_size[row]] = stone
                    discard_size[row] += 1
                    decision = FILL_TRADE_AREA
            elif decision == PLAYING_SECOND:
                decision = OFFER_DISCARD
            elif decision == DISCARDING:
                decision = FILL_TRADE_AREA
            else:  # Phase.TRADE, pass: the rest stays as the opponent's offer
                decision = END_TURN
            if placing != NONE:
                # Notes, section 3: onto its stone's chain, else the first empty slot, else the game
                # waits in Phase.SELL for the mover to choose the chain to sell.
                slot = -1
                for chain in range(MAX_SLOTS):
                    if chain_stones[row, seat, chain] == placing:
                        slot = chain
                        break
                if slot < 0:
                    for chain in range(slots[row, seat]):
                        if chain_stones[row, seat, chain] == NONE:
                            slot = chain
                            break
                if slot < 0:
                    pending[row], resume[row] = placing, placed_in
                    decision = SELLING
                else:
                    chain_stones[row, seat, slot] = placing
                    chain_lengths[row, seat, slot] += 1
                    decision = _after_placing(placed_in)
    return count


_ADVANCE_ENTRY = lockstep.entry_point(_advance, _ADVANCE)


_ENCODE = types.void(
    _ROWS,  # rows to encode, each at a decision
    _STATES,
    _ROWS,  # legal: each row's legal-action bits
    types.int64,  # the third chain's price
    types.float32[:, ::1],  # encoded: out, one row per row encoded, zeros before
    types.int8[:, ::1],  # masks: out, its legal actions
)
# Where each slice of ``observation.ENCODING`` starts in an encoded row.
(
    _SEAT_AT, _PHASE_AT, _HAND_AT, _HAND_SIZES_AT, _CHAIN_STONES_AT, _CHAIN_LENGTHS_AT, _THIRD_CHAIN_AT, _COINS_AT,
    _TRADE_AT, _DISCARDS_AT, _DISCARD_TOP_AT, _REMOVED_AT, _PENDING_AT, _RESUME_AT, _DECK_AT, _TURN_AT, _COST_AT,
) = (offset for offset, _, _ in encoding.slices(ENCODING))  # fmt: skip


@jit.njit(_ENCODE, cache=True, nogil=True)
def _encode(rows, s, legal, third_chain_cost, encoded, masks):
    """Row k of ``encoded`` (zeros before) the encoding ``observation.encode`` makes of the mover's
    observation of game ``rows[k]`` (``_observation``'s), and row k of ``masks`` its legal actions."""
    discarded = np.empty(NUM_STONES, dtype=np.int64)
    for k in range(rows.shape[0]):
        row = rows[k]
        seat = s.mover[row]
        out = encoded[k]
        out[_SEAT_AT + seat] = 1.0
        out[_PHASE_AT + s.phase[row]] = 1.0
        for position in range(s.hand_sizes[row, seat]):
            out[_HAND_AT + NUM_STONES * position + s.hands[row, seat, position]] = 1.0
        for after in range(SEATS):
            other = (seat + after) % SEATS
            out[_HAND_SIZES_AT + after] = s.hand_sizes[row, other] / rules.HAND_SIZE
            for slot in range(MAX_SLOTS):
                chain = MAX_SLOTS * after + slot
                stone = s.chain_stones[row, other, slot]
                if stone != NONE:
                    out[_CHAIN_STONES_AT + NUM_STONES * chain + stone] = 1.0
                out[_CHAIN_LENGTHS_AT + chain] = s.chain_lengths[row, other, slot] / COUNT_SCALE
            if s.slots[row, other] == MAX_SLOTS:
                out[_THIRD_CHAIN_AT + after] = 1.0
            out[_COINS_AT + after] = s.coins[row, other] / COUNT_SCALE
        size = s.discard_size[row]
        discarded[:] = 0
        for place in range(size):
            discarded[s.discard[row, place]] += 1
        for top in range(min(DISCARD_TOP, size)):
            out[_DISCARD_TOP_AT + NUM_STONES * top + s.discard[row, size - 1 - top]] = 1.0
        for stone in range(NUM_STONES):
            out[_TRADE_AT + stone] = s.trade_counts[row, stone] / rules.TRADE_DRAW
            out[_DISCARDS_AT + stone] = discarded[stone] / _CARDS_PER_STONE[stone]
            out[_REMOVED_AT + stone] = s.removed_counts[row, stone] / _CARDS_PER_STONE[stone]
        if s.pending[row] != NONE:
            out[_PENDING_AT + s.pending[row]] = 1.0
        if s.resume[row] != NONE:
            out[_RESUME_AT + s.resume[row]] = 1.0
        out[_DECK_AT] = s.deck_size[row] / rules.NUM_CARDS
        out[_TURN_AT] = s.turn[row] / TURN_SCALE
        out[_COST_AT] = third_chain_cost / COUNT_SCALE
        for action in range(NUM_ACTIONS):
            masks[k, action] = legal[row] >> action & 1


_ENCODE_ENTRY = lockstep.entry_point(_encode, _ENCODE)
