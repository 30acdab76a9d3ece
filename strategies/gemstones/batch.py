"""What the batched Gemstones strategies share: the mover's chains as arrays, chain values by table
lookup, the unseen cards of every row at once, and handing each phase's rows to its decision.

The scalar strategies (``View`` and the ``*_action`` functions) read one row at a time and define
what the strategies do; the batched code answers a whole batch with numpy and must give the same
action on every row (the tests check it). A row whose mover has a single legal action takes it
without asking any decision, as the scalar strategies do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from sim.gemstones import rules
from sim.gemstones.fast import COINS
from sim.gemstones.observation import NONE, Observation, Phase

CHAIN_VALUES = COINS
"""(8, 105) ``rules.chain_value(stone, length)`` at ``[stone, length]``: the fast engine's coin table."""
STONE_IDS = np.arange(rules.NUM_STONES)
SLOT_IDS = np.arange(rules.MAX_SLOTS)
CARDS_PER_STONE = np.array(rules.CARDS_PER_STONE, dtype=np.int64)

Decision = Callable[[Observation, np.ndarray], np.ndarray]
"""``decision(observation, rows)``: the actions (len(rows),) int64 of the rows ``rows`` of the batch."""


def decide(observation: Observation, decisions: Mapping[Phase, Decision]) -> np.ndarray:
    """(B,) int64 actions: a row's only legal action when it has one, else ``decisions[phase]``'s.
    ``ValueError`` when a row has no legal action, or a choice in a phase ``decisions`` lacks."""
    legal = observation.legal_mask
    counts = legal.sum(axis=1)
    if (counts == 0).any():
        raise ValueError("a row has no legal action: there is no decision to make")
    choosing = counts > 1
    undecided = choosing & ~np.isin(observation.phase, list(decisions))
    if undecided.any():
        phase = Phase(int(observation.phase[np.argmax(undecided)]))
        raise ValueError(f"no decision is defined for a choice in phase {phase.name}")
    actions = np.argmax(legal, axis=1).astype(np.int64)  # the first legal action: the only one where counts is 1
    for phase, decision in decisions.items():
        rows = np.flatnonzero(choosing & (observation.phase == phase))
        if rows.size:  # a batch of one (the reference engine's) runs one decision only
            actions[rows] = decision(observation, rows)
    return actions


