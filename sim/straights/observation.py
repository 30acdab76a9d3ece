"""What a Straights player may see when it is to move, for a batch of rounds at once.

Both engines hand strategies an ``Observation`` of ``n`` rounds (the reference engine a batch of one)
and expect back ``n`` card ids. Fields are numpy arrays whose first axis is the round; they are
computed on first access, so a strategy pays only for what it reads.

Public history is the action log: ``history[:, t]`` is the card played at step ``t``, ``DISCARDED``
for a face-down discard, ``NOT_YET`` for a step still to come. The player at step ``t`` is
``(leader + t) % 4`` and the leader is whoever played the 7 of spades at step 0, so the log also says
who did what. Other players' hands and discarded cards are never part of an observation.

``encode`` turns a batch into the float32 rows learning agents read (``ENCODING``, docs/straights.md).

A compiled policy (``sim.api.CompiledPolicy``) sees one row at a time, as ``POLICY`` lays it out, and
``choose_compiled`` runs one over a batch: the ``choose`` of every compiled strategy.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

import numba
import numpy as np
from numba import types

from sim import encoding
from sim.api import MAX_POLICY_SETTINGS, CompiledPolicy
from sim.cards import NUM_CARDS, bits_to_bools
from sim.encoding import Layout
from sim.straights import rules

DISCARDED = -1
NOT_YET = -2

FieldSource = np.ndarray | Callable[[], np.ndarray]
FIELDS = (
    "seat",
    "hand",
    "held",
    "legal",
    "options",
    "legal_mask",
    "table",
    "step",
    "history",
    "cards_left",
    "scores",
    "round_id",
)
"""The names of an observation's fields: everything a seat may see."""

# LOWEST_POSITION[m] is the index of the lowest set bit of a 13-bit position mask (-1 for 0).
LOWEST_POSITION = np.array([(m & -m).bit_length() - 1 for m in range(1 << 13)], dtype=np.int8)


class Observation:
    """One seat's view of ``n`` rounds in which it is to move."""

    def __init__(self, size: int, fields: Mapping[str, FieldSource]) -> None:
        self.size = size
        self._fields = dict(fields)

    def _field(self, name: str) -> np.ndarray:
        value = self._fields[name]
        if callable(value):
            value = value()
            self._fields[name] = value
        return value

    def __len__(self) -> int:
        return self.size

    def arrays(self) -> dict[str, np.ndarray]:
        """Every field by name (computing the lazy ones)."""
        return {name: self._field(name) for name in FIELDS}

    @property
    def seat(self) -> np.ndarray:
        """(n,) the seat to move, 0..3."""
        return self._field("seat")

    @property
    def hand(self) -> np.ndarray:
        """(n, 13) the card ids dealt to this seat, in dealt order (including cards since played)."""
        return self._field("hand")

    @property
    def held(self) -> np.ndarray:
        """(n,) bitmask over hand positions: bit i set while ``hand[:, i]`` is still held."""
        return self._field("held")

    @property
    def legal(self) -> np.ndarray:
        """(n,) bitmask over hand positions of the legal plays; 0 means the seat must discard."""
        return self._field("legal")

    @property
    def options(self) -> np.ndarray:
        """(n,) bitmask over hand positions of the legal actions: ``legal``, or ``held`` when that is 0."""
        return self._field("options")

    @property
    def legal_mask(self) -> np.ndarray:
        """(n, 52) bool, True at the card ids of the legal actions (``sim.api``'s convention for every game;
        ``options`` says the same over hand positions, which is what this game's strategies read)."""
        return self._field("legal_mask")

    @property
    def table(self) -> np.ndarray:
        """(n,) int64 card bitmask of the cards on the table."""
        return self._field("table")

    @property
    def step(self) -> np.ndarray:
        """(n,) how many actions the round has seen so far, 0..51."""
        return self._field("step")

    @property
    def history(self) -> np.ndarray:
        """(n, 52) int8 action log: card played at each step, ``DISCARDED`` or ``NOT_YET``."""
        return self._field("history")

    @property
    def cards_left(self) -> np.ndarray:
        """(n, 4) how many cards each seat still holds."""
        return self._field("cards_left")

    @property
    def scores(self) -> np.ndarray:
        """(n, 4) game scores before this round."""
        return self._field("scores")

    @property
    def round_id(self) -> np.ndarray:
        """(n,) int64 a stable id of the round (its deal number), for strategies that seed per decision."""
        return self._field("round_id")

    def legal_cards_mask(self) -> np.ndarray:
        """(n,) int64 card bitmask of the legal plays."""
        return positions_to_cards(self.hand, self.legal)

    def held_cards_mask(self) -> np.ndarray:
        """(n,) int64 card bitmask of the cards still held."""
        return positions_to_cards(self.hand, self.held)


