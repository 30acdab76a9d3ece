"""Measure how Euchre hands end for the dealing team, strategies/euchre/hand_outcomes.csv.

    python -m experiments.euchre_hand_outcomes [--hands 1000000] [--seed 7201]

Every hand of ``--hands`` fresh deals is played on the compiled engine by ``MODEL`` in all four seats
(what mc and search take every seat to be); a hand ends with one team scoring 1 or 2 points, and the
share of each of the four endings, the dealing team's 1 or 2 or the other team's 1 or 2, is written
with its count. strategies/euchre/game_value.py turns these shares into the chance of winning a game
to 10 from any score, which ``search:value=game`` maximises instead of a hand's points.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import strategies
from experiments import count_argument, run_script, seed_argument
from sim.euchre import fast, rules
from sim.euchre.game import GAME
from strategies.euchre.game_value import COLUMNS, ENDINGS, OUTCOMES

MODEL = "heuristic"
BLOCK = 200_000  # hands per pass, so memory stays flat


def endings(points: np.ndarray, dealers: np.ndarray) -> np.ndarray:
    """(n,) each hand's ending, an index into ``ENDINGS``, from the seats' points (n, 4) and dealers (n,)."""
    rows = np.arange(len(points))
    dealing, other = points[rows, dealers], points[rows, (dealers + 1) % rules.NUM_PLAYERS]
    if ((dealing > 0) == (other > 0)).any() or not np.isin(np.maximum(dealing, other), (1, 2)).all():
        raise AssertionError("a hand where not exactly one team scored 1 or 2")
    return np.where(dealing > 0, dealing - 1, 1 + other)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=count_argument, default=1_000_000)
    parser.add_argument("--seed", type=seed_argument, default=7201)
    args = parser.parse_args()
    began = time.perf_counter()
    players = [strategies.get("euchre", MODEL)] * rules.NUM_PLAYERS
    counts = np.zeros(len(ENDINGS), dtype=np.int64)
    for first in range(0, args.hands, BLOCK):
        size = min(BLOCK, args.hands - first)
        ids = np.arange(first, first + size, dtype=np.int64)
        points = fast.play_rounds(GAME.deals(args.seed, first, size), players, ids).points
        counts += np.bincount(endings(points, ids % rules.NUM_PLAYERS), minlength=len(ENDINGS))
    rows = [(ending, int(count), count / counts.sum()) for ending, count in zip(ENDINGS, counts, strict=True)]
    with open(OUTCOMES, "w", encoding="utf-8") as out:
        out.write(",".join(COLUMNS) + "\n")
        out.writelines(f"{ending},{count},{share:.6f}\n" for ending, count, share in rows)
    print(f"{OUTCOMES}: {args.hands:,} hands of {MODEL} (seed {args.seed}), {time.perf_counter() - began:.0f} s")
    for ending, count, share in rows:
        print(f"  {ending}: {count:,} ({share:.1%})")


if __name__ == "__main__":
    run_script(main, "experiments.euchre_hand_outcomes")
