"""The usual Gin Rummy baseline: take the face-up card only if it makes a meld, throw the card that
leaves the least deadwood (of those leaving the same, the higher card, then the lower card id), knock
as soon as the rules allow.

Like the heuristic, it never takes back from the pile a card it threw this hand: without that, two
simple players can pass the same cards to and fro forever, the stock never shrinking (deal 416,670
of seed 5 did: three fives went round and round).

It is a compiled policy (``simple``): the face-up card is tested against the hand's ``meld_outs``
(``strategies.ginrummy.batch``) and the throw is ``sim.ginrummy.melds.hand_best_discard`` of the
legal discards."""

from __future__ import annotations

import numpy as np

from sim import jit
from sim.api import CompiledPolicy
from sim.ginrummy import rules
from sim.ginrummy.melds import hand_best_discard
from sim.ginrummy.observation import (
    DRAW_DISCARD,
    DRAW_STOCK,
    KNOCK,
    POLICY,
    Observation,
    Phase,
    choose_compiled,
    compiled_policy,
)
from strategies import register
from strategies.ginrummy.batch import meld_outs

_DRAW = int(Phase.DRAW)


@jit.njit(POLICY.signature, cache=True, nogil=True)
def simple(
    phase, hand, top_discard, discard_pile, took, opponent_took, threw, opponent_threw, taken, stock_size, settings
):  # fmt: skip
    """Draw: ``DRAW_DISCARD`` where the face-up card would sit in a meld with the hand and the seat
    did not throw it. Discard: the legal throw leaving the least deadwood, knocking with it when
    that is legal."""
    if phase == _DRAW:
        joins = top_discard >= 0 and (meld_outs(hand) & ~threw) >> top_discard & 1
        return DRAW_DISCARD if joins else DRAW_STOCK
    allowed = ~(np.int64(1) << taken) if taken >= 0 else np.int64(-1)
    card, left = hand_best_discard(hand, allowed)
    return card + KNOCK if left <= rules.KNOCK_LIMIT else card


@register("ginrummy", "simple")
class Simple:
    """Baseline: take the face-up card only into a meld (never one it threw), throw for the least
    deadwood, knock at once."""

    compiled: CompiledPolicy = compiled_policy(simple)

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch."""
        return choose_compiled(self.compiled, observation)
