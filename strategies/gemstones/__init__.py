"""Gemstones strategies; importing this package registers them all."""

from strategies import policy, register_alias
from strategies.gemstones import greedy, heuristic, learned, mc, search, uniform  # noqa: F401

# The strongest fair Gemstones strategy: learned scored 56.4% of 600 fresh games against search
# (docs/search.md), which scored 66.0% against mc (docs/gemstones.md, "search").
register_alias("gemstones", "best", "learned")

policy.register_for("gemstones")  # a trained agent from a policy file
