"""What every game's engine playthroughs share (``tests/<game>/test_playthroughs.py``).

A playthrough file pins a deal and the actions a strategy took on it, followed by the canonical
step-by-step text of replaying them through the reference engine. Each game supplies ``replay``
(stored text -> the text replaying its header gives) and ``record`` (seed, deal index, strategy
spec -> the text of that strategy playing that deal); this module turns them into the two tests
and the regeneration command.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

Case = tuple[str, int, int, str]
"""(file name, deal seed, deal index, strategy spec playing every seat)."""
Replay = Callable[[str], str]
Record = Callable[[int, int, str], str]
ACTION_SEPARATOR = ", "


def event_text(event: Any, field_text: Callable[[str, Any], str]) -> str:
    """``Name(field=value, ...)`` for an event dataclass, its fields in declared order."""
    values = ", ".join(f"{field.name}={field_text(field.name, getattr(event, field.name))}" for field in fields(event))
    return f"{type(event).__name__}({values})"


def events_text(events: Iterable[Any], field_text: Callable[[str, Any], str]) -> str:
    """The events separated by semicolons; "(none)" when the engine only moved on to another decision."""
    return "; ".join(event_text(event, field_text) for event in events) or "(none)"


def step_lines(
    state: Any, actions: Iterable[int], action_name: Callable[[int], str], field_text: Callable[[str, Any], str]
) -> Iterator[str]:
    """Apply ``actions`` to the engine ``state``, one line each: step, player to move, the legal actions,
    the action and the events it produced."""
    for step, action in enumerate(actions):
        seat, legal = state.current_player, ACTION_SEPARATOR.join(map(action_name, state.legal_actions()))
        yield f"{step:3d} seat {seat} [{legal}] {action_name(action)} -> {events_text(state.apply(action), field_text)}"


def parse_dealt_header(
    text: str, parse_card: Callable[[str], int], action_by_name: dict[str, int]
) -> tuple[list[int], int, list[int]]:
    """The pack, dealer and actions of the ``pack:``, ``dealer:`` and ``actions:`` header lines."""
    pack_line, dealer_line, actions_line = text.splitlines()[:3]
    pack = [parse_card(word) for word in pack_line.removeprefix("pack: ").split()]
    return pack, int(dealer_line.removeprefix("dealer: ")), parse_actions(actions_line, action_by_name)


def parse_actions(line: str, action_by_name: dict[str, int]) -> list[int]:
    """The actions named on an ``actions:`` header line, e.g. ``actions: pass, 9S``."""
    return [action_by_name[name] for name in line.removeprefix("actions: ").split(ACTION_SEPARATOR)]


def playthrough_tests(folder: Path, cases: Sequence[Case], replay: Replay, record: Record) -> tuple[Callable, Callable]:
    """The two tests of a game's playthroughs: replaying each stored file reproduces it exactly, and
    each pinned strategy still plays its file move for move."""

    @pytest.mark.parametrize("name", [case[0] for case in cases])
    def test_replaying_a_playthrough_reproduces_it(name: str) -> None:
        stored = (folder / name).read_text()
        assert replay(stored) == stored

    @pytest.mark.parametrize(("name", "seed", "index", "spec"), cases)
    def test_the_strategy_still_plays_its_playthrough(name: str, seed: int, index: int, spec: str) -> None:
        assert record(seed, index, spec) == (folder / name).read_text()

    return test_replaying_a_playthrough_reproduces_it, test_the_strategy_still_plays_its_playthrough


def regenerate(folder: Path, cases: Sequence[Case], record: Record) -> None:
    """Write every case's file again (after an intended change of behaviour: read the diff)."""
    folder.mkdir(exist_ok=True)
    for name, seed, index, spec in cases:
        (folder / name).write_text(record(seed, index, spec))
        print("wrote", folder / name)
