"""Past this machine by simulation: a tournament's throughput on W Dask workers (docs/scaling.md).

A small discrete-event model of what one chunk costs each party, from measurements made here
(``python -m benchmarks.cluster``):

- a worker plays a chunk of C deals in C / r seconds (r: deals a second a core), give or take a
  lognormal jitter;
- the scheduler handles each finished task and hands its worker the next one, one at a time, in
  ``scheduler_seconds`` (Dask's documentation: up to about 1 ms a task);
- the client (the machine running ``cardsim tournament``) stores and merges each chunk's result,
  one at a time, in ``client_seconds`` (0.6 ms measured: write the chunk file, load and merge its
  aggregates); workers do not wait for it.

``python -m benchmarks.scaling`` prints deals a second and the hours a 10^10-deal league takes for
10, 100 and 1,000 workers at several chunk sizes, and which party is the bottleneck.
"""

from __future__ import annotations

import argparse
import heapq
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Costs:
    deals_per_core_second: float
    scheduler_seconds: float = 1e-3
    client_seconds: float = 0.6e-3
    jitter: float = 0.1  # the spread (sigma of the log) of a chunk's time


def simulate(workers: int, chunk_deals: int, costs: Costs, chunks: int, seed: int = 0) -> tuple[float, str]:
    """Deals a second over ``chunks`` chunks on ``workers`` workers, and the busiest party."""
    rng = np.random.default_rng(seed)
    chunk_seconds = chunk_deals / costs.deals_per_core_second
    durations = chunk_seconds * rng.lognormal(0.0, costs.jitter, size=chunks)
    finishing = [(float(durations[index]), index) for index in range(min(workers, chunks))]
    heapq.heapify(finishing)
    started = len(finishing)
    scheduler_free = client_free = 0.0
    scheduler_busy = client_busy = 0.0
    while finishing:
        finished_at, _ = heapq.heappop(finishing)
        # The scheduler takes the result, then gives the worker its next chunk.
        scheduler_free = max(scheduler_free, finished_at) + costs.scheduler_seconds
        scheduler_busy += costs.scheduler_seconds
        client_free = max(client_free, scheduler_free) + costs.client_seconds
        client_busy += costs.client_seconds
        if started < chunks:
            heapq.heappush(finishing, (scheduler_free + float(durations[started]), started))
            started += 1
    elapsed = max(client_free, scheduler_free)
    worker_busy = float(durations.sum()) / workers
    busiest = max(("workers", worker_busy), ("scheduler", scheduler_busy), ("client", client_busy), key=lambda p: p[1])
    return chunks * chunk_deals / elapsed, busiest[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=11_450, help="deals a second a core (heuristic v first-legal)")
    parser.add_argument("--league-deals", type=float, default=1e10)
    args = parser.parse_args(argv)
    costs = Costs(args.rate)
    print(
        f"r = {args.rate:,.0f} deals/s a core; scheduler {costs.scheduler_seconds * 1e3:.1f} ms, "
        f"client {costs.client_seconds * 1e3:.1f} ms a chunk"
    )
    print(
        f"{'workers':>8} {'chunk deals':>12} {'chunk s':>8} {'deals/s':>14} {'of ideal':>9} {'league h':>9}  bottleneck"
    )
    for workers in (10, 100, 1000):
        for chunk_deals in (2_048, 32_768, 262_144, 1_048_576):
            rate, busiest = simulate(workers, chunk_deals, costs, chunks=max(20 * workers, 2000))
            ideal = workers * args.rate
            hours = args.league_deals / rate / 3600
            print(
                f"{workers:>8} {chunk_deals:>12,} {chunk_deals / args.rate:>8.2f} {rate:>14,.0f} "
                f"{rate / ideal:>9.0%} {hours:>9.1f}  {busiest}"
            )


if __name__ == "__main__":
    main()
