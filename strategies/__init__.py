"""The strategy registry: every game's strategies by name, with parameters.

A strategy is an object with a ``choose(observation) -> np.ndarray`` method that takes a batch of
observations (one per round in which a seat it plays is to move) and returns one action per round.
The reference engine calls it with a batch of one, so the same code serves both engines.

Strategies register with ``@register(game, name)`` on a class (or any factory) whose keyword
parameters, all with defaults, are its settings. A setting's type is its default's; a range or a
set of choices is declared in its annotation, ``seed: Annotated[int, Between(0, SEED_MAX)] = 0``,
and every value is checked when the spec is read, so a bad one fails before any game starts.
``get(game, "mc:samples=64,rollout=heuristic")`` builds one. Third-party packages add strategies
through the entry-point group ``cardsim.strategies``: each entry point names a module (or object)
that registers on import.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import inspect
import json
import os
import sys
import typing
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from sim.api import Strategy
from sim.dealing import MAX_SEED
from sim.files import UnreadableFile, atomic_write_bytes, read_bounded
from sim.numbers import NumberError, clipped, parse_float, parse_int, shown

ENTRY_POINT_GROUP = "cardsim.strategies"
SEED_MAX = MAX_SEED  # strategies' seeds are deal seeds' kind of number
DEFAULT_INT_LIMIT = 10**18  # a whole-number setting without a declared range stays within int64
MAX_STRATEGY_SOURCE_BYTES = 1 << 24  # a module of strategies is source code, not data
MAX_SPEC_NESTING = 16  # specs within a spec (each builds its strategy in turn): far fewer than Python's stack allows
LISTING_FILE = Path(__file__).parent / "__pycache__" / "listing.json"
"""The strategies ``listing`` read from the registry, with the sources it read them from: listing them
again reads this file instead of importing every strategy and its compiled code."""
MAX_LISTING_BYTES = 1 << 20  # names, first lines of docstrings and defaults: a few kilobytes a game
LISTED_TYPES = (bool, int, float, str, type(None))  # the defaults a listing's JSON gives back as they were


class StrategyError(ValueError):
    """An unknown strategy name or a bad parameter in a strategy spec."""


@dataclass(frozen=True)
class Between:
    """Annotation of a number setting: its value must be from ``low`` to ``high`` inclusive."""

    low: float
    high: float


@dataclass(frozen=True)
class OneOf:
    """Annotation of a text setting: its value must be one of ``choices``."""

    choices: tuple[str, ...]


@dataclass(frozen=True)
class NestedSpec:
    """Annotation of a text setting whose value is itself a strategy spec of the same game, such as
    ``mc``'s ``rollout``: ``resolved`` spells it out in turn."""


@dataclass(frozen=True)
class DigestOf:
    """Annotation of a text setting holding the SHA-256 (hex) of the file another setting names,
    such as ``policy``'s ``sha256`` of its ``path``: ``resolved`` fills it in when left empty, so a
    spec spelled out names the file's contents and not only its path (a retrained policy saved over
    the old file plays another run), and the strategy refuses a file whose digest is not the one given."""

    setting: str
    limit: int
    """The most bytes such a file may hold (``read_bounded``'s limit)."""
    what: str
    """What the file is, for messages: "policy file"."""


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

    @property
    def required(self) -> tuple[str, ...]:
        """The settings the strategy cannot do without (no default), given as text: ``policy``'s path."""
        return tuple(
            name
            for name, parameter in inspect.signature(self.factory).parameters.items()
            if parameter.default is inspect.Parameter.empty
        )

    @property
    def limits(self) -> dict[str, Between | OneOf]:
        """The declared range or choices of each setting that has one."""
        return {
            name: limit
            for name, annotations in self._annotations().items()
            for limit in annotations
            if isinstance(limit, (Between, OneOf))
        }

    @property
    def nested_specs(self) -> tuple[str, ...]:
        """The settings whose values are strategy specs (annotated ``NestedSpec``)."""
        return tuple(
            name
            for name, annotations in self._annotations().items()
            if any(isinstance(annotation, NestedSpec) for annotation in annotations)
        )

    @property
    def digests(self) -> dict[str, DigestOf]:
        """The settings holding a file's digest (annotated ``DigestOf``)."""
        return {
            name: annotation
            for name, annotations in self._annotations().items()
            for annotation in annotations
            if isinstance(annotation, DigestOf)
        }

    def _annotations(self) -> dict[str, tuple[Any, ...]]:
        """Each setting's ``Annotated`` metadata."""
        function = self.factory.__init__ if inspect.isclass(self.factory) else self.factory
        hints = typing.get_type_hints(function, include_extras=True)
        return {name: getattr(hint, "__metadata__", ()) for name, hint in hints.items()}


