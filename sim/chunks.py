"""One chunk of a tournament's plan: played under every seating, summed into additive aggregates
(and per-round rows, if the plan keeps them), and, once stored, checked against the plan.

Aggregates are sums and squared sums, histograms and paired-difference moments: adding them up across
chunks gives a run's exact summary without keeping per-round rows. A stored chunk is sound when its
files are the ones ``play_chunk`` writes for it; a damaged one is said and played again.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

import strategies as strategy_registry
from sim import games, jit, seating
from sim.games import Game
from sim.numbers import clipped
from sim.plans import MAX_CHUNK_DEALS, MAX_CHUNK_GAMES, MIN_CHUNK, Plan
from sim.results import ResultsError, RunStore, rows_file_limit
from sim.timing import TimedStrategy

if TYPE_CHECKING:
    import pandas as pd


TIMED_DEALS = 1024
"""The deals of a run's first chunk played again to time its compiled strategies (``time_compiled``):
enough that a batch's fixed cost is shared by many decisions."""
TIMED_GAMES = 16
"""As many, for a run of whole games."""


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


def time_compiled(
    plan: Plan, game: Game, built: dict[str, TimedStrategy], seats: seating.Seating, ids: np.ndarray
) -> None:
    """Time each strategy of ``built`` whose decisions the fast engine made inside its kernel, untimed:
    ``ids`` played again under the seating ``seats`` with it asked from Python (``TimedStrategy.asked_in_python``)
    and every other seat's strategy as it is, untimed. What they score is not kept."""
    for spec, timed in built.items():
        if timed.compiled is None or timed.decisions:
            continue
        lineup = {name: timed.asked_in_python() if name == spec else other.strategy for name, other in built.items()}
        play_slice(plan, game, lineup, [seats], ids)


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
    game = _validated(plan)
    start, stop = plan.chunk_span(index)
    ids = np.arange(start, stop, dtype=np.int64)
    built = {spec: TimedStrategy(strategy_registry.get(plan.game, spec)) for spec in plan.strategy_names}
    seatings = plan.seatings(game)
    most = (MAX_CHUNK_GAMES if plan.games else MAX_CHUNK_DEALS).get(plan.engine, MIN_CHUNK)
    slices = [play_slice(plan, game, built, seatings, ids[first : first + most]) for first in range(0, len(ids), most)]
    points, rounds, winners = (joined([played[part] for played in slices]) for part in range(3))
    assert points is not None  # every slice has points
    if index == 0:
        time_compiled(plan, game, built, seatings[0], ids[: TIMED_GAMES if plan.games else TIMED_DEALS])
    aggregates = summarize_chunk(plan, game, points, rounds, winners)
    aggregates["timing"] = {spec: strategy.aggregates() for spec, strategy in built.items()}
    rows = chunk_rows(plan, seatings, ids, points, rounds, winners) if plan.keep_rounds else None
    return ChunkResult(index, stop - start, aggregates, rows)


@functools.lru_cache(maxsize=8)
def _validated(plan: Plan) -> Game:
    """``plan.validate()``, once a process: a worker plays many chunks of one plan, and checking its
    strategies each time cost as much as playing a chunk of first-legal rounds."""
    return plan.validate()


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
    masks = _counted_seats(plan, game, plan.seatings(game))
    if not plan.games and points.min(initial=0) >= 0:  # one compiled pass each, the same (integer) sums
        entries = {name: _round_entry(points, mask, game.lower_is_better) for name, mask in masks.items()}
        merit_per_deal = {name: -mean if game.lower_is_better else mean for name, (_, mean) in entries.items()}
    else:
        entries, merit_per_deal = _entries(plan, game, masks, points, rounds, winners)
    aggregates: dict[str, Any] = {"strategies": {name: entry for name, (entry, _) in entries.items()}, "pairs": {}}
    for a, b in combinations(plan.strategy_names, 2):
        (_, mean_a), (_, mean_b) = entries[a], entries[b]
        margin = merit_per_deal[a] - merit_per_deal[b]
        decided = np.abs(margin) > TIE_TOLERANCE
        aggregates["pairs"][f"{a}\t{b}"] = {
            "diff": _moments(mean_a - mean_b),
            "a": _moments(mean_a),
            "b": _moments(mean_b),
            "wins": int((decided & (margin > 0)).sum()),
            "draws": int((~decided).sum()),
            "losses": int((decided & (margin < 0)).sum()),
        }
    return aggregates


