"""``heuristic``: values each chain by what it is likely to reach, and plans the forced sales.

As Bohnanza players do, a chain is worth the coins it should sell for once the cards of its stone
still to come have joined it: the player's own hand cards of that stone, plus its share of the
unseen ones (deck and opponent's hand) that the rest of the game will bring through its trade area.
Chains still on the table at the end pay nothing, so that worth is discounted as the deck runs
down. Every choice is scored one step ahead: the coins a move sells for now, the worth of the
chains it leaves, and the sales the next hand cards will force (the front two cards are played
soon whatever happens, so their sales are planned with the best choice of chain to sell).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.gemstones import rules
from sim.gemstones.observation import BUY, DISCARD, NONE, PASS, SELL, Observation, Phase
from strategies import register
from strategies.gemstones.batch import (
    CHAIN_VALUES,
    Chains,
    Decision,
    decide,
    one_hot,
    stone_counts,
    taken,
    unseen_counts,
)
from strategies.gemstones.greedy import GREEDY_DECISIONS, greedy_action
from strategies.gemstones.view import View

CAPTURE = 0.35  # share of the unseen cards of a stone the player expects to chain
PLANNED_HAND_CARDS = 2  # the front cards whose forced plays are planned
FULL_WORTH_DECK = 40  # with this many cards left or more, a chain's worth is not discounted
MIN_WORTH_SHARE = 0.15
GREEDY_PHASES = (Phase.OFFER, Phase.TRADE, Phase.PLAY_SECOND)  # where the look-ahead did worse than greedy


def chain_worth(view: View, chain: rules.Chain, hand_rest: tuple[int, ...]) -> float:
    """The coins ``chain`` should sell for, discounted for the chance it is still unsold at the end."""
    stone, length = chain
    unseen_total = max(1, sum(view.unseen))
    coming = view.unseen[stone] * CAPTURE * min(1.0, view.deck_size / unseen_total)
    expected = length + hand_rest.count(stone) + coming
    low, high = rules.chain_value(stone, int(expected)), rules.chain_value(stone, int(expected) + 1)
    reached = low + (high - low) * (expected - int(expected))
    share = max(MIN_WORTH_SHARE, min(1.0, view.deck_size / FULL_WORTH_DECK))
    return max(rules.chain_value(stone, length), share * reached)


def position_value(view: View, slots: rules.Slots, hand: tuple[int, ...]) -> float:
    """Coins from the planned forced plays of the front hand cards plus the worth of the chains left."""
    coins = 0.0
    planned, rest = hand[:PLANNED_HAND_CARDS], hand[PLANNED_HAND_CARDS:]
    for stone in planned:
        slots, earned = place_best(view, slots, stone, rest)
        coins += earned
    return coins + sum(chain_worth(view, chain, rest) for chain in slots if chain is not None)


def place_best(
    view: View, slots: rules.Slots, stone: int, hand_rest: tuple[int, ...], sellable: tuple[int, ...] | None = None
) -> tuple[rules.Slots, int]:
    """Place a card, selling (when forced) the chain whose sale loses the least worth."""
    if rules.slot_for(slots, stone) is not None:
        return rules.place(slots, stone)
    options = sellable if sellable is not None else tuple(s for s, c in enumerate(slots) if c is not None)

    def loss(slot: int) -> float:
        chain = rules.chain_at(slots, slot)
        return chain_worth(view, chain, hand_rest) - rules.chain_value(*chain)

    return rules.place(slots, stone, min(options, key=lambda slot: (loss(slot), slot)))


def heuristic_action(view: View) -> int:
    """The heuristic's action in one game: the definition ``heuristic_actions`` follows row by row."""
    if len(view.legal) == 1:
        return view.legal[0]
    hand = view.hand
    if view.phase in GREEDY_PHASES:
        return greedy_action(view)
    if view.phase == Phase.BUY:
        useful = all(view.slots) and view.deck_size >= FULL_WORTH_DECK
        return BUY if useful else PASS
    if view.phase == Phase.DISCARD:
        scores = {
            DISCARD + position: position_value(view, view.slots, hand[:position] + hand[position + 1 :])
            for position in range(len(hand))
        }
        best = max(scores, key=lambda action: (scores[action], -action))
        return best if scores[best] > position_value(view, view.slots, hand) else PASS
    if view.pending is None:  # every other phase is decided above; Phase.SELL always has a card waiting
        raise ValueError(f"heuristic has no decision to make in phase {view.phase.name}")
    sellable = tuple(action - SELL for action in view.legal)
    slots, _ = place_best(view, view.slots, view.pending, hand[PLANNED_HAND_CARDS:], sellable)
    return SELL + next(slot for slot in sellable if slots[slot] != view.slots[slot])


