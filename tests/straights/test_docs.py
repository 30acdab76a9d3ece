"""The strategy example in docs/straights.md runs as written and plays the same in both engines."""

import re
from pathlib import Path

import pytest

from sim.crosscheck import crosscheck

DOC = Path(__file__).resolve().parents[2] / "docs" / "straights.md"


@pytest.fixture
def example_registered():
    """Runs the doc's code block, which registers ``lowest-rank`` (taken back after the test: conftest)."""
    code = re.search(r"## Writing a strategy.*?```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    exec(compile(code, str(DOC), "exec"), {})


def test_the_documented_strategy_plays_the_same_in_both_engines(example_registered):
    lineup = ["lowest-rank", "first-legal", "lowest-rank", "heuristic"]
    report = crosscheck("straights", rounds=500, seed=3, strategies=lineup)
    assert report.ok, report.format()
    assert report.actions == 500 * 52
