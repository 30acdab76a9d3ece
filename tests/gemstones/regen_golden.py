"""Rewrite the golden transcripts from the current program (review the diff!).

``python -m tests.gemstones.regen_golden`` rewrites every ``.out``; with ``--answers`` it also
rewrites the ``.in`` of the cases listed in ``ANSWERED``, whose answers come from ``Answerer``.
"""

import contextlib
import hashlib
import io
import os
import shutil
import sys
import tempfile
from pathlib import Path

from sim.gemstones.cli import main

GOLDEN = Path(__file__).parent / "golden"
# Cases whose input is generated: name -> the lines typed before the answerer takes over.
ANSWERED = {"two-humans-seed-44": ["n", "Jane", "Tom"], "human-vs-greedy-seed-7": ["Ana"], "load-midgame": []}


class Answerer:
    """Plays a human at the console: a reproducible, varied, always-valid answer to each question,
    chosen from the question and the text printed since the turn began (so a resumed game gets
    the same answers as one that never paused). ``pause_at`` pauses at that round's question."""

    def __init__(self, out: io.StringIO, prefix: list[str], pause_at: int | None = None, path: str = "") -> None:
        self.out, self.prefix, self.pause_at, self.path = out, list(prefix), pause_at, path
        self.typed: list[str] = []
        self.pauses = 0

    def __iter__(self):
        return self

    def readline(self, size: int = -1) -> str:
        """The next answer as a line of standard input (``sim.console.input_lines`` reads lines)."""
        return next(self)

    def __next__(self) -> str:
        answer = self.prefix.pop(0) if self.prefix else self.answer(self.out.getvalue())
        self.typed.append(answer)
        return answer + "\n"

    def answer(self, text: str) -> str:
        question = text.removesuffix("> ").splitlines()[-1].removeprefix("> ")
        turn = text[text.rfind("\nTurn ") :]
        pick = int.from_bytes(hashlib.sha256(turn.encode()).digest()[:4], "big")
        if question.startswith("Pause"):
            self.pauses += 1
            return "y" if self.pauses == self.pause_at else "n"
        if question.startswith("Save to"):
            return self.path
        if question.startswith(("Buy", "Play your next")):
            return "yn"[pick % 2]
        if question.startswith("Discard"):
            size = int(question.split("(1-")[1].split(")")[0])
            return "n" if pick % 3 else str(1 + pick % size)
        if "Type a stone" in question:
            choices = question.split("chain (")[1].split(")")[0].split(", ")
            return (choices + ["n"])[pick % (len(choices) + 1)]
        if "must be sold" in question:
            return question.split("number (")[1][0]
        raise AssertionError(f"unexpected question {question!r}")


def run(args: list[str], stdin, stdout: io.StringIO) -> int:
    """Run the program in a scratch folder holding copies of the golden save files."""
    with tempfile.TemporaryDirectory() as scratch:
        for saved in GOLDEN.glob("*.sav"):
            shutil.copy(saved, scratch)
        cwd = os.getcwd()
        os.chdir(scratch)
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                return main(args, stdin, stdout)
        finally:
            os.chdir(cwd)


def run_case(args_path: Path) -> str:
    """The standard output of one golden case."""
    stdout = io.StringIO()
    run(args_path.read_text().split(), io.StringIO(args_path.with_suffix(".in").read_text()), stdout)
    return stdout.getvalue()


def write_answers(name: str) -> None:
    args_path = GOLDEN / f"{name}.args"
    stdout = io.StringIO()
    answerer = Answerer(stdout, ANSWERED[name])
    with contextlib.suppress(StopIteration):
        run(args_path.read_text().split(), answerer, stdout)
    args_path.with_suffix(".in").write_text("".join(line + "\n" for line in answerer.typed))


if __name__ == "__main__":
    if "--answers" in sys.argv:
        for name in ANSWERED:
            write_answers(name)
    for args_path in sorted(GOLDEN.glob("*.args")):
        args_path.with_suffix(".out").write_text(run_case(args_path))
        print("wrote", args_path.with_suffix(".out").name)
