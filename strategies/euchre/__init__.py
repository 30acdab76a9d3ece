"""Euchre strategies; importing this package registers them all."""

from strategies import register_alias
from strategies.euchre import heuristic, mc, simple  # noqa: F401

# The strongest non-cheating Euchre strategy, as measured in docs/euchre-strategies.md.
register_alias("euchre", "best", "mc")
