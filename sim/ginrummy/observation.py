"""What a Gin Rummy player may see when it is to move, for a batch of hands at once.

A player sees its own cards, the discard pile, the cards each seat took from the discard pile
and still holds, the cards each seat threw this hand, the stock's size and the game scores — never the
opponent's hand or the stock. Every field is a numpy array whose first axis is the hand.

Actions are ints: ``DRAW_STOCK`` and ``DRAW_DISCARD`` draw; a card id (``sim.cards``) discards that
card; ``KNOCK + card`` knocks, discarding that card face down.

``encode`` turns a batch into the float32 rows learning agents read (``ENCODING``, docs/ginrummy.md).

A compiled policy (``sim.api.CompiledPolicy``) sees one row at a time, as ``POLICY`` lays it out, and
``choose_compiled`` runs one over a batch: the ``choose`` of every compiled strategy.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np
from numba import types

from sim import encoding, jit, lockstep
from sim.api import ArrayRecord, CompiledPolicy, UnknownAction
from sim.cards import NUM_CARDS, CardError, bits_to_bools, card_name, parse_card
from sim.encoding import Layout
from sim.ginrummy import rules
from sim.numbers import shown

DRAW_STOCK = 52
DRAW_DISCARD = 53
KNOCK = 54
NUM_ACTIONS = KNOCK + 52  # the size of the action space, for masks and policy arrays
NONE = -1  # no card: an empty discard pile, nothing taken this turn
ACTION_WORDS = {DRAW_STOCK: "draw stock", DRAW_DISCARD: "draw discard"}


class Phase(IntEnum):
    """The steps of a turn."""

    DRAW = 0
    DISCARD = 1  # discard or knock
    OVER = 2


def action_name(action: int) -> str:
    """``draw stock``, ``draw discard``, a card's short name (discard it) or ``knock 7S``."""
    if action in ACTION_WORDS:
        return ACTION_WORDS[action]
    card = knocked_card(action)
    return f"knock {card_name(card)}" if card is not None else card_name(action)


def parse_action(text: str) -> int:
    """The action ``action_name`` gives ``text`` for; ``UnknownAction`` if none."""
    words = " ".join(text.lower().split())
    named = {name: action for action, name in ACTION_WORDS.items()}
    try:
        if words in named:
            return named[words]
        if words.startswith("knock "):
            return knock(parse_card(words[len("knock ") :]))
        return parse_card(words)
    except CardError:
        raise UnknownAction(
            f"{shown(text)} is not a Gin Rummy action (draw stock, draw discard, a card, knock CARD)"
        ) from None


def knock(card: int) -> int:
    """The action that knocks, discarding ``card``."""
    return KNOCK + card


def knocked_card(action: int) -> int | None:
    """The card a knock action discards, or None when the action is not a knock."""
    return action - KNOCK if action >= KNOCK else None


@dataclass(frozen=True)
class Observation(ArrayRecord):
    """One seat's view of ``n`` hands in which it is to move; arrays have ``n`` rows."""

    seat: np.ndarray
    """(n,) int64: the seat to move. Encoding: 0 or 1."""
    dealer: np.ndarray
    """(n,) int64: the dealer of the hand. Encoding: 0 or 1; the other seat draws first."""
    phase: np.ndarray
    """(n,) int64: the step of the turn. Encoding: a ``Phase``: 0 draw, 1 discard (or knock), 2 over."""
    legal: np.ndarray
    """(n, 106) bool: the actions it may take (``legal_mask`` is the same array). Encoding: True where the
    action is legal: 0 to 51 discard the card of that id, 52 draws from the stock (``DRAW_STOCK``), 53
    takes the discard pile's top card (``DRAW_DISCARD``), 54 + card knocks, discarding that card
    face down (``KNOCK``)."""
    hand: np.ndarray
    """(n,) int64: the cards it holds. Encoding: a card bitmask, bit c for card id c (``sim.cards``: 13 ×
    suit + rank, suits clubs, diamonds, hearts, spades, rank 0 the ace up to 12 the king)."""
    top_discard: np.ndarray
    """(n,) int64: the face-up card on top of the discard pile. Encoding: a card id, -1 (``NONE``) for an
    empty pile."""
    discard_pile: np.ndarray
    """(n,) int64: every card in the discard pile. Encoding: a card bitmask."""
    took: np.ndarray
    """(n,) int64: the cards this seat took from the discard pile and still holds. Encoding: a card
    bitmask."""
    opponent_took: np.ndarray
    """(n,) int64: the cards the opponent took from the discard pile and still holds. Encoding: a card
    bitmask."""
    opponent_threw: np.ndarray
    """(n,) int64: every card the opponent discarded this hand. Encoding: a card bitmask."""
    threw: np.ndarray
    """(n,) int64: every card this seat discarded this hand. Encoding: a card bitmask."""
    taken: np.ndarray
    """(n,) int64: the card this seat just took from the discard pile, which it may not throw back this
    turn. Encoding: a card id, -1 (``NONE``) if it took none."""
    stock_size: np.ndarray
    """(n,) int64: the cards left in the stock. Encoding: 0 to 31."""
    scores: np.ndarray
    """(n, 2) int64: each seat's game points before this hand (a game is won at 100). Encoding: by seat
    number."""
    round_id: np.ndarray
    """(n,) int64: the hand's id (``sim.api.round_id``), for strategies that seed their randomness per
    decision. Encoding: an id; it says nothing of the cards."""

    @property
    def legal_mask(self) -> np.ndarray:
        """(n, 106) bool: the actions it may take, every game's convention (``sim.api``): ``legal`` itself.
        Encoding: as ``legal``."""
        return self.legal


