"""Summary tables for the terminal, from a run's tables (``sim.plots`` draws its PNGs)."""

from __future__ import annotations

import pandas as pd

from sim import games


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
