"""``random``: a uniformly random legal action, seeded per decision so games replay exactly.

A decision's draw is ``decision_uniforms(seed, round id, step)``, a hash of that decision alone, so the
whole batch is drawn at once and a row's action does not depend on the rows beside it. Each row used
to draw from its own ``decision_rng``; the switch gave random another random sequence (as uniform),
so its games differ from those played before it.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

from sim.gemstones.observation import Observation
from strategies import SEED_MAX, Between, register
from strategies.montecarlo import decision_uniforms


@register("gemstones", "random")
class Uniform:
    """Uniformly random over the legal actions (seeded by game, decision and ``seed``)."""

    def __init__(self, seed: Annotated[int, Between(0, SEED_MAX)] = 0) -> None:
        self.seed = seed

    def choose(self, observation: Observation) -> np.ndarray:
        legal = observation.legal_mask
        counts = legal.sum(axis=1)
        if (counts == 0).any():
            raise ValueError("a row has no legal action: there is no decision to make")
        uniforms = decision_uniforms(self.seed, observation.round_id, observation.step)
        # u is at most 1 - 2**-53, and such a u times a count of at most 2**52 rounds below the count.
        picks = (uniforms * counts).astype(np.int64)
        # The picks-th legal action in ascending order: the first whose running count of legal ones exceeds picks.
        return np.argmax(np.cumsum(legal, axis=1) > picks[:, None], axis=1).astype(np.int64)
