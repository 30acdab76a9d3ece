"""A Gin Rummy hand or game told as the ``ginrummy`` program tells it, for ``cardsim replay``, or in the
web table's words for people (``for_people``: ``sim.ginrummy.words.people_lines``).

The program calls seat 0 "you" and seat 1 "the computer"; the replay keeps those names whichever
seat's view it tells. A card drawn from the stock is named only to the seat that drew it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.cards import cards_in, format_cards
from sim.ginrummy import rules
from sim.ginrummy.engine import Drew, Game, Hand, HandStarted
from sim.ginrummy.words import (
    capitalized,
    deal_line,
    drew_line,
    drew_text,
    event_lines,
    hand_line,
    hand_started_line,
    people_lines,
    seat_name,
)


def seat_names(players: Sequence[str]) -> list[str]:
    """ "you" and "the computer", as the program calls the seats."""
    return [seat_name(seat) for seat in range(len(players))]


def live_hand(state: Hand | Game) -> Hand:
    """The hand being played: ``state`` itself, or the hand a whole game dealt last."""
    if isinstance(state, Hand):
        return state
    if state.hand is None:
        raise ValueError("the game has dealt no hand")
    return state.hand


def dealt(state: Hand | Game, names: Sequence[str], viewer: int | None, for_people: bool = False) -> list[str]:
    """The first line of a hand, then the cards of every seat ``viewer`` sees: the program's lines, or
    the web table's words ``for_people``."""
    current = live_hand(state)
    number = state.hands_dealt if isinstance(state, Game) else 1
    seen = [seat for seat in range(rules.NUM_PLAYERS) if viewer in (None, seat)]
    if for_people:
        return [hand_started_line(number, current.dealer, names)] + [
            hand_line(names[seat], cards_in(current.hands[seat])) for seat in seen
        ]
    return [deal_line(number, current.dealer)] + [
        f"{capitalized(names[seat])} hold{'s' * seat}: {format_cards(cards_in(current.hands[seat]))}" for seat in seen
    ]


def told(
    state: Hand | Game, events: list[Any], names: Sequence[str], viewer: int | None, for_people: bool = False
) -> list[str]:
    """The lines for ``events`` (the program's, or the web table's words ``for_people``); a draw from
    the stock names its card to the drawer only."""
    target = state.target if isinstance(state, Game) else rules.GAME_TARGET
    lines = []
    for event in events:
        if isinstance(event, HandStarted):
            lines += dealt(state, names, viewer, for_people)
        elif isinstance(event, Drew):
            seen = viewer in (None, event.seat)
            lines.append(drew_text(event, names, seen) if for_people else drew_line(event, card_seen=seen))
        else:
            lines += people_lines(event, names, target) if for_people else event_lines(event, target)
    return lines
