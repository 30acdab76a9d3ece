"""Compiled code comes from numba's disk cache: a fresh process (a loky or Dask worker, a second run)
loads every kernel and policy it plays rather than compiling it again."""

import json
import subprocess
import sys

# Plays every game's fast engine with its baseline and its heuristic in every seat, then prints how
# many of the project's compiled functions were loaded from the cache and how many were compiled.
PLAY_EVERY_GAME = """
import json, sys
import numpy as np
import strategies
from numba.core.registry import CPUDispatcher
from sim import games

for name in games.names():
    game = games.load(name)
    deals = game.deals(0, 0, 16)
    for spec in (game.baseline, "heuristic"):
        seats = [strategies.get(name, spec)] * game.num_seats
        game.play_rounds["fast"](deals, seats, np.arange(16))
hits = misses = 0
for module_name, module in list(sys.modules.items()):
    if module_name.startswith(("sim.", "strategies.")):
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value.__module__ == module_name:
                hits += sum(value.stats.cache_hits.values())
                misses += sum(value.stats.cache_misses.values())
print(json.dumps({"hits": hits, "misses": misses}))
"""


def compiled_functions_loaded() -> dict[str, int]:
    done = subprocess.run([sys.executable, "-c", PLAY_EVERY_GAME], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_a_fresh_process_loads_every_compiled_function_from_the_cache():
    compiled_functions_loaded()  # compiles what this checkout has not compiled yet, and caches it
    fresh = compiled_functions_loaded()
    assert fresh["misses"] == 0 and fresh["hits"] > 0, fresh
