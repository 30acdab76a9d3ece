"""`cardsim` and the four game programs as a new user meets them when things go wrong: bad output
folders, too many workers, a closed pipe, Ctrl-C, a killed process, huge sizes, progress bars, reruns,
file modes, endless input lines."""

import importlib
import io
import os
import select
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim import games
from sim.console import MAX_LINE_CHARACTERS, LineTooLong, TickingBar, input_lines, progress_bar
from sim.workers import worker_count
from tests.euchre.regen_golden import PACKS

ROOT = Path(__file__).parents[1]
FIRST_LEGAL = "first-legal,first-legal,first-legal,first-legal"
SMALL_RUN = ["tournament", "--game", "straights", "--players", FIRST_LEGAL, "--rounds", "300", "--quiet"]


def cardsim(*args, **kwargs):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,
    )


def start_cardsim(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "sim.cli", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_ctrl_c_as_at_a_terminal,
    )


def _ctrl_c_as_at_a_terminal():
    """Let Ctrl-C reach the program as it does at a terminal. A shell starts a background job (say
    ``make test &``) with SIGINT ignored, and Python leaves a signal ignored at start-up ignored, so
    the tests that send Ctrl-C would hang or see the run finish."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def one_line(text):
    return text.count("\n") == 1 and "Traceback" not in text


@pytest.mark.parametrize(
    "out, message",
    [
        ("/proc/x", "cannot create folder /proc/x"),
        ("{file}", "exists and is not a folder"),
    ],
)
def test_an_impossible_out_folder_is_one_line(out, message, tmp_path):
    (tmp_path / "file").write_text("")
    done = cardsim(*SMALL_RUN, "--out", out.format(file=tmp_path / "file"))
    assert done.returncode == 2 and message in done.stderr and one_line(done.stderr)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write in a read-only folder")
def test_a_read_only_out_folder_is_one_line(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    done = cardsim(*SMALL_RUN, "--out", str(locked / "run"))
    assert done.returncode == 2 and one_line(done.stderr)


def test_more_jobs_than_cores_are_capped_and_said():
    assert worker_count(1000, 2) == (2, "--jobs 1000 is more than the 2 cores here: using 2 workers")
    assert worker_count(-1, 2) == (2, None) and worker_count(1, 2) == (1, None)


def test_a_closed_pipe_ends_quietly():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        f"{sys.executable} -m sim.cli strategies | head -1",
        shell=True,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout == "euchre:\n" and done.stderr == ""


def test_results_files_respect_the_umask(tmp_path):
    done = cardsim(*SMALL_RUN, "--out", str(tmp_path / "run"))
    assert done.returncode == 0, done.stderr
    expected = 0o666 & ~_umask()
    for name in ("summary.csv", "config.json", "aggregates.json"):
        assert stat.S_IMODE((tmp_path / "run" / name).stat().st_mode) == expected, name


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_rerun_says_it_resumed_or_that_the_run_was_already_finished(tmp_path):
    run = [*SMALL_RUN, "--out", str(tmp_path / "run"), "--chunk-size", "100"]
    first = cardsim(*run)
    assert first.returncode == 0 and first.stderr == ""
    (tmp_path / "run" / "chunks" / "000001.json").unlink()
    resumed = cardsim(*run)
    assert "resuming the run in" in resumed.stderr and "2 of 3 chunks were played before" in resumed.stderr
    again = cardsim(*run)
    assert "already holds this finished run; showing its results" in again.stderr
    assert again.stdout == resumed.stdout  # the same chunks, times included
    # The results are the first run's; the time a replayed chunk took is its own.
    results = [out.stdout.split("Decision time")[0] for out in (first, resumed)]
    assert results[0] == results[1] and "first-legal" in results[0]


def _children(pid):
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid):
    """Running, as opposed to gone or a zombie waiting for a parent that does not reap it."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _wait_for_chunks(folder, count, process):
    deadline = time.time() + 90
    while time.time() < deadline and len(list((folder / "chunks").glob("*.json"))) < count:
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)


# Long enough that an interrupted run is never already finished, on the fast engine too (2,000 chunks).
EUCHRE_RUN = [
    "tournament",
    "--game",
    "euchre",
    "--players",
    "simple,simple,simple,simple",
    "--rounds",
    "400000",
    "--chunk-size",
    "200",
    "--jobs",
    "2",
    "--quiet",
]


