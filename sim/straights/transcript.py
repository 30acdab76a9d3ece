"""A Straights round or game told as the ``straights`` program tells it, for ``cardsim replay``, or in
the web table's words for people (``for_people``: ``sim.straights.words.people_lines``).

The program prints every discard "for test purposes"; told as one seat saw it, another seat's
discard is face down, as in the card game, until the round's end shows every seat's discards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.straights import rules
from sim.straights.engine import Discarded, Game, Round, RoundStarted
from sim.straights.words import card_list, event_lines, hand_line, hidden_discard_line, people_lines, player_name


def seat_names(players: Sequence[str]) -> list[str]:
    """Player1 to Player4, as the program calls the seats."""
    return [player_name(seat) for seat in range(len(players))]


def live_round(state: Round | Game) -> Round:
    """The round being played: ``state`` itself, or the live round of a whole game."""
    return state.live_round() if isinstance(state, Game) else state


def dealt(state: Round | Game, names: Sequence[str], viewer: int | None, for_people: bool = False) -> list[str]:
    """The first line of a round, then the hand of every seat ``viewer`` sees: the program's lines,
    or the web table's words ``for_people``."""
    current = live_round(state)
    number = state.rounds_played if isinstance(state, Game) else 0
    seen = [seat for seat in range(rules.NUM_PLAYERS) if viewer in (None, seat)]
    if for_people:
        started = people_lines(RoundStarted(number, current.leader, current.deck), names)
        return started + [hand_line(names[seat], sorted(current.dealt_hand(seat))) for seat in seen]
    lines = event_lines(RoundStarted(number, current.leader, current.deck))
    return lines + [f"{names[seat]}'s hand:{card_list(current.dealt_hand(seat))}" for seat in seen]


def told(
    state: Round | Game, events: list[Any], names: Sequence[str], viewer: int | None, for_people: bool = False
) -> list[str]:
    """The lines for ``events`` (the program's, or the web table's words ``for_people``), another seat's
    discard face down when ``viewer`` is a seat."""
    lines = []
    for event in events:
        if isinstance(event, RoundStarted):
            lines += dealt(state, names, viewer, for_people)
        elif isinstance(event, Discarded) and viewer not in (None, event.seat):
            lines.append(
                hidden_discard_line(names[event.seat])
                if for_people
                else f"{player_name(event.seat)} discards a card face down."
            )
        else:
            lines += people_lines(event, names) if for_people else event_lines(event)
    return lines
