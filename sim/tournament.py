"""Tournaments: a plan split into fixed chunks of deals, played by joblib workers, summed into results.

A ``Plan`` is everything that decides the results (game, lineup, deals, seed, modes, engine); its
hash names the run directory, so running the same command again resumes it. Deal ``i`` is the
same whatever the chunking, the number of workers or the order chunks finish, and every strategy
is seeded per round, so results depend on the plan alone.

Each chunk yields per-strategy aggregates (sums and squared sums, histograms, paired-difference
moments): adding them up across chunks gives the exact summary without keeping per-round rows,
which are an optional extra (``keep_rounds``) for notebooks.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import math
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import strategies as strategy_registry
from sim import games, page, plots, report, seating
from sim.console import progress_bar, say_error
from sim.dealing import MAX_SEED
from sim.games import Game
from sim.numbers import clipped
from sim.results import MAX_CHUNKS, ResultsError, RunStore, rows_file_limit
from sim.timing import TimedStrategy
from sim.workers import keep_temporaries_on_the_heap, local_workers, stopping_early_quietly

# A chunk is at most this many deals: on a fast engine a chunk is a few batches, so bigger chunks
# amortize a batch's steps whose few hands are still going (Gin Rummy: 37k hands/s a core in chunks
# of 8192, 70k in 32768); on the reference engine, it keeps progress and resuming fine-grained.
MAX_CHUNK_DEALS = {"fast": 32_768, "reference": 8192}
MAX_CHUNK_GAMES = {"fast": 8192, "reference": 1024}
MIN_CHUNK = 64
TARGET_CHUNKS = 32
MAX_ROUNDS = 10**15  # years of play at millions of deals a second


class PlanError(ValueError):
    """A tournament plan that cannot run (unknown game, strategy, engine or bad size)."""


@dataclass(frozen=True)
class Field:
    """What one setting of a plan (or of a run) must be: in words for people, and as a test."""

    must_be: str
    fits: Callable[[Any], bool]


def whole_field(low: int, high: int) -> Field:
    """A setting that is a whole number from ``low`` to ``high`` (not a float, not true or false)."""
    return Field(f"a whole number from {low:,} to {high:,}", lambda value: type(value) is int and low <= value <= high)


TEXT = Field("text", lambda value: isinstance(value, str))
FLAG = Field("true or false", lambda value: isinstance(value, bool))
PLAYER_NUMBER = whole_field(0, MAX_ROUNDS)  # an index into a plan's players, checked against them later


def _is_list_of(value: Any, kind: Callable[[Any], bool]) -> bool:
    return isinstance(value, (list, tuple)) and all(kind(item) for item in value)


# Every field of a Plan as a person or a file may give it (config.json, an experiment's TOML).
PLAN_FIELDS = {
    "game": TEXT,
    "players": Field("a list of strategy specs", lambda value: _is_list_of(value, TEXT.fits) and len(value) > 0),
    "rounds": whole_field(1, MAX_ROUNDS),
    "seed": whole_field(0, MAX_SEED),
    "duplicate": FLAG,
    "games": FLAG,
    "engine": TEXT,
    "keep_rounds": FLAG,
    "chunk_size": whole_field(1, MAX_ROUNDS),
    "seat_plan": Field(
        "a list of seatings, each a list of player numbers",
        lambda value: _is_list_of(value, lambda seats: _is_list_of(seats, PLAYER_NUMBER.fits)),
    ),
}
REQUIRED_FIELDS = ("game", "players", "rounds")


def checked_settings(settings: Mapping[str, Any], fields: Mapping[str, Field], where: str) -> dict[str, Any]:
    """``settings`` once every key is one of ``fields`` and every value fits its field; PlanError in
    one line naming ``where`` (the file), the setting and what it must be, if not."""
    unknown = sorted(set(settings) - set(fields))
    if unknown:
        raise PlanError(f"{where}: unknown settings {clipped(', '.join(unknown))}")
    for key, value in settings.items():
        if not fields[key].fits(value):
            raise PlanError(
                f"{where}: {key} must be {fields[key].must_be}, not {clipped(json.dumps(value, default=str))}"
            )
    return dict(settings)


@dataclass(frozen=True)
class Plan:
    """What a tournament plays; equal plans give identical results."""

    game: str
    players: tuple[str, ...]
    rounds: int
    seed: int = 0
    duplicate: bool = False
    games: bool = False
    engine: str = ""  # "": the game's fastest engine (games.default_engine)
    keep_rounds: bool = True
    chunk_size: int = 0  # 0: chosen from the size of the run
    # Seatings of the players' own (a league's lineups): per seating, the index into ``players`` of
    # each seat's player. Empty: the game's duplicate seatings (with ``duplicate``) or player i in seat i.
    seat_plan: tuple[seating.Seating, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "seat_plan", tuple(tuple(seats) for seats in self.seat_plan))
        if not self.engine and self.game in games.names():
            object.__setattr__(self, "engine", games.default_engine(games.load(self.game), self.games))
        if self.chunk_size == 0:
            most = (MAX_CHUNK_GAMES if self.games else MAX_CHUNK_DEALS).get(self.engine, MIN_CHUNK)
            chosen = min(most, max(MIN_CHUNK, math.ceil(self.rounds / TARGET_CHUNKS)))
            # Runs too large for a run folder's chunks get larger chunks, which are played in slices.
            object.__setattr__(self, "chunk_size", max(chosen, math.ceil(self.rounds / MAX_CHUNKS)))

    def validate(self) -> Game:
        """The plan's game, after checking that everything the plan names exists."""
        game = self.check_shape()
        for spec in self.players:
            strategy_registry.get_fair(self.game, spec, "tournaments")
        return game

    def check_shape(self) -> Game:
        """The plan's game, after checking its sizes, seatings and engine (but not its strategies, which
        a run's files can be read without): PlanError in one line, before anything is allocated."""
        game = games.load(self.game)
        if self.rounds < 1 or self.chunk_size < 1:
            raise PlanError("the number of rounds and the chunk size must be positive")
        if self.num_chunks > MAX_CHUNKS:
            raise PlanError(
                f"{self.rounds:,} {'games' if self.games else 'deals'} in chunks of {self.chunk_size:,} make "
                f"{self.num_chunks:,} chunks, more than a run holds ({MAX_CHUNKS:,}): choose a chunk size of "
                f"at least {math.ceil(self.rounds / MAX_CHUNKS):,}"
            )
        if self.seat_plan:
            everyone = set(range(len(self.players)))
            if any(len(seats) != game.num_seats or not set(seats) <= everyone for seats in self.seat_plan):
                raise PlanError(f"every seating must seat {game.num_seats} of the {len(self.players)} players")
            if set().union(*self.seat_plan) != everyone:
                raise PlanError("every player must sit in some seating")
        elif len(self.players) != game.num_seats:
            raise PlanError(f"{self.game} needs {game.num_seats} players, got {len(self.players)}")
        engines = game.play_games if self.games else game.play_rounds
        if self.engine not in engines:
            raise PlanError(f"{self.game} has no {self.engine!r} engine (available: {', '.join(sorted(engines))})")
        return game

    @property
    def resolved_players(self) -> list[str]:
        """Each player's spec spelled out (``strategies.resolved``): its settings, defaults included."""
        return [strategy_registry.resolved(self.game, spec) for spec in self.players]

    @property
    def run_id(self) -> str:
        described: dict[str, Any] = asdict(self)
        if not self.seat_plan:
            del described["seat_plan"]  # a plan without seatings of its own hashes as before the field
        return f"{self.game}-{lineup_digest(self.game, self.players, described)}"

    @property
    def num_chunks(self) -> int:
        return math.ceil(self.rounds / self.chunk_size)

    def chunk_span(self, index: int) -> tuple[int, int]:
        """The deal (or game) ids ``[start, stop)`` of chunk ``index``."""
        start = index * self.chunk_size
        return start, min(start + self.chunk_size, self.rounds)

    def seatings(self, game: Game) -> tuple[seating.Seating, ...]:
        if self.seat_plan:
            return self.seat_plan
        return game.duplicate_seatings if self.duplicate else seating.fixed(game.num_seats)

    @property
    def strategy_names(self) -> list[str]:
        """The distinct strategies of the lineup, in lineup order."""
        return list(dict.fromkeys(self.players))

    def shape(self, game: Game | None = None) -> plots.RunShape:
        """What the plan plays, as reports and plots name it (they take no plan)."""
        game = games.load(self.game) if game is None else game
        return plots.RunShape(
            game,
            self.players,
            self.rounds,
            self.seatings(game),
            whole_games=self.games,
            engine=self.engine,
            seed=self.seed,
            duplicate=self.duplicate,
        )


