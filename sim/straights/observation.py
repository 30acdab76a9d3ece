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

import numpy as np
from numba import types

from sim import encoding, jit, lockstep
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

    def __getstate__(self) -> dict:
        """Pickled with every lazy field computed: a lazy field reads the tables it came from, which
        stay behind (a batch sent to a worker process)."""
        for name in self._fields:
            self._field(name)
        return self.__dict__

    def arrays(self) -> dict[str, np.ndarray]:
        """Every field by name (computing the lazy ones)."""
        return {name: self._field(name) for name in FIELDS}

    @property
    def seat(self) -> np.ndarray:
        """(n,) int64: the seat to move. Encoding: 0 to 3; play passes from seat s to seat s + 1 (mod 4)."""
        return self._field("seat")

    @property
    def hand(self) -> np.ndarray:
        """(n, 13) int8 / int64: the 13 cards dealt to this seat, in dealt order, those since played or
        discarded included. Encoding: card ids, 13 × suit + rank: suits clubs, diamonds, hearts, spades
        (0 to 3), rank 0 the ace up to 12 the king (``sim.cards``)."""
        return self._field("hand")

    @property
    def held(self) -> np.ndarray:
        """(n,) int64: which of its dealt cards it still holds. Encoding: a bit mask over hand positions:
        bit i set while ``hand[:, i]`` is held."""
        return self._field("held")

    @property
    def legal(self) -> np.ndarray:
        """(n,) int64: its legal plays. Encoding: a bit mask over hand positions (bit i: ``hand[:, i]``);
        0 when it has none and must discard."""
        return self._field("legal")

    @property
    def options(self) -> np.ndarray:
        """(n,) int64: the actions it may take: its legal plays, or every card it holds when it has none
        (it then discards one). Encoding: a bit mask over hand positions (bit i: ``hand[:, i]``)."""
        return self._field("options")

    @property
    def legal_mask(self) -> np.ndarray:
        """(n, 52) bool: the actions it may take, over card ids: every game's convention (``sim.api``),
        the same as ``options``, which this game's strategies read. Encoding: True at the card id of
        each action (playing or discarding that card)."""
        return self._field("legal_mask")

    @property
    def table(self) -> np.ndarray:
        """(n,) int64: the cards played face up so far. Encoding: a card bitmask: bit c set for card id c."""
        return self._field("table")

    @property
    def step(self) -> np.ndarray:
        """(n,) int64: the actions the round has seen so far. Encoding: 0 to 51; step 0 plays the 7 of
        spades."""
        return self._field("step")

    @property
    def history(self) -> np.ndarray:
        """(n, 52) int8: the round's public action log, one entry per step. Encoding: the card id played
        at step t, -1 (``DISCARDED``) for a face-down discard, -2 (``NOT_YET``) for a step to come; step
        t was the turn of seat (leader + t) mod 4, the leader being ``(seat - step) % 4``."""
        return self._field("history")

    @property
    def cards_left(self) -> np.ndarray:
        """(n, 4) int64: how many cards each seat still holds. Encoding: by seat number, 0 to 13."""
        return self._field("cards_left")

    @property
    def scores(self) -> np.ndarray:
        """(n, 4) int64: the game scores before this round: points against, and the game ends once a
        seat has 80 or more. Encoding: by seat number."""
        return self._field("scores")

    @property
    def round_id(self) -> np.ndarray:
        """(n,) int64: a stable id of the round (its deal number; in whole games ``sim.api.round_id``), for
        strategies that seed their randomness per decision. Encoding: an id; it says nothing of the
        cards."""
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


@encoding.reads_attached
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
    policy = lockstep.policy_address(compiled.function, POLICY.signature)
    _CHOOSE_ROWS_ENTRY(policy, compiled.arguments, hands, held, legal, options, table, chosen)
    return chosen


_ROWS = types.Array(types.int64, 1, "C", readonly=True)


_CHOOSE_ROWS = types.void(
    POLICY,
    types.UniTuple(types.float64, MAX_POLICY_SETTINGS),
    types.Array(types.int8, 2, "C", readonly=True),
    _ROWS,
    _ROWS,
    _ROWS,
    _ROWS,
    types.int64[:],
)


@jit.njit(_CHOOSE_ROWS, cache=True, nogil=True)
def _choose_rows(policy, settings, hands, held, legal, options, table, chosen):
    """``chosen[row]``: ``policy``'s card in each row."""
    for row in range(hands.shape[0]):
        chosen[row] = policy(hands, row, held[row], legal[row], options[row], table[row], settings)


_CHOOSE_ROWS_ENTRY = lockstep.entry_point(_choose_rows, _CHOOSE_ROWS)
"""``_choose_rows``' machine code, called without numba's dispatcher typing a policy argument on every call."""
