"""A run's tables: the chunks' aggregates merged into the summary, paired and timing tables, and
those tables as terminal text (``sim.plots`` draws their PNGs)."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

import pandas as pd

from sim import games, stats
from sim.timing import percentile_seconds

if TYPE_CHECKING:
    from sim.tournament import Plan


def tables(
    plan: Plan, aggregates: list[dict[str, Any]]
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, dict[str, Any]]:
    """The summary, paired and timing tables of chunk ``aggregates``, and the results merged (without
    the times, which differ from run to run and are kept apart from the results, which do not)."""
    merged = merge(aggregates)
    timing = timing_table(plan, merged.pop("timing"))
    return summary_table(plan, merged), paired_table(plan, merged), timing, merged


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


def summary_table(plan: Plan, merged: dict[str, Any]) -> pd.DataFrame:
    """One row per strategy: rounds, mean points with a 95% interval, the share of its rounds (games)
    with the table's best result (fewest points, or most where more is better), and in game mode
    its games won, drawn and lost."""
    rows = []
    for name in plan.strategy_names:
        entry = merged["strategies"][name]
        interval = stats.mean_interval_from_moments(entry["n"], entry["sum"], entry["sum_sq"])
        row = {
            "strategy": name,
            "seats": plan.players.count(name),
            "rounds": entry["game_rounds"] if plan.games else entry["n"],
            "mean_points": interval.estimate,
            "ci95_low": interval.low,
            "ci95_high": interval.high,
            "best_share": entry["best"] / entry["n"],
        }
        if plan.games:
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


def paired_table(plan: Plan, merged: dict[str, Any]) -> pd.DataFrame:
    """Per pair of strategies: the mean per-deal difference a - b with its interval and the variance
    pairing removed, and the deals (or games) a won, drew and lost against b as chess-engine testers
    read them: score rate, Elo difference with its interval, and the likelihood that a is stronger."""
    rows = []
    for key, pair in merged["pairs"].items():
        a, b = key.split("\t")
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


def outcome_columns(wins: int, draws: int, losses: int) -> dict[str, float]:
    """A won-drawn-lost record as chess-engine testers read it: the counts, the score rate and the
    Elo difference with their 95% intervals, and the likelihood of superiority."""
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


def timing_table(plan: Plan, timing: dict[str, Any]) -> pd.DataFrame:
    """Per strategy: the decisions it made and the time it took over one, mean and 99th percentile."""
    rows = []
    for name in plan.strategy_names:
        entry = timing[name]
        decisions = entry["decisions"]
        rows.append(
            {
                "strategy": name,
                "decisions": decisions,
                "seconds": entry["seconds"],
                "mean_seconds": entry["seconds"] / decisions if decisions else math.nan,
                "p99_seconds": percentile_seconds(entry["histogram"], 0.99),
            }
        )
    return pd.DataFrame(rows, columns=["strategy", "decisions", "seconds", "mean_seconds", "p99_seconds"])


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


def format_summary(plan, summary: pd.DataFrame, paired: pd.DataFrame, timing: pd.DataFrame | None = None) -> str:
    """The summary table, for duplicate runs the paired comparisons, and the decision times, as
    terminal text."""
    game = games.load(plan.game)
    unit = "games" if plan.games else "deals"
    one_unit = "game" if plan.games else "deal"
    num_seatings = len(plan.seatings(game))
    played = (
        f"each in {num_seatings} duplicate seatings ({plan.rounds * num_seatings:,} played)"
        if plan.duplicate
        else "fixed seats"
    )
    lines = [f"{plan.game}: {plan.rounds:,} {unit}, {played}, {plan.engine} engine, seed {plan.seed}", ""]
    table = pd.DataFrame(
        {
            "strategy": summary["strategy"],
            "seats": summary["seats"],
            "rounds": summary["rounds"].map("{:,}".format),
            "mean points": summary["mean_points"].map("{:.3f}".format),
            "95% CI": [f"[{low:.3f}, {high:.3f}]" for low, high in zip(summary["ci95_low"], summary["ci95_high"])],
            # Share of rounds with the table's best score: fewest points, or most where more is better.
            "fewest" if game.lower_is_better else "most": summary["best_share"].map("{:.1%}".format),
        }
    )
    if plan.games:
        table["games"] = summary["games"].map("{:,}".format)
        table["W-D-L"] = [f"{w}-{d}-{lost}" for w, d, lost in zip(summary["wins"], summary["draws"], summary["losses"])]
        table["score"] = summary["score_rate"].map("{:.1%}".format)
        table["win rate"] = summary["win_rate"].map("{:.1%}".format)
        table["win 95% CI"] = [
            f"[{lo:.1%}, {hi:.1%}]" for lo, hi in zip(summary["win_ci95_low"], summary["win_ci95_high"])
        ]
        table["mean length"] = summary["mean_game_length"].map("{:.2f}".format)
    lines.append(table.to_string(index=False))
    counted = "rounds and games" if plan.games else "rounds"
    lines.append(
        f"({counted}: the results a strategy's figures rest on, one per {one_unit}, seating and "
        + ("partnership it plays in" if has_partnerships(game) else "seat it holds")
        + "; mean points are "
        + ("points per round over whole games" if plan.games else "points per round")
        + ")"
    )
    if plan.games:
        lines.append(
            "(W-D-L: games won, shared with another side (drawn), lost; score counts a draw half, "
            "win rate counts it won)"
        )
    if has_partnerships(game):
        lines.append(f"(partners share their points: each {one_unit} counts once per partnership)")
    if plan.duplicate and len(paired):
        lines += ["", *paired_lines(game, paired, unit)]
    if timing is not None and len(timing):
        lines += ["", *timing_lines(timing)]
    return "\n".join(lines)


def paired_lines(game: games.Game, paired: pd.DataFrame, unit: str) -> list[str]:
    """The paired comparisons: points per deal (or game), and the deals won, drawn and lost with the
    score, Elo difference and LOS as chess-engine testers print them."""
    one_unit = unit.removesuffix("s")
    better = "negative: a scores fewer points" if game.lower_is_better else "positive: a scores more"
    points = pd.DataFrame(
        {
            "a": paired["strategy_a"],
            "b": paired["strategy_b"],
            unit: paired["deals"].map("{:,}".format),
            "mean diff": paired["mean_diff"].map("{:+.3f}".format),
            "95% CI": [f"[{lo:+.3f}, {hi:+.3f}]" for lo, hi in zip(paired["ci95_low"], paired["ci95_high"])],
            "pairing gain": paired["variance_reduction"].map(_pairing_gain),
        }
    )
    outcomes = pd.DataFrame(
        {
            "a": paired["strategy_a"],
            "b": paired["strategy_b"],
            "W-D-L": [f"{w}-{d}-{lost}" for w, d, lost in zip(paired["wins"], paired["draws"], paired["losses"])],
            "score": paired["score_rate"].map("{:.1%}".format),
            "Elo": paired["elo"].map(_elo),
            "Elo 95% CI": [
                f"[{_elo(lo)}, {_elo(hi)}]" for lo, hi in zip(paired["elo_ci95_low"], paired["elo_ci95_high"])
            ],
            "LOS": paired["los"].map("{:.1%}".format),
        }
    )
    return [
        f"Paired per-{one_unit} differences in points (a - b; {better}, which is better):",
        points.to_string(index=False),
        f"(pairing gain: the variance of a and b apart over the variance of a - b; above x1 pairing "
        f"helped, an unpaired comparison would need that many times more {unit}; below x1 it hurt)",
        "",
        f"{one_unit.capitalize()} by {one_unit}, a against b (all seatings of a {one_unit} together; "
        + (
            "the game scores decide"
            if unit == "games"
            else "fewer points win"
            if game.lower_is_better
            else "more points win"
        )
        + "):",
        outcomes.to_string(index=False),
        f"(W-D-L: {unit} a won, drew, lost against b; score counts a draw half; Elo from the score; "
        "LOS: the likelihood that a is the stronger)",
    ]


def timing_lines(timing: pd.DataFrame) -> list[str]:
    """Each strategy's decisions and the time it took over one, mean and 99th percentile."""
    table = pd.DataFrame(
        {
            "strategy": timing["strategy"],
            "decisions": timing["decisions"].map("{:,}".format),
            "mean": timing["mean_seconds"].map(format_seconds),
            "99th percentile": timing["p99_seconds"].map(format_seconds),
            "total": timing["seconds"].map("{:.1f} s".format),
        }
    )
    lines = [
        "Decision time per strategy (a batched call's time shared among its decisions):",
        table.to_string(index=False),
    ]
    if (timing["decisions"] == 0).any():
        lines.append("(0 decisions: a compiled policy, which decides inside the fast engine and is not timed there)")
    return lines


def format_seconds(seconds: float) -> str:
    """A decision's time in the unit that reads best: µs, ms or s."""
    if seconds != seconds:  # nan: no decisions
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def _elo(value: float) -> str:
    return f"{value:+.1f}" if abs(value) != float("inf") else ("+inf" if value > 0 else "-inf")


def _pairing_gain(ratio: float) -> str:
    if ratio != ratio:
        return "-"
    return f"x{ratio:.1f}" + (" (hurt)" if ratio < 1 else "")


def has_partnerships(game: games.Game) -> bool:
    """Whether some seats of ``game`` play as one team (and so count once)."""
    return len(set(game.teams)) < game.num_seats
