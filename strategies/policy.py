"""``policy``: a trained agent seated like any strategy, from a saved numpy policy file.

A policy file is a NumPy ``.npz`` archive (read without pickle) holding a small multilayer
perceptron over the game's encoded observation (``Game.encode``, the encoding ``sim.envs`` gives
learners): ``game`` (the game's name), then ``weight_0, bias_0, ..., weight_{k-1}, bias_{k-1}``,
ReLU between layers, the last layer giving one score per action. The policy plays the legal action
with the highest score (the lowest action on ties), so it is deterministic and plays alike on both
engines. A linear policy is the one-layer case. ``save_network`` writes such a file.

A **value file** is the same archive whose last layer gives one number: the value of the position
to the seat to move (``cardsim train --learn value``: the final margin its play reaches), which
``mc``'s learned leaves read (``load_value``).

A file is checked before it plays: every member a .npy array whose header (read before its data)
shows floats in the shapes the game's layers call for, ``MAX_POLICY_BYTES`` in all, and weights small
enough that no score can overflow float32 (``score_bound``). Anything else is refused in one line.

A spec spelled out (``strategies.resolved``, what run ids hash) pins the file's contents with
``sha256=...``: a policy retrained and saved over the same path plays another run, and a pinned
spec refuses a file that has changed.
"""

from __future__ import annotations

import hashlib
import io
import lzma
import math
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Annotated, TypedDict

import numpy as np
from numpy.lib import format as npy

from sim import games
from sim.files import UnreadableFile, atomic_write_bytes, read_bounded
from sim.numbers import clipped, shown
from strategies import DigestOf, StrategyError, register

MAX_POLICY_BYTES = 1 << 28  # a small network's weights; a larger file (or its arrays) is not a policy of this kind
MAX_LAYERS = 64  # far deeper than a policy over one observation needs
MAX_MEMBERS = 2 * MAX_LAYERS + 1  # a weight and a bias per layer, and the game's name
MAX_GAME_NAME = 64  # characters of the game's name
UNICODE_BYTES = 4  # NumPy stores a character of a str array in four bytes
MAX_FLOAT_BYTES = 8  # float16, float32 or float64; the network computes in float32
GAME, NPY = "game", ".npy"
MAX_REASON = 120  # characters of a library's message quoted in ours
# Encoded observations are counts and scores divided by their scale, below 10 in play; 1e9 also covers
# any count a hand-edited save file may hold (gemstones' MAX_COUNT), so a policy passing the bound
# below stays finite on every observation.
MAX_ENCODED = 1e9
# float32's largest value is 3.4e38; the margin covers the rounding of float32 sums.
MAX_SCORE = 1e38
# What reading a damaged archive raises: a bad or truncated zip (BadZipFile, EOFError), a CRC error
# (BadZipFile), corrupt compressed data (zlib.error, LZMAError, bz2's OSError), a compression method
# or encryption zipfile cannot read (NotImplementedError, RuntimeError), a bad .npy header (ValueError).
ARCHIVE_FAULTS = (
    zipfile.BadZipFile,
    EOFError,
    zlib.error,
    lzma.LZMAError,
    OSError,
    NotImplementedError,
    RuntimeError,
    ValueError,
)


class SavedNetwork:
    """A multilayer perceptron over a game's encoded observations, as a file holds it."""

    def __init__(self, game: games.Game, weights: Sequence[np.ndarray], biases: Sequence[np.ndarray]) -> None:
        self.encode = game.encode
        self.weights = [np.asarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.asarray(b, dtype=np.float32) for b in biases]

    def scores(self, encoded: np.ndarray) -> np.ndarray:
        """(n, outputs) the network's outputs for (n, observation_size) inputs."""
        values = encoded
        for layer, (weight, bias) in enumerate(zip(self.weights, self.biases)):
            values = values @ weight + bias
            if layer < len(self.weights) - 1:
                values = np.maximum(values, 0.0)
        return values


class SavedPolicy(SavedNetwork):
    """A policy network: plays the legal action of the highest score."""

    def choose(self, observation) -> np.ndarray:
        scores = self.scores(self.encode(observation))
        return np.where(observation.legal_mask, scores, -np.inf).argmax(axis=1)


class SavedValue(SavedNetwork):
    """A value network: the value of each position to the seat to move."""

    def values(self, encoded: np.ndarray) -> np.ndarray:
        """(n,) float32 the values of (n, observation_size) encoded observations."""
        return self.scores(encoded)[:, 0]


KINDS = {"policy": SavedPolicy, "value": SavedValue}


def load_policy(game_name: str, path: str, sha256: str = "") -> SavedPolicy:
    """The policy saved at ``path`` for ``game_name``; ``StrategyError`` in one line if the file is not
    a policy of that game (missing, not a regular file, not an .npz archive of .npy arrays of floats,
    wrong shapes, too large, weights not finite or so large that scores could overflow) or, when
    ``sha256`` is given, if its contents' SHA-256 is not that."""
    policy = load_network(game_name, path, sha256, "policy")
    assert isinstance(policy, SavedPolicy)
    return policy


