"""``greedy``: the obvious rules, one look at the table, no counting of unseen cards.

Chain what fits; take a card that forces a sale only when some chain would sell for a coin or more;
play the second card only when it fits; discard the card that would force the worst sale (one that
pays nothing); sell the chain worth the most now; buy the third chain when both slots are full.
"""

from __future__ import annotations

import numpy as np

from sim.gemstones import rules
from sim.gemstones.observation import BUY, CHAIN, DISCARD, PASS, PLAY, SELL, Observation, Phase
from strategies import register
from strategies.gemstones.view import View, sale_values


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


@register("gemstones", "greedy")
class Greedy:
    """The obvious rules: chain what fits, sell the most valuable chain when forced, discard what forces a bad sale."""

    def choose(self, observation: Observation) -> np.ndarray:
        return np.array([greedy_action(View.of(observation, row)) for row in range(len(observation))], dtype=np.int64)
