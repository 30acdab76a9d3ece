"""The CS 340 spec's computer player: the organizing algorithm, its draw rules and its discard/knock rules.

``choose_draw`` and ``choose_discard`` take cards as ids or two-character names ("TD"). Where the
spec leaves a choice (docs/ginrummy.md): among equal-valued candidates the highest rank is thrown,
then the highest suit — which takes the top card of a run, so what is left stays a run.

The registered player (``CS340``) is a compiled policy (``cs340``), which the fast engine calls
inside its kernel and whose ``choose`` runs it over a batch's rows: ``organize_hand`` runs
``rules.organize`` on an int64 card mask (sequences, groups, pairs and partial sequences are shifts
and masks). Breaking a sequence for a pair (step 3) goes over the ranks held in pairs, highest
first; each card keeps its sequence's place in ``organize``'s list, so that two sequences leaving
the same value are broken in the same order. The scalar functions below (``choose_draw``,
``choose_discard``, ``cs340_action``) are the reference it plays exactly as.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from sim import jit
from sim.api import CompiledPolicy
from sim.cards import NUM_CARDS, NUM_RANKS, NUM_SUITS, cards_in, rank_of, suit_of
from sim.ginrummy import melds, rules
from sim.ginrummy.melds import LOWERED_ONE_RANK, RAISED_ONE_RANK, RANK_ACROSS_SUITS, hand_value
from sim.ginrummy.observation import (
    DRAW_DISCARD,
    DRAW_STOCK,
    KNOCK,
    NONE,
    POLICY,
    Observation,
    Phase,
    choose_compiled,
    compiled_policy,
    knock,
)
from strategies import register

CardLike = int | str


def _card(card: CardLike) -> int:
    return rules.to_cards([card])[0]


def _adds_to_partial(card: int, organization: rules.Organization) -> bool:
    """The card makes a partial group a group, or extends a partial sequence to three."""
    if any(rank_of(card) == rank_of(pair[0]) for pair in organization.partial_groups):
        return True
    return any(rules.is_run([*pair, card]) for pair in organization.partial_sequences)


def _adds_to_complete(card: int, organization: rules.Organization) -> bool:
    """The card extends a complete sequence or is the fourth of a complete group."""
    return any(rules.is_meld([*meld, card]) for meld in organization.complete)


def _pairs_with_deadwood(card: int, organization: rules.Organization) -> bool:
    """The card makes a partial group or partial sequence with a deadwood card."""
    return any(
        rank_of(card) == rank_of(dead) or (suit_of(card) == suit_of(dead) and abs(rank_of(card) - rank_of(dead)) == 1)
        for dead in organization.deadwood
    )


def choose_draw(hand: Iterable[CardLike], top_discard: CardLike) -> str:
    """``"discard"`` to take the face-up card, else ``"stock"``, by the spec's three checks in order."""
    organization = rules.organize(hand)
    card = _card(top_discard)
    if _adds_to_partial(card, organization) or _adds_to_complete(card, organization):
        return "discard"
    if _pairs_with_deadwood(card, organization) and len(organization.deadwood) > 1:
        return "discard"
    return "stock"


def _throw_order(card: int) -> tuple[int, int, int]:
    return rules.card_value(card), rank_of(card), suit_of(card)


def discard_candidates(organization: rules.Organization) -> list[list[int]]:
    """The spec's candidate cards, best category first: deadwood, partial sets, sequences of four
    or more, groups of four."""
    partial = [c for part in organization.partial_groups + organization.partial_sequences for c in part]
    long_sequences = [c for seq in organization.sequences if len(seq) > rules.MIN_MELD for c in seq]
    four_groups = [c for group in organization.groups if len(group) > rules.MIN_MELD for c in group]
    return [list(organization.deadwood), partial, long_sequences, four_groups]


