"""``heuristic``: values each chain by what it is likely to reach, and plans the forced sales (the
policy and its reasons: ``sim.gemstones.policies.heuristic``)."""

from __future__ import annotations

import numpy as np

from sim.api import CompiledPolicy
from sim.gemstones.observation import Observation, choose_compiled
from sim.gemstones.policies.heuristic import heuristic
from strategies import register


@register("gemstones", "heuristic")
class Heuristic:
    """Values chains by what they should reach given the unseen cards, and plans the forced sales."""

    compiled = CompiledPolicy(heuristic)

    def choose(self, observation: Observation) -> np.ndarray:
        return choose_compiled(self.compiled, observation)
