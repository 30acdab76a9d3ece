"""How Straights is said: the ``straights`` program's text for each engine event (byte for byte the
spec's), and the web table's words for people ("You play 8♠."), which the program, the transcript
(``sim.straights.transcript``) and the table view (``sim.straights.view``) share.

The people's words name the person ``YOU`` and conjugate for it; they print no prompt, no table and
no hand but the person's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sim.cards import card_name
from sim.numbers import amount
from sim.people import YOU, verb
from sim.pictures import card_text, cards_text
from sim.straights import rules
from sim.straights.engine import Discarded, Event, GameEnded, Played, RoundEnded, RoundStarted

TITLE = "Straights"
BLURB = "Four players build the suits up and down from the sevens; every card you cannot play costs its rank."


def player_name(seat: int) -> str:
    return f"Player{seat + 1}"


def card_list(cards: Iterable[int]) -> str:
    """A spec card list: every card preceded by one space, nothing when empty."""
    return "".join(" " + card_name(card) for card in cards)


def event_lines(event: Event) -> list[str]:
    """The spec's text for one engine event."""
    match event:
        case RoundStarted(leader=leader):
            return [f"A new round begins. It's {player_name(leader)}'s turn to play."]
        case Played(seat=seat, card=card):
            return [f"{player_name(seat)} plays {card_name(card)}."]
        case Discarded(seat=seat, card=card):
            return [f"{player_name(seat)} discards {card_name(card)}."]
        case RoundEnded(discards=discards, old_scores=old, points=points, new_scores=new):
            lines = []
            for seat in range(rules.NUM_PLAYERS):
                lines.append(f"{player_name(seat)}'s discards:{card_list(discards[seat])}")
                lines.append(f"{player_name(seat)}'s score: {old[seat]} + {points[seat]} = {new[seat]}")
            return lines
        case GameEnded(winners=winners):
            return [f"{player_name(seat)} wins!" for seat in winners]
    raise TypeError(f"unknown event {event!r}")


# --------------------------------------------------------------------------- the web table's words


def names_text(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``; the person first."""
    ordered = sorted(names, key=lambda name: name != YOU)
    return ordered[0] if len(ordered) == 1 else f"{', '.join(ordered[:-1])} and {ordered[-1]}"


def round_started_line(number: int, leader: str) -> str:
    """The first line of round ``number`` (from 1)."""
    return f"Round {number}: {verb(leader, 'have', 'has')} the 7♠ and {'lead' if leader == YOU else 'leads'}."


def people_lines(event: Event, names: Sequence[str]) -> list[str]:
    """The web table's words for one engine event (a discard face up: ``transcript.told`` hides
    another seat's)."""
    match event:
        case RoundStarted(round_number=number, leader=leader):
            return [round_started_line(number + 1, names[leader])]
        case Played(seat=seat, card=card):
            return [f"{verb(names[seat], 'play', 'plays')} {card_text(card)}."]
        case Discarded(seat=seat, card=card):
            return [f"{verb(names[seat], 'discard', 'discards')} {card_text(card)} face down."]
        case RoundEnded(discards=discards, old_scores=old, points=points, new_scores=new):
            lines = ["The round is over."]
            for seat in range(rules.NUM_PLAYERS):
                thrown = cards_text(discards[seat]) or "nothing"
                lines.append(
                    f"{names[seat]} discarded {thrown}: {amount(points[seat], 'point')}, "
                    f"score {old[seat]} + {points[seat]} = {new[seat]}."
                )
            return lines
        case GameEnded(winners=winners):
            winning = [names[seat] for seat in winners]
            return [f"{names_text(winning)} {'win' if len(winning) > 1 or winning[0] == YOU else 'wins'} the game!"]
    raise TypeError(f"unknown event {event!r}")


def hidden_discard_line(name: str) -> str:
    """Another seat's discard, told before the round's end shows it."""
    return f"{verb(name, 'discard', 'discards')} a card face down."


def hand_line(name: str, cards: Iterable[int]) -> str:
    """The cards a seat is dealt, as the person sees their own."""
    return f"{verb(name, 'hold', 'holds')} {cards_text(cards)}."


RULES = f"""
## The aim

Four players, a 52-card pack, 13 cards each. Score as **few** points as you can: the game ends once
someone has {rules.GAME_OVER_SCORE} points or more at the end of a round, and the lowest score wins
(a tie at the lowest: all of them win). Ace is low (1), then 2 to 10, Jack 11, Queen 12, King 13.

## Playing

- Whoever holds the **7♠** starts, by playing it in the middle of the table.
- Then each player in turn (to the left) plays one card that fits: **any 7** starts the row of its
  suit, and a card **one rank above or below** the ends of its suit's row extends it. Rows grow
  both ways from the 7, with no gaps; King and Ace do not join.
- If you can play, you must. Only when no card in your hand fits do you **discard**: one card of
  your choice, face down in front of you.

## Scoring

When all 52 cards are played or discarded, each player adds the ranks of their discards to their
score (Ace 1, Jack 11, Queen 12, King 13). Below {rules.GAME_OVER_SCORE} points all round, the
cards are dealt again for another round.

## At the web table

Your legal cards are raised: click one to play it. With no legal card every card is raised, and the
one you click is discarded face down. Other players' discards stay face down until the round ends.
"""
