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

import numpy as np

from sim.gemstones import rules
from sim.gemstones.observation import BUY, CHAIN, DISCARD, PASS, PLAY, SELL, Observation, Phase
from strategies import register
from strategies.gemstones.greedy import greedy_action
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


def score_after_placing(view: View, stone: int, hand: tuple[int, ...]) -> float:
    slots, coins = place_best(view, view.slots, stone, hand[PLANNED_HAND_CARDS:])
    return coins + position_value(view, slots, hand)


def heuristic_action(view: View) -> int:
    if len(view.legal) == 1:
        return view.legal[0]
    hand = view.hand
    if view.phase in GREEDY_PHASES:
        return greedy_action(view)
    stay = position_value(view, view.slots, hand)
    if view.phase == Phase.BUY:
        useful = all(view.slots) and view.deck_size >= FULL_WORTH_DECK
        return BUY if useful else PASS
    if view.phase in (Phase.OFFER, Phase.TRADE):
        scores = {
            CHAIN + stone: score_after_placing(view, stone, hand)
            for stone, count in enumerate(view.trade_counts)
            if count
        }
        best = max(scores, key=lambda action: (scores[action], -action))
        return best if scores[best] > stay else PASS
    if view.phase == Phase.PLAY_SECOND:
        played = score_after_placing(view, hand[0], hand[1:])
        return PLAY if played >= stay else PASS
    if view.phase == Phase.DISCARD:
        scores = {
            DISCARD + position: position_value(view, view.slots, hand[:position] + hand[position + 1 :])
            for position in range(len(hand))
        }
        best = max(scores, key=lambda action: (scores[action], -action))
        return best if scores[best] > stay else PASS
    if view.pending is None:  # every other phase is decided above; Phase.SELL always has a card waiting
        raise ValueError(f"heuristic has no decision to make in phase {view.phase.name}")
    sellable = tuple(action - SELL for action in view.legal)
    slots, _ = place_best(view, view.slots, view.pending, hand[PLANNED_HAND_CARDS:], sellable)
    return SELL + next(slot for slot in sellable if slots[slot] != view.slots[slot])


@register("gemstones", "heuristic")
class Heuristic:
    """Values chains by what they should reach given the unseen cards, and plans the forced sales."""

    def choose(self, observation: Observation) -> np.ndarray:
        return np.array(
            [heuristic_action(View.of(observation, row)) for row in range(len(observation))], dtype=np.int64
        )
