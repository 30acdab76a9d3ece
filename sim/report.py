"""Summary tables for the terminal, from a run's tables (``sim.plots`` draws its PNGs)."""

from __future__ import annotations

import pandas as pd

from sim import games


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
    return [
        "Decision time per strategy (a batched call's time shared among its decisions):",
        table.to_string(index=False),
    ]


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
