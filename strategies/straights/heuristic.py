"""A rule-based Straights player built on what decides the game (the policy and its reasons:
``sim.straights.policies.heuristic``)."""

from __future__ import annotations

from typing import Annotated

import numpy as np

from sim.api import CompiledPolicy
from sim.straights.observation import Observation, choose_compiled
from sim.straights.policies.heuristic import heuristic
from strategies import Between, register

# Far beyond any weight worth trying; larger ones overflow the scores to infinities, whose ties and
# differences (inf - inf) leave the policy choosing no card at all.
MAX_WEIGHT = 1e6
Weight = Annotated[float, Between(-MAX_WEIGHT, MAX_WEIGHT)]


@register("straights", "heuristic")
class Heuristic:
    """Rule-based: play what opens your own cards and not others', discard what strands least."""

    def __init__(self, own_open: Weight = 4.0, reach: Weight = 1.0, gift: Weight = 3.0) -> None:
        self.own_open, self.reach, self.gift = own_open, reach, gift
        self.compiled = CompiledPolicy(heuristic, (own_open, reach, gift))

    def choose(self, observation: Observation) -> np.ndarray:
        return choose_compiled(self.compiled, observation)
