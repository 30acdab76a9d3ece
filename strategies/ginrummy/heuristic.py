"""A stronger Gin Rummy player: least deadwood first, then live cards and safety, and a knock that
holds for gin only while the hand is nearly there and the stock is deep (the policy, its settings
and its reasons: ``sim.ginrummy.policies.heuristic``)."""

from __future__ import annotations

from typing import Annotated

import numpy as np

from sim.api import CompiledPolicy
from sim.ginrummy import rules
from sim.ginrummy.observation import Observation, choose_compiled, compiled_policy
from sim.ginrummy.policies.heuristic import heuristic
from strategies import Between, register

# Far beyond any weight worth trying; larger ones overflow the throws' scores to infinities, whose
# differences (inf - inf) are nan, and no throw scores lowest at all.
MAX_WEIGHT = 1e6
Weight = Annotated[float, Between(-MAX_WEIGHT, MAX_WEIGHT)]


class Heuristic:
    """Least deadwood with live cards and safety; take the face-up card when it helps; knock by the stock left."""

    def __init__(
        self,
        take_gain: int = 4,
        out_weight: Weight = 0.75,
        feed_cost: Weight = 6.0,
        near_cost: Weight = 1.5,
        safe_bonus: Weight = 0.0,
        gin_hold: Annotated[int, Between(0, rules.KNOCK_LIMIT)] = 0,
        patience: Annotated[int, Between(0, 99)] = 99,
        early_knock: Annotated[int, Between(0, rules.KNOCK_LIMIT)] = 10,
        late: Annotated[int, Between(0, 99)] = 0,
    ) -> None:
        self.take_gain = take_gain
        self.out_weight = out_weight
        self.feed_cost = feed_cost
        self.near_cost = near_cost
        self.safe_bonus = safe_bonus
        self.gin_hold = gin_hold
        self.patience = patience
        self.early_knock = early_knock
        self.late = late
        settings = (take_gain, out_weight, feed_cost, near_cost, safe_bonus, gin_hold, patience, early_knock, late)
        self.compiled: CompiledPolicy = compiled_policy(heuristic, settings)

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch."""
        return choose_compiled(self.compiled, observation)


register("ginrummy", "heuristic")(Heuristic)
