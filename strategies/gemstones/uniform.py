"""``random``: a uniformly random legal action, seeded per decision so games replay exactly (the policy
and how it draws: ``sim.gemstones.policies.uniform``)."""

from __future__ import annotations

from typing import Annotated

import numpy as np

from sim.api import CompiledPolicy
from sim.gemstones.observation import Observation, choose_compiled
from sim.gemstones.policies.uniform import SEED_HALF, uniform
from strategies import SEED_MAX, Between, register


@register("gemstones", "random")
class Uniform:
    """Uniformly random over the legal actions (seeded by game, decision and ``seed``)."""

    def __init__(self, seed: Annotated[int, Between(0, SEED_MAX)] = 0) -> None:
        self.seed = seed
        self.compiled = CompiledPolicy(uniform, (seed // SEED_HALF, seed % SEED_HALF))

    def choose(self, observation: Observation) -> np.ndarray:
        return choose_compiled(self.compiled, observation)
