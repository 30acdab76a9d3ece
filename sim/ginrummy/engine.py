"""The reference Gin Rummy engine: one hand, then a game, one decision at a time.

``Hand`` plays one deal with the CS 340 start: the non-dealer holds 11 cards and opens by
discarding or knocking; then each turn is a draw (stock or discard pile) and a discard or knock.
A discard that leaves two cards in the stock voids the hand. A card just taken from the discard
pile may not be thrown back in the same turn (pagat). ``Game`` deals hands until a seat reaches
100, the deal alternating (a void hand is dealt again by the same dealer).

Both expose ``current_player``, ``legal_actions()`` and ``apply(action)``, which returns the events
that happened. Nothing here prints or reads input; ``sim.ginrummy.cli`` turns events into text.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from sim.api import IllegalAction, pair, round_id
from sim.cards import cards_in, mask_of
from sim.ginrummy import rules
from sim.ginrummy.observation import (
    DRAW_DISCARD,
    DRAW_STOCK,
    NONE,
    NUM_ACTIONS,
    Observation,
    Phase,
    knock,
    knocked_card,
)

# How a seat lays its ten cards down after a knock: the hand as a bitmask → its melds. The default
# is an arrangement with the least deadwood; the CLI passes the user's own sets.
Arranger = Callable[[int], Sequence[Sequence[int]]]


@dataclass(frozen=True)
class HandStarted:
    number: int
    dealer: int


@dataclass(frozen=True)
class Drew:
    seat: int
    from_stock: bool
    card: int


@dataclass(frozen=True)
class Discarded:
    seat: int
    card: int


@dataclass(frozen=True)
class Knocked:
    seat: int
    card: int  # discarded face down


@dataclass(frozen=True)
class Layout:
    """A seat's ten cards as laid down: melds and unmatched cards."""

    melds: tuple[tuple[int, ...], ...]
    unmatched: tuple[int, ...]


@dataclass(frozen=True)
class HandEnded:
    """A knocked hand's result: both layouts, the defender's layoffs and the score."""

    knocker: int
    knocker_layout: Layout
    defender_layout: Layout
    layoffs: tuple[tuple[int, int], ...]  # (card, index of the knocker's meld it went on)
    knocker_deadwood: int
    defender_deadwood: int  # after layoffs
    score: rules.HandScore


@dataclass(frozen=True)
class HandVoid:
    """The stock is down to two cards without a knock: nobody scores."""


@dataclass(frozen=True)
class ScoresChanged:
    points: tuple[int, int]  # toward 100
    hands_won: tuple[int, int]


@dataclass(frozen=True)
class GameEnded:
    winner: int
    points: tuple[int, int]
    hands_won: tuple[int, int]
    final: tuple[int, int]  # with the game bonus and the box bonuses
    shutout: bool


Event = HandStarted | Drew | Discarded | Knocked | HandEnded | HandVoid | ScoresChanged | GameEnded


def best_melds(hand: int) -> tuple[tuple[int, ...], ...]:
    """The default arranger: melds of an arrangement with the least deadwood."""
    return tuple(rules.best_arrangement(hand)[0])


def layout(hand: int, melds: Sequence[Sequence[int]]) -> Layout:
    """The layout of ``hand`` with ``melds`` (checked: real melds of held cards, no card twice)."""
    melded = 0
    for meld in melds:
        meld_mask = mask_of(meld)
        if not rules.is_meld(list(meld)) or meld_mask & ~hand or meld_mask & melded:
            raise ValueError(f"not a layout of the hand: {melds}")
        melded |= meld_mask
    return Layout(tuple(tuple(sorted(m)) for m in melds), tuple(cards_in(hand & ~melded)))


