"""Gemstones: the two-player card-chaining game of the CSI2372 project (docs/gemstones.md)."""
