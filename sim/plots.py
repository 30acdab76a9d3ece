"""The PNG plots of a run, drawn from its summary and paired tables and its stored aggregates.

Every plot's title names the game, the run's size and which way is better; every interval says what
it rests on in the run's own units; strategies come best first. Each plot is built as a ``Figure``
by its own function (``figures`` builds all of a run's), so it can be inspected before
``draw_plots`` saves it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from sim import games
from sim.files import atomic_write_bytes
from sim.league import League
from sim.report import has_partnerships
from sim.tournament import Plan

POINTS_DISTRIBUTION = "points_distribution.png"
MEAN_POINTS = "mean_points.png"
WIN_RATE = "win_rate.png"
PAIRED_DIFFERENCES = "paired_differences.png"
PLOTS = (POINTS_DISTRIBUTION, MEAN_POINTS, WIN_RATE, PAIRED_DIFFERENCES)
MATRIX = "matrix.png"  # a league's
RATINGS = "ratings.png"

# Scores spanning at most this many whole numbers are drawn as bars, wider spans as cumulative shares.
MAX_BAR_VALUES = 30
WIDTH_INCHES = 9.0
DPI = 100


@dataclass(frozen=True)
class RunShape:
    """How the plots name a run: its game, its size, its units and which way is better."""

    plan: Plan
    game: games.Game

    @property
    def seatings(self) -> int:
        """How many seatings each deal (or game) was played under."""
        return len(self.plan.seatings(self.game))

    @property
    def unit(self) -> str:
        """What one id of the run is: a whole game, or the deal of one round."""
        return "game" if self.plan.games else "deal"

    @property
    def better(self) -> str:
        return "lower is better" if self.game.lower_is_better else "higher is better"

    @property
    def size(self) -> str:
        """The run in one line: "straights · 10,000 deals × 4 seatings, fast engine"."""
        ids = _count(self.plan.rounds, self.unit)
        played = f"{ids} × {self.seatings} seatings" if self.seatings > 1 else f"{ids}, fixed seats"
        return f"{self.plan.game} · {played}, {self.plan.engine} engine"

    @property
    def mean_points(self) -> str:
        """What the summary's mean points are: per round, and in game mode over whole games."""
        return "mean points per round, over whole games" if self.plan.games else "mean points per round"

    @property
    def score(self) -> str:
        """What one value of the points distribution is."""
        return "final score of a game" if self.plan.games else "points in a round"

    def sample(self, name: str, n: int) -> str:
        """What strategy ``name``'s ``n`` values are: one per deal (or game), seating and team it sits
        in (partners count once), as in "n = 200 (100 games × 2 seatings)"."""
        held = [
            len({self.game.teams[seat] for seat, player in enumerate(seats) if self.plan.players[player] == name})
            for seats in self.plan.seatings(self.game)
        ]
        if n != self.plan.rounds * sum(held):
            return f"n = {n:,}"
        counted = "partnership" if has_partnerships(self.game) else "seat"
        factors = [_count(self.plan.rounds, self.unit)]
        if len(set(held)) > 1:  # a league's seatings: more seats in some than in others
            factors.append(f"{_count(sum(held), counted)} over {len(held)} seatings")
        else:
            if len(held) > 1:
                factors.append(f"{len(held)} seatings")
            if held[0] > 1:
                factors.append(_count(held[0], counted))
        return f"n = {factors[0]}" if len(factors) == 1 else f"n = {n:,} ({' × '.join(factors)})"

    def paired_sample(self, ids: int) -> str:
        """What a paired difference rests on: one value per deal (or game), its seatings taken together."""
        together = f", each over its {self.seatings} seatings" if self.seatings > 1 else ""
        return f"n = {_count(ids, self.unit)}{together}"

    def title(self, what: str, better: str = "") -> str:
        """A plot's title: what it shows and which way is better, the run, and how partners count."""
        lines = [f"{what} · {better or self.better}", self.size]
        if has_partnerships(self.game):
            lines.append(f"(partners share their points: each {self.unit} counts once per partnership)")
        return "\n".join(lines)


def draw_plots(
    directory: Path, plan: Plan, summary: pd.DataFrame, paired: pd.DataFrame, merged: dict[str, Any]
) -> list[Path]:
    """Write the PNG plots of a run into ``directory``; returns their paths."""
    return [_save(figure, directory / name) for name, figure in figures(plan, summary, paired, merged).items()]


def figures(plan: Plan, summary: pd.DataFrame, paired: pd.DataFrame, merged: dict[str, Any]) -> dict[str, Figure]:
    """A run's plots by file name: the distribution and the mean of points always, win rates for
    whole games, and the paired differences when the paired table has rows."""
    shape = RunShape(plan, games.load(plan.game))
    built = {
        POINTS_DISTRIBUTION: points_distribution_figure(shape, summary, merged),
        MEAN_POINTS: mean_points_figure(shape, summary),
    }
    if plan.games:
        built[WIN_RATE] = win_rate_figure(shape, summary)
    if len(paired):
        built[PAIRED_DIFFERENCES] = paired_differences_figure(shape, paired)
    return built


