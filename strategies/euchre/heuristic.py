"""A stronger Euchre player: values whole hands to make trump, and plays tricks with its partner in mind.

Making: a hand is worth the sum of its cards' trick-taking values in the proposed trump (bowers and
high trumps most, off-suit aces some, and a little for each void once it holds two trumps), counting
the upcard for the dealer's side in round one. It orders up when that reaches ``threshold``.
Playing: let a winning partner's card stand when playing last, when it is a trump or cannot be
beaten (and, with ``ace_stands``, when it is an ace), else win as cheaply as possible when it can,
otherwise throw its least useful card; lead trump from strength as a maker, else an off-suit ace,
else a low off-suit card.

Values are whole numbers of tenths (a right bower is 30, ``threshold`` 7.5 means 75), so a hand's
value is an exact sum whatever order its cards are added in, and every comparison with ``threshold``
is exact. The whole batch is decided with array operations on tables built from ``sim.euchre.rules``:
a hand's value is two lookups by the 12-bit halves of ``strategies.euchre.batch`` (each half's cards'
values and voids), the cards a trick's winner is beaten by one lookup by its place in the trick
order, and each choice of a card a ``CardPicker``.
"""

from __future__ import annotations

import numpy as np

from sim.cards import NUM_CARDS, NUM_RANKS, rank_of
from sim.euchre import rules
from sim.euchre.observation import NONE, ORDER_UP, PASS, Observation, Phase
from strategies import register
from strategies.euchre.batch import HALF, LED_CONTEXT, PATTERN_CARDS, CardPicker, dispatch, halves

# Trick-taking value, in tenths, of a trump by its order within trump (9, 10, Q, K, A, left bower, right bower).
TRUMP_VALUES = (10, 12, 15, 17, 20, 25, 30)
OFF_SUIT_ACE = 10
VOID_WITH_TRUMPS = 5
ACE = 0  # rank index of the ace in sim.cards
SUITS = np.arange(4, dtype=np.int64)


def _card_value(trump: int, card: int) -> int:
    """How much ``card`` helps take tricks with ``trump`` as trump, in tenths."""
    if card not in rules.NEW_PACK:
        return 0
    if rules.is_trump(card, trump):
        trumps = [other for other in rules.NEW_PACK if rules.is_trump(other, trump)]
        return TRUMP_VALUES[sorted(trumps, key=lambda other: rules.trump_key(other, trump)).index(card)]
    return OFF_SUIT_ACE if rank_of(card) == ACE else 0


CARD_VALUE = np.array([[_card_value(trump, card) for card in range(NUM_CARDS)] for trump in range(4)], dtype=np.int64)
"""[trump, card] the card's trick-taking value in tenths."""

_VOIDS = 1 << 10  # a half's table entry: the value of its cards, plus this times its suits without a card


def _half_values() -> np.ndarray:
    """[trump * 8192 + half * 4096 + pattern] the value of the cards of that pattern of ``batch.halves``
    and, times ``_VOIDS``, how many of the half's two suits other than trump it holds no card of (a
    suit's cards but the left bower are all of one half, so each half counts its own voids)."""
    bits = (np.arange(HALF)[:, None] >> np.arange(12)) & 1 == 1  # (4096, 12) the cards of each pattern
    table = np.zeros((4, 2, HALF), dtype=np.int64)
    for trump in range(4):
        for half in range(2):
            cards = PATTERN_CARDS[12 * half : 12 * half + 12]
            table[trump, half] = bits @ CARD_VALUE[trump, cards]
            for suit in (2 * half, 2 * half + 1):
                if suit != trump:
                    of_suit = rules.EFFECTIVE_SUIT[trump, cards] == suit
                    table[trump, half] += _VOIDS * ~(bits & of_suit).any(axis=1)
    return table.astype(np.int16).reshape(-1)


_HALF_VALUES = _half_values()
_TRUMP_CARDS = rules.SUIT_CARDS[SUITS, SUITS]  # [trump] the trump suit's cards, the left bower included
_SUIT_CARDS = rules.SUIT_CARDS.ravel()  # [trump * 4 + suit]
_STRENGTH = rules.STRENGTH.ravel()  # [(trump * 5 + led) * 52 + card]
_PLACE_OR_NONE = np.concatenate([np.full((4, 5, 1), -1, dtype=np.int8), rules.STRENGTH], axis=-1).ravel()
"""[(trump * 5 + led) * 53 + card + 1] ``rules.STRENGTH``, and -1 for no card (``NONE``)."""
SEATS = rules.NUM_PLAYERS


