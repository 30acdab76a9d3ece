"""How well Straights search's inference places the cards it has not seen (issue 39).

    python -m experiments.straights_inference [--deals 40] [SPEC ...]

Plays ``--deals`` deals with ``heuristic`` in every seat on the fast engine. At each of seat 0's
decisions, each SPEC (a ``search`` setting) deals its worlds, and the script counts the share of the
unseen cards each world gives to the seat that truly holds them (or discarded them), and the mean
number of the other seats' turns the heuristic would have played otherwise in those worlds. Uniform
worlds place about a third; the true world explains every turn, so its mismatches are 0.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import strategies
from experiments import count_argument
from sim.straights import fast
from sim.straights.game import GAME
from sim.straights.observation import Observation
from strategies.straights.mc import SEATS, what_is_known
from strategies.straights.search import SolverSearch

DEFAULT_SPECS = ("search:oversample=1", "search", "search:oversample=4,moves=32", "search:oversample=4,moves=64")
SEED = 4101
NUM_CARDS_PER_SEAT = 13


class Probe:
    """Plays like ``heuristic`` and scores each search's worlds against the true deals."""

    name = "probe"

    def __init__(self, searches: dict[str, SolverSearch], deals: np.ndarray) -> None:
        self.searches = searches
        self.true_seat = np.argsort(deals, axis=1) // NUM_CARDS_PER_SEAT  # (rounds, 52) card -> seat
        self.placed = {spec: [] for spec in searches}
        self.mismatches = {spec: [] for spec in searches}
        self.seconds = dict.fromkeys(searches, 0.0)
        self.heuristic = strategies.get("straights", "heuristic")

    def choose(self, observation: Observation) -> np.ndarray:
        known = what_is_known(observation)
        unseen = ((known.unseen[:, None] >> np.arange(52)) & 1).astype(bool)
        truth = self.true_seat[observation.round_id.astype(np.int64)]
        for spec, search in self.searches.items():
            start = time.perf_counter()
            worlds = search.worlds(observation)
            self.seconds[spec] += time.perf_counter() - start
            world_seat = np.argsort(worlds.deals.astype(np.int64), axis=2) // NUM_CARDS_PER_SEAT
            right = (world_seat == truth[:, None, :]) & unseen[:, None, :]
            counted = unseen.sum(axis=1)
            self.placed[spec].extend((right.sum(axis=2).mean(axis=1) / np.maximum(counted, 1))[counted > 0])
            self.mismatches[spec].extend(search.mismatches(observation, worlds).mean(axis=1)[counted > 0])
        return self.heuristic.choose(observation)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=count_argument, default=40)
    parser.add_argument("specs", nargs="*", default=list(DEFAULT_SPECS))
    args = parser.parse_args()
    deals = GAME.deals(SEED, 0, args.deals).astype(np.int8)
    searches = {spec: strategies.get("straights", spec) for spec in args.specs}
    probe = Probe(searches, deals)
    heuristic = strategies.get("straights", "heuristic")
    fast.play_rounds(deals, [probe] + [heuristic] * (SEATS - 1), np.arange(args.deals))
    print(f"{args.deals} deals of seed {SEED}, seat 0's decisions; share of unseen cards placed right, mean mismatches")
    for spec in args.specs:
        placed, mismatches = np.array(probe.placed[spec]), np.array(probe.mismatches[spec])
        print(
            f"{spec:40s} placed {placed.mean():.3f}  mismatches {mismatches.mean():.2f}  "
            f"worlds {probe.seconds[spec] / len(placed) * 1000:.1f} ms a decision"
        )


if __name__ == "__main__":
    main()
