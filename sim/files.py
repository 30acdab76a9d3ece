"""Atomic file writes, shared by everything that saves a user's game or results."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so readers see the old file or the new one, never a part of either.

    The data go to a temporary file in the same folder, are flushed to disk, then renamed over
    ``path``; on any failure the temporary file is removed and ``path`` is untouched.
    """
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class UnreadableFile(ValueError):
    """A file that cannot be read, or is larger than the reader accepts; the message says which."""


def read_bounded(path: str | os.PathLike[str], limit: int, what: str = "file") -> bytes:
    """The bytes of ``path``, reading no more than ``limit`` + 1 so a huge file cannot exhaust memory.

    Raises ``UnreadableFile`` with one line for people: the system's reason, or that the file is
    too large to be a ``what``.
    """
    try:
        with open(path, "rb") as stream:
            data = stream.read(limit + 1)
    except OSError as error:
        raise UnreadableFile(error.strerror or str(error)) from None
    if len(data) > limit:
        raise UnreadableFile(f"file is too large to be a {what}")
    return data
