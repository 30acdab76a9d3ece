"""Card pictures for people, drawn as SVG by the project (no downloaded assets).

A picture is named by its *face* (``sim.api``'s table views). This module draws the faces every
game shares, playing cards ("7S", "TD") and ``"back"``; a game with cards of its own draws them with
``card_frame`` in its view module (``picture(face)``).
"""

from __future__ import annotations

from collections.abc import Iterable

from sim.cards import RANKS, SUITS, parse_card, rank_of, suit_of

WIDTH, HEIGHT = 70, 100
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")  # clubs, diamonds, hearts, spades, in SUITS order
RED_SUITS = (1, 2)
RANK_LABELS = tuple("10" if rank == "T" else rank for rank in RANKS)


def card_text(card: int) -> str:
    """A card as people write it: ``J♥``, ``10♠``."""
    return RANK_LABELS[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(map(card_text, cards))


def card_frame(body: str, fill: str = "#ffffff") -> str:
    """An SVG document of one card: a rounded frame around ``body``."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">'
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="6" fill="{fill}" stroke="#333" '
        f'stroke-width="1.5"/>{body}</svg>'
    )


def playing_card(card: int) -> str:
    """A playing card: its rank and suit in two corners, a large suit in the middle."""
    rank, suit = RANK_LABELS[rank_of(card)], SUIT_SYMBOLS[suit_of(card)]
    colour = "#c0392b" if suit_of(card) in RED_SUITS else "#111111"
    corner = f'<tspan x="7" dy="0">{rank}</tspan><tspan x="7" dy="14">{suit}</tspan>'
    return card_frame(
        f'<g fill="{colour}" font-family="Georgia, serif" font-weight="bold">'
        f'<text x="7" y="18" font-size="15">{corner}</text>'
        f'<text x="{WIDTH // 2}" y="{HEIGHT // 2 + 14}" font-size="40" text-anchor="middle">{suit}</text>'
        f'<text transform="rotate(180 {WIDTH / 2} {HEIGHT / 2})" x="7" y="18" font-size="15">{corner}</text></g>'
    )


def card_back() -> str:
    """A card face down: a lattice on blue."""
    lattice = (
        '<pattern id="lattice" width="8" height="8" patternUnits="userSpaceOnUse">'
        '<path d="M0 0L8 8M8 0L0 8" stroke="#9db4e0" stroke-width="1.2"/></pattern>'
    )
    return card_frame(
        f'<defs>{lattice}</defs><rect x="6" y="6" width="{WIDTH - 12}" height="{HEIGHT - 12}" rx="3" '
        'fill="url(#lattice)" stroke="#9db4e0"/>',
        fill="#1f3f8a",
    )


def shared_picture(face: str) -> str | None:
    """The SVG document of a playing card's face or ``"back"``; None for any other face."""
    if face == "back":
        return card_back()
    if len(face) == 2 and face[0] in RANKS and face[1] in SUITS:
        return playing_card(parse_card(face))
    return None
