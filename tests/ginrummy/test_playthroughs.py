"""Engine playthroughs: a pack, its dealer and an action list, replayed through the reference engine,
must print exactly the stored text (the hands dealt, then step by step whose turn, the legal actions,
the action taken and the engine's events, then each seat's points).

Each file under ``playthroughs/`` starts with ``pack:``, ``dealer:`` and ``actions:`` lines; everything
after is the canonical text. Cards are written as in ``sim.cards`` ("7S"); a card alone as an action
discards it, "knock 7S" knocks discarding it, "draw stock" and "draw discard" draw. Events print
every field of the engine's event (the CLI's text speaks to "you" and leaves out the draws), cards
and melds as the CLI writes them.

Pinned: deal 5 of seed 1 played by ``cs340`` in both seats (a knock, the defender laying off) and
deal 88 of seed 3 by ``heuristic`` (gin). As in ``sim.ginrummy.game.new_state``, deal
``i`` is hand ``i``, dealt by seat ``i % 2``. Regenerate with
``python -m tests.ginrummy.test_playthroughs`` after an intended change of behaviour, and read the diff.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import is_dataclass
from pathlib import Path
from typing import Any

import strategies
from sim.cards import FULL_DECK, card_name, cards_in, format_cards, parse_card
from sim.ginrummy import rules
from sim.ginrummy.engine import Hand
from sim.ginrummy.game import GAME
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, knock, knocked_card
from sim.ginrummy.words import melds_text
from sim.play import play_out
from tests.playthroughs import (
    ACTION_SEPARATOR,
    event_text,
    parse_dealt_header,
    playthrough_tests,
    regenerate,
    step_lines,
)

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
# (file name, deal seed, deal index, strategy spec playing both seats) of the stored playthroughs.
CASES = [("cs340-seed-1.txt", 1, 5, "cs340"), ("heuristic-seed-3.txt", 3, 88, "heuristic")]
DRAW_NAMES = {DRAW_STOCK: "draw stock", DRAW_DISCARD: "draw discard"}


def action_name(action: int) -> str:
    """The action's name: "draw stock", "draw discard", a card ("7S": discard it) or "knock 7S"."""
    if action in DRAW_NAMES:
        return DRAW_NAMES[action]
    card = knocked_card(action)
    return card_name(action) if card is None else f"knock {card_name(card)}"


ACTION_BY_NAME = {action_name(action): action for action in (*FULL_DECK, *DRAW_NAMES, *map(knock, FULL_DECK))}


def actions_text(actions: Iterable[int]) -> str:
    return ACTION_SEPARATOR.join(map(action_name, actions))


def field_text(name: str, value: Any) -> str:
    """One event field: nested results as events, cards and melds by name, anything else as Python writes it."""
    if is_dataclass(value):  # HandEnded nests layouts and a score
        return event_text(value, field_text)
    if name == "card":
        return card_name(value)
    if name == "unmatched":
        return f"[{format_cards(value)}]"
    if name == "melds":
        return melds_text(value)
    if name == "layoffs":
        return "[" + ", ".join(f"{card_name(card)} on meld {meld}" for card, meld in value) + "]"
    return repr(value)


def canonical_text(pack: list[int], dealer: int, actions: list[int]) -> str:
    """The step-by-step record of replaying ``actions`` on ``pack`` dealt by ``dealer``."""
    hand = Hand(tuple(pack), dealer)
    lines = [f"pack: {format_cards(pack)}", f"dealer: {dealer}", f"actions: {actions_text(actions)}"]
    lines += [f"seat {seat} holds: {format_cards(cards_in(cards))}" for seat, cards in enumerate(hand.hands)]
    lines += step_lines(hand, actions, action_name, field_text)
    lines.append(f"points: {' '.join(map(str, hand.points()))}")
    return "\n".join(lines) + "\n"


def record(seed: int, index: int, spec: str) -> str:
    """Play deal ``index`` of ``seed`` with ``spec`` in both seats and return its playthrough text."""
    pack = [int(card) for card in GAME.deals(seed, index, 1)[0]]
    players = [strategies.get("ginrummy", spec)] * rules.NUM_PLAYERS
    hand = play_out(GAME.new_state(pack, index), players)
    return canonical_text(pack, hand.dealer, hand.history)


def replay(stored: str) -> str:
    """The text that replaying a stored playthrough's header gives."""
    return canonical_text(*parse_dealt_header(stored, parse_card, ACTION_BY_NAME))


test_replaying_a_playthrough_reproduces_it, test_the_strategy_still_plays_its_playthrough = playthrough_tests(
    PLAYTHROUGHS, CASES, replay, record
)

if __name__ == "__main__":
    regenerate(PLAYTHROUGHS, CASES, record)
