"""How Euchre is said: the ``euchre`` program's text for each engine event (byte for byte the spec's
Appendices), and the web table's words for people ("West leads J♠."), which the program, the
transcript (``sim.euchre.transcript``) and the table view (``sim.euchre.view``) share.

The people's words name the person ``YOU`` and conjugate for it, count hands from 1 as the table's
panel does, and print no prompt and no blank spacer lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sim.cards import SUIT_NAMES
from sim.euchre import rules
from sim.euchre.engine import (
    Discarded,
    Event,
    GameEnded,
    HandEnded,
    HandStarted,
    MakingEnded,
    OrderedUp,
    Passed,
    Played,
    ScoresChanged,
    TrickTaken,
)
from sim.numbers import amount
from sim.people import YOU, verb
from sim.pictures import card_text, cards_text

TABLE_NAMES = ("South", "West", "North", "East")  # cardsim play euchre's seats: you sit South, your partner North

TITLE = "Euchre"
BLURB = "Two partnerships, a 24-card pack: make trump, then take three of the five tricks."


def team_names(names: tuple[str, ...], team: int) -> str:
    """A partnership, lower seat first: ``"Adi and Chi-Chih"``."""
    return f"{names[team]} and {names[team + 2]}"


def event_lines(event: Event, names: tuple[str, ...]) -> list[str]:
    """The spec's text for one engine event (the dealer's discard prints nothing)."""
    card = rules.card_long_name
    match event:
        case HandStarted(number=number, dealer=dealer, upcard=upcard):
            return [f"Hand {number}", f"{names[dealer]} deals", f"{card(upcard)} turned up"]
        case Passed(seat=seat):
            return [f"{names[seat]} passes"]
        case OrderedUp(seat=seat, suit=suit):
            return [f"{names[seat]} orders up {SUIT_NAMES[suit]}"]
        case MakingEnded():
            return [""]
        case Played(seat=seat, card=played, led=led):
            return [f"{card(played)} {'led' if led else 'played'} by {names[seat]}"]
        case TrickTaken(seat=seat):
            return [f"{names[seat]} takes the trick", ""]
        case HandEnded(winners=winners, bonus=bonus):
            return [f"{team_names(names, winners)} win the hand"] + ([f"{bonus}!"] if bonus else [])
        case ScoresChanged(scores=scores):
            return [f"{team_names(names, team)} have {scores[team]} points" for team in range(rules.NUM_TEAMS)] + [""]
        case GameEnded(winners=winners):
            return [f"{team_names(names, winners)} win!"]
    return []


# --------------------------------------------------------------------------- the web table's words


def hand_started_line(number: int, dealer: str, upcard: int) -> str:
    """The first line of hand ``number`` (from 1)."""
    turns = "turn" if dealer == YOU else "turns"
    return f"Hand {number}: {verb(dealer, 'deal', 'deals')} and {turns} up {card_text(upcard)}."


def people_lines(event: Event, names: Sequence[str]) -> list[str]:
    """The web table's words for one engine event (the dealer's discard named: ``transcript.told``
    hides another seat's)."""
    teams = tuple(names)
    match event:
        case HandStarted(number=number, dealer=dealer, upcard=upcard):
            return [hand_started_line(number + 1, names[dealer], upcard)]
        case Passed(seat=seat):
            return [f"{verb(names[seat], 'pass', 'passes')}."]
        case OrderedUp(seat=seat, suit=suit, making_round=1):
            return [f"{verb(names[seat], 'order', 'orders')} up {SUIT_NAMES[suit]}: the dealer picks up the upcard."]
        case OrderedUp(seat=seat, suit=suit):
            return [f"{verb(names[seat], 'call', 'calls')} {SUIT_NAMES[suit]} as trump."]
        case Discarded(seat=seat, card=card):
            return [f"{verb(names[seat], 'throw', 'throws')} away {card_text(card)}."]
        case MakingEnded(trump=trump, maker=maker):
            makers = team_names(teams, maker % rules.NUM_TEAMS)
            return [f"{SUIT_NAMES[trump]} are trump: {makers} must take three tricks."]
        case Played(seat=seat, card=card, led=led):
            return [f"{verb(names[seat], 'lead' if led else 'play', 'leads' if led else 'plays')} {card_text(card)}."]
        case TrickTaken(seat=seat):
            return [f"{verb(names[seat], 'take', 'takes')} the trick."]
        case HandEnded(winners=winners, points=points, bonus=bonus, tricks_won=tricks):
            how = {"march": " (a march)", "euchred": ": the makers are euchred"}.get(bonus, "")
            taken = "all five tricks" if tricks[winners] == rules.TRICKS_PER_HAND else amount(tricks[winners], "trick")
            return [f"{team_names(teams, winners)} take {taken}{how} and score {amount(points, 'point')}."]
        case ScoresChanged(scores=scores):
            said = ", ".join(f"{team_names(teams, team)} {scores[team]}" for team in range(rules.NUM_TEAMS))
            return [f"Score: {said}."]
        case GameEnded(winners=winners):
            return [f"{team_names(teams, winners)} win the game!"]
    return []


def hidden_discard_line(name: str) -> str:
    """The dealer's discard, told to a seat that does not see it."""
    return f"{verb(name, 'throw', 'throws')} a card away."


def hand_line(name: str, cards: Iterable[int]) -> str:
    """The cards a seat is dealt, as the person sees their own."""
    return f"{verb(name, 'hold', 'holds')} {cards_text(cards)}."


RULES = f"""
## The aim

Four players in two partnerships: you (South) and North against West and East. A 24-card pack
(9, 10, J, Q, K, A of each suit), five cards each. The first partnership to
{rules.DEFAULT_POINTS_TO_WIN} points wins.

## Making trump

The card after the deal is turned up: the **upcard**.

- **Round one**: starting left of the dealer, each player may **order up** the upcard's suit as
  trump, or **pass**. When someone orders up, the dealer picks up the upcard and throws away one card.
- **Round two** (everyone passed): each player may **call** any other suit as trump, or pass. If it
  gets back to the dealer, the dealer must call one (*screw the dealer*).

Whoever orders up or calls makes their partnership the **makers**.

## Tricks

Left of the dealer leads the first trick; each player in turn plays one card, and must **follow
the suit led** if they can. The highest trump wins the trick, else the highest card of the suit
led; the winner leads the next trick. The Jack of trump (the **right bower**) is the highest trump,
then the Jack of the same colour (the **left bower**, which counts as a trump), then A, K, Q, 10, 9
of trump.

## Scoring

The partnership taking three or more of the five tricks scores: the makers 1 point for three or
four tricks and 2 for all five (a **march**); the defenders 2 points for three or more (the makers
are **euchred**).

## At the web table

Your partner sits across. Bids (order up, call a suit, pass) are buttons beside your hand; to play
a card, or to throw one away as dealer, click it: the cards you may play are raised.
"""
