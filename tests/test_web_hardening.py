"""The web table against clients and bots that misbehave (issue #37 items 1, 2, 3 and 7's web part):
bots think apart from the request handlers, within a time budget and a cost cap; state changes come
only from the server's own pages; request bodies and headers are bounded while they are read; a
failing bot ends its table with one line; policies are seated only from the server's folder; Ctrl-C
stops the server at once whatever its bots do.

Live servers listen on 127.0.0.1 only and are stopped at each test's end."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import uvicorn
from starlette.testclient import TestClient

import strategies
from sim import games
from sim.web import app as web_app
from sim.web.app import Tables, create_app
from sim.web.bots import Seating
from sim.web.server import listening_socket, server_config
from tests.test_policy import random_policy
from tests.test_web import SETTLE_SECONDS, settled

BOT_WAIT = 10.0  # the longest a test's bot is kept thinking; the tests release it long before
QUICK = 2.0  # seconds within which an answer that must not wait for a bot comes


@pytest.fixture
def held() -> Iterator[threading.Event]:
    """The event that lets the ``test-held`` bot (straights) decide; set at the test's end in any case."""
    release = threading.Event()

    @strategies.register("straights", "test-held")
    class Held:
        """Thinks until released (at most BOT_WAIT s), then plays the first legal card."""

        def choose(self, observation) -> np.ndarray:
            release.wait(BOT_WAIT)
            return np.flatnonzero(observation.legal_mask[0])[:1]

    yield release
    release.set()


@pytest.fixture
def misbehaving() -> None:
    """``test-raises`` and ``test-illegal``: a straights bot that raises, and one that plays a card it may not."""

    @strategies.register("straights", "test-raises")
    class Raises:
        """Raises at its first decision."""

        def choose(self, observation) -> np.ndarray:
            raise RuntimeError("the bot fell over")

    @strategies.register("straights", "test-illegal")
    class Illegal:
        """Plays the first card that is not legal."""

        def choose(self, observation) -> np.ndarray:
            return np.flatnonzero(~observation.legal_mask[0])[:1]


def open_waiting(client: TestClient, vs: str, seed: int = 3) -> str:
    """A straights table against ``vs``, opened at once even though ``vs`` is still thinking."""
    began = time.monotonic()
    answer = client.post("/api/tables", json={"game": "straights", "vs": vs, "seed": seed})
    assert answer.status_code == 201, answer.text
    assert time.monotonic() - began < QUICK, "opening a table waited for its bots"
    return answer.json()["id"]


def bots_turn_after_person(client: TestClient, table_id: str) -> dict:
    """Plays the person's legal moves until the answer leaves a bot thinking; that snapshot."""
    snapshot = settled(client, table_id)
    answer = client.post(f"/api/tables/{table_id}/actions", json={"action": snapshot["actions"][0]["action"]})
    assert answer.status_code == 200, answer.text
    return answer.json()["snapshot"]


# Item 1: bots think apart, within a time budget and a cost cap; state changes come from our pages only.


def test_the_server_answers_while_a_bot_thinks(held: threading.Event) -> None:
    client = TestClient(create_app(Tables(think_seconds=BOT_WAIT * 2)), raise_server_exceptions=False)
    table_id = open_waiting(client, "test-held")
    snapshot = client.get(f"/api/tables/{table_id}").json()
    while not snapshot["thinking"]:  # seed 3 may deal the person the first move: make one
        snapshot = bots_turn_after_person(client, table_id)
    began = time.monotonic()
    assert client.get("/").status_code == 200
    assert client.get("/cards/AS.svg").status_code == 200
    assert client.get(f"/api/tables/{table_id}").json()["status"].endswith("is thinking.")
    refused = client.post(f"/api/tables/{table_id}/actions", json={"action": 0})
    assert refused.status_code == 409 and "is thinking" in refused.json()["error"]
    assert time.monotonic() - began < QUICK
    held.set()
    assert settled(client, table_id)["status"] == "Your turn."


