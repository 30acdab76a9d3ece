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
is exact. It is a compiled policy (the fast engine calls it inside its kernel; the strategy
``heuristic``'s ``choose`` runs it over a batch's rows) over tables built from ``sim.euchre.rules``:
a hand's value is two lookups by the 12-bit halves of ``sim.euchre.policies.pickers`` (each half's
cards' values and voids), the cards a trick's winner is beaten by one lookup by its place in the
trick order, and each choice of a card a ``CardPicker``.
"""

from __future__ import annotations

import numpy as np

from sim import jit
from sim.cards import NUM_CARDS, NUM_RANKS, count_cards, lowest_bit, rank_of
from sim.euchre import rules
from sim.euchre.observation import NONE, ORDER_UP, PASS, POLICY, Phase
from sim.euchre.policies.pickers import HALF, LED_CONTEXT, PATTERN_CARDS, SIX_BITS, CardPicker, pick

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
    """[trump * 8192 + half * 4096 + pattern] the value of the cards of that pattern of ``pickers.halves``
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
_STRENGTH = rules.STRENGTH.ravel()  # [(trump * 5 + led) * 52 + card]
_CARD_VALUE = CARD_VALUE.ravel()  # [trump * 52 + card]
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
_MAKING, _DISCARD = int(Phase.MAKING), int(Phase.DISCARD)
_NO_KEY = 1 << 20  # below every discard's key (strengths are far below 1 << 15)


def _lead_key(trump: int, card: int) -> int:
    """Off-suit aces first (the lowest card id first), then other off-suit cards from the lowest, then
    trumps from the highest."""
    place = int(rules.STRENGTH[trump, rules.NO_LED, card])
    if rules.is_trump(card, trump):
        return place
    return 384 + 63 - card if rank_of(card) == ACE else 256 + _LOWEST - place


