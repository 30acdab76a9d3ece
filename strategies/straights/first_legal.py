"""The spec's computer player."""

from __future__ import annotations

import numpy as np

from sim.api import CompiledPolicy
from sim.straights.observation import Observation, choose_compiled
from sim.straights.policies.first_legal import first_legal
from strategies import register


@register("straights", "first-legal")
class FirstLegal:
    """The spec's computer: first legal play in dealt order, else discard the first card in hand."""

    compiled = CompiledPolicy(first_legal)

    def choose(self, observation: Observation) -> np.ndarray:
        return choose_compiled(self.compiled, observation)
