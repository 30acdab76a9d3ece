"""A Gemstones game drawn for one seat (``sim.api``'s table views): what every player sees (notes,
section 7), the trade area, the discard pile's top card, the deck's size, both seats' chains and
coins, whose turn it is and at which step, and the seat's own hand in its order.

The opponent's hand is face down (only its size shows) and the deck order is never shown. A card
waiting for a sale was played face up, so the step names it.
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.api import Score, TableView, ViewRow, Zone
from sim.gemstones import rules
from sim.gemstones.engine import NUM_PLAYERS, State, winner_of
from sim.gemstones.observation import CHAIN, SELL, Phase
from sim.numbers import amount
from sim.pictures import WIDTH, card_frame


def face(stone: int) -> str:
    """A stone card's face: its stone's name in lower case."""
    return rules.STONES[stone].lower()


# Each stone's colour, in rules.STONES order, chosen so the eight tell apart at a glance.
STONE_COLOURS = ("#e8e4da", "#5b5f66", "#1d1b26", "#1f8a5b", "#2cb5c0", "#c2182b", "#8e4cc9", "#0f9d3a")
FACES = {face_name.lower(): stone for stone, face_name in enumerate(rules.STONES)}


def picture(card_face: str) -> str | None:
    """The SVG of a stone card (a cut gem in the stone's colour over its name); None for other faces."""
    stone = FACES.get(card_face)
    if stone is None:
        return None
    middle = WIDTH // 2
    return card_frame(
        f'<polygon points="{middle},18 54,34 {middle},70 16,34" fill="{STONE_COLOURS[stone]}" stroke="#333" '
        'stroke-width="1.5"/>'
        f'<polygon points="{middle},18 44,34 {middle},70 26,34" fill="#ffffff" fill-opacity="0.2"/>'
        '<line x1="16" y1="34" x2="54" y2="34" stroke="#ffffff" stroke-opacity="0.5"/>'
        f'<text x="{middle}" y="89" font-size="13" font-weight="bold" font-family="sans-serif" text-anchor="middle" '
        f'fill="#222">{rules.STONES[stone]}</text>'
    )


def action_face(action: int) -> str | None:
    """The stone a chaining action takes from the trade area; other actions name no stone (a play or a
    discard names a hand position, whose card depends on the state)."""
    return face(action - CHAIN) if CHAIN <= action < SELL else None


def hand_rows(state: State, seat: int, names: Sequence[str]) -> list[ViewRow]:
    """The seat's own hand front first, then the opponent's as backs."""
    own, hidden = [face(stone) for stone in state.hands[seat]], ["back"] * len(state.hands[1 - seat])
    return [
        {"label": names[seat], "cards": own, "note": "front card first: played in this order"},
        {"label": names[1 - seat], "cards": hidden, "note": f"{amount(len(hidden), 'card')}, hidden"},
    ]


def chain_row(state: State, seat: int, slot: int, name: str) -> ViewRow:
    """One chain slot of ``seat``: its cards and what they sell for now, or why the slot is empty."""
    label = f"{name}: chain {slot + 1}"
    if slot >= len(state.slots[seat]):
        return {"label": label, "cards": [], "note": f"not bought (costs {state.variants.third_chain_cost} coins)"}
    chain = state.slots[seat][slot]
    if chain is None:
        return {"label": label, "cards": [], "note": "empty"}
    stone, length = chain
    coins = rules.chain_value(stone, length)
    return {"label": label, "cards": [face(stone)] * length, "note": f"sells for {amount(coins, 'coin')}"}


def pile_rows(state: State) -> list[ViewRow]:
    """The trade area in order, the discard pile's top card and the deck face down, with their sizes."""
    top = [face(state.discard[-1])] if state.discard else []
    return [
        {"label": "Trade area", "cards": [face(stone) for stone in state.trade_area]},
        {"label": "Discard pile", "cards": top, "note": amount(len(state.discard), "card")},
        {"label": "Deck", "cards": ["back"] if state.deck else [], "note": amount(len(state.deck), "card")},
    ]


def step_fact(state: State, names: Sequence[str]) -> str:
    """The decision the player to move faces, in the console game's words where it has them."""
    mover, opponent = names[state.current_player], names[1 - state.current_player]
    if state.phase == Phase.SELL:
        pending, _ = state.waiting_sale()
        return f"No chain or free slot for {rules.STONES[pending]}: {mover} must sell a chain."
    return {
        Phase.BUY: f"{mover} may buy a third chain for {state.variants.third_chain_cost} coins.",
        Phase.OFFER: f"{mover} may chain cards of the offer from {opponent}, then discards the rest.",
        Phase.PLAY_FIRST: f"{mover} must play the front card.",
        Phase.PLAY_SECOND: f"{mover} may play the next card too.",
        Phase.DISCARD: f"{mover} may discard one card from the hand.",
        Phase.TRADE: f"{mover} may chain cards of the trade area, then leaves the rest for {opponent}.",
    }[state.phase]


def result_facts(state: State, names: Sequence[str]) -> list[str]:
    """While the game goes on, whose turn it is and the step; once it is over, who won."""
    if not state.is_over:
        return [f"Turn {state.turn}: {names[state.current_player]} to play", step_fact(state, names)]
    winner = winner_of(state.coins)
    return ["The deck is empty: the game is over.", "It's a draw." if winner is None else f"{names[winner]} wins!"]


def table(state: State, seat: int, names: Sequence[str]) -> TableView:
    """What ``seat`` sees of the game, at any moment (also once it is over)."""
    seats = (seat, 1 - seat)  # the viewer first
    chains = [chain_row(state, player, slot, names[player]) for player in seats for slot in range(rules.MAX_SLOTS)]
    zones: list[Zone] = [
        {"title": "Trade area and piles", "rows": pile_rows(state)},
        {"title": "Hands", "rows": hand_rows(state, seat, names)},
        {"title": "Chains", "rows": chains},
    ]
    facts = result_facts(state, names) + ["The game ends when the deck is empty; the most coins win."]
    scores: list[Score] = [{"name": names[player], "score": state.coins[player]} for player in range(NUM_PLAYERS)]
    return {"zones": zones, "facts": facts, "scores": scores}
