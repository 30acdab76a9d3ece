"""One game's observation as plain values, and the rule arithmetic the strategies share."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.gemstones import rules
from sim.gemstones.observation import NONE, Observation, Phase


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
