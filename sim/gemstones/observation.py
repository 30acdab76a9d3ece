"""What a Gemstones player may see when it is to move (notes, section 7), for a batch of games.

The reference engine hands strategies an ``Observation`` of one game and expects one action back.
Fields are numpy arrays whose first axis is the game. Seats are absolute (0 moves first); chains
are ``(B, 2, 3)`` arrays of stone ids and lengths, ``NONE`` for an empty or unbought slot. The
opponent's hand and the deck order are never part of an observation: only their sizes.

``encode`` turns a batch into the float32 rows learning agents read (``ENCODING``, docs/gemstones.md).

A compiled policy (``sim.api.CompiledPolicy``) sees one game at a time, as ``POLICY`` lays it out, and
``choose_compiled`` runs one over a batch: the ``choose`` of every compiled strategy.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np
from numba import types

from sim import encoding, jit, lockstep
from sim.api import MAX_POLICY_SETTINGS, ArrayRecord, CompiledPolicy, UnknownAction
from sim.cards import bools_to_bits
from sim.encoding import Layout
from sim.gemstones import rules
from sim.numbers import shown

NONE = -1

# Actions, one integer namespace so that legal actions sort naturally.
CHAIN = 0  # CHAIN + stone: chain a trade-area card of that stone
SELL = CHAIN + rules.NUM_STONES  # SELL + slot: the chain sold to make room
BUY = SELL + rules.MAX_SLOTS  # buy the third chain
PLAY = BUY + 1  # play the front card of the hand
PASS = PLAY + 1  # decline: no purchase, no (more) chaining, no second play, no discard
DISCARD = PASS + 1  # DISCARD + position: discard the hand card at that position
NUM_ACTIONS = DISCARD + rules.HAND_WIDTH


class Phase(IntEnum):
    """The decision the current player faces (notes, section 5)."""

    BUY = 0  # step 0: buy the third chain?
    OFFER = 1  # step 1: chain a card the opponent left, or pass (the rest is discarded)
    PLAY_FIRST = 2  # step 2: the front card must be played
    PLAY_SECOND = 3  # step 3: play the next card too?
    DISCARD = 4  # step 4: discard one hand card?
    TRADE = 5  # step 5: chain a trade-area card, or pass (the rest is offered to the opponent)
    SELL = 6  # a card has no chain and no free slot: which chain is sold?
    OVER = 7


WORDS = {BUY: "buy the third chain", PLAY: "play the front card", PASS: "pass"}


def describe(action: int) -> str:
    """A short readable name of an action (for errors, logs and ``parse_action``)."""
    if CHAIN <= action < SELL:
        return f"chain {rules.STONES[action - CHAIN]}"
    if SELL <= action < BUY:
        return f"sell chain {action - SELL + 1}"
    if DISCARD <= action < NUM_ACTIONS:
        return f"discard hand card {action - DISCARD + 1}"
    return WORDS.get(action, f"action {action}")


def parse_action(text: str) -> int:
    """The action ``describe`` gives ``text`` for; ``UnknownAction`` if none."""
    words = " ".join(text.lower().split())
    for action in range(NUM_ACTIONS):
        if describe(action).lower() == words:
            return action
    raise UnknownAction(f"{shown(text)} is not a Gemstones action (e.g. chain Ruby, pass, discard hand card 2)")


@dataclass(frozen=True)
class Observation(ArrayRecord):
    """One seat's view of ``len(seat)`` games in which it is to move."""

    seat: np.ndarray
    """(n,) int64: the seat to move. Encoding: 0 or 1; seat 0 moves first."""
    phase: np.ndarray
    """(n,) int64: the decision it faces. Encoding: a ``Phase``: 0 buy the third chain?, 1 chain a card
    the opponent left, 2 play the front card, 3 play the next one too?, 4 discard a hand card?, 5 chain
    a trade-area card, 6 which chain to sell, 7 over."""
    legal_mask: np.ndarray
    """(n, 46) bool: the actions it may take (``sim.api``'s convention). Encoding: True where the action
    is legal: 0 + stone chains a card of that stone (``CHAIN``), 8 + slot sells that chain (``SELL``), 11
    buys the third chain (``BUY``), 12 plays the front card (``PLAY``), 13 passes (``PASS``), 14 +
    position discards that hand card (``DISCARD``)."""
    hand: np.ndarray
    """(n, 32) int8 / int64: its hand, front card first. Encoding: stone ids, 0 to 7: Quartz, Hematite,
    Obsidian, Malachite, Turquoise, Ruby, Amethyst, Emerald (``rules.STONES``); -1 (``NONE``) past the
    last card."""
    hand_sizes: np.ndarray
    """(n, 2) int64: the cards in each hand. Encoding: by seat number."""
    chain_stones: np.ndarray
    """(n, 2, 3) int64: the stone of each chain. Encoding: by seat number and slot, a stone id (as in
    ``hand``); -1 (``NONE``) for an empty or unbought slot."""
    chain_lengths: np.ndarray
    """(n, 2, 3) int64: the cards in each chain. Encoding: by seat number and slot; 0 for an empty
    slot."""
    slots: np.ndarray
    """(n, 2) int64: the chain slots each seat has. Encoding: by seat number: 2, or 3 once it bought the
    third."""
    coins: np.ndarray
    """(n, 2) int64: each seat's coins. Encoding: by seat number."""
    trade_counts: np.ndarray
    """(n, 8) int64: the cards in the trade area. Encoding: a count per stone id."""
    discard: np.ndarray
    """(n, 104) int8 / int64: the discard pile, bottom card first. Encoding: stone ids, -1 (``NONE``) past
    the top card."""
    removed_counts: np.ndarray
    """(n, 8) int64: the cards sold out of play. Encoding: a count per stone id."""
    pending: np.ndarray
    """(n,) int64: the stone waiting for a chain while a chain must be sold. Encoding: a stone id in the
    sell phase, else -1 (``NONE``)."""
    resume: np.ndarray
    """(n,) int64: the decision a sale interrupted, where play goes on after it. Encoding: a ``Phase`` in
    the sell phase, else -1 (``NONE``)."""
    deck_size: np.ndarray
    """(n,) int64: the cards left in the deck. Encoding: 0 to 104."""
    turn: np.ndarray
    """(n,) int64: the turns started so far. Encoding: 1 during the first."""
    round_id: np.ndarray
    """(n,) int64: the game's id (a game is its own round); with ``step`` it names the decision, for
    strategies that seed their randomness per decision. Encoding: an id; it says nothing of the cards."""
    step: np.ndarray
    """(n,) int64: the decisions taken so far in the game. Encoding: 0 at the first."""
    third_chain_cost: np.ndarray
    """(n,) int64: the price of the third chain. Encoding: coins."""

    def unseen_counts(self, row: int) -> np.ndarray:
        """(8,) the cards of each stone the player has not seen: the deck plus the opponent's hand."""
        seen = np.zeros(rules.NUM_STONES, dtype=np.int64)
        for cards in (self.hand[row], self.discard[row]):
            np.add.at(seen, cards[cards != NONE], 1)
        stones, lengths = self.chain_stones[row].ravel(), self.chain_lengths[row].ravel()
        np.add.at(seen, stones[stones != NONE], lengths[stones != NONE])
        seen += self.trade_counts[row] + self.removed_counts[row]
        if self.pending[row] != NONE:
            seen[self.pending[row]] += 1
        return np.array(rules.CARDS_PER_STONE) - seen


