"""A rule-based Straights player built on what decides the game.

Two facts drive it. A card that is legal stays legal, and nobody may discard while holding a legal
play, so legal cards are never discarded: choosing among them is only about *timing*. And a player
discards exactly on the turns it has no legal play, so what costs points is running out of playable
cards. Hence:

* **Playing** scores each legal card by what it opens. Opening our own cards is good (they join our
  reserve of future plays; the far cards of a long run we hold, weighted by their points, need the
  run to move). Opening a card that is not ours is bad: it feeds an opponent's reserve instead of
  forcing them to discard. (Voids revealed by discards do not sharpen this: a discard proves its
  maker lacks the cards playable *then*, and a card a play opens was never playable before. They
  matter for sampling hidden hands, see ``mc``.)
* **Discarding** is priced at the card's points plus those of our cards it strands: a pile can never
  pass a discarded card, so our cards beyond it in the same direction can only be discarded later.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from sim.cards import NUM_CARDS, NUM_RANKS, NUM_SUITS, make_card
from sim.straights import rules
from sim.straights.observation import Observation, positions_to_cards
from strategies import register


def _mask(cards: Iterable[int]) -> int:
    return sum(1 << card for card in cards)


def _beyond(card: int) -> int:
    """The cards of ``card``'s suit that a pile reaches only through it (both sides for a 7)."""
    suit, rank = divmod(card, NUM_RANKS)
    ranks: Iterable[int]
    if rank < rules.SEVEN:
        ranks = range(rank)
    elif rank > rules.SEVEN:
        ranks = range(rank + 1, NUM_RANKS)
    else:
        ranks = (r for r in range(NUM_RANKS) if r != rank)
    return _mask(make_card(r, suit) for r in ranks)


def _opened(card: int) -> int:
    """The cards that playing ``card`` makes playable (its outward neighbours; all 7s after the 7S)."""
    suit, rank = divmod(card, NUM_RANKS)
    ranks = [
        r for r in (rank - 1, rank + 1) if 0 <= r < NUM_RANKS and (r <= rank <= rules.SEVEN or r >= rank >= rules.SEVEN)
    ]
    opened = _mask(make_card(r, suit) for r in ranks)
    if card == rules.SEVEN_OF_SPADES:
        opened |= rules.SEVENS_MASK & ~(1 << card)
    return opened


BEYOND = np.array([_beyond(card) for card in range(NUM_CARDS)], dtype=np.int64)
OPENED = np.array([_opened(card) for card in range(NUM_CARDS)], dtype=np.int64)
SUIT_BITS = (1 << NUM_RANKS) - 1
# Per 13-bit suit slice: how many cards, and their points (ace 1 .. king 13).
SLICE_COUNT = np.array([bin(m).count("1") for m in range(1 << NUM_RANKS)], dtype=np.int64)
SLICE_POINTS = np.array(
    [sum(r + 1 for r in range(NUM_RANKS) if m >> r & 1) for m in range(1 << NUM_RANKS)], dtype=np.int64
)


def mask_count(masks: np.ndarray) -> np.ndarray:
    """How many cards each card bitmask holds."""
    return sum(SLICE_COUNT[(masks >> (NUM_RANKS * suit)) & SUIT_BITS] for suit in range(NUM_SUITS))


def mask_points(masks: np.ndarray) -> np.ndarray:
    """The discard points of the cards in each card bitmask."""
    return sum(SLICE_POINTS[(masks >> (NUM_RANKS * suit)) & SUIT_BITS] for suit in range(NUM_SUITS))


@register("straights", "heuristic")
class Heuristic:
    """Rule-based: play what opens your own cards and not others', discard what strands least."""

    def __init__(self, own_open: float = 4.0, reach: float = 1.0, gift: float = 3.0) -> None:
        self.own_open = own_open
        self.reach = reach
        self.gift = gift

    def choose(self, observation: Observation) -> np.ndarray:
        hand = observation.hand.astype(np.int64)
        held_cards = positions_to_cards(hand, observation.held)
        must_discard = observation.legal == 0

        opened = OPENED[hand]
        beyond = BEYOND[hand]
        gifts = opened & ~(held_cards | observation.table)[:, None]
        play_score = (
            self.own_open * mask_count(opened & held_cards[:, None])
            + self.reach * mask_points(beyond & held_cards[:, None])
            - self.gift * mask_count(gifts)
        )
        discard_cost = mask_points(np.left_shift(np.int64(1), hand) | (beyond & held_cards[:, None]))

        score = np.where(must_discard[:, None], -discard_cost, play_score).astype(np.float64)
        allowed = (observation.options[:, None] >> np.arange(hand.shape[1])) & 1 == 1
        score[~allowed] = -np.inf
        return hand[np.arange(len(hand)), np.argmax(score, axis=1)]