def load_value(game_name: str, path: str, sha256: str = "") -> SavedValue:
    """The value network saved at ``path`` for ``game_name``, checked as ``load_policy`` checks a policy."""
    value = load_network(game_name, path, sha256, "value")
    assert isinstance(value, SavedValue)
    return value


def shipped_digest(path: Path) -> str:
    """The SHA-256 (hex) of a network file shipped with the package (a game's ``learned`` names its
    networks by digest, so that a spec spelled out holds no install path)."""
    return hashlib.sha256(read_bounded(path, MAX_POLICY_BYTES, "shipped network")).hexdigest()


class NetworkSettings(TypedDict):
    """A lookahead's settings naming its rollout policy and its leaves' value."""

    rollout: str
    leaves: str
    leaves_sha256: str


def shipped_networks(folder: Path, policy_sha256: str, value_sha256: str) -> NetworkSettings:
    """A lookahead's settings that roll out the policy shipped in ``folder`` (``policy.npz``) to the
    leaves of the value shipped beside it (``value.npz``), each file checked against its digest."""
    return NetworkSettings(
        rollout=f"policy:path={folder / 'policy.npz'},sha256={policy_sha256}",
        leaves=str(folder / "value.npz"),
        leaves_sha256=value_sha256,
    )


def load_network(game_name: str, path: str, sha256: str, kind: str) -> SavedNetwork:
    """The ``kind`` ("policy" or "value") of network saved at ``path`` (see ``load_policy``)."""
    try:
        data = read_bounded(path, MAX_POLICY_BYTES, f"{kind} file")
    except UnreadableFile as error:
        raise StrategyError(f"cannot read {kind} {path}: {error}") from None
    digest = hashlib.sha256(data).hexdigest()
    if sha256 and digest != sha256.lower():
        raise StrategyError(f"{path} has changed since sha256={shown(sha256)} pinned it (its sha256 is now {digest})")
    game = games.load(game_name)
    try:
        weights, biases = read_layers(data, game, kind)
        check_magnitudes(weights, biases)
    except NotAPolicy as error:
        raise StrategyError(f"{path} is not a {kind} file: {error}") from None
    except Misfit as error:
        raise StrategyError(f"{path} {error}") from None
    return KINDS[kind](game, weights, biases)


class NotAPolicy(Exception):
    """The file is not an .npz archive of .npy arrays of floats that a policy can be (one line: why)."""


class Misfit(Exception):
    """A policy file that cannot play this game (one line, said after the file's name)."""


@dataclass(frozen=True)
class Member:
    """One array of the archive as its .npy header describes it, before any of its data is read."""

    name: str
    shape: tuple[int, ...]
    fortran_order: bool
    dtype: np.dtype

    @property
    def nbytes(self) -> int:
        """The bytes its data take (Python integers: a header claiming 144 TiB cannot overflow)."""
        return math.prod(self.shape) * self.dtype.itemsize


def read_layers(data: bytes, game: games.Game, kind: str = "policy") -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The weights and biases of the ``kind`` ("policy" or "value") archive ``data`` for ``game``.

    Every member's .npy header is read first, and its dtype, shape and size are checked against the
    layers the game's encoding and actions call for, so no array is allocated before it is known to
    fit in ``MAX_POLICY_BYTES``. ``NotAPolicy`` or ``Misfit`` says what is wrong.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = {name: read_header(archive, name) for name in member_names(archive)}
            check_game(archive, members, game.name)
            layers = layer_members(members, game, kind)
            total = sum(member.nbytes for member in members.values())
            if total > MAX_POLICY_BYTES:
                raise NotAPolicy(f"its arrays would take {total:,} bytes, more than a policy's {MAX_POLICY_BYTES:,}")
            weights = [read_data(archive, weight) for weight, _ in layers]
            biases = [read_data(archive, bias) for _, bias in layers]
    except ARCHIVE_FAULTS as error:
        raise NotAPolicy(reason(error)) from None
    return weights, biases


def reason(error: BaseException) -> str:
    """What a library said went wrong, for one line: its message's first line, cut short when long."""
    words = str(error).strip().splitlines() or [type(error).__name__]
    return words[0] if len(words[0]) <= MAX_REASON else words[0][:MAX_REASON] + "..."


def member_names(archive: zipfile.ZipFile) -> list[str]:
    """The names of the archive's arrays: every member must be a .npy file."""
    names = archive.namelist()
    if len(names) > MAX_MEMBERS:
        raise NotAPolicy(f"it holds {len(names):,} members; a policy of at most {MAX_LAYERS} layers has {MAX_MEMBERS}")
    strangers = [name for name in names if not name.endswith(NPY)]
    if strangers:
        raise NotAPolicy(f"member {shown(strangers[0])} is not a .npy array")
    return [name.removesuffix(NPY) for name in names]


def read_header(archive: zipfile.ZipFile, name: str) -> Member:
    """The .npy header of the array ``name``: its shape, order and dtype, reading none of its data."""
    with archive.open(name + NPY) as stream:
        return Member(name, *array_header(stream))


