"""What every fast engine shares: whole games played as rounds in lockstep, the seats' strategies (and
their compiled policies as a kernel takes them), the check of what a strategy chooses, and the error
for bad deals.

A fast engine plays a batch of rounds at once (``play_rounds``). ``play_games`` strings them into
whole games: round ``r`` of every game still going is dealt together, played as one batch and
scored, and the games that are over leave the batch before the next round, so every round is one
vectorized call over the games that still need it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
from numba import types
from numba.experimental.function_type import _get_wrapper_address

from sim.api import Strategy, StrategyFault, round_ids
from sim.games import DealSource


class DealError(ValueError):
    """Deals a fast engine refuses: not an array of whole packs of its game."""


PlayScoredRounds = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""``play(deals (n, ...), round ids (n,), scores before the round (n, k)) -> scores gained (n, k)``."""


def play_games(
    game_ids: np.ndarray,
    deal_source: DealSource,
    play: PlayScoredRounds,
    score_columns: int,
    is_over: Callable[[np.ndarray], np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """(final scores (B, score_columns), rounds played (B,)) of whole games ``game_ids``.

    Round ``r`` of game ``g`` is dealt by ``deal_source(game ids still going, r)`` and numbered
    ``sim.api.round_id(g, r)``; ``is_over(scores (n, k)) -> (n,) bool`` ends a game after a round.
    """
    game_ids = np.asarray(game_ids, dtype=np.int64)
    scores = np.zeros((len(game_ids), score_columns), dtype=np.int64)
    rounds = np.zeros(len(game_ids), dtype=np.int64)
    going = np.arange(len(game_ids))
    round_number = 0
    while going.size:
        ids = game_ids[going]
        scores[going] += play(deal_source(ids, round_number), round_ids(ids, round_number), scores[going])
        rounds[going] += 1
        going = going[~is_over(scores[going])]
        round_number += 1
    return scores, rounds


class Players:
    """The seats' strategies, each distinct strategy object once with the seats it plays: a fast
    engine asks each object once per step, for every row whose mover it plays."""

    def __init__(self, strategies: Sequence[Strategy]) -> None:
        distinct = list({id(strategy): strategy for strategy in strategies}.values())
        self.seats_of = [(strategy, np.array([other is strategy for other in strategies])) for strategy in distinct]

    @property
    def single(self) -> Strategy | None:
        """The strategy of every seat, when one object plays them all."""
        return self.seats_of[0][0] if len(self.seats_of) == 1 else None


EXTERNAL = -1
"""The kind of a seat whose compiled policy is not one of its game's built-in policies: the kernel
calls it through its address."""


def policy_kind(function: Any, built_in: Sequence[Any]) -> int:
    """A compiled policy's kind: its index among its game's ``built_in`` policies, else ``EXTERNAL``."""
    return built_in.index(function) if function in built_in else EXTERNAL


class CompiledSeats(Players):
    """The seats' strategies as a kernel takes them: each seat's *kind* (the index of its compiled
    policy in the game's ``built_in`` policies, which the kernel calls directly, else ``EXTERNAL``),
    the address of an external policy (``stand_in``, a policy the kernel never calls, for every
    other seat), its settings, and which seats are played in Python. ``policy`` is the game's
    ``POLICY`` function type."""

    def __init__(
        self, strategies: Sequence[Strategy], policy: types.FunctionType, stand_in: Any, built_in: Sequence[Any] = ()
    ) -> None:
        super().__init__(strategies)
        self.strategies = list(strategies)
        compiled = [getattr(strategy, "compiled", None) for strategy in strategies]
        self.in_python = np.array([policy is None for policy in compiled])
        self.in_python.flags.writeable = False
        functions = [None if each is None else each.function for each in compiled]
        self.kinds = np.array([policy_kind(each, built_in) for each in functions], dtype=np.int64)
        self.kinds.flags.writeable = False
        self.functions = tuple(
            policy_address(stand_in if kind != EXTERNAL or each is None else each, policy.signature)
            for kind, each in zip(self.kinds, functions)
        )
        no_settings = (0.0,) * policy.signature.args[-1].count  # a policy's last argument: its settings
        self.settings = tuple(no_settings if each is None else each.arguments for each in compiled)


class PausedRounds(Protocol):
    """A fast engine's rounds paused at decisions of seats played in Python: who is to move, what
    they see, and the actions they take when the rounds next advance."""

    def mover(self, rows: np.ndarray) -> np.ndarray: ...

    def observe(self, rows: np.ndarray) -> Any: ...

    def take(self, rows: np.ndarray, actions: np.ndarray) -> None: ...


class RoundsTables:
    """What every game's batched tables (``sim.vecenv.Tables``) read and write the same way, through
    ``rounds``, its engine's paused rounds; a game's ``Tables`` adds how they are dealt, advanced,
    scored and encoded."""

    def __init__(self, rounds: PausedRounds) -> None:
        self.rounds = rounds

    def mover(self, rows: np.ndarray) -> np.ndarray:
        return self.rounds.mover(rows)

    def observe(self, rows: np.ndarray) -> Any:
        return self.rounds.observe(rows)

    def take(self, rows: np.ndarray, actions: np.ndarray) -> None:
        self.rounds.take(rows, actions)


class BlockTables(RoundsTables):
    """``RoundsTables`` over an engine's block of rounds that ``seats`` play (``block.advance(seats,
    rows)``), its points an array of each seat's."""

    def __init__(self, block: Any, seats: CompiledSeats) -> None:
        super().__init__(block)
        self.block, self.seats = block, seats

    def advance(self, rows: np.ndarray) -> np.ndarray:
        return self.block.advance(self.seats, rows)

    def points(self, rows: np.ndarray) -> np.ndarray:
        return self.block.points[rows]

    def scored(self, rows: np.ndarray) -> np.ndarray:
        """Zeros: a round of the block's game scores at its end (a game scoring as it plays says otherwise)."""
        return np.zeros((len(rows), len(self.seats.strategies)), dtype=np.int64)


class PolicyAddress(types.WrapperAddressProtocol):
    """A compiled policy as kernels are handed it: its address, found once. Handed the policy's
    dispatcher, numba would look its compiled version up on every kernel call (most of a small call's time)."""

    def __init__(self, function: Any, signature: Any) -> None:
        self.address = _get_wrapper_address(function, signature)
        self._signature = signature

    def __wrapper_address__(self) -> int:
        return self.address

    def signature(self) -> Any:
        return self._signature


@functools.cache
def policy_address(function: Any, signature: Any) -> PolicyAddress:
    """``function``'s ``PolicyAddress`` for ``signature``, found once a process."""
    return PolicyAddress(function, signature)


def entry_point(kernel: Any, signature: Any) -> Callable[..., Any]:
    """The machine code of ``kernel`` compiled for ``signature``: called directly, numba's dispatcher
    does not type the arguments again at every call."""
    return kernel.overloads[signature.args].entry_point


def strategy_name(strategy: Strategy) -> str:
    """What messages call a strategy: its ``name``, else its class's."""
    return getattr(strategy, "name", type(strategy).__name__)


def choose_checked(
    strategy: Strategy,
    observation: Any,
    legal: np.ndarray | int,
    steps: int | np.ndarray | None,
    seats: int | np.ndarray,
) -> np.ndarray:
    """(n,) int64: ``strategy``'s actions for the n rows of ``observation``, each legal in its row of
    ``legal`` ((n, num_actions) bool), or only one of ``legal`` actions when it is their number (for
    an engine that checks legality itself); else ``StrategyFault`` naming the decision (the
    observation's round id, ``steps``, ``seats``: one for every row or one per row; ``steps`` None
    when unknown). Any ``Exception`` the strategy raises becomes a fault too (``KeyboardInterrupt``
    is not one)."""
    try:
        chosen = strategy.choose(observation)
    except Exception as error:
        message = str(error).strip().splitlines()
        said = f": {message[0]}" if message else ""
        raise fault(strategy, f"raised {type(error).__name__}{said}", observation.round_id, steps, seats) from error
    actions = np.asarray(chosen)
    size = len(observation)
    # Floats (even 3.0) and bools are refused: they are a strategy's bug, not an action.
    if actions.shape != (size,) or actions.dtype.kind not in "iu":
        expected = f"{size} whole-number action{'s' if size != 1 else ''}"
        raise fault(strategy, f"returned {_shown(actions)}, not {expected}", observation.round_id, steps, seats)
    num_actions = legal if isinstance(legal, int) else legal.shape[1]
    # Viewed unsigned, negative actions become huge: one reduction checks both ends.
    if size and actions.view(np.dtype(f"u{actions.itemsize}")).max() >= num_actions:
        row = int(np.argmax((actions < 0) | (actions >= num_actions)))
        what = f"chose action {int(actions[row])}, which is not an action of this game (0..{num_actions - 1})"
        raise fault(strategy, what, observation.round_id, steps, seats, row)
    if not isinstance(legal, int):
        allowed = legal[np.arange(size), actions]
        if not allowed.all():
            row = int(np.argmin(allowed))
            what = f"chose action {int(actions[row])}, which is not legal there"
            raise fault(strategy, what, observation.round_id, steps, seats, row)
    return actions.astype(np.int64, copy=False)


def fault(
    strategy: Strategy,
    what: str,
    round_ids: np.ndarray,
    steps: int | np.ndarray | None,
    seats: int | np.ndarray,
    row: int = 0,
) -> StrategyFault:
    """The one-line fault of ``strategy`` at decision ``row`` of a batch (its round id, step and seat:
    ``steps`` and ``seats`` are one for every row or one per row; ``steps`` None when unknown)."""
    where = [f"round {int(np.asarray(round_ids).reshape(-1)[row])}"]
    if steps is not None:
        where.append(f"step {_at(steps, row)}")
    where.append(f"seat {_at(seats, row)}")
    return StrategyFault(f"strategy {strategy_name(strategy)!r} {what} ({', '.join(where)})")


def _at(values: int | np.ndarray, row: int) -> int:
    """Row ``row`` of ``values``, one for every row or one per row."""
    return int(values) if np.ndim(values) == 0 else int(np.asarray(values)[row])


def _shown(actions: np.ndarray) -> str:
    """What a strategy returned, for a message: a lone value as itself, else its dtype and shape."""
    if actions.size == 1 and actions.dtype != object:
        return f"{actions.reshape(-1)[0].item()!r} ({actions.dtype}, shape {actions.shape})"
    return f"an array of {actions.dtype}, shape {actions.shape}"
