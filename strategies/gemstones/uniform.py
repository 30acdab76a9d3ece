"""``random``: a uniformly random legal action, seeded per decision so games replay exactly."""

from __future__ import annotations

from typing import Annotated

import numpy as np

from sim.gemstones.observation import Observation
from strategies import SEED_MAX, Between, register
from strategies.montecarlo import decision_rng


@register("gemstones", "random")
class Uniform:
    """Uniformly random over the legal actions (seeded by game, decision and ``seed``)."""

    def __init__(self, seed: Annotated[int, Between(0, SEED_MAX)] = 0) -> None:
        self.seed = seed

    def choose(self, observation: Observation) -> np.ndarray:
        actions = []
        for row in range(len(observation)):
            legal = np.flatnonzero(observation.legal_mask[row])
            rng = decision_rng(self.seed, int(observation.round_id[row]), int(observation.step[row]))
            actions.append(int(legal[rng.integers(len(legal))]))
        return np.array(actions, dtype=np.int64)