def points_distribution_figure(shape: RunShape, summary: pd.DataFrame, merged: dict[str, Any]) -> Figure:
    """Each strategy's share of its rounds (or games) at each score, best strategy first: bars side by
    side when the scores span few values, cumulative shares when they span many."""
    ranked = _ranked(summary, "mean_points", shape.game.lower_is_better)
    counts = [np.asarray(merged["strategies"][name]["histogram"], dtype=float) for name in ranked["strategy"]]
    low = min(int(np.flatnonzero(histogram)[0]) for histogram in counts)
    high = max(int(np.flatnonzero(histogram)[-1]) for histogram in counts)
    values = np.arange(low, high + 1)
    shares = [np.pad(histogram, (0, high + 1 - len(histogram)))[low:] / histogram.sum() for histogram in counts]
    labels = [f"{name}, {shape.sample(name, n)}" for name, n in zip(ranked["strategy"], _samples(shape, ranked))]
    owner = "games" if shape.plan.games else "rounds"
    bars = len(values) <= MAX_BAR_VALUES
    what = "Distribution" if bars else "Cumulative distribution"
    figure, axes = _figure(shape.title(f"{what} of the {shape.score}"), height=5.0)
    if bars:
        width = 0.8 / len(shares)
        for index, (share, label) in enumerate(zip(shares, labels)):
            axes.bar(values + (index - (len(shares) - 1) / 2) * width, share, width, label=label)
        axes.set_xticks(values)
        axes.set_ylabel(f"share of the strategy's {owner}")
    else:
        for share, label in zip(shares, labels):
            axes.step(values, np.cumsum(share), where="post", label=label)
        axes.set_ylim(0, 1.02)
        axes.set_ylabel(f"share of the strategy's {owner}\nscoring at most x")
    axes.yaxis.set_major_formatter(PercentFormatter(1.0))
    axes.set_xlabel(shape.score)
    axes.grid(alpha=0.3)
    axes.legend()
    return figure


def mean_points_figure(shape: RunShape, summary: pd.DataFrame) -> Figure:
    """Each strategy's mean points with its 95% interval, best first."""
    ranked = _ranked(summary, "mean_points", shape.game.lower_is_better)
    labels = [f"{name}\n{shape.sample(name, n)}" for name, n in zip(ranked["strategy"], _samples(shape, ranked))]
    return _interval_figure(
        shape.title(shape.mean_points.capitalize()),
        labels,
        ranked["mean_points"],
        ranked["ci95_low"],
        ranked["ci95_high"],
        f"{shape.mean_points} (95% CI)",
    )[0]


def win_rate_figure(shape: RunShape, summary: pd.DataFrame) -> Figure:
    """Each strategy's share of games won with its 95% interval, best first, beside the fair share
    of a game: one in the number of teams."""
    ranked = _ranked(summary, "win_rate", lower_is_better=False)
    labels = [f"{name}\n{shape.sample(name, n)}" for name, n in zip(ranked["strategy"], ranked["games"])]
    figure, axes = _interval_figure(
        shape.title("Win rate", "higher is better"),
        labels,
        ranked["win_rate"],
        ranked["win_ci95_low"],
        ranked["win_ci95_high"],
        "games won, a win shared with another side counted as won (95% Wilson CI)",
    )
    teams = len(set(shape.game.teams))
    axes.axvline(1 / teams, color="grey", linestyle="--", label=f"fair share: 1 game in {teams} ({1 / teams:.0%})")
    axes.set_xlim(0, 1)
    axes.xaxis.set_major_formatter(PercentFormatter(1.0))
    axes.legend()
    return figure


def paired_differences_figure(shape: RunShape, paired: pd.DataFrame) -> Figure:
    """A forest plot of the paired differences a − b, one row per pair with its 95% interval, as the
    paired table orders them, beside a line at zero (no difference)."""
    labels = [
        f"{a} − {b}\n{shape.paired_sample(ids)}"
        for a, b, ids in zip(paired["strategy_a"], paired["strategy_b"], paired["deals"])
    ]
    if shape.game.lower_is_better:
        sides = "← a better (fewer points)        b better →"
    else:
        sides = "← b better        a better (more points) →"
    figure, axes = _interval_figure(
        shape.title(f"Paired differences, {shape.unit} by {shape.unit}"),
        labels,
        paired["mean_diff"],
        paired["ci95_low"],
        paired["ci95_high"],
        f"a − b in {shape.mean_points} (95% CI)\n{sides}",
    )
    axes.axvline(0, color="black", linewidth=1)
    return figure