def choose_discard(hand: Iterable[CardLike], forbidden: CardLike | None = None) -> tuple[int, bool]:
    """The card to throw from 11 and whether to knock with it.

    The highest-valued card of the first category holding one; it knocks when the ten cards left,
    organized again, have an unmatched value of 10 or less. ``forbidden`` is a card that may not be
    thrown (just taken from the discard pile). Eleven cards all melded hold a sequence of four or
    more or a group of four (11 is not a sum of threes), so some category always has a card.
    """
    organization = rules.organize(hand)
    barred = None if forbidden is None else _card(forbidden)
    for candidates in discard_candidates(organization):
        allowed = [card for card in candidates if card != barred]
        if allowed:
            card = max(allowed, key=_throw_order)
            break
    left = [c for c in rules.to_cards(hand) if c != card]
    return card, rules.organize(left).unmatched_value <= rules.KNOCK_LIMIT


def cs340_action(observation: Observation, row: int) -> int:
    """The CS 340 computer player's action in hand ``row`` of the batch."""
    hand = list(cards_in(int(observation.hand[row])))
    if observation.phase[row] == Phase.DRAW:
        return DRAW_DISCARD if choose_draw(hand, int(observation.top_discard[row])) == "discard" else DRAW_STOCK
    taken = int(observation.taken[row])
    card, knocks = choose_discard(hand, None if taken == NONE else taken)
    return knock(card) if knocks else card


# ----------------------------------------------------------------------------- compiled, one hand at a time

_SUIT = (1 << NUM_RANKS) - 1
_RANK_VALUES = np.array([rules.card_value(rank) for rank in range(NUM_RANKS)], dtype=np.int64)
_PAST_VALUES = 1 << 10  # above any value left unmatched, and above every sequence's place
_FIRST_APPENDED = 16  # the first place of a sequence appended by a break, after the four suits'
_DRAW = int(Phase.DRAW)


@jit.njit(cache=True, nogil=True)
def _up(mask: int) -> int:
    """Each card moved one rank up its suit (a king drops out): bit x set where x - 1 is held."""
    return (mask << 1) & RAISED_ONE_RANK


@jit.njit(cache=True, nogil=True)
def _down(mask: int) -> int:
    """Each card moved one rank down its suit (an ace drops out): bit x set where x + 1 is held."""
    return (mask >> 1) & LOWERED_ONE_RANK


@jit.njit(cache=True, nogil=True)
def _ranks(mask: int) -> int:
    """The 13-bit pattern of the ranks a mask holds in any suit."""
    return (mask | (mask >> NUM_RANKS) | (mask >> (2 * NUM_RANKS)) | (mask >> (3 * NUM_RANKS))) & _SUIT


_HIGHEST_RANK = np.array([pattern.bit_length() - 1 for pattern in range(1 << NUM_RANKS)], dtype=np.int8)
"""[pattern] the highest rank of a 13-bit rank pattern (-1 for none)."""


@jit.njit(cache=True, nogil=True)
def _highest_card_of_rank(cards: int, rank: int) -> int:
    """The card of ``rank`` in the highest suit among ``cards`` (which hold one)."""
    suit = NUM_SUITS - 1
    while not cards >> (NUM_RANKS * suit + rank) & 1:
        suit -= 1
    return NUM_RANKS * suit + rank


@jit.njit(cache=True, nogil=True)
def _break(pattern: int, rank: int) -> tuple[int, int, int]:
    """Breaking ``rank`` out of a suit's ``pattern`` of sequence cards: the value left unmatched,
    the ranks still in sequences and the loose ranks (``rules.broken_value``)."""
    loose = 0
    for step in (-1, 1):
        piece, length, other = 0, 0, rank + step
        while 0 <= other < NUM_RANKS and pattern >> other & 1:
            piece |= 1 << other
            length += 1
            other += step
        if length < rules.MIN_MELD:
            loose |= piece
    value = 0
    for other in range(NUM_RANKS):
        if loose >> other & 1:
            value += _RANK_VALUES[other]
    return value, pattern & ~loose & ~(1 << rank), loose


