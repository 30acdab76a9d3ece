"""The game programs seat a researcher's own strategies (``--import``), ask them through the one checked
call (``sim.play.choose_one``), and list only the strategies they seat."""

from __future__ import annotations

import io
import itertools
import textwrap

import pytest

from sim.gemstones import cli as gemstones_cli
from sim.ginrummy import cli as ginrummy_cli
from sim.straights import cli as straights_cli

MODULE_NUMBERS = itertools.count()
BOTS = textwrap.dedent(
    """
    import numpy as np
    from strategies import register

    @register("straights", "far-ends")
    class FarEnds:
        def choose(self, observation):
            return np.array([max(np.flatnonzero(row)) for row in observation.legal_mask])

    @register("straights", "cheeky")
    class Cheeky:  # answers with a card it may not play
        def choose(self, observation):
            return np.array([int(np.flatnonzero(~row)[0]) for row in observation.legal_mask])

    @register("gemstones", "last-legal")
    class LastLegal:
        def choose(self, observation):
            return np.array([max(np.flatnonzero(row)) for row in observation.legal_mask])

    @register("gemstones", "raises")
    class Raises:
        def choose(self, observation):
            raise RuntimeError("out of ideas")

    @register("ginrummy", "first-legal-gin")
    class FirstLegal:
        def choose(self, observation):
            return np.array([min(np.flatnonzero(row)) for row in observation.legal_mask])
    """
)


@pytest.fixture
def bots(tmp_path) -> str:
    """The bots' module, under a name of its own for each test: the registry is restored after every
    test, and a module imported once is not run again."""
    path = tmp_path / f"program_bots_{next(MODULE_NUMBERS)}.py"
    path.write_text(BOTS)
    return str(path)


def run_straights(argv: list[str], answers: str = "c\nc\nc\nc\n") -> tuple[int, str]:
    out = io.StringIO()
    return straights_cli.main(argv, io.StringIO(answers), out), out.getvalue()


def test_straights_seats_an_imported_strategy(bots):
    status, printed = run_straights(["44", "--import", bots, "--computer", "far-ends"])
    assert status == 0 and "wins!" in printed


def test_an_imported_strategy_that_cheats_the_rules_ends_the_program_in_one_line(bots, capsys):
    status, _ = run_straights(["44", "--import", bots, "--computer", "cheeky"])
    error = capsys.readouterr().err
    assert status == 1 and error.count("\n") == 1 and "cheeky" in error and "Traceback" not in error


def test_gemstones_seats_imported_strategies_and_a_raising_one_is_one_line(bots, capsys):
    out = io.StringIO()
    argv = ["--import", bots, "--seed", "3", "--players"]
    assert gemstones_cli.main([*argv, "last-legal,heuristic"], io.StringIO(), out) == 0
    capsys.readouterr()
    status = gemstones_cli.main([*argv, "raises,heuristic"], io.StringIO(), out)
    error = capsys.readouterr().err
    assert status == 1 and error.count("\n") == 1 and "raises" in error and "out of ideas" in error


def test_ginrummy_takes_an_imported_strategy(bots):
    _, computer = ginrummy_cli.parse_arguments(["--import", bots, "--vs", "first-legal-gin"])
    assert type(computer).__name__ == "FirstLegal"


@pytest.mark.parametrize(
    ("main", "argv"),
    [
        (straights_cli.main, ["--computer", "nobody"]),
        (gemstones_cli.main, ["--players", "human,nobody"]),
        (lambda argv, *_: ginrummy_cli.parse_arguments(argv), ["--vs", "nobody"]),
    ],
)
def test_an_unknown_strategy_lists_only_what_the_program_seats(main, argv, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv, io.StringIO(), io.StringIO())
    error = capsys.readouterr().err.splitlines()[-1]
    assert stopped.value.code == 2 and "unknown" in error and "'nobody'" in error
    assert "oracle-mc" not in error and "policy:path=..." in error


@pytest.mark.parametrize("main", [straights_cli.main, gemstones_cli.main])
def test_a_module_that_cannot_be_imported_is_one_line(main, tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--import", str(tmp_path / "missing.py")], io.StringIO(), io.StringIO())
    error = capsys.readouterr().err.splitlines()[-1]
    assert stopped.value.code == 2 and "--import: cannot import" in error and "missing.py" in error
