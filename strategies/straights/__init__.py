"""Straights strategies; importing this package registers them all."""

from strategies.straights import first_legal  # noqa: F401
from strategies.straights import heuristic  # noqa: F401
from strategies.straights import mc  # noqa: F401
