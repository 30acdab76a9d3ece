"""The game contract: what every game's reference engine provides, so generic code needs no game's name.

A game's unit of play is a *state* made from one deal by its ``Game`` record's ``new_state`` (a
Straights round, a Euchre or Gin Rummy hand, a whole Gemstones game). Every state works the same way
(OpenSpiel's shape):

- ``current_player``: the seat to decide, 0 .. seats - 1;
- ``legal_actions()``: the actions it may take, sorted ascending; empty exactly when ``is_over``;
- ``apply(action)``: takes one legal action and returns the events it caused (a list, possibly
  several: a trick won, the hand ended); an illegal action raises ``IllegalAction`` and changes
  nothing;
- ``is_over``: no decision is left;
- ``points()``: one number per seat, what the seat scored in this state so far (final once over);
- ``observe()``: what the current player may see, as the game's observation of a batch of one (the
  same type the fast engine hands strategies for a batch);
- ``clone()``: an independent copy (applying actions to it leaves the original unchanged).

Actions are whole numbers from 0 to the game's ``num_actions`` - 1, named for people by the
record's ``action_name`` and read back by its ``parse_action``.

**Observations** are the game's own record of numpy arrays whose first axis is the row (decision),
with ``len()``; besides the game's fields every one has ``round_id`` ((n,) int64, see below) and
``arrays()``, every field by name (what cross-checks compare). A strategy reads its observation and
never writes to it: fast engines may hand out read-only views of their own state.

**Legal actions in observations.** Every game's observation has ``legal_mask``: an (n,
num_actions) bool array, True where the action is legal for that row's seat. Games may carry
compact forms besides (Straights' hand-position bits, Euchre's action bits) for their own
strategies' speed, but ``legal_mask`` is what generic code (environments, random players, tests)
reads.

**Table views.** Each game's ``view`` module (``Game.view``) draws a whole game for one seat, for
people (the web table, ``sim.web``): ``table(state, seat, names)`` returns a ``TableView`` of what that
seat may see, never another seat's hidden cards, and ``action_face(action)`` the card an action plays
or None. A card is drawn from its *face*: a playing card's name ("7S", "TD"), ``"back"`` for a card
face down (``sim.pictures`` draws these), or a face of the game's own, such as a Gemstones stone's
name in lower case ("ruby"), which its view module draws: ``picture(face)``, an SVG document or None.

**Compiled policies.** A strategy whose decisions are a per-row function compiled with numba (the
built-in ones) says so with ``compiled``, a ``CompiledPolicy``: the game's fast engine then calls that
function inside its kernel, so a lineup of such strategies plays whole blocks of rounds without
Python between decisions. The function's signature is the game's ``POLICY`` (in its observation
module), and the strategy's ``choose`` runs the same function over a batch's rows, so both engines
and the programs play the same code.

**Decision ids.** A round (hand) of a whole game is numbered ``round_id(game, round)``, unique across
the games of a run; a decision within it is its step. Seeded strategies draw from
``decision_rng(their seed, round id, step, ...)``, or take one number per row of a batch from
``decision_uniforms(their seed, round ids, steps, ...)`` (both in ``strategies.montecarlo``), so a
decision's randomness depends on nothing but which decision it is.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NotRequired, Protocol, Self, TypedDict, runtime_checkable

import numpy as np

ROUND_ID_STRIDE = 1 << 20
"""Rounds (hands) per game that round ids can tell apart; games are far shorter."""


class IllegalAction(ValueError):
    """An action the rules do not allow in the current state; the state is unchanged."""


class UnknownAction(ValueError):
    """Text that names no action of the game (``Game.parse_action``)."""


class StrategyFault(ValueError):
    """A strategy raised, or chose what it may not (not one whole number per decision, or an action
    that is not legal); the message is one line naming the strategy and the decision (round id,
    step, seat)."""


# Compiled policies are numba's first-class functions, which numba still calls experimental: they are
# what lets one cached kernel call any lineup's policies without compiling again.
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")

MAX_POLICY_SETTINGS = 4
"""How many numeric settings a compiled policy is called with (the ones it has not are 0)."""


@dataclasses.dataclass(frozen=True)
class CompiledPolicy:
    """A strategy's decision for one row, as a fast engine's kernel calls it: ``function``, a
    ``numba.njit`` function of its game's ``POLICY`` signature, and the ``settings`` it is called with."""

    function: Any
    settings: tuple[float, ...] = ()
    width: int = MAX_POLICY_SETTINGS
    """How many settings the game's ``POLICY`` takes: ``MAX_POLICY_SETTINGS`` unless its game says more."""

    def __post_init__(self) -> None:
        if len(self.settings) > self.width:
            raise ValueError(f"a compiled policy takes at most {self.width} settings")

    @property
    def arguments(self) -> tuple[float, ...]:
        """``settings`` as kernels pass them: floats, padded with zeros to ``width``."""
        return tuple(float(value) for value in self.settings) + (0.0,) * (self.width - len(self.settings))


