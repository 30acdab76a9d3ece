"""Measure Euchre's strategies against simple and a stronger baseline, and write docs/euchre-strategies.md.

    python -m experiments.euchre_strategies [--deals 10000] [--games 2000] [--seed 2026] [--jobs 2]

Every deal (or game) is played twice with the partnerships swapped (the same cards, the teams
exchanged), on the reference engine; the outcome per deal is the first strategy's mean points per
hand minus the second's. Partners share their points, so every count and interval counts a hand (or
a game) once per partnership. A replay of the heuristic-vs-simple deals counts, per partnership, the
hands it made trump, the hands it was euchred, and the tricks it could have trumped but threw off.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pandas as pd
from joblib import Parallel, delayed

import strategies
from sim import stats, tournament
from sim.euchre import rules
from sim.euchre.engine import Hand
from sim.euchre.game import GAME, new_state
from sim.euchre.observation import Phase
from sim.results import RunStore

DOC = Path(__file__).parents[1] / "docs" / "euchre-strategies.md"
CONFIDENCE = 0.99
HEURISTIC, SIMPLE = "heuristic", "simple"
BASELINE = "heuristic:threshold=6"  # the default orders up at 7.5: this one calls lighter hands
REPLAY_SPAN = 500  # deals per replay task


@dataclass(frozen=True)
class Match:
    """A duplicate match's results: the summary by strategy, the merged aggregates, a - b per deal."""

    summary: pd.DataFrame  # indexed by strategy
    merged: dict[str, Any]
    difference: stats.Interval


def measure(a: str, b: str, rounds: int, seed: int, jobs: int, out: Path, games: bool = False) -> Match:
    """Play a, b, a, b in both partnership seatings over ``rounds`` deals (or whole games)."""
    plan = tournament.Plan("euchre", (a, b, a, b), rounds, seed, duplicate=True, games=games,
                           engine="reference", keep_rounds=False)
    result = tournament.run(plan, RunStore(out), jobs=jobs, progress=True)
    merged = tournament.merge(RunStore(out).load_aggregates(range(plan.num_chunks)))
    diff = merged["pairs"][f"{a}\t{b}"]["diff"]
    difference = stats.mean_interval_from_moments(diff["n"], diff["sum"], diff["sum_sq"], CONFIDENCE)
    return Match(result.summary.set_index("strategy"), merged, difference)


