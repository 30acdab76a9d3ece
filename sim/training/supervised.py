"""A network fitted to a teacher's play on the compiled engine: ``cardsim train``.

It learns one of two things (``Plan.learn``): a **policy**, the teacher's choices (imitation), or a
**value**, the outcome of the teacher's play from each position: the margin still to come, the
learner's final margin less its margin in what is scored already (a margin: the learner's reward,
``sim.envs``' points negated where fewer points win, minus the mean of the other seats'), which
``mc``'s learned leaves add to the margin a world has reached (``strategies.policy.SavedValue``).
With ``labels`` (a lookahead strategy, such as ``mc``) the margin a position is labelled with is the
lookahead's estimate there, the mean of its rollouts over sampled worlds, instead of the one episode's
outcome: far less noise, and a target one lookahead better than the play that reached it. An oracle
(``oracle-mc``, Straights and Euchre) labels a position with its lookahead in the true world, bound to
the tables' true records (``VecEnv.true_records``): the open-hand value of the position. With
``auxiliary`` (another labeller, such as ``oracle-mc``) a value network has a second output fitted to
that labeller's margins beside the first (each target at unit spread, the second's squared error
weighted by ``auxiliary_weight``): its hidden layers learn from both, and only the first output is
written.

The run has two phases, each resumable after an interruption with nothing lost:

1. **Positions** (``sim.training.positions``). ``VecEnv`` tables of the game (seed ``seed``) with
   the learner in seat 0 and the ``opponents`` strategy elsewhere; at every learner decision the
   ``teacher`` strategy is asked and its action played (with probability ``explore`` a uniformly
   drawn legal action instead, so the positions also hold what other moves than the teacher's lead
   to), or with a ``player`` that strategy's action (the teacher only says what it would have done:
   a policy imitating the teacher where the player's own play goes, DAgger; ``player`` and
   ``opponents`` the previous policy make it self-play), and the encoded observation, the legal
   actions, the teacher's action, the action played and the episode are kept, and each episode's
   margin when it ends: ``positions/chunk-NNNNN.npz``, a chunk of steps at a time. A resumed run
   replays the played actions to bring its tables back to where they stopped (the teacher is not
   asked again). Positions whose episode is still playing when collection stops have no margin, and
   a value is not fitted to them.
2. **Training.** The last ``HELD_OUT_SHARE`` of the positions are held out; the network is fitted
   to the others by Adam, minibatches drawn by a seeded sampler: on the cross-entropy of the
   teacher's actions among the legal ones (policy), or on the squared error of the margin still to
   come, scaled to unit spread (value). Every ``evaluate_every`` updates it is measured: its held-out loss, and
   for a policy its agreement with the teacher and its own play, greedy, in seat 0 of
   ``held_out_rounds`` rounds of seed ``seed + 1`` (deals the positions never came from) against
   the opponents (its win rate: the share of rounds it scored best, ties included; and its mean
   reward); for a value the held-out error in points and the share of the margins' variance it
   explains. Each measurement writes ``checkpoint.npz``, ``curve.csv`` and ``curve.png``, and the
   network (``policy.npz``, which ``policy:path=`` plays, or ``value.npz``) when its held-out loss
   is the lowest of the run so far.

The same plan and seed give the same positions, network and curve, interrupted or not.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from sim import games
from sim.console import progress_bar
from sim.files import UnreadableFile, atomic_write_bytes, read_bounded
from sim.training import checkpoint, network
from sim.training.asking import deciders_of, held_out_finals
from sim.training.plan import Plan
from sim.training.positions import Positions, collect
from sim.vecenv import VecEnv
from strategies.policy import save_network

TRAINING_LIBRARIES = ("jax", "jaxlib", "optax", "numpy")
HELD_OUT_SHARE = 0.1  # of the positions, the last, for the held-out measurements
MAX_PLAN_BYTES = 1 << 16
CURVE_CSV, CURVE_PNG, PLAN_FILE = "curve.csv", "curve.png", "plan.json"


@dataclass(frozen=True)
class Task:
    """What the network is fitted to: its outputs, its loss over (params, *rows) and the rows."""

    outputs: int
    loss: Callable[..., jax.Array]
    arrays: tuple[np.ndarray, ...]
    """The loss's rows over every position (numpy: a minibatch is taken from them, never a copy of all)."""
    fitted: np.ndarray
    """The numbers of the rows fitted to."""
    checked: tuple[jax.Array, ...]
    scale: float = 1.0
    """Value targets are divided by it while fitting (their spread); the written network multiplies it back."""
    auxiliary_scale: float = 1.0
    """The same for the auxiliary target."""


