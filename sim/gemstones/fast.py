"""The vectorized Gemstones engine: many games at once on numpy arrays.

A batch of games is a ``GameStates`` record, one row per game, and the engine is three functions
over it, as pgx writes a game: ``deal`` makes the rows of new games, ``observe`` gives the mover's
``Observation`` of chosen rows, ``apply`` takes one action in every row and moves each game on to
its next decision. Every row is always at a decision (or over), whatever step of its turn it is
at: one strategy call answers the decision of every game whose mover it plays, each row carrying
its own ``Phase``. Between two decisions a game goes through the steps that need no choice (draws,
the pull from the discard pile, the end of the turn, the next turn's start) as the reference engine
does (``sim.gemstones.engine``), one vectorized pass over the rows at each step. ``play_rounds``,
``play_games`` and ``play_from`` play games to their end a block at a time; games that end leave
the block's arrays, which are gathered down to the games still going.

**Layout.** Stones are ids 0..7 (``rules.STONES``), ``NONE`` marks an empty place. The deck holds
its cards in its first ``deck_size`` columns and is drawn from the last of them (the reference's
list, popped from its end). A hand is the ordered row ``hands[g, seat]``: front card in column 0,
drawn cards appended after the last; a play shifts the row left by one. (A head index would save
that shift, but every decision's observation reads the hand front first: a play is far rarer.)
The trade area keeps its cards in the order they came, a chained card leaving a ``NONE`` hole, so
the leftovers reach the discard pile in trade-area order; it widens when the discard pile's pull
brings more cards than it has columns. The discard pile is bottom first, ``NONE`` past its top.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from sim.api import ArrayRecord, Strategy, round_ids
from sim.cards import bits_to_bools
from sim.games import DealSource, GamesResult, RoundsResult
from sim.gemstones import rules
from sim.gemstones.engine import DEFAULT_VARIANTS, NUM_PLAYERS, Variants
from sim.gemstones.observation import (
    BUY,
    CHAIN,
    DISCARD,
    NONE,
    NUM_ACTIONS,
    PASS,
    PLAY,
    SELL,
    Observation,
    Phase,
)
from sim.lockstep import DealError, Players, choose_checked

__all__ = ["GameStates", "apply", "deal", "observe", "play_from", "play_games", "play_on", "play_rounds", "stacked"]

BLOCK_SIZE = 32768  # games played together: memory stays flat however many are asked for
TRADE_WIDTH = 8  # trade-area columns a block starts with; it widens when a pull needs more
SEATS = NUM_PLAYERS
NUM_STONES = rules.NUM_STONES
HAND_WIDTH = rules.HAND_WIDTH

# [stone, length] the coins a chain sells for (a chain never holds more than its stone's cards).
COINS = np.array(
    [[rules.chain_value(stone, length) for length in range(rules.NUM_CARDS + 1)] for stone in range(NUM_STONES)],
    dtype=np.int64,
)
COINS.flags.writeable = False
_SLOT_IDS = np.arange(rules.MAX_SLOTS)
_HAND_COLUMNS = np.arange(HAND_WIDTH)
_STONE_IDS = np.arange(NUM_STONES)
# The deal: the deck is popped from its end, one card to each seat in turn, seat 0 first.
_DEALT = np.arange(rules.NUM_CARDS - 1, rules.NUM_CARDS - 1 - SEATS * rules.HAND_SIZE, -1).reshape(
    rules.HAND_SIZE, SEATS
)


def _seat_slots(rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """(k, 3) the flat indexes (into a (n, 2, 3) chain array) of each row's seat's three slots."""
    return (rows * SEATS + seats)[:, None] * rules.MAX_SLOTS + _SLOT_IDS


class _Phase:
    """``Phase``'s values as plain ints: numpy compares an array with an int many times faster than
    with an IntEnum member, and reading a member of an IntEnum class is slow too."""

    BUY, OFFER, PLAY_FIRST, PLAY_SECOND, DISCARD, TRADE, SELL, OVER = (int(phase) for phase in Phase)


class _Next:
    """Where a game goes on between decisions: the steps without a choice (values above ``Phase``'s)."""

    NEXT_TURN = 8
    AFTER_BUY = 9
    CONTINUE_OFFER = 10
    OFFER_FIRST_PLAY = 11
    OFFER_SECOND_PLAY = 12
    OFFER_DISCARD = 13
    FILL_TRADE_AREA = 14
    CONTINUE_TRADE = 15
    END_TURN = 16


# [the step a card was placed in] where the game goes on (the reference's ``_after_placing``).
_AFTER_PLACING = np.full(len(Phase), -1, dtype=np.int64)
_AFTER_PLACING[[_Phase.OFFER, _Phase.PLAY_FIRST, _Phase.PLAY_SECOND, _Phase.TRADE]] = [
    _Next.CONTINUE_OFFER,
    _Next.OFFER_SECOND_PLAY,
    _Next.OFFER_DISCARD,
    _Next.CONTINUE_TRADE,
]
_PASSING = (_Phase.BUY, _Phase.OFFER, _Phase.PLAY_SECOND, _Phase.DISCARD, _Phase.TRADE)  # phases where PASS is legal


@dataclass
class GameStates(ArrayRecord):
    """Games in play, one row each, each at a decision of ``mover`` (or over): everything the engine
    needs to play them on. Seats are absolute (0 moves first). ``apply`` changes the arrays in place."""

    deck: np.ndarray  # (n, 104) int8: the deck in its first deck_size columns, the top card last
    deck_size: np.ndarray  # (n,)
    hands: np.ndarray  # (n, 2, HAND_WIDTH) int8: each hand front first, NONE after its last card
    hand_sizes: np.ndarray  # (n, 2)
    chain_stones: np.ndarray  # (n, 2, 3): NONE for an empty or unbought slot
    chain_lengths: np.ndarray  # (n, 2, 3): 0 for an empty slot
    slots: np.ndarray  # (n, 2): 2, or 3 once the third chain is bought
    coins: np.ndarray  # (n, 2)
    trade: np.ndarray  # (n, w) int8: the trade area in the order its cards came, NONE holes and padding
    trade_counts: np.ndarray  # (n, 8)
    discard: np.ndarray  # (n, 104) int8: bottom first, NONE past the top
    discard_size: np.ndarray  # (n,)
    removed_counts: np.ndarray  # (n, 8): sold cards out of play
    mover: np.ndarray  # (n,)
    phase: np.ndarray  # (n,) the Phase of the mover's decision; _Phase.OVER once the game ended
    pending: np.ndarray  # (n,) in _Phase.SELL the card waiting for the sale, else NONE
    resume: np.ndarray  # (n,) in _Phase.SELL the step the sale interrupted, else NONE
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
            for slot in range(rules.MAX_SLOTS):
                stones = self.chain_stones[:, seat, slot]
                counts += (stones[:, None] == _STONE_IDS) * self.chain_lengths[:, seat, slot][:, None]
        counts += self.pending[:, None] == _STONE_IDS
        return counts


def stacked(parts: Sequence[GameStates]) -> GameStates:
    """The rows of ``parts`` in one record, in order (trade areas widened to the widest)."""
    width = max(part.trade.shape[1] for part in parts)
    trades = [np.pad(part.trade, ((0, 0), (0, width - part.trade.shape[1])), constant_values=NONE) for part in parts]
    arrays = {
        name: np.concatenate([part.arrays()[name] for part in parts]) for name in parts[0].arrays() if name != "trade"
    }
    return GameStates(trade=np.concatenate(trades), **arrays)


def _counts(cards: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """(n, 8) the stones of each row's first ``sizes`` cards."""
    held = np.arange(cards.shape[1]) < sizes[:, None]
    return ((cards[:, :, None] == _STONE_IDS) & held[:, :, None]).sum(axis=1)


# --------------------------------------------------------------------------- new games


def deal(deals: np.ndarray, round_ids: np.ndarray | None = None, variants: Variants = DEFAULT_VARIANTS) -> GameStates:
    """New games of ``deals`` ((n, 104) stone ids, the shuffled deck drawn from its end, as the
    reference ``State.new`` takes it), numbered ``round_ids`` (default 0..n-1), at their first decision.
    ``DealError`` for a deal that is not the 104 cards of the spec's table."""
    deals = _checked_deals(deals)
    count = len(deals)
    ids = np.arange(count, dtype=np.int64) if round_ids is None else np.asarray(round_ids, dtype=np.int64)
    hands = np.full((count, SEATS, HAND_WIDTH), NONE, dtype=np.int8)
    hands[:, :, : rules.HAND_SIZE] = deals[:, _DEALT].transpose(0, 2, 1)
    zeros = np.zeros(count, dtype=np.int64)
    states = GameStates(
        deck=deals.astype(np.int8),
        deck_size=np.full(count, rules.NUM_CARDS - SEATS * rules.HAND_SIZE, dtype=np.int64),
        hands=hands,
        hand_sizes=np.full((count, SEATS), rules.HAND_SIZE, dtype=np.int64),
        chain_stones=np.full((count, SEATS, rules.MAX_SLOTS), NONE, dtype=np.int64),
        chain_lengths=np.zeros((count, SEATS, rules.MAX_SLOTS), dtype=np.int64),
        slots=np.full((count, SEATS), rules.BASE_SLOTS, dtype=np.int64),
        coins=np.zeros((count, SEATS), dtype=np.int64),
        trade=np.full((count, TRADE_WIDTH), NONE, dtype=np.int8),
        trade_counts=np.zeros((count, NUM_STONES), dtype=np.int64),
        discard=np.full((count, rules.NUM_CARDS), NONE, dtype=np.int8),
        discard_size=zeros.copy(),
        removed_counts=np.zeros((count, NUM_STONES), dtype=np.int64),
        mover=zeros.copy(),
        phase=np.full(count, _Next.NEXT_TURN, dtype=np.int64),
        pending=np.full(count, NONE, dtype=np.int64),
        resume=np.full(count, NONE, dtype=np.int64),
        turn=zeros.copy(),
        step=zeros.copy(),
        round_id=ids.copy(),
    )
    _Steps(states, variants).go_on()
    return states


def _checked_deals(deals: np.ndarray) -> np.ndarray:
    """The deals as int64 stone ids once each is exactly the spec's 104 cards."""
    deals = np.asarray(deals)
    if deals.ndim != 2 or deals.shape[1] != rules.NUM_CARDS or not np.issubdtype(deals.dtype, np.integer):
        raise DealError(
            f"Gemstones deals are (n, {rules.NUM_CARDS}) arrays of stone ids, not {deals.dtype} {deals.shape}"
        )
    if deals.size and (deals.min() < 0 or deals.max() >= NUM_STONES):
        raise DealError(f"a Gemstones deal holds stone ids from 0 to {NUM_STONES - 1}")
    deals = deals.astype(np.int64, copy=False)
    offsets = np.arange(len(deals))[:, None] * NUM_STONES
    counts = np.bincount((deals + offsets).ravel(), minlength=len(deals) * NUM_STONES).reshape(-1, NUM_STONES)
    if (counts != rules.CARDS_PER_STONE).any():
        raise DealError("a Gemstones deal holds exactly the 104 cards of the spec's table")
    return deals


# --------------------------------------------------------------------------- what the mover sees


def observe(states: GameStates, rows: np.ndarray | None = None, variants: Variants = DEFAULT_VARIANTS) -> Observation:
    """The mover's observation of the games in ``rows`` (default all, as read-only views of ``states``),
    none of which is over."""
    if rows is None:
        fields_of = _read_only
        rows = np.arange(len(states.mover))
    else:
        taken = rows

        def fields_of(values: np.ndarray) -> np.ndarray:
            return values.take(taken, axis=0)

    mover = fields_of(states.mover)
    phase = fields_of(states.phase)
    hand_sizes = fields_of(states.hand_sizes)
    chain_stones = fields_of(states.chain_stones)
    chain_lengths = fields_of(states.chain_lengths)
    trade_counts = fields_of(states.trade_counts)
    return Observation(
        seat=mover,
        phase=phase,
        legal_mask=_legal_mask(phase, mover, hand_sizes, chain_stones, chain_lengths, trade_counts, variants),
        hand=states.hands.reshape(-1, HAND_WIDTH).take(rows * SEATS + mover, axis=0),
        hand_sizes=hand_sizes,
        chain_stones=chain_stones,
        chain_lengths=chain_lengths,
        slots=fields_of(states.slots),
        coins=fields_of(states.coins),
        trade_counts=trade_counts,
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


# Bit a of a row's legal-action bits is set when action a is legal: the bits of each kind of action.
_BITS = np.int64(1) << np.arange(NUM_ACTIONS, dtype=np.int64)
_CHAIN_BITS = _BITS[CHAIN : CHAIN + NUM_STONES]
_SELL_BITS = _BITS[SELL : SELL + rules.MAX_SLOTS]
# [phase] the actions always legal in it (a BUY phase is only entered by a seat that can pay).
_FIXED_BITS = np.zeros(len(Phase), dtype=np.int64)
_FIXED_BITS[list(_PASSING)] |= _BITS[PASS]
_FIXED_BITS[[_Phase.PLAY_FIRST, _Phase.PLAY_SECOND]] |= _BITS[PLAY]
_FIXED_BITS[_Phase.BUY] |= _BITS[BUY]


def _legal_mask(
    phase: np.ndarray,
    mover: np.ndarray,
    hand_sizes: np.ndarray,
    chain_stones: np.ndarray,
    chain_lengths: np.ndarray,
    trade_counts: np.ndarray,
    variants: Variants,
) -> np.ndarray:
    """(n, NUM_ACTIONS) bool: the reference's ``legal_actions`` of each row."""
    bits = _FIXED_BITS[phase]
    choosing_stone = (phase == _Phase.OFFER) | (phase == _Phase.TRADE)
    bits[choosing_stone] |= (trade_counts[choosing_stone] > 0) @ _CHAIN_BITS
    selling = np.flatnonzero(phase == _Phase.SELL)
    seat = mover[selling]
    bits[selling] |= _sellable(chain_stones[selling, seat], chain_lengths[selling, seat], variants) @ _SELL_BITS
    discarding = np.flatnonzero(phase == _Phase.DISCARD)
    bits[discarding] |= ((np.int64(1) << hand_sizes[discarding, mover[discarding]]) - 1) << DISCARD
    return bits_to_bools(bits, NUM_ACTIONS)


def _sellable(stones: np.ndarray, lengths: np.ndarray, variants: Variants) -> np.ndarray:
    """(n, 3) the slots a forced sale may empty (``rules.sellable_slots``)."""
    filled = stones != NONE
    if not variants.bean_protection:
        return filled
    longer = filled & (lengths >= 2)
    return np.where(longer.any(axis=1)[:, None], longer, filled)


# --------------------------------------------------------------------------- taking actions


def apply(states: GameStates, actions: np.ndarray, variants: Variants = DEFAULT_VARIANTS) -> None:
    """Take ``actions[g]`` in every game ``g`` (none over) and move each on to its next decision or its
    end. The actions must be legal (``observe``'s ``legal_mask``); they are not checked here."""
    _Steps(states, variants).act(np.asarray(actions, dtype=np.int64))


class _Steps:
    """The steps of a turn over rows of ``states``: each either stops at a decision or moves on."""

    def __init__(self, states: GameStates, variants: Variants) -> None:
        self.s = states
        self.variants = variants
        self.flow: tuple[tuple[int, Callable[[np.ndarray], None]], ...] = (
            (_Next.NEXT_TURN, self.next_turn),
            (_Next.AFTER_BUY, self.after_buy),
            (_Next.CONTINUE_OFFER, self.continue_offer),
            (_Next.OFFER_FIRST_PLAY, self.offer_play),
            (_Next.OFFER_SECOND_PLAY, self.offer_play),
            (_Next.OFFER_DISCARD, self.offer_play),
            (_Next.FILL_TRADE_AREA, self.fill_trade_area),
            (_Next.CONTINUE_TRADE, self.continue_trade),
            (_Next.END_TURN, self.end_turn),
        )

    def act(self, actions: np.ndarray) -> None:
        s = self.s
        s.step += 1
        phase = s.phase
        selling = phase == _Phase.SELL
        chaining = ~selling & (actions < SELL)
        passing = actions == PASS
        if selling.any():
            self.sell_and_place(np.flatnonzero(selling), actions[selling] - SELL)
        buying = actions == BUY
        s.coins[np.flatnonzero(buying), s.mover[buying]] -= self.variants.third_chain_cost
        s.slots[np.flatnonzero(buying), s.mover[buying]] = rules.MAX_SLOTS
        phase[buying | (passing & (phase == _Phase.BUY))] = _Next.AFTER_BUY
        if chaining.any():
            self.chain_from_trade_area(np.flatnonzero(chaining), actions[chaining] - CHAIN)
        offer_passed = np.flatnonzero(passing & (phase == _Phase.OFFER))
        if offer_passed.size:
            self.discard_leftovers(offer_passed)
        playing = np.flatnonzero(actions == PLAY)
        if playing.size:
            self.play_front_card(playing)
        phase[passing & (phase == _Phase.PLAY_SECOND)] = _Next.OFFER_DISCARD
        discarding = np.flatnonzero(actions >= DISCARD)
        if discarding.size:
            self.discard_from_hand(discarding, actions[discarding] - DISCARD)
        phase[passing & (phase == _Phase.DISCARD)] = _Next.FILL_TRADE_AREA
        phase[passing & (phase == _Phase.TRADE)] = _Next.END_TURN
        self.go_on()

    def go_on(self) -> None:
        """Move every game between decisions on through the steps without a choice."""
        phase = self.s.phase
        moving = np.flatnonzero(phase > _Phase.OVER)
        while moving.size:
            for code, step in self.flow:
                rows = moving[phase[moving] == code]
                if rows.size:
                    step(rows)
            moving = moving[phase[moving] > _Phase.OVER]

    # -- the steps without a choice (the reference's _next_turn, _after_buy, ...) ----------------

    def next_turn(self, rows: np.ndarray) -> None:
        s = self.s
        s.turn[rows] += 1
        mover = s.mover[rows]
        may_buy = (s.slots[rows, mover] == rules.BASE_SLOTS) & (s.coins[rows, mover] >= self.variants.third_chain_cost)
        s.phase[rows] = np.where(may_buy, _Phase.BUY, _Next.AFTER_BUY)

    def after_buy(self, rows: np.ndarray) -> None:
        if self.variants.draw_at_turn_start:
            self.draw_to_hand(rows, 1)
        self.continue_offer(rows)

    def continue_offer(self, rows: np.ndarray) -> None:
        offered = self.s.trade_counts[rows].any(axis=1)
        self.s.phase[rows] = np.where(offered, _Phase.OFFER, _Next.OFFER_FIRST_PLAY)

    def offer_play(self, rows: np.ndarray) -> None:
        """Steps 2, 3 and 4 need a card in hand; with none the turn goes on to the trade area."""
        s = self.s
        decision = s.phase[rows] - (_Next.OFFER_FIRST_PLAY - _Phase.PLAY_FIRST)
        holding = s.hand_sizes[rows, s.mover[rows]] > 0
        s.phase[rows] = np.where(holding, decision, _Next.FILL_TRADE_AREA)

    def fill_trade_area(self, rows: np.ndarray) -> None:
        """Step 5: up to three cards from the deck, then the discard pile's matching top cards."""
        s = self.s
        for column in range(rules.TRADE_DRAW):
            drawing = rows[s.deck_size[rows] > 0]
            s.deck_size[drawing] -= 1
            stones = s.deck[drawing, s.deck_size[drawing]]
            s.trade[drawing, column] = stones
            s.trade_counts[drawing, stones] += 1
        pulling = rows
        while pulling.size:
            pulling = pulling[s.discard_size[pulling] > 0]
            top = s.discard[pulling, s.discard_size[pulling] - 1].astype(np.int64)
            matches = s.trade_counts[pulling, top] > 0
            pulling, top = pulling[matches], top[matches]
            if not pulling.size:
                break
            column = s.trade_counts[pulling].sum(axis=1)  # the area had no holes yet: its cards are its columns
            self.widen_trade_area(int(column.max()) + 1)
            s.trade[pulling, column] = top
            s.trade_counts[pulling, top] += 1
            s.discard_size[pulling] -= 1
            s.discard[pulling, s.discard_size[pulling]] = NONE
        s.phase[rows] = _Next.CONTINUE_TRADE

    def widen_trade_area(self, columns: int) -> None:
        s = self.s
        if columns > s.trade.shape[1]:
            wider = np.full((len(s.trade), 2 * columns), NONE, dtype=np.int8)
            wider[:, : s.trade.shape[1]] = s.trade
            s.trade = wider

    def continue_trade(self, rows: np.ndarray) -> None:
        offered = self.s.trade_counts[rows].any(axis=1)
        self.s.phase[rows] = np.where(offered, _Phase.TRADE, _Next.END_TURN)

    def end_turn(self, rows: np.ndarray) -> None:
        """Step 6, then the game ends once the deck is empty (after seat 1's turn with ``finish_round``)."""
        s = self.s
        self.draw_to_hand(rows, rules.END_OF_TURN_DRAW)
        ending = s.deck_size[rows] == 0
        if self.variants.finish_round:
            ending &= s.mover[rows] == SEATS - 1
        over, going = rows[ending], rows[~ending]
        if over.size:
            self.end_game(over)
        s.mover[going] = 1 - s.mover[going]
        s.phase[going] = _Next.NEXT_TURN

    def end_game(self, rows: np.ndarray) -> None:
        s = self.s
        if self.variants.final_sale:
            for seat in range(SEATS):
                for slot in range(rules.MAX_SLOTS):
                    selling = rows[s.chain_stones[rows, seat, slot] != NONE]
                    self.sell(selling, np.full(len(selling), seat), np.full(len(selling), slot))
        s.phase[rows] = _Phase.OVER

    def draw_to_hand(self, rows: np.ndarray, count: int) -> None:
        s = self.s
        for _ in range(count):
            drawing = rows[s.deck_size[rows] > 0]
            mover = s.mover[drawing]
            s.deck_size[drawing] -= 1
            s.hands[drawing, mover, s.hand_sizes[drawing, mover]] = s.deck[drawing, s.deck_size[drawing]]
            s.hand_sizes[drawing, mover] += 1

    # -- what the actions do ---------------------------------------------------------------------

    def chain_from_trade_area(self, rows: np.ndarray, stones: np.ndarray) -> None:
        """Take the first trade-area card of each stone and place it (steps 1 and 5)."""
        s = self.s
        column = np.argmax(s.trade[rows] == stones[:, None], axis=1)
        s.trade[rows, column] = NONE
        s.trade_counts[rows, stones] -= 1
        self.place(rows, stones, s.phase[rows])

    def discard_leftovers(self, rows: np.ndarray) -> None:
        """Step 1 ends: what is left of the offer goes to the discard pile in trade-area order."""
        s = self.s
        trade = s.trade[rows]
        for column in range(trade.shape[1]):
            left = trade[:, column] != NONE
            self.to_discard(rows[left], trade[left, column])
        s.trade[rows] = NONE
        s.trade_counts[rows] = 0
        s.phase[rows] = _Next.OFFER_FIRST_PLAY

    def play_front_card(self, rows: np.ndarray) -> None:
        s = self.s
        mover = s.mover[rows]
        stones = s.hands[rows, mover, 0].astype(np.int64)
        s.hands[rows, mover, :-1] = s.hands[rows, mover, 1:]
        s.hands[rows, mover, -1] = NONE
        s.hand_sizes[rows, mover] -= 1
        self.place(rows, stones, s.phase[rows])

    def discard_from_hand(self, rows: np.ndarray, positions: np.ndarray) -> None:
        s = self.s
        mover = s.mover[rows]
        hands = s.hands[rows, mover]
        stones = hands[np.arange(len(rows)), positions]
        source = np.minimum(_HAND_COLUMNS + (_HAND_COLUMNS >= positions[:, None]), HAND_WIDTH - 1)
        shifted = np.take_along_axis(hands, source, axis=1)
        shifted[:, -1] = NONE
        s.hands[rows, mover] = shifted
        s.hand_sizes[rows, mover] -= 1
        self.to_discard(rows, stones)
        s.phase[rows] = _Next.FILL_TRADE_AREA

    def place(self, rows: np.ndarray, stones: np.ndarray, steps: np.ndarray) -> None:
        """Place a card (notes, section 3): on its stone's chain, else in the first empty slot, else the
        game waits in ``_Phase.SELL`` for the mover to choose the chain to sell."""
        s = self.s
        chains = _seat_slots(rows, s.mover.take(rows))  # flat indexes of the mover's three slots
        stones_there = s.chain_stones.take(chains)
        own = stones_there == stones[:, None]
        empty = (stones_there == NONE) & (_SLOT_IDS < s.slots.take(chains[:, 0] // rules.MAX_SLOTS)[:, None])
        has_own = own.any(axis=1)
        fits = has_own | empty.any(axis=1)
        slot = np.where(has_own, np.argmax(own, axis=1), np.argmax(empty, axis=1))
        placed = chains[fits, 0] + slot[fits]
        s.chain_stones.reshape(-1)[placed] = stones[fits]
        s.chain_lengths.reshape(-1)[placed] += 1
        s.phase[rows[fits]] = _AFTER_PLACING[steps[fits]]
        waiting = rows[~fits]
        s.pending[waiting] = stones[~fits]
        s.resume[waiting] = steps[~fits]
        s.phase[waiting] = _Phase.SELL

    def sell_and_place(self, rows: np.ndarray, slots: np.ndarray) -> None:
        s = self.s
        self.sell(rows, s.mover[rows], slots)
        stones, steps = s.pending[rows], s.resume[rows]
        s.pending[rows] = NONE
        s.resume[rows] = NONE
        self.place(rows, stones, steps)

    def sell(self, rows: np.ndarray, seats: np.ndarray, slots: np.ndarray) -> None:
        """Sell each row's chain in ``slots``: its coins to the seat, its cards out of play or to the
        discard pile as ``variants.sold_cards`` says."""
        s = self.s
        chains = (rows * SEATS + seats) * rules.MAX_SLOTS + slots  # flat indexes of the chains sold
        stones, lengths = s.chain_stones.take(chains), s.chain_lengths.take(chains)
        coins = COINS[stones, lengths]
        s.coins.reshape(-1)[rows * SEATS + seats] += coins
        if self.variants.sold_cards == "removed":
            kept_out = lengths
        else:
            kept_out = coins if self.variants.sold_cards == "bohnanza" else np.zeros_like(lengths)
            self.to_discard_repeated(rows, stones, lengths - kept_out)
        s.removed_counts.reshape(-1)[rows * NUM_STONES + stones] += kept_out
        s.chain_stones.reshape(-1)[chains] = NONE
        s.chain_lengths.reshape(-1)[chains] = 0

    def to_discard(self, rows: np.ndarray, stones: np.ndarray) -> None:
        s = self.s
        s.discard[rows, s.discard_size[rows]] = stones
        s.discard_size[rows] += 1

    def to_discard_repeated(self, rows: np.ndarray, stones: np.ndarray, counts: np.ndarray) -> None:
        """``counts[i]`` cards of ``stones[i]`` onto row ``rows[i]``'s discard pile."""
        if not counts.any():
            return
        s = self.s
        columns = s.discard_size[rows][:, None] + np.arange(int(counts.max()))
        putting = np.arange(int(counts.max())) < counts[:, None]
        s.discard[np.broadcast_to(rows[:, None], putting.shape)[putting], columns[putting]] = np.broadcast_to(
            stones[:, None], putting.shape
        )[putting]
        s.discard_size[rows] += counts


# --------------------------------------------------------------------------- playing games out


def play_rounds(
    deals: np.ndarray,
    strategies: Sequence[Strategy],
    round_ids: np.ndarray | None = None,
    variants: Variants = DEFAULT_VARIANTS,
) -> RoundsResult:
    """Play each deal as a whole game with ``strategies[seat]`` in each seat: each seat's coins.

    Game ``i`` is numbered ``round_ids[i]`` (default ``0..n-1``), as the reference's ``new_state``
    numbers it. Raises ``StrategyFault`` naming a strategy that raised or chose what it may not, and
    ``DealError`` for a deal that is not the spec's 104 cards.
    """
    deals = _checked_deals(deals)
    ids = np.arange(len(deals), dtype=np.int64) if round_ids is None else np.asarray(round_ids, dtype=np.int64)
    coins = np.zeros((len(deals), SEATS), dtype=np.int64)
    players = _players(strategies)
    for start in range(0, len(deals), BLOCK_SIZE):
        block = slice(start, start + BLOCK_SIZE)
        coins[block] = _play(deal(deals[block], ids[block], variants), players, variants)
    return RoundsResult(coins)


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
    players = _players(strategies)
    rows_of: list[np.ndarray] = []
    parts: list[GameStates] = []
    for start in range(0, len(states.mover), BLOCK_SIZE):
        block = np.arange(start, min(start + BLOCK_SIZE, len(states.mover)))
        last_turn = None if turns is None else states.turn[block] + turns
        for rows, finished in _played(states.take(block), players, variants, last_turn):
            rows_of.append(rows + start)
            parts.append(finished)
    if not parts:
        return states.take(np.arange(0))
    return stacked(parts).take(np.argsort(np.concatenate(rows_of)))


def _players(strategies: Sequence[Strategy]) -> Players:
    if len(strategies) != SEATS:
        raise ValueError(f"Gemstones needs {SEATS} strategies, got {len(strategies)}")
    return Players(strategies)


def _play(states: GameStates, players: Players, variants: Variants) -> np.ndarray:
    """(n, 2) the coins of every game of ``states`` played to its end (``states`` is used up)."""
    coins = np.zeros((len(states.mover), SEATS), dtype=np.int64)
    for rows, finished in _played(states, players, variants):
        coins[rows] = finished.coins
    return coins


def _played(
    states: GameStates, players: Players, variants: Variants, last_turn: np.ndarray | None = None
) -> Iterator[tuple[np.ndarray, GameStates]]:
    """The games of ``states`` (used up) played on, as (their rows, their last states) when they end
    or, with ``last_turn``, reach a decision of a turn past it."""
    row = np.arange(len(states.mover))  # each game's row in ``states`` as given
    while True:
        going = states.phase != _Phase.OVER
        if last_turn is not None:
            going &= states.turn <= last_turn
        if not going.all():
            over = np.flatnonzero(~going)
            yield row[over], states.take(over)
            kept = np.flatnonzero(going)
            states, row = states.take(kept), row[kept]
            if last_turn is not None:
                last_turn = last_turn[kept]
        if not row.size:
            return
        apply(states, _choices(states, players, variants), variants)


def _choices(states: GameStates, players: Players, variants: Variants) -> np.ndarray:
    """Each game's action, chosen by the strategy of its mover's seat and checked against the rules."""
    actions = np.empty(len(states.mover), dtype=np.int64)
    for strategy, seats in players.seats_of:
        rows = None if players.single else np.flatnonzero(seats[states.mover])
        if rows is not None and not rows.size:
            continue
        observation = observe(states, rows, variants)
        chosen = choose_checked(strategy, observation, observation.legal_mask, observation.step, observation.seat)
        actions[slice(None) if rows is None else rows] = chosen
    return actions
