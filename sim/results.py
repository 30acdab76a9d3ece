"""The results store: one directory per run, every file written atomically and checked when read.

Layout of ``results/<run-id>/``::

    config.json                 the plan, its players spelled out (every setting), its deal and aggregates
                                versions, provenance (package version, git revision)
    chunks/NNNNNN.json          per-chunk aggregates; present means the chunk is finished
    chunks/NNNNNN.parquet       per-round (or per-game) rows of the chunk, unless rows are off
    damaged/                    chunk files found damaged, moved aside before their chunks were played again
    aggregates.json             all chunks added up
    summary.csv, paired.csv     the summary tables
    *.png                       the plots

The store is the bottom of the pipeline: it reads and writes these files, checks that each is what a
results file may hold, and knows no plan, chunk or league; whether what it read is what a plan played
is for its callers to check (``sim.chunks.check_chunks``, ``sim.plans.stored_plan``), and the runs under
a folder are listed by ``sim.runs``.
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import subprocess
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.files import UnreadableFile, atomic_write_bytes, read_bounded
from sim.numbers import NumberError, json_int, shown

if TYPE_CHECKING:
    import pandas as pd

MAX_CONFIG_BYTES = 1 << 20  # config.json and league.json: a plan and its provenance
MAX_CHUNK_JSON_BYTES = 1 << 22  # one chunk's aggregates: a few kilobytes of counts and histograms
MAX_TABLE_BYTES = 1 << 26  # a summary or paired table: a few lines a strategy
MAX_ROWS_FILE_BYTES = 1 << 32  # any chunk's Parquet rows, when the plan that bounds them is not at hand
# A chunk's file name is its index in six ASCII digits (str.isdigit would take "²³" for 23), so a
# run holds at most a million chunks.
CHUNK_NAME = re.compile(r"([0-9]{6})\.(json|parquet)")
MAX_CHUNKS = 1_000_000
# The most bytes a chunk's Parquet file may take for its rows: uncompressed, a row's columns take
# under 32 bytes; the overhead is Parquet's footer and the pandas schema.
ROWS_FILE_BYTES_PER_ROW = 64
ROWS_FILE_OVERHEAD = 1 << 20
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
        config = self._read_json(self.path / "config.json", MAX_CONFIG_BYTES)
        if not isinstance(config, dict) or not isinstance(config.get("plan"), dict):
            raise ResultsError(f"{self.path / 'config.json'} is not a cardsim run configuration")
        return config

    def read_json(self, name: str) -> Any:
        """The JSON file ``name`` of the folder (league.json), checked as every results file is."""
        return self._read_json(self.path / name, MAX_CONFIG_BYTES)

    def _read_json(self, path: Path, limit: int) -> Any:
        """The JSON value of the regular file ``path`` of at most ``limit`` bytes, whose integers fit
        64 bits and which spells no NaN or Infinity; ResultsError in one line if not."""
        if not path.exists() and not path.is_symlink():
            raise ResultsError(f"{path} does not exist")
        try:
            text = read_bounded(path, limit, "results file").decode("utf-8")
            return json.loads(text, parse_int=json_int, parse_constant=_refuse_constant)
        except (UnreadableFile, UnicodeDecodeError, NumberError, json.JSONDecodeError, RecursionError) as error:
            raise ResultsError(f"{path} is unreadable: {error}") from None

    def read_table(self, name: str) -> pd.DataFrame:
        """The CSV table ``name`` of the run directory (a regular file under ``MAX_TABLE_BYTES``)."""
        import pandas as pd  # here, not at the top: commands that read no table start without it

        path = self.path / name
        try:
            return pd.read_csv(io.BytesIO(read_bounded(path, MAX_TABLE_BYTES, "results table")))
        except (UnreadableFile, ValueError) as error:  # pandas' parser errors are ValueErrors
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
        """Indexes of the chunks whose aggregates file is present, whatever it holds (whether a chunk
        is sound is for its plan to say: ``sim.chunks.check_chunks``). Other names are not chunks."""
        try:
            names = os.listdir(self.chunks)
        except (FileNotFoundError, NotADirectoryError):
            return set()
        found = (CHUNK_NAME.fullmatch(name) for name in names)
        return {int(match[1]) for match in found if match and match[2] == "json"}

    def read_aggregates(self, index: int) -> dict[str, Any]:
        """Chunk ``index``'s aggregates as stored: a JSON object (its counts unchecked)."""
        path = self.chunk_path(index, ".json")
        aggregates = self._read_json(path, MAX_CHUNK_JSON_BYTES)
        if not isinstance(aggregates, dict):
            raise ResultsError(f"{path} is not a chunk's aggregates: it holds no JSON object")
        return aggregates

    def load_aggregates(self, indexes: Iterable[int]) -> list[dict[str, Any]]:
        return [self.read_aggregates(index) for index in indexes]

    def rows_problem(self, index: int, limit: int) -> str | None:
        """What keeps chunk ``index``'s Parquet file from being its rows, seen without reading it:
        missing, not a regular file, or over ``limit`` bytes; None if it may be."""
        try:
            status = os.stat(self.chunk_path(index, ".parquet"))
        except OSError as error:
            return error.strerror or str(error)
        if not stat.S_ISREG(status.st_mode):
            return "it is not a regular file"
        return "it is larger than the chunk's rows can be" if status.st_size > limit else None

    def read_rows(self, index: int, limit: int = MAX_ROWS_FILE_BYTES) -> pd.DataFrame:
        """Chunk ``index``'s per-round (or per-game) rows, read whole from a regular file of at most
        ``limit`` bytes and handed to pyarrow from memory (so pyarrow never opens a pipe or a device).
        Read on this thread: pyarrow's thread pools, once started, can abort the process as it exits
        ("terminate called without an active exception", apache/arrow#34314), and a chunk's rows
        are small."""
        import pyarrow as pa  # here, not at the top: commands that read no rows start without it
        import pyarrow.parquet as pq

        path = self.chunk_path(index, ".parquet")
        try:
            stored = pq.ParquetFile(pa.BufferReader(read_bounded(path, limit, "chunk's rows")))
            return stored.read(use_threads=False).to_pandas(use_threads=False)
        except (UnreadableFile, ValueError, pa.ArrowException) as error:
            raise ResultsError(f"{path} is unreadable: {error}") from None

    def load_rows(self) -> pd.DataFrame:
        """The per-round (or per-game) rows of every finished chunk, as one DataFrame."""
        import pandas as pd

        indexes = sorted(self.finished_chunks() & self._chunks_with_rows())
        if not indexes:
            raise ResultsError(f"{self.path} has no per-round rows (was it run with --no-rounds?)")
        return pd.concat([self.read_rows(index) for index in indexes], ignore_index=True)

    def _chunks_with_rows(self) -> set[int]:
        found = (CHUNK_NAME.fullmatch(path.name) for path in self.chunks.glob("*.parquet"))
        return {int(match[1]) for match in found if match}

    def set_aside(self, index: int) -> Path:
        """Move chunk ``index``'s files into ``damaged/`` (aggregates first: from that moment the chunk
        is not finished, so its rows can never be read with another chunk's), and return that folder."""
        folder = self.path / "damaged"
        folder.mkdir(exist_ok=True)
        for suffix in (".json", ".parquet"):
            source = self.chunk_path(index, suffix)
            if source.exists() or source.is_symlink():
                os.replace(source, _free_name(folder, source.name))
        return folder


def rows_file_limit(rows: int) -> int:
    """The most bytes a chunk's Parquet file of ``rows`` rows may take."""
    return ROWS_FILE_OVERHEAD + ROWS_FILE_BYTES_PER_ROW * rows


def _refuse_constant(name: str) -> None:
    """``json.loads(..., parse_constant=)``: NaN and Infinity are no count or sum cardsim writes."""
    raise NumberError(f"{name} is not a number a results file holds")


def _free_name(folder: Path, name: str) -> Path:
    """``folder / name``, or with a number after it if that is taken: a file set aside twice keeps both."""
    path, copy = folder / name, 0
    while path.exists() or path.is_symlink():
        copy += 1
        path = folder / f"{name}.{copy}"
    return path