def taken(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The rows ``rows`` of ``values`` (many times faster than fancy indexing of a 2-d array)."""
    return values.take(rows, axis=0)


def one_hot(cards: np.ndarray) -> np.ndarray:
    """(n, 8) int64: 1 at each card's stone, a row of zeros for ``NONE``."""
    return (cards[:, None] == STONE_IDS).astype(np.int64)


def stone_counts(cards: np.ndarray) -> np.ndarray:
    """(n, 8) int64: how many cards of each stone each row of ``cards`` (n, width) holds, ``NONE`` ignored."""
    count, width = cards.shape
    # One bincount over the whole batch: row r's stones land on bins r * 9 + 1 .. r * 9 + 8, NONE on r * 9.
    bins = (np.arange(count)[:, None] * (rules.NUM_STONES + 1) + cards + 1).ravel()
    counts = np.bincount(bins, minlength=count * (rules.NUM_STONES + 1))
    return counts.reshape(count, rules.NUM_STONES + 1)[:, 1:]


def unseen_counts(observation: Observation, rows: np.ndarray) -> np.ndarray:
    """(n, 8) int64 ``Observation.unseen_counts`` of each of the rows ``rows``: the cards of each stone
    the mover has not seen (the deck plus the opponent's hand)."""
    seen = stone_counts(taken(observation.hand, rows)) + stone_counts(taken(observation.discard, rows))
    stones = taken(observation.chain_stones, rows).reshape(len(rows), -1)  # both seats' chains
    lengths = taken(observation.chain_lengths, rows).reshape(len(rows), -1)
    seen += ((stones[:, :, None] == STONE_IDS) * lengths[:, :, None]).sum(axis=1)
    seen += taken(observation.trade_counts, rows) + taken(observation.removed_counts, rows)
    seen += one_hot(taken(observation.pending, rows))
    return CARDS_PER_STONE - seen


@dataclass(frozen=True)
class Chains:
    """The chains of one player in each of n rows, slot by slot (n, 3): a ``rules.Slots`` per row."""

    stones: np.ndarray
    """(n, 3) int64 the stone of each chain, ``NONE`` for an empty or unbought slot."""
    lengths: np.ndarray
    """(n, 3) int64 the cards of each chain, 0 for an empty or unbought slot."""
    bought: np.ndarray
    """(n, 3) bool the slots the player has (the first two, and the third once bought)."""

    @classmethod
    def of_mover(cls, observation: Observation, rows: np.ndarray) -> Chains:
        """The chains of the player to move in the rows ``rows``."""
        count = len(rows)
        seats = taken(observation.seat, rows)
        stones = taken(observation.chain_stones, rows)[np.arange(count), seats]
        lengths = taken(observation.chain_lengths, rows)[np.arange(count), seats]
        slots = taken(observation.slots, rows)[np.arange(count), seats]
        filled = stones != NONE
        return cls(stones, np.where(filled, lengths, 0), SLOT_IDS < slots[:, None])

    def take(self, rows: np.ndarray) -> Chains:
        """The chains of the rows ``rows``."""
        return Chains(taken(self.stones, rows), taken(self.lengths, rows), taken(self.bought, rows))

    @property
    def filled(self) -> np.ndarray:
        """(n, 3) bool: the slots holding a chain."""
        return self.stones != NONE

    @property
    def empty(self) -> np.ndarray:
        """(n, 3) bool: the bought slots holding no chain."""
        return self.bought & ~self.filled

    @property
    def full(self) -> np.ndarray:
        """(n,) bool: every bought slot holds a chain (``all(slots)``)."""
        return np.logical_not(self.empty.any(axis=1))

    def values(self) -> np.ndarray:
        """(n, 3) int64 the coins each chain sells for now, 0 for an empty slot."""
        return CHAIN_VALUES[np.maximum(self.stones, 0), self.lengths]  # an empty slot's length is 0: 0 coins

    def holding(self, stones: np.ndarray) -> np.ndarray:
        """(n, k) bool: whether a chain of each of ``stones`` (n, k) is on the table (``NONE``: no)."""
        # A bit per stone held: a seat's chains are of distinct stones, so the slots' bits add up.
        bits = np.where(self.stones == NONE, 0, np.left_shift(1, np.maximum(self.stones, 0)))
        held = bits[:, 0] + bits[:, 1] + bits[:, 2]
        return ((held[:, None] >> np.maximum(stones, 0)) & 1).astype(bool) & (stones != NONE)

    def fits(self, stones: np.ndarray) -> np.ndarray:
        """(n,) bool: a card of ``stones`` (n,) goes onto a chain or an empty slot without a sale
        (``rules.slot_for`` is not None)."""
        return self.holding(stones[:, None])[:, 0] | self.empty.any(axis=1)

    def placed(self, stones: np.ndarray, sold: np.ndarray) -> Chains:
        """The chains with one card of ``stones`` (n,) added (``rules.place``), ``NONE`` adding nothing:
        onto its chain, else into the first empty slot, else into the slot ``sold`` (n,) after its sale."""
        holding = self.stones == stones[:, None]
        empty = self.empty
        slot = np.where(
            holding.any(axis=1), np.argmax(holding, axis=1), np.where(empty.any(axis=1), np.argmax(empty, axis=1), sold)
        )
        rows = np.arange(len(stones))
        extends = holding[rows, slot] | empty[rows, slot]  # otherwise the slot is sold and starts anew
        at = (SLOT_IDS == slot[:, None]) & (stones != NONE)[:, None]
        new_lengths = np.where(extends, self.lengths[rows, slot] + 1, 1)
        return Chains(
            np.where(at, stones[:, None], self.stones), np.where(at, new_lengths[:, None], self.lengths), self.bought
        )


def best_sales(chains: Chains, sellable: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n,) the slot to sell among ``sellable`` (n, 3) filled slots, and its coins (greedy's
    ``best_sale``): the most coins, then the shortest chain, then the first slot."""
    values = chains.values()
    # Lengths are at most 104, so coins * 105 - length orders by coins, then by shorter chain.
    keys = np.where(sellable, values * (rules.NUM_CARDS + 1) - chains.lengths, np.iinfo(np.int64).min)
    slot = np.argmax(keys, axis=1)
    return slot, values[np.arange(len(slot)), slot]
