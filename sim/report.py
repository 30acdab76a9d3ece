"""A run's tables and how they are written: the chunks' aggregates merged into the summary, paired and
timing tables, their columns, and those tables as terminal text (``sim.page`` writes them as
``report.html``).

Reports take tables (data frames of what the CSV files hold) and plain descriptions of what was
played (``sim.plots.RunShape``, ``LeagueShape``), never the objects that produced them: the
pipeline's arrows run league -> tournament -> page -> report -> plots.

A table is shown through its ``Column``s: a header of one phrase, the CSV columns it shows, how they
are written and a line that explains it, printed under the table. The terminal and the page show the
same columns; on the page every cell names the CSV file, row and columns its numbers come from
(``data-csv``, ``data-row``, ``data-columns``), so a test can check each number against its file.
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from sim import stats
from sim.plots import LeagueShape, RunShape
from sim.timing import percentile_seconds

TEXT_WIDTH = 100  # the width of the explanations printed under a terminal table


# --------------------------------------------------------------------------- tables


def tables(
    shape: RunShape, aggregates: list[dict[str, Any]]
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, dict[str, Any]]:
    """The summary, paired and timing tables of chunk ``aggregates``, and the results merged (without
    the times, which differ from run to run and are kept apart from the results, which do not)."""
    merged = merge(aggregates)
    timing = timing_table(shape, merged.pop("timing"))
    return summary_table(shape, merged), paired_table(shape, merged), timing, merged


def merge(aggregates: list[dict[str, Any]]) -> dict[str, Any]:
    """The sum of chunk aggregates (histograms added bin by bin)."""

    def add(total: Any, part: Any) -> Any:
        if isinstance(part, dict):
            for key, value in part.items():
                total[key] = add(total[key], value) if key in total else _copy(value)
            return total
        if isinstance(part, list):
            longer, shorter = (total, part) if len(total) >= len(part) else (part, total)
            return [x + (shorter[i] if i < len(shorter) else 0) for i, x in enumerate(longer)]
        return total + part

    merged: dict[str, Any] = {}
    for part in aggregates:
        merged = add(merged, part)
    return merged


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


def histograms(merged: dict[str, Any]) -> dict[str, list[int]]:
    """Each strategy's count of results at each score (0, 1, 2, ...), from merged aggregates."""
    return {name: entry["histogram"] for name, entry in merged["strategies"].items()}


def summary_table(shape: RunShape, merged: dict[str, Any]) -> pd.DataFrame:
    """One row per strategy: rounds, mean points with a 95% interval, the share of its rounds (games)
    with the table's best result (fewest points, or most where more is better) with its Wilson
    interval, and in game mode its games won, drawn and lost with the rates' Wilson intervals."""
    rows = []
    for name in shape.strategy_names:
        entry = merged["strategies"][name]
        interval = stats.mean_interval_from_moments(entry["n"], entry["sum"], entry["sum_sq"])
        best = stats.wilson_interval(entry["best"], entry["n"])
        row = {
            "strategy": name,
            "seats": shape.players.count(name),
            "rounds": entry["game_rounds"] if shape.whole_games else entry["n"],
            "mean_points": interval.estimate,
            "ci95_low": interval.low,
            "ci95_high": interval.high,
            "best_share": best.estimate,
            "best_ci95_low": best.low,
            "best_ci95_high": best.high,
        }
        if shape.whole_games:
            # The win rate counts a shared win (a draw) as won, as the specs do for ties; the score
            # rate counts it half, as chess-engine testers do.
            wins = stats.wilson_interval(entry["wins"] + entry["draws"], entry["games"])
            score = stats.score_interval(entry["wins"], entry["draws"], entry["losses"])
            row.update(
                games=entry["games"],
                wins=entry["wins"],
                draws=entry["draws"],
                losses=entry["losses"],
                win_rate=wins.estimate,
                win_ci95_low=wins.low,
                win_ci95_high=wins.high,
                score_rate=score.estimate,
                score_ci95_low=score.low,
                score_ci95_high=score.high,
                mean_game_length=entry["game_rounds"] / entry["games"],
            )
        rows.append(row)
    return pd.DataFrame(rows)


