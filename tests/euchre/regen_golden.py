"""Rewrite the expected outputs of the golden transcripts from the current program (review the diff!).

The official cases (``euchre_test*``) are copies of the course's files and are never rewritten.
"""

import os
from io import StringIO
from pathlib import Path

from sim.euchre.cli import main

GOLDEN = Path(__file__).parent / "golden"
PACKS = GOLDEN / "packs"
OFFICIAL_PREFIX = "euchre_test"


def run_case(args_path: Path) -> str:
    """The standard output of one golden case, run in the packs folder.

    ``NAME.args`` holds the whole command line; its first word is the program name the output echoes.
    """
    program, *argv = args_path.read_text().split()
    stdin = StringIO(args_path.with_suffix(".in").read_text())
    stdout = StringIO()
    cwd = os.getcwd()
    os.chdir(PACKS)
    try:
        main(argv, stdin, stdout, program)
    finally:
        os.chdir(cwd)
    return stdout.getvalue()


if __name__ == "__main__":
    for args_path in sorted(GOLDEN.glob("*.args")):
        if not args_path.stem.startswith(OFFICIAL_PREFIX):
            args_path.with_suffix(".out").write_text(run_case(args_path))
            print("wrote", args_path.with_suffix(".out").name)
