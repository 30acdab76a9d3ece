"""The spec's computer player."""

from __future__ import annotations

import numpy as np

from sim import jit
from sim.api import CompiledPolicy
from sim.straights.observation import LOWEST_POSITION, POLICY, Observation, choose_compiled
from strategies import register


@jit.njit(POLICY.signature, cache=True, nogil=True)
def first_legal(hands, hand, held, legal, options, table, settings):
    """The card at the lowest position of ``options``: the first legal play in dealt order, else the
    first card still in hand."""
    return hands[hand, LOWEST_POSITION[options]]


@register("straights", "first-legal")
class FirstLegal:
    """The spec's computer: first legal play in dealt order, else discard the first card in hand."""

    compiled = CompiledPolicy(first_legal)

    def choose(self, observation: Observation) -> np.ndarray:
        return choose_compiled(self.compiled, observation)
