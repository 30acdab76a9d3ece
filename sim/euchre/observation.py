"""What a Euchre player may see when it is to move, for a batch of hands at once.

The reference engine hands a strategy an ``Observation`` of one hand and expects one action back;
every field is a numpy array whose first axis is the hand. A player sees its own cards, the upcard,
the bidding, the cards played, the tricks each team has taken and the game scores, and, as dealer,
the card it threw away. It never sees another player's cards or the three undealt cards.

Actions are ints: a card id (``sim.cards``) plays a card or, for the dealer after picking up,
throws it away; ``ORDER_UP + suit`` orders up that suit; ``PASS`` passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from sim.api import ArrayRecord, UnknownAction
from sim.cards import SUIT_NAMES, CardError, bits_to_bools, card_name, parse_card
from sim.numbers import shown

ORDER_UP = 52
PASS = ORDER_UP + 4
NUM_ACTIONS = PASS + 1  # the size of the action space, for masks and policy arrays
NONE = -1  # an empty slot: no trump yet, no card played yet, no bid yet


class Phase(IntEnum):
    """The stages of a hand, in order."""

    MAKING = 0  # players pass or order up, in round one or two
    DISCARD = 1  # the dealer has picked up the upcard and throws one card away
    PLAYING = 2  # five tricks
    OVER = 3


def action_name(action: int) -> str:
    """A card's short name (``JH``: play it, or throw it away as dealer), ``order up Hearts`` or ``pass``."""
    if action == PASS:
        return "pass"
    suit = ordered_suit(action)
    return f"order up {SUIT_NAMES[suit]}" if suit is not None else card_name(action)


def parse_action(text: str) -> int:
    """The action ``action_name`` gives ``text`` for; ``UnknownAction`` if none."""
    words = text.strip()
    if words.lower() == "pass":
        return PASS
    if words.lower().startswith("order up "):
        suit = words[len("order up ") :].strip().capitalize()
        if suit in SUIT_NAMES:
            return order_up(SUIT_NAMES.index(suit))
    try:
        return parse_card(words)
    except CardError:
        raise UnknownAction(f"{shown(text)} is not a Euchre action (a card such as JH, order up SUIT, pass)") from None


def order_up(suit: int) -> int:
    """The action that orders up ``suit``."""
    return ORDER_UP + suit


def ordered_suit(action: int) -> int | None:
    """The suit an action orders up, or None when it is not an order-up."""
    return action - ORDER_UP if ORDER_UP <= action < PASS else None


@dataclass(frozen=True)
class Observation(ArrayRecord):
    """One seat's view of ``n`` hands in which it is to move; arrays have ``n`` rows."""

    seat: np.ndarray  # (n,) the seat to move
    dealer: np.ndarray  # (n,)
    phase: np.ndarray  # (n,) a ``Phase``
    making_round: np.ndarray  # (n,) 1 or 2 while making, then the round trump was made in
    legal: np.ndarray  # (n,) int64 bitmask over actions: bit a set when action a is legal
    hand: np.ndarray  # (n,) int64 card bitmask of the cards held (the dealer's includes a picked-up upcard)
    upcard: np.ndarray  # (n,)
    bids: np.ndarray  # (n, 8) the making actions in order from the eldest hand, ``NONE`` after the last
    trump: np.ndarray  # (n,) the trump suit or ``NONE``
    maker: np.ndarray  # (n,) the seat that ordered up or ``NONE``
    discard: np.ndarray  # (n,) the card this seat threw away as dealer, else ``NONE``
    leader: np.ndarray  # (n,) who leads the current trick
    trick: np.ndarray  # (n, 4) the current trick's cards from the leader, ``NONE`` after the last
    history: np.ndarray  # (n, 20) every card played this hand, in order, ``NONE`` after the last
    tricks_won: np.ndarray  # (n, 2) tricks taken by team 0 (seats 0, 2) and team 1 (seats 1, 3)
    scores: np.ndarray  # (n, 2) game points of each team before this hand
    round_id: np.ndarray  # (n,) int64 the hand's id (sim.api.round_id), for strategies that seed per decision

    @property
    def legal_mask(self) -> np.ndarray:
        """(n, NUM_ACTIONS) bool, True where the action is legal (``sim.api``'s convention; ``legal``
        holds the same as bits, which this game's strategies read)."""
        return bits_to_bools(self.legal, NUM_ACTIONS)
