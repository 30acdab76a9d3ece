"""Summary tables for the terminal and PNG plots, drawn from a run's stored aggregates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display is needed or wanted
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from sim import games  # noqa: E402

PLOTS = ("points_distribution.png", "mean_points.png", "win_rate.png")


def format_summary(plan, summary: pd.DataFrame, paired: pd.DataFrame) -> str:
    """The summary table (and, for duplicate runs, the paired differences) as terminal text."""
    game = games.load(plan.game)
    seatings = "duplicate seatings" if plan.duplicate else "fixed seats"
    unit = "games" if plan.games else "deals"
    one_unit = "game" if plan.games else "deal"
    lines = [f"{plan.game}: {plan.rounds:,} {unit}, {seatings}, {plan.engine} engine, seed {plan.seed}", ""]
    table = pd.DataFrame(
        {
            "strategy": summary["strategy"],
            "seats": summary["seats"],
            "rounds": summary["rounds"].map("{:,}".format),
            "mean points": summary["mean_points"].map("{:.3f}".format),
            "95% CI": [f"[{low:.3f}, {high:.3f}]" for low, high in zip(summary["ci95_low"], summary["ci95_high"])],
            # Share of rounds with the table's best score: fewest points, or most where more is better.
            "fewest" if game.lower_is_better else "most": summary["fewest_share"].map("{:.1%}".format),
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
    if plan.games:
        lines.append(
            "(W-D-L: games won, shared with another side (drawn), lost; score counts a draw half, "
            "win rate counts it won)"
        )
    if has_partnerships(game):
        lines.append(
            f"(partners share their points: each {one_unit} counts once per partnership, "
            "in the counts and the intervals)"
        )
    if plan.duplicate and len(paired):
        better = "negative: a scores fewer points" if game.lower_is_better else "positive: a scores more"
        lines += ["", f"Paired per-{one_unit} differences (a - b; {better}, which is better):"]
        pairs = pd.DataFrame(
            {
                "a": paired["strategy_a"],
                "b": paired["strategy_b"],
                unit: paired["deals"].map("{:,}".format),
                "mean diff": paired["mean_diff"].map("{:+.3f}".format),
                "95% CI": [f"[{lo:+.3f}, {hi:+.3f}]" for lo, hi in zip(paired["ci95_low"], paired["ci95_high"])],
                "variance removed": paired["variance_reduction"].map("x{:.1f}".format),
            }
        )
        lines.append(pairs.to_string(index=False))
        lines.append(f"(variance removed: how many times more {unit} an unpaired comparison would need)")
    return "\n".join(lines)


def has_partnerships(game: games.Game) -> bool:
    """Whether some seats of ``game`` play as one team (and so count once)."""
    return len(set(game.teams)) < game.num_seats


def draw_plots(directory: Path, plan, summary: pd.DataFrame, merged: dict[str, Any]) -> list[Path]:
    """Write the PNG plots of a run into ``directory``; returns their paths."""
    written = [
        _points_distribution(directory / PLOTS[0], plan, merged),
        _mean_points(directory / PLOTS[1], plan, summary),
    ]
    if plan.games:
        written.append(_win_rate(directory / PLOTS[2], summary))
    return written


def _points_distribution(path: Path, plan, merged: dict[str, Any]) -> Path:
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for name in plan.strategy_names:
        counts = np.asarray(merged["strategies"][name]["histogram"], dtype=float)
        axes.step(np.arange(len(counts)), counts / counts.sum(), where="mid", label=name)
    axes.set_xlabel("final score per game" if plan.games else "points in a round")
    axes.set_ylabel("share")
    axes.set_title(f"{plan.game}: distribution of points by strategy")
    axes.legend()
    return _save(figure, path)


def _interval_bars(path: Path, labels, estimates, lows, highs, xlabel: str, title: str) -> Path:
    figure, axes = plt.subplots(figsize=(8, 0.6 * len(labels) + 1.5))
    positions = np.arange(len(labels))
    errors = np.vstack([np.asarray(estimates) - lows, np.asarray(highs) - estimates])
    axes.errorbar(estimates, positions, xerr=errors, fmt="o", capsize=4)
    axes.set_yticks(positions, labels)
    axes.invert_yaxis()
    axes.set_xlabel(xlabel)
    axes.set_title(title)
    axes.grid(axis="x", alpha=0.3)
    return _save(figure, path)


def _counted(names: pd.Series, counts: pd.Series) -> list[str]:
    """Each strategy's name with the number of values its interval rests on."""
    return [f"{name} (n={count:,})" for name, count in zip(names, counts)]


def _mean_points(path: Path, plan, summary: pd.DataFrame) -> Path:
    # A game's value is its points per round, so in game mode the mean rests on the games.
    counts = summary["games"] if plan.games else summary["rounds"]
    return _interval_bars(
        path,
        _counted(summary["strategy"], counts),
        summary["mean_points"],
        summary["ci95_low"],
        summary["ci95_high"],
        "mean points per round (95% CI)",
        "Mean points by strategy",
    )


def _win_rate(path: Path, summary: pd.DataFrame) -> Path:
    return _interval_bars(
        path,
        _counted(summary["strategy"], summary["games"]),
        summary["win_rate"],
        summary["win_ci95_low"],
        summary["win_ci95_high"],
        "win rate (95% Wilson CI)",
        "Game win rate by strategy",
    )


def _save(figure, path: Path) -> Path:
    figure.tight_layout()
    temporary = path.with_name(f".{path.name}.tmp.png")
    figure.savefig(temporary, dpi=100)
    plt.close(figure)
    temporary.replace(path)
    return path
