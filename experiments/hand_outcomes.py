"""Measure how a game's hands end for the dealing side, strategies/<game>/hand_outcomes.csv.

    python -m experiments.hand_outcomes --game euchre|ginrummy [--hands 1000000] [--seed 7201]

Every hand of ``--hands`` fresh deals is played on the compiled engine by ``MODEL`` in every seat
(what mc and search take every seat to be), dealt by seat ``hand id % seats`` as tournaments deal;
each hand's points for the dealing side and the other side are counted by ending.
strategies/game_chances.py turns the endings into the chance of winning a game from any score, which
``search:value=game`` maximises instead of a hand's points.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import strategies
from experiments import count_argument, run_script, seed_argument
from sim import games
from strategies.game_chances import write_endings

MODEL = "heuristic"
BLOCK = 100_000  # hands per pass, so memory stays flat
GAMES = ("euchre", "ginrummy")  # the games whose search may value the game (search:value=game)


def side_points(points: np.ndarray, dealers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n,) the dealing side's and (n,) the other side's points from each seat's (n, seats) and the
    dealers (n,): the seat after the dealer is on the other side in both games."""
    rows, seats = np.arange(len(points)), points.shape[1]
    return points[rows, dealers], points[rows, (dealers + 1) % seats]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, required=True)
    parser.add_argument("--hands", type=count_argument, default=1_000_000)
    parser.add_argument("--seed", type=seed_argument, default=7201)
    args = parser.parse_args()
    began = time.perf_counter()
    game = games.load(args.game)
    players = [strategies.get(args.game, MODEL)] * game.num_seats
    dealing, other = [], []
    for first in range(0, args.hands, BLOCK):
        size = min(BLOCK, args.hands - first)
        ids = np.arange(first, first + size, dtype=np.int64)
        points = game.play_rounds["fast"](game.deals(args.seed, first, size), players, ids).points
        sides = side_points(points, ids % game.num_seats)
        dealing.append(sides[0])
        other.append(sides[1])
    path = Path(strategies.__file__).parent / args.game / "hand_outcomes.csv"
    scored = write_endings(path, np.concatenate(dealing), np.concatenate(other))
    print(
        f"{path}: {args.hands:,} hands of {MODEL} (seed {args.seed}), {scored:,} of them scored, "
        f"{time.perf_counter() - began:.0f} s"
    )


if __name__ == "__main__":
    run_script(main, "experiments.hand_outcomes")
