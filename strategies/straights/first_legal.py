"""The spec's computer player."""

from __future__ import annotations

import numpy as np

from sim.straights.observation import Observation, card_at_lowest
from strategies import register


@register("straights", "first-legal")
class FirstLegal:
    """The spec's computer: first legal play in dealt order, else discard the first card in hand."""

    def choose(self, observation: Observation) -> np.ndarray:
        return card_at_lowest(observation.hand, observation.options)
