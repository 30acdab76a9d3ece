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

from sim import jit
from sim.cards import NUM_CARDS, NUM_RANKS, count_cards, lowest_bit, make_card
from sim.straights import rules
from sim.straights.observation import POLICY


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
SUIT_OF = (np.arange(NUM_CARDS) // NUM_RANKS).astype(np.int8)
CARD_POINTS = np.array([rules.card_points(card) for card in range(NUM_CARDS)], dtype=np.int16)
HAND = rules.HAND_SIZE
# Per 13-bit suit slice: the points of its cards (ace 1 .. king 13).
SLICE_POINTS = (
    ((np.arange(1 << NUM_RANKS)[:, None] >> np.arange(NUM_RANKS)) & 1) @ np.arange(1, NUM_RANKS + 1)
).astype(np.int16)


@jit.njit(inline="always")
def cards_held(hands, hand, held):
    """The card mask of the positions ``held`` of ``hands[hand]``."""
    cards = np.int64(0)
    while held:  # over the set bits only: a hand holds 13 cards at most, 6.5 on average
        cards |= np.int64(1) << hands[hand, lowest_bit(held)]
        held &= held - 1
    return cards


@jit.njit(cache=True, nogil=True)
def heuristic_position(hands, hand, held_cards, legal, options, table, settings):
    """The position of the option scoring best: a play by what it opens (``settings``: own_open,
    reach, gift), a discard by the points it costs and strands; the first in dealt order among equals.
    ``held_cards`` is the mover's hand as a card mask (the kernels keep it as they play)."""
    own_open, reach, gift = settings[0], settings[1], settings[2]
    best, best_score = -1, -np.inf
    rest = options
    while rest:
        position = lowest_bit(rest)
        rest &= rest - 1
        card = hands[hand, position]
        # A card strands only cards of its own suit: one slice of the mask holds them.
        stranded = SLICE_POINTS[((BEYOND[card] & held_cards) >> (NUM_RANKS * SUIT_OF[card])) & SUIT_BITS]
        if legal:
            opened = OPENED[card]
            score = (
                own_open * count_cards(opened & held_cards)
                + reach * stranded
                - gift * count_cards(opened & ~(held_cards | table))
            )
        else:
            score = float(-(CARD_POINTS[card] + stranded))
        if score > best_score:
            best, best_score = position, score
    return best


@jit.njit(POLICY.signature, cache=True, nogil=True)
def heuristic(hands, hand, held, legal, options, table, settings):
    """The card at ``heuristic_position``."""
    chosen = heuristic_position(hands, hand, cards_held(hands, hand, held), legal, options, table, settings)
    return hands[hand, chosen]
