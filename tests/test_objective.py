"""The game objective measured for Gin Rummy's and Euchre's lookahead (experiments.objective): the
chance to win from a pair of scores against exact answers, and ``mc-game`` valuing rollouts by it."""

import importlib
import math
from types import SimpleNamespace

import numpy as np
import pytest

import strategies
from sim import games
from tests.conftest import registry_kept

GAMES = ["ginrummy", "euchre"]
TARGETS = {"ginrummy": 100, "euchre": 10}


@pytest.fixture(scope="module", autouse=True)
def objective():
    """The experiment's module, its ``mc-game`` registered for these tests only: other tests (say, of
    the message listing the known strategies) see the registry as the package leaves it."""
    with registry_kept():
        yield importlib.reload(importlib.import_module("experiments.objective"))


def outcomes_of(shares: dict[tuple[int, int], float], size: int) -> np.ndarray:
    """A hand-outcome table, alike whoever deals, from ``{(ours, theirs): share}``."""
    table = np.zeros((2, size, size))
    for (ours, theirs), share in shares.items():
        table[:, ours, theirs] = share
    return table


@pytest.mark.parametrize("target", [100, 10, 1])
def test_a_race_of_single_points_is_a_binomial_tail(objective, target) -> None:
    chances = objective.win_table(outcomes_of({(1, 0): 0.5, (0, 1): 0.5}, 2), target)
    for ours, theirs in {(0, 0), (target - 1, target - 1), (target * 9 // 10, target // 2), (target // 3, target - 1)}:
        need, hands = target - ours, 2 * target - 1 - ours - theirs  # we win if we take `need` of them
        expected = sum(math.comb(hands, k) for k in range(need, hands + 1)) / 2**hands
        assert chances[ours, theirs, 0] == pytest.approx(expected, abs=1e-12)


def test_void_hands_are_dealt_again_and_change_nothing(objective) -> None:
    # Every hand that is not void ends the game: the chance is the share of those we win.
    shares = {(0, 0): 0.3, (100, 0): 0.7 * 0.6, (0, 100): 0.7 * 0.4}
    assert np.allclose(objective.win_table(outcomes_of(shares, 101), 100), 0.6)


@pytest.mark.parametrize("game", GAMES)
def test_the_heuristics_own_hands_give_a_fair_game_seen_from_either_side(objective, game) -> None:
    outcomes = objective.hand_outcomes(game, 2_000, 5)
    assert outcomes.sum(axis=(1, 2)) == pytest.approx([1.0, 1.0])
    target = TARGETS[game]
    chances = objective.win_table(outcomes, target)
    # Our chance dealing is the other side's chance not dealing, seen from its side.
    assert np.allclose(chances + chances.transpose(1, 0, 2)[:, :, ::-1], 1.0)
    assert (np.diff(chances, axis=0) >= -1e-12).all() and (np.diff(chances, axis=1) <= 1e-12).all()
    assert 0.4 < chances[0, 0, 0] < 0.6 and chances[target * 9 // 10, 0, 0] > 0.9


def test_euchre_hands_always_score_and_the_dealers_side_scores_more(objective) -> None:
    outcomes = objective.hand_outcomes("euchre", 2_000, 5)
    assert outcomes[:, 0, 0].tolist() == [0.0, 0.0]  # no void hands: the deal always passes
    assert outcomes.shape[1] == 3  # a hand scores 1 or 2 (no lone hands in the spec)
    assert outcomes[1, 1:, 0].sum() > outcomes[0, 1:, 0].sum()  # the dealer's side takes the upcard


@pytest.mark.parametrize("game", GAMES)
def test_win_chances_at_and_past_the_target(objective, game) -> None:
    target = TARGETS[game]
    ours, theirs = np.array([target, target + 30, 2, target - 1]), np.array([4, target - 1, target, target - 1])
    chances = objective.win_chances(game, ours, theirs, np.array([0, 1, 0, 1]))
    assert chances[:3].tolist() == [1.0, 1.0, 0.0] and 0 < chances[3] < 1


def test_gin_mc_game_values_a_rollout_by_the_scores_it_leaves(objective) -> None:
    player = strategies.get("ginrummy", "mc-game:samples=4,oversample=2")
    # The fields a valuation reads, for three rollouts of seat 0: it dealt the first two hands, not the third.
    states = SimpleNamespace(
        scores=np.array([[95, 10], [95, 10], [10, 95]]), dealer=np.array([0, 0, 1]), mover=np.zeros(3, dtype=np.int64)
    )
    points = np.array([[8, 0], [0, 20], [8, 0]])
    values = player.values(states, points) / objective.CHANCE_SCALE
    expected = objective.win_chances("ginrummy", np.array([103, 95, 18]), np.array([10, 30, 95]), np.array([0, 0, 1]))
    assert values.tolist() == pytest.approx(expected.tolist(), abs=1 / objective.CHANCE_SCALE)
    assert values[0] == 1.0 and values[1] < values[0]


def test_euchre_mc_game_values_a_rollout_by_its_teams_scores(objective) -> None:
    player = strategies.get("euchre", "mc-game:samples=4,oversample=2")
    seat, dealer = np.array([0, 1, 2, 3]), np.array([3, 0, 0, 3])
    scores = np.array([[8, 3], [8, 3], [5, 9], [0, 0]])  # the teams' (seats 0 and 2, 1 and 3) before the hand
    points = np.array([[2, 0, 2, 0], [2, 0, 2, 0], [0, 1, 0, 1], [1, 0, 1, 0]])  # each seat has its team's
    values = player.values(seat, dealer, scores, points) / objective.CHANCE_SCALE
    # Seat 0's side reaches 10; seat 1's and seat 2's lose; seat 3's side dealt (seat 3) and trails 0
    # to 1, so the other side deals next.
    expected = objective.win_chances(
        "euchre", np.array([10, 3, 5, 0]), np.array([3, 10, 10, 1]), np.array([1, 1, 0, 0])
    )
    assert values.tolist() == pytest.approx(expected.tolist(), abs=1 / objective.CHANCE_SCALE)
    assert values[:3].tolist() == [1.0, 0.0, 0.0] and 0 < values[3] < 0.5


@pytest.mark.parametrize("game", GAMES)
def test_mc_game_plays_whole_hands(objective, game) -> None:
    record = games.load(game)
    player, heuristic = strategies.get(game, "mc-game:samples=4,oversample=2"), strategies.get(game, "heuristic")
    lineup = [player, heuristic] * (record.num_seats // 2)
    points = record.play_rounds["fast"](record.deals(3, 0, 2), lineup, np.arange(2)).points
    assert points.shape == (2, record.num_seats) and (points >= 0).all()


def test_the_variant_replays_mcs_seats_of_the_evidence(objective) -> None:
    for game, base in objective.BASES.items():
        plan = base.plan(base.deals)
        variant = objective.variant_of(plan, base.lookahead)
        assert [spec == base.lookahead for spec in plan.players] == [
            spec.startswith("mc-game:") for spec in variant.players
        ]
        assert (variant.seed, variant.rounds, variant.chunk_size) == (plan.seed, plan.rounds, plan.chunk_size), game


def test_the_gain_has_an_interval_from_two_chunks_on(objective) -> None:
    assert objective.gain_interval(np.array([0.01])) == "one chunk: an interval needs two"
    # mean 2%, standard error 1%: 1.96 standard errors either side
    assert objective.gain_interval(np.array([0.01, 0.03])) == "95% interval over chunks +0.04% to +3.96%"
