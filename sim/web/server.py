"""``cardsim serve``: the web table on a local address, until Ctrl-C.

The socket is bound here, before the server starts, so an address in use or not ours is one line
(``ServeError``), and port 0 picks a free port whose address is then printed.

uvicorn bounds a request's headers (16 KB) but not the time a client takes to send them: a client
that connects and says nothing holds its connection, and a file descriptor, for good. So the server
speaks HTTP through ``GuardedProtocol``, which closes a connection whose request headers have not
arrived within ``HEADERS_SECONDS`` and refuses connections past ``MAX_CONNECTIONS``. (The body's own
limits are the application's: ``sim.web.app.request_body``.) Ctrl-C stops the server within a second
whatever the bots are doing: they think on daemon threads, requests get ``SHUTDOWN_SECONDS``, and
the process then ends without finalizing the interpreter (``end_process``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any, NoReturn, TextIO

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from sim.web.app import Tables, create_app
from sim.web.bots import THINK_SECONDS, Seating

DEFAULT_HOST = "127.0.0.1"  # this machine only: the table has no accounts
DEFAULT_PORT = 8000
HEADERS_SECONDS = 10.0  # from connecting, or from the last answer, to a request's last header line
MAX_CONNECTIONS = 256  # open at once; a browser opens about six, and the process may hold 1,024 files
SHUTDOWN_SECONDS = 0.25  # for requests under way at Ctrl-C (each is short: bots never hold one)
# How long a thread holds the interpreter before another may run (Python's default is 5 ms). A bot
# written in Python keeps a bot thread busy; a request needs the interpreter back hundreds of times
# (every call into compiled code lets it go), so at 5 ms a page waits seconds behind two busy bots.
SWITCH_SECONDS = 0.0005


class ServeError(OSError):
    """The server cannot listen where it was asked to."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (0: any free port), ready for the server."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen()  # connections wait from the moment the address is printed
    except (OSError, OverflowError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise ServeError(f"cannot listen on {host}:{port}: {reason}") from None
    return listener


def address(listener: socket.socket) -> str:
    host, port = listener.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


class GuardedProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 connection, closed when a request's headers take longer than
    ``headers_seconds``, and at once when ``max_connections`` are already open."""

    headers_seconds = HEADERS_SECONDS
    max_connections = MAX_CONNECTIONS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.headers_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            transport.abort()
        else:
            self._await_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the request's headers are in
            self._stop_waiting()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._await_headers()  # the next request on this connection has as long

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def _await_headers(self) -> None:
        self._stop_waiting()
        self.headers_timer = self.loop.call_later(self.headers_seconds, self.transport.abort)

    def _stop_waiting(self) -> None:
        if self.headers_timer is not None:
            self.headers_timer.cancel()
            self.headers_timer = None


def guarded_protocol(headers_seconds: float, max_connections: int) -> type[GuardedProtocol]:
    """``GuardedProtocol`` with these limits."""
    limits = {"headers_seconds": headers_seconds, "max_connections": max_connections}
    return type("GuardedProtocol", (GuardedProtocol,), limits)


class QuietShutdown(logging.Filter):
    """Drops uvicorn's report of requests cut short at Ctrl-C: a stop says one line, not two."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "timeout graceful shutdown exceeded" not in record.getMessage()


def server_config(
    tables: Tables, headers_seconds: float = HEADERS_SECONDS, max_connections: int = MAX_CONNECTIONS
) -> uvicorn.Config:
    """The uvicorn configuration of a web table over ``tables``."""
    return uvicorn.Config(
        create_app(tables),
        http=guarded_protocol(headers_seconds, max_connections),
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,  # type: ignore[arg-type]  # uvicorn waits for any number
    )


def end_process(status: int) -> NoReturn:
    """Ends the process with ``status`` once its output is out, without finalizing the interpreter.

    After Ctrl-C the server holds nothing to save, and tearing down what the process imported
    (pandas, matplotlib, Dask: 0.3 s, more beside bots that are thinking) would make a stop slow;
    a bot thread cannot be stopped anyway."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(status)


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    think_seconds: float = THINK_SECONDS,
    policy_folder: Path | None = None,
    out: TextIO = sys.stdout,
) -> None:
    """Serve the web table until interrupted; prints the address to open first. Bots have
    ``think_seconds`` per decision; policies are seated from ``policy_folder`` only (none: none)."""
    listener = listening_socket(host, port)
    tables = Tables(seating=Seating(policy_folder), think_seconds=think_seconds)
    print(f"cardsim web table at {address(listener)} (Ctrl-C stops it)", file=out, flush=True)
    logging.getLogger("uvicorn.error").addFilter(QuietShutdown())
    sys.setswitchinterval(SWITCH_SECONDS)
    uvicorn.Server(server_config(tables)).run(sockets=[listener])