SEATS, STONES, SLOTS = 2, rules.NUM_STONES, rules.MAX_SLOTS  # SEATS: the engine's NUM_PLAYERS
COUNT_SCALE = 10  # coins, chain lengths and costs are encoded as tenths
TURN_SCALE = 20  # a game has about 20 turns (the deck is empty by turn 19: rules.HAND_WIDTH's note)
DISCARD_TOP = 8  # the top cards of the discard pile shown in order: a trade area pulls from the top
CARDS_PER_STONE = np.array(rules.CARDS_PER_STONE)
ENCODING: Layout = (
    (SEATS, "the seat to move, one-hot (seat 0 moves first)"),
    (len(Phase), "the phase, one-hot: buy, offer, play first, play second, discard, trade, sell, over"),
    (
        rules.HAND_WIDTH * STONES,
        "its hand, front card first: a block of 8 stone columns (Quartz to Emerald) "
        "per position, zeros past the last card",
    ),
    (SEATS, "cards in each hand, / 5: its own, the opponent's"),
    (
        SEATS * SLOTS * STONES,
        "the chains: per seat (its own first) and slot, the stone one-hot (zeros: empty or unbought)",
    ),
    (SEATS * SLOTS, "the chains' lengths, / 10, per seat (its own first) and slot"),
    (SEATS, "whether each seat bought its third chain: its own, the opponent's"),
    (SEATS, "coins, / 10: its own, the opponent's"),
    (STONES, "trade-area cards by stone, / 3"),
    (STONES, "discard-pile cards by stone, as a fraction of that stone's cards"),
    (DISCARD_TOP * STONES, "the top 8 cards of the discard pile, top first, one-hot by stone (zeros past the bottom)"),
    (STONES, "sold cards out of play by stone, as a fraction of that stone's cards"),
    (STONES, "the stone waiting for a sale, one-hot (zeros but in the sell phase)"),
    (len(Phase), "the phase a sale interrupted, one-hot (zeros but in the sell phase)"),
    (1, "cards in the deck, / 104"),
    (1, "turns started so far, / 20"),
    (1, "the third chain's price, / 10"),
)
"""The slices of ``encode``'s rows."""
ENCODED_SIZE = encoding.size(ENCODING)


