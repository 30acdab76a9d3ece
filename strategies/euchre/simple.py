"""The spec's Simple player (EECS 280 Euchre, "Euchre Simple Player strategy")."""

from __future__ import annotations

import numpy as np

from sim.cards import cards_in, suit_of
from sim.euchre import rules
from sim.euchre.observation import NONE, PASS, Observation, Phase, order_up
from strategies import register


def make_trump(hand: list[int], upcard: int, is_dealer: bool, making_round: int) -> int:
    """Round one: order up the upcard's suit with two or more trump face cards (the upcard not
    counted). Round two: order up the next suit with one or more, and always as the dealer."""
    if making_round == 1:
        trump = suit_of(upcard)
        return order_up(trump) if rules.trump_face_count(hand, trump) >= 2 else PASS
    trump = rules.next_suit(suit_of(upcard))
    return order_up(trump) if is_dealer or rules.trump_face_count(hand, trump) >= 1 else PASS


def dealer_discard(hand: list[int], trump: int) -> int:
    """The lowest of the six cards with trump, even when it is the upcard just picked up."""
    return min(hand, key=lambda card: rules.trump_key(card, trump))


def lead_card(hand: list[int], trump: int) -> int:
    """The highest non-trump card; with only trump, the highest trump."""
    plain = [card for card in hand if not rules.is_trump(card, trump)]
    return max(plain or hand, key=lambda card: rules.trump_key(card, trump))


def play_card(hand: list[int], led_card: int, trump: int) -> int:
    """The highest card that follows suit, else the lowest card in the hand."""
    led_suit = rules.effective_suit(led_card, trump)
    following = [card for card in hand if rules.follows(card, led_card, trump)]
    if following:
        return max(following, key=lambda card: rules.led_key(card, trump, led_suit))
    return min(hand, key=lambda card: rules.led_key(card, trump, led_suit))


def simple_action(observation: Observation, row: int) -> int:
    """The Simple player's action in hand ``row`` of the batch."""
    hand = list(cards_in(int(observation.hand[row])))
    trump = int(observation.trump[row])
    phase = Phase(int(observation.phase[row]))
    if phase == Phase.MAKING:
        is_dealer = observation.seat[row] == observation.dealer[row]
        return make_trump(hand, int(observation.upcard[row]), bool(is_dealer), int(observation.making_round[row]))
    if phase == Phase.DISCARD:
        return dealer_discard(hand, trump)
    led_card = int(observation.trick[row, 0])
    return lead_card(hand, trump) if led_card == NONE else play_card(hand, led_card, trump)


@register("euchre", "simple")
class Simple:
    """The spec's Simple player: count trump face cards to make, lead high off-trump, follow high or throw low."""

    def choose(self, observation: Observation) -> np.ndarray:
        return np.array([simple_action(observation, row) for row in range(len(observation))], dtype=np.int64)
