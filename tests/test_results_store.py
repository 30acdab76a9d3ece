"""The results store never mixes or keeps damaged chunks (#37, item 6).

Every file read from a run folder is a regular file under a size bound, checked against what the
plan says it must hold; a chunk that is not is "damaged": ``report``, ``runs`` and ``replay`` say so
in one line naming the file, and resuming the run moves it into ``damaged/`` and plays it again,
to the very results of a run never damaged. Hand-edited configurations are checked field by field.

The command-line runs here have a memory limit and a time limit: a cardsim that read a 20 GB file
or /dev/zero whole, or waited on a pipe with no writer, fails the test instead of the machine.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from sim import chunks, tournament
from sim.cli import main
from sim.replay import replay_text
from sim.results import RunStore

ROOT = Path(__file__).parents[1]
LINEUP = ("heuristic", "first-legal", "heuristic", "first-legal")
PLAN = tournament.Plan("straights", LINEUP, rounds=300, seed=3, duplicate=True, chunk_size=100)
RUN_ARGS = [
    "tournament",
    "--game",
    "straights",
    "--players",
    ",".join(LINEUP),
    "--rounds",
    "300",
    "--seed",
    "3",
    "--duplicate",
    "--chunk-size",
    "100",
    "--quiet",
]
MEMORY = 4 << 30  # bytes of address space a cardsim command here may take
SECONDS = 120


def cardsim(*args: str, seconds: float = SECONDS) -> subprocess.CompletedProcess:
    """``cardsim ARGS`` in a process of its own, under the memory and time limits."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=seconds,
        preexec_fn=limited,
    )


def one_line(stderr: str) -> str:
    assert "Traceback" not in stderr and stderr.count("\n") == 1, stderr
    return stderr


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A finished run no one has touched."""
    path = tmp_path_factory.mktemp("pristine") / "run"
    tournament.run(PLAN, RunStore(path), progress=False)
    return path


@pytest.fixture
def run_dir(pristine, tmp_path) -> Path:
    """A copy of the pristine run, in a results folder of its own, to damage."""
    copy = tmp_path / "results" / "run"
    shutil.copytree(pristine, copy)
    return copy


def assert_resumes_to_the_pristine_results(run_dir: Path, pristine: Path) -> None:
    tournament.run(PLAN, RunStore(run_dir), progress=False)
    for name in ("summary.csv", "paired.csv", "aggregates.json"):
        assert (run_dir / name).read_bytes() == (pristine / name).read_bytes()
    for index in range(PLAN.num_chunks):
        path = RunStore(run_dir).chunk_path(index, ".parquet")
        assert path.read_bytes() == RunStore(pristine).chunk_path(index, ".parquet").read_bytes()
    assert chunks.check_chunks(PLAN, RunStore(run_dir)).damaged == []


def listed_status(results: Path, run: str = "run") -> str:
    listing = cardsim("runs", str(results))
    assert listing.returncode == 0 and "Traceback" not in listing.stderr, listing.stderr
    lines = {line.split()[0]: line for line in listing.stdout.splitlines()[1:]}
    return lines[run]


def test_an_emptied_chunk_is_reported_damaged_and_played_again_on_resume(run_dir, pristine):
    # `echo '{}' > chunks/000001.json` once made report say "done" over the tables of two chunks in three.
    aggregates = RunStore(run_dir).chunk_path(1, ".json")
    aggregates.write_text("{}\n")
    shown = cardsim("report", str(run_dir))
    assert shown.returncode == 2
    assert f"chunk 1 is damaged: {aggregates}: the aggregates should hold strategies" in one_line(shown.stderr)
    assert listed_status(run_dir.parent).rstrip().endswith("damaged: chunks/000001.json")

    resumed = cardsim(*RUN_ARGS, "--out", str(run_dir))
    assert resumed.returncode == 0, resumed.stderr
    damage_lines = [line for line in resumed.stderr.splitlines() if "damaged" in line]
    assert damage_lines == [
        f"cardsim: chunk 1 is damaged: {aggregates}: the aggregates should hold strategies, pairs, timing; "
        f"moved into {run_dir / 'damaged'}/ and played again"
    ]
    assert (run_dir / "damaged" / "000001.json").read_text() == "{}\n"
    assert (run_dir / "damaged" / "000001.parquet").is_file()  # its rows went with it
    assert_resumes_to_the_pristine_results(run_dir, pristine)


def _set(path: list[str], value: Any) -> Callable[[dict], None]:
    """A change to a chunk's aggregates: the value at ``path`` set to ``value``."""

    def change(aggregates: dict) -> None:
        entry = aggregates
        for key in path[:-1]:
            entry = entry[key]
        entry[path[-1]] = value

    return change


