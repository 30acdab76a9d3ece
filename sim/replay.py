"""``cardsim replay``: one deal (or whole game) of a tournament run, played again and told move by move.

The deal is played again on the game's reference engine by the run's strategies, built as the run
built them (``sim.chunks.play_chunk``), so it is the very play the run's engine made: the
reference engine is cross-checked move for move against the fast one. The game's transcript module
(``Game.transcript``) tells it in the words of the game's own program: who sits where, the hands
dealt, every action in order, then the points. Told as one seat saw it (``seat``), no card hidden
from that seat is shown. When the run kept its per-deal rows, the replayed points are checked
against the stored row.

``cardsim replay --record FILE`` plays back a game of the web table from its record (the JSON the
table's page downloads: the game, its rules, the seed, the opponent, the person's seat and every
action taken) on the game's reference engine, told the same way. A record is read as any file a
person hands in: bounded (``sim.files.read_bounded``), its numbers bounded (``sim.numbers``), every
field checked, and every action checked legal where it was taken; a record that is not one is one
line (``ReplayError``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

import strategies as strategy_registry
from sim import games
from sim.api import GameState, IllegalAction, State
from sim.console import bounded_int_argument
from sim.dealing import MAX_SEED
from sim.files import UnreadableFile, read_bounded
from sim.numbers import clipped, json_int
from sim.plans import Plan, PlanError, stored_plan
from sim.results import ResultsError, RunStore

if TYPE_CHECKING:
    import pandas as pd

# The largest deal, seating or seat number read: beyond any run, so a number out of a run's range gets
# that run's own message (``parse_int`` needs an upper bound to refuse long texts unread).
MAX_NUMBER = 10**15
RECORD_FORMAT = "cardsim-table-record"  # what sim.web.table.Table.record writes
RECORD_VERSION = 1
MAX_RECORD_BYTES = 1 << 20  # the longest game's record is a few tens of KB
MAX_RECORD_ACTIONS = 100_000  # far past any game's length
MAX_RECORD_TEXT = 200  # the longest opponent spec or rules text a record may hold


class ReplayError(ValueError):
    """A deal that cannot be replayed: no run in the folder, or a deal, seating or seat the run does not
    have; or a replay that disagrees with the run's stored row (a bug)."""


class Transcript(Protocol):
    """What a game's transcript module provides (``Game.transcript``). ``viewer`` is the seat whose
    view is told, None for every seat's cards."""

    def seat_names(self, players: Sequence[str]) -> list[str]:
        """The seats' names as the program calls them, given each seat's strategy spec."""

    def dealt(self, state: Any, names: Sequence[str], viewer: int | None, for_people: bool = False) -> list[str]:
        """The lines that open the state's round (hand): how it begins and the hands ``viewer`` sees;
        in the program's words, or the web table's (``for_people``: the person is ``names[viewer]``)."""

    def told(
        self, state: Any, events: list[Any], names: Sequence[str], viewer: int | None, for_people: bool = False
    ) -> list[str]:
        """The lines of one action's ``events`` as ``viewer`` saw them; ``state`` is the state after them."""


@dataclass(frozen=True)
class Replay:
    """One deal (or whole game) of a run in one of its seatings, told as ``viewer`` saw it."""

    store: RunStore
    plan: Plan
    deal: int
    seating: int
    seatings: int  # how many seatings the run played each deal in
    players: tuple[str, ...]  # the strategy spec in each seat
    names: tuple[str, ...]  # each seat's name in the game's program
    viewer: int | None  # the seat whose view is told; None: every seat's cards


def unit(plan: Plan) -> str:
    """What a run's ids number: deals, or whole games."""
    return "game" if plan.games else "deal"


