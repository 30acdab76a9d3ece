"""The reference Straights engine: one game, one decision at a time.

``Round`` holds one deal being played; ``Game`` strings rounds together until someone reaches 80.
Both expose ``current_player``, ``legal_actions()`` and ``apply(card)``, which returns the events
that happened. An action is always a card id: a play when the mover has a legal play, otherwise a
discard. Nothing here prints or reads input; ``sim.straights.cli`` turns events into the spec's text.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from sim.api import IllegalAction, legal_mask_of, round_id
from sim.cards import FULL_DECK, NUM_CARDS, card_name
from sim.cxxrand import MinstdRand0, cxx_seed, shuffle
from sim.straights import rules
from sim.straights.observation import DISCARDED, NOT_YET, Observation


@dataclass(frozen=True)
class RoundStarted:
    round_number: int
    leader: int
    deck: tuple[int, ...]


@dataclass(frozen=True)
class Played:
    seat: int
    card: int


@dataclass(frozen=True)
class Discarded:
    seat: int
    card: int


@dataclass(frozen=True)
class RoundEnded:
    discards: tuple[tuple[int, ...], ...]
    old_scores: tuple[int, ...]
    points: tuple[int, ...]
    new_scores: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded:
    scores: tuple[int, ...]
    winners: tuple[int, ...]


Event = RoundStarted | Played | Discarded | RoundEnded | GameEnded


@dataclass
class Round:
    """One deal of Straights, from the 7 of spades to the 52nd card."""

    deck: tuple[int, ...]
    scores: tuple[int, ...] = (0,) * rules.NUM_PLAYERS
    round_id: int = 0
    hands: list[list[int]] = field(init=False)
    table: int = field(init=False, default=0)
    discards: list[list[int]] = field(init=False)
    actions: list[int] = field(init=False, default_factory=list)
    leader: int = field(init=False)

    def __post_init__(self) -> None:
        self.deck = tuple(int(card) for card in self.deck)
        dealt = rules.deal(self.deck)
        self.hands = [list(hand) for hand in dealt]
        self.discards = [[] for _ in range(rules.NUM_PLAYERS)]
        self.leader = rules.leader(dealt)

    @property
    def step(self) -> int:
        """How many actions have been taken this round."""
        return len(self.actions)

    @property
    def is_over(self) -> bool:
        return self.step == rules.ROUND_LENGTH

    @property
    def current_player(self) -> int:
        """The seat to move: seats take turns from the leader."""
        return (self.leader + self.step) % rules.NUM_PLAYERS

    def seat_of_step(self, step: int) -> int:
        """The seat that acts at ``step``."""
        return (self.leader + step) % rules.NUM_PLAYERS

    def dealt_hand(self, seat: int) -> tuple[int, ...]:
        """The 13 cards dealt to ``seat``, in dealt order."""
        return self.deck[seat * rules.HAND_SIZE : (seat + 1) * rules.HAND_SIZE]

    def legal_plays(self) -> tuple[int, ...]:
        """The current player's legal plays, in hand order (empty when it must discard)."""
        return rules.legal_plays(self.hands[self.current_player], self.table)

    def legal_actions(self) -> tuple[int, ...]:
        """The cards the current player may play or, failing any, discard, ascending (``sim.api``)."""
        if self.is_over:
            return ()
        return tuple(sorted(rules.legal_actions(self.hands[self.current_player], self.table)))

    def apply(self, card: int) -> list[Event]:
        """Play or discard ``card`` for the current player; returns the one event, in a list."""
        if card not in self.legal_actions():
            what = card_name(card) if 0 <= card < NUM_CARDS else f"action {card}"
            raise IllegalAction(f"{what} is not a legal action for player {self.current_player + 1}")
        seat = self.current_player
        must_discard = not self.legal_plays()
        self.hands[seat].remove(card)
        self.actions.append(card)
        if must_discard:
            self.discards[seat].append(card)
            return [Discarded(seat, card)]
        self.table |= 1 << card
        return [Played(seat, card)]

    def clone(self) -> Round:
        """An independent copy."""
        copied = copy.copy(self)
        copied.hands = [list(hand) for hand in self.hands]
        copied.discards = [list(pile) for pile in self.discards]
        copied.actions = list(self.actions)
        return copied

    def points(self) -> tuple[int, ...]:
        """Each seat's points from its discards so far."""
        return tuple(rules.discard_points(discards) for discards in self.discards)

    def public_history(self) -> np.ndarray:
        """(52,) int8 the action log as others see it: played cards, ``DISCARDED``, ``NOT_YET``."""
        history = np.full(rules.ROUND_LENGTH, NOT_YET, dtype=np.int8)
        for step, card in enumerate(self.actions):
            history[step] = card if self.table >> card & 1 else DISCARDED
        return history

    def observe(self) -> Observation:
        """The current player's observation, as a batch of one."""
        seat = self.current_player
        hand = self.dealt_hand(seat)
        place = {card: position for position, card in enumerate(hand)}

        def positions(cards: Iterable[int]) -> np.ndarray:
            """(1,) int64 bitmask over hand positions of these cards (all of them dealt to the mover)."""
            return np.array([sum(1 << place[card] for card in cards)], dtype=np.int64)

        plays = self.legal_plays()

        return Observation(
            1,
            {
                "seat": np.array([seat]),
                "hand": np.array([hand], dtype=np.int64),
                "held": positions(self.hands[seat]),
                "legal": positions(plays),
                "options": positions(plays or self.hands[seat]),  # rules.legal_actions: a discard when no play
                "legal_mask": lambda: legal_mask_of(self.legal_actions(), NUM_CARDS),
                "table": np.array([self.table], dtype=np.int64),
                "step": np.array([self.step]),
                "history": lambda: self.public_history()[None, :],
                "cards_left": lambda: np.array([[len(h) for h in self.hands]]),
                "scores": np.array([self.scores]),
                "round_id": np.array([self.round_id], dtype=np.int64),
            },
        )


