"""The compiled shuffle of the block dealer (``sim.dealing``): its own module, so that importing the
dealer (every command does, for its seeds) does not load numba."""

import numpy as np

from sim import jit


@jit.njit(cache=True, nogil=True)
def shuffle_packs(pack, halves, decks):
    """Fill ``decks`` (n, pack size) with copies of ``pack`` shuffled by the inside-out Fisher–Yates
    shuffle: step ``r`` of copy ``b`` puts item ``i = r + 1`` at place ``(halves[r * n + b] * (i + 1)) >> 32``
    (a uniform pick among the first i + 1 places) and the item there moves to place ``i``.

    Inside-out writes each place once per step instead of swapping two. Step by step over all copies,
    so the picks are read in the order they were drawn."""
    count, size = decks.shape
    for copy in range(count):
        decks[copy, 0] = pack[0]
    for item in range(1, size):
        picks = halves[(item - 1) * count : item * count]
        value = pack[item]
        for copy in range(count):
            place = (np.uint64(picks[copy]) * np.uint64(item + 1)) >> np.uint64(32)
            decks[copy, item] = decks[copy, place]
            decks[copy, place] = value
