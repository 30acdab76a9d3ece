"""Tournaments: a plan's chunks played by joblib (or Dask) workers, stored as they finish, summed into
a run's tables, plots and report.

Results depend on the plan alone (``sim.plans``): deal ``i`` is the same whatever the chunking, the
number of workers or the order chunks finish, and every strategy is seeded per round. A run folder
keeps each finished chunk (``sim.chunks``), so running the same plan again resumes it.
"""

from __future__ import annotations

import importlib
import importlib.util
import shlex
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

import strategies as strategy_registry
from sim import games, page, plots, report
from sim.chunks import AGGREGATES_VERSION, ChunkResult, check_chunks, play_chunk
from sim.console import progress_bar, say_error
from sim.plans import Plan, PlanError
from sim.results import ResultsError, RunStore
from sim.workers import keep_temporaries_on_the_heap, local_workers, stopping_early_quietly


@dataclass
class RunResult:
    plan: Plan
    store: RunStore
    summary: pd.DataFrame
    paired: pd.DataFrame
    timing: pd.DataFrame
    report: Path | None = None  # report.html, once the run is finished


def play_chunks(plan: Plan, todo: Iterable[int], jobs: int, backend: str = "loky") -> Iterator[ChunkResult]:
    """The chunks ``todo`` of ``plan`` played over ``jobs`` workers, as they finish (in any order); on
    this process when one worker is asked for, or when one chunk is left to play on this machine, which
    would wait for a pool of workers to start (longer than a small chunk takes) to use one of them."""
    todo = list(todo)
    # Refused before anything is played, however few chunks are left: a plan and its --jobs run alike.
    modules = registering_modules(plan) if jobs != 1 or backend != "loky" else []
    if backend == "loky" and (jobs == 1 or len(todo) <= 1):
        for index in todo:
            yield play_chunk(plan, index)
        return
    from joblib import Parallel, delayed, parallel_config

    # Dask's workers belong to the cluster: they are not ours to stop or to shield from Ctrl-C.
    workers = local_workers(jobs) if backend == "loky" else parallel_config(backend=backend, n_jobs=jobs)
    # A run stopped early (Ctrl-C) leaves chunks finished or under way but not stored; joblib warns
    # of them. They are not lost results: resuming plays them again, as the interrupted line says.
    with workers, stopping_early_quietly():
        parallel = Parallel(return_as="generator_unordered")
        results = parallel(delayed(play_chunk_importing)(plan, index, modules) for index in todo)
        yield from results


def registering_modules(plan: Plan) -> list[str]:
    """The modules whose import registers the plan's strategies, for worker processes to import.

    Workers look strategies up by name, so a strategy registered by a researcher's own module (not an
    entry point) needs that module imported there too. One defined in a script or notebook cannot be
    imported at all: PlanError says to run it with --jobs 1 or move it to a module.
    """
    modules = set()
    for spec in plan.strategy_names:
        factory = strategy_registry.info(plan.game, strategy_registry.parse_spec(spec)[0]).factory
        module = getattr(factory, "__module__", None)
        if module in (None, "__main__", "builtins") or importlib.util.find_spec(module) is None:
            raise PlanError(
                f"{spec} is defined in this script or notebook, which worker processes cannot import: "
                "run with --jobs 1, or register it from a module (README, 'Writing a strategy')"
            )
        modules.add(module)
    return sorted(modules)


def play_chunk_importing(plan: Plan, index: int, modules: list[str]) -> ChunkResult:
    """``play_chunk`` in a worker process, after importing the modules that register the plan's strategies
    (and undoing an allocator setting that slows fast engines down, ``keep_temporaries_on_the_heap``)."""
    keep_temporaries_on_the_heap()
    for module in modules:
        importlib.import_module(module)
    return play_chunk(plan, index)


def run(
    plan: Plan,
    store: RunStore,
    jobs: int = 1,
    backend: str = "loky",
    progress: bool = True,
    label: str = "",
) -> RunResult:
    """Play every chunk not already stored, then write the summary, paired table and plots.

    Chunks are stored as they finish, so an interrupted run (Ctrl-C, a killed process) resumes
    from where it stopped when run again with the same plan. A stored chunk found damaged is said
    in one line on stderr, moved into the run's ``damaged/`` folder and played again. ``label``
    names the progress bar (default: the game and engine).
    """
    game = plan.validate()
    store.prepare(plan_config(plan))
    stored = check_chunks(plan, store)
    for damage in stored.damaged:
        say_error("cardsim", f"{damage.message}; moved into {store.set_aside(damage.index)}/ and played again")
    finished = stored.sound
    # Lazily: a plan of a million chunks need not list them, and joblib takes them as workers free up.
    todo = (index for index in range(plan.num_chunks) if index not in finished)
    per_deal = len(plan.seatings(game))  # rounds (or games) played per deal id
    unit = "game" if plan.games else "round"
    done = sum(plan.chunk_span(i)[1] - plan.chunk_span(i)[0] for i in finished) * per_deal
    label = label or f"{plan.game} {plan.engine}"
    # Until a chunk is stored the count stands still: say what is under way (workers starting, and on
    # a first run the engines compiling, dominate a small run's wait).
    left = plan.num_chunks - len(finished)
    waiting = ""
    if left:
        starting = ", workers starting" if jobs != 1 or backend != "loky" else ""
        waiting = f"{left:,} chunks to play{starting}; a first run compiles the engines first, a minute or so"
    with progress_bar(plan.rounds * per_deal, unit, label, progress, initial=done, waiting=waiting) as bar:
        for chunk in play_chunks(plan, todo, jobs, backend):
            store.write_chunk(chunk.index, chunk.aggregates, chunk.rows)
            bar.update(chunk.deals * per_deal)
    return finish(plan, store)


