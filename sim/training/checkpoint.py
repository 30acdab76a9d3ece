"""What a training run keeps to resume: the network's and the optimizer's arrays, the step, the
sampler's state and the learning curve so far, in one ``.npz`` (no pickle) written atomically, the
one before it kept beside it. A checkpoint that cannot be read or does not fit the run is named in
one line and the run resumes from the one before (or from the start when neither is good).
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jax
import numpy as np

from sim.files import UnreadableFile, atomic_write_bytes, read_bounded

MAX_CHECKPOINT_BYTES = 1 << 30  # a network a 2-core machine trains, its optimizer's moments and its curve
LATEST, PREVIOUS = "checkpoint.npz", "checkpoint.previous.npz"
STATE = "state.json"  # the member holding the step, the sampler's state, the curve and the run's config


class BadCheckpoint(ValueError):
    """A checkpoint that cannot be read or does not fit the run (one line: which and why)."""


@dataclass
class Saved:
    """A run's state at a checkpoint: the trained arrays (the network's and the optimizer's, as
    ``jax.tree_util`` flattens them), the updates made, the sampler's state and the curve's rows."""

    arrays: Any
    step: int
    sampler: dict
    curve: list[dict]


def save(folder: Path, saved: Saved, config: dict) -> None:
    """Write ``saved`` as the latest checkpoint of the run in ``folder``, keeping the one before."""
    leaves = jax.tree_util.tree_leaves(saved.arrays)
    members = {f"leaf_{index}": np.asarray(leaf) for index, leaf in enumerate(leaves)}
    state = {"config": config, "step": saved.step, "sampler": saved.sampler, "curve": saved.curve}
    members[STATE.removesuffix(".json")] = np.array(json.dumps(state))
    buffer = io.BytesIO()
    np.savez(buffer, **members)  # type: ignore[arg-type]
    latest = folder / LATEST
    if latest.is_file():
        latest.replace(folder / PREVIOUS)
    atomic_write_bytes(latest, buffer.getvalue())


def load(path: Path, template: Any, config: dict) -> Saved:
    """The checkpoint at ``path``, its arrays shaped as ``template``'s (a fresh run's network and
    optimizer state); ``BadCheckpoint`` if it cannot be read, was made by another configuration, or
    its arrays do not fit."""
    try:
        data = read_bounded(path, MAX_CHECKPOINT_BYTES, "checkpoint")
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            members = {name: archive[name] for name in archive.files}
        state = json.loads(str(members.pop(STATE.removesuffix(".json"))))
    except (UnreadableFile, zipfile.BadZipFile, EOFError, ValueError, KeyError, OSError) as error:
        raise BadCheckpoint(f"{path} is not a readable checkpoint ({str(error).splitlines()[0][:120]})") from None
    if not isinstance(state, dict) or state.get("config") != config:
        raise BadCheckpoint(f"{path} was made by another configuration of the run; start it in another --out")
    leaves, tree = jax.tree_util.tree_flatten(template)
    stored = [members.get(f"leaf_{index}") for index in range(len(leaves))]
    fits = len(members) == len(leaves) and all(
        array is not None and array.shape == np.shape(leaf) and array.dtype == np.asarray(leaf).dtype
        for array, leaf in zip(stored, leaves)
    )
    if not fits or not all(
        np.isfinite(array).all() for array in stored if array is not None and array.dtype.kind == "f"
    ):
        raise BadCheckpoint(f"{path} does not hold this run's network and optimizer (shapes, types or values)")
    try:
        step, sampler, curve = int(state["step"]), dict(state["sampler"]), list(state["curve"])
    except (KeyError, TypeError, ValueError):
        raise BadCheckpoint(f"{path} has no step, sampler state or curve") from None
    return Saved(jax.tree_util.tree_unflatten(tree, stored), step, sampler, curve)


def latest_good(folder: Path, template: Any, config: dict, warn: Any) -> Saved | None:
    """The newest checkpoint in ``folder`` that is good, saying in one line (``warn``) each that is
    not; None when there is none."""
    for name in (LATEST, PREVIOUS):
        path = folder / name
        if not path.exists():
            continue
        try:
            return load(path, template, config)
        except BadCheckpoint as error:
            warn(f"{error}; resuming from the checkpoint before it" if name == LATEST else str(error))
    return None
