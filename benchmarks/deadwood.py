"""How fast Gin Rummy hands are judged: ``python -m benchmarks.deadwood``.

One table: per function of ``sim.ginrummy.melds`` and hand size, the hands per second it judges on one
core (numpy on one thread) in one call over ``HANDS`` random hands, beside its reference in
``sim.ginrummy.rules`` called hand by hand on the first ``SAMPLE`` of them, measured in the same run.
The reference's memo is emptied before each measurement, so it never answers from an earlier one.
Each figure is the best of ``REPEATS``; then the time the melds module takes to build its tables.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from sim.cards import NUM_CARDS, cards_in
from sim.ginrummy import melds, rules

HANDS = 1_000_000
SAMPLE = 20_000
REPEATS = 3  # the host is shared: the best of a few measurements is the code's speed, the rest is noise
DEAL_CHUNK = 100_000  # hands dealt at a time, so dealing a million stays small in memory


def reference_best_discard(hand: int) -> int:
    """The card the strategies throw: least deadwood left, then the higher value, then the lower id."""
    return min(cards_in(hand), key=lambda card: (rules.deadwood(hand & ~(1 << card)), -rules.card_value(card)))


@dataclass(frozen=True)
class Case:
    name: str
    cards: int
    fast: Callable[[np.ndarray], object]
    reference: Callable[[int], object]


CASES = [
    Case("deadwood", 10, melds.deadwood, rules.deadwood),
    Case("deadwood", 11, melds.deadwood, rules.deadwood),
    Case("melded_mask", 10, melds.melded_mask, rules.melded_mask),
    Case("discard_deadwoods", 11, melds.discard_deadwoods, rules.discard_deadwoods),
    Case("best_discards", 11, melds.best_discards, reference_best_discard),
    Case("knocking_discards", 11, melds.knocking_discards, rules.knocking_discards),
]


@dataclass(frozen=True)
class Row:
    function: str
    cards: int
    fast: float  # hands per second
    reference: float


def deal(rng: np.random.Generator, count: int, cards: int) -> np.ndarray:
    """``count`` random hands of ``cards`` cards: the first cards of random permutations of the pack."""
    hands = np.empty(count, dtype=np.int64)
    pack = np.arange(NUM_CARDS, dtype=np.int64)
    for start in range(0, count, DEAL_CHUNK):
        chunk = min(DEAL_CHUNK, count - start)
        dealt = rng.permuted(np.broadcast_to(pack, (chunk, NUM_CARDS)), axis=1)[:, :cards]
        hands[start : start + chunk] = (np.int64(1) << dealt).sum(axis=1)
    return hands


def best_rate(measure: Callable[[], object], count: int) -> float:
    """The best rate over ``REPEATS`` runs of ``measure``, which judges ``count`` hands."""
    best = 0.0
    for _ in range(REPEATS):
        began = time.perf_counter()
        measure()
        best = max(best, count / (time.perf_counter() - began))
    return best


def reference_rate(function: Callable[[int], object], hands: list[int]) -> float:
    def measure() -> None:
        rules._best.cache_clear()
        for hand in hands:
            function(hand)

    return best_rate(measure, len(hands))


def run(count: int = HANDS, sample: int = SAMPLE, seed: int = 1) -> list[Row]:
    """One row per case, on the same random hands for every function of a hand size."""
    rng = np.random.default_rng(seed)
    hands = {cards: deal(rng, count, cards) for cards in sorted({case.cards for case in CASES})}
    rows = []
    for case in CASES:
        batch = hands[case.cards]
        case.fast(batch[:1000])  # warm-up
        fast_rate = best_rate(partial(case.fast, batch), count)
        rows.append(Row(case.name, case.cards, fast_rate, reference_rate(case.reference, batch[:sample].tolist())))
    return rows


def format_table(rows: list[Row], count: int, sample: int) -> str:
    fast_label, reference_label = f"fast ({count:,}) /s", f"reference ({sample:,}) /s"
    header = f"{'function':<18} {'cards':>5} {fast_label:>20} {reference_label:>24} {'speed-up':>9}"
    lines = [header, "-" * len(header)]
    for row in rows:
        speed_up = row.fast / row.reference
        lines.append(f"{row.function:<18} {row.cards:>5} {row.fast:>20,.0f} {row.reference:>24,.0f} {speed_up:>8,.0f}x")
    return "\n".join(lines)


def table_build_seconds() -> float:
    """The best time to build the fast module's tables (what importing it costs beyond numpy)."""
    best = float("inf")
    for _ in range(REPEATS):
        began = time.perf_counter()
        melds._run_tables()
        best = min(best, time.perf_counter() - began)
    return best


def benchmark(count: int = HANDS, sample: int = SAMPLE) -> None:
    """Measure and print the table."""
    print(format_table(run(count, sample), count, sample))
    print(
        f"(random hands judged per second on one core, best of {REPEATS} runs; "
        f"tables built in {table_build_seconds() * 1000:.1f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=HANDS, help="hands per call of the fast functions")
    parser.add_argument("--sample", type=int, default=SAMPLE, help="hands per measurement of the reference")
    options = parser.parse_args()
    benchmark(options.hands, options.sample)


if __name__ == "__main__":
    main()
