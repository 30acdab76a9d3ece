"""`cardsim bench` measures both engines and reports every row it promises (speed itself is never asserted)."""

import json

import benchmarks.run
from sim.cli import main


def test_bench_prints_and_writes_every_row(tmp_path, capsys, monkeypatch):
    # Tiny measurements: this checks the table, not the speed.
    monkeypatch.setattr(benchmarks.run, "MIN_SECONDS", 1e-9)  # one measurement each
    monkeypatch.setattr(benchmarks.run, "REPEATS", 1)
    monkeypatch.setattr(benchmarks.run, "REFERENCE_ROUNDS", 20)
    out = tmp_path / "bench.jsonl"

    assert main(["bench", "--game", "straights", "--sizes", "300", "2000", "--cores", "2", "--json", str(out)]) == 0

    table = capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(row["engine"], row["batch"], row["cores"]) for row in rows] == [
        ("reference", 20, 1), ("reference", 40, 2),
        ("fast", 300, 1), ("fast", 300, 2), ("fast", 2000, 1), ("fast", 2000, 2),
    ]
    for row in rows:
        assert row["play_only"] >= row["with_deals"] > 0 and row["peak_mb"] > 0
        assert f"{row['batch']:,}" in table
    assert all(row["speedup"] == 1.0 for row in rows if row["engine"] == "reference")
