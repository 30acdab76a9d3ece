"""A chunk's aggregates (``sim.chunks.summarize_chunk``) against the sums they stand for, computed plainly."""

import numpy as np
import pytest

from sim import games
from sim.chunks import summarize_chunk
from sim.plans import Plan

LINEUPS = [
    ("straights", ["first-legal"] * 4, False),
    ("straights", ["mc", "heuristic", "first-legal", "heuristic"], True),
    ("euchre", ["simple", "heuristic", "simple", "heuristic"], True),
    ("ginrummy", ["cs340", "simple"], True),
]


@pytest.mark.parametrize(("game_name", "players", "duplicate"), LINEUPS)
def test_a_chunk_of_rounds_sums_each_strategys_counted_seats(game_name, players, duplicate):
    game = games.load(game_name)
    plan = Plan(game_name, players, 500, duplicate=duplicate)
    seatings = plan.seatings(game)
    points = np.random.default_rng(5).integers(0, 30, size=(len(seatings), 301, game.num_seats))
    aggregates = summarize_chunk(plan, game, points, None, None)
    lineup = np.array([[players[p] for p in seats] for seats in seatings])
    teams = np.array(game.teams)
    best = points.min(axis=2, keepdims=True) if game.lower_is_better else points.max(axis=2, keepdims=True)
    per_deal = {}
    for name in plan.strategy_names:
        # The first seat of each team a strategy sits in counts; its partner's points are the same.
        counted = np.zeros(lineup.shape, dtype=bool)
        for s, row in enumerate(lineup):
            for team in set(teams[row == name].tolist()):
                counted[s, np.flatnonzero((row == name) & (teams == team))[0]] = True
        values = points[np.broadcast_to(counted[:, None, :], points.shape)]
        entry = aggregates["strategies"][name]
        assert entry["n"] == values.size and entry["sum"] == values.sum() and entry["sum_sq"] == (values**2).sum()
        assert entry["best"] == (points == best)[np.broadcast_to(counted[:, None, :], points.shape)].sum()
        assert entry["histogram"] == np.bincount(values).tolist()
        per_deal[name] = (points * counted[:, None, :]).sum(axis=(0, 2)) / counted.sum()
    for pair, entry in aggregates["pairs"].items():
        a, b = pair.split("\t")
        diff = per_deal[a] - per_deal[b]
        assert entry["diff"]["n"] == diff.size and entry["diff"]["sum"] == pytest.approx(diff.sum())
        better = -diff if game.lower_is_better else diff
        assert (entry["wins"], entry["losses"]) == ((better > 1e-9).sum(), (better < -1e-9).sum())
