"""A run's positions (the first phase of ``cardsim train``, ``sim.training.supervised``): the learner's
decisions on ``VecEnv`` tables, each with the teacher's action, the action played, the labels asked for
and the episode's margin, stored a chunk of steps at a time so that an interrupted run resumes them.

A resumed run replays the stored chunks' played actions to bring its tables back to where they stopped
(the teacher is not asked again); a chunk that is damaged or does not fit the tables is collected again.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from sim import games
from sim.console import progress_bar
from sim.files import UnreadableFile, atomic_write_bytes, read_bounded
from sim.training.asking import Answers, Deciders, ask
from sim.training.plan import Plan
from sim.vecenv import VecEnv

CHUNK_STEPS = 64  # environment steps a positions file holds
MAX_CHUNK_BYTES = 1 << 30


class Positions(NamedTuple):
    """The learner's decisions of a run, row by row."""

    encoded: np.ndarray
    """(n, observation_size) float32 the encoded observations."""
    masks: np.ndarray
    """(n, num_actions) int8 the legal actions."""
    actions: np.ndarray
    """(n,) int64 the teacher's actions (the one played, but where an exploring move was)."""
    margins: np.ndarray
    """(n,) float32 the learner's final margin in the position's episode; NaN if it had not ended."""
    scored: np.ndarray
    """(n,) float32 the learner's margin in what was scored before the position (``VecEnv.scored``)."""
    labels: np.ndarray
    """(n,) float32 the labelling lookahead's margin at the position (NaN without one)."""
    auxiliary: np.ndarray
    """(n,) float32 the auxiliary labeller's margin at the position (NaN without one)."""


class Chunk(NamedTuple):
    """A positions file: ``Positions``' first three arrays, the action played at each position, the
    margin scored before it, its label and its episode, the episodes that ended in the chunk with the
    learner's margin in each, and each position's auxiliary label (last: files written before it
    existed have none, read as NaN)."""

    encoded: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    played: np.ndarray
    scored: np.ndarray
    labels: np.ndarray
    episodes: np.ndarray
    ended: np.ndarray
    margins: np.ndarray
    auxiliary: np.ndarray


def collect(plan: Plan, deciders: Deciders, folder: Path, progress: bool, jobs: int = 1) -> Positions:
    """Every position of the run, collected now or read from ``folder`` where an earlier run left them
    (their actions replayed on the tables), the ``deciders`` asked at each (``asking.ask``: by ``jobs``
    worker processes, the same positions whatever their number)."""
    folder.mkdir(exist_ok=True)
    env = VecEnv(plan.game, plan.envs, opponents=plan.lineup(games.load(plan.game).num_seats), seed=plan.seed)
    obs, infos = env.reset()
    chunks = []
    bar = progress_bar(plan.steps, "steps", f"positions of {plan.teacher}", progress)

    def asked() -> Answers:
        return ask(plan, deciders, env, jobs)

    try:
        for first in range(0, plan.steps, CHUNK_STEPS):
            steps = min(CHUNK_STEPS, plan.steps - first)
            path = folder / f"chunk-{first // CHUNK_STEPS:05d}.npz"
            chunk = _stored_chunk(path, env, steps)
            if chunk is None:
                explorer = Explorer(plan.explore, np.random.default_rng([plan.seed, first]))
                chunk, obs, infos = _positions(env, obs, infos, asked, explorer, steps, bar.update)
                atomic_write_bytes(path, _chunk_bytes(chunk))
            else:
                for actions in chunk.played.reshape(steps, plan.envs):
                    obs, _, _, _, infos = env.step(actions)
                bar.update(steps)
            chunks.append(chunk)
    finally:
        bar.close()
    encoded, masks, actions, _, scored, labels, episodes, ended, margins, auxiliary = _joined(chunks)
    margin_of = np.full(env.next_episode, np.nan, dtype=np.float32)
    margin_of[ended] = margins
    return Positions(encoded, masks, actions, margin_of[episodes], scored, labels, auxiliary)


def _joined(chunks: list[Chunk]) -> Chunk:
    """The chunks as one, emptying ``chunks``: each chunk is let go once copied, since a run's
    positions can be most of the machine's memory and two copies of them would not fit."""
    joined = Chunk(
        *(np.empty((sum(len(part) for part in parts), *parts[0].shape[1:]), parts[0].dtype) for parts in zip(*chunks))
    )
    filled = np.zeros(len(Chunk._fields), dtype=np.int64)
    while chunks:
        for field, (whole, part) in enumerate(zip(joined, chunks.pop(0))):
            whole[filled[field] : filled[field] + len(part)] = part
            filled[field] += len(part)
    return joined


