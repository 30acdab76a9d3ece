"""Head-to-head matches that stop as soon as a sequential probability ratio test decides.

A plays B with two seats each (A, B, A, B around the table; the game's natural pairing in two-player
games), every deal in every duplicate seating. The per-deal outcome is B's mean points minus A's
(for games where fewer points win; the other way round otherwise), so positive means A did better.
The SPRT weighs H1 "A is better by at least the margin" against H0 "B is better by at least the
margin"; the error rates alpha and beta bound the chance of each wrong verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim import games, stats
from sim.console import progress_bar
from sim.tournament import Plan, PlanError, merge, play_chunk

BATCH_DEALS = 512
MIN_DEALS = 1024  # the variance estimate needs some deals before a verdict can be trusted


@dataclass(frozen=True)
class MatchOutcome:
    a: str
    b: str
    winner: str | None  # a, b, or None when max_deals ran out first
    deals: int
    advantage: stats.Interval  # A's advantage in points per round (positive: A better)
    llr: float
    bounds: tuple[float, float]
    margin: float
    alpha: float
    beta: float


def lineup(game: games.Game, a: str, b: str) -> tuple[str, ...]:
    """A and B alternating around the table: partners opposite in four-seat games."""
    return tuple(a if seat % 2 == 0 else b for seat in range(game.num_seats))


def sequential_match(
    game_name: str,
    a: str,
    b: str,
    *,
    seed: int = 0,
    margin: float = 0.25,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_deals: int = 1_000_000,
    engine: str = "",
    progress: bool = True,
) -> MatchOutcome:
    """Play batches of duplicate deals until the SPRT decides or ``max_deals`` have been played."""
    if a.strip() == b.strip():
        raise PlanError("A and B are the same strategy; a match needs two different ones")
    if margin <= 0:
        raise PlanError("the margin must be positive")
    game = games.load(game_name)
    plan = Plan(
        game_name,
        lineup(game, a, b),
        max_deals,
        seed,
        duplicate=True,
        engine=engine,
        keep_rounds=False,
        chunk_size=BATCH_DEALS,
    )
    plan.validate()
    sign = 1.0 if game.lower_is_better else -1.0  # a positive outcome means A did better
    try:
        bounds = stats.sprt_bounds(alpha, beta)
    except ValueError as error:
        raise PlanError(str(error)) from None
    merged: dict = {}
    key = f"{plan.players[0]}\t{plan.players[1]}"
    winner, n, total, total_sq, llr = None, 0, 0.0, 0.0, 0.0
    # No total: the test stops when it decides, long before max_deals as a rule, so an ETA would lie.
    with progress_bar(None, "deal", f"{a} vs {b}", progress) as bar:
        for index in range(plan.num_chunks):
            chunk = play_chunk(plan, index)
            merged = merge([merged, chunk.aggregates])
            diff = merged["pairs"][key]["diff"]
            n, total, total_sq = diff["n"], sign * -diff["sum"], diff["sum_sq"]
            llr = stats.sprt_llr(n, total, total_sq, -margin, margin)
            bar.update(chunk.deals)
            bar.set_postfix(llr=f"{llr:+.2f}")
            verdict = stats.sprt_decision(llr, alpha, beta) if n >= MIN_DEALS else None
            if verdict is not None:
                winner = a if verdict == "H1" else b
                break
    advantage = stats.mean_interval_from_moments(n, total, total_sq)
    return MatchOutcome(a, b, winner, n, advantage, llr, bounds, margin, alpha, beta)


def format_verdict(outcome: MatchOutcome) -> str:
    interval = outcome.advantage
    if outcome.winner is None and outcome.deals < MIN_DEALS:
        verdict = (
            f"No decision after {outcome.deals:,} deals: the test decides only after {MIN_DEALS:,}, "
            "when the variance estimate can be trusted."
        )
    elif outcome.winner is None:
        verdict = f"No decision after {outcome.deals:,} deals: neither is {outcome.margin} points per round better."
    else:
        loser = outcome.b if outcome.winner == outcome.a else outcome.a
        verdict = f"{outcome.winner} is stronger than {loser} (decided after {outcome.deals:,} deals)."
    return "\n".join(
        [
            verdict,
            f"{outcome.a}'s advantage: {interval.estimate:+.3f} points per round, 95% CI "
            f"[{interval.low:+.3f}, {interval.high:+.3f}] (positive: {outcome.a} better)",
            f"SPRT: margin ±{outcome.margin} points per round, alpha={outcome.alpha}, beta={outcome.beta}, "
            f"LLR {outcome.llr:+.2f}, bounds [{outcome.bounds[0]:.2f}, {outcome.bounds[1]:.2f}]",
        ]
    )
