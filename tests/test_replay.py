"""``cardsim replay``: a deal of a finished run told again, checked against what the run stored.

Each game plays one tiny duplicate tournament on its fast engine (module fixtures, built once);
its deals are replayed on the reference engine in a seating other than the first. The starting hands
are looked up here from the reference state, in each game's own card notation (``HAND_TEXT``), so
the transcript is checked against the deal, not against itself.
"""

from __future__ import annotations

import argparse
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from sim import games, replay, tournament
from sim.cards import card_name, cards_in, format_cards
from sim.euchre import rules as euchre_rules
from sim.gemstones import rules as gemstones_rules
from sim.replay import ReplayError, replay_text
from sim.results import RunStore

DEALS = 3
DEAL = 2  # the deal replayed
SEATING = 1  # every game's duplicate plan has a second seating

# A seat's starting hand as each game's program writes it, from the state of a new round.
HAND_TEXT: dict[str, Callable[[Any, int], str]] = {
    "straights": lambda state, seat: " ".join(map(card_name, state.dealt_hand(seat))),
    "euchre": lambda state, seat: ", ".join(
        map(euchre_rules.card_long_name, euchre_rules.sorted_hand(state.hands[seat]))
    ),
    "ginrummy": lambda state, seat: format_cards(cards_in(state.hands[seat])),
    "gemstones": lambda state, seat: gemstones_rules.format_cards(state.hands[seat]),
}


@dataclass(frozen=True)
class Run:
    plan: tournament.Plan
    game: games.Game
    path: Path

    def stored(self, deal: int, seating: int) -> pd.DataFrame:
        rows = RunStore(self.path).load_rows()
        column = "game" if self.plan.games else "deal"
        return rows[(rows[column] == deal) & (rows["seating"] == seating)].sort_values("seat")

    def hands(self, deal: int) -> list[str]:
        """Each seat's starting hand of ``deal`` in the game's notation (seating does not change the deal)."""
        state = self.game.new_state(self.game.deals(self.plan.seed, deal, 1)[0], deal)
        return [HAND_TEXT[self.game.name](state, seat) for seat in range(self.game.num_seats)]


def played(path: Path, name: str, **settings: Any) -> Run:
    """A tiny duplicate tournament of the game's baseline against its heuristic, on the fast engine."""
    game = games.load(name)
    lineup = tuple((game.baseline, "heuristic")[seat % 2] for seat in range(game.num_seats))
    plan = tournament.Plan(name, lineup, rounds=DEALS, seed=11, duplicate=True, engine="fast", **settings)
    tournament.run(plan, RunStore(path), jobs=1, progress=False)
    return Run(plan, game, path)


@pytest.fixture(scope="module", params=games.names())
def run(request, tmp_path_factory) -> Run:
    return played(tmp_path_factory.mktemp(request.param), request.param)


@pytest.fixture(scope="module")
def whole_games(tmp_path_factory) -> Run:
    return played(tmp_path_factory.mktemp("games"), games.DEFAULT_GAME, games=True)


def seat_names(text: str) -> list[str]:
    """The seats' names the header gives, in seat order."""
    return re.findall(r"^Seat \d+ \((.*)\): ", text, flags=re.M)


def scores_text(names: list[str], points: pd.Series) -> str:
    return ", ".join(f"{name} {value}" for name, value in zip(names, points))


def test_replay_names_the_seats_shows_every_hand_and_the_stored_points(run):
    text = replay_text(run.path, DEAL, SEATING)
    seats = run.plan.seatings(run.game)[SEATING]
    for seat, player in enumerate(seats):
        assert re.search(rf"^Seat {seat} \(.+\): {re.escape(run.plan.players[player])}$", text, flags=re.M)
    for hand in run.hands(DEAL):
        assert hand in text
    stored = run.stored(DEAL, SEATING)
    assert f"\nPoints: {scores_text(seat_names(text), stored['points'])}\n" in text
    assert text.endswith(
        f"The replayed points match the run's stored row (000000.parquet, deal {DEAL}, seating {SEATING}).\n"
    )


def test_a_seats_view_shows_its_own_hand_and_no_other(run):
    hands = run.hands(DEAL)
    for seat in range(run.game.num_seats):
        text = replay_text(run.path, DEAL, SEATING, seat)
        assert hands[seat] in text
        for other, hand in enumerate(hands):
            if other != seat:
                assert hand not in text, f"seat {seat}'s view shows seat {other}'s hand"


