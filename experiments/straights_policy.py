"""A learner trained through cardsim's PettingZoo environment, then seated in tournaments.

    python -m experiments.straights_policy                 # about 3 minutes on one core
    python -m experiments.straights_policy --episodes 2000 --deals 500   # a quick look

A linear softmax policy over Straights' encoded observation (``Game.encode``), trained by REINFORCE
(policy gradient with a running-mean baseline), numpy only, in seat 0 of ``sim.envs.env`` against
three ``first-legal`` players (the spec's computer): each episode is one round, its reward the
round's points negated (fewer points win). The trained weights are saved as a policy file, and
``policy:path=FILE`` then plays duplicate tournaments on the fast engine against first-legal and
against heuristic. The training curve goes to docs/straights-policy-training.png and the results to
the "Learning agents" section of docs/environments.md.
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

import numpy as np

from experiments import count_argument, rate_argument, run_script
from sim import envs, games, tournament
from sim.results import RunStore
from strategies.policy import save_network

GAME = "straights"
SEED = 20261125
OPPONENT = "first-legal"
ROOT = Path(__file__).resolve().parent.parent
CURVE = ROOT / "docs" / "straights-policy-training.png"
POLICY = ROOT / "results" / "experiments" / "straights-linear-policy.npz"


class LinearSoftmax:
    """π(a | x) ∝ exp(x·W[:, a] + b[a]) over the legal actions a."""

    def __init__(self, inputs: int, actions: int) -> None:
        self.weight = np.zeros((inputs, actions))
        self.bias = np.zeros(actions)

    def probabilities(self, encoded: np.ndarray, mask: np.ndarray) -> np.ndarray:
        scores = np.where(mask, encoded @ self.weight + self.bias, -np.inf)
        scores = np.exp(scores - scores.max())
        return scores / scores.sum()

    def step(self, steps: list[tuple[np.ndarray, np.ndarray, int]], advantage: float, rate: float) -> None:
        """One REINFORCE update from an episode's (encoding, legal mask, action) steps."""
        for encoded, mask, action in steps:
            gradient = -self.probabilities(encoded, mask)
            gradient[action] += 1.0  # ∇ log π(a|x) with respect to the scores
            self.weight += rate * advantage * np.outer(encoded, gradient)
            self.bias += rate * advantage * gradient


def train(episodes: int, rate: float, seed: int) -> tuple[LinearSoftmax, list[float]]:
    """The policy after ``episodes`` rounds of training, and each round's points."""
    game = games.load(GAME)
    environment = envs.env(GAME, opponents=[None] + [OPPONENT] * (game.num_seats - 1))
    learner = LinearSoftmax(game.observation_size, game.num_actions)
    rng = np.random.default_rng(seed)
    baseline, history = 0.0, []
    for episode in range(episodes):
        environment.reset(seed=seed + episode)
        steps, reward = [], 0.0
        for _ in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            encoded, mask = observation["observation"].astype(np.float64), observation["action_mask"].astype(bool)
            action = int(rng.choice(len(mask), p=learner.probabilities(encoded, mask)))
            steps.append((encoded, mask, action))
            environment.step(action)
        # The reward is the round's points, negated where fewer win: more is better.
        learner.step(steps, reward - baseline, rate / max(len(steps), 1))
        baseline += 0.01 * (reward - baseline)
        history.append(-reward if game.lower_is_better else reward)
    return learner, history


def measure(policy: Path, deals: int, out: Path) -> dict[str, tournament.RunResult]:
    """Duplicate tournaments of the saved policy against first-legal and against heuristic."""
    results = {}
    for opponent in ("first-legal", "heuristic"):
        # A retrained policy is another run (its file's digest is part of it), which this fixed folder,
        # holding the last policy's run, would refuse.
        shutil.rmtree(out / opponent, ignore_errors=True)
        spec = f"policy:path={policy}"
        plan = tournament.Plan(
            GAME, (spec, opponent, spec, opponent), deals, SEED + 1, duplicate=True, keep_rounds=False
        )
        results[opponent] = tournament.run(plan, RunStore(out / opponent), progress=False)
    return results


def draw_curve(history: list[float], path: Path, window: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = np.asarray(history)
    smoothed = np.convolve(points, np.ones(window) / window, mode="valid")
    figure, axes = plt.subplots(figsize=(8, 4))
    axes.plot(np.arange(window, len(points) + 1), smoothed)
    axes.set_xlabel("training rounds (episodes)")
    axes.set_ylabel(f"points a round (mean of {window})")
    axes.set_title(f"Straights: a linear policy learning against three {OPPONENT} players · lower is better")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=count_argument, default=20_000)
    parser.add_argument("--rate", type=rate_argument, default=0.002)
    parser.add_argument("--deals", type=count_argument, default=5_000, help="deals of each measuring tournament")
    arguments = parser.parse_args()
    began = time.perf_counter()
    learner, history = train(arguments.episodes, arguments.rate, SEED)
    trained = time.perf_counter() - began
    POLICY.parent.mkdir(parents=True, exist_ok=True)
    save_network(POLICY, GAME, [learner.weight], [learner.bias])
    draw_curve(history, CURVE, window=max(10, arguments.episodes // 40))
    print(
        f"trained on {arguments.episodes:,} rounds in {trained:.0f} s; first and last 1,000: "
        f"{np.mean(history[:1000]):.2f} and {np.mean(history[-1000:]):.2f} points a round"
    )
    for opponent, result in measure(POLICY, arguments.deals, POLICY.parent / "straights-policy").items():
        pair = result.paired.iloc[0]
        print(
            f"policy against {opponent}: {pair['mean_diff']:+.3f} points a deal "
            f"[{pair['ci95_low']:+.3f}, {pair['ci95_high']:+.3f}], W-D-L {pair['wins']}-{pair['draws']}-"
            f"{pair['losses']}, Elo {pair['elo']:+.1f}"
        )


if __name__ == "__main__":
    run_script(main, "experiments.straights_policy")
