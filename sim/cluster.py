"""A command's workers on a Dask cluster (``--backend dask``): connecting to its scheduler, how many
worker threads it offers, and a scheduler lost mid-run said in one line.

Dask is imported only here and only when a command asks for a cluster: it is an optional extra
(``cardsim[cluster]``), and local runs never pay for its import.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import strategies
from sim.numbers import clipped, shown

SCHEDULER_TIMEOUT = "10s"  # to reach a Dask scheduler before saying it cannot be reached


class SchedulerError(Exception):
    """No scheduler to run on: none named, Dask not installed, or the address not reached (one line,
    exit status 2)."""


class ClusterLost(Exception):
    """The Dask scheduler was lost mid-run (a cut link, a restarted scheduler): one line saying what
    was kept, exit status 1."""


@contextmanager
def workers(backend: str, scheduler: str | None, imports: Sequence[str], kept: Callable[[], str]) -> Iterator[Any]:
    """A Dask client connected to ``scheduler`` for the ``dask`` backend (None for local workers),
    with the strategy modules of ``imports`` sent to its workers, closed on leaving. Losing the
    scheduler inside ends the command in one line (``ClusterLost``) saying what is ``kept()`` for
    the same command to resume."""
    client = connect(scheduler, imports) if backend == "dask" else None
    try:
        yield client
    except BaseException as error:
        if client is not None and lost_scheduler(client, error):
            raise ClusterLost(
                f"lost the Dask scheduler at {shown(str(scheduler))} mid-run; {kept()}: "
                "run the same command again to resume"
            ) from None
        raise
    finally:
        if client is not None:
            client.close()


def connect(scheduler: str | None, imports: Sequence[str]):
    """A Dask client for ``scheduler``, with the single-file modules of ``imports`` (``--import``) sent
    to every worker (a package must be installed on the workers, as cardsim is)."""
    client = dask_client(scheduler)
    for source in imports:
        module = sys.modules[strategies.import_strategies(source)]
        path = getattr(module, "__file__", None)
        if path and Path(path).name != "__init__.py":
            client.upload_file(path)
    return client


def cores(client) -> int:
    """The worker threads of the Dask cluster ``client`` is connected to (at least 1)."""
    return max(1, sum(client.nthreads().values()))


def lost_scheduler(client, error: BaseException) -> bool:
    """Whether ``error``, raised mid-run, means the Dask client lost its scheduler: Dask then cancels
    every task the client had (an asyncio CancelledError, even when it reconnects: a scheduler that
    lost a client forgets its tasks), or the client has closed."""
    import asyncio  # here: only a Dask run asks, and cardsim starts without asyncio

    return isinstance(error, asyncio.CancelledError) or (isinstance(error, Exception) and client.status != "running")


def dask_client(scheduler: str | None):
    """A Dask client connected to the scheduler at ``scheduler``, for joblib's dask backend."""
    if not scheduler:
        raise SchedulerError("--backend dask needs --scheduler ADDRESS (e.g. tcp://10.0.0.5:8786)")
    try:
        from dask.distributed import Client
    except ImportError:
        raise SchedulerError("--backend dask needs dask[distributed]: pip install 'cardsim[cluster]'") from None
    try:
        client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:  # ValueError: an address Dask cannot read
        raise SchedulerError(f"cannot reach the Dask scheduler at {shown(scheduler)}: {clipped(str(error))}") from None
    # Losing the scheduler mid-run is said in one line (ClusterLost), not in the client's log as well,
    # nor as the traceback of a result it was fetching (logged by tornado, whose loop runs the client).
    for logger in ("distributed.client", "tornado.application"):
        logging.getLogger(logger).setLevel(logging.CRITICAL)
    return client
