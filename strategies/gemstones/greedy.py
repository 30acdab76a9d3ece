"""``greedy``: the obvious rules, one look at the table, no counting of unseen cards (the policy and its
reasons: ``sim.gemstones.policies.greedy``)."""

from __future__ import annotations

import numpy as np

from sim.api import CompiledPolicy
from sim.gemstones.observation import Observation, choose_compiled
from sim.gemstones.policies.greedy import greedy
from strategies import register


@register("gemstones", "greedy")
class Greedy:
    """The obvious rules: chain what fits, sell the most valuable chain when forced, discard what forces a bad sale."""

    compiled = CompiledPolicy(greedy)

    def choose(self, observation: Observation) -> np.ndarray:
        return choose_compiled(self.compiled, observation)