def finish(plan: Plan, store: RunStore) -> RunResult:
    """Summarise a run whose chunks are all stored and sound (``check_chunks``), writing summary.csv,
    paired.csv, timing.csv, the plots and report.html."""
    shape = plan.shape()
    summary, paired, timing, merged = report.tables(shape, store.load_aggregates(range(plan.num_chunks)))
    store.write_table("summary.csv", summary)
    if plan.duplicate or len(plan.strategy_names) > 1:
        store.write_table("paired.csv", paired)
    store.write_table("timing.csv", timing)
    store.write_json("aggregates.json", merged)
    plots.draw_plots(store.path, shape, summary, paired, report.histograms(merged))
    written = store.read_config()
    made = [
        (
            "written by",
            f"cardsim {str(written.get('cardsim_version', 'unknown'))[:80]}, "
            f"git revision {str(written.get('git_revision', 'unknown'))[:80]}",
        )
    ]
    report_file = page.write_run_report(
        store.path, shape, command(plan, store.path), settings(plan) + made, summary, paired, timing
    )
    return RunResult(plan, store, summary, paired, timing, report_file)


def interim(plan: Plan, store: RunStore, sound: Iterable[int]) -> tuple[RunResult, int]:
    """The tables of an unfinished run from its ``sound`` chunks (``check_chunks``; nothing written),
    and how many deals (or games) ids they hold; ``ResultsError`` if there are none yet."""
    stored = sorted(sound)
    if not stored:
        raise ResultsError(f"{store.path} has no finished chunk yet: the first is still being played")
    summary, paired, timing, _ = report.tables(plan.shape(), store.load_aggregates(stored))
    played = sum(stop - start for start, stop in map(plan.chunk_span, stored))
    return RunResult(plan, store, summary, paired, timing), played


def command(plan: Plan, folder: Path) -> str:
    """A ``cardsim tournament`` command that plays ``plan`` into ``folder``: run, it shows the run
    (or resumes it); every setting that decides the results is spelled out. A league's pairing (its
    seatings are the league's) is played by its league's command instead, which this says."""
    if plan.seat_plan:
        return f"# a pairing of the league in {folder.parent.parent}: its command (in its report.html) plays it"
    words = ["cardsim", "tournament", "--game", plan.game, "--players", ",".join(plan.players)]
    words += ["--rounds", str(plan.rounds), "--seed", str(plan.seed)]
    words += ["--duplicate"] * plan.duplicate + ["--games"] * plan.games + ["--engine", plan.engine]
    default_chunks = Plan(plan.game, plan.players, plan.rounds, games=plan.games, engine=plan.engine).chunk_size
    if plan.chunk_size != default_chunks:
        words += ["--chunk-size", str(plan.chunk_size)]
    words += ["--no-rounds"] * (not plan.keep_rounds) + ["--out", str(folder)]
    return shlex.join(words)


def settings(plan: Plan) -> list[tuple[str, str]]:
    """The plan's settings in words, one line each, as a report lists them."""
    game = games.load(plan.game)
    unit = "games" if plan.games else "deals"
    seatings = plan.seatings(game)
    arrangement = " · ".join(" ".join(plan.players[player] for player in seats) for seats in seatings)
    return [
        ("game", plan.game),
        ("lineup", ", ".join(plan.players)),
        ("strategies spelled out", "; ".join(dict.fromkeys(plan.resolved_players))),
        (unit, f"{plan.rounds:,}" + (" (whole games, to the game's target score)" if plan.games else "")),
        ("seed", str(plan.seed)),
        (
            "seatings",
            f"{len(seatings)}, every {unit[:-1]} in each: {arrangement}"
            if len(seatings) > 1
            else f"fixed: {arrangement}",
        ),
        ("engine", plan.engine),
        ("chunks", chunks_line(plan, unit)),
        ("per-round rows", "kept under chunks/" if plan.keep_rounds else "not kept (--no-rounds)"),
        ("run id", plan.run_id),
    ]


def chunks_line(plan: Plan, unit: str) -> str:
    """How a plan is split, in words: "16, each of 4,096 deals" ("but the last, of 1,000" when short)."""
    last = plan.rounds - (plan.num_chunks - 1) * plan.chunk_size
    if plan.num_chunks == 1:
        return f"1, of {last:,} {unit}"
    short = f" but the last, of {last:,}" if last != plan.chunk_size else ""
    return f"{plan.num_chunks:,}, each of {plan.chunk_size:,} {unit}{short}"


def plan_config(plan: Plan) -> dict[str, Any]:
    """config.json: the plan, the version of the game's seeded deals, and provenance (package
    version, git revision)."""
    from sim.results import provenance

    deal_version = games.load(plan.game).deal_version
    return {
        "plan": asdict(plan),
        "run_id": plan.run_id,
        "resolved_players": plan.resolved_players,
        "deal_version": deal_version,
        "aggregates_version": AGGREGATES_VERSION,
        **provenance(),
    }
