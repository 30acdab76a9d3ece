"""Straights strategies; importing this package registers them all."""

from strategies import policy
from strategies.straights import first_legal, heuristic, mc, search  # noqa: F401

policy.register_for("straights")  # a trained agent from a policy file
