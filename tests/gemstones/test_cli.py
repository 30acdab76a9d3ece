"""The `gemstones` program: golden transcripts, every bad answer, end of input, pause and resume, bad files."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim import files
from sim.gemstones.cli import main
from tests.gemstones.regen_golden import GOLDEN, Answerer, run, run_case
from tests.typed_input import InterruptedInput

CASES = sorted(GOLDEN.glob("*.args"))
MIDGAME = (GOLDEN / "midgame.sav").read_text()


def play(args, stdin_text):
    out = io.StringIO()
    code = run(args, io.StringIO(stdin_text), out)
    return code, out.getvalue()


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_golden_transcript(case):
    assert run_case(case) == case.with_suffix(".out").read_text()


def test_the_table_uses_the_spec_formats():
    out = (GOLDEN / "load-midgame.out").read_text()
    assert "\nJane      4 coins\nHematite  H\nQuartz    Q Q Q Q Q\nTom       0 coins\n" in out
    assert "\nDiscard pile: O\nTrade area: T Q\n" in out


# (answers reaching the prompt, the bad answer, the one-line reply); the prompt must come again.
NEW_GAME = "n\nJane\nTom\nn\n"
BAD_ANSWERS = {
    "start-up": ("", "x", "Please answer n or l."),
    "unreadable file at start-up": ("l\n", "absent.sav", "Cannot load absent.sav: No such file or directory."),
    "name with a space": ("n\n", "Jane Doe", "A name is one word of at most 20 characters."),
    "name taken": ("n\nJane\n", "Jane", "Jane is taken; choose another name."),
    "pause answer": ("n\nJane\nTom\n", "maybe", "Please answer y or n."),
    "second play answer": (NEW_GAME, "2", "Please answer y or n."),
    "discard position out of range": (NEW_GAME + "n\n", "9", "Position 9 is out of range (1-4)."),
    "discard not a number": (NEW_GAME + "n\n", "first", "Please type a position from 1 to 4, or n."),
    "discard position of 5,000 digits": (
        NEW_GAME + "n\n",
        "9" * 5000,
        f"Position {'9' * 24}... (5000 characters) is out of range (1-4).",
    ),
    "stone not in the trade area": (NEW_GAME + "n\nn\n", "R", "There is no Ruby in the trade area."),
    "not a stone": (
        NEW_GAME + "n\nn\n",
        "X",
        "'X' is not a stone (stones: Quartz, Hematite, Obsidian, Malachite, Turquoise, Ruby, Amethyst, Emerald).",
    ),
}


@pytest.mark.parametrize("before, bad, reply", BAD_ANSWERS.values(), ids=list(BAD_ANSWERS))
def test_bad_answers_get_one_line_and_the_same_prompt(before, bad, reply, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, reached = play(["--seed", "44"], before)
    question = reached.removesuffix("> ").splitlines()[-1].removeprefix("> ")
    code, out = play(["--seed", "44"], before + bad + "\n")
    assert code == 1  # the input then ends in the middle of the game
    assert out == reached + reply + "\n" + question + "\n> "


def test_the_third_chain_is_offered_only_to_a_player_who_can_pay(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, out = play(["--seed", "44"], NEW_GAME)
    assert "Buy a third chain" not in out  # Jane starts with 0 coins
    _, out = play(["--load", "midgame.sav"], "n\n")  # Jane has 4 coins
    assert out.endswith("Buy a third chain for 3 coins? You have 4. (y/n)\n> ")


def test_a_sale_answer_of_5000_digits_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, reached = play(["--load", "midgame.sav"], "n\ny\nQ\nT\n")
    assert reached.endswith(
        "must be sold. Type its number (1: Hematite (1 card, 0 coins), 2: Quartz (6 cards, "
        "2 coins), 3: Turquoise (1 card, 0 coins)).\n> "
    )
    code, out = play(["--load", "midgame.sav"], "n\ny\nQ\nT\n" + "1" * 5000 + "\n")
    assert code == 1 and out.startswith(reached + "Please type one of 1, 2, 3.\n")


def test_a_sale_asks_for_a_listed_chain_number():
    # Jane plays on, buys the third chain, takes Tom's Q and T: her front card M finds no slot.
    _, out = play(["--load", "midgame.sav"], "n\ny\nQ\nT\n5\n")
    assert out.endswith(
        "Please type one of 1, 2, 3.\nNo chain or free slot for M: a chain must be sold. "
        "Type its number (1: Hematite (1 card, 0 coins), 2: Quartz (6 cards, 2 coins), "
        "3: Turquoise (1 card, 0 coins)).\n> "
    )


def test_end_of_input_anywhere_says_the_game_was_not_saved_and_fails(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    typed = (GOLDEN / "two-humans-seed-44.in").read_text().splitlines()
    for cut in (0, 1, 3, 4, 10, 57, 150):
        code = main(["--seed", "44"], io.StringIO("\n".join(typed[:cut])), out := io.StringIO())
        assert code == 1 and "Game saved" not in out.getvalue()
        assert capsys.readouterr().err == "gemstones: the input ended before the game did; the game was not saved\n"
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_at_a_prompt_is_one_line_and_status_130(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert main(["--seed", "44"], InterruptedInput(NEW_GAME), out) == 130
    assert out.getvalue().endswith("> ")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("gemstones: interrupted; the game was not saved (answer y")


@pytest.mark.parametrize("round_number", [1, 2, 5, 9])
def test_pausing_at_any_round_and_loading_plays_on_as_if_never_paused(round_number, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    main(["--seed", "44"], Answerer(whole := io.StringIO(), ["n", "Jane", "Tom"]), whole)
    uninterrupted = whole.getvalue()
    out = io.StringIO()
    main(["--seed", "44"], Answerer(out, ["n", "Jane", "Tom"], round_number, "pause.sav"), out)
    assert out.getvalue().endswith("Game saved to pause.sav.\n")
    resumed = io.StringIO()
    assert main(["--load", "pause.sav"], Answerer(resumed, []), resumed) == 0
    assert uninterrupted.endswith(resumed.getvalue()) and "the game is over." in resumed.getvalue()


def test_a_failed_save_says_why_asks_again_and_leaves_the_old_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keep.sav").write_text(MIDGAME)

    def failing_replace(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", failing_replace)
    code = main(["--load", "keep.sav"], io.StringIO("y\nkeep.sav\n"), stdout := io.StringIO())
    assert code == 1 and stdout.getvalue().endswith(
        "Could not save to keep.sav: No space left on device.\nSave to which file?\n> "
    )
    assert (tmp_path / "keep.sav").read_text() == MIDGAME
    assert sorted(path.name for path in tmp_path.iterdir()) == ["keep.sav"]


def test_the_pause_refuses_to_write_over_a_file_that_is_not_a_gemstones_save(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keep.sav").write_text(MIDGAME)
    (tmp_path / "notes.txt").write_text("my notes\n")
    code = main(["--load", "keep.sav"], io.StringIO("y\nnotes.txt\nkeep.sav\n"), stdout := io.StringIO())
    assert code == 0
    assert stdout.getvalue().endswith(
        "Save to which file?\n> Could not save to notes.txt: it exists and is not a Gemstones saved game.\n"
        "Save to which file?\n> Game saved to keep.sav.\n"
    )
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"


def edited(find, replace, count=1):
    assert find in MIDGAME
    return MIDGAME.replace(find, replace, count)


HOSTILE = {
    "unknown stone letter": edited("hand1 M H", "hand1 X H"),
    "105 cards": edited("hand1 M H", "hand1 Q M H"),
    "103 cards": edited("hand1 M H", "hand1 H"),
    "two chains of one stone": edited("chains2 Q OOO", "chains2 Q QQQ").replace("deck Q Q T", "deck O O T", 1),
    "mixed chain": edited("chains2 Q OOO", "chains2 Q OQO"),
    "four chains": edited("chains2 Q OOO", "chains2 Q OOO - -"),
    "negative coins": edited("coins2 0", "coins2 -3"),
    "huge number": edited("coins2 0", "coins2 " + "9" * 400),
    "not a number": edited("turn 7", "turn seven"),
    "future version": edited("cardsim-gemstones-save 1", "cardsim-gemstones-save 9"),
    "not a save file": "hello\n",
    "truncated": MIDGAME[: len(MIDGAME) // 2],
    "empty": "",
    "field twice": MIDGAME + "turn 8\n",
    "unknown field": MIDGAME + "cheat 1\n",
    "unknown strategy": edited("player2 Tom human", "player2 Tom nonsense"),
    "bad phase": edited("phase BUY", "phase NAP"),
    "buy without the coins": edited("coins1 4", "coins1 1"),
    "bad variant": edited("sold_cards=removed", "sold_cards=burned"),
    "attribute that is not a variant": edited("variants ", "variants __class__=x "),
    "method that is not a variant": edited("variants ", "variants __init__=x "),
    "variant number of 5,000 digits": edited("third_chain_cost=3", "third_chain_cost=" + "3" * 5000),
    "both players with one name": edited("player2 Tom human", "player2 Jane human"),
    "computer strategy with a bad setting": edited("player2 Tom human", "player2 Tom random:seed=-1"),
    "pending without a sale": edited("pending -", "pending Q"),
    "player to move out of range": edited("to_move 1", "to_move 3"),
}


@pytest.mark.parametrize("content", HOSTILE.values(), ids=list(HOSTILE))
def test_corrupt_or_hostile_save_files_get_one_clear_line(content, tmp_path, capsys):
    path = tmp_path / "bad.sav"
    path.write_text(content)
    before = sorted(tmp_path.iterdir())
    code = main(["--load", str(path)], io.StringIO("y\nbad.sav\n"), out := io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and out.getvalue() == ""
    assert err.startswith(f"gemstones: cannot load {path}: ") and err.count("\n") == 1
    assert sorted(tmp_path.iterdir()) == before and path.read_text() == content


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_loading_what_is_not_a_regular_file_is_one_line_not_a_hang(kind, tmp_path, capsys):
    path = {"directory": tmp_path, "device": Path("/dev/zero"), "fifo": tmp_path / "pipe"}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    assert main(["--load", str(path)], io.StringIO(""), io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a saved game" in err


def test_binary_and_oversized_files(tmp_path, capsys):
    for content in (b"\xff\xfe\x00", b"x" * (1 << 17)):
        path = tmp_path / "bad.sav"
        path.write_bytes(content)
        assert main(["--load", str(path)], io.StringIO(""), io.StringIO()) == 2
        assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize(
    "args",
    [
        ["--seed", "x"],
        ["--seed", "-1"],
        ["--seed", "7" * 5000],
        ["--players", "human"],
        ["--players", "random:seed=-1,greedy"],
        ["--players", "human,random:seed=" + "9" * 5000],
        ["--players", "human,nonsense"],
        ["--load", "a.sav", "--seed", "1"],
    ],
)
def test_bad_arguments_are_usage_errors(args, capsys):
    with pytest.raises(SystemExit) as stop:
        main(args, io.StringIO(""), io.StringIO())
    assert stop.value.code == 2 and capsys.readouterr().err.startswith("usage: gemstones")


def test_installed_program_and_module_run_without_tracebacks():
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[2]))
    command = [sys.executable, "-m", "sim.gemstones"]
    done = subprocess.run(
        command + ["--seed", "3", "--players", "greedy,random"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0 and done.stdout == (GOLDEN / "computers-seed-3.out").read_text()
    bad = subprocess.run(command + ["--load", "/nonexistent.sav"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_cardsim_play_gemstones_seats_you_against_the_best_bot():
    from sim.gemstones.cli import play

    out = io.StringIO()
    assert play("best", 3, io.StringIO("Ann\n"), out) == 1  # the input ends in the middle of the game
    assert out.getvalue().startswith("Name of player 1?\n> Pause the game here")
