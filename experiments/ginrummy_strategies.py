"""Evidence for the Gin Rummy strategies: whole-game records, seats swapped, written to docs/ginrummy.md.

    python -m experiments.ginrummy_strategies                # 5,000 deals per pairing, both seatings
    python -m experiments.ginrummy_strategies --games 200    # a quicker, wider-interval run

Each pairing is a duplicate tournament of whole games to 100 (``experiments.head_to_head``): game
``g`` is played twice, once with each player in seat 0. Runs are kept under
``results/experiments/`` and resume when interrupted.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from experiments import head_to_head
from sim import games

GAME = "ginrummy"
CONFIDENCE = 0.99
SEED = 2026
PAIRINGS = (("heuristic", "simple"), ("heuristic", "cs340"), ("simple", "cs340"))
DOC = Path(__file__).resolve().parent.parent / "docs" / "ginrummy.md"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5_000, help="deals per pairing (each played in both seatings)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-write", action="store_true", help="print the table without writing the doc")
    arguments = parser.parse_args()
    records = [head_to_head.play(GAME, a, b, arguments.games, SEED, arguments.jobs) for a, b in PAIRINGS]
    text = "\n".join([
        f"{arguments.games:,} deals per pairing, each played with the seats swapped; seed {SEED}, deal version "
        f"{games.load(GAME).deal_version}. Gin Rummy has no draws, so A's score is its win rate.",
        "",
        head_to_head.table(records, CONFIDENCE),
    ])
    print(text)
    if not arguments.no_write:
        head_to_head.replace_results(DOC, text)


if __name__ == "__main__":
    main()
