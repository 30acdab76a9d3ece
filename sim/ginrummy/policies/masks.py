"""What the built-in Gin Rummy policies share: the cards that would join a meld with a hand, the
cards near others, and the order of the throws a strategy scores alike.

Hands are int64 card masks (``sim.cards``: bit ``suit * 13 + rank``), so a card's neighbours in its
suit are the bits one and two places away and the cards of its rank are 13 places apart: a whole
hand is shifted and rotated at once. The least deadwood comes from ``sim.ginrummy.melds``.
"""

from __future__ import annotations

import numpy as np

from sim import jit
from sim.cards import ALL_CARDS_MASK, NUM_CARDS, NUM_RANKS, NUM_SUITS
from sim.ginrummy import rules
from sim.ginrummy.melds import LOWERED_ONE_RANK, RAISED_ONE_RANK, RANK_ACROSS_SUITS, without_ranks

_SUIT = (1 << NUM_RANKS) - 1
# A card mask shifted up (down) by one or two ranks, less the cards that crossed into the next suit.
_UP1, _UP2 = RAISED_ONE_RANK, without_ranks(0, 1)
_DOWN1, _DOWN2 = LOWERED_ONE_RANK, without_ranks(NUM_RANKS - 2, NUM_RANKS - 1)
# Shifted up by 1, 2, 3 ranks: no card lands on the lowest ranks of a suit.
_KEPT_UP = np.array([without_ranks(*range(distance)) for distance in range(4)], dtype=np.int64)

CARD_VALUES = np.array([rules.card_value(card) for card in range(NUM_CARDS)], dtype=np.int64)
"""[card] its deadwood value."""
THROW_ORDER = (CARD_VALUES.max() - CARD_VALUES) * 64 + np.arange(NUM_CARDS, dtype=np.int64)
"""[card] the order of the throws a strategy scores alike: the higher card value first (it costs
more if it stays), then the lower card id."""


@jit.njit(cache=True, nogil=True)
def meld_outs(hand: int) -> int:
    """The card mask of the cards not held that would sit in a meld with the cards of ``hand``: two
    of its rank held, or two held next to it in a run."""
    below1, below2 = (hand << 1) & _UP1, (hand << 2) & _UP2  # card x with x-1 / x-2 held
    above1, above2 = (hand >> 1) & _DOWN1, (hand >> 2) & _DOWN2  # card x with x+1 / x+2 held
    outs = (below1 & below2) | (below1 & above1) | (above1 & above2)
    clubs, diamonds = hand & _SUIT, (hand >> NUM_RANKS) & _SUIT
    hearts, spades = (hand >> (2 * NUM_RANKS)) & _SUIT, (hand >> (3 * NUM_RANKS)) & _SUIT
    pairs = (clubs & (diamonds | hearts | spades)) | (diamonds & (hearts | spades)) | (hearts & spades)
    outs |= pairs * RANK_ACROSS_SUITS
    return outs & ~hand


@jit.njit(cache=True, nogil=True)
def near(cards: int, span: int) -> int:
    """The card mask of the cards of the same rank as one of ``cards``, or of the same suit within
    ``span`` ranks (at most 3) of one, each card itself left out unless another brings it in."""
    result = 0
    for step in range(1, NUM_SUITS):  # the other suits' cards of each rank: the mask rotated by whole suits
        shift = step * NUM_RANKS
        result |= ((cards << shift) | (cards >> (NUM_CARDS - shift))) & ALL_CARDS_MASK
    for distance in range(1, span + 1):
        kept = _KEPT_UP[distance]
        result |= ((cards << distance) & kept) | ((cards >> distance) & (kept >> distance))
    return result
