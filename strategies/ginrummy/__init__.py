"""Gin Rummy strategies; importing this package registers them all."""

from strategies.ginrummy import cs340  # noqa: F401
from strategies.ginrummy import heuristic  # noqa: F401
from strategies.ginrummy import simple  # noqa: F401
