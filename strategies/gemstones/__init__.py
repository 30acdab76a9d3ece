"""Gemstones strategies; importing this package registers them all."""

from strategies.gemstones import greedy, heuristic, uniform  # noqa: F401