def lineup_digest(game: str, players: Iterable[str], described: dict[str, Any]) -> str:
    """A short hash of ``described`` (a plan or a league) and of its players spelled out: a strategy
    whose defaults changed since plays another run, which must not resume this one."""
    resolved = [strategy_registry.resolved(game, spec) for spec in players]
    text = json.dumps({**described, "resolved_players": resolved}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


@dataclass
class ChunkResult:
    index: int
    deals: int
    aggregates: dict[str, Any]
    rows: pd.DataFrame | None = field(default=None)


def play_slice(
    plan: Plan, game: Game, built: dict[str, Any], seatings: Iterable[seating.Seating], ids: np.ndarray
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """The deals (or games) ``ids`` played under every seating: points (seatings, B, seats), and for
    whole games rounds (seatings, B) and winners (seatings, B, seats)."""
    seating_points: list[np.ndarray] = []
    seating_rounds: list[np.ndarray] = []
    seating_winners: list[np.ndarray] = []
    if plan.games:
        deal_source = games.game_deal_source(game, plan.seed)
        for seats in seatings:
            played = game.play_games[plan.engine](ids, deal_source, [built[plan.players[p]] for p in seats])
            seating_points.append(played.scores)
            seating_rounds.append(played.rounds)
            seating_winners.append(played.winners)
    else:
        deals = game.deals(plan.seed, int(ids[0]), len(ids))
        for seats in seatings:
            dealt = game.play_rounds[plan.engine](deals, [built[plan.players[p]] for p in seats], ids)
            seating_points.append(dealt.points)
    rounds = np.stack(seating_rounds) if plan.games else None
    winners = np.stack(seating_winners) if plan.games else None
    return np.stack(seating_points), rounds, winners


def joined(parts: list[np.ndarray | None]) -> np.ndarray | None:
    """Slices' arrays (seatings, B, ...) joined along B; None for what slices do not have."""
    present = [part for part in parts if part is not None]
    return np.concatenate(present, axis=1) if present else None


def play_chunk(plan: Plan, index: int) -> ChunkResult:
    """Play chunk ``index`` of the plan under every seating and summarise it.

    A chunk is played in slices of at most the engine's largest batch (``MAX_CHUNK_DEALS`` or
    ``MAX_CHUNK_GAMES``), so a large chunk (a cluster's, sized to spare its scheduler) needs no more
    memory than a small one; deals and seeded decisions depend on deal ids alone, so the results
    are the same however a chunk is sliced."""
    game = plan.validate()
    start, stop = plan.chunk_span(index)
    ids = np.arange(start, stop, dtype=np.int64)
    built = {spec: TimedStrategy(strategy_registry.get(plan.game, spec)) for spec in plan.strategy_names}
    seatings = plan.seatings(game)
    most = (MAX_CHUNK_GAMES if plan.games else MAX_CHUNK_DEALS).get(plan.engine, MIN_CHUNK)
    slices = [play_slice(plan, game, built, seatings, ids[first : first + most]) for first in range(0, len(ids), most)]
    points, rounds, winners = (joined([played[part] for played in slices]) for part in range(3))
    assert points is not None  # every slice has points
    aggregates = summarize_chunk(plan, game, points, rounds, winners)
    aggregates["timing"] = {spec: strategy.aggregates() for spec, strategy in built.items()}
    rows = chunk_rows(plan, seatings, ids, points, rounds, winners) if plan.keep_rounds else None
    return ChunkResult(index, stop - start, aggregates, rows)


def _counted_seats(plan: Plan, game: Game, seatings) -> dict[str, np.ndarray]:
    """Per strategy, a bool (seatings, seats) mask of the seats whose results count: in each seating,
    the first seat it holds in each team it sits in.

    Partners share their team's points, so counting both would count one outcome twice and make
    every interval too narrow. A strategy on both teams counts once for each: the teams' results differ.
    """
    lineup = np.array([[plan.players[p] for p in seats] for seats in seatings])
    teams = np.array(game.teams)
    seat_numbers = np.arange(game.num_seats)
    # earlier_partner[s, t]: seat t is an earlier seat of seat s's team.
    earlier_partner = (teams[:, None] == teams[None, :]) & (seat_numbers[None, :] < seat_numbers[:, None])
    counted = {}
    for name in plan.strategy_names:
        sits = lineup == name
        partner_counted = (sits[:, None, :] & earlier_partner[None, :, :]).any(axis=2)
        counted[name] = sits & ~partner_counted
    return counted


def _moments(values: np.ndarray) -> dict[str, float]:
    values = np.asarray(values, dtype=np.float64)
    return {"n": int(values.size), "sum": float(values.sum()), "sum_sq": float((values * values).sum())}


LOSS, DRAW, WIN = 0, 1, 2  # a seat's outcome of a whole game
# Two per-deal means closer than this are equal: they are sums of the same integers in another order.
TIE_TOLERANCE = 1e-9
AGGREGATES_VERSION = 3  # 1: "wins" counted shared wins; 2: wins, draws and losses apart; 3: per-deal
# wins, draws and losses of each pair, "best" for "fewest", decision timing


def game_outcomes(winners: np.ndarray, teams: tuple[int, ...]) -> np.ndarray:
    """Each seat's outcome (LOSS, DRAW or WIN) from the winners mask (..., seats): a seat wins when its
    team alone won, draws when its team shares the win with another team, and loses otherwise."""
    team_of_seat = np.array(teams)
    team_won = np.stack([winners[..., team_of_seat == team].any(axis=-1) for team in sorted(set(teams))], axis=-1)
    shared = team_won.sum(axis=-1, keepdims=True) > 1
    return np.where(winners, np.where(shared, DRAW, WIN), LOSS).astype(np.int8)


def summarize_chunk(plan: Plan, game: Game, points, rounds, winners) -> dict[str, Any]:
    """Additive aggregates of one chunk: everything the summary and the plots need.

    A strategy's counts (``n``, ``games``, ``wins``, ``draws``, ``losses``, ``best``, the histogram)
    hold one value per deal (or game), seating and team it sits in: partners count once. A pair's
    ``wins``, ``draws`` and ``losses`` count deals (or game ids), all seatings of one taken together,
    from the first strategy's side.
    """
    seatings = plan.seatings(game)
    masks = _counted_seats(plan, game, seatings)
    best = points.min(axis=2, keepdims=True) if game.lower_is_better else points.max(axis=2, keepdims=True)
    at_best = points == best
    # In game mode a strategy's per-game value is its points per round, comparable with round mode.
    values = points / rounds[:, :, None] if plan.games else points
    outcomes = game_outcomes(winners, game.teams) if plan.games else None
    # What decides a deal between two strategies: their game scores (a win 1, a draw ½) in game
    # mode, their points otherwise; signed so that more is better.
    merit = outcomes / 2.0 if outcomes is not None else (-values if game.lower_is_better else values)
    per_deal, merit_per_deal = {}, {}
    aggregates: dict[str, Any] = {"strategies": {}, "pairs": {}}
    for name, mask in masks.items():
        counted = np.broadcast_to(mask[:, None, :], values.shape)
        entry = _moments(values[counted])
        entry["best"] = int(at_best[counted].sum())
        entry["histogram"] = np.bincount(points[counted].astype(np.int64)).tolist()
        if outcomes is not None:  # plan.games
            entry["games"] = entry["n"]
            entry["wins"] = int((outcomes == WIN)[counted].sum())
            entry["draws"] = int((outcomes == DRAW)[counted].sum())
            entry["losses"] = int((outcomes == LOSS)[counted].sum())
            entry["game_rounds"] = int((rounds[:, :, None] * mask[:, None, :]).sum())
        aggregates["strategies"][name] = entry
        # The strategy's mean over its counted seats in every seating, deal by deal.
        per_deal[name] = (values * mask[:, None, :]).sum(axis=(0, 2)) / mask.sum()
        merit_per_deal[name] = (merit * mask[:, None, :]).sum(axis=(0, 2)) / mask.sum()
    for a, b in combinations(plan.strategy_names, 2):
        margin = merit_per_deal[a] - merit_per_deal[b]
        decided = np.abs(margin) > TIE_TOLERANCE
        aggregates["pairs"][f"{a}\t{b}"] = {
            "diff": _moments(per_deal[a] - per_deal[b]),
            "a": _moments(per_deal[a]),
            "b": _moments(per_deal[b]),
            "wins": int((decided & (margin > 0)).sum()),
            "draws": int((~decided).sum()),
            "losses": int((decided & (margin < 0)).sum()),
        }
    return aggregates


def chunk_rows(plan: Plan, seatings, ids, points, rounds, winners) -> pd.DataFrame:
    """One row per deal (or game), seating and seat; ``team`` is the seat's team (partners share points,
    so count one row per team for a strategy's results, as the summary does)."""
    num_seatings, count, num_seats = points.shape
    seating_index = np.repeat(np.arange(num_seatings), count * num_seats)
    seat = np.tile(np.arange(num_seats), num_seatings * count)
    lineup = np.array(seatings)[seating_index, seat]
    player_codes = np.array([plan.strategy_names.index(player) for player in plan.players])
    columns = {
        "game" if plan.games else "deal": np.tile(np.repeat(ids, num_seats), num_seatings),
        "seating": seating_index.astype(np.int16),
        "seat": seat.astype(np.int8),
        "team": np.array(games.load(plan.game).teams, dtype=np.int8)[seat],
        # From codes: naming each row's strategy by its text would take most of the time spent here.
        "strategy": pd.Categorical.from_codes(player_codes[lineup], categories=plan.strategy_names),
        "points": points.reshape(-1).astype(np.int32),
    }
    if plan.games:
        columns["rounds"] = np.repeat(rounds.reshape(-1), num_seats).astype(np.int32)
        columns["winner"] = winners.reshape(-1)
    return pd.DataFrame(columns)


@dataclass
class RunResult:
    plan: Plan
    store: RunStore
    summary: pd.DataFrame
    paired: pd.DataFrame
    timing: pd.DataFrame
    report: Path | None = None  # report.html, once the run is finished


def play_chunks(plan: Plan, todo: Iterable[int], jobs: int, backend: str = "loky") -> Iterator[ChunkResult]:
    """The chunks ``todo`` of ``plan`` played over ``jobs`` workers, as they finish (in any order)."""
    if jobs == 1 and backend == "loky":
        for index in todo:
            yield play_chunk(plan, index)
        return
    from joblib import Parallel, delayed, parallel_config

    modules = registering_modules(plan)
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


# --------------------------------------------------------------------------- a run's stored chunks


@dataclass(frozen=True)
class Damage:
    """A stored chunk that is not sound: its index, the file at fault, and a line that names the file
    and says what is wrong with it."""

    index: int
    path: Path
    message: str


@dataclass(frozen=True)
class StoredChunks:
    """What a run folder holds of its plan's chunks: the sound ones, and the damaged ones in order."""

    sound: set[int]
    damaged: list[Damage]


def check_chunks(plan: Plan, store: RunStore, rows: bool = True) -> StoredChunks:
    """The chunks of ``plan`` stored in ``store``, each checked against the plan (``chunk_damage``;
    ``rows`` False: its rows' file only seen, not read, as listing runs needs it fast). Files past
    the plan's last chunk are not the plan's: they are left alone."""
    game = plan.check_shape()
    sound, damaged = set(), []
    for index in sorted(index for index in store.finished_chunks() if index < plan.num_chunks):
        damage = chunk_damage(plan, game, store, index, rows)
        if damage is None:
            sound.add(index)
        else:
            damaged.append(damage)
    return StoredChunks(sound, damaged)


def chunk_damage(plan: Plan, game: Game, store: RunStore, index: int, rows: bool = True) -> Damage | None:
    """What is wrong with stored chunk ``index`` of ``plan``, or None when it is sound: its aggregates
    a JSON object of the plan's strategies and pairs whose counts are whole, not negative, and add up
    to the chunk's size; and when the plan keeps rows, its Parquet file a regular file of a size the
    chunk's rows can have, holding (with ``rows``) the very rows its aggregates were summed from."""
    aggregates_path, rows_path = store.chunk_path(index, ".json"), store.chunk_path(index, ".parquet")
    seatings = plan.seatings(game)
    start, stop = plan.chunk_span(index)
    try:
        aggregates = store.read_aggregates(index)
        _check_aggregates(plan, game, seatings, stop - start, aggregates)
    except ResultsError as error:
        return Damage(index, aggregates_path, f"chunk {index} is damaged: {error}")
    except Unsound as error:
        return Damage(index, aggregates_path, f"chunk {index} is damaged: {aggregates_path}: {error}")
    if not plan.keep_rounds:
        return None
    limit = rows_file_limit(len(seatings) * (stop - start) * game.num_seats)
    try:
        if rows:
            _check_rows(plan, game, seatings, index, aggregates, store.read_rows(index, limit))
        elif problem := store.rows_problem(index, limit):
            raise Unsound(problem)
    except ResultsError as error:
        return Damage(index, rows_path, f"chunk {index} is damaged: {error}")
    except Unsound as error:
        return Damage(index, rows_path, f"chunk {index} is damaged: {rows_path}: {error}")
    return None


class Unsound(ValueError):
    """What keeps a stored chunk's file from being the chunk's, in words (a ``Damage``'s reason)."""


STRATEGY_KEYS = ("n", "sum", "sum_sq", "best", "histogram")
GAME_KEYS = ("games", "wins", "draws", "losses", "game_rounds")  # a strategy's, in whole-games runs
PAIR_KEYS = ("diff", "a", "b", "wins", "draws", "losses")
TIMING_KEYS = ("decisions", "seconds", "histogram")


def _check_aggregates(plan: Plan, game: Game, seatings, deals: int, aggregates: dict[str, Any]) -> None:
    """Unsound unless ``aggregates`` are those ``play_chunk`` writes for ``deals`` deals (or games)
    of ``plan``: each strategy counts one result a deal for each seat it counts in, each pair one a deal."""
    _keys(aggregates, ("strategies", "pairs", "timing"), "the aggregates")
    _keys(aggregates["strategies"], plan.strategy_names, "the strategies")
    for name, counted in _counted_seats(plan, game, seatings).items():
        _check_strategy(aggregates["strategies"][name], name, deals * int(counted.sum()), plan.games)
    pairs = [f"{a}\t{b}" for a, b in combinations(plan.strategy_names, 2)]
    for key, pair in _keys(aggregates["pairs"], pairs, "the pairs").items():
        what = key.replace("\t", " against ")
        _keys(pair, PAIR_KEYS, what)
        for side in ("diff", "a", "b"):
            _check_moments(_keys(pair[side], ("n", "sum", "sum_sq"), f"{what}, {side}"), f"{what}, {side}", deals)
        outcomes = (_count(pair[outcome], f"{what}, {outcome}") for outcome in ("wins", "draws", "losses"))
        _total(sum(outcomes), deals, what)
    for name, timing in _keys(aggregates["timing"], plan.strategy_names, "the timing").items():
        _keys(timing, TIMING_KEYS, f"{name}'s timing")
        decisions = _count(timing["decisions"], f"{name}'s decisions")
        if _real(timing["seconds"], f"{name}'s seconds") < 0:
            raise Unsound(f"{name}'s seconds are negative")
        _total(_histogram(timing["histogram"], f"{name}'s timing histogram"), decisions, f"{name}'s timing")


def _check_strategy(entry: Any, name: str, results: int, whole_games: bool) -> None:
    """Unsound unless ``entry`` is strategy ``name``'s aggregates over ``results`` results."""
    _keys(entry, STRATEGY_KEYS + (GAME_KEYS if whole_games else ()), name)
    _check_moments(entry, name, results)
    _total(_histogram(entry["histogram"], f"{name}'s histogram"), results, f"{name}'s histogram")
    if _count(entry["best"], f"{name}'s best") > results:
        raise Unsound(f"{name} has more best results than results")
    if whole_games:
        _total(_count(entry["games"], f"{name}'s games"), results, f"{name}'s games")
        _total(sum(_count(entry[key], f"{name}'s {key}") for key in ("wins", "draws", "losses")), results, name)
        if _count(entry["game_rounds"], f"{name}'s game rounds") < results:
            raise Unsound(f"{name}'s games have fewer rounds than games")


def _check_moments(entry: dict[str, Any], what: str, n: int) -> None:
    _total(_count(entry["n"], f"{what}, n"), n, what)
    _real(entry["sum"], f"{what}, sum")
    if _real(entry["sum_sq"], f"{what}, sum of squares") < 0:
        raise Unsound(f"{what} has a negative sum of squares")


def _keys(value: Any, keys: Iterable[str], what: str) -> dict[str, Any]:
    """``value`` if it is a JSON object of exactly the keys ``keys``; Unsound if not."""
    expected = list(keys)
    if not isinstance(value, dict) or set(value) != set(expected):
        raise Unsound(f"{what} should hold {', '.join(expected)}")
    return value


def _count(value: Any, what: str) -> int:
    """``value`` if it is a count: a whole number, not negative (not a float, not true or false)."""
    if type(value) is not int or value < 0:
        raise Unsound(f"{what} is {clipped(json.dumps(value))}, not a count")
    return value


def _real(value: Any, what: str) -> float:
    """``value`` if it is a finite number (not true or false)."""
    if type(value) not in (int, float) or not math.isfinite(value):
        raise Unsound(f"{what} is {clipped(json.dumps(value))}, not a finite number")
    return value


def _histogram(value: Any, what: str) -> int:
    """The total of the histogram ``value``, a list of counts."""
    if not isinstance(value, list):
        raise Unsound(f"{what} is not a list of counts")
    return sum(_count(count, what) for count in value)


def _total(counted: int, expected: int, what: str) -> None:
    if counted != expected:
        raise Unsound(f"{what} counts {counted:,} results, but the chunk's size makes {expected:,}")


def _check_rows(plan: Plan, game: Game, seatings, index: int, aggregates: dict[str, Any], rows: pd.DataFrame) -> None:
    """Unsound unless ``rows`` are the rows ``play_chunk`` writes for chunk ``index``, in its order,
    and sum up to its (checked) ``aggregates``."""
    start, stop = plan.chunk_span(index)
    shape = (len(seatings), stop - start, game.num_seats)
    if len(rows) != math.prod(shape):
        raise Unsound(f"it holds {len(rows):,} rows, not the chunk's {math.prod(shape):,}")
    try:
        points = rows["points"].to_numpy().reshape(shape)
        rounds = rows["rounds"].to_numpy().reshape(shape)[:, :, 0] if plan.games else None
        winners = rows["winner"].to_numpy().reshape(shape) if plan.games else None
        written = chunk_rows(plan, seatings, np.arange(start, stop, dtype=np.int64), points, rounds, winners)
    except (KeyError, ValueError, TypeError):
        raise Unsound("its columns are not a chunk's rows") from None
    if not rows.equals(written):
        raise Unsound("its rows are not the chunk's deals, seatings and seats")
    with np.errstate(all="ignore"):  # rounds of 0 in a tampered file: the sums differ, said below
        summed = json.loads(json.dumps(summarize_chunk(plan, game, points, rounds, winners)))
    if summed != {key: value for key, value in aggregates.items() if key != "timing"}:
        raise Unsound("its rows do not add up to the chunk's aggregates")


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


def plan_from_config(config: dict[str, Any], where: str = "config.json") -> Plan:
    """The plan config.json records (``config``, read from ``where``), checked field by field and in
    its sizes; PlanError in one line if it is not a plan this cardsim reads."""
    settings = checked_settings(config["plan"], PLAN_FIELDS, where)
    missing = [key for key in REQUIRED_FIELDS if key not in settings]
    if missing:
        raise PlanError(f"{where}: the plan has no {', '.join(missing)}")
    plan = Plan(**settings)
    plan.check_shape()
    return plan


def stored_plan(store: RunStore) -> Plan:
    """The plan of the run in ``store``'s folder, from its config.json checked field by field;
    ResultsError (a missing or unreadable file) or PlanError (another plan), in one line, if not."""
    return plan_from_config(store.read_config(), str(store.path / "config.json"))
