"""What every test shares: the strategy registry as the package leaves it.

A strategy a test registers (a researcher's module, a doc's example, an experiment's variant) would
otherwise stay registered for every later test of the same worker, and change what tests that list
or parametrize over the registry see, depending on which tests ran before them.
"""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import strategies
from sim import games


@contextmanager
def registry_kept() -> Iterator[None]:
    """The strategies and aliases registered inside the block are taken back at its end."""
    tables = (strategies._registry, strategies._aliases)
    kept = [{game: dict(named) for game, named in table.items()} for table in tables]
    yield
    for table, before in zip(tables, kept):
        for game in set(table) - set(before):
            del table[game]
        for game, named in before.items():  # in place: a test may hold a game's table (monkeypatch does)
            table.setdefault(game, {}).clear()
            table[game].update(named)


def _outside_the_package() -> list[str]:
    """The registered strategies whose class was defined outside ``strategies``, as ``game name (origin)``."""
    return sorted(
        f"{game} {name} ({strategies._origin(info.factory)})"
        for game, named in strategies._registry.items()
        for name, info in named.items()
        if not getattr(info.factory, "__module__", "").startswith(f"{strategies.__name__}.")
    )


def pytest_sessionstart(session) -> None:
    # Every game's own strategies registered up front: restoring the registry after a test can then
    # never take back a package module's registrations, which a second import would not make again.
    for game in games.names():
        strategies.available(game)


def pytest_collection_finish(session) -> None:
    """A test module registering a strategy as it is imported leaks it past any fixture: refuse."""
    leaked = _outside_the_package()
    if leaked:
        raise pytest.UsageError(
            "test modules registered strategies as they were imported (register them in a fixture): "
            + ", ".join(leaked)
        )


@pytest.fixture(autouse=True)
def registry_restored():
    """The strategies and aliases a test registers are taken back after it."""
    with registry_kept():
        yield
