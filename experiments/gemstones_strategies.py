"""Win rates of the Gemstones strategies against each other, seats swapped, written to docs/gemstones.md.

    python -m experiments.gemstones_strategies              # 10,000 deals per pair, both seatings
    python -m experiments.gemstones_strategies --games 500  # a quicker run

Every deal is played twice, each strategy taking each seat once. A draw counts half a win; the 99%
interval is Wilson's (``sim.stats.wilson_interval``) over the games played.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

import strategies
from sim import stats
from sim.gemstones.game import GAME

SEED = 2026
CONFIDENCE = 0.99
PAIRS = (("heuristic", "greedy"), ("heuristic", "random"), ("greedy", "random"))
DOC = Path(__file__).resolve().parent.parent / "docs" / "gemstones.md"
CHUNK = 250
BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"


def play_chunk(a: str, b: str, start: int, count: int) -> tuple[int, int, int]:
    """A's wins, the draws and the games over ``count`` deals from ``start``, each in both seatings."""
    players = [strategies.get("gemstones", a), strategies.get("gemstones", b)]
    deals, ids = GAME.deals(SEED, start, count), np.arange(start, start + count)
    first = GAME.play_rounds["reference"](deals, players, ids).points
    second = GAME.play_rounds["reference"](deals, players[::-1], ids).points[:, ::-1]
    coins = np.concatenate([first, second])
    return int((coins[:, 0] > coins[:, 1]).sum()), int((coins[:, 0] == coins[:, 1]).sum()), len(coins)


def match(a: str, b: str, games: int, jobs: int) -> str:
    chunks = Parallel(n_jobs=jobs)(delayed(play_chunk)(a, b, s, min(CHUNK, games - s)) for s in range(0, games, CHUNK))
    wins, draws, played = (sum(column) for column in zip(*chunks))
    # Half a win per draw, rounded to a whole count as the Wilson interval needs.
    interval = stats.wilson_interval(round(wins + draws / 2), played, CONFIDENCE)
    return (f"| {a} | {b} | {played} | {wins} | {draws} | {interval.estimate:.1%} "
            f"| {interval.low:.1%} – {interval.high:.1%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="deals per pair (each played in both seatings)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rows = [match(a, b, args.games, args.jobs) for a, b in PAIRS]
    table = "\n".join([
        BEGIN,
        f"{args.games} deals per pair, each played with seats swapped (seed {SEED}); a draw counts half.",
        "",
        "| A | B | games | A wins | draws | A's score | 99% Wilson interval |",
        "| --- | --- | --: | --: | --: | --: | --- |",
        *rows,
        END,
    ])
    text = DOC.read_text()
    DOC.write_text(re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: table, text, flags=re.S))
    print(table)


if __name__ == "__main__":
    main()
