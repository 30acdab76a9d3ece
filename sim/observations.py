"""Each game's observation fields, for people writing strategies: one table of name, shape, dtype,
meaning and encoding, read from the observation record's own documentation so it cannot drift.

A game's ``Game.observation`` is the record strategies receive (``sim.api``). Each of its fields is
documented where it is declared, by a docstring of one form (an attribute docstring under a dataclass
field, or a property's docstring)::

    (n, 13) int8 / int64: the cards dealt to this seat, in dealt order. Encoding: card ids (...).

the shape (``n`` the rows of the batch), the dtype (``fast / reference`` where the two engines hand
out different ones), a colon, what the field means, and after ``Encoding:`` how its numbers say it.
``cardsim strategies --game G --fields`` prints the table, docs/<game>.md lists it (``python -m
sim.observations`` writes it there), and the tests check both against the records and the arrays
both engines hand out.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from sim import games

# "(n, 13) int8 / int64: meaning. Encoding: how."
_DOC = re.compile(r"\((?P<shape>[^)]*)\)\s+(?P<dtype>[a-z0-9]+(?:\s*/\s*[a-z0-9]+)?):\s+(?P<rest>.+)", re.S)
HEADERS = ("field", "shape", "dtype", "meaning", "encoding")
DOCS = Path(__file__).resolve().parents[1] / "docs"
SECTION = "## Observation fields"
TEXT_WIDTH = 120  # the terminal table's; meaning and encoding share what the other columns leave


class Undocumented(ValueError):
    """An observation field whose documentation is not of the form this module reads."""


@dataclass(frozen=True)
class FieldDoc:
    """One field of an observation record, as its docstring says it."""

    name: str
    shape: str  # "(n, 13)"
    dtype: str  # "int64", or "int8 / int64": the fast engine's, then the reference engine's
    meaning: str
    encoding: str

    @property
    def dtypes(self) -> tuple[str, str]:
        """The dtype the fast engine hands out, and the reference engine's."""
        fast, _, reference = self.dtype.partition("/")
        return fast.strip(), (reference or fast).strip()

    @property
    def dimensions(self) -> tuple[int, ...]:
        """The shape past the batch's rows: () for "(n,)", (13,) for "(n, 13)"."""
        return tuple(int(part) for part in self.shape.strip("()").split(",")[1:] if part.strip())