def test_a_bot_out_of_time_ends_its_table(held: threading.Event) -> None:
    client = TestClient(create_app(Tables(think_seconds=0.2)), raise_server_exceptions=False)
    table_id = open_waiting(client, "test-held")
    deadline = time.monotonic() + SETTLE_SECONDS
    while not (snapshot := client.get(f"/api/tables/{table_id}").json())["ended"]:
        if snapshot["actions"]:
            client.post(f"/api/tables/{table_id}/actions", json={"action": snapshot["actions"][0]["action"]})
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert "(test-held) did not decide within 0.2 s" in snapshot["status"] and snapshot["actions"] == []
    assert not snapshot["thinking"] and snapshot["ended"] in snapshot["log"]
    held.set()  # its late answer changes nothing
    time.sleep(0.2)
    assert client.get(f"/api/tables/{table_id}").json() == snapshot
    refused = client.post(f"/api/tables/{table_id}/actions", json={"action": 0})
    assert refused.status_code == 409 and "ended" in refused.json()["error"]


@pytest.mark.parametrize(
    ("game", "spec"),
    [
        ("straights", "mc:samples=100,rollout=(mc:samples=100)"),
        ("straights", "mc:samples=100000"),
        ("ginrummy", "mc:samples=8,rollout=(mc:samples=8)"),  # oversample=128 at both depths
    ],
)
def test_costly_specs_are_refused_in_one_line(game: str, spec: str) -> None:
    client = TestClient(create_app(), raise_server_exceptions=False)
    answer = client.post("/api/tables", json={"game": game, "vs": spec, "seed": 1})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert "worlds per decision" in error and "\n" not in error


@pytest.mark.parametrize(
    ("game", "spec"),
    [
        *((game, "best") for game in games.names()),
        ("straights", "mc:samples=8,rollout=(mc:samples=8)"),
        ("gemstones", "mc:samples=16,rollout=(mc:samples=16)"),
        ("ginrummy", "mc:samples=8,oversample=1,rollout=(mc:samples=8,oversample=1)"),
    ],
)
def test_specs_within_the_cap_are_seated(game: str, spec: str) -> None:
    Seating().check(game, spec)


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site", "Origin": "http://testserver"},
    ],
)
def test_other_sites_cannot_start_or_move_tables(headers: dict[str, str]) -> None:
    tables = Tables()
    client = TestClient(create_app(tables), raise_server_exceptions=False)
    table_id, _ = tables.open("straights", "first-legal", 1)
    api = client.post("/api/tables", json={"game": "straights"}, headers=headers)
    form = client.post("/play/straights", data={"vs": "first-legal"}, headers=headers, follow_redirects=False)
    move = client.post(f"/api/tables/{table_id}/actions", json={"action": 0}, headers=headers)
    assert [api.status_code, form.status_code, move.status_code] == [403, 403, 403]
    assert len(tables.tables) == 1


