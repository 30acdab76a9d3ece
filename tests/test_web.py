"""The web table's HTTP API (sim.web): every route, bad input as a 4xx (never a 500), and whole games
of every game played through the JSON API; `cardsim serve`'s own failures."""

from __future__ import annotations

import json
import random
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
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


# ---------------------------------------------------------------- issue #40: the table, the log, hints, records, rules

NOUNS = ("card", "point", "coin", "trick", "discard", "hand")
PROMPTS = ("Type ", "> ", "[drawing", "Human player", "Your cards:", "Deck: ")


def legal_on_cards(snapshot: dict) -> list:
    """The actions the layout puts on cards (the hand, the middle, every seat's zones)."""
    layout = snapshot["layout"]
    rows = [row for zone in layout["middle"] for row in zone["rows"]]
    rows += [row for seat in layout["seats"] for zone in seat["zones"] for row in zone["rows"]]
    cards = [card for row in rows for card in row["cards"]]
    cards += [card for group in layout["hand"] for card in group["cards"]]
    cards += [card for seat in layout["seats"] for card in seat["cards"]]
    return [card["action"] for card in cards if "action" in card]


@pytest.mark.parametrize("game", games.names())
def test_the_table_is_laid_out_around_the_person(client: TestClient, game: str) -> None:
    """Every seat has its place (you at the bottom, the others around), every card a legal move plays is
    marked once, and the log is in people's words: no prompts, no table printouts, counts that agree."""
    table_id, snapshot = open_table(client, game, seed=5)
    chooser = random.Random(5)
    seats = games.load(game).num_seats
    expected = {2: ["you", "across"], 4: ["you", "left", "across", "right"]}[seats]
    while not snapshot["game_over"]:
        layout = snapshot["layout"]
        assert [seat["position"] for seat in layout["seats"]] == expected
        assert [seat["name"] for seat in layout["seats"]][0] == "You" and layout["seats"][0]["you"]
        assert all(card["face"] != "back" for group in layout["hand"] for card in group["cards"])
        on_cards = legal_on_cards(snapshot)
        legal = [move["action"] for move in snapshot["actions"]]
        assert len(on_cards) == len(set(on_cards)), "a move is on two cards"
        if snapshot["round_over"] is None:
            assert set(on_cards) <= set(legal), "a card offers a move that is not legal now"
        assert all(move["label"] and "\n" not in move["label"] for move in snapshot["actions"])
        snapshot = move(client, table_id, chooser.choice(snapshot["actions"])["action"])
    log = client.get(f"/api/tables/{table_id}/log.txt").text.splitlines()
    assert len(log) > 10
    for line in log:
        assert not line.startswith(PROMPTS), line
        assert not re.search(rf"\b1 ({'|'.join(NOUNS)})s\b", line), f"a count that does not agree: {line!r}"
        assert "Player1" not in line and "the computer" not in line, line


def test_the_log_counts_hands_as_the_panel_does(client: TestClient) -> None:
    _, snapshot = open_table(client, "euchre", seed=4)
    assert snapshot["log"][0].startswith("Hand 1: ") and any(
        fact.startswith("Hand 1,") for fact in snapshot["table"]["facts"]
    )
    assert any(line.startswith("You hold ") for line in snapshot["log"])


def test_an_opponent_that_cheats_is_refused_in_good_english(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"game": "straights", "vs": "oracle-mc"})
    assert answer.status_code == 400 and "so web tables do not seat it" in answer.json()["error"]


def test_a_hint_says_what_best_would_play_and_why(client: TestClient) -> None:
    table_id, snapshot = open_table(client, "straights", seed=8)
    while len(snapshot["actions"]) < 2:  # a decision with a choice, so the lookahead explains it
        snapshot = move(client, table_id, snapshot["actions"][0]["action"])
    answer = client.post(f"/api/tables/{table_id}/hint", json={})
    assert answer.status_code == 200, answer.text
    hint = answer.json()["hint"]
    assert hint["action"] in [move["action"] for move in snapshot["actions"]]
    assert hint["step"] == snapshot["step"] and hint["strategy"] == "best" and hint["label"]
    assert "± " in hint["why"] and "deals it could be" in hint["why"]
    assert client.post(f"/api/tables/{table_id}/hint", json={}).json() == answer.json()  # asked again: the same
    assert client.get(f"/api/tables/{table_id}").json() == settled(client, table_id)  # the table did not move


