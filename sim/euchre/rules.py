"""EECS 280 Euchre rules as pure functions over card ids (``sim.cards``: ``suit * 13 + rank``).

Euchre uses the 24 cards nine to ace. Suits are indexes into ``sim.cards.SUITS`` ("CDHS"); seats
are 0..3, seat ``s``'s left neighbour is ``s + 1`` and partners sit opposite (teams 0&2 and 1&3).

Three orders compare cards (the spec's "Value of cards" and the official ``Card_less``):
- without trump: rank (9 < 10 < J < Q < K < A), ties broken by suit (S < H < C < D);
- with trump: every trump beats every non-trump; right bower > left bower > other trump by rank;
- with trump and a led suit: as with trump, but cards of the led suit beat the other non-trump.
Each order is a key function, so ``max``/``min``/``sorted`` do the comparing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from sim.cards import SUIT_NAMES, make_card, rank_of, suit_of

NUM_PLAYERS = 4
NUM_TEAMS = 2
HAND_SIZE = 5
TRICKS_PER_HAND = 5
PACK_SIZE = 24
UPCARD_POSITION = NUM_PLAYERS * HAND_SIZE  # the 21st card of the pack is turned up
DEFAULT_POINTS_TO_WIN = 10
IN_SHUFFLES_PER_HAND = 7

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
NINE, TEN, JACK, QUEEN, KING = 8, 9, 10, 11, 12
ACE = 0
EUCHRE_RANKS = (NINE, TEN, JACK, QUEEN, KING, ACE)  # low to high
SUITS_BY_WEIGHT = (SPADES, HEARTS, CLUBS, DIAMONDS)  # low to high, the spec's tie-break
RANK_NAMES = {NINE: "Nine", TEN: "Ten", JACK: "Jack", QUEEN: "Queen", KING: "King", ACE: "Ace"}
FACE_RANKS = frozenset({JACK, QUEEN, KING, ACE})  # the official is_face: J, Q, K and A

# The spec's "new pack" order (the official pack.in): spades nine to ace, then hearts, clubs, diamonds.
NEW_PACK = tuple(make_card(rank, suit) for suit in (SPADES, HEARTS, CLUBS, DIAMONDS) for rank in EUCHRE_RANKS)

_RANK_WEIGHT = {rank: weight for weight, rank in enumerate(EUCHRE_RANKS)}
_SUIT_WEIGHT = {suit: weight for weight, suit in enumerate(SUITS_BY_WEIGHT)}
# Sort keys are tuples (group, weight): groups keep trump above led suit above the rest.
_RIGHT_BOWER_WEIGHT = 100
_LEFT_BOWER_WEIGHT = 99


def card_long_name(card: int) -> str:
    """The spec's name of a card, e.g. ``"Jack of Diamonds"``."""
    return f"{RANK_NAMES[rank_of(card)]} of {SUIT_NAMES[suit_of(card)]}"


def parse_long_name(text: str) -> int:
    """The card named like ``"Nine of Spades"``; raises ``ValueError`` for anything else."""
    words = text.split()
    ranks = {name: rank for rank, name in RANK_NAMES.items()}
    if len(words) != 3 or words[1] != "of" or words[0] not in ranks or words[2] not in SUIT_NAMES:
        raise ValueError(f"not a Euchre card: {text.strip()!r} (expected e.g. 'Nine of Spades')")
    return make_card(ranks[words[0]], SUIT_NAMES.index(words[2]))


def next_suit(suit: int) -> int:
    """The other suit of the same colour: spades and clubs, hearts and diamonds."""
    return {CLUBS: SPADES, SPADES: CLUBS, HEARTS: DIAMONDS, DIAMONDS: HEARTS}[suit]


def cross_suits(suit: int) -> tuple[int, int]:
    """The two suits of the other colour."""
    first, second = (other for other in range(4) if other not in (suit, next_suit(suit)))
    return first, second


