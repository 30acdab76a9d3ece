"""How fast every game deals: ``python -m benchmarks.dealing`` (``make bench`` prints it after the engines).

One table: per registered game, its pack size and the seeded deals per second of ``Game.deals`` on
one core (numpy deals on one thread), asked for all at once and in tournament chunks
(``sim.plans.MAX_CHUNK_DEALS``). Every measurement deals under a seed of its own, so no block
comes from the dealer's cache of recent blocks. Each figure is the best of ``REPEATS``.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from sim import games
from sim.plans import MAX_CHUNK_DEALS

CHUNK = MAX_CHUNK_DEALS["fast"]  # deals a fast-engine tournament chunk holds at most

DEALS = 1_000_000
REPEATS = 3  # the host is shared: the best of a few measurements is the dealer's speed, the rest is noise


@dataclass(frozen=True)
class Row:
    game: str
    pack_size: int
    in_one_call: float  # deals per second
    in_chunks: float


def deals_per_second(game: games.Game, count: int, per_call: int) -> float:
    """The best rate of dealing ``count`` fresh deals of ``game`` in calls of ``per_call``."""
    best = 0.0
    for seed in range(1, REPEATS + 1):
        began = time.perf_counter()
        for start in range(0, count, per_call):
            game.deals(seed, start, min(per_call, count - start))
        best = max(best, count / (time.perf_counter() - began))
    return best


def run(count: int = DEALS) -> list[Row]:
    """One row per registered game."""
    rows = []
    for name in games.names():
        game = games.load(name)
        pack_size = game.deals(0, 0, 1).shape[1]  # also the warm-up
        rows.append(Row(name, pack_size, deals_per_second(game, count, count), deals_per_second(game, count, CHUNK)))
    return rows


def format_table(rows: list[Row], count: int) -> str:
    header = f"{'game':<10} {'pack':>4} {f'{count:,} in one call /s':>22} {f'in calls of {CHUNK:,} /s':>22}"
    lines = [header, "-" * len(header)]
    lines += [f"{row.game:<10} {row.pack_size:>4} {row.in_one_call:>22,.0f} {row.in_chunks:>22,.0f}" for row in rows]
    return "\n".join(lines)


def benchmark(count: int = DEALS) -> None:
    """Measure and print the table."""
    print(format_table(run(count), count))
    print("(seeded deals per second on one core, best of", REPEATS, "runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=DEALS, help="deals per measurement")
    benchmark(parser.parse_args().deals)


if __name__ == "__main__":
    main()
