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

The policy is compiled (``heuristic``): the deadwood after each throw is
``sim.ginrummy.melds.hand_deadwood`` of the hand less that card (for a draw, of the hand with the
face-up card), and the outs and dangers of a throw are shifts and masks of int64 card masks
(``sim.ginrummy.policies.masks``). A throw's score is added up as the per-row player this replaced
added it (the same float operations in the same order), so that the same throws tie and the same
tie-break settles them.
"""

from __future__ import annotations

import numpy as np

from sim import jit
from sim.cards import ALL_CARDS_MASK, count_cards
from sim.ginrummy import rules
from sim.ginrummy.melds import hand_deadwood, runs_only_deadwood, throw_deadwood
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, POLICY, Phase
from sim.ginrummy.policies.masks import CARD_VALUES, THROW_ORDER, meld_outs, near

_DRAW = int(Phase.DRAW)


@jit.njit(cache=True, nogil=True)
def draw(hand: int, top_discard: int, threw: int, take_gain: float) -> int:
    """Take the face-up card when the best throw after it leaves ``take_gain`` less deadwood than
    the hand has, unless the seat threw it."""
    if top_discard < 0 or threw >> top_discard & 1:
        return DRAW_STOCK
    with_top = hand | (1 << top_discard)
    # A face-up card in no meld with the hand stays deadwood whatever is thrown, so throwing card x
    # gains at most x's value less the face-up card's: throws that cannot gain enough go untried.
    joins = meld_outs(hand) >> top_discard & 1
    before = hand_deadwood(hand)
    runs_deadwood = runs_only_deadwood(with_top)
    throws = hand  # the face-up card is not thrown back
    while throws:
        bit = throws & -throws
        throws ^= bit
        if not joins and CARD_VALUES[count_cards(bit - 1)] - CARD_VALUES[top_discard] < take_gain:
            continue
        if before - throw_deadwood(with_top, bit, runs_deadwood) >= take_gain:
            return DRAW_DISCARD
    return DRAW_STOCK


@jit.njit(cache=True, nogil=True)
def should_knock(left: int, stock: int, gin_hold: float, patience: float, early_knock: float, late: float) -> bool:
    """Whether to knock with ``left`` deadwood after the throw and ``stock`` cards in the stock."""
    if left == 0:
        return True
    holds_for_gin = left <= gin_hold and stock > patience
    holds_for_less = left > early_knock and stock > late
    return left <= rules.KNOCK_LIMIT and not holds_for_gin and not holds_for_less


@jit.njit(cache=True, nogil=True)
def danger(
    card: int, feeding: int, close: int, safe: int, feed_cost: float, near_cost: float, safe_bonus: float
) -> float:
    """How likely ``card`` helps the opponent: ``feed_cost`` if it would join a meld with cards the
    opponent took (``feeding``), else ``near_cost`` if it is near one of them (``close``), nothing
    otherwise; less ``safe_bonus`` if it is near a card the opponent threw (``safe``)."""
    cost = 0.0
    if feeding >> card & 1:
        cost = feed_cost
    elif close >> card & 1:
        cost = near_cost
    return cost - (safe_bonus if safe >> card & 1 else 0.0)


@jit.njit(POLICY.signature, cache=True, nogil=True)
def heuristic(
    phase, hand, top_discard, discard_pile, took, opponent_took, threw, opponent_threw, taken, stock_size, settings
):  # fmt: skip
    """Draw: ``draw``. Discard: knock with the throw leaving the least deadwood when ``should_knock``
    says so, else throw the card of the lowest ``deadwood left - out_weight * outs + danger``;
    ``settings`` are ``Heuristic``'s in its order."""
    take_gain, out_weight, feed_cost, near_cost, safe_bonus, gin_hold, patience, early_knock, late = settings[:9]
    if phase == _DRAW:
        return draw(hand, top_discard, threw, take_gain)
    unseen = ALL_CARDS_MASK & ~hand & ~discard_pile & ~opponent_took
    feeding, close, safe = meld_outs(opponent_took), near(opponent_took, 2), near(opponent_threw, 1)
    best, best_left = -1, 0
    throw, throw_score = -1, 0.0
    runs_deadwood = runs_only_deadwood(hand)
    throws = hand & ~(np.int64(1) << taken) if taken >= 0 else hand
    while throws:
        bit = throws & -throws
        throws ^= bit
        card = count_cards(bit - 1)
        left = throw_deadwood(hand, bit, runs_deadwood)
        if best < 0 or left < best_left or (left == best_left and THROW_ORDER[card] < THROW_ORDER[best]):
            best, best_left = card, left
        outs = count_cards(meld_outs(hand ^ bit) & unseen)
        score = left - out_weight * outs + danger(card, feeding, close, safe, feed_cost, near_cost, safe_bonus)
        if throw < 0 or score < throw_score or (score == throw_score and THROW_ORDER[card] < THROW_ORDER[throw]):
            throw, throw_score = card, score
    # The knock is legal as the least deadwood is within the limit; whether to knock is should_knock's.
    if best_left <= rules.KNOCK_LIMIT and should_knock(best_left, stock_size, gin_hold, patience, early_knock, late):
        return KNOCK + best
    return throw
