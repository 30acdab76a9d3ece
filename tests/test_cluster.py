"""Tournaments on a real Dask cluster: `dask scheduler` and two `dask worker` processes started as a
user starts them, the same results as local workers, a worker killed mid-run survived; and the
allocator setting that made a chunk slow in Dask's workers undone."""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.cluster import dask_cluster
from sim import cli, cluster
from sim.workers import keep_temporaries_on_the_heap

CARDSIM = [sys.executable, "-m", "sim.cli"]
# Heuristic against first-legal, every deal in every seating: small chunks, so a run has many of them.
TOURNAMENT = [
    "tournament",
    "--game",
    "straights",
    "--players",
    "heuristic,first-legal,heuristic,first-legal",
    "--duplicate",
]
TOURNAMENT += ["--seed", "17", "--chunk-size", "2048", "--no-rounds", "--quiet"]
RESULTS = ("summary.csv", "paired.csv")


def tournament(out: Path, rounds: int, *options: str) -> subprocess.Popen[str]:
    command = [*CARDSIM, *TOURNAMENT, "--rounds", str(rounds), "--out", str(out), *options]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished(process: subprocess.Popen[str]) -> str:
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return out


def same_results(first: Path, second: Path) -> None:
    for name in RESULTS:
        assert (first / name).read_text() == (second / name).read_text(), name
    aggregates = [json.loads((folder / "aggregates.json").read_text()) for folder in (first, second)]
    assert aggregates[0] == aggregates[1]


def worker_children(nanny: subprocess.Popen[bytes]) -> list[int]:
    """The worker processes a `dask worker` (its nanny) runs."""
    children = Path(f"/proc/{nanny.pid}/task/{nanny.pid}/children").read_text().split()
    return [int(pid) for pid in children]


def test_a_real_cluster_plays_as_local_workers_do_and_survives_a_killed_worker(tmp_path: Path) -> None:
    rounds = 40_960  # 20 chunks
    local = tournament(tmp_path / "local", rounds, "--jobs", "2")
    finished(local)
    with dask_cluster(2) as (address, nannies):
        # No --jobs: a Dask run uses every worker of the cluster.
        finished(tournament(tmp_path / "dask", rounds, "--backend", "dask", "--scheduler", address))
        same_results(tmp_path / "local", tmp_path / "dask")

        survivor = tournament(tmp_path / "killed", rounds, "--backend", "dask", "--scheduler", address)
        chunks = tmp_path / "killed" / "chunks"
        deadline = time.monotonic() + 60
        while not (chunks.exists() and any(chunks.iterdir())) and time.monotonic() < deadline:
            time.sleep(0.05)
        victim = worker_children(nannies[0])
        assert victim and survivor.poll() is None, "the run ended before a worker could be killed"
        os.kill(victim[0], signal.SIGKILL)
        finished(survivor)
        same_results(tmp_path / "local", tmp_path / "killed")


def test_an_unreachable_scheduler_is_one_line(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(cluster, "SCHEDULER_TIMEOUT", "1s")
    arguments = [*TOURNAMENT, "--rounds", "64", "--out", str(tmp_path / "run")]
    assert cli.main([*arguments, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'" in said


@pytest.mark.parametrize("address", ["not-an-address", "x" * 3000])
def test_an_address_dask_cannot_read_is_one_line(tmp_path: Path, capsys, address: str) -> None:
    arguments = [*TOURNAMENT, "--rounds", "64", "--out", str(tmp_path / "run")]
    assert cli.main([*arguments, "--backend", "dask", "--scheduler", address]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "cannot reach the Dask scheduler" in said and len(said) < 300


class MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (malloc.h): ``hblks`` counts the blocks served by mmap."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks")
    ] + [("keepcost", ctypes.c_size_t)]


MMAP_BLOCKS_PROBE = """
import ctypes, sys
import numpy as np
from tests.test_cluster import MallInfo2
from sim.workers import keep_temporaries_on_the_heap
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = MallInfo2
if sys.argv[1] == "tuned":
    assert keep_temporaries_on_the_heap()
before = libc.mallinfo2().hblks
arrays = [np.ones(1 << 18) for _ in range(4)]  # 2 MiB each: what a fast engine's step makes
print(libc.mallinfo2().hblks - before)
"""


@pytest.mark.skipif(not hasattr(ctypes.CDLL(None), "mallinfo2"), reason="glibc's allocator only")
def test_chunks_keep_their_arrays_on_the_heap_where_dask_pinned_mmap() -> None:
    """Dask's nanny sets MALLOC_TRIM_THRESHOLD_, which pins glibc's mmap threshold at 128 KiB: every
    array of a step is a fresh mmap. keep_temporaries_on_the_heap puts them back on the heap."""
    environment = {**os.environ, "MALLOC_TRIM_THRESHOLD_": "65536"}
    root = str(Path(__file__).resolve().parents[1])

    def mmapped_blocks(mode: str) -> int:
        """How many of the four arrays glibc served by mmap."""
        command = [sys.executable, "-c", MMAP_BLOCKS_PROBE, mode]
        probe = subprocess.run(command, env=environment, cwd=root, capture_output=True, text=True, check=True)
        return int(probe.stdout)

    assert mmapped_blocks("pinned") == 4
    assert mmapped_blocks("tuned") == 0


def test_an_allocator_left_to_itself_is_not_touched(monkeypatch) -> None:
    for name in ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GLIBC_TUNABLES", "")
    assert keep_temporaries_on_the_heap() is False


class LostClient:
    """A Dask client whose scheduler is gone: Dask closes it and cancels the tasks it was waiting on."""

    status = "closed"

    def nthreads(self) -> dict[str, int]:
        return {"tcp://127.0.0.1:1": 1}

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    "command, runner",
    [
        (TOURNAMENT, "sim.tournament.run"),
        (["league", "--game", "straights", "--players", "heuristic,first-legal", "--quiet"], "sim.league.run"),
    ],
)
def test_a_scheduler_lost_mid_run_is_one_line_in_tournaments_and_leagues(
    tmp_path: Path, monkeypatch, capsys, command: list[str], runner: str
) -> None:
    """The same one line for both commands (tests/cluster/test_faults.py cuts a real scheduler)."""
    import asyncio

    def lose_the_scheduler(*_args, **_kwargs):
        raise asyncio.CancelledError()

    monkeypatch.setattr(cluster, "connect", lambda *_: LostClient())
    monkeypatch.setattr(runner, lose_the_scheduler)
    arguments = [*command, "--rounds", "64", "--out", str(tmp_path / "run")]
    assert cli.main([*arguments, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"]) == 1
    said = capsys.readouterr().err
    assert said.count("\n") == 1, said
    assert "lost the Dask scheduler at 'tcp://127.0.0.1:1' mid-run" in said and "run the same command again" in said