@dataclass
class Hand:
    """One deal from ``pack`` (52 cards): alternately from the non-dealer, who gets the 21st card
    too; the stock is the rest, ``pack[21]`` on top."""

    pack: tuple[int, ...]
    dealer: int = 0
    scores: tuple[int, int] = (0, 0)
    hand_id: int = 0
    arrangers: tuple[Arranger | None, Arranger | None] = (None, None)
    hands: list[int] = field(init=False)  # bitmasks by seat
    stock: list[int] = field(init=False)  # top card last
    pile: list[int] = field(init=False, default_factory=list)  # top card last
    phase: Phase = field(init=False, default=Phase.DISCARD)
    turn: int = field(init=False)
    taken: int = field(init=False, default=NONE)
    took: list[int] = field(init=False, default_factory=lambda: [0, 0])
    threw: list[int] = field(init=False, default_factory=lambda: [0, 0])
    ended: HandEnded | HandVoid | None = field(init=False, default=None)
    history: list[int] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.pack = tuple(int(card) for card in self.pack)
        if sorted(self.pack) != list(range(52)):
            raise ValueError("a Gin Rummy pack holds each of the 52 cards once")
        opener = 1 - self.dealer
        self.hands = [0, 0]
        self.hands[opener] = mask_of(self.pack[0 : rules.DEALT_CARDS - 1 : 2]) | (1 << self.pack[rules.DEALT_CARDS - 1])
        self.hands[self.dealer] = mask_of(self.pack[1 : rules.DEALT_CARDS - 1 : 2])
        self.stock = list(reversed(self.pack[rules.DEALT_CARDS :]))
        self.turn = opener

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def current_player(self) -> int:
        return self.turn

    @property
    def top_discard(self) -> int:
        return self.pile[-1] if self.pile else NONE

    def legal_actions(self) -> tuple[int, ...]:
        """The current player's legal actions, ascending: draws, or discards then knocks."""
        if self.phase == Phase.DRAW:
            return (DRAW_STOCK, DRAW_DISCARD)
        if self.phase == Phase.DISCARD:
            hand = self.hands[self.turn]
            throwable = [card for card in cards_in(hand) if card != self.taken]
            knocks = [knock(card) for card in rules.knocking_discards(hand) if card != self.taken]
            return (*throwable, *knocks)
        return ()

    def apply(self, action: int) -> list[Event]:
        """Take ``action`` for the current player; returns what happened."""
        if action not in self.legal_actions():
            raise IllegalAction(f"action {action} is not legal for seat {self.turn} in {self.phase.name}")
        self.history.append(action)
        if self.phase == Phase.DRAW:
            return self._apply_draw(action)
        card = knocked_card(action)
        return self._apply_knock(card) if card is not None else self._apply_discard(action)

    def _apply_draw(self, action: int) -> list[Event]:
        seat = self.turn
        from_stock = action == DRAW_STOCK
        card = self.stock.pop() if from_stock else self.pile.pop()
        if not from_stock:
            self.taken = card
            self.took[seat] |= 1 << card
        self.hands[seat] |= 1 << card
        self.phase = Phase.DISCARD
        return [Drew(seat, from_stock, card)]

    def _throw(self, card: int) -> None:
        seat = self.turn
        self.hands[seat] &= ~(1 << card)
        self.took[seat] &= ~(1 << card)
        self.threw[seat] |= 1 << card
        self.taken = NONE

    def _apply_discard(self, card: int) -> list[Event]:
        seat = self.turn
        self._throw(card)
        self.pile.append(card)
        events: list[Event] = [Discarded(seat, card)]
        if len(self.stock) <= rules.VOID_STOCK_SIZE:
            self.phase = Phase.OVER
            self.ended = HandVoid()
            events.append(self.ended)
        else:
            self.turn, self.phase = 1 - seat, Phase.DRAW
        return events

    def _apply_knock(self, card: int) -> list[Event]:
        knocker = self.turn
        defender = 1 - knocker
        self._throw(card)
        self.pile.append(card)  # face down, but the hand is over: no one draws it
        self.phase = Phase.OVER
        knocker_layout = self._layout(knocker)
        defender_layout = self._layout(defender)
        knocker_deadwood = rules.cards_value(knocker_layout.unmatched)
        layoffs: list[tuple[int, int]] = []
        left = list(defender_layout.unmatched)
        if knocker_deadwood > 0:  # no laying off onto gin
            layoffs, left = rules.lay_off(left, knocker_layout.melds)
        defender_deadwood = rules.cards_value(left)
        score = rules.score_knock(knocker, knocker_deadwood, defender_deadwood)
        self.ended = HandEnded(
            knocker, knocker_layout, defender_layout, tuple(layoffs), knocker_deadwood, defender_deadwood, score
        )
        return [Knocked(knocker, card), self.ended]

    def _layout(self, seat: int) -> Layout:
        arranger = self.arrangers[seat] or best_melds
        return layout(self.hands[seat], arranger(self.hands[seat]))

    def points(self) -> tuple[int, ...]:
        """Points each seat scored in this hand (none before it ends, none when it is void)."""
        if not isinstance(self.ended, HandEnded):
            return (0, 0)
        score = self.ended.score
        return tuple(score.points if seat == score.winner else 0 for seat in range(rules.NUM_PLAYERS))

    def clone(self) -> Hand:
        """An independent copy."""
        return copy.deepcopy(self)

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[list(self.legal_actions())] = True
        return mask

    def observe(self) -> Observation:
        """The current player's observation, as a batch of one."""
        seat = self.turn
        return Observation(
            seat=np.array([seat]),
            dealer=np.array([self.dealer]),
            phase=np.array([int(self.phase)]),
            legal=self.legal_mask()[None, :],
            hand=np.array([self.hands[seat]], dtype=np.int64),
            top_discard=np.array([self.top_discard]),
            discard_pile=np.array([mask_of(self.pile)], dtype=np.int64),
            took=np.array([self.took[seat]], dtype=np.int64),
            opponent_took=np.array([self.took[1 - seat]], dtype=np.int64),
            opponent_threw=np.array([self.threw[1 - seat]], dtype=np.int64),
            threw=np.array([self.threw[seat]], dtype=np.int64),
            taken=np.array([self.taken]),
            stock_size=np.array([len(self.stock)]),
            scores=np.array([self.scores]),
            round_id=np.array([self.hand_id], dtype=np.int64),
        )


