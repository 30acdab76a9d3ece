"""Evidence for the Gin Rummy strategies: whole-game records, seats swapped, written to docs/ginrummy.md.

    python -m experiments.ginrummy_strategies           # 5,000 deals per pairing, 500 for mc v heuristic
    python -m experiments.ginrummy_strategies --games 200 --lookahead-games 20 --head-to-head-games 20   # quicker

Each pairing is a duplicate tournament of whole games to 100 on the fast engine
(``experiments.head_to_head``): game ``g`` is played twice, once with each player in seat 0. Runs
are kept under ``results/experiments/`` and resume when interrupted. Then, hand by hand on the same
deals with seats swapped, mc and the cheating oracle-mc against the heuristic (the oracle needs a
``Truth``, which tournaments do not bind), and mc's time per decision on the reference engine, one
observation per call as ``cardsim play`` asks.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from experiments import RUNS_KEPT, count_argument, head_to_head, jobs_argument, run_script
from sim import games, stats
from strategies.ginrummy.mc import truth_of

GAME = "ginrummy"
CONFIDENCE = 0.99
SEED = 20261125
PAIRINGS = (("heuristic", "simple"), ("heuristic", "cs340"), ("simple", "cs340"))
# The lookahead with its settings written out, so the doc's tables say what played. (A run's id hashes
# every player's resolved spec, defaults included: a changed default never reads back old games.)
MC = "mc:samples=96,oversample=128,throws=6,confidence=2.0"
LOOKAHEAD_PAIRINGS = ((MC, "simple"), (MC, "cs340"))
LOOKAHEAD_GAMES = 5_000  # deals per pairing of mc and a baseline, each in both seatings
HAND_DEALS = 2_000  # deals of the hand-by-hand comparison, each played with the seats swapped
TIMING_HANDS = 25
DOC = Path(__file__).resolve().parent.parent / "docs" / "ginrummy.md"


def margin_line(name: str, margin: np.ndarray) -> str:
    """A row of the hand-by-hand table: the mean margin per hand and its interval."""
    per_hand = margin / 2  # a deal's two seatings are two hands
    interval = stats.mean_interval(per_hand, CONFIDENCE)
    return f"| {name} | {len(margin):,} | {interval.estimate:+.2f} | {interval.low:+.2f} – {interval.high:+.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=count_argument, default=5_000, help="deals per pairing (each played in both seatings)"
    )
    parser.add_argument(
        "--lookahead-games", type=count_argument, default=LOOKAHEAD_GAMES, help="deals per pairing of mc and a baseline"
    )
    parser.add_argument(
        "--head-to-head-games", type=count_argument, default=500, help="deals of mc against the heuristic"
    )
    parser.add_argument("--jobs", type=jobs_argument, default=2)
    parser.add_argument("--no-write", action="store_true", help="print the text without writing the doc")
    arguments = parser.parse_args()
    records = [head_to_head.play(GAME, a, b, arguments.games, SEED, arguments.jobs) for a, b in PAIRINGS]
    lookahead = [
        head_to_head.play(GAME, a, b, arguments.lookahead_games, SEED, arguments.jobs) for a, b in LOOKAHEAD_PAIRINGS
    ]
    against_heuristic = head_to_head.play(GAME, MC, "heuristic", arguments.head_to_head_games, SEED, arguments.jobs)
    mc_margin, oracle_margin = (
        head_to_head.margins_against(GAME, spec, "heuristic", HAND_DEALS, SEED + 1, truth_of, arguments.jobs)
        for spec in (MC, "oracle-mc")
    )
    closed = stats.ratio_interval(mc_margin, oracle_margin, CONFIDENCE)  # deal by deal: the same deals
    times = head_to_head.decision_times(GAME, MC, "heuristic", (0,), SEED + 2, TIMING_HANDS)
    text = "\n".join(
        [
            f"Seed {SEED}, deal version {games.load(GAME).deal_version}, fast engine. Every deal is played with the"
            " seats swapped; Gin Rummy has no draws, so A's score is its win rate.",
            "",
            f"{arguments.games:,} deals per pairing:",
            "",
            head_to_head.table(records, CONFIDENCE),
            "",
            f"With the lookahead (`{MC}`, the defaults: 96 worlds a decision, inference from up to 128 times "
            "as many, six throws looked at, a gate of two standard errors), "
            f"{arguments.lookahead_games:,} deals per pairing against the baselines, "
            f"{arguments.head_to_head_games:,} against the heuristic:",
            "",
            head_to_head.table([*lookahead, against_heuristic], CONFIDENCE),
            "",
            f"Hand by hand against the heuristic, points per hand (mine minus the heuristic's), {HAND_DEALS:,}"
            f" deals of seed {SEED + 1}, each played in both seats, {CONFIDENCE:.0%} intervals:",
            "",
            "| strategy | deals | points per hand | interval |",
            "| --- | ---: | ---: | --- |",
            margin_line("mc", mc_margin),
            margin_line("oracle-mc (cheats: sees the opponent's hand and the stock)", oracle_margin),
            "",
            f"mc closes {closed.estimate:.1%} [{closed.low:.1%}, {closed.high:.1%}] of the heuristic-to-oracle gap"
            " on these deals. mc's time per decision on"
            f" the reference engine (one observation per call, as `cardsim play` asks), one core, over the"
            f" {len(times):,} decisions with a choice in {TIMING_HANDS} hands: median"
            f" **{np.median(times) * 1000:.0f} ms**, 90th percentile {np.percentile(times, 90) * 1000:.0f} ms,"
            f" slowest {times.max() * 1000:.0f} ms.",
        ]
    )
    print(text)
    if not arguments.no_write:
        head_to_head.replace_results(DOC, text)


if __name__ == "__main__":
    run_script(main, "experiments.ginrummy_strategies", RUNS_KEPT)
