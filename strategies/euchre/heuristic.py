"""A stronger Euchre player: values whole hands to make trump, and plays tricks with its partner in mind.

Making: a hand is worth the sum of its cards' trick-taking values in the proposed trump (bowers and
high trumps most, off-suit aces some, and a little for each void once it holds two trumps), counting
the upcard for the dealer's side in round one. It orders up when that reaches ``threshold``.
Playing: never beat a partner who is already winning the trick, win as cheaply as possible when it
can, otherwise throw its least useful card; lead trump from strength as a maker, else an off-suit ace,
else a low off-suit card.
"""

from __future__ import annotations

import numpy as np

from sim.cards import cards_in, rank_of, suit_of
from sim.euchre import rules
from sim.euchre.observation import NONE, PASS, Observation, Phase, order_up
from strategies import register

# Trick-taking value of a trump by its order within trump (9, 10, Q, K, A, left bower, right bower).
TRUMP_VALUES = (1.0, 1.2, 1.5, 1.7, 2.0, 2.5, 3.0)
OFF_SUIT_ACE = 1.0
VOID_WITH_TRUMPS = 0.5
ACE = 0  # rank index of the ace in sim.cards


def card_value(card: int, trump: int) -> float:
    """How much ``card`` helps take tricks with ``trump`` as trump."""
    if rules.is_trump(card, trump):
        order = sorted(
            (c for c in rules.NEW_PACK if rules.is_trump(c, trump)), key=lambda c: rules.trump_key(c, trump)
        ).index(card)
        return TRUMP_VALUES[order]
    return OFF_SUIT_ACE if rank_of(card) == ACE else 0.0


def hand_strength(hand: list[int], trump: int) -> float:
    """Trick-taking strength of a five-card hand in ``trump``."""
    strength = sum(card_value(card, trump) for card in hand)
    trumps = sum(rules.is_trump(card, trump) for card in hand)
    if trumps >= 2:
        suits = {rules.effective_suit(card, trump) for card in hand}
        strength += VOID_WITH_TRUMPS * sum(1 for suit in range(4) if suit != trump and suit not in suits)
    return strength


def best_discard(hand: list[int], trump: int) -> int:
    """The card whose loss leaves the strongest five (a low off-suit card, voiding a suit if it can)."""
    return max(hand, key=lambda card: (hand_strength([c for c in hand if c != card], trump),
                                       -rules.trump_key(card, trump)[0], [-k for k in rules.trump_key(card, trump)]))


def making_action(observation: Observation, row: int, hand: list[int], threshold: float) -> int:
    seat, dealer = int(observation.seat[row]), int(observation.dealer[row])
    upcard = int(observation.upcard[row])
    rejected = suit_of(upcard)
    if int(observation.making_round[row]) == 1:
        if seat == dealer:
            strength = hand_strength([c for c in hand + [upcard] if c != best_discard(hand + [upcard], rejected)],
                                     rejected)
        else:
            partner_deals = rules.team_of(dealer) == rules.team_of(seat)
            strength = hand_strength(hand, rejected) + (0.5 if partner_deals else -0.5) * card_value(upcard, rejected)
        return order_up(rejected) if strength >= threshold else PASS
    suit = max((s for s in range(4) if s != rejected), key=lambda s: hand_strength(hand, s))
    screwed = seat == dealer
    return order_up(suit) if screwed or hand_strength(hand, suit) >= threshold else PASS


def lead(hand: list[int], trump: int, we_made_it: bool) -> int:
    trumps = [c for c in hand if rules.is_trump(c, trump)]
    plain = [c for c in hand if not rules.is_trump(c, trump)]
    if we_made_it and len(trumps) >= 2:
        return max(trumps, key=lambda c: rules.trump_key(c, trump))
    aces = [c for c in plain if rank_of(c) == ACE]
    if aces:
        return aces[0]
    if plain:
        return min(plain, key=lambda c: rules.trump_key(c, trump))
    return max(hand, key=lambda c: rules.trump_key(c, trump))


def follow(hand: list[int], trick: list[int], leader: int, seat: int, trump: int) -> int:
    legal = rules.legal_plays(hand, trick, trump)
    led_suit = rules.effective_suit(trick[0], trump)
    key = lambda card: rules.led_key(card, trump, led_suit)  # noqa: E731 - the trick's order
    winning = max(range(len(trick)), key=lambda position: key(trick[position]))
    partner_winning = rules.team_of((leader + winning) % 4) == rules.team_of(seat)
    last_to_play = len(trick) == 3
    beating = [card for card in legal if key(card) > key(trick[winning])]
    if partner_winning and (last_to_play or key(trick[winning])[0] == 2 or not beating):
        return min(legal, key=key)
    if beating:
        return min(beating, key=key)
    return min(legal, key=key)


@register("euchre", "heuristic")
class Heuristic:
    """Values whole hands to make trump; never overtakes a winning partner, wins tricks cheaply."""

    def __init__(self, threshold: float = 7.5) -> None:
        self.threshold = threshold

    def choose(self, observation: Observation) -> np.ndarray:
        return np.array([self._action(observation, row) for row in range(len(observation))], dtype=np.int64)

    def _action(self, observation: Observation, row: int) -> int:
        hand = list(cards_in(int(observation.hand[row])))
        trump = int(observation.trump[row])
        phase = Phase(int(observation.phase[row]))
        if phase == Phase.MAKING:
            return making_action(observation, row, hand, self.threshold)
        if phase == Phase.DISCARD:
            return best_discard(hand, trump)
        trick = [int(card) for card in observation.trick[row] if card != NONE]
        seat = int(observation.seat[row])
        if not trick:
            return lead(hand, trump, rules.team_of(int(observation.maker[row])) == rules.team_of(seat))
        return follow(hand, trick, int(observation.leader[row]), seat, trump)
