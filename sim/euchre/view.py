"""A Euchre game drawn for one seat (``sim.api``'s table views): the upcard while trump is being
made, the trick being played (or, before the next lead, the trick taken last), the seat's own hand
by suit, the other hands face down, and each partnership's tricks and points; and the same laid
out around a table for the web table (``layout``): the trick by seat, the seats around it, and the
hand, each legal card carrying its action.

The seat never sees another seat's cards, the three cards left undealt, or the card the dealer
threw away (only the dealer does). The engine deals the next hand as soon as one ends, so between
hands the table shows the new deal; once the game is over, the last hand's last trick.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sim.api import Score, TableView, ViewRow, Zone
from sim.cards import SUIT_NAMES, card_name, suit_of
from sim.euchre import rules
from sim.euchre.engine import Game, Hand
from sim.euchre.observation import NONE, ORDER_UP, PASS, Phase, action_name, ordered_suit
from sim.euchre.words import BLURB, RULES, TITLE, team_names
from sim.numbers import amount
from sim.people import object_name
from sim.pictures import card_text

__all__ = ["BLURB", "PICTURE", "RULES", "TITLE", "action_face", "layout", "move_label", "table"]

PICTURE = ("JH", "JD", "AH")  # the cards of the game's picture on the web table's front page

TURN_VERBS = {Phase.MAKING: "bid", Phase.DISCARD: "throw away", Phase.PLAYING: "play"}


def action_face(action: int) -> str | None:
    """A card's action plays it (or, for the dealer, throws it away): that card; bids play none."""
    return card_name(action) if action < ORDER_UP else None


def hand_order(card: int, trump: int) -> tuple[bool, int, tuple[int, ...]]:
    """Sort key of a hand as people hold it: suits together, each from low to high; once trump is
    made, the trumps (with the left bower) last, in trump order."""
    if trump == NONE:
        return False, suit_of(card), rules.plain_key(card)
    suit = rules.effective_suit(card, trump)
    return suit == trump, suit, rules.trump_key(card, trump)


def last_trick(hand: Hand) -> tuple[list[int], int]:
    """The cards of the trick taken last and the seat that led it, replaying who took each trick."""
    taken = len(hand.played) - len(hand.trick)
    tricks = [hand.played[start : start + rules.NUM_PLAYERS] for start in range(0, taken, rules.NUM_PLAYERS)]
    leader = rules.left_of(hand.dealer)
    for trick in tricks[:-1]:
        leader = rules.trick_winner(trick, leader, hand.trump)
    return tricks[-1], leader


def trick_zone(hand: Hand, names: Sequence[str]) -> Zone:
    """The trick, a row per seat from its leader: the one being played, or the last one taken (its
    taker noted) until the next card is led."""
    if hand.trick or not hand.played:
        title, cards, leader = "Trick", hand.trick, hand.leader
    else:
        title, (cards, leader) = "Last trick", last_trick(hand)
    rows: list[ViewRow] = []
    for offset in range(rules.NUM_PLAYERS):
        seat = rules.left_of(leader, offset)
        rows.append({"label": names[seat], "cards": [card_name(card) for card in cards[offset : offset + 1]]})
        if title == "Last trick" and seat == hand.leader:
            rows[-1]["note"] = "took the trick"
    return {"title": title, "rows": rows}


def upcard_zone(hand: Hand, names: Sequence[str]) -> Zone:
    """The card the dealer turned up, and whether it was turned down (round two of making)."""
    note = "turned up by the dealer" if hand.making_round == 1 else "turned down: name another suit"
    return {"title": "Upcard", "rows": [{"label": names[hand.dealer], "cards": [card_name(hand.upcard)], "note": note}]}


def own_hand_row(hand: Hand, seat: int, name: str) -> ViewRow:
    """The seat's cards in ``hand_order``, with what it may do when it is to move."""
    row: ViewRow = {
        "label": name,
        "cards": [card_name(card) for card in sorted(hand.hands[seat], key=lambda card: hand_order(card, hand.trump))],
    }
    if not hand.is_over and hand.current_player == seat:
        choices = ", ".join(action_name(action) for action in hand.legal_actions())
        row["note"] = f"Your turn to {TURN_VERBS[hand.phase]}: {choices}"
    return row


def facts(state: Game, hand: Hand, seat: int, names: tuple[str, ...]) -> list[str]:
    """The deal, the trump, the viewer's own discard as dealer, the tricks and the game's end."""
    lines = [f"Hand {state.hands_played + (0 if state.is_over else 1)}, dealt by {object_name(names[hand.dealer])}"]
    if hand.phase == Phase.MAKING:
        lines.append(f"Making trump: round {hand.making_round}")
    else:
        maker = object_name(names[hand.maker])
        lines.append(f"Trump: {SUIT_NAMES[hand.trump]}, ordered up by {maker} in round {hand.making_round}")
    if seat == hand.dealer and hand.discard != NONE:
        lines.append(f"You threw away {card_text(hand.discard)}")
    tricks = ", ".join(f"{team_names(names, team)} {hand.tricks_won[team]}" for team in range(rules.NUM_TEAMS))
    lines.append(f"Tricks this hand: {tricks}")
    if state.winners is None:
        lines.append(f"The first partnership to {state.points_to_win} points wins.")
    else:
        lines.append(f"{team_names(names, state.winners)} win!")
    return lines


