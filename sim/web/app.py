"""The web table's HTTP side: pages, card pictures and a JSON API over ``sim.web.table.Table``.

Routes (every input validated: an unknown game, strategy, seed, table or action is a 4xx with a
one-line reason, never a 500):

- ``GET /``: the front page, every game with its picture and opponents; ``GET /play/GAME?vs=STRATEGY&seed=N``
  a page to start a game with those filled in; ``POST /play/GAME`` (the front page's form: ``vs``,
  default ``best``, and ``seed``, none: a random one) starts a table, the person in seat 1, and
  redirects to ``/table/ID``; ``GET /rules/GAME``: the game's rules;
- ``GET /table/ID``: the table's page, drawn by ``static/table.js``; the table lives on the server,
  so the page survives a reload;
- ``GET /cards/FACE.svg``: a card picture; ``GET /static/...``: the script and style sheet;
- ``GET /api/games``: the games and their opponents; ``POST /api/tables`` with ``{"game", "vs",
  "seed"}`` starts a table; ``GET /api/tables/ID`` is its snapshot; ``GET /api/tables/ID/steps?after=N``
  the steps after step N and the snapshot; ``POST /api/tables/ID/actions`` with ``{"action": N}``
  (or ``"continue"`` at a round's end) takes the person's move and returns its step: the bots then
  move on their own threads (``"thinking"`` in the snapshot), and the page asks for their steps;
  ``POST /api/tables/ID/hint`` (``{}``) answers what the game's ``best`` strategy would play in the
  person's place, decided on the bot threads (``Table.hint``) within the bots' time budget;
  ``GET /api/tables/ID/log.txt`` and ``GET /api/tables/ID/record.json`` download the game's log and
  its record (which ``cardsim replay --record FILE`` plays back).

What a request may cost is bounded: its body is read up to ``MAX_BODY_BYTES`` (refused at once past
it, whatever its Content-Length or chunks say) within ``BODY_SECONDS``; a strategy spec is checked
against ``sim.web.bots.Seating``. Only POSTs change anything, and only from the server's own pages: a
request another web site's page makes the browser send (``Sec-Fetch-Site``, else ``Origin``) is
refused, and the API takes only JSON, which a browser does not send across sites unasked.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import secrets
import threading
from collections import OrderedDict
from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import strategies
from sim import games
from sim.api import IllegalAction
from sim.dealing import MAX_SEED
from sim.numbers import NumberError, json_int, parse_int
from sim.pictures import shared_picture
from sim.web import pages
from sim.web.bots import THINK_SECONDS, BotThreads, Seating
from sim.web.pages import GameInfo
from sim.web.table import CONTINUE, HINT_STRATEGY, HintFailed, NotYourTurn, Step, Table

MAX_TABLES = 256  # tables kept; the least recently used goes first
MAX_BODY_BYTES = 4096  # a request body is one small JSON object or form
BODY_SECONDS = 10.0  # for a request's body to arrive, once its headers have
MAX_STEP = 2**62  # the largest step number a page may ask after
TABLE_ID_BYTES = 16
SAME_SITE = ("same-origin", "none")  # Sec-Fetch-Site of the server's own pages, and of a typed address


class BadRequest(ValueError):
    """A request naming something that does not exist or is malformed; the message is one line."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def opponents(game: str) -> list[str]:
    """The strategies a person may play ``game`` against: ``best`` first, then every fair one that
    needs no setting."""
    fair = [info.name for info in strategies.available(game) if not info.cheating and not info.required]
    return [*strategies.aliases(game), *fair]


def parse_seed(text: str | None) -> int:
    """A seed from a request, a random one when none is given."""
    if text is None or not text.strip():
        return secrets.randbelow(2**31)
    try:
        return parse_int(text, 0, MAX_SEED)
    except NumberError as error:
        raise BadRequest(f"seed: {error}") from None