def test_workers_do_not_outlive_a_killed_tournament(tmp_path):
    process = start_cardsim(*EUCHRE_RUN, "--out", str(tmp_path / "run"))
    _wait_for_chunks(tmp_path / "run", 2, process)
    workers = [pid for pid in _children(process.pid) if "loky" in Path(f"/proc/{pid}/cmdline").read_text()]
    assert workers, "the run should have started worker processes"
    process.kill()
    process.wait()
    deadline = time.time() + 10
    while time.time() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)


def test_ctrl_c_stops_the_workers_says_how_to_resume_and_the_run_resumes(tmp_path):
    process = start_cardsim(*EUCHRE_RUN, "--out", str(tmp_path / "run"))
    _wait_for_chunks(tmp_path / "run", 2, process)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal sends Ctrl-C: to the whole process group
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err == (
        f"cardsim tournament: interrupted; the chunks played so far are kept in {tmp_path / 'run'}/: "
        "run the same command again to resume\n"
    )
    # Every chunk file left is whole, so running the command again resumes after them
    # (test_tournament.py resumes a killed run to identical results).
    from sim.results import RunStore

    kept = list((tmp_path / "run" / "chunks").glob("*.json"))
    assert 0 < len(kept) < 2000 and len(RunStore(tmp_path / "run").finished_chunks()) == len(kept)


def test_ctrl_c_in_a_match_says_nothing_is_kept():
    # Two near-identical players: the test cannot decide within the seconds this waits. Interrupted
    # once its progress shows (on a busy machine loading alone can take seconds; see the next test).
    process = start_cardsim("match", "heuristic", "heuristic:gift=3.001", "--margin", "0.0001")
    shown = _first_output(process.stderr, timeout=60)
    time.sleep(1)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert shown and process.returncode == 130
    said = "cardsim match: interrupted; a match keeps nothing, so it starts again from its first deal\n"
    assert err.endswith(said) and "Traceback" not in err


def _first_output(stream, timeout: float) -> str:
    """The first bytes a process writes to ``stream`` (a pipe), waiting at most ``timeout`` seconds."""
    ready, _, _ = select.select([stream], [], [], timeout)
    return os.read(stream.fileno(), 4096).decode() if ready else ""


def test_ctrl_c_while_a_program_loads_is_one_line():
    """Before a program's main runs (its imports: a second or more on a busy machine), Ctrl-C is one
    line and status 130 too (``sim.launch``)."""
    code = (
        "import os, signal, time; from sim import launch; launch.quiet_while_loading('cardsim'); "
        "os.kill(os.getpid(), signal.SIGINT); time.sleep(30)"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout, run.stderr) == (130, "", "cardsim: interrupted\n")


def test_a_huge_tournament_shows_its_progress_at_once(tmp_path):
    process = start_cardsim(
        "tournament",
        "--game",
        "straights",
        "--players",
        FIRST_LEGAL,
        "--rounds",
        "1000000000000",
        "--out",
        str(tmp_path / "huge"),
    )
    time.sleep(6)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert "/1.00T" in err  # the bar was up within seconds of the start
    assert process.returncode == 130


def test_progress_bars_count_whole_units():
    with progress_bar(200, "game", "test", enabled=True) as bar:
        bar.update(72)
        assert "72/200" in str(bar)
    with progress_bar(None, "deal", "match", enabled=True) as bar:
        bar.update(512)
        assert "512deal" in str(bar).replace(" ", "") and "<" not in str(bar)  # no ETA without a total


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self):
        return True


def test_a_bar_on_a_terminal_keeps_its_clock_running_while_nothing_finishes():
    terminal, log = Terminal(), io.StringIO()
    bars = [TickingBar(total=10, unit="game", file=stream) for stream in (terminal, log)]
    time.sleep(2.5)
    for bar in bars:
        bar.close()
    drawn = terminal.getvalue().replace("\r", "\n")
    assert "0/10 [00:02<?" in drawn  # redrawn without an update
    assert "[00:01" not in log.getvalue()  # a file gets no line a second, only its first and last