def replay_text(run_dir: str | os.PathLike[str], deal: int, seating: int = 0, seat: int | None = None) -> str:
    """Deal ``deal`` (for a whole-games run, game ``deal``) of the run in ``run_dir``, in seating
    ``seating`` (an index into the run's seatings), told as seat ``seat`` saw it (None: every seat's
    cards)."""
    store = RunStore(run_dir)
    plan = read_plan(store)
    game = plan.validate()
    seatings = plan.seatings(game)
    if not 0 <= deal < plan.rounds:
        raise ReplayError(f"{unit(plan)} {deal} is out of range: the run played {unit(plan)}s 0 to {plan.rounds - 1}")
    if not 0 <= seating < len(seatings):
        raise ReplayError(f"seating {seating} is out of range: the run played seatings 0 to {len(seatings) - 1}")
    if seat is not None and not 0 <= seat < game.num_seats:
        raise ReplayError(f"seat {seat} is out of range: {game.name} has seats 0 to {game.num_seats - 1}")
    from sim.play import play_out, reference_state  # here: the engines load with a replay, not with cardsim

    transcript: Transcript = importlib.import_module(game.transcript)
    players = tuple(plan.players[player] for player in seatings[seating])
    names = tuple(transcript.seat_names(players))
    replay = Replay(store, plan, deal, seating, len(seatings), players, names, seat)
    built = {spec: strategy_registry.get(plan.game, spec) for spec in plan.strategy_names}
    state = reference_state(game, plan.seed, deal, plan.games)
    lines = header(replay) + transcript.dealt(state, names, seat)
    play_out(
        state,
        [built[spec] for spec in players],
        lambda events: lines.extend(transcript.told(state, events, names, seat)),
    )
    outcome = outcome_row(plan, state)
    lines += [""] + result_lines(replay, outcome) + [stored_row_check(replay, outcome)]
    return "\n".join(lines) + "\n"


def read_plan(store: RunStore) -> Plan:
    """The plan of the run in ``store``'s folder; ``ReplayError`` if the folder holds no run."""
    if not store.path.is_dir():
        raise ReplayError(f"{store.path} is not a folder: name a tournament run's folder (results/<run-id>)")
    try:
        return stored_plan(store)
    except ResultsError as error:
        raise ReplayError(f"{store.path} holds no tournament run: {error}") from None
    except PlanError as error:
        raise ReplayError(f"{store.path}/config.json is not a plan this cardsim reads: {error}") from None


def outcome_row(plan: Plan, state: State) -> dict[str, list]:
    """The finished state as the run's rows store it, by column, one value per seat: the points
    and, for a whole game, its rounds and whether each seat won."""
    points = [int(points) for points in state.points()]
    if not plan.games:
        return {"points": points}
    whole = cast(GameState, state)  # a --games run's state is a whole game (Game.new_game)
    won = whole.winning_seats()
    return {
        "points": points,
        "rounds": [whole.rounds_played] * len(points),
        "winner": [seat in won for seat in range(len(points))],
    }


def header(replay: Replay) -> list[str]:
    """Which run, deal and seating this is, who sits where, and whose view is told."""
    plan = replay.plan
    lines = [
        f"Run {plan.run_id} ({replay.store.path}): {plan.game}, {unit(plan)} {replay.deal}, "
        f"seating {replay.seating} (seatings 0 to {replay.seatings - 1})",
    ]
    lines += [
        f"Seat {seat} ({name}): {player}" for seat, (name, player) in enumerate(zip(replay.names, replay.players))
    ]
    if replay.viewer is None:
        lines.append("Every seat's cards are shown.")
    else:
        lines.append(
            f"As seat {replay.viewer} ({replay.names[replay.viewer]}) saw it: no other seat's hidden cards are shown."
        )
    return lines + [""]


def result_lines(replay: Replay, outcome: dict[str, list]) -> list[str]:
    """The points of every seat and, for a whole game, its length and winners."""
    scored = ", ".join(f"{name} {points}" for name, points in zip(replay.names, outcome["points"]))
    if not replay.plan.games:
        return [f"Points: {scored}"]
    winners = ", ".join(name for name, won in zip(replay.names, outcome["winner"]) if won)
    rounds = outcome["rounds"][0]
    return [f"Final scores after {rounds} round{'s' * (rounds != 1)}: {scored}", f"Won by: {winners}"]


def stored_row_check(replay: Replay, outcome: dict[str, list]) -> str:
    """A line saying the replayed outcome equals the run's stored rows for the deal and seating, or
    why there are none to compare with; ``ReplayError`` when they differ."""
    plan, deal, seating, store = replay.plan, replay.deal, replay.seating, replay.store
    chunk = deal // plan.chunk_size
    path = store.chunk_path(chunk, ".parquet")
    if not plan.keep_rounds:
        return "The run kept no per-deal rows (--no-rounds): there is no stored row to compare with."
    if chunk not in store.finished_chunks():
        return f"Chunk {chunk} of the run is not stored yet: there is no stored row to compare with."
    from sim.chunks import chunk_damage  # here: the chunks' tables and engines load with a replay, not with cardsim

    damage = chunk_damage(plan, plan.check_shape(), store, chunk)
    if damage is not None:
        return (
            f"{damage.message}; there is no stored row to compare with "
            "(running the tournament again plays the chunk again)."
        )
    rows = stored_rows(store, chunk, unit(plan), deal, seating)
    stored = {column: rows[column].tolist() for column in outcome}
    if stored != outcome:
        raise ReplayError(
            f"the replay of {unit(plan)} {deal}, seating {seating} ends with {outcome}, but {path} "
            f"stores {stored}: a bug, please report it"
        )
    return f"The replayed points match the run's stored row ({path.name}, {unit(plan)} {deal}, seating {seating})."