# --------------------------------------------------------------------------- the whole batch at once
# The float arithmetic below repeats the scalar functions' operations in their order (Python floats
# and numpy's float64 are the same IEEE doubles), so every score, and every comparison and tie
# between scores, is bit for bit the scalar one.


@dataclass(frozen=True)
class Outlook:
    """Per case (a row, or a hypothetical hand of a row), what ``chain_worth`` reads besides the chain."""

    unseen: np.ndarray
    """(c, 8) int64 ``view.unseen``."""
    arrival: np.ndarray
    """(c,) float64 ``min(1.0, view.deck_size / unseen_total)``: the unseen cards still to be drawn."""
    share: np.ndarray
    """(c,) float64 the worth kept as the deck runs down."""

    @classmethod
    def of(cls, observation: Observation, rows: np.ndarray) -> Outlook:
        """The outlook of the mover in each of the rows ``rows``."""
        unseen = unseen_counts(observation, rows)
        deck_sizes = taken(observation.deck_size, rows)
        unseen_totals = np.maximum(1, unseen.sum(axis=1))
        return cls(
            unseen,
            np.minimum(1.0, deck_sizes / unseen_totals),
            np.maximum(MIN_WORTH_SHARE, np.minimum(1.0, deck_sizes / FULL_WORTH_DECK)),
        )

    def take(self, rows: np.ndarray) -> Outlook:
        """The outlook of the cases ``rows``."""
        return Outlook(taken(self.unseen, rows), taken(self.arrival, rows), taken(self.share, rows))


def chain_worths(outlook: Outlook, chains: Chains, hand_rest: np.ndarray) -> np.ndarray:
    """(c, 3) float64 ``chain_worth`` of each chain given the stone counts ``hand_rest`` (c, 8) of the
    hand cards not planned; meaningless for an empty slot."""
    stones = np.maximum(chains.stones, 0)
    coming = np.take_along_axis(outlook.unseen, stones, axis=1) * CAPTURE * outlook.arrival[:, None]
    expected = chains.lengths + np.take_along_axis(hand_rest, stones, axis=1) + coming
    whole = expected.astype(np.int64)  # int(): expected is never negative, so truncation is the floor
    low, high = CHAIN_VALUES[stones, whole], CHAIN_VALUES[stones, whole + 1]
    reached = low + (high - low) * (expected - whole)
    return np.maximum(CHAIN_VALUES[stones, chains.lengths], outlook.share[:, None] * reached)


def cheapest_sales(outlook: Outlook, chains: Chains, hand_rest: np.ndarray, sellable: np.ndarray) -> np.ndarray:
    """(c,) the slot among ``sellable`` (c, 3) whose sale loses the least worth, then the first
    (``place_best``'s ``min(options, key=lambda slot: (loss(slot), slot))``)."""
    losses = chain_worths(outlook, chains, hand_rest) - chains.values()
    return np.argmin(np.where(sellable, losses, np.inf), axis=1)


def place_best_batch(
    outlook: Outlook, chains: Chains, stones: np.ndarray, hand_rest: np.ndarray
) -> tuple[Chains, np.ndarray]:
    """``place_best`` of a card of ``stones`` (c,) in each case (``NONE``: no card, nothing changes):
    the chains after it and the coins (c,) of the sale it forced."""
    sold = cheapest_sales(outlook, chains, hand_rest, chains.filled)
    forced = ~chains.fits(stones) & (stones != NONE)
    coins = np.where(forced, chains.values()[np.arange(len(sold)), sold], 0)
    return chains.placed(stones, sold), coins