def margins_of(final_rewards: np.ndarray, seat: int = 0) -> np.ndarray:
    """(n,) float32 ``seat``'s final reward minus the mean of the other seats', rows of (n, seats) rewards."""
    others = (final_rewards.sum(axis=1) - final_rewards[:, seat]) / (final_rewards.shape[1] - 1)
    return (final_rewards[:, seat] - others).astype(np.float32)


@dataclass(frozen=True)
class Explorer:
    """Plays a uniformly drawn legal action in place of the teacher's with probability ``share``."""

    share: float
    rng: np.random.Generator

    def played(self, chosen: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """``chosen``, but in each row with probability ``share`` a legal action of ``masks`` drawn uniformly."""
        if not self.share:
            return chosen
        exploring = self.rng.random(len(chosen)) < self.share
        # The k-th legal action of a row for k uniform below its count: the first column whose running count passes k.
        counts = masks.astype(np.int64).cumsum(axis=1)
        picks = (self.rng.random(len(chosen)) * counts[:, -1]).astype(np.int64)
        drawn = (counts <= picks[:, None]).sum(axis=1)
        return np.where(exploring, drawn, chosen)


def _positions(
    env: VecEnv, obs: dict, infos: dict, asked: Callable[[], Answers], explorer: Explorer, steps: int,
    done: Callable[[], Any],
) -> tuple[Chunk, dict, dict]:  # fmt: skip
    """``steps`` steps of ``env`` from ``obs`` on, the deciders ``asked`` at every learner decision and
    the ``explorer`` now and then playing another move: the positions and the observations and infos
    after them."""
    encoded, masks, actions, played, scored, labels, episodes, ended, margins, auxiliary = ([] for _ in Chunk._fields)
    for _ in range(steps):
        answers = asked()
        labels.append(answers.labels)
        auxiliary.append(answers.auxiliary)
        encoded.append(obs["observation"])
        masks.append(obs["action_mask"])
        actions.append(answers.chosen)
        played.append(explorer.played(answers.moved, obs["action_mask"]))
        scored.append(margins_of(env.scored()))
        episodes.append(infos["episode"])
        obs, _, terminated, _, after = env.step(played[-1])
        ended.append(infos["episode"][terminated])
        margins.append(margins_of(after["final_rewards"][terminated]))
        infos = after
        done()
    parts = (encoded, masks, actions, played, scored, labels, episodes, ended, margins, auxiliary)
    return Chunk(*(np.concatenate(part) for part in parts)), obs, infos


def _chunk_bytes(chunk: Chunk) -> bytes:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **chunk._asdict())
    return buffer.getvalue()


def _stored_chunk(path: Path, env: VecEnv, steps: int) -> Chunk | None:
    """The positions an earlier run stored at ``path``, if they are whole and fit ``env``; else None
    (collected again)."""
    if not path.exists():
        return None
    rows, game = steps * env.num_envs, env.game
    try:
        with np.load(io.BytesIO(read_bounded(path, MAX_CHUNK_BYTES, "positions")), allow_pickle=False) as archive:
            unlabelled = np.full(rows, np.nan, dtype=np.float32)  # a file from before auxiliary labels
            stored = {name: archive[name] for name in Chunk._fields[:-1]}
            chunk = Chunk(**stored, auxiliary=archive.get("auxiliary", unlabelled))
    except (UnreadableFile, zipfile.BadZipFile, EOFError, ValueError, KeyError, OSError):
        return None
    shapes = [(rows, game.observation_size), (rows, game.num_actions), *[(rows,)] * 5]
    if [part.shape for part in chunk[:7]] != shapes or [part.dtype.kind for part in chunk] != list("fiiiffiiff"):
        return None
    if chunk.auxiliary.shape != (rows,):
        return None
    if chunk.ended.shape != chunk.margins.shape or chunk.ended.ndim != 1:
        return None
    for actions in (chunk.actions, chunk.played):
        legal = chunk.masks[np.arange(rows), np.clip(actions, 0, game.num_actions - 1)] > 0
        if not legal.all() or actions.min() < 0 or actions.max() >= game.num_actions:
            return None
    if chunk.episodes.min() < 0 or chunk.ended.size and chunk.ended.min() < 0:
        return None
    if (
        max(chunk.episodes.max(), chunk.ended.max(initial=0)) >= env.next_episode + rows
    ):  # a table deals at most one a step
        return None
    return chunk