def test_a_lookahead_tells_each_candidates_mean_and_interval() -> None:
    import strategies
    from sim.play import reference_state

    state = reference_state(games.load("gemstones"), 3, 0, whole_game=True)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    mc = strategies.get("gemstones", "mc")
    rows = mc.candidate_values(state.observe())
    assert sorted(action for action, _, _ in rows) == sorted(state.legal_actions())
    assert [mean for _, mean, _ in rows] == sorted((mean for _, mean, _ in rows), reverse=True)
    assert all(width >= 0 for _, _, width in rows)


@pytest.mark.parametrize(
    ("body", "headers", "status", "words"),
    [
        (b"{}", {"Content-Type": "text/plain"}, 415, "must be JSON"),
        (b"[]", {}, 400, "JSON object"),
        (b"not json", {}, 400, "not JSON"),
        (b'{"action": 3}', {}, 400, "takes no fields"),
        (b'{"pad": "' + b"x" * 5000 + b'"}', {}, 413, "at most"),
        (b"{}", {"Sec-Fetch-Site": "cross-site"}, 403, "refused"),
        (b"{}", {"Origin": "http://evil.example"}, 403, "refused"),
    ],
)
def test_bad_hint_requests_are_told_in_one_line(
    client: TestClient, body: bytes, headers: dict[str, str], status: int, words: str
) -> None:
    table_id, before = open_table(client, "straights", seed=3)
    answer = client.post(
        f"/api/tables/{table_id}/hint", content=body, headers={"Content-Type": "application/json", **headers}
    )
    assert answer.status_code == status and words in answer.json()["error"] and "\n" not in answer.json()["error"]
    assert client.get(f"/api/tables/{table_id}").json() == before


def test_no_hint_without_a_decision(client: TestClient) -> None:
    assert client.post("/api/tables/nonesuch/hint", json={}).status_code == 404
    assert client.get(f"/api/tables/{'x' * 3000}/hint").status_code == 405
    table_id, snapshot = open_table(client, "straights", seed=6)
    final, _ = play_out(client, table_id, snapshot, random.Random(1))
    refused = client.post(f"/api/tables/{table_id}/hint", json={})
    assert refused.status_code == 409 and "game is over" in refused.json()["error"]


def test_a_failing_or_slow_hint_is_one_line_and_the_table_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import strategies
    from sim.web import table as web_table

    @strategies.register("straights", "test-hint-raises")
    class Raises:
        """Raises whenever asked."""

        def choose(self, observation):
            raise RuntimeError("no idea")

    @strategies.register("straights", "test-hint-slow")
    class Slow:
        """Takes a second over every decision."""

        def choose(self, observation):
            time.sleep(1.0)
            return np.flatnonzero(observation.legal_mask[0])[:1]

    client = TestClient(create_app(Tables(think_seconds=0.3)), raise_server_exceptions=False)
    table_id, snapshot = open_table(client, "straights", seed=3)
    monkeypatch.setattr(web_table, "HINT_STRATEGY", "test-hint-raises")
    failed = client.post(f"/api/tables/{table_id}/hint", json={})
    assert failed.status_code == 503 and "could not decide" in failed.json()["error"]
    snapshot = move(client, table_id, snapshot["actions"][0]["action"])
    monkeypatch.setattr(web_table, "HINT_STRATEGY", "test-hint-slow")
    began = time.monotonic()
    slow = client.post(f"/api/tables/{table_id}/hint", json={})
    assert slow.status_code == 503 and "did not decide within 0.3 s" in slow.json()["error"]
    assert time.monotonic() - began < 1.0, "the answer waited for the slow hint"
    assert client.get("/").status_code == 200
    after = move(client, table_id, snapshot["actions"][0]["action"])  # the person moves while the hint still thinks
    assert after["step"] > snapshot["step"] and not after["ended"]


