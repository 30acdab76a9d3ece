"""The spec's Simple player (EECS 280 Euchre, "Euchre Simple Player strategy"), a whole batch at once.

Every decision is a few lookups in tables: hands are int64 card bitmasks, making counts trump face
cards with ``rules.TRUMP_FACES``, and each way of choosing a card is a ``CardPicker`` (see
``strategies.euchre.batch``) whose keys rank the cards as the rule does. Leading, for one: every
non-trump card ranks above every trump and, within each group, the trick order decides, so the
highest key is the highest non-trump card or, with only trump, the highest trump. No Python loop
runs over the rows of a batch, and when a batch's rows are all in one situation (as the fast engine's
are) the decision takes the whole batch without gathering rows.
"""

from __future__ import annotations

import numpy as np

from sim.cards import NUM_CARDS, suit_of
from sim.euchre import rules
from sim.euchre.observation import NONE, ORDER_UP, PASS, Observation
from strategies import register
from strategies.euchre.batch import HALF, LED_CONTEXT, NEXT_SUIT, CardPicker, dispatch, halves

_LOWEST = rules.PACK_SIZE - 1  # a key minus a card's place in the trick order ranks the lowest card highest
_NON_TRUMP = 32  # above every place in the trick order


def _strength(trump: int, led: int, card: int) -> int:
    """The card's place in the trick order with ``trump`` and led suit ``led`` (``rules.NO_LED``: none)."""
    return int(rules.STRENGTH[trump, led, card])


def _lead_key(trump: int, card: int) -> int:
    non_trump = rules.effective_suit(card, trump) != trump
    return _strength(trump, rules.NO_LED, card) + (_NON_TRUMP if non_trump else 0)


def _play_key(context: int, card: int) -> int:
    trump, led = divmod(context, 4)
    if rules.effective_suit(card, trump) == led:
        return _NON_TRUMP + _strength(trump, led, card)
    return _LOWEST - _strength(trump, led, card)


_DISCARD = CardPicker.of(4, lambda trump, card: _LOWEST - _strength(trump, rules.NO_LED, card))
"""[trump] the lowest card in the order with trump."""
_LEAD = CardPicker.of(4, _lead_key)
"""[trump] the highest non-trump card, else the highest trump."""
_PLAY = CardPicker.of(16, _play_key)
"""[trump * 4 + led suit] the highest card of the led suit, else the lowest card, in the trick's order."""
_PLAY_BASE = LED_CONTEXT * HALF  # [trump * 52 + led card] the trick's context in ``_PLAY``, times ``HALF``
_PROPOSED = np.array(
    [suit_of(card) for card in range(NUM_CARDS)] + [NEXT_SUIT[suit_of(card)] for card in range(NUM_CARDS)]
)
"""[round two * 52 + upcard] the suit the round proposes: the upcard's, then the next suit."""


def make_trump(hand: np.ndarray, upcard: np.ndarray, is_dealer: np.ndarray, making_round: np.ndarray) -> np.ndarray:
    """Round one: order up the upcard's suit with two or more trump face cards (the upcard not
    counted). Round two: order up the next suit with one or more, and always as the dealer."""
    round_two = making_round == 2
    trump = _PROPOSED.take(np.multiply(round_two, NUM_CARDS, dtype=np.intp) + upcard)
    faces = np.bitwise_count(np.asarray(hand, dtype=np.int64) & rules.TRUMP_FACES.take(trump))
    # Round one: two faces; round two: one, or none as the dealer. Arithmetic, not np.where, which
    # branches row by row.
    orders = faces + (is_dealer & round_two) >= 2 - round_two
    return PASS - (PASS - ORDER_UP - trump) * orders


def dealer_discard(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """The lowest of the six cards with trump, even when it is the upcard just picked up."""
    return _DISCARD.pick_from(np.asarray(trump), hand)


def lead_card(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """The highest non-trump card; with only trump, the highest trump."""
    return _LEAD.pick_from(np.asarray(trump), hand)


def play_card(hand: np.ndarray, led_card: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """The highest card that follows suit, else the lowest card in the hand."""
    base = _PLAY_BASE.take(np.multiply(trump, NUM_CARDS, dtype=np.intp) + led_card)
    return _PLAY.pick_at(base, *halves(hand))


@register("euchre", "simple")
class Simple:
    """The spec's Simple player: count trump face cards to make, lead high off-trump, follow high or throw low."""

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch."""
        o = observation
        led_card = o.trick[:, 0]
        # Phase MAKING 0, DISCARD 1, PLAYING 2 (to lead); 3 to follow (a trick is begun only in play).
        case = o.phase + (led_card != NONE)
        return dispatch(
            case,
            [
                lambda at: make_trump(at(o.hand), at(o.upcard), at(o.seat) == at(o.dealer), at(o.making_round)),
                lambda at: dealer_discard(at(o.hand), at(o.trump)),
                lambda at: lead_card(at(o.hand), at(o.trump)),
                lambda at: play_card(at(o.hand), at(led_card), at(o.trump)),
            ],
        )
