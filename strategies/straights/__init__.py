"""Straights strategies; importing this package registers them all."""

from strategies.straights import first_legal, heuristic, mc  # noqa: F401
