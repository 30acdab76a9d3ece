"""The usual Gin Rummy baseline: take the face-up card only if it makes a meld, throw the card that
leaves the least deadwood, knock as soon as the rules allow."""

from __future__ import annotations

import numpy as np

from sim.ginrummy import rules
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, Observation, Phase, knock
from strategies import register


def throw_key(hand: int, card: int) -> tuple[int, int]:
    """Least deadwood left first, then the higher card (it costs more if it stays)."""
    return rules.deadwood(hand & ~(1 << card)), -rules.card_value(card)


def simple_action(observation: Observation, row: int) -> int:
    """The simple player's action in hand ``row`` of the batch."""
    hand = int(observation.hand[row])
    if observation.phase[row] == Phase.DRAW:
        return DRAW_DISCARD if rules.makes_meld(hand, int(observation.top_discard[row])) else DRAW_STOCK
    legal = np.flatnonzero(observation.legal[row])
    throwable = [int(a) for a in legal if a < KNOCK]
    card = min(throwable, key=lambda c: throw_key(hand, c))
    return knock(card) if observation.legal[row, knock(card)] else card


@register("ginrummy", "simple")
class Simple:
    """Baseline: take the face-up card only into a meld, throw for the least deadwood, knock at once."""

    def choose(self, observation: Observation) -> np.ndarray:
        return np.array([simple_action(observation, row) for row in range(len(observation))], dtype=np.int64)
