"""The `ginrummy` program: golden transcripts, bad input, knocking on the user's own sets, the set letters
of drawn cards, the computer's layouts, Q and end of input."""

import io
import random
import re
import subprocess
import sys

import pytest

from sim.cards import parse_card
from sim.ginrummy import rules
from sim.ginrummy.cli import BadCommand, Program, main, new_set_letter
from tests.ginrummy.regen_golden import GOLDEN, run_case

CASES = sorted(GOLDEN.glob("*.args"))


def run(argv, stdin_text=""):
    code = main(argv, io.StringIO(stdin_text), out := io.StringIO())
    return code, out.getvalue()


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_golden_transcript(case):
    assert run_case(case) == case.with_suffix(".out").read_text()


def test_end_of_input_ends_cleanly():
    code, output = run(["--seed", "4"], "d\n")
    assert code == 0 and output.endswith("[drawing: Q H P C E O A S T]> \n")


@pytest.mark.parametrize(
    "lines, message",
    [
        (["x"], "X is not a between-hands command; between-hands commands: Q H P S D (H for help)."),
        (["c"], "C is not a between-hands command (it is a drawing and discarding command)"),
        (["d", "k 1"], "K is not a drawing command (it is a discarding command)"),
        (["d", "a 0 b"], "There is no card 0: A needs a number from 1 to 10."),
        (["d", "a x b"], "'x' is not a card number: A needs a number from 1 to 10."),
        (["d", "a 1 %"], "'%' is not a set letter: use one letter from a to z."),
        (["d", "a 1"], "A needs a card number and a set letter, e.g. A 3 b."),
        (["d", "s", "d 12"], "There is no card 12: D needs a number from 1 to 11."),
        (["d", "s", "k 1"], "You cannot knock: your unmatched cards"),
        (["p now"], "P takes nothing after it (got 'now')."),
    ],
)
def test_bad_input_gets_one_line_and_the_prompt_again(lines, message):
    _, output = run(["--seed", "4"], "\n".join(lines) + "\n")
    after = output.split(message, 1)
    assert len(after) == 2, output
    assert after[1].split("\n", 1)[1].startswith("[")  # one line, then the prompt again


def test_quit_between_games_needs_no_confirmation():
    assert run(["--seed", "4"], "q\n") == (0, run(["--seed", "4"], "")[1][:-1] + "Goodbye.\n")


def test_a_taken_card_may_not_be_thrown_back():
    _, output = run(["--seed", "4"], "d\nt\nd 4\n")  # QC, taken, is listed 4th: 5C 7C TC QC
    assert "You may not discard QC: you just took it from the discard pile." in output


def program_with(cards: str, seed: int = 4) -> Program:
    """A program in the discarding step holding ``cards`` (11) in one set."""
    program = Program(random.Random(seed), io.StringIO(""), io.StringIO())
    program.new_game()
    program.game.dealer = 1  # the computer deals: the user opens with 11 cards
    program.deal([])
    hand = program.game.hand
    held = [parse_card(c) for c in cards.split()]
    hand.hands[0] = sum(1 << c for c in held)
    hand.hands[1] &= ~hand.hands[0]
    hand.stock = [c for c in hand.stock if c not in held]
    program.letters = dict.fromkeys(held, "a")
    program.show_yours()
    return program


def test_knock_is_checked_on_the_users_own_sets():
    program = program_with("AC 2C 3C 7D 7H 7S 9D TD JD 2H KC")
    position = program.listing.index(parse_card("KC")) + 1
    with pytest.raises(BadCommand, match="You cannot knock"):  # all in set a: nothing matched yet
        program.execute("K", [str(position)])
    program.execute("O", [])
    position = program.listing.index(parse_card("KC")) + 1
    program.execute("K", [str(position)])
    text = program.out.getvalue()
    assert "You knock, discarding KC." in text and "Your melds: [AC 2C 3C] [9D TD JD] [7D 7H 7S]" in text


def test_module_runs_as_a_program():
    done = subprocess.run(
        [sys.executable, "-m", "sim.ginrummy", "--seed", "1"],
        input="h\nq\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == "" and "Goodbye." in done.stdout


class Recording:
    """Plays like ``inner`` and counts its decisions."""

    def __init__(self, inner):
        self.inner, self.decisions = inner, 0

    def choose(self, observation):
        self.decisions += 1
        return self.inner.choose(observation)


SOME_TURNS = "d\n" + "s\nd 11\n" * 8  # deal, then draw from the stock and throw the last card listed


def test_the_computer_plays_the_strategy_it_is_given():
    import strategies
    from sim.ginrummy.cli import EndOfInput

    spy = Recording(strategies.get("ginrummy", "heuristic"))
    with pytest.raises(EndOfInput):
        Program(random.Random(4), io.StringIO(SOME_TURNS), spied := io.StringIO(), spy).run()
    code, heuristic = run(["--seed", "4", "--vs", "heuristic"], SOME_TURNS)
    assert code == 0 and spy.decisions > 4
    assert heuristic == spied.getvalue() + "\n"  # main ends the last prompt's line
    _, spec_computer = run(["--seed", "4"], SOME_TURNS)
    assert run(["--seed", "4", "--vs", "cs340"], SOME_TURNS)[1] == spec_computer != heuristic


def test_an_unknown_computer_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--vs", "nonsense"], io.StringIO(""), io.StringIO())
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ginrummy: error: unknown ginrummy strategy 'nonsense' "
        "(known: cs340, heuristic, mc, policy:path=..., search, simple, best)"
    )


