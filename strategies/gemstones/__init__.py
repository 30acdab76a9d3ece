"""Gemstones strategies; importing this package registers them all."""

from strategies import policy, register_alias
from strategies.gemstones import greedy, heuristic, mc, uniform  # noqa: F401

# The strongest Gemstones strategy, as measured in docs/gemstones.md.
register_alias("gemstones", "best", "mc")

policy.register_for("gemstones")  # a trained agent from a policy file