SEATS = rules.NUM_PLAYERS
STOCK_SIZE = NUM_CARDS - rules.DEALT_CARDS  # the stock when the hand begins
ENCODING: Layout = (
    (SEATS, "the seat to move, one-hot"),
    (SEATS, "the dealer, one-hot: the seat to move itself, or its opponent"),
    (len(Phase), "the phase, one-hot: draw, discard (or knock), over"),
    (NUM_CARDS, "the cards it holds, one column per card id (sim.cards)"),
    (NUM_CARDS, "the face-up top card of the discard pile, one-hot (zeros: the pile is empty)"),
    (NUM_CARDS, "every card in the discard pile"),
    (NUM_CARDS, "the cards it took from the pile and still holds"),
    (NUM_CARDS, "the cards the opponent took from the pile and still holds"),
    (NUM_CARDS, "the cards it discarded this hand"),
    (NUM_CARDS, "the cards the opponent discarded this hand"),
    (NUM_CARDS, "the card it just took from the pile (it may not throw it back), one-hot"),
    (1, "cards in the stock, / 31"),
    (SEATS, "game scores toward 100 before this hand, / 100: its own, the opponent's"),
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
            encoding.one_hot(encoding.seats_after(observation.dealer, seat, SEATS), SEATS),
            encoding.one_hot(observation.phase, len(Phase)),
            bits_to_bools(observation.hand),
            encoding.one_hot(observation.top_discard, NUM_CARDS),
            bits_to_bools(observation.discard_pile),
            bits_to_bools(observation.took),
            bits_to_bools(observation.opponent_took),
            bits_to_bools(observation.threw),
            bits_to_bools(observation.opponent_threw),
            encoding.one_hot(observation.taken, NUM_CARDS),
            np.asarray(observation.stock_size)[:, None] / STOCK_SIZE,
            encoding.from_seat(observation.scores, seat) / rules.GAME_TARGET,
        ],
        ENCODING,
    )


POLICY_SETTINGS = 10
"""How many numeric settings a compiled Gin Rummy policy is called with (a ``CompiledPolicy``'s ``width``)."""
SETTINGS = types.UniTuple(types.float64, POLICY_SETTINGS)
POLICY = types.FunctionType(
    types.int64(
        types.int64,  # phase: Phase.DRAW or Phase.DISCARD
        types.int64,  # hand: card mask of the cards held
        types.int64,  # top_discard: the face-up card (NONE: the pile is empty)
        types.int64,  # discard_pile: card mask of the pile
        types.int64,  # took: cards this seat took from the pile and still holds
        types.int64,  # opponent_took
        types.int64,  # threw: cards this seat threw this hand
        types.int64,  # opponent_threw
        types.int64,  # taken: the card just taken from the pile, which may not go back (NONE: none)
        types.int64,  # stock_size
        SETTINGS,  # the policy's settings
    )
)
"""A compiled Gin Rummy policy: one decision of one hand, returning its action. It sees the fields
of an ``Observation`` row as plain numbers (its legal actions follow from them: ``sim.ginrummy.melds``)."""


def compiled_policy(function: object, settings: tuple[float, ...] = ()) -> CompiledPolicy:
    """The ``CompiledPolicy`` of a Gin Rummy ``POLICY`` function with its settings."""
    return CompiledPolicy(function, settings, POLICY_SETTINGS)


def choose_compiled(compiled: CompiledPolicy, observation: Observation) -> np.ndarray:
    """(n,) the action ``compiled`` chooses in each row of ``observation``: a compiled strategy's
    ``choose``, the per-row code the fast engine's kernel calls."""
    chosen = np.empty(len(observation), dtype=np.int64)
    fields = (
        observation.phase,
        observation.hand,
        observation.top_discard,
        observation.discard_pile,
        observation.took,
        observation.opponent_took,
        observation.threw,
        observation.opponent_threw,
        observation.taken,
        observation.stock_size,
    )
    rows = (np.ascontiguousarray(values, dtype=np.int64) for values in fields)
    _CHOOSE_ROWS_ENTRY(lockstep.policy_address(compiled.function, POLICY.signature), compiled.arguments, *rows, chosen)
    return chosen


_ROWS = types.Array(types.int64, 1, "C", readonly=True)


_CHOOSE_ROWS = types.void(POLICY, SETTINGS, *(_ROWS,) * 10, types.int64[:])


@jit.njit(_CHOOSE_ROWS, cache=True, nogil=True)
def _choose_rows(
    policy, settings, phase, hand, top_discard, discard_pile, took, opponent_took, threw, opponent_threw, taken,
    stock_size, chosen,
):  # fmt: skip
    """``chosen[row]``: ``policy``'s action in each row."""
    for row in range(hand.shape[0]):
        chosen[row] = policy(
            phase[row], hand[row], top_discard[row], discard_pile[row], took[row], opponent_took[row], threw[row],
            opponent_threw[row], taken[row], stock_size[row], settings,
        )  # fmt: skip


_CHOOSE_ROWS_ENTRY = lockstep.entry_point(_choose_rows, _CHOOSE_ROWS)
