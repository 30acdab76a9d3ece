"""The compiled part of the block dealer (``sim.dealing``): numpy's PCG64 words drawn in compiled code,
and the shuffle. Its own module, so that importing the dealer (every command does, for its seeds)
does not load numba.

``numpy.random.PCG64.random_raw`` steps its 128-bit state once a word, each step waiting on the last
(about 2.6 ns a word here). ``pcg64_words`` draws the same words in ``LANES`` independent chains: lane
``j`` starts at the state after ``j + 1`` steps and jumps ``LANES`` steps at a time (the generator is
an LCG, so a jump of k steps is again a multiply and an add), and the processor runs the lanes side
by side.
"""

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from sim import jit

LANES = 2
"""The chains ``pcg64_words`` steps side by side: enough to cover a 128-bit multiply-add's latency."""
MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645
"""numpy's PCG64 multiplier (PCG's default 128-bit multiplier): ``state <- state * MULTIPLIER + increment``."""
_BITS = 2**128
_LOW = 2**64 - 1


def lanes_for(state: int, increment: int) -> tuple[np.ndarray, np.ndarray]:
    """``pcg64_words``' lanes (their states' high and low halves, (LANES,) uint64 each) and jump (the
    multiplier's and increment's halves, (4,) uint64) for a PCG64 whose state and increment are these
    (``bits.state["state"]``): its next words are the ones ``random_raw`` would return."""
    starts = []
    for _ in range(LANES):
        state = (state * MULTIPLIER + increment) % _BITS
        starts.append(state)
    jump_multiplier, jump_increment = 1, 0
    for _ in range(LANES):  # LANES steps composed: x -> x * m + c, once per step
        jump_multiplier, jump_increment = (
            (jump_multiplier * MULTIPLIER) % _BITS,
            (jump_increment * MULTIPLIER + increment) % _BITS,
        )
    lanes = np.array([[start >> 64, start & _LOW] for start in starts], dtype=np.uint64)
    halves = (jump_multiplier >> 64, jump_multiplier & _LOW, jump_increment >> 64, jump_increment & _LOW)
    return np.ascontiguousarray(lanes.T), np.array(halves, dtype=np.uint64)


@intrinsic
def _multiply_add(typingctx, high, low, jump):
    """``(high, low) * (jump[0], jump[1]) + (jump[2], jump[3])`` modulo 2**128, as (high, low) uint64:
    one 128-bit multiply and add, which numba has no integer type for."""
    signature = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64, jump)

    def codegen(context, builder, signature, arguments):
        wide, narrow = ir.IntType(128), ir.IntType(64)
        shift = ir.Constant(wide, 64)

        def joined(upper, lower):
            return builder.or_(builder.shl(builder.zext(upper, wide), shift), builder.zext(lower, wide))

        high, low, jump = arguments
        halves = [builder.extract_value(jump, index) for index in range(4)]
        result = builder.add(builder.mul(joined(high, low), joined(*halves[:2])), joined(*halves[2:]))
        parts = (builder.trunc(builder.lshr(result, shift), narrow), builder.trunc(result, narrow))
        return context.make_tuple(builder, signature.return_type, parts)

    return signature, codegen


@jit.njit(inline="always")
def _output(high, low):
    """PCG64's word for a state: its halves xored, rotated right by the state's top six bits (XSL-RR)."""
    word = high ^ low
    turn = high >> np.uint64(58)
    return (word >> turn) | (word << ((np.uint64(64) - turn) & np.uint64(63)))


@jit.njit(cache=True, nogil=True)
def pcg64_words(lanes, jump, words):
    """Fill ``words`` with a PCG64's next words, drawn by the lanes and jump of ``lanes_for``."""
    jump = (jump[0], jump[1], jump[2], jump[3])
    high, low = lanes[0].copy(), lanes[1].copy()
    whole = words.size - words.size % LANES
    for start in range(0, whole, LANES):
        for lane in range(LANES):  # a constant count: unrolled, the lanes stay in registers
            words[start + lane] = _output(high[lane], low[lane])
            high[lane], low[lane] = _multiply_add(high[lane], low[lane], jump)
    for lane in range(words.size - whole):
        words[whole + lane] = _output(high[lane], low[lane])


SHUFFLE_TILE = 256
"""Copies shuffled together, step by step: few enough that their rows stay in the L1 cache (a fifth faster
than stepping through a whole block's copies at once)."""


@jit.njit(cache=True, nogil=True)
def shuffle_packs(pack, halves, decks):
    """Fill ``decks`` (n, pack size) with copies of ``pack`` shuffled by the inside-out Fisher–Yates
    shuffle: step ``r`` of copy ``b`` puts item ``i = r + 1`` at place ``(halves[r * n + b] * (i + 1)) >> 32``
    (a uniform pick among the first i + 1 places) and the item there moves to place ``i``.

    Inside-out writes each place once per step instead of swapping two."""
    count, size = decks.shape
    for first in range(0, count, SHUFFLE_TILE):
        last = min(first + SHUFFLE_TILE, count)
        tile = decks[first:last]
        tile[:, 0] = pack[0]
        for item in range(1, size):
            picks = halves[(item - 1) * count + first : (item - 1) * count + last]
            value = pack[item]
            for copy in range(last - first):
                place = (np.uint64(picks[copy]) * np.uint64(item + 1)) >> np.uint64(32)
                tile[copy, item] = tile[copy, place]
                tile[copy, place] = value
