"""The one parser for whole numbers that come from people or files, and how counts are said to people.

Python refuses to convert integer strings of more than 4,300 digits (and converting long ones costs
quadratic time), so no text reaches ``int()`` here before its length is checked against the range
it must fall in: a number too long to be in range is refused like any other out-of-range value.
"""

from __future__ import annotations

import math
import re

# An optional sign, then ASCII digits; underscores group digits as in Python (``1_000_000``).
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*")
# Longer texts are cut short in messages, so a hostile value cannot flood the terminal.
_SHOWN_CHARACTERS = 24
# The longest float text worth reading: far more digits than a double holds.
_MAX_FLOAT_CHARACTERS = 64


class NumberError(ValueError):
    """Text that is not a number in the range asked for; the message is one line for people."""


def clipped(text: str) -> str:
    """``text`` for a one-line message: as it is when short, else its start and its length."""
    if len(text) <= _SHOWN_CHARACTERS:
        return text
    return f"{text[:_SHOWN_CHARACTERS]}... ({len(text)} characters)"


def shown(text: str) -> str:
    """``text`` quoted for a one-line message, shortened when it is long."""
    if len(text) <= _SHOWN_CHARACTERS:
        return repr(text)
    return repr(text[:_SHOWN_CHARACTERS] + "...") + f" ({len(text)} characters)"


def _range_words(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"at least {low}"
    return f"at most {high}"


def amount(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless the count is one: "1 card", "3 coins"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def parse_int(text: str, low: int | None = None, high: int | None = None) -> int:
    """The whole number ``text`` spells, which must be from ``low`` to ``high`` (inclusive; None: no bound).

    Surrounding white space is ignored. Raises ``NumberError`` for anything else, including numbers
    too long to be in range, without ever handing a long string to ``int()``.
    """
    stripped = text.strip()
    if not _WHOLE_NUMBER.fullmatch(stripped):
        raise NumberError(f"{shown(text)} is not a whole number")
    if low is None and high is None:
        raise ValueError("parse_int needs at least one bound")  # a programming error, not bad input
    widest = max(len(str(bound)) for bound in (low, high) if bound is not None)
    digits = stripped.lstrip("+-").replace("_", "").lstrip("0")
    if len(digits) > widest:
        raise NumberError(f"{shown(text)} is out of range: it must be {_range_words(low, high)}")
    value = -int(digits or "0", 10) if stripped.startswith("-") else int(digits or "0", 10)
    if (low is not None and value < low) or (high is not None and value > high):
        raise NumberError(f"{shown(text)} is out of range: it must be {_range_words(low, high)}")
    return value


def parse_float(text: str, low: float | None = None, high: float | None = None) -> float:
    """The finite number ``text`` spells, from ``low`` to ``high`` (None: no bound); ``NumberError`` if not."""
    stripped = text.strip()
    try:
        if len(stripped) > _MAX_FLOAT_CHARACTERS:
            raise ValueError(stripped)
        value = float(stripped)
    except ValueError:
        raise NumberError(f"{shown(text)} is not a number") from None
    if not math.isfinite(value):
        raise NumberError(f"{shown(text)} is not a finite number")
    if (low is not None and value < low) or (high is not None and value > high):
        raise NumberError(f"{shown(text)} is out of range: it must be {_range_words(low, high)}")
    return value


def json_int(text: str) -> int:
    """``json.loads(..., parse_int=json_int)``: JSON integers of at most 64 bits.

    Any field's own range is checked after parsing; this only keeps a 100,000-digit number from
    reaching ``int()``, raising ``NumberError`` instead.
    """
    try:
        return parse_int(text, -(2**64), 2**64)
    except NumberError:
        raise NumberError(f"{shown(text)} is too large for any field") from None
