"""A Straights round or game told as the ``straights`` program tells it, for ``cardsim replay``.

The program prints every discard "for test purposes"; told as one seat saw it, another seat's
discard is face down, as in the card game, until the round's end shows every seat's discards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.straights import rules
from sim.straights.cli import card_list, event_lines, player_name
from sim.straights.engine import Discarded, Game, Round, RoundStarted


def seat_names(players: Sequence[str]) -> list[str]:
    """Player1 to Player4, as the program calls the seats."""
    return [player_name(seat) for seat in range(len(players))]


def live_round(state: Round | Game) -> Round:
    """The round being played: ``state`` itself, or the live round of a whole game."""
    return state.live_round() if isinstance(state, Game) else state


def dealt(state: Round | Game, names: Sequence[str], viewer: int | None) -> list[str]:
    """The program's first line of a round, then the hand of every seat ``viewer`` sees."""
    current = live_round(state)
    number = state.rounds_played if isinstance(state, Game) else 0
    lines = event_lines(RoundStarted(number, current.leader, current.deck))
    return lines + [
        f"{names[seat]}'s hand:{card_list(current.dealt_hand(seat))}"
        for seat in range(rules.NUM_PLAYERS)
        if viewer in (None, seat)
    ]


def told(state: Round | Game, events: list[Any], names: Sequence[str], viewer: int | None) -> list[str]:
    """The program's lines for ``events``, another seat's discard face down when ``viewer`` is a seat."""
    lines = []
    for event in events:
        if isinstance(event, RoundStarted):
            lines += dealt(state, names, viewer)
        elif isinstance(event, Discarded) and viewer not in (None, event.seat):
            lines.append(f"{player_name(event.seat)} discards a card face down.")
        else:
            lines += event_lines(event)
    return lines
