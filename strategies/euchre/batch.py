"""What the compiled Euchre policies share: card bitmasks as small patterns, and tables that pick a card
from a pattern.

Hands are int64 card bitmasks (``sim.cards``: bit ``suit * 13 + rank``). A Euchre suit has six cards,
so ``halves`` packs a hand's 24 pack cards into two 12-bit patterns (clubs and diamonds, hearts and
spades), and a ``CardPicker`` chooses a card from a hand with two lookups in tables of 4096 entries
and a maximum: each card has a key in each context (a trump suit, say, or a trump and a led suit) and
the picker returns the held card with the highest key. The keys come from the scalar rules
(``sim.euchre.rules``' ``STRENGTH``, its trick order), so the tables agree with them by construction.

``pick`` and ``count`` are the same for one hand inside a compiled policy: a choice of a card is two
lookups and a maximum, with no branch on the cards held.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sim import jit
from sim.cards import make_card
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
    """Picks, in each row, the held card with the highest key in the row's context.

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
        # A table entry is the best card's key and its id in the low six bits, -1 for no card.
        entries = keys[:, PATTERN_CARDS] * 64 + PATTERN_CARDS  # (contexts, 24) in pattern bit order
        bits = (np.arange(HALF)[:, None] >> np.arange(12)) & 1 == 1  # (4096, 12): the cards of each pattern
        tables = [np.where(bits, entries[:, None, half * 12 : half * 12 + 12], -1).max(axis=-1) for half in range(2)]
        self.first = tables[0].astype(np.int16).reshape(-1)  # [context * 4096 + pattern]
        self.second = tables[1].astype(np.int16).reshape(-1)

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


@jit.njit(cache=True, nogil=True)
def pick(first: np.ndarray, second: np.ndarray, base: int, cards: int) -> int:
    """The card with the highest key among the non-empty card bitmask ``cards``, by a ``CardPicker``'s
    tables ``first`` and ``second`` at ``base``, its context times ``HALF``: ``pick_at`` for one row."""
    packed = cards | (cards >> 7)  # ``halves``, step by step
    packed &= SIX_BITS
    packed |= packed >> 7
    best = max(first[base + (packed & (HALF - 1))], second[base + ((packed >> 26) & (HALF - 1))])
    return best & 63
