"""libstdc++-compatible ``std::minstd_rand0`` and ``std::shuffle``.

The course's C++ programs seed ``std::default_random_engine rng{seed}`` once (on g++ that engine is
``std::minstd_rand0``) and call ``std::shuffle(deck.begin(), deck.end(), rng)`` every round. This
module reproduces both bit for bit, so ``straights 44`` deals exactly what such a program deals.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

MINSTD_MULTIPLIER = 16807
MINSTD_MODULUS = 2**31 - 1
MINSTD_MIN = 1
MINSTD_MAX = MINSTD_MODULUS - 1


class MinstdRand0:
    """``std::minstd_rand0``: x <- 16807 x mod (2^31 - 1), outputs in [1, 2^31 - 2]."""

    min = MINSTD_MIN
    max = MINSTD_MAX

    def __init__(self, seed: int = 1) -> None:
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Seed as libstdc++ does: the seed is reduced modulo the modulus, and 0 becomes 1."""
        state = seed % MINSTD_MODULUS
        self.state = state if state != 0 else 1

    def __call__(self) -> int:
        self.state = (self.state * MINSTD_MULTIPLIER) % MINSTD_MODULUS
        return self.state


def cxx_seed(seed: int) -> int:
    """The value ``unsigned seed = std::stoi(arg)`` holds for an int-range ``seed``: taken modulo 2^32."""
    return seed % 2**32


def uniform_int(rng: MinstdRand0, low: int, high: int) -> int:
    """libstdc++'s ``std::uniform_int_distribution<unsigned long>{low, high}(rng)``.

    The generator's range (2^31 - 3) is never 2^32 - 1 and always exceeds the ranges a deck of cards
    asks for, so only libstdc++'s "downscaling" branch applies: rejection sampling on whole buckets.
    """
    generator_range = rng.max - rng.min
    wanted_range = high - low
    if wanted_range >= generator_range:
        raise ValueError("range wider than minstd_rand0 can downscale to")
    buckets = wanted_range + 1
    scaling = generator_range // buckets
    past = buckets * scaling
    while True:
        draw = rng() - rng.min
        if draw < past:
            return low + draw // scaling


def _two_uniform_ints(rng: MinstdRand0, range0: int, range1: int) -> tuple[int, int]:
    """libstdc++'s ``__gen_two_uniform_ints``: two positions below range0 and range1 from one draw."""
    draw = uniform_int(rng, 0, range0 * range1 - 1)
    return draw // range1, draw % range1


def shuffle(items: MutableSequence[Any], rng: MinstdRand0) -> None:
    """Shuffle ``items`` in place exactly as libstdc++'s ``std::shuffle`` (GCC 10 and later) does."""
    length = len(items)
    if length == 0:
        return
    generator_range = rng.max - rng.min
    if generator_range // length >= length:
        # Ranges are small enough to draw two swap positions per generator call.
        i = 1
        if length % 2 == 0:
            j = uniform_int(rng, 0, 1)
            items[i], items[j] = items[j], items[i]
            i += 1
        while i != length:
            swap_range = i + 1
            first, second = _two_uniform_ints(rng, swap_range, swap_range + 1)
            items[i], items[first] = items[first], items[i]
            i += 1
            items[i], items[second] = items[second], items[i]
            i += 1
        return
    for i in range(1, length):
        j = uniform_int(rng, 0, i)
        items[i], items[j] = items[j], items[i]
