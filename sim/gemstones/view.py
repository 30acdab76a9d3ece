"""A Gemstones game drawn for one seat (``sim.api``'s table views): what every player sees (notes,
section 7), the trade area, the discard pile's top card, the deck's size, both seats' chains and
coins, whose turn it is and at which step, and the seat's own hand in its order.

The opponent's hand is face down (only its size shows) and the deck order is never shown. A card
waiting for a sale was played face up, so the step names it.

``layout`` lays the same out around a table for the web table: the opponent across with its
chains, the offer (or trade area), the discard pile and the deck in the middle, and the hand front
first, the card a play or a discard takes carrying its action. Each stone's picture shows its
letter and a shape of its own over a colour-blind-safe colour (``picture``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from sim.api import Score, TableView, ViewRow, Zone
from sim.gemstones import rules
from sim.gemstones.engine import NUM_PLAYERS, State, winner_of
from sim.gemstones.observation import BUY, CHAIN, DISCARD, PASS, PLAY, SELL, Phase
from sim.gemstones.words import BLURB, RULES, TITLE, turn_line
from sim.numbers import amount
from sim.people import YOU, verb
from sim.pictures import WIDTH, card_frame

__all__ = ["BLURB", "PICTURE", "RULES", "TITLE", "action_face", "layout", "move_label", "picture", "table"]

PICTURE = ("ruby", "emerald", "quartz")  # the cards of the game's picture on the web table's front page


def face(stone: int) -> str:
    """A stone card's face: its stone's name in lower case."""
    return rules.STONES[stone].lower()


# Each stone's colour, in rules.STONES order: Paul Tol's "muted" scheme, whose colours stay distinct
# under every common colour-vision deficiency (pale grey, wine, indigo, teal, cyan, rose, purple, green);
# the shape and the letter tell the stones apart without any colour.
STONE_COLOURS = ("#dddddd", "#882255", "#332288", "#44aa99", "#88ccee", "#cc6677", "#aa4499", "#117733")
LIGHT_STONES = frozenset({0, 3, 4, 5})  # drawn with a dark letter; the others with a white one
STONE_SHAPES = ("hexagon", "circle", "triangle", "square", "pentagon", "diamond", "star", "octagon")
FACES = {face_name.lower(): stone for stone, face_name in enumerate(rules.STONES)}
GEM_X, GEM_Y, GEM_RADIUS = WIDTH // 2, 42, 25


def polygon(corners: int, radius: float, turn: float = 0.0, inner: float | None = None) -> str:
    """The points of a regular polygon (a star when ``inner`` is a fraction) about the gem's centre,
    its first corner straight up, turned by ``turn`` of a corner."""
    points = []
    steps = corners * (2 if inner else 1)
    for step in range(steps):
        angle = 2 * math.pi * (step + turn) / steps - math.pi / 2
        reach = radius * (inner if inner and step % 2 else 1.0)
        points.append(f"{GEM_X + reach * math.cos(angle):.1f},{GEM_Y + reach * math.sin(angle):.1f}")
    return " ".join(points)


def gem_shape(stone: int) -> str:
    """The SVG element of ``stone``'s shape, filled with its colour."""
    paint = f'fill="{STONE_COLOURS[stone]}" stroke="#222" stroke-width="1.5"'
    shape = STONE_SHAPES[stone]
    if shape == "circle":
        return f'<circle cx="{GEM_X}" cy="{GEM_Y}" r="{GEM_RADIUS - 1}" {paint}/>'
    if shape == "square":
        side, corner = GEM_RADIUS * 1.55, GEM_RADIUS * 0.775
        box = f'x="{GEM_X - corner:.1f}" y="{GEM_Y - corner:.1f}" width="{side:.1f}" height="{side:.1f}"'
        return f'<rect {box} rx="3" {paint}/>'
    corners: dict[str, tuple[int, float, float | None]] = {"hexagon": (6, 0.0, None), "triangle": (3, 0.0, None)}
    corners["pentagon"] = (5, 0.0, None)
    corners |= {"diamond": (4, 0.0, None), "star": (5, 0.0, 0.55), "octagon": (8, 0.5, None)}
    count, turn, inner = corners[shape]
    radius = GEM_RADIUS + (4 if shape in ("triangle", "star") else 0)
    return f'<polygon points="{polygon(count, radius, turn, inner)}" {paint} stroke-linejoin="round"/>'