PAIRED_COLUMNS = (
    "strategy_a",
    "strategy_b",
    "deals",
    "mean_diff",
    "ci95_low",
    "ci95_high",
    "variance_reduction",
    "wins",
    "draws",
    "losses",
    "score_rate",
    "score_ci95_low",
    "score_ci95_high",
    "elo",
    "elo_ci95_low",
    "elo_ci95_high",
    "los",
)


def paired_table(shape: RunShape, merged: dict[str, Any]) -> pd.DataFrame:
    """Per pair of strategies that met on opposing sides: the mean per-deal difference a - b with its
    interval and the variance pairing removed, and the deals (or games) a won, drew and lost against
    b as chess-engine testers read them: score rate, Elo difference with their intervals, and the
    likelihood that a is stronger. Two strategies that are partners in every seating share their
    points deal by deal: there is nothing to compare, and they have no row."""
    rows = []
    for key, pair in merged["pairs"].items():
        a, b = key.split("\t")
        if not shape.opposed(a, b):
            continue
        diff = pair["diff"]
        interval = stats.mean_interval_from_moments(diff["n"], diff["sum"], diff["sum_sq"])
        rows.append(
            {
                "strategy_a": a,
                "strategy_b": b,
                "deals": diff["n"],
                "mean_diff": interval.estimate,
                "ci95_low": interval.low,
                "ci95_high": interval.high,
                "variance_reduction": _variance_reduction(pair),
                **outcome_columns(pair["wins"], pair["draws"], pair["losses"]),
            }
        )
    return pd.DataFrame(rows, columns=list(PAIRED_COLUMNS))


def partners(shape: RunShape) -> list[tuple[str, str]]:
    """The pairs of strategies that are partners in every seating (and so are never compared)."""
    names = shape.strategy_names
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :] if not shape.opposed(a, b)]


def outcome_columns(wins: int, draws: int, losses: int) -> dict[str, float]:
    """A won-drawn-lost record as chess-engine testers read it: the counts, the score rate and the
    Elo difference with their 95% intervals (Wilson's for the score, and the Elo of its bounds), and
    the likelihood of superiority."""
    score, elo = stats.score_interval(wins, draws, losses), stats.elo_interval(wins, draws, losses)
    return {
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score_rate": score.estimate,
        "score_ci95_low": score.low,
        "score_ci95_high": score.high,
        "elo": elo.estimate,
        "elo_ci95_low": elo.low,
        "elo_ci95_high": elo.high,
        "los": stats.likelihood_of_superiority(wins, losses),
    }


def timing_table(shape: RunShape, timing: dict[str, Any]) -> pd.DataFrame:
    """Per strategy: the decisions it was timed over, the time it took over one, mean and 99th percentile,
    and how many of those decisions were a sample asked only to time it (a compiled policy's, ``sim.timing``)."""
    rows = []
    for name in shape.strategy_names:
        entry = timing[name]
        decisions = entry["decisions"]
        rows.append(
            {
                "strategy": name,
                "decisions": decisions,
                "seconds": entry["seconds"],
                "mean_seconds": entry["seconds"] / decisions if decisions else math.nan,
                "p99_seconds": percentile_seconds(entry["histogram"], 0.99),
                "sampled": entry.get("sampled", 0),  # runs stored before sampling have none
            }
        )
    columns = ["strategy", "decisions", "seconds", "mean_seconds", "p99_seconds", "sampled"]
    return pd.DataFrame(rows, columns=columns)


def _variance(moments: dict[str, float]) -> float:
    n = moments["n"]
    if n < 2:
        return math.nan
    return (moments["sum_sq"] - moments["sum"] ** 2 / n) / (n - 1)


