"""``cardsim serve``: the web table on a local address, until Ctrl-C.

The socket is bound here, before the server starts, so an address in use or not ours is one line
(``ServeError``), and port 0 picks a free port whose address is then printed.
"""

from __future__ import annotations

import socket
import sys
from typing import TextIO

import uvicorn

from sim.web.app import create_app

DEFAULT_HOST = "127.0.0.1"  # this machine only: the table has no accounts
DEFAULT_PORT = 8000


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


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, out: TextIO = sys.stdout) -> None:
    """Serve the web table until interrupted; prints the address to open first."""
    listener = listening_socket(host, port)
    print(f"cardsim web table at {address(listener)} (Ctrl-C stops it)", file=out, flush=True)
    config = uvicorn.Config(create_app(), log_level="warning", access_log=False, timeout_graceful_shutdown=2)
    uvicorn.Server(config).run(sockets=[listener])