def position_values(outlook: Outlook, chains: Chains, planned: np.ndarray, hand_rest: np.ndarray) -> np.ndarray:
    """(c,) float64 ``position_value`` of each case: its chains, the front hand cards ``planned``
    (c, PLANNED_HAND_CARDS) ``NONE``-padded, and the stone counts ``hand_rest`` (c, 8) of the others."""
    coins = np.zeros(len(planned))
    for column in range(PLANNED_HAND_CARDS):
        chains, earned = place_best_batch(outlook, chains, planned[:, column], hand_rest)
        coins += earned
    worths = np.where(chains.filled, chain_worths(outlook, chains, hand_rest), 0.0)
    total = worths[:, 0]
    for slot in range(1, rules.MAX_SLOTS):  # slot by slot, as sum() adds them (x + 0.0 is x)
        total = total + worths[:, slot]
    return coins + total


def buy_batch(observation: Observation, rows: np.ndarray) -> np.ndarray:
    """Phase.BUY: buy once both slots are full, while the deck is still long enough to pay it back."""
    useful = Chains.of_mover(observation, rows).full & (taken(observation.deck_size, rows) >= FULL_WORTH_DECK)
    return np.where(useful, BUY, PASS)


def discard_batch(observation: Observation, rows: np.ndarray) -> np.ndarray:
    """Phase.DISCARD: the discard leaving the best position (the first of equals), if it beats keeping all."""
    hand = taken(observation.hand, rows)
    sizes = (hand != NONE).sum(axis=1)
    width = max(int(sizes.max()), PLANNED_HAND_CARDS + 1)  # hand[:, 2] is read even when the hand is short
    hand = hand[:, :width]
    hand_counts = stone_counts(hand)
    # Case 0 .. n-1 keeps the whole hand; then one case per (row, position) discarding that card.
    row_of, position = np.nonzero(np.arange(width) < sizes[:, None])
    kept_front = hand[:, :PLANNED_HAND_CARDS]
    first = np.where(position == 0, hand[row_of, 1], hand[row_of, 0])
    second = np.where(position >= PLANNED_HAND_CARDS, hand[row_of, 1], hand[row_of, 2])
    discarded = hand[row_of, position]
    planned = np.concatenate([kept_front, np.stack([first, second], axis=1)])
    cases = np.concatenate([np.arange(len(rows)), row_of])
    hand_rest = taken(hand_counts, cases) - one_hot(planned[:, 0]) - one_hot(planned[:, 1])
    hand_rest[len(rows) :] -= one_hot(discarded)
    values = position_values(
        Outlook.of(observation, rows).take(cases), Chains.of_mover(observation, rows).take(cases), planned, hand_rest
    )
    stay = values[: len(rows)]
    scores = np.full(hand.shape, -np.inf)
    scores[row_of, position] = values[len(rows) :]
    best = np.argmax(scores, axis=1)  # the highest score, the lowest position of equals: key (score, -action)
    return np.where(scores[np.arange(len(rows)), best] > stay, DISCARD + best, PASS)


def sale_batch(observation: Observation, rows: np.ndarray) -> np.ndarray:
    """Phase.SELL: the legal sale losing the least worth."""
    hand_rest = stone_counts(taken(observation.hand, rows)[:, PLANNED_HAND_CARDS:])
    sellable = taken(observation.legal_mask, rows)[:, SELL : SELL + rules.MAX_SLOTS]
    chains = Chains.of_mover(observation, rows)
    return SELL + cheapest_sales(Outlook.of(observation, rows), chains, hand_rest, sellable)


HEURISTIC_DECISIONS: dict[Phase, Decision] = {
    **{phase: GREEDY_DECISIONS[phase] for phase in GREEDY_PHASES},
    Phase.BUY: buy_batch,
    Phase.DISCARD: discard_batch,
    Phase.SELL: sale_batch,
}


def heuristic_actions(observation: Observation) -> np.ndarray:
    """(B,) int64 ``heuristic_action`` of every row of the batch."""
    return decide(observation, HEURISTIC_DECISIONS)


@register("gemstones", "heuristic")
class Heuristic:
    """Values chains by what they should reach given the unseen cards, and plans the forced sales."""

    def choose(self, observation: Observation) -> np.ndarray:
        return heuristic_actions(observation)
