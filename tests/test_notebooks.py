"""The analysis notebooks run headless on a small tournament, so they never rot."""

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from sim import league as leagues
from sim import tournament
from sim.results import RunStore

NOTEBOOKS = Path(__file__).parents[1] / "notebooks"
# The command the Straights notebook prints for its most lopsided deal.
REPLAY_COMMAND = re.compile(r"cardsim replay \S+ --deal \d+ --seating \d+")


# Run before a notebook: every figure it shows has its titles noted, which the last cell prints.
TITLES_NOTED = """
from matplotlib.backend_bases import FigureCanvasBase
_print_figure, _TITLES = FigureCanvasBase.print_figure, []


def _noting_titles(canvas, *args, **kwargs):
    figure = canvas.figure
    _TITLES.append(" ".join([figure.get_suptitle(), *(axes.get_title() for axes in figure.axes)]).strip())
    return _print_figure(canvas, *args, **kwargs)


FigureCanvasBase.print_figure = _noting_titles
"""
TITLES_PRINTED = 'print("TITLES", repr(_TITLES))'


@dataclass
class Executed:
    outputs: list  # every output of the notebook's own cells
    first: str  # what its first cell printed
    titles: list[str]  # the title of every figure it showed


def executed_outputs(
    name: str,
    monkeypatch,
    run_dir: Path | None = None,
    results: Path | None = None,
    league_dir: Path | None = None,
    game: str | None = None,
) -> Executed:
    """The notebook ``name`` run headless on the run in ``run_dir`` (CARDSIM_RUN_DIR) or the league
    in ``league_dir`` (CARDSIM_LEAGUE_DIR), or on the largest fitting run (league) of ``game``
    (CARDSIM_GAME, else the notebook's own) under ``results`` (CARDSIM_RESULTS)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    for variable, value in (
        ("CARDSIM_RUN_DIR", run_dir),
        ("CARDSIM_RESULTS", results),
        ("CARDSIM_LEAGUE_DIR", league_dir),
        ("CARDSIM_GAME", game),
    ):
        if value is None:
            monkeypatch.delenv(variable, raising=False)
        else:
            monkeypatch.setenv(variable, str(value))
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    own = notebook.cells
    notebook.cells = [nbformat.v4.new_code_cell(TITLES_NOTED), *own, nbformat.v4.new_code_cell(TITLES_PRINTED)]
    nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    ).execute()
    outputs = [output for cell in own if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.output_type == "error"]
    noted = printed(notebook.cells[-1].outputs)
    titles = ast.literal_eval(noted.removeprefix("TITLES ").strip())
    return Executed(outputs, printed(own[0].outputs), titles)


def assert_titled(titles: list[str], game: str, count: int) -> None:
    """Every figure shown has a title naming the game, the size played and which way is better."""
    assert titles
    for title in titles:
        assert game in title and "better" in title, title
        assert re.search(rf"\b{count:,} (deal|game)s?\b", title), title


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


def test_each_notebook_names_its_game_first_and_picks_its_run_there():
    """The first cell is the parameters: the game (and optionally the run), and the pick it makes."""
    nbformat = pytest.importorskip("nbformat")
    for path, default in (
        ("straights-strategies.ipynb", "straights"),
        ("win-rates.ipynb", "ginrummy"),
        ("league.ipynb", "gemstones"),
    ):
        first = nbformat.read(NOTEBOOKS / path, as_version=4).cells[0]
        assert first.cell_type == "code" and "parameters" in first.metadata.get("tags", [])
        assert f'GAME = os.environ.get("CARDSIM_GAME", "{default}")' in first.source
        assert "pick_run(" in first.source and "print(picked.reason)" in first.source


@pytest.mark.parametrize("games", [False, True])
def test_straights_strategies_notebook_executes(tmp_path, monkeypatch, games):
    plan = tournament.Plan(
        "straights",
        ("heuristic", "first-legal", "heuristic", "first-legal"),
        rounds=100 if games else 500,
        seed=1,
        duplicate=True,
        games=games,
    )
    tournament.run(plan, RunStore(tmp_path / "run"), progress=False)
    executed = executed_outputs("straights-strategies.ipynb", monkeypatch, run_dir=tmp_path / "run")
    outputs = executed.outputs
    assert any("heuristic" in str(output.get("data", {})) for output in outputs)
    # Finding interesting deals: the replay command of the most lopsided deal, and that replay.
    command = REPLAY_COMMAND.search(printed(outputs))
    assert command and str(tmp_path / "run") in command.group()
    assert executed.first.startswith(f"Reading {tmp_path / 'run'}: a straights tournament of ")
    assert_titled(executed.titles, "straights", plan.rounds)
    assert len(executed.titles) == 3 + games  # mean points, paired differences, distribution (, win rate)


@pytest.mark.parametrize(
    ("game", "players", "count"),
    [
        ("ginrummy", ("heuristic", "cs340"), 10),
        ("gemstones", ("heuristic", "greedy"), 10),
        ("euchre", ("heuristic", "simple", "heuristic", "simple"), 6),
    ],
)
def test_win_rates_notebook_executes_for_every_game(tmp_path, monkeypatch, game, players, count):
    plan = tournament.Plan(game, players, rounds=count, seed=2, duplicate=True, games=True, engine="reference")
    tournament.run(plan, RunStore(tmp_path / "run"), progress=False)
    executed = executed_outputs("win-rates.ipynb", monkeypatch, run_dir=tmp_path / "run")
    text = text_of(executed.outputs)
    assert "win_rate" in text and players[0] in text and "image/png" in text
    assert_titled(executed.titles, game, count)
    assert any(title.startswith("Rounds per game") for title in executed.titles)


def test_notebooks_read_the_largest_fitting_run_of_their_game(tmp_path, monkeypatch):
    """CARDSIM_RESULTS names a results folder (as `make run` fills results/): each notebook picks the
    largest finished run of its game that fits, whichever was written last, and says so first."""
    results = tmp_path / "results"
    lineup = ("heuristic", "first-legal", "heuristic", "first-legal")
    larger = tournament.Plan("straights", lineup, rounds=200, seed=3, duplicate=True)
    smaller = tournament.Plan("straights", lineup, rounds=100, seed=3, duplicate=True)
    gin = tournament.Plan(
        "ginrummy", ("heuristic", "cs340"), rounds=6, seed=3, duplicate=True, games=True, engine="reference"
    )
    for plan in (larger, gin, smaller):  # the smaller Straights run is the newest
        tournament.run(plan, RunStore(results / plan.run_id), progress=False)
    executed = executed_outputs("straights-strategies.ipynb", monkeypatch, results=results)
    assert gin.run_id in text_of(executed.outputs)  # the listing shows every run
    assert executed.first.startswith(f"Reading {results / larger.run_id}: 200 deals (800 results")
    assert "the largest of the 2 finished per-round straights tournaments" in executed.first
    executed = executed_outputs("win-rates.ipynb", monkeypatch, results=results)
    assert executed.first.startswith(f"Reading {results / gin.run_id}: 6 games")
    assert "the only finished whole-games ginrummy tournament" in executed.first


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
        executed = executed_outputs("league.ipynb", monkeypatch, league_dir=folder, results=results / "none")
    else:
        executed = executed_outputs("league.ipynb", monkeypatch, results=results)
    text = text_of(executed.outputs)
    assert executed.first.startswith(f"Reading {folder}: ")
    assert all(name in text for name in league.players)
    assert "image/png" in text and "ci95_low" in text
    assert re.search(r"[+-](\d+|inf) \(\d+%\)", text)  # a cell's Elo (LOS)
    assert len(executed.titles) == 2
    for title in executed.titles:  # ratings and the matrix
        assert "gemstones" in title and "better" in title and "pairings of 10 deals" in title
