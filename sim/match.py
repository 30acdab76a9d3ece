"""Head-to-head matches that stop as soon as a sequential probability ratio test decides.

A plays B with two seats each (A, B, A, B around the table; the game's natural pairing in two-player
games), every deal in every duplicate seating. The test weighs H1 "A is better by at least the upper
bound" against H0 "A is better by at most the lower bound", in one of two measures:

- points: A's mean advantage per deal in points per round (B's points minus A's where fewer win), a
  normal generalized SPRT on the per-deal differences;
- Elo: A's score over the deals (a deal won 1, drawn ½, lost 0, all its seatings taken together,
  as ``sim.tournament`` counts them), the trinomial generalized SPRT fishtest runs on game results,
  with bounds given as Elo differences.

The error rates alpha and beta bound the chance of each wrong verdict. The test is looked at after
every batch of deals in deal order, so its verdict and the deals it took depend on the seed alone,
not on the number of workers, which play batches ahead of it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from sim import games, stats
from sim.chunks import ChunkResult, play_chunk
from sim.console import progress_bar
from sim.plans import Plan, PlanError
from sim.report import elo as format_elo
from sim.report import merge, record
from sim.tournament import play_chunk_importing, registering_modules
from sim.workers import in_order

BATCH_DEALS = {"fast": 256, "reference": 32}  # deals between two looks at the test

Measure = Literal["points", "elo"]


@dataclass(frozen=True)
class Bounds:
    """The SPRT's hypotheses: A's advantage at most ``low`` (H0) or at least ``high`` (H1), in ``measure``."""

    measure: Measure
    low: float
    high: float

    def __post_init__(self) -> None:
        if not self.low < self.high:
            raise PlanError(f"the {self.measure} bounds must be increasing, got {self.low} and {self.high}")
        if self.measure == "elo" and not (math.isfinite(self.low) and math.isfinite(self.high)):
            raise PlanError("the Elo bounds must be finite")

    @property
    def unit(self) -> str:
        return "Elo" if self.measure == "elo" else "points per round"


@dataclass(frozen=True)
class MatchOutcome:
    a: str
    b: str
    winner: str | None  # a, b, or None when max_deals ran out first
    deals: int
    advantage: stats.Interval  # A's advantage in points per round (positive: A better)
    wins: int  # deals A did better on, over all their seatings
    draws: int
    losses: int
    llr: float
    llr_bounds: tuple[float, float]
    bounds: Bounds
    alpha: float
    beta: float
    min_deals: int

    @property
    def elo(self) -> stats.Interval:
        return stats.elo_interval(self.wins, self.draws, self.losses)

    @property
    def los(self) -> float:
        return stats.likelihood_of_superiority(self.wins, self.losses)


def lineup(game: games.Game, a: str, b: str) -> tuple[str, ...]:
    """A and B alternating around the table: partners opposite in four-seat games."""
    return tuple(a if seat % 2 == 0 else b for seat in range(game.num_seats))


def score_of_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger: 1 / (1 + 10^(-elo/400))."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def match_llr(bounds: Bounds, pair: dict, sign: float) -> tuple[int, float]:
    """The deals so far and the test's log-likelihood ratio, from a pair's merged aggregates."""
    if bounds.measure == "elo":
        deals = pair["wins"] + pair["draws"] + pair["losses"]
        score, score_sq = pair["wins"] + pair["draws"] / 2, pair["wins"] + pair["draws"] / 4
        return deals, stats.sprt_llr(deals, score, score_sq, score_of_elo(bounds.low), score_of_elo(bounds.high))
    diff = pair["diff"]
    return diff["n"], stats.sprt_llr(diff["n"], sign * diff["sum"], diff["sum_sq"], bounds.low, bounds.high)


def deals_to_verdict(llr: float, deals: int, llr_bounds: tuple[float, float]) -> float:
    """How many more deals the test needs if the LLR keeps drifting at its mean rate so far
    (inf when it has not moved)."""
    drift = llr / deals if deals else 0.0
    if drift == 0.0:
        return math.inf
    target = llr_bounds[1] if drift > 0 else llr_bounds[0]
    return max(0.0, (target - llr) / drift)


def sequential_match(
    game_name: str,
    a: str,
    b: str,
    bounds: Bounds,
    *,
    seed: int = 0,
    alpha: float = 0.05,
    beta: float = 0.05,
    min_deals: int = 0,
    max_deals: int = 1_000_000,
    engine: str = "",
    jobs: int = 1,
    progress: bool = True,
) -> MatchOutcome:
    """Play batches of duplicate deals until the SPRT decides (after ``min_deals`` at least) or
    ``max_deals`` have been played."""
    if a.strip() == b.strip():
        raise PlanError("A and B are the same strategy; a match needs two different ones")
    if min_deals > max_deals:
        raise PlanError(f"--min-deals ({min_deals:,}) is more than --max-deals ({max_deals:,})")
    game = games.load(game_name)
    engine = engine or games.default_engine(game)
    batch = BATCH_DEALS.get(engine, BATCH_DEALS["reference"])
    plan = Plan(
        game_name, lineup(game, a, b), max_deals, seed, True, engine=engine, keep_rounds=False, chunk_size=batch
    )
    plan.validate()
    sign = -1.0 if game.lower_is_better else 1.0  # a positive advantage means A did better
    try:
        llr_bounds = stats.sprt_bounds(alpha, beta)
    except ValueError as error:
        raise PlanError(str(error)) from None
    merged: dict = {}
    key = f"{plan.players[0]}\t{plan.players[1]}"
    winner, deals, llr = None, 0, 0.0
    began = time.perf_counter()
    # No total: max_deals is a bound the test rarely reaches, so an ETA to it would mislead; the
    # postfix says where the test is heading instead.
    with progress_bar(None, "deal", f"{a} vs {b}", progress) as bar:
        for chunk in _chunks_in_order(plan, jobs):
            merged = merge([merged, chunk.aggregates])
            deals, llr = match_llr(bounds, merged["pairs"][key], sign)
            bar.update(chunk.deals)
            remaining = deals_to_verdict(llr, deals, llr_bounds)
            rate = deals / max(time.perf_counter() - began, 1e-9)
            heading = (
                f"~{remaining:,.0f} deals (~{remaining / rate:,.0f} s) to a verdict at this rate"
                if math.isfinite(remaining)
                else "no drift yet"
            )
            bar.set_postfix_str(f"llr {llr:+.2f} of [{llr_bounds[0]:.2f}, {llr_bounds[1]:.2f}], {heading}")
            verdict = stats.sprt_decision(llr, alpha, beta) if deals >= min_deals else None
            if verdict is not None:
                winner = a if verdict == "H1" else b
                break
    pair = merged["pairs"][key]
    diff = pair["diff"]
    advantage = stats.mean_interval_from_moments(diff["n"], sign * diff["sum"], diff["sum_sq"])
    return MatchOutcome(
        a,
        b,
        winner,
        deals,
        advantage,
        pair["wins"],
        pair["draws"],
        pair["losses"],
        llr,
        llr_bounds,
        bounds,
        alpha,
        beta,
        min_deals,
    )


def _chunks_in_order(plan: Plan, jobs: int) -> Iterator[ChunkResult]:
    """The plan's chunks in order; with ``jobs`` > 1 played by workers a few chunks ahead. Leaving
    the loop early stops them."""
    if jobs == 1:
        for index in range(plan.num_chunks):
            yield play_chunk(plan, index)
        return
    from joblib import delayed

    modules = registering_modules(plan)
    yield from in_order(jobs, (delayed(play_chunk_importing)(plan, index, modules) for index in range(plan.num_chunks)))


def format_verdict(outcome: MatchOutcome) -> str:
    interval, elo, bounds = outcome.advantage, outcome.elo, outcome.bounds
    if outcome.winner is None and outcome.deals < outcome.min_deals:
        verdict = f"No decision after {outcome.deals:,} deals: --min-deals asked for {outcome.min_deals:,} first."
    elif outcome.winner is None:
        verdict = (
            f"No decision after {outcome.deals:,} deals: the test could not tell an advantage of "
            f"{bounds.low:+g} from {bounds.high:+g} {bounds.unit} apart."
        )
    else:
        loser = outcome.b if outcome.winner == outcome.a else outcome.a
        verdict = f"{outcome.winner} is stronger than {loser} (decided after {outcome.deals:,} deals)."
    return "\n".join(
        [
            verdict,
            f"{outcome.a}'s advantage: {interval.estimate:+.3f} points per round, 95% CI "
            f"[{interval.low:+.3f}, {interval.high:+.3f}] (positive: {outcome.a} better)",
            f"Deals won-drawn-lost by {outcome.a}: {record(outcome.wins, outcome.draws, outcome.losses)}, "
            f"score {_percent(outcome.wins + outcome.draws / 2, outcome.deals)}, "
            f"Elo {format_elo(elo.estimate)} [{format_elo(elo.low)}, {format_elo(elo.high)}], LOS {outcome.los:.1%}",
            f"SPRT: H0 advantage <= {bounds.low:+g}, H1 >= {bounds.high:+g} {bounds.unit}, "
            f"alpha={outcome.alpha}, beta={outcome.beta}, "
            f"LLR {outcome.llr:+.2f}, bounds [{outcome.llr_bounds[0]:.2f}, {outcome.llr_bounds[1]:.2f}]",
        ]
    )


def _percent(part: float, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"
