"""``random``: a uniformly random legal action, seeded per decision so games replay exactly.

A decision's draw is ``decision_uniforms(seed, round id, step)``, a hash of that decision alone, so a
row's action does not depend on the rows beside it. Each row used to draw from its own
``decision_rng``; the switch gave random another random sequence (as uniform), so its games differ
from those played before it.

It is a compiled policy (``sim.gemstones.observation.POLICY``): ``decision_uniform`` is the same
splitmix64 hash as ``decision_uniforms``, one decision at a time, so the fast engine's kernel draws
exactly what ``choose`` would. A policy's settings are floats, exact only up to 2**53, so the seed
(up to 2**63 - 1) goes in as its high and low 32 bits.
"""

from __future__ import annotations

import numpy as np

from sim import jit
from sim.gemstones.observation import POLICY

# splitmix64's constants, as ``strategies.montecarlo`` holds them for ``decision_uniforms`` (sim/ does
# not import strategies/; tests/gemstones/test_policies.py checks the two agree).
GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX_MULTIPLIERS = (np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))
MIX_SHIFTS = (np.uint64(30), np.uint64(27), np.uint64(31))
FLOAT_BITS = 53  # a float64's significand

SEED_HALF = 1 << 32


@jit.njit(cache=True, nogil=True)
def mix(value):
    """``strategies.montecarlo.mix64`` of one uint64."""
    value = (value ^ (value >> MIX_SHIFTS[0])) * MIX_MULTIPLIERS[0]
    value = (value ^ (value >> MIX_SHIFTS[1])) * MIX_MULTIPLIERS[1]
    return value ^ (value >> MIX_SHIFTS[2])


@jit.njit(cache=True, nogil=True)
def decision_uniform(seed, round_id, step):
    """``decision_uniforms(seed, round_id, step)`` of one decision (``seed`` a uint64)."""
    state = mix(seed + GOLDEN_GAMMA)
    state = mix((state + GOLDEN_GAMMA) ^ np.uint64(round_id))
    state = mix((state + GOLDEN_GAMMA) ^ np.uint64(step))
    return np.float64(state >> np.uint64(64 - FLOAT_BITS)) * 2.0**-FLOAT_BITS


@jit.njit(POLICY.signature, cache=True, nogil=True, inline="always")
def uniform(
    hands, hand, row, seat, phase, legal, hand_sizes, chain_stones, chain_lengths, slots, coins, trade_counts,
    discard, removed_counts, pending, deck_size, round_id, step, settings,
):  # fmt: skip
    """The ``pick``-th legal action in ascending order, ``pick`` uniform over their number.
    ``settings``: the seed's high and low 32 bits."""
    seed = np.uint64(settings[0]) * np.uint64(SEED_HALF) + np.uint64(settings[1])
    count = 0
    for action in range(64):
        count += legal >> action & 1
    # u is at most 1 - 2**-53, and such a u times a count of at most 2**52 rounds below the count.
    pick = np.int64(decision_uniform(seed, round_id[row], step[row]) * count)
    action = 0
    while True:
        if legal >> action & 1:
            if pick == 0:
                return action
            pick -= 1
        action += 1
