"""Euchre strategies; importing this package registers them all."""

from strategies import policy, register_alias
from strategies.euchre import heuristic, mc, search, simple  # noqa: F401

# The strongest non-cheating Euchre strategy, as measured in docs/euchre-strategies.md.
register_alias("euchre", "best", "mc")

policy.register_for("euchre")  # a trained agent from a policy file