def stored_rows(store: RunStore, chunk: int, id_column: str, deal: int, seating: int) -> pd.DataFrame:
    """The stored rows of ``deal`` in ``seating`` (of the sound chunk ``chunk``), one per seat in seat order."""
    try:
        rows = store.read_rows(chunk)
    except ResultsError as error:  # changed since it was checked
        raise ReplayError(str(error)) from None
    return rows[(rows[id_column] == deal) & (rows["seating"] == seating)].sort_values("seat")


@dataclass(frozen=True)
class TableRecord:
    """A web table's game as its record holds it (``read_record``)."""

    game: games.Game
    seed: int
    opponent: str
    seat: int
    actions: tuple[int, ...]
    over: bool | None  # what the record says: None when it does not
    points: tuple[int, ...] | None


def refuse_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number a record holds")


def record_field(record: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    """``record[name]`` when it is of ``kind`` (a bool is no number); ``ReplayError`` otherwise."""
    value = record.get(name, default)
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        value = None
    if not isinstance(value, kind):
        raise ReplayError(f"its {name!r} is missing or not what a record holds")
    return value


def read_record(path: str | os.PathLike[str]) -> TableRecord:
    """The record in the file ``path`` (``sim.web.table.Table.record``), every field checked;
    ``ReplayError`` (one line naming the file) when it cannot be read or is not a record."""
    where = clipped(os.fspath(path))
    try:
        data = read_bounded(path, MAX_RECORD_BYTES, "game record")
        value = json.loads(data.decode("utf-8"), parse_int=json_int, parse_constant=refuse_constant)
    except UnreadableFile as error:
        raise ReplayError(f"cannot read {where}: {error}") from None
    except UnicodeDecodeError:
        raise ReplayError(f"{where} is not a game record: it is not text") from None
    except (ValueError, RecursionError) as error:  # NumberError and JSONDecodeError are ValueErrors
        said = "it is nested too deeply" if isinstance(error, RecursionError) else clipped(str(error))
        raise ReplayError(f"{where} is not a game record: {said}") from None
    try:
        return checked_record(value)
    except ReplayError as error:
        raise ReplayError(f"{where} is not a game record this cardsim plays: {error}") from None


def checked_record(value: Any) -> TableRecord:
    """The record a parsed JSON value holds; ``ReplayError`` saying what is wrong with it."""
    if not isinstance(value, dict) or value.get("format") != RECORD_FORMAT:
        raise ReplayError(f"it is not a {RECORD_FORMAT} object (download one from a table's page)")
    if record_field(value, "version", int) != RECORD_VERSION:
        raise ReplayError(
            f"its version is {clipped(str(value['version']))}; this cardsim reads version {RECORD_VERSION}"
        )
    name = record_field(value, "game", str)
    variants = record_field(value, "rules", str, "")
    opponent = record_field(value, "opponent", str)
    if len(variants) > MAX_RECORD_TEXT or len(opponent) > MAX_RECORD_TEXT:
        raise ReplayError(f"its rules or opponent is longer than {MAX_RECORD_TEXT} characters")
    try:
        game = games.load(name, variants)
    except (games.UnknownGame, games.UnknownRules) as error:
        raise ReplayError(clipped(str(error))) from None
    seed, seat = record_field(value, "seed", int), record_field(value, "seat", int)
    if not 0 <= seed <= MAX_SEED:
        raise ReplayError(f"its seed {clipped(str(seed))} is out of range (0 to {MAX_SEED})")
    if not 0 <= seat < game.num_seats:
        raise ReplayError(
            f"its seat {clipped(str(seat))} is out of range: {game.name} has seats 0 to {game.num_seats - 1}"
        )
    actions = record_field(value, "actions", list)
    if len(actions) > MAX_RECORD_ACTIONS:
        raise ReplayError(f"it holds {len(actions):,} actions; a game has far fewer than {MAX_RECORD_ACTIONS:,}")
    for number, action in enumerate(actions, 1):
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < game.num_actions:
            shown = clipped(json.dumps(action))
            raise ReplayError(
                f"its action {number} ({shown}) is not one of {game.name}'s actions 0 to {game.num_actions - 1}"
            )
    over = record_field(value, "over", (bool, type(None)))
    points = record_field(value, "points", (list, type(None)))
    if points is not None and (
        len(points) != game.num_seats or any(isinstance(p, bool) or not isinstance(p, int) for p in points)
    ):
        raise ReplayError(f"its points are not {game.num_seats} whole numbers")
    return TableRecord(game, seed, opponent, seat, tuple(actions), over, None if points is None else tuple(points))


def record_text(path: str | os.PathLike[str], seat: int | None = None) -> str:
    """The game in the record ``path`` played back on the reference engine, told as seat ``seat`` saw
    it (None: every seat's cards) in the words of the game's program; ``ReplayError`` when the record
    is not one, or an action of it is not legal where it was taken."""
    record = read_record(path)
    game = record.game
    if seat is not None and not 0 <= seat < game.num_seats:
        raise ReplayError(f"seat {seat} is out of range: {game.name} has seats 0 to {game.num_seats - 1}")
    from sim.play import reference_state

    transcript: Transcript = importlib.import_module(game.transcript)
    players = ["human" if other == record.seat else record.opponent for other in range(game.num_seats)]
    names = transcript.seat_names(players)
    state = reference_state(game, record.seed, 0, whole_game=True)
    variants = f" ({game.rules})" if game.rules else ""
    lines = [f"Record of a web table's game: {game.name}{variants}, seed {record.seed}, {len(record.actions)} actions"]
    lines += [f"Seat {other} ({name}): {player}" for other, (name, player) in enumerate(zip(names, players))]
    lines.append("Every seat's cards are shown." if seat is None else f"As seat {seat} ({names[seat]}) saw it.")
    lines += [""] + transcript.dealt(state, names, seat)
    for number, action in enumerate(record.actions, 1):
        if state.is_over or action not in state.legal_actions():
            where = "after the game's end" if state.is_over else "where it is not legal"
            raise ReplayError(f"{clipped(os.fspath(path))}: action {number} ({game.action_name(action)}) comes {where}")
        try:
            lines += transcript.told(state, state.apply(action), names, seat)
        except IllegalAction as error:  # legal_actions said otherwise: a bug
            raise ReplayError(f"action {number}: {error}") from None
    lines.append("")
    points = tuple(int(points) for points in state.points())
    scored = ", ".join(f"{name} {score}" for name, score in zip(names, points))
    if not state.is_over:
        lines.append(f"The record ends before the game does; points so far: {scored}")
    else:
        whole = cast(GameState, state)
        winners = ", ".join(names[other] for other in whole.winning_seats())
        lines += [
            f"Final scores after {whole.rounds_played} round{'s' * (whole.rounds_played != 1)}: {scored}",
            f"Won by: {winners}",
        ]
    if (record.over is not None and record.over != state.is_over) or (record.points not in (None, points)):
        raise ReplayError(
            f"{clipped(os.fspath(path))} says the game ended {record.over} with points {record.points}, "
            f"but its actions end it {state.is_over} with {points}: the record was changed"
        )
    return "\n".join(lines) + "\n"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``cardsim replay RUN --deal N [--seating S] [--seat K]`` or ``cardsim replay --record FILE [--seat K]``."""
    parser.add_argument("run_dir", metavar="RUN", nargs="?", help="a tournament run's folder (results/<run-id>)")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--deal",
        type=bounded_int_argument(0, MAX_NUMBER, "deal number"),
        metavar="N",
        help="the deal to replay (the game, for a --games run), from 0",
    )
    which.add_argument(
        "--record",
        metavar="FILE",
        help="instead of a run's deal, a web table's game from its record (the page's Record download)",
    )
    parser.add_argument(
        "--seating",
        type=bounded_int_argument(0, MAX_NUMBER, "seating number"),
        default=0,
        metavar="S",
        help="which of the run's seatings, from 0 (default 0; duplicate runs play several)",
    )
    parser.add_argument(
        "--seat",
        type=bounded_int_argument(0, MAX_NUMBER, "seat number"),
        metavar="K",
        help="tell it as seat K saw it, hiding the other seats' cards (default: show every seat's cards)",
    )


def command(args: argparse.Namespace) -> int:
    """Print the replay the arguments ask for."""
    if args.record is not None:
        if args.run_dir is not None or args.seating:
            raise ReplayError("--record plays a record back on its own: name no run folder or --seating with it")
        print(record_text(args.record, args.seat), end="")
    elif args.run_dir is None:
        raise ReplayError("name the run's folder: cardsim replay RUN --deal N")
    else:
        print(replay_text(args.run_dir, args.deal, args.seating, args.seat), end="")
    return 0