DeckSource = Callable[[], Sequence[int]]


class SpecDeck:
    """The spec's dealing (section 5.3): one 52-card deck, shuffled by libstdc++'s ``std::shuffle``
    with ``minstd_rand0`` at the start of every round and left in its shuffled order between rounds.
    Calling it shuffles and returns the deck for the next round."""

    def __init__(self, seed: int, cards: Sequence[int] = FULL_DECK) -> None:
        self.rng = MinstdRand0(cxx_seed(seed))
        self.cards = list(cards)

    def __call__(self) -> tuple[int, ...]:
        shuffle(self.cards, self.rng)
        return tuple(self.cards)


class Game:
    """Rounds of Straights until a player reaches 80; each round's deck comes from ``next_deck``."""

    def __init__(
        self, next_deck: DeckSource, scores: Sequence[int] = (0,) * rules.NUM_PLAYERS, game_id: int = 0
    ) -> None:
        """``game_id`` numbers the game's rounds (``sim.api.round_id``) for strategies that seed per decision."""
        self.next_deck = next_deck
        self.game_id = game_id
        self.scores = tuple(scores)
        self.rounds_played = 0
        self.round: Round | None = None
        self.winners: tuple[int, ...] = ()

    @classmethod
    def resume(cls, next_deck: DeckSource, current: Round, rounds_played: int) -> Game:
        """A game in the middle of ``current``, whose scores are the game scores before it."""
        game = cls(next_deck, current.scores)
        game.round = current
        game.rounds_played = rounds_played
        return game

    def start(self) -> list[Event]:
        """Deal the first round."""
        return [self._deal()]

    def _deal(self) -> RoundStarted:
        self.round = Round(tuple(self.next_deck()), self.scores, round_id(self.game_id, self.rounds_played))
        return RoundStarted(self.rounds_played, self.round.leader, self.round.deck)

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    @property
    def current_player(self) -> int:
        return self.live_round().current_player

    def legal_actions(self) -> tuple[int, ...]:
        return () if self.is_over else self.live_round().legal_actions()

    def points(self) -> tuple[int, ...]:
        """The game scores: the points of the rounds played so far."""
        return self.scores

    def winning_seats(self) -> tuple[int, ...]:
        """The seats with the fewest points once the game is over (ties share the win)."""
        return self.winners

    def clone(self) -> Game:
        """An independent copy (its deck source is shared)."""
        copied = copy.copy(self)
        copied.round = None if self.round is None else self.round.clone()
        return copied

    def observe(self) -> Observation:
        return self.live_round().observe()

    def live_round(self) -> Round:
        """The round being played; ``IllegalAction`` before the first deal and once the game is over."""
        if self.round is None or self.is_over:
            raise IllegalAction("the game has not started or is over")
        return self.round

    def apply(self, card: int) -> list[Event]:
        """Take the current player's action; returns it and, at a round's end, what followed."""
        current = self.live_round()
        events: list[Event] = current.apply(card)
        if not current.is_over:
            return events
        points = current.points()
        old_scores = self.scores
        self.scores = tuple(old + gained for old, gained in zip(old_scores, points))
        self.rounds_played += 1
        events.append(RoundEnded(tuple(map(tuple, current.discards)), old_scores, points, self.scores))
        if rules.is_game_over(self.scores):
            self.winners = rules.winners(self.scores)
            events.append(GameEnded(self.scores, self.winners))
        else:
            events.append(self._deal())
        return events