def draw_league_plots(
    directory: Path, league: League, matrix: pd.DataFrame, ratings: pd.DataFrame, anchor: str
) -> list[Path]:
    """Write a league's heat map of score rates and its ratings into ``directory``; returns their paths."""
    return [
        _save(matrix_figure(league, matrix, list(ratings["strategy"])), directory / MATRIX),
        _save(ratings_figure(league, ratings, anchor), directory / RATINGS),
    ]


def league_size(league: League) -> str:
    """The league in one line: "straights · 4 strategies, 6 pairings of 1,000 deals each"."""
    count = len(league.players)
    unit = "game" if league.games else "deal"
    return (
        f"{league.game} · {count} strategies, {count * (count - 1) // 2} pairings of {_count(league.rounds, unit)} each"
    )


def matrix_figure(league: League, matrix: pd.DataFrame, order: list[str]) -> Figure:
    """The head-to-head matrix as a heat map: each cell the row's score rate against the column, with
    its 95% interval's half-width; rows and columns in rating order."""

    def cells(column: str) -> np.ndarray:
        table = matrix.pivot(index="strategy", columns="opponent", values=column)
        return table.reindex(index=order, columns=order).to_numpy(dtype=float)

    rates, lows, highs = cells("score_rate"), cells("score_ci95_low"), cells("score_ci95_high")
    side = 2.5 + 0.9 * len(order)
    unit = "game" if league.games else "deal"
    figure, axes = _figure(
        f"Head to head: the row's score against the column · higher is better\n{league_size(league)}", side
    )
    image = axes.imshow(rates, cmap="RdBu", vmin=0.0, vmax=1.0)
    for row, column in np.ndindex(rates.shape):
        if not np.isnan(rates[row, column]):
            half = (highs[row, column] - lows[row, column]) / 2
            shade = "white" if abs(rates[row, column] - 0.5) > 0.3 else "black"
            axes.text(column, row, f"{rates[row, column]:.0%}\n±{half:.0%}", ha="center", va="center", color=shade)
    axes.set_xticks(range(len(order)), order, rotation=30, ha="right")
    axes.set_yticks(range(len(order)), order)
    axes.set_xlabel("opponent")
    figure.colorbar(image, ax=axes, format=PercentFormatter(1.0), label=f"score: {unit}s won, draws half (95% CI)")
    return figure


def ratings_figure(league: League, ratings: pd.DataFrame, anchor: str) -> Figure:
    """The rating list: each strategy's Elo with its 95% interval, best on top, beside the anchor's 0."""
    unit = "game" if league.games else "deal"
    labels = [f"{name}\nn = {_count(count, unit)}" for name, count in zip(ratings["strategy"], ratings["comparisons"])]
    figure, axes = _interval_figure(
        f"Ratings · higher is better\n{league_size(league)}",
        labels,
        ratings["rating"],
        ratings["ci95_low"],
        ratings["ci95_high"],
        f"Elo (maximum likelihood, 95% CI), {anchor} = 0",
    )
    axes.axvline(0, color="grey", linestyle="--", linewidth=1)
    return figure


def _interval_figure(title: str, labels: list[str], estimates, lows, highs, xlabel: str) -> tuple[Figure, Axes]:
    """One row per label, top to bottom: its estimate with its interval."""
    figure, axes = _figure(title, height=2.4 + 0.8 * len(labels))
    estimates = np.asarray(estimates, dtype=float)
    positions = np.arange(len(labels))
    # Rounding can put an interval's end a hair inside its estimate; matplotlib refuses negative errors.
    errors = np.clip(np.vstack([estimates - np.asarray(lows), np.asarray(highs) - estimates]), 0, None)
    axes.errorbar(estimates, positions, xerr=errors, fmt="o", capsize=4)
    axes.set_yticks(positions, labels)
    axes.set_ylim(len(labels) - 0.5, -0.5)  # the first row on top
    axes.set_xlabel(xlabel)
    axes.grid(axis="x", alpha=0.3)
    return figure, axes


def _figure(title: str, height: float) -> tuple[Figure, Axes]:
    figure = Figure(figsize=(WIDTH_INCHES, height), layout="constrained")
    figure.suptitle(title)
    return figure, figure.add_subplot()


def _ranked(summary: pd.DataFrame, column: str, lower_is_better: bool) -> pd.DataFrame:
    """The summary's rows, best ``column`` first."""
    return summary.sort_values(column, ascending=lower_is_better, kind="stable", ignore_index=True)


def _samples(shape: RunShape, summary: pd.DataFrame) -> pd.Series:
    """The number of values each strategy's mean rests on: its games in game mode, else its rounds."""
    return summary["games"] if shape.plan.games else summary["rounds"]


def _count(number: int, unit: str) -> str:
    return f"{number:,} {unit}" + ("" if number == 1 else "s")


def _save(figure: Figure, path: Path) -> Path:
    """Write ``figure`` to ``path`` as a PNG, atomically."""
    image = io.BytesIO()
    figure.savefig(image, format="png", dpi=DPI)
    atomic_write_bytes(path, image.getvalue())
    return path
