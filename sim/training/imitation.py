"""A policy network trained by imitation on the compiled engine: ``cardsim train``.

The run has two phases, each resumable after an interruption with nothing lost:

1. **Positions.** ``VecEnv`` tables of the game (seed ``seed``) with the learner in seat 0 and the
   ``opponents`` strategy elsewhere; at every learner decision the ``teacher`` strategy is asked and
   its action played, and the encoded observation, the legal actions and the teacher's action are
   kept: ``positions/chunk-NNNNN.npz``, a chunk of steps at a time. A resumed run replays the
   stored actions to bring its tables back to where they stopped (the teacher is not asked again).
2. **Training.** The last ``HELD_OUT_SHARE`` of the positions are held out; the network is fitted
   to the others by Adam on the cross-entropy of the teacher's actions among the legal ones,
   minibatches drawn by a seeded sampler. Every ``evaluate_every`` updates it is measured: its
   held-out loss and agreement with the teacher, and its own play, greedy, in seat 0 of
   ``held_out_rounds`` rounds of seed ``seed + 1`` (deals the positions never came from) against
   the opponents, its win rate (the share of rounds it scored best, ties included) and its mean
   reward. Each measurement writes ``checkpoint.npz``, ``policy.npz`` (``policy:path=`` plays it),
   ``curve.csv`` and ``curve.png``.

The same plan and seed give the same positions, network and curve, interrupted or not.
"""

from __future__ import annotations

import dataclasses
import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

import strategies as strategy_registry
from sim import games
from sim.console import progress_bar
from sim.envs import round_rewards
from sim.files import UnreadableFile, atomic_write_bytes, read_bounded
from sim.games import default_engine
from sim.training import checkpoint, network
from sim.vecenv import VecEnv
from strategies.policy import save_policy

CHUNK_STEPS = 64  # environment steps a positions file holds
HELD_OUT_SHARE = 0.1  # of the positions, the last, for the held-out loss and agreement
MAX_CHUNK_BYTES = 1 << 30
MAX_PLAN_BYTES = 1 << 16
POLICY_FILE, CURVE_CSV, CURVE_PNG, PLAN_FILE = "policy.npz", "curve.csv", "curve.png", "plan.json"


