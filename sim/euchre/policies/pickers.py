"""What the built-in Euchre policies share: card bitmasks as small patterns, and card pickers.

Hands are int64 card bitmasks (``sim.cards``: bit ``suit * 13 + rank``). A Euchre suit has six cards,
so ``halves`` packs a hand's 24 pack cards into two 12-bit patterns (clubs and diamonds, hearts and
spades), which tables of 4096 entries can be indexed by (the heuristic's hand values). A
``CardPicker`` chooses a card from a hand: each card has a key in each context (a trump suit, say,
or a trump and a led suit) and ``pick`` returns the held card with the highest key. The keys come
from the scalar rules (``sim.euchre.rules``' ``STRENGTH``, its trick order), so the pickers agree
with them by construction.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sim import jit
from sim.cards import lowest_bit, make_card
from sim.euchre import rules

PACK_BITS = np.int64(1) << rules.PACK_CARDS
"""(24,) the bit of each pack card ``rules.PACK_CARDS[j]``."""
NEXT_SUIT = np.array([rules.next_suit(suit) for suit in range(4)], dtype=np.int64)
"""[suit] the other suit of the same colour."""

# --------------------------------------------------------------------------- hands as two 12-bit patterns

SUIT_RANKS = (rules.ACE, rules.NINE, rules.TEN, rules.JACK, rules.QUEEN, rules.KING)
"""A suit's cards in the order of their bits in a pattern: the ace, then nine to king."""
PATTERN_CARDS = np.array([make_card(rank, suit) for suit in range(4) for rank in SUIT_RANKS], dtype=np.int64)
"""(24,) the card of each bit of the two patterns: bits 0-11 of ``halves``' first, 12-23 of its second."""
HALF = 1 << 12  # the patterns of one half
SIX_BITS = sum(0b111111 << (13 * suit) for suit in range(4))  # the first six bits of each suit's 13


def halves(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pack cards of each card bitmask as two (..., ) intp patterns < 4096: bit ``b`` of the first
    holds card ``PATTERN_CARDS[b]``, bit ``b`` of the second ``PATTERN_CARDS[12 + b]``."""
    cards = np.asarray(cards, dtype=np.int64)
    # Each suit's six cards to its first six bits: its ace (rank 0) stays and its nine to king (ranks 8
    # to 12) move down next to it, onto ranks 1 to 5, which, like 6 and 7, a Euchre pack never holds...
    packed = cards | (cards >> 7)
    packed &= SIX_BITS
    # ... and each second suit's six bits next to the first's: suits 0 and 1 at bits 0-11, 2 and 3 at 26-37.
    packed |= packed >> 7
    return packed & (HALF - 1), (packed >> 26) & (HALF - 1)


class CardPicker:
    """Picks the held card with the highest key in a context (``pick``, in compiled policies).

    ``keys`` is (contexts, 52): each card id's key in each context, a whole number from 0 to 511,
    no two pack cards sharing a key in a context (only the pack's cards are ever looked up).
    """

    def __init__(self, keys: np.ndarray) -> None:
        keys = np.asarray(keys, dtype=np.int64)
        pack_keys = keys[:, rules.PACK_CARDS]
        if pack_keys.min() < 0 or pack_keys.max() >= 512:
            raise ValueError("card keys run from 0 to 511")
        if any(len(set(row.tolist())) != rules.PACK_SIZE for row in pack_keys):
            raise ValueError("two cards share a key in a context")
        # An entry is a card's key and, in the low six bits, its id: the highest entry is the card to pick.
        self.entries = (keys * 64 + np.arange(52)).astype(np.int16).reshape(-1)  # [context * 52 + card]

    @classmethod
    def of(cls, contexts: int, key: Callable[[int, int], int]) -> CardPicker:
        """The picker of the keys ``key(context, card)`` of the pack's cards in ``contexts`` contexts."""
        keys = np.zeros((contexts, 52), dtype=np.int64)
        for context in range(contexts):
            for card in rules.NEW_PACK:
                keys[context, card] = key(context, card)
        return cls(keys)


LED_CONTEXT = np.array(
    [trump * 4 + rules.effective_suit(card, trump) for trump in range(4) for card in range(52)], dtype=np.intp
)
"""[trump * 52 + led card] the context ``trump * 4 + led suit`` of a trick that card leads."""

# --------------------------------------------------------------------------- in compiled policies


@jit.njit(inline="always")
def pick(entries: np.ndarray, base: int, cards: int) -> int:
    """The card with the highest key among the non-empty card bitmask ``cards``, by a ``CardPicker``'s
    ``entries`` at ``base``, its context times 52. A hand holds a few cards and the entries of a
    context are 104 bytes, so a loop over the cards held beats lookups by pattern in tables too
    large to stay in the cache."""
    best = -1
    while cards:
        best = max(best, entries[base + lowest_bit(cards)])
        cards &= cards - 1
    return best & 63
