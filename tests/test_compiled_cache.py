"""Compiled code comes from numba's disk cache: a fresh process (a loky or Dask worker, a second run)
loads every kernel and policy it plays rather than compiling it again."""

import json
import subprocess
import sys


def compiled_functions_loaded() -> dict[str, int]:
    """``python -m sim.warm`` in a fresh process: every game played, its cache hits and misses."""
    done = subprocess.run([sys.executable, "-m", "sim.warm"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_a_fresh_process_loads_every_compiled_function_from_the_cache():
    compiled_functions_loaded()  # compiles what this checkout has not compiled yet, and caches it
    fresh = compiled_functions_loaded()
    assert fresh["misses"] == 0 and fresh["hits"] > 0, fresh
