"""Evidence for the Gemstones strategies: whole-game records, seats swapped, written to docs/gemstones.md.

    python -m experiments.gemstones_strategies              # 10,000 deals per pair, both seatings
    python -m experiments.gemstones_strategies --games 500  # a quicker run

Each pair is a duplicate tournament of whole games (``experiments.head_to_head``): every deal is
played twice, each strategy taking each seat once. A draw counts half in A's score. Runs are kept
under ``results/experiments/`` and resume when interrupted.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from experiments import head_to_head
from sim import games

GAME = "gemstones"
CONFIDENCE = 0.99
SEED = 2026
PAIRS = (("heuristic", "greedy"), ("heuristic", "random"), ("greedy", "random"))
DOC = Path(__file__).resolve().parent.parent / "docs" / "gemstones.md"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="deals per pair (each played in both seatings)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-write", action="store_true", help="print the table without writing the doc")
    arguments = parser.parse_args()
    records = [head_to_head.play(GAME, a, b, arguments.games, SEED, arguments.jobs) for a, b in PAIRS]
    text = "\n".join([
        f"{arguments.games:,} deals per pair, each played with seats swapped; seed {SEED}, deal version "
        f"{games.load(GAME).deal_version}; "
        "a draw counts half.",
        "",
        head_to_head.table(records, CONFIDENCE),
    ])
    print(text)
    if not arguments.no_write:
        head_to_head.replace_results(DOC, text)


if __name__ == "__main__":
    main()
