"""What every interactive program shares: seed arguments and how a run ends."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO


def seed_argument(low: int, high: int) -> Callable[[str], int]:
    """An argparse type for whole-number seeds from ``low`` to ``high``, refusing anything else."""

    def parse(text: str) -> int:
        try:
            seed = int(text.strip(), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid seed {text!r}: expected a whole number") from None
        if not low <= seed <= high:
            raise argparse.ArgumentTypeError(f"invalid seed {text!r}: must be from {low} to {high}")
        return seed

    return parse


def run_program(body: Callable[[], None], stdout: TextIO, stops: tuple[type[BaseException], ...]) -> int:
    """Run an interactive program: ``stops`` (quit, end of input, a pause) end it with status 0.

    A reader that went away (``program | head``) stops it quietly with status 1, as other Unix
    tools do, instead of a traceback.
    """
    try:
        body()
    except stops:
        pass
    except BrokenPipeError:
        sys.stdout = None
        return 1
    stdout.flush()
    return 0
