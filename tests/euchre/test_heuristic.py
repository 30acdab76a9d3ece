"""Euchre's heuristic: legal, deterministic, and stronger than simple on the same deals."""

from sim import tournament
from sim.results import RunStore


def test_heuristic_beats_simple_on_swapped_partnerships(tmp_path):
    plan = tournament.Plan(
        "euchre", ("heuristic", "simple", "heuristic", "simple"), rounds=300, seed=4, duplicate=True, engine="reference"
    )
    result = tournament.run(plan, RunStore(tmp_path), progress=False)
    pair = result.paired.iloc[0]
    assert (pair["strategy_a"], pair["strategy_b"]) == ("heuristic", "simple")
    assert pair["ci95_low"] > 0  # more points per hand for heuristic, on the same cards


def test_heuristic_is_deterministic(tmp_path):
    plan = tournament.Plan("euchre", ("heuristic",) * 4, rounds=60, seed=8, engine="reference", games=True)
    first = tournament.run(plan, RunStore(tmp_path / "a"), progress=False).summary
    second = tournament.run(plan, RunStore(tmp_path / "b"), progress=False).summary
    assert first.equals(second)
