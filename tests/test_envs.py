"""Observation encodings and the PettingZoo environments (``sim.envs``), for every registered game.

Encodings: every observation of random play encodes to one finite, non-negative float32 row of the
game's ``observation_size``; ``encode`` reads nothing but the observation's fields (it gives the same
rows from a bare record of ``arrays()``), treats a batch row by row, and cannot leak: on the deals of
the contract test whose hidden cards were reshuffled (``tests.test_api_contract``), the mover's
encoding is unchanged, while swapping a card it has seen changes it. Each game's docs page lists the
slices the code lays out.

Environments: PettingZoo's own ``api_test`` and ``seed_test``; ``reset(seed)`` deals deal 0 of the
seed, then the next ones; registered strategies playing through the environment end with the points
``sim.play`` gives them on the same deal (rounds and whole games); opponents' seats are no agents;
an illegal action ends the episode with the documented penalty; the docs' example runs.
"""

from __future__ import annotations

import importlib
import re
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import strategies
from sim import encoding, envs, games
from sim.api import IllegalAction
from sim.play import play_out
from tests.test_api_contract import reshuffled_decisions

NAMES = games.names()
ROOT = Path(__file__).resolve().parents[1]
SEED = 11
RANDOM_DEALS = 8
FAST = {  # cheap fair strategies per game, one per seat in turn
    "straights": ("heuristic", "first-legal"),
    "euchre": ("heuristic", "simple"),
    "ginrummy": ("heuristic", "cs340"),
    "gemstones": ("heuristic", "greedy"),
}


def random_observations(name: str) -> list[Any]:
    """The mover's observation at every decision of a few randomly played rounds."""
    game = games.load(name)
    rng = np.random.default_rng(SEED)
    observations = []
    for round_id, deal in enumerate(game.deals(SEED, 0, RANDOM_DEALS)):
        state = game.new_state(deal, round_id)
        while not state.is_over:
            observations.append(state.observe())
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
    return observations


def bare(arrays: dict[str, np.ndarray]) -> types.SimpleNamespace:
    """A record of nothing but the fields: an ``encode`` reading anything else fails on it."""
    return types.SimpleNamespace(**arrays)


# ------------------------------------------------------------------------------------------------
# Encodings


@pytest.mark.parametrize("name", NAMES)
def test_every_observation_encodes_to_one_finite_row_from_its_fields_alone(name):
    game = games.load(name)
    observations = random_observations(name)
    rows = []
    for observation in observations:
        encoded = game.encode(observation)
        assert encoded.dtype == np.float32 and encoded.shape == (1, game.observation_size)
        assert np.isfinite(encoded).all() and (encoded >= 0).all()
        again = game.encode(bare({key: value.copy() for key, value in observation.arrays().items()}))
        assert np.array_equal(again, encoded), "encode reads something besides the observation's fields"
        rows.append(encoded[0])
    # A batch is encoded row by row: all the observations as one batch give the same rows.
    batch = {key: np.concatenate([o.arrays()[key] for o in observations]) for key in observations[0].arrays()}
    assert np.array_equal(game.encode(bare(batch)), np.array(rows))


@pytest.mark.parametrize("name", NAMES)
def test_encodings_do_not_show_the_cards_the_mover_has_not_seen(name):
    game = games.load(name)
    reshuffles = controls = 0
    for decision in reshuffled_decisions(name):
        mine = game.encode(decision.state.observe())
        for _, state in decision.reshuffled:
            assert np.array_equal(game.encode(state.observe()), mine), "the encoding shows a hidden card"
            reshuffles += 1
        for _, _, state in decision.controls:
            assert not np.array_equal(game.encode(state.observe()), mine), "the encoding misses a card seen"
            controls += 1
    assert reshuffles and controls


