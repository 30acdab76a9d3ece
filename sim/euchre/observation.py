"""What a Euchre player may see when it is to move, for a batch of hands at once.

The reference engine hands a strategy an ``Observation`` of one hand and expects one action back;
every field is a numpy array whose first axis is the hand. A player sees its own cards, the upcard,
the bidding, the cards played, the tricks each team has taken and the game scores, and, as dealer,
the card it threw away. It never sees another player's cards or the three undealt cards.

Actions are ints: a card id (``sim.cards``) plays a card or, for the dealer after picking up,
throws it away; ``ORDER_UP + suit`` orders up that suit; ``PASS`` passes.

``encode`` turns a batch into the float32 rows learning agents read (``ENCODING``, docs/euchre.md).

A compiled policy (``sim.api.CompiledPolicy``) sees one row at a time, as ``POLICY`` lays it out, and
``choose_compiled`` runs one over a batch: the ``choose`` of every compiled strategy.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np
from numba import types

from sim import encoding, jit, lockstep
from sim.api import MAX_POLICY_SETTINGS, ArrayRecord, CompiledPolicy, UnknownAction
from sim.cards import SUIT_NAMES, CardError, bits_to_bools, card_name, parse_card
from sim.encoding import Layout
from sim.euchre import rules
from sim.numbers import shown

ORDER_UP = 52
PASS = ORDER_UP + 4
NUM_ACTIONS = PASS + 1  # the size of the action space, for masks and policy arrays
NONE = -1  # an empty slot: no trump yet, no card played yet, no bid yet


BIDS = 2 * rules.NUM_PLAYERS
DISCARD_STEP = BIDS
FIRST_CARD_STEP = BIDS + 1
SCRIPT_STEPS = FIRST_CARD_STEP + rules.NUM_PLAYERS * rules.TRICKS_PER_HAND
"""A hand's *script positions*, the places of its decisions: bid ``k`` at ``k`` (from the eldest hand
on), the dealer's discard at ``DISCARD_STEP``, card ``j`` played at ``FIRST_CARD_STEP + j``. A hand
moves through them in increasing order, skipping bids never made and a discard never needed."""


class Phase(IntEnum):
    """The stages of a hand, in order."""

    MAKING = 0  # players pass or order up, in round one or two
    DISCARD = 1  # the dealer has picked up the upcard and throws one card away
    PLAYING = 2  # five tricks
    OVER = 3


def action_name(action: int) -> str:
    """A card's short name (``JH``: play it, or throw it away as dealer), ``order up Hearts`` or ``pass``."""
    if action == PASS:
        return "pass"
    suit = ordered_suit(action)
    return f"order up {SUIT_NAMES[suit]}" if suit is not None else card_name(action)


def parse_action(text: str) -> int:
    """The action ``action_name`` gives ``text`` for; ``UnknownAction`` if none."""
    words = text.strip()
    if words.lower() == "pass":
        return PASS
    if words.lower().startswith("order up "):
        suit = words[len("order up ") :].strip().capitalize()
        if suit in SUIT_NAMES:
            return order_up(SUIT_NAMES.index(suit))
    try:
        return parse_card(words)
    except CardError:
        raise UnknownAction(f"{shown(text)} is not a Euchre action (a card such as JH, order up SUIT, pass)") from None


def order_up(suit: int) -> int:
    """The action that orders up ``suit``."""
    return ORDER_UP + suit


def ordered_suit(action: int) -> int | None:
    """The suit an action orders up, or None when it is not an order-up."""
    return action - ORDER_UP if ORDER_UP <= action < PASS else None


