"""The PNG plots of a run and of a league, drawn from their tables.

Plots take tables (the summary, paired, matrix and rating tables, each strategy's histogram of
points) and a plain description of what was played (``RunShape``, ``LeagueShape``), never the
objects that produced them: the pipeline's arrows run league -> tournament -> report -> plots.

Every plot's title names the game, the size of what was played and which way is better; every
interval says what it rests on in the run's own units; strategies come best first. A strategy spec
too long for an axis is drawn under a short label (``mc [A]``), spelled out in a key under the plot.
Each plot is built as a ``Figure`` by its own function (``figures`` builds all of a run's), so it can
be inspected before it is saved.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sim import games
from sim.files import atomic_write_bytes
from sim.seating import Seating

if TYPE_CHECKING:  # matplotlib and pandas load with the first plot drawn, not with the shapes plans use
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

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
# A strategy spec longer than this is drawn under a short label and spelled out in a key.
MAX_LABEL_CHARACTERS = 24
KEY_WIDTH_CHARACTERS = 110  # a key's lines, at its font size, across the figure


@dataclass(frozen=True)
class RunShape:
    """What a run played, as plots and reports name it: its game, lineup, size and seatings."""

    game: games.Game
    players: tuple[str, ...]  # the lineup's specs, one per player (a seating seats them by index)
    rounds: int  # deal (or game) ids
    seatings: tuple[Seating, ...]  # per seating, the index into ``players`` of each seat's player
    whole_games: bool = False
    engine: str = "fast"
    seed: int = 0
    duplicate: bool = False

    @property
    def strategy_names(self) -> list[str]:
        """The distinct strategies of the lineup, in lineup order."""
        return list(dict.fromkeys(self.players))

    @property
    def unit(self) -> str:
        """What one id of the run is: a whole game, or the deal of one round."""
        return "game" if self.whole_games else "deal"

    @property
    def better(self) -> str:
        return "lower is better" if self.game.lower_is_better else "higher is better"

    @property
    def size(self) -> str:
        """The run in one line: "straights · 10,000 deals × 4 seatings, fast engine"."""
        ids = count(self.rounds, self.unit)
        played = f"{ids} × {len(self.seatings)} seatings" if len(self.seatings) > 1 else f"{ids}, fixed seats"
        return f"{self.game.name} · {played}, {self.engine} engine"

    @property
    def mean_points(self) -> str:
        """What the summary's mean points are: per round, and in game mode over whole games."""
        return "mean points per round, over whole games" if self.whole_games else "mean points per round"

    @property
    def score(self) -> str:
        """What one value of the points distribution is."""
        return "final score of a game" if self.whole_games else "points in a round"

    def opposed(self, a: str, b: str) -> bool:
        """Whether strategies ``a`` and ``b`` ever sit on opposing sides: partners in every seating
        share their points, so comparing them compares nothing."""
        teams = self.game.teams
        return any(
            teams[seat] != teams[other]
            for seats in self.seatings
            for seat, player in enumerate(seats)
            for other, rival in enumerate(seats)
            if self.players[player] == a and self.players[rival] == b
        )

    def sample(self, name: str, n: int) -> str:
        """What strategy ``name``'s ``n`` values are: one per deal (or game), seating and team it sits
        in (partners count once), as in "n = 200 (100 games × 2 seatings)"."""
        held = [
            len({self.game.teams[seat] for seat, player in enumerate(seats) if self.players[player] == name})
            for seats in self.seatings
        ]
        if n != self.rounds * sum(held):
            return f"n = {n:,}"
        counted = "partnership" if self.game.has_partnerships else "seat"
        factors = [count(self.rounds, self.unit)]
        if len(set(held)) > 1:  # a league's seatings: more seats in some than in others
            factors.append(f"{count(sum(held), counted)} over {len(held)} seatings")
        else:
            if len(held) > 1:
                factors.append(f"{len(held)} seatings")
            if held[0] > 1:
                factors.append(count(held[0], counted))
        return f"n = {factors[0]}" if len(factors) == 1 else f"n = {n:,} ({' × '.join(factors)})"

    def paired_sample(self, ids: int) -> str:
        """What a paired difference rests on: one value per deal (or game), its seatings taken together."""
        together = f", each over its {len(self.seatings)} seatings" if len(self.seatings) > 1 else ""
        return f"n = {count(ids, self.unit)}{together}"

    def title(self, what: str, better: str = "") -> str:
        """A plot's title: what it shows and which way is better, the run, and how partners count."""
        lines = [f"{what} · {better or self.better}", self.size]
        if self.game.has_partnerships:
            lines.append(f"(partners share their points: each {self.unit} counts once per partnership)")
        return "\n".join(lines)


