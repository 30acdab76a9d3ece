"""The web table's HTML pages: the front page, the table a script fills in, the rules, an error page.

Pages are plain HTML with every inserted value escaped; the table itself is drawn in the browser
by ``static/table.js`` from the JSON API, so a reload draws the same table from the server's state.
What a page says of a game (its title, a line about it, its rules, the cards of its picture) comes
from the game's view module (``GameInfo``), never from here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

DEFAULT_OPPONENT = "best"
RULES_CHARACTERS = 20_000  # a rules text is a page; anything longer is cut (it is the project's own text)


@dataclass(frozen=True)
class GameInfo:
    """What the pages say of a game: its name (in addresses), title, one line about it, its rules
    (the small Markdown ``markdown`` reads) and the card faces of its picture."""

    name: str
    title: str
    blurb: str
    rules: str
    faces: tuple[str, ...]


def _document(title: str, body: str, script: str = "", page: str = "") -> str:
    scripts = f'<script src="/static/{script}" defer></script>' if script else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="icon" href="/cards/AS.svg">'
        f'<link rel="stylesheet" href="/static/table.css">{scripts}</head>'
        f'<body class="{escape(page)}">{body}</body></html>\n'
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
        f'<label>Seed <input name="seed" value="{escape(seed)}" inputmode="numeric" placeholder="random" size="8">'
        '</label><button type="submit">New game</button></form>'
    )


def card_fan(faces: Sequence[str]) -> str:
    """A few cards fanned out: a game's picture."""
    cards = "".join(
        f'<img src="/cards/{escape(face)}.svg" alt="" width="70" height="100" style="--at: {at}">'
        for at, face in enumerate(faces)
    )
    return f'<div class="picture" aria-hidden="true">{cards}</div>'


def header(title: str = "", links: str = "") -> str:
    shown = f" · {escape(title)}" if title else ""
    return f'<header class="bar"><h1><a href="/">cardsim</a>{shown}</h1><nav>{links}</nav></header>'


def lobby(games: Sequence[GameInfo], opponents: Mapping[str, Sequence[str]]) -> str:
    """The front page: every game with a line about it, its picture, its rules and its opponents."""
    sections = "".join(
        f'<section class="lobby-game" id="{escape(info.name)}">{card_fan(info.faces)}<div>'
        f"<h2>{escape(info.title)}</h2><p>{escape(info.blurb)}</p>"
        f'<p><a href="/rules/{escape(info.name)}">Rules</a></p>'
        f"{opponent_choices(info.name, opponents[info.name], DEFAULT_OPPONENT)}</div></section>"
        for info in games
    )
    intro = (
        '<p class="intro">Play a card game against cardsim\'s strategies, on the same engines the tournaments '
        "run. <strong>best</strong> is each game's strongest fair player; the seed deals the same game again.</p>"
    )
    return _document("cardsim", f'{header()}<main class="lobby">{intro}{sections}</main>', page="front")


def new_game(info: GameInfo, opponents: Sequence[str], chosen: str, seed: str) -> str:
    """The page a link to a game leads to: its form filled in, for the person to start it (a link
    never starts one: any web site may link here)."""
    rules_link = f'<a href="/rules/{escape(info.name)}">Rules</a>'
    body = (
        f"{header(info.title, rules_link)}"
        f'<main class="lobby"><section class="lobby-game">{card_fan(info.faces)}<div>'
        f"<h2>{escape(info.title)}</h2><p>{escape(info.blurb)}</p>"
        f"{opponent_choices(info.name, opponents, chosen, seed)}</div></section></main>"
    )
    return _document(f"cardsim · {info.title}", body, page="front")


def table_page(table_id: str, info: GameInfo, opponents: Sequence[str], opponent: str) -> str:
    """The page of one table: empty areas that ``table.js`` fills from ``/api/tables/ID``."""
    links = (
        f'<a href="/rules/{escape(info.name)}" target="_blank" rel="noopener">Rules</a>'
        f'<details class="another"><summary>New game</summary>{opponent_choices(info.name, opponents, opponent)}'
        "</details>"
    )
    body = (
        f"{header(info.title, links)}"
        f'<main id="table" data-table="{escape(table_id)}" data-game="{escape(info.name)}">'
        '<section id="felt" aria-label="The table"><div id="middle"></div></section>'
        '<section id="mine" aria-label="Your hand">'
        '<div id="you"></div>'
        '<div id="play"><p id="status" role="status">Loading…</p>'
        '<div id="hand"></div>'
        '<div id="moves"></div>'
        '<p id="hint-line" hidden></p></div></section>'
        '<aside id="side">'
        '<div id="controls"><label>Bots <select id="pace">'
        '<option value="fast">fast</option><option value="normal">normal</option><option value="slow">slow</option>'
        '</select></label><button type="button" id="skip" disabled>Skip to my turn</button></div>'
        '<table id="scores"></table><ul id="facts"></ul>'
        '<section id="log-panel">'
        '<button type="button" id="log-toggle" aria-expanded="true" aria-controls="log">Log</button>'
        '<ul id="log"></ul></section>'
        f'<p id="downloads"><a href="/api/tables/{escape(table_id)}/log.txt" download>Log (text)</a> · '
        f'<a href="/api/tables/{escape(table_id)}/record.json" download>Record (JSON)</a></p>'
        "</aside>"
        '<section id="banner" hidden></section>'
        "</main>"
    )
    return _document(f"cardsim · {info.title}", body, "table.js", page="table")


