"""Shared card notation: ranks, suits, card ids, bitmasks, parsing and formatting.

A card id is ``suit * 13 + rank_index``, so ids 0..51 follow the specs' initial deck order::

    AC 2C ... KC  AD ... KD  AH ... KH  AS ... KS
     0  1 ... 12  13 ... 25  26 ... 38  39 ... 51

A set of cards is an int bitmask with bit ``card_id`` set; bitwise operators do set algebra.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from sim import jit

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_NAMES = ("Clubs", "Diamonds", "Hearts", "Spades")
NUM_RANKS = len(RANKS)
NUM_SUITS = len(SUITS)
NUM_CARDS = NUM_RANKS * NUM_SUITS
FULL_DECK = tuple(range(NUM_CARDS))
ALL_CARDS_MASK = (1 << NUM_CARDS) - 1


class CardError(ValueError):
    """A string that does not name a card."""


def make_card(rank_index: int, suit_index: int) -> int:
    """The id of the card with this rank index (0 = ace .. 12 = king) and suit index (0 = clubs .. 3 = spades)."""
    return suit_index * NUM_RANKS + rank_index


def rank_of(card: int) -> int:
    """Rank index of a card: 0 for an ace up to 12 for a king."""
    return card % NUM_RANKS


def suit_of(card: int) -> int:
    """Suit index of a card: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card // NUM_RANKS


def card_name(card: int) -> str:
    """The two-character name of a card, rank then suit, e.g. ``"7S"``."""
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def parse_card(text: str) -> int:
    """The id of the card named by ``text`` (e.g. ``"TD"``); case-insensitive, surrounding blanks ignored."""
    name = text.strip().upper()
    if len(name) != 2 or name[0] not in RANKS or name[1] not in SUITS:
        raise CardError(f"not a card: {text.strip()!r} (expected rank {RANKS} then suit {SUITS}, e.g. 7S)")
    return make_card(RANKS.index(name[0]), SUITS.index(name[1]))


def format_cards(cards: Iterable[int]) -> str:
    """Card names joined by single spaces."""
    return " ".join(card_name(card) for card in cards)


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask holding exactly these cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> Iterator[int]:
    """The card ids in a bitmask, lowest id first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bits_to_bools(masks: np.ndarray, width: int = NUM_CARDS) -> np.ndarray:
    """(n, width) bool: bit i of each of the (n,) int64 ``masks`` (card masks: one column per card
    id), for a ``width`` of at most 64."""
    octets = np.ascontiguousarray(masks, dtype="<i8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(octets, axis=1, count=width, bitorder="little").view(bool)


def bools_to_bits(flags: np.ndarray) -> np.ndarray:
    """(n,) int64 masks of (n, width) bools, bit i set where column i is True: ``bits_to_bools``
    undone, for a ``width`` of at most 64."""
    octets = np.zeros((len(flags), 8), dtype=np.uint8)  # a little-endian int64 a row
    octets[:, : (flags.shape[1] + 7) // 8] = np.packbits(flags, axis=1, bitorder="little")
    return octets.view("<i8")[:, 0].astype(np.int64)


_SELECT_WIDTHS = (32, 16, 8, 4, 2, 1)


def nth_card(masks: np.ndarray, n: np.ndarray) -> np.ndarray:
    """(k,) int64 the id of the ``n``-th card (0 = the lowest id) of each of the (k,) int64 card
    ``masks``; ``n`` must be below each mask's card count (bits 0 to 62 only)."""
    masks = np.asarray(masks, dtype=np.int64)
    rest = np.asarray(n, dtype=np.int64).copy()
    position = np.zeros(len(masks), dtype=np.int64)
    # Halve the window each step: skip its lower half when the card lies beyond that half's cards.
    for width in _SELECT_WIDTHS:
        below = np.bitwise_count((masks >> position) & ((1 << width) - 1)).astype(np.int64)
        skip = rest >= below
        rest -= below * skip
        position += width * skip
    return position


@jit.njit(inline="always")
def lowest_bit(mask: int) -> int:
    """The index of the lowest set bit of a non-zero bitmask (one instruction, compiled)."""
    return trailing_zeros(np.int64(mask))  # type: ignore[call-arg]  # an intrinsic: numba supplies its context


@jit.njit(cache=True, nogil=True)
def count_cards(mask: int) -> int:
    """How many cards a card bitmask holds (compiled, for kernels and compiled policies)."""
    count = 0
    while mask:  # LLVM turns this loop into one popcount instruction
        mask &= mask - 1
        count += 1
    return count