def _variance_reduction(pair: dict[str, dict[str, float]]) -> float:
    """(var a + var b) / var(a - b) over per-deal results: how many times fewer deals pairing needs."""
    paired = _variance(pair["diff"])
    unpaired = _variance(pair["a"]) + _variance(pair["b"])
    return unpaired / paired if paired > 0 else math.nan


# --------------------------------------------------------------------------- how numbers are written


def whole(value: float) -> str:
    """A count with thousands separators: 12,345."""
    return "-" if _missing(value) else f"{int(value):,}"


def fixed(value: float, digits: int = 3, signed: bool = False) -> str:
    """A number to ``digits`` decimals (with its sign when ``signed``); infinities as ∞."""
    if _missing(value):
        return "-"
    if math.isinf(value):
        return ("+∞" if signed else "∞") if value > 0 else "-∞"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def percent(value: float, digits: int = 1) -> str:
    return "-" if _missing(value) else f"{value:.{digits}%}"


def elo(value: float) -> str:
    """An Elo difference, signed, to a tenth; an infinite one (a clean sweep) as +∞ or -∞."""
    return fixed(value, 1, signed=True)


def interval(low: float, high: float, show: Callable[[float], str]) -> str:
    return "-" if _missing(low) and _missing(high) else f"[{show(low)}, {show(high)}]"


def record(wins: int, draws: int, losses: int) -> str:
    """A won-drawn-lost record with thousands separators: 1,204-38-758."""
    return f"{int(wins):,}-{int(draws):,}-{int(losses):,}"


def format_seconds(seconds: float) -> str:
    """A decision's time in the unit that reads best: µs, ms or s."""
    if _missing(seconds):  # no decisions
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def _pairing_gain(ratio: float) -> str:
    if _missing(ratio):
        return "-"
    return f"x{ratio:.1f}" + (" (hurt)" if ratio < 1 else "")


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


# --------------------------------------------------------------------------- columns


@dataclass(frozen=True)
class Column:
    """One column of a shown table: its header (one phrase), the CSV columns it shows, how it writes
    their values, and what it means (printed under the table)."""

    header: str
    sources: tuple[str, ...]
    show: Callable[..., str]
    explain: str
    name: bool = False  # a name: left-aligned, and on the page text, not a number


def _named(header: str, source: str, explain: str) -> Column:
    return Column(header, (source,), str, explain, name=True)


def _units(shape: RunShape) -> tuple[str, str]:
    return (shape.unit + "s", shape.unit)


def summary_columns(shape: RunShape) -> list[Column]:
    """The summary's points: mean points and the share of rounds with the table's best result."""
    counted = "partnership it plays in" if shape.game.has_partnerships else "seat it holds"
    best = "fewest" if shape.game.lower_is_better else "most"
    owner = "games" if shape.whole_games else "rounds"
    rounds = (
        f"the rounds of its games, over every seating and {counted}"
        if shape.whole_games
        else f"the results its figures rest on, one per deal, seating and {counted}"
    )
    return [
        _named("strategy", "strategy", "the strategy as the lineup names it"),
        Column("seats", ("seats",), whole, "the seats it holds in the lineup"),
        Column("rounds", ("rounds",), whole, rounds),
        Column(
            "mean points",
            ("mean_points",),
            fixed,
            f"its {shape.mean_points} ({shape.better})",
        ),
        Column(
            "95% CI",
            ("ci95_low", "ci95_high"),
            lambda low, high: interval(low, high, fixed),
            "the mean's 95% confidence interval (normal approximation)",
        ),
        Column(
            f"{best}-points share",
            ("best_share",),
            percent,
            f"the share of its {owner} with the table's {best} points, ties counting for everyone tied",
        ),
        Column(
            "share 95% CI",
            ("best_ci95_low", "best_ci95_high"),
            lambda low, high: interval(low, high, percent),
            "that share's 95% Wilson interval",
        ),
    ]


