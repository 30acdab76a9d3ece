"""The built-in Gemstones policies, which the fast engine's kernel calls directly by number.

A seat's *kind* is its policy's index in ``BUILT_IN``; the kernel's ``decide`` branches on it, so the
compiler sees every built-in policy's code and inlines it into the loop. Any other compiled policy
(one from outside, ``--import``) is called through its address (kind ``lockstep.EXTERNAL``). The
rollouts of ``mc`` and ``search`` play these policies too (``heuristic`` by default).
"""

from __future__ import annotations

from sim import jit
from sim.gemstones.policies.greedy import greedy
from sim.gemstones.policies.heuristic import heuristic
from sim.gemstones.policies.uniform import uniform

BUILT_IN = (greedy, heuristic, uniform)
"""The policies ``decide`` calls directly: a seat's kind is its policy's index here."""
GREEDY, HEURISTIC, UNIFORM = range(len(BUILT_IN))


@jit.njit(inline="always")
def decide(
    kind, externals, hands, hand, row, seat, phase, legal, hand_sizes, chain_stones, chain_lengths, slots, coins,
    trade_counts, discard, removed_counts, pending, deck_size, round_id, step, settings,
):  # fmt: skip
    """The action the policy of ``kind`` chooses for ``seat`` (``externals[seat]``'s, for a policy not in
    ``BUILT_IN``), with its ``settings[seat]``. Each seat's policy and settings are looked up only in the
    branch that uses them: they are tuples, which a step would otherwise copy."""
    if kind == GREEDY:
        return greedy(
            hands, hand, row, seat, phase, legal, hand_sizes, chain_stones, chain_lengths, slots, coins,
            trade_counts, discard, removed_counts, pending, deck_size, round_id, step, settings[seat],
        )  # fmt: skip
    if kind == HEURISTIC:
        return heuristic(
            hands, hand, row, seat, phase, legal, hand_sizes, chain_stones, chain_lengths, slots, coins,
            trade_counts, discard, removed_counts, pending, deck_size, round_id, step, settings[seat],
        )  # fmt: skip
    if kind == UNIFORM:
        return uniform(
            hands, hand, row, seat, phase, legal, hand_sizes, chain_stones, chain_lengths, slots, coins,
            trade_counts, discard, removed_counts, pending, deck_size, round_id, step, settings[seat],
        )  # fmt: skip
    return externals[seat](
        hands, hand, row, seat, phase, legal, hand_sizes, chain_stones, chain_lengths, slots, coins, trade_counts,
        discard, removed_counts, pending, deck_size, round_id, step, settings[seat],
    )  # fmt: skip