@jit.njit(cache=True, nogil=True)
def _break_sequences(sequences: int, pairs: int) -> tuple[int, int, int]:
    """Step 3 of ``rules.organize`` for a hand holding a pair of a rank in one of its ``sequences``:
    ``(sequences left, cards of the groups made by breaking, loose cards)``.

    Pairs go highest rank first. A pair's options are the cards of its rank in the sequences (at
    most two, in the suits the pair lacks); the one leaving the least value is broken when that is
    less than the pair's, of equal values the one ``organize`` lists first: its sequences in card
    order, then those a break appended, in turn (the part below the broken card before the part
    above). ``place`` keeps each card's sequence's position in that order."""
    loose = 0
    broken = 0
    place = np.empty(NUM_CARDS, dtype=np.int64)  # rare: few hands break a sequence
    for card in range(NUM_CARDS):
        place[card] = card // NUM_RANKS
    pair_ranks = _ranks(pairs)
    for rank in range(NUM_RANKS - 1, -1, -1):
        if not (pair_ranks & _ranks(sequences)) >> rank & 1:
            continue
        best_order, best_suit = -1, -1
        for suit in range(NUM_SUITS):
            pattern = (sequences >> (NUM_RANKS * suit)) & _SUIT
            if pattern >> rank & 1:
                order = _break(pattern, rank)[0] * _PAST_VALUES + place[NUM_RANKS * suit + rank]
                if best_suit < 0 or order < best_order:
                    best_order, best_suit = order, suit
        if best_order // _PAST_VALUES >= 2 * _RANK_VALUES[rank]:
            continue
        shift = NUM_RANKS * best_suit
        pattern = (sequences >> shift) & _SUIT
        _, kept, loose_ranks = _break(pattern, rank)
        sequences = (sequences & ~(pattern << shift)) | (kept << shift)
        loose |= loose_ranks << shift
        broken |= (pairs | (1 << (shift + rank))) & (RANK_ACROSS_SUITS << rank)
        appended = _FIRST_APPENDED + 2 * (NUM_RANKS - 1 - rank)
        for other in range(NUM_RANKS):
            if kept >> other & 1:
                place[shift + other] = appended if other < rank else appended + 1
    return sequences, broken, loose


@jit.njit(cache=True, nogil=True)
def organize_hand(hand: int) -> tuple[int, int, int, int, int, int, int]:
    """``rules.organize`` of one hand (an int64 card mask), exactly, by category: (sequences,
    groups, partial groups, partial sequences, deadwood, the cards of the sequences of four or more,
    the cards of the groups of four)."""
    starts = hand & _down(hand) & _down(_down(hand))  # three in a row from here
    sequences = starts | _up(starts) | _up(_up(starts))
    left = hand & ~sequences
    clubs, diamonds = left & _SUIT, (left >> NUM_RANKS) & _SUIT
    hearts, spades = (left >> (2 * NUM_RANKS)) & _SUIT, (left >> (3 * NUM_RANKS)) & _SUIT
    two = (clubs & diamonds) | ((clubs | diamonds) & (hearts | spades)) | (hearts & spades)
    three = (clubs & diamonds & (hearts | spades)) | ((clubs | diamonds) & hearts & spades)
    four_groups = (clubs & diamonds & hearts & spades) * RANK_ACROSS_SUITS
    groups = (three * RANK_ACROSS_SUITS) & left
    pairs = ((two & ~three) * RANK_ACROSS_SUITS) & left
    loose = 0
    if _ranks(pairs) & _ranks(sequences):
        sequences, broken, loose = _break_sequences(sequences, pairs)
        groups |= broken
        pairs &= ~broken
    # The cards left never hold three in a row: two are a partial sequence, one is deadwood.
    rest = (left & ~groups & ~pairs) | loose
    partial_sequences = rest & (_up(rest) | _down(rest))
    four = sequences & _down(sequences) & _down(_down(sequences)) & _down(_down(_down(sequences)))
    long_sequences = four | _up(four) | _up(_up(four)) | _up(_up(_up(four)))
    return sequences, groups, pairs, partial_sequences, rest & ~partial_sequences, long_sequences, four_groups


