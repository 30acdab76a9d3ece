"""``heuristic``: values each chain by what it is likely to reach, and plans the forced sales.

As Bohnanza players do, a chain is worth the coins it should sell for once the cards of its stone
still to come have joined it: the player's own hand cards of that stone, plus its share of the
unseen ones (deck and opponent's hand) that the rest of the game will bring through its trade area.
Chains still on the table at the end pay nothing, so that worth is discounted as the deck runs
down. Every choice is scored one step ahead: the coins a move sells for now, the worth of the
chains it leaves, and the sales the next hand cards will force (the front two cards are played
soon whatever happens, so their sales are planned with the best choice of chain to sell).

It is a compiled policy (``sim.gemstones.observation.POLICY``). A player's chains being planned are
a pair of 3-tuples (stones, lengths), so trying a hand costs no allocation.
"""

from __future__ import annotations

import numpy as np

from sim import jit
from sim.gemstones import rules
from sim.gemstones.observation import BUY, COINS, DISCARD, NONE, PASS, POLICY, SELL, Phase
from sim.gemstones.policies.chains import (
    NUM_SLOTS,
    NUM_STONES,
    SELL_SLOTS,
    empty_slot,
    filled_slots,
    greedy_choice,
    has_one_action,
    only_action,
)

CAPTURE = 0.35  # share of the unseen cards of a stone the player expects to chain
PLANNED_HAND_CARDS = 2  # the front cards whose forced plays are planned
FULL_WORTH_DECK = 40  # with this many cards left or more, a chain's worth is not discounted
MIN_WORTH_SHARE = 0.15
CARDS_PER_STONE = np.array(rules.CARDS_PER_STONE, dtype=np.int64)


@jit.njit(cache=True, nogil=True)
def chain_worth(stone, length, in_rest, unseen, arrival, share):
    """The coins a chain of ``length`` cards of ``stone`` should sell for, discounted for the chance it
    is still unsold at the end: ``in_rest`` cards of its stone in the hand past the planned ones, its
    ``unseen`` cards of which ``arrival`` are still to be drawn, ``share`` of its worth kept."""
    coming = unseen[stone] * CAPTURE * arrival
    expected = length + in_rest + coming
    whole = int(expected)  # expected is never negative: the floor
    low, high = COINS[stone, whole], COINS[stone, whole + 1]
    reached = low + (high - low) * (expected - whole)
    return max(COINS[stone, length], share * reached)


@jit.njit(cache=True, nogil=True)
def kept_card(hands, hand, skipped, index):
    """Card ``index`` of the hand without its card at position ``skipped`` (-1: the whole hand)."""
    return hands[hand, index if skipped < 0 or index < skipped else index + 1]


@jit.njit(cache=True, nogil=True)
def count_in_rest(hands, hand, size, skipped, stone):
    """The cards of ``stone`` past the planned ones in the ``size`` cards of the hand kept."""
    count = 0
    for index in range(PLANNED_HAND_CARDS, size):
        count += kept_card(hands, hand, skipped, index) == stone
    return count


@jit.njit(cache=True, nogil=True)
def with_slot(values, slot, value):
    """The 3-tuple ``values`` with ``value`` at ``slot``."""
    return (
        value if slot == 0 else values[0],
        value if slot == 1 else values[1],
        value if slot == 2 else values[2],
    )


@jit.njit(cache=True, nogil=True)
def cheapest_sale(stones, lengths, sellable, hands, hand, size, skipped, unseen, arrival, share):
    """The slot among the bits ``sellable`` whose sale loses the least worth; the first of equals."""
    best, best_loss = -1, np.inf
    for slot in range(NUM_SLOTS):
        if sellable >> slot & 1:
            stone, length = stones[slot], lengths[slot]
            in_rest = count_in_rest(hands, hand, size, skipped, stone)
            loss = chain_worth(stone, length, in_rest, unseen, arrival, share) - COINS[stone, length]
            if loss < best_loss:
                best, best_loss = slot, loss
    return best


