"""The reference Euchre engine: one hand, then a game, one decision at a time.

``Hand`` plays one deal: making trump in two rounds (screw the dealer), the dealer's pick-up and
discard after a round-one order-up, five tricks and the score. ``Game`` deals hands from a pack
source, moving the deal one seat to the left each hand, until a team reaches the points to win.
Both expose ``current_player``, ``legal_actions()`` and ``apply(action)``, which returns the events
that happened. Nothing here prints or reads input; ``sim.euchre.cli`` turns events into the spec's text.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from sim.api import IllegalAction, pair, round_id
from sim.cards import suit_of
from sim.euchre import rules
from sim.euchre.observation import NONE, PASS, Observation, Phase, order_up, ordered_suit

MAKING_BIDS = 2 * rules.NUM_PLAYERS


@dataclass(frozen=True)
class HandStarted:
    number: int
    dealer: int
    upcard: int


@dataclass(frozen=True)
class Passed:
    seat: int
    making_round: int


@dataclass(frozen=True)
class OrderedUp:
    seat: int
    suit: int
    making_round: int


@dataclass(frozen=True)
class Discarded:
    """The dealer threw a card away after picking up the upcard (possibly the upcard itself)."""

    seat: int
    card: int


@dataclass(frozen=True)
class MakingEnded:
    """Trump is made and any pick-up and discard is done: the tricks begin."""

    trump: int
    maker: int


@dataclass(frozen=True)
class Played:
    seat: int
    card: int
    led: bool


@dataclass(frozen=True)
class TrickTaken:
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class HandEnded:
    winners: int  # the team that took three or more tricks
    points: int
    bonus: str  # "march", "euchred" or ""
    tricks_won: tuple[int, int]


@dataclass(frozen=True)
class ScoresChanged:
    scores: tuple[int, int]


@dataclass(frozen=True)
class GameEnded:
    winners: int
    scores: tuple[int, int]


Event = (
    HandStarted
    | Passed
    | OrderedUp
    | Discarded
    | MakingEnded
    | Played
    | TrickTaken
    | HandEnded
    | ScoresChanged
    | GameEnded
)


@dataclass
class Hand:
    """One deal of Euchre from the pack ``pack`` (24 cards, dealt from the front)."""

    pack: tuple[int, ...]
    dealer: int = 0
    scores: tuple[int, int] = (0, 0)
    hand_id: int = 0
    hands: list[list[int]] = field(init=False)
    upcard: int = field(init=False)
    phase: Phase = field(init=False, default=Phase.MAKING)
    bids: list[int] = field(init=False, default_factory=list)
    trump: int = field(init=False, default=NONE)
    maker: int = field(init=False, default=NONE)
    discard: int = field(init=False, default=NONE)
    leader: int = field(init=False)
    trick: list[int] = field(init=False, default_factory=list)
    played: list[int] = field(init=False, default_factory=list)
    tricks_won: list[int] = field(init=False, default_factory=lambda: [0, 0])
    history: list[int] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.pack = tuple(int(card) for card in self.pack)
        if sorted(self.pack) != sorted(rules.NEW_PACK):
            raise ValueError("a Euchre pack holds exactly the 24 cards nine to ace")
        self.hands = [list(hand) for hand in rules.deal_hands(self.pack, self.dealer)]
        self.upcard = self.pack[rules.UPCARD_POSITION]
        self.leader = rules.left_of(self.dealer)

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def making_round(self) -> int:
        """1 or 2: the round of making in progress, or the round trump was made in."""
        bids = len(self.bids) if self.phase == Phase.MAKING else len(self.bids) - 1
        return 1 + bids // rules.NUM_PLAYERS

    @property
    def current_player(self) -> int:
        if self.phase == Phase.MAKING:
            return rules.left_of(self.dealer, len(self.bids) % rules.NUM_PLAYERS + 1)
        if self.phase == Phase.DISCARD:
            return self.dealer
        return rules.left_of(self.leader, len(self.trick))

    def legal_actions(self) -> tuple[int, ...]:
        """The current player's legal actions, ascending."""
        if self.phase == Phase.MAKING:
            return self._making_legal_actions()
        if self.phase == Phase.DISCARD:
            return tuple(sorted(self.hands[self.dealer]))
        if self.phase == Phase.PLAYING:
            return tuple(sorted(rules.legal_plays(self.hands[self.current_player], self.trick, self.trump)))
        return ()

    def _making_legal_actions(self) -> tuple[int, ...]:
        rejected = suit_of(self.upcard)
        if self.making_round == 1:
            return order_up(rejected), PASS
        orders = tuple(order_up(suit) for suit in range(4) if suit != rejected)
        screwed = self.current_player == self.dealer
        return orders if screwed else (*orders, PASS)

    def apply(self, action: int) -> list[Event]:
        """Take ``action`` for the current player; returns what happened."""
        if action not in self.legal_actions():
            raise IllegalAction(f"action {action} is not legal for seat {self.current_player} in {self.phase.name}")
        self.history.append(action)
        if self.phase == Phase.MAKING:
            return self._apply_making(action)
        if self.phase == Phase.DISCARD:
            return self._apply_discard(action)
        return self._apply_play(action)

    def _apply_making(self, action: int) -> list[Event]:
        seat, making_round = self.current_player, self.making_round
        self.bids.append(action)
        suit = ordered_suit(action)
        if suit is None:
            return [Passed(seat, making_round)]
        self.trump, self.maker = suit, seat
        ordered = OrderedUp(seat, suit, making_round)
        if making_round == 1:
            self.hands[self.dealer].append(self.upcard)
            self.phase = Phase.DISCARD
            return [ordered]
        return [ordered, self._start_tricks()]

    def _apply_discard(self, card: int) -> list[Event]:
        self.hands[self.dealer].remove(card)
        self.discard = card
        return [Discarded(self.dealer, card), self._start_tricks()]

    def _start_tricks(self) -> MakingEnded:
        self.phase = Phase.PLAYING
        return MakingEnded(self.trump, self.maker)

    def _apply_play(self, card: int) -> list[Event]:
        seat = self.current_player
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.played.append(card)
        events: list[Event] = [Played(seat, card, led=len(self.trick) == 1)]
        if len(self.trick) < rules.NUM_PLAYERS:
            return events
        winner = rules.trick_winner(self.trick, self.leader, self.trump)
        events.append(TrickTaken(winner, tuple(self.trick)))
        self.tricks_won[rules.team_of(winner)] += 1
        self.leader, self.trick = winner, []
        if len(self.played) == rules.NUM_PLAYERS * rules.TRICKS_PER_HAND:
            self.phase = Phase.OVER
            events.append(HandEnded(*self.result(), pair(self.tricks_won)))
        return events

    def result(self) -> tuple[int, int, str]:
        """The finished hand's winning team, its points and its bonus (``"march"``, ``"euchred"``, ``""``)."""
        return rules.hand_points(self.tricks_won, rules.team_of(self.maker))

    def points(self) -> tuple[int, ...]:
        """Each seat's points from this hand: its team's, once the hand is over (none before)."""
        if not self.is_over:
            return (0,) * rules.NUM_PLAYERS
        teams = self.team_points()
        return tuple(teams[rules.team_of(seat)] for seat in range(rules.NUM_PLAYERS))

    def clone(self) -> Hand:
        """An independent copy."""
        return copy.deepcopy(self)

    def team_points(self) -> tuple[int, int]:
        """Points each team scored in the finished hand."""
        winners, points, _ = self.result()
        return pair(points if team == winners else 0 for team in range(rules.NUM_TEAMS))

    def observe(self) -> Observation:
        """The current player's observation, as a batch of one."""
        seat = self.current_player
        history = self.played + [NONE] * (rules.NUM_PLAYERS * rules.TRICKS_PER_HAND - len(self.played))
        return Observation(
            seat=np.array([seat]),
            dealer=np.array([self.dealer]),
            phase=np.array([int(self.phase)]),
            making_round=np.array([self.making_round]),
            legal=np.array([sum(1 << action for action in self.legal_actions())], dtype=np.int64),
            hand=np.array([sum(1 << card for card in self.hands[seat])], dtype=np.int64),
            upcard=np.array([self.upcard]),
            bids=np.array([self.bids + [NONE] * (MAKING_BIDS - len(self.bids))]),
            trump=np.array([self.trump]),
            maker=np.array([self.maker]),
            discard=np.array([self.discard if seat == self.dealer else NONE]),
            leader=np.array([self.leader]),
            trick=np.array([self.trick + [NONE] * (rules.NUM_PLAYERS - len(self.trick))]),
            history=np.array([history]),
            tricks_won=np.array([self.tricks_won]),
            scores=np.array([self.scores]),
            round_id=np.array([self.hand_id], dtype=np.int64),
        )


