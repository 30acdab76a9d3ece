"""Leagues: every pairing of a list of strategies, a head-to-head matrix and one rating list.

Each pairing is a tournament of its own (resumable, replayable) in which the two strategies meet in
every fair lineup of the game (``sim.seating.head_to_head``: one partnership each in Euchre; one
against three and two against two in Straights; one seat each in two-player games), each lineup in
the game's duplicate seatings, every deal in all of them. A deal (or game id) is one comparison,
all its seatings taken together: won, drawn or lost. The head-to-head matrix gives, per cell, the
score rate with its interval, Elo and LOS, and the paired difference in points; the rating list
fits every strategy's Elo to all the comparisons at once by maximum likelihood
(``sim.stats.paired_comparison_ratings``), anchored on one strategy at 0.

Layout of a league folder::

    league.json                 the league (game, strategies, size, seed, modes) and its pairings' folders
    pairings/I-J/               the tournament run of strategies I and J (``cardsim replay`` reads it)
    matrix.csv, ratings.csv     the head-to-head matrix (one row per strategy and opponent) and the ratings
    matrix.png, ratings.png     the heat map of score rates and the ratings with their intervals
    report.html                 all of it on one page, with each pairing's decision times and report
"""

from __future__ import annotations

import json
import shlex
from dataclasses import asdict, dataclass, fields
from itertools import combinations
from pathlib import Path

import pandas as pd

from sim import games, page, plots, report, seating, stats, tournament
from sim.plans import PLAN_FIELDS, Plan, PlanError, checked_settings, lineup_digest
from sim.results import ResultsError, RunStore

# The deals (or games) of each pairing when none are asked for: enough to rank strategies a few
# dozen Elo apart.
DEFAULT_ROUNDS = 1000


@dataclass(frozen=True)
class League:
    """What a league plays; equal leagues give identical results."""

    game: str
    players: tuple[str, ...]
    rounds: int = DEFAULT_ROUNDS  # per pairing
    seed: int = 0
    games: bool = False
    engine: str = ""
    keep_rounds: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))

    def validate(self) -> None:
        if len(self.players) < 2:
            raise PlanError("a league needs at least two strategies")
        if len(set(self.players)) != len(self.players):
            raise PlanError("a league names each strategy once")
        for plan in self.pairing_plans().values():
            plan.validate()

    def pairing_plans(self) -> dict[tuple[int, int], Plan]:
        """Each pairing's tournament, by the indexes of its two strategies."""
        game = games.load(self.game)
        try:
            seatings = seating.league_seatings(game.teams, game.duplicate_seatings)
        except ValueError as error:
            raise PlanError(f"{self.game}: {error}") from None
        return {
            (i, j): Plan(
                self.game,
                (self.players[i], self.players[j]),
                self.rounds,
                self.seed,
                duplicate=True,
                games=self.games,
                engine=self.engine,
                keep_rounds=self.keep_rounds,
                seat_plan=seatings,
            )
            for i, j in combinations(range(len(self.players)), 2)
        }

    @property
    def league_id(self) -> str:
        return f"league-{self.game}-{lineup_digest(self.game, self.players, asdict(self))}"


@dataclass
class LeagueResult:
    league: League
    matrix: pd.DataFrame  # one row per strategy and opponent
    ratings: pd.DataFrame  # one row per strategy, best first
    prior_draws: float  # virtual draws the ratings needed per pairing (0: the plain maximum likelihood)
    report: Path | None = None  # report.html


def pairing_folder(folder: Path, pairing: tuple[int, int]) -> Path:
    return folder / "pairings" / f"{pairing[0]}-{pairing[1]}"


def prepare(league: League, folder: Path) -> None:
    """Create ``folder`` for ``league``, or check that it already holds the same league."""
    config = {"league": asdict(league), "league_id": league.league_id}
    store = RunStore(folder)
    if (folder / "league.json").exists():
        stored = store.read_json("league.json")
        if not isinstance(stored, dict) or stored.get("league") != json.loads(json.dumps(config["league"])):
            raise ResultsError(f"{folder} holds a different league; choose another --out or delete it")
        return
    store.write_json("league.json", config)


def read_league(folder: Path) -> League:
    """The league a league folder holds, its league.json checked field by field (a League's fields are
    a plan's); ResultsError or PlanError in one line if it holds no league."""
    where = folder / "league.json"
    config = RunStore(folder).read_json(where.name)
    if not isinstance(config, dict) or not isinstance(config.get("league"), dict):
        raise ResultsError(f"{where} is not a cardsim league")
    league_fields = {field.name: PLAN_FIELDS[field.name] for field in fields(League)}
    settings = checked_settings(config["league"], league_fields, str(where))
    if not {"game", "players"} <= set(settings):
        raise ResultsError(f"{where} is not a cardsim league: it names no game or no players")
    return League(**settings)


