"""Straights strategies; importing this package registers them all."""

from strategies import policy, register_alias
from strategies.straights import first_legal, heuristic, learned, mc, search  # noqa: F401

# The strongest non-cheating Straights strategy: at one table with search and two heuristic seats,
# learned loses 0.37 [0.13, 0.60] points a round fewer than search (docs/search.md), which loses 0.54
# [0.14, 0.94] fewer than mc.
register_alias("straights", "best", "learned")

policy.register_for("straights")  # a trained agent from a policy file
