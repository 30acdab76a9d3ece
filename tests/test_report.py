"""report.html, the page a browser opens from the disk for a run or a league: it parses, names only
files beside it (no network), and every number it shows is the number of the CSV file, row and
column its cell names, to the digits shown."""

from __future__ import annotations

import ast
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from sim import cli, tournament
from sim import league as leagues
from sim.page import REPORT
from sim.results import RunStore

ROOT = Path(__file__).resolve().parents[1]

VOID = {"meta", "img", "br", "hr", "link", "input", "col", "wbr", "source"}
# A number as a page writes it: thousands separators, a sign (not the dash of a W-D-L record), ∞.
NUMBER = re.compile(r"(?<![\d.])([+-]?)(∞|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(%| µs| ms| s\b)?")
SCALE = {"%": 0.01, " µs": 1e-6, " ms": 1e-3, " s": 1.0, None: 1.0}


class Page(HTMLParser):
    """A page's tags checked for nesting, its links and images, and its table cells with the CSV
    file, row and columns each names."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.images: list[str] = []
        self.links: list[str] = []
        self.tags: set[str] = set()
        self.cells: list[tuple[str, int, list[str], str]] = []  # csv, row, columns, text
        self._csv: list[str] = []
        self._cell: dict | None = None

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        self.tags.add(tag)
        if tag == "img":
            self.images.append(values["src"])
        if tag == "a":
            self.links.append(values["href"])
        if tag not in VOID:
            self.open.append(tag)
            self._csv.append(values.get("data-csv") or (self._csv[-1] if self._csv else ""))
        if tag == "td" and "data-columns" in values:
            self._cell = {
                "csv": self._csv[-1],
                "row": int(values["data-row"]),
                "columns": values["data-columns"].split(),
                "text": "",
            }

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()
        self._csv.pop()
        if tag == "td" and self._cell is not None:
            cell = self._cell
            self.cells.append((cell["csv"], cell["row"], cell["columns"], cell["text"]))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell["text"] += data


def read_page(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    assert page.open == [], f"unclosed tags: {page.open}"
    return page


def numbers(text: str) -> list[tuple[float, float]]:
    """Each number of a cell's text and half a unit of its last digit (what rounding may have cost)."""
    found = []
    for sign, digits, unit in NUMBER.findall(text):
        scale = SCALE[unit or None]
        if digits == "∞":
            found.append((-math.inf if sign == "-" else math.inf, 0.0))
            continue
        value = float(digits.replace(",", "")) * (-1 if sign == "-" else 1)
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        found.append((value * scale, 0.5 * 10**-decimals * scale * (1 + 1e-9)))
    return found


def check_page(folder: Path) -> Page:
    """report.html in ``folder`` parses, names only files that exist beside it, and each of its cells
    shows its CSV's values; returns the page."""
    page = read_page(folder / REPORT)
    assert not {"script", "link", "iframe"} & page.tags  # nothing to fetch, nothing to run
    for name in page.images + page.links:
        assert not re.match(r"[a-z]+:", name), f"{name} is not a file beside the page"
        assert (folder / name).exists(), f"{name} does not exist"
    assert page.images, "no plot on the page"
    tables = {}
    for csv, row, columns, text in page.cells:
        table = tables.setdefault(csv, pd.read_csv(folder / csv))
        values = [table.loc[row, column] for column in columns]
        if all(isinstance(value, str) for value in values):
            assert text == " ".join(values), (csv, row, columns)
            continue
        shown = numbers(text)
        present = [value for value in values if not pd.isna(value)]
        assert len(shown) == len(present), f"{csv} row {row} {columns}: {text!r} shows {shown}, the file {values}"
        for (value, tolerance), expected in zip(shown, present):
            assert value == expected or abs(value - expected) <= tolerance, (csv, row, columns, text, expected)
    return page


def test_a_duplicate_euchre_run_writes_a_report_whose_numbers_are_its_csvs(tmp_path):
    """Partners and a long spec: the README's Euchre lineup."""
    players = ("mc:team_rollout=(heuristic:threshold=6,ace_stands=true)", "heuristic", "mc", "heuristic")
    plan = tournament.Plan("euchre", players, rounds=6, seed=1, duplicate=True)
    result = tournament.run(plan, RunStore(tmp_path), progress=False)
    assert result.report == tmp_path / REPORT
    page = check_page(tmp_path)
    assert {"summary.csv", "paired.csv", "timing.csv"} <= {csv for csv, *_ in page.cells}
    assert set(page.images) == {"points_distribution.png", "mean_points.png", "paired_differences.png"}
    text = (tmp_path / REPORT).read_text()
    assert "cardsim tournament --game euchre" in text and f"--out {tmp_path}" in text
    assert "are partners in every seating" in text


def test_a_whole_games_run_shows_its_win_rates(tmp_path):
    plan = tournament.Plan("gemstones", ("heuristic", "greedy"), rounds=12, seed=3, duplicate=True, games=True)
    tournament.run(plan, RunStore(tmp_path), progress=False)
    page = check_page(tmp_path)
    shown = {column for _, _, columns, _ in page.cells for column in columns}
    assert {"win_rate", "win_ci95_low", "score_ci95_high", "wins", "elo_ci95_high"} <= shown
    assert "win_rate.png" in page.images