def table(state: Game, seat: int, names: Sequence[str]) -> TableView:
    """What ``seat`` sees of the hand being played (or the last one, once the game is over)."""
    hand = state.hand
    if hand is None:
        raise ValueError("the game has not been dealt")
    others = [rules.left_of(seat, steps) for steps in range(1, rules.NUM_PLAYERS)]
    hidden: list[ViewRow] = [
        {
            "label": names[other],
            "cards": ["back"] * len(hand.hands[other]),
            "note": amount(len(hand.hands[other]), "card"),
        }
        for other in others
    ]
    zones: list[Zone] = [upcard_zone(hand, names)] if hand.phase == Phase.MAKING else []
    zones += [
        trick_zone(hand, names),
        {"title": "Your hand", "rows": [own_hand_row(hand, seat, names[seat])]},
        {"title": "Other hands", "rows": hidden},
    ]
    scores: list[Score] = [
        {"name": team_names(tuple(names), team), "score": state.scores[team]} for team in range(rules.NUM_TEAMS)
    ]
    return {"zones": zones, "facts": facts(state, hand, seat, tuple(names)), "scores": scores}


# --------------------------------------------------------------------------- the web table's layout


def move_label(state: Game, action: int) -> str:
    """What taking ``action`` does, for a button's or a card's title."""
    hand = state.live_hand()
    if action == PASS:
        return "Pass"
    suit = ordered_suit(action)
    if suit is not None:
        return f"Order up {SUIT_NAMES[suit]}" if hand.making_round == 1 else f"Call {SUIT_NAMES[suit]}"
    return f"Throw away {card_text(action)}" if hand.phase == Phase.DISCARD else f"Play {card_text(action)}"


def cards(faces: Iterable[str], actions: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Cards for the layout: each face, with the action clicking it takes when that is legal now."""
    actions = actions or {}
    return [{"face": face, **({"action": actions[face]} if face in actions else {})} for face in faces]


def seat_notes(state: Game, hand: Hand, other: int, seat: int) -> list[str]:
    notes = []
    if other == hand.dealer:
        notes.append("dealer")
    if other == hand.maker:
        notes.append(f"made {SUIT_NAMES[hand.trump]}")
    if other != seat and other % rules.NUM_TEAMS == seat % rules.NUM_TEAMS:
        notes.append("partner")
    team = other % rules.NUM_TEAMS
    notes.append(amount(hand.tricks_won[team], "trick"))
    return notes


def layout(state: Game, seat: int, names: Sequence[str]) -> dict[str, Any]:
    """The table around ``seat`` for the web table (``sim.web.table`` documents the shape): the seats
    with their hands face down, partnership points and tricks; the upcard while trump is made and the
    trick laid out by seat in the middle; ``seat``'s hand, its legal cards carrying their actions."""
    hand = state.hand
    if hand is None:
        raise ValueError("the game has not been dealt")
    to_move = hand.current_player if not hand.is_over and not state.is_over else None
    legal = (
        {card_name(action): action for action in hand.legal_actions() if action < ORDER_UP} if to_move == seat else {}
    )
    seats = [
        {
            "name": names[other],
            "held": len(hand.hands[other]),
            "cards": cards(["back"] * len(hand.hands[other])) if other != seat else [],
            "score": amount(state.scores[other % rules.NUM_TEAMS], "point"),
            "notes": seat_notes(state, hand, other, seat),
            "zones": [],
        }
        for other in range(rules.NUM_PLAYERS)
    ]
    middle: list[dict[str, Any]] = []
    if hand.phase == Phase.MAKING:
        upcard = upcard_zone(hand, names)
        middle.append(
            {
                "title": "Upcard",
                "style": "piles",
                "rows": [
                    {
                        "label": "Upcard",
                        "cards": cards(upcard["rows"][0]["cards"]),
                        "note": upcard["rows"][0].get("note", ""),
                    }
                ],
            }
        )
    trick = trick_zone(hand, names)
    order = [rules.left_of(trick_leader(hand), offset) for offset in range(rules.NUM_PLAYERS)]
    rows = [{**row, "cards": cards(row["cards"]), "seat": at} for row, at in zip(trick["rows"], order)]
    middle.append({"title": trick["title"], "style": "trick", "rows": rows})
    if hand.trump != NONE:
        middle[-1]["note"] = f"Trump: {SUIT_NAMES[hand.trump]}"
    shown = sorted(hand.hands[seat], key=lambda card: hand_order(card, hand.trump))
    mine = [{"label": "", "cards": cards([card_name(card) for card in shown], legal)}]
    if to_move == seat and hand.phase == Phase.DISCARD:
        mine[0]["note"] = "You picked up the upcard: click a card to throw it away"
    return {"seats": seats, "middle": middle, "hand": mine, "turn": to_move}


def trick_leader(hand: Hand) -> int:
    """The seat that led the trick ``trick_zone`` shows."""
    return hand.leader if hand.trick or not hand.played else last_trick(hand)[1]
