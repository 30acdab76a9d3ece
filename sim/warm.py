"""Compile every game's fast path into numba's disk cache: ``python -m sim.warm``.

Plays a few rounds of each registered game on its fast engine with its baseline and its heuristic in
every seat, so the kernels and built-in policies they use are compiled (or loaded from the cache)
once. ``make test`` runs it before its workers start, so they load what it compiled instead of each
compiling it again. It prints how many of the project's compiled functions were loaded from the
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
    print(json.dumps(cache_counts()))


if __name__ == "__main__":
    main()
