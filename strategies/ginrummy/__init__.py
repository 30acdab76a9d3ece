"""Gin Rummy strategies; importing this package registers them all."""

from strategies import policy, register_alias
from strategies.ginrummy import cs340, heuristic, mc, search, simple  # noqa: F401

# The strongest fair Gin Rummy strategy, as measured in docs/search.md: search won 58.1% of 2,000 games
# against mc (which had been best: docs/ginrummy.md).
register_alias("ginrummy", "best", "search")

policy.register_for("ginrummy")  # a trained agent from a policy file
