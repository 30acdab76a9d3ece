"""The web table's HTML pages: the lobby, the table a script fills in, and an error page.

Pages are plain HTML with every inserted value escaped; the table itself is drawn in the browser
by ``static/table.js`` from the JSON API, so a reload draws the same table from the server's state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

DEFAULT_OPPONENT = "best"


def _document(title: str, body: str, script: str = "") -> str:
    scripts = f'<script src="/static/{script}" defer></script>' if script else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="icon" href="/cards/AS.svg">'
        f'<link rel="stylesheet" href="/static/table.css">{scripts}</head>'
        f"<body>{body}</body></html>\n"
    )


def opponent_choices(game: str, opponents: Sequence[str], chosen: str, seed: str = "") -> str:
    """A form that starts a new game of ``game`` against the opponent picked from ``opponents`` (or
    ``chosen``, when it is a spec of its own), dealt from ``seed`` (none: a random one)."""
    names = opponents if chosen in opponents else [*opponents, chosen]
    options = "".join(
        f'<option value="{escape(name)}"{" selected" if name == chosen else ""}>{escape(name)}</option>'
        for name in names
    )
    return (
        f'<form class="new-game" method="post" action="/play/{escape(game)}">'
        f'<label>Opponent <select name="vs">{options}</select></label>'
        f'<label>Seed <input name="seed" value="{escape(seed)}" inputmode="numeric" placeholder="random" size="10">'
        '</label><button type="submit">New game</button></form>'
    )


def lobby(opponents: Mapping[str, Sequence[str]]) -> str:
    """The front page: every game, each with its opponents to pick from."""
    games = "".join(
        f'<section class="lobby-game"><h2>{escape(game)}</h2>{opponent_choices(game, names, DEFAULT_OPPONENT)}'
        "</section>"
        for game, names in opponents.items()
    )
    intro = "<p>Play any game against cardsim's registered strategies, on the same engines as the console programs.</p>"
    return _document("cardsim", f"<header><h1>cardsim</h1></header><main>{intro}{games}</main>")


def new_game(game: str, opponents: Sequence[str], chosen: str, seed: str) -> str:
    """The page a link to a game leads to: its form filled in, for the person to start it (a link
    never starts one: any web site may link here)."""
    body = (
        f'<header><h1><a href="/">cardsim</a> · {escape(game)}</h1></header>'
        f'<main><section class="lobby-game">{opponent_choices(game, opponents, chosen, seed)}</section></main>'
    )
    return _document(f"cardsim · {game}", body)


def table_page(table_id: str, game: str, opponents: Sequence[str], opponent: str) -> str:
    """The page of one table: empty areas that ``table.js`` fills from ``/api/tables/ID``."""
    body = (
        f'<header><h1><a href="/">cardsim</a> · {escape(game)}</h1>'
        f"{opponent_choices(game, opponents, opponent)}</header>"
        f'<main id="table" data-table="{escape(table_id)}">'
        '<p id="status" role="status">Loading…</p>'
        '<section id="banner" hidden></section>'
        '<div id="zones"></div>'
        '<section id="moves" aria-label="Your moves"></section>'
        '<aside><h2>Score</h2><table id="scores"></table><ul id="facts"></ul>'
        '<h2>Log</h2><ul id="log"></ul></aside>'
        "</main>"
    )
    return _document(f"cardsim · {game}", body, "table.js")


def error_page(status: int, message: str) -> str:
    """A page that says what was wrong with the request, with the way back."""
    body = f'<header><h1><a href="/">cardsim</a></h1></header><main><p class="error">{escape(message)}</p></main>'
    return _document(f"cardsim · {status}", body)