def test_a_seats_view_tells_the_same_play_without_the_other_hands(run):
    everyone = replay_text(run.path, DEAL, SEATING).splitlines()
    seen = replay_text(run.path, DEAL, SEATING, 0).splitlines()
    assert everyone[-2:] == seen[-2:]  # the points and the stored-row check
    assert len(seen) < len(everyone)


def test_a_whole_game_is_replayed_round_after_round(whole_games):
    text = replay_text(whole_games.path, DEAL, SEATING)
    stored = whole_games.stored(DEAL, SEATING)
    names = seat_names(text)
    rounds = int(stored["rounds"].iloc[0])
    assert rounds > 1
    assert text.count("A new round begins.") == rounds
    assert f"\nFinal scores after {rounds} rounds: {scores_text(names, stored['points'])}\n" in text
    winners = [name for name, won in zip(names, stored["winner"]) if won]
    assert f"\nWon by: {', '.join(winners)}\n" in text
    assert text.endswith(f"stored row (000000.parquet, game {DEAL}, seating {SEATING}).\n")


def test_a_run_without_rows_is_replayed_without_the_check(tmp_path):
    bare = played(tmp_path, games.DEFAULT_GAME, keep_rounds=False)
    text = replay_text(bare.path, 0, SEATING)
    assert text.endswith("there is no stored row to compare with.\n")


def test_a_replay_that_disagrees_with_the_stored_row_is_an_error(run, monkeypatch):
    told = replay.outcome_row
    monkeypatch.setattr(replay, "outcome_row", lambda plan, state: {**told(plan, state), "points": [-1] * 99})
    with pytest.raises(ReplayError, match="a bug"):
        replay_text(run.path, DEAL, SEATING)


def test_rows_changed_since_the_run_are_a_damaged_chunk_not_a_disagreement(run, tmp_path):
    copy = tmp_path / "tampered"
    shutil.copytree(run.path, copy)
    chunk = RunStore(copy).chunk_path(0, ".parquet")
    rows = pd.read_parquet(chunk)
    rows.loc[(rows["deal"] == DEAL) & (rows["seating"] == SEATING), "points"] += 1
    rows.to_parquet(chunk, index=False)
    last = replay_text(copy, DEAL, SEATING).splitlines()[-1]
    assert last.startswith(f"chunk 0 is damaged: {chunk}: its rows do not add up to the chunk's aggregates; ")
    assert "there is no stored row to compare with" in last


@pytest.mark.parametrize(
    "where, deal, seating, seat, message",
    [
        ("missing", 0, 0, None, "is not a folder"),
        ("empty", 0, 0, None, "holds no tournament run"),
        ("run", DEALS, 0, None, f"deal {DEALS} is out of range: the run played deals 0 to {DEALS - 1}"),
        ("run", 0, 99, None, "seating 99 is out of range: the run played seatings 0 to"),
        ("run", 0, 0, 9, "seat 9 is out of range"),
        ("run", 0, 0, -1, "seat -1 is out of range"),
    ],
)
def test_bad_requests_are_one_line_errors(run, tmp_path, where, deal, seating, seat, message):
    (tmp_path / "empty").mkdir()
    folder = {"missing": tmp_path / "missing", "empty": tmp_path / "empty", "run": run.path}[where]
    with pytest.raises(ReplayError, match=re.escape(message)) as raised:
        replay_text(folder, deal, seating, seat)
    assert "\n" not in str(raised.value)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardsim replay")
    replay.add_arguments(parser)
    return parser


def test_the_command_prints_the_replay(run, capsys):
    args = parser().parse_args([str(run.path), "--deal", str(DEAL), "--seating", str(SEATING), "--seat", "1"])
    assert replay.command(args) == 0
    assert capsys.readouterr().out == replay_text(run.path, DEAL, SEATING, 1)


@pytest.mark.parametrize(
    "arguments", [["RUN"], ["RUN", "--deal", "-1"], ["RUN", "--deal", "x"], ["RUN", "--deal", "0", "--seat", "-2"]]
)
def test_the_command_refuses_bad_numbers(arguments, capsys):
    with pytest.raises(SystemExit):
        parser().parse_args(arguments)
    assert "error:" in capsys.readouterr().err
