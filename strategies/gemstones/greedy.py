"""``greedy``: the obvious rules, one look at the table, no counting of unseen cards.

Chain what fits; take a card that forces a sale only when some chain would sell for a coin or more;
play the second card only when it fits; discard the card that would force the worst sale (one that
pays nothing); sell the chain worth the most now; buy the third chain when both slots are full.
"""

from __future__ import annotations

import numpy as np

from sim.gemstones import rules
from sim.gemstones.observation import BUY, CHAIN, DISCARD, NONE, PASS, PLAY, SELL, Observation, Phase
from strategies import register
from strategies.gemstones.batch import STONE_IDS, Chains, Decision, best_sales, decide, taken
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
    """Greedy's action in one game: the definition ``greedy_actions`` follows row by row."""
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


# --------------------------------------------------------------------------- the whole batch at once
# Each function decides the rows ``rows`` of a batch in one phase, with more than one legal action.


def best_sale_pays(chains: Chains) -> np.ndarray:
    """(n,) bool: the best sale of the chains (``best_sale``) pays a coin or more, so on a full table
    a card of any stone that fits nowhere is still taken without loss (``takes_without_loss``)."""
    return best_sales(chains, chains.filled)[1] >= 1


def buy_batch(observation: Observation, rows: np.ndarray) -> np.ndarray:
    """Phase.BUY: buy once both slots are full."""
    return np.where(Chains.of_mover(observation, rows).full, BUY, PASS)


def chain_choice_batch(observation: Observation, rows: np.ndarray) -> np.ndarray:
    """Phase.OFFER and Phase.TRADE: ``chain_choice``."""
    chains = Chains.of_mover(observation, rows)
    counts = taken(observation.trade_counts, rows)
    offered = counts > 0
    extending = offered & chains.holding(np.broadcast_to(STONE_IDS, counts.shape))
    # With no chain to extend, a card fits only in an empty slot, which then takes any stone; on a
    # full table every card forces the same best sale, so it pays for all offered stones or for none.
    takes_any = ~chains.full | best_sale_pays(chains)
    candidates = np.where(extending.any(axis=1)[:, None], extending, offered & takes_any[:, None])
    most = np.argmax(np.where(candidates, counts, -1), axis=1)  # the first (lowest) stone of the most cards
    return np.where(candidates.any(axis=1), CHAIN + most, PASS)


def play_second_batch(observation: Observation, rows: np.ndarray) -> np.ndarray:
    """Phase.PLAY_SECOND: play the front card when it fits."""
    chains = Chains.of_mover(observation, rows)
    return np.where(chains.fits(taken(observation.hand, rows)[:, 0]), PLAY, PASS)


def discard_choice_batch(observation: Observation, rows: np.ndarray) -> np.ndarray:
    """Phase.DISCARD: ``discard_choice``."""
    chains = Chains.of_mover(observation, rows)
    hand = taken(observation.hand, rows)
    # Only on a full table whose best sale pays nothing does any card lose: those of no chain's stone.
    losing = ~chains.holding(hand) & (hand != NONE) & (chains.full & ~best_sale_pays(chains))[:, None]
    return np.where(losing.any(axis=1), DISCARD + np.argmax(losing, axis=1), PASS)


def sale_choice_batch(observation: Observation, rows: np.ndarray) -> np.ndarray:
    """Phase.SELL: the legal sale of the most coins (``best_sale`` of the sellable slots)."""
    sellable = taken(observation.legal_mask, rows)[:, SELL : SELL + rules.MAX_SLOTS]
    return SELL + best_sales(Chains.of_mover(observation, rows), sellable)[0]


GREEDY_DECISIONS: dict[Phase, Decision] = {
    Phase.BUY: buy_batch,
    Phase.OFFER: chain_choice_batch,
    Phase.TRADE: chain_choice_batch,
    Phase.PLAY_SECOND: play_second_batch,
    Phase.DISCARD: discard_choice_batch,
    Phase.SELL: sale_choice_batch,
}


def greedy_actions(observation: Observation) -> np.ndarray:
    """(B,) int64 ``greedy_action`` of every row of the batch."""
    return decide(observation, GREEDY_DECISIONS)


@register("gemstones", "greedy")
class Greedy:
    """The obvious rules: chain what fits, sell the most valuable chain when forced, discard what forces a bad sale."""

    def choose(self, observation: Observation) -> np.ndarray:
        return greedy_actions(observation)