def test_a_league_report_shows_its_ratings_matrix_and_pairings(tmp_path):
    league = leagues.League("gemstones", ("greedy", "heuristic", "random"), rounds=8)
    result = leagues.run(league, tmp_path, anchor="heuristic", progress=False)
    page = check_page(tmp_path)
    csvs = {csv for csv, *_ in page.cells}
    assert {"ratings.csv", "matrix.csv", "pairings/0-1/timing.csv", "pairings/1-2/timing.csv"} <= csvs
    assert {"ratings.png", "matrix.png"} <= set(page.images)
    assert "pairings/0-2/report.html" in page.links
    for pairing in league.pairing_plans():
        check_page(leagues.pairing_folder(tmp_path, pairing))
    assert result.report == tmp_path / REPORT
    assert "--anchor heuristic" in result.report.read_text()
    # random lost all 8 deals to greedy: its Elo is -inf, its interval [-inf, -127.4], written as such.
    sweep = result.matrix.set_index(["strategy", "opponent"]).loc[("greedy", "random")]
    assert (sweep["wins"], sweep["elo"], sweep["elo_ci95_high"]) == (8, float("inf"), float("inf"))
    assert 0.6 < sweep["score_ci95_low"] < 1 and 100 < sweep["elo_ci95_low"] < 200  # never zero wide
    assert "greedy,random,8,8,0,0,1.0,0.675" in (tmp_path / "matrix.csv").read_text()
    assert ",inf,127.4" in (tmp_path / "matrix.csv").read_text()
    assert "[+127.4, +∞]" in result.report.read_text() and "[-∞, -127.4]" in result.report.read_text()


def test_report_writes_the_page_and_names_it_last(tmp_path, monkeypatch, capsys):
    """`cardsim report RUN` (a run or a league) and every tournament and league: the last line printed
    names report.html."""
    monkeypatch.chdir(tmp_path)

    def cardsim(*args: str) -> str:
        assert cli.main(list(args)) == 0, capsys.readouterr().err
        return capsys.readouterr().out.splitlines()[-1]

    assert (
        cardsim(
            "tournament",
            "--game",
            "gemstones",
            "--players",
            "greedy,random",
            "--rounds",
            "8",
            "--duplicate",
            "--out",
            "run",
            "--quiet",
        )
        == "Report: run/report.html"
    )
    (tmp_path / "run" / REPORT).unlink()
    assert cardsim("report", "run") == "Report: run/report.html"
    check_page(tmp_path / "run")
    assert (
        cardsim(
            "league",
            "--game",
            "gemstones",
            "--players",
            "greedy,random",
            "--rounds",
            "4",
            "--anchor",
            "random",
            "--out",
            "lg",
            "--quiet",
        )
        == "Report: lg/report.html"
    )
    (tmp_path / "lg" / REPORT).unlink()
    assert cardsim("report", "lg") == "Report: lg/report.html"
    assert "--anchor random" in (tmp_path / "lg" / REPORT).read_text()  # the anchor it was rated against


def test_numbers_are_read_as_written():
    assert numbers("1,204-38-758") == [(1204, 0.5 * (1 + 1e-9)), (38, 0.5 * (1 + 1e-9)), (758, 0.5 * (1 + 1e-9))]
    assert [value for value, _ in numbers("[-0.020, +1.5%]")] == [-0.02, pytest.approx(0.015)]
    assert [value for value, _ in numbers("[+286.6, +∞]")] == [286.6, math.inf]
    assert [value for value, _ in numbers("12.5 µs")] == [pytest.approx(12.5e-6)]


def test_the_pipeline_imports_one_way():
    """runs -> league -> tournament -> chunks -> plans -> page -> report -> plots -> results: each module
    imports only those after it (at any level, type checking included), so a plan never plays itself,
    plots and reports take tables, never the objects that made them, and the results store at the
    bottom reads and writes files knowing no plan, chunk or league."""
    order = ["runs", "league", "tournament", "chunks", "plans", "page", "report", "plots", "results"]
    for index, name in enumerate(order):
        tree = ast.parse((ROOT / "sim" / f"{name}.py").read_text(encoding="utf-8"))
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported |= {f"{node.module}.{alias.name}" for alias in node.names} | {node.module}
            elif isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
        upstream = {f"sim.{other}" for other in order[: index + 1]}
        assert not imported & upstream - {f"sim.{name}"}, f"sim.{name} imports {imported & upstream}"


@pytest.mark.parametrize(
    "rounds, chunk_size, said",
    [
        (1000, 512, "2, each of 512 deals but the last, of 488"),
        (1024, 512, "2, each of 512 deals"),
        (5, 512, "1, of 5 deals"),
    ],
)
def test_the_settings_say_how_a_run_is_split_into_chunks(rounds, chunk_size, said):
    plan = tournament.Plan("straights", ("heuristic",) * 4, rounds, 1, chunk_size=chunk_size)
    assert tournament.chunks_line(plan, "deals") == said
