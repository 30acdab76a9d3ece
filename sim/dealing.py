"""The one seeded dealer of every game: an infinite, reproducible sequence of shuffled packs per seed.

``BlockDealer(pack)`` deals copies of ``pack`` (a game's cards or stones as small ints, in the
order a new pack comes in) shuffled. Deal ``g`` of seed ``s`` is row ``g % DEALS_PER_BLOCK`` of
block ``g // DEALS_PER_BLOCK``, and a block is shuffled by a generator seeded with
``SeedSequence(s, spawn_key=(*stream, block index))`` alone. So a deal depends only on the seed,
the stream and its index: not on how many deals are asked for at once, how many workers share the
work, or the order blocks are made in. A ``stream`` names further independent sequences under the
same seed (``sim.games.game_deal_source`` deals round ``r`` of every game from stream ``(r,)``).

A block's random words are numpy's PCG64's, drawn by compiled code (``sim.shuffle``, the same words
as ``random_raw``, faster), and its packs are shuffled by a compiled loop: millions of deals a second
on one core, where one generator per deal made tens of thousands. A game's
``Game.deal_version`` names the sequence its deals follow, so runs dealt differently are told apart.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

MAX_SEED = 2**63 - 1
"""The largest seed anything takes: numpy's SeedSequence takes non-negative entropy, and 63 bits keep
a seed an int64 (Parquet columns, numpy arrays)."""
DEALS_PER_BLOCK = 8192  # Straights' fast engine block: one deal block per engine block
DEAL_DTYPES = (np.int8, np.int16, np.int32)  # the first that holds every value of a pack is its deals' dtype


class BlockDealer:
    """The seeded sequences of shuffled copies of one pack."""

    def __init__(self, pack: Sequence[int]) -> None:
        values = np.asarray(pack)
        if values.ndim != 1 or values.size == 0 or not np.issubdtype(values.dtype, np.integer):
            raise ValueError("a pack is a non-empty sequence of ints")
        self.pack = values.astype(_smallest_dtype(values))
        self.pack.flags.writeable = False

    def block(self, seed: int, block_index: int, stream: Sequence[int] = ()) -> np.ndarray:
        """(DEALS_PER_BLOCK, pack size) the deals of block ``block_index``, freshly shuffled."""
        # Compiled: numba loads when the first block is dealt, not on import.
        from sim.shuffle import lanes_for, pcg64_words, shuffle_packs

        generator = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(*stream, block_index))).state["state"]
        # One 32-bit half of a raw word per pick, as (half * span) >> 32: exact integer arithmetic that
        # never reaches span, each outcome's probability within 2**-32 of 1 / span (far below anything
        # a simulation can detect), and half the generator's work of one word per pick.
        picks_needed = (self.pack.size - 1) * DEALS_PER_BLOCK
        words = np.empty((picks_needed + 1) // 2, dtype=np.uint64)  # the generator's random_raw words
        pcg64_words(*lanes_for(generator["state"], generator["inc"]), words)
        decks = np.empty((DEALS_PER_BLOCK, self.pack.size), dtype=self.pack.dtype)
        shuffle_packs(self.pack, words.view(np.uint32)[:picks_needed], decks)
        return decks

    def deals_at(self, seed: int, indexes: np.ndarray | Sequence[int], stream: Sequence[int] = ()) -> np.ndarray:
        """(n, pack size) the deals at these indexes, in their order (cheapest when they share blocks)."""
        indexes = np.asarray(indexes, dtype=np.int64).reshape(-1)
        if indexes.size and indexes.min() < 0:
            raise ValueError("deal indexes start at 0")
        dealt = np.empty((indexes.size, self.pack.size), dtype=self.pack.dtype)
        if indexes.size == 0:
            return dealt
        in_order = np.argsort(indexes, kind="stable")
        blocks = indexes[in_order] // DEALS_PER_BLOCK
        for rows in np.split(in_order, np.flatnonzero(np.diff(blocks)) + 1):  # the indexes of each block
            block = _recent_block(self, seed, int(indexes[rows[0]] // DEALS_PER_BLOCK), tuple(stream))
            dealt[rows] = block[indexes[rows] % DEALS_PER_BLOCK]
        return dealt

    def deals(self, seed: int, start: int, count: int, stream: Sequence[int] = ()) -> np.ndarray:
        """(count, pack size) deals ``start`` .. ``start + count - 1``."""
        if start < 0 or count < 0:
            raise ValueError(f"deal indexes start at 0 (asked for {count} from {start})")
        dealt = np.empty((count, self.pack.size), dtype=self.pack.dtype)
        # Block by block, a slice of each: a run of deals needs no index arithmetic per deal.
        for first in range(start - start % DEALS_PER_BLOCK, start + count, DEALS_PER_BLOCK):
            low, high = max(first, start), min(first + DEALS_PER_BLOCK, start + count)
            block = _recent_block(self, seed, first // DEALS_PER_BLOCK, tuple(stream))
            dealt[low - start : high - start] = block[low - first : high - first]
        return dealt

    def deal_at(self, seed: int, index: int, stream: Sequence[int] = ()) -> np.ndarray:
        """(pack size,) deal ``index``: the pack in the order it is dealt from."""
        return self.deals_at(seed, [index], stream)[0]


def _smallest_dtype(values: np.ndarray) -> type[np.signedinteger]:
    """The smallest signed integer dtype holding every value: deals of millions of packs stay small."""
    for dtype in DEAL_DTYPES:
        limits = np.iinfo(dtype)
        if limits.min <= values.min() and values.max() <= limits.max:
            return dtype
    raise ValueError("a pack's values must fit 32 bits")


@functools.lru_cache(maxsize=4)
def _recent_block(dealer: BlockDealer, seed: int, block_index: int, stream: tuple[int, ...]) -> np.ndarray:
    """``dealer.block``, kept for the next requests: consecutive batches, tournament chunks or the
    rounds of a batch of whole games smaller than a block would otherwise shuffle it again each time."""
    block = dealer.block(seed, block_index, stream)
    block.flags.writeable = False
    return block
