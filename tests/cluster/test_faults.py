"""A cluster of four machines (benchmarks.machines) failing as real ones do, mid-run: a worker's link down
and back, the client's link down, the scheduler killed and restarted, a worker much slower. Each run
ends with the results of a local run of the same plan, byte for byte; a run that stops says so in one
line, and the same command resumes it without playing its finished chunks again.

The measured times of each fault are in docs/scaling.md ("When machines fail"); ``CARDSIM_FAULT_TIMES``
names a file the tests append them to, as JSON lines."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.machines import BIN, DASK_TIMEOUTS, ROOT, Machines
from tests.cluster.test_machines import host_links, nothing_left

pytestmark = pytest.mark.faults

# Heuristic against first-legal, every deal in every seating: 98 chunks of a few tenths of a second.
PLAN = ["--game", "straights", "--players", "heuristic,first-legal,heuristic,first-legal", "--duplicate"]
PLAN += ["--seed", "17", "--chunk-size", "4096", "--no-rounds", "--quiet", "--rounds", "400000"]
CHUNKS = 98
RESULTS = ("summary.csv", "paired.csv", "aggregates.json")
TCP_SECONDS = int(DASK_TIMEOUTS["DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP"].rstrip("s"))
RECONNECT_SECONDS = 10  # sim.cluster.SCHEDULER_TIMEOUT: how long the client tries to reach its scheduler again
STOP_SECONDS = TCP_SECONDS + RECONNECT_SECONDS + 15  # a lost scheduler is said within this (15 s: a busy host)
RUN_SECONDS = 300  # any run here, on a loaded 2-core machine
FORGOTTEN = r"Remove client Client-(?!worker)"  # the scheduler's log line when it drops the run's client


@pytest.fixture(scope="module")
def local(tmp_path_factory) -> Path:
    """The plan played by two local (loky) workers: what every cluster run must end with."""
    out = tmp_path_factory.mktemp("local") / "run"
    command = [str(BIN / "cardsim"), "tournament", *PLAN, "--jobs", "2", "--out", str(out)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True, timeout=RUN_SECONDS)
    return out


@pytest.fixture
def machines() -> Iterator[Machines]:
    """The cluster, started; after the test, nothing of it is left (whether the test passed or not)."""
    links = host_links()
    with Machines() as built:
        inodes = built.inodes()
        built.start_cluster()
        yield built
    nothing_left(built.owner, inodes, links)


def same_results(run: Path, local: Path) -> None:
    for name in RESULTS:
        assert (run / name).read_bytes() == (local / name).read_bytes(), name


def chunk_files(run: Path) -> dict[str, int]:
    """The run's stored chunks: file name → modification time (ns)."""
    folder = run / "chunks"
    return {path.name: path.stat().st_mtime_ns for path in folder.glob("*.json")} if folder.exists() else {}


def wait_for(condition, what: str, seconds: float) -> float:
    """Seconds until ``condition()`` held; fails after ``seconds``."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < seconds, f"no {what} within {seconds} s"
        time.sleep(0.05)
    return time.monotonic() - started


def finished(process: subprocess.Popen[str]) -> tuple[str, str]:
    out, err = process.communicate(timeout=RUN_SECONDS)
    assert process.returncode == 0, err
    return out, err


def measured(fault: str, **times: float | int) -> None:
    print(fault, times)
    if os.environ.get("CARDSIM_FAULT_TIMES"):
        with open(os.environ["CARDSIM_FAULT_TIMES"], "a") as file:
            file.write(json.dumps({"fault": fault, **times}) + "\n")


def stopped_in_one_line(process: subprocess.Popen[str], seconds: float) -> tuple[float, str]:
    """Seconds until the run stopped, and its one line; fails unless it stopped within ``seconds``
    (status 1) with one line on stderr saying that the chunks are kept and the same command resumes."""
    started = time.monotonic()
    try:
        out, err = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the run neither finished nor stopped within {seconds} s")
    assert process.returncode == 1, err
    assert err.count("\n") == 1, err
    assert "lost the Dask scheduler" in err and "run the same command again to resume" in err, err
    return time.monotonic() - started, err.strip()


def resumed_without_replaying(machines: Machines, run: Path, local: Path) -> dict[str, float | int]:
    """The same command again: it resumes, plays only the chunks not stored, ends with the local results."""
    kept = chunk_files(run)
    assert 0 < len(kept) < CHUNKS
    started = time.monotonic()
    out, err = finished(machines.tournament(*PLAN, "--out", str(run)))
    seconds = time.monotonic() - started
    assert f"resuming the run in {run}/: {len(kept)} of {CHUNKS} chunks were played before" in err
    now = chunk_files(run)
    assert len(now) == CHUNKS
    assert {name: now[name] for name in kept} == kept, "a finished chunk was played again"
    same_results(run, local)
    return {"kept": len(kept), "resumed_seconds": round(seconds, 1)}


def test_a_worker_machine_off_the_network_then_back(machines: Machines, local: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    started = time.monotonic()
    tournament = machines.tournament(*PLAN, "--out", str(run))
    wait_for(lambda: len(chunk_files(run)) >= 5, "chunk", 120)
    machines.unplug("worker1")
    cut = time.monotonic()
    removed = wait_for(lambda: machines.removed("worker1"), "worker removed", 60)
    assert tournament.poll() is None, "the run ended before the worker was removed"  # the rest: worker2's
    time.sleep(max(0.0, TCP_SECONDS + 2 - (time.monotonic() - cut)))  # down longer than Dask's timeouts
    down = time.monotonic() - cut
    machines.plug("worker1")
    rejoined = wait_for(lambda: machines.registered("worker1", times=2), "worker rejoining", 120)
    finished(tournament)
    same_results(run, local)
    assert len(chunk_files(run)) == CHUNKS
    measured(
        "worker link down",
        removed_after=round(removed, 1),
        down=round(down, 1),
        rejoined_after_plug=round(rejoined, 1),
        run_seconds=round(time.monotonic() - started, 1),
    )


def test_the_client_machine_off_the_network_briefly_carries_on(machines: Machines, local: Path, tmp_path: Path) -> None:
    """A cut shorter than Dask's timeouts is a pause: TCP delivers what waited, and the run finishes."""
    run = tmp_path / "run"
    started = time.monotonic()
    tournament = machines.tournament(*PLAN, "--out", str(run))
    wait_for(lambda: len(chunk_files(run)) >= 5, "chunk", 120)
    machines.unplug("client")
    time.sleep(TCP_SECONDS / 2)
    machines.plug("client")
    out, err = finished(tournament)
    assert err == ""
    same_results(run, local)
    measured("client link down briefly", down=TCP_SECONDS / 2, run_seconds=round(time.monotonic() - started, 1))


