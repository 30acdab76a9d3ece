"""The spec's computer player: the first legal play in dealt order, else the first card in hand."""

from __future__ import annotations

from sim import jit
from sim.cards import lowest_bit
from sim.straights.observation import POLICY


@jit.njit(inline="always")
def first_legal_position(hands, hand, held, legal, options, table, settings):
    """The lowest position of ``options``: the first legal play in dealt order, else the first card
    still in hand."""
    return lowest_bit(options)


@jit.njit(POLICY.signature, cache=True, nogil=True)
def first_legal(hands, hand, held, legal, options, table, settings):
    """The card at ``first_legal_position``."""
    return hands[hand, first_legal_position(hands, hand, held, legal, options, table, settings)]