@dataclass
class MakingCounts:
    """How one strategy's partnership fared over a set of hands, each hand counted once."""

    hands: int = 0
    points: int = 0  # its partnership's points: the replay must match the tournament's sum
    made: int = 0  # hands in which it named trump
    euchred: int = 0  # hands it named trump and took fewer than three tricks
    ruffs_declined: int = 0  # plays of a non-trump card by a player void in the led suit who held trump

    def __add__(self, other: MakingCounts) -> MakingCounts:
        return MakingCounts(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


def declines_ruff(hand: Hand, card: int) -> bool:
    """Whether the player to move, void in the led suit and holding trump, throws off ``card``, a non-trump."""
    if hand.phase != Phase.PLAYING or not hand.trick:
        return False
    held = hand.hands[hand.current_player]
    void = not any(rules.follows(c, hand.trick[0], hand.trump) for c in held)
    holds_trump = any(rules.is_trump(c, hand.trump) for c in held)
    return void and holds_trump and not rules.is_trump(card, hand.trump)


def tally(hand: Hand, lineup: list[str], counts: dict[str, MakingCounts]) -> None:
    """Add a finished hand to the counts of the strategy of each partnership."""
    _, _, bonus = hand.result()
    for team, points in enumerate(hand.team_points()):
        entry = counts[lineup[team]]  # seat t is on team t for t = 0, 1
        made = rules.team_of(hand.maker) == team
        entry.hands += 1
        entry.points += points
        entry.made += made
        entry.euchred += made and bonus == "euchred"


def count_making(players: tuple[str, ...], seed: int, start: int, stop: int) -> dict[str, MakingCounts]:
    """Replay deals [start, stop) of ``seed`` in the duplicate seatings as a round-mode tournament
    plays them (the same deals, dealers and strategies), counting each partnership's making."""
    built = {spec: strategies.get("euchre", spec) for spec in dict.fromkeys(players)}
    counts = {spec: MakingCounts() for spec in built}
    for deal_id, deal in enumerate(GAME.deals(seed, start, stop - start), start):
        for seats in GAME.duplicate_seatings:
            lineup = [players[p] for p in seats]
            hand = new_state(deal, deal_id)
            while not hand.is_over:
                name = lineup[hand.current_player]
                action = int(built[name].choose(hand.observe())[0])
                counts[name].ruffs_declined += declines_ruff(hand, action)
                hand.apply(action)
            tally(hand, lineup, counts)
    return counts


def making_counts(match: Match, players: tuple[str, ...], deals: int, seed: int, jobs: int) -> dict[str, MakingCounts]:
    """The making counts of a round-mode match's hands, checked against the match's own counts."""
    spans = [(start, min(start + REPLAY_SPAN, deals)) for start in range(0, deals, REPLAY_SPAN)]
    parts = Parallel(n_jobs=jobs)(delayed(count_making)(players, seed, *span) for span in spans)
    totals = {name: sum((part[name] for part in parts), MakingCounts()) for name in parts[0]}
    for name, counted in totals.items():
        played = match.merged["strategies"][name]
        if (counted.hands, counted.points) != (played["n"], played["sum"]):
            raise RuntimeError(f"the replay of {name}'s hands does not match the tournament's")
    return totals


def share(part: int, whole: int) -> str:
    """``part`` as a whole percentage of ``whole``."""
    return f"{part / whole:.0%}"


def row(match: Match, a: str, b: str, deals: int) -> str:
    """The doc's table row of match ``a`` vs ``b``."""
    difference = match.difference
    return (f"| {a} vs {b} | {deals:,} | {match.summary.loc[a, 'rounds']:,} | {match.summary.loc[a, 'mean_points']:.3f} | "
            f"{match.summary.loc[b, 'mean_points']:.3f} | {difference.estimate:+.3f} | "
            f"[{difference.low:+.3f}, {difference.high:+.3f}] |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.time()
    results = Path("results")
    hands = measure(HEURISTIC, SIMPLE, args.deals, args.seed, args.jobs, results / "euchre-heuristic-vs-simple")
    baseline_on_simple = measure(BASELINE, SIMPLE, args.deals, args.seed, args.jobs,
                                 results / "euchre-baseline-vs-simple")
    baseline = measure(BASELINE, HEURISTIC, args.deals, args.seed, args.jobs, results / "euchre-baseline-vs-heuristic")
    whole_games = measure(HEURISTIC, SIMPLE, args.games, args.seed, args.jobs,
                          results / "euchre-heuristic-vs-simple-games", games=True)
    making = making_counts(hands, (HEURISTIC, SIMPLE, HEURISTIC, SIMPLE), args.deals, args.seed, args.jobs)
    won = whole_games.merged["strategies"][HEURISTIC]
    win_interval = stats.wilson_interval(won["wins"], won["games"], CONFIDENCE)
    h, s = making[HEURISTIC], making[SIMPLE]
    DOC.write_text(f"""# Euchre strategies

Produced by `python -m experiments.euchre_strategies --deals {args.deals} --games {args.games} --seed {args.seed} --jobs {args.jobs}`
({time.time() - started:.0f} s on this 2-core machine, reference engine).

Each deal is played twice, the partnerships swapped: the two strategies sit opposite their own
kind, so each team plays each side of the same cards. The per-deal outcome is the first strategy's
mean points per hand minus the second's (points: 1 for making with 3–4 tricks, 2 for a march or a
euchre). Partners share their team's points, so a hand counts once per partnership, not once per
seat: {args.deals:,} deals are {2 * args.deals:,} hands for each side, and the intervals rest on those counts.

| match | deals | hands per side | first pts/hand | second pts/hand | difference | 99% CI |
|---|---|---|---|---|---|---|
{row(hands, HEURISTIC, SIMPLE, args.deals)}
{row(baseline_on_simple, BASELINE, SIMPLE, args.deals)}
{row(baseline, BASELINE, HEURISTIC, args.deals)}

Whole games to 10 points, {args.games:,} games each played twice with the partnerships swapped:
heuristic's team won {won['wins']:,} of {won['games']:,} games, {win_interval.estimate:.1%} (99% Wilson interval
[{win_interval.low:.1%}, {win_interval.high:.1%}]).

## Where the edge over simple comes from

Counted by replaying the {2 * args.deals:,} hands of the heuristic-vs-simple match on the reference engine
(each partnership once per hand):

| partnership | named trump | euchred, of the hands it named trump | threw off a non-trump while void in the led suit and holding trump |
|---|---|---|---|
| simple | {share(s.made, s.hands)} of hands ({s.made:,}) | {share(s.euchred, s.made)} ({s.euchred:,}) | {s.ruffs_declined:,} times |
| heuristic | {share(h.made, h.hands)} of hands ({h.made:,}) | {share(h.euchred, h.made)} ({h.euchred:,}) | {h.ruffs_declined:,} times |

- **Simple calls trump far too often.** It orders up with two trump face cards in round one and
  with a single face card of the next suit in round two (and always as the stuck dealer), whatever
  else it holds. It names trump in {share(s.made, s.hands)} of the hands and is euchred in {share(s.euchred, s.made)}
  of those, giving away 2 points each time. The heuristic values the whole hand and passes weak ones.
- **Simple never trumps in while it holds a non-trump card.** Void in the led suit it plays its
  lowest card, as the spec says, and every non-trump is lower than any trump: {s.ruffs_declined:,} times in
  these hands ({s.ruffs_declined / s.hands:.2f} per hand) it threw a card away with trump in hand. The
  heuristic trumps in to win the trick unless its partner is already winning it.
- **Simple follows suit with its highest card**, even over its partner's winning card; the
  heuristic wins a trick as cheaply as it can and lets a winning partner's trick stand.

## A stronger baseline

Simple loses by so much that beating it says little. `{BASELINE}` is the heuristic ordering up at 6
instead of its default 7.5, so it calls lighter hands. The table shows what that threshold trades:
against simple the default gains {hands.difference.estimate:+.3f} points per hand and `{BASELINE}`
{baseline_on_simple.difference.estimate:+.3f}, but head to head `{BASELINE}` scores {baseline.difference.estimate:+.3f} points per hand
more than the default. Cautious calling pays against Simple's overcalling, and the default threshold
was chosen against simple; against a player who calls well it passes up hands it should play. New
Euchre strategies should be measured against `{BASELINE}`, not only against simple.

`best` for Euchre is `heuristic`, at its default threshold. The heuristic (strategies/euchre/heuristic.py)
values a hand by the trick-taking worth of its cards in the proposed trump (bowers and high trumps,
off-suit aces, voids once it holds two trumps), counts the upcard for the dealer's side in round
one, orders up at `threshold` (default 7.5; `heuristic:threshold=6` sets another), never overtakes a
partner who is winning the trick, wins tricks as cheaply as it can, and leads trump only from
strength as a maker.
""")
    print(DOC.read_text())


if __name__ == "__main__":
    main()
