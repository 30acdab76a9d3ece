"""Engine playthroughs: a pack, its dealer and an action list, replayed through the reference engine,
must print exactly the stored text (the hands dealt, then step by step whose turn, the legal actions,
the action taken and the engine's events, then each seat's points).

Each file under ``playthroughs/`` starts with ``pack:``, ``dealer:`` and ``actions:`` lines; everything
after is the canonical text. Cards are written as in ``sim.cards`` ("9S", "JD"), an order-up as
"order up Hearts". Events print every field of the engine's event (the CLI's spec text leaves out
the dealer's discard and the trump made), cards and suits by name.

Pinned: deal 10 of seed 1 played by ``simple`` in every seat (trump ordered up in round one, the
dealer's discard, the makers euchred) and deal 1 of seed 2 by ``heuristic`` (round two, the dealer
screwed, a march). As in ``sim.euchre.game.new_state``, deal ``i`` is hand ``i``, dealt
by seat ``i % 4``. Regenerate with ``python -m tests.euchre.test_playthroughs`` after an intended
change of behaviour, and read the diff.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import strategies
from sim.cards import SUIT_NAMES, card_name, format_cards, parse_card
from sim.euchre import rules
from sim.euchre.engine import Hand
from sim.euchre.game import GAME
from sim.euchre.observation import PASS, order_up, ordered_suit
from sim.play import play_out
from tests.playthroughs import ACTION_SEPARATOR, parse_dealt_header, playthrough_tests, regenerate, step_lines

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
# (file name, deal seed, deal index, strategy spec playing every seat) of the stored playthroughs.
CASES = [("simple-seed-1.txt", 1, 10, "simple"), ("heuristic-seed-2.txt", 2, 1, "heuristic")]


def action_name(action: int) -> str:
    """A card ("9S": play it, or throw it away as dealer), "order up Hearts" or "pass"."""
    if action == PASS:
        return "pass"
    suit = ordered_suit(action)
    return card_name(action) if suit is None else f"order up {SUIT_NAMES[suit]}"


ACTION_BY_NAME = {action_name(action): action for action in (*rules.NEW_PACK, *map(order_up, range(4)), PASS)}


def actions_text(actions: Iterable[int]) -> str:
    return ACTION_SEPARATOR.join(map(action_name, actions))


def field_text(name: str, value: Any) -> str:
    """One event field: cards and suits by name, anything else as Python writes it."""
    if name in ("card", "upcard"):
        return card_name(value)
    if name == "cards":
        return f"[{format_cards(value)}]"
    if name in ("suit", "trump"):
        return SUIT_NAMES[value]
    return repr(value)


def canonical_text(pack: list[int], dealer: int, actions: list[int]) -> str:
    """The step-by-step record of replaying ``actions`` on ``pack`` dealt by ``dealer``."""
    hand = Hand(tuple(pack), dealer)
    lines = [
        f"pack: {format_cards(pack)}",
        f"dealer: {dealer}",
        f"actions: {actions_text(actions)}",
        f"upcard: {card_name(hand.upcard)}",
    ]
    lines += [f"seat {seat} holds: {format_cards(cards)}" for seat, cards in enumerate(hand.hands)]
    lines += step_lines(hand, actions, action_name, field_text)
    lines.append(f"points: {' '.join(map(str, hand.points()))}")
    return "\n".join(lines) + "\n"


def record(seed: int, index: int, spec: str) -> str:
    """Play deal ``index`` of ``seed`` with ``spec`` in every seat and return its playthrough text."""
    pack = [int(card) for card in GAME.deals(seed, index, 1)[0]]
    players = [strategies.get("euchre", spec)] * rules.NUM_PLAYERS
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
