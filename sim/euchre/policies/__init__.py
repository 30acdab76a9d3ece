"""The built-in Euchre policies, which the fast engine's kernels call directly by number.

A seat's *kind* is its policy's index in ``BUILT_IN`` (``lockstep.CompiledSeats``); ``decide``
branches on it and calls the policy's body (``simple_action``, ``heuristic_action``, numba-inlined:
LLVM does not inline a call to another compiled function, whose call cost as much as Simple's
rules), so the kernel holds every built-in policy's code. ``BUILT_IN`` holds the same bodies
compiled on their own, the form a strategy holds and ``choose`` runs. Any other compiled policy
(one from outside, ``--import``) is called through its address (kind ``lockstep.EXTERNAL``).
The lookaheads' rollouts and inference (``mc``, ``search``) play these policies too.
"""

from __future__ import annotations

from sim import jit
from sim.euchre.policies.heuristic import heuristic, heuristic_action
from sim.euchre.policies.simple import simple, simple_action

BUILT_IN = (simple, heuristic)
"""The policies ``decide`` calls directly: a seat's kind is its policy's index here."""
SIMPLE, HEURISTIC = range(len(BUILT_IN))


@jit.njit(inline="always")
def decide(
    kind, externals, settings, phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning,
    winner, played,
):  # fmt: skip
    """The action the policy of ``kind`` chooses for ``seat`` with its ``settings[seat]``
    (``externals[seat]``'s, for a policy not in ``BUILT_IN``). Each seat's policy and settings are
    looked up only in the branch that uses them: they are tuples, which a step would otherwise copy."""
    if kind == SIMPLE:
        return simple_action(
            phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning, winner, played,
            settings[seat],
        )  # fmt: skip
    if kind == HEURISTIC:
        return heuristic_action(
            phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning, winner, played,
            settings[seat],
        )  # fmt: skip
    return externals[seat](
        phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning, winner, played,
        settings[seat],
    )  # fmt: skip