def is_right_bower(card: int, trump: int) -> bool:
    """The jack of trump, the highest card."""
    return card == make_card(JACK, trump)


def is_left_bower(card: int, trump: int) -> bool:
    """The jack of the next suit, which counts as a trump and is second highest."""
    return card == make_card(JACK, next_suit(trump))


def effective_suit(card: int, trump: int) -> int:
    """The suit a card counts as: its printed suit, except that the left bower is trump."""
    return trump if is_left_bower(card, trump) else suit_of(card)


def is_trump(card: int, trump: int) -> bool:
    """A card of the trump suit or the left bower."""
    return effective_suit(card, trump) == trump


def is_face(card: int) -> bool:
    """Jack, queen, king or ace."""
    return rank_of(card) in FACE_RANKS


def plain_key(card: int) -> tuple[int, int]:
    """Sort key of the order without trump: rank, then suit (the official ``operator<``)."""
    return _RANK_WEIGHT[rank_of(card)], _SUIT_WEIGHT[suit_of(card)]


def trump_key(card: int, trump: int) -> tuple[int, int, int]:
    """Sort key of the order with trump (the official ``Card_less(a, b, trump)``)."""
    return led_key(card, trump, led_suit=None)


def led_key(card: int, trump: int, led_suit: int | None) -> tuple[int, int, int]:
    """Sort key of the order with trump and the led suit (``led_suit`` is an effective suit)."""
    if is_right_bower(card, trump):
        return 2, _RIGHT_BOWER_WEIGHT, 0
    if is_left_bower(card, trump):
        return 2, _LEFT_BOWER_WEIGHT, 0
    if suit_of(card) == trump:
        return 2, *plain_key(card)
    if suit_of(card) == led_suit:
        return 1, *plain_key(card)
    return 0, *plain_key(card)


def sorted_hand(cards: Iterable[int]) -> list[int]:
    """Cards in the order a Human's hand is shown: ascending without trump."""
    return sorted(cards, key=plain_key)


def follows(card: int, led_card: int, trump: int) -> bool:
    """True when ``card`` is of the suit ``led_card`` counts as (left bower counted as trump)."""
    return effective_suit(card, trump) == effective_suit(led_card, trump)


def legal_plays(hand: Sequence[int], trick: Sequence[int], trump: int) -> tuple[int, ...]:
    """The cards of ``hand`` that may go on ``trick`` (cards so far, leader first): follow suit when able."""
    if not trick:
        return tuple(hand)
    following = tuple(card for card in hand if follows(card, trick[0], trump))
    return following or tuple(hand)


def trick_winner(trick: Sequence[int], leader: int, trump: int) -> int:
    """The seat that takes a full trick of four cards played from ``leader`` round to the left."""
    led_suit = effective_suit(trick[0], trump)
    best = max(range(len(trick)), key=lambda position: led_key(trick[position], trump, led_suit))
    return (leader + best) % NUM_PLAYERS


def team_of(seat: int) -> int:
    """Team 0 is seats 0 and 2, team 1 is seats 1 and 3."""
    return seat % NUM_TEAMS


