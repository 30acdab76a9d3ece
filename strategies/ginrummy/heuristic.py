"""A stronger Gin Rummy player: least deadwood first, then safety and flexibility, and a knock
that waits for a better hand only while the stock is deep.

- Draw: take the face-up card when it joins a meld, or when it cuts the deadwood by at least
  ``take_gain`` points (it is not thrown back this turn).
- Throw: the card leaving the least deadwood; close calls (within ``slack`` points) go to the card
  that feeds the opponent least — one of a rank or suit stretch the opponent has been picking up
  is dangerous, one the opponent threw a neighbour of is safer — and keeps the most live cards
  (unseen cards that would pair with what stays).
- Knock: as soon as allowed, except while the stock is deeper than ``patience`` cards and the
  deadwood is over ``early_knock``: then keep building toward a low knock or gin.
"""

from __future__ import annotations

import numpy as np

from sim.cards import ALL_CARDS_MASK, cards_in
from sim.ginrummy import rules
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, Observation, Phase, knock
from strategies import register


def outs(hand: int, unseen: int) -> int:
    """How many unseen cards would join a meld with the hand: its chances to improve."""
    return sum(rules.makes_meld(hand, card) for card in cards_in(unseen))


def feeds(card: int, opponent_took: int) -> bool:
    """Whether ``card`` completes a meld with cards the opponent is known to hold."""
    return opponent_took != 0 and rules.makes_meld(opponent_took, card)


class Heuristic:
    """Least deadwood, then safety and live cards; take the face-up card for melds or big gains; knock patiently early."""

    def __init__(
        self, take_gain: int = 6, slack: int = 3, patience: int = 99, early_knock: int = 6,
        out_weight: float = 1.0, feed_cost: int = 8,
    ) -> None:
        self.take_gain = take_gain
        self.out_weight = out_weight
        self.feed_cost = feed_cost
        self.slack = slack
        self.patience = patience
        self.early_knock = early_knock

    def draw(self, hand: int, top: int) -> int:
        if rules.makes_meld(hand, top):
            return DRAW_DISCARD
        with_top = hand | (1 << top)
        after = min(rules.deadwood(with_top & ~(1 << card)) for card in cards_in(hand))
        return DRAW_DISCARD if rules.deadwood(hand) - after >= self.take_gain else DRAW_STOCK

    def throw(self, observation: Observation, row: int) -> int:
        hand = int(observation.hand[row])
        took = int(observation.opponent_took[row])
        unseen = ALL_CARDS_MASK & ~hand & ~int(observation.discard_pile[row]) & ~took
        throwable = [int(a) for a in np.flatnonzero(observation.legal[row]) if a < KNOCK]
        left = {card: rules.deadwood(hand & ~(1 << card)) for card in throwable}
        least = min(left.values())
        close = [card for card in throwable if left[card] <= least + self.slack]
        return min(
            close,
            key=lambda c: (
                left[c] + self.feed_cost * feeds(c, took) - self.out_weight * outs(hand & ~(1 << c), unseen),
                -rules.card_value(c),
            ),
        )

    def action(self, observation: Observation, row: int) -> int:
        hand = int(observation.hand[row])
        if observation.phase[row] == Phase.DRAW:
            return self.draw(hand, int(observation.top_discard[row]))
        card = self.throw(observation, row)
        if not observation.legal[row, knock(card)]:
            return card
        deep = observation.stock_size[row] > self.patience
        return card if deep and rules.deadwood(hand & ~(1 << card)) > self.early_knock else knock(card)

    def choose(self, observation: Observation) -> np.ndarray:
        return np.array([self.action(observation, row) for row in range(len(observation))], dtype=np.int64)


register("ginrummy", "heuristic")(Heuristic)