def test_cardsim_play_ginrummy(capsys):
    from sim.cli import main as cardsim
    from sim.ginrummy.cli import play

    out = io.StringIO()
    assert play("best", 3, io.StringIO("d\n"), out) == 0
    assert "Type D to deal" in out.getvalue() and "Your cards:" in out.getvalue()
    assert cardsim(["play", "ginrummy", "--vs", "nonsense"]) == 2
    assert "unknown ginrummy strategy 'nonsense'" in capsys.readouterr().err


# -------------------------------------------------------------- drawn cards' set letters, the computer's layouts


def last_listing(output: str) -> list[str]:
    """The ``number letter card`` lines of the last listing of the user's cards in ``output``."""
    return output.rsplit("Your cards:\n", 1)[1].split("\nUnmatched", 1)[0].splitlines()


def test_a_drawn_card_joins_set_a_while_the_hand_is_unarranged():
    _, output = run(["--seed", "7"], "d\nd 1\ns\nc\n")  # throw 3C, draw from the stock, list
    assert "You draw JH from the stock." in output
    assert last_listing(output) == [
        "  1 a 5C",
        "  2 a 7C",
        "  3 a TC",
        "  4 a 2H",
        "  5 a 7H",
        "  6 a JH",
        "  7 a QH",
        "  8 a KH",
        "  9 a 3S",
        " 10 a 4S",
        " 11 a 9S",
    ]


def test_an_unarranged_hand_is_organized_when_the_computer_knocks():
    _, output = run(["--seed", "7"], "d\nd 1\n" + "s\nd 1\n" * 3)  # never O or A: one set, a
    assert "The computer knocks, discarding 9H." in output
    assert "Your melds: [JH QH KH]; unmatched: 6D 2H 6H 7H 3S 4S 9S (37 points)." in output
    assert "The computer scores 27 points (37 - 10)." in output


@pytest.mark.parametrize(
    "arranging, throw, drawn_line",
    [
        ("o", "d 11", " 11 e JH"),  # organized into sets a to d; 9S, the last deadwood, thrown
        ("a 1 c\nc", "d 10", " 11 d JH"),  # 3C alone in set c; 9S, the last of set a, thrown
    ],
)
def test_after_arranging_a_drawn_card_gets_a_set_of_its_own_listed_last(arranging, throw, drawn_line):
    _, output = run(["--seed", "7"], f"d\n{arranging}\n{throw}\ns\n")
    before_the_draw, after_the_draw = output.split("You draw JH from the stock.\n")
    assert "You discard 9S." in before_the_draw
    assert last_listing(after_the_draw) == last_listing(before_the_draw) + [drawn_line]


def test_a_new_set_letter_follows_the_highest_in_use_or_else_takes_the_first_free_one():
    assert new_set_letter(["a", "c", "a"]) == "d"
    assert new_set_letter(["a", "b", "z"]) == "c"


ORGANIZE_AND_THROW_THE_LAST = "d\ns\no\nd 11\n" * 60  # each turn: draw from the stock, O, throw the last card


@pytest.mark.parametrize(
    "computer, seed, hand, layout",
    [  # the spec's organizing shows these knocks with 12, 12 and 17 unmatched points
        ("simple", 2, 3, "The computer's melds: [5C 5D 5H 5S] [6C 6H 6S]; unmatched: AD 2H 4S (7 points)."),
        ("heuristic", 2, 3, "The computer's melds: [5C 5D 5H 5S] [6C 6H 6S]; unmatched: AD 2H 4S (7 points)."),
        ("simple", 19, 5, "The computer's melds: [4C 4D 4H] [5C 5H 5S] [6C 6H 6S]; unmatched: 2H (2 points)."),
    ],
)
def test_other_computers_lay_down_an_arrangement_with_the_least_deadwood(computer, seed, hand, layout):
    _, output = run(["--seed", str(seed), "--vs", computer], ORGANIZE_AND_THROW_THE_LAST)
    played = output.split(f"Hand {hand}: ", 1)[1].split(f"Hand {hand + 1}: ", 1)[0]
    assert "The computer knocks" in played and layout in played
    knocks = re.findall(r"The computer knocks, discarding ..\.\nThe computer's melds: .*\((\d+) points\)\.", output)
    assert knocks and all(int(points) <= rules.KNOCK_LIMIT for points in knocks)


def test_a_huge_seed_is_refused_in_one_short_line(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--seed", "9" * 5000], io.StringIO(""), io.StringIO())
    assert stopped.value.code == 2
    line = capsys.readouterr().err.splitlines()[-1]
    assert line.startswith("ginrummy: error: argument --seed:") and "out of range" in line and len(line) < 200
