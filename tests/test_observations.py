"""The reference for strategy writers: each game's observation fields, read from the record's own
docstrings, match the arrays both engines hand a strategy, and docs/<game>.md and
`cardsim strategies --fields` show the same table."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from sim import cli, games, observations

ROOT = Path(__file__).resolve().parents[1]
NAMES = games.names()


class Recorder:
    """A numpy strategy that keeps the first observation it is handed and plays its first legal action."""

    def __init__(self) -> None:
        self.seen = None

    def choose(self, observation):
        if self.seen is None:
            self.seen = observation
        return np.argmax(observation.legal_mask, axis=1)


def handed_out(name: str) -> dict[str, object]:
    """The observation each engine hands the strategy of seat 0 at its first decision."""
    game = games.load(name)
    deals = game.deals(1, 0, 4)
    recorders = [Recorder() for _ in range(game.num_seats)]
    game.play_rounds["fast"](deals, recorders, np.arange(4))
    state = game.new_state(deals[0], 0)
    return {"fast": next(r.seen for r in recorders if r.seen is not None), "reference": state.observe()}


@pytest.mark.parametrize("name", NAMES)
def test_every_field_is_documented_with_the_shape_and_dtype_both_engines_hand_out(name):
    fields = observations.game_fields(name)
    documented = {field.name: field for field in fields}
    for engine, observation in handed_out(name).items():
        arrays = observation.arrays()
        assert set(arrays) <= set(documented), f"{name}: undocumented fields {set(arrays) - set(documented)}"
        for field in fields:
            array = getattr(observation, field.name)
            assert array.shape[1:] == field.dimensions, (name, field.name, array.shape)
            expected = field.dtypes[0] if engine == "fast" else field.dtypes[1]
            assert str(array.dtype) == expected, (name, engine, field.name, array.dtype)
        assert all(field.meaning and field.encoding for field in fields)


@pytest.mark.parametrize("name", NAMES)
def test_the_games_page_lists_the_same_table(name):
    page = (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
    section = page.split(observations.SECTION, 1)[1].split("\n## ", 1)[0]
    table = section[section.index("| field |") :].rstrip("\n")
    assert table == observations.markdown_table(observations.game_fields(name)), (
        f"docs/{name}.md's observation fields differ from the record's: run `python -m sim.observations`"
    )


def test_cardsim_strategies_fields_prints_the_table(capsys):
    assert cli.main(["strategies", "--game", "straights", "--fields"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("straights: The fields of sim.straights.observation.Observation")
    lines = printed.splitlines()
    rule = next(index for index, line in enumerate(lines) if line.startswith("─"))
    assert lines[rule - 1].split() == ["field", "shape", "dtype", "meaning", "encoding"]
    rows = [line.split()[:3] for line in lines[rule + 1 :] if line and not line.startswith(" ")]
    assert rows[:2] == [["seat", "(n,)", "int64"], ["hand", "(n,", "13)"]]
    assert "bit mask" in printed and "the ace" in printed  # how `options` and `hand` encode
    assert [row[0] for row in rows] == [field.name for field in observations.game_fields("straights")]


def test_a_field_documented_otherwise_is_named():
    @dataclass(frozen=True)
    class Record:
        seat: np.ndarray
        """(n,) int64: the seat. Encoding: 0 or 1."""
        hand: np.ndarray  # (n,) a comment is not documentation

    with pytest.raises(observations.Undocumented, match=r"Record\.hand is not documented"):
        observations.field_docs(Record)