def left_of(seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places to the left."""
    return (seat + steps) % NUM_PLAYERS


def deal_hands(pack: Sequence[int], dealer: int) -> tuple[tuple[int, ...], ...]:
    """Hands by seat: batches of 3-2-3-2 then 2-3-2-3, the first to the dealer's left."""
    hands: list[list[int]] = [[] for _ in range(NUM_PLAYERS)]
    position = 0
    for batch, size in enumerate((3, 2, 3, 2, 2, 3, 2, 3)):
        hands[left_of(dealer, batch + 1)].extend(pack[position : position + size])
        position += size
    return tuple(tuple(hand) for hand in hands)


def in_shuffle(pack: Sequence[int]) -> tuple[int, ...]:
    """One in-shuffle: cut in half and interleave, the second half's card first."""
    half = len(pack) // 2
    return tuple(card for pair in zip(pack[half:], pack[:half]) for card in pair)


def shuffled(pack: Sequence[int], times: int = IN_SHUFFLES_PER_HAND) -> tuple[int, ...]:
    """The pack after ``times`` in-shuffles (the spec's shuffle is seven)."""
    cards = tuple(pack)
    for _ in range(times):
        cards = in_shuffle(cards)
    return cards


def trump_face_count(hand: Iterable[int], trump: int) -> int:
    """How many trump face cards a hand holds: the bowers and the trump queen, king and ace."""
    return sum(1 for card in hand if is_trump(card, trump) and is_face(card))


def hand_points(tricks_by_team: Sequence[int], makers: int) -> tuple[int, int, str]:
    """The hand's winning team, its points and ``"march"``, ``"euchred"`` or ``""``.

    The team with three or more tricks scores: makers 1 for three or four tricks and 2 for all five
    (a march); defenders 2 (the makers are euchred).
    """
    winners = 0 if tricks_by_team[0] > tricks_by_team[1] else 1
    if winners != makers:
        return winners, 2, "euchred"
    if tricks_by_team[winners] == TRICKS_PER_HAND:
        return winners, 2, "march"
    return winners, 1, ""


def game_winner(scores: Sequence[int], points_to_win: int) -> int | None:
    """The team that has reached ``points_to_win``, if any (only one team scores per hand)."""
    for team, score in enumerate(scores):
        if score >= points_to_win:
            return team
    return None


# --------------------------------------------------------------------------- decision tables
# The rules above as lookup tables over (trump, ...) and card ids, built once from those functions so
# the two agree by construction: the fast engine and the batched strategies decide a whole batch of
# hands with a few array lookups instead of a Python call per card.


def _table(function, *shape: int, dtype=np.int64) -> np.ndarray:
    table = np.zeros(shape, dtype=dtype)
    for index in np.ndindex(*shape):
        table[index] = function(*index)
    return table


PACK_CARDS = np.array(sorted(NEW_PACK), dtype=np.int64)
PACK_MASK = sum(1 << card for card in NEW_PACK)
_CARD_COUNT = 52  # card ids run over the whole 52-card deck; cards outside the pack never occur

EFFECTIVE_SUIT = _table(lambda trump, card: effective_suit(card, trump), 4, _CARD_COUNT, dtype=np.int8)
"""[trump, card] the suit the card counts as."""

SUIT_CARDS = _table(
    lambda trump, suit: sum(1 << card for card in NEW_PACK if effective_suit(card, trump) == suit), 4, 4
)
"""[trump, suit] bitmask of the pack's cards that count as ``suit``: what following it means."""

TRUMP_FACES = _table(lambda trump: sum(1 << card for card in NEW_PACK if is_trump(card, trump) and is_face(card)), 4)
"""[trump] bitmask of the trump face cards (``trump_face_count`` is its popcount with a hand)."""

_LED_SUITS = 5  # a led suit, or index 4 for none (the order with trump alone)


def _strength(trump: int, led: int, card: int) -> int:
    """The card's place in the order with ``trump`` and led suit ``led`` (4: none) among the pack, 0 lowest."""
    if card not in NEW_PACK:
        return -1
    led_suit = None if led == 4 else led
    return sorted(NEW_PACK, key=lambda other: led_key(other, trump, led_suit)).index(card)


STRENGTH = _table(_strength, 4, _LED_SUITS, _CARD_COUNT, dtype=np.int8)
"""[trump, led suit or NO_LED, card] the card's rank in the trick order (higher beats lower; -1 outside
the pack). ``STRENGTH[trump, NO_LED]`` is the order with trump alone (``trump_key``)."""
NO_LED = 4

PLAIN_STRENGTH = np.array(
    [sorted(NEW_PACK, key=plain_key).index(card) if card in NEW_PACK else -1 for card in range(_CARD_COUNT)],
    dtype=np.int8,
)
"""[card] the card's rank in the order without trump (``plain_key``)."""