def outcome_summary_columns(shape: RunShape) -> list[Column]:
    """The summary's whole games: won, drawn, lost, and the rates with their intervals."""
    counted = "partnership it plays in" if shape.game.has_partnerships else "seat it holds"
    return [
        _named("strategy", "strategy", "the strategy as the lineup names it"),
        Column("games", ("games",), whole, f"the games it counts in: one per game, seating and {counted}"),
        Column(
            "W-D-L",
            ("wins", "draws", "losses"),
            record,
            "games won, drawn (the win shared with another side) and lost",
        ),
        Column("score", ("score_rate",), percent, "the score rate: wins and half the draws, over the games"),
        Column(
            "score 95% CI",
            ("score_ci95_low", "score_ci95_high"),
            lambda low, high: interval(low, high, percent),
            "its 95% Wilson interval (a draw counting half a win)",
        ),
        Column("win rate", ("win_rate",), percent, "games won, a shared win counting as won (as the specs count ties)"),
        Column(
            "win-rate 95% CI",
            ("win_ci95_low", "win_ci95_high"),
            lambda low, high: interval(low, high, percent),
            "its 95% Wilson interval",
        ),
        Column(
            "mean length",
            ("mean_game_length",),
            lambda value: fixed(value, 2),
            "rounds (hands) a game lasted, on average",
        ),
    ]


def paired_points_columns(shape: RunShape) -> list[Column]:
    unit, one = _units(shape)
    better = (
        "negative: a scores fewer points, which is better"
        if shape.game.lower_is_better
        else ("positive: a scores more points, which is better")
    )
    return [
        _named("a", "strategy_a", "the first strategy of the pair"),
        _named("b", "strategy_b", "the second"),
        Column(unit, ("deals",), whole, f"the {unit} compared, each over all its seatings"),
        Column(
            "mean difference",
            ("mean_diff",),
            lambda value: fixed(value, 3, signed=True),
            f"a's points per round minus b's, {one} by {one} ({better})",
        ),
        Column(
            "95% CI",
            ("ci95_low", "ci95_high"),
            lambda low, high: interval(low, high, lambda value: fixed(value, 3, signed=True)),
            "the difference's 95% confidence interval (normal approximation)",
        ),
        Column(
            "pairing gain",
            ("variance_reduction",),
            _pairing_gain,
            f"the variance of a and b apart over the variance of a - b: above x1 pairing helped (an unpaired "
            f"comparison would need that many times more {unit}), below x1 it hurt",
        ),
    ]


def paired_outcome_columns(shape: RunShape) -> list[Column]:
    unit, one = _units(shape)
    return [
        _named("a", "strategy_a", "the first strategy of the pair"),
        _named("b", "strategy_b", "the second"),
        Column("W-D-L", ("wins", "draws", "losses"), record, f"{unit} a won, drew and lost against b"),
        Column("score", ("score_rate",), percent, f"a's score rate: {unit} won and half the drawn"),
        Column(
            "score 95% CI",
            ("score_ci95_low", "score_ci95_high"),
            lambda low, high: interval(low, high, percent),
            "its 95% Wilson interval (a draw counting half a win): never zero wide, 100% included",
        ),
        Column("Elo", ("elo",), elo, "the Elo difference the score implies, 400·log10(s/(1 - s)); ∞ for a sweep"),
        Column(
            "Elo 95% CI",
            ("elo_ci95_low", "elo_ci95_high"),
            lambda low, high: interval(low, high, elo),
            "the Elo of the score interval's ends (∞ where the score's end is 100%)",
        ),
        Column("LOS", ("los",), percent, "the likelihood that a is the stronger, Φ((W - L)/√(W + L))"),
    ]


