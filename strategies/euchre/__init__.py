"""Euchre strategies; importing this package registers them all."""

from strategies import policy, register_alias
from strategies.euchre import heuristic, mc, search, simple  # noqa: F401

# The strongest non-cheating Euchre strategy: search won 52.3% [50.1%, 54.5%] of 2,000 games to 10
# against mc (docs/search.md).
register_alias("euchre", "best", "search")

policy.register_for("euchre")  # a trained agent from a policy file
