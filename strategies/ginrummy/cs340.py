"""The CS 340 spec's computer player: the organizing algorithm, its draw rules and its discard/knock rules.

``choose_draw`` and ``choose_discard`` take cards as ids or two-character names ("TD"). Where the
spec leaves a choice (docs/ginrummy.md): among equal-valued candidates the highest rank is thrown,
then the highest suit — which takes the top card of a run, so what is left stays a run.

The registered player (``CS340``) is a compiled policy (``sim.ginrummy.policies.cs340``), which
the fast engine calls inside its kernel and whose ``choose`` runs it over a batch's rows. The scalar
functions below (``choose_draw``, ``choose_discard``, ``cs340_action``) are the reference it plays
exactly as.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from sim import jit
from sim.api import CompiledPolicy
from sim.cards import cards_in, rank_of, suit_of
from sim.ginrummy import rules
from sim.ginrummy.observation import (
    DRAW_DISCARD,
    DRAW_STOCK,
    NONE,
    Observation,
    Phase,
    choose_compiled,
    compiled_policy,
    knock,
)
from sim.ginrummy.policies.cs340 import cs340, organize_hand
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
