"""The spec's Simple player (EECS 280 Euchre, "Euchre Simple Player strategy"), a compiled policy.

Every decision is a few lookups in tables: hands are int64 card bitmasks, making counts trump face
cards with ``rules.TRUMP_FACES``, and each way of choosing a card is a ``CardPicker`` (see
``sim.euchre.policies.pickers``) whose keys rank the cards as the rule does. Leading, for one: every
non-trump card ranks above every trump and, within each group, the trick order decides, so the
highest key is the highest non-trump card or, with only trump, the highest trump. The fast engine
calls the policy inside its kernel; the strategy ``simple``'s ``choose`` runs it over a batch's rows.
"""

from __future__ import annotations

import numpy as np

from sim import jit
from sim.cards import NUM_CARDS, count_cards, suit_of
from sim.euchre import rules
from sim.euchre.observation import NONE, ORDER_UP, PASS, POLICY, Phase
from sim.euchre.policies.pickers import LED_CONTEXT, NEXT_SUIT, CardPicker, pick

_LOWEST = rules.PACK_SIZE - 1  # a key minus a card's place in the trick order ranks the lowest card highest
_NON_TRUMP = 32  # above every place in the trick order
_MAKING, _DISCARD = int(Phase.MAKING), int(Phase.DISCARD)


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


_DISCARD_PICKER = CardPicker.of(4, lambda trump, card: _LOWEST - _strength(trump, rules.NO_LED, card))
_DISCARD_ENTRIES = _DISCARD_PICKER.entries
"""[trump] the lowest card in the order with trump."""
_LEAD_PICKER = CardPicker.of(4, _lead_key)
_LEAD_ENTRIES = _LEAD_PICKER.entries
"""[trump] the highest non-trump card, else the highest trump."""
_PLAY_PICKER = CardPicker.of(16, _play_key)
_PLAY_ENTRIES = _PLAY_PICKER.entries
"""[trump * 4 + led suit] the highest card of the led suit, else the lowest card, in the trick's order."""
_PLAY_BASE = LED_CONTEXT * NUM_CARDS  # [trump * 52 + led card] the trick's context in the play picker, times 52
_PROPOSED = np.array(
    [suit_of(card) for card in range(NUM_CARDS)] + [NEXT_SUIT[suit_of(card)] for card in range(NUM_CARDS)]
)
"""[round two * 52 + upcard] the suit the round proposes: the upcard's, then the next suit."""
_TRUMP_FACES = rules.TRUMP_FACES


@jit.njit(inline="always")
def simple_action(
    phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning, winner, played, settings
):
    """Making: order up the proposed suit with two trump face cards in round one (the upcard not
    counted), one in round two, and always as the dealer in round two. The dealer discards its lowest
    card with trump. Lead the highest non-trump card (with only trump, the highest trump); follow
    with the highest card of the led suit, else throw the lowest card. Inlined into the kernels."""
    if phase == _MAKING:
        round_two = making_round == 2
        proposed = _PROPOSED[round_two * NUM_CARDS + upcard]
        faces = count_cards(hand & _TRUMP_FACES[proposed]) + (round_two and seat == dealer)
        return ORDER_UP + proposed if faces >= 2 - round_two else PASS
    if phase == _DISCARD:
        return pick(_DISCARD_ENTRIES, trump * NUM_CARDS, hand)
    if led == NONE:
        return pick(_LEAD_ENTRIES, trump * NUM_CARDS, hand)
    return pick(_PLAY_ENTRIES, _PLAY_BASE[trump * NUM_CARDS + led], hand)


@jit.njit(POLICY.signature, cache=True, nogil=True)
def simple(
    phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning, winner, played, settings
):
    """``simple_action`` compiled on its own: the policy the strategy holds and ``choose`` runs."""
    return simple_action(
        phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning, winner, played, settings
    )