@dataclass(frozen=True)
class LeagueShape:
    """What a league played, as plots and reports name it."""

    game: games.Game
    players: tuple[str, ...]
    rounds: int  # deal (or game) ids of each pairing
    whole_games: bool = False
    seatings: int = 1  # the seatings each deal of a pairing is played in
    anchor: str = ""  # the strategy rated 0
    seed: int = 0

    @property
    def unit(self) -> str:
        return "game" if self.whole_games else "deal"

    @property
    def pairings(self) -> int:
        return len(self.players) * (len(self.players) - 1) // 2

    @property
    def size(self) -> str:
        """The league in one line: "straights · 4 strategies, 6 pairings of 1,000 deals each"."""
        each = count(self.rounds, self.unit)
        return f"{self.game.name} · {len(self.players)} strategies, {self.pairings} pairings of {each} each"


def short_labels(names: Iterable[str]) -> dict[str, str]:
    """Each strategy spec's label on a plot: itself when short, else its name and a letter
    (``mc [A]``), the letters in the order the specs come."""
    labels, letters = {}, iter("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for name in dict.fromkeys(names):
        if len(name) <= MAX_LABEL_CHARACTERS:
            labels[name] = name
        else:
            base = name.split(":", 1)[0][:MAX_LABEL_CHARACTERS]
            labels[name] = f"{base} [{next(letters, '?')}]"
    return labels


def _add_key(figure: Figure, labels: Mapping[str, str]) -> None:
    """Spell out the specs drawn under short labels, under the plot."""
    spelled = [f"{label.rsplit(' ', 1)[1]} {name}" for name, label in labels.items() if label != name]
    if spelled:
        lines = [textwrap.fill(entry, KEY_WIDTH_CHARACTERS, subsequent_indent="    ") for entry in spelled]
        figure.supxlabel("\n".join(lines), fontsize=8, x=0.01, ha="left", family="monospace")


def draw_plots(
    directory: Path,
    shape: RunShape,
    summary: pd.DataFrame,
    paired: pd.DataFrame,
    histograms: Mapping[str, Sequence[int]],
) -> list[Path]:
    """Write the PNG plots of a run into ``directory``; returns their paths."""
    return [_save(figure, directory / name) for name, figure in figures(shape, summary, paired, histograms).items()]


def figures(
    shape: RunShape, summary: pd.DataFrame, paired: pd.DataFrame, histograms: Mapping[str, Sequence[int]]
) -> dict[str, Figure]:
    """A run's plots by file name: the distribution and the mean of points always, win rates for
    whole games, and the paired differences when the paired table has rows. ``histograms`` holds each
    strategy's count of results at each score (0, 1, 2, ...)."""
    built = {
        POINTS_DISTRIBUTION: points_distribution_figure(shape, summary, histograms),
        MEAN_POINTS: mean_points_figure(shape, summary),
    }
    if shape.whole_games:
        built[WIN_RATE] = win_rate_figure(shape, summary)
    if len(paired):
        built[PAIRED_DIFFERENCES] = paired_differences_figure(shape, paired)
    return built


def points_distribution_figure(
    shape: RunShape, summary: pd.DataFrame, histograms: Mapping[str, Sequence[int]]
) -> Figure:
    """Each strategy's share of its rounds (or games) at each score, best strategy first: bars side by
    side when the scores span few values, cumulative shares when they span many."""
    ranked = _ranked(summary, "mean_points", shape.game.lower_is_better)
    labels = short_labels(ranked["strategy"])
    counts = [np.asarray(histograms[name], dtype=float) for name in ranked["strategy"]]
    low = min(int(np.flatnonzero(histogram)[0]) for histogram in counts)
    high = max(int(np.flatnonzero(histogram)[-1]) for histogram in counts)
    values = np.arange(low, high + 1)
    shares = [np.pad(histogram, (0, high + 1 - len(histogram)))[low:] / histogram.sum() for histogram in counts]
    legend = [
        f"{labels[name]}, {shape.sample(name, n)}" for name, n in zip(ranked["strategy"], _samples(shape, ranked))
    ]
    owner = "games" if shape.whole_games else "rounds"
    bars = len(values) <= MAX_BAR_VALUES
    what = "Distribution" if bars else "Cumulative distribution"
    figure, axes = titled(shape.title(f"{what} of the {shape.score}"), height=5.0)
    if bars:
        width = 0.8 / len(shares)
        for index, (share, label) in enumerate(zip(shares, legend)):
            axes.bar(values + (index - (len(shares) - 1) / 2) * width, share, width, label=label)
        axes.set_xticks(values)
        axes.set_ylabel(f"share of the strategy's {owner}")
    else:
        for share, label in zip(shares, legend):
            axes.step(values, np.cumsum(share), where="post", label=label)
        axes.set_ylim(0, 1.02)
        axes.set_ylabel(f"share of the strategy's {owner}\nscoring at most x")
    axes.yaxis.set_major_formatter(_percents())
    axes.set_xlabel(shape.score)
    axes.grid(alpha=0.3)
    axes.legend()
    _add_key(figure, labels)
    return figure


def mean_points_figure(shape: RunShape, summary: pd.DataFrame) -> Figure:
    """Each strategy's mean points with its 95% interval, best first."""
    ranked = _ranked(summary, "mean_points", shape.game.lower_is_better)
    labels = short_labels(ranked["strategy"])
    rows = [f"{labels[name]}\n{shape.sample(name, n)}" for name, n in zip(ranked["strategy"], _samples(shape, ranked))]
    figure = _interval_figure(
        shape.title(shape.mean_points.capitalize()),
        rows,
        ranked["mean_points"],
        ranked["ci95_low"],
        ranked["ci95_high"],
        f"{shape.mean_points} (95% CI)",
    )[0]
    _add_key(figure, labels)
    return figure


def win_rate_figure(shape: RunShape, summary: pd.DataFrame) -> Figure:
    """Each strategy's share of games won with its 95% interval, best first, beside the fair share
    of a game: one in the number of teams."""
    ranked = _ranked(summary, "win_rate", lower_is_better=False)
    labels = short_labels(ranked["strategy"])
    rows = [f"{labels[name]}\n{shape.sample(name, n)}" for name, n in zip(ranked["strategy"], ranked["games"])]
    figure, axes = _interval_figure(
        shape.title("Win rate", "higher is better"),
        rows,
        ranked["win_rate"],
        ranked["win_ci95_low"],
        ranked["win_ci95_high"],
        "games won, a win shared with another side counted as won (95% Wilson CI)",
    )
    teams = len(set(shape.game.teams))
    axes.axvline(1 / teams, color="grey", linestyle="--", label=f"fair share: 1 game in {teams} ({1 / teams:.0%})")
    axes.set_xlim(0, 1)
    axes.xaxis.set_major_formatter(_percents())
    axes.legend()
    _add_key(figure, labels)
    return figure


def paired_differences_figure(shape: RunShape, paired: pd.DataFrame) -> Figure:
    """A forest plot of the paired differences a − b, one row per pair of strategies that met on
    opposing sides (never two partners), with its 95% interval, as the paired table orders them,
    beside a line at zero (no difference)."""
    compared = paired[[shape.opposed(a, b) for a, b in zip(paired["strategy_a"], paired["strategy_b"])]]
    labels = short_labels([*compared["strategy_a"], *compared["strategy_b"]])
    rows = [
        f"{labels[a]} − {labels[b]}\n{shape.paired_sample(ids)}"
        for a, b, ids in zip(compared["strategy_a"], compared["strategy_b"], compared["deals"])
    ]
    if shape.game.lower_is_better:
        sides = "← a better (fewer points)        b better →"
    else:
        sides = "← b better        a better (more points) →"
    figure, axes = _interval_figure(
        shape.title(f"Paired differences, {shape.unit} by {shape.unit}"),
        rows,
        compared["mean_diff"],
        compared["ci95_low"],
        compared["ci95_high"],
        f"a − b in {shape.mean_points} (95% CI)\n{sides}",
    )
    axes.axvline(0, color="black", linewidth=1)
    _add_key(figure, labels)
    return figure


def draw_league_plots(directory: Path, shape: LeagueShape, matrix: pd.DataFrame, ratings: pd.DataFrame) -> list[Path]:
    """Write a league's heat map of score rates and its ratings into ``directory``; returns their paths."""
    return [
        _save(matrix_figure(shape, matrix, list(ratings["strategy"])), directory / MATRIX),
        _save(ratings_figure(shape, ratings), directory / RATINGS),
    ]


def matrix_figure(shape: LeagueShape, matrix: pd.DataFrame, order: list[str]) -> Figure:
    """The head-to-head matrix as a heat map: each cell the row's score rate against the column, with
    its 95% Wilson interval under it; rows and columns in rating order."""

    def cells(column: str) -> np.ndarray:
        table = matrix.pivot(index="strategy", columns="opponent", values=column)
        return table.reindex(index=order, columns=order).to_numpy(dtype=float)

    rates, lows, highs = cells("score_rate"), cells("score_ci95_low"), cells("score_ci95_high")
    labels = short_labels(order)
    names = [labels[name] for name in order]
    side = 2.5 + 0.9 * len(order)
    figure, axes = titled(f"Head to head: the row's score against the column · higher is better\n{shape.size}", side)
    image = axes.imshow(rates, cmap="RdBu", vmin=0.0, vmax=1.0)
    for row, column in np.ndindex(rates.shape):
        if not np.isnan(rates[row, column]):
            shade = "white" if abs(rates[row, column] - 0.5) > 0.3 else "black"
            text = f"{rates[row, column]:.0%}\n[{lows[row, column]:.0%}, {highs[row, column]:.0%}]"
            axes.text(column, row, text, ha="center", va="center", color=shade, fontsize=9)
    axes.set_xticks(range(len(order)), names, rotation=30, ha="right")
    axes.set_yticks(range(len(order)), names)
    axes.set_xlabel("opponent")
    figure.colorbar(image, ax=axes, format=_percents(), label=f"score: {shape.unit}s won, draws half (95% Wilson CI)")
    _add_key(figure, labels)
    return figure


def ratings_figure(shape: LeagueShape, ratings: pd.DataFrame) -> Figure:
    """The rating list: each strategy's Elo with its 95% interval, best on top, beside the anchor's 0."""
    labels = short_labels(ratings["strategy"])
    rows = [
        f"{labels[name]}\nn = {count(comparisons, shape.unit)}"
        for name, comparisons in zip(ratings["strategy"], ratings["comparisons"])
    ]
    held = f", {labels.get(shape.anchor, shape.anchor)} = 0" if shape.anchor else ""
    figure, axes = _interval_figure(
        f"Ratings · higher is better\n{shape.size}",
        rows,
        ratings["rating"],
        ratings["ci95_low"],
        ratings["ci95_high"],
        f"Elo (maximum likelihood, 95% CI){held}",
    )
    axes.axvline(0, color="grey", linestyle="--", linewidth=1)
    _add_key(figure, labels)
    return figure


def _interval_figure(title: str, labels: list[str], estimates, lows, highs, xlabel: str) -> tuple[Figure, Axes]:
    """One row per label, top to bottom: its estimate with its interval."""
    figure, axes = titled(title, height=2.4 + 0.8 * len(labels))
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


def titled(title: str, height: float) -> tuple[Figure, Axes]:
    """A new figure of one axes under ``title``, as every plot here is drawn (notebooks draw their own
    plots so, with a title from ``RunShape.title`` or ``LeagueShape.size``)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_INCHES, height), layout="constrained")
    figure.suptitle(title)
    return figure, figure.add_subplot()


def _percents() -> Any:
    """A tick formatter writing shares (0 to 1) as percentages."""
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0)


def _ranked(summary: pd.DataFrame, column: str, lower_is_better: bool) -> pd.DataFrame:
    """The summary's rows, best ``column`` first."""
    return summary.sort_values(column, ascending=lower_is_better, kind="stable", ignore_index=True)


def _samples(shape: RunShape, summary: pd.DataFrame) -> pd.Series:
    """The number of values each strategy's mean rests on: its games in game mode, else its rounds."""
    return summary["games"] if shape.whole_games else summary["rounds"]


def count(number: int, unit: str) -> str:
    """``number`` of ``unit``, with thousands separators: "1 deal", "10,000 games"."""
    return f"{number:,} {unit}" + ("" if number == 1 else "s")


def _save(figure: Figure, path: Path) -> Path:
    """Write ``figure`` to ``path`` as a PNG, atomically."""
    image = io.BytesIO()
    figure.savefig(image, format="png", dpi=DPI)
    atomic_write_bytes(path, image.getvalue())
    return path


def draw_learning_curve(path: Path, curve: pd.DataFrame, title: str) -> Path:
    """Write a training run's learning curve (``sim.training``'s table: per ``update``, ``loss`` and
    ``held_out_loss``, and a policy's ``agreement``, ``win_rate`` and ``teacher_win_rate`` or a value's
    ``explained``) to ``path`` as a PNG: the losses on the left axis; on the right a policy's held-out
    agreement with the teacher and the win rates (the network's, the teacher's on the same deals), or
    the share of the held-out margins' variance a value explains."""
    figure, axes = titled(title, 4.0)
    axes.plot(curve["update"], curve["loss"], label="training loss", color="tab:blue", alpha=0.6)
    axes.plot(curve["update"], curve["held_out_loss"], label="held-out loss", color="tab:blue")
    axes.set_xlabel("updates")
    shares = axes.twinx()
    if "agreement" in curve:
        axes.set_ylabel("cross-entropy")
        shares.plot(curve["update"], curve["agreement"], label="held-out agreement", color="tab:green")
        shares.plot(curve["update"], curve["win_rate"], label="win rate, held-out deals", color="tab:orange")
        shares.plot(
            curve["update"], curve["teacher_win_rate"], label="the teacher's", color="tab:orange", linestyle="--"
        )
    else:
        axes.set_ylabel("squared error (margins / their spread)")
        shares.plot(curve["update"], curve["explained"], label="variance explained, held out", color="tab:green")
    shares.set_ylim(0, 1)
    shares.yaxis.set_major_formatter(_percents())
    (losses, loss_labels), (rates, rate_labels) = axes.get_legend_handles_labels(), shares.get_legend_handles_labels()
    axes.legend(losses + rates, loss_labels + rate_labels, loc="center right", fontsize="small")
    return _save(figure, path)