_registry: dict[str, dict[str, StrategyInfo]] = {}
_aliases: dict[str, dict[str, str]] = {}
_plugins_loaded = False


def register(game: str, name: str, *, deterministic: bool = True, cheating: bool = False):
    """Class decorator: register ``factory`` as strategy ``name`` of ``game``."""

    def decorate(factory: Callable[..., Strategy]):
        registered = _registry.setdefault(game, {})
        # The same definition again is a module reloaded (Dask's upload_file imports, then reloads).
        reloaded = name in registered and _origin(registered[name].factory) == _origin(factory)
        if not reloaded and (name in registered or name in _aliases.get(game, {})):
            taken_by = registered[name].factory if name in registered else f"an alias of {_aliases[game][name]}"
            raise StrategyError(
                f"{game} strategy {name!r} is registered twice: by {_origin(taken_by)} and by "
                f"{_origin(factory)}; give one of them another name"
            )
        registered[name] = StrategyInfo(game, name, factory, deterministic, cheating)
        return factory

    return decorate


def register_alias(game: str, alias: str, target: str) -> None:
    """Make ``alias`` another name for strategy ``target`` (e.g. ``best``)."""
    taken = _registry.get(game, {}).get(alias)
    if taken is not None or _aliases.get(game, {}).get(alias, target) != target:
        what = _origin(taken.factory) if taken is not None else f"an alias of {_aliases[game][alias]}"
        raise StrategyError(f"{game} strategy name {alias!r} is taken by {what}; it cannot also name {target}")
    _aliases.setdefault(game, {})[alias] = target


def _origin(factory: Any) -> str:
    """Where a factory was defined, for messages: ``module.QualifiedName``."""
    if isinstance(factory, str):
        return factory
    return f"{getattr(factory, '__module__', '?')}.{getattr(factory, '__qualname__', repr(factory))}"


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


def import_strategies(source: str) -> str:
    """Import a researcher's module that registers strategies, without packaging it: ``source`` is a
    module name importable from the current folder (``my_bots``, ``lab.bots``) or the path of a
    Python file (``bots/my_bots.py``), whose folder joins the import path so worker processes
    find it too. Returns the module's name; ``StrategyError`` in one line if it cannot be imported.
    """
    if source.endswith(".py") or os.sep in source:
        path = Path(source)
        try:
            read_bounded(path, MAX_STRATEGY_SOURCE_BYTES, "Python module")  # a regular file, readable
        except UnreadableFile as error:
            raise StrategyError(f"cannot import {source}: {error}") from None
        folder, name = str(path.resolve().parent), path.stem
    else:
        folder, name = os.getcwd(), source
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        importlib.import_module(name)
    except Exception as error:  # the researcher's code may raise anything while it loads
        raise StrategyError(f"cannot import {source}: {type(error).__name__}: {error}") from None
    return name


def fair_specs(game: str) -> list[str]:
    """The strategies of ``game`` that tables and tournaments seat (none that cheats), each with the
    settings it cannot do without (``policy:path=...``), then the aliases."""
    named = [
        info.name + (":" + ",".join(f"{key}=..." for key in info.required) if info.required else "")
        for info in available(game)
        if not info.cheating
    ]
    return named + sorted(aliases(game))


