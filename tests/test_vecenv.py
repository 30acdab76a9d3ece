"""The batched environments (``sim.vecenv``) against the PettingZoo ones they batch (``sim.envs``).

A batch of one plays move for move what ``sim.envs`` plays on the same seed with the same learner
actions: the same observations and masks at every decision and the same rewards at every episode's
end, with compiled opponents, a numpy opponent asked a batch at a time, and two learner seats. A
batch of N deals table i episode i and then the next episodes in order; the same seed and actions
give the same run; and a bad action is refused, naming its table, before any table moves.
"""

from __future__ import annotations

import types
from collections.abc import Sequence

import numpy as np
import pytest

from sim import envs, games
from sim.vecenv import VecEnv

BATCHED = [name for name in games.names() if games.load(name).tables is not None]
SEED = 5
MAX_STEPS = 1000  # learner steps a test plays at the most
CHEAP = {"straights": "first-legal", "euchre": "simple", "ginrummy": "cs340", "gemstones": "greedy"}


def lineups(game: str) -> list[list[str | None]]:
    """Learners (None) and opponents: compiled opponents; a numpy one (mc) beside a learner in seat
    1; two learners."""
    seats = games.load(game).num_seats
    compiled = [None] + ["heuristic", CHEAP[game]] * (seats // 2)
    numpy_opponent = ["heuristic", None, "mc:samples=4", CHEAP[game]] if seats == 4 else ["mc:samples=4", None]
    two_learners = [None, "heuristic", None, "heuristic"] if seats == 4 else [None, None]
    return [compiled[:seats], numpy_opponent, two_learners]


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal action at each table."""
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks], dtype=np.int64)


@pytest.mark.parametrize("game", BATCHED)
@pytest.mark.parametrize("lineup", range(3))
@pytest.mark.parametrize("reward", envs.REWARDS)
def test_a_batch_of_one_plays_what_the_pettingzoo_environment_plays(game: str, lineup: int, reward: str) -> None:
    opponents: Sequence[str | None] = lineups(game)[lineup]
    batched = VecEnv(game, 1, opponents=opponents, seed=SEED, reward=reward)
    single = envs.raw_env(game, opponents=opponents, reward=reward)
    rng = np.random.default_rng(lineup)
    obs, infos = batched.reset()
    single.reset(seed=SEED)
    episodes = 0
    while episodes < 4:
        agent = single.agent_selection
        expected = single.observe(agent)
        assert infos["seat"][0] == single.seats[agent]
        assert infos["episode"][0] == episodes
        np.testing.assert_array_equal(obs["observation"][0], expected["observation"])
        np.testing.assert_array_equal(obs["action_mask"][0], expected["action_mask"])
        scored = envs.round_rewards(np.array([single.state.points()]), single.game.lower_is_better, "points")
        np.testing.assert_array_equal(batched.scored(), scored)  # what the reference has scored so far
        action = random_legal(rng, obs["action_mask"])
        obs, rewards, terminations, truncations, infos = batched.step(action)
        single.step(int(action[0]))
        assert not truncations[0]
        assert terminations[0] == all(single.terminations.values())
        if terminations[0]:
            final = [single.rewards.get(envs.agent_name(seat), None) for seat in range(single.game.num_seats)]
            for seat, value in enumerate(final):
                if value is not None:  # a learner's: the other seats' are not in the PettingZoo environment
                    assert infos["final_rewards"][0, seat] == value
            assert rewards[0] == single.rewards[agent]
            episodes += 1
            single.reset()
        else:
            assert rewards[0] == 0


@pytest.mark.parametrize("game", BATCHED)
def test_tables_deal_episodes_in_order(game: str) -> None:
    """Table i starts on episode i (its first decision as ``sim.envs`` shows deal i); tables whose
    episodes end take the next ones in table order; the same seed and actions replay the same run."""
    opponents = lineups(game)[0]
    runs = []
    for _ in range(2):
        batched = VecEnv(game, 5, opponents=opponents, seed=SEED)
        obs, infos = batched.reset()
        assert infos["episode"].tolist() == [0, 1, 2, 3, 4]
        single = envs.raw_env(game, opponents=opponents)
        single.reset(seed=SEED)
        for table in range(5):
            expected = single.observe(single.agent_selection)["observation"]
            np.testing.assert_array_equal(obs["observation"][table], expected)
            single.reset()
        rng = np.random.default_rng(0)
        seen = [obs["observation"].copy()]
        dealt = 5
        for _ in range(MAX_STEPS):  # until several episodes have ended (a Gemstones game takes ~80 steps)
            obs, rewards, terminations, _, infos = batched.step(random_legal(rng, obs["action_mask"]))
            ended = np.flatnonzero(terminations)
            assert infos["episode"][ended].tolist() == list(range(dealt, dealt + len(ended)))
            dealt += len(ended)
            seen.append(np.concatenate([obs["observation"], rewards[:, None]], axis=1))
            if dealt >= 12:
                break
        assert dealt >= 12
        runs.append(seen)
    for first, second in zip(*runs):
        np.testing.assert_array_equal(first, second)


@pytest.mark.parametrize("game", BATCHED)
def test_a_fast_engines_observations_carry_the_encoding_the_game_computes(game: str) -> None:
    """Observations the tables make carry the compiled encoder's rows (``encoding.attach``), which the
    game's ``encode`` returns (a network seated on the fast engine reads them): the very rows the
    game's own encoding computes from the fields, which a copy of the fields alone still gets."""
    record = games.load(game)
    batched = VecEnv(game, 40, opponents=lineups(game)[0], seed=SEED)
    obs, _ = batched.reset()
    rng = np.random.default_rng(1)
    for _ in range(6):
        observation = batched.observations()
        attached = record.encode(observation)
        assert record.encode(observation) is attached  # read, not computed again
        np.testing.assert_array_equal(attached, obs["observation"])
        fields = types.SimpleNamespace(**{name: np.copy(values) for name, values in observation.arrays().items()})
        computed = record.encode(fields)
        assert computed is not attached
        np.testing.assert_array_equal(computed, attached)
        obs, *_ = batched.step(random_legal(rng, obs["action_mask"]))


@pytest.mark.parametrize("game", BATCHED)
def test_bad_actions_are_refused_before_any_table_moves(game: str) -> None:
    batched = VecEnv(game, 3, opponents=lineups(game)[0], seed=SEED)
    obs, _ = batched.reset()
    legal = random_legal(np.random.default_rng(0), obs["action_mask"])
    illegal_at = int(np.argmax(obs["action_mask"].sum(axis=1) < obs["action_mask"].shape[1]))
    illegal = legal.copy()
    illegal[illegal_at] = int(np.flatnonzero(obs["action_mask"][illegal_at] == 0)[0])
    out_of_range = legal.copy()
    out_of_range[2] = batched.game.num_actions
    bad = {
        "one action too few": (legal[:2], "actions must be 3 whole numbers"),
        "floats": (legal.astype(float), "actions must be 3 whole numbers"),
        "out of range": (out_of_range, "table 2: action"),
        "negative": (np.array([legal[0], -1, legal[2]]), "table 1: action -1 is not an action"),
        "illegal": (illegal, f"table {illegal_at}: action"),
    }
    for actions, message in bad.values():
        with pytest.raises(ValueError, match=message):
            batched.step(actions)
    after = batched.step(legal)
    fresh = VecEnv(game, 3, opponents=lineups(game)[0], seed=SEED)
    fresh.reset()
    expected = fresh.step(legal)
    np.testing.assert_array_equal(after[0]["observation"], expected[0]["observation"])
    np.testing.assert_array_equal(after[1], expected[1])


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        VecEnv("straights", 0)
    with pytest.raises(ValueError, match="reward"):
        VecEnv("straights", 2, reward="coins")
    with pytest.raises(ValueError, match="leave at least one seat"):
        VecEnv("straights", 2, opponents=["heuristic"] * 4)
    with pytest.raises(ValueError, match="seed"):
        VecEnv("straights", 2, seed=-1)
    with pytest.raises(RuntimeError, match="reset"):
        VecEnv("straights", 2).step(np.zeros(2, dtype=np.int64))