def run(
    league: League,
    folder: Path,
    anchor: str | None = None,
    jobs: int = 1,
    backend: str = "loky",
    progress: bool = True,
) -> LeagueResult:
    """Play every pairing not already played in ``folder``, then write the matrix, ratings and plots."""
    league.validate()
    prepare(league, folder)
    for pairing, plan in league.pairing_plans().items():
        store = RunStore(pairing_folder(folder, pairing))
        label = f"{plan.players[0]} vs {plan.players[1]}"
        tournament.run(plan, store, jobs=jobs, backend=backend, progress=progress, label=label)
    return finish(league, folder, anchor)


def finish(league: League, folder: Path, anchor: str | None = None) -> LeagueResult:
    """The matrix and ratings of a league whose pairings are all played (their ``paired.csv`` written),
    written into ``folder`` with their plots and report.html."""
    anchor = league.players[0] if anchor is None else anchor
    if anchor not in league.players:
        raise PlanError(f"the anchor {anchor!r} is not one of the league's strategies")
    pairings = league.pairing_plans()
    paired = {pairing: _paired_row(pairing_folder(folder, pairing)) for pairing in pairings}
    matrix = matrix_table(league, paired)
    ratings, prior_draws = rating_table(league, paired, league.players.index(anchor))
    store = RunStore(folder)
    store.write_table("matrix.csv", matrix)
    store.write_table("ratings.csv", ratings)
    shape = league_shape(league, anchor)
    plots.draw_league_plots(folder, shape, matrix, ratings)
    where = [pairing_folder(folder, pairing) for pairing in pairings]
    report_file = page.write_league_report(
        folder,
        shape,
        command(league, folder, anchor),
        settings(league, anchor),
        ratings,
        matrix,
        prior_draws,
        [
            (plan.players[0], plan.players[1], str(path.relative_to(folder)))
            for plan, path in zip(pairings.values(), where)
        ],
        [RunStore(path).read_table("timing.csv") for path in where],
    )
    return LeagueResult(league, matrix, ratings, prior_draws, report_file)


def league_shape(league: League, anchor: str = "") -> plots.LeagueShape:
    """What the league plays, as reports and plots name it."""
    game = games.load(league.game)
    return plots.LeagueShape(
        game,
        league.players,
        league.rounds,
        whole_games=league.games,
        seatings=len(seating.league_seatings(game.teams, game.duplicate_seatings)),
        anchor=anchor,
        seed=league.seed,
    )


def command(league: League, folder: Path, anchor: str) -> str:
    """A ``cardsim league`` command that plays ``league`` into ``folder``: run, it shows the league (or
    resumes it)."""
    words = ["cardsim", "league", "--game", league.game, "--players", ",".join(league.players)]
    words += ["--rounds", str(league.rounds), "--seed", str(league.seed)] + ["--games"] * league.games
    words += ["--engine", league.engine] if league.engine else []
    words += ["--no-rounds"] * (not league.keep_rounds) + ["--anchor", anchor, "--out", str(folder)]
    return shlex.join(words)


def settings(league: League, anchor: str) -> list[tuple[str, str]]:
    """The league's settings in words, one line each, as its report lists them."""
    game = games.load(league.game)
    unit = "games" if league.games else "deals"
    seatings = seating.league_seatings(game.teams, game.duplicate_seatings)
    return [
        ("game", league.game),
        ("strategies", ", ".join(league.players)),
        (f"{unit} a pairing", f"{league.rounds:,}"),
        ("seed", str(league.seed)),
        ("seatings", f"{len(seatings)} a {unit[:-1]}: every fair lineup of the two, in the game's duplicate seatings"),
        ("engine", league.engine or "the game's fastest"),
        ("anchor", f"{anchor} (rated 0)"),
        ("per-round rows", "kept" if league.keep_rounds else "not kept (--no-rounds)"),
        ("league id", league.league_id),
    ]


def stored_anchor(league: League, folder: Path) -> str:
    """The strategy a finished league was rated against: the one its ratings.csv holds at 0 with the
    interval [0, 0]; the first strategy when there is no such file yet."""
    if not (folder / "ratings.csv").exists():
        return league.players[0]
    ratings = RunStore(folder).read_table("ratings.csv")
    try:
        held = ratings.loc[(ratings["rating"] == 0) & (ratings["ci95_low"] == 0) & (ratings["ci95_high"] == 0)]
        names = [name for name in held["strategy"] if name in league.players]
    except (KeyError, TypeError):
        names = []
    return names[0] if names else league.players[0]