def _places(trump: int, led: int) -> list[int]:
    """The pack's cards by their place in the trick order with ``trump`` and ``led``."""
    return sorted(rules.NEW_PACK, key=lambda card: int(rules.STRENGTH[trump, led, card]))


_BEATING = np.array(
    [
        [
            [sum(1 << card for card in _places(trump, led)[place + 1 :]) for place in range(rules.PACK_SIZE)]
            for led in range(5)
        ]
        for trump in range(4)
    ],
    dtype=np.int64,
).ravel()
"""[(trump * 5 + led) * 24 + place] the cards that beat the card at that place of the trick order."""
_TRUMP_AT = np.array(
    [[[rules.is_trump(card, trump) for card in _places(trump, led)] for led in range(5)] for trump in range(4)]
).ravel()
"""[(trump * 5 + led) * 24 + place] whether the card at that place of the trick order is a trump."""
_LOWEST = rules.PACK_SIZE - 1
_MAKING = int(Phase.MAKING)  # numpy compares arrays with a plain int many times faster than with an IntEnum
_NO_KEY = 1 << 20  # below every discard's key (strengths are far below 1 << 15)


def _lead_key(trump: int, card: int) -> int:
    """Off-suit aces first (the lowest card id first), then other off-suit cards from the lowest, then
    trumps from the highest."""
    place = int(rules.STRENGTH[trump, rules.NO_LED, card])
    if rules.is_trump(card, trump):
        return place
    return 384 + 63 - card if rank_of(card) == ACE else 256 + _LOWEST - place


