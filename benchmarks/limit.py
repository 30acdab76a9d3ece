"""The speed limit the Straights fast engine is measured against: ``../shared/limits/straights.c``, a
tight C implementation of four first-legal players (deals included), built with the C compiler found
and run on one core and on two at once. ``python -m benchmarks.limit`` (part of ``make bench``) prints
its rounds per second; without the source or a compiler it says so and measures nothing.

Only a ratio measured in the same sitting means anything on a shared machine: ``make bench`` prints
this right after the engines' tables, and benchmarks/README.md compares them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "shared" / "limits" / "straights.c"
ROUNDS = 4_000_000  # per process: about two seconds on this project's machines
RATE = re.compile(r"full_rounds_per_s=([0-9.eE+]+)")


def compiler() -> str | None:
    """The C compiler to build the limit with, if this machine has one."""
    return next((path for name in ("cc", "gcc", "clang") if (path := shutil.which(name))), None)


def build(folder: Path, cc: str) -> Path:
    """The limit's program, compiled as its README says."""
    program = folder / "straights-limit"
    subprocess.run([cc, "-O3", "-march=native", "-o", str(program), str(SOURCE)], check=True, capture_output=True)
    return program


def rounds_per_second(program: Path, processes: int) -> float:
    """Rounds per second of ``processes`` copies run at once (each its own seed), summed."""
    runs = [
        subprocess.Popen([str(program), "bench", str(ROUNDS), str(seed + 1), "k"], stdout=subprocess.PIPE, text=True)
        for seed in range(processes)
    ]
    outputs = [run.communicate()[0] for run in runs]
    return sum(float(match.group(1)) for output in outputs if (match := RATE.search(output)))


def benchmark() -> None:
    """Print the limit on one core and on two."""
    cc = compiler()
    if not SOURCE.is_file() or cc is None:
        missing = "a C compiler (cc, gcc or clang)" if cc is None else SOURCE
        print(f"straights C limit: not measured ({missing} not found)")
        return
    with tempfile.TemporaryDirectory() as folder:
        program = build(Path(folder), cc)
        for cores in (1, 2):
            print(
                f"straights C limit (first-legal, deals included), {cores} core(s): "
                f"{rounds_per_second(program, cores):,.0f} rounds/s"
            )


if __name__ == "__main__":
    benchmark()
