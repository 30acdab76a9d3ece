"""Straights rules as pure functions over card ids and card bitmasks (see ``sim.cards``).

The table is one 52-bit mask of the cards played. Because every pile grows outwards from its 7
without gaps, a card is playable exactly when it is a 7 (once the 7 of spades is down) or when a
neighbour of the same suit is already on the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from sim.cards import ALL_CARDS_MASK, NUM_CARDS, NUM_RANKS, NUM_SUITS, make_card, mask_of, rank_of

NUM_PLAYERS = 4
HAND_SIZE = NUM_CARDS // NUM_PLAYERS
ROUND_LENGTH = NUM_CARDS  # every action plays or discards exactly one card
GAME_OVER_SCORE = 80
SEVEN = 6  # rank index of the 7s
SEVEN_OF_SPADES = make_card(SEVEN, 3)
SEVENS_MASK = mask_of(make_card(SEVEN, suit) for suit in range(NUM_SUITS))
ACES_MASK = mask_of(make_card(0, suit) for suit in range(NUM_SUITS))
KINGS_MASK = mask_of(make_card(NUM_RANKS - 1, suit) for suit in range(NUM_SUITS))
TableMask = int | np.ndarray


def card_points(card: int) -> int:
    """Points a discarded card costs: its rank, ace 1 up to king 13."""
    return rank_of(card) + 1


def discard_points(discards: Iterable[int]) -> int:
    """A round's score for a player who discarded these cards."""
    return sum(card_points(card) for card in discards)


def playable_mask(table: TableMask) -> TableMask:
    """The cards the table accepts now (only the 7 of spades on an empty table).

    Works on one int mask or elementwise on an int64 numpy array of masks.
    """
    # A king's successor would wrap onto the next suit's ace (or off the deck), an ace's predecessor
    # onto the previous suit's king.
    one_up = (table << 1) & ~ACES_MASK & ALL_CARDS_MASK
    one_down = (table >> 1) & ~KINGS_MASK
    playable = (SEVENS_MASK | one_up | one_down) & ~table
    if isinstance(table, np.ndarray):
        return np.where(table == 0, np.int64(1 << SEVEN_OF_SPADES), playable)
    return playable if table else 1 << SEVEN_OF_SPADES


def legal_plays(hand: Sequence[int], table: int) -> tuple[int, ...]:
    """The cards of ``hand`` that may be played on ``table``, in hand order."""
    playable = playable_mask(table)
    return tuple(card for card in hand if playable >> card & 1)


def legal_actions(hand: Sequence[int], table: int) -> tuple[int, ...]:
    """What the holder of ``hand`` may do: play a legal card, or, only when none is legal, discard any card."""
    return legal_plays(hand, table) or tuple(hand)


def leader(hands: Sequence[Sequence[int]]) -> int:
    """The seat holding the 7 of spades, who starts the round."""
    return next(seat for seat, hand in enumerate(hands) if SEVEN_OF_SPADES in hand)


def deal(deck: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Hands dealt from a 52-card deck: the first 13 cards to seat 0, the next 13 to seat 1, and so on."""
    return tuple(tuple(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(NUM_PLAYERS))


def is_game_over(scores: Sequence[int]) -> bool:
    """True once any player has reached 80 points."""
    return max(scores) >= GAME_OVER_SCORE


def winners(scores: Sequence[int]) -> tuple[int, ...]:
    """The seats with the lowest score (several when tied), in seat order."""
    best = min(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)
