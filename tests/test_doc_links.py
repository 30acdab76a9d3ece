"""The README and docs/ point only at files a clone has: every link and image exists, no path leads
out of the repository (the assignments' specs and the design notes the project started from are
summarised in docs/, not linked), and every repository path they name in code spans exists."""

from __future__ import annotations

import re
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
            assert (ROOT / span).exists(), f"{page.name} names {span}, which does not exist"
    assert not re.search(r"(?<![\w`/.])\.\./", text), f"{page.name} leads out of the repository"