def test_the_record_and_the_log_can_be_downloaded(client: TestClient) -> None:
    table_id, snapshot = open_table(client, "ginrummy", seed=2)
    final, moves = play_out(client, table_id, snapshot, random.Random(2))
    record = client.get(f"/api/tables/{table_id}/record.json")
    assert record.status_code == 200 and record.headers["content-type"] == "application/json"
    assert 'filename="cardsim-ginrummy-2.json"' in record.headers["content-disposition"]
    fields = record.json()
    assert fields["format"] == "cardsim-table-record" and fields["game"] == "ginrummy" and fields["seed"] == 2
    assert fields["opponent"] == CHEAP["ginrummy"] and fields["seat"] == 0 and fields["over"] is True
    assert len(fields["actions"]) > moves and all(isinstance(action, int) for action in fields["actions"])
    log = client.get(f"/api/tables/{table_id}/log.txt")
    assert log.status_code == 200 and log.headers["content-type"].startswith("text/plain")
    assert 'filename="cardsim-ginrummy-2.txt"' in log.headers["content-disposition"]
    assert log.text.startswith("cardsim · Gin Rummy against simple, seed 2\n")
    assert final["log"][-1] in log.text
    for path in ("/api/tables/nonesuch/record.json", "/api/tables/nonesuch/log.txt"):
        missing = client.get(path)
        assert missing.status_code == 404 and "no table" in missing.json()["error"]
    assert client.post(f"/api/tables/{table_id}/record.json", json={}).status_code == 405


def test_a_record_plays_back_in_the_terminal(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sim.cli import main

    for game in games.names():
        table_id, snapshot = open_table(client, game, seed=9)
        final, _ = play_out(client, table_id, snapshot, random.Random(9))
        path = tmp_path / f"{game}.json"
        path.write_text(client.get(f"/api/tables/{table_id}/record.json").text)
        assert main(["replay", "--record", str(path)]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"Record of a web table's game: {game}, seed 9, ") and "\nWon by: " in out
        assert main(["replay", "--record", str(path), "--seat", "0"]) == 0
        assert "As seat 0 " in capsys.readouterr().out


def hostile_records(tmp_path: Path) -> dict[str, Path]:
    """Files that are not records, or records that are not games: each must be one line, status 2."""
    good = {"format": "cardsim-table-record", "version": 1, "game": "straights", "rules": "", "seed": 4}
    good |= {"opponent": "first-legal", "seat": 0, "actions": [], "over": False, "points": [0, 0, 0, 0]}
    texts = {
        "not-json": "{not json",
        "array": "[1, 2]",
        "other-format": json.dumps({**good, "format": "something"}),
        "version-2": json.dumps({**good, "version": 2}),
        "unknown-game": json.dumps({**good, "game": "chess"}),
        "game-number": json.dumps({**good, "game": 7}),
        "bad-rules": json.dumps({**good, "game": "gemstones", "rules": "nonsense=1", "points": [0, 0]}),
        "negative-seed": json.dumps({**good, "seed": -1}),
        "float-seed": json.dumps({**good, "seed": 1.5}),
        "bool-seed": json.dumps({**good, "seed": True}),
        "huge-seed": '{"format": "cardsim-table-record", "version": 1, "seed": ' + "9" * 5000 + "}",
        "nan": json.dumps({**good, "seed": float("nan")}),
        "bad-seat": json.dumps({**good, "seat": 4}),
        "actions-text": json.dumps({**good, "actions": "all of them"}),
        "action-text": json.dumps({**good, "actions": ["7S"]}),
        "action-range": json.dumps({**good, "actions": [52]}),
        "illegal-action": json.dumps({**good, "actions": [0]}),
        "long-opponent": json.dumps({**good, "opponent": "x" * 5000}),
        "too-many-actions": json.dumps({**good, "actions": [0] * 100_001}),
        "changed-points": json.dumps({**good, "points": [1, 0, 0, 0]}),
        "nested": "[" * 100_000 + "]" * 100_000,
    }
    paths = {name: tmp_path / f"{name}.json" for name in texts}
    for name, text in texts.items():
        paths[name].write_text(text)
    (tmp_path / "latin1.json").write_bytes(b'{"game": "\xe9"}')
    (tmp_path / "big.json").write_bytes(b" " * (2 << 20))
    return paths | {
        "not-utf8": tmp_path / "latin1.json",
        "too-big": tmp_path / "big.json",
        "missing": tmp_path / "nothing.json",
        "folder": tmp_path,
        "device": Path("/dev/zero"),
    }


def test_hostile_records_are_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sim.cli import main

    for name, path in hostile_records(tmp_path).items():
        assert main(["replay", "--record", str(path)]) == 2, name
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1, (name, captured.err)
        assert captured.err.startswith("cardsim replay: ") and "Traceback" not in captured.err, name
    for arguments in (["replay", "RUN", "--record", str(tmp_path / "x.json")], ["replay", "--deal", "3"]):
        assert main(arguments) == 2
        assert capsys.readouterr().err.count("\n") == 1


def test_hostile_records_through_the_installed_command(tmp_path: Path) -> None:
    paths = hostile_records(tmp_path)
    for name in ("nested", "device", "illegal-action"):
        result = cardsim("replay", "--record", str(paths[name]))
        assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, name


def test_the_front_page_and_the_rules(client: TestClient) -> None:
    front = client.get("/").text
    for title in ("Straights", "Euchre", "Gin Rummy", "Gemstones"):
        assert f"<h2>{title}</h2>" in front
    assert "Ginrummy" not in front and front.count('class="picture"') == 4
    for game in games.names():
        assert f'href="/rules/{game}"' in front
        page = client.get(f"/rules/{game}")
        assert page.status_code == 200 and page.text.count("<h3>") >= 3 and "<script" not in page.text
        table = client.post(f"/play/{game}", data={"vs": CHEAP[game], "seed": "1"})
        assert f'href="/rules/{game}"' in table.text
    stones = client.get("/rules/gemstones").text
    assert stones.count('<img class="card" src="/cards/') == 8


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("get", "/rules/chess", 404),
        ("get", "/rules/" + "x" * 3000, 404),
        ("get", "/rules/", 404),
        ("get", "/rules/straights/more", 404),
        ("post", "/rules/straights", 405),
    ],
)
def test_bad_rules_requests_are_told_not_crashed(client: TestClient, method: str, path: str, status: int) -> None:
    answer = getattr(client, method)(path)
    assert answer.status_code == status and '<p class="error">' in answer.text
    message = answer.text.split('<p class="error">')[1].split("</p>")[0]
    assert "\n" not in message and len(message) < 200


