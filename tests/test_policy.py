"""``policy:path=FILE``: a saved policy seated like any strategy, the same on both engines, and a bad
file refused in one line."""

import hashlib

import numpy as np
import pytest

import strategies
from sim import games, tournament
from sim.crosscheck import crosscheck
from strategies.policy import save_policy


def random_policy(game_name: str, path, hidden: int | None = 16, seed: int = 0):
    """A small random network for ``game_name`` saved at ``path`` (one hidden layer, or linear)."""
    game = games.load(game_name)
    rng = np.random.default_rng(seed)
    widths = [game.observation_size] + ([hidden] if hidden else []) + [game.num_actions]
    weights = [rng.normal(size=(a, b)) for a, b in zip(widths, widths[1:])]
    biases = [rng.normal(size=b) for b in widths[1:]]
    save_policy(path, game_name, weights, biases)
    return weights, biases


@pytest.mark.parametrize("game_name", games.names())
def test_a_saved_policy_plays_alike_on_both_engines(tmp_path, game_name):
    path = tmp_path / "policy.npz"
    random_policy(game_name, path)
    game = games.load(game_name)
    spec = f"policy:path={path}"
    lineup = [spec if seat % 2 == 0 else game.baseline for seat in range(game.num_seats)]
    report = crosscheck(game_name, rounds=60, seed=3, strategies=lineup)
    assert report.ok, report.format()


def test_the_policy_plays_the_best_scored_legal_action(tmp_path):
    path = tmp_path / "linear.npz"
    weights, biases = random_policy("straights", path, hidden=None)
    game = games.load("straights")
    state = game.new_state(game.deals(5, 0, 1)[0], 0)
    policy = strategies.get("straights", f"policy:path={path}")
    while not state.is_over:
        observation = state.observe()
        scores = game.encode(observation)[0] @ weights[0].astype(np.float32) + biases[0].astype(np.float32)
        legal = np.flatnonzero(observation.legal_mask[0])
        expected = legal[np.argmax(scores[legal])]
        chosen = int(policy.choose(observation)[0])
        assert chosen == expected
        state.apply(chosen)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "cannot read policy"),
        (lambda p: p.mkdir(), "it is a directory"),
        (lambda p: p.write_bytes(b"not a zip"), "is not a policy file"),
        (lambda p: np.savez(p, game=np.array("straights"), weight_0=np.array([object()], dtype=object),
                            bias_0=np.zeros(1)), "is not a policy file"),
        (lambda p: random_policy("euchre", p), "is a policy for euchre, not straights"),
        (lambda p: save_policy(p, "straights", [np.zeros((3, 4))], [np.zeros(4)]), "does not fit straights"),
        (lambda p: save_policy(p, "straights", [np.full((games.load("straights").observation_size,
                                                         games.load("straights").num_actions), np.nan)],
                               [np.zeros(games.load("straights").num_actions)]), "not finite"),
    ],
)
def test_a_bad_policy_file_is_refused_in_one_line(tmp_path, make, message):
    path = tmp_path / "bad.npz"
    make(path)
    with pytest.raises(strategies.StrategyError, match=message) as refused:
        strategies.get("straights", f"policy:path={path}")
    assert "\n" not in str(refused.value)
    with pytest.raises(strategies.StrategyError, match=r"policy needs path=\.\.\. \(for example policy:path=\.\.\.\)"):
        strategies.get("straights", "policy")


def test_a_spec_spelled_out_pins_the_policy_files_contents(tmp_path):
    path = tmp_path / "policy.npz"
    random_policy("straights", path, seed=1)
    first = strategies.resolved("straights", f"policy:path={path}")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert first == f"policy:path={path},sha256={digest}"
    assert strategies.resolved("straights", first) == first
    strategies.get("straights", first)  # the file it pinned

    random_policy("straights", path, seed=2)  # retrained, saved over the same path
    assert strategies.resolved("straights", f"policy:path={path}") != first
    with pytest.raises(strategies.StrategyError, match="has changed since sha256=") as refused:
        strategies.get("straights", first)
    assert "\n" not in str(refused.value)
    with pytest.raises(strategies.StrategyError, match="cannot read policy file") as unreadable:
        strategies.resolved("straights", f"policy:path={tmp_path}")
    assert "directory" in str(unreadable.value)


def test_a_retrained_policy_plays_another_tournament_run(tmp_path):
    path = tmp_path / "policy.npz"
    random_policy("straights", path, seed=1)
    players = (f"policy:path={path}", "first-legal", "first-legal", "first-legal")
    before = tournament.Plan(game="straights", players=players, rounds=10, seed=1).run_id
    random_policy("straights", path, seed=2)
    assert tournament.Plan(game="straights", players=players, rounds=10, seed=1).run_id != before