@dataclass(frozen=True)
class Plan:
    """What a run trains: the game, whose play it learns, against whom, on how much, and how."""

    game: str
    teacher: str = "heuristic"
    opponents: str = "heuristic"
    positions: int = 400_000  # learner decisions to collect (rounded up to whole steps of every table)
    envs: int = 512
    hidden: tuple[int, ...] = (256, 256)
    batch: int = 512
    updates: int = 4000
    learning_rate: float = 1e-3
    evaluate_every: int = 500
    held_out_rounds: int = 2000
    seed: int = 0

    def config(self) -> dict:
        """The plan as JSON values: what a checkpoint must have been made by to be resumed."""
        return json.loads(json.dumps(dataclasses.asdict(self)))

    @property
    def steps(self) -> int:
        """Environment steps of collection: enough for ``positions`` learner decisions."""
        return -(-self.positions // self.envs)


def train(plan: Plan, folder: Path, progress: bool = True, warn: Callable[[str], None] = print) -> list[dict]:
    """Run ``plan`` in ``folder`` (resuming what is there); returns the learning curve's rows."""
    game = games.load(plan.game)
    teacher = strategy_registry.get_fair(plan.game, plan.teacher, "training")
    folder.mkdir(parents=True, exist_ok=True)
    _claim(folder, plan)
    encoded, masks, actions = collect(plan, teacher, folder / "positions", progress)
    held_out = len(actions) - max(1, int(len(actions) * HELD_OUT_SHARE))
    widths = [game.observation_size, *plan.hidden, game.num_actions]
    params = network.initial(jax.random.PRNGKey(plan.seed), widths)
    optimizer = optax.adam(plan.learning_rate)
    state = (params, optimizer.init(params))
    sampler = np.random.default_rng(plan.seed)
    step, curve = 0, []
    mark = teacher_played(plan, teacher)
    saved = checkpoint.latest_good(folder, state, plan.config(), warn)
    if saved is not None:
        state, step, curve = saved.arrays, saved.step, saved.curve
        sampler.bit_generator.state = saved.sampler
    update = _update_function(optimizer)
    fitted = jnp.asarray(encoded[:held_out]), jnp.asarray(masks[:held_out]), jnp.asarray(actions[:held_out])
    checked = jnp.asarray(encoded[held_out:]), jnp.asarray(masks[held_out:]), jnp.asarray(actions[held_out:])
    bar = progress_bar(plan.updates, "updates", f"training {plan.game}", progress, initial=step)
    try:
        while step < plan.updates:
            rows = sampler.integers(0, held_out, plan.batch)
            state, loss = update(state, fitted[0][rows], fitted[1][rows], fitted[2][rows])
            step += 1
            bar.update()
            if step % plan.evaluate_every == 0 or step == plan.updates:
                row = measured(plan, state[0], step, float(loss), checked) | {
                    "teacher_win_rate": mark[0],
                    "teacher_mean_reward": mark[1],
                }
                curve.append(row)
                bar.set_postfix(
                    loss=f"{row['loss']:.3f}", agreement=f"{row['agreement']:.1%}", wins=f"{row['win_rate']:.1%}"
                )
                keep(folder, plan, state, step, sampler, curve)
    finally:
        bar.close()
    return curve


class OtherPlan(ValueError):
    """The folder holds a run of another plan (one line: which folder)."""


def _claim(folder: Path, plan: Plan) -> None:
    """Write the plan into ``folder``, or check it is the plan of the run already there (its positions
    and checkpoints are that plan's); ``OtherPlan`` if it is not."""
    path = folder / PLAN_FILE
    if path.exists():
        try:
            stored = json.loads(read_bounded(path, MAX_PLAN_BYTES, "plan"))
        except (UnreadableFile, ValueError):
            stored = None
        if stored != plan.config():
            raise OtherPlan(f"{folder}/ holds a run of another plan ({PLAN_FILE}); choose another --out")
        return
    atomic_write_bytes(path, json.dumps(plan.config(), indent=2).encode())


def _update_function(optimizer: optax.GradientTransformation) -> Callable[..., Any]:
    """One Adam step on a minibatch: (params, optimizer state), loss."""

    @jax.jit
    def update(state: Any, encoded: jax.Array, masks: jax.Array, targets: jax.Array) -> tuple[Any, jax.Array]:
        params, moments = state
        loss, gradients = jax.value_and_grad(network.imitation_loss)(params, encoded, masks, targets)
        changes, moments = optimizer.update(gradients, moments, params)
        return (optax.apply_updates(params, changes), moments), loss

    return update


def measured(plan: Plan, params: network.Params, step: int, loss: float, checked: tuple) -> dict:
    """The curve's row at ``step``: the training minibatch's loss, the held-out loss and agreement,
    and the network's own play on held-out deals."""
    held_out_loss = float(network.imitation_loss(params, *checked))
    agreement = float(network.agreement(params, *checked))
    win_rate, reward = played(plan, params)
    return {
        "update": step,
        "loss": loss,
        "held_out_loss": held_out_loss,
        "agreement": agreement,
        "win_rate": win_rate,
        "mean_reward": reward,
    }


def played(plan: Plan, params: network.Params) -> tuple[float, float]:
    """(win rate, mean reward) of the network, greedy, in seat 0 of the first ``held_out_rounds``
    rounds of seed ``seed + 1`` against the opponents."""
    seats = games.load(plan.game).num_seats
    env = VecEnv(plan.game, min(plan.envs, plan.held_out_rounds), opponents=_lineup(plan, seats), seed=plan.seed + 1)
    scores = jax.jit(network.scores)
    obs, infos = env.reset()
    wins: list[float] = []
    rewards: list[float] = []
    while len(rewards) < plan.held_out_rounds:
        legal_scores = np.where(obs["action_mask"] > 0, np.asarray(scores(params, obs["observation"])), -np.inf)
        episodes = infos["episode"]
        obs, _, ended, _, infos = env.step(legal_scores.argmax(axis=1))
        for table in np.flatnonzero(ended & (episodes < plan.held_out_rounds)):
            final = infos["final_rewards"][table]
            wins.append(float(final[0] == final.max()))
            rewards.append(float(final[0]))
    return float(np.mean(wins)), float(np.mean(rewards))


def teacher_played(plan: Plan, teacher: Any) -> tuple[float, float]:
    """(win rate, mean reward) of the teacher itself in seat 0 of the deals ``played`` measures the
    network on, against the same opponents: the mark the network is learning to reach."""
    game = games.load(plan.game)
    seats = [teacher] + [strategy_registry.get(plan.game, plan.opponents)] * (game.num_seats - 1)
    rounds = np.arange(plan.held_out_rounds)
    points = game.play_rounds[default_engine(game)](game.deals(plan.seed + 1, 0, plan.held_out_rounds), seats, rounds)
    final = round_rewards(points.points, game.lower_is_better, "points")
    return float(np.mean(final[:, 0] == final.max(axis=1))), float(final[:, 0].mean())


def keep(folder: Path, plan: Plan, state: Any, step: int, sampler: np.random.Generator, curve: list[dict]) -> None:
    """Write the checkpoint, the policy file and the learning curve (table and plot)."""
    import pandas as pd

    from sim import plots

    checkpoint.save(folder, checkpoint.Saved(state, step, dict(sampler.bit_generator.state), curve), plan.config())
    save_policy(folder / POLICY_FILE, plan.game, *network.layers_of(state[0]))
    table = pd.DataFrame(curve)
    atomic_write_bytes(folder / CURVE_CSV, table.to_csv(index=False).encode())
    plots.draw_learning_curve(folder / CURVE_PNG, table, f"{plan.game}: imitating {plan.teacher}")


def _lineup(plan: Plan, seats: int) -> list[str | None]:
    return [None] + [plan.opponents] * (seats - 1)


# --------------------------------------------------------------------------- positions


def collect(plan: Plan, teacher: Any, folder: Path, progress: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every position of the run: (encoded observations, legal masks, the teacher's actions), collected
    now or read from ``folder`` where an earlier run left them (their actions replayed on the tables)."""
    folder.mkdir(exist_ok=True)
    env = VecEnv(plan.game, plan.envs, opponents=_lineup(plan, games.load(plan.game).num_seats), seed=plan.seed)
    obs, _ = env.reset()
    chunks = []
    bar = progress_bar(plan.steps, "steps", f"positions of {plan.teacher}", progress)
    try:
        for first in range(0, plan.steps, CHUNK_STEPS):
            steps = min(CHUNK_STEPS, plan.steps - first)
            path = folder / f"chunk-{first // CHUNK_STEPS:05d}.npz"
            chunk = _stored_chunk(path, env, steps)
            if chunk is None:
                chunk, obs = _positions(env, obs, teacher, steps, bar.update)
                atomic_write_bytes(path, _chunk_bytes(chunk))
            else:
                for actions in chunk[2].reshape(steps, plan.envs):
                    obs, *_ = env.step(actions)
                bar.update(steps)
            chunks.append(chunk)
    finally:
        bar.close()
    encoded, masks, actions = (np.concatenate(part) for part in zip(*chunks))
    return encoded, masks, actions


Chunk = tuple[np.ndarray, np.ndarray, np.ndarray]


def _positions(env: VecEnv, obs: dict, teacher: Any, steps: int, done: Callable[[], Any]) -> tuple[Chunk, dict]:
    """``steps`` steps of ``env`` from ``obs`` on, the teacher choosing every learner decision: the
    positions (encoded, masks, actions) and the observations after them."""
    encoded, masks, actions = [], [], []
    for _ in range(steps):
        chosen = np.asarray(teacher.choose(env.observations()), dtype=np.int64)
        encoded.append(obs["observation"])
        masks.append(obs["action_mask"])
        actions.append(chosen)
        obs, *_ = env.step(chosen)
        done()
    return (np.concatenate(encoded), np.concatenate(masks), np.concatenate(actions)), obs


def _chunk_bytes(chunk: Chunk) -> bytes:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, encoded=chunk[0], masks=chunk[1], actions=chunk[2])
    return buffer.getvalue()


def _stored_chunk(path: Path, env: VecEnv, steps: int) -> Chunk | None:
    """The positions an earlier run stored at ``path``, if they are whole and fit ``env``; else None
    (collected again)."""
    if not path.exists():
        return None
    rows, game = steps * env.num_envs, env.game
    try:
        with np.load(io.BytesIO(read_bounded(path, MAX_CHUNK_BYTES, "positions")), allow_pickle=False) as archive:
            chunk = archive["encoded"], archive["masks"], archive["actions"]
    except (UnreadableFile, zipfile.BadZipFile, EOFError, ValueError, KeyError, OSError):
        return None
    shapes = [(rows, game.observation_size), (rows, game.num_actions), (rows,)]
    if [part.shape for part in chunk] != shapes or [part.dtype.kind for part in chunk] != ["f", "i", "i"]:
        return None
    legal = chunk[1][np.arange(rows), np.clip(chunk[2], 0, game.num_actions - 1)] > 0
    if not legal.all() or chunk[2].min() < 0 or chunk[2].max() >= game.num_actions:
        return None
    return chunk