@pytest.mark.parametrize("name", NAMES)
def test_each_games_docs_list_its_encodings_slices(name):
    game = games.load(name)
    layout = importlib.import_module(game.encode.__module__).ENCODING
    assert encoding.size(layout) == game.observation_size
    page = (ROOT / "docs" / f"{name}.md").read_text()
    section = page.split("## Observation encoding", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| (\d+) \| (\d+) \| (.+) \|$", section, flags=re.M)
    assert listed == [(str(offset), str(width), meaning) for offset, width, meaning in encoding.slices(layout)]
    assert f"{game.observation_size} numbers" in section


# ------------------------------------------------------------------------------------------------
# Environments


# A dict of observation and action mask is the observation of PettingZoo's own classic games, of which
# api_test warns for any environment outside its list.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array", "ignore:Observation space for each agent")
@pytest.mark.parametrize("name", NAMES)
def test_pettingzoos_api_and_seed_tests_pass(name):
    api_test(envs.env(name), num_cycles=1000)  # more cycles than any round has decisions
    api_test(envs.env(name, whole_game=True, reward="win", opponents={0: FAST[name][0]}), num_cycles=20)
    seed_test(lambda: envs.env(name), num_cycles=100)


@pytest.mark.parametrize("name", NAMES)
def test_reset_deals_deal_0_of_its_seed_then_the_next_ones(name):
    game = games.load(name)
    env = envs.env(name)
    for index, seed in ((0, 5), (1, None), (2, None), (0, 5)):
        env.reset(seed=seed)
        state = game.new_state(game.deals(5, index, 1)[0], index)
        assert env.agent_selection == f"player_{state.current_player}"
        observation, *_ = env.last()
        assert np.array_equal(observation["observation"], game.encode(state.observe())[0])
        assert np.array_equal(observation["action_mask"], state.observe().legal_mask[0])


@pytest.mark.parametrize(
    "seed", [-1, 2**63, 10**5000, True, 1.5, "5"], ids=["-1", "2**63", "10**5000", "True", "1.5", "str"]
)
def test_a_refused_seed_leaves_the_environment_dealing_as_before(seed):
    game = games.load("straights")
    env = envs.env("straights")
    env.reset(seed=np.int64(5))
    with pytest.raises((TypeError, ValueError), match="seed must be"):
        env.reset(seed=seed)
    env.reset()  # the next deal of seed 5, as if the refused reset had not been asked for
    state = game.new_state(game.deals(5, 1, 1)[0], 1)
    assert np.array_equal(env.last()[0]["observation"], game.encode(state.observe())[0])
    env.reset(seed=envs.MAX_SEED)


def play_env(env: Any, lineup: list[Any]) -> dict[str, float]:
    """Play ``env`` to its end with ``lineup[seat]`` choosing for each learner seat from the engine's
    observation; returns each agent's final reward."""
    rewards = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        state = env.unwrapped.state
        action = int(lineup[state.current_player].choose(state.observe())[0])
        assert observation["action_mask"][action] == 1
        env.step(action)
    return rewards


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("whole_game", [False, True])
def test_strategies_playing_through_the_environment_score_as_on_the_engine(name, whole_game):
    game = games.load(name)
    specs = [FAST[name][seat % 2] for seat in range(game.num_seats)]
    lineup = [strategies.get(name, spec) for spec in specs]
    # Odd seats are played inside the environment, even seats from outside through it.
    opponents = {seat: spec for seat, spec in enumerate(specs) if seat % 2}
    sign = -1 if game.lower_is_better else 1
    for reward in ("points", "win"):
        env = envs.env(name, whole_game=whole_game, opponents=opponents, reward=reward)
        env.reset(seed=SEED)
        rewards = play_env(env, lineup)
        assert sorted(rewards) == [f"player_{seat}" for seat in range(0, game.num_seats, 2)]
        if whole_game:
            played = game.play_games["reference"](np.array([0]), games.game_deal_source(game, SEED), lineup)
            points, winners = played.scores[0], set(np.flatnonzero(played.winners[0]))
        else:
            points = np.array(play_out(game.new_state(game.deals(SEED, 0, 1)[0], 0), lineup).points())
            winners = set(np.flatnonzero(sign * points == (sign * points).max()))
        for agent, value in rewards.items():
            seat = int(agent.removeprefix("player_"))
            if reward == "points":
                assert value == sign * points[seat]
            else:
                assert value == (0 if len(winners) == game.num_seats else 1 if seat in winners else -1)


@pytest.mark.parametrize("name", NAMES)
def test_a_learner_against_heuristic_opponents_is_the_only_agent(name):
    game = games.load(name)
    env = envs.env(name, opponents=[None] + ["heuristic"] * (game.num_seats - 1))
    env.reset(seed=SEED)
    assert env.possible_agents == env.agents == ["player_0"]
    rng = np.random.default_rng(SEED)
    moves = 0
    for agent in env.agent_iter():
        assert agent == "player_0"
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert env.unwrapped.state.current_player == 0
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        moves += 1
    assert moves and not env.agents


@pytest.mark.parametrize("name", NAMES)
def test_an_illegal_action_ends_the_episode_with_the_penalty(name):
    env = envs.env(name)
    env.reset(seed=SEED)
    offender = env.agent_selection
    observation, *_ = env.last()
    env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    final = {}
    for agent in env.agent_iter():
        final[agent] = env.last()[1]
        env.step(None)
    assert final == {agent: -1.0 if agent == offender else 0 for agent in env.possible_agents}
    raw = envs.raw_env(name)
    raw.reset(seed=SEED)
    with pytest.raises(IllegalAction):
        raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0]))


@pytest.mark.parametrize("name", NAMES)
def test_render_tells_the_deal_and_the_movers_legal_actions(name):
    game = games.load(name)
    env = envs.env(name, render_mode="ansi")
    env.reset(seed=SEED)
    text = env.render()
    legal = env.unwrapped.state.legal_actions()
    assert text.splitlines()[-1].endswith(", ".join(game.action_name(action) for action in legal))
    assert len(text.splitlines()) > 1  # the program's opening lines come first


def test_options_that_make_no_environment_are_refused():
    with pytest.raises(ValueError, match="seats"):
        envs.env("euchre", opponents={4: "simple"})
    with pytest.raises(ValueError, match="one strategy"):
        envs.env("euchre", opponents=["simple", None])
    with pytest.raises(ValueError, match="learner"):
        envs.env("ginrummy", opponents=["heuristic", "heuristic"])
    with pytest.raises(ValueError, match="reward"):
        envs.env("straights", reward="money")
    with pytest.raises(strategies.StrategyError):
        envs.env("straights", opponents={1: "no-such-strategy"})


def test_the_docs_examples_run_in_order(capsys, tmp_path, monkeypatch):
    """Random play, training against a fixed strategy, and seating the result in a tournament."""
    page = (ROOT / "docs" / "environments.md").read_text()
    random_play, batched, training, seating = re.findall(r"^```python\n(.*?)^```", page, flags=re.S | re.M)
    monkeypatch.chdir(tmp_path)  # the policy file and the run are written where the reader is
    exec(compile(random_play, "docs/environments.md", "exec"), {})
    assert re.fullmatch(r"player_0 scored \d+\.0 points\n", capsys.readouterr().out)
    names: dict = {}
    exec(compile(batched, "docs/environments.md", "exec"), names)
    assert names["obs"]["observation"].shape == (4096, games.load("straights").observation_size)
    exec(compile(training, "docs/environments.md", "exec"), {})
    assert (tmp_path / "my-policy.npz").is_file()
    exec(compile(seating, "docs/environments.md", "exec"), {})
    assert "policy:path=my-policy.npz" in capsys.readouterr().out
