"""The CS 340 spec's computer player: the organizing algorithm, its draw rules and its discard/knock rules.

``choose_draw`` and ``choose_discard`` take cards as ids or two-character names ("TD"). Where the
spec leaves a choice (docs/ginrummy.md): among equal-valued candidates the highest rank is thrown,
then the highest suit — which takes the top card of a run, so what is left stays a run.

The registered player (``CS340.choose``) decides a whole batch at once, with no loop over its rows:
``organize_masks`` runs ``rules.organize`` on int64 card masks (sequences, groups, pairs and partial
sequences are shifts and masks of whole batches). Breaking a sequence for a pair (step 3) loops over
the thirteen ranks, highest first, for the rows holding a pair of a rank some sequence holds, each
step for all of them at once: tables over a suit's 2^13 rank patterns give what breaking a rank out
of its stretch leaves, and each card keeps its sequence's place in ``organize``'s list, so that two
sequences leaving the same value are broken in the same order. The scalar functions below
(``choose_draw``, ``choose_discard``, ``cs340_action``) are the reference it plays exactly as.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from sim.cards import NUM_CARDS, NUM_RANKS, NUM_SUITS, cards_in, rank_of, suit_of
from sim.ginrummy import melds, rules
from sim.ginrummy.melds import LOWERED_ONE_RANK, RAISED_ONE_RANK, RANK_ACROSS_SUITS
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, NONE, Observation, Phase, knock
from strategies import register
from strategies.ginrummy.batch import by_phase

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


# ----------------------------------------------------------------------------- the whole batch at once

_SUIT = (1 << NUM_RANKS) - 1
_PATTERNS = 1 << NUM_RANKS
_RANK_VALUES = np.array([rules.card_value(rank) for rank in range(NUM_RANKS)], dtype=np.int64)
_ONE = np.int64(1)


def _up(masks: np.ndarray) -> np.ndarray:
    """Each card moved one rank up its suit (a king drops out): bit x set where x - 1 is held."""
    return (masks << 1) & RAISED_ONE_RANK


def _down(masks: np.ndarray) -> np.ndarray:
    """Each card moved one rank down its suit (an ace drops out): bit x set where x + 1 is held."""
    return (masks >> 1) & LOWERED_ONE_RANK


def _ranks(masks: np.ndarray) -> np.ndarray:
    """The 13-bit pattern of the ranks each mask holds in any suit."""
    return (masks | (masks >> NUM_RANKS) | (masks >> (2 * NUM_RANKS)) | (masks >> (3 * NUM_RANKS))) & _SUIT


def _highest_bit(masks: np.ndarray) -> np.ndarray:
    """The index of each mask's highest bit (exact: masks stay below 2**52)."""
    return np.frexp(masks.astype(np.float64))[1].astype(np.int64) - 1


def _breaking_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """[pattern, rank] for a suit's rank pattern holding ``rank`` in a stretch of sequence cards:
    the value left unmatched by breaking ``rank`` out of its stretch, the ranks still in sequences
    (the pattern less the rank and the loose cards) and the loose ranks (``rules.broken_value``)."""
    patterns = np.arange(_PATTERNS, dtype=np.int64)
    held = ((patterns[:, None] >> np.arange(NUM_RANKS)) & 1).astype(bool)
    loose = np.zeros((_PATTERNS, NUM_RANKS), dtype=np.int64)
    for rank in range(NUM_RANKS):
        for step in (-1, 1):
            going, piece, length = np.ones(_PATTERNS, dtype=bool), np.zeros_like(patterns), np.zeros_like(patterns)
            other = rank + step
            while 0 <= other < NUM_RANKS:
                going &= held[:, other]
                piece |= going.astype(np.int64) << other
                length += going
                other += step
            loose[:, rank] |= np.where(length < rules.MIN_MELD, piece, 0)
    values = ((loose[..., None] >> np.arange(NUM_RANKS)) & 1) @ _RANK_VALUES
    kept = patterns[:, None] & ~loose & ~(_ONE << np.arange(NUM_RANKS))
    return values, kept, loose


