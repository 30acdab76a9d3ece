"""Euchre strategies; importing this package registers them all."""

from strategies import register_alias
from strategies.euchre import simple  # noqa: F401

# The strongest Euchre strategy so far (docs/euchre.md); moves when a stronger one is measured.
register_alias("euchre", "best", "simple")
