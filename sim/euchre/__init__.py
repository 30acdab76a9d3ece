"""EECS 280 Euchre: rules, the reference engine and the spec's program."""