def field_docs(record: type) -> list[FieldDoc]:
    """The documented fields of the observation ``record``, in the order it declares them: its
    dataclass fields with an attribute docstring, and its properties whose docstring starts with a
    shape. Undocumented if a dataclass field has no docstring of the form."""
    source = textwrap.dedent(inspect.getsource(record))
    (declared,) = [node for node in ast.parse(source).body if isinstance(node, ast.ClassDef)]
    docs = []
    body = declared.body
    for index, node in enumerate(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            following = body[index + 1] if index + 1 < len(body) else None
            text = following.value.value if _is_string(following) else ""  # type: ignore[union-attr]
            docs.append(_parse(node.target.id, text, record))
        elif isinstance(node, ast.FunctionDef) and _is_property(node):
            text = ast.get_docstring(node) or ""
            if text.startswith("("):
                docs.append(_parse(node.name, text, record))
    return docs


def _is_string(node: ast.stmt | None) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _is_property(node: ast.FunctionDef) -> bool:
    return any(isinstance(decorator, ast.Name) and decorator.id == "property" for decorator in node.decorator_list)


def _parse(name: str, text: str, record: type) -> FieldDoc:
    flat = " ".join(inspect.cleandoc(text).split())
    match = _DOC.fullmatch(flat)
    if match is None:
        raise Undocumented(
            f"{record.__module__}.{record.__name__}.{name} is not documented as '(SHAPE) DTYPE: meaning. "
            "Encoding: how.'"
        )
    meaning, _, encoding = match["rest"].replace("``", "`").partition(" Encoding: ")
    dtype = " / ".join(part.strip() for part in match["dtype"].split("/"))
    return FieldDoc(name, f"({match['shape']})", dtype, meaning.strip().rstrip("."), encoding.strip().rstrip("."))


def game_fields(name: str) -> list[FieldDoc]:
    """The documented fields of game ``name``'s observation record."""
    record = games.load(name).observation
    if record is None:
        raise Undocumented(f"{name} names no observation record")
    return field_docs(record)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_table(fields: list[FieldDoc]) -> str:
    """The fields as a Markdown table, as docs/<game>.md lists them."""
    lines = ["| " + " | ".join(HEADERS) + " |", "|---|---|---|---|---|"]
    for field in fields:
        values = (f"`{field.name}`", field.shape, field.dtype, field.meaning, field.encoding)
        lines.append("| " + " | ".join(_cell(value) for value in values) + " |")
    return "\n".join(lines)


def text_table(fields: list[FieldDoc], width: int = TEXT_WIDTH) -> str:
    """The fields as a terminal table about ``width`` characters wide: each header underlined on its
    own, meaning and encoding wrapped within their columns."""
    named = [
        max(len(header), *(len(value) for value in values))
        for header, values in zip(HEADERS, zip(*((field.name, field.shape, field.dtype) for field in fields)))
    ]
    prose = max(24, (width - sum(named) - 2 * (len(HEADERS) - 1)) // 2)
    widths = (*named, prose, prose)

    def row(values: tuple[str, ...]) -> list[str]:
        wrapped = [textwrap.wrap(value, width) or [""] for value, width in zip(values, widths)]
        height = max(len(lines) for lines in wrapped)
        return [
            "  ".join(
                (lines[line] if line < len(lines) else "").ljust(width) for lines, width in zip(wrapped, widths)
            ).rstrip()
            for line in range(height)
        ]

    lines = row(HEADERS) + ["  ".join("─" * width for width in widths)]
    for field in fields:
        lines += row((field.name, field.shape, field.dtype, field.meaning, field.encoding))
    return "\n".join(lines)


def legend(name: str) -> str:
    """What the table's rows are, for a game: the record they document and how to read a dtype."""
    record = games.load(name).observation
    where = f"{record.__module__}.{record.__name__}" if record is not None else name
    return (
        f"The fields of {where}, one array each whose first axis is the batch's n rows. Where the "
        "engines hand out different dtypes the fast engine's comes first, then the reference engine's."
    )


def reference(name: str, width: int = TEXT_WIDTH) -> str:
    """Game ``name``'s fields as ``cardsim strategies --fields`` prints them: what they are, then the table."""
    return textwrap.fill(f"{name}: {legend(name)}", width) + "\n" + text_table(game_fields(name), width)


def write_docs(name: str, folder: Path = DOCS) -> bool:
    """Write game ``name``'s field table into the "Observation fields" section of ``folder/<name>.md``
    (the section's text up to its table stays as written); returns whether the page changed."""
    path = folder / f"{name}.md"
    page = path.read_text(encoding="utf-8")
    start = page.index(SECTION)
    end = page.find("\n## ", start + len(SECTION))
    section = page[start : end if end >= 0 else len(page)]
    table_start = section.find("\n| field |")
    lead = section[:table_start] if table_start >= 0 else section.rstrip("\n") + "\n"
    rebuilt = lead.rstrip("\n") + "\n\n" + markdown_table(game_fields(name)) + "\n"
    if end >= 0:
        rebuilt += "\n"
    updated = page[:start] + rebuilt + (page[end + 1 :] if end >= 0 else "")
    if updated != page:
        path.write_text(updated, encoding="utf-8")
    return updated != page


def main() -> int:
    """``python -m sim.observations``: rewrite each game's table in docs/<game>.md from its record."""
    for name in games.names():
        if write_docs(name):
            print(f"docs/{name}.md: observation fields rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
