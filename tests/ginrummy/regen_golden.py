"""Rewrite the expected outputs of the golden transcripts from the current program (review the diff!)."""

import io
from pathlib import Path

from sim.ginrummy.cli import main

GOLDEN = Path(__file__).parent / "golden"


def run_case(args_path: Path) -> str:
    """The standard output of one golden case."""
    stdin = io.StringIO(args_path.with_suffix(".in").read_text())
    stdout = io.StringIO()
    main(args_path.read_text().split(), stdin, stdout)
    return stdout.getvalue()


if __name__ == "__main__":
    for args_path in sorted(GOLDEN.glob("*.args")):
        args_path.with_suffix(".out").write_text(run_case(args_path))
        print("wrote", args_path.with_suffix(".out").name)
