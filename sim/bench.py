"""How fast a game's engines play: the measurements behind ``make bench`` and ``cardsim bench``.

For any registered game, read from its ``Game`` record alone: rounds per second of each engine it
has (``play_rounds``: the reference engine, and the fast one where there is one) on one core and on
every core (joblib, loky), with seeded dealing counted ("deals incl.") and not ("play only"), the
decisions per second (deals included), the speed-up over the reference engine on as many cores, and
the peak resident memory of the processes that played.

Every seat plays the game's ``baseline``, its spec's own computer player: cheap and deterministic, so
the figures measure the engine more than the strategy. Decisions are counted as the rows of the
observations the strategy is handed; a baseline with a compiled policy decides inside the fast
engine's kernel, uncounted, so a fast row's decisions are shown as "-" (0 in the JSON).

Warm-up runs are not timed; each figure is the best of ``Effort.repeats`` measurements of at least
``Effort.min_seconds``. A batch is one call for that many rounds, dealt and played a deal block
(``sim.dealing.DEALS_PER_BLOCK``) at a time, so memory does not grow with the batch. The fast
engine plays the batch sizes asked for; the reference engine a batch it plays in about
``min_seconds``, found by measuring. ``benchmarks/README.md`` explains the methodology.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

import strategies
from sim import games
from sim.dealing import DEALS_PER_BLOCK
from sim.files import atomic_write_bytes
from sim.workers import local_workers, usable_cores

if TYPE_CHECKING:
    from joblib import Parallel

BATCH_SIZES = (1_000, 10_000, 100_000, 1_000_000)
SEED = 20240
TASK_BLOCKS = 4  # deal blocks per task on every core: long enough that joblib's dispatch costs little
REFERENCE_ENGINE = "reference"
PROCESS_STATUS = "/proc/self/status"


class BenchRequestError(ValueError):
    """Batch sizes or a number of cores that cannot be measured."""


@dataclass(frozen=True)
class Effort:
    """How long each figure is measured: the best of ``repeats`` measurements of ``min_seconds`` or more."""

    min_seconds: float = 0.4
    repeats: int = 3  # the host is shared: the best of a few measurements is the engine's speed, the rest is noise


EFFORT = Effort()


@dataclass(frozen=True)
class Timing:
    """What one call did: rounds and decisions played, seconds spent dealing and playing, the process and
    its peak memory."""

    rounds: int
    decisions: int
    deal_seconds: float
    play_seconds: float
    peak_mb: float
    worker: int = field(default_factory=os.getpid)


@dataclass(frozen=True)
class Speed:
    """One measured figure set: rounds/s with deals and playing only, decisions/s with deals, peak MB."""

    with_deals: float
    play_only: float
    decisions: float
    peak_mb: float


@dataclass(frozen=True)
class Row:
    """One line of a game's table."""

    game: str
    engine: str
    batch: int
    cores: int
    with_deals: float
    play_only: float
    decisions: float
    peak_mb: float
    speedup: float


@dataclass(frozen=True)
class Table:
    """A game's measurements and the strategy that played them."""

    game: str
    strategy: str
    rows: list[Row]
    seconds: float


@dataclass(frozen=True)
class Workload:
    """What a measurement plays: one engine of a game, every seat played by one strategy."""

    game: str
    engine: str
    strategy: str

    def play(self, start: int, count: int) -> Timing:
        """Deal and play the seeded deals ``start`` .. ``start + count - 1``, a deal block at a time."""
        from sim.timing import TimedStrategy  # here: numba loads with a measurement, not with cardsim

        game = games.load(self.game)
        play_rounds = game.play_rounds[self.engine]
        player = TimedStrategy(strategies.get(self.game, self.strategy))
        seats = [player] * game.num_seats  # one object in every seat, as a fast engine plays it cheapest
        deal_seconds = play_seconds = 0.0
        for block_start in range(start, start + count, DEALS_PER_BLOCK):
            size = min(DEALS_PER_BLOCK, start + count - block_start)
            began = time.perf_counter()
            dealt = game.deals(SEED, block_start, size)
            dealt_at = time.perf_counter()
            play_rounds(dealt, seats, np.arange(block_start, block_start + size, dtype=np.int64))
            deal_seconds += dealt_at - began
            play_seconds += time.perf_counter() - dealt_at
        return Timing(count, player.decisions, deal_seconds, play_seconds, peak_memory_mb())


def peak_memory_mb() -> float:
    """The peak resident memory of this process so far, in MB.

    Linux's ``VmHWM`` where there is one: ``ru_maxrss`` carries the peak of the process a worker was
    started from over into the worker (across fork and exec), so a worker would report its parent's.
    """
    try:
        with open(PROCESS_STATUS) as status:
            peak_kb = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
        return int(peak_kb) / 1024
    except (OSError, StopIteration):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)  # bytes on macOS, kilobytes elsewhere


