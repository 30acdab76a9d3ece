"""A game's rooms import one way (../shared/DESIGN.md): its views (the words, the transcript, the table
view) are shared by the program, replays and the web table, so none of them loads a program's file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim import games

ROOT = Path(__file__).resolve().parents[1]
VIEWS = ("words", "transcript", "view")
PROGRAM_FILES = ("cli", "savefile")


@pytest.mark.parametrize("game", games.names())
def test_a_games_views_load_none_of_its_programs_files(game):
    imports = "; ".join(f"import sim.{game}.{view}" for view in VIEWS)
    listing = f"import json, sys; {imports}; print(json.dumps([name for name in sys.modules if name[:4] == 'sim.']))"
    done = subprocess.run([sys.executable, "-c", listing], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert [name for name in loaded if name.rsplit(".", 1)[-1] in PROGRAM_FILES] == []
