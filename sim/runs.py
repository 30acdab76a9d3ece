"""The runs and leagues under a results folder: listed with their state, and the one a notebook reads.

A run folder is the store's (``sim.results``), which reads and writes files and knows no plan; whether
a run's files hold what its plan played is for the plan and its chunks to say, so the listing sits
above them all, beside the league.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from sim import games
from sim.chunks import check_chunks
from sim.league import read_league
from sim.plans import stored_plan
from sim.results import ResultsError, RunStore

RUN_COLUMNS = ("run", "kind", "game", "players", "size", "games", "date", "status", "path")


def list_runs(results: str | os.PathLike[str]) -> pd.DataFrame:
    """The tournament runs and leagues directly under ``results``, newest first: one row each with its
    folder name, kind, game, players, size, whether it played whole games, date (of its last write)
    and status ("done"; "partial" with the chunks or pairings played so far; or "damaged" with the
    file at fault, when a file does not hold what it should). Folders that are neither are left out."""
    rows = []
    folder = Path(results)
    for path in sorted(folder.iterdir()) if folder.is_dir() else ():
        if os.path.lexists(path / "config.json"):
            rows.append(_run_row(path))
        elif os.path.lexists(path / "league.json"):
            rows.append(_league_row(path))
    table = pd.DataFrame(rows, columns=list(RUN_COLUMNS))
    return table.sort_values("date", ascending=False, ignore_index=True)


def _size(rounds: int, games: bool) -> str:
    return f"{rounds:,} {'games' if games else 'deals'}"


def _modified(path: Path, names: Iterable[str]) -> pd.Timestamp:
    """When the newest of the files ``names`` in ``path`` was written (the folder's date if none is)."""
    times = [os.lstat(path / name).st_mtime for name in names if os.path.lexists(path / name)]
    return pd.Timestamp(max(times, default=os.lstat(path).st_mtime), unit="s").floor("s")


def _row(path: Path, kind: str, described: dict[str, Any], files: tuple[str, ...], status: str) -> dict[str, Any]:
    return {"run": path.name, "kind": kind, **described, "date": _modified(path, files), "status": status, "path": path}


def _damaged_row(path: Path, kind: str, files: tuple[str, ...], culprit: str) -> dict[str, Any]:
    """The row of a folder whose file ``culprit`` does not hold what it should: what it is, unknown."""
    return _row(path, kind, {"game": "", "players": "", "size": "", "games": False}, files, f"damaged: {culprit}")


RUN_FILES = ("config.json", "summary.csv")
LEAGUE_FILES = ("league.json", "ratings.csv")


def _run_row(path: Path) -> dict[str, Any]:
    """The row of a tournament run: whether its files are sound is for its plan to say."""
    store = RunStore(path)
    try:
        plan = stored_plan(store)
    except (ResultsError, ValueError, OSError):  # plan and game errors are ValueErrors
        return _damaged_row(path, "tournament", RUN_FILES, "config.json")
    try:
        stored = check_chunks(plan, store, rows=False)
    except (ResultsError, ValueError, OSError):
        return _damaged_row(path, "tournament", RUN_FILES, "chunks/")
    if stored.damaged:
        first, more = stored.damaged[0].path, len(stored.damaged) - 1
        status = f"damaged: {first.parent.name}/{first.name}" + (f" and {more} more" if more else "")
    elif len(stored.sound) == plan.num_chunks and (path / "summary.csv").is_file():
        status = "done"
    else:
        status = f"partial: {len(stored.sound)} of {plan.num_chunks} chunks"
    described = {"game": plan.game, "players": ",".join(plan.players), "size": _size(plan.rounds, plan.games)}
    return _row(path, "tournament", {**described, "games": plan.games}, RUN_FILES, status)


def _league_row(path: Path) -> dict[str, Any]:
    """The row of a league: its pairings played so far, or the file at fault."""
    try:
        league = read_league(path)
    except (ResultsError, ValueError, OSError):
        return _damaged_row(path, "league", LEAGUE_FILES, "league.json")
    pairings = len(league.players) * (len(league.players) - 1) // 2
    played = sum(1 for summary in path.glob("pairings/*/summary.csv"))
    status = "done" if (path / "ratings.csv").is_file() else f"partial: {played} of {pairings} pairings"
    described = {
        "game": league.game,
        "players": ",".join(league.players),
        "size": _size(league.rounds, league.games) + " a pairing",
        "games": league.games,
    }
    return _row(path, "league", described, LEAGUE_FILES, status)


def newest_run(results: str | os.PathLike[str], game: str | None = None, games: bool | None = None) -> RunStore:
    """The finished tournament run under ``results`` written last: what the last tournament wrote.

    ``game`` keeps only that game's runs; ``games`` True or False only runs that played whole games,
    or only runs that did not.
    """
    runs = list_runs(results)
    fitting = runs[(runs["kind"] == "tournament") & (runs["status"] == "done")]
    if game is not None:
        fitting = fitting[fitting["game"] == game]
    if games is not None:
        fitting = fitting[fitting["games"] == games]
    if fitting.empty:
        games_word: dict[bool | None, str] = {True: "whole-games", False: "per-round"}
        kind = " ".join(filter(None, [game, games_word.get(games), "tournament"]))
        raise ResultsError(f"no {kind} results under {results}: run `cardsim tournament` first")
    return RunStore(fitting.iloc[0]["path"])


@dataclass(frozen=True)
class Picked:
    """The run (or league) a notebook reads, its game, and why it was picked, in one line."""

    path: Path
    game: str
    reason: str


def pick_run(
    results: str | os.PathLike[str],
    game: str,
    kind: str = "tournament",
    whole_games: bool | None = None,
    named: str | os.PathLike[str] | None = None,
) -> Picked:
    """The run a notebook reads: the folder ``named`` when one is (its own game then counts, whatever
    ``game`` says), else the largest finished ``kind`` ("tournament" or "league") of ``game`` under
    ``results``: the most results played (deals or games times seatings; a league's over all its
    pairings), the newest among equals. ``whole_games`` True or False keeps only runs that played
    whole games, or only runs that did not. ResultsError, in one line, when nothing fits."""
    if named:
        path = Path(named)
        row = _league_row(path) if kind == "league" else _run_row(path)
        if row["status"] != "done":
            raise ResultsError(f"{path} is not a finished {kind} ({row['status']})")
        return Picked(path, row["game"], f"Reading {path}: a {row['game']} {kind} of {row['size']}, as named.")
    runs = list_runs(results)
    fitting = runs[(runs["kind"] == kind) & (runs["status"] == "done") & (runs["game"] == game)]
    if whole_games is not None:
        fitting = fitting[fitting["games"] == whole_games]
    games_word = {True: "whole-games ", False: "per-round ", None: ""}[whole_games]
    described = f"{games_word}{game} {kind}"
    if fitting.empty:
        raise ResultsError(f"no finished {described} under {results}: play one first (README, 'Research')")
    played = [_results_played(Path(path), kind) for path in fitting["path"]]
    best = max(range(len(played)), key=lambda index: (played[index], -index))  # newest first among equals
    row = fitting.iloc[best]
    others = (
        f"the largest of the {len(fitting)} finished {described}s"
        if len(fitting) > 1
        else (f"the only finished {described}")
    )
    return Picked(
        Path(row["path"]),
        game,
        f"Reading {row['path']}: {row['size']} ({played[best]:,} results over its seatings), {others} under "
        f"{results}; with none named, the largest is read.",
    )


def _results_played(path: Path, kind: str) -> int:
    """How many results a finished run (league) holds: its deal (game) ids times its seatings, summed
    over a league's pairings."""
    plans = read_league(path).pairing_plans().values() if kind == "league" else [stored_plan(RunStore(path))]
    return sum(plan.rounds * len(plan.seatings(games.load(plan.game))) for plan in plans)
