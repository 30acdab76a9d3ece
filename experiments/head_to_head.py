"""Whole-game head-to-head evidence, played through the tournament pipeline and written into a doc page.

A pairing "A vs B" is a duplicate tournament of whole games (``cardsim tournament --games
--duplicate``): every game is played in each of the game's duplicate seatings. Each pairing's run
folder lives under ``results/experiments/<run-id>/``, so an interrupted experiment resumes where it
stopped and a finished pairing is read back instead of played again.

A's record counts every game once per seating: wins, draws (a win shared with B) and losses. Its
score rate counts a draw half, with the Wilson interval of ``sim.stats.score_interval``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

import strategies
from sim import games, stats, tournament
from sim.results import RunStore
from strategies.montecarlo import Truth

RESULTS = Path(__file__).resolve().parent.parent / "results" / "experiments"


@dataclass(frozen=True)
class Record:
    """A's games against B: how many it won, drew (shared the win) and lost."""

    a: str
    b: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def score(self, confidence: float) -> stats.Interval:
        return stats.score_interval(self.wins, self.draws, self.losses, confidence)


def decision_times(game: str, spec: str, other: str, seats: Sequence[int], seed: int, hands: int) -> np.ndarray:
    """Seconds per decision with more than one legal action of ``spec``, playing ``seats`` (``other``
    the rest), over ``hands`` hands of ``seed`` on the reference engine: one observation per call,
    the way ``cardsim play`` asks."""
    record = games.load(game)
    player, opponent = strategies.get(game, spec), strategies.get(game, other)
    times = []
    for hand_id, deal in enumerate(record.deals(seed, 0, hands)):
        state = record.new_state(deal, hand_id)
        while not state.is_over:
            mine = state.current_player in seats
            began = time.perf_counter()
            action = (player if mine else opponent).choose(state.observe())[0]
            if mine and len(state.legal_actions()) > 1:
                times.append(time.perf_counter() - began)
            state.apply(int(action))
    return np.array(times)


MARGIN_SPAN = 250  # deals per task of margins_against


def margins_against(
    game: str,
    spec: str,
    other: str,
    deals: int,
    seed: int,
    truth_of: Callable[[np.ndarray, np.ndarray], Truth],
    jobs: int = 1,
) -> np.ndarray:
    """Per deal of ``seed``, ``spec``'s points minus ``other``'s, summed over both seatings of the deal
    (two-player games, fast engine, round by round), in tasks of ``MARGIN_SPAN`` deals over ``jobs``
    workers: every decision is seeded by its own hand, so the tasks do not change the result. A
    cheating ``spec`` is bound to ``truth_of``'s Truth of the deals and every seat is watched."""
    spans = [(start, min(MARGIN_SPAN, deals - start)) for start in range(0, deals, MARGIN_SPAN)]
    task = delayed(_margins_of_span)
    parts = Parallel(n_jobs=jobs)(task(game, spec, other, seed, truth_of, *span) for span in spans)
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _margins_of_span(
    game: str,
    spec: str,
    other: str,
    seed: int,
    truth_of: Callable[[np.ndarray, np.ndarray], Truth],
    start: int,
    count: int,
) -> np.ndarray:
    """``margins_against`` of deals ``start .. start + count - 1``."""
    record = games.load(game)
    ids = np.arange(start, start + count)
    dealt = record.deals(seed, start, count)
    opponent = strategies.get(game, other)
    margin = np.zeros(count, dtype=np.int64)
    for seat in (0, 1):
        player = strategies.get(game, spec)
        lineup = [opponent, opponent]
        lineup[seat] = player
        if hasattr(player, "bind"):
            truth = truth_of(dealt, ids)
            player.bind(truth)
            lineup = truth.watch(lineup)
        points = record.play_rounds["fast"](dealt, lineup, ids).points
        margin += points[:, seat] - points[:, 1 - seat]
    return margin


def pairing_plan(game: str, a: str, b: str, deals: int, seed: int) -> tournament.Plan:
    """The tournament of a pairing: ``deals`` whole games of A against B, each in every duplicate seating."""
    return tournament.Plan(game, (a, b), rounds=deals, seed=seed, duplicate=True, games=True, keep_rounds=False)


def play(game: str, a: str, b: str, deals: int, seed: int, jobs: int) -> Record:
    """A's record against B over ``deals`` whole games, each in every duplicate seating."""
    plan = pairing_plan(game, a, b, deals, seed)
    result = tournament.run(plan, RunStore(RESULTS / plan.run_id), jobs=jobs)
    line = result.summary.set_index("strategy").loc[a]
    return Record(a, b, int(line["wins"]), int(line["draws"]), int(line["losses"]))


def table(records: list[Record], confidence: float) -> str:
    """The records as a markdown table."""
    lines = [
        f"| A | B | games | A wins | draws | A losses | A's score | {confidence:.0%} interval |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for record in records:
        score = record.score(confidence)
        lines.append(
            f"| {record.a} | {record.b} | {record.games:,} | {record.wins:,} | {record.draws:,} "
            f"| {record.losses:,} | {score.estimate:.1%} | {score.low:.1%} – {score.high:.1%} |"
        )
    return "\n".join(lines)


def replace_results(doc: Path, text: str, block: str = "results") -> None:
    """Put ``text`` between the page's ``<!-- {block}:begin -->`` and ``<!-- {block}:end -->`` markers,
    replacing what was there."""
    begin, end = f"<!-- {block}:begin -->", f"<!-- {block}:end -->"
    page = doc.read_text()
    if begin not in page or end not in page:
        raise ValueError(f"{doc} has no {begin} ... {end} block to fill")
    filled = f"{begin}\n{text}\n{end}"
    doc.write_text(re.sub(f"{re.escape(begin)}.*?{re.escape(end)}", lambda _: filled, page, flags=re.S))
