"""The `straights` program: golden transcripts, the spec's example, bad input, save and load."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim import files
from sim.straights.cli import main
from tests.straights.regen_golden import GOLDEN, run_case
from tests.typed_input import InterruptedInput

CASES = sorted(GOLDEN.glob("*.args"))

# The spec's worked example (section 6), split where it says "[...]"; inputs are not echoed on stdout.
SPEC_EXAMPLE_SNIPPETS = [
    """Is Player1 a human (h) or a computer (c)?
>Is Player2 a human (h) or a computer (c)?
>Is Player3 a human (h) or a computer (c)?
>Is Player4 a human (h) or a computer (c)?
>A new round begins. It's Player4's turn to play.
Cards on the table:
Clubs:
Diamonds:
Hearts:
Spades:
Your hand: 7C QS KH 5S 6S JD AD 7S 8D TD 6D TC KD
Legal plays: 7S
>Player4 plays 7S.
Cards on the table:
Clubs:
Diamonds:
Hearts:
Spades: 7
Your hand: 4H 5D 2D JC 8H QH 2H 6C 9H 9D 9C AS 2C
Legal plays:
>4H 5D 2D JC 8H QH 2H 6C 9H 9D 9C AS 2C
JS QD 5C 8C 4D 5H KC 7D KS AC JH 6H 7H
3H 4C 3S 3D AH QC 3C TH 4S 9S 2S 8S TS
7C QS KH 5S 6S JD AD 7S 8D TD 6D TC KD
>Player1 discards AS.
Cards on the table:
Clubs:
Diamonds:
Hearts:
Spades: 7
Your hand: JS QD 5C 8C 4D 5H KC 7D KS AC JH 6H 7H
Legal plays: 7D 7H
""",
    """Cards on the table:
Clubs: 7
Diamonds: 7
Hearts:
Spades: 7 8
Your hand: 4H 5D 2D JC 8H QH 2H 6C 9H 9D 9C 2C
Legal plays: 6C
>Player1 plays 6C.
""",
    """>Player1 ragequits. A computer will now take over.
Player1 discards 4H.
""",
    """Cards on the table:
