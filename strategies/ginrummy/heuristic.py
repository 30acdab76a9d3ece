"""A stronger Gin Rummy player: least deadwood first, then live cards and safety, and a knock that
holds for gin only while the hand is nearly there and the stock is deep.

- Draw: take the face-up card when, after the best throw, it cuts the least deadwood by at least
  ``take_gain`` points (a card that joins a meld usually does).
- Throw: the card minimising ``deadwood left - out_weight * outs + danger``, where outs are the unseen
  cards (not in the hand, the discard pile or known to be the opponent's) that would join a meld
  with the ten cards kept, and danger counts what is known of the opponent's hand: a card of a rank
  it took from the pile, or within two of a card it took in the same suit, is dangerous; a card of
  a rank it threw, or next to a card it threw, is safer.
- Knock: gin always; otherwise when the deadwood is at most 10, except while the deadwood is at most
  ``gin_hold`` and more than ``patience`` cards are left in the stock (then wait for gin), or while
  the deadwood is over ``early_knock`` and the stock is still deeper than ``late``: late in the
  hand it knocks at once.

Only the seat's own observations are read (never the opponent's hand). It never takes back from the
pile a card it threw this hand (``Observation.threw``): without that, two players taking each other's
throws can circle forever without the stock shrinking. It keeps no state: the same observation
always gets the same choice.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

from sim.cards import ALL_CARDS_MASK, cards_in, rank_of, suit_of
from sim.ginrummy import rules
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, NONE, Observation, Phase, knock
from strategies import Between, register

NUM_RANKS, NUM_SUITS = 13, 4


def _ranks_mask(ranks: set[int]) -> int:
    return sum(1 << (suit * NUM_RANKS + rank) for suit in range(NUM_SUITS) for rank in ranks)


NOT_ACE, NOT_LOW2 = ALL_CARDS_MASK & ~_ranks_mask({0}), ALL_CARDS_MASK & ~_ranks_mask({0, 1})
NOT_KING, NOT_HIGH2 = ALL_CARDS_MASK & ~_ranks_mask({12}), ALL_CARDS_MASK & ~_ranks_mask({11, 12})
RANK_MASKS = tuple(_ranks_mask({rank}) for rank in range(NUM_RANKS))


def meld_outs(hand: int) -> int:
    """The mask of cards that would sit in a meld with ``hand`` (three of a rank, three in a row)."""
    below1, below2 = (hand << 1) & NOT_ACE, (hand << 2) & NOT_LOW2  # card x with x-1 / x-2 held
    above1, above2 = (hand >> 1) & NOT_KING, (hand >> 2) & NOT_HIGH2  # card x with x+1 / x+2 held
    outs = (below1 & below2) | (below1 & above1) | (above1 & above2)
    for rank_mask in RANK_MASKS:
        if (hand & rank_mask).bit_count() >= 2:
            outs |= rank_mask
    return outs & ~hand


def outs(hand: int, unseen: int) -> int:
    """How many unseen cards would join a meld with the hand: its chances to improve."""
    return (meld_outs(hand) & unseen).bit_count()


def feeds(card: int, opponent_took: int) -> bool:
    """Whether ``card`` completes a meld with cards the opponent is known to hold."""
    return bool(meld_outs(opponent_took) >> card & 1)


def _near(card: int, span: int) -> int:
    """Cards of the same rank, or of the same suit within ``span`` ranks, as ``card``."""
    rank, suit = rank_of(card), suit_of(card)
    near = RANK_MASKS[rank]
    for other in range(max(rank - span, 0), min(rank + span, NUM_RANKS - 1) + 1):
        near |= 1 << (suit * NUM_RANKS + other)
    return near & ~(1 << card)


NEAR2 = tuple(_near(card, 2) for card in range(52))
NEAR1 = tuple(_near(card, 1) for card in range(52))
SAME_RANK = tuple(RANK_MASKS[rank_of(card)] & ~(1 << card) for card in range(52))


class Heuristic:
    """Least deadwood with live cards and safety; take the face-up card when it helps; knock by the stock left."""

    def __init__(
        self,
        take_gain: int = 2,
        out_weight: float = 0.25,
        feed_cost: float = 6.0,
        near_cost: float = 1.5,
        safe_bonus: float = 1.5,
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

    # ------------------------------------------------------------------ pieces

    def danger(self, card: int, took: int, threw: int) -> float:
        """How likely ``card`` helps the opponent, from what it took and threw."""
        cost = 0.0
        if took:
            if feeds(card, took):
                cost += self.feed_cost
            elif NEAR2[card] & took:
                cost += self.near_cost
        if threw and (SAME_RANK[card] | NEAR1[card]) & threw:
            cost -= self.safe_bonus
        return cost

    def throw_score(self, hand: int, card: int, unseen: int, took: int, threw: int) -> tuple[float, int]:
        left = hand & ~(1 << card)
        score = rules.deadwood(left) - self.out_weight * outs(left, unseen) + self.danger(card, took, threw)
        return score, -rules.card_value(card)

    def should_knock(self, left_deadwood: int, stock: int) -> bool:
        if left_deadwood == 0:
            return True
        if left_deadwood > rules.KNOCK_LIMIT:
            return False
        if left_deadwood <= self.gin_hold and stock > self.patience:
            return False
        return not (left_deadwood > self.early_knock and stock > self.late)

    # ------------------------------------------------------------------ decisions

    def draw(self, hand: int, top: int, thrown: int) -> int:
        if top == NONE or thrown >> top & 1:
            return DRAW_STOCK
        with_top = hand | (1 << top)
        after = min(rules.deadwood(with_top & ~(1 << card)) for card in cards_in(hand))
        return DRAW_DISCARD if rules.deadwood(hand) - after >= self.take_gain else DRAW_STOCK

    def discard(self, observation: Observation, row: int) -> int:
        hand = int(observation.hand[row])
        took = int(observation.opponent_took[row])
        threw = int(observation.opponent_threw[row])
        unseen = ALL_CARDS_MASK & ~hand & ~int(observation.discard_pile[row]) & ~took
        legal = observation.legal[row]
        throwable = [int(a) for a in np.flatnonzero(legal[:KNOCK])]
        left = {card: rules.deadwood(hand & ~(1 << card)) for card in throwable}
        best = min(throwable, key=lambda c: (left[c], -rules.card_value(c)))
        if legal[knock(best)] and self.should_knock(left[best], int(observation.stock_size[row])):
            return knock(best)
        return min(throwable, key=lambda c: self.throw_score(hand, c, unseen, took, threw))

    def action(self, observation: Observation, row: int) -> int:
        if observation.phase[row] == Phase.DRAW:
            return self.draw(int(observation.hand[row]), int(observation.top_discard[row]), int(observation.threw[row]))
        return self.discard(observation, row)

    def choose(self, observation: Observation) -> np.ndarray:
        return np.array([self.action(observation, row) for row in range(len(observation))], dtype=np.int64)


register("ginrummy", "heuristic")(Heuristic)