def train(
    plan: Plan, folder: Path, progress: bool = True, warn: Callable[[str], None] = print, jobs: int = 1
) -> list[dict]:
    """Run ``plan`` in ``folder`` (resuming what is there), its strategies asked by ``jobs`` worker
    processes (the same run whatever their number); returns the learning curve's rows."""
    game = games.load(plan.game)
    deciders = deciders_of(plan)  # a bad strategy refused before the folder is claimed
    folder.mkdir(parents=True, exist_ok=True)
    _claim(folder, plan)
    task = task_of(plan, collect(plan, deciders, folder / "positions", progress, jobs))
    params = network.initial(jax.random.PRNGKey(plan.seed), [game.observation_size, *plan.hidden, task.outputs])
    optimizer = optax.adam(plan.learning_rate)
    state = (params, optimizer.init(params))
    sampler = np.random.default_rng(plan.seed)
    step, curve = 0, []
    mark = teacher_played(plan, deciders.teacher, jobs, progress) if plan.learn == "policy" else None
    saved = checkpoint.latest_good(folder, state, plan.config(), warn)
    if saved is not None:
        state, step, curve = saved.arrays, saved.step, saved.curve
        sampler.bit_generator.state = saved.sampler
    update = _update_function(optimizer, task.loss)
    bar = progress_bar(plan.updates, "updates", f"training {plan.game}'s {plan.learn}", progress, initial=step)
    try:
        while step < plan.updates:
            rows = task.fitted[sampler.integers(0, len(task.fitted), plan.batch)]
            state, loss = update(state, *(part[rows] for part in task.arrays))
            step += 1
            bar.update()
            if step % plan.evaluate_every == 0 or step == plan.updates:
                row = measured(plan, task, state[0], step, float(loss), mark)
                curve.append(row)
                bar.set_postfix({name: f"{row[name]:.3f}" for name in SHOWN[plan.learn]})
                keep(folder, plan, task, state, step, sampler, curve)
    finally:
        bar.close()
    return curve


SHOWN = {"policy": ("loss", "agreement", "win_rate"), "value": ("loss", "held_out_error", "explained")}
"""The curve's columns the progress bar shows."""


def task_of(plan: Plan, positions: Positions) -> Task:
    """The rows the network is fitted to and measured on, the last ``HELD_OUT_SHARE`` held out."""
    held_out = len(positions.actions) - max(1, int(len(positions.actions) * HELD_OUT_SHARE))
    if plan.learn == "policy":
        rows = positions.encoded, positions.masks, positions.actions
        return Task(
            games.load(plan.game).num_actions,
            network.imitation_loss,
            rows,
            np.arange(held_out),
            tuple(jnp.asarray(part[held_out:]) for part in rows),
        )
    to_come = (positions.labels if plan.labels else positions.margins) - positions.scored
    known = np.isfinite(to_come)
    fitted, checked = np.flatnonzero(known[:held_out]), held_out + np.flatnonzero(known[held_out:])
    if not fitted.size or not checked.size:
        raise TooFewEpisodes(
            f"no episode ended in the {'training' if not fitted.size else 'held-out'} positions: "
            "a value run needs more --positions per table (--envs)"
        )
    scale = float(to_come[fitted].std()) or 1.0
    targets, loss, auxiliary_scale = [to_come / scale], network.value_loss, 1.0
    if plan.auxiliary:
        auxiliary = positions.auxiliary - positions.scored
        auxiliary_scale = float(auxiliary[fitted].std()) or 1.0
        targets.append(auxiliary / auxiliary_scale)
        loss = functools.partial(network.value_and_auxiliary_loss, weight=plan.auxiliary_weight)
    return Task(
        len(targets),
        loss,
        (positions.encoded, *targets),
        fitted,
        (jnp.asarray(positions.encoded[checked]), *(jnp.asarray(target[checked]) for target in targets)),
        scale,
        auxiliary_scale,
    )


class TooFewEpisodes(ValueError):
    """A value run whose positions hold no finished episode to learn from (one line)."""


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


def _update_function(optimizer: optax.GradientTransformation, loss_of: Callable[..., jax.Array]) -> Callable[..., Any]:
    """One Adam step on a minibatch: (params, optimizer state), loss."""

    @jax.jit
    def update(state: Any, *rows: jax.Array) -> tuple[Any, jax.Array]:
        params, moments = state
        loss, gradients = jax.value_and_grad(loss_of)(params, *rows)
        changes, moments = optimizer.update(gradients, moments, params)
        return (optax.apply_updates(params, changes), moments), loss

    return update