def bench_strategy(game_name: str) -> str:
    """The strategy every seat plays: the game's baseline, its spec's own computer player."""
    return games.load(game_name).baseline


def check_request(batch_sizes: Sequence[int], cores: int) -> None:
    """Raise ``BenchRequestError`` unless every batch size and the number of cores are positive."""
    if min(batch_sizes, default=1) < 1 or cores < 1:
        raise BenchRequestError("--sizes and --cores must be positive")


def nice_ceiling(value: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... that is at least ``value``: batch sizes people can read."""
    power = 10 ** max(0, math.floor(math.log10(max(value, 1))))
    return next(step * power for step in (1, 2, 5, 10) if step * power >= value)


def reference_batch(workload: Workload, effort: Effort) -> int:
    """The batch ``workload`` plays in about ``effort.min_seconds`` (at least that long, at most 2.5 times),
    measured on doubling batches until one lasts a quarter of that; this also warms the engine up."""
    rounds = 1
    while True:
        timing = workload.play(0, rounds)
        seconds = timing.deal_seconds + timing.play_seconds
        if seconds >= effort.min_seconds / 4:
            return nice_ceiling(rounds / seconds * effort.min_seconds)
        rounds *= 2


def measure_one_core(workload: Workload, batch: int, effort: Effort) -> Speed:
    """The speed of ``workload`` in this process, best of ``effort.repeats``.

    Calls play consecutive batches of fresh deals, as a long run would: no deal is played twice.
    """
    workload.play(0, min(batch, DEALS_PER_BLOCK))  # warm-up
    start = DEALS_PER_BLOCK
    best = Speed(0.0, 0.0, 0.0, 0.0)
    for _ in range(effort.repeats):
        rounds = decisions = 0
        deal_seconds = play_seconds = 0.0
        while deal_seconds + play_seconds < effort.min_seconds:
            timing = workload.play(start, batch)
            start += batch
            rounds += timing.rounds
            decisions += timing.decisions
            deal_seconds += timing.deal_seconds
            play_seconds += timing.play_seconds
        best = faster(best, rounds, decisions, deal_seconds + play_seconds, play_seconds)
    return replace(best, peak_mb=peak_memory_mb())


def faster(best: Speed, rounds: int, decisions: int, seconds: float, play_seconds: float) -> Speed:
    """``best`` with each rate raised to this measurement's where that is higher (peak MB as it was)."""
    return Speed(
        max(best.with_deals, rounds / seconds),
        max(best.play_only, rounds / play_seconds),
        max(best.decisions, decisions / seconds),
        best.peak_mb,
    )


def split_into_tasks(batch: int, cores: int) -> list[tuple[int, int]]:
    """(offset, size) tasks covering ``batch`` rounds: a multiple of ``cores`` of them, of nearly equal
    whole numbers of deal blocks (so no two workers shuffle the same block), at most about
    TASK_BLOCKS blocks each."""
    blocks = math.ceil(batch / DEALS_PER_BLOCK)
    if blocks < 2 * cores:  # too few blocks to balance: split the rounds themselves
        share = math.ceil(batch / cores)
        return [(offset, min(share, batch - offset)) for offset in range(0, batch, share)]
    count = cores * math.ceil(blocks / (cores * TASK_BLOCKS))
    bounds = [min(batch, DEALS_PER_BLOCK * (blocks * task // count)) for task in range(count + 1)]
    return [(first, last - first) for first, last in zip(bounds, bounds[1:]) if last > first]


def measure_all_cores(parallel: Parallel, workload: Workload, batch: int, cores: int, effort: Effort) -> Speed:
    """The speed of ``workload`` on ``cores`` workers: rates by the wall clock, peak MB of a worker.

    The batch is cut into tasks of whole deal blocks that joblib hands to whichever worker is free,
    as the tournament runner does with its chunks, so a worker slowed by the host does less of the
    work. Playing only counts each call as long as its busiest worker spent playing. Best of
    ``effort.repeats``.
    """
    from joblib import delayed

    tasks = split_into_tasks(batch, cores)
    parallel(delayed(workload.play)(offset, min(size, DEALS_PER_BLOCK)) for offset, size in tasks[:cores])
    stride = math.ceil(batch / DEALS_PER_BLOCK) * DEALS_PER_BLOCK  # every call starts on a fresh block
    start = stride
    best = Speed(0.0, 0.0, 0.0, 0.0)
    peak = 0.0
    for _ in range(effort.repeats):
        rounds = decisions = 0
        wall = play_wall = 0.0
        while wall < effort.min_seconds:
            began = time.perf_counter()
            timings = parallel(delayed(workload.play)(start + offset, size) for offset, size in tasks)
            wall += time.perf_counter() - began
            playing: dict[int, float] = defaultdict(float)
            for timing in timings:
                playing[timing.worker] += timing.play_seconds
            play_wall += max(playing.values())
            peak = max(peak, *(timing.peak_mb for timing in timings))
            rounds += batch
            decisions += sum(timing.decisions for timing in timings)
            start += stride
        best = faster(best, rounds, decisions, wall, play_wall)
    return replace(best, peak_mb=peak)


def measure(parallel: Parallel, workload: Workload, batch: int, cores: int, effort: Effort) -> Speed:
    """The speed of ``workload`` at ``batch`` on ``cores`` cores (1: in this process)."""
    if cores == 1:
        return measure_one_core(workload, batch, effort)
    return measure_all_cores(parallel, workload, batch, cores, effort)


def run(
    game_name: str, batch_sizes: Sequence[int] = BATCH_SIZES, cores: int = 1, effort: Effort | None = None
) -> Table:
    """Every measurement of ``game_name``'s table (``effort`` default: ``EFFORT``): its reference engine,
    then each other engine it has at ``batch_sizes`` in increasing order (so peak memory is the peak so far)."""
    from joblib import Parallel  # here: the worker pool's library loads with a measurement, not with cardsim

    effort = EFFORT if effort is None else effort
    check_request(batch_sizes, cores)
    began = time.perf_counter()
    game = games.load(game_name)
    strategy = bench_strategy(game_name)
    core_counts = sorted({1, cores})
    with local_workers(cores), Parallel() as parallel:
        reference = Workload(game_name, REFERENCE_ENGINE, strategy)
        per_core = reference_batch(reference, effort)
        baseline = {used: measure(parallel, reference, per_core * used, used, effort) for used in core_counts}
        rows = [row_of(reference, per_core * used, used, baseline[used], baseline[used]) for used in core_counts]
        for engine in sorted(set(game.play_rounds) - {REFERENCE_ENGINE}):
            workload = Workload(game_name, engine, strategy)
            rows += [
                row_of(workload, batch, used, measure(parallel, workload, batch, used, effort), baseline[used])
                for batch in sorted(batch_sizes)
                for used in core_counts
            ]
    return Table(game_name, strategy, rows, time.perf_counter() - began)


def row_of(workload: Workload, batch: int, cores: int, speed: Speed, reference: Speed) -> Row:
    """A table row: ``speed`` and its speed-up over the reference engine's on as many cores."""
    return Row(
        workload.game,
        workload.engine,
        batch,
        cores,
        speed.with_deals,
        speed.play_only,
        speed.decisions,
        speed.peak_mb,
        speed.with_deals / reference.with_deals,
    )


def format_table(table: Table) -> str:
    """The table as text, with a header and a line saying who played and how long it took."""
    header = (
        f"{'engine':<10} {'batch':>9} {'cores':>5} {'deals incl. /s':>15} {'play only /s':>13}"
        f" {'decisions /s':>13} {'× ref':>7} {'peak MB':>8}"
    )
    lines = [f"{table.game}:", header, "-" * len(header)]
    for row in table.rows:
        lines.append(
            f"{row.engine:<10} {row.batch:>9,} {row.cores:>5} {row.with_deals:>15,.0f} {row.play_only:>13,.0f}"
            f" {f'{row.decisions:,.0f}' if row.decisions else '-':>13} {row.speedup:>7.1f} {row.peak_mb:>8.0f}"
        )
    lines.append(f"(every seat plays {table.strategy}; {table.seconds:.0f} s)")
    return "\n".join(lines)


def benchmark(
    game_names: Sequence[str],
    batch_sizes: Sequence[int] = BATCH_SIZES,
    cores: int | None = None,
    json_path: str | None = None,
) -> list[Table]:
    """Measure each game, print its table as soon as it is measured, and write every row as a JSON line
    to ``json_path`` when given."""
    tables = []
    for number, game_name in enumerate(game_names):
        tables.append(run(game_name, batch_sizes, usable_cores() if cores is None else cores))
        print(("\n" if number else "") + format_table(tables[-1]), flush=True)
    if json_path:
        lines = "".join(json.dumps(asdict(row)) + "\n" for table in tables for row in table.rows)
        atomic_write_bytes(json_path, lines.encode())
    return tables


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The measuring options of ``make bench`` and ``cardsim bench``."""
    parser.add_argument("--sizes", type=int, nargs="+", default=BATCH_SIZES, help="batch sizes of fast engines")
    parser.add_argument("--cores", type=int, help="workers for the all-cores rows (default: every usable core)")
    parser.add_argument("--json", metavar="PATH", help="also write one JSON line per row to PATH")
