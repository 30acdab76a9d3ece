"""The game objective measured for Gin's lookahead (experiments.ginrummy_objective): the chance to
win from a pair of scores against exact answers, and ``mc-game`` valuing rollouts by it."""

import importlib
import math
from types import SimpleNamespace

import numpy as np
import pytest

import strategies
from sim.ginrummy import fast, rules
from sim.ginrummy.game import GAME
from tests.conftest import registry_kept

TARGET = rules.GAME_TARGET


@pytest.fixture(scope="module", autouse=True)
def objective():
    """The experiment's module, its ``mc-game`` registered for these tests only: other tests (say, of
    the message listing the known strategies) see the registry as the package leaves it."""
    with registry_kept():
        yield importlib.reload(importlib.import_module("experiments.ginrummy_objective"))


def outcomes_of(shares: dict[tuple[int, int], float], size: int = TARGET + 1) -> np.ndarray:
    """A hand-outcome table, alike whoever deals, from ``{(ours, theirs): share}``."""
    table = np.zeros((2, size, size))
    for (ours, theirs), share in shares.items():
        table[:, ours, theirs] = share
    return table


def test_a_race_of_single_points_is_a_binomial_tail(objective) -> None:
    chances = objective.win_table(outcomes_of({(1, 0): 0.5, (0, 1): 0.5}))
    for ours, theirs in ((0, 0), (90, 95), (99, 50), (37, 81)):
        need, hands = TARGET - ours, 2 * TARGET - 1 - ours - theirs  # we win if we take `need` of them
        expected = sum(math.comb(hands, k) for k in range(need, hands + 1)) / 2**hands
        assert chances[ours, theirs, 0] == pytest.approx(expected, abs=1e-12)


def test_void_hands_are_dealt_again_and_change_nothing(objective) -> None:
    # Every hand that is not void ends the game: the chance is the share of those we win.
    chances = objective.win_table(outcomes_of({(0, 0): 0.3, (TARGET, 0): 0.7 * 0.6, (0, TARGET): 0.7 * 0.4}))
    assert np.allclose(chances, 0.6)


def test_the_heuristics_own_hands_give_a_fair_game_seen_from_either_seat(objective) -> None:
    outcomes = objective.hand_outcomes(2_000, 5)
    assert outcomes.sum(axis=(1, 2)) == pytest.approx([1.0, 1.0])
    chances = objective.win_table(outcomes)
    # Our chance dealing is the opponent's chance not dealing, seen from its side.
    assert np.allclose(chances + chances.transpose(1, 0, 2)[:, :, ::-1], 1.0)
    assert (np.diff(chances, axis=0) >= -1e-12).all() and (np.diff(chances, axis=1) <= 1e-12).all()
    assert 0.4 < chances[0, 0, 0] < 0.6 and chances[95, 0, 0] > 0.9


def test_win_chances_at_and_past_the_target(objective) -> None:
    ours, theirs = np.array([100, 130, 20, 99]), np.array([40, 99, 100, 99])
    chances = objective.win_chances(ours, theirs, np.array([0, 1, 0, 1]))
    assert chances[:3].tolist() == [1.0, 1.0, 0.0] and 0 < chances[3] < 1


def test_mc_game_values_a_rollout_by_the_scores_it_leaves(objective) -> None:
    player = strategies.get("ginrummy", "mc-game:samples=4,oversample=2")
    # The fields a valuation reads, for three rollouts of seat 0: it dealt the first two hands, not the third.
    states = SimpleNamespace(
        scores=np.array([[95, 10], [95, 10], [10, 95]]), dealer=np.array([0, 0, 1]), mover=np.zeros(3, dtype=np.int64)
    )
    points = np.array([[8, 0], [0, 20], [8, 0]])
    values = player.values(states, points) / objective.CHANCE_SCALE
    expected = objective.win_chances(np.array([103, 95, 18]), np.array([10, 30, 95]), np.array([0, 0, 1]))
    assert values.tolist() == pytest.approx(expected.tolist(), abs=1 / objective.CHANCE_SCALE)
    assert values[0] == 1.0 and values[1] < values[0]


def test_mc_game_plays_whole_hands(objective) -> None:
    player, heuristic = (
        strategies.get("ginrummy", "mc-game:samples=4,oversample=2"),
        strategies.get("ginrummy", "heuristic"),
    )
    points = fast.play_rounds(GAME.deals(3, 0, 2), [player, heuristic], np.arange(2)).points
    assert points.shape == (2, 2) and (points >= 0).all()