@encoding.reads_attached
def encode(observation: Observation) -> np.ndarray:
    """(n, ENCODED_SIZE) float32: the observation as ``ENCODING`` lays it out, for learning agents."""
    seat = observation.seat
    return encoding.concatenate(
        [
            encoding.one_hot(seat, SEATS),
            encoding.one_hot(observation.phase, len(Phase)),
            encoding.one_hot(observation.hand, STONES),
            encoding.from_seat(observation.hand_sizes, seat) / rules.HAND_SIZE,
            encoding.one_hot(encoding.from_seat(observation.chain_stones, seat), STONES),
            encoding.from_seat(observation.chain_lengths, seat) / COUNT_SCALE,
            encoding.from_seat(observation.slots, seat) == SLOTS,
            encoding.from_seat(observation.coins, seat) / COUNT_SCALE,
            observation.trade_counts / rules.TRADE_DRAW,
            encoding.one_hot(observation.discard, STONES).sum(axis=1) / CARDS_PER_STONE,
            encoding.one_hot(top_cards(observation.discard, DISCARD_TOP), STONES),
            observation.removed_counts / CARDS_PER_STONE,
            encoding.one_hot(observation.pending, STONES),
            encoding.one_hot(observation.resume, len(Phase)),
            np.asarray(observation.deck_size)[:, None] / rules.NUM_CARDS,
            np.asarray(observation.turn)[:, None] / TURN_SCALE,
            np.asarray(observation.third_chain_cost)[:, None] / COUNT_SCALE,
        ],
        ENCODING,
    )


def top_cards(pile: np.ndarray, count: int) -> np.ndarray:
    """(n, count) the top ``count`` cards of ``NONE``-padded piles (n, width) listed bottom first, top
    first, ``NONE`` past the bottom."""
    places = (pile != NONE).sum(axis=1)[:, None] - 1 - np.arange(count)
    return np.where(places >= 0, np.take_along_axis(pile, np.maximum(places, 0), axis=1), NONE)


COINS = np.array(
    [[rules.chain_value(stone, length) for length in range(rules.NUM_CARDS + 1)] for stone in range(STONES)],
    dtype=np.int64,
)
"""(8, 105) the coins a chain sells for at ``[stone, length]`` (a chain never holds more than its stone's cards)."""
COINS.flags.writeable = False

