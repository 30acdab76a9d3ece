"""``greedy``: the obvious rules, one look at the table, no counting of unseen cards.

Chain what fits; take a card that forces a sale only when some chain would sell for a coin or more;
play the second card only when it fits; discard the card that would force the worst sale (one that
pays nothing); sell the chain worth the most now; buy the third chain when both slots are full.

It is a compiled policy (``sim.gemstones.observation.POLICY``): the fast engine calls it inside its
kernel, and ``choose`` runs it over a batch's rows. The helpers reading the mover's chains are the
ones ``heuristic`` shares.
"""

from __future__ import annotations

import numpy as np

from sim import jit
from sim.api import CompiledPolicy
from sim.gemstones.observation import (
    BUY,
    CHAIN,
    COINS,
    DISCARD,
    NONE,
    PASS,
    PLAY,
    POLICY,
    SELL,
    Observation,
    Phase,
    choose_compiled,
)
from strategies import register

NUM_STONES, NUM_SLOTS = COINS.shape[0], 3
SELL_SLOTS = (1 << NUM_SLOTS) - 1  # the sale bits of the legal actions, shifted down by SELL


@jit.njit(cache=True, nogil=True)
def only_action(legal):
    """The lowest action of the legal-action bits ``legal``: the only one when there is one."""
    action = 0
    while not legal >> action & 1:
        action += 1
    return action


@jit.njit(cache=True, nogil=True)
def has_one_action(legal):
    return legal & (legal - 1) == 0


# The mover's chains are two 3-tuples, ``stones`` (``NONE`` for an empty or unbought slot) and
# ``lengths``, with ``bought`` its number of slots: values, so the helpers cost no reference counts.


@jit.njit(cache=True, nogil=True)
def chain_of(stones, stone):
    """The slot of the chain of ``stone``, -1 when there is none."""
    for slot in range(NUM_SLOTS):
        if stones[slot] == stone:
            return slot
    return -1


@jit.njit(cache=True, nogil=True)
def empty_slot(stones, bought):
    """The first bought slot without a chain, -1 when the table is full."""
    for slot in range(bought):
        if stones[slot] == NONE:
            return slot
    return -1


@jit.njit(cache=True, nogil=True)
def filled_slots(stones):
    """Bits of the slots holding a chain."""
    filled = 0
    for slot in range(NUM_SLOTS):
        if stones[slot] != NONE:
            filled |= 1 << slot
    return filled


@jit.njit(cache=True, nogil=True)
def best_sale(stones, lengths, sellable):
    """(slot, coins) the chain to sell among the slot bits ``sellable``: the most coins, then the
    shortest chain, then the first slot."""
    best, best_coins, best_length = -1, -1, 0
    for slot in range(NUM_SLOTS):
        if sellable >> slot & 1:
            coins = COINS[stones[slot], lengths[slot]]
            if coins > best_coins or (coins == best_coins and lengths[slot] < best_length):
                best, best_coins, best_length = slot, coins, lengths[slot]
    return best, best_coins


@jit.njit(cache=True, nogil=True)
def takes_any_without_loss(stones, lengths, bought):
    """A card of any stone fits, or the sale it forces pays at least a coin."""
    return empty_slot(stones, bought) >= 0 or best_sale(stones, lengths, filled_slots(stones))[1] >= 1


@jit.njit(cache=True, nogil=True)
def chain_choice(stones, lengths, bought, offer):
    """The trade-area stone to chain (``offer``: the cards of each stone): the most offered that
    extends a chain, else (when a card fits or its sale pays) the most offered; the lowest stone of
    equals. Else pass."""
    extending, most_extending = -1, 0
    offered, most_offered = -1, 0
    for stone in range(NUM_STONES):
        count = offer[stone]
        if count > most_offered:
            offered, most_offered = stone, count
        if count > most_extending and chain_of(stones, stone) >= 0:
            extending, most_extending = stone, count
    if extending >= 0:
        return CHAIN + extending
    if offered >= 0 and takes_any_without_loss(stones, lengths, bought):
        return CHAIN + offered
    return PASS


@jit.njit(cache=True, nogil=True)
def greedy_choice(phase, legal, stones, lengths, bought, offer, front):
    """Greedy's action in every phase but the discard (``front``: the hand's front card)."""
    if phase == Phase.BUY:
        return PASS if empty_slot(stones, bought) >= 0 else BUY
    if phase == Phase.OFFER or phase == Phase.TRADE:
        return chain_choice(stones, lengths, bought, offer)
    if phase == Phase.PLAY_SECOND:
        return PLAY if chain_of(stones, front) >= 0 or empty_slot(stones, bought) >= 0 else PASS
    return SELL + best_sale(stones, lengths, legal >> SELL & SELL_SLOTS)[0]


@jit.njit(POLICY.signature, cache=True, nogil=True)
def greedy(
    hands, hand, row, seat, phase, legal, hand_sizes, chain_stones, chain_lengths, slots, coins, trade_counts,
    discard, removed_counts, pending, deck_size, round_id, step, settings,
):  # fmt: skip
    """Greedy's action in one game."""
    if has_one_action(legal):
        return only_action(legal)
    stones = (chain_stones[row, seat, 0], chain_stones[row, seat, 1], chain_stones[row, seat, 2])
    lengths = (chain_lengths[row, seat, 0], chain_lengths[row, seat, 1], chain_lengths[row, seat, 2])
    bought = slots[row, seat]
    if phase == Phase.DISCARD:  # the first hand card whose play would force a sale paying nothing
        if not takes_any_without_loss(stones, lengths, bought):
            for position in range(hand_sizes[row, seat]):
                if chain_of(stones, hands[hand, position]) < 0:
                    return DISCARD + position
        return PASS
    offer = (
        trade_counts[row, 0], trade_counts[row, 1], trade_counts[row, 2], trade_counts[row, 3],
        trade_counts[row, 4], trade_counts[row, 5], trade_counts[row, 6], trade_counts[row, 7],
    )  # fmt: skip
    return greedy_choice(phase, legal, stones, lengths, bought, offer, hands[hand, 0])


@register("gemstones", "greedy")
class Greedy:
    """The obvious rules: chain what fits, sell the most valuable chain when forced, discard what forces a bad sale."""

    compiled = CompiledPolicy(greedy)

    def choose(self, observation: Observation) -> np.ndarray:
        return choose_compiled(self.compiled, observation)
