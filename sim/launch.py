"""The programs' entry points (``cardsim`` and the four games'): Ctrl-C while a program is still
loading ends it with one line and status 130, as it does once the program runs, never a traceback.

A program handles Ctrl-C (``KeyboardInterrupt``) from the moment its ``main`` runs; before that,
Python imports what the program needs, a second or more on a busy machine, and an interrupt there
would print a traceback. This module imports nothing heavy: it quiets Ctrl-C, imports the program,
restores Ctrl-C and hands over.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
from typing import Any

INTERRUPTED_STATUS = 130  # 128 + SIGINT


def quiet_while_loading(program: str) -> None:
    """Until ``loaded``, Ctrl-C writes ``program: interrupted`` and exits with status 130."""

    def interrupted(signum: int, frame: Any) -> None:
        sys.stderr.write(f"{program}: interrupted\n")
        sys.stderr.flush()
        os._exit(INTERRUPTED_STATUS)  # mid-import: nothing of the program's to flush or keep

    if threading.current_thread() is threading.main_thread():  # only the main thread may set handlers
        signal.signal(signal.SIGINT, interrupted)


def loaded() -> None:
    """Ctrl-C raises ``KeyboardInterrupt`` again, which the program's ``main`` turns into its one line."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _run(program: str, module: str) -> int:
    quiet_while_loading(program)
    main = importlib.import_module(module).main
    loaded()
    return main()


def cardsim() -> int:
    return _run("cardsim", "sim.cli")


def straights() -> int:
    return _run("straights", "sim.straights.cli")


def euchre() -> int:
    return _run("euchre", "sim.euchre.cli")


def ginrummy() -> int:
    return _run("ginrummy", "sim.ginrummy.cli")


def gemstones() -> int:
    return _run("gemstones", "sim.gemstones.cli")