@jit.njit(cache=True, nogil=True)
def position_value(stones, lengths, bought, hands, hand, size, skipped, unseen, arrival, share):
    """Coins from the planned forced plays of the front cards of the hand kept (``size`` cards) plus
    the worth of the chains left."""
    coins = 0.0
    for index in range(min(PLANNED_HAND_CARDS, size)):
        stone = kept_card(hands, hand, skipped, index)
        slot = -1
        for chain in range(NUM_SLOTS):
            if stones[chain] == stone:
                slot = chain
                break
        if slot < 0:
            for chain in range(bought):
                if stones[chain] == NONE:
                    slot = chain
                    break
        if slot >= 0:
            stones, lengths = with_slot(stones, slot, stone), with_slot(lengths, slot, lengths[slot] + 1)
        else:  # the card forces a sale: the one losing the least worth
            filled = 0
            for chain in range(NUM_SLOTS):
                if stones[chain] != NONE:
                    filled |= 1 << chain
            sold = cheapest_sale(stones, lengths, filled, hands, hand, size, skipped, unseen, arrival, share)
            coins += COINS[stones[sold], lengths[sold]]
            stones, lengths = with_slot(stones, sold, stone), with_slot(lengths, sold, 1)
    worth = 0.0
    for slot in range(NUM_SLOTS):  # slot by slot, as the definition adds them
        if stones[slot] != NONE:
            in_rest = count_in_rest(hands, hand, size, skipped, stones[slot])
            worth = worth + chain_worth(stones[slot], lengths[slot], in_rest, unseen, arrival, share)
    return coins + worth


@jit.njit(cache=True, nogil=True)
def unseen_counts(hands, hand, row, hand_sizes, seat, chain_stones, chain_lengths, trade_counts, discard,
                  removed_counts, pending):  # fmt: skip
    """(8,) the cards of each stone the mover has not seen: the deck plus the opponent's hand."""
    unseen = CARDS_PER_STONE.copy()
    for position in range(hand_sizes[row, seat]):
        unseen[hands[hand, position]] -= 1
    for place in range(discard.shape[1]):
        if discard[row, place] == NONE:
            break
        unseen[discard[row, place]] -= 1
    for player in range(chain_stones.shape[1]):
        for slot in range(NUM_SLOTS):
            if chain_stones[row, player, slot] != NONE:
                unseen[chain_stones[row, player, slot]] -= chain_lengths[row, player, slot]
    for stone in range(NUM_STONES):
        unseen[stone] -= trade_counts[row, stone] + removed_counts[row, stone]
    if pending[row] != NONE:
        unseen[pending[row]] -= 1
    return unseen


@jit.njit(POLICY.signature, cache=True, nogil=True, inline="always")
def heuristic(
    hands, hand, row, seat, phase, legal, hand_sizes, chain_stones, chain_lengths, slots, coins, trade_counts,
    discard, removed_counts, pending, deck_size, round_id, step, settings,
):  # fmt: skip
    """The heuristic's action in one game: greedy's in the offer, the trade area and the second play
    (where the look-ahead did worse than greedy); the purchase, discards and sales scored."""
    if has_one_action(legal):
        return only_action(legal)
    stones = (chain_stones[row, seat, 0], chain_stones[row, seat, 1], chain_stones[row, seat, 2])
    lengths = (chain_lengths[row, seat, 0], chain_lengths[row, seat, 1], chain_lengths[row, seat, 2])
    bought = slots[row, seat]
    if phase == Phase.OFFER or phase == Phase.TRADE or phase == Phase.PLAY_SECOND:
        offer = (
            trade_counts[row, 0], trade_counts[row, 1], trade_counts[row, 2], trade_counts[row, 3],
            trade_counts[row, 4], trade_counts[row, 5], trade_counts[row, 6], trade_counts[row, 7],
        )  # fmt: skip
        return greedy_choice(phase, legal, stones, lengths, bought, offer, hands[hand, 0])
    deck = deck_size[row]
    if phase == Phase.BUY:
        return BUY if empty_slot(stones, bought) < 0 and deck >= FULL_WORTH_DECK else PASS
    unseen = unseen_counts(
        hands, hand, row, hand_sizes, seat, chain_stones, chain_lengths, trade_counts, discard, removed_counts, pending
    )
    arrival = min(1.0, deck / max(1, unseen.sum()))
    share = max(MIN_WORTH_SHARE, min(1.0, deck / FULL_WORTH_DECK))
    size = hand_sizes[row, seat]
    if phase == Phase.DISCARD:
        stay = position_value(stones, lengths, bought, hands, hand, size, -1, unseen, arrival, share)
        best, best_value = -1, -np.inf
        for position in range(size):  # the best discard, the first of equals
            value = position_value(stones, lengths, bought, hands, hand, size - 1, position, unseen, arrival, share)
            if value > best_value:
                best, best_value = position, value
        return DISCARD + best if best_value > stay else PASS
    # Phase.SELL: the legal sale losing the least worth.
    sellable = legal >> SELL & SELL_SLOTS & filled_slots(stones)
    return SELL + cheapest_sale(stones, lengths, sellable, hands, hand, size, -1, unseen, arrival, share)