class Tables:
    """The tables being played, by id; the least recently used is dropped past ``capacity``. Their
    opponents pass ``seating`` and think on ``bots``, ``think_seconds`` a decision."""

    def __init__(
        self,
        capacity: int = MAX_TABLES,
        seating: Seating | None = None,
        think_seconds: float = THINK_SECONDS,
        bots: BotThreads | None = None,
    ) -> None:
        self.capacity = capacity
        self.seating = seating or Seating()
        self.think_seconds = think_seconds
        self.bots = bots or BotThreads()
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.lock = threading.Lock()

    def open(self, game_name: str, opponent: str, seed: int) -> tuple[str, Table]:
        """A new table and its id; ``BadRequest`` for an unknown game or a strategy it does not seat."""
        opponent = opponent or pages.DEFAULT_OPPONENT
        try:
            game = games.load(game_name)
            self.seating.check(game.name, opponent)
            table = Table(game, opponent, seed, self.bots, self.think_seconds)
        except (games.UnknownGame, strategies.StrategyError) as error:
            raise BadRequest(str(error), 404 if isinstance(error, games.UnknownGame) else 400) from None
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        with self.lock:
            self.tables[table_id] = table
            while len(self.tables) > self.capacity:
                self.tables.popitem(last=False)
        return table_id, table

    def get(self, table_id: str) -> Table:
        """The table ``table_id`` names; ``BadRequest`` (404) when there is none."""
        with self.lock:
            table = self.tables.get(table_id)
            if table is None:
                raise BadRequest(f"no table {table_id[:32]!r}: it ended with the server, or never was", 404)
            self.tables.move_to_end(table_id)
            return table


def game_info(name: str) -> GameInfo:
    """What the pages say of game ``name``, from its view module (its name where the view says nothing)."""
    view = importlib.import_module(games.load(name).view)
    return GameInfo(
        name,
        getattr(view, "TITLE", name),
        getattr(view, "BLURB", ""),
        getattr(view, "RULES", ""),
        tuple(getattr(view, "PICTURE", ())),
    )


def steps_json(steps: list[Step]) -> list[dict[str, Any]]:
    return [{"lines": step.lines, "snapshot": step.snapshot} for step in steps]


def refuse_cross_site(request: Request) -> None:
    """``BadRequest`` (403) for a request another web site's page had the browser send: browsers say
    where a request comes from in ``Sec-Fetch-Site``, or failing that in ``Origin``. A request with
    neither comes from no web page (a script, curl): it is taken."""
    site = request.headers.get("sec-fetch-site")
    origin = request.headers.get("origin")
    if site is None and origin is None:
        return
    if site in SAME_SITE or (site is None and urlsplit(origin).netloc == request.headers.get("host")):
        return
    raise BadRequest("refused: only this server's own pages may start tables or move them", 403)


def require_json(request: Request) -> None:
    """``BadRequest`` (415) unless the request says its body is JSON (a page of another site cannot
    send that without the browser asking this server first, which it never allows)."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise BadRequest("the request body must be JSON, sent as Content-Type: application/json", 415)


async def request_body(request: Request) -> bytes:
    """The request's body, read as it arrives: ``BadRequest`` with 413 as soon as it is known to be
    over ``MAX_BODY_BYTES`` (by its Content-Length, before reading any of it), 408 when it has not
    arrived within ``BODY_SECONDS``."""
    length = request.headers.get("content-length", "0")
    if int(length) > MAX_BODY_BYTES:  # the HTTP layer accepts only digits here
        raise BadRequest(f"the request body is {length[:24]} bytes; at most {MAX_BODY_BYTES}", 413)
    body = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY_BYTES:
                    raise BadRequest(f"the request body is over {MAX_BODY_BYTES} bytes; at most {MAX_BODY_BYTES}", 413)
    except TimeoutError:
        raise BadRequest(f"the request body did not arrive within {BODY_SECONDS:g} s", 408) from None
    return bytes(body)


async def request_object(request: Request) -> dict[str, Any]:
    """The request's JSON object, numbers bounded (``sim.numbers.json_int``); ``BadRequest`` if not one."""
    require_json(request)
    body = await request_body(request)
    try:
        value = json.loads(body or b"{}", parse_int=json_int)
    except ValueError as error:  # NumberError is a ValueError
        raise BadRequest(f"the request body is not JSON: {str(error)[:80]}") from None
    except RecursionError:
        raise BadRequest("the request body is nested too deeply") from None
    if not isinstance(value, dict):
        raise BadRequest("the request body must be a JSON object")
    return value


