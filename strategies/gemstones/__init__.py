"""Gemstones strategies; importing this package registers them all."""

from strategies import policy, register_alias
from strategies.gemstones import greedy, heuristic, learned, mc, search, uniform  # noqa: F401

# The strongest fair Gemstones strategy, as measured in docs/gemstones.md ("search") and docs/search.md.
register_alias("gemstones", "best", "search")

policy.register_for("gemstones")  # a trained agent from a policy file