def _entries(
    plan: Plan, game: Game, masks: dict[str, np.ndarray], points, rounds, winners
) -> tuple[dict[str, tuple[dict[str, Any], np.ndarray]], dict[str, np.ndarray]]:
    """Per strategy, its aggregates of a chunk of games or of rounds with negative points (counted seats
    ``masks``) and its mean value per deal; and its merit per deal (signed so that more is better)."""
    best = points.min(axis=2, keepdims=True) if game.lower_is_better else points.max(axis=2, keepdims=True)
    at_best = points == best
    # In game mode a strategy's per-game value is its points per round, comparable with round mode.
    values = points / rounds[:, :, None] if plan.games else points
    outcomes = game_outcomes(winners, game.teams) if plan.games else None
    # What decides a deal between two strategies: their game scores (a win 1, a draw ½) in game
    # mode, their points otherwise.
    merit = outcomes / 2.0 if outcomes is not None else (-values if game.lower_is_better else values)
    entries, merit_per_deal = {}, {}
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
        # The strategy's mean over its counted seats in every seating, deal by deal.
        entries[name] = entry, (values * mask[:, None, :]).sum(axis=(0, 2)) / mask.sum()
        merit_per_deal[name] = (merit * mask[:, None, :]).sum(axis=(0, 2)) / mask.sum()
    return entries, merit_per_deal


def _round_entry(points: np.ndarray, mask: np.ndarray, lower_is_better: bool) -> tuple[dict[str, Any], np.ndarray]:
    """A strategy's aggregates of a chunk of rounds (``summarize_chunk``'s entry) from its counted seats
    ``mask`` (seatings, seats), and its mean points per deal over them."""
    points = np.ascontiguousarray(points, dtype=np.int64)
    per_deal = np.empty(points.shape[1], dtype=np.float64)
    histogram = np.zeros(int(points.max(initial=0)) + 1, dtype=np.int64)
    n, total, squares, best = _round_sums(points, np.ascontiguousarray(mask), lower_is_better, histogram, per_deal)
    last = int(np.flatnonzero(histogram)[-1]) + 1 if histogram.any() else 0  # as np.bincount sizes it
    entry = {"n": n, "sum": float(total), "sum_sq": float(squares), "best": best}
    entry["histogram"] = histogram[:last].tolist()
    return entry, per_deal


@jit.njit(cache=True, nogil=True)
def _round_sums(points, mask, lower_is_better, histogram, per_deal):
    """(count, sum, sum of squares, times at the table's best) of the points (seatings, deals, seats)
    of the seats ``mask`` (seatings, seats) marks; their histogram (added to ``histogram``) and each
    deal's mean of them (``per_deal``), in one pass."""
    count = total = squares = best = 0
    seats = 0
    for arrangement in range(mask.shape[0]):
        for seat in range(mask.shape[1]):
            seats += mask[arrangement, seat]
    for deal in range(points.shape[1]):
        deal_total = 0
        for arrangement in range(points.shape[0]):
            row = points[arrangement, deal]
            table_best = row.min() if lower_is_better else row.max()
            for seat in range(row.shape[0]):
                if mask[arrangement, seat]:
                    value = row[seat]
                    count += 1
                    total += value
                    squares += value * value
                    best += value == table_best
                    histogram[value] += 1
                    deal_total += value
        per_deal[deal] = deal_total / seats
    return count, total, squares, best


def chunk_rows(plan: Plan, seatings, ids, points, rounds, winners) -> pd.DataFrame:
    """One row per deal (or game), seating and seat; ``team`` is the seat's team (partners share points,
    so count one row per team for a strategy's results, as the summary does)."""
    import pandas as pd  # here: a worker that keeps no rows does not load it

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
TIMING_KEYS = ("decisions", "seconds", "histogram")  # and "sampled" where some were (TimedStrategy)


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
        _keys(timing, (*TIMING_KEYS, "sampled") if "sampled" in timing else TIMING_KEYS, f"{name}'s timing")
        decisions = _count(timing["decisions"], f"{name}'s decisions")
        if _count(timing.get("sampled", 0), f"{name}'s sampled decisions") > decisions:
            raise Unsound(f"{name}'s sampled decisions are more than its decisions")
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
