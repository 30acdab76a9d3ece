"""The analysis notebooks run headless on a small tournament, so they never rot."""

from pathlib import Path

import pytest

from sim import tournament
from sim.results import RunStore

NOTEBOOKS = Path(__file__).parents[1] / "notebooks"


@pytest.mark.parametrize("games", [False, True])
def test_straights_strategies_notebook_executes(tmp_path, monkeypatch, games):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    plan = tournament.Plan("straights", ("heuristic", "first-legal", "heuristic", "first-legal"),
                           rounds=100 if games else 500, seed=1, duplicate=True, games=games)
    tournament.run(plan, RunStore(tmp_path / "run"), progress=False)
    monkeypatch.setenv("CARDSIM_RUN_DIR", str(tmp_path / "run"))
    notebook = nbformat.read(NOTEBOOKS / "straights-strategies.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.output_type == "error"]
    assert any("heuristic" in str(output.get("data", {})) for output in outputs)