def _paired_row(run_folder: Path) -> pd.Series:
    """The one row of a finished pairing's paired table (``paired.csv``)."""
    if not (run_folder / "paired.csv").exists():
        raise ResultsError(f"{run_folder} is unfinished: run the league again to resume it")
    return RunStore(run_folder).read_table("paired.csv").iloc[0]


def matrix_table(league: League, paired: dict[tuple[int, int], pd.Series]) -> pd.DataFrame:
    """One row per strategy and opponent: the comparisons it won, drew and lost, its score rate,
    Elo and LOS, and its paired difference in points per round (strategy minus opponent)."""
    rows = []
    for (i, j), pair in paired.items():
        for me, them, flip in ((i, j, False), (j, i, True)):
            wins, losses = (pair["losses"], pair["wins"]) if flip else (pair["wins"], pair["losses"])
            sign = -1.0 if flip else 1.0
            low, high = sorted((sign * pair["ci95_low"], sign * pair["ci95_high"]))
            rows.append(
                {
                    "strategy": league.players[me],
                    "opponent": league.players[them],
                    "deals": int(pair["deals"]),
                    **report.outcome_columns(int(wins), int(pair["draws"]), int(losses)),
                    "mean_diff": sign * pair["mean_diff"],
                    "diff_ci95_low": low,
                    "diff_ci95_high": high,
                }
            )
    order = {name: index for index, name in enumerate(league.players)}
    table = pd.DataFrame(rows)
    return table.sort_values(["strategy", "opponent"], key=lambda names: names.map(order), ignore_index=True)


def rating_table(league: League, paired: dict[tuple[int, int], pd.Series], anchor: int) -> tuple[pd.DataFrame, float]:
    """Every strategy's Elo rating with its interval (``anchor`` at 0), best first, and the virtual
    draws per pairing the fit needed: none, unless a strategy won or lost every comparison, whose
    rating would have no finite maximum (then one draw per pairing, BayesElo's prior, and it says so)."""
    encounters = [stats.Encounter(i, j, pair["wins"], pair["draws"], pair["losses"]) for (i, j), pair in paired.items()]
    prior_draws = 0.0
    try:
        ratings = stats.paired_comparison_ratings(len(league.players), encounters, anchor)
    except ValueError:
        prior_draws = 1.0
        ratings = stats.paired_comparison_ratings(len(league.players), encounters, anchor, virtual_draws=prior_draws)
    records = {name: [0, 0, 0] for name in league.players}  # comparisons won, drawn, lost
    for (i, j), pair in paired.items():
        for index, won, lost in ((i, "wins", "losses"), (j, "losses", "wins")):
            record = records[league.players[index]]
            record[0] += int(pair[won])
            record[1] += int(pair["draws"])
            record[2] += int(pair[lost])
    scores = [stats.score_interval(*records[name]) for name in league.players]
    table = pd.DataFrame(
        {
            "strategy": list(league.players),
            "rating": [rating.estimate for rating in ratings],
            "ci95_low": [rating.low for rating in ratings],
            "ci95_high": [rating.high for rating in ratings],
            "comparisons": [sum(records[name]) for name in league.players],
            "score_rate": [score.estimate for score in scores],
            "score_ci95_low": [score.low for score in scores],
            "score_ci95_high": [score.high for score in scores],
        }
    )
    return table.sort_values("rating", ascending=False, ignore_index=True), prior_draws


def format_league(result: LeagueResult, anchor: str) -> str:
    """The rating list and the matrix of score rates as terminal text, each table followed by what its
    columns mean."""
    league = result.league
    shape = league_shape(league, anchor)
    unit = shape.unit
    lines = [
        f"{league.game} league: {len(league.players)} strategies, {shape.pairings} pairings of "
        f"{league.rounds:,} {unit}s, each {unit} in {shape.seatings} seatings, seed {league.seed}",
        "",
        f"Ratings (Elo, maximum likelihood over every {unit}; {anchor} = 0), best first:",
        *report.text_table(result.ratings, report.rating_columns(shape)),
    ]
    if result.prior_draws:
        lines.append(
            f"(some strategy won or lost every {unit} it played, which no finite rating fits: "
            f"{result.prior_draws:g} virtual draw per pairing added, BayesElo's prior)"
        )
    order = list(result.ratings["strategy"])
    cells = result.matrix.pivot(index="strategy", columns="opponent", values="score_rate")
    shown = cells.reindex(index=order, columns=order).map(lambda rate: "" if rate != rate else report.percent(rate))
    lines += [
        "",
        f"Head to head: the row's score against the column ({unit}s won, draws half; matrix.csv and "
        "report.html have the intervals, Elo, LOS and points):",
        shown.to_string(),
    ]
    return "\n".join(lines)