def test_a_bar_says_what_it_waits_for_and_draws_its_finished_line_once():
    """`make run` sat at 0% with nothing said while workers started; and its last line showed twice
    where lines are not overwritten (the last update drew it, then closing drew it again)."""
    log = io.StringIO()
    bar = TickingBar(total=10, unit="game", file=log, mininterval=0, postfix="workers starting")
    bar.update(4)
    bar.update(6)
    bar.close()
    drawn = [line.strip() for line in log.getvalue().split("\r") if line.strip()]
    assert "workers starting" in drawn[0] and not any("workers starting" in line for line in drawn[1:])
    assert "4/10" in drawn[1]
    assert sum("10/10" in line for line in drawn) == 1
    quiet = TickingBar(total=3, unit="game", disable=True)  # --quiet: counted, never drawn
    quiet.update(3)
    quiet.close()


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "--game", "straights", "--players", FIRST_LEGAL, "--rounds", "9" * 5000],
        ["tournament", "--game", "straights", "--players", FIRST_LEGAL, "--rounds", "10", "--seed", "-1"],
        ["tournament", "--game", "straights", "--players", FIRST_LEGAL, "--rounds", "10", "--jobs", "9" * 5000],
        ["match", "heuristic", "first-legal", "--alpha", "nan"],
        ["match", "heuristic", "first-legal", "--max-deals", "1" * 5000],
        ["match", "heuristic", "first-legal", "--elo", "1e999,5"],
        ["match", "heuristic", "first-legal", "--points", "1" * 5000 + ",2"],
        ["league", "--players", "heuristic,first-legal", "--rounds", "9" * 5000],
    ],
)
def test_hostile_numbers_on_the_command_line_are_usage_errors(args):
    done = cardsim(*args)
    assert done.returncode == 2 and "Traceback" not in done.stderr and len(done.stderr) < 2000


@pytest.mark.parametrize("game", ["straights", "euchre", "ginrummy"])
def test_a_cheating_computer_is_refused_at_the_table_in_one_line(game):
    done = cardsim("play", game, "--vs", "oracle-mc", input="")
    # The programs' own argument errors come as argparse gives them: the usage, then one line.
    assert done.returncode == 2 and "Traceback" not in done.stderr and not done.stdout, done.stderr
    assert "oracle-mc cheats (it sees hidden cards), so tables do not seat it" in done.stderr.splitlines()[-1]


def test_play_takes_a_strategy_spec_and_refuses_a_bad_setting_in_one_line():
    done = cardsim("play", "ginrummy", "--vs", "mc:samples=8", input="q\ny\n")
    assert done.returncode == 0 and done.stdout.startswith("New game to 100 points"), done.stderr
    done = cardsim("play", "ginrummy", "--vs", "mc:samples=" + "9" * 5000, input="")
    assert done.returncode == 2 and one_line(done.stderr) and "out of range" in done.stderr


# Each game program's arguments, and the end of what it prints when it first waits for a person.
PROGRAMS = {
    "straights": (["44"], b"(c)?\n>"),
    "euchre": (
        [str(PACKS / "pack.in"), "noshuffle", "1", "A", "Human", "B", "Simple", "C", "Simple", "D", "Simple"],
        b'or "pass":\n',
    ),
    "gemstones": (["--seed", "44"], b"saved game.\n> "),
    "ginrummy": (["--seed", "4"], b"S D]> "),
}


class EndlessLine(io.TextIOBase):
    """Standard input of one line that never ends (``yes h | tr -d '\\n'``): a reader asking for a
    whole line would wait, and grow, for ever."""

    def readable(self):
        return True

    def readline(self, size=-1):
        assert size >= 0, "an unbounded read of a line that never ends"
        return "h" * size


@pytest.mark.parametrize("name", PROGRAMS)
def test_an_endless_input_line_ends_a_program_in_one_line(name, capsys):
    program = importlib.import_module(games.load(name).program)
    assert program.main(PROGRAMS[name][0], EndlessLine(), io.StringIO()) == 1
    assert capsys.readouterr().err == (
        f"{name}: an input line is longer than {MAX_LINE_CHARACTERS:,} characters: no answer is so long\n"
    )


def test_input_lines_are_read_whole_up_to_the_cap():
    fits = "x" * MAX_LINE_CHARACTERS
    assert list(input_lines(io.StringIO(f"{fits}\n{fits}"))) == [fits + "\n", fits]
    with pytest.raises(LineTooLong):
        list(input_lines(io.StringIO(f"{fits}\n{fits}x\n")))


@pytest.mark.parametrize("name", PROGRAMS)
def test_ctrl_c_at_a_game_programs_prompt_is_one_line_and_status_130(name):
    arguments, prompt = PROGRAMS[name]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-m", f"sim.{name}", *arguments],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_ctrl_c_as_at_a_terminal,
    )
    try:
        shown = b""
        while not shown.endswith(prompt):  # the program waits for a person at its first prompt
            ready, _, _ = select.select([process.stdout], [], [], 60)
            assert ready and (more := os.read(process.stdout.fileno(), 4096)), shown
            shown += more
        os.killpg(process.pid, signal.SIGINT)  # as a terminal sends Ctrl-C
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130 and err.decode().startswith(f"{name}: interrupted") and one_line(err.decode())
