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
