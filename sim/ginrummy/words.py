"""How Gin Rummy is said: the ``ginrummy`` program's text for each engine event (docs/ginrummy.md
describes it), and the web table's words for people ("North takes 7♠ from the discard pile."),
which the program, the transcript (``sim.ginrummy.transcript``) and the table view
(``sim.ginrummy.view``) share.

The program calls seat 0 "you" and seat 1 "the computer". The people's words call seats by the
names they are given, conjugate for the person (``YOU``), and print none of the program's prompts
("Type D to deal").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sim.cards import card_name, format_cards
from sim.ginrummy import rules
from sim.ginrummy.engine import Discarded, Drew, Event, GameEnded, HandEnded, HandVoid, Knocked, Layout, ScoresChanged
from sim.numbers import amount
from sim.people import YOU as PERSON
from sim.people import verb
from sim.pictures import card_text, cards_text

YOU, COMPUTER = 0, 1
NAMES = ("you", "the computer")

TITLE = "Gin Rummy"
BLURB = "Two players draw and discard to meld runs and sets; knock with 10 or less unmatched, or go gin."


def seat_name(seat: int) -> str:
    return NAMES[seat]


def capitalized(text: str) -> str:
    return text[0].upper() + text[1:]


def melds_text(melds: Iterable[Iterable[int]]) -> str:
    return " ".join(f"[{format_cards(meld)}]" for meld in melds) or "none"


def deal_line(number: int, dealer: int) -> str:
    """The line that opens hand ``number`` (from 1) dealt by ``dealer``: the other seat holds 11 cards and starts."""
    return (
        f"Hand {number}: {seat_name(dealer)} deal{'s' * dealer}; "
        f"{seat_name(1 - dealer)} {'has' if dealer == YOU else 'have'} 11 cards "
        f"and start{'s' * (dealer == YOU)}."
    )


def drew_line(drew: Drew, card_seen: bool) -> str:
    """The line for a draw; a card from the stock is named only when ``card_seen`` (by the drawer)."""
    who, ending = capitalized(seat_name(drew.seat)), "s" * drew.seat
    if not drew.from_stock:
        return f"{who} take{ending} {card_name(drew.card)} from the discard pile."
    card = f" {card_name(drew.card)}" if card_seen else ""
    return f"{who} draw{ending}{card} from the stock."


def layout_line(seat: int, shown: Layout) -> str:
    value = rules.cards_value(shown.unmatched)
    owner = "Your" if seat == YOU else "The computer's"
    unmatched = format_cards(shown.unmatched) or "none"
    return f"{owner} melds: {melds_text(shown.melds)}; unmatched: {unmatched} ({value} points)."


def result_lines(ended: HandEnded) -> list[str]:
    knocker, defender = ended.knocker, 1 - ended.knocker
    lines = [layout_line(knocker, ended.knocker_layout), layout_line(defender, ended.defender_layout)]
    for card, meld in ended.layoffs:
        lays = "lay" if defender == YOU else "lays"
        lines.append(
            f"{capitalized(seat_name(defender))} {lays} off {card_name(card)} on "
            f"[{format_cards(ended.knocker_layout.melds[meld])}]."
        )
    if ended.layoffs:
        lines.append(f"Unmatched after laying off: {ended.defender_deadwood} points.")
    score = ended.score
    winner = capitalized(seat_name(score.winner))
    plural = "" if score.winner == YOU else "s"
    if score.kind == "gin":
        how = f"Gin! {winner} score{plural} {score.points} points ({ended.defender_deadwood} + 20 gin bonus)."
    elif score.kind == "undercut":
        difference = ended.knocker_deadwood - ended.defender_deadwood
        how = f"Undercut! {winner} score{plural} {score.points} points ({difference} + 10 undercut bonus)."
    else:
        how = f"{winner} score{plural} {score.points} points ({ended.defender_deadwood} - {ended.knocker_deadwood})."
    return lines + [how]


def event_lines(event: Event, target: int) -> list[str]:
    """The text for one engine event of a user's or the computer's discard or knock."""
    match event:
        case Discarded(seat=seat, card=card):
            return [f"{capitalized(seat_name(seat))} discard{'s' * seat} {card_name(card)}."]
        case Knocked(seat=seat, card=card):
            return [f"{capitalized(seat_name(seat))} knock{'s' * seat}, discarding {card_name(card)}."]
        case HandEnded():
            return result_lines(event)
        case HandVoid():
            return [
                "The stock is down to two cards: the hand is void and nobody scores.",
                "The same dealer deals again. Type D to deal.",
            ]
        case ScoresChanged(points=points):
            return [f"Points toward {target}: you {points[YOU]}, the computer {points[COMPUTER]}."]
        case GameEnded(winner=winner, points=points, hands_won=won, final=final, shutout=shutout):
            bonus = rules.SHUTOUT_GAME_BONUS if shutout else rules.GAME_BONUS
            return [
                f"{capitalized(seat_name(winner))} reach{'es' * winner} {points[winner]} and win{'s' * winner} the game"
                + (" (a shutout)." if shutout else "."),
                f"Final: you {points[YOU]} + {bonus * (winner == YOU)} game bonus"
                f" + {won[YOU]} x 20 box = {final[YOU]}; "
                f"the computer {points[COMPUTER]} + {bonus * (winner == COMPUTER)} game bonus"
                f" + {won[COMPUTER]} x 20 box = {final[COMPUTER]}.",
                "Type S for a new game, or D to play more hands on these points.",
            ]
    return []


# --------------------------------------------------------------------------- the web table's words


def possessive(name: str) -> str:
    return "Your" if name == PERSON else f"{name}'s"


def hand_started_line(number: int, dealer: int, names: Sequence[str]) -> str:
    """The line that opens hand ``number`` (from 1) dealt by ``dealer``: the other seat holds 11 cards and starts."""
    other = names[1 - dealer]
    return (
        f"Hand {number}: {verb(names[dealer], 'deal', 'deals')}; {verb(other, 'have', 'has')} "
        f"{rules.FIRST_HAND_SIZE} cards and {'start' if other == PERSON else 'starts'} with a discard."
    )


def drew_text(drew: Drew, names: Sequence[str], card_seen: bool) -> str:
    """A draw in people's words; a card from the stock is named only when ``card_seen`` (by the drawer)."""
    name = names[drew.seat]
    if not drew.from_stock:
        return f"{verb(name, 'take', 'takes')} {card_text(drew.card)} from the discard pile."
    card = f" {card_text(drew.card)}" if card_seen else " a card"
    return f"{verb(name, 'draw', 'draws')}{card} from the stock."


