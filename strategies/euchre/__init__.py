"""Euchre strategies; importing this package registers them all."""

from strategies.euchre import simple  # noqa: F401
