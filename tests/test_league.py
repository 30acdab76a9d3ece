"""Leagues: the lineups each game calls fair, the matrix and ratings against the pairings' own runs,
resuming, the folder's files and the command line."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from sim import seating, stats
from sim.league import League, read_league, run
from sim.results import ResultsError, RunStore

ROOT = Path(__file__).parents[1]


def test_fair_lineups_seat_both_strategies_everywhere_in_every_arrangement():
    # Two seats: one each, both ways round.
    assert seating.league_seatings((0, 1), seating.swapped()) == ((0, 1), (1, 0))
    # Euchre: one partnership each, each partnership in both seat pairs.
    assert seating.league_seatings((0, 1, 0, 1), seating.partnerships_rotated()) == ((0, 1, 0, 1), (1, 0, 1, 0))
    # Straights: one against three either way, two against two side by side and alternating, each
    # in its distinct rotations: 4 + 4 + 4 + 2 seatings.
    straights = seating.league_seatings((0, 1, 2, 3), seating.rotations(4))
    assert len(straights) == 14 and len(set(straights)) == 14
    assert sorted(seating.head_to_head((0, 1, 2, 3))) == [(0, 0, 0, 1), (0, 0, 1, 1), (0, 1, 0, 1), (0, 1, 1, 1)]
    for seat in range(4):  # every seat is held as often by either strategy
        assert sum(seats[seat] for seats in straights) == 7


@pytest.fixture(scope="module")
def gemstones_league(tmp_path_factory):
    folder = tmp_path_factory.mktemp("league")
    league = League("gemstones", ("heuristic", "greedy", "random"), rounds=40, seed=3)
    return league, folder, run(league, folder, anchor="greedy", progress=False)


def test_matrix_cells_are_the_pairings_own_paired_results(gemstones_league):
    league, folder, result = gemstones_league
    matrix = result.matrix.set_index(["strategy", "opponent"])
    assert len(matrix) == 6  # 3 pairings, both ways
    pair = pd.read_csv(folder / "pairings" / "0-1" / "paired.csv").iloc[0]  # heuristic against greedy
    cell, mirror = matrix.loc[("heuristic", "greedy")], matrix.loc[("greedy", "heuristic")]
    assert (cell["wins"], cell["draws"], cell["losses"]) == (pair["wins"], pair["draws"], pair["losses"])
    assert (mirror["wins"], mirror["losses"]) == (pair["losses"], pair["wins"])
    assert cell["score_rate"] + mirror["score_rate"] == pytest.approx(1.0)
    assert cell["mean_diff"] == pytest.approx(-mirror["mean_diff"])
    assert cell["deals"] == 40
    score = stats.score_interval(int(pair["wins"]), int(pair["draws"]), int(pair["losses"]))
    assert (cell["score_ci95_low"], cell["score_ci95_high"]) == pytest.approx((score.low, score.high))


def test_ratings_are_the_maximum_likelihood_fit_of_the_matrix(gemstones_league):
    league, folder, result = gemstones_league
    ratings = pd.read_csv(folder / "ratings.csv").set_index("strategy")
    assert list(ratings.columns[:3]) == ["rating", "ci95_low", "ci95_high"]
    assert ratings.loc["greedy", "rating"] == 0.0  # the anchor
    assert list(result.ratings["strategy"]) == sorted(league.players, key=lambda s: -ratings.loc[s, "rating"])
    encounters = [
        stats.Encounter(
            league.players.index(row.strategy), league.players.index(row.opponent), row.wins, row.draws, row.losses
        )
        for row in result.matrix.itertuples()
        if league.players.index(row.strategy) < league.players.index(row.opponent)
    ]
    expected = stats.paired_comparison_ratings(3, encounters, anchor=1, virtual_draws=result.prior_draws)
    for name, rating in zip(league.players, expected):
        assert ratings.loc[name, "rating"] == pytest.approx(rating.estimate)
        assert (ratings.loc[name, "ci95_low"], ratings.loc[name, "ci95_high"]) == pytest.approx(
            (rating.low, rating.high)
        )
    assert ratings.loc["heuristic", "rating"] > 0 > ratings.loc["random", "rating"]
    assert {"matrix.png", "ratings.png", "matrix.csv", "ratings.csv", "league.json"} <= {
        p.name for p in folder.iterdir()
    }
    assert read_league(folder) == league


def test_a_league_resumes_and_refuses_another_league_in_its_folder(gemstones_league, tmp_path):
    league, folder, result = gemstones_league
    again = run(league, folder, anchor="greedy", progress=False)  # everything played: only summed again
    pd.testing.assert_frame_equal(again.ratings, result.ratings)
    # Stopped before its last pairing was played: running it again plays only what is missing.
    last = folder / "pairings" / "1-2"
    for chunk in (last / "chunks").glob("*.json"):
        chunk.unlink()
    (folder / "ratings.csv").unlink()
    assert RunStore(last).finished_chunks() == set()
    resumed = run(league, folder, anchor="greedy", progress=False)
    pd.testing.assert_frame_equal(resumed.ratings, result.ratings)
    pd.testing.assert_frame_equal(resumed.matrix, result.matrix)
    with pytest.raises(ResultsError, match="holds a different league"):
        run(League("gemstones", ("heuristic", "greedy"), rounds=40, seed=3), folder, progress=False)
    # A pairing replays like any run: its folder is a tournament run.
    assert RunStore(folder / "pairings" / "0-2").read_config()["plan"]["players"] == ["heuristic", "random"]


def test_league_command_prints_ratings_and_the_matrix(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sim.cli",
            "league",
            "--game",
            "euchre",
            "--players",
            "heuristic,simple",
            "--rounds",
            "30",
            "--out",
            str(tmp_path / "league"),
            "--quiet",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "euchre league: 2 strategies, 1 pairings of 30 deals, each deal in 2 seatings, seed 0"
    assert lines[3].split() == ["strategy", "Elo", "95%", "CI", "deals", "score", "score", "95%", "CI"]
    assert set(lines[4]) <= {"─", " "}  # each header underlined on its own
    assert any(line.startswith("heuristic") and "+0.0" in line for line in lines[5:7])  # the anchor, rated 0
    assert any(line.startswith("Head to head") for line in lines)
    assert lines[-1] == f"Report: {tmp_path / 'league' / 'report.html'}"
    listing = subprocess.run(
        [sys.executable, "-m", "sim.cli", "runs", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert "league" in listing.stdout and listing.stdout.rstrip().endswith("done")