def laid_down_line(name: str, shown: Layout) -> str:
    melds = " ".join(f"[{cards_text(meld)}]" for meld in shown.melds) or "no melds"
    unmatched = cards_text(shown.unmatched) or "none"
    points = amount(rules.cards_value(shown.unmatched), "point")
    return f"{possessive(name)} melds: {melds}; unmatched: {unmatched} ({points})."


def hand_result_lines(ended: HandEnded, names: Sequence[str]) -> list[str]:
    knocker, defender = ended.knocker, 1 - ended.knocker
    lines = [
        laid_down_line(names[knocker], ended.knocker_layout),
        laid_down_line(names[defender], ended.defender_layout),
    ]
    for card, meld in ended.layoffs:
        on = cards_text(ended.knocker_layout.melds[meld])
        lines.append(f"{verb(names[defender], 'lay', 'lays')} off {card_text(card)} on [{on}].")
    if ended.layoffs:
        lines.append(f"Unmatched after laying off: {amount(ended.defender_deadwood, 'point')}.")
    score = ended.score
    scores = f"{verb(names[score.winner], 'score', 'scores')} {amount(score.points, 'point')}"
    if score.kind == "gin":
        how = f"Gin! {scores} ({ended.defender_deadwood} + {rules.GIN_BONUS} gin bonus)."
    elif score.kind == "undercut":
        difference = ended.knocker_deadwood - ended.defender_deadwood
        how = f"Undercut! {scores} ({difference} + {rules.UNDERCUT_BONUS} undercut bonus)."
    else:
        how = f"{scores} ({ended.defender_deadwood} - {ended.knocker_deadwood})."
    return lines + [how]


