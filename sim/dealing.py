"""Seeded deals for games whose engines take one deal at a time (reference engines).

Deal ``i`` of seed ``s`` in stream ``t`` is the game's pack permuted by a generator seeded with
``SeedSequence(s, spawn_key=(*t, i))`` alone, so a deal depends on its index only: not on how many
are asked for at once, nor on which worker asks. (Straights' fast engine deals whole blocks at
once instead, in ``sim/straights/deals.py``.)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

DEAL_DTYPE = np.int8


class SeededPacks:
    """The infinite seeded sequence of shuffled copies of one pack."""

    def __init__(self, pack: Sequence[int]) -> None:
        self.pack = np.asarray(pack, dtype=DEAL_DTYPE)

    def deal_at(self, seed: int, index: int, stream: Sequence[int] = ()) -> np.ndarray:
        """Deal ``index`` of the sequence ``stream``: the pack in the order it is dealt from."""
        generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(*stream, index))))
        return generator.permutation(self.pack)

    def deals_at(self, seed: int, indexes: np.ndarray, stream: Sequence[int] = ()) -> np.ndarray:
        """(n, pack size) the deals at these indexes."""
        indexes = np.asarray(indexes, dtype=np.int64)
        if indexes.size and indexes.min() < 0:
            raise ValueError("deal indexes start at 0")
        rows = [self.deal_at(seed, int(index), stream) for index in indexes]
        return np.stack(rows) if rows else np.empty((0, len(self.pack)), dtype=DEAL_DTYPE)

    def deals(self, seed: int, start: int, count: int, stream: Sequence[int] = ()) -> np.ndarray:
        """(count, pack size) deals ``start`` .. ``start + count - 1``."""
        if start < 0 or count < 0:
            raise ValueError(f"deal indexes start at 0 (asked for {count} from {start})")
        return self.deals_at(seed, np.arange(start, start + count), stream)