def _double(aggregates: dict) -> None:
    """Twice the counts of one strategy, consistent among themselves but not with the chunk's size."""
    entry = aggregates["strategies"]["heuristic"]
    entry.update(n=entry["n"] * 2, best=entry["best"] * 2, histogram=[count * 2 for count in entry["histogram"]])


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (_set(["strategies", "heuristic", "n"], -1), "heuristic, n is -1, not a count"),
        (_set(["strategies", "heuristic", "sum"], float("nan")), "NaN is not a number a results file holds"),
        (_set(["strategies", "heuristic", "best"], 3.0), "heuristic's best is 3.0, not a count"),
        (_set(["pairs", "heuristic\tfirst-legal", "draws"], True), "draws is true, not a count"),
        (_set(["timing", "heuristic", "seconds"], -1.0), "heuristic's seconds are negative"),
        (_set(["timing", "heuristic", "sampled"], 1), "heuristic's sampled decisions are more than its decisions"),
        (_double, "heuristic counts 1,600 results, but the chunk's size makes 800"),
        (_set(["strategies", "heuristic", "histogram"], [0, 1]), "heuristic's histogram counts 1 results"),
        (_set(["strategies", "someone"], {}), "the strategies should hold heuristic, first-legal"),
        (_set(["strategies", "heuristic", "n"], 10**30), "is too large for any field"),
    ],
)
def test_counts_that_are_not_the_chunks_make_it_damaged(run_dir, pristine, change, reason):
    aggregates = RunStore(run_dir).chunk_path(1, ".json")
    stored = json.loads(aggregates.read_text())
    change(stored)
    aggregates.write_text(json.dumps(stored))
    shown = cardsim("report", str(run_dir))
    assert shown.returncode == 2 and reason in one_line(shown.stderr)
    assert f"chunk 1 is damaged: {aggregates}" in shown.stderr
    assert_resumes_to_the_pristine_results(run_dir, pristine)


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _add_a_point(path: Path) -> None:
    rows = pd.read_parquet(path)
    rows.loc[0, "points"] += 1
    rows.to_parquet(path, index=False)


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (_truncate, "is unreadable"),
        (Path.unlink, "is unreadable: No such file or directory"),
        (_add_a_point, "its rows do not add up to the chunk's aggregates"),
        (lambda path: path.write_bytes(pd.DataFrame({"deal": [1]}).to_parquet()), "it holds 1 rows, not the chunk's"),
    ],
)
def test_rows_truncated_deleted_or_changed_are_a_damaged_chunk_played_again(run_dir, pristine, damage, reason):
    rows = RunStore(run_dir).chunk_path(1, ".parquet")
    damage(rows)
    shown = cardsim("report", str(run_dir))
    assert shown.returncode == 2 and reason in one_line(shown.stderr) and f"chunk 1 is damaged: {rows}" in shown.stderr
    last = replay_text(run_dir, 150).splitlines()[-1]
    assert last.startswith(f"chunk 1 is damaged: {rows}") and "no stored row to compare with" in last
    assert_resumes_to_the_pristine_results(run_dir, pristine)


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def _sparse(path: Path) -> None:
    os.truncate(path, 20 << 30)  # 20 GB that take no disk


@pytest.mark.parametrize("make", [_fifo, _dev_zero, _sparse], ids=["fifo", "dev-zero", "sparse-20GB"])
@pytest.mark.parametrize("suffix", [".json", ".parquet"])
def test_pipes_devices_and_huge_files_in_chunks_neither_hang_nor_fill_memory(run_dir, pristine, make, suffix):
    culprit = RunStore(run_dir).chunk_path(2, suffix)
    make(culprit)
    shown = cardsim("report", str(run_dir))
    assert shown.returncode == 2 and f"chunk 2 is damaged: {culprit}" in one_line(shown.stderr)
    assert listed_status(run_dir.parent).rstrip().endswith(f"damaged: chunks/{culprit.name}")
    assert_resumes_to_the_pristine_results(run_dir, pristine)
    assert (run_dir / "damaged" / culprit.name).is_symlink() == (make is _dev_zero)


def test_files_not_named_as_chunks_are_not_chunks(run_dir, capsys):
    for junk in ("²³.json", "23.json", "0000002.json", "+00002.json", "000002.json.tmp"):
        (run_dir / "chunks" / junk).write_text("{}")
    assert RunStore(run_dir).finished_chunks() == {0, 1, 2}
    assert main(["runs", str(run_dir.parent)]) == 0
    assert capsys.readouterr().out.splitlines()[1].rstrip().endswith("done")
    assert main(["report", str(run_dir)]) == 0


BAD_PLANS = {
    "rounds-infinite": ('"rounds": 1e400', "rounds must be a whole number"),
    "rounds-text": ('"rounds": "2000"', 'rounds must be a whole number from 1 to 1,000,000,000,000,000, not "2000"'),
    "extra-key": ('"rounds": 300, "turbo": true', "unknown settings turbo"),
    "seat-plan": ('"rounds": 300, "seat_plan": [[0, 1, 2, 9]]', "every seating must seat 4 of the 4 players"),
    "seat-plan-type": ('"rounds": 300, "seat_plan": "0123"', "seat_plan must be a list of seatings"),
    "too-much-work": (
        '"rounds": 1000000000000000, "chunk_size": 1',
        "make 1,000,000,000,000,000 chunks, more than a run holds (1,000,000)",
    ),
}


