"""The chance of winning a game from a score (strategies/game_chances.py) and search:value=game."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from experiments.hand_outcomes import side_points
from strategies import StrategyError
from strategies.game_chances import GAME_SCALE, Endings, game_values, read_endings, win_chances, write_endings

TARGET = 12  # small, so the plain recursion below stays quick

endings_strategy = st.lists(
    st.tuples(st.booleans(), st.integers(1, 5), st.floats(0.01, 1.0)), min_size=1, max_size=6
).map(
    lambda rows: Endings(
        np.array([points if dealing else 0 for dealing, points, _ in rows]),
        np.array([0 if dealing else points for dealing, points, _ in rows]),
        np.array([share for *_, share in rows]) / sum(share for *_, share in rows),
    )
)


def recursive_chance(endings: Endings, ours: int, theirs: int, we_deal: bool) -> float:
    """The same chance by plain recursion over the next hand's endings (memoised)."""

    @cache
    def chance(ours: int, theirs: int, we_deal: bool) -> float:
        if ours >= TARGET:
            return 1.0
        if theirs >= TARGET:
            return 0.0
        total = 0.0
        for dealing, other, share in zip(endings.dealing_points, endings.other_points, endings.shares, strict=True):
            gained, lost = (dealing, other) if we_deal else (other, dealing)
            total += share * chance(ours + int(gained), theirs + int(lost), not we_deal)
        return total

    return chance(ours, theirs, we_deal)


@settings(max_examples=15, deadline=None)
@given(endings_strategy)
def test_the_chances_are_those_of_the_recursion_and_add_up_between_the_sides(endings):
    chances = win_chances(endings, TARGET)
    for ours in range(TARGET):
        for theirs in range(TARGET):
            for we_deal in (0, 1):
                expected = recursive_chance(endings, ours, theirs, bool(we_deal))
                assert chances[ours, theirs, we_deal] == pytest.approx(expected, abs=1e-12)
                # the other side, at the other score, dealing the other way, wins exactly when we do not
                assert chances[ours, theirs, we_deal] + chances[theirs, ours, 1 - we_deal] == pytest.approx(1.0)


@pytest.mark.parametrize("game, target", [("euchre", 10), ("ginrummy", 100)])
def test_in_the_stored_tables_more_points_are_always_better(game: str, target: int):
    chances = win_chances(read_endings(Path(strategies.__file__).parent / game / "hand_outcomes.csv"), target)
    assert (np.diff(chances, axis=0) > 0).all() and (np.diff(chances, axis=1) < 0).all()
    assert 0.45 < chances[0, 0, 0] < 0.55 and chances[0, 0].sum() == pytest.approx(1.0)


def test_a_game_is_won_at_the_target_whatever_the_margin():
    chances = win_chances(read_endings(Path(strategies.__file__).parent / "euchre" / "hand_outcomes.csv"), 10)
    ours, theirs = np.array([10, 11, 9, 6, 7]), np.array([9, 9, 10, 9, 9])
    values = game_values(chances, ours, theirs, np.array([True, False, True, False, True]))
    assert values[:3].tolist() == [GAME_SCALE, GAME_SCALE, 0]  # a march at 9 to 9 is worth what a point is
    assert values[3:].tolist() == [round(chances[6, 9, 0] * GAME_SCALE), round(chances[7, 9, 1] * GAME_SCALE)]


def test_endings_are_written_as_read_and_hands_nobody_scored_left_out(tmp_path: Path):
    path = tmp_path / "outcomes.csv"
    hands = write_endings(path, np.array([1, 0, 1, 0, 0, 2]), np.array([0, 3, 0, 3, 0, 0]))
    endings = read_endings(path)
    assert hands == 5
    assert endings.dealing_points.tolist() == [0, 1, 2] and endings.other_points.tolist() == [3, 0, 0]
    assert endings.shares.tolist() == pytest.approx([0.4, 0.4, 0.2])


def test_the_sides_points_are_read_from_the_seats_points():
    points = np.array([[1, 0, 1, 0], [0, 2, 0, 2], [0, 2, 0, 2]])
    dealing, other = side_points(points, np.array([0, 1, 0]))
    assert dealing.tolist() == [1, 2, 0] and other.tolist() == [0, 0, 2]
    dealing, other = side_points(np.array([[0, 31], [12, 0]]), np.array([0, 0]))  # Gin Rummy: two seats
    assert dealing.tolist() == [0, 12] and other.tolist() == [31, 0]


@pytest.mark.parametrize(
    "text, said",
    [
        ("dealing_points,other_points\n1,0\n", "is not a table"),
        ("dealing_points,other_points,count\n", "is not a table"),
        ("dealing_points,other_points,count\n1,0\n", "line 2: 2 fields, not 3"),
        ("dealing_points,other_points,count\n1,1,5\n", "one side scoring"),
        ("dealing_points,other_points,count\n0,0,5\n", "one side scoring"),
        ("dealing_points,other_points,count\n1,0,x\n", "line 2: 'x' is not a whole number"),
        ("dealing_points,other_points,count\n1,0,5\n0,1,-6\n", "line 3: '-6' is out of range"),
        ("dealing_points,other_points,count\n1,0,0\n", "some ending a count"),
        ("dealing_points,other_points,count\n5000,0,1\n", "line 2: '5000' is out of range"),
        ("dealing_points,other_points,count\n1,0," + "9" * 5000 + "\n", "line 2: '9999"),
    ],
)
def test_a_table_of_endings_that_is_not_one_is_refused_in_one_line(tmp_path: Path, text: str, said: str):
    path = tmp_path / "outcomes.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(StrategyError, match=said):
        read_endings(path)


def test_a_search_whose_table_is_missing_is_refused_in_one_line(tmp_path: Path, monkeypatch):
    from strategies.ginrummy import search

    monkeypatch.setattr(search, "HAND_OUTCOMES", tmp_path / "gone.csv")
    with pytest.raises(StrategyError, match="gone.csv: "):
        strategies.get("ginrummy", "search:value=game")


@pytest.mark.parametrize("game", ["euchre", "ginrummy"])
def test_search_values_the_game_only_when_asked(game: str):
    assert strategies.get(game, "search:value=game").value_scale == GAME_SCALE
    assert strategies.get(game, "search").value_scale == 1


def test_gin_search_values_a_hand_by_the_game_it_leaves():
    search = strategies.get("ginrummy", "search:value=game")
    states = SimpleNamespace(
        mover=np.array([0, 0, 1, 1]),
        dealer=np.array([1, 1, 0, 0]),
        scores=np.array([[95, 40], [95, 40], [60, 60], [60, 60]]),
    )
    points = np.array([[5, 0], [0, 30], [0, 0], [0, 0]])  # a win; a loss; two void hands
    values = search.values(states, points)
    chances = search.chances
    assert values[0] == GAME_SCALE  # 100: the game is won, by any margin
    assert values[1] == round(chances[95, 70, 1] * GAME_SCALE)  # 95 to 70, and the deal passes to seat 0, ours
    # a void hand: the scores stand and the same dealer (seat 0) deals again, so seat 1 does not deal
    assert values[2] == values[3] == round(chances[60, 60, 0] * GAME_SCALE)
