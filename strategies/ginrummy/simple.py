"""The usual Gin Rummy baseline: take the face-up card only if it makes a meld, throw the card that
leaves the least deadwood (of those leaving the same, the higher card, then the lower card id), knock
as soon as the rules allow.

Like the heuristic, it never takes back from the pile a card it threw this hand: without that, two
simple players can pass the same cards to and fro forever, the stock never shrinking (deal 416,670
of seed 5 did: three fives went round and round).

The whole batch is decided at once: the face-up card is tested against the hand's ``meld_outs``
(``strategies.ginrummy.batch``) and the throw is ``sim.ginrummy.melds.best_discards`` of the legal
discards."""

from __future__ import annotations

import numpy as np

from sim.ginrummy import melds
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, Observation
from strategies import register
from strategies.ginrummy.batch import by_phase, legal_cards, meld_outs


def draws(hand: np.ndarray, top_discard: np.ndarray, threw: np.ndarray) -> np.ndarray:
    """``DRAW_DISCARD`` where the face-up card would sit in a meld with the hand and the seat did not
    throw it, else ``DRAW_STOCK``."""
    top = np.asarray(top_discard, dtype=np.int64)
    joins = ((meld_outs(hand) & ~threw) >> np.maximum(top, 0)) & (top >= 0)  # no face-up card: the stock
    return DRAW_STOCK + (DRAW_DISCARD - DRAW_STOCK) * joins


def discards(hand: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The legal discard leaving the least deadwood, knocking with it when that is legal."""
    cards = melds.best_discards(hand, legal_cards(legal))[0]
    knocks = legal[np.arange(len(cards)), KNOCK + cards]
    return cards + KNOCK * knocks


@register("ginrummy", "simple")
class Simple:
    """Baseline: take the face-up card only into a meld (never one it threw), throw for the least
    deadwood, knock at once."""

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch."""
        return by_phase(
            observation,
            lambda o: draws(o.hand, o.top_discard, o.threw),
            lambda o: discards(o.hand, o.legal),
        )
