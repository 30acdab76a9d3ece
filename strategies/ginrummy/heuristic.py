"""A stronger Gin Rummy player: least deadwood first, then live cards and safety, and a knock that
holds for gin only while the hand is nearly there and the stock is deep.

- Draw: take the face-up card when, after the best throw, it cuts the least deadwood by at least
  ``take_gain`` points (a card that joins a meld usually does).
- Throw: the card minimising ``deadwood left - out_weight * outs + danger``, where outs are the unseen
  cards (not in the hand, the discard pile or known to be the opponent's) that would join a meld
  with the ten cards kept, and danger counts what is known of the opponent's hand: a card that would
  join a meld with cards it took from the pile costs ``feed_cost``, else one of their rank or within
  two of one in its suit ``near_cost``; a card of a rank it threw, or next to a card it threw, gains
  ``safe_bonus``. Equal scores go to the higher card, then the lower card id.
- Knock: gin always; otherwise when the deadwood is at most 10, except while the deadwood is at most
  ``gin_hold`` and more than ``patience`` cards are left in the stock (then wait for gin), or while
  the deadwood is over ``early_knock`` and the stock is still deeper than ``late``: late in the
  hand it knocks at once. It knocks with the throw leaving the least deadwood (the higher card, then
  the lower card id, on ties).

Only the seat's own observations are read (never the opponent's hand). It never takes back from the
pile a card it threw this hand (``Observation.threw``): without that, two players taking each other's
throws can circle forever without the stock shrinking. It keeps no state: the same observation
always gets the same choice.

The whole batch is decided at once, with no loop over its rows: the deadwood after each throw is
``sim.ginrummy.melds``' ``discard_deadwoods`` (for a draw, of the hand with the face-up card), and
the outs and dangers of every legal throw of every row, side by side in an (n, 11) array, are shifts
and masks of int64 card masks (``strategies.ginrummy.batch``). A throw's score is added up as the
per-row player this replaced added it (the same float operations in the same order), so that the
same throws tie and the same tie-break settles them.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

from sim.cards import ALL_CARDS_MASK
from sim.ginrummy import melds, rules
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, Observation
from strategies import Between, register
from strategies.ginrummy.batch import by_phase, cards_of, has_card, legal_cards, lowest_throw, meld_outs, near

# Far beyond any weight worth trying; larger ones overflow the throws' scores to infinities, whose
# differences (inf - inf) are nan, and argmin over nan picks no card at all.
MAX_WEIGHT = 1e6
Weight = Annotated[float, Between(-MAX_WEIGHT, MAX_WEIGHT)]


def outs(hands: np.ndarray, unseen: np.ndarray) -> np.ndarray:
    """How many ``unseen`` cards would join a meld with each hand: its chances to improve."""
    return np.bitwise_count(meld_outs(hands) & unseen).astype(np.int64)  # times any weight, as Python's ints


class Heuristic:
    """Least deadwood with live cards and safety; take the face-up card when it helps; knock by the stock left."""

    def __init__(
        self,
        take_gain: int = 4,
        out_weight: Weight = 0.75,
        feed_cost: Weight = 6.0,
        near_cost: Weight = 1.5,
        safe_bonus: Weight = 0.0,
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

    def danger(self, cards: np.ndarray, took: np.ndarray, threw: np.ndarray) -> np.ndarray:
        """(n, k) how likely each of ``cards`` ((n, k) card ids) helps the opponent, from the cards it
        took and threw."""
        feeding, close, safe = (has_card(mask, cards) for mask in (meld_outs(took), near(took, 2), near(threw, 1)))
        # As the scalar player added them up: nothing or one of the two costs, less the bonus.
        cost = np.where(feeding, self.feed_cost, np.where(close, self.near_cost, 0.0))
        return cost - np.where(safe, self.safe_bonus, 0.0)

    def throw_scores(
        self,
        hand: np.ndarray,
        cards: np.ndarray,
        left: np.ndarray,
        unseen: np.ndarray,
        took: np.ndarray,
        threw: np.ndarray,
    ) -> np.ndarray:
        """(n, k) ``deadwood left - out_weight * outs + danger`` of throwing each of ``cards`` ((n, k)
        card ids, ``left`` the deadwood each leaves), in that order, so that scores equal for the scalar
        player are equal here."""
        kept = hand[:, None] & ~(np.int64(1) << np.maximum(cards, 0))
        return left - self.out_weight * outs(kept, unseen[:, None]) + self.danger(cards, took, threw)

    def should_knock(self, left_deadwood: np.ndarray, stock: np.ndarray) -> np.ndarray:
        """Whether to knock with ``left_deadwood`` after the throw and ``stock`` cards in the stock."""
        holds_for_gin = (left_deadwood <= self.gin_hold) & (stock > self.patience)
        holds_for_less = (left_deadwood > self.early_knock) & (stock > self.late)
        return (left_deadwood == 0) | ((left_deadwood <= rules.KNOCK_LIMIT) & ~holds_for_gin & ~holds_for_less)

    # ------------------------------------------------------------------ decisions

    def draw(self, hand: np.ndarray, top_discard: np.ndarray, thrown: np.ndarray) -> np.ndarray:
        """Take the face-up card when the best throw after it leaves ``take_gain`` less deadwood than
        the hand has, unless the seat threw it."""
        top = np.asarray(top_discard, dtype=np.int64)
        face_up = top >= 0
        top = np.maximum(top, 0)
        bit = (np.int64(1) << top) * face_up
        # The hand with the face-up card, less each card: less the face-up card, it is the hand.
        left = melds.discard_deadwoods(hand | bit)
        rows = np.arange(len(top))
        before = left[rows, top]
        left[rows, top] = melds.NOT_HELD  # the face-up card is not thrown back
        takes = face_up & (thrown & bit == 0) & (before - left.min(axis=1) >= self.take_gain)
        return DRAW_STOCK + (DRAW_DISCARD - DRAW_STOCK) * takes

    def discard(self, observation: Observation) -> np.ndarray:
        """Knock with the throw leaving the least deadwood when ``should_knock`` says so, else throw
        the card of the lowest ``throw_scores``."""
        o = observation
        hand, took = o.hand, o.opponent_took
        cards = cards_of(legal_cards(o.legal))  # (n, k) the legal throws, -1 past a row's last
        throwable = cards >= 0
        rows = np.arange(len(cards))
        left = np.where(throwable, melds.discard_deadwoods(hand)[rows[:, None], cards], melds.NOT_HELD)
        best = lowest_throw(left, cards)
        # The least deadwood a throw leaves is that of ``best``.
        knocks = o.legal[rows, KNOCK + best] & self.should_knock(left.min(axis=1), o.stock_size)
        unseen = ALL_CARDS_MASK & ~hand & ~o.discard_pile & ~took
        scores = self.throw_scores(hand, cards, left, unseen, took, o.opponent_threw)
        throw = lowest_throw(np.where(throwable, scores, np.inf), cards)
        return throw + (KNOCK + best - throw) * knocks

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch."""
        return by_phase(observation, lambda o: self.draw(o.hand, o.top_discard, o.threw), self.discard)


register("ginrummy", "heuristic")(Heuristic)
