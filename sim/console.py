"""What every command-line program shares: bounded number arguments, bounded input lines and how a
run ends.

A run ends in one of a few ways, the same in every program: normally (status 0), by a way out the
program defines (quit, end of input, a pause: status 0), by a failure the program explains in one
line on stderr (status 1), by Ctrl-C (one line, status 130, as a shell reports SIGINT), or because
the reader of its output went away (``program | head``: quietly, status 1). Never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import TextIO, TypeVar

from tqdm import tqdm

from sim.api import StrategyFault
from sim.launch import INTERRUPTED_STATUS
from sim.numbers import NumberError, parse_float, parse_int

T = TypeVar("T")

FAILED_STATUS = 1
TICK_SECONDS = 1.0  # how often a progress bar is redrawn while nothing finishes
SCALED_COUNTS_FROM = 1_000_000  # below this a bar shows exact counts ("72/200"), above it "1.20M/10.0M"
# Far longer than any answer a program asks for (its own parser refuses a 5,000-digit number in one
# line), short enough that reading one line cannot exhaust memory.
MAX_LINE_CHARACTERS = 1 << 16


def bounded_int_argument(low: int | None, high: int | None, what: str = "number") -> Callable[[str], int]:
    """An argparse type for whole numbers from ``low`` to ``high`` (None: unbounded on that side)."""
    return _argument(lambda text: parse_int(text, low, high), what)


def bounded_float_argument(low: float | None, high: float | None, what: str = "number") -> Callable[[str], float]:
    """An argparse type for finite numbers from ``low`` to ``high`` (None: unbounded on that side)."""
    return _argument(lambda text: parse_float(text, low, high), what)


def _argument(parse: Callable[[str], T], what: str) -> Callable[[str], T]:
    """``parse`` as an argparse type: its ``NumberError`` becomes argparse's one-line usage error."""

    def argument(text: str) -> T:
        try:
            return parse(text)
        except NumberError as error:
            raise argparse.ArgumentTypeError(f"invalid {what}: {error}") from None

    return argument


def seed_argument(low: int, high: int) -> Callable[[str], int]:
    """An argparse type for whole-number seeds from ``low`` to ``high``, refusing anything else."""
    return bounded_int_argument(low, high, "seed")


def say_error(program: str, message: str) -> None:
    """``program: message`` on stderr, on a line of its own even after a prompt on a terminal."""
    lead = "\n" if sys.stderr.isatty() else ""
    print(f"{lead}{program}: {message}", file=sys.stderr, flush=True)


def output_gone() -> int:
    """The reader of standard output went away: silence the rest of the run and report failure.

    Pointing the descriptor at /dev/null keeps the interpreter's final flush from raising again.
    """
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        sys.stdout = None  # a stream without a descriptor (tests): nothing left to flush
    return FAILED_STATUS


class EndOfInput(Exception):
    """Standard input ran out while a program waited for a person; each program says how that ends it."""


class LineTooLong(Exception):
    """A line of input longer than ``MAX_LINE_CHARACTERS``: no answer is that long, so ``run_program``
    ends the program with one line rather than read on."""


def input_lines(stream: TextIO) -> Iterator[str]:
    """The lines of ``stream`` as typed, each with at most ``MAX_LINE_CHARACTERS`` + 1 characters in
    memory (a line without end cannot fill it); ``LineTooLong`` for a longer line."""
    while line := stream.readline(MAX_LINE_CHARACTERS + 1):
        if len(line) > MAX_LINE_CHARACTERS and not line.endswith("\n"):
            raise LineTooLong(f"an input line is longer than {MAX_LINE_CHARACTERS:,} characters: no answer is so long")
        yield line


def next_input(lines: Iterator[str], out: TextIO) -> str:
    """The next input from ``lines``, once the prompt written to ``out`` is flushed; ``EndOfInput`` at the end."""
    out.flush()
    try:
        return next(lines)
    except StopIteration:
        raise EndOfInput from None


def run_program(
    body: Callable[[], None],
    stdout: TextIO,
    stops: tuple[type[BaseException], ...],
    program: str,
    interrupted: str = "interrupted",
    failures: Mapping[type[BaseException], str] | None = None,
) -> int:
    """Run an interactive program and turn the way it ends into an exit status.

    ``stops`` (quit, end of input, a pause) end it with status 0; an exception in ``failures`` ends
    it with that one-line message (``{error}`` in it: the exception's own words) and status 1, as
    does an input line too long to be an answer (``input_lines``); Ctrl-C prints ``interrupted``
    (say there whether the game can be kept) and gives status 130; a reader that went away stops it
    quietly.
    """
    failures = {LineTooLong: "{error}", StrategyFault: "{error}", **(failures or {})}
    try:
        body()
        stdout.flush()
    except stops:
        stdout.flush()
    except tuple(failures) as error:
        stdout.flush()
        message = next(message for kind, message in failures.items() if isinstance(error, kind))
        say_error(program, message.format(error=error))
        return FAILED_STATUS
    except KeyboardInterrupt:
        _flush_quietly(stdout)
        say_error(program, interrupted)
        return INTERRUPTED_STATUS
    except BrokenPipeError:
        return output_gone()
    return 0


def _flush_quietly(stream: TextIO) -> None:
    try:
        stream.flush()
    except (OSError, ValueError):
        pass  # the interrupted output may be gone too; the one line on stderr is what matters


class TickingBar(tqdm):
    """A tqdm bar that, on a terminal, is redrawn every ``TICK_SECONDS`` even while no unit finishes,
    so its elapsed time keeps counting: a chunk of a slow strategy's games can take minutes, and a bar
    frozen at zero for that long looks like a hung program. (Written to a file, it is drawn as tqdm
    draws it: a log gains no line a second.)"""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._stopped = threading.Event()
        self._ticker: threading.Thread | None = None
        if not self.disable and getattr(self.fp, "isatty", lambda: False)():
            self._ticker = threading.Thread(target=self._tick, name="progress-bar", daemon=True)
            self._ticker.start()

    def _tick(self) -> None:
        while not self._stopped.wait(TICK_SECONDS):
            self.refresh()

    def update(self, n: float | None = 1) -> bool | None:
        """Count ``n`` more units. The last ones are counted without drawing the bar: closing draws the
        finished bar, once (drawn here too, it showed twice wherever its line is not overwritten).
        Whatever ``waiting`` said goes once the first unit is done."""
        if getattr(self, "postfix", None) and n:
            self.set_postfix_str("", refresh=False)
        if self.total is not None and n and self.n + n >= self.total:
            self.n += n
            return None
        return super().update(n)

    def close(self) -> None:
        ticker = getattr(self, "_ticker", None)  # tqdm may close a bar whose __init__ did not finish
        if ticker is not None:
            self._stopped.set()
            ticker.join()
            self._ticker = None
        super().close()


def progress_bar(
    total: int | None, unit: str, description: str, enabled: bool, initial: int = 0, waiting: str = ""
) -> tqdm:
    """A progress bar on stderr that counts whole ``unit``s (no total: a count and a rate, no ETA).

    It is drawn at once, before the first unit is done, so a long run never starts in silence, and
    redrawn every second, so its elapsed time keeps counting while a slow unit is under way; until the
    first unit is done it says ``waiting`` (what the wait is for), beside the count.
    """
    bar = TickingBar(
        total=total,
        initial=initial,
        unit=unit,
        desc=description,
        disable=not enabled,
        dynamic_ncols=True,
        unit_scale=(total or 0) >= SCALED_COUNTS_FROM,
        mininterval=0.5,
        postfix=waiting or None,
    )
    return bar