def measured(plan: Plan, task: Task, params: network.Params, step: int, loss: float, mark: Any) -> dict:
    """The curve's row at ``step``: the training minibatch's loss, the held-out loss, and for a policy
    its agreement with the teacher and its own play on held-out deals beside the teacher's (``mark``),
    for a value its held-out error in points and the share of the margins' variance it explains."""
    row = {"update": step, "loss": loss, "held_out_loss": float(task.loss(params, *task.checked))}
    if plan.learn == "value":
        encoded, *targets = task.checked
        values = network.scores(params, encoded)
        squared = [float(jnp.mean((values[:, output] - target) ** 2)) for output, target in enumerate(targets)]
        explained = 1.0 - squared[0] / float(jnp.var(targets[0]))
        row |= {"held_out_error": np.sqrt(squared[0]) * task.scale, "explained": explained}
        if plan.auxiliary:
            row |= {"auxiliary_error": np.sqrt(squared[1]) * task.auxiliary_scale}
        return row
    win_rate, reward = played(plan, params)
    return row | {
        "agreement": float(network.agreement(params, *task.checked)),
        "win_rate": win_rate,
        "mean_reward": reward,
        "teacher_win_rate": mark[0],
        "teacher_mean_reward": mark[1],
    }


def played(plan: Plan, params: network.Params) -> tuple[float, float]:
    """(win rate, mean reward) of the network, greedy, in seat 0 of the first ``held_out_rounds``
    rounds of seed ``seed + 1`` against the opponents."""
    seats = games.load(plan.game).num_seats
    env = VecEnv(plan.game, min(plan.envs, plan.held_out_rounds), opponents=plan.lineup(seats), seed=plan.seed + 1)
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


def teacher_played(plan: Plan, teacher: Any, jobs: int = 1, progress: bool = False) -> tuple[float, float]:
    """(win rate, mean reward) of the teacher itself in seat 0 of the deals ``played`` measures the
    network on, against the same opponents: the mark the network is learning to reach. Played by
    ``jobs`` worker processes under a progress bar (a lookahead teacher takes minutes)."""
    with progress_bar(plan.held_out_rounds, "deals", f"{plan.teacher} on the held-out deals", progress) as bar:
        final = held_out_finals(plan, teacher, jobs, bar.update)
    return float(np.mean(final[:, 0] == final.max(axis=1))), float(final[:, 0].mean())


def keep(
    folder: Path, plan: Plan, task: Task, state: Any, step: int, sampler: np.random.Generator, curve: list[dict]
) -> None:
    """Write the checkpoint, the learning curve (table, plot and report page) and, when its held-out
    loss is the lowest yet, the network's file: a network that has begun to overfit does not replace a better one.
    A value is judged by its held-out error alone, and written with its first output only (an
    auxiliary output is only learned from)."""
    import pandas as pd

    from sim import page, plots

    checkpoint.save(folder, checkpoint.Saved(state, step, dict(sampler.bit_generator.state), curve), plan.config())
    judged_by = "held_out_error" if plan.learn == "value" else "held_out_loss"
    if curve[-1][judged_by] <= min(row[judged_by] for row in curve):  # the best so far is kept
        weights, biases = network.layers_of(state[0])
        if plan.learn == "value":
            weights[-1], biases[-1] = weights[-1][:, :1] * task.scale, biases[-1][:1] * task.scale
        save_network(folder / plan.network_file, plan.game, weights, biases)
    table = pd.DataFrame(curve)
    atomic_write_bytes(folder / CURVE_CSV, table.to_csv(index=False).encode())
    what = f"imitating {plan.teacher}" if plan.learn == "policy" else f"the value of {plan.teacher}'s play"
    what += f" where {plan.player} plays" if plan.player else ""
    plots.draw_learning_curve(folder / CURVE_PNG, table, f"{plan.game}: {what}")
    settings = [(name.replace("_", " "), _flag_value(value)) for name, value in dataclasses.asdict(plan).items()]
    settings.append(("made with", library_versions()))
    page.write_training_report(folder, command_of(plan, folder), settings, table, plan.learn, f"{plan.game}: {what}")


def library_versions() -> str:
    """The versions of the libraries whose arithmetic a run's network depends on: the same plan trains
    the same bytes with the same versions, and may train other bits (and so, over thousands of
    updates, another network) with others."""
    return ", ".join(f"{name} {metadata.version(name)}" for name in TRAINING_LIBRARIES)


def command_of(plan: Plan, folder: Path) -> str:
    """The ``cardsim train`` command of ``plan`` writing into ``folder``: its settings that are not the defaults."""
    defaults = Plan(plan.game)
    words = ["cardsim", "train", "--game", plan.game]
    for field in dataclasses.fields(Plan):
        value = getattr(plan, field.name)
        if field.name != "game" and value != getattr(defaults, field.name):
            words += ["--" + field.name.replace("_", "-"), _flag_value(value)]
    return " ".join(shlex.quote(word) for word in [*words, "--out", str(folder)])


def _flag_value(value: Any) -> str:
    """A plan's setting as the command line writes it: hidden widths as W,W (0: none)."""
    if isinstance(value, tuple):
        return ",".join(str(width) for width in value) or "0"
    return str(value)