@dataclass(frozen=True)
class Observation(ArrayRecord):
    """One seat's view of ``n`` hands in which it is to move; arrays have ``n`` rows."""

    seat: np.ndarray
    """(n,) int8 / int64: the seat to move. Encoding: 0 to 3; seats 0 and 2 are partners (team 0), as are 1
    and 3 (team 1); play passes to the left, from seat s to s + 1 (mod 4)."""
    dealer: np.ndarray
    """(n,) int8 / int64: the dealer. Encoding: a seat, 0 to 3; the seat on its left bids and leads first."""
    phase: np.ndarray
    """(n,) int8 / int64: the stage of the hand. Encoding: a ``Phase``: 0 making trump, 1 the dealer's
    discard, 2 playing the tricks, 3 over."""
    making_round: np.ndarray
    """(n,) int8 / int64: the round of making trump. Encoding: 1 (the upcard's suit may be ordered up) or 2
    (another suit) while making, then the round trump was made in."""
    legal: np.ndarray
    """(n,) int64: the actions it may take, the form this game's strategies read. Encoding: a bit mask
    over actions: bit a set when action a is legal (actions as ``legal_mask`` numbers them)."""
    hand: np.ndarray
    """(n,) int64: the cards it holds (the dealer's includes an upcard it picked up). Encoding: a card
    bitmask, bit c for card id c (``sim.cards``: 13 × suit + rank, rank 0 the ace)."""
    upcard: np.ndarray
    """(n,) int8 / int64: the card turned up after the deal. Encoding: a card id."""
    bids: np.ndarray
    """(n, 8) int8 / int64: the making actions so far, in order from the eldest hand (left of the
    dealer). Encoding: actions (``ORDER_UP`` + suit, ``PASS``), -1 (``NONE``) after the last."""
    trump: np.ndarray
    """(n,) int8 / int64: the trump suit. Encoding: 0 to 3 (clubs, diamonds, hearts, spades), -1 (``NONE``)
    while making."""
    maker: np.ndarray
    """(n,) int8 / int64: the seat that made trump. Encoding: 0 to 3, -1 (``NONE``) while making."""
    discard: np.ndarray
    """(n,) int8 / int64: the card this seat threw away as dealer. Encoding: a card id, -1 (``NONE``) if
    it has not (or is not the dealer)."""
    leader: np.ndarray
    """(n,) int8 / int64: the seat that leads the current trick. Encoding: 0 to 3."""
    trick: np.ndarray
    """(n, 4) int8 / int64: the current trick's cards, from the leader's on. Encoding: card ids, -1
    (``NONE``) after the last played."""
    history: np.ndarray
    """(n, 20) int8 / int64: every card played this hand, in order. Encoding: card ids, -1 (``NONE``)
    after the last; who played each follows from the first leader and the tricks' winners."""
    tricks_won: np.ndarray
    """(n, 2) int8 / int64: the tricks each team has taken this hand. Encoding: by team: team 0 (seats 0
    and 2), team 1 (seats 1 and 3); 0 to 5."""
    scores: np.ndarray
    """(n, 2) int64: each team's game points before this hand. Encoding: by team; a game is won at 10."""
    round_id: np.ndarray
    """(n,) int64: the hand's id (``sim.api.round_id``), for strategies that seed their randomness per
    decision. Encoding: an id; it says nothing of the cards."""

    @property
    def legal_mask(self) -> np.ndarray:
        """(n, 57) bool: the actions it may take, every game's convention (``sim.api``); ``legal`` holds
        the same as bits. Encoding: True where the action is legal: actions 0 to 51 play the card of
        that id (or, for the dealer who picked up, throw it away), 52 + suit orders up that suit
        (``ORDER_UP``), 56 passes (``PASS``)."""
        return bits_to_bools(self.legal, NUM_ACTIONS)