def test_only_our_pages_and_json_change_things() -> None:
    tables = Tables()
    client = TestClient(create_app(tables), raise_server_exceptions=False)
    link = client.get("/play/straights?vs=first-legal&seed=4", follow_redirects=False)
    assert link.status_code == 200 and 'method="post"' in link.text and 'value="4"' in link.text
    assert len(tables.tables) == 0, "a link (GET) started a table"
    plain = client.post("/api/tables", content=b'{"game": "straights"}', headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415 and len(tables.tables) == 0
    ours = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    started = client.post("/play/straights", data={"vs": "first-legal"}, headers=ours, follow_redirects=False)
    assert started.status_code == 303 and len(tables.tables) == 1
    same_origin = client.post("/api/tables", json={"game": "euchre"}, headers={"Origin": "http://testserver"})
    assert same_origin.status_code == 201


# Item 2: request limits enforced while reading.


@pytest.fixture
def live(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    """A web table on 127.0.0.1 (short header and body deadlines, at most 6 connections); stopped after."""
    monkeypatch.setattr(web_app, "BODY_SECONDS", 0.5)
    listener = listening_socket("127.0.0.1", 0)
    server = uvicorn.Server(server_config(Tables(), headers_seconds=0.5, max_connections=6))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the test server did not start"
        time.sleep(0.01)
    try:
        yield listener.getsockname()[:2]
    finally:
        server.should_exit = True
        thread.join(5)


def connect(address: tuple[str, int]) -> socket.socket:
    connection = socket.create_connection(address, timeout=QUICK)
    connection.settimeout(QUICK)
    return connection


def answer_of(connection: socket.socket) -> bytes:
    """What the server sends until it closes the connection (b"" if it closes it without a word)."""
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


def post_head(length: str) -> bytes:
    framing = "Transfer-Encoding: chunked" if length == "chunked" else f"Content-Length: {length}"
    return (
        f"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{framing}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()


def test_a_huge_content_length_is_refused_before_its_body(live: tuple[str, int]) -> None:
    with connect(live) as connection:
        connection.sendall(post_head("300000000") + b"{" * 1000)
        assert answer_of(connection).startswith(b"HTTP/1.1 413")


def test_a_chunked_body_is_refused_once_past_the_limit(live: tuple[str, int]) -> None:
    with connect(live) as connection:
        connection.sendall(post_head("chunked"))
        for _ in range(6):  # 6 KB of a body that never ends
            connection.sendall(b"400\r\n" + b" " * 0x400 + b"\r\n")
        assert answer_of(connection).startswith(b"HTTP/1.1 413")


def test_a_body_that_never_comes_times_out(live: tuple[str, int]) -> None:
    with connect(live) as connection:
        connection.sendall(post_head("100") + b'{"game"')
        assert answer_of(connection).startswith(b"HTTP/1.1 408")


def test_silent_and_slow_clients_are_cut_off(live: tuple[str, int]) -> None:
    silent = [connect(live) for _ in range(6)]
    try:
        with connect(live) as extra:  # past the connections allowed: closed at once
            assert answer_of(extra) == b""
        with connect(live) as slow:  # after the silent ones are closed, one header byte at a time
            began = time.monotonic()
            for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"y" * 40:
                try:
                    slow.sendall(bytes([byte]))
                except OSError:
                    break
                time.sleep(0.05)
            assert time.monotonic() - began < QUICK * 2
            assert all(answer_of(connection) == b"" for connection in silent)
    finally:
        for connection in silent:
            connection.close()
    with connect(live) as fresh:
        fresh.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert answer_of(fresh).startswith(b"HTTP/1.1 200")


# Item 3: a failing bot ends its table in one line naming it; reads take the table's lock.


def test_a_bot_that_raises_ends_the_table(misbehaving: None) -> None:
    client = TestClient(create_app(), raise_server_exceptions=False)
    table_id = open_waiting(client, "test-raises", seed=1)
    snapshot = settled(client, table_id)
    while snapshot["actions"] and not snapshot["ended"]:  # the person may lead: play until the bot's turn
        client.post(f"/api/tables/{table_id}/actions", json={"action": snapshot["actions"][0]["action"]})
        snapshot = settled(client, table_id)
    assert snapshot["ended"] and "(test-raises) failed" in snapshot["status"] and "\n" not in snapshot["status"]
    assert snapshot["actions"] == [] and not snapshot["thinking"]


def test_a_bot_that_plays_illegally_ends_the_table_not_the_persons_move(misbehaving: None) -> None:
    client = TestClient(create_app(), raise_server_exceptions=False)
    table_id = open_waiting(client, "test-illegal", seed=2)
    snapshot = settled(client, table_id)
    while snapshot["actions"] and not snapshot["ended"]:
        answer = client.post(f"/api/tables/{table_id}/actions", json={"action": snapshot["actions"][0]["action"]})
        assert answer.status_code == 200, "the person's legal move is taken"
        snapshot = settled(client, table_id)
    assert "(test-illegal) failed" in snapshot["status"] and "\n" not in snapshot["status"]


def test_a_table_is_read_under_its_lock() -> None:
    tables = Tables()
    _, table = tables.open("ginrummy", "simple", 5)
    read: list[dict] = []
    with table.lock:
        reader = threading.Thread(target=lambda: read.append(table.snapshot()), daemon=True)
        reader.start()
        reader.join(0.2)
        assert reader.is_alive() and not read, "the snapshot was read while the table was locked"
    reader.join(QUICK)
    assert read


# Item 7: policies only from the server's folder, its errors the same whether or not a path exists.


def refusal(tables: Tables, path: Path) -> tuple[int, str]:
    client = TestClient(create_app(tables), raise_server_exceptions=False)
    answer = client.post("/api/tables", json={"game": "straights", "vs": f"policy:path={path}", "seed": 1})
    return answer.status_code, answer.json().get("error", "")


def test_policies_come_from_the_servers_folder_only(tmp_path: Path) -> None:
    folder, elsewhere = tmp_path / "policies", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    random_policy("straights", folder / "mine.npz")
    random_policy("straights", elsewhere / "theirs.npz")
    (folder / "link.npz").symlink_to(elsewhere / "theirs.npz")
    none, seated = Tables(), Tables(seating=Seating(folder))
    assert refusal(none, folder / "mine.npz") == refusal(none, tmp_path / "nothing.npz")
    assert refusal(none, folder / "mine.npz")[0] == 400
    outside = [elsewhere / "theirs.npz", tmp_path / "nothing.npz", folder / "link.npz", folder / ".." / "elsewhere"]
    answers = {refusal(seated, path) for path in outside}
    assert len(answers) == 1 and next(iter(answers))[0] == 400
    assert refusal(seated, folder / "mine.npz") == (201, "")
    missing_inside = refusal(seated, folder / "nothing.npz")
    assert missing_inside[0] == 400 and missing_inside != next(iter(answers))  # inside the folder: the file's own error


def test_a_lookaheads_leaves_come_from_the_servers_folder_only(tmp_path: Path) -> None:
    """A value file named as a lookahead's leaves is a file-based setting like a policy's path: refused
    on a server with no policy folder (the same answer whether or not it exists), and outside its folder."""
    shipped = Path(strategies.__file__).parent / "straights" / "value.npz"
    folder = tmp_path / "policies"
    folder.mkdir()

    def answer(tables: Tables, path: Path) -> tuple[int, str]:
        client = TestClient(create_app(tables), raise_server_exceptions=False)
        spec = f"mc:samples=4,leaves={path}"
        reply = client.post("/api/tables", json={"game": "straights", "vs": spec, "seed": 1})
        return reply.status_code, reply.json().get("error", "")

    assert answer(Tables(), shipped) == answer(Tables(), tmp_path / "nothing.npz")
    assert answer(Tables(), shipped)[0] == 400 and "file-based" in answer(Tables(), shipped)[1]
    assert answer(Tables(seating=Seating(folder)), shipped)[0] == 400


def test_serve_refuses_a_policy_folder_that_is_not_one(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sim.cli", "serve", "--port", "0", "--policies", str(tmp_path / "none")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "is not a folder" in result.stderr.splitlines()[-1]


# Item 1: Ctrl-C stops the server within a second, in one line, while a bot thinks.

BUSY_SERVER = """
import sys, time
import numpy as np
import strategies

@strategies.register("straights", "test-busy")
class Busy:
    def choose(self, observation):
        end = time.monotonic() + 60  # a bot that thinks hard: it holds the interpreter's lock too
        while time.monotonic() < end:
            pass
        return np.flatnonzero(observation.legal_mask[0])[:1]

from sim.cli import main
sys.exit(main(["serve", "--port", "0", "--think-seconds", "100"]))
"""


def test_ctrl_c_stops_the_server_at_once_while_a_bot_thinks() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", BUSY_SERVER],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        host, port = line.split("http://")[1].split("/")[0].rsplit(":", 1)
        for seed in range(1, 6):  # a table whose bot is to move first
            # Opening the tables is the setup, not what is timed: the server's first game loads its
            # engine, which can take seconds on cores other runs keep busy.
            client = socket.create_connection((host, int(port)), timeout=BOT_WAIT)
            body = f'{{"game": "straights", "vs": "test-busy", "seed": {seed}}}'.encode()
            client.sendall(post_head(str(len(body))) + body)
            assert answer_of(client).startswith(b"HTTP/1.1 201")
            client.close()
        time.sleep(0.3)
        began = time.monotonic()
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=10)
        stopped_in = time.monotonic() - began
    finally:
        server.kill()
        server.wait(10)
    assert server.returncode == 130 and err.count("\n") == 1 and "Traceback" not in err, err
    assert stopped_in < 1.0, f"stopped {stopped_in:.2f} s after Ctrl-C"
