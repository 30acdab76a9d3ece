"""The `euchre` program: the official transcripts, a Human's bad input, bad command lines and packs."""

import hashlib
import io
import subprocess
import sys

import pytest

from sim.euchre.cli import USAGE, main
from tests.euchre.regen_golden import GOLDEN, PACKS, run_case
from tests.typed_input import InterruptedInput

CASES = sorted(GOLDEN.glob("*.args"))
GOOD_ARGS = ["noshuffle", "1", "A", "Simple", "B", "Simple", "C", "Simple", "D", "Simple"]


def run(argv, stdin_text=""):
    code = main(argv, io.StringIO(stdin_text), out := io.StringIO())
    return code, out.getvalue()


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_golden_transcript(case):
    assert run_case(case) == case.with_suffix(".out").read_text()


@pytest.mark.parametrize("name", ["euchre_test00", "euchre_test01", "euchre_test50"])
def test_golden_copies_are_the_official_files(name):
    # NOTES.md pins the official files by the first 16 hex digits of their sha256.
    pinned = {
        "euchre_test00": "0641e9ce1400019a",
        "euchre_test01": "83fa65633a2ce37e",
        "euchre_test50": "ef528fd4fda759f0",
    }
    digest = hashlib.sha256((GOLDEN / f"{name}.out").read_bytes()).hexdigest()
    assert digest.startswith(pinned[name])


def test_end_of_input_exits_zero():
    humans = ["A", "Human", "B", "Human", "C", "Human", "D", "Human"]
    code, output = run([str(PACKS / "pack.in"), "noshuffle", "1", *humans])
    assert code == 0
    assert output.endswith('Human player B, please enter a suit, or "pass":\n')


@pytest.mark.parametrize(
    "argv",
    [
        [],
        GOOD_ARGS,  # no pack file name: 11 arguments
        ["pack.in", *GOOD_ARGS, "extra"],
        ["pack.in", "Shuffle", *GOOD_ARGS[1:]],
        ["pack.in", "noshuffle", "0", *GOOD_ARGS[2:]],
        ["pack.in", "noshuffle", "101", *GOOD_ARGS[2:]],
        ["pack.in", "noshuffle", "ten", *GOOD_ARGS[2:]],
        ["pack.in", "noshuffle", "5x", *GOOD_ARGS[2:]],
        ["pack.in", "noshuffle", "-1", *GOOD_ARGS[2:]],
        ["pack.in", "noshuffle", "1" * 5000, *GOOD_ARGS[2:]],
        ["pack.in", "noshuffle", "1", "A", "simple", *GOOD_ARGS[4:]],
        ["pack.in", "noshuffle", "1", *GOOD_ARGS[2:-1], "Robot"],
    ],
)
def test_bad_command_line_prints_only_the_usage(argv):
    assert run(argv) == (1, USAGE + "\n")


def test_usage_is_the_spec_text():
    assert USAGE == (
        "Usage: euchre.exe PACK_FILENAME [shuffle|noshuffle] POINTS_TO_WIN "
        "NAME1 TYPE1 NAME2 TYPE2 NAME3 TYPE3 NAME4 TYPE4"
    )


def test_points_limits_are_inclusive():
    for points in ("1", "100"):
        code, output = run([str(PACKS / "pack.in"), "noshuffle", points, *GOOD_ARGS[2:]])
        assert code == 0 and output.rstrip().endswith("win!")


def test_missing_pack_file(tmp_path):
    missing = str(tmp_path / "nope.in")
    assert run([missing, *GOOD_ARGS]) == (1, f"Error opening {missing}\n")


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_a_pack_that_is_not_a_regular_file_is_one_line_not_a_hang(kind, tmp_path):
    import os

    path = {"directory": tmp_path, "device": "/dev/zero", "fifo": tmp_path / "pipe"}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    code, output = run([str(path), *GOOD_ARGS])
    assert code == 1 and output.startswith(f"Error reading {path}: it is ") and output.count("\n") == 1


HUMANS = ["A", "Human", "B", "Simple", "C", "Simple", "D", "Simple"]


def test_a_card_number_of_5000_digits_is_refused_in_one_line():
    code, output = run([str(PACKS / "pack.in"), "noshuffle", "1", *HUMANS], "pass\n" + "1" * 5000 + "\n")
    assert code == 0 and output.endswith(
        "Human player A, please select a card:\nEnter a card number from 0 to 4.\n"
        "Human player A, please select a card:\n"
    )


def test_ctrl_c_at_a_prompt_is_one_line_and_status_130(capsys):
    code = main([str(PACKS / "pack.in"), "noshuffle", "1", *HUMANS], InterruptedInput("pass\n"), io.StringIO())
    assert code == 130 and capsys.readouterr().err == "euchre: interrupted\n"


def pack_lines():
    return (PACKS / "pack.in").read_text().splitlines()


@pytest.mark.parametrize(
    "lines",
    [
        pack_lines()[:-1],  # 23 cards
        pack_lines() + ["Ace of Diamonds"],  # 25 cards
        pack_lines()[:-1] + ["Nine of Spades"],  # a duplicate
        pack_lines()[:-1] + ["Eight of Diamonds"],  # not a Euchre rank
        pack_lines()[:-1] + ["Ace of Stars"],
        pack_lines()[:-1] + ["Ace on Diamonds"],
        [],
    ],
    ids=["23-cards", "25-cards", "duplicate", "eight", "bad-suit", "bad-of", "empty"],
)
def test_bad_pack_gets_one_error_line(tmp_path, lines):
    pack = tmp_path / "bad.in"
    pack.write_text("\n".join(lines) + "\n")
    code, output = run([str(pack), *GOOD_ARGS])
    assert code == 1
    assert output.startswith(f"Error reading {pack}: ") and output.count("\n") == 1


def test_pack_order_is_read_from_the_file(tmp_path):
    reversed_pack = tmp_path / "reversed.in"
    reversed_pack.write_text("\n".join(reversed(pack_lines())) + "\n")
    code, output = run([str(reversed_pack), *GOOD_ARGS])
    assert code == 0
    assert output.splitlines()[3] == "Queen of Spades turned up"  # the 21st card of the reversed pack


def test_module_runs_as_a_program():
    command = [sys.executable, "-m", "sim.euchre", "pack.in", *GOOD_ARGS]
    done = subprocess.run(command, cwd=PACKS, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == (GOLDEN / "euchre_test00.out").read_text().replace(
        "./euchre.exe pack.in noshuffle 1 Adi Simple Barbara Simple Chi-Chih Simple Dabbala Simple",
        "euchre pack.in noshuffle 1 A Simple B Simple C Simple D Simple",
    ).replace("Adi", "A").replace("Barbara", "B").replace("Chi-Chih", "C").replace("Dabbala", "D")


def test_cardsim_play_seats_a_human_with_registered_strategies():
    from sim.euchre.cli import play

    out = io.StringIO()
    assert play("simple", 3, io.StringIO("pass\npass\n"), out) == 0
    text = out.getvalue()
    assert text.startswith("Hand 0\nSouth deals\n") and "Human player South's hand: [0]" in text