_HIGHEST = CardPicker.of(4, lambda trump, card: int(rules.STRENGTH[trump, rules.NO_LED, card]))
_HIGHEST_ENTRIES = _HIGHEST.entries
"""[trump] the highest card in the order with trump."""
_LEAD = CardPicker.of(4, _lead_key)
_LEAD_ENTRIES = _LEAD.entries
"""[trump] the lead of a hand that does not lead trump."""
_LOWEST_FOLLOWING = CardPicker.of(
    16, lambda context, card: _LOWEST - int(rules.STRENGTH[context // 4, context % 4, card])
)
_LOWEST_FOLLOWING_ENTRIES = _LOWEST_FOLLOWING.entries
"""[trump * 4 + led suit] the lowest card in the trick's order."""

_IS_ACE = np.array([rank_of(card) == ACE for card in range(NUM_CARDS)], dtype=np.int8)
"""[card] whether the card is an ace."""

# Indexed by trump * 52 + the led card: where to look up the trick in the tables above.
_TRUMP = np.repeat(np.arange(4, dtype=np.intp), NUM_CARDS)
_ORDER = _TRUMP * (SEATS + 1) + LED_CONTEXT % 4  # trump * 5 + led suit: the trick order in ``rules.STRENGTH``
_PLACES_BASE = _ORDER * NUM_CARDS  # in ``_STRENGTH``
_BEATING_BASE = _ORDER * rules.PACK_SIZE  # in ``_BEATING`` and ``_TRUMP_AT``
_LOWEST_FOLLOWING_BASE = LED_CONTEXT * NUM_CARDS


@jit.njit(inline="always")
def same_team(seat: int, other: int) -> bool:
    """Whether ``seat`` is ``other`` or its partner (``rules.team_of``)."""
    return (seat ^ other) & 1 == 0  # teams are seats of one parity


@jit.njit(inline="always")
def hand_strength(hand: int, trump: int) -> int:
    """Trick-taking strength, in tenths, of a hand (card bitmask) in ``trump``."""
    packed = hand | (hand >> 7)  # ``pickers.halves``
    packed &= SIX_BITS
    packed |= packed >> 7
    base = trump * 2 * HALF
    both = (
        np.int64(_HALF_VALUES[base + (packed & (HALF - 1))]) + _HALF_VALUES[base + HALF + ((packed >> 26) & (HALF - 1))]
    )
    strength = both & (_VOIDS - 1)
    if count_cards(hand & _TRUMP_CARDS[trump]) >= 2:
        strength += (both >> 10) * VOID_WITH_TRUMPS
    return strength


@jit.njit(inline="always")
def best_discard(hand: int, trump: int) -> tuple[int, int]:
    """The card whose loss leaves the strongest hand (of those leaving equal strength the lowest in the
    order with trump) and the strength it leaves."""
    places = (trump * (SEATS + 1) + rules.NO_LED) * NUM_CARDS  # a card's place in the order with trump
    best_key, best_card = -_NO_KEY, 0
    cards = hand
    while cards:  # the cards held, in any order: keys are distinct, a strength times 24 less a place 0 to 23
        card, its_bit = lowest_bit(cards), cards & -cards
        cards ^= its_bit
        key = hand_strength(hand ^ its_bit, trump) * rules.PACK_SIZE - _STRENGTH[places + card]
        if key > best_key:
            best_key, best_card = key, card
    return best_card, (best_key + rules.PACK_SIZE - 1) // rules.PACK_SIZE


@jit.njit(inline="always")
def round_one_action(hand: int, upcard: int, seat: int, dealer: int, threshold: float) -> int:
    """Order up the upcard's suit or pass. The dealer values the best five of its hand and the upcard;
    the others count half the upcard's value for the dealer's side, against it for the other."""
    trump = upcard // NUM_RANKS
    # Doubled, so that half the upcard's value stays a whole number of tenths.
    if seat == dealer:
        doubled = 2 * best_discard(hand | (1 << upcard), trump)[1]
    else:
        upcard_value = _CARD_VALUE[trump * NUM_CARDS + upcard]
        doubled = 2 * hand_strength(hand, trump) + (upcard_value if same_team(dealer, seat) else -upcard_value)
    return ORDER_UP + trump if doubled >= threshold * 20 else PASS


@jit.njit(inline="always")
def round_two_action(hand: int, upcard: int, seat: int, dealer: int, threshold: float) -> int:
    """Order up the strongest suit other than the upcard's when it reaches ``threshold``; the dealer
    always orders it up. Equal strengths go to the lowest suit index."""
    rejected = upcard // NUM_RANKS
    best, suit = -1, 0
    for candidate in range(4):
        if candidate != rejected:
            strength = hand_strength(hand, candidate)
            if strength > best:
                best, suit = strength, candidate
    return ORDER_UP + suit if seat == dealer or best >= threshold * 10 else PASS


@jit.njit(inline="always")
def lead(hand: int, trump: int, we_made_it: bool) -> int:
    """As a maker with two or more trumps the highest trump; else an off-suit ace (the lowest card id
    of them); else the lowest off-suit card; with only trump, the highest trump."""
    if we_made_it and count_cards(hand & _TRUMP_CARDS[trump]) >= 2:
        return pick(_HIGHEST_ENTRIES, trump * NUM_CARDS, hand)
    return pick(_LEAD_ENTRIES, trump * NUM_CARDS, hand)


@jit.njit(inline="always")
def follow(
    legal: int, led: int, winning: int, partner_winning: bool, last_to_play: bool, trump: int, ace_stands: bool
) -> int:
    """Let a partner's winning card stand (throwing the lowest legal card) when playing last, when it
    is a trump, when it cannot be beaten or, with ``ace_stands``, when it is an ace; else win with the
    cheapest card that does, or throw the lowest legal card."""
    trick = trump * NUM_CARDS + led  # the trump and the led card
    place = _BEATING_BASE[trick] + _STRENGTH[_PLACES_BASE[trick] + winning]
    beating = legal & _BEATING[place]
    let_partner_win = partner_winning and (
        last_to_play or _TRUMP_AT[place] or beating == 0 or (ace_stands and _IS_ACE[winning] != 0)
    )
    chosen = legal if let_partner_win or beating == 0 else beating
    return pick(_LOWEST_FOLLOWING_ENTRIES, _LOWEST_FOLLOWING_BASE[trick], chosen)


@jit.njit(inline="always")
def heuristic_action(
    phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning, winner, played, settings
):
    """The heuristic's action (``settings``: threshold, ace_stands): inlined into the kernels."""
    threshold = settings[0]
    if phase == _MAKING:
        if making_round == 1:
            return round_one_action(hand, upcard, seat, dealer, threshold)
        return round_two_action(hand, upcard, seat, dealer, threshold)
    if phase == _DISCARD:
        return best_discard(hand, trump)[0]
    if led == NONE:
        return lead(hand, trump, same_team(maker, seat))
    return follow(legal, led, winning, same_team(winner, seat), played == SEATS - 1, trump, settings[1] != 0)


@jit.njit(POLICY.signature, cache=True, nogil=True)
def heuristic(
    phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning, winner, played, settings
):
    """``heuristic_action`` compiled on its own: the policy the strategy holds and ``choose`` runs."""
    return heuristic_action(
        phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, led, winning, winner, played, settings
    )
