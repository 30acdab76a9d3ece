"""The shared defences against hostile input: one bounded number parser, regular files only,
atomic writes that respect the umask, output folders checked up front, and how runs end."""

import io
import os
import stat

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim import console, files
from sim.numbers import NumberError, json_int, parse_float, parse_int


@given(st.integers(-(10**30), 10**30), st.integers(-(10**30), 10**30))
def test_parse_int_accepts_exactly_the_numbers_in_range(value, bound):
    low, high = min(bound, -bound), max(bound, -bound)
    if low <= value <= high:
        assert parse_int(str(value), low, high) == value
    else:
        with pytest.raises(NumberError, match="out of range"):
            parse_int(str(value), low, high)


@pytest.mark.parametrize("digits", [4_301, 5_000, 100_000])
def test_numbers_past_pythons_conversion_limit_are_out_of_range_not_a_crash(digits):
    with pytest.raises(NumberError, match=rf"\({digits} characters\) is out of range"):
        parse_int("9" * digits, 0, 100)
    with pytest.raises(NumberError, match="too large for any field"):
        json_int("1" * digits)


@pytest.mark.parametrize("text", ["", " ", "1.0", "0x10", "1e3", "--1", "١٢", "1 2", "_1", "1__0"])
def test_what_is_not_a_whole_number_is_refused(text):
    with pytest.raises(NumberError, match="not a whole number"):
        parse_int(text, 0, 10**6)


def test_leading_zeros_signs_and_grouping_are_read_as_python_reads_them():
    assert parse_int("  007 ", 0, 10) == 7
    assert parse_int("0" * 5000 + "7", 0, 10) == 7  # long, but in range
    assert parse_int("+5", 0, 10) == 5 and parse_int("-5", -10, 10) == -5
    assert parse_int("1_000", 0, 10**6) == 1000


def test_parse_float_refuses_what_is_not_finite_or_out_of_range():
    assert parse_float("2.5", 0, 3) == 2.5
    for text in ("nan", "inf", "1e999", "x", "9" * 5000):
        with pytest.raises(NumberError):
            parse_float(text, 0, 3)
    with pytest.raises(NumberError, match="out of range"):
        parse_float("3.5", 0, 3)


@pytest.mark.parametrize("kind", ["directory", "fifo", "device", "missing"])
def test_read_bounded_refuses_what_is_not_a_regular_file_without_blocking(kind, tmp_path):
    path = {"directory": tmp_path, "fifo": tmp_path / "pipe", "device": "/dev/zero", "missing": tmp_path / "absent"}[
        kind
    ]
    if kind == "fifo":
        os.mkfifo(path)
    expected = files.CannotOpen if kind == "missing" else files.UnreadableFile
    with pytest.raises(expected) as caught:
        files.read_bounded(path, 100, "saved game")
    assert "\n" not in str(caught.value)
    if kind != "missing":
        assert str(caught.value).endswith("not a saved game")


def test_atomic_writes_respect_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        files.atomic_write_bytes(tmp_path / "public.csv", b"x")
        os.umask(0o077)
        files.atomic_write_bytes(tmp_path / "private.csv", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "public.csv").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "private.csv").stat().st_mode) == 0o600


def test_writable_folder_makes_missing_folders_and_refuses_impossible_ones(tmp_path):
    assert files.writable_folder(tmp_path / "a" / "b").is_dir()
    (tmp_path / "file").write_text("")
    with pytest.raises(files.UnwritableFolder, match="exists and is not a folder"):
        files.writable_folder(tmp_path / "file")
    with pytest.raises(files.UnwritableFolder, match="cannot create folder /proc/x"):
        files.writable_folder("/proc/x")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write in a read-only folder")
def test_writable_folder_refuses_a_read_only_folder(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    with pytest.raises(files.UnwritableFolder, match="cannot write in folder"):
        files.writable_folder(locked)


def interrupted_body():
    raise KeyboardInterrupt


def test_run_program_ends_every_way_in_one_line(capsys):
    class Stop(Exception):
        pass

    class Failed(Exception):
        pass

    def raising(error):
        def body():
            raise error

        return body

    out = io.StringIO()
    assert console.run_program(raising(Stop()), out, (Stop,), "prog") == 0
    assert console.run_program(raising(Failed()), out, (Stop,), "prog", failures={Failed: "it failed"}) == 1
    assert capsys.readouterr().err == "prog: it failed\n"
    said = {Failed: "stopped: {error}"}
    assert console.run_program(raising(Failed("no such run")), out, (), "prog", failures=said) == 1
    assert capsys.readouterr().err == "prog: stopped: no such run\n"
    assert console.run_program(raising(KeyboardInterrupt()), out, (Stop,), "prog", "interrupted; not saved") == 130
    assert capsys.readouterr().err == "prog: interrupted; not saved\n"
