"""The usual Gin Rummy baseline: take the face-up card only if it makes a meld, throw the card that
leaves the least deadwood (of those leaving the same, the higher card, then the lower card id), knock
as soon as the rules allow.

The whole batch is decided at once: the face-up card is tested against the hand's ``meld_outs``
(``strategies.ginrummy.batch``) and the throw is ``sim.ginrummy.fast.best_discards`` of the legal
discards."""

from __future__ import annotations

import numpy as np

from sim.ginrummy import fast, rules
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, Observation
from strategies import register
from strategies.ginrummy.batch import by_phase, legal_cards, meld_outs


def throw_key(hand: int, card: int) -> tuple[int, int]:
    """The order of one hand's throws, lowest first: least deadwood left, then the higher card (it
    costs more if it stays); the lower card id breaks what ties remain."""
    return rules.deadwood(hand & ~(1 << card)), -rules.card_value(card)


def draws(hand: np.ndarray, top_discard: np.ndarray) -> np.ndarray:
    """``DRAW_DISCARD`` where the face-up card would sit in a meld with the hand, else ``DRAW_STOCK``."""
    top = np.asarray(top_discard, dtype=np.int64)
    joins = (meld_outs(hand) >> np.maximum(top, 0)) & (top >= 0)  # no face-up card: the stock
    return DRAW_STOCK + (DRAW_DISCARD - DRAW_STOCK) * joins


def discards(hand: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The legal discard leaving the least deadwood, knocking with it when that is legal."""
    cards = fast.best_discards(hand, legal_cards(legal))[0]
    knocks = legal[np.arange(len(cards)), KNOCK + cards]
    return cards + KNOCK * knocks


@register("ginrummy", "simple")
class Simple:
    """Baseline: take the face-up card only into a meld, throw for the least deadwood, knock at once."""

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch."""
        return by_phase(
            observation,
            lambda o: draws(o.hand, o.top_discard),
            lambda o: discards(o.hand, o.legal),
        )
