"""The game registry: each game's name and the module holding its ``GAME`` record.

A ``Game`` record is everything generic code (tournaments, matches, cross-checks, benchmarks,
environments) may know of a game: generic code reads the record and never a game's name. A fifth
game provides a module with a ``GAME`` (its reference engine following ``sim.api``, its deals, its
seatings; a fast engine optional) and one line in ``GAME_MODULES``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.api import NewGame, NewState
from sim.seating import Seating

GAME_MODULES = {
    "straights": "sim.straights.game",
    "euchre": "sim.euchre.game",
    "ginrummy": "sim.ginrummy.game",
    "gemstones": "sim.gemstones.game",
}


DEFAULT_GAME = "straights"  # the main game: what commands play when no --game is given


class UnknownGame(ValueError):
    """A game name that is not registered."""


@dataclass(frozen=True)
class RoundsResult:
    """Points per round and seat, shape (B, seats)."""

    points: np.ndarray


@dataclass(frozen=True)
class GamesResult:
    """Per game: final scores (B, seats), rounds played (B,), winners as a bool mask (B, seats)."""

    scores: np.ndarray
    rounds: np.ndarray
    winners: np.ndarray


# play_rounds(deals (B, ...), seat strategies, round ids (B,)) -> an object with ``points`` (B, seats)
PlayRounds = Callable[[np.ndarray, list, np.ndarray], RoundsResult]
# deal_source(game ids (n,), round number) -> the deals of that round of those games
DealSource = Callable[[np.ndarray, int], np.ndarray]
# play_games(game ids (B,), deal_source, seat strategies) -> an object with scores, rounds, winners
PlayGames = Callable[[np.ndarray, DealSource, list], GamesResult]


@dataclass(frozen=True)
class Game:
    """What the game-agnostic machinery (tournaments, matches, cross-checks) needs of a game."""

    name: str
    num_seats: int
    duplicate_seatings: tuple[Seating, ...]
    lower_is_better: bool
    deals: Callable[..., np.ndarray]  # deals(seed, start, count, stream=()) -> (count, ...) array
    deals_at: Callable[..., np.ndarray]  # deals_at(seed, indexes, stream=()) -> (n, ...) array
    deal_version: int  # which seeded sequence the deals follow: a new one, a new version (config.json records it)
    play_rounds: dict[str, PlayRounds]  # by engine name: "fast", "reference"
    play_games: dict[str, PlayGames]
    new_state: NewState  # one round (hand) of the reference engine from a deal: sim.api's State
    new_game: NewGame  # a whole game of the reference engine: sim.api's GameState
    num_actions: int  # actions are 0 .. num_actions - 1
    action_name: Callable[[int], str]  # an action's name for people ("7S", "order up Hearts", "pass")
    parse_action: Callable[[str], int]  # the action a name names; sim.api.UnknownAction if none
    program: str  # the module of the spec's interactive program; its play(strategy, seed) seats a person
    # The module that tells a replayed deal in the program's words (``sim.replay``): its seat_names(players),
    # dealt(state, names, viewer) and told(state, events, names, viewer) return lines of text.
    transcript: str
    # The module that draws a whole game for one seat (``sim.web``): its table(state, seat, names) returns
    # a ``sim.api.TableView`` and action_face(action) the face of the card an action plays, or None.
    view: str
    baseline: str  # the spec's own computer player: what benchmarks and cross-checks seat in every seat
    # ``encode(observation)``: a batch of n observations as an (n, observation_size) float32 array, for
    # learning agents (``sim.envs``); built from the observation's fields alone (docs/<game>.md lists it).
    encode: Callable[[Any], np.ndarray]
    observation_size: int
    # The team of each seat; partners share their team's points, so results count once per team.
    # Empty: every seat is its own team.
    teams: tuple[int, ...] = ()
    # ``with_rules(text)``: the same game under the rule variants ``text`` names ("final_sale=yes,
    # third_chain_cost=2"), ValueError for text naming none; None for a game without variants.
    with_rules: Callable[[str], Game] | None = None
    rules: str = ""  # the variants this record plays ("": the game's defaults)
    # The observation record strategies read (``sim.api``); its fields' documentation is the reference
    # ``sim.observations`` prints and docs/<game>.md lists. None: undocumented.
    observation: type | None = None
    # ``tables(strategies, deals, round_ids)``: the fast engine's rounds side by side, each paused where
    # a seat played in Python is to move (``sim.vecenv.Tables``), for batched environments. None: none yet.
    tables: Callable[[Sequence[Any], np.ndarray, np.ndarray], Any] | None = None

    def __post_init__(self) -> None:
        if not self.teams:
            object.__setattr__(self, "teams", tuple(range(self.num_seats)))
        if len(self.teams) != self.num_seats:
            raise ValueError(f"{self.name}: teams names {len(self.teams)} seats, the game has {self.num_seats}")

    @property
    def has_partnerships(self) -> bool:
        """Whether some seats play as one team (partners share their points, so they count once)."""
        return len(set(self.teams)) < self.num_seats


def game_deal_source(game: Game, seed: int) -> DealSource:
    """Deals for whole games: round ``r`` of game ``g`` is deal ``g`` of stream ``(r,)`` of ``seed``,
    so a game's deals depend on its id alone, not on the other games sharing a batch."""

    def deal_round(game_ids: np.ndarray, round_number: int) -> np.ndarray:
        return game.deals_at(seed, game_ids, (round_number,))

    return deal_round


def default_engine(game: Game, whole_games: bool = False) -> str:
    """The engine to play ``game`` on when none is named: the fast one where the game has one."""
    engines = game.play_games if whole_games else game.play_rounds
    return "fast" if "fast" in engines else "reference"


def names() -> list[str]:
    return sorted(GAME_MODULES)


class UnknownRules(ValueError):
    """Rule variants a game does not have."""


def load(name: str, rules: str = "") -> Game:
    """The registered game called ``name``, under the rule variants ``rules`` names ("": its defaults)."""
    try:
        module = GAME_MODULES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(names())})") from None
    game: Game = importlib.import_module(module).GAME
    if not rules:
        return game
    if game.with_rules is None:
        raise UnknownRules(f"{name} has no rule variants")
    try:
        return game.with_rules(rules)
    except ValueError as error:
        raise UnknownRules(f"{name} rules: {error}") from None
