"""The built-in Gin Rummy policies, which the fast engine's kernel calls directly by number.

A seat's *kind* is its policy's index in ``BUILT_IN``; the kernel's ``decide`` branches on it, so the
compiler sees every built-in policy's code and inlines it into the loop. Any other compiled policy
(one from outside, ``--import``) is called through its address (kind ``lockstep.EXTERNAL``). The
lookaheads' kernels that ask a rollout policy about worlds (``strategies.ginrummy.mc`` and
``search``) call it through ``decide`` too, with ``kind_of`` their policy.
"""

from __future__ import annotations

from typing import Any

from sim import jit, lockstep
from sim.ginrummy.policies.cs340 import cs340
from sim.ginrummy.policies.heuristic import heuristic
from sim.ginrummy.policies.simple import simple

BUILT_IN = (cs340, simple, heuristic)
"""The policies ``decide`` calls directly: a seat's kind is its policy's index here."""
CS340, SIMPLE, HEURISTIC = range(len(BUILT_IN))


def kind_of(function: Any) -> int:
    """The kind of a compiled policy ``function``: its index in ``BUILT_IN``, else ``lockstep.EXTERNAL``."""
    return lockstep.policy_kind(function, BUILT_IN)


@jit.njit(inline="always")
def decide(
    kind, external, phase, hand, top_discard, discard_pile, took, opponent_took, threw, opponent_threw, taken,
    stock_size, settings,
):  # fmt: skip
    """The action the policy of ``kind`` chooses (``external``'s, for a policy not in ``BUILT_IN``)."""
    if kind == CS340:
        return cs340(
            phase, hand, top_discard, discard_pile, took, opponent_took, threw, opponent_threw, taken, stock_size,
            settings,
        )  # fmt: skip
    if kind == SIMPLE:
        return simple(
            phase, hand, top_discard, discard_pile, took, opponent_took, threw, opponent_threw, taken, stock_size,
            settings,
        )  # fmt: skip
    if kind == HEURISTIC:
        return heuristic(
            phase, hand, top_discard, discard_pile, took, opponent_took, threw, opponent_threw, taken, stock_size,
            settings,
        )  # fmt: skip
    return external(
        phase, hand, top_discard, discard_pile, took, opponent_took, threw, opponent_threw, taken, stock_size, settings
    )