@jit.njit(cache=True, nogil=True)
def draw(hand: int, top_discard: int) -> int:
    """``choose_draw``: ``DRAW_DISCARD`` when the face-up card completes a partial set, adds to a
    meld, or pairs with a deadwood card while there are two or more, else ``DRAW_STOCK``."""
    sequences, groups, partial_groups, partial_sequences, deadwood, _, _ = organize_hand(hand)
    if top_discard < 0:
        return DRAW_STOCK
    rank = top_discard % NUM_RANKS
    card = 1 << top_discard
    if _ranks(partial_groups | groups) >> rank & 1:
        return DRAW_DISCARD
    if card & melds.hand_rank_neighbours(partial_sequences | sequences):
        return DRAW_DISCARD
    pairs_dead = (_ranks(deadwood) >> rank & 1) or (card & melds.hand_rank_neighbours(deadwood))
    return DRAW_DISCARD if pairs_dead and deadwood & (deadwood - 1) else DRAW_STOCK


@jit.njit(cache=True, nogil=True)
def discard(hand: int, taken: int) -> int:
    """``choose_discard`` as an action: the highest card (rank, then suit) of the first category
    holding one but the card ``taken`` (``NONE`` for none), knocking with it when the ten cards left
    organize to an unmatched value of 10 or less; -1 (refused as illegal) when no card may go."""
    _, _, partial_groups, partial_sequences, deadwood, long_sequences, four_groups = organize_hand(hand)
    allowed = ~(1 << taken) if taken >= 0 else -1
    candidates = deadwood & allowed
    if not candidates:
        candidates = (partial_groups | partial_sequences) & allowed
    if not candidates:
        candidates = long_sequences & allowed
    if not candidates:
        candidates = four_groups & allowed
    if not candidates:
        return -1
    # The card value rises with the rank, so the highest value, then rank, is the highest rank.
    card = _highest_card_of_rank(candidates, _HIGHEST_RANK[_ranks(candidates)])
    _, _, pairs_left, partial_left, deadwood_left, _, _ = organize_hand(hand & ~(1 << card))
    knocks = hand_value(pairs_left | partial_left | deadwood_left) <= rules.KNOCK_LIMIT
    return card + KNOCK if knocks else card


@jit.njit(POLICY.signature, cache=True, nogil=True)
def cs340(
    phase, hand, top_discard, discard_pile, took, opponent_took, threw, opponent_threw, taken, stock_size, settings
):  # fmt: skip
    """The CS 340 computer player's action: ``draw`` or ``discard`` by the phase."""
    return draw(hand, top_discard) if phase == _DRAW else discard(hand, taken)


@dataclass(frozen=True)
class Organized:
    """``rules.organize`` of a batch of hands as int64 card masks, one a hand, by category."""

    sequences: np.ndarray
    groups: np.ndarray
    partial_groups: np.ndarray
    partial_sequences: np.ndarray
    deadwood: np.ndarray
    long_sequences: np.ndarray  # the cards of the sequences of four or more
    four_groups: np.ndarray  # the cards of the groups of four


def organize_masks(hands: np.ndarray) -> Organized:
    """``rules.organize`` of each hand (int64 card masks), exactly, by category: ``organize_hand`` of each."""
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    categories = np.empty((len(Organized.__dataclass_fields__), len(hands)), dtype=np.int64)
    _organize_rows(hands, categories)
    return Organized(*categories)


@jit.njit(cache=True, nogil=True)
def _organize_rows(hands, categories):
    """``categories[:, row]``: ``organize_hand`` of each hand."""
    for row in range(hands.shape[0]):
        organized = organize_hand(hands[row])
        for category in range(categories.shape[0]):
            categories[category, row] = organized[category]


@register("ginrummy", "cs340")
class CS340:
    """The CS 340 spec's computer player: organize, draw by its three checks, throw the highest unmatched card."""

    compiled: CompiledPolicy = compiled_policy(cs340)

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch, as ``cs340_action`` of each row."""
        return choose_compiled(self.compiled, observation)
