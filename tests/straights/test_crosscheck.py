"""Every registered deterministic Straights strategy plays identically in both engines on 10,000 deals.

Monte-Carlo strategies cost seconds per round on the reference engine; their engine agreement is
checked on fewer deals in test_strategies.py and at scale by `cardsim crosscheck`.
"""

import pytest

import strategies
from sim.crosscheck import crosscheck

LOOKAHEAD = {"mc", "oracle-mc"}
CHEAP_DETERMINISTIC = [
    info.name for info in strategies.available("straights") if info.deterministic and info.name not in LOOKAHEAD
]


@pytest.mark.parametrize("name", CHEAP_DETERMINISTIC)
def test_strategy_agrees_across_engines_on_10000_deals(name):
    # Seats alternate with first-legal so both the grouped and the per-seat paths of the fast engine run.
    lineup = [name, "first-legal", name, name]
    report = crosscheck("straights", rounds=10_000, seed=99, strategies=lineup)
    assert report.ok, report.format()
    assert report.rounds == 10_000 and report.actions == 520_000


def test_cardsim_crosscheck_exit_codes(capsys):
    from sim.cli import main

    assert main(["crosscheck", "--game", "straights", "--rounds", "200", "--seed", "1"]) == 0
    assert "crosscheck OK" in capsys.readouterr().out
    assert main(["crosscheck", "--game", "straights", "--rounds", "10", "--strategies", "nonsense"]) == 2