def timing_columns() -> list[Column]:
    return [
        _named("strategy", "strategy", "the strategy"),
        Column("decisions", ("decisions",), whole, "the decisions it was asked for in Python and timed"),
        Column(
            "of them sampled",
            ("sampled",),
            whole,
            "those of a compiled policy, which decides inside the fast engine untimed: the first chunk's first "
            "deals played again with it asked from Python in batches, timed once each batch's observations are "
            "laid out (0: every decision timed as the run played it)",
        ),
        Column(
            "mean time",
            ("mean_seconds",),
            format_seconds,
            "the time a decision took, on average (a batched call's time shared among its decisions)",
        ),
        Column("99th percentile", ("p99_seconds",), format_seconds, "99% of decisions took at most this long"),
        Column("total time", ("seconds",), lambda value: fixed(value, 1) + " s", "all its decisions together"),
    ]


def _points(value: float) -> str:
    return fixed(value, 2)


def _signed_points(value: float) -> str:
    return fixed(value, 2, signed=True)


def training_columns(learn: str) -> list[Column]:
    """The columns of a training run's learning curve (``curve.csv``): a policy's or a value's."""
    common = [
        Column("updates", ("update",), whole, "Adam steps made when it was measured"),
        Column("training loss", ("loss",), fixed, "the loss of that step's minibatch"),
        Column("held-out loss", ("held_out_loss",), fixed, "the loss on the held-out positions (10%, the last)"),
    ]
    if learn == "value":
        return common + [
            Column(
                "held-out error",
                ("held_out_error",),
                lambda value: fixed(value, 2),
                "its root mean squared error, in points",
            ),
            Column("explained", ("explained",), percent, "the share of the held-out targets' variance it explains"),
        ]
    return common + [
        Column("agreement", ("agreement",), percent, "held-out positions where its best legal action is the teacher's"),
        Column("win rate", ("win_rate",), percent, "held-out deals it scored best in, playing greedily in seat 0"),
        Column("mean reward", ("mean_reward",), _signed_points, "its mean reward there"),
        Column("teacher's win rate", ("teacher_win_rate",), percent, "the teacher's, in its place on those deals"),
        Column(
            "teacher's reward",
            ("teacher_mean_reward",),
            lambda value: fixed(value, 2, signed=True),
            "and its mean reward",
        ),
    ]


def rating_columns(shape: LeagueShape) -> list[Column]:
    unit = shape.unit + "s"
    return [
        _named("strategy", "strategy", "best first"),
        Column("Elo", ("rating",), elo, f"its rating, {shape.anchor or 'the anchor'} = 0 (maximum likelihood)"),
        Column(
            "95% CI",
            ("ci95_low", "ci95_high"),
            lambda low, high: interval(low, high, elo),
            "the rating's 95% interval, from the likelihood's curvature",
        ),
        Column(unit, ("comparisons",), whole, f"the {unit} it played over all its pairings"),
        Column("score", ("score_rate",), percent, f"its score over them: {unit} won and half the drawn"),
        Column(
            "score 95% CI",
            ("score_ci95_low", "score_ci95_high"),
            lambda low, high: interval(low, high, percent),
            "the score's 95% Wilson interval",
        ),
    ]