def people_lines(event: Event, names: Sequence[str], target: int) -> list[str]:
    """The web table's words for one engine event of a discard or knock (a draw: ``drew_text``)."""
    match event:
        case Discarded(seat=seat, card=card):
            return [f"{verb(names[seat], 'discard', 'discards')} {card_text(card)}."]
        case Knocked(seat=seat, card=card):
            return [f"{verb(names[seat], 'knock', 'knocks')}, discarding {card_text(card)} face down."]
        case HandEnded():
            return hand_result_lines(event, names)
        case HandVoid():
            return ["The stock is down to two cards: the hand is void, nobody scores, and the same dealer deals again."]
        case ScoresChanged(points=points):
            said = ", ".join(f"{names[seat]} {points[seat]}" for seat in range(rules.NUM_PLAYERS))
            return [f"Points toward {target}: {said}."]
        case GameEnded(winner=winner, points=points, hands_won=won, final=final, shutout=shutout):
            bonus = rules.SHUTOUT_GAME_BONUS if shutout else rules.GAME_BONUS
            totals = "; ".join(
                f"{names[seat]} {points[seat]} + {bonus * (winner == seat)} game bonus"
                f" + {won[seat]} × {rules.BOX_BONUS} box = {final[seat]}"
                for seat in range(rules.NUM_PLAYERS)
            )
            name = names[winner]
            reaches = f"{verb(name, 'reach', 'reaches')} {points[winner]} and {'win' if name == PERSON else 'wins'}"
            return [f"{reaches} the game{' (a shutout)' if shutout else ''}!", f"Final: {totals}."]
    return []


def hand_line(name: str, cards: Iterable[int]) -> str:
    """The cards a seat is dealt, as the person sees their own."""
    return f"{verb(name, 'hold', 'holds')} {cards_text(cards)}."


RULES = f"""
## The aim

Two players, a 52-card pack. Meld your cards into **runs** (three or more of one suit in sequence,
Ace low: A-2-3 yes, Q-K-A no) and **sets** (three or four of a rank). Cards in no meld are
**deadwood**, counted Ace 1, 2 to 10 at face value, J, Q, K 10 each. The first to
{rules.GAME_TARGET} points wins the game.

## A hand

- The dealer gives the other player {rules.FIRST_HAND_SIZE} cards and takes {rules.HAND_SIZE}; the
  rest is the **stock**. The player with {rules.FIRST_HAND_SIZE} cards starts by discarding.
- Then each turn: **draw** the top card of the stock or of the discard pile, then **discard** one
  card face up. A card just taken from the discard pile may not be thrown back the same turn.
- Instead of discarding, you may **knock** when the cards you keep have {rules.KNOCK_LIMIT} points
  of deadwood or less: the hand ends and both lay their melds down. With no deadwood at all it is
  **gin**.
- If a discard leaves only two cards in the stock without a knock, the hand is void: nobody
  scores and the same dealer deals again.

## Scoring a hand

The other player may **lay off** deadwood on the knocker's melds (never on gin). Then the knocker
scores the difference in deadwood; **gin** scores the other's deadwood + {rules.GIN_BONUS}; if the
other's deadwood is as low as the knocker's or lower, that is an **undercut**: the other player scores
the difference + {rules.UNDERCUT_BONUS}.

## The game

Reaching {rules.GAME_TARGET} wins a {rules.GAME_BONUS}-point game bonus
({rules.SHUTOUT_GAME_BONUS} if the loser scored nothing), and each hand won adds a
{rules.BOX_BONUS}-point box bonus at the end.

## At the web table

Click the stock or the discard pile to draw; click a raised card in your hand to discard it.
Knocks (and gin) are buttons beside your hand, one per card you could knock with. Your hand is
shown in the melds of its best arrangement, deadwood last.
"""
