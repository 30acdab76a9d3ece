"""The reference Gemstones engine: a two-player game, one decision at a time.

``State`` holds a whole game. ``current_player``, ``legal_actions()`` and ``apply(action)`` (which
returns the events that happened) drive it; every step without a choice (the draws, the pull from
the discard pile, passing the turn) happens inside ``apply``. Decisions follow the notes' turn
(specs/gemstones-rules-notes.md, section 5): buy the third chain, chain cards of the opponent's offer,
play the front card, perhaps the next, perhaps discard one, chain cards of the new trade area. A card
with no chain of its stone and no free slot puts the player in ``Phase.SELL`` to pick the chain to sell.
Nothing here prints or reads input; ``sim.gemstones.cli`` turns events into text.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from sim.api import IllegalAction, legal_mask_of, pair
from sim.gemstones import rules
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
    describe,
)
from sim.numbers import NumberError, parse_int, shown

NUM_PLAYERS = 2
SOLD_CARDS_RULES = ("removed", "discard", "bohnanza")


@dataclass(frozen=True)
class Variants:
    """The rule variants of the notes' section 9; the defaults are the project's reading."""

    third_chain_cost: int = 3
    draw_at_turn_start: bool = False
    finish_round: bool = False
    sold_cards: str = "removed"
    bean_protection: bool = False
    final_sale: bool = False

    def __post_init__(self) -> None:
        if self.sold_cards not in SOLD_CARDS_RULES:
            raise ValueError(f"sold_cards must be one of {', '.join(SOLD_CARDS_RULES)}")
        if not 0 <= self.third_chain_cost <= 99:
            raise ValueError("third_chain_cost must be from 0 to 99")

    @classmethod
    def parse(cls, words: Iterable[str]) -> Variants:
        """The variants ``name=value`` words set (yes/no for a switch), the others at their defaults;
        ``ValueError`` saying what is wrong with a word."""
        names = tuple(item.name for item in fields(cls))
        defaults = cls()
        settings: dict[str, Any] = {}  # each value of its field's type, as checked below
        for word in words:
            name, equals, value = word.partition("=")
            if not equals or name not in names or name in settings:
                raise ValueError(f"bad setting {shown(word)} (variants: {', '.join(names)})")
            default = getattr(defaults, name)
            if isinstance(default, bool):
                if value not in ("yes", "no"):
                    raise ValueError(f"{name} must be yes or no")
                settings[name] = value == "yes"
            elif isinstance(default, int):
                try:
                    settings[name] = parse_int(value, 0, 99)
                except NumberError as error:
                    raise ValueError(f"{name}: {error}") from None
            else:
                settings[name] = value
        return cls(**settings)

    def words(self) -> list[str]:
        """Every variant as a ``name=value`` word, as ``parse`` reads them."""
        return [
            f"{item.name}={('yes' if value else 'no') if isinstance(value, bool) else value}"
            for item in fields(self)
            for value in [getattr(self, item.name)]
        ]


DEFAULT_VARIANTS = Variants()


@dataclass(frozen=True)
class TurnStarted:
    seat: int
    turn: int


@dataclass(frozen=True)
class BoughtThirdChain:
    seat: int
    cost: int


@dataclass(frozen=True)
class Drew:
    """Cards drawn from the deck to the back of a hand."""

    seat: int
    stones: tuple[int, ...]


@dataclass(frozen=True)
class Chained:
    """A card went onto a chain; ``source`` is "offer", "hand" or "trade"."""

    seat: int
    stone: int
    slot: int
    source: str


@dataclass(frozen=True)
class Sold:
    seat: int
    slot: int
    stone: int
    length: int
    coins: int


@dataclass(frozen=True)
class Discarded:
    """Cards put on the discard pile, in order; ``source`` is "offer" (the leftovers) or "hand"."""

    seat: int
    stones: tuple[int, ...]
    source: str


@dataclass(frozen=True)
class TradeAreaFilled:
    """Step 5: cards drawn from the deck, then cards pulled from the discard pile, into the trade area."""

    seat: int
    drawn: tuple[int, ...]
    pulled: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded:
    coins: tuple[int, int]
    winner: int | None  # None: a draw


Event = TurnStarted | BoughtThirdChain | Drew | Chained | Sold | Discarded | TradeAreaFilled | GameEnded


def winner_of(coins: Sequence[int]) -> int | None:
    """The seat with more coins; None when they are equal (notes, section 6)."""
    if coins[0] == coins[1]:
        return None
    return 0 if coins[0] > coins[1] else 1


@dataclass
class State:
    """A game of Gemstones in progress. ``deck`` is drawn from its end (the top)."""

    deck: list[int]
    variants: Variants = Variants()
    game_id: int = 0
    hands: list[list[int]] = field(default_factory=lambda: [[], []])
    slots: list[rules.Slots] = field(default_factory=lambda: [(None,) * rules.BASE_SLOTS] * NUM_PLAYERS)
    coins: list[int] = field(default_factory=lambda: [0, 0])
    trade_area: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)  # top last
    removed: list[int] = field(default_factory=list)  # sold cards out of play
    current_player: int = 0
    phase: Phase = Phase.PLAY_FIRST
    pending: int | None = None  # the card waiting for a sale (Phase.SELL)
    resume: Phase | None = None  # the step a sale interrupted
    turn: int = 0
    step: int = 0  # decisions taken in the whole game (kept across save and load)
    history: list[int] = field(default_factory=list)  # actions applied to this object

    @classmethod
    def new(
        cls, deal: Sequence[int] | np.ndarray, variants: Variants = Variants(), game_id: int = 0
    ) -> tuple[State, list[Event]]:
        """A new game from a shuffled deck (top last): five cards each, one at a time, seat 0 first,
        then seat 0's first turn begins. Returns the state and the events of that beginning."""
        deck = [int(stone) for stone in deal]
        if sorted(deck) != sorted(rules.FACTORY_ORDER):
            raise ValueError("a Gemstones deck holds exactly the 104 cards of the spec's table")
        state = cls(deck, variants, game_id)
        for _ in range(rules.HAND_SIZE):
            for seat in range(NUM_PLAYERS):
                state.hands[seat].append(state.deck.pop())
        events: list[Event] = []
        state._next_turn(events)
        return state, events

    # -- the OpenSpiel-style surface ------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    def points(self) -> tuple[int, ...]:
        """Each seat's coins (the game's score: the most coins wins)."""
        return tuple(self.coins)

    def clone(self) -> State:
        """An independent copy."""
        return copy.deepcopy(self)

    @property
    def rounds_played(self) -> int:
        """A game of Gemstones is its own only round."""
        return 1

    def winning_seats(self) -> tuple[int, ...]:
        """The seat with more coins once the game is over; both seats share a draw (``sim.api``)."""
        if not self.is_over:
            return ()
        winner = winner_of(self.coins)
        return tuple(range(NUM_PLAYERS)) if winner is None else (winner,)

    def legal_actions(self) -> tuple[int, ...]:
        """The current player's legal actions, ascending."""
        match self.phase:
            case Phase.BUY:
                seat = self.current_player
                affordable = rules.may_buy_third_chain(
                    self.coins[seat], self.slots[seat], self.variants.third_chain_cost
                )
                return (BUY, PASS) if affordable else (PASS,)
            case Phase.PLAY_SECOND:
                return (PLAY, PASS)
            case Phase.OFFER | Phase.TRADE:
                return tuple(CHAIN + stone for stone in sorted(set(self.trade_area))) + (PASS,)
            case Phase.PLAY_FIRST:
                return (PLAY,)
            case Phase.DISCARD:
                return (PASS,) + tuple(DISCARD + position for position in range(len(self.hands[self.current_player])))
            case Phase.SELL:
                sellable = rules.sellable_slots(self.slots[self.current_player], self.variants.bean_protection)
                return tuple(SELL + slot for slot in sellable)
        return ()

    def apply(self, action: int) -> list[Event]:
        """Take ``action`` for the current player; returns what happened, up to the next decision."""
        if action not in self.legal_actions():
            raise IllegalAction(f"{describe(action)} is not legal for seat {self.current_player} in {self.phase.name}")
        self.history.append(action)
        self.step += 1
        events: list[Event] = []
        seat = self.current_player
        if self.phase == Phase.SELL:
            self._apply_sell(action - SELL, events)
        elif action == BUY:
            self.coins[seat] -= self.variants.third_chain_cost
            self.slots[seat] = rules.with_third_slot(self.slots[seat])
            events.append(BoughtThirdChain(seat, self.variants.third_chain_cost))
            self._after_buy(events)
        elif self.phase == Phase.BUY:
            self._after_buy(events)
        elif CHAIN <= action < SELL:
            self.trade_area.remove(action - CHAIN)
            source = "offer" if self.phase == Phase.OFFER else "trade"
            self._place(action - CHAIN, source, self.phase, events)
        elif self.phase == Phase.OFFER:
            leftovers, self.trade_area = tuple(self.trade_area), []
            self.discard.extend(leftovers)
            events.append(Discarded(seat, leftovers, "offer"))
            self._offer_first_play(events)
        elif action == PLAY:
            self._place(self.hands[seat].pop(0), "hand", self.phase, events)
        elif self.phase == Phase.PLAY_SECOND:
            self._offer_discard(events)
        elif action >= DISCARD:
            stone = self.hands[seat].pop(action - DISCARD)
            self.discard.append(stone)
            events.append(Discarded(seat, (stone,), "hand"))
            self._fill_trade_area(events)
        elif self.phase == Phase.DISCARD:
            self._fill_trade_area(events)
        else:  # Phase.TRADE, pass: the rest stays as the opponent's offer
            self._end_turn(events)
        return events

    def observe(self) -> Observation:
        """The current player's observation, as a batch of one."""
        seat = self.current_player
        stones = np.full((1, NUM_PLAYERS, rules.MAX_SLOTS), NONE, dtype=np.int64)
        lengths = np.zeros((1, NUM_PLAYERS, rules.MAX_SLOTS), dtype=np.int64)
        for player, slots in enumerate(self.slots):
            for slot, chain in enumerate(slots):
                if chain is not None:
                    stones[0, player, slot], lengths[0, player, slot] = chain
        return Observation(
            seat=np.array([seat]),
            phase=np.array([int(self.phase)]),
            legal_mask=legal_mask_of(self.legal_actions(), NUM_ACTIONS),
            hand=_padded(self.hands[seat], rules.HAND_WIDTH),
            hand_sizes=np.array([[len(hand) for hand in self.hands]]),
            chain_stones=stones,
            chain_lengths=lengths,
            slots=np.array([[len(slots) for slots in self.slots]]),
            coins=np.array([self.coins]),
            trade_counts=np.array([rules.stone_counts(self.trade_area)]),
            discard=_padded(self.discard, rules.NUM_CARDS),
            removed_counts=np.array([rules.stone_counts(self.removed)]),
            pending=np.array([NONE if self.pending is None else self.pending]),
            resume=np.array([NONE if self.resume is None else int(self.resume)]),
            deck_size=np.array([len(self.deck)]),
            turn=np.array([self.turn]),
            round_id=np.array([self.game_id], dtype=np.int64),
            step=np.array([self.step], dtype=np.int64),
            third_chain_cost=np.array([self.variants.third_chain_cost]),
        )

    def cards_in_play(self) -> list[int]:
        """Every card, wherever it is: the 104 of the game (notes, section 11)."""
        chained = [stone for slots in self.slots for chain in slots if chain for stone in [chain[0]] * chain[1]]
        pending = [] if self.pending is None else [self.pending]
        return [
            *self.deck,
            *self.hands[0],
            *self.hands[1],
            *chained,
            *self.trade_area,
            *self.discard,
            *self.removed,
            *pending,
        ]

    # -- the turn, step by step (each step either stops at a decision or moves on) --------------

    def _next_turn(self, events: list[Event]) -> None:
        self.turn += 1
        events.append(TurnStarted(self.current_player, self.turn))
        seat = self.current_player
        if rules.may_buy_third_chain(self.coins[seat], self.slots[seat], self.variants.third_chain_cost):
            self.phase = Phase.BUY
        else:
            self._after_buy(events)

    def _after_buy(self, events: list[Event]) -> None:
        if self.variants.draw_at_turn_start:
            self._draw_to_hand(1, events)
        if self.trade_area:
            self.phase = Phase.OFFER
        else:
            self._offer_first_play(events)

    def _continue_offer(self, events: list[Event]) -> None:
        if self.trade_area:
            self.phase = Phase.OFFER
        else:
            self._offer_first_play(events)

    def _offer_first_play(self, events: list[Event]) -> None:
        if self.hands[self.current_player]:
            self.phase = Phase.PLAY_FIRST
        else:
            self._fill_trade_area(events)

    def _offer_second_play(self, events: list[Event]) -> None:
        if self.hands[self.current_player]:
            self.phase = Phase.PLAY_SECOND
        else:
            self._fill_trade_area(events)

    def _offer_discard(self, events: list[Event]) -> None:
        if self.hands[self.current_player]:
            self.phase = Phase.DISCARD
        else:
            self._fill_trade_area(events)

    def _fill_trade_area(self, events: list[Event]) -> None:
        drawn = [self.deck.pop() for _ in range(min(rules.TRADE_DRAW, len(self.deck)))]
        self.trade_area.extend(drawn)
        pulled = []
        while self.discard and self.discard[-1] in self.trade_area:
            pulled.append(self.discard.pop())
        self.trade_area.extend(pulled)
        events.append(TradeAreaFilled(self.current_player, tuple(drawn), tuple(pulled)))
        self._continue_trade(events)

    def _continue_trade(self, events: list[Event]) -> None:
        if self.trade_area:
            self.phase = Phase.TRADE
        else:
            self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        self._draw_to_hand(rules.END_OF_TURN_DRAW, events)
        last_seat = NUM_PLAYERS - 1
        if not self.deck and (not self.variants.finish_round or self.current_player == last_seat):
            self._end_game(events)
        else:
            self.current_player = 1 - self.current_player
            self._next_turn(events)

    def _end_game(self, events: list[Event]) -> None:
        if self.variants.final_sale:
            for seat in range(NUM_PLAYERS):
                for slot, chain in enumerate(self.slots[seat]):
                    if chain is not None:
                        self._sell(seat, slot, events)
        self.phase = Phase.OVER
        events.append(GameEnded(pair(self.coins), winner_of(self.coins)))

    def _draw_to_hand(self, count: int, events: list[Event]) -> None:
        drawn = tuple(self.deck.pop() for _ in range(min(count, len(self.deck))))
        self.hands[self.current_player].extend(drawn)
        events.append(Drew(self.current_player, drawn))

    # -- placing cards and selling chains -------------------------------------------------------

    def _after_placing(self, step: Phase) -> Callable[[list[Event]], None]:
        """What follows a card placed during ``step``."""
        return {
            Phase.OFFER: self._continue_offer,
            Phase.PLAY_FIRST: self._offer_second_play,
            Phase.PLAY_SECOND: self._offer_discard,
            Phase.TRADE: self._continue_trade,
        }[step]

    def _place(self, stone: int, source: str, step: Phase, events: list[Event]) -> None:
        seat = self.current_player
        slot = rules.slot_for(self.slots[seat], stone)
        if slot is None:
            self.pending, self.resume, self.phase = stone, step, Phase.SELL
            return
        self.slots[seat] = rules.add_to_slot(self.slots[seat], slot, stone)
        events.append(Chained(seat, stone, slot, source))
        self._after_placing(step)(events)

    def waiting_sale(self) -> tuple[int, Phase]:
        """In ``Phase.SELL``: the card waiting for the sale and the step the sale interrupted."""
        if self.pending is None or self.resume is None:
            raise IllegalAction(f"no sale is due in {self.phase.name}")
        return self.pending, self.resume

    def _apply_sell(self, slot: int, events: list[Event]) -> None:
        seat, (stone, step) = self.current_player, self.waiting_sale()
        self._sell(seat, slot, events)
        self.pending = self.resume = None
        self._place(stone, "hand" if step in (Phase.PLAY_FIRST, Phase.PLAY_SECOND) else step.name.lower(), step, events)

    def _sell(self, seat: int, slot: int, events: list[Event]) -> None:
        stone, length = rules.chain_at(self.slots[seat], slot)
        self.slots[seat], coins = rules.sell(self.slots[seat], slot)
        self.coins[seat] += coins
        kept_out = {"removed": length, "discard": 0, "bohnanza": coins}[self.variants.sold_cards]
        self.removed.extend([stone] * kept_out)
        self.discard.extend([stone] * (length - kept_out))
        events.append(Sold(seat, slot, stone, length, coins))


def _padded(cards: Sequence[int], width: int) -> np.ndarray:
    row = np.full((1, width), NONE, dtype=np.int64)
    row[0, : len(cards)] = cards
    return row
