"""The results store: one directory per run, every file written atomically and checked when read.

Layout of ``results/<run-id>/``::

    config.json                 the plan, its players spelled out (every setting), its deal and aggregates
                                versions, provenance (package version, git revision)
    chunks/NNNNNN.json          per-chunk aggregates; present means the chunk is finished
    chunks/NNNNNN.parquet       per-round (or per-game) rows of the chunk, unless rows are off
    aggregates.json             all chunks added up
    summary.csv, paired.csv     the summary tables
    *.png                       the plots
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import pandas as pd

from sim.files import UnreadableFile, atomic_write_bytes, read_bounded
from sim.numbers import shown

MAX_JSON_BYTES = 1 << 28  # aggregates of the largest runs are a few megabytes
# What config.json records besides the plan, because a run written under another version of either
# cannot be resumed: the game's seeded deal sequence, and the layout of the chunk aggregates.
VERSIONS = ("deal_version", "aggregates_version")
FIRST_VERSION = 1  # the version of runs whose config.json predates the key


class ResultsError(ValueError):
    """A results directory that is missing, corrupt, or belongs to another run."""


def provenance() -> dict[str, str]:
    """The package version and the git revision of the working tree (``unknown`` outside git)."""
    try:
        package_version = version("cardsim")
    except PackageNotFoundError:
        package_version = "unknown"
    try:
        revision = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        revision = "unknown"
    return {"cardsim_version": package_version, "git_revision": revision}


class RunStore:
    """Reads and writes one run directory."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.chunks = self.path / "chunks"

    def prepare(self, config: dict[str, Any]) -> None:
        """Create the directory for ``config``'s run, or check that it already holds the same run."""
        existing = self.path / "config.json"
        if existing.exists():
            stored = self.read_config()
            if stored.get("plan") != json.loads(json.dumps(config["plan"])):
                raise ResultsError(f"{self.path} holds a different run; choose another --out or delete it")
            # The same plan dealt another seeded sequence, or summed into other aggregates, is another
            # run: resuming would mix the two.
            for key in VERSIONS:
                was, now = stored.get(key, FIRST_VERSION), config[key]
                if was != now:
                    raise ResultsError(
                        f"{self.path} was written with {key.replace('_', ' ')} {was} and this cardsim "
                        f"writes version {now}; choose another --out or delete it"
                    )
            self._check_players(stored.get("resolved_players"), config)
            return
        self.write_json("config.json", config)

    def _check_players(self, stored: Any, config: dict[str, Any]) -> None:
        """ResultsError if the stored run's players, spelled out, are not the ones asked for now: a
        default changed since (the plan says ``heuristic`` either way)."""
        if stored is None:
            return  # written before runs recorded it
        now = config["resolved_players"]
        if not isinstance(stored, list) or len(stored) != len(now):
            raise ResultsError(f"{self.path / 'config.json'} is not a cardsim run configuration")
        for spec, was, resolved in zip(config["plan"]["players"], stored, now):
            if was != resolved:
                raise ResultsError(
                    f"{self.path} was played with {shown(spec)} as its settings were then (config.json's "
                    "resolved_players), and they have changed; choose another --out or delete it"
                )

    def read_config(self) -> dict[str, Any]:
        config = self._read_json(self.path / "config.json")
        if not isinstance(config, dict) or not isinstance(config.get("plan"), dict):
            raise ResultsError(f"{self.path / 'config.json'} is not a cardsim run configuration")
        return config

    def read_json(self, name: str) -> Any:
        """The JSON file ``name`` of the run directory, checked as every results file is."""
        return self._read_json(self.path / name)

    def _read_json(self, path: Path) -> Any:
        if not path.exists():
            raise ResultsError(f"{path} does not exist")
        try:
            return json.loads(read_bounded(path, MAX_JSON_BYTES, "results file").decode("utf-8"))
        except (UnreadableFile, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
            raise ResultsError(f"{path} is unreadable: {error}") from None

    def write_json(self, name: str, value: Any) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path / name, (json.dumps(value, indent=1, sort_keys=True) + "\n").encode())

    def write_table(self, name: str, table: pd.DataFrame) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path / name, table.to_csv(index=False).encode())

    def chunk_path(self, index: int, suffix: str) -> Path:
        return self.chunks / f"{index:06d}{suffix}"

    def write_chunk(self, index: int, aggregates: dict[str, Any], rows: pd.DataFrame | None) -> None:
        """Store a finished chunk: rows first, then the aggregates that mark it finished."""
        self.chunks.mkdir(parents=True, exist_ok=True)
        if rows is not None:
            buffer = rows.to_parquet(index=False)
            atomic_write_bytes(self.chunk_path(index, ".parquet"), buffer)
        atomic_write_bytes(self.chunk_path(index, ".json"), json.dumps(aggregates).encode())

    def finished_chunks(self) -> set[int]:
        """Indexes of the chunks whose aggregates are stored and readable."""
        finished = set()
        for path in self.chunks.glob("*.json") if self.chunks.exists() else ():
            if path.stem.isdigit():
                try:
                    json.loads(path.read_text())
                except (OSError, ValueError):
                    continue  # a damaged chunk is played again
                finished.add(int(path.stem))
        return finished

    def load_aggregates(self, indexes: Iterable[int]) -> list[dict[str, Any]]:
        return [self._read_json(self.chunk_path(index, ".json")) for index in indexes]

    def load_rows(self) -> pd.DataFrame:
        """Every stored per-round (or per-game) row, as one DataFrame."""
        files = sorted(self.chunks.glob("*.parquet"))
        if not files:
            raise ResultsError(f"{self.path} has no per-round rows (was it run with --no-rounds?)")
        return pd.concat([pd.read_parquet(path) for path in files], ignore_index=True)


