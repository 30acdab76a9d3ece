"""What the batched Gin Rummy strategies share: the cards that would join a meld with a hand, the
cards near others, the legal discards as card masks and as rows of card ids, the throw a score picks
with the strategies' tie-break, and handing each phase its rows.

Hands are int64 card masks (``sim.cards``: bit ``suit * 13 + rank``), so a card's neighbours in its
suit are the bits one and two places away and the cards of its rank are 13 places apart: whole
batches of masks are shifted and rotated at once. What is decided card by card (a throw's score)
is laid out as (n, k) arrays beside ``cards_of``'s card ids, k being at most the 11 cards of a hand.
The least deadwood comes from ``sim.ginrummy.melds``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sim.cards import ALL_CARDS_MASK, NUM_CARDS, NUM_RANKS, NUM_SUITS, bools_to_bits
from sim.ginrummy import rules
from sim.ginrummy.melds import LOWERED_ONE_RANK, RAISED_ONE_RANK, RANK_ACROSS_SUITS, without_ranks
from sim.ginrummy.observation import Observation, Phase

_SUIT = (1 << NUM_RANKS) - 1
# A card mask shifted up (down) by one or two ranks, less the cards that crossed into the next suit.
_UP1, _UP2 = RAISED_ONE_RANK, without_ranks(0, 1)
_DOWN1, _DOWN2 = LOWERED_ONE_RANK, without_ranks(NUM_RANKS - 2, NUM_RANKS - 1)
_DRAW = int(Phase.DRAW)  # numpy compares arrays with a plain int many times faster than with an IntEnum

_VALUES = np.array([rules.card_value(card) for card in range(NUM_CARDS)])
THROW_ORDER = (_VALUES.max() - _VALUES) * 64 + np.arange(NUM_CARDS)
"""[card] the order of the throws a strategy scores alike: the higher card value first (it costs
more if it stays), then the lower card id."""


def meld_outs(hands: np.ndarray) -> np.ndarray:
    """The card mask (int64, shaped as ``hands``) of the cards not held that would sit in a meld with
    each hand's cards: two of its rank held, or two held next to it in a run."""
    hands = np.asarray(hands, dtype=np.int64)
    below1, below2 = (hands << 1) & _UP1, (hands << 2) & _UP2  # card x with x-1 / x-2 held
    above1, above2 = (hands >> 1) & _DOWN1, (hands >> 2) & _DOWN2  # card x with x+1 / x+2 held
    outs = (below1 & below2) | (below1 & above1) | (above1 & above2)
    clubs, diamonds, hearts, spades = ((hands >> (suit * NUM_RANKS)) & _SUIT for suit in range(NUM_SUITS))
    pairs = (clubs & (diamonds | hearts | spades)) | (diamonds & (hearts | spades)) | (hearts & spades)
    outs |= pairs * RANK_ACROSS_SUITS
    return outs & ~hands


def near(cards: np.ndarray, span: int) -> np.ndarray:
    """The card mask (int64) of the cards of the same rank as one of ``cards``, or of the same suit
    within ``span`` ranks of one, each card itself left out unless another brings it in."""
    cards = np.asarray(cards, dtype=np.int64)
    result = np.zeros_like(cards)
    for step in range(1, NUM_SUITS):  # the other suits' cards of each rank: the mask rotated by whole suits
        shift = step * NUM_RANKS
        result |= ((cards << shift) | (cards >> (NUM_CARDS - shift))) & ALL_CARDS_MASK
    for distance in range(1, span + 1):
        kept = without_ranks(*range(distance))  # shifted up: no card lands on the lowest ranks of a suit
        result |= ((cards << distance) & kept) | ((cards >> distance) & (kept >> distance))
    return result


def legal_cards(legal: np.ndarray) -> np.ndarray:
    """(n,) int64: the card mask of the legal discards of each row of a (n, NUM_ACTIONS) legal mask."""
    return bools_to_bits(legal[:, :NUM_CARDS])


def cards_of(masks: np.ndarray) -> np.ndarray:
    """(n, k) int64: the card ids of each of the (n,) card ``masks``, lowest first, then -1 to fill
    the row (``k`` is the most cards a mask holds)."""
    rest = np.array(masks, dtype=np.int64)
    bits = np.empty((len(rest), int(np.bitwise_count(rest).max(initial=0))), dtype=np.int64)
    for column in range(bits.shape[1]):
        np.bitwise_and(rest, -rest, out=bits[:, column])  # the lowest card left, 0 once none is
        rest ^= bits[:, column]
    return (np.frexp(bits.astype(np.float64))[1] - 1).astype(np.int64)  # each bit's index: exact, bits < 2**52


def lowest_throw(scores: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """(n,) int64: the card with the lowest score in each row of ``cards`` (of ``cards_of``; (n, k),
    ``scores`` beside them), of those scoring alike the first in ``THROW_ORDER``. The -1 that fill a
    row must score above every card."""
    tied = scores == scores.min(axis=1, keepdims=True)
    column = np.where(tied, THROW_ORDER.take(cards), np.iinfo(np.int64).max).argmin(axis=1)
    return cards[np.arange(len(cards)), column]


def has_card(masks: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """(n, k) bool: whether each of the (n,) card ``masks`` holds each card of its row of ``cards``
    ((n, k) card ids, -1 for none)."""
    return (np.asarray(masks, dtype=np.int64)[:, None] >> np.maximum(cards, 0)) & (cards >= 0) == 1


Decision = Callable[[Observation], np.ndarray]
"""The actions (one a row) of some rows of a batch, all in one phase."""


def by_phase(observation: Observation, draw: Decision, discard: Decision) -> np.ndarray:
    """(n,) int64 actions: ``draw`` decides the rows about to draw, ``discard`` the others. A batch
    all in one phase (as the fast engine's are) goes whole to its decision, no row gathered."""
    drawing = observation.phase == _DRAW
    if drawing.all():
        return np.asarray(draw(observation), dtype=np.int64)
    if not drawing.any():
        return np.asarray(discard(observation), dtype=np.int64)
    actions = np.empty(len(observation), dtype=np.int64)
    for decision, rows in ((draw, np.flatnonzero(drawing)), (discard, np.flatnonzero(~drawing))):
        actions[rows] = decision(observation.take(rows))
    return actions
