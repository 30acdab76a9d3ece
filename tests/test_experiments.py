"""The experiment scripts take their numbers through the shared bounded parser: a bad number is one
line of usage error (status 2), never a traceback, and nothing is played."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HUGE = "9" * 5_000  # past the 4,300 digits Python's int() accepts

# Each script with one of its count arguments.
SCRIPTS = [
    ("experiments.euchre_strategies", "--mc-games"),
    ("experiments.gemstones_strategies", "--games"),
    ("experiments.ginrummy_strategies", "--head-to-head-games"),
    ("experiments.hand_outcomes", "--hands"),
    ("experiments.objective", "--chunks"),
    ("experiments.straights_policy", "--episodes"),
    ("experiments.straights_strategies", "--mc-deals"),
]


def run_script(module: str, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", module, *arguments], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(("module", "count"), SCRIPTS)
@pytest.mark.parametrize("value", [HUGE, "-3", "x"])
def test_a_bad_count_is_one_line_and_status_2(module, count, value):
    done = run_script(module, count, value)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert f"argument {count}: invalid number:" in last
    assert len(last) < 200  # the 5,000 digits are shortened, not echoed


WITHOUT_WORKERS = ("experiments.straights_policy", "experiments.hand_outcomes")


@pytest.mark.parametrize("module", [module for module, _ in SCRIPTS if module not in WITHOUT_WORKERS])
def test_no_workers_is_refused(module):
    done = run_script(module, "--jobs", "0")
    assert done.returncode == 2
    assert "invalid number of workers: '0' is out of range" in done.stderr.strip().splitlines()[-1]


def test_a_rate_must_be_a_finite_positive_number():
    for rate in ("nan", "inf", "0", HUGE):
        done = run_script("experiments.straights_policy", "--rate", rate)
        assert done.returncode == 2, rate
        assert "argument --rate: invalid rate:" in done.stderr.strip().splitlines()[-1]


def test_the_projects_own_errors_stop_an_experiment_in_one_line(tmp_path):
    # A researcher's strategy defined in the running script cannot reach worker processes: PlanError.
    script = tmp_path / "my_experiment.py"
    script.write_text(
        "from experiments import run_script\n"
        "from sim import tournament\n"
        "from strategies import register\n"
        "from strategies.straights.first_legal import FirstLegal\n\n"
        "register('straights', 'script-first-legal')(type('ScriptFirstLegal', (FirstLegal,), {}))\n"
        "plan = tournament.Plan('straights', ('script-first-legal', 'heuristic') * 2, rounds=64, seed=1)\n"
        "run_script(lambda: list(tournament.play_chunks(plan, [0], jobs=2)), 'my_experiment')\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 1
    assert done.stderr.startswith("my_experiment: script-first-legal is defined in this script or notebook")
    assert len(done.stderr.strip().splitlines()) == 1
