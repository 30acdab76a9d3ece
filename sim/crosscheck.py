"""Reference engine against fast engine: on the same deals with the same strategies they must agree.

``crosscheck(game, rounds, seed, strategies)`` plays deals ``start .. start + rounds - 1`` of the
seeded deal sequence in both engines and compares every action and every round's points. The
report counts what was compared or names the first deal, step and actions where the engines differ.

A game takes part through ``GAMES``: a ``GameHooks`` saying how to play one deal in the reference
engine and many in the fast engine, with the action trace; its deals come from ``sim.games``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import strategies as strategy_registry
from sim import games
from sim.cards import card_name
from sim.straights import fast as straights_fast
from sim.straights.engine import Round
from sim.workers import exit_with_parent
from strategies import Strategy

CHUNK_SIZE = 4096  # deals compared per fast-engine call


@dataclass(frozen=True)
class GameHooks:
    """What the cross-check needs from a game."""

    play_reference: Callable[[np.ndarray, Sequence[Strategy], int], tuple[Sequence[int], Sequence[int]]]
    """(deal, strategies, round_id) → (the actions taken, the points scored)."""
    play_fast: Callable[[np.ndarray, Sequence[Strategy], np.ndarray], tuple[np.ndarray, np.ndarray]]
    """(deals, strategies, round_ids) → ((n, length) actions, (n, players) points), one row per deal."""
    action_name: Callable[[int], str]


@dataclass(frozen=True)
class Divergence:
    """Where the engines first disagree: an action at ``step``, or (step None) the points."""

    deal: int
    step: int | None
    reference: str
    fast: str


@dataclass(frozen=True)
class CrosscheckReport:
    """How many rounds and actions the engines agreed on, and their first disagreement if any."""

    game: str
    seed: int
    strategies: tuple[str, ...]
    rounds: int
    actions: int
    divergence: Divergence | None = None

    @property
    def ok(self) -> bool:
        return self.divergence is None

    def format(self) -> str:
        """One line for people: what was compared and whether the engines agreed."""
        setting = f"{self.game}, seed {self.seed}, {' / '.join(self.strategies)}"
        agreed = f"{self.rounds:,} rounds and {self.actions:,} actions identical"
        if self.divergence is None:
            return f"crosscheck OK ({setting}): {agreed} in the reference and fast engines"
        where = self.divergence
        if where.step is None:
            what = f"points differ: reference {where.reference}, fast {where.fast}"
        else:
            what = f"step {where.step} differs: reference {where.reference}, fast {where.fast}"
        return f"crosscheck FAILED ({setting}): deal {where.deal}, {what} (after {agreed})"

    __str__ = format


def crosscheck(
    game: str = "straights",
    rounds: int = 10_000,
    seed: int = 0,
    strategies: Sequence[str | Strategy] = ("first-legal",) * 4,
    start: int = 0,
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
) -> CrosscheckReport:
    """Play the same deals in both engines of ``game`` with the same strategy objects and compare.

    ``strategies`` are specs (``"mc:samples=64"``) or strategy objects, one per seat; equal specs
    share one object. ``progress``, if given, is called with the number of rounds done so far.
    With ``jobs`` other than 1, joblib workers check spans of ``CHUNK_SIZE`` deals and the report is
    the one a single process gives: the first divergence in deal order, and what agreed before it.
    """
    hooks = _hooks(game)
    players = _build(game, strategies)
    spans = [(first, min(CHUNK_SIZE, start + rounds - first)) for first in range(start, start + rounds, CHUNK_SIZE)]
    if jobs == 1:
        checked = (_check_span(hooks, game, seed, players, first, count) for first, count in spans)
    else:
        from joblib import Parallel, delayed

        # In span order, so the first divergence met is the first in deal order.
        parallel = Parallel(n_jobs=jobs, return_as="generator")
        checked = parallel(delayed(_check_span_in_worker)(hooks, game, seed, players, first, count)
                           for first, count in spans)
    names = tuple(_describe(strategy) for strategy in strategies)
    compared_rounds = compared_actions = 0
    for span_rounds, span_actions, divergence in checked:
        compared_rounds += span_rounds
        compared_actions += span_actions
        if divergence is not None:
            return CrosscheckReport(game, seed, names, compared_rounds, compared_actions, divergence)
        if progress is not None:
            progress(compared_rounds)
    return CrosscheckReport(game, seed, names, compared_rounds, compared_actions)


def _check_span_in_worker(*span: Any) -> tuple[int, int, Divergence | None]:
    """``_check_span`` in a worker process, which ends if this process is killed."""
    exit_with_parent()
    return _check_span(*span)


def _check_span(
    hooks: GameHooks, game: str, seed: int, players: Sequence[Strategy], first: int, count: int
) -> tuple[int, int, Divergence | None]:
    """(rounds, actions agreed, the first divergence or None) of deals ``first .. first + count - 1``."""
    deals = games.load(game).deals(seed, first, count)
    deal_ids = np.arange(first, first + count, dtype=np.int64)
    fast_actions, fast_points = hooks.play_fast(deals, players, deal_ids)
    agreed_actions = 0
    for row, deal_id in enumerate(deal_ids.tolist()):
        actions, points = hooks.play_reference(deals[row], players, deal_id)
        divergence = _first_difference(hooks, deal_id, actions, points, fast_actions[row], fast_points[row])
        if divergence is not None:
            return row, agreed_actions, divergence
        agreed_actions += len(actions)
    return count, agreed_actions, None


def _first_difference(
    hooks: GameHooks,
    deal_id: int,
    actions: Sequence[int],
    points: Sequence[int],
    fast_actions: np.ndarray,
    fast_points: np.ndarray,
) -> Divergence | None:
    for step, (expected, got) in enumerate(zip(actions, fast_actions.tolist())):
        if expected != got:
            return Divergence(deal_id, step, hooks.action_name(expected), hooks.action_name(got))
    if len(actions) != len(fast_actions):
        return Divergence(
            deal_id,
            min(len(actions), len(fast_actions)),
            f"end after {len(actions)} actions",
            f"end after {len(fast_actions)} actions",
        )
    if tuple(points) != tuple(fast_points.tolist()):
        return Divergence(deal_id, None, str(tuple(points)), str(tuple(fast_points.tolist())))
    return None


def _hooks(game: str) -> GameHooks:
    try:
        return GAMES[game]
    except KeyError:
        raise ValueError(f"no crosscheck for game {game!r} (games: {', '.join(GAMES)})") from None


def _build(game: str, specs: Sequence[str | Strategy]) -> list[Strategy]:
    """One strategy object per seat; seats with the same spec share an object."""
    built: dict[str, Strategy] = {}
    for spec in specs:
        if isinstance(spec, str) and spec not in built:
            built[spec] = strategy_registry.get(game, spec)
    return [built[spec] if isinstance(spec, str) else spec for spec in specs]


def _describe(strategy: str | Strategy) -> str:
    if isinstance(strategy, str):
        return strategy
    return getattr(strategy, "name", type(strategy).__name__)


def _play_straights_reference(
    deal: np.ndarray, strategies: Sequence[Strategy], round_id: int
) -> tuple[list[int], tuple[int, ...]]:
    round_ = Round(tuple(deal.tolist()), round_id=round_id)
    while not round_.is_over:
        observation = round_.observe()
        round_.apply(int(strategies[round_.current_player].choose(observation)[0]))
    return round_.actions, round_.points()


def _play_straights_fast(
    deals: np.ndarray, strategies: Sequence[Strategy], round_ids: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    result = straights_fast.play_rounds(deals, strategies, round_ids=round_ids, trace=True)
    return result.actions, result.points


GAMES: dict[str, GameHooks] = {
    "straights": GameHooks(
        play_reference=_play_straights_reference,
        play_fast=_play_straights_fast,
        action_name=card_name,
    ),
}