def rules_page(info: GameInfo, others: Sequence[GameInfo]) -> str:
    """A game's rules, in the project's words (the game's ``RULES``), with links to play it and to the
    other games' rules."""
    elsewhere = " · ".join(f'<a href="/rules/{escape(other.name)}">{escape(other.title)}</a>' for other in others)
    play_link = f'<a href="/play/{escape(info.name)}">Play {escape(info.title)}</a>'
    body = (
        f"{header(info.title + ' rules', play_link)}"
        f'<main class="rules"><h2>{escape(info.title)}</h2><p class="intro">{escape(info.blurb)}</p>'
        f'{markdown(info.rules)}<p class="elsewhere">Other games: {elsewhere}</p></main>'
    )
    return _document(f"cardsim · {info.title} rules", body, page="rules")


def error_page(status: int, message: str) -> str:
    """A page that says what was wrong with the request, with the way back."""
    body = (
        f'{header()}<main class="lobby"><p class="error">{escape(message)}</p><p><a href="/">The games</a></p></main>'
    )
    return _document(f"cardsim · {status}", body, page="front")


# --------------------------------------------------------------------------- the rules' Markdown

_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EMPHASIS = re.compile(r"\*(.+?)\*")
_CODE = re.compile(r"`(.+?)`")
_PICTURE = re.compile(r"!\[([^\]\"]*)\]\(/cards/([A-Za-z0-9]{1,24})\.svg\)")  # a card picture, and only that


def inline(text: str) -> str:
    """``text`` escaped, with ``**strong**``, ``*emphasis*``, ```code``` and card pictures
    (``![name](/cards/FACE.svg)``) marked up."""
    html = escape(text, quote=False)
    html = _PICTURE.sub(r'<img class="card" src="/cards/\2.svg" alt="\1" width="42" height="60">', html)
    html = _CODE.sub(r"<code>\1</code>", html)
    html = _STRONG.sub(r"<strong>\1</strong>", html)
    return _EMPHASIS.sub(r"<em>\1</em>", html)


def markdown(text: str) -> str:
    """The little Markdown the rules are written in, as HTML: ``##`` headings, paragraphs, ``-`` and
    ``1.`` lists (a line indented under an item continues it) and ``|`` tables; everything escaped."""
    blocks: list[str] = []
    lines = text[:RULES_CHARACTERS].strip().splitlines()
    at = 0
    while at < len(lines):
        line = lines[at].strip()
        if not line:
            at += 1
        elif line.startswith("## "):
            blocks.append(f"<h3>{inline(line[3:])}</h3>")
            at += 1
        elif line.startswith("|"):
            rows = []
            while at < len(lines) and lines[at].strip().startswith("|"):
                cells = [cell.strip() for cell in lines[at].strip().strip("|").split("|")]
                if not all(set(cell) <= set("-: ") for cell in cells):
                    rows.append(cells)
                at += 1
            head, *body = rows or [[]]
            heading = "".join(f"<th>{inline(cell)}</th>" for cell in head)
            rows_html = "".join("<tr>" + "".join(f"<td>{inline(cell)}</td>" for cell in row) + "</tr>" for row in body)
            table = f"<table><thead><tr>{heading}</tr></thead><tbody>{rows_html}</tbody></table>"
            blocks.append(f'<div class="wide">{table}</div>')  # a narrow screen scrolls the table, not the page
        elif re.match(r"(- |\d+\. )", line):
            tag = "ul" if line.startswith("- ") else "ol"
            items: list[str] = []
            while at < len(lines) and lines[at].strip():
                item = lines[at].strip()
                if re.match(r"(- |\d+\. )", item):
                    items.append(item.split(" ", 1)[1])
                elif items:
                    items[-1] += " " + item
                at += 1
            blocks.append(f"<{tag}>" + "".join(f"<li>{inline(item)}</li>" for item in items) + f"</{tag}>")
        else:
            paragraph = []
            while at < len(lines) and lines[at].strip() and not re.match(r"(## |- |\d+\. |\|)", lines[at].strip()):
                paragraph.append(lines[at].strip())
                at += 1
            blocks.append(f"<p>{inline(' '.join(paragraph))}</p>")
    return "".join(blocks)