Clubs: 6 7 8 9
Diamonds: 5 6 7 8
Hearts: A 2 3 4 5 6 7 8 9 T J
Spades: A 2 3 4 5 6 7 8 9 T J Q
Your hand: 3C
Legal plays:
>Player3 discards 3C.
Player1's discards: 9D QD KH KD 2D
""",
]

# The example's closing scores were spliced from another game; its discards and points were not.
SPEC_EXAMPLE_ROUND_END = [
    "Player1's discards: 9D QD KH KD 2D",
    "+ 49 =",
    "Player2's discards: 5C JD QH AD 3D KC",
    "+ 45 =",
    "Player3's discards: AC 4C 3C",
    "+ 8 =",
    "Player4's discards: KS QC 2C 4D TD TC JC",
    "+ 62 =",
    "Player3 wins!",
]


def run(args, stdin_text, capsys):
    code = main(args, io.StringIO(stdin_text), out := io.StringIO())
    return code, out.getvalue(), capsys.readouterr().err


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_golden_transcript(case):
    assert run_case(case) == case.with_suffix(".out").read_text()


def test_spec_example_snippets_appear_in_order():
    output = (GOLDEN / "spec-example.out").read_text()
    position = 0
    for snippet in SPEC_EXAMPLE_SNIPPETS:
        found = output.find(snippet, position)
        assert found >= 0, snippet
        position = found + len(snippet)
    tail = output[output.rfind("Player1's discards:") :]
    position = 0
    for piece in SPEC_EXAMPLE_ROUND_END:
        position = tail.index(piece, position)


@pytest.mark.parametrize("seed", ["abc", "", "44abc", "2147483648", "-2147483649", "4.5", "9" * 5000])
def test_bad_seed_gets_usage_and_nonzero_exit(seed, capsys):
    with pytest.raises(SystemExit) as stop:
        main([seed], io.StringIO(""), io.StringIO())
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: straights") and "invalid seed" in err


def test_unknown_computer_strategy_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["1", "--computer", "nonsense"], io.StringIO(""), io.StringIO())
    assert stop.value.code == 2
    assert "unknown straights strategy 'nonsense'" in capsys.readouterr().err


def test_end_of_input_at_every_point_exits_zero_quietly(capsys):
    commands = (GOLDEN / "humans-seed-44.in").read_text().splitlines()
    for cut in (0, 2, 4, 5, 17, 100):
        code, out, err = run(["44"], "\n".join(commands[:cut]), capsys)
        assert code == 0 and err == ""


def test_save_then_load_continues_exactly_as_the_original(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    commands = (GOLDEN / "humans-seed-44.in").read_text().splitlines()
    _, uninterrupted, _ = run(["44"], "\n".join(commands), capsys)
    for pause in (4, 5, 30, 57, 120, 200):
        _, before, _ = run(["44"], "\n".join(commands[:pause] + ["save pause.json", "quit"]), capsys)
        assert before.endswith("Game saved to pause.json.\n>")
        code, after, err = run(["--load", "pause.json"], "\n".join(commands[pause:]), capsys)
        assert code == 0 and err == ""
        assert uninterrupted.endswith(after) and "wins!" in after


def write_save(tmp_path, edit):
    document = json.loads((GOLDEN / "midround.json").read_text())
    edit(document)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document))
    return path


HOSTILE_EDITS = {
    "wrong format": lambda d: d.update(format="chess"),
    "future version": lambda d: d.update(version=99),
    "51 cards": lambda d: d.update(deck=d["deck"][:-3]),
    "duplicate card": lambda d: d.update(deck=d["deck"].replace("KD", "AS")),
    "unknown card": lambda d: d.update(deck=d["deck"].replace("KD", "KX")),
    "illegal action": lambda d: d.update(actions="7S 2C"),
    "first action not 7S": lambda d: d.update(actions="7C"),
    "finished round": lambda d: d.update(actions=" ".join(["7S"] * 52)),
    "hands edited": lambda d: d["hands"].__setitem__(0, "AS 2C"),
    "table edited": lambda d: d.update(table="7S"),
    "discards edited": lambda d: d["discards"].__setitem__(1, "KC"),
    "wrong player to move": lambda d: d.update(to_move=3),
    "negative score": lambda d: d.update(scores=[-1, 0, 0, 0]),
    "game already over": lambda d: d.update(scores=[80, 0, 0, 0]),
    "huge number": lambda d: d.update(rng_state=10**400),
    "boolean as number": lambda d: d.update(rounds_played=True),
    "three players": lambda d: d.update(players=["human", "computer", "computer"]),
    "unknown player kind": lambda d: d.update(players=["robot"] * 4),
    "unknown strategy": lambda d: d.update(computer="nonsense"),
    "missing field": lambda d: d.pop("deck"),
    "seed out of range": lambda d: d.update(seed=2**40),
}


@pytest.mark.parametrize("edit", HOSTILE_EDITS.values(), ids=list(HOSTILE_EDITS))
def test_corrupt_or_hostile_save_files_get_one_clear_line(edit, tmp_path, capsys):
    path = write_save(tmp_path, edit)
    code, out, err = run(["--load", str(path)], "", capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"straights: cannot load {path}: ") and err.count("\n") == 1


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"not json", b"\xff\xfe", b"[]", b"null", b"[" * 100000 + b"]" * 100000, b" " * (2 << 20)],
    ids=["empty", "truncated", "text", "binary", "list", "null", "deep nesting", "too large"],
)
def test_unreadable_save_files(content, tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, err = run(["--load", str(path)], "", capsys)
    assert code == 2 and err.startswith("straights: cannot load") and err.count("\n") == 1


@pytest.mark.parametrize("field", ["seed", "rng_state", "to_move", "rounds_played"])
def test_a_number_of_100000_digits_in_a_save_is_one_line(field, tmp_path, capsys):
    document = json.loads((GOLDEN / "midround.json").read_text())
    document[field] = 0
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(document).replace(f'"{field}": 0', f'"{field}": {"7" * 100_000}'))
    code, out, err = run(["--load", str(path)], "", capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"straights: cannot load {path}: a number in the file: ") and err.count("\n") == 1
    assert len(err) - len(str(path)) < 150  # the number is cut short (paths differ in length)


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_loading_what_is_not_a_regular_file_is_one_line_not_a_hang(kind, tmp_path, capsys):
    import os

    path = {"directory": tmp_path, "device": "/dev/zero", "fifo": tmp_path / "pipe"}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    code, out, err = run(["--load", str(path)], "", capsys)
    assert code == 2 and err.count("\n") == 1 and err.endswith("not a saved game\n")


def test_ctrl_c_at_a_prompt_is_one_line_that_says_how_to_save(capsys):
    code = main(["44"], InterruptedInput("h\nc\nc\nc\n"), out := io.StringIO())
    err = capsys.readouterr().err
    assert code == 130 and out.getvalue().endswith(">")
    assert (
        err
        == "straights: interrupted; the game was not saved (at a human's turn, save FILE keeps it for --load FILE)\n"
    )


def test_missing_save_file(tmp_path, capsys):
    code, _, err = run(["--load", str(tmp_path / "absent.json")], "", capsys)
    assert code == 2 and "No such file" in err


def test_a_failed_save_leaves_the_previous_file_intact(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    previous = (GOLDEN / "midround.json").read_text()
    (tmp_path / "keep.json").write_text(previous)

    def failing_replace(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", failing_replace)
    code, out, _ = run(["--load", "keep.json"], "save keep.json\nquit\n", capsys)
    assert code == 0 and "Could not save to keep.json: No space left on device." in out
    assert (tmp_path / "keep.json").read_text() == previous
    assert sorted(path.name for path in tmp_path.iterdir()) == ["keep.json"]


def test_save_refuses_to_write_over_a_file_that_is_not_a_straights_save(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("my notes\n")
    (tmp_path / "other.sav").write_text((GOLDEN.parent.parent / "gemstones" / "golden" / "midgame.sav").read_text())
    (tmp_path / "old.json").write_text((GOLDEN / "midround.json").read_text())
    code, out, _ = run(["--load", "old.json"], "save notes.txt\nsave other.sav\nsave old.json\nquit\n", capsys)
    assert code == 0
    assert "Could not save to notes.txt: it exists and is not a Straights saved game.\n>" in out
    assert "Could not save to other.sav: it exists and is not a Straights saved game.\n>" in out
    assert "Game saved to old.json." in out  # a save of this game may be replaced
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"
    assert (tmp_path / "other.sav").read_text().startswith("cardsim-gemstones-save")


@pytest.mark.parametrize("command", [["straights"], [sys.executable, "-m", "sim.straights"]])
def test_installed_program_runs_and_refuses_bad_seeds(command):
    if command == ["straights"]:
        script = Path(sys.executable).parent / "straights"
        if not script.exists():
            pytest.skip("console script not installed in this environment")
        command = [str(script)]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[2]))
    done = subprocess.run(command + ["44"], input="c\nc\nc\nc\n", capture_output=True, text=True, env=env)
    assert done.returncode == 0 and done.stdout == (GOLDEN / "computers-seed-44.out").read_text()
    bad = subprocess.run(command + ["x"], input="", capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "usage:" in bad.stderr


def test_cardsim_play_straights_uses_the_chosen_strategy():
    from sim.straights.cli import play

    out = io.StringIO()
    assert play("heuristic", 44, io.StringIO("c\nc\nc\nc\n"), out) == 0
    assert out.getvalue() != (GOLDEN / "computers-seed-44.out").read_text()
    assert out.getvalue().splitlines()[-1].endswith("wins!")