def matrix_columns(shape: LeagueShape) -> list[Column]:
    unit = shape.unit + "s"
    better = "fewer points are better" if shape.game.lower_is_better else "more points are better"
    return [
        _named("strategy", "strategy", "the row's strategy"),
        _named("opponent", "opponent", "the strategy it met"),
        Column(unit, ("deals",), whole, f"the {unit} of their pairing, each over all its seatings"),
        Column("W-D-L", ("wins", "draws", "losses"), record, f"{unit} it won, drew and lost against the opponent"),
        Column("score", ("score_rate",), percent, "its score rate: won and half the drawn"),
        Column(
            "score 95% CI",
            ("score_ci95_low", "score_ci95_high"),
            lambda low, high: interval(low, high, percent),
            "its 95% Wilson interval",
        ),
        Column("Elo", ("elo",), elo, "the Elo difference the score implies; ∞ for a sweep"),
        Column(
            "Elo 95% CI", ("elo_ci95_low", "elo_ci95_high"), lambda low, high: interval(low, high, elo), "its interval"
        ),
        Column("LOS", ("los",), percent, "the likelihood that it is the stronger"),
        Column(
            "mean difference",
            ("mean_diff",),
            lambda value: fixed(value, 3, signed=True),
            f"its points per round minus the opponent's ({better})",
        ),
        Column(
            "difference 95% CI",
            ("diff_ci95_low", "diff_ci95_high"),
            lambda low, high: interval(low, high, lambda value: fixed(value, 3, signed=True)),
            "the difference's 95% confidence interval",
        ),
    ]


def cells(table: pd.DataFrame, columns: Sequence[Column]) -> list[list[str]]:
    """Each row of ``table`` written through ``columns``."""
    return [
        [column.show(*(row[source] for source in column.sources)) for column in columns] for _, row in table.iterrows()
    ]


# --------------------------------------------------------------------------- terminal text


def text_table(table: pd.DataFrame, columns: Sequence[Column]) -> list[str]:
    """``table`` through ``columns`` as terminal lines: two spaces between columns and each header
    underlined on its own (a header of two words is one column), then what each column means."""
    rows = cells(table, columns)
    widths = [max(len(column.header), *(len(row[index]) for row in rows)) for index, column in enumerate(columns)]

    def line(texts: Sequence[str]) -> str:
        placed = [
            text.ljust(width) if column.name else text.rjust(width)
            for text, width, column in zip(texts, widths, columns)
        ]
        return "  ".join(placed).rstrip()

    lines = [line([column.header for column in columns]), "  ".join("─" * width for width in widths)]
    lines += [line(row) for row in rows]
    explained = "; ".join(f"{column.header}: {column.explain}" for column in columns if column.explain)
    lines += textwrap.wrap(f"({explained})", TEXT_WIDTH)
    return lines


def run_headline(shape: RunShape) -> str:
    unit = shape.unit + "s"
    played = (
        f"each in {len(shape.seatings)} duplicate seatings ({shape.rounds * len(shape.seatings):,} played)"
        if shape.duplicate
        else "fixed seats"
    )
    return f"{shape.game.name}: {shape.rounds:,} {unit}, {played}, {shape.engine} engine, seed {shape.seed}"


def format_summary(
    shape: RunShape, summary: pd.DataFrame, paired: pd.DataFrame, timing: pd.DataFrame | None = None
) -> str:
    """The summary tables, for duplicate runs the paired comparisons, and the decision times, as
    terminal text, each table followed by what its columns mean."""
    unit, one = _units(shape)
    lines = [run_headline(shape), "", *text_table(summary, summary_columns(shape))]
    if shape.whole_games:
        lines += ["", *text_table(summary, outcome_summary_columns(shape))]
    if shape.game.has_partnerships:
        lines.append(f"(partners share their points: each {one} counts once per partnership)")
    if shape.duplicate and len(paired):
        decided = (
            "the game scores decide"
            if shape.whole_games
            else "fewer points win"
            if shape.game.lower_is_better
            else "more points win"
        )
        lines += [
            "",
            f"Paired per-{one} differences in points, a - b:",
            *text_table(paired, paired_points_columns(shape)),
            "",
            f"{one.capitalize()} by {one}, a against b (all seatings of a {one} together; {decided}):",
            *text_table(paired, paired_outcome_columns(shape)),
        ]
    for a, b in partners(shape):
        lines.append(f"({a} and {b} are partners in every seating: they share their points, so are not compared)")
    if timing is not None and len(timing):
        lines += ["", "Decision time per strategy:", *text_table(timing, timing_columns())]
    return "\n".join(lines)
