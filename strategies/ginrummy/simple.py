"""The usual Gin Rummy baseline: take the face-up card only if it makes a meld, throw the card that
leaves the least deadwood (of those leaving the same, the higher card, then the lower card id), knock
as soon as the rules allow.

Like the heuristic, it never takes back from the pile a card it threw this hand: without that, two
simple players can pass the same cards to and fro forever, the stock never shrinking (deal 416,670
of seed 5 did: three fives went round and round).

It is a compiled policy (``sim.ginrummy.policies.simple``): the face-up card is tested against
the hand's ``meld_outs`` (``sim.ginrummy.policies.masks``) and the throw is
``sim.ginrummy.melds.hand_best_discard`` of the legal discards."""

from __future__ import annotations

import numpy as np

from sim.api import CompiledPolicy
from sim.ginrummy.observation import Observation, choose_compiled, compiled_policy
from sim.ginrummy.policies.simple import simple
from strategies import register


@register("ginrummy", "simple")
class Simple:
    """Baseline: take the face-up card only into a meld (never one it threw), throw for the least
    deadwood, knock at once."""

    compiled: CompiledPolicy = compiled_policy(simple)

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch."""
        return choose_compiled(self.compiled, observation)