IMPORT_HELP = "import a module (or Python file) that registers strategies; may be repeated"


def add_import_option(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` the ``--import MODULE|FILE.py`` option every program that seats strategies takes."""
    parser.add_argument(
        "--import", dest="imports", action="append", default=[], metavar="MODULE|FILE.py", help=IMPORT_HELP
    )


def import_requested(parser: argparse.ArgumentParser, argv: Sequence[str]) -> None:
    """Import the modules ``--import`` names in ``argv`` before the rest is read, so that the other
    options may name their strategies; one that cannot be imported is ``parser``'s one-line error."""
    just_imports = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    add_import_option(just_imports)
    for source in just_imports.parse_known_args(list(argv))[0].imports:
        try:
            import_strategies(source)
        except StrategyError as error:
            parser.error(f"--import: {error}")


@dataclass(frozen=True)
class Listed:
    """A strategy as ``cardsim strategies`` lists it: what ``StrategyInfo`` says of it to people."""

    name: str
    description: str
    required: tuple[str, ...]
    parameters: dict[str, Any]


Listing = tuple[list[Listed], dict[str, str]]  # a game's strategies, by name, and its aliases


def listings(game_names: Sequence[str]) -> dict[str, Listing]:
    """Each game's strategies, by name, as ``available`` gives them, and its aliases (``aliases``).

    Read from ``LISTING_FILE`` when it was written from the sources as they are now and nothing but the
    game's own package registers its strategies (no ``--import`` has, no plugin is installed): then
    listing imports no strategy, whose compiled code takes seconds to load. Otherwise read from the
    registry, and written to the file for the next listing when only the package registered them.
    """
    plugins = bool(entry_points(group=ENTRY_POINT_GROUP))
    own = {game for game in game_names if not plugins and not _registry.get(game)}
    stamp = _sources_stamp()
    stored = _stored_listings(stamp) if own else {}
    found = {game: stored[game] if game in own and game in stored else _registered(game) for game in game_names}
    fresh = {game: found[game] for game in own - set(stored)}
    if fresh:
        _store_listings(stamp, {**stored, **fresh})
    return found


def _registered(game: str) -> Listing:
    """``game``'s strategies and aliases as the registry holds them (importing the game's strategies)."""
    listed = [Listed(info.name, info.description, info.required, info.parameters) for info in available(game)]
    return listed, aliases(game)


def _sources_stamp() -> str:
    """A digest of what a listing is read from: Python's version and the name, size and modification
    time of every source file of ``sim`` and ``strategies`` (a default may be another module's constant)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(sys.version.encode())
    for package in ("sim", "strategies"):
        for path in sorted((root / package).rglob("*.py")):
            status = path.stat()
            digest.update(f"{path.relative_to(root)}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _stored_listings(stamp: str) -> dict[str, Listing]:
    """The games' listings ``LISTING_FILE`` holds, if it was written from the sources ``stamp`` digests;
    none if not, or if it cannot be read as one (it is only ever a shortcut)."""
    try:
        stored = json.loads(read_bounded(LISTING_FILE, MAX_LISTING_BYTES, "strategy listing"))
        if stored["stamp"] != stamp:
            return {}
        return {
            game: (
                [Listed(row["name"], row["description"], tuple(row["required"]), row["parameters"]) for row in rows],
                names,
            )
            for game, (rows, names) in stored["games"].items()
        }
    except (UnreadableFile, ValueError, KeyError, TypeError):
        return {}


def _store_listings(stamp: str, found: dict[str, Listing]) -> None:
    """Write ``found`` to ``LISTING_FILE`` under ``stamp``, unless a default would not read back as it
    is (a tuple would come back a list) or the folder is not writable (an installed, read-only package)."""
    if any(
        type(value) not in LISTED_TYPES
        for listed, _ in found.values()
        for row in listed
        for value in row.parameters.values()
    ):
        return
    games = {game: ([asdict(row) for row in listed], names) for game, (listed, names) in found.items()}
    try:
        LISTING_FILE.parent.mkdir(exist_ok=True)
        atomic_write_bytes(LISTING_FILE, json.dumps({"stamp": stamp, "games": games}).encode())
    except OSError:
        pass  # the listing is read from the registry again next time


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
        raise StrategyError(f"unknown {game} strategy {shown(name)} (known: {known})") from None


def split_top_level(text: str) -> list[str]:
    """``text`` split at the commas outside parentheses, each part stripped: ``"a:x=(b:y=1,z=2),c"``
    is ``["a:x=(b:y=1,z=2)", "c"]``. StrategyError if the parentheses do not pair up."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                raise StrategyError(f"unmatched ')' in {shown(text)}")
        elif char == "," and depth == 0:
            parts.append(text[start:at].strip())
            start = at + 1
    if depth:
        raise StrategyError(f"unmatched '(' in {shown(text)}")
    parts.append(text[start:].strip())
    return parts


def _unwrapped(value: str) -> str:
    """``value`` without the parentheses around all of it, if it is wrapped in a pair."""
    if not value.startswith("("):
        return value
    depth = 0
    for at, char in enumerate(value):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return value[1:-1].strip() if at == len(value) - 1 else value
    return value


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:key=value,key=value"`` into the name and the raw settings. A value that is itself
    a spec with settings goes in parentheses, ``mc:rollout=(heuristic:threshold=6,ace_stands=true)``;
    they are taken off the value."""
    split_top_level(spec)  # the parentheses of the whole spec must pair up
    if spec.count(":") > MAX_SPEC_NESTING:  # a colon follows the name of each spec in it
        raise StrategyError(f"{shown(spec)} nests more than {MAX_SPEC_NESTING} strategy specs")
    name, _, settings_text = spec.strip().partition(":")
    settings: dict[str, str] = {}
    for item in filter(None, split_top_level(settings_text)):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise StrategyError(f"bad strategy setting {shown(item)} in {shown(spec)} (expected key=value)")
        settings[key.strip()] = _unwrapped(value.strip())
    return name.strip(), settings


def _convert(value: str, default: Any, limit: Between | OneOf | None) -> Any:
    """``value`` as the type of ``default`` within ``limit``; ``NumberError`` or ``ValueError`` if not."""
    low, high = (limit.low, limit.high) if isinstance(limit, Between) else (None, None)
    if isinstance(default, bool):
        if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError(f"{shown(value)} is not true or false")
        return value.lower() in ("true", "1", "yes")
    if isinstance(default, int):
        if isinstance(limit, Between):
            return parse_int(value, int(limit.low), int(limit.high))
        return parse_int(value, -DEFAULT_INT_LIMIT, DEFAULT_INT_LIMIT)
    if isinstance(default, float):
        return parse_float(value, low, high)
    if isinstance(limit, OneOf) and value not in limit.choices:
        raise ValueError(f"{shown(value)} is not one of {', '.join(limit.choices)}")
    return value


@dataclass(frozen=True)
class SpecNode:
    """One strategy a spec names: the spec's own at depth 0, and each spec given as a setting of it
    (``mc``'s ``rollout``) one deeper, with every setting checked and defaults filled in."""

    registration: StrategyInfo
    settings: dict[str, Any]
    depth: int


def spec_tree(game: str, spec: str, depth: int = 0) -> list[SpecNode]:
    """Every strategy ``spec`` builds, outermost first: the spec's own and, in turn, those of the
    specs in its settings. ``StrategyError`` for a bad spec anywhere in it."""
    registration, settings = _settings(game, spec)
    values = {**registration.parameters, **settings}
    nodes = [SpecNode(registration, values, depth)]
    for key in registration.nested_specs:
        if values[key]:
            nodes.extend(spec_tree(game, values[key], depth + 1))
    return nodes


def get_fair(game: str, spec: str, where: str) -> Strategy:
    """``get``, refusing (``StrategyError``) a spec that seats a cheating strategy at any depth (an
    ``oracle-mc`` as ``mc``'s rollout too): it needs the true deals, which ``where`` (say,
    "tournaments") does not give it. An unknown name is refused listing only what ``where`` seats."""
    name = parse_spec(spec)[0]
    if name not in {known.name for known in available(game)} | set(aliases(game)):
        raise StrategyError(f"unknown {game} strategy {shown(name)} (known: {', '.join(fair_specs(game))})")
    cheats = [node.registration.name for node in spec_tree(game, spec) if node.registration.cheating]
    if cheats:
        outer = info(game, parse_spec(spec)[0]).name
        who = clipped(spec.strip()) if cheats[0] == outer else f"{clipped(spec.strip())} seats {cheats[0]}, which"
        raise StrategyError(
            f"{who} cheats (it sees hidden cards), so {where} do not seat it; "
            "measure it against the true deals in an experiment (experiments/)"
        )
    return get(game, spec)


def _settings(game: str, spec: str) -> tuple[StrategyInfo, dict[str, Any]]:
    """The registration a spec names and the settings it gives, each checked and converted."""
    name, raw_settings = parse_spec(spec)
    registration = info(game, name)
    required = registration.required
    defaults, limits = registration.parameters, registration.limits
    missing = [key for key in required if key not in raw_settings]
    if missing:
        needed = ",".join(f"{key}=..." for key in missing)
        raise StrategyError(f"{registration.name} needs {needed} (for example {registration.name}:{needed})")
    settings = {}
    for key, value in raw_settings.items():
        if key not in defaults and key not in required:
            known = ", ".join([*required, *defaults]) or "none"
            raise StrategyError(f"{registration.name} has no setting {shown(key)} (settings: {known})")
        try:
            settings[key] = _convert(value, defaults.get(key, ""), limits.get(key))
        except (NumberError, ValueError) as error:
            raise StrategyError(f"bad value for {key} of {registration.name}: {error}") from None
    return registration, settings


def get(game: str, spec: str) -> Strategy:
    """Build the strategy a spec such as ``"mc:samples=64"`` names; its ``name`` is the spec."""
    registration, settings = _settings(game, spec)
    # The spec labels the object for messages (read back with getattr): the Strategy protocol has no name.
    strategy: Any = registration.factory(**settings)
    strategy.name = spec.strip()
    return strategy


def resolved(game: str, spec: str) -> str:
    """The spec spelled out: the strategy's registered name (not an alias) and every one of its
    settings, defaults included, nested specs resolved in turn. Two specs resolve alike when they
    build the same player (``best`` and what it stands for, a setting left out and its default
    given), and a spec resolves differently once a default it relies on changes: runs are told apart
    by it."""
    registration, settings = _settings(game, spec)
    values = {**registration.parameters, **settings}
    for key, digest in registration.digests.items():
        if not values[key] and values[digest.setting]:  # no file named (an optional one), no digest
            values[key] = file_digest(values[digest.setting], digest)
    nested = registration.nested_specs
    order = [*registration.required, *registration.parameters]
    written = [f"{key}={_written(game, values[key], key in nested)}" for key in order]
    return ":".join([registration.name, ",".join(written)]) if written else registration.name


def file_digest(path: str, digest: DigestOf) -> str:
    """The SHA-256 (hex) of the file at ``path``; ``StrategyError`` in one line if it cannot be read as
    the kind of file ``digest`` says."""
    try:
        return hashlib.sha256(read_bounded(path, digest.limit, digest.what)).hexdigest()
    except UnreadableFile as error:
        raise StrategyError(f"cannot read {digest.what} {shown(path)}: {error}") from None


def _written(game: str, value: Any, is_spec: bool) -> str:
    """A setting's value as a spec writes it: a nested spec resolved (in parentheses if it has settings)."""
    if is_spec:
        spec = resolved(game, value)
        return f"({spec})" if ":" in spec else spec
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