async def request_form(request: Request) -> dict[str, str]:
    """The fields of the request's form (URL-encoded, as the lobby sends it), the first of each name."""
    fields = parse_qs((await request_body(request)).decode("utf-8", "replace"))
    return {name: values[0] for name, values in fields.items()}


def text_field(payload: dict[str, Any], name: str, default: str = "") -> str:
    value = payload.get(name, default)
    if not isinstance(value, str):
        raise BadRequest(f"{name} must be a string")
    return value


def seed_field(payload: dict[str, Any]) -> int:
    seed = payload.get("seed")
    if seed is None or isinstance(seed, str):
        return parse_seed(seed)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadRequest("seed must be a whole number")
    return parse_seed(str(seed))


def action_field(payload: dict[str, Any], table: Table) -> int | str:
    """The action a request asks for: ``"continue"`` or a number in the game's range."""
    action = payload.get("action")
    if action == CONTINUE:
        return CONTINUE
    if isinstance(action, bool) or not isinstance(action, int | str):
        raise BadRequest('action must be an action number or "continue"')
    try:
        return parse_int(str(action), 0, table.game.num_actions - 1)
    except NumberError as error:
        raise BadRequest(f"action: {error}") from None


def step_number(text: str | None) -> int:
    """The step a page asks for the steps after (none: 0)."""
    try:
        return parse_int(text or "0", 0, MAX_STEP)
    except NumberError as error:
        raise BadRequest(f"after: {error}") from None


