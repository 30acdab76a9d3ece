"""Gin Rummy strategies; importing this package registers them all."""

from strategies.ginrummy import cs340  # noqa: F401
from strategies.ginrummy import heuristic  # noqa: F401
from strategies.ginrummy import simple  # noqa: F401
from strategies import register_alias  # noqa: E402

# The strongest Gin Rummy strategy, as measured in docs/ginrummy.md.
register_alias("ginrummy", "best", "heuristic")
