"""A run's strategies (``cardsim train``): the teacher, the player and the labellers a plan names, and
asking them at the learners' decisions, a block of tables at a time, in this process or in ``jobs``
worker processes.

The blocks are the same whatever the number of workers, and each is asked whole by one worker: a
strategy's answer for a row may depend on the rows asked beside it (a network's arithmetic over a
batch), so fixed blocks keep a run's positions the same with one worker or many. A worker builds the
plan's strategies once (``deciders_of``) and is sent each block's observations and, for an oracle,
the block's true records.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import numpy as np

import strategies as strategy_registry
from sim import games
from sim.envs import round_rewards
from sim.games import default_engine
from sim.training.plan import Plan
from sim.vecenv import VecEnv
from sim.workers import in_order
from strategies.montecarlo import Cheater

BLOCK_ROWS = 64  # tables (or held-out deals) asked at once: a lookahead's rollouts of 64 decisions fill its batches


class CannotLabel(ValueError):
    """``labels`` names a strategy that cannot label positions (one line)."""


class Deciders(NamedTuple):
    """Who is asked at a learner's decision: the ``teacher`` (the action learned), the ``player``
    (the action played; None: the teacher's), the ``labeller`` (the margin learned; None: the
    episode's) and the ``auxiliary`` labeller (None: none)."""

    teacher: Any
    player: Any = None
    labeller: Any = None
    auxiliary: Any = None


class Answers(NamedTuple):
    """What the deciders said at the learners' decisions, one row a table."""

    chosen: np.ndarray
    """(n,) int64 the teacher's actions."""
    moved: np.ndarray
    """(n,) int64 the player's actions (the teacher's without a player)."""
    labels: np.ndarray
    """(n,) float32 the labeller's margins (NaN without one)."""
    auxiliary: np.ndarray
    """(n,) float32 the auxiliary labeller's margins (NaN without one)."""


def deciders_of(plan: Plan) -> Deciders:
    """The strategies ``plan`` names; ``CannotLabel`` (or the registry's error) for a bad one."""
    teacher = strategy_registry.get_fair(plan.game, plan.teacher, "training")
    player = strategy_registry.get_fair(plan.game, plan.player, "training") if plan.player else None
    labeller, auxiliary = _labeller(plan, plan.labels, "--labels"), _labeller(plan, plan.auxiliary, "--auxiliary")
    return Deciders(teacher, player, labeller, auxiliary)


def _labeller(plan: Plan, spec: str, option: str) -> Any:
    """The strategy of ``spec`` (None without), refused in one line unless it is a lookahead that can
    label a value run's positions with margins."""
    if not spec:
        return None
    if plan.learn != "value":
        raise CannotLabel(f"{option} label a value run's positions: add --learn value")
    labeller = _oracle(plan.game, spec) or strategy_registry.get_fair(plan.game, spec, "labelling runs")
    if not callable(getattr(labeller, "margins", None)):
        raise CannotLabel(f"{spec} cannot label positions: {option} takes a lookahead such as mc")
    if isinstance(labeller, Cheater) and labeller.truth_of is None:
        raise CannotLabel(
            f"{spec} cannot label {plan.game}'s positions: an oracle labels where the tables "
            "keep every action (Straights, Euchre)"
        )
    return labeller


def _oracle(game: str, spec: str) -> Any:
    """The strategy of ``spec`` if it is a cheating one (an oracle, bound to the tables' true
    records as it labels) seating no other cheat; else None, ``get_fair`` saying what is wrong."""
    try:
        outer, *inner = strategy_registry.spec_tree(game, spec)
    except strategy_registry.StrategyError:
        return None
    if not outer.registration.cheating or any(node.registration.cheating for node in inner):
        return None
    return strategy_registry.get(game, spec)


def ask(plan: Plan, deciders: Deciders, env: VecEnv, jobs: int) -> Answers:
    """The deciders' answers at every table of ``env`` (the learners to move), a block of
    ``BLOCK_ROWS`` tables at a time; with ``jobs`` > 1 the blocks go to worker processes, which ask
    ``plan``'s own strategies (so ``deciders`` must be ``deciders_of(plan)``)."""
    oracle = any(isinstance(labeller, Cheater) for labeller in deciders[2:])
    records = env.true_records() if oracle else None
    blocks = [np.arange(first, min(first + BLOCK_ROWS, env.num_envs)) for first in range(0, env.num_envs, BLOCK_ROWS)]

    def block_records(rows: np.ndarray) -> tuple[np.ndarray, ...] | None:
        return None if records is None else tuple(part[rows] for part in records)

    if jobs == 1:
        parts = [answers(deciders, env.observations(rows), block_records(rows)) for rows in blocks]
    else:
        from joblib import delayed

        calls = (delayed(_plan_answers)(plan, env.observations(rows), block_records(rows)) for rows in blocks)
        parts = list(in_order(jobs, calls))
    return Answers(*(np.concatenate(column) for column in zip(*parts)))


def answers(deciders: Deciders, seen: Any, records: tuple[np.ndarray, ...] | None) -> Answers:
    """The deciders' answers at the decisions ``seen`` (a batch of the game's observation), an oracle
    bound to the tables' true ``records`` (``VecEnv.true_records``' rows of ``seen``) first."""
    teacher, player, labeller, auxiliary = deciders
    chosen = np.asarray(teacher.choose(seen), dtype=np.int64)
    moved = chosen if player is None else np.asarray(player.choose(seen), dtype=np.int64)
    return Answers(chosen, moved, _labels(labeller, seen, records), _labels(auxiliary, seen, records))


def _labels(labeller: Any, seen: Any, records: tuple[np.ndarray, ...] | None) -> np.ndarray:
    if labeller is None:
        return np.full(len(seen), np.nan, dtype=np.float32)
    if isinstance(labeller, Cheater):
        labeller.bind_records(*records)  # type: ignore[misc]
    return np.asarray(labeller.margins(seen), dtype=np.float32)


def _plan_answers(plan: Plan, seen: Any, records: tuple[np.ndarray, ...] | None) -> Answers:
    """``answers`` in a worker process, of ``plan``'s strategies (built once a process)."""
    return answers(_cached_deciders(plan), seen, records)


@functools.lru_cache(maxsize=1)
def _cached_deciders(plan: Plan) -> Deciders:
    return deciders_of(plan)


def held_out_finals(plan: Plan, teacher: Any, jobs: int, done: Callable[[int], Any]) -> np.ndarray:
    """(held_out_rounds, seats) the final rewards of the teacher in seat 0 of the held-out deals (the
    first ``held_out_rounds`` of seed ``seed + 1``) against the opponents, ``BLOCK_ROWS`` deals at a
    time (``done`` told how many as each block ends); with ``jobs`` > 1 the blocks go to worker
    processes, which seat ``plan``'s own teacher (so ``teacher`` must be ``deciders_of(plan)``'s)."""
    firsts = range(0, plan.held_out_rounds, BLOCK_ROWS)
    if jobs == 1:
        blocks: Iterable[np.ndarray] = (_held_out_block(plan, teacher, first) for first in firsts)
    else:
        from joblib import delayed

        blocks = in_order(jobs, (delayed(_plan_held_out_block)(plan, first) for first in firsts))
    finals = []
    for block in blocks:
        finals.append(block)
        done(len(block))
    return np.concatenate(finals)


def _plan_held_out_block(plan: Plan, first: int) -> np.ndarray:
    """``_held_out_block`` in a worker process, seating ``plan``'s teacher (built once a process)."""
    return _held_out_block(plan, _cached_deciders(plan).teacher, first)


def _held_out_block(plan: Plan, teacher: Any, first: int) -> np.ndarray:
    """The final rewards of the held-out deals from ``first`` on, ``BLOCK_ROWS`` of them at most."""
    game = games.load(plan.game)
    seats = [teacher] + [strategy_registry.get(plan.game, plan.opponents)] * (game.num_seats - 1)
    rounds = np.arange(first, min(first + BLOCK_ROWS, plan.held_out_rounds))
    points = game.play_rounds[default_engine(game)](game.deals(plan.seed + 1, first, len(rounds)), seats, rounds).points
    return round_rewards(points, game.lower_is_better, "points")
