"""The built-in Straights policies, which the fast engine's kernels call directly by number.

A seat's *kind* is its policy's index in ``BUILT_IN`` (``lockstep.CompiledSeats``); ``decide``
branches on it, so the compiler sees every built-in policy's code and inlines it into the loop.
Inside the kernels a built-in policy answers with the *position* of its choice in the hand, which
is what the engine's state is kept by; its card-valued form (``BUILT_IN``, of the game's ``POLICY``
signature) is what strategies hold and what an observation's ``choose`` runs. Any other compiled
policy (one from outside, ``--import``) is called by the kernel through its address.
"""

from __future__ import annotations

from sim import jit
from sim.straights.policies.first_legal import first_legal, first_legal_position
from sim.straights.policies.heuristic import cards_held, heuristic, heuristic_position

BUILT_IN = (first_legal, heuristic)
"""The policies the kernels call directly: a seat's kind is its policy's index here."""
FIRST_LEGAL, HEURISTIC = range(len(BUILT_IN))
__all__ = ["BUILT_IN", "FIRST_LEGAL", "HEURISTIC", "cards_held", "decide"]


@jit.njit(inline="always")
def decide(kind, hands, hand, held, held_cards, legal, options, table, settings):
    """The position in ``hands[hand]`` of the option the built-in policy of ``kind`` chooses;
    ``held_cards`` is ``held`` as a card mask."""
    if kind == FIRST_LEGAL:
        return first_legal_position(hands, hand, held, legal, options, table, settings)
    return heuristic_position(hands, hand, held_cards, legal, options, table, settings)
