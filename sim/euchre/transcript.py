"""A Euchre hand or game told as the ``euchre`` program tells it, for ``cardsim replay``, or in the web
table's words for people (``for_people``: ``sim.euchre.words.people_lines``).

The seats are called as ``cardsim play euchre`` calls them (South and North partners against West
and East). The program prints nothing for the dealer's discard; told with the dealer's cards in
view, it says which card went (for people, another dealer's discard is said without its card).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.euchre import rules
from sim.euchre.engine import Discarded, Game, Hand, HandStarted
from sim.euchre.words import TABLE_NAMES, event_lines, hand_line, hidden_discard_line, people_lines


def seat_names(players: Sequence[str]) -> list[str]:
    """South, West, North and East."""
    return list(TABLE_NAMES[: len(players)])


def live_hand(state: Hand | Game) -> Hand:
    """The hand being played: ``state`` itself, or the live hand of a whole game."""
    return state.live_hand() if isinstance(state, Game) else state


def dealt(state: Hand | Game, names: Sequence[str], viewer: int | None, for_people: bool = False) -> list[str]:
    """The first lines of a hand (its number, the dealer, the upcard), then the hand of every seat
    ``viewer`` sees: the program's lines (a hand in the order the program shows a Human's), or the
    web table's words ``for_people``."""
    current = live_hand(state)
    number = state.hands_played if isinstance(state, Game) else 0
    started = HandStarted(number, current.dealer, current.upcard)
    seen = [seat for seat in range(rules.NUM_PLAYERS) if viewer in (None, seat)]
    if for_people:
        return people_lines(started, names) + [
            hand_line(names[seat], rules.sorted_hand(current.hands[seat])) for seat in seen
        ]
    lines = event_lines(started, tuple(names))
    return lines + [
        f"{names[seat]}'s hand: {', '.join(map(rules.card_long_name, rules.sorted_hand(current.hands[seat])))}"
        for seat in seen
    ]


def told(
    state: Hand | Game, events: list[Any], names: Sequence[str], viewer: int | None, for_people: bool = False
) -> list[str]:
    """The lines for ``events`` (the program's, or the web table's words ``for_people``), and the
    dealer's discard when ``viewer`` sees the dealer's cards."""
    lines = []
    for event in events:
        if isinstance(event, HandStarted):
            lines += dealt(state, names, viewer, for_people)
        elif isinstance(event, Discarded) and viewer in (None, event.seat):
            seen = (
                people_lines(event, names)
                if for_people
                else [f"{names[event.seat]} discards {rules.card_long_name(event.card)}"]
            )
            lines += seen
        elif isinstance(event, Discarded) and for_people:
            lines.append(hidden_discard_line(names[event.seat]))
        else:
            lines += people_lines(event, names) if for_people else event_lines(event, tuple(names))
    return lines
