"""Experiments: the scripts that play the evidence the docs cite and write it there."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn

from sim.console import run_program

RUNS_KEPT = "the tournament runs finished so far are kept under results/experiments/ and not played again"


def run_script(main: Callable[[], None], program: str, kept: str = "nothing is kept") -> NoReturn:
    """Run an experiment's ``main`` as every program of the project ends: Ctrl-C is one line saying
    what was ``kept`` (status 130), a closed output is quiet."""
    sys.exit(run_program(main, sys.stdout, stops=(), program=program, interrupted=f"interrupted; {kept}"))