def positions_to_cards(hand: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """(n,) int64 card bitmask of the cards of ``hand`` (n, 13) at the set bits of ``positions`` (n,)."""
    bits = (positions[:, None] >> np.arange(hand.shape[1])) & 1
    return np.bitwise_or.reduce(bits.astype(np.int64) << hand.astype(np.int64), axis=1)


def card_at_lowest(hand: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """(n,) the card of ``hand`` at the lowest set bit of each nonzero position mask."""
    # Flat takes are 2-3x faster than fancy indexing at engine batch sizes; clipping is safe, as
    # every mask is below 1 << 13. The take method skips np.take's Python wrapper.
    flat_index = np.add(_row_starts(len(hand), hand.shape[1]), LOWEST_POSITION.take(positions, mode="clip"))
    return np.ascontiguousarray(hand).reshape(-1).take(flat_index, mode="clip")


@functools.lru_cache(maxsize=8)
def _row_starts(rows: int, width: int) -> np.ndarray:
    """(rows,) read-only flat index of the first element of each row of a (rows, width) array."""
    starts = np.arange(0, rows * width, width)
    starts.flags.writeable = False
    return starts


def take_rows(observation: Observation, rows: np.ndarray) -> Observation:
    """The observation of the rounds ``rows`` only; fields stay lazy and are read from ``observation``."""

    def field_rows(name: str) -> Callable[[], np.ndarray]:
        return lambda: observation._field(name)[rows]

    return Observation(len(rows), {name: field_rows(name) for name in observation._fields})


NUM_SEATS, HAND_SIZE = rules.NUM_PLAYERS, rules.HAND_SIZE
ENCODING: Layout = (
    (NUM_SEATS, "the seat to move, one-hot"),
    (NUM_CARDS, "the cards it holds, one column per card id (sim.cards)"),
    (NUM_CARDS, "the table: every card played so far"),
    (NUM_CARDS, "its own face-down discards"),
    (NUM_SEATS * NUM_CARDS, "who played each card: a block of 52 card columns per seat, from the seat to move on"),
    (NUM_SEATS, "face-down discards each seat has made, / 13, from the seat to move on"),
    (NUM_SEATS, "cards each seat still holds, / 13, from the seat to move on"),
    (1, "actions taken this round, / 52"),
    (NUM_SEATS, "game scores before this round, / 80, from the seat to move on"),
)
"""The slices of ``encode``'s rows; "from the seat to move on" means the seat to move first, then the
seats after it in turn order."""
ENCODED_SIZE = encoding.size(ENCODING)


def encode(observation: Observation) -> np.ndarray:
    """(n, ENCODED_SIZE) float32: the observation as ``ENCODING`` lays it out, for learning agents."""
    seat, step, history = observation.seat, observation.step, observation.history
    rows = len(seat)
    held = positions_to_cards(observation.hand, observation.held)
    dealt = positions_to_cards(observation.hand, np.full(rows, (1 << HAND_SIZE) - 1))
    table = observation.table
    # The seat acting at step t is t - step places after the seat to move (seats take turns).
    actor = (np.arange(NUM_CARDS) - np.asarray(step)[:, None]) % NUM_SEATS
    played_rows, played_steps = np.nonzero(history >= 0)
    played_by = np.zeros((rows, NUM_SEATS, NUM_CARDS), dtype=np.float32)
    played_by[played_rows, actor[played_rows, played_steps], history[played_rows, played_steps]] = 1
    discards = ((history == DISCARDED)[:, :, None] & (actor[:, :, None] == np.arange(NUM_SEATS))).sum(axis=1)
    return encoding.concatenate(
        [
            encoding.one_hot(seat, NUM_SEATS),
            bits_to_bools(held),
            bits_to_bools(table),
            bits_to_bools(dealt & ~held & ~table),
            played_by,
            discards / HAND_SIZE,
            encoding.from_seat(observation.cards_left, seat) / HAND_SIZE,
            np.asarray(step)[:, None] / NUM_CARDS,
            encoding.from_seat(observation.scores, seat) / rules.GAME_OVER_SCORE,
        ],
        ENCODING,
    )


POLICY = types.FunctionType(
    types.int64(
        types.Array(types.int8, 2, "C", readonly=True),  # hands: (m, 13) card ids in dealt order
        types.int64,  # hand: the row of ``hands`` that is the mover's
        types.int64,  # held: its positions still held
        types.int64,  # legal: the positions of its legal plays (0: it must discard)
        types.int64,  # options: legal, or held when legal is 0
        types.int64,  # table: card mask of the cards played face up
        types.UniTuple(types.float64, MAX_POLICY_SETTINGS),  # the policy's settings
    )
)
"""A compiled Straights policy: one decision of one round, returning the card it plays or discards.
The hand is a row of the batch's array (a view of one row would cost a reference count per call)."""


def choose_compiled(compiled: CompiledPolicy, observation: Observation) -> np.ndarray:
    """(n,) the card ``compiled`` chooses in each round of ``observation``: a compiled strategy's
    ``choose``, the per-row code the fast engine's kernel calls."""
    chosen = np.empty(len(observation), dtype=np.int64)
    hands = np.ascontiguousarray(observation.hand, dtype=np.int8)
    held, legal, options, table = (
        np.ascontiguousarray(field, dtype=np.int64)
        for field in (observation.held, observation.legal, observation.options, observation.table)
    )
    _choose_rows(compiled.function, compiled.arguments, hands, held, legal, options, table, chosen)
    return chosen


_ROWS = types.Array(types.int64, 1, "C", readonly=True)


@numba.njit(
    types.void(
        POLICY,
        types.UniTuple(types.float64, MAX_POLICY_SETTINGS),
        types.Array(types.int8, 2, "C", readonly=True),
        _ROWS,
        _ROWS,
        _ROWS,
        _ROWS,
        types.int64[:],
    ),
    cache=True,
    nogil=True,
)
def _choose_rows(policy, settings, hands, held, legal, options, table, chosen):
    """``chosen[row]``: ``policy``'s card in each row."""
    for row in range(hands.shape[0]):
        chosen[row] = policy(hands, row, held[row], legal[row], options[row], table[row], settings)
