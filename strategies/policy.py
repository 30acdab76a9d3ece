"""``policy``: a trained agent seated like any strategy, from a saved numpy policy file.

A policy file is a NumPy ``.npz`` archive (read without pickle) holding a small multilayer
perceptron over the game's encoded observation (``Game.encode``, the encoding ``sim.envs`` gives
learners): ``game`` (the game's name), then ``weight_0, bias_0, ..., weight_{k-1}, bias_{k-1}``,
ReLU between layers, the last layer giving one score per action. The policy plays the legal action
with the highest score (the lowest action on ties), so it is deterministic and plays alike on both
engines. A linear policy is the one-layer case. ``save_policy`` writes such a file.

A spec spelled out (``strategies.resolved``, what run ids hash) pins the file's contents with
``sha256=...``: a policy retrained and saved over the same path plays another run, and a pinned
spec refuses a file that has changed.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import numpy as np

from sim import games
from sim.files import UnreadableFile, atomic_write_bytes, read_bounded
from sim.numbers import shown
from strategies import DigestOf, StrategyError, register

MAX_POLICY_BYTES = 1 << 28  # a small network's weights; a larger file is not a policy of this kind


class SavedPolicy:
    """A multilayer perceptron from encoded observations to action scores, masked to the legal ones."""

    def __init__(self, game: games.Game, weights: Sequence[np.ndarray], biases: Sequence[np.ndarray]) -> None:
        self.encode = game.encode
        self.weights = [np.asarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.asarray(b, dtype=np.float32) for b in biases]

    def scores(self, encoded: np.ndarray) -> np.ndarray:
        """(n, num_actions) the network's score of every action for (n, observation_size) inputs."""
        values = encoded
        for layer, (weight, bias) in enumerate(zip(self.weights, self.biases)):
            values = values @ weight + bias
            if layer < len(self.weights) - 1:
                values = np.maximum(values, 0.0)
        return values

    def choose(self, observation) -> np.ndarray:
        scores = self.scores(self.encode(observation))
        return np.where(observation.legal_mask, scores, -np.inf).argmax(axis=1)


def load_policy(game_name: str, path: str, sha256: str = "") -> SavedPolicy:
    """The policy saved at ``path`` for ``game_name``; ``StrategyError`` in one line if the file is not
    a policy of that game (missing, not a regular file, not an .npz archive, wrong shapes) or, when
    ``sha256`` is given, if its contents' SHA-256 is not that."""
    try:
        data = read_bounded(path, MAX_POLICY_BYTES, "policy file")
    except UnreadableFile as error:
        raise StrategyError(f"cannot read policy {path}: {error}") from None
    digest = hashlib.sha256(data).hexdigest()
    if sha256 and digest != sha256.lower():
        raise StrategyError(f"{path} has changed since sha256={shown(sha256)} pinned it (its sha256 is now {digest})")
    try:
        archive = np.load(io.BytesIO(data), allow_pickle=False)
        arrays = {name: archive[name] for name in archive.files}
    except (ValueError, OSError, EOFError) as error:  # not an .npz archive, or one holding objects
        raise StrategyError(f"{path} is not a policy file: {error}") from None
    game = games.load(game_name)
    saved_for = str(arrays.get("game", ""))
    if saved_for != game_name:
        raise StrategyError(f"{path} is a policy for {saved_for or 'no game'}, not {game_name}")
    layers = sum(1 for name in arrays if name.startswith("weight_"))
    try:
        weights = [arrays[f"weight_{layer}"] for layer in range(layers)]
        biases = [arrays[f"bias_{layer}"] for layer in range(layers)]
    except KeyError as error:
        raise StrategyError(f"{path} is not a policy file: no {error.args[0]}") from None
    widths = [game.observation_size] + [bias.shape[0] if bias.ndim == 1 else -1 for bias in biases]
    expected = [(widths[layer], widths[layer + 1]) for layer in range(layers)]
    if not layers or widths[-1] != game.num_actions or [w.shape for w in weights] != expected:
        raise StrategyError(
            f"{path} does not fit {game_name}: its layers must take {game.observation_size} inputs to "
            f"{game.num_actions} action scores, got weights {[w.shape for w in weights]}"
        )
    if not all(np.isfinite(array).all() for array in weights + biases):
        raise StrategyError(f"{path} holds weights that are not finite numbers")
    return SavedPolicy(game, weights, biases)


def save_policy(path: str | Path, game_name: str, weights: Sequence[np.ndarray], biases: Sequence[np.ndarray]) -> None:
    """Write a policy file (atomically) that ``policy:path=FILE`` plays."""
    arrays = {"game": np.array(game_name)}
    for layer, (weight, bias) in enumerate(zip(weights, biases)):
        arrays[f"weight_{layer}"] = np.asarray(weight, dtype=np.float32)
        arrays[f"bias_{layer}"] = np.asarray(bias, dtype=np.float32)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    atomic_write_bytes(Path(path), buffer.getvalue())


def register_for(game_name: str) -> None:
    """Register ``policy`` as a strategy of ``game_name`` (each game's strategies package calls it)."""

    @register(game_name, "policy")
    def policy(
        path: str, sha256: Annotated[str, DigestOf("path", MAX_POLICY_BYTES, "policy file")] = ""
    ) -> SavedPolicy:
        """A trained agent: plays the policy file path=FILE (sha256=HEX pins its contents; docs/environments.md)."""
        return load_policy(game_name, path, sha256)
