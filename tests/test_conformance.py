"""One conformance test over every registered game: whatever the game, the machinery holds together.

Each game's cheap registered strategies play a small tournament on the reference engine, single
deals and whole games, with the duplicate seatings: results are reproducible, every seat of every
seating is accounted for, and every game is won by someone or drawn.
"""

import numpy as np
import pandas as pd
import pytest

import strategies
from sim import games, tournament
from sim.results import RunStore

SLOW = {"mc", "oracle-mc", "search", "learned"}  # lookahead: seconds per deal on the reference engine


def lineup(game: games.Game) -> tuple[str, ...]:
    names = [
        info.name
        for info in strategies.available(game.name)
        if info.name not in SLOW and not info.cheating and not info.required
    ]  # policy needs a file
    return tuple(names[seat % len(names)] for seat in range(game.num_seats))


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("whole_games", [False, True])
def test_every_game_runs_reproducible_duplicate_tournaments(name, whole_games, tmp_path):
    game = games.load(name)
    plan = tournament.Plan(
        name,
        lineup(game),
        rounds=6 if whole_games else 24,
        seed=1,
        duplicate=True,
        games=whole_games,
        engine="reference",
    )
    first = tournament.run(plan, RunStore(tmp_path / "a"), progress=False)
    again = tournament.run(plan, RunStore(tmp_path / "b"), progress=False)
    pd.testing.assert_frame_equal(first.summary, again.summary)
    rows = RunStore(tmp_path / "a").load_rows()
    assert len(rows) == plan.rounds * len(game.duplicate_seatings) * game.num_seats
    assert set(rows["seat"]) == set(range(game.num_seats))
    assert np.isfinite(first.summary["mean_points"]).all()
    if whole_games:
        winners_per_game = rows.groupby(["game", "seating"])["winner"].sum()
        assert (winners_per_game <= game.num_seats).all()


@pytest.mark.parametrize("name", games.names())
def test_every_game_deals_reproducibly_by_index(name):
    game = games.load(name)
    block = game.deals(7, 3, 5)
    assert np.array_equal(block, game.deals_at(7, np.arange(3, 8)))
    assert np.array_equal(block[1:3], game.deals(7, 4, 2))
    assert not np.array_equal(block, game.deals(8, 3, 5))


@pytest.mark.parametrize("name", games.names())
def test_every_game_has_a_best_strategy(name):
    assert not strategies.info(name, "best").cheating