def create_app(tables: Tables | None = None) -> Starlette:
    """The web table's ASGI application, over ``tables`` (new and empty by default)."""
    tables = tables or Tables()
    all_opponents = {game: opponents(game) for game in games.names()}
    infos = {game: game_info(game) for game in games.names()}

    def known_game(request: Request) -> str:
        game = request.path_params["game"]
        if game not in all_opponents:
            raise BadRequest(f"unknown game {game[:24]!r}; the games are {', '.join(all_opponents)}", 404)
        return game

    def lobby(request: Request) -> Response:
        return HTMLResponse(pages.lobby(list(infos.values()), all_opponents))

    def new_game(request: Request) -> Response:
        game = known_game(request)
        chosen = request.query_params.get("vs", pages.DEFAULT_OPPONENT)
        page = pages.new_game(infos[game], all_opponents[game], chosen, request.query_params.get("seed", ""))
        return HTMLResponse(page)

    def rules(request: Request) -> Response:
        game = known_game(request)
        others = [info for name, info in infos.items() if name != game]
        return HTMLResponse(pages.rules_page(infos[game], others))

    async def play(request: Request) -> Response:
        refuse_cross_site(request)
        form = await request_form(request)
        seed = parse_seed(form.get("seed"))
        table_id, table = tables.open(request.path_params["game"], form.get("vs", pages.DEFAULT_OPPONENT), seed)
        await run_in_threadpool(table.start)  # the bots before the person's first decision start thinking
        return RedirectResponse(f"/table/{table_id}", status_code=303)

    def table_page(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        table = tables.get(table_id)
        page = pages.table_page(table_id, infos[table.game.name], all_opponents[table.game.name], table.opponent)
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    def card(request: Request) -> Response:
        face = request.path_params["face"]
        picture = card_picture(face)
        if picture is None:
            raise BadRequest(f"no card picture {face[:24]!r}", 404)
        return Response(picture, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    def game_list(request: Request) -> Response:
        listing = [
            {"name": game, "seats": games.load(game).num_seats, "opponents": names, "default": pages.DEFAULT_OPPONENT}
            for game, names in all_opponents.items()
        ]
        return JSONResponse({"games": listing})

    async def open_table(request: Request) -> Response:
        refuse_cross_site(request)
        payload = await request_object(request)
        game, opponent = text_field(payload, "game"), text_field(payload, "vs", pages.DEFAULT_OPPONENT)
        table_id, table = tables.open(game, opponent, seed_field(payload))
        snapshot = await run_in_threadpool(table.start)
        return JSONResponse({"id": table_id, "snapshot": snapshot}, 201)

    def table_state(request: Request) -> Response:
        return JSONResponse(tables.get(request.path_params["table_id"]).snapshot())

    def table_steps(request: Request) -> Response:
        table = tables.get(request.path_params["table_id"])
        steps, snapshot = table.steps_after(step_number(request.query_params.get("after")))
        return JSONResponse({"steps": steps_json(steps), "snapshot": snapshot})

    async def take_action(request: Request) -> Response:
        refuse_cross_site(request)
        table = tables.get(request.path_params["table_id"])
        action = action_field(await request_object(request), table)
        try:
            steps = await run_in_threadpool(table.act, action)
        except NotYourTurn as error:
            raise BadRequest(str(error), 409) from None
        except IllegalAction as error:
            raise BadRequest(f"not a legal action now: {error}", 409) from None
        return JSONResponse({"steps": steps_json(steps), "snapshot": steps[-1].snapshot})

    async def hint(request: Request) -> Response:
        refuse_cross_site(request)
        table = tables.get(request.path_params["table_id"])
        payload = await request_object(request)
        if payload:
            raise BadRequest("a hint takes no fields: send {}")
        try:
            answer = table.hint()
        except NotYourTurn as error:
            raise BadRequest(f"no hint now: {error}", 409) from None
        try:
            found = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(answer)), table.think_seconds)
        except TimeoutError:
            raise BadRequest(f"{HINT_STRATEGY} did not decide within {table.think_seconds:g} s", 503) from None
        except HintFailed as error:
            raise BadRequest(str(error), 503) from None
        return JSONResponse({"hint": found})

    def download_name(table: Table, suffix: str) -> dict[str, str]:
        name = f"cardsim-{table.game.name}-{table.seed}.{suffix}"
        return {"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}

    def log_text(request: Request) -> Response:
        table = tables.get(request.path_params["table_id"])
        return PlainTextResponse(table.log_text(), headers=download_name(table, "txt"))

    def record(request: Request) -> Response:
        table = tables.get(request.path_params["table_id"])
        return JSONResponse(table.record(), headers=download_name(table, "json"))

    routes = [
        Route("/", lobby),
        Route("/play/{game}", new_game, methods=["GET"]),
        Route("/play/{game}", play, methods=["POST"]),
        Route("/rules/{game}", rules),
        Route("/table/{table_id}", table_page),
        Route("/cards/{face}.svg", card),
        Route("/api/games", game_list),
        Route("/api/tables", open_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_state),
        Route("/api/tables/{table_id}/steps", table_steps),
        Route("/api/tables/{table_id}/actions", take_action, methods=["POST"]),
        Route("/api/tables/{table_id}/hint", hint, methods=["POST"]),
        Route("/api/tables/{table_id}/log.txt", log_text),
        Route("/api/tables/{table_id}/record.json", record),
        Mount("/static", StaticFiles(packages=[("sim.web", "static")]), name="static"),
    ]
    handlers = {BadRequest: bad_request, HTTPException: http_error, Exception: server_error}
    return Starlette(routes=routes, exception_handlers=handlers)


def card_picture(face: str) -> str | None:
    """The SVG of ``face``: a shared face, or one a game's view module draws (its ``picture``)."""
    views = [importlib.import_module(games.load(name).view) for name in games.names()]
    for draw in [shared_picture, *(view.picture for view in views if hasattr(view, "picture"))]:
        picture = draw(face)
        if picture is not None:
            return picture
    return None


def wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def error_response(request: Request, status: int, message: str) -> Response:
    """``{"error": message}`` for the API, an error page for a person."""
    if wants_json(request):
        return JSONResponse({"error": message}, status)
    return HTMLResponse(pages.error_page(status, message), status)


async def bad_request(request: Request, error: Exception) -> Response:
    assert isinstance(error, BadRequest)
    return error_response(request, error.status, str(error))


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return error_response(request, error.status_code, str(error.detail))


async def server_error(request: Request, error: Exception) -> Response:
    """A fault of the server's own (never the request's): said as one line, details in the server's log."""
    return error_response(request, 500, f"internal error: {type(error).__name__}")
