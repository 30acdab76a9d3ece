"""Compile every game's fast path into numba's disk cache: ``python -m sim.warm``.

Plays a few rounds of each registered game on its fast engine with its baseline and its heuristic in
every seat, and one round on the reference engine where ``search`` decides for one seat (its solvers
and inference are compiled too), so the kernels and built-in policies they use are compiled (or
loaded from the cache) once. ``make test`` runs it before its workers start, so they load what it
compiled instead of each compiling it again. It prints how many of the project's compiled functions were loaded from the
cache and how many had to be compiled.
"""

from __future__ import annotations

import json
import sys

import numpy as np
from numba.core.registry import CPUDispatcher

import strategies
from sim import games

ROUNDS = 16
PACKAGES = ("sim.", "strategies.")


def play_every_game() -> None:
    """A few rounds of every game on its fast engine, baseline and heuristic in every seat."""
    for name in games.names():
        game = games.load(name)
        deals = game.deals(0, 0, ROUNDS)
        for spec in dict.fromkeys((game.baseline, "heuristic")):
            game.play_rounds["fast"](deals, [strategies.get(name, spec)] * game.num_seats, np.arange(ROUNDS))


def search_one_round() -> None:
    """One round of every game that has a ``search`` strategy, on the reference engine, search in seat 0."""
    for name in games.names():
        if "search" not in {known.name for known in strategies.available(name)}:
            continue
        game = games.load(name)
        search, baseline = strategies.get(name, "search"), strategies.get(name, game.baseline)
        state = game.new_state(game.deals(0, 0, 1)[0], 0)
        while not state.is_over:
            player = search if state.current_player == 0 else baseline
            state.apply(int(player.choose(state.observe())[0]))


def cache_counts() -> dict[str, int]:
    """How many times this process loaded the project's compiled functions from the cache ("hits")
    and compiled them ("misses")."""
    counts = {"hits": 0, "misses": 0}
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith(PACKAGES):
            continue
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value.__module__ == module_name:
                counts["hits"] += sum(value.stats.cache_hits.values())
                counts["misses"] += sum(value.stats.cache_misses.values())
    return counts


def main() -> None:
    play_every_game()
    search_one_round()
    print(json.dumps(cache_counts()))


if __name__ == "__main__":
    main()
