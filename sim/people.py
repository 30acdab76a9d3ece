"""How the web table speaks of the people at it: the person is "You", and verbs agree with the name.

Each game's ``words`` module builds its web log from these, so every table says it the same way.
"""

from __future__ import annotations

YOU = "You"  # the person's name at the web table: its verbs are conjugated for it


def verb(name: str, plain: str, third: str) -> str:
    """``name`` and the verb that agrees with it: "You pass", "West passes"."""
    return f"{name} {plain if name == YOU else third}"


def object_name(name: str) -> str:
    """``name`` inside a sentence: "dealt by you"."""
    return "you" if name == YOU else name
