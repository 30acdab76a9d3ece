"""``greedy``: the obvious rules, one look at the table, no counting of unseen cards.

Chain what fits; take a card that forces a sale only when some chain would sell for a coin or more;
play the second card only when it fits; discard the card that would force the worst sale (one that
pays nothing); sell the chain worth the most now; buy the third chain when both slots are full.

It is a compiled policy (``sim.gemstones.observation.POLICY``): the fast engine calls it inside its
kernel, and ``choose`` runs it over a batch's rows. The helpers reading the mover's chains are the
ones ``heuristic`` shares (``sim.gemstones.policies.chains``).
"""

from __future__ import annotations

from sim import jit
from sim.gemstones.observation import DISCARD, PASS, POLICY, Phase
from sim.gemstones.policies.chains import chain_of, greedy_choice, has_one_action, only_action, takes_any_without_loss


@jit.njit(POLICY.signature, cache=True, nogil=True, inline="always")
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
