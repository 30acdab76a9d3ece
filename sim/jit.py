"""The project's numba decorator: ``jit.njit``, numba's own, with a disk cache that cannot go stale.

numba keys a cached function by the source of its own file alone, so a kernel that inlines a helper
from another file kept its old machine code after that helper changed, until ``__pycache__`` was
cleared. Every function of ours compiled through this module is cached under a stamp of its own
file *and* of every file of this project it reaches by imports (``source_files``): editing any of
them compiles it again. Functions of other projects keep numba's own cache keys.

Import ``njit`` from here rather than from numba, so the locator is in place before any decorator runs.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path
from typing import Any

import numba
from numba.core import caching, config

PACKAGES = {"sim", "strategies"}
"""The top-level packages whose compiled functions this cache keys by their imports (a test adds its own)."""


def _package_of(module_name: str | None) -> bool:
    return bool(module_name) and str(module_name).split(".")[0] in PACKAGES


def _root(module_name: str, file: str) -> Path:
    """The folder holding the top-level package of module ``module_name``, whose source is ``file``."""
    path = Path(file).resolve()
    depth = module_name.count(".") + (path.name == "__init__.py")
    return path.parents[depth]


@functools.cache
def _module_file(root: Path, name: str) -> Path | None:
    """The source file of module ``name`` under ``root`` (a package's ``__init__.py``), if there is one."""
    path = root.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


# A module-level import statement: ``import a.b, c`` or ``from a.b import c, d`` (parenthesized lines too).
_IMPORT = re.compile(r"^(?:import[ \t]+([\w., \t]+)|from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+))", re.M)


@functools.cache
def _imports(path: Path, mtime_ns: int) -> tuple[str, ...]:
    """This project's modules that the file at ``path`` imports at module level (where compiled code
    finds its globals), read from its source, so the same whatever has been imported so far. A name
    imported from a module may be a module itself (``from sim import jit``): both are listed."""
    names: set[str] = set()
    for imported, source, members in _IMPORT.findall(path.read_text()):
        if imported:
            names.update(name.split(" as ")[0].strip() for name in imported.split(","))
            continue
        names.add(source)
        for member in members.strip("()").replace("\n", ",").split(","):
            member = member.split("#")[0].split(" as ")[0].strip()
            if member:
                names.add(f"{source}.{member}")
    return tuple(sorted(name for name in names if _package_of(name)))


@functools.cache
def source_files(root: Path, module_name: str) -> tuple[Path, ...]:
    """The files under ``root`` of ``module_name`` and of every module of ``PACKAGES`` it reaches by
    module-level imports (their packages' ``__init__.py`` too), sorted."""
    files: set[Path] = set()
    waiting = [module_name]
    while waiting:
        name = waiting.pop()
        parts = name.split(".")
        for depth in range(1, len(parts) + 1):  # importing a.b.c runs a and a.b first
            file = _module_file(root, ".".join(parts[:depth]))
            if file is None or file in files:
                continue
            files.add(file)
            waiting.extend(_imports(file, file.stat().st_mtime_ns))
    return tuple(sorted(files))


@functools.cache
def _digest(path: str, mtime_ns: int, size: int) -> bytes:
    """The SHA-256 of a file's contents, read once for each (modification time, size) it has."""
    return hashlib.sha256(Path(path).read_bytes()).digest()


@functools.cache
def sources_stamp(root: Path, files: tuple[Path, ...]) -> str:
    """One digest of the contents of ``files``: changes when any of them does."""
    combined = hashlib.sha256()
    for file in files:
        status = os.stat(file)
        combined.update(
            str(file.relative_to(root)).encode() + b"\0" + _digest(str(file), status.st_mtime_ns, status.st_size)
        )
    return combined.hexdigest()


class ImportsKeyedLocator(caching.InTreeCacheLocator):
    """numba's cache beside the source (or in ``NUMBA_CACHE_DIR``), stamped by every file of ours the
    function's module imports, not by its own file alone."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        super().__init__(py_func, py_file)
        self._module = py_func.__module__
        self._root = _root(self._module, py_file)
        cache_dir = getattr(config, "CACHE_DIR", "")  # set from NUMBA_CACHE_DIR
        if cache_dir:
            self._cache_path = os.path.join(cache_dir, self.get_suitable_cache_subpath(py_file))

    def get_source_stamp(self) -> str:
        return sources_stamp(self._root, source_files(self._root, self._module))

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if not _package_of(getattr(py_func, "__module__", None)):
            return None
        return super().from_function(py_func, py_file)


if ImportsKeyedLocator not in caching.CacheImpl._locator_classes:
    caching.CacheImpl._locator_classes.insert(0, ImportsKeyedLocator)

njit = numba.njit
