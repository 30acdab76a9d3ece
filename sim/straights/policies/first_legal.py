"""The spec's computer player: the first legal play in dealt order, else the first card in hand."""

from __future__ import annotations

from sim import jit
from sim.straights.observation import LOWEST_POSITION, POLICY


@jit.njit(POLICY.signature, cache=True, nogil=True)
def first_legal(hands, hand, held, legal, options, table, settings):
    """The card at the lowest position of ``options``: the first legal play in dealt order, else the
    first card still in hand."""
    return hands[hand, LOWEST_POSITION[options]]
