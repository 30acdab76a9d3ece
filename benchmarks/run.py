"""How fast the Straights engines play: ``python -m benchmarks.run`` (``make bench``).

Prints one table: rounds per second of the reference engine and of the fast engine at several batch
sizes, on one core and on every core (joblib, loky), with seeded dealing counted ("deals incl.")
and not ("play only"), the speed-up over the reference engine on as many cores, and the peak
resident memory of the processes that played. Four first-legal players throughout. Warm-up runs
are not timed; each figure is the best of ``REPEATS`` measurements. A batch is one call for that
many rounds; the fast engine streams it in blocks of ``fast.BLOCK_SIZE`` rounds, so memory does not
grow with the batch. ``benchmarks/README.md`` explains the design choices these numbers back.
Run as a program, it then prints every game's dealing speed (``benchmarks.dealing``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field

from joblib import Parallel, delayed

from benchmarks import dealing
from sim.straights import fast
from sim.straights.game import PACKS
from sim.straights.engine import Round
from strategies.straights.first_legal import FirstLegal

BATCH_SIZES = (1_000, 10_000, 100_000, 1_000_000)
REFERENCE_ROUNDS = 500
MIN_SECONDS = 0.4  # small batches repeat until a measurement lasts this long
REPEATS = 3  # the host is shared: the best of a few measurements is the engine's speed, the rest is noise
SEED = 20240
TASK_BLOCKS = 4  # engine blocks per task on every core: ~40 ms of work, so dispatch costs ~2%


@dataclass(frozen=True)
class Timing:
    """What one call did: rounds played, seconds spent dealing and playing, the process and its peak memory."""

    rounds: int
    deal_seconds: float
    play_seconds: float
    peak_mb: float
    worker: int = field(default_factory=os.getpid)


@dataclass(frozen=True)
class Row:
    engine: str
    batch: int
    cores: int
    with_deals: float
    play_only: float
    peak_mb: float
    speedup: float = math.nan


def peak_memory_mb() -> float:
    """The peak resident memory of this process so far (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def play_reference(start: int, count: int) -> Timing:
    """Play ``count`` seeded deals one decision at a time in the reference engine."""
    player = FirstLegal()
    began = time.perf_counter()
    dealt = PACKS.deals(SEED, start, count)
    dealt_at = time.perf_counter()
    for deck in dealt:
        current = Round(tuple(deck.tolist()))
        while not current.is_over:
            current.apply(int(player.choose(current.observe())[0]))
    return Timing(count, dealt_at - began, time.perf_counter() - dealt_at, peak_memory_mb())


def play_fast(start: int, count: int) -> Timing:
    """Play ``count`` seeded deals in the fast engine, dealing and playing one block at a time."""
    players = [FirstLegal()] * 4
    deal_seconds = play_seconds = 0.0
    for block_start in range(start, start + count, fast.BLOCK_SIZE):
        began = time.perf_counter()
        dealt = PACKS.deals(SEED, block_start, min(fast.BLOCK_SIZE, start + count - block_start))
        dealt_at = time.perf_counter()
        fast.play_rounds(dealt, players)
        deal_seconds += dealt_at - began
        play_seconds += time.perf_counter() - dealt_at
    return Timing(count, deal_seconds, play_seconds, peak_memory_mb())


def measure_one_core(play, batch: int) -> tuple[float, float, float]:
    """(rounds/s with deals, rounds/s playing only, peak MB) of ``play`` in this process, best of REPEATS.

    Calls play consecutive batches of fresh deals, as a long run would: no deal is played twice.
    """
    play(0, min(batch, fast.BLOCK_SIZE))  # warm-up
    start = fast.BLOCK_SIZE
    best_with_deals = best_play_only = 0.0
    for _ in range(REPEATS):
        rounds, deal_seconds, play_seconds = 0, 0.0, 0.0
        while deal_seconds + play_seconds < MIN_SECONDS:
            timing = play(start, batch)
            start += batch
            rounds += timing.rounds
            deal_seconds += timing.deal_seconds
            play_seconds += timing.play_seconds
        best_with_deals = max(best_with_deals, rounds / (deal_seconds + play_seconds))
        best_play_only = max(best_play_only, rounds / play_seconds)
    return best_with_deals, best_play_only, peak_memory_mb()


def split_into_tasks(batch: int, cores: int) -> list[tuple[int, int]]:
    """(offset, size) tasks covering ``batch`` rounds: a multiple of ``cores`` of them, of nearly equal
    whole numbers of engine blocks (so no two workers shuffle the same deal block), at most about
    TASK_BLOCKS blocks each."""
    blocks = math.ceil(batch / fast.BLOCK_SIZE)
    if blocks < 2 * cores:  # too few blocks to balance: split the rounds themselves
        share = math.ceil(batch / cores)
        return [(offset, min(share, batch - offset)) for offset in range(0, batch, share)]
    count = cores * math.ceil(blocks / (cores * TASK_BLOCKS))
    bounds = [min(batch, fast.BLOCK_SIZE * (blocks * task // count)) for task in range(count + 1)]
    return [(first, last - first) for first, last in zip(bounds, bounds[1:]) if last > first]


def measure_all_cores(parallel: Parallel, play, batch: int, cores: int) -> tuple[float, float, float]:
    """(rounds/s with deals by the wall clock, rounds/s playing only, peak MB of a worker) on ``cores`` workers.

    The batch is cut into tasks of whole engine blocks that joblib hands to whichever worker is free,
    as the tournament runner does with its chunks, so a worker slowed by the host does less of the
    work. Playing only counts each call as long as its busiest worker spent playing. Best of REPEATS.
    """
    tasks = split_into_tasks(batch, cores)
    parallel(delayed(play)(offset, min(size, fast.BLOCK_SIZE)) for offset, size in tasks[:cores])  # warm-up
    stride = math.ceil(batch / fast.BLOCK_SIZE) * fast.BLOCK_SIZE  # every call starts on a fresh block
    start = stride
    best_with_deals = best_play_only = peak = 0.0
    for _ in range(REPEATS):
        rounds, wall, play_wall = 0, 0.0, 0.0
        while wall < MIN_SECONDS:
            began = time.perf_counter()
            timings = parallel(delayed(play)(start + offset, size) for offset, size in tasks)
            wall += time.perf_counter() - began
            playing = defaultdict(float)
            for timing in timings:
                playing[timing.worker] += timing.play_seconds
            play_wall += max(playing.values())
            peak = max(peak, *(timing.peak_mb for timing in timings))
            rounds += batch
            start += stride
        best_with_deals = max(best_with_deals, rounds / wall)
        best_play_only = max(best_play_only, rounds / play_wall)
    return best_with_deals, best_play_only, peak


def run(batch_sizes: tuple[int, ...], cores: int) -> list[Row]:
    """Every measurement of the table, in increasing batch size (so peak memory is the peak so far)."""
    rows = []
    with Parallel(n_jobs=cores, backend="loky") as parallel:
        reference = {1: measure_one_core(play_reference, REFERENCE_ROUNDS)}
        if cores > 1:
            reference[cores] = measure_all_cores(parallel, play_reference, REFERENCE_ROUNDS * cores, cores)
        for used in sorted(reference):
            rows.append(Row("reference", REFERENCE_ROUNDS * used, used, *reference[used], speedup=1.0))
        for batch in batch_sizes:
            for used in sorted({1, cores}):
                if used == 1:
                    measured = measure_one_core(play_fast, batch)
                else:
                    measured = measure_all_cores(parallel, play_fast, batch, used)
                rows.append(Row("fast", batch, used, *measured, speedup=measured[0] / reference[used][0]))
    return rows


def format_table(rows: list[Row]) -> str:
    header = (
        f"{'engine':<10} {'batch':>9} {'cores':>5} {'deals incl. /s':>15} {'play only /s':>13}"
        f" {'× ref':>7} {'peak MB':>8}"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        lines.append(
            f"{row.engine:<10} {row.batch:>9,} {row.cores:>5} {row.with_deals:>15,.0f} {row.play_only:>13,.0f}"
            f" {row.speedup:>7.1f} {row.peak_mb:>8.0f}"
        )
    return "\n".join(lines)


def benchmark(batch_sizes: tuple[int, ...] = BATCH_SIZES, cores: int | None = None, json_path: str | None = None) -> None:
    """Measure, print the table, and write it as JSON lines to ``json_path`` when given."""
    began = time.perf_counter()
    rows = run(tuple(batch_sizes), cores or os.cpu_count() or 1)
    print(format_table(rows))
    print(f"(4 first-legal players; {time.perf_counter() - began:.0f} s in all)")
    if json_path:
        with open(json_path, "w") as out:
            out.writelines(json.dumps(asdict(row)) + "\n" for row in rows)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``make bench`` and ``cardsim bench``."""
    parser.add_argument("--sizes", type=int, nargs="+", default=BATCH_SIZES, help="batch sizes of the fast engine")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1, help="workers for the all-cores rows")
    parser.add_argument("--json", metavar="PATH", help="also write one JSON line per row to PATH")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    options = parser.parse_args()
    benchmark(tuple(options.sizes), options.cores, options.json)
    print()
    dealing.benchmark()


if __name__ == "__main__":
    main()
