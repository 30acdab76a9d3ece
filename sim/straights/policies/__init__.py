"""The built-in Straights policies, which the fast engine's kernel calls directly by number.

A seat's *kind* is its policy's index in ``BUILT_IN``; the kernel's ``decide`` branches on it, so the
compiler sees every built-in policy's code and inlines it into the loop. Any other compiled policy
(one from outside, ``--import``) is called through its address (kind ``lockstep.EXTERNAL``).
"""

from __future__ import annotations

from sim import jit
from sim.straights.policies.first_legal import first_legal
from sim.straights.policies.heuristic import heuristic

BUILT_IN = (first_legal, heuristic)
"""The policies ``decide`` calls directly: a seat's kind is its policy's index here."""
FIRST_LEGAL, HEURISTIC = range(len(BUILT_IN))


@jit.njit(inline="always")
def decide(kind, external, hands, hand, held, legal, options, table, settings):
    """The card the policy of ``kind`` chooses (``external``'s, for a policy not in ``BUILT_IN``)."""
    if kind == FIRST_LEGAL:
        return first_legal(hands, hand, held, legal, options, table, settings)
    if kind == HEURISTIC:
        return heuristic(hands, hand, held, legal, options, table, settings)
    return external(hands, hand, held, legal, options, table, settings)
