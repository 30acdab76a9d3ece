"""A Straights game drawn for one seat (``sim.api``'s table views): what the program shows before a
human's turn, the table by suit, the hand (sorted by suit and rank) and the legal plays, with what
the seat knows besides; and the same laid out around a table for the web table (``layout``): the
other seats with their hands face down and their discards, the suits in the middle, and the hand,
each legal card carrying its action.

Other seats' discards are face down, as in the card game, until the round's end shows them (the
last round, once the game is over: a finished round is followed at once by the next one's deal).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sim.api import Score, TableView, ViewRow, Zone
from sim.cards import RANKS, SUIT_NAMES, card_name, cards_in, parse_card, rank_of, suit_of
from sim.numbers import amount
from sim.pictures import SUIT_SYMBOLS, card_text
from sim.straights import rules
from sim.straights.engine import Game, Round
from sim.straights.words import BLURB, RULES, TITLE

__all__ = ["BLURB", "PICTURE", "RULES", "TITLE", "action_face", "layout", "move_label", "table"]

PICTURE = ("6H", "7H", "8H")  # the cards of the game's picture on the web table's front page


def action_face(action: int) -> str:
    """Every action plays or discards a card: that card."""
    return card_name(action)


def table_rows(current: Round) -> list[ViewRow]:
    """The cards on the table, a row per suit in the program's order."""
    return [
        {"label": suit_name, "cards": [card_name(card) for card in cards_in(current.table) if suit_of(card) == suit]}
        for suit, suit_name in enumerate(SUIT_NAMES)
    ]


def discard_row(current: Round, seat: int, viewer: int, names: Sequence[str]) -> ViewRow:
    """``seat``'s discards this round: faces for the viewer's own, backs for another seat's until the
    round is over."""
    pile = current.discards[seat]
    faces = [card_name(card) if seat == viewer or current.is_over else "back" for card in pile]
    return {"label": names[seat], "cards": faces, "note": f"{amount(len(current.hands[seat]), 'card')} in hand"}


def table(state: Game, seat: int, names: Sequence[str]) -> TableView:
    """What ``seat`` sees of the round being played (or the last one, once the game is over)."""
    current = state.round
    if current is None:
        raise ValueError("the game has not been dealt")
    hand: ViewRow = {"label": names[seat], "cards": [card_name(card) for card in sorted(current.hands[seat])]}
    if not current.is_over and not state.is_over and current.current_player == seat:
        plays = current.legal_plays()
        hand["note"] = "Legal plays: " + " ".join(map(card_name, plays)) if plays else "No legal play: discard a card"
    zones: list[Zone] = [
        {"title": "Cards on the table", "rows": table_rows(current)},
        {"title": "Your hand", "rows": [hand]},
        {
            "title": "Discards",
            "rows": [discard_row(current, other, seat, names) for other in range(rules.NUM_PLAYERS)],
        },
    ]
    penalty = rules.discard_points(current.discards[seat])
    facts = [f"Round {state.rounds_played + (0 if current.is_over else 1)}", f"Your discards so far: {penalty} points"]
    facts.append(f"The game ends when a player reaches {rules.GAME_OVER_SCORE} points; the fewest points win.")
    scores: list[Score] = [{"name": names[other], "score": state.scores[other]} for other in range(rules.NUM_PLAYERS)]
    return {"zones": zones, "facts": facts, "scores": scores}


# --------------------------------------------------------------------------- the web table's layout


def move_label(state: Game, action: int) -> str:
    """What taking ``action`` does, for a button's or a card's title."""
    current = state.live_round()
    return f"Play {card_text(action)}" if current.legal_plays() else f"Discard {card_text(action)} face down"


def cards(faces: Iterable[str], actions: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Cards for the layout: each face, with the action clicking it takes when that is legal now."""
    actions = actions or {}
    return [{"face": face, **({"action": actions[face]} if face in actions else {})} for face in faces]


def layout(state: Game, seat: int, names: Sequence[str]) -> dict[str, Any]:
    """The table around ``seat`` for the web table (``sim.web.table`` documents the shape): every seat
    with its hand (face down but ``seat``'s own), score and discards, the suits in the middle, and
    ``seat``'s hand, its legal cards carrying their actions."""
    current = state.round
    if current is None:
        raise ValueError("the game has not been dealt")
    playing = not current.is_over and not state.is_over
    to_move = current.current_player if playing else None
    legal = {card_name(card): card for card in current.legal_actions()} if to_move == seat else {}
    seats = []
    for other in range(rules.NUM_PLAYERS):
        held = len(current.hands[other])
        pile = discard_row(current, other, seat, names)
        shown = cards(pile["cards"])
        discards = {"title": "Discards", "rows": [{"label": "", "cards": shown, **({} if shown else {"note": "none"})}]}
        seats.append(
            {
                "name": names[other],
                "held": held,
                "cards": cards(["back"] * held) if other != seat else [],
                "score": amount(state.scores[other], "point"),
                "notes": [],
                "zones": [discards],
            }
        )
    # Each card at its rank's place: A on the left, the 7 in the middle, K on the right.
    suits = [
        {
            "label": f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}",
            "cards": [{**entry, "at": rank_of(parse_card(entry["face"]))} for entry in cards(row["cards"])],
            "slots": len(RANKS),
        }
        for suit, row in enumerate(table_rows(current))
    ]
    hand = [{"label": "", "cards": cards([card_name(card) for card in sorted(current.hands[seat])], legal)}]
    if legal and not current.legal_plays():
        hand[0]["note"] = "No legal play: click a card to discard it face down"
    return {
        "seats": seats,
        "middle": [{"title": "Cards on the table", "style": "suits", "rows": suits}],
        "hand": hand,
        "turn": to_move,
    }
