"""Files a person hands in or asks for: bounded reads of regular files only, atomic writes that
respect the umask, and output folders checked before any work is done."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

# What a new file gets before the umask, as open() and every ordinary tool create files.
NEW_FILE_MODE = 0o666


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
            os.fchmod(stream.fileno(), NEW_FILE_MODE & ~current_umask())  # mkstemp's 0600 is for the draft only
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def current_umask() -> int:
    """The process's file-creation mask (reading it means setting it, so it is set straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class UnreadableFile(ValueError):
    """A file that cannot be read, is not a regular file, or is larger than the reader accepts;
    the message says which in one line."""


class CannotOpen(UnreadableFile):
    """The file could not be opened at all (missing, no permission): the system's reason."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket" if stat.S_ISSOCK(mode) else "something other than a file"


def read_bounded(path: str | os.PathLike[str], limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, reading no more than ``limit`` + 1 so a huge file
    cannot exhaust memory.

    Directories, pipes and devices are refused before a byte is read (the file is opened without
    blocking, so a FIFO with no writer cannot hang the reader). Raises ``UnreadableFile`` with one
    line for people: the system's reason, what the path is instead of a file, or that the file is
    too large to be a ``what``.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError) as error:  # ValueError: a path with a NUL byte
        raise CannotOpen(getattr(error, "strerror", None) or str(error)) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise UnreadableFile(f"it is {_kind(mode)}, not a {what}")
        with os.fdopen(descriptor, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)
    except OSError as error:
        raise UnreadableFile(error.strerror or str(error)) from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise UnreadableFile(f"file is too large to be a {what}")
    return data


def check_replaceable(path: str | os.PathLike[str], limit: int, is_kind: Callable[[bytes], bool], what: str) -> None:
    """Nothing when ``path`` does not exist or holds a ``what`` (``is_kind`` of its bytes, read as
    ``read_bounded`` reads them); else ``FileExistsError`` saying so in one line (its ``strerror``),
    as writing over it would destroy a file of another kind: ``save notes.txt`` must not eat notes."""
    if not os.path.lexists(path):
        return
    try:
        ours = is_kind(read_bounded(path, limit, what))
    except UnreadableFile:
        ours = False
    if not ours:
        raise FileExistsError(errno.EEXIST, f"it exists and is not a {what}", os.fspath(path))


class UnwritableFolder(ValueError):
    """An output folder that cannot be made or written in; the message is one line for people."""


def writable_folder(path: str | os.PathLike[str]) -> Path:
    """``path`` as a folder that exists and this process may write in, made (with parents) if missing.

    Raises ``UnwritableFolder`` naming the path and the reason: an existing file in the way, a
    read-only or impossible place (``/proc/x``), no permission.
    """
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise UnwritableFolder(f"{folder} exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UnwritableFolder(f"cannot create folder {folder}: {error.strerror or error}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UnwritableFolder(f"cannot write in folder {folder}: permission denied")
    return folder
