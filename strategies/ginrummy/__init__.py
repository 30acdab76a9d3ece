"""Gin Rummy strategies; importing this package registers them all."""

from strategies import policy, register_alias
from strategies.ginrummy import cs340, heuristic, mc, search, simple  # noqa: F401

# The strongest Gin Rummy strategy, as measured in docs/ginrummy.md: mc, tuned for the tuned heuristic it
# rolls out, scores half a point to a point a hand more than it head to head, and won 65.4% of 1,000
# games against simple where the heuristic won 60.9% of the same games.
register_alias("ginrummy", "best", "mc")

policy.register_for("ginrummy")  # a trained agent from a policy file