RUN_COLUMNS = ("run", "kind", "game", "players", "size", "games", "date", "status", "path")


def list_runs(results: str | os.PathLike[str]) -> pd.DataFrame:
    """The tournament runs and leagues directly under ``results``, newest first: one row each with its
    folder name, kind, game, players, size, whether it played whole games, date (of its last write)
    and status ("done", or
    "partial" with the chunks or pairings played so far). Folders that are neither are left out."""
    rows = []
    folder = Path(results)
    for path in sorted(folder.iterdir()) if folder.is_dir() else ():
        row = _run_row(path) if (path / "config.json").is_file() else None
        row = _league_row(path) if row is None and (path / "league.json").is_file() else row
        if row is not None:
            rows.append(row)
    table = pd.DataFrame(rows, columns=list(RUN_COLUMNS))
    return table.sort_values("date", ascending=False, ignore_index=True)


def _size(rounds: int, games: bool) -> str:
    return f"{rounds:,} {'games' if games else 'deals'}"


def _modified(path: Path, names: Iterable[str]) -> pd.Timestamp:
    newest = max((path / name).stat().st_mtime for name in names if (path / name).exists())
    return pd.Timestamp(newest, unit="s").floor("s")


def _run_row(path: Path) -> dict[str, Any] | None:
    store = RunStore(path)
    try:
        plan = store.read_config()["plan"]
        chunks = -(-int(plan["rounds"]) // int(plan["chunk_size"]))
        game, players, size = plan["game"], ",".join(plan["players"]), _size(int(plan["rounds"]), bool(plan["games"]))
    except (ResultsError, KeyError, TypeError, ValueError, ZeroDivisionError):
        return None  # not a cardsim run
    played = len({index for index in store.finished_chunks() if index < chunks})
    done = played == chunks and (path / "summary.csv").exists()
    status = "done" if done else f"partial: {played} of {chunks} chunks"
    return {
        "run": path.name,
        "kind": "tournament",
        "game": game,
        "players": players,
        "size": size,
        "games": bool(plan["games"]),
        "date": _modified(path, ("config.json", "summary.csv")),
        "status": status,
        "path": path,
    }


def _league_row(path: Path) -> dict[str, Any] | None:
    try:
        league = RunStore(path).read_json("league.json")["league"]
        game, players = league["game"], list(league["players"])
        size = _size(int(league["rounds"]), bool(league["games"])) + " a pairing"
    except (ResultsError, KeyError, TypeError, ValueError):
        return None  # not a cardsim league
    pairings = len(players) * (len(players) - 1) // 2
    played = sum(1 for summary in path.glob("pairings/*/summary.csv"))
    status = "done" if (path / "ratings.csv").exists() else f"partial: {played} of {pairings} pairings"
    return {
        "run": path.name,
        "kind": "league",
        "game": game,
        "players": ",".join(players),
        "size": size,
        "games": bool(league["games"]),
        "date": _modified(path, ("league.json", "ratings.csv")),
        "status": status,
        "path": path,
    }


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