PackSource = Callable[[], Sequence[int]]


class Game:
    """Hands until a seat's points reach ``target``; ``first_dealer`` deals first, then the deal
    alternates, except that a void hand is dealt again by the same dealer (pagat).

    After the game is won more hands may still be dealt (the spec's D after a finished game): their
    points add to the totals, and the winner and bonuses stay those of the game."""

    def __init__(
        self,
        next_pack: PackSource,
        first_dealer: int = 0,
        target: int = rules.GAME_TARGET,
        arrangers: tuple[Arranger | None, Arranger | None] = (None, None),
        game_id: int = 0,
        auto_deal: bool = False,
    ) -> None:
        """``game_id`` numbers the game's hands (``sim.api.round_id``) for strategies that seed per
        decision; with ``auto_deal`` every next hand is dealt as soon as the last ends (and the first
        at once) until the game is won, as simulations want; the program deals on the user's word."""
        self.next_pack = next_pack
        self.game_id = game_id
        self.auto_deal = auto_deal
        self.dealer = first_dealer
        self.target = target
        self.arrangers = arrangers
        self.points_toward_target: tuple[int, int] = (0, 0)
        self.hands_won: tuple[int, int] = (0, 0)
        self.hands_dealt = 0
        self.hand: Hand | None = None
        self.winner: int | None = None
        if auto_deal:
            self.deal()

    def deal(self) -> list[Event]:
        """Deal the next hand."""
        if self.in_hand:
            raise IllegalAction("a hand is in progress")
        hand_id = round_id(self.game_id, self.hands_dealt)
        self.hand = Hand(tuple(self.next_pack()), self.dealer, self.points_toward_target, hand_id, self.arrangers)
        self.hands_dealt += 1
        return [HandStarted(self.hands_dealt, self.dealer)]

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played."""
        return self.hand is not None and not self.hand.is_over

    def _live_hand(self) -> Hand:
        if self.hand is None or self.hand.is_over:
            raise IllegalAction("no hand is being played")
        return self.hand

    @property
    def current_player(self) -> int:
        return self._live_hand().current_player

    def legal_actions(self) -> tuple[int, ...]:
        return self._live_hand().legal_actions() if self.in_hand else ()

    def observe(self) -> Observation:
        return self._live_hand().observe()

    @property
    def rounds_played(self) -> int:
        return self.hands_dealt

    def points(self) -> tuple[int, ...]:
        """The seats' points toward the target; once the game is won, the grand totals with the game
        and box bonuses."""
        if self.winner is None:
            return self.points_toward_target
        return rules.final_scores(self.points_toward_target, self.hands_won, self.winner)

    def winning_seats(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner,)

    def clone(self) -> Game:
        """An independent copy (its pack source is shared)."""
        copied = copy.copy(self)
        copied.hand = None if self.hand is None else self.hand.clone()
        return copied

    def apply(self, action: int) -> list[Event]:
        """Take the current player's action; at a hand's end, score it and end the game at the target."""
        events = self._apply_in_hand(action)
        if self.auto_deal and not self.in_hand and not self.is_over:
            events += self.deal()
        return events

    def _apply_in_hand(self, action: int) -> list[Event]:
        current = self._live_hand()
        events = current.apply(action)
        if not current.is_over:
            return events
        if isinstance(current.ended, HandVoid):
            return events
        gained = current.points()
        self.points_toward_target = pair(old + new for old, new in zip(self.points_toward_target, gained))
        self.hands_won = pair(won + (new > 0) for won, new in zip(self.hands_won, gained))
        self.dealer = 1 - self.dealer
        events.append(ScoresChanged(self.points_toward_target, self.hands_won))
        if self.winner is None:
            self.winner = rules.game_winner(self.points_toward_target, self.target)
            if self.winner is None:
                return events
            final = pair(rules.final_scores(self.points_toward_target, self.hands_won, self.winner))
            shutout = self.points_toward_target[1 - self.winner] == 0
            events.append(GameEnded(self.winner, self.points_toward_target, self.hands_won, final, shutout))
        return events