SEATS, TEAMS, CARDS = rules.NUM_PLAYERS, rules.NUM_TEAMS, rules.PACK_SIZE
TRICKS = rules.TRICKS_PER_HAND
BID_KINDS = PASS - ORDER_UP + 1  # order up each suit, or pass
# PACK_INDEX[card id] is the card's column among the pack's 24 (sorted by card id), -1 outside the pack.
PACK_INDEX = np.full(52, NONE, dtype=np.int64)
PACK_INDEX[rules.PACK_CARDS] = np.arange(CARDS)
ENCODING: Layout = (
    (SEATS, "the seat to move, one-hot"),
    (SEATS, "the dealer, one-hot in places after the seat to move (0: itself)"),
    (len(Phase), "the phase, one-hot: making, the dealer's discard, playing, over"),
    (2, "the round of making, one-hot: first (upcard's suit), second"),
    (CARDS, "the cards it holds, one column per card of the pack in card-id order"),
    (CARDS, "the upcard, one-hot over the pack"),
    (
        2 * SEATS * BID_KINDS,
        "the bids from the eldest hand on: 8 blocks of 5 (order up clubs, diamonds, hearts, "
        "spades; pass), zeros after the last",
    ),
    (len(SUIT_NAMES), "trump, one-hot by suit (zeros while making)"),
    (SEATS, "the maker, one-hot in places after the seat to move"),
    (CARDS, "the card it threw away as dealer, one-hot over the pack"),
    (SEATS, "the current trick's leader, one-hot in places after the seat to move"),
    (
        TRICKS * SEATS * CARDS,
        "the tricks: per trick in order, a block of 24 card columns per seat from the seat "
        "to move on, the card that seat played (the current trick so far included)",
    ),
    (TEAMS, "tricks taken this hand, / 5: its own team, the other"),
    (TEAMS, "game scores before this hand, / 10: its own team, the other"),
)
"""The slices of ``encode``'s rows; "from the seat to move on" means the seat to move first, then the
seats after it in turn order (to its left)."""
ENCODED_SIZE = encoding.size(ENCODING)


@encoding.reads_attached
def encode(observation: Observation) -> np.ndarray:
    """(n, ENCODED_SIZE) float32: the observation as ``ENCODING`` lays it out, for learning agents."""
    seat = observation.seat
    bids = observation.bids
    team = seat % TEAMS  # rules.team_of
    return encoding.concatenate(
        [
            encoding.one_hot(seat, SEATS),
            encoding.one_hot(encoding.seats_after(observation.dealer, seat, SEATS), SEATS),
            encoding.one_hot(observation.phase, len(Phase)),
            encoding.one_hot(observation.making_round - 1, 2),
            bits_to_bools(observation.hand)[:, rules.PACK_CARDS],
            pack_one_hot(observation.upcard),
            encoding.one_hot(np.where(bids == NONE, NONE, bids - ORDER_UP), BID_KINDS),
            encoding.one_hot(observation.trump, len(SUIT_NAMES)),
            encoding.one_hot(encoding.seats_after(observation.maker, seat, SEATS), SEATS),
            pack_one_hot(observation.discard),
            encoding.one_hot(encoding.seats_after(observation.leader, seat, SEATS), SEATS),
            tricks_by_seat(observation.history, observation.dealer, observation.trump, seat),
            encoding.from_seat(observation.tricks_won, team) / TRICKS,
            encoding.from_seat(observation.scores, team) / rules.DEFAULT_POINTS_TO_WIN,
        ],
        ENCODING,
    )


def pack_one_hot(cards: np.ndarray) -> np.ndarray:
    """(*cards.shape, 24) float32: each card id one-hot over the pack; zeros for ``NONE``."""
    return encoding.one_hot(np.where(cards == NONE, NONE, PACK_INDEX[cards]), CARDS)