def picture(card_face: str) -> str | None:
    """The SVG of a stone card: the stone's shape in its colour, its letter on it and its name below;
    None for other faces."""
    stone = FACES.get(card_face)
    if stone is None:
        return None
    letter_colour = "#111" if stone in LIGHT_STONES else "#fff"
    letter_y = GEM_Y + (12 if STONE_SHAPES[stone] == "triangle" else 9)
    return card_frame(
        gem_shape(stone)
        + f'<text x="{GEM_X}" y="{letter_y}" font-size="25" font-weight="bold" font-family="sans-serif" '
        f'text-anchor="middle" fill="{letter_colour}">{rules.LETTERS[stone]}</text>'
        f'<text x="{GEM_X}" y="90" font-size="12.5" font-weight="bold" font-family="sans-serif" text-anchor="middle" '
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
    opponent = "you" if opponent == YOU else opponent
    discards, leaves = ("discard", "leave") if mover == YOU else ("discards", "leaves")
    if state.phase == Phase.SELL:
        pending, _ = state.waiting_sale()
        who = "you" if mover == YOU else mover
        return f"No chain or free slot for {rules.STONES[pending]}: {who} must sell a chain."
    return {
        Phase.BUY: f"{mover} may buy a third chain for {state.variants.third_chain_cost} coins.",
        Phase.OFFER: f"{mover} may chain cards of the offer from {opponent}, then {discards} the rest.",
        Phase.PLAY_FIRST: f"{mover} must play the front card.",
        Phase.PLAY_SECOND: f"{mover} may play the next card too.",
        Phase.DISCARD: f"{mover} may discard one card from {'your' if mover == YOU else 'the'} hand.",
        Phase.TRADE: f"{mover} may chain cards of the trade area, then {leaves} the rest for {opponent}.",
    }[state.phase]


def result_facts(state: State, names: Sequence[str]) -> list[str]:
    """While the game goes on, whose turn it is and the step; once it is over, who won."""
    if not state.is_over:
        return [turn_line(state.turn, names[state.current_player]), step_fact(state, names)]
    winner = winner_of(state.coins)
    return [
        "The deck is empty: the game is over.",
        "It's a draw." if winner is None else f"{verb(names[winner], 'win', 'wins')}!",
    ]


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


# --------------------------------------------------------------------------- the web table's layout

PASS_LABELS = {
    Phase.BUY: "Don't buy",
    Phase.OFFER: "Discard the rest",
    Phase.PLAY_SECOND: "Keep the next card",
    Phase.DISCARD: "Keep every card",
    Phase.TRADE: "Leave the rest",
}


def move_label(state: State, action: int) -> str:
    """What taking ``action`` does, for a button's or a card's title: stones by name, never a position."""
    hand = state.hands[state.current_player]
    if action == PASS:
        return PASS_LABELS.get(state.phase, "Pass")
    if action == BUY:
        return f"Buy a third chain ({amount(state.variants.third_chain_cost, 'coin')})"
    if action == PLAY:
        which = "next card too" if state.phase == Phase.PLAY_SECOND else "front card"
        return f"Play the {which}: {rules.STONES[hand[0]]}"
    if CHAIN <= action < SELL:
        return f"Chain {rules.STONES[action - CHAIN]}"
    if SELL <= action < BUY:
        stone, length = rules.chain_at(state.slots[state.current_player], action - SELL)
        worth = amount(rules.chain_value(stone, length), "coin")
        return f"Sell the {rules.STONES[stone]} chain ({amount(length, 'card')}, {worth})"
    return f"Discard {rules.STONES[hand[action - DISCARD]]}"


def cards(faces: Iterable[str], actions: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """Cards for the layout: each face, with the action clicking the card at that position takes
    when it is legal now."""
    actions = actions or {}
    return [{"face": face, **({"action": actions[at]} if at in actions else {})} for at, face in enumerate(faces)]


def chain_rows(state: State, seat: int) -> list[dict[str, Any]]:
    """``seat``'s chain slots, each with its stones and, in short, what it sells for or why it is empty."""
    rows = []
    for slot in range(rules.MAX_SLOTS):
        row = chain_row(state, seat, slot, "")
        chain = state.slots[seat][slot] if slot < len(state.slots[seat]) else None
        if slot >= len(state.slots[seat]):
            note = f"buy: {amount(state.variants.third_chain_cost, 'coin')}"
        elif chain is None:
            note = "empty"
        else:
            note = f"sells: {amount(rules.chain_value(*chain), 'coin')}"
        rows.append({"label": f"Chain {slot + 1}", "cards": cards(row["cards"]), "note": note})
    return rows


def hand_actions(state: State, seat: int) -> dict[int, int]:
    """The action clicking each position of ``seat``'s hand takes now: the front card's play, or a discard."""
    if state.is_over or state.current_player != seat:
        return {}
    legal = set(state.legal_actions())
    if PLAY in legal:
        return {0: PLAY}
    return {action - DISCARD: action for action in legal if action >= DISCARD}


def layout(state: State, seat: int, names: Sequence[str]) -> dict[str, Any]:
    """The table around ``seat`` for the web table (``sim.web.table`` documents the shape): both
    seats with their coins and chains (the opponent's hand face down), the offer or trade area, the
    discard pile and the deck in the middle, and ``seat``'s hand front first."""
    to_move = None if state.is_over else state.current_player
    seats = [
        {
            "name": names[other],
            "held": len(state.hands[other]),
            "cards": cards(["back"] * len(state.hands[other])) if other != seat else [],
            "score": amount(state.coins[other], "coin"),
            "notes": [],
            "zones": [{"title": "Chains", "style": "chains", "rows": chain_rows(state, other)}],
        }
        for other in range(NUM_PLAYERS)
    ]
    offer = state.phase == Phase.OFFER and not state.is_over
    offered_by = names[1 - state.current_player]
    area = f"Offer from {'you' if offered_by == YOU else offered_by}" if offer else "Trade area"
    piles = pile_rows(state)
    middle_rows = [
        {"label": area, "cards": cards(piles[0]["cards"])},
        {**piles[1], "cards": cards(piles[1]["cards"])},
        {**piles[2], "cards": cards(piles[2]["cards"])},
    ]
    hand = [
        {
            "label": "front first",
            "cards": cards([face(stone) for stone in state.hands[seat]], hand_actions(state, seat)),
        }
    ]
    if state.phase == Phase.SELL and to_move == seat:
        pending, _ = state.waiting_sale()
        hand[0]["note"] = f"No chain or free slot for {rules.STONES[pending]}: sell a chain"
    return {
        "seats": seats,
        "middle": [{"title": "Trade area and piles", "style": "piles", "rows": middle_rows}],
        "hand": hand,
        "turn": to_move,
    }
