"""The speed users meet: whole ``cardsim tournament`` runs on every core, deals included, beside the C
limit measured in the same sitting (``python -m benchmarks.tournaments``, part of ``make bench``).

Each lineup of issue 46's table is run as a person runs it (``cardsim tournament ... --jobs -1
--no-rounds --quiet``, a fresh results folder, start-up and the report included) and timed on the
wall clock; the C limit (``benchmarks.limit``, two processes at once) is measured before and after
and their mean is the yardstick for Straights' first-legal row. ``--scale`` shrinks every run (0.25:
a quarter of the rounds) for a quick look; the figures of docs and notes are at scale 1.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks import limit


@dataclass(frozen=True)
class Lineup:
    """One row of the table: a game, its players and how many rounds (hands, games) to play."""

    game: str
    players: tuple[str, ...]
    rounds: int
    unit: str

    @property
    def label(self) -> str:
        names = dict.fromkeys(self.players)
        return f"{self.game} {' '.join(names)} x{len(self.players)}"


LINEUPS = (
    Lineup("straights", ("first-legal",) * 4, 16_000_000, "rounds"),
    Lineup("straights", ("heuristic",) * 4, 4_000_000, "rounds"),
    Lineup("euchre", ("simple",) * 4, 16_000_000, "hands"),
    Lineup("ginrummy", ("cs340",) * 2, 4_000_000, "hands"),
    Lineup("gemstones", ("greedy",) * 2, 1_000_000, "games"),
)


def tournament_seconds(lineup: Lineup, rounds: int, folder: Path) -> float:
    """Wall-clock seconds of ``cardsim tournament`` playing ``rounds`` of ``lineup`` on every core."""
    command = [sys.executable, "-m", "sim.cli", "tournament", "--game", lineup.game]
    command += ["--players", ",".join(lineup.players), "--rounds", str(rounds), "--jobs", "-1"]
    command += ["--no-rounds", "--quiet", "--out", str(folder)]
    began = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - began


def c_limit() -> float | None:
    """The C limit's rounds per second on two cores, or None where it cannot be built."""
    cc = limit.compiler()
    if not limit.SOURCE.is_file() or cc is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        return limit.rounds_per_second(limit.build(Path(folder), cc), 2)


def benchmark(scale: float) -> None:
    """Print every lineup's rate end to end, and Straights first-legal's beside the C limit."""
    before = c_limit()
    rates = []
    with tempfile.TemporaryDirectory() as folder:
        for index, lineup in enumerate(LINEUPS):
            rounds = max(1, int(lineup.rounds * scale))
            seconds = tournament_seconds(lineup, rounds, Path(folder) / str(index))
            rates.append((lineup, rounds, seconds))
    after = c_limit()
    print(f"{'lineup (cardsim tournament, every core)':<40} {'played':>12} {'seconds':>8} {'per second':>12}")
    print("-" * 75)
    for lineup, rounds, seconds in rates:
        print(f"{lineup.label:<40} {rounds:>12,} {seconds:>8.1f} {rounds / seconds:>12,.0f}  {lineup.unit}")
    if before is None or after is None:
        print("straights C limit: not measured (no C compiler or no ../shared/limits/straights.c)")
        return
    yardstick = (before + after) / 2
    first_legal = rates[0][1] / rates[0][2]
    print(f"straights C limit, two cores: {before:,.0f} before, {after:,.0f} after, mean {yardstick:,.0f} rounds/s")
    print(f"straights first-legal end to end: {first_legal / yardstick:.2f}x the C limit")
    print(f"straights heuristic / first-legal: {rates[1][1] / rates[1][2] / first_legal:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="share of each lineup's rounds to play")
    options = parser.parse_args()
    if not 0 < options.scale <= 1:
        parser.error("--scale is a share of the rounds: more than 0, at most 1")
    benchmark(options.scale)


if __name__ == "__main__":
    main()