def array_header(stream: IO[bytes]) -> tuple[tuple[int, ...], bool, np.dtype]:
    """Shape, Fortran order and dtype from the .npy header at the start of ``stream``, which is left
    at the array's data; ``NotAPolicy`` for a version this reader does not know."""
    version = npy.read_magic(stream)
    if version == (1, 0):
        return npy.read_array_header_1_0(stream)
    if version == (2, 0):
        return npy.read_array_header_2_0(stream)
    raise NotAPolicy(f"its arrays are in .npy format version {version[0]}.{version[1]}, not 1.0 or 2.0")


def read_data(archive: zipfile.ZipFile, member: Member) -> np.ndarray:
    """The array ``member`` describes, once its header has been checked; never a pickle."""
    with archive.open(member.name + NPY) as stream:
        array_header(stream)
        # One byte more than the header promises: a longer member is refused, and reading to its end
        # makes zipfile check the CRC.
        raw = stream.read(member.nbytes + 1)
    if len(raw) != member.nbytes:
        raise NotAPolicy(f"{member.name} holds {len(raw):,} bytes of data where its header says {member.nbytes:,}")
    flat = np.frombuffer(raw, dtype=member.dtype)
    return flat.reshape(member.shape, order="F" if member.fortran_order else "C")


def check_game(archive: zipfile.ZipFile, members: dict[str, Member], game_name: str) -> None:
    """``Misfit`` unless the archive's ``game`` names ``game_name``."""
    game = members.get(GAME)
    if game is None:
        raise Misfit(f"is a policy for no game, not {game_name}")
    if game.dtype.kind != "U" or game.shape != () or game.dtype.itemsize > MAX_GAME_NAME * UNICODE_BYTES:
        raise NotAPolicy(f"its game is not a name of at most {MAX_GAME_NAME} characters")
    saved_for = str(read_data(archive, game)[()])
    if saved_for != game_name:
        raise Misfit(f"is a policy for {clipped(saved_for) or 'no game'}, not {game_name}")


def layer_members(members: dict[str, Member], game: games.Game, kind: str) -> list[tuple[Member, Member]]:
    """Each layer's weight and bias as the headers describe them, checked to be floats whose shapes
    take the game's encoded observation through hidden layers to one score per action (a policy) or
    one value."""
    count = sum(1 for name in members if name.startswith("weight_"))
    try:
        layers = [(members[f"weight_{layer}"], members[f"bias_{layer}"]) for layer in range(count)]
    except KeyError as error:
        raise NotAPolicy(f"no {error.args[0]}") from None
    for member in (member for layer in layers for member in layer):
        if member.dtype.kind != "f" or member.dtype.itemsize > MAX_FLOAT_BYTES:
            raise NotAPolicy(f"{member.name} holds {member.dtype} values, not floating-point numbers")
    widths = [game.observation_size] + [bias.shape[0] if len(bias.shape) == 1 else -1 for _, bias in layers]
    expected = [(widths[layer], widths[layer + 1]) for layer in range(count)]
    shapes = [weight.shape for weight, _ in layers]
    outputs, said = (game.num_actions, f"{game.num_actions} action scores") if kind == "policy" else (1, "one value")
    if not layers or widths[-1] != outputs or min(widths) < 1 or shapes != expected:
        raise Misfit(
            f"does not fit {game.name} as a {kind}: its layers must take {game.observation_size} inputs to "
            f"{said}, got weights {clipped(str(shapes))}"
        )
    return layers


def check_magnitudes(weights: Sequence[np.ndarray], biases: Sequence[np.ndarray]) -> None:
    """``Misfit`` unless every weight and bias is finite and no value the network computes in float32
    can overflow."""
    if not all(np.isfinite(array).all() for array in [*weights, *biases]):
        raise Misfit("holds weights that are not finite numbers")
    if score_bound(weights, biases) > MAX_SCORE:
        raise Misfit(
            f"holds weights so large that its scores could overflow (above {MAX_SCORE:.0e} for encoded "
            f"observations up to {MAX_ENCODED:.0e}); a policy's scores must stay finite"
        )


def score_bound(weights: Sequence[np.ndarray], biases: Sequence[np.ndarray]) -> float:
    """The largest magnitude any layer's values can reach, as float32 weights, for inputs of at most
    ``MAX_ENCODED``: a layer's outputs are at most its inputs' bound times its weights' largest column
    sum of magnitudes, plus its largest bias magnitude (ReLU only lowers them)."""
    bound = largest = MAX_ENCODED
    with np.errstate(over="ignore"):  # a weight beyond float32 becomes inf here, and is refused
        for weight, bias in zip(weights, biases):
            column_sums = np.abs(weight.astype(np.float32)).astype(np.float64).sum(axis=0)
            bound = bound * float(column_sums.max()) + float(np.abs(bias.astype(np.float32)).max())
            largest = max(largest, bound)
    return largest


def save_network(path: str | Path, game_name: str, weights: Sequence[np.ndarray], biases: Sequence[np.ndarray]) -> None:
    """Write a network's file (atomically): a policy that ``policy:path=FILE`` plays, or a value."""
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
