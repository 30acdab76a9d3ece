"""A Straights game drawn for one seat (``sim.api``'s table views): what the program shows before a
human's turn, the table by suit, the hand (sorted by suit and rank) and the legal plays, with what
the seat knows besides.

Other seats' discards are face down, as in the card game, until the round's end shows them (the
last round, once the game is over: a finished round is followed at once by the next one's deal).
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.api import Score, TableView, ViewRow, Zone
from sim.cards import SUIT_NAMES, card_name, cards_in, suit_of
from sim.straights import rules
from sim.straights.engine import Game, Round


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
    return {"label": names[seat], "cards": faces, "note": f"{len(current.hands[seat])} cards in hand"}


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
