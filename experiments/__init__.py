"""Experiments: the scripts that play the evidence the docs cite and write it there."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn

import strategies
from sim.console import bounded_float_argument, bounded_int_argument, run_program
from sim.dealing import MAX_SEED
from sim.files import UnwritableFolder
from sim.plans import PlanError
from sim.results import ResultsError

# The argparse types of the experiments' arguments: every number through the one bounded parser.
count_argument = bounded_int_argument(1, 10**12)  # deals, games, episodes
jobs_argument = bounded_int_argument(1, 64, "number of workers")
seed_argument = bounded_int_argument(0, MAX_SEED, "seed")
rate_argument = bounded_float_argument(1e-9, 1.0, "rate")

# What stops an experiment in one line: the project's own errors, each saying what is wrong.
FAILURES = {kind: "{error}" for kind in (PlanError, ResultsError, strategies.StrategyError, UnwritableFolder)}

RUNS_KEPT = "the tournament runs finished so far are kept under results/experiments/ and not played again"


def run_script(main: Callable[[], None], program: str, kept: str = "nothing is kept") -> NoReturn:
    """Run an experiment's ``main`` as every program of the project ends: Ctrl-C is one line saying
    what was ``kept`` (status 130), a closed output is quiet, ``FAILURES`` are one line (status 1)."""
    interrupted = f"interrupted; {kept}"
    sys.exit(run_program(main, sys.stdout, stops=(), program=program, interrupted=interrupted, failures=FAILURES))
