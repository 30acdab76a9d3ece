"""The analysis notebooks run headless on a small tournament, so they never rot."""

from pathlib import Path

import pytest

from sim import tournament
from sim.results import RunStore

NOTEBOOKS = Path(__file__).parents[1] / "notebooks"


def executed_outputs(name: str, run_dir: Path, monkeypatch) -> list:
    """Every output of the notebook ``name`` run headless on the results in ``run_dir``."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("CARDSIM_RUN_DIR", str(run_dir))
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.output_type == "error"]
    return outputs


@pytest.mark.parametrize("games", [False, True])
def test_straights_strategies_notebook_executes(tmp_path, monkeypatch, games):
    plan = tournament.Plan("straights", ("heuristic", "first-legal", "heuristic", "first-legal"),
                           rounds=100 if games else 500, seed=1, duplicate=True, games=games)
    tournament.run(plan, RunStore(tmp_path / "run"), progress=False)
    outputs = executed_outputs("straights-strategies.ipynb", tmp_path / "run", monkeypatch)
    assert any("heuristic" in str(output.get("data", {})) for output in outputs)


@pytest.mark.parametrize(
    ("game", "players", "count"),
    [("ginrummy", ("heuristic", "cs340"), 10), ("gemstones", ("heuristic", "greedy"), 10),
     ("euchre", ("heuristic", "simple", "heuristic", "simple"), 6)],
)
def test_win_rates_notebook_executes_for_every_game(tmp_path, monkeypatch, game, players, count):
    plan = tournament.Plan(game, players, rounds=count, seed=2, duplicate=True, games=True, engine="reference")
    tournament.run(plan, RunStore(tmp_path / "run"), progress=False)
    outputs = executed_outputs("win-rates.ipynb", tmp_path / "run", monkeypatch)
    text = " ".join(str(output.get("data", output.get("text", ""))) for output in outputs)
    assert "win_rate" in text and players[0] in text and "image/png" in text