_BROKEN_VALUE, _KEPT, _LOOSE = _breaking_tables()
_PAST_VALUES = 1 << 10  # above any value left unmatched, and above every sequence's place
_FIRST_APPENDED = 16  # the first place of a sequence appended by a break, after the four suits'


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

    @property
    def unmatched(self) -> np.ndarray:
        """The cards of the partial groups, the partial sequences and the deadwood."""
        return self.partial_groups | self.partial_sequences | self.deadwood


def _break_sequences(sequences: np.ndarray, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Step 3 of ``rules.organize`` for hands holding a pair of a rank in one of their ``sequences``:
    ``(sequences left, cards of the groups made by breaking, loose cards)``.

    Pairs go highest rank first. A pair's options are the cards of its rank in the sequences (at
    most two, in the suits the pair lacks); the one leaving the least value is broken when that is
    less than the pair's, of equal values the one ``organize`` lists first: its sequences in card
    order, then those a break appended, in turn (the part below the broken card before the part
    above). ``place`` keeps each card's sequence's position in that order."""
    rows = len(sequences)
    loose = np.zeros(rows, dtype=np.int64)
    broken = np.zeros(rows, dtype=np.int64)
    place = np.broadcast_to(np.repeat(np.arange(NUM_SUITS), NUM_RANKS), (rows, NUM_CARDS)).copy()
    pair_ranks = _ranks(pairs)
    shifts = np.arange(NUM_SUITS) * NUM_RANKS
    ranks = np.arange(NUM_RANKS)
    for rank in range(NUM_RANKS - 1, -1, -1):
        some = np.flatnonzero((pair_ranks & _ranks(sequences)) >> rank & 1)
        if not len(some):
            continue
        patterns = (sequences[some, None] >> shifts) & _SUIT  # (k, 4)
        held = (patterns >> rank) & 1 == 1
        order = _BROKEN_VALUE[patterns, rank] * _PAST_VALUES + place[some[:, None], shifts + rank]
        order = np.where(held, order, np.iinfo(np.int64).max)  # a suit without the rank is no option
        suit = order.argmin(axis=1)
        breaks = order[np.arange(len(some)), suit] // _PAST_VALUES < 2 * _RANK_VALUES[rank]
        some, suit = some[breaks], suit[breaks]
        if not len(some):
            continue
        pattern = patterns[breaks, suit]
        shift = suit * NUM_RANKS
        kept = _KEPT[pattern, rank]
        sequences[some] = (sequences[some] & ~(pattern << shift)) | (kept << shift)
        loose[some] |= _LOOSE[pattern, rank] << shift
        broken[some] |= (pairs[some] | (_ONE << (shift + rank))) & (RANK_ACROSS_SUITS << rank)
        columns = shift[:, None] + ranks
        below = (kept[:, None] >> ranks) & 1 & (ranks < rank) == 1
        above = (kept[:, None] >> ranks) & 1 & (ranks > rank) == 1
        appended = _FIRST_APPENDED + 2 * (NUM_RANKS - 1 - rank)
        cells = place[some[:, None], columns]
        place[some[:, None], columns] = np.where(below, appended, np.where(above, appended + 1, cells))
    return sequences, broken, loose


def organize_masks(hands: np.ndarray) -> Organized:
    """``rules.organize`` of each hand (int64 card masks), exactly, by category."""
    hands = np.asarray(hands, dtype=np.int64)
    starts = hands & _down(hands) & _down(_down(hands))  # three in a row from here
    sequences = starts | _up(starts) | _up(_up(starts))
    left = hands & ~sequences
    clubs, diamonds, hearts, spades = ((left >> (suit * NUM_RANKS)) & _SUIT for suit in range(NUM_SUITS))
    two = (clubs & diamonds) | ((clubs | diamonds) & (hearts | spades)) | (hearts & spades)
    three = (clubs & diamonds & (hearts | spades)) | ((clubs | diamonds) & hearts & spades)
    four_groups = (clubs & diamonds & hearts & spades) * RANK_ACROSS_SUITS
    groups = (three * RANK_ACROSS_SUITS) & left
    pairs = ((two & ~three) * RANK_ACROSS_SUITS) & left
    loose = np.zeros_like(hands)
    breaking = np.flatnonzero(_ranks(pairs) & _ranks(sequences))
    if len(breaking):
        kept, broken, loose_cards = _break_sequences(sequences[breaking], pairs[breaking])
        sequences[breaking] = kept
        groups[breaking] |= broken
        pairs[breaking] &= ~broken
        loose[breaking] = loose_cards
    # The cards left never hold three in a row: two are a partial sequence, one is deadwood.
    rest = (left & ~groups & ~pairs) | loose
    partial_sequences = rest & (_up(rest) | _down(rest))
    four = sequences & _down(sequences) & _down(_down(sequences)) & _down(_down(_down(sequences)))
    return Organized(
        sequences=sequences,
        groups=groups,
        partial_groups=pairs,
        partial_sequences=partial_sequences,
        deadwood=rest & ~partial_sequences,
        long_sequences=four | _up(four) | _up(_up(four)) | _up(_up(_up(four))),
        four_groups=four_groups,
    )


def draws(hand: np.ndarray, top_discard: np.ndarray) -> np.ndarray:
    """``choose_draw`` of each row: ``DRAW_DISCARD`` when the face-up card completes a partial set,
    adds to a meld, or pairs with a deadwood card while there are two or more, else ``DRAW_STOCK``."""
    organized = organize_masks(hand)
    top = np.asarray(top_discard, dtype=np.int64)
    rank = top % NUM_RANKS  # as ``rank_of``, also of no card (-1): its rank tests still run
    card = np.where(top >= 0, _ONE << np.maximum(top, 0), 0)  # no card is of no suit
    same_rank = (_ranks(organized.partial_groups | organized.groups) >> rank) & 1 == 1
    next_in_suit = card & melds.rank_neighbours(organized.partial_sequences | organized.sequences) != 0
    deadwood = organized.deadwood
    pairs_dead = ((_ranks(deadwood) >> rank) & 1 == 1) | (card & melds.rank_neighbours(deadwood) != 0)
    takes = same_rank | next_in_suit | (pairs_dead & (np.bitwise_count(deadwood) > 1))
    return np.where(takes, DRAW_DISCARD, DRAW_STOCK).astype(np.int64)


def discards(hand: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """``choose_discard`` of each row as an action: the highest card (rank, then suit) of the first
    category holding one but the card ``taken`` (-1 for none), knocking with it when the ten cards
    left organize to an unmatched value of 10 or less."""
    hand = np.asarray(hand, dtype=np.int64)
    taken = np.asarray(taken, dtype=np.int64)
    organized = organize_masks(hand)
    allowed = ~np.where(taken >= 0, _ONE << np.maximum(taken, 0), 0)
    candidates = np.zeros_like(hand)
    for category in (
        organized.deadwood,
        organized.partial_groups | organized.partial_sequences,
        organized.long_sequences,
        organized.four_groups,
    ):
        candidates = np.where(candidates == 0, category & allowed, candidates)
    if not candidates.all():
        raise ValueError(f"no card to throw from hand {int(hand[np.argmin(candidates != 0)])}")
    # The card value rises with the rank, so the highest value, then rank, is the highest rank.
    rank = _highest_bit(_ranks(candidates))
    card = rank + _highest_bit((candidates >> rank) & RANK_ACROSS_SUITS)
    left = organize_masks(hand & ~(_ONE << card))
    knocks = melds.cards_value(left.unmatched) <= rules.KNOCK_LIMIT
    return card + KNOCK * knocks


@register("ginrummy", "cs340")
class CS340:
    """The CS 340 spec's computer player: organize, draw by its three checks, throw the highest unmatched card."""

    def choose(self, observation: Observation) -> np.ndarray:
        """One action per row of the batch, as ``cs340_action`` of each row."""
        return by_phase(
            observation,
            lambda o: draws(o.hand, o.top_discard),
            lambda o: discards(o.hand, o.taken),
        )