class Strategy(Protocol):
    """A batched player: the observation of n decisions in, n actions out (an int array of shape (n,)).

    The reference engine asks with a batch of one; fast engines with every row whose mover it plays.
    """

    def choose(self, observation: Any) -> np.ndarray: ...


@runtime_checkable
class State(Protocol):
    """One unit of play of any game, one decision at a time (see the module docstring)."""

    @property
    def current_player(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> tuple[int, ...]: ...

    def apply(self, action: int) -> list[Any]: ...

    def points(self) -> tuple[int, ...]: ...

    def observe(self) -> Any: ...

    def clone(self) -> State: ...


class GameState(State, Protocol):
    """A whole game (rounds until one wins): a ``State`` whose ``points()`` are the game scores,
    which also counts its rounds and names its winners.

    ``winning_seats()`` is empty until the game is over, then names every seat that won: both
    partners of a winning team, and every seat tied for the win when several share it. A win shared
    by several teams is what results call a draw."""

    @property
    def rounds_played(self) -> int: ...

    def winning_seats(self) -> tuple[int, ...]: ...


NewState = Callable[[Sequence[int], int], State]
"""``new_state(deal, round_id)``: one round (hand) from a deal, with the game's defaults for what the
deal does not say (the dealer follows the round id, scores start at zero)."""

NewGame = Callable[[Callable[[], Sequence[int]], int], GameState]
"""``new_game(next_deal, game_id)``: a whole game whose rounds are dealt by calling ``next_deal()``."""


class ArrayRecord:
    """Mixin for an observation that is a dataclass of numpy arrays: ``arrays()`` and ``len()``."""

    def arrays(self) -> dict[str, np.ndarray]:
        """Every field by name."""
        return {item.name: getattr(self, item.name) for item in dataclasses.fields(self)}  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(getattr(self, dataclasses.fields(self)[0].name))  # type: ignore[arg-type]

    def take(self, rows: np.ndarray) -> Self:
        """The same record of the rows ``rows`` only (fresh arrays)."""
        return type(self)(**{name: values.take(rows, axis=0) for name, values in self.arrays().items()})


class ViewRow(TypedDict):
    """One line of a zone: a label (a suit, a seat's name), its cards' faces, and a short note."""

    label: str
    cards: list[str]
    note: NotRequired[str]


class Zone(TypedDict):
    """A titled area of the table (the table by suit, your hand, the trick, a seat's chains)."""

    title: str
    rows: list[ViewRow]


class Score(TypedDict):
    """A seat's (or a team's) standing in the game."""

    name: str
    score: int


class TableView(TypedDict):
    """What one seat sees of a whole game (``Game.view``'s ``table``), in the order to show it:
    zones of cards, short facts ("Trump: Hearts", "Deadwood: 12") and the game's scores."""

    zones: list[Zone]
    facts: list[str]
    scores: list[Score]


def round_id(game_id: int, round_number: int) -> int:
    """The id of round ``round_number`` of game ``game_id``: unique across the games of a run."""
    if not 0 <= round_number < ROUND_ID_STRIDE:
        raise ValueError(f"round {round_number} is beyond the {ROUND_ID_STRIDE} rounds a game may have")
    return game_id * ROUND_ID_STRIDE + round_number


def round_ids(game_ids: np.ndarray, round_number: int) -> np.ndarray:
    """``round_id`` for a batch of games (int64)."""
    return np.asarray(game_ids, dtype=np.int64) * ROUND_ID_STRIDE + round_number


def legal_mask_of(actions: Iterable[int], num_actions: int) -> np.ndarray:
    """(1, num_actions) bool: the ``legal_mask`` row of a state whose legal actions are ``actions``."""
    mask = np.zeros((1, num_actions), dtype=bool)
    mask[0, list(actions)] = True
    return mask


def pair(values: Iterable[int]) -> tuple[int, int]:
    """``values`` as a 2-tuple: a number per seat of a two-player game, or per team of a partnership
    game, as its events and scores keep them. ``ValueError`` unless there are exactly two."""
    first, second = values
    return first, second