def tricks_by_seat(history: np.ndarray, dealer: np.ndarray, trump: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """(n, 5, 4, 24) float32: per trick, the card each seat played (one-hot over the pack), seats from
    ``seat`` on. The history lists the cards in play order; each trick's leader is the last trick's
    winner (the first is left of the dealer), found with the rules' trick order."""
    tricks = np.zeros((len(seat), TRICKS, SEATS, CARDS), dtype=np.float32)
    leader = (dealer + 1) % SEATS
    known_trump = np.maximum(trump, 0)  # NONE only while making, when no card has been played
    for trick in range(TRICKS):
        cards = history[:, trick * SEATS : (trick + 1) * SEATS]  # from the trick's leader on
        tricks[:, trick] = encoding.from_seat(pack_one_hot(cards), (seat - leader) % SEATS)
        played = np.maximum(cards, 0)  # a trick not complete yet decides no later leader: nothing follows it
        led = rules.EFFECTIVE_SUIT[known_trump, played[:, 0]]
        strength = rules.STRENGTH[known_trump[:, None], led[:, None], played]
        leader = (leader + strength.argmax(axis=1)) % SEATS
    return tricks


SETTINGS = types.UniTuple(types.float64, MAX_POLICY_SETTINGS)
POLICY = types.FunctionType(
    types.int64(
        types.int64,  # phase: Phase.MAKING, DISCARD or PLAYING
        types.int64,  # seat: the seat to move
        types.int64,  # dealer
        types.int64,  # making_round: 1 or 2 (while playing, the round trump was made in)
        types.int64,  # legal: bitmask over actions
        types.int64,  # hand: card bitmask of the cards held
        types.int64,  # upcard
        types.int64,  # trump, NONE while making
        types.int64,  # maker, NONE while making
        types.int64,  # led: the card that led the trick, NONE when the seat leads (or is not playing)
        types.int64,  # winning: the card winning the trick so far, NONE when the seat leads
        types.int64,  # winner: the seat that played it, NONE when the seat leads
        types.int64,  # played: how many cards the trick holds, 0..3
        SETTINGS,  # the policy's settings
    )
)
"""A compiled Euchre policy: one decision of one hand, returning its action. It sees what the
observation shows that the built-in strategies read, the current trick reduced to its led card and
the card winning it so far (whose seat tells whether a partner is winning)."""

_PLAYING = int(Phase.PLAYING)
_STRENGTH = rules.STRENGTH.ravel()  # [(trump * 5 + led suit) * 52 + card]
_EFFECTIVE_SUIT = rules.EFFECTIVE_SUIT.ravel()  # [trump * 52 + card]


def choose_compiled(compiled: CompiledPolicy, observation: Observation) -> np.ndarray:
    """(n,) the action ``compiled`` chooses in each hand of ``observation``: a compiled strategy's
    ``choose``, the per-row code the fast engine's kernel calls."""
    o = observation
    chosen = np.empty(len(o), dtype=np.int64)
    trick = np.ascontiguousarray(o.trick, dtype=np.int64)
    _CHOOSE_ROWS_ENTRY(
        lockstep.policy_address(compiled.function, POLICY.signature), compiled.arguments, _column(o.phase),
        _column(o.seat), _column(o.dealer),
        _column(o.making_round), _column(o.legal), _column(o.hand), _column(o.upcard), _column(o.trump),
        _column(o.maker), _column(o.leader), trick, chosen,
    )  # fmt: skip
    return chosen


def _column(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)


_COLUMN = types.Array(types.int64, 1, "C", readonly=True)


_CHOOSE_ROWS = types.void(
    POLICY, SETTINGS, *(_COLUMN,) * 10, types.Array(types.int64, 2, "C", readonly=True), types.int64[:]
)


@jit.njit(_CHOOSE_ROWS, cache=True, nogil=True)
def _choose_rows(
    policy, settings, phase, seat, dealer, making_round, legal, hand, upcard, trump, maker, leader, trick, chosen
):  # fmt: skip
    """``chosen[row]``: ``policy``'s action in each row, the trick's winner found in the trick order."""
    for row in range(phase.shape[0]):
        led = winning = winner = NONE
        played = 0
        if phase[row] == _PLAYING and trick[row, 0] != NONE:
            led = trick[row, 0]
            order = (trump[row] * 5 + _EFFECTIVE_SUIT[trump[row] * 52 + led]) * 52
            while played < 4 and trick[row, played] != NONE:
                card = trick[row, played]
                if winning == NONE or _STRENGTH[order + card] > _STRENGTH[order + winning]:
                    winning, winner = card, (leader[row] + played) & 3
                played += 1
        chosen[row] = policy(
            phase[row], seat[row], dealer[row], making_round[row], legal[row], hand[row], upcard[row], trump[row],
            maker[row], led, winning, winner, played, settings,
        )  # fmt: skip


_CHOOSE_ROWS_ENTRY = lockstep.entry_point(_choose_rows, _CHOOSE_ROWS)
"""``_choose_rows``' machine code, called without numba's dispatcher typing a policy argument on every call."""
