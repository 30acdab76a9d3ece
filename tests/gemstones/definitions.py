"""The scalar definitions of greedy and heuristic, one game at a time on a ``View``: the readable
oracle the compiled policies (strategies/gemstones) are checked against, row by row."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.gemstones import rules
from sim.gemstones.observation import BUY, CHAIN, DISCARD, NONE, PASS, PLAY, SELL, Observation, Phase

CAPTURE = 0.35  # share of the unseen cards of a stone the player expects to chain
PLANNED_HAND_CARDS = 2  # the front cards whose forced plays are planned
FULL_WORTH_DECK = 40  # with this many cards left or more, a chain's worth is not discounted
MIN_WORTH_SHARE = 0.15
GREEDY_PHASES = (Phase.OFFER, Phase.TRADE, Phase.PLAY_SECOND)  # where the look-ahead did worse than greedy


@dataclass(frozen=True)
class View:
    """Row ``row`` of an observation, from the mover's side."""

    phase: Phase
    legal: tuple[int, ...]
    slots: rules.Slots  # the mover's chains
    hand: tuple[int, ...]
    coins: int
    trade_counts: tuple[int, ...]
    pending: int | None
    deck_size: int
    unseen: tuple[int, ...]  # per stone: deck + opponent's hand
    third_chain_cost: int
    game_id: int
    step: int
    seat: int

    @classmethod
    def of(cls, observation: Observation, row: int) -> View:
        seat = int(observation.seat[row])
        slots = tuple(
            None if stone == NONE else (int(stone), int(length))
            for stone, length in zip(observation.chain_stones[row, seat], observation.chain_lengths[row, seat])
        )[: int(observation.slots[row, seat])]
        hand = observation.hand[row]
        pending = int(observation.pending[row])
        return cls(
            phase=Phase(int(observation.phase[row])),
            legal=tuple(int(action) for action in np.flatnonzero(observation.legal_mask[row])),
            slots=slots,
            hand=tuple(int(stone) for stone in hand[hand != NONE]),
            coins=int(observation.coins[row, seat]),
            trade_counts=tuple(int(count) for count in observation.trade_counts[row]),
            pending=None if pending == NONE else pending,
            deck_size=int(observation.deck_size[row]),
            unseen=tuple(int(count) for count in observation.unseen_counts(row)),
            third_chain_cost=int(observation.third_chain_cost[row]),
            game_id=int(observation.round_id[row]),
            step=int(observation.step[row]),
            seat=seat,
        )


def sale_values(slots: rules.Slots) -> dict[int, int]:
    """Coins each filled slot would sell for now."""
    return {slot: rules.chain_value(*chain) for slot, chain in enumerate(slots) if chain is not None}


def best_sale(slots: rules.Slots) -> tuple[int, int]:
    """The slot to sell when forced, and its coins: the most coins, then the shortest chain."""
    values = sale_values(slots)
    slot = max(values, key=lambda s: (values[s], -rules.chain_at(slots, s)[1]))
    return slot, values[slot]


def takes_without_loss(slots: rules.Slots, stone: int) -> bool:
    """The card fits, or the sale it forces pays at least a coin."""
    return rules.slot_for(slots, stone) is not None or best_sale(slots)[1] >= 1


def chain_choice(view: View) -> int:
    """The trade-area stone to chain: one that extends a chain, else starts one, else a paying sale."""
    offered = [stone for stone, count in enumerate(view.trade_counts) if count]
    extending = [stone for stone in offered if any(c and c[0] == stone for c in view.slots)]
    if extending:
        return CHAIN + max(extending, key=lambda stone: view.trade_counts[stone])
    fitting = [stone for stone in offered if rules.slot_for(view.slots, stone) is not None]
    if fitting:
        return CHAIN + max(fitting, key=lambda stone: view.trade_counts[stone])
    paying = [stone for stone in offered if takes_without_loss(view.slots, stone)]
    return CHAIN + max(paying, key=lambda stone: view.trade_counts[stone]) if paying else PASS


def discard_choice(view: View) -> int:
    """Discard the first hand card whose play would force a sale paying nothing."""
    for position, stone in enumerate(view.hand):
        if not takes_without_loss(view.slots, stone):
            return DISCARD + position
    return PASS


def greedy_action(view: View) -> int:
    """Greedy's action in one game: the definition the compiled ``greedy`` policy follows."""
    if len(view.legal) == 1:
        return view.legal[0]
    if view.phase == Phase.BUY:
        return BUY if all(view.slots) else PASS
    if view.phase in (Phase.OFFER, Phase.TRADE):
        return chain_choice(view)
    if view.phase == Phase.PLAY_SECOND:
        return PLAY if rules.slot_for(view.slots, view.hand[0]) is not None else PASS
    if view.phase == Phase.DISCARD:
        return discard_choice(view)
    return SELL + best_sale(tuple(c if SELL + s in view.legal else None for s, c in enumerate(view.slots)))[0]


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
    """The heuristic's action in one game: the definition the compiled ``heuristic`` policy follows."""
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
