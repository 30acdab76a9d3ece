"""A Gin Rummy game drawn for one seat (``sim.api``'s table views): the seat's hand split into the
melds of an arrangement with the least deadwood and the deadwood left, the stock and the top of the
discard pile, the opponent's hand face down but for the cards it took from the discard pile (both
players saw them taken), and the game's points.

Once a knock ends a hand, the opponent's cards are laid down face up as the ``ginrummy`` program
shows them: its melds and unmatched cards. A whole game deals the next hand as soon as one ends, so
that is seen once the game is over (its last hand is always a knocked one).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sim.api import Score, TableView, ViewRow, Zone
from sim.cards import card_name, cards_in, format_cards
from sim.ginrummy import rules
from sim.ginrummy.engine import Game, Hand, HandEnded
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, Phase, knocked_card
from sim.numbers import amount

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
    facts = [f"Hand {state.hands_dealt}, dealt by {names[current.dealer]}", *hand_facts(current, seat, names)]
    points = state.points()
    scores: list[Score] = [{"name": names[other], "score": points[other]} for other in range(rules.NUM_PLAYERS)]
    return {"zones": zones, "facts": facts + game_facts(state, names), "scores": scores}
