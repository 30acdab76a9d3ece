"""A Gemstones game told as the ``gemstones`` program tells it, for ``cardsim replay``.

The seats are called by their strategies, as the program calls its computer players, and the table
is shown at the start of every turn, as the program shows it. The cards a seat draws into its hand
are named only when that seat's cards are in view; the program only counts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.gemstones import rules
from sim.gemstones.cli import Program, event_lines, table_lines
from sim.gemstones.engine import NUM_PLAYERS, Drew, State, TurnStarted


def seat_names(players: Sequence[str]) -> list[str]:
    """Each seat's strategy name, with its seat number when both seats play the same one."""
    return [Program.computer_name(seat, list(players)) for seat in range(len(players))]


def hand_line(state: State, names: Sequence[str], seat: int) -> str:
    """``seat``'s hand, front card first, as the program's table line shows the mover's."""
    return f"{names[seat]}'s hand: {rules.format_cards(state.hands[seat]) or 'empty'}"


def dealt(state: State, names: Sequence[str], viewer: int | None) -> list[str]:
    """The hand of every seat ``viewer`` sees, then the table at the first turn."""
    hands = [hand_line(state, names, seat) for seat in range(NUM_PLAYERS) if viewer in (None, seat)]
    return hands + table_lines(state, list(names), show_hand=False)


def told(state: State, events: list[Any], names: Sequence[str], viewer: int | None) -> list[str]:
    """The program's lines for ``events``, and the table when a turn starts (with the mover's hand
    when ``viewer`` sees it); cards drawn into a hand are named when ``viewer`` sees that hand."""
    lines = []
    for event in events:
        if isinstance(event, Drew) and viewer in (None, event.seat):
            lines.append(f"{names[event.seat]} draws {rules.format_cards(event.stones) or 'nothing'} into the hand.")
        else:
            lines += event_lines(event, list(names))
    if not state.is_over and any(isinstance(event, TurnStarted) for event in events):
        lines += table_lines(state, list(names), show_hand=viewer in (None, state.current_player))
    return lines
