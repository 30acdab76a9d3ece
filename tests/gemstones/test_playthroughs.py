"""Engine playthroughs: a deck and an action list, replayed through the reference engine, must print
exactly the stored text (the start of the game and the hands dealt, then step by step whose turn,
the legal actions, the action taken and the engine's events, then the coins).

Each file under ``playthroughs/`` starts with ``deck:`` (stone letters, drawn from the end) and
``actions:`` lines; everything after is the canonical text. Actions are named by
``sim.gemstones.observation.describe`` and separated by commas. Events print every field of the
engine's event (the CLI's text leaves out the cards drawn into a hand and the slots), one stone by
its name and several by their letters.

A whole game, with the default variants, is the unit, as in ``sim.gemstones.game.new_state``:
deal ``i`` is game ``i``. A game is about 150 decisions, so each file is about 150 lines, one a step.
Pinned: deal 1 of seed 3 played by ``greedy`` in both seats (a drawn game) and deal 3 of seed 1 by
``heuristic`` (both buy a third chain).
Regenerate with ``python -m tests.gemstones.test_playthroughs`` after an intended change of
behaviour, and read the diff.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import strategies
from sim.gemstones import rules
from sim.gemstones.engine import NUM_PLAYERS, State
from sim.gemstones.game import GAME
from sim.gemstones.observation import NUM_ACTIONS, describe
from sim.play import play_out
from tests.playthroughs import ACTION_SEPARATOR, events_text, parse_actions, playthrough_tests, regenerate, step_lines

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
# (file name, deal seed, deal index, strategy spec playing both seats) of the stored playthroughs.
CASES = [("greedy-seed-3.txt", 3, 1, "greedy"), ("heuristic-seed-1.txt", 1, 3, "heuristic")]
ACTION_BY_NAME = {describe(action): action for action in range(NUM_ACTIONS)}


def actions_text(actions: Iterable[int]) -> str:
    return ACTION_SEPARATOR.join(map(describe, actions))


def field_text(name: str, value: Any) -> str:
    """One event field: a stone by its name, several by their letters, anything else as Python writes it."""
    if name == "stone":
        return rules.STONES[value]
    if name in ("stones", "drawn", "pulled"):
        return f"[{rules.format_cards(value)}]"
    return repr(value)


def canonical_text(deck: list[int], actions: list[int]) -> str:
    """The step-by-step record of replaying ``actions`` on a game dealt from ``deck``."""
    state, started = State.new(deck)
    lines = [
        f"deck: {rules.format_cards(deck)}",
        f"actions: {actions_text(actions)}",
        f"start: {events_text(started, field_text)}",
    ]
    lines += [f"seat {seat} holds: {rules.format_cards(hand)}" for seat, hand in enumerate(state.hands)]
    lines += step_lines(state, actions, describe, field_text)
    lines.append(f"coins: {' '.join(map(str, state.coins))}")
    return "\n".join(lines) + "\n"


def record(seed: int, index: int, spec: str) -> str:
    """Play deal ``index`` of ``seed`` with ``spec`` in both seats and return its playthrough text."""
    deck = [int(stone) for stone in GAME.deals(seed, index, 1)[0]]
    state = play_out(GAME.new_state(deck, index), [strategies.get("gemstones", spec)] * NUM_PLAYERS)
    return canonical_text(deck, state.history)


def parse_header(text: str) -> tuple[list[int], list[int]]:
    """The deck and actions of a stored playthrough."""
    deck_line, actions_line = text.splitlines()[:2]
    deck = [rules.parse_letter(word) for word in deck_line.removeprefix("deck: ").split()]
    return deck, parse_actions(actions_line, ACTION_BY_NAME)


def replay(stored: str) -> str:
    """The text that replaying a stored playthrough's header gives."""
    return canonical_text(*parse_header(stored))


test_replaying_a_playthrough_reproduces_it, test_the_strategy_still_plays_its_playthrough = playthrough_tests(
    PLAYTHROUGHS, CASES, replay, record
)

if __name__ == "__main__":
    regenerate(PLAYTHROUGHS, CASES, record)
