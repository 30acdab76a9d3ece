"""The README and docs/ point only at files a clone has: every link and image exists, no path leads
out of the repository (the assignments' specs and the design notes the project started from are
summarised in docs/, not linked), and every repository path they name in code spans exists."""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")
# A path out of the clone: up from it, or into the folders beside it the project was started from.
OUTSIDE = re.compile(r"(^|[\s(])(\.\./|shared/|specs/)")
# A path into the clone: one of its folders, then a name with no placeholder (<run-id>, *.png, I-J).
INSIDE = re.compile(r"(sim|strategies|tests|docs|experiments|notebooks|benchmarks)/[\w./-]*[\w/]")


@cache
def in_a_clone() -> frozenset[str]:
    """Every file and folder a clean clone has (a local run also has caches and results a clone lacks)."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    if listed.returncode != 0:
        return frozenset()
    paths: set[str] = set()
    for name in listed.stdout.splitlines():
        parts = name.split("/")
        paths.update("/".join(parts[: i + 1]) for i in range(len(parts)))
    return frozenset(paths)


def in_the_repository(span: str) -> bool:
    tracked = in_a_clone()
    return span.rstrip("/") in tracked if tracked else (ROOT / span).exists()


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_links_and_paths_stay_in_the_repository(page):
    text = page.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:|#", target):
            continue
        assert (page.parent / target.split("#")[0]).exists(), f"{page.name} links {target}, which does not exist"
    for span in CODE.findall(text):
        assert not OUTSIDE.search(span), f"{page.name} names {span!r}, outside the repository"
        if INSIDE.fullmatch(span):
            assert in_the_repository(span), f"{page.name} names {span}, which a clone does not have"
    assert not re.search(r"(?<![\w`/.])\.\./", text), f"{page.name} leads out of the repository"
