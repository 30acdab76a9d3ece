"""Every command in the README runs as written, from a fresh clone, after `make run`.

The commands of the README's code blocks run in README order, each in its own bash, in a copy of
the clone (so what they write stays there; its `.venv` is a link to this one, as `make run` made
it), after `source .venv/bin/activate` as the README says, with `.venv/bin` taken off the PATH so
the activation has to work. Interactive programs get the input in ``INPUT`` (or none) so they end.
The `make` lines and the timing run are not run here (``BY_HAND`` says why); the `jupyter` lines
need `make notebooks` and are skipped without it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

# One worker runs them all: the module's fixture runs every README command (about 45 s), once a worker.
pytestmark = pytest.mark.xdist_group("readme")

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
VENV = ROOT / ".venv"  # what `make run` sets up and the README activates
ACTIVATE = "source .venv/bin/activate"
BY_HAND = {
    "make run": "the setup every other command assumes (this test runs after it)",
    "make test": "runs this test suite",
    "make notebooks": "installs the notebooks extra from PyPI and serves JupyterLab until stopped",
    "cardsim serve": "serves until Ctrl-C; tests/test_browser.py starts it and plays every game in a browser",
    ".venv/bin/dask scheduler": "a cluster runs until stopped; tests/test_cluster.py starts one as written",
    ".venv/bin/dask worker tcp://HOST:8786 --nworkers 2 --nthreads 1": "a cluster's worker (tests/test_cluster.py)",
    "cardsim tournament --game straights --players heuristic,first-legal --rounds 10000000 --duplicate --no-rounds "
    "--backend dask --scheduler tcp://HOST:8786": (
        "needs the cluster above; tests/test_cluster.py runs one on a cluster"
    ),
    "cardsim bench --game straights": "a timing run: it measures each engine for a set time (~20 s in all)",
}
NEEDS_NOTEBOOKS_EXTRA = "jupyter-nbconvert"  # the program the README's `jupyter nbconvert` lines run
INPUT = {
    # Player 1 is the human and saves at its first turn: the game the next command loads.
    "straights 44": "h\nc\nc\nc\nsave saved.json\n",
    # Names player 1, then pauses before the first round and saves (the program's way to stop).
    "gemstones --players human,best": "Ann\ny\ngems.json\n",
}
TIMEOUT = 120  # seconds a command may take before it counts as hung


def readme_commands() -> list[str]:
    """The commands of the README's code blocks in order: one per line, `\\` continuing a line."""
    commands: list[str] = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", README.read_text(), flags=re.S | re.M):
        lines = (line.strip() for line in re.split(r"(?<!\\)\n", block))
        commands += [line for line in lines if line and not line.startswith("#")]
    return commands


def words(command: str) -> str:
    """The command without its comment and spacing, e.g. for looking up its input."""
    return shlex.join(shlex.split(command.replace("\\\n", " "), comments=True))


COMMANDS = readme_commands()
RUN = [command for command in COMMANDS if words(command) not in BY_HAND and words(command) != ACTIVATE]


@dataclass(frozen=True)
class Outcome:
    returncode: int
    stdout: str
    stderr: str
    seconds: float


def needs_notebooks_extra(command: str) -> bool:
    """Whether the command runs `jupyter` (after any VARIABLE=value settings)."""
    return next(word for word in shlex.split(words(command)) if "=" not in word) == "jupyter"


def notebooks_extra_installed() -> bool:
    return (VENV / "bin" / NEEDS_NOTEBOOKS_EXTRA).exists()


def fresh_clone(destination: Path) -> Path:
    """A copy of the clone as `make run` leaves it, without its results, caches or history."""
    skipped = shutil.ignore_patterns(
        ".venv", ".git", "__pycache__", "*.egg-info", ".*_cache", ".hypothesis", ".ipynb_checkpoints"
    )

    def ignore(folder: str, names: list[str]) -> set[str]:
        if Path(folder) == ROOT / "results":
            return {name for name in names if name != "README.md"}
        return set(skipped(folder, names))

    shutil.copytree(ROOT, destination, ignore=ignore)
    (destination / ".venv").symlink_to(VENV, target_is_directory=True)
    return destination


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, Outcome]:
    """Each README command's outcome, all run in README order in one fresh clone."""
    if not (VENV / "bin" / "activate").exists() or not (VENV / "bin" / "cardsim").exists():
        pytest.skip(f"{VENV} is not an environment `make run` set up (no bin/activate and bin/cardsim)")
    clone = fresh_clone(tmp_path_factory.mktemp("readme") / "cardsim")
    path = os.pathsep.join(
        entry
        for entry in os.environ.get("PATH", "").split(os.pathsep)
        if Path(entry or ".").resolve() != (VENV / "bin").resolve()
    )
    env = {**os.environ, "PATH": path, "MPLBACKEND": "Agg"}
    env.pop("VIRTUAL_ENV", None)
    results = {}
    for command in RUN:
        if needs_notebooks_extra(command) and not notebooks_extra_installed():
            continue
        started = time.perf_counter()
        done = subprocess.run(
            ["bash", "-c", f"{ACTIVATE}\n{command}"],
            cwd=clone,
            env=env,
            text=True,
            input=INPUT.get(words(command), ""),
            capture_output=True,
            timeout=TIMEOUT,
        )
        results[command] = Outcome(done.returncode, done.stdout, done.stderr, time.perf_counter() - started)
    return results


@pytest.mark.parametrize("command", RUN, ids=[words(command)[:60] for command in RUN])
def test_readme_command_runs_as_written(outcomes, command):
    if command not in outcomes:
        pytest.skip(f"needs `make notebooks` ({NEEDS_NOTEBOOKS_EXTRA} is not in {VENV / 'bin'})")
    outcome = outcomes[command]
    assert outcome.returncode == 0 and "Traceback" not in outcome.stderr, (
        f"{command!r} exited {outcome.returncode} after {outcome.seconds:.1f} s\n"
        f"stdout (end):\n{outcome.stdout[-2000:]}\nstderr (end):\n{outcome.stderr[-2000:]}"
    )


def test_only_the_commands_by_hand_are_left_out():
    """BY_HAND holds README commands, every `make` line among them; the README says how to put the
    programs on the PATH; every input here belongs to a README command."""
    readme = {words(command) for command in COMMANDS}
    assert set(BY_HAND) <= readme
    assert {command for command in readme if command.startswith("make ")} <= set(BY_HAND)
    assert ACTIVATE in {words(command) for command in COMMANDS}
    assert set(INPUT) <= {words(command) for command in RUN}


def test_the_readme_euchre_pack_is_the_spec_pack():
    """The pack the README's `euchre` command names is the spec's pack.in, byte for byte."""
    (pack,) = {word for command in RUN for word in shlex.split(words(command)) if word.endswith("pack.in")}
    assert (ROOT / pack).read_bytes() == (ROOT / "tests/euchre/golden/packs/pack.in").read_bytes()
