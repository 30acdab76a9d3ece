"""Start-up: a command loads the libraries and strategies it uses, not every one the project has."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sim import tournament

ROOT = Path(__file__).resolve().parents[1]
# What the commands that use them load when they do: results tables, plots, worker pools, a cluster, the web.
HEAVY = ("numba", "pandas", "pyarrow", "matplotlib", "joblib", "dask", "distributed", "starlette", "uvicorn")


def python(code: str) -> str:
    """What ``code`` prints, run by a fresh interpreter in the project's folder."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_importing_the_command_loads_no_heavy_library():
    loaded = python(
        f"import sys, sim.cli; print(sorted({{name.split('.')[0] for name in sys.modules}} & {set(HEAVY)}))"
    )
    assert loaded.strip() == "[]"


LIST_STRATEGIES = """
    import contextlib, io, json, sys
    from pathlib import Path
    import strategies
    from sim import cli
    strategies.LISTING_FILE = Path({listing!r})
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        cli.main(["strategies", *{options!r}])
    print(json.dumps([printed.getvalue(), sorted(name for name in sys.modules if name.startswith("strategies."))]))
"""


def list_strategies(listing: Path, options: tuple[str, ...] = ()) -> tuple[str, list[str]]:
    """``cardsim strategies``' output with ``options``, and the strategy modules it imported, with ``listing`` its
    ``strategies.LISTING_FILE``."""
    printed, imported = json.loads(python(LIST_STRATEGIES.format(listing=str(listing), options=list(options))))
    return printed, imported


def test_strategies_are_listed_again_as_the_registry_listed_them_without_importing_them(tmp_path):
    listing = tmp_path / "listing.json"
    first, imported_first = list_strategies(listing)
    again, imported_again = list_strategies(listing)
    assert "first-legal" in first and "[alias: best]" in first and imported_first
    assert again == first
    assert imported_again == []


def test_a_listing_written_from_other_sources_is_not_read(tmp_path):
    listing = tmp_path / "listing.json"
    invented = {"name": "invented", "description": "Not a strategy.", "required": [], "parameters": {}}
    listing.write_text(json.dumps({"stamp": "other sources", "games": {"straights": [[invented], {}]}}))
    printed, _ = list_strategies(listing)
    assert "invented" not in printed and "first-legal" in printed


def test_strategies_a_module_registers_are_listed_and_never_stored(tmp_path):
    (tmp_path / "startup_bots.py").write_text(
        "from strategies import register\n\n"
        "@register('straights', 'far-ends')\n"
        "class FarEnds:\n"
        '    """Plays the card farthest from the sevens."""\n'
    )
    listing = tmp_path / "listing.json"
    printed, _ = list_strategies(listing, ("--import", str(tmp_path / "startup_bots.py")))
    assert "far-ends" in printed
    assert "far-ends" not in list_strategies(listing)[0]


def test_one_chunk_is_played_without_starting_workers(monkeypatch):
    plan = tournament.Plan("straights", ("first-legal",) * 4, rounds=8, seed=1)

    def no_workers(jobs: int):
        raise AssertionError("a pool of workers was started")

    monkeypatch.setattr(tournament, "local_workers", no_workers)
    (played,) = tournament.play_chunks(plan, [0], jobs=2)
    assert played.index == 0
    with pytest.raises(AssertionError, match="a pool of workers"):
        list(tournament.play_chunks(plan, [0, 1], jobs=2))