_INTS = types.int64
POLICY = types.FunctionType(
    _INTS(
        types.Array(types.int8, 2, "C", readonly=True),  # hands: (m, HAND_WIDTH) hands front first, NONE-padded
        _INTS,  # hand: the row of ``hands`` that is the mover's
        _INTS,  # row: the game's row of the arrays below
        _INTS,  # seat: the mover
        _INTS,  # phase: its Phase
        _INTS,  # legal: its legal actions as bits (bit a set when action a is legal)
        types.Array(_INTS, 2, "C", readonly=True),  # hand_sizes (n, 2)
        types.Array(_INTS, 3, "C", readonly=True),  # chain_stones (n, 2, 3)
        types.Array(_INTS, 3, "C", readonly=True),  # chain_lengths (n, 2, 3)
        types.Array(_INTS, 2, "C", readonly=True),  # slots (n, 2)
        types.Array(_INTS, 2, "C", readonly=True),  # coins (n, 2)
        types.Array(_INTS, 2, "C", readonly=True),  # trade_counts (n, 8)
        types.Array(types.int8, 2, "C", readonly=True),  # discard (n, 104) bottom first, NONE-padded
        types.Array(_INTS, 2, "C", readonly=True),  # removed_counts (n, 8)
        types.Array(_INTS, 1, "C", readonly=True),  # pending (n,)
        types.Array(_INTS, 1, "C", readonly=True),  # deck_size (n,)
        types.Array(_INTS, 1, "C", readonly=True),  # round_id (n,)
        types.Array(_INTS, 1, "C", readonly=True),  # step (n,)
        types.UniTuple(types.float64, MAX_POLICY_SETTINGS),  # the policy's settings
    )
)
"""A compiled Gemstones policy: one decision of one game, returning its action. The arrays are the
``Observation``'s fields (the fast engine's own, which lay them out alike) and ``row`` the game's row:
a view of one row would cost a reference count per call."""


def choose_compiled(compiled: CompiledPolicy, observation: Observation) -> np.ndarray:
    """(n,) the action ``compiled`` chooses in each game of ``observation``: a compiled strategy's
    ``choose``, the per-row code the fast engine's kernel calls. ``ValueError`` for a row without a
    legal action (a policy is only asked for a decision)."""
    legal = bools_to_bits(observation.legal_mask)
    if not legal.all():
        raise ValueError("a row has no legal action: there is no decision to make")
    chosen = np.empty(len(observation), dtype=np.int64)

    def ints(values: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(values, dtype=np.int64)

    _CHOOSE_ROWS_ENTRY(
        lockstep.policy_address(compiled.function, POLICY.signature),
        compiled.arguments,
        np.ascontiguousarray(observation.hand, dtype=np.int8),
        ints(observation.seat),
        ints(observation.phase),
        legal,
        *(ints(getattr(observation, name)) for name in _POLICY_INT_FIELDS[:6]),
        np.ascontiguousarray(observation.discard, dtype=np.int8),
        *(ints(getattr(observation, name)) for name in _POLICY_INT_FIELDS[6:]),
        chosen,
    )
    return chosen


_POLICY_INT_FIELDS = (
    "hand_sizes",
    "chain_stones",
    "chain_lengths",
    "slots",
    "coins",
    "trade_counts",
    "removed_counts",
    "pending",
    "deck_size",
    "round_id",
    "step",
)
"""The integer fields ``POLICY`` reads after ``legal``, in its order (``discard`` comes between the
first six and the others)."""
_ROWS = types.Array(_INTS, 1, "C", readonly=True)
_CHOOSE_ROWS = types.void(
    POLICY,
    types.UniTuple(types.float64, MAX_POLICY_SETTINGS),
    *POLICY.signature.args[:1],
    _ROWS,  # seat
    _ROWS,  # phase
    _ROWS,  # legal
    *POLICY.signature.args[6:-1],
    types.int64[::1],
)


@jit.njit(_CHOOSE_ROWS, cache=True, nogil=True)
def _choose_rows(
    policy, settings, hands, seat, phase, legal, hand_sizes, chain_stones, chain_lengths, slots, coins,
    trade_counts, discard, removed_counts, pending, deck_size, round_id, step, chosen,
):  # fmt: skip
    """``chosen[row]``: ``policy``'s action in each row."""
    for row in range(hands.shape[0]):
        chosen[row] = policy(
            hands, row, row, seat[row], phase[row], legal[row], hand_sizes, chain_stones, chain_lengths, slots,
            coins, trade_counts, discard, removed_counts, pending, deck_size, round_id, step, settings,
        )  # fmt: skip


_CHOOSE_ROWS_ENTRY = lockstep.entry_point(_choose_rows, _CHOOSE_ROWS)
