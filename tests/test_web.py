"""The web table's HTTP API (sim.web): every route, bad input as a 4xx (never a 500), and whole games
of every game played through the JSON API; `cardsim serve`'s own failures."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time

import pytest
from starlette.testclient import TestClient

from sim import games
from sim.web.app import Tables, create_app

# Cheap opponents keep whole games fast; `best` is the default and is checked to start.
CHEAP = {"straights": "first-legal", "euchre": "simple", "ginrummy": "simple", "gemstones": "greedy"}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), raise_server_exceptions=False)


SETTLE_SECONDS = 30.0  # for the bots to reach the person's turn


def settled(client: TestClient, table_id: str) -> dict:
    """The table's snapshot once its bots have stopped thinking (they think on threads of their own)."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while True:
        snapshot = client.get(f"/api/tables/{table_id}").json()
        if not snapshot["thinking"]:
            return snapshot
        assert time.monotonic() < deadline, f"the bots still think after {SETTLE_SECONDS:.0f} s"
        time.sleep(0.005)


def open_table(client: TestClient, game: str, seed: int = 7, vs: str | None = None) -> tuple[str, dict]:
    """A new table of ``game`` and its snapshot at the person's first decision."""
    answer = client.post("/api/tables", json={"game": game, "vs": vs or CHEAP[game], "seed": seed})
    assert answer.status_code == 201, answer.text
    table_id = answer.json()["id"]
    return table_id, settled(client, table_id)


def move(client: TestClient, table_id: str, action: int | str) -> dict:
    """The snapshot after the person's ``action`` and the bots' moves after it."""
    answer = client.post(f"/api/tables/{table_id}/actions", json={"action": action})
    assert answer.status_code == 200, answer.text
    assert len(answer.json()["steps"]) == 1, "the answer is the person's step; the bots move after it"
    return settled(client, table_id)


def play_out(client: TestClient, table_id: str, snapshot: dict, chooser: random.Random) -> tuple[dict, int]:
    """Take random legal moves (and every continue) until the game is over; the final snapshot and moves."""
    moves = 0
    while not snapshot["game_over"]:
        assert snapshot["actions"], snapshot["status"]
        snapshot = move(client, table_id, chooser.choice(snapshot["actions"])["action"])
        moves += 1
        assert moves < 3000, "a game that does not end"
    return snapshot, moves


@pytest.mark.parametrize("game", games.names())
def test_a_whole_game_through_the_api(client: TestClient, game: str) -> None:
    table_id, snapshot = open_table(client, game)
    assert snapshot["status"] == "Your turn."
    assert all(move["label"] for move in snapshot["actions"])
    final, moves = play_out(client, table_id, snapshot, random.Random(game))
    assert moves > 0 and final["actions"] == [] and final["status"] == "The game is over."
    assert final["game_over"]["result"] in ("you win", "you lose", "a draw")
    assert final["game_over"]["winners"]
    # The state lives on the server: reading it again (a reload) gives the same table.
    assert client.get(f"/api/tables/{table_id}").json() == final
    # Nothing more to do once the game is over.
    assert client.post(f"/api/tables/{table_id}/actions", json={"action": 0}).status_code == 409


def test_same_seed_and_moves_same_game(client: TestClient) -> None:
    logs = []
    for _ in range(2):
        table_id, snapshot = open_table(client, "straights", seed=11)
        final, _ = play_out(client, table_id, snapshot, random.Random(3))
        logs.append(final["log"])
    assert logs[0] == logs[1]


def test_round_end_pauses_until_continue(client: TestClient) -> None:
    table_id, snapshot = open_table(client, "straights", seed=5)
    chooser = random.Random(1)
    while not snapshot["round_over"]:
        snapshot = move(client, table_id, chooser.choice(snapshot["actions"])["action"])
    assert snapshot["status"] == "The round is over." and any("score" in line for line in snapshot["round_over"])
    assert [move["action"] for move in snapshot["actions"]] == ["continue"]
    refused = client.post(f"/api/tables/{table_id}/actions", json={"action": 0})
    assert refused.status_code == 409 and "continue" in refused.json()["error"]
    after = move(client, table_id, "continue")
    assert after["round_over"] is None and after["status"] == "Your turn."


def test_the_best_opponent_is_the_default(client: TestClient) -> None:
    answer = client.post("/play/straights", data={"seed": "2"}, follow_redirects=False)
    assert answer.status_code == 303
    table_id = answer.headers["location"].removeprefix("/table/")
    snapshot = client.get(f"/api/tables/{table_id}").json()
    assert snapshot["opponent"] == "best" and snapshot["seed"] == 2


