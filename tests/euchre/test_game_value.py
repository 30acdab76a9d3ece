"""The chance of winning a Euchre game from a score (strategies/euchre/game_value.py)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from experiments.euchre_hand_outcomes import endings
from strategies.euchre.game_value import ENDINGS, TARGET, game_values, hand_endings, win_chances

shares = st.lists(st.floats(0.01, 1.0), min_size=4, max_size=4).map(lambda values: np.array(values) / sum(values))


def recursive_chance(endings_shares: tuple[float, ...], ours: int, theirs: int, we_deal: bool) -> float:
    """The same chance by plain recursion over the next hand's four endings (memoised)."""

    @cache
    def chance(ours: int, theirs: int, we_deal: bool) -> float:
        if ours >= TARGET:
            return 1.0
        if theirs >= TARGET:
            return 0.0
        dealing_scores = [(1, True), (2, True), (1, False), (2, False)]
        total = 0.0
        for share, (points, dealing) in zip(endings_shares, dealing_scores, strict=True):
            ours_score = dealing == we_deal
            total += share * chance(ours + points * ours_score, theirs + points * (not ours_score), not we_deal)
        return total

    return chance(ours, theirs, we_deal)


@settings(max_examples=10, deadline=None)
@given(shares)
def test_the_chances_are_those_of_the_recursion_and_add_up_between_the_teams(endings_shares):
    chances = win_chances(endings_shares)
    for ours in range(TARGET):
        for theirs in range(TARGET):
            for we_deal in (0, 1):
                expected = recursive_chance(tuple(endings_shares), ours, theirs, bool(we_deal))
                assert chances[ours, theirs, we_deal] == pytest.approx(expected, abs=1e-12)
                # the other team, at the other score, dealing the other way, wins exactly when we do not
                assert chances[ours, theirs, we_deal] + chances[theirs, ours, 1 - we_deal] == pytest.approx(1.0)


def test_the_stored_endings_make_more_points_always_better():
    chances = win_chances(hand_endings())
    below = chances[:TARGET, :TARGET]
    assert (np.diff(below, axis=0) > 0).all() and (np.diff(below, axis=1) < 0).all()
    assert 0.45 < chances[0, 0, 0] < 0.5 < chances[0, 0, 1] < 0.55  # the dealing side is a little ahead


def test_a_game_is_won_by_whatever_reaches_ten_and_a_march_is_worth_no_more_then():
    chances = win_chances(hand_endings())
    scores = np.array([[9, 9], [9, 9], [9, 9], [6, 9]])
    team, dealer = np.array([0, 0, 1, 0]), np.array([0, 1, 2, 3])
    values = game_values(chances, scores, team, dealer, np.array([1, 2, 2, -1]))
    assert values.tolist() == [1.0, 1.0, 1.0, 0.0]
    # one point at 6 to 9 is worth 7 to 9, dealing next when the seat after the dealer is ours
    after_one = game_values(chances, scores[[3, 3]], team[[3, 3]], np.array([1, 0]), np.array([1, 1]))
    assert after_one.tolist() == [chances[7, 9, 1], chances[7, 9, 0]]


def test_the_endings_of_hands_are_read_from_the_seats_points():
    points = np.array([[1, 0, 1, 0], [0, 2, 0, 2], [0, 2, 0, 2], [1, 0, 1, 0]])
    dealers = np.array([0, 1, 0, 1])  # dealing team scores 1; dealing 2; other 2; other 1
    assert [ENDINGS[ending] for ending in endings(points, dealers)] == [
        "dealing+1",
        "dealing+2",
        "other+2",
        "other+1",
    ]


@pytest.mark.parametrize(
    "text, said",
    [
        ("ending,count,share\ndealing+1,1,0.5\n", "is not a table"),
        ("ending,count\ndealing+1,1\ndealing+2,1\nother+1,1\nother+2,1\n", "is not a table"),
        ("ending,count,share\ndealing+1,1,0.5\ndealing+2,1,0.5\nother+1,1,0.5\nother+2,1,0.5\n", "add up"),
        ("ending,count,share\ndealing+1,1,-0.5\ndealing+2,1,0.5\nother+1,1,0.5\nother+2,1,0.5\n", "add up"),
    ],
)
def test_a_table_of_endings_that_is_not_one_is_refused(tmp_path: Path, text: str, said: str):
    path = tmp_path / "outcomes.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=said):
        hand_endings(path)


def test_search_values_a_world_by_the_game_when_asked():
    assert strategies.get("euchre", "search:value=game").value_scale > 1
    assert strategies.get("euchre", "search").value_scale == 1
