"""Gemstones rules as pure functions over plain values (specs/gemstones.md, read with the notes).

A card is a stone id 0..7 (``STONES`` order, the spec's table order). A player's chains are a tuple
of slots, each ``None`` (empty) or a ``(stone, length)`` pair: every card of a chain is the same
stone, so the pair says everything about it.
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.numbers import shown

STONES = ("Quartz", "Hematite", "Obsidian", "Malachite", "Turquoise", "Ruby", "Amethyst", "Emerald")
LETTERS = "QHOMTRAE"
NUM_STONES = len(STONES)
CARDS_PER_STONE = (20, 18, 16, 14, 12, 10, 8, 6)
NUM_CARDS = sum(CARDS_PER_STONE)  # 104
# Cards a chain needs to pay 1, 2, 3 and 4 coins; None where the spec's table has '-'.
COIN_THRESHOLDS: tuple[tuple[int | None, ...], ...] = (
    (4, 6, 8, 10),
    (3, 6, 8, 9),
    (3, 5, 7, 8),
    (3, 5, 6, 7),
    (2, 4, 6, 7),
    (2, 4, 5, 6),
    (2, 3, 4, 5),
    (None, 2, 3, None),
)
MAX_COINS_PER_CHAIN = 4
HAND_SIZE = 5
TRADE_DRAW = 3
END_OF_TURN_DRAW = 2
BASE_SLOTS = 2
MAX_SLOTS = 3
# The most cards a hand can hold in any game under any variant: a turn takes at least 5 cards from
# the 94 left after the deal (3 to the trade area, 2 to the hand), so the deck is empty by turn 19
# and a player has at most 10 turns (11 with finish_round); a turn adds at most 2 cards to a hand
# (it draws 2, or 3 with draw_at_turn_start, and must play one when the hand is not empty).
HAND_WIDTH = 32
# Before shuffling, the factory's order: Q×20, H×18, ..., E×6 (notes, section 2).
FACTORY_ORDER = tuple(stone for stone, count in enumerate(CARDS_PER_STONE) for _ in range(count))

Chain = tuple[int, int]
Slots = tuple[Chain | None, ...]


class NotAStone(ValueError):
    """A letter or name that is not one of the eight stones."""


def letter(stone: int) -> str:
    """The one-letter form a card prints as."""
    return LETTERS[stone]


def parse_letter(text: str) -> int:
    """The stone a letter (any case) or a full stone name stands for."""
    word = text.strip()
    for stone, name in enumerate(STONES):
        if word.upper() == LETTERS[stone] or word.lower() == name.lower():
            return stone
    raise NotAStone(f"{shown(text)} is not a stone (stones: {', '.join(STONES)})")


def chain_value(stone: int, length: int) -> int:
    """Coins a chain of ``length`` cards of ``stone`` sells for: the highest tier it reaches."""
    return max(
        (coins for coins, need in enumerate(COIN_THRESHOLDS[stone], 1) if need is not None and need <= length),
        default=0,
    )


def slot_for(slots: Slots, stone: int) -> int | None:
    """Where a card of ``stone`` goes without a sale: its chain, else the first empty slot; None if a sale is needed."""
    for slot, chain in enumerate(slots):
        if chain is not None and chain[0] == stone:
            return slot
    for slot, chain in enumerate(slots):
        if chain is None:
            return slot
    return None


def chain_at(slots: Slots, slot: int) -> Chain:
    """The chain in ``slot``; ``ValueError`` if the slot is empty."""
    chain = slots[slot]
    if chain is None:
        raise ValueError(f"slot {slot} holds no chain")
    return chain


def sellable_slots(slots: Slots, bean_protection: bool = False) -> tuple[int, ...]:
    """The slots a forced sale may empty: any chain; with bean protection, no 1-card chain while a longer one exists."""
    lengths = {slot: chain[1] for slot, chain in enumerate(slots) if chain is not None}  # of the filled slots
    if bean_protection and any(length >= 2 for length in lengths.values()):
        return tuple(slot for slot, length in lengths.items() if length >= 2)
    return tuple(lengths)


def add_to_slot(slots: Slots, slot: int, stone: int) -> Slots:
    """The slots with one ``stone`` card added to ``slot`` (starting a chain there if it is empty)."""
    chain = slots[slot]
    length = 1 if chain is None else chain[1] + 1
    return slots[:slot] + ((stone, length),) + slots[slot + 1 :]


def sell(slots: Slots, slot: int) -> tuple[Slots, int]:
    """The slots with the chain in ``slot`` sold, and the coins it brings."""
    stone, length = chain_at(slots, slot)
    return slots[:slot] + (None,) + slots[slot + 1 :], chain_value(stone, length)


def place(slots: Slots, stone: int, sold_slot: int | None = None) -> tuple[Slots, int]:
    """Place a ``stone`` card (notes, section 3): onto its chain or an empty slot, else after selling
    ``sold_slot``, the new chain starting there. Returns the new slots and the coins of the sale."""
    slot = slot_for(slots, stone)
    if slot is not None:
        return add_to_slot(slots, slot, stone), 0
    if sold_slot is None or slots[sold_slot] is None:
        raise ValueError(f"a {STONES[stone]} card needs a chain sold first")
    emptied, coins = sell(slots, sold_slot)
    return add_to_slot(emptied, sold_slot, stone), coins


def with_third_slot(slots: Slots) -> Slots:
    """The slots after buying the third chain."""
    if len(slots) != BASE_SLOTS:
        raise ValueError("the third chain can be bought once")
    return slots + (None,)


def may_buy_third_chain(coins: int, slots: Slots, cost: int) -> bool:
    """The purchase is open to a player with two slots and at least ``cost`` coins."""
    return len(slots) == BASE_SLOTS and coins >= cost


def stone_counts(cards: Sequence[int]) -> tuple[int, ...]:
    """How many cards of each stone ``cards`` holds."""
    counts = [0] * NUM_STONES
    for stone in cards:
        counts[stone] += 1
    return tuple(counts)


def format_cards(cards: Sequence[int]) -> str:
    """Letters separated by single spaces (a hand, the trade area)."""
    return " ".join(LETTERS[stone] for stone in cards)


def format_chain(chain: Chain) -> str:
    """The spec's chain line: the stone name in a 10-character column, then its letters."""
    stone, length = chain
    return f"{STONES[stone]:<10}" + " ".join(LETTERS[stone] * length)