def test_pages_and_pictures(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200
    for game in games.names():
        assert f'method="post" action="/play/{game}"' in lobby.text
    page = client.post("/play/euchre", data={"vs": "simple", "seed": "1"})  # follows the redirect
    assert page.status_code == 200 and 'data-table="' in page.text and "table.js" in page.text
    assert client.get("/static/table.js").status_code == 200
    assert client.get("/static/table.css").status_code == 200
    for face in ("AS", "TD", "back", "ruby"):
        picture = client.get(f"/cards/{face}.svg")
        assert picture.status_code == 200 and picture.headers["content-type"] == "image/svg+xml"
        assert picture.text.startswith("<svg")
    listing = client.get("/api/games").json()["games"]
    assert [entry["name"] for entry in listing] == games.names()
    for entry in listing:
        assert entry["opponents"][0] == "best" and "oracle-mc" not in entry["opponents"]


@pytest.mark.parametrize(
    ("form", "status", "words"),
    [
        ({"vs": "nobody"}, 400, "unknown straights strategy"),
        ({"vs": "oracle-mc"}, 400, "cheats"),
        ({"vs": "mc:rollout=oracle-mc"}, 400, "cheats"),
        ({"vs": "policy"}, 400, "needs path"),
        ({"vs": "mc:samples=-4"}, 400, "samples"),
        ({"seed": "-1"}, 400, "out of range"),
        ({"seed": "abc"}, 400, "not a whole number"),
        ({"seed": "9" * 3000}, 400, "out of range"),
        ({"seed": "9" * 5000}, 413, "at most"),
    ],
)
def test_bad_new_games_are_told_not_crashed(client: TestClient, form: dict[str, str], status: int, words: str) -> None:
    answer = client.post("/play/straights", data=form, follow_redirects=False)
    assert answer.status_code == status and words in answer.text


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("/play/chess", 404, "unknown game"),
        ("/table/nonesuch", 404, "no table"),
        ("/cards/ZZ.svg", 404, "no card picture"),
        ("/cards/" + "A" * 3000 + ".svg", 404, "no card picture"),
        ("/api/tables/nonesuch", 404, "no table"),
        ("/nowhere", 404, "Not Found"),
    ],
)
def test_bad_requests_are_told_not_crashed(client: TestClient, path: str, status: int, words: str) -> None:
    answer = client.get(path, follow_redirects=False)
    assert answer.status_code == status
    assert words in (answer.json()["error"] if path.startswith("/api/") else answer.text)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (b"not json", 400, "not JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (b'{"action": ' + b"9" * 4000 + b"}", 400, "not JSON"),
        (b'{"action": 52}', 400, "out of range"),
        (b'{"action": -1}', 400, "out of range"),
        (b'{"action": true}', 400, "action must be"),
        (b'{"action": [1]}', 400, "action must be"),
        (b'{"action": "sideways"}', 400, "not a whole number"),
        (b'{"action": "continue"}', 409, "no finished round"),
        (b"[" * 2000 + b"]" * 2000, 400, "nested too deeply"),
        (b'{"pad": "' + b"x" * 5000 + b'"}', 413, "at most"),
    ],
)
def test_bad_actions_are_told_and_change_nothing(client: TestClient, body: bytes, status: int, words: str) -> None:
    table_id, before = open_table(client, "straights", seed=3)
    answer = client.post(f"/api/tables/{table_id}/actions", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == status and words in answer.json()["error"]
    assert client.get(f"/api/tables/{table_id}").json() == before


def test_an_illegal_move_is_refused(client: TestClient) -> None:
    table_id, before = open_table(client, "straights", seed=3)
    legal = {move["action"] for move in before["actions"]}
    illegal = next(action for action in range(52) if action not in legal)
    answer = client.post(f"/api/tables/{table_id}/actions", json={"action": illegal})
    assert answer.status_code == 409 and "not a legal action" in answer.json()["error"]
    assert client.get(f"/api/tables/{table_id}").json() == before


def test_opening_a_table_checks_its_fields(client: TestClient) -> None:
    assert client.post("/api/tables", json={"game": "chess"}).status_code == 404
    assert client.post("/api/tables", json={"game": 3}).status_code == 400
    assert client.post("/api/tables", json={"game": "euchre", "seed": 1.5}).status_code == 400
    assert client.post("/api/tables", json={"game": "euchre", "seed": 2**70}).status_code == 400
    assert client.get("/api/tables").status_code == 405
    assert client.post("/api/tables", json={"game": "euchre", "seed": "12", "vs": "simple"}).status_code == 201
    assert client.post("/api/tables", json={"game": "euchre", "vs": "mc:rollout=oracle-mc"}).status_code == 400


def test_old_tables_make_room_for_new_ones() -> None:
    client = TestClient(create_app(Tables(capacity=2)))
    first, _ = open_table(client, "straights", 1)
    second, _ = open_table(client, "straights", 2)
    client.get(f"/api/tables/{first}")  # the first is now the more recently used
    open_table(client, "straights", 3)
    assert client.get(f"/api/tables/{first}").status_code == 200
    assert client.get(f"/api/tables/{second}").status_code == 404


def test_snapshots_are_plain_json(client: TestClient) -> None:
    for game in games.names():
        _, snapshot = open_table(client, game)
        assert json.loads(json.dumps(snapshot)) == snapshot


def cardsim(*arguments: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "sim.cli", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_serve_says_in_one_line_when_it_cannot_listen() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cardsim("serve", "--port", str(port))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "cannot listen on 127.0.0.1" in result.stderr
    for arguments in (["--port", "70000"], ["--port", "9" * 5000], ["--host", "no.such.host.invalid", "--port", "0"]):
        result = cardsim("serve", *arguments)
        last_line = result.stderr.splitlines()[-1]
        assert result.returncode == 2 and last_line.startswith("cardsim serve:") and "Traceback" not in result.stderr
