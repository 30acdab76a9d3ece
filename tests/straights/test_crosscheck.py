"""Every registered deterministic Straights strategy plays identically in both engines on 4,000 deals.

Monte-Carlo strategies cost seconds per round on the reference engine; their engine agreement is
checked on fewer deals in test_strategies.py and at scale by `cardsim crosscheck`.
"""

import numpy as np
import pytest

import strategies
from sim.crosscheck import crosscheck
from strategies.straights.first_legal import FirstLegal

LOOKAHEAD = {"mc", "oracle-mc", "search", "learned"}
# first-legal sits beside each of these in every lineup below (and in test_fast's mixed seats, on as
# many deals), so it is checked on 4,000 deals without a run of its own.
CHEAP_DETERMINISTIC = [
    info.name
    for info in strategies.available("straights")
    # policy plays a file of weights: tests/test_policy.py cross-checks random ones
    if info.deterministic and info.name not in LOOKAHEAD | {"first-legal"} and not info.required
]


@pytest.mark.parametrize("name", CHEAP_DETERMINISTIC)
def test_strategy_agrees_across_engines_on_2000_deals(name):
    # Seats alternate with first-legal so both the grouped and the per-seat paths of the fast engine run.
    lineup = [name, "first-legal", name, name]
    report = crosscheck("straights", rounds=2_000, seed=99, strategies=lineup, jobs=2)
    assert report.ok, report.format()
    assert report.rounds == 2_000 and report.actions == 104_000


def test_cardsim_crosscheck_exit_codes(capsys):
    from sim.cli import main

    assert main(["crosscheck", "--game", "straights", "--rounds", "200", "--seed", "1"]) == 0
    assert "crosscheck OK" in capsys.readouterr().out
    assert main(["crosscheck", "--game", "straights", "--rounds", "10", "--strategies", "nonsense"]) == 2


class DeviatesInTheFastEngineOnOneDeal:
    """first-legal, except that in the fast engine (batches of more than one) it takes its last legal
    action in the round of ``deal``: the engines then differ at the first choice there."""

    def __init__(self, deal: int) -> None:
        self.deal = deal

    def choose(self, observation):
        chosen = FirstLegal().choose(observation)
        if len(observation) > 1:
            rows = np.flatnonzero(observation.round_id == self.deal)
            last = np.frexp(observation.options[rows].astype(np.float64))[1] - 1  # highest set bit
            chosen[rows] = observation.hand[rows, last]
        return chosen


SPAN = 512  # deals a worker checks at a time in this test (CHUNK_SIZE in real runs): three spans


@pytest.mark.parametrize("deal", [SPAN + 404, None])
def test_workers_give_the_report_one_process_gives(deal, monkeypatch):
    monkeypatch.setattr("sim.crosscheck.CHUNK_SIZE", SPAN)  # spans are cut in this process
    lineup = [DeviatesInTheFastEngineOnOneDeal(deal if deal is not None else -1)] * 4
    alone = crosscheck("straights", rounds=2 * SPAN + 300, seed=5, strategies=lineup)
    in_workers = crosscheck("straights", rounds=2 * SPAN + 300, seed=5, strategies=lineup, jobs=2)
    assert in_workers == alone
    if deal is None:
        assert alone.ok and alone.rounds == 2 * SPAN + 300
    else:
        assert alone.divergence.deal == deal and alone.rounds == deal  # every earlier deal agreed
