"""The spec's Simple player (EECS 280 Euchre, "Euchre Simple Player strategy"): the compiled policy and
its reasons are ``sim.euchre.policies.simple``."""

from __future__ import annotations

import numpy as np

from sim.api import CompiledPolicy
from sim.euchre.observation import Observation, choose_compiled
from sim.euchre.policies.simple import simple
from strategies import register


@register("euchre", "simple")
class Simple:
    """The spec's Simple player: count trump face cards to make, lead high off-trump, follow high or throw low."""

    compiled = CompiledPolicy(simple)

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch."""
        return choose_compiled(self.compiled, observation)
