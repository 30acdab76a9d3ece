"""The benchmark measures every engine of every game and reports every row it promises (never the speed itself)."""

import json
import subprocess
import sys

import numpy as np
import pytest

import strategies
from sim import bench, games
from sim.cli import main
from sim.dealing import DEALS_PER_BLOCK
from sim.timing import TimedStrategy

TINY = bench.Effort(min_seconds=1e-9, repeats=1)  # one measurement of one call each: this checks the table


@pytest.mark.parametrize("name", games.names())
def test_every_engine_of_every_game_gets_positive_rows(name):
    table = bench.run(name, batch_sizes=(300,), cores=1, effort=TINY)

    game = games.load(name)
    assert {row.engine for row in table.rows} == set(game.play_rounds)
    assert (table.rows[0].engine, table.rows[0].cores) == ("reference", 1)
    assert [row.batch for row in table.rows if row.engine != "reference"] == [300] * (len(game.play_rounds) - 1)
    for row in table.rows:
        assert row.play_only >= row.with_deals > 0 and row.peak_mb > 0
        if row.engine == "reference":
            assert row.decisions >= row.with_deals  # every round takes at least one decision
        else:  # the baseline's compiled policy decides inside the kernel, uncounted
            assert row.decisions == 0
    assert table.rows[0].speedup == 1.0
    assert table.strategy == game.baseline and not strategies.info(name, game.baseline).cheating


def test_bench_prints_and_writes_every_row_on_every_core(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(bench, "EFFORT", TINY)
    out = tmp_path / "bench.jsonl"

    assert main(["bench", "--game", "straights", "--sizes", "2000", "300", "--cores", "2", "--json", str(out)]) == 0

    table = capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    reference_batch = rows[0]["batch"]
    assert [(row["engine"], row["batch"], row["cores"]) for row in rows] == [
        ("reference", reference_batch, 1),
        ("reference", 2 * reference_batch, 2),
        ("fast", 300, 1),
        ("fast", 300, 2),
        ("fast", 2000, 1),
        ("fast", 2000, 2),
    ]
    for row in rows:
        assert row["game"] == "straights" and row["play_only"] >= row["with_deals"] > 0 and row["peak_mb"] > 0
        if row["engine"] == "reference":
            assert row["decisions"] == pytest.approx(52 * row["with_deals"])  # a Straights round is 52 decisions
        else:
            assert row["decisions"] == 0  # first-legal's compiled policy decides in the kernel, uncounted
        assert f"{row['batch']:,}" in table
    assert all(row["speedup"] == 1.0 for row in rows if row["engine"] == "reference")
    assert "every seat plays first-legal" in table


def test_cardsim_bench_measures_a_game_other_than_straights(capsys, monkeypatch):
    monkeypatch.setattr(bench, "EFFORT", TINY)

    assert main(["bench", "--game", "euchre", "--sizes", "100", "--cores", "1"]) == 0

    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "euchre:" and "decisions /s" in lines[1]
    engines = [line.split()[0] for line in lines[3:-1]]
    assert engines[0] == "reference" and sorted(engines) == sorted(games.load("euchre").play_rounds)
    assert lines[-1].startswith("(every seat plays ")


def test_the_make_bench_entry_point_explains_itself():
    done = subprocess.run([sys.executable, "-m", "benchmarks.run", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "--game" in done.stdout and "--sizes" in done.stdout


@pytest.mark.parametrize(("batch", "cores"), [(1, 2), (500, 2), (3 * DEALS_PER_BLOCK + 7, 2), (10**6, 2), (10**6, 3)])
def test_tasks_cover_the_batch_in_whole_deal_blocks(batch, cores):
    tasks = bench.split_into_tasks(batch, cores)
    offsets = [offset for offset, _ in tasks]
    assert offsets[0] == 0 and sum(size for _, size in tasks) == batch
    assert all(offset + size == after for (offset, size), after in zip(tasks, offsets[1:]))
    if batch >= 2 * cores * DEALS_PER_BLOCK:
        assert len(tasks) % cores == 0 and all(offset % DEALS_PER_BLOCK == 0 for offset in offsets)


def test_counting_strategy_counts_every_row_it_answers():
    class Lowest:
        def choose(self, observation):
            return np.argmax(observation.legal_mask, axis=1)

    game = games.load("euchre")
    counting = TimedStrategy(Lowest())
    state = game.new_state(game.deals(1, 0, 1)[0], 0)
    decisions = 0
    while not state.is_over:
        state.apply(int(counting.choose(state.observe())[0]))
        decisions += 1
    assert counting.decisions == decisions > 0 and counting.name == "Lowest"


@pytest.mark.parametrize(
    ("value", "nice"), [(0, 1), (1, 1), (1.5, 2), (3, 5), (5, 5), (6, 10), (381, 500), (501, 1000)]
)
def test_reference_batches_are_round_numbers(value, nice):
    assert bench.nice_ceiling(value) == nice


def test_an_impossible_json_path_is_one_line_before_any_measurement(capsys):
    assert main(["bench", "--game", "euchre", "--sizes", "100", "--cores", "1", "--json", "/proc/x/bench.jsonl"]) == 2
    captured = capsys.readouterr()
    assert (
        captured.out == ""
        and captured.err == "cardsim bench: cannot create folder /proc/x: No such file or directory\n"
    )
