"""A Gin Rummy game drawn for one seat (``sim.api``'s table views): the seat's hand split into the
melds of an arrangement with the least deadwood and the deadwood left, the stock and the top of the
discard pile, the opponent's hand face down but for the cards it took from the discard pile (both
players saw them taken), and the game's points.

Once a knock ends a hand, the opponent's cards are laid down face up as the ``ginrummy`` program
shows them: its melds and unmatched cards. A whole game deals the next hand as soon as one ends, so
that is seen once the game is over (its last hand is always a knocked one).

``layout`` lays the same out around a table for the web table: the opponent across, the stock and
the discard pile in the middle (each carrying its draw when that is legal), and the hand in its
melds, each card that may be discarded carrying its action.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sim.api import Score, TableView, ViewRow, Zone
from sim.cards import card_name, cards_in, format_cards
from sim.ginrummy import rules
from sim.ginrummy.engine import Game, Hand, HandEnded
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, Phase, knocked_card
from sim.ginrummy.words import BLURB, RULES, TITLE
from sim.numbers import amount
from sim.people import object_name
from sim.pictures import card_text

__all__ = ["BLURB", "PICTURE", "RULES", "TITLE", "action_face", "layout", "move_label", "table"]

PICTURE = ("4D", "5D", "6D")  # the cards of the game's picture on the web table's front page

HOW_KNOCKED = {"gin": "went gin", "knock": "knocked", "undercut": "knocked and was undercut"}


def action_face(action: int) -> str | None:
    """A discard or a knock throws a card (a knock's face down): that card; a draw throws none."""
    if action in (DRAW_STOCK, DRAW_DISCARD):
        return None
    knocked = knocked_card(action)
    return card_name(action if knocked is None else knocked)


def faces(cards: Iterable[int]) -> list[str]:
    """The cards' names."""
    return [card_name(card) for card in cards]


def meld_rows(melds: Iterable[Sequence[int]], unmatched: Sequence[int], unmatched_label: str) -> list[ViewRow]:
    """A row per meld ("Run" or "Set") and one of the cards left over, with their points."""
    rows: list[ViewRow] = [{"label": "Run" if rules.is_run(meld) else "Set", "cards": faces(meld)} for meld in melds]
    points = amount(rules.cards_value(unmatched), "point")
    return rows + [{"label": unmatched_label, "cards": faces(unmatched), "note": points}]


def opponent_zone(current: Hand, opponent: int, name: str) -> Zone:
    """The opponent's cards: laid down once a knock ends the hand, else face down but for those it
    took from the discard pile."""
    if isinstance(current.ended, HandEnded):
        ended = current.ended
        shown = ended.knocker_layout if opponent == ended.knocker else ended.defender_layout
        return {"title": "Opponent's melds", "rows": meld_rows(shown.melds, shown.unmatched, "Unmatched")}
    held, known = current.hands[opponent].bit_count(), faces(cards_in(current.took[opponent]))
    note = amount(held, "card") + (f", {len(known)} taken from the discard pile" if known else "")
    return {
        "title": "Opponent's hand",
        "rows": [{"label": name, "cards": known + ["back"] * (held - len(known)), "note": note}],
    }


def pile_rows(current: Hand) -> list[ViewRow]:
    """The stock face down and the discard pile's top card, each with its size."""
    return [
        {"label": "Stock", "cards": ["back"], "note": amount(len(current.stock), "card")},
        {"label": "Discard pile", "cards": faces(current.pile[-1:]), "note": amount(len(current.pile), "card")},
    ]


def hand_facts(current: Hand, seat: int, names: Sequence[str]) -> list[str]:
    """The viewer's deadwood and what it may do; once a knock ends the hand, how it ended."""
    lines = [f"Deadwood: {rules.deadwood(current.hands[seat])}"]
    if not current.is_over and current.current_player == seat:
        if current.phase == Phase.DRAW:
            lines.append("Your turn to draw from the stock or the discard pile")
        else:
            can_knock = any(knocked_card(action) is not None for action in current.legal_actions())
            lines.append("Your turn to discard" + (" or knock" if can_knock else ""))
    if isinstance(current.ended, HandEnded):
        ended, score = current.ended, current.ended.score
        lines.append(f"{names[ended.knocker]} {HOW_KNOCKED[score.kind]} with {ended.knocker_deadwood} deadwood")
        if ended.layoffs:
            laid = format_cards(card for card, _ in ended.layoffs)
            lines.append(f"{names[1 - ended.knocker]} laid off {laid}: {ended.defender_deadwood} deadwood left")
        lines.append(f"{names[score.winner]} scored {amount(score.points, 'point')}")
    return lines


def game_facts(state: Game, names: Sequence[str]) -> list[str]:
    """Hands won (the box bonuses) and how the game is won, or who won it."""
    won = ", ".join(f"{names[seat]} {state.hands_won[seat]}" for seat in range(rules.NUM_PLAYERS))
    lines = [f"Hands won ({rules.BOX_BONUS}-point box bonus each at the game's end): {won}"]
    if state.winner is None:
        lines.append(f"The first to {state.target} points wins the game and a {rules.GAME_BONUS}-point bonus.")
    else:
        lines.append(f"{names[state.winner]} won the game: the scores include the game and box bonuses.")
    return lines


def table(state: Game, seat: int, names: Sequence[str]) -> TableView:
    """What ``seat`` sees of the hand being played (or the last one, once the game is over)."""
    current = state.hand
    if current is None:
        raise ValueError("the game has not been dealt")
    opponent = 1 - seat
    melds, deadwood = rules.best_arrangement(current.hands[seat])
    zones: list[Zone] = [
        {"title": "Your hand", "rows": meld_rows(melds, deadwood, "Deadwood")},
        {"title": "Stock and discard pile", "rows": pile_rows(current)},
        opponent_zone(current, opponent, names[opponent]),
    ]
    facts = [
        f"Hand {state.hands_dealt}, dealt by {object_name(names[current.dealer])}",
        *hand_facts(current, seat, names),
    ]
    points = state.points()
    scores: list[Score] = [{"name": names[other], "score": points[other]} for other in range(rules.NUM_PLAYERS)]
    return {"zones": zones, "facts": facts + game_facts(state, names), "scores": scores}


# --------------------------------------------------------------------------- the web table's layout


def move_label(state: Game, action: int) -> str:
    """What taking ``action`` does, for a button's or a card's title."""
    current = state.hand
    if action == DRAW_STOCK:
        return "Draw from the stock"
    if action == DRAW_DISCARD:
        top = card_text(current.pile[-1]) if current is not None and current.pile else "the top card"
        return f"Take {top} from the discard pile"
    knocked = knocked_card(action)
    if knocked is None:
        return f"Discard {card_text(action)}"
    if current is not None and rules.deadwood(current.hands[current.current_player] & ~(1 << knocked)) == 0:
        return f"Gin: discard {card_text(knocked)}"
    return f"Knock, discarding {card_text(knocked)}"


def cards(faces: Iterable[str], actions: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Cards for the layout: each face, with the action clicking it takes when that is legal now."""
    actions = actions or {}
    return [{"face": face, **({"action": actions[face]} if face in actions else {})} for face in faces]


def layout(state: Game, seat: int, names: Sequence[str]) -> dict[str, Any]:
    """The table around ``seat`` for the web table (``sim.web.table`` documents the shape): the
    opponent's hand face down (but for the cards it took from the pile) or laid down once a knock
    ends the hand; the stock and the discard pile; ``seat``'s hand in its melds."""
    current = state.hand
    if current is None:
        raise ValueError("the game has not been dealt")
    to_move = current.current_player if not current.is_over and not state.is_over else None
    legal = set(current.legal_actions()) if to_move == seat else set()
    points = state.points()
    seats = []
    for other in range(rules.NUM_PLAYERS):
        notes = [amount(state.hands_won[other], "hand") + " won"]
        if other == current.dealer:
            notes.insert(0, "dealer")
        entry: dict[str, Any] = {
            "name": names[other],
            "held": current.hands[other].bit_count(),
            "cards": [],
            "score": amount(points[other], "point"),
            "notes": notes,
            "zones": [],
        }
        if other != seat:
            shown = opponent_zone(current, other, names[other])
            if isinstance(current.ended, HandEnded):
                entry["zones"] = [
                    {"title": "Laid down", "rows": [{**row, "cards": cards(row["cards"])} for row in shown["rows"]]}
                ]
            else:
                entry["cards"] = cards(shown["rows"][0]["cards"])
        seats.append(entry)
    piles = [
        {
            "label": "Stock",
            "cards": cards(["back"] if current.stock else [], {"back": DRAW_STOCK} if DRAW_STOCK in legal else {}),
            "note": amount(len(current.stock), "card"),
        },
        {
            "label": "Discard pile",
            "cards": cards(
                faces(current.pile[-1:]), {card_name(current.pile[-1]): DRAW_DISCARD} if DRAW_DISCARD in legal else {}
            ),
            "note": amount(len(current.pile), "card"),
        },
    ]
    discards = {
        card_name(action): action
        for action in legal
        if action not in (DRAW_STOCK, DRAW_DISCARD) and knocked_card(action) is None
    }
    melds, deadwood = rules.best_arrangement(current.hands[seat])
    hand = [{**row, "cards": cards(row["cards"], discards)} for row in meld_rows(melds, deadwood, "Deadwood")]
    return {
        "seats": seats,
        "middle": [{"title": "Stock and discard pile", "style": "piles", "rows": piles}],
        "hand": hand,
        "turn": to_move,
    }