PackSource = Callable[[], Sequence[int]]


class SpecPack:
    """The spec's pack handling: with ``shuffle`` seven in-shuffles at the start of every hand,
    applied to the order the last hand left; without, the pack as read, every hand.
    Calling it returns the pack for the next hand."""

    def __init__(self, cards: Sequence[int] = rules.NEW_PACK, shuffle: bool = True) -> None:
        self.cards = tuple(cards)
        self.shuffle = shuffle

    def __call__(self) -> tuple[int, ...]:
        if self.shuffle:
            self.cards = rules.shuffled(self.cards)
        return self.cards


class Game:
    """Hands of Euchre until a team reaches ``points_to_win``; player 0 deals first."""

    def __init__(
        self, next_pack: PackSource, points_to_win: int = rules.DEFAULT_POINTS_TO_WIN, game_id: int = 0
    ) -> None:
        """``game_id`` numbers the game's hands (``sim.api.round_id``) for strategies that seed per decision."""
        self.next_pack = next_pack
        self.game_id = game_id
        self.points_to_win = points_to_win
        self.scores: tuple[int, int] = (0, 0)
        self.hands_played = 0
        self.hand: Hand | None = None
        self.winners: int | None = None

    def start(self) -> list[Event]:
        """Deal the first hand."""
        return [self._deal()]

    def _deal(self) -> HandStarted:
        dealer = self.hands_played % rules.NUM_PLAYERS
        self.hand = Hand(tuple(self.next_pack()), dealer, self.scores, round_id(self.game_id, self.hands_played))
        return HandStarted(self.hands_played, dealer, self.hand.upcard)

    @property
    def is_over(self) -> bool:
        return self.winners is not None

    def live_hand(self) -> Hand:
        """The hand being played; ``IllegalAction`` before the first deal and once the game is over."""
        if self.hand is None or self.is_over:
            raise IllegalAction("the game has not started or is over")
        return self.hand

    @property
    def current_player(self) -> int:
        return self.live_hand().current_player

    def legal_actions(self) -> tuple[int, ...]:
        return () if self.is_over else self.live_hand().legal_actions()

    def observe(self) -> Observation:
        return self.live_hand().observe()

    @property
    def rounds_played(self) -> int:
        return self.hands_played

    def points(self) -> tuple[int, ...]:
        """Each seat's game points: its team's."""
        return tuple(self.scores[rules.team_of(seat)] for seat in range(rules.NUM_PLAYERS))

    def winning_seats(self) -> tuple[int, ...]:
        """Both seats of the team that won, once the game is over."""
        if self.winners is None:
            return ()
        return tuple(seat for seat in range(rules.NUM_PLAYERS) if rules.team_of(seat) == self.winners)

    def clone(self) -> Game:
        """An independent copy (its pack source is shared)."""
        copied = copy.copy(self)
        copied.hand = None if self.hand is None else self.hand.clone()
        return copied

    def apply(self, action: int) -> list[Event]:
        """Take the current player's action; at a hand's end score it and deal the next or end the game."""
        current = self.live_hand()
        events = current.apply(action)
        if not current.is_over:
            return events
        self.scores = pair(old + gained for old, gained in zip(self.scores, current.team_points()))
        self.hands_played += 1
        events.append(ScoresChanged(self.scores))
        winners = rules.game_winner(self.scores, self.points_to_win)
        self.winners = winners
        events.append(GameEnded(winners, self.scores) if winners is not None else self._deal())
        return events
