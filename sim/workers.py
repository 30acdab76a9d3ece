"""Worker processes: how many a run may have, that none outlives the command that started it, and
that a chunk runs as fast in a cluster's worker as in one of ours."""

from __future__ import annotations

import ctypes
import os
import signal
import threading
import time
import warnings
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

PARENT_CHECK_SECONDS = 1.0
# glibc's mallopt parameters (malloc.h) and the largest mmap threshold it takes on 64-bit machines.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
HEAP_ALLOCATION_LIMIT = 32 << 20
# Setting any of these (what glibc's mallopt calls them, as environment variables) pins the others.
PINNING_VARIABLES = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_")
# loky's warning when a worker exits cleanly (idle for its timeout, 300 s) just as new work arrives:
# it starts another worker, and nothing is lost. A crashed worker is an error, never this warning.
WORKER_REPLACED = r"A worker stopped while some jobs were given to the executor"


def usable_cores() -> int:
    """The cores this process may use: its CPU affinity and any container CPU quota (joblib's count)."""
    from joblib import cpu_count  # here: joblib loads with a command that counts or starts workers

    return max(1, cpu_count())


def worker_count(requested: int, available: int) -> tuple[int, str | None]:
    """The workers to start for ``requested`` (-1: one per available core) and, when the request had
    to be lowered to ``available``, a one-line note saying so."""
    if requested == -1:
        return available, None
    if requested > available:
        return available, f"--jobs {requested} is more than the {available} cores here: using {available} workers"
    return requested, None


def local_workers(jobs: int) -> AbstractContextManager[Any]:
    """joblib's configuration, as a context, for ``jobs`` worker processes on this machine.

    The workers (loky) ignore Ctrl-C and exit as soon as the process that started them is gone. A
    terminal sends Ctrl-C to the whole process group; the parent alone answers it (joblib stops the
    workers, the command says what was kept), where a worker caught between two tasks would print a
    traceback of its own.

    It also silences, for the whole process, loky's warning that it replaced a worker which stopped
    cleanly: a run started about five minutes after the last (a notebook, a test suite) can meet a
    worker leaving at its idle timeout, and loky warns from its own thread, outside any context.
    """
    from joblib import parallel_config

    warnings.filterwarnings("ignore", message=WORKER_REPLACED, category=UserWarning)
    return parallel_config(backend="loky", n_jobs=jobs, initializer=_start_local_worker)


def in_order(jobs: int, calls: Iterable[Any]) -> Iterator[Any]:
    """The results of joblib ``delayed`` ``calls`` in their order, computed by ``jobs`` local workers a
    few calls ahead. A caller that stops early (a verdict, a divergence) drops what the workers
    computed past it, on purpose, so joblib's warning about it is not shown."""
    from joblib import Parallel

    with local_workers(jobs):
        parallel = Parallel(return_as="generator")
    with stopping_early_quietly():
        yield from parallel(calls)


@contextmanager
def stopping_early_quietly() -> Iterator[None]:
    """A context in which leaving a joblib result generator before its end (Ctrl-C, a verdict, a
    divergence) drops the work under way without joblib's warnings about it: the caller says in its
    own words what was kept."""
    with warnings.catch_warnings():
        for message in (r".*tasks which were still being processed", r".*executed\s+but not used"):
            warnings.filterwarnings("ignore", message=message, category=UserWarning)
        yield


def _start_local_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent()


def _exit_with_parent() -> None:
    """In a worker process: exit as soon as the process that started it is gone.

    joblib's loky workers otherwise wait for work for ever when their parent is killed (SIGKILL, a
    CI time-out, the OOM killer), holding their memory. A daemon thread notices the parent's end
    (the worker is handed to another parent) within a second.
    """
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)  # no clean-up to do: the results this worker held are gone with its parent

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def keep_temporaries_on_the_heap() -> bool:
    """Where glibc's malloc thresholds were pinned from the environment, let it serve allocations of
    up to 32 MiB from the heap and keep 64 MiB of freed heap, in this process; True where that was
    done, False where nothing was pinned (or the allocator is not glibc's) and nothing changed.

    A fast engine makes many short-lived arrays of a few hundred KiB to a few MiB per step. glibc
    normally raises its mmap threshold to fit them, so they are recycled heap memory; but setting any
    threshold switches that off, and Dask's nanny starts its workers with
    ``MALLOC_TRIM_THRESHOLD_=65536``, which leaves the mmap threshold at 128 KiB: every such array is
    then a fresh mmap whose pages the kernel must zero, and a chunk ran up to 3 times slower than in a
    local worker (docs/scaling.md). Chunk tasks call this before they play, on any backend; a process
    whose allocator adapts on its own (a local worker) is left as it is.
    """
    tunables = os.environ.get("GLIBC_TUNABLES", "")
    if not any(name in os.environ for name in PINNING_VARIABLES) and "glibc.malloc." not in tunables:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (macOS, musl's stub aside): nothing was pinned
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, HEAP_ALLOCATION_LIMIT)) and bool(
        mallopt(M_TRIM_THRESHOLD, 2 * HEAP_ALLOCATION_LIMIT)
    )
