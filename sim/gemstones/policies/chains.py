"""What the built-in Gemstones policies share: reading the legal-action bits and the mover's chains,
and greedy's choice in every phase but the discard (which ``heuristic`` takes where its look-ahead
did worse than greedy)."""

from __future__ import annotations

from sim import jit
from sim.gemstones.observation import BUY, CHAIN, COINS, NONE, PASS, PLAY, SELL, Phase

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
