"""What every game's observation encoding is made of: one-hot columns, seats counted from the viewer,
and slices laid side by side as the game's documented layout says.

An encoding (``Game.encode``) turns a batch of observations into a float32 array of shape (n,
``Game.observation_size``) for learning agents (``sim.envs``). Each game declares its ``ENCODING``, a
``Layout``: the width and meaning of each slice in order, which its docs page lists with offsets.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

Layout = tuple[tuple[int, str], ...]
"""(width, meaning) of each slice of an encoding, in order."""

Observed = TypeVar("Observed")
_WRITTEN = "_written_encoding"  # the attribute an engine's encoding rides on


def size(layout: Layout) -> int:
    """The encoding's width: the slices' widths added up."""
    return sum(width for width, _ in layout)


def slices(layout: Layout) -> list[tuple[int, int, str]]:
    """(offset, width, meaning) of each slice, as the docs pages list them."""
    offsets = np.cumsum([0] + [width for width, _ in layout])
    return [(int(offset), width, meaning) for offset, (width, meaning) in zip(offsets, layout)]


def one_hot(values: np.ndarray, width: int) -> np.ndarray:
    """(*values.shape, width) float32: 1 in each value's column; all zeros for a negative value (``NONE``)."""
    return (np.asarray(values)[..., None] == np.arange(width)).astype(np.float32)


def from_seat(per_seat: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """``per_seat`` (n, seats, ...) with its seat axis turned so that column k is seat ``(seat + k) %
    seats`` of that row: the viewer's own first, then the seats after it in turn order (for a partnership
    game's (n, teams) arrays with ``seat`` the viewer's team: its own team first)."""
    seats = per_seat.shape[1]
    order = (np.asarray(seat)[:, None] + np.arange(seats)) % seats
    return np.take_along_axis(per_seat, order.reshape(order.shape + (1,) * (per_seat.ndim - 2)), axis=1)


def seats_after(seats: np.ndarray, seat: np.ndarray, num_seats: int) -> np.ndarray:
    """Each seat number in ``seats`` (n,) as the places after the viewer ``seat`` (0: the viewer itself);
    a negative one (``NONE``) stays negative."""
    return np.where(seats < 0, seats, (seats - seat) % num_seats)


def concatenate(parts: Sequence[np.ndarray], layout: Layout) -> np.ndarray:
    """(n, size(layout)) float32: each part (n, ...) flattened row by row, side by side in layout order;
    ``ValueError`` when a part's width is not its slice's (the code and the docs' layout disagree)."""
    rows = len(parts[0])
    flat = [np.asarray(part, dtype=np.float32).reshape(rows, -1) for part in parts]
    widths = [part.shape[1] for part in flat]
    if widths != [width for width, _ in layout]:
        raise ValueError(f"an encoding's slices are {widths} wide, its layout says {[w for w, _ in layout]}")
    return np.concatenate(flat, axis=1)


def attach(observation: Observed, encoded: np.ndarray) -> Observed:
    """``observation`` carrying ``encoded``: its rows as the game's encoding lays them out, written by
    the engine that made it (a fast engine's compiled encoder, from its state, bit for bit what the
    game's ``encode`` computes and 15-20 times faster), which the game's ``encode`` then returns."""
    object.__setattr__(observation, _WRITTEN, encoded)  # observations are frozen records
    return observation


def reads_attached(encode: Callable[[Any], np.ndarray]) -> Callable[[Any], np.ndarray]:
    """A game's ``encode``, returning the encoding an engine attached to an observation (``attach``)
    rather than computing it again: a network seated on a fast engine reads what the kernel wrote."""

    @functools.wraps(encode)
    def encode_or_read(observation: Any) -> np.ndarray:
        attached = getattr(observation, _WRITTEN, None)
        return encode(observation) if attached is None else attached

    return encode_or_read