def test_rules_markdown_is_escaped() -> None:
    from sim.web.pages import markdown

    text = '## <b>x</b>\n\n- **a** <script>\n- ![x"y](/cards/../etc.svg) ![ok](/cards/ruby.svg)\n\n'
    html = markdown(text + "| a | b |\n|---|---|\n| 1 | <i> |")
    assert "<script>" not in html and "<b>" not in html and "<i>" not in html
    assert (
        '<img class="card" src="/cards/ruby.svg" alt="ok"' in html
        and "../etc" in html
        and 'src="/cards/../' not in html
    )


def test_nothing_imports_a_program() -> None:
    """The games' words live in sim/<game>/words.py, which the program, the transcript and the view all
    import: no module imports a cli.py (but the package's ``python -m`` launcher, which runs it)."""
    root = Path(__file__).resolve().parents[1] / "sim"
    importing = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path.name != "__main__.py" and re.search(r"^\s*(from|import) sim\.\w+\.cli\b", path.read_text(), re.M)
    ]
    assert importing == []


def test_a_view_without_a_layout_is_drawn_from_its_zones(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fifth game's view may draw only its table view: the page gets its zones in the middle and every
    move as a button."""
    from sim.straights import view

    monkeypatch.delattr(view, "layout")
    monkeypatch.delattr(view, "move_label")
    client = TestClient(create_app(), raise_server_exceptions=False)
    _, snapshot = open_table(client, "straights", seed=3)
    layout = snapshot["layout"]
    assert [zone["title"] for zone in layout["middle"]] == [zone["title"] for zone in snapshot["table"]["zones"]]
    assert legal_on_cards(snapshot) == [] and snapshot["actions"]
    assert [seat["position"] for seat in layout["seats"]] == ["you", "left", "across", "right"]
    assert all(move["label"] == games.load("straights").action_name(move["action"]) for move in snapshot["actions"])
