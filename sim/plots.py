"""The PNG plots of a run, drawn from its summary tables and stored aggregates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display is needed or wanted
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

PLOTS = ("points_distribution.png", "mean_points.png", "win_rate.png")


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
