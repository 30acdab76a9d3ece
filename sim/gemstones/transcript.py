"""A Gemstones game told as the ``gemstones`` program tells it, for ``cardsim replay``, or in the web
table's words for people (``for_people``: ``sim.gemstones.words.people_lines``, without the program's
table printouts).

The seats are called by their strategies, as the program calls its computer players, and the table
is shown at the start of every turn, as the program shows it. The cards a seat draws into its hand
are named only when that seat's cards are in view; the program only counts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.gemstones import rules
from sim.gemstones.engine import NUM_PLAYERS, Drew, State, TurnStarted
from sim.gemstones.words import computer_name, drew_line, event_lines, people_lines, table_lines
from sim.gemstones.words import hand_line as people_hand_line


def seat_names(players: Sequence[str]) -> list[str]:
    """Each seat's strategy name, with its seat number when both seats play the same one."""
    return [computer_name(seat, list(players)) for seat in range(len(players))]


def hand_line(state: State, names: Sequence[str], seat: int) -> str:
    """``seat``'s hand, front card first, as the program's table line shows the mover's."""
    return f"{names[seat]}'s hand: {rules.format_cards(state.hands[seat]) or 'empty'}"


def dealt(state: State, names: Sequence[str], viewer: int | None, for_people: bool = False) -> list[str]:
    """The hand of every seat ``viewer`` sees, then the table at the first turn (the program's lines),
    or, ``for_people``, those hands and whose turn it is."""
    seen = [seat for seat in range(NUM_PLAYERS) if viewer in (None, seat)]
    if for_people:
        hands = [people_hand_line(names[seat], state.hands[seat]) for seat in seen]
        return hands + people_lines(TurnStarted(state.current_player, state.turn), names)
    hands = [hand_line(state, names, seat) for seat in seen]
    return hands + table_lines(state, list(names), show_hand=False)


def told(
    state: State, events: list[Any], names: Sequence[str], viewer: int | None, for_people: bool = False
) -> list[str]:
    """The lines for ``events``: the program's, and the table when a turn starts (with the mover's
    hand when ``viewer`` sees it); or the web table's words ``for_people``. Cards drawn into a hand
    are named when ``viewer`` sees that hand."""
    lines = []
    for event in events:
        seen = isinstance(event, Drew) and viewer in (None, event.seat)
        if for_people:
            lines += [drew_line(names[event.seat], event.stones, seen=True)] if seen else people_lines(event, names)
        elif seen:
            lines.append(f"{names[event.seat]} draws {rules.format_cards(event.stones) or 'nothing'} into the hand.")
        else:
            lines += event_lines(event, list(names))
    if not for_people and not state.is_over and any(isinstance(event, TurnStarted) for event in events):
        lines += table_lines(state, list(names), show_hand=viewer in (None, state.current_player))
    return lines
