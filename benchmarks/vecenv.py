"""Learner steps a second of the batched environments (``sim.vecenv``) beside the PettingZoo ones they
batch (``sim.envs``), every game with batched tables: ``python -m benchmarks.vecenv`` (part of ``make
bench``).

The learner is uniform-random over its legal actions, written in numpy (one call a step for every
table), in seat 0; the game's compiled heuristic plays every other seat, as issue 47 measures it.
The batched rate is of ``--cores`` processes at once, each stepping ``--envs`` tables, summed; the
PettingZoo rate is of one process, one table, stepped the way its docs show.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from sim import envs, games
from sim.console import bounded_int_argument
from sim.vecenv import MAX_ENVS, VecEnv

SECONDS = 3.0  # each measurement's length, after a warm-up step
ENVS = 4096  # tables a process steps at once
OPPONENT = "heuristic"


def batched_rate(game: str, num_envs: int, seed: int, seconds: float = SECONDS) -> float:
    """Learner steps a second of one ``VecEnv`` of ``num_envs`` tables, the learner uniform-random."""
    seats = games.load(game).num_seats
    env = VecEnv(game, num_envs, opponents=[None] + [OPPONENT] * (seats - 1), seed=seed)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset()
    steps = 0
    began = time.perf_counter()
    while (took := time.perf_counter() - began) < seconds or not steps:
        mask = obs["action_mask"]
        obs, *_ = env.step(np.argmax(rng.random(mask.shape) * mask, axis=1))
        steps += num_envs
    return steps / took


def single_rate(game: str, seed: int, seconds: float = SECONDS) -> float:
    """Learner steps a second of ``sim.envs``' environment of ``game`` (the reference engine), the
    learner uniform-random."""
    seats = games.load(game).num_seats
    env = envs.env(game, opponents=[None] + [OPPONENT] * (seats - 1))
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    began = time.perf_counter()
    while (took := time.perf_counter() - began) < seconds or not steps:
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        env.reset()
    return steps / took


def benchmark(names: list[str], cores: int, num_envs: int) -> None:
    """Print each game's batched rate on ``cores`` processes beside sim.envs' on one."""
    print(f"{'game':<10} {'sim.vecenv (' + str(cores) + ' cores)':>24} {'sim.envs (1 core)':>18} {'ratio':>8}")
    with ProcessPoolExecutor(cores) as pool:
        for game in names:
            batched = sum(pool.map(batched_rate, [game] * cores, [num_envs] * cores, range(cores)))
            single = single_rate(game, 0)
            print(f"{game:<10} {batched:>24,.0f} {single:>18,.0f} {batched / single:>7,.0f}x")
    print(
        f"(learner steps a second; learner uniform-random in seat 0, {OPPONENT} elsewhere, {num_envs} tables a process)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    batched = [name for name in games.names() if games.load(name).tables is not None]
    parser.add_argument("--game", choices=batched, help="the game to measure (default: every game with batched tables)")
    parser.add_argument(
        "--cores", type=bounded_int_argument(1, 64), default=2, metavar="N", help="processes (default 2)"
    )
    tables = bounded_int_argument(1, MAX_ENVS)
    parser.add_argument("--envs", type=tables, default=ENVS, metavar="N", help=f"tables a process (default {ENVS})")
    options = parser.parse_args()
    benchmark([options.game] if options.game else batched, options.cores, options.envs)


if __name__ == "__main__":
    main()