def test_the_client_machine_off_the_network_stops_in_one_line_and_resumes(
    machines: Machines, local: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    tournament = machines.tournament(*PLAN, "--out", str(run))
    wait_for(lambda: len(chunk_files(run)) >= 5, "chunk", 120)
    machines.unplug("client")
    cut = time.monotonic()
    try:
        # Down longer than Dask's timeouts: a shorter cut is only a pause, TCP carries the run on.
        forgot = wait_for(lambda: re.search(FORGOTTEN, machines.log("scheduler.log")), "client removed", 60)
        stopped_in_one_line(tournament, STOP_SECONDS)
    finally:
        machines.plug("client")
    stopped = time.monotonic() - cut
    times = resumed_without_replaying(machines, run, local)
    # Until the scheduler forgets the client, the workers play its chunks, whose results are lost.
    measured("client link down", scheduler_forgot_after=round(forgot, 1), stopped_after=round(stopped, 1), **times)


def test_the_scheduler_killed_and_restarted_stops_in_one_line_and_resumes(
    machines: Machines, local: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    tournament = machines.tournament(*PLAN, "--out", str(run))
    wait_for(lambda: len(chunk_files(run)) >= 5, "chunk", 120)
    machines.kill_scheduler()
    killed = time.monotonic()
    machines.start_scheduler()
    restarted = time.monotonic() - killed
    stopped, line = stopped_in_one_line(tournament, STOP_SECONDS)
    stopped += restarted
    # The workers' `dask worker` exit with their scheduler; their supervisor loop starts them again.
    rejoined = wait_for(lambda: machines.registered("worker1", 2) and machines.registered("worker2", 2), "rejoin", 120)
    times = resumed_without_replaying(machines, run, local)
    measured("scheduler restarted", restarted_after=round(restarted, 1), stopped_after=round(stopped, 1), **times)
    print(line, rejoined)


def test_a_much_slower_worker_machine_does_not_set_the_pace(machines: Machines, local: Path, tmp_path: Path) -> None:
    """Chunks go to workers as they free up: a machine at a tenth of a core plays a few chunks, the other
    the rest, and the run takes about as long as the fast machine alone would, not the slow one's half."""
    started = time.monotonic()
    finished(machines.tournament(*PLAN, "--out", str(tmp_path / "even")))  # also loads the workers' code
    even = time.monotonic() - started
    machines.slow_down("worker2", 0.1)
    started = time.monotonic()
    finished(machines.tournament(*PLAN, "--out", str(tmp_path / "uneven")))
    uneven = time.monotonic() - started
    same_results(tmp_path / "even", local)
    same_results(tmp_path / "uneven", local)
    # Paced by the slow machine (half the chunks each), the run would take about 10 / 2 = 5 times as
    # long as on two even machines (more with start-up); paced by the fast one, about twice as long.
    measured("one worker at a tenth of a core", even_seconds=round(even, 1), uneven_seconds=round(uneven, 1))
    assert machines.throttled("worker2") > 0, "the slow machine was never held back"
    assert uneven < 3.5 * even
