"""A tournament's plan: everything that decides its results, the settings a person or a file may
give, and the plan a run folder's config.json records.

A ``Plan`` names the game, the lineup, how many deals (or whole games), the seed, the modes and the
engine; its hash (``run_id``) names the run folder, so the same plan resumes the same run. Its chunk
size is chosen from its size unless given: deal ``i`` is the same however the deals are chunked.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import strategies as strategy_registry
from sim import games, plots, seating
from sim.dealing import MAX_SEED
from sim.games import Game
from sim.numbers import clipped
from sim.results import MAX_CHUNKS, RunStore

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
