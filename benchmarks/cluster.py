"""A real Dask cluster on this machine, started as its users start one, and what it costs.

``dask_cluster(workers)`` runs ``dask scheduler`` and ``workers`` plain ``dask worker`` processes (each
with its nanny, one thread, no special environment) and yields the scheduler's address; the
cluster test (tests/test_cluster.py) and ``python -m benchmarks.cluster`` use it.

``python -m benchmarks.cluster`` measures, for every game with a fast engine, one chunk's time in a
loky worker and in a Dask worker, without and with ``sim.workers.keep_temporaries_on_the_heap``; the
bytes a chunk's result takes; and the scheduler's cost per task (docs/scaling.md).
"""

from __future__ import annotations

import argparse
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sim import games
from sim.chunks import play_chunk
from sim.plans import Plan
from sim.workers import keep_temporaries_on_the_heap, local_workers

START_SECONDS = 60.0  # for the scheduler to write its file and the workers to join
DASK = Path(sys.executable).with_name("dask")


@contextmanager
def dask_cluster(workers: int = 2) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A scheduler and ``workers`` single-threaded workers on localhost; yields the scheduler's address
    and the ``dask worker`` processes (each a nanny whose child is the worker), and stops them all."""
    from dask.distributed import Client

    folder = tempfile.mkdtemp(prefix="cardsim-dask-")
    scheduler_file = os.path.join(folder, "scheduler.json")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    common = ["--no-dashboard"]
    scheduler = subprocess.Popen(
        [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0", "--scheduler-file", scheduler_file, *common],
        **quiet,
        start_new_session=True,
    )
    started: list[subprocess.Popen[bytes]] = []
    try:
        deadline = time.monotonic() + START_SECONDS
        while not os.path.exists(scheduler_file):
            if time.monotonic() > deadline or scheduler.poll() is not None:
                raise RuntimeError("dask scheduler did not start")
            time.sleep(0.05)
        worker = [str(DASK), "worker", "--scheduler-file", scheduler_file, "--nthreads", "1", *common]
        worker += ["--local-directory", folder]
        started = [subprocess.Popen(worker, **quiet, start_new_session=True) for _ in range(workers)]
        with Client(scheduler_file=scheduler_file, timeout="30s") as client:
            client.wait_for_workers(workers, timeout=START_SECONDS)
            address = client.scheduler.address
        yield address, started
    finally:
        for process in [*started, scheduler]:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in [*started, scheduler]:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def timed_chunk(plan: Plan, index: int, tuned: bool, repeats: int = 3) -> tuple[float, int]:
    """The best of ``repeats`` times to play chunk ``index`` (after tuning the allocator when ``tuned``),
    in seconds, and its result's bytes."""
    if tuned:
        keep_temporaries_on_the_heap()
    result = play_chunk(plan, index)  # the first chunk pays for imports and tables built once
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        play_chunk(plan, index)
        times.append(time.perf_counter() - started)
    return min(times), len(pickle.dumps(result))


def baseline_plan(game_name: str, chunk_size: int) -> Plan:
    """The game's baseline against itself, duplicate, no per-round rows: one chunk of ``chunk_size`` deals."""
    game = games.load(game_name)
    players = (game.baseline,) * game.num_seats
    return Plan(game_name, players, chunk_size, seed=1, duplicate=True, keep_rounds=False, chunk_size=chunk_size)


def noop(value: int) -> int:
    return value


# The measurement: heuristic against first-legal, every deal in every seating, aggregates only.
TOURNAMENT = ["tournament", "--game", "straights", "--players", "heuristic,first-legal,heuristic,first-legal"]
TOURNAMENT += ["--duplicate", "--no-rounds", "--quiet", "--seed", "2026"]


def tournament_seconds(deals: int, *options: str) -> float:
    """Wall seconds of ``cardsim tournament`` over ``deals`` deals (start-up included), in a fresh folder."""
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "sim.cli", *TOURNAMENT, "--rounds", str(deals), "--out", folder, *options]
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - started


def compare_tournaments(deals: int) -> None:
    """A tournament's deals a second on 1 and 2 local workers and on a cluster of 1 and 2 workers."""
    print(f"\n{deals:,} duplicate Straights deals (heuristic v first-legal), end to end:")
    for workers in (1, 2):
        local = tournament_seconds(deals, "--jobs", str(workers))
        with dask_cluster(workers) as (address, _):
            remote = tournament_seconds(deals, "--backend", "dask", "--scheduler", address)
        print(
            f"  {workers} worker(s): loky {local:6.1f} s ({deals / local:9,.0f} deals/s)   "
            f"dask {remote:6.1f} s ({deals / remote:9,.0f} deals/s)"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunk-size", type=int, default=32_768, help="deals a chunk (the fast engines' largest)")
    parser.add_argument("--tasks", type=int, default=2000, help="no-op tasks to time the scheduler with")
    parser.add_argument("--deals", type=int, default=200_000, help="deals of the end-to-end tournaments")
    args = parser.parse_args(argv)
    from dask.distributed import Client
    from joblib import Parallel, delayed

    fast_games = [name for name in games.names() if "fast" in games.load(name).play_rounds]
    with dask_cluster(1) as (address, _), Client(address) as client:
        print(f"{'game':<10} {'loky s':>8} {'dask s':>8} {'dask+tuned s':>13} {'result bytes':>13}")
        for name in fast_games:
            plan = baseline_plan(name, args.chunk_size)
            with local_workers(2):  # a loky worker process (one job alone would run in this process)
                loky = Parallel()([delayed(timed_chunk)(plan, 0, False)])[0][0]
            client.restart()  # a fresh worker process: the allocator as the nanny left it
            plain, size = client.submit(timed_chunk, plan, 0, False, pure=False).result()
            client.restart()
            tuned = client.submit(timed_chunk, plan, 0, True, pure=False).result()[0]
            print(f"{name:<10} {loky:>8.2f} {plain:>8.2f} {tuned:>13.2f} {size:>13,}")
        started = time.perf_counter()
        client.gather(client.map(noop, range(args.tasks), pure=False))
        per_task = (time.perf_counter() - started) / args.tasks
        print(f"scheduler: {args.tasks} no-op tasks, {per_task * 1e3:.2f} ms a task end to end")
    compare_tournaments(args.deals)


if __name__ == "__main__":
    main()
