"""Evidence for the Gemstones strategies: whole-game records, seats swapped, written to docs/gemstones.md.

    python -m experiments.gemstones_strategies                              # 10,000 deals per pair, 5,000 with mc
    python -m experiments.gemstones_strategies --games 500 --lookahead-games 50   # a quicker run

Each pair is a duplicate tournament of whole games on the fast engine (``experiments.head_to_head``):
every deal is played twice, each strategy taking each seat once. A draw counts half in A's score.
Runs are kept under ``results/experiments/`` and resume when interrupted. Then, game by game on the
same deals with seats swapped, mc and the cheating oracle-mc against the heuristic (the oracle needs
a ``Truth``, which tournaments do not bind), and mc's time per decision on the reference engine, one
observation per call as ``cardsim play`` asks.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from experiments import RUNS_KEPT, count_argument, head_to_head, jobs_argument, run_script
from sim import games, stats
from strategies.gemstones.mc import truth_of

GAME = "gemstones"
CONFIDENCE = 0.99
SEED = 2026
PAIRS = (("heuristic", "greedy"), ("heuristic", "random"), ("greedy", "random"))
# The lookahead with its settings written out, so the doc's tables say what played. (A run's id hashes
# every player's resolved spec, defaults included: a changed default never reads back old games.)
MC = "mc:samples=16,rollout=heuristic,confidence=1.0,horizon=2"
LOOKAHEAD_PAIRS = ((MC, "heuristic"), (MC, "greedy"))
ORACLE_DEALS = 100  # deals of the game-by-game comparison, each played with the seats swapped
TIMING_GAMES = 2
DOC = Path(__file__).resolve().parent.parent / "docs" / "gemstones.md"


def margin_line(name: str, margin: np.ndarray) -> str:
    """A row of the game-by-game table: the mean coin margin per game and its interval."""
    interval = stats.mean_interval(margin / 2, CONFIDENCE)  # a deal's two seatings are two games
    return f"| {name} | {len(margin):,} | {interval.estimate:+.2f} | {interval.low:+.2f} – {interval.high:+.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=count_argument, default=10_000, help="deals per pair (each played in both seatings)"
    )
    parser.add_argument("--lookahead-games", type=count_argument, default=5_000, help="deals per pair with mc")
    parser.add_argument("--jobs", type=jobs_argument, default=2)
    parser.add_argument("--no-write", action="store_true", help="print the table without writing the doc")
    arguments = parser.parse_args()
    records = [head_to_head.play(GAME, a, b, arguments.games, SEED, arguments.jobs) for a, b in PAIRS]
    lookahead = [
        head_to_head.play(GAME, a, b, arguments.lookahead_games, SEED, arguments.jobs) for a, b in LOOKAHEAD_PAIRS
    ]
    mc_margin, oracle_margin = (
        head_to_head.margins_against(GAME, spec, "heuristic", ORACLE_DEALS, SEED + 1, truth_of, arguments.jobs)
        for spec in (MC, "oracle-mc")
    )
    times = head_to_head.decision_times(GAME, MC, "heuristic", (0,), SEED + 2, TIMING_GAMES)
    text = "\n".join(
        [
            f"Seed {SEED}, deal version {games.load(GAME).deal_version}, fast engine. Every deal is played with"
            " the seats swapped; a draw counts half.",
            "",
            f"{arguments.games:,} deals per pair:",
            "",
            head_to_head.table(records, CONFIDENCE),
            "",
            f"With the lookahead (`{MC}`, the defaults), {arguments.lookahead_games:,} deals per pair:",
            "",
            head_to_head.table(lookahead, CONFIDENCE),
            "",
            f"Game by game against the heuristic, coins per game (mine minus the heuristic's), {ORACLE_DEALS:,}"
            f" deals of seed {SEED + 1}, each played in both seats, {CONFIDENCE:.0%} intervals:",
            "",
            "| strategy | deals | coins per game | interval |",
            "| --- | ---: | ---: | --- |",
            margin_line("mc", mc_margin),
            margin_line("oracle-mc (cheats: sees the opponent's hand and the deck)", oracle_margin),
            "",
            "mc's time per decision on the reference engine (one observation per call, as `cardsim play`"
            f" asks), one core, over the {len(times):,} decisions with a choice in {TIMING_GAMES} games:"
            f" median **{np.median(times) * 1000:.0f} ms**, 90th percentile {np.percentile(times, 90) * 1000:.0f} ms,"
            f" slowest {times.max() * 1000:.0f} ms.",
        ]
    )
    print(text)
    if not arguments.no_write:
        head_to_head.replace_results(DOC, text)


if __name__ == "__main__":
    run_script(main, "experiments.gemstones_strategies", RUNS_KEPT)