_HIGHEST = CardPicker.of(4, lambda trump, card: int(rules.STRENGTH[trump, rules.NO_LED, card]))
"""[trump] the highest card in the order with trump."""
_LEAD = CardPicker.of(4, _lead_key)
"""[trump] the lead of a hand that does not lead trump."""
_LOWEST_FOLLOWING = CardPicker.of(
    16, lambda context, card: _LOWEST - int(rules.STRENGTH[context // 4, context % 4, card])
)
"""[trump * 4 + led suit] the lowest card in the trick's order."""

_IS_ACE = np.array([rank_of(card) == ACE for card in range(NUM_CARDS)], dtype=np.int8)
"""[card] whether the card is an ace."""

# Indexed by trump * 52 + the led card: where to look up the trick in the tables above.
_TRUMP = np.repeat(np.arange(4, dtype=np.intp), NUM_CARDS)
_ORDER = _TRUMP * (SEATS + 1) + LED_CONTEXT % 4  # trump * 5 + led suit: the trick order in ``rules.STRENGTH``
_FOLLOWING = _SUIT_CARDS.take(LED_CONTEXT)  # the cards that follow suit
_PLACES_BASE = _ORDER * (NUM_CARDS + 1) + 1  # in ``_PLACE_OR_NONE``
_BEATING_BASE = _ORDER * rules.PACK_SIZE  # in ``_BEATING`` and ``_TRUMP_AT``
_LOWEST_FOLLOWING_BASE = LED_CONTEXT * HALF


def same_team(seat: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Whether each ``seat`` is ``other`` or its partner (``rules.team_of`` for arrays)."""
    return (seat ^ other) & 1 == 0  # teams are seats of one parity


def hand_strength(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """Trick-taking strength, in tenths, of each hand (int64 card bitmask) in the matching trump; the two
    arrays broadcast against each other."""
    hand = np.asarray(hand, dtype=np.int64)
    return _strength(hand, *halves(hand), np.asarray(trump, dtype=np.intp))


def _strength(hand: np.ndarray, first: np.ndarray, second: np.ndarray, trump: np.ndarray | int) -> np.ndarray:
    """``hand_strength`` of hands whose ``halves`` are ``first`` and ``second``."""
    base = np.multiply(trump, 2 * HALF, dtype=np.intp)
    both = _HALF_VALUES.take(base + first) + _HALF_VALUES.take(base + HALF + second)  # int16: below 5 * 1024
    two_trumps = np.bitwise_count(hand & _TRUMP_CARDS.take(trump)) >= 2
    # Arithmetic rather than np.where, which branches row by row (slowly, on rows this unpredictable).
    strength = (both >> 10) * (VOID_WITH_TRUMPS * two_trumps)
    strength += both & (_VOIDS - 1)
    return strength.astype(np.int64)


def _best_discards(hand: np.ndarray, trump: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card whose loss leaves the strongest hand (of those leaving equal strength the lowest in the
    order with trump) and the strength it leaves, of each non-empty hand. The held cards are tried in
    turn, the lowest card id first: a hand of six is six (n,) steps."""
    hand, trump = np.asarray(hand, dtype=np.int64), np.asarray(trump, dtype=np.intp)
    places = (trump * (SEATS + 1) + rules.NO_LED) * NUM_CARDS  # a card's place in the order with trump
    best_key = np.full(len(hand), -_NO_KEY)
    best_card = np.zeros(len(hand), dtype=np.int64)
    remaining = hand.copy()
    while True:
        bit = remaining & -remaining  # the lowest card id left, 0 once none is
        if not bit.any():
            break
        remaining ^= bit
        card = np.frexp(bit.astype(np.float64))[1].astype(np.int64) - 1  # the bit's index: exact, bits < 2**52
        # Keys are distinct: a key is a strength times 24 less a place from 0 to 23.
        key = hand_strength(hand ^ bit, trump) * rules.PACK_SIZE - _STRENGTH.take(places + card, mode="clip")
        key -= (bit == 0) * _NO_KEY  # once a hand has no card left, below every key
        better = key > best_key
        np.maximum(best_key, key, out=best_key)
        best_card += (card - best_card) * better
    return best_card, (best_key + rules.PACK_SIZE - 1) // rules.PACK_SIZE


def best_discard(hand: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """The card whose loss leaves the strongest five (a low off-suit card, voiding a suit if it can)."""
    # Of the discards leaving equal strength, the lowest card in the order with trump goes.
    return _best_discards(hand, trump)[0]


def round_one_actions(
    hand: np.ndarray, upcard: np.ndarray, seat: np.ndarray, dealer: np.ndarray, threshold: float
) -> np.ndarray:
    """Order up the upcard's suit or pass. The dealer values the best five of its hand and the upcard;
    the others count half the upcard's value for the dealer's side, against it for the other."""
    hand = np.asarray(hand, dtype=np.int64)
    trump = (upcard // NUM_RANKS).astype(np.intp)
    dealing = seat == dealer
    # Doubled, so that half the upcard's value stays a whole number of tenths.
    if dealing.all():
        doubled = np.empty(len(hand), dtype=np.int64)
    else:
        upcard_value = CARD_VALUE.ravel().take(trump * NUM_CARDS + upcard)
        doubled = 2 * hand_strength(hand, trump) + upcard_value * (2 * same_team(dealer, seat) - 1)
    if dealing.any():
        dealers = np.flatnonzero(dealing)
        six = hand.take(dealers) | (np.int64(1) << upcard.take(dealers))  # int64: the upcard may come as int8
        doubled[dealers] = 2 * _best_discards(six, trump.take(dealers))[1]
    return PASS - (PASS - ORDER_UP - trump) * (doubled >= threshold * 20)


def round_two_actions(
    hand: np.ndarray, upcard: np.ndarray, seat: np.ndarray, dealer: np.ndarray, threshold: float
) -> np.ndarray:
    """Order up the strongest suit other than the upcard's when it reaches ``threshold``; the dealer
    always orders it up. Equal strengths go to the lowest suit index."""
    hand = np.asarray(hand, dtype=np.int64)
    rejected = upcard // NUM_RANKS
    first, second = halves(hand)
    best, suit = np.full(len(hand), -1, dtype=np.int64), np.zeros(len(hand), dtype=np.int64)
    for candidate in range(4):
        strength = _strength(hand, first, second, candidate)
        strength -= (strength + 1) * (rejected == candidate)  # -1 for the upcard's suit
        better = strength > best  # so equal strengths go to the lower suit
        np.maximum(best, strength, out=best)
        np.maximum(suit, better * candidate, out=suit)  # candidates come in increasing order
    return PASS - (PASS - ORDER_UP - suit) * ((seat == dealer) | (best >= threshold * 10))


def lead(hand: np.ndarray, trump: np.ndarray, we_made_it: np.ndarray) -> np.ndarray:
    """As a maker with two or more trumps the highest trump; else an off-suit ace (the lowest card id
    of them); else the lowest off-suit card; with only trump, the highest trump."""
    hand, trump = np.asarray(hand, dtype=np.int64), np.asarray(trump, dtype=np.intp)
    first, second = halves(hand)
    leads_trump = we_made_it & (np.bitwise_count(hand & _TRUMP_CARDS[trump]) >= 2)
    other = _LEAD.pick(trump, first, second)
    return other + (_HIGHEST.pick(trump, first, second) - other) * leads_trump


def follow(
    hand: np.ndarray,
    trick: np.ndarray,
    leader: np.ndarray,
    seat: np.ndarray,
    trump: np.ndarray,
    ace_stands: bool = False,
) -> np.ndarray:
    """Let a partner's winning card stand (throwing the lowest legal card) when playing last, when it
    is a trump, when it cannot be beaten or, with ``ace_stands``, when it is an ace; else win with the
    cheapest card that does, or throw the lowest legal card."""
    hand = np.asarray(hand, dtype=np.int64)
    led = np.multiply(trump, NUM_CARDS, dtype=np.intp) + trick[:, 0]  # the trump and the led card
    following = hand & _FOLLOWING.take(led)
    legal = following | hand * (following == 0)
    # Places in the trick's order of the cards played so far (-1: none yet; the fourth is never played).
    cards = _PLACES_BASE.take(led)
    places = [_PLACE_OR_NONE.take(cards + trick[:, position]) for position in range(3)]
    best = np.maximum(np.maximum(places[0], places[1]), places[2])
    winning = (places[1] == best).view(np.int8) + 2 * (places[2] == best).view(np.int8)  # no two share a place
    partner_winning = same_team(leader + winning, seat)
    last_to_play = trick[:, 2] != NONE
    place = _BEATING_BASE.take(led) + best
    beating = legal & _BEATING.take(place)
    can_beat = beating != 0
    let_partner_win = partner_winning & (last_to_play | _TRUMP_AT.take(place) | ~can_beat)
    if ace_stands:  # a winning ace is the led suit's: only a trump beats it
        winner = np.take_along_axis(trick, winning.astype(np.intp)[:, None], axis=1)[:, 0]
        let_partner_win |= partner_winning & (_IS_ACE.take(winner) != 0)
    chosen = legal - (legal - beating) * (can_beat & ~let_partner_win)  # beating is part of legal
    return _LOWEST_FOLLOWING.pick_at(_LOWEST_FOLLOWING_BASE.take(led), *halves(chosen))


@register("euchre", "heuristic")
class Heuristic:
    """Values whole hands to make trump; wins tricks cheaply, but lets a winning partner's card stand
    when playing last, when that card is a trump or cannot be beaten and, with ``ace_stands``, when it
    is an ace."""

    def __init__(self, threshold: float = 7.5, ace_stands: bool = False) -> None:
        self.threshold = threshold
        self.ace_stands = ace_stands

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch."""
        o, threshold, ace_stands = observation, self.threshold, self.ace_stands
        led_card = o.trick[:, 0]
        # 0 and 1: making in round one or two; 2 discarding; 3 leading; 4 following (a trick is begun only in play).
        case = o.phase + 1 - (o.phase == _MAKING) * (2 - o.making_round) + (led_card != NONE)
        return dispatch(
            case,
            [
                lambda at: round_one_actions(at(o.hand), at(o.upcard), at(o.seat), at(o.dealer), threshold),
                lambda at: round_two_actions(at(o.hand), at(o.upcard), at(o.seat), at(o.dealer), threshold),
                lambda at: best_discard(at(o.hand), at(o.trump)),
                lambda at: lead(at(o.hand), at(o.trump), same_team(at(o.maker), at(o.seat))),
                lambda at: follow(at(o.hand), at(o.trick), at(o.leader), at(o.seat), at(o.trump), ace_stands),
            ],
        )
