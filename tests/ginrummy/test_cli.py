"""The `ginrummy` program: golden transcripts, bad input, knocking on the user's own sets, Q and end of input."""

import io
import random
import subprocess
import sys

import pytest

from sim.cards import parse_card
from sim.ginrummy.cli import BadCommand, Program, main
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
    _, output = run(["--seed", "4"], "d\nt\nd 11\n")
    assert "you just took it from the discard pile." in output


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
    done = subprocess.run([sys.executable, "-m", "sim.ginrummy", "--seed", "1"], input="h\nq\n",
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == "" and "Goodbye." in done.stdout



class Recording:
    """Plays like ``inner`` and counts its decisions."""

    def __init__(self, inner):
        self.inner, self.decisions = inner, 0

    def choose(self, observation):
        self.decisions += 1
        return self.inner.choose(observation)


SOME_TURNS = "d\n" + "s\nd 1\n" * 8  # deal, then draw from the stock and throw the first card listed


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
        "ginrummy: error: unknown ginrummy strategy 'nonsense' (known: cs340, heuristic, simple)"
    )


def test_cardsim_play_ginrummy(capsys):
    from sim.cli import main as cardsim
    from sim.ginrummy.cli import play

    out = io.StringIO()
    assert play("best", 3, io.StringIO("d\n"), out) == 0
    assert "Type D to deal" in out.getvalue() and "Your cards:" in out.getvalue()
    assert cardsim(["play", "ginrummy", "--vs", "nonsense"]) == 2
    assert "unknown ginrummy strategy 'nonsense'" in capsys.readouterr().err
