"""A stronger Euchre player: values whole hands to make trump, and plays tricks with its partner in
mind (the compiled policy and its reasons: ``sim.euchre.policies.heuristic``)."""

from __future__ import annotations

import numpy as np

from sim.api import CompiledPolicy
from sim.euchre.observation import Observation, choose_compiled
from sim.euchre.policies.heuristic import heuristic
from strategies import register


@register("euchre", "heuristic")
class Heuristic:
    """Values whole hands to make trump; wins tricks cheaply, but lets a winning partner's card stand
    when playing last, when that card is a trump or cannot be beaten and, with ``ace_stands``, when it
    is an ace."""

    def __init__(self, threshold: float = 7.5, ace_stands: bool = False) -> None:
        self.threshold = threshold
        self.ace_stands = ace_stands
        self.compiled = CompiledPolicy(heuristic, (threshold, ace_stands))

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch."""
        return choose_compiled(self.compiled, observation)
