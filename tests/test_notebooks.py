"""The analysis notebooks run headless on a small tournament, so they never rot."""

import re
from pathlib import Path

import pytest

from sim import league as leagues
from sim import tournament
from sim.results import RunStore

NOTEBOOKS = Path(__file__).parents[1] / "notebooks"
# The command the Straights notebook prints for its most lopsided deal.
REPLAY_COMMAND = re.compile(r"cardsim replay \S+ --deal \d+ --seating \d+")


def executed_outputs(name: str, monkeypatch, run_dir: Path | None = None, results: Path | None = None,
                     league_dir: Path | None = None) -> list:
    """Every output of the notebook ``name`` run headless on the run in ``run_dir`` (CARDSIM_RUN_DIR)
    or the league in ``league_dir`` (CARDSIM_LEAGUE_DIR), or on the newest fitting run (league)
    under ``results`` (CARDSIM_RESULTS)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    for variable, path in (("CARDSIM_RUN_DIR", run_dir), ("CARDSIM_RESULTS", results),
                           ("CARDSIM_LEAGUE_DIR", league_dir)):
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


def printed(outputs: list) -> str:
    """What the notebook printed (its stream outputs), without the tables it displayed."""
    return "".join(output.get("text", "") for output in outputs if output.output_type == "stream")


def test_notebooks_are_saved_without_outputs():
    """Notebooks are committed clean: outputs belong to whoever runs them."""
    nbformat = pytest.importorskip("nbformat")
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        assert not [cell for cell in cells if cell.cell_type == "code" and (cell.outputs or cell.execution_count)], path


@pytest.mark.parametrize("games", [False, True])
def test_straights_strategies_notebook_executes(tmp_path, monkeypatch, games):
    plan = tournament.Plan("straights", ("heuristic", "first-legal", "heuristic", "first-legal"),
                           rounds=100 if games else 500, seed=1, duplicate=True, games=games)
    tournament.run(plan, RunStore(tmp_path / "run"), progress=False)
    outputs = executed_outputs("straights-strategies.ipynb", monkeypatch, run_dir=tmp_path / "run")
    assert any("heuristic" in str(output.get("data", {})) for output in outputs)
    # Finding interesting deals: the replay command of the most lopsided deal, and that replay.
    command = REPLAY_COMMAND.search(printed(outputs))
    assert command and str(tmp_path / "run") in command.group()
    assert f"Run {plan.run_id}" in printed(outputs)


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
    """CARDSIM_RESULTS names a results folder (as `make run` fills results/): each notebook shows its
    listing, then the Straights notebook reads its per-round Straights run, the win-rates notebook its
    whole-games run, whichever was written last."""
    results = tmp_path / "results"
    straights = tournament.Plan("straights", ("heuristic", "first-legal", "heuristic", "first-legal"),
                                rounds=200, seed=3, duplicate=True)
    gin = tournament.Plan("ginrummy", ("heuristic", "cs340"), rounds=6, seed=3, duplicate=True, games=True,
                          engine="reference")
    for plan in (straights, gin):
        tournament.run(plan, RunStore(results / plan.run_id), progress=False)
    outputs = executed_outputs("straights-strategies.ipynb", monkeypatch, results=results)
    assert gin.run_id in text_of(outputs)  # the listing shows every run
    assert str(results / straights.run_id) in printed(outputs)  # the run read
    outputs = executed_outputs("win-rates.ipynb", monkeypatch, results=results)
    assert straights.run_id in text_of(outputs)
    assert str(results / gin.run_id) in printed(outputs)


@pytest.fixture(scope="module")
def league_results(tmp_path_factory) -> tuple[leagues.League, Path]:
    """A results folder holding one tiny finished league."""
    league = leagues.League("gemstones", ("greedy", "heuristic", "random"), rounds=10)
    results = tmp_path_factory.mktemp("league-results")
    leagues.run(league, results / league.league_id, progress=False)
    return league, results


@pytest.mark.parametrize("chosen_by", ["CARDSIM_LEAGUE_DIR", "CARDSIM_RESULTS"])
def test_league_notebook_executes(league_results, monkeypatch, chosen_by):
    league, results = league_results
    folder = results / league.league_id
    if chosen_by == "CARDSIM_LEAGUE_DIR":
        outputs = executed_outputs("league.ipynb", monkeypatch, league_dir=folder, results=results / "none")
    else:
        outputs = executed_outputs("league.ipynb", monkeypatch, results=results)
    text = text_of(outputs)
    assert str(folder) in printed(outputs)
    assert all(name in text for name in league.players)
    assert "image/png" in text and "ci95_low" in text
    assert re.search(r"[+-](\d+|inf) \(\d+%\)", text)  # a cell's Elo (LOS)
