"""The strategy registry: every game's strategies by name, with parameters.

A strategy is an object with a ``choose(observation) -> np.ndarray`` method that takes a batch of
observations (one per round in which a seat it plays is to move) and returns one action per round.
The reference engine calls it with a batch of one, so the same code serves both engines.

Strategies register with ``@register(game, name)`` on a class (or any factory) whose keyword
parameters, all with defaults, are its settings. ``get(game, "mc:samples=64,rollout=heuristic")``
builds one. Third-party packages add strategies through the entry-point group
``cardsim.strategies``: each entry point names a module (or object) that registers on import.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol

import numpy as np

ENTRY_POINT_GROUP = "cardsim.strategies"


class Strategy(Protocol):
    """A batched player: observations of n rounds in, n actions out."""

    def choose(self, observation: Any) -> np.ndarray: ...


class StrategyError(ValueError):
    """An unknown strategy name or a bad parameter in a strategy spec."""


@dataclass(frozen=True)
class StrategyInfo:
    """A registered strategy: how to build it and what to tell users about it."""

    game: str
    name: str
    factory: Callable[..., Strategy]
    deterministic: bool
    cheating: bool

    @property
    def description(self) -> str:
        """The first line of the factory's docstring."""
        doc = inspect.getdoc(self.factory) or ""
        return doc.splitlines()[0] if doc else ""

    @property
    def parameters(self) -> dict[str, Any]:
        """The strategy's settings and their defaults."""
        return {
            name: parameter.default
            for name, parameter in inspect.signature(self.factory).parameters.items()
            if parameter.default is not inspect.Parameter.empty
        }


_registry: dict[str, dict[str, StrategyInfo]] = {}
_aliases: dict[str, dict[str, str]] = {}
_plugins_loaded = False


def register(game: str, name: str, *, deterministic: bool = True, cheating: bool = False):
    """Class decorator: register ``factory`` as strategy ``name`` of ``game``."""

    def decorate(factory: Callable[..., Strategy]):
        _registry.setdefault(game, {})[name] = StrategyInfo(game, name, factory, deterministic, cheating)
        return factory

    return decorate


def register_alias(game: str, alias: str, target: str) -> None:
    """Make ``alias`` another name for strategy ``target`` (e.g. ``best``)."""
    _aliases.setdefault(game, {})[alias] = target


def _load(game: str) -> None:
    global _plugins_loaded
    try:
        importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{game}":
            raise
    if not _plugins_loaded:
        _plugins_loaded = True
        for entry_point in entry_points(group=ENTRY_POINT_GROUP):
            entry_point.load()


def available(game: str) -> list[StrategyInfo]:
    """Every strategy registered for ``game``, by name."""
    _load(game)
    return sorted(_registry.get(game, {}).values(), key=lambda info: info.name)


def aliases(game: str) -> dict[str, str]:
    """The aliases of ``game``'s strategies (alias → strategy name)."""
    _load(game)
    return dict(_aliases.get(game, {}))


def info(game: str, name: str) -> StrategyInfo:
    """The registration of strategy ``name`` (an alias resolved) of ``game``."""
    _load(game)
    name = _aliases.get(game, {}).get(name, name)
    try:
        return _registry[game][name]
    except KeyError:
        known = ", ".join(s.name for s in available(game)) or "none"
        raise StrategyError(f"unknown {game} strategy {name!r} (known: {known})") from None


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:key=value,key=value"`` into the name and the raw settings."""
    name, _, settings_text = spec.strip().partition(":")
    settings: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in settings_text.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise StrategyError(f"bad strategy setting {item!r} in {spec!r} (expected key=value)")
        settings[key.strip()] = value.strip()
    return name.strip(), settings


def _convert(value: str, default: Any, key: str, spec: str) -> Any:
    try:
        if isinstance(default, bool):
            if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(value)
            return value.lower() in ("true", "1", "yes")
        if isinstance(default, int):
            return int(value)
        if isinstance(default, float):
            return float(value)
    except ValueError:
        raise StrategyError(f"bad value {value!r} for {key} in {spec!r} ({type(default).__name__} expected)") from None
    return value


def get(game: str, spec: str) -> Strategy:
    """Build the strategy a spec such as ``"mc:samples=64"`` names; its ``name`` is the spec."""
    name, raw_settings = parse_spec(spec)
    registration = info(game, name)
    defaults = registration.parameters
    settings = {}
    for key, value in raw_settings.items():
        if key not in defaults:
            known = ", ".join(defaults) or "none"
            raise StrategyError(f"{registration.name} has no setting {key!r} (settings: {known})")
        settings[key] = _convert(value, defaults[key], key, spec)
    strategy = registration.factory(**settings)
    strategy.name = spec.strip()
    return strategy
