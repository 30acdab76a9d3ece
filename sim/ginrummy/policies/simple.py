"""The usual Gin Rummy baseline as a compiled policy (its reasons: ``strategies.ginrummy.simple``):
take the face-up card only into a meld, never one it threw; throw for the least deadwood; knock at once."""

from __future__ import annotations

import numpy as np

from sim import jit
from sim.ginrummy import rules
from sim.ginrummy.melds import hand_best_discard
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, POLICY, Phase
from sim.ginrummy.policies.masks import meld_outs

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
