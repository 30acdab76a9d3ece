"""A Euchre hand or game told as the ``euchre`` program tells it, for ``cardsim replay``.

The seats are called as ``cardsim play euchre`` calls them (South and North partners against West
and East). The program prints nothing for the dealer's discard; told with the dealer's cards in
view, it says which card went.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.euchre import rules
from sim.euchre.cli import TABLE_NAMES, event_lines
from sim.euchre.engine import Discarded, Game, Hand, HandStarted


def seat_names(players: Sequence[str]) -> list[str]:
    """South, West, North and East."""
    return list(TABLE_NAMES[: len(players)])


def live_hand(state: Hand | Game) -> Hand:
    """The hand being played: ``state`` itself, or the live hand of a whole game."""
    return state.live_hand() if isinstance(state, Game) else state


def dealt(state: Hand | Game, names: Sequence[str], viewer: int | None) -> list[str]:
    """The program's first lines of a hand (its number, the dealer, the upcard), then the hand of
    every seat ``viewer`` sees, in the order the program shows a Human's hand."""
    current = live_hand(state)
    number = state.hands_played if isinstance(state, Game) else 0
    lines = event_lines(HandStarted(number, current.dealer, current.upcard), tuple(names))
    return lines + [
        f"{names[seat]}'s hand: {', '.join(map(rules.card_long_name, rules.sorted_hand(current.hands[seat])))}"
        for seat in range(rules.NUM_PLAYERS)
        if viewer in (None, seat)
    ]


def told(state: Hand | Game, events: list[Any], names: Sequence[str], viewer: int | None) -> list[str]:
    """The program's lines for ``events``, and the dealer's discard when ``viewer`` sees the dealer's cards."""
    lines = []
    for event in events:
        if isinstance(event, HandStarted):
            lines += dealt(state, names, viewer)
        elif isinstance(event, Discarded) and viewer in (None, event.seat):
            lines.append(f"{names[event.seat]} discards {rules.card_long_name(event.card)}")
        else:
            lines += event_lines(event, tuple(names))
    return lines