def _edit_plan(run_dir: Path, fields: str) -> None:
    """Set config.json's plan ``fields`` (JSON text) as a person would, by editing its text."""
    config = json.loads((run_dir / "config.json").read_text())
    edited = json.loads("{" + fields + "}")
    config["plan"] = {**{key: value for key, value in config["plan"].items() if key not in edited}, "rounds": 300}
    (run_dir / "config.json").write_text(json.dumps(config).replace('"rounds": 300', fields))


@pytest.mark.parametrize("case", BAD_PLANS)
def test_a_hand_edited_config_is_one_line_for_report_and_replay(run_dir, case):
    fields, message = BAD_PLANS[case]
    _edit_plan(run_dir, fields)
    shown = cardsim("report", str(run_dir))
    assert shown.returncode == 2 and message in one_line(shown.stderr)
    replayed = cardsim("replay", str(run_dir), "--deal", "0")
    assert replayed.returncode == 2 and message in one_line(replayed.stderr)


def test_runs_lists_damaged_folders_and_goes_on(pristine, tmp_path):
    results = tmp_path / "results"
    shutil.copytree(pristine, results / "good")
    for case, (fields, _) in BAD_PLANS.items():
        shutil.copytree(pristine, results / case)
        _edit_plan(results / case, fields)
    shutil.copytree(pristine, results / "fifo")
    _fifo(results / "fifo" / "config.json")
    (results / "league").mkdir()
    (results / "league" / "league.json").write_text(
        '{"league": {"game": "straights", "players": ["heuristic", "random"], "rounds": 1e400}}'
    )
    listing = cardsim("runs", str(results))
    assert listing.returncode == 0 and listing.stderr == ""
    lines = {line.split()[0]: line.rstrip() for line in listing.stdout.splitlines()[1:]}
    assert lines.pop("good").endswith("done")
    assert lines.pop("league").endswith("damaged: league.json")
    assert set(lines) == {*BAD_PLANS, "fifo"}
    assert all(line.endswith("damaged: config.json") for line in lines.values())


EXPERIMENT = {"game": '"straights"', "players": '"first-legal,first-legal,first-legal,first-legal"', "rounds": "10"}


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"seed": "-1"}, "seed must be a whole number from 0 to"),
        ({"backend": '"ray"'}, "backend must be 'loky' or 'dask', not \"ray\""),
        ({"rounds": "[" * 3000 + "]" * 3000}, "its values nest too deeply"),
        ({"rounds": "1" + "0" * 5000}, "is not valid TOML"),
        ({"rounds": "1e400"}, "rounds must be a whole number"),
        ({"rounds": "true"}, "rounds must be a whole number"),
        ({"players": '[["heuristic"]]'}, "players must be a list of strategy specs"),
        ({"rounds": "1000000000000000", "chunk_size": "1"}, "more than a run holds"),
    ],
    ids=["seed", "backend", "nesting", "long-integer", "infinite", "flag", "nested-players", "too-much-work"],
)
def test_bad_experiment_settings_are_one_line(tmp_path, settings, message):
    config = tmp_path / "bad.toml"
    config.write_text("".join(f"{key} = {value}\n" for key, value in {**EXPERIMENT, **settings}.items()))
    done = cardsim("tournament", "--config", str(config), "--out", str(tmp_path / "run"), "--quiet", seconds=60)
    assert done.returncode == 2 and message in one_line(done.stderr)
    assert not (tmp_path / "run" / "chunks").exists()


def test_too_much_work_on_the_command_line_is_refused_before_it_starts(tmp_path):
    done = cardsim(
        "tournament",
        "--game",
        "straights",
        "--players",
        "first-legal," * 3 + "first-legal",
        "--rounds",
        "1000000000000000",
        "--chunk-size",
        "1",
        "--out",
        str(tmp_path / "run"),
        seconds=60,
    )
    assert done.returncode == 2
    assert one_line(done.stderr).endswith("choose a chunk size of at least 1,000,000,000\n")


def test_reading_rows_starts_no_pyarrow_thread_that_could_abort_the_exit(pristine):
    """pyarrow's thread pools, once started, can abort a process as it exits ("terminate called
    without an active exception", exit -6: it failed a CI run once, on ``cardsim report``); the store
    reads rows on the calling thread, so a cardsim that read rows starts no pool. (pandas and pyarrow,
    which the store imports when it first reads rows, are imported first: numpy's BLAS starts its
    threads as it loads.)"""
    probe = (
        "import os, sys; import pandas, pyarrow.parquet; from sim.results import RunStore\n"
        "threads = lambda: len(os.listdir('/proc/self/task'))\n"
        "before = threads(); RunStore(sys.argv[1]).load_rows(); print(threads() - before)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started = subprocess.run(
        [sys.executable, "-c", probe, str(pristine)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=SECONDS,
        check=True,
    )
    assert started.stdout.strip() == "0"
