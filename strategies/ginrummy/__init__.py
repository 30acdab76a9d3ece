"""Gin Rummy strategies; importing this package registers them all."""

from strategies import register_alias
from strategies.ginrummy import cs340, heuristic, mc, simple  # noqa: F401

# The strongest Gin Rummy strategy, as measured in docs/ginrummy.md.
register_alias("ginrummy", "best", "heuristic")
