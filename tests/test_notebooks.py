"""The analysis notebooks run headless on a small tournament, so they never rot."""

from pathlib import Path

import pytest

from sim import tournament
from sim.results import RunStore

NOTEBOOKS = Path(__file__).parents[1] / "notebooks"


def executed_outputs(name: str, monkeypatch, run_dir: Path | None = None, results: Path | None = None) -> list:
    """Every output of the notebook ``name`` run headless on the run in ``run_dir`` (CARDSIM_RUN_DIR),
    or on the newest fitting run under ``results`` (CARDSIM_RESULTS)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    for variable, path in (("CARDSIM_RUN_DIR", run_dir), ("CARDSIM_RESULTS", results)):
        if path is None:
            monkeypatch.delenv(variable, raising=False)
        else:
            monkeypatch.setenv(variable, str(path))
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.output_type == "error"]
    return outputs


def text_of(outputs: list) -> str:
    return " ".join(str(output.get("data", output.get("text", ""))) for output in outputs)


@pytest.mark.parametrize("games", [False, True])
def test_straights_strategies_notebook_executes(tmp_path, monkeypatch, games):
    plan = tournament.Plan("straights", ("heuristic", "first-legal", "heuristic", "first-legal"),
                           rounds=100 if games else 500, seed=1, duplicate=True, games=games)
    tournament.run(plan, RunStore(tmp_path / "run"), progress=False)
    outputs = executed_outputs("straights-strategies.ipynb", monkeypatch, run_dir=tmp_path / "run")
    assert any("heuristic" in str(output.get("data", {})) for output in outputs)


@pytest.mark.parametrize(
    ("game", "players", "count"),
    [("ginrummy", ("heuristic", "cs340"), 10), ("gemstones", ("heuristic", "greedy"), 10),
     ("euchre", ("heuristic", "simple", "heuristic", "simple"), 6)],
)
def test_win_rates_notebook_executes_for_every_game(tmp_path, monkeypatch, game, players, count):
    plan = tournament.Plan(game, players, rounds=count, seed=2, duplicate=True, games=True, engine="reference")
    tournament.run(plan, RunStore(tmp_path / "run"), progress=False)
    text = text_of(executed_outputs("win-rates.ipynb", monkeypatch, run_dir=tmp_path / "run"))
    assert "win_rate" in text and players[0] in text and "image/png" in text


def test_notebooks_read_the_newest_fitting_run_of_a_results_folder(tmp_path, monkeypatch):
    """CARDSIM_RESULTS names a results folder (as `make run` fills results/): the Straights notebook
    reads its Straights run, the win-rates notebook its whole-games run, whichever was written last."""
    results = tmp_path / "results"
    straights = tournament.Plan("straights", ("heuristic", "first-legal", "heuristic", "first-legal"),
                                rounds=200, seed=3, duplicate=True)
    gin = tournament.Plan("ginrummy", ("heuristic", "cs340"), rounds=6, seed=3, duplicate=True, games=True,
                          engine="reference")
    for plan in (straights, gin):
        tournament.run(plan, RunStore(results / plan.run_id), progress=False)
    assert straights.run_id in text_of(executed_outputs("straights-strategies.ipynb", monkeypatch, results=results))
    assert gin.run_id in text_of(executed_outputs("win-rates.ipynb", monkeypatch, results=results))
