"""Evidence for each game's search (issue 39): search against today's mc, written to docs/search.md.

    python -m experiments.search_evidence [--game G ...] [--euchre-games 1000] [--euchre-deals 2000]
        [--straights-deals 2000] [--ablation-deals 1000] [--ginrummy-games 1000] [--gemstones-games 1000]
        [--jobs 2]

Each game's section of the page is played and rewritten on its own (``--game``, repeated; all four
by default): the others stay as they were.

Euchre: whole games to 10 of ``search`` against ``mc``, each game in both partnership seatings (the
tournament runner's duplicate games); the points a hand of each against the other over duplicate
deals; and the share of the heuristic-to-oracle gap each closes (points a hand against heuristic on
the same deals, ``experiments.euchre_strategies.margins``). Straights: ``search`` and ``mc`` at one
table with two heuristic seats, in every duplicate seating (``cardsim tournament --duplicate``), and
the share of the gap each closes against heuristic (``experiments.straights_strategies``). Then each
part on its own (ablations) against mc, and decision times on the reference engine, one observation
per call as ``cardsim play`` asks. Every run folder is kept under results/experiments/, so an
interrupted run resumes; fresh seeds, never the ones the settings were tried on. Gin Rummy and
Gemstones: whole games against ``mc`` and against a fair baseline, each deal played in both seats
(``experiments.head_to_head``), each part on its own against mc, and decision times.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from experiments import RUNS_KEPT, count_argument, head_to_head, jobs_argument, run_script
from experiments import euchre_strategies as euchre
from experiments import straights_strategies as straights
from experiments.head_to_head import RESULTS
from sim import stats, tournament
from sim.results import RunStore

DOC = Path(__file__).resolve().parent.parent / "docs" / "search.md"
CONFIDENCE = 0.95
EUCHRE_SEED, STRAIGHTS_SEED, GINRUMMY_SEED, GEMSTONES_SEED = 3901, 3902, 3911, 3921
GAMES = ("euchre", "straights", "ginrummy", "gemstones")
EUCHRE_ABLATIONS = ("search:oversample=1", "search:bids=rollout", "search:bids=table", "search:softness=0.3")
STRAIGHTS_ABLATIONS = ("search:oversample=1", "search:endgame=0", "search:rule=maxn", "search:oversample=8")
GINRUMMY_ABLATIONS = ("search:judge=last",)  # mc's inference in search's 256 worlds: the worlds alone
GEMSTONES_ABLATIONS = ("search:leaf=sale", "search:samples=16")  # more worlds alone; the leaf alone
TIMING_HANDS = 30


def straights_table(a: str, b: str, deals: int, seed: int, jobs: int) -> stats.Interval:
    """``a`` minus ``b`` in points a round, both at one table with two heuristic seats, over every
    duplicate seating of ``deals`` deals (negative: ``a`` loses fewer points)."""
    plan = tournament.Plan("straights", (a, "heuristic", b, "heuristic"), deals, seed, duplicate=True, engine="fast")
    tournament.run(plan, RunStore(RESULTS / plan.run_id), jobs=jobs)
    paired = RunStore(RESULTS / plan.run_id).read_table("paired.csv").set_index(["strategy_a", "strategy_b"])
    line = paired.loc[(a, b)]
    mean, low, high = float(line["mean_diff"]), float(line["ci95_low"]), float(line["ci95_high"])
    return stats.Interval(mean, low, high, int(line["deals"]))


def euchre_games(a: str, b: str, games: int, seed: int, jobs: int) -> tuple[int, int, stats.Interval]:
    """``a``'s wins and games against ``b`` over ``games`` games in both seatings, with the win rate's interval."""
    match = euchre.measure(a, b, games, seed, jobs, games=True)
    won = match.merged["strategies"][a]
    return won["wins"], won["games"], stats.wilson_interval(won["wins"], won["games"], CONFIDENCE)


def gap_row(name: str, margin: np.ndarray, oracle: np.ndarray) -> str:
    """A table row: the points a hand (or round) against heuristic and the share of the oracle's it closes."""
    points, share = stats.mean_interval(margin, CONFIDENCE), stats.ratio_interval(margin, oracle, CONFIDENCE)
    closed = f"{share.estimate:.1%} [{share.low:.1%}, {share.high:.1%}]"
    return f"| {name} | {interval(points)} | {closed} |"


def interval(value: stats.Interval, digits: int = 3) -> str:
    return f"{value.estimate:+.{digits}f} [{value.low:+.{digits}f}, {value.high:+.{digits}f}]"


def times_row(name: str, seconds: np.ndarray) -> str:
    return (
        f"| {name} | {len(seconds):,} | {np.median(seconds) * 1000:.1f} | {np.percentile(seconds, 90) * 1000:.1f} "
        f"| {seconds.max() * 1000:.1f} |"
    )


def euchre_section(args: argparse.Namespace) -> str:
    """Euchre: whole games and points a hand against mc, the gap closed, each part, decision times."""
    wins, played, win_rate = euchre_games("search", "mc", args.euchre_games, EUCHRE_SEED, args.jobs)
    hands = euchre.measure("search", "mc", args.euchre_deals, EUCHRE_SEED, args.jobs)
    margins = {
        spec: euchre.margins(spec, EUCHRE_SEED, args.euchre_deals, args.jobs) for spec in ("search", "mc", "oracle-mc")
    }
    parts = [(spec, euchre.measure(spec, "mc", args.ablation_deals, EUCHRE_SEED + 1, args.jobs).difference)
             for spec in EUCHRE_ABLATIONS]  # fmt: skip
    times = {
        spec: head_to_head.decision_times("euchre", spec, "heuristic", (0, 2), EUCHRE_SEED + 2, TIMING_HANDS)
        for spec in ("search", "mc")
    }
    return f"""Whole games to 10, each game played in both partnership seatings:

| A | B | games | A wins | A's win rate |
| --- | --- | ---: | ---: | --- |
| search | mc | {played:,} | {wins:,} | {win_rate.estimate:.1%} [{win_rate.low:.1%}, {win_rate.high:.1%}] |

Points a hand, `search` minus `mc`, over {args.euchre_deals:,} duplicate deals: {interval(hands.difference)}.

Against `heuristic` on the same {args.euchre_deals:,} deals, points a hand (both seatings) and the share of
the heuristic-to-oracle gap closed (the delta method's interval):

| strategy | points a hand v heuristic | gap closed |
| --- | --- | --- |
{gap_row("mc", margins["mc"], margins["oracle-mc"])}
{gap_row("search", margins["search"], margins["oracle-mc"])}
{gap_row("oracle-mc (cheats)", margins["oracle-mc"], margins["oracle-mc"])}

Each part against `mc` on {args.ablation_deals:,} other duplicate deals (points a hand, A minus mc):

{parts_table(parts, "A − mc")}

{times_table("euchre", times)}"""


def straights_section(args: argparse.Namespace) -> str:
    """Straights: search and mc at one table, the gap closed against heuristic, each part, decision times."""
    table = straights_table("search", "mc", args.straights_deals, STRAIGHTS_SEED, args.jobs)
    settings = straights.Settings(0, args.straights_deals, 0, 128, 0, args.jobs)
    matches = {
        spec: straights.play_match(spec, "heuristic", args.straights_deals, settings)
        for spec in ("search", "mc", "oracle-mc")
    }
    parts = [(spec, straights_table(spec, "mc", args.ablation_deals, STRAIGHTS_SEED + 1, args.jobs))
             for spec in STRAIGHTS_ABLATIONS]  # fmt: skip
    times = {
        spec: head_to_head.decision_times("straights", spec, "heuristic", (0,), STRAIGHTS_SEED + 2, TIMING_HANDS // 6)
        for spec in ("search", "mc")
    }

    def margin(spec: str) -> np.ndarray:
        match = matches[spec]
        return match.b_points - match.a_points  # heuristic's points minus A's: higher is better, as in Euchre

    return f"""`search` and `mc` at one table with two `heuristic` seats, every duplicate seating of
{args.straights_deals:,} deals: `search` minus `mc` in points a round (fewer is better) {interval(table)}.

Against `heuristic` (A, heuristic, A, heuristic in every seating) on the first {args.straights_deals:,} deals of
seed {straights.SEED} (those of docs/straights-strategies.md): heuristic's points a round minus A's (higher is
better) and the share of the heuristic-to-oracle gap closed:

| strategy | heuristic − A, points a round | gap closed |
| --- | --- | --- |
{gap_row("mc", margin("mc"), margin("oracle-mc"))}
{gap_row("search", margin("search"), margin("oracle-mc"))}
{gap_row("oracle-mc (cheats)", margin("oracle-mc"), margin("oracle-mc"))}

Each part at the same kind of table with `mc`, on {args.ablation_deals:,} other deals (A minus mc, points a round):

{parts_table(parts, "A − mc")}

{times_table("straights", times)}"""


def two_player_section(
    game: str,
    baseline: str,
    games: int,
    seed: int,
    ablations: tuple[str, ...],
    args: argparse.Namespace,
) -> str:
    """Gin Rummy or Gemstones: whole games of search against mc and against ``baseline``, each part
    against mc, decision times."""
    against_baseline = args.baseline_games or games
    records = [
        head_to_head.play(game, "search", "mc", games, seed, args.jobs),
        head_to_head.play(game, "search", baseline, against_baseline, seed, args.jobs),
    ]
    parts = [
        (spec, head_to_head.play(game, spec, "mc", args.ablation_games, seed + 1, args.jobs)) for spec in ablations
    ]
    times = {
        spec: head_to_head.decision_times(game, spec, baseline, (0,), seed + 2, TIMING_HANDS // 10)
        for spec in ("search", "mc")
    }
    return f"""Whole games, each deal played in both seats (a draw counts half of A's score):

{head_to_head.table(records, CONFIDENCE)}

Each part on its own against `mc`, {args.ablation_games:,} other deals in both seats:

{head_to_head.table([record for _, record in parts], CONFIDENCE) if parts else "(no parts: see the game's docs)"}

{times_table(game, times)}"""


def parts_table(parts: list[tuple[str, stats.Interval]], heading: str) -> str:
    rows = "\n".join(f"| `{spec}` | {interval(value)} |" for spec, value in parts)
    return f"| A | {heading} |\n| --- | --- |\n{rows}"


def times_table(game: str, times: dict[str, np.ndarray]) -> str:
    rows = "\n".join(times_row(spec, seconds) for spec, seconds in times.items())
    return f"""Decision times: one observation per call on the reference engine, one core, decisions with a
choice (milliseconds):

| strategy | decisions | median | 90th percentile | slowest |
| --- | ---: | ---: | ---: | ---: |
{rows}"""


SECTIONS = {
    "euchre": euchre_section,
    "straights": straights_section,
    "ginrummy": lambda args: two_player_section(
        "ginrummy", "simple", args.ginrummy_games, GINRUMMY_SEED, GINRUMMY_ABLATIONS, args
    ),
    "gemstones": lambda args: two_player_section(
        "gemstones", "heuristic", args.gemstones_games, GEMSTONES_SEED, GEMSTONES_ABLATIONS, args
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, action="append", help="a section to play (default: every game)")
    parser.add_argument("--euchre-games", type=count_argument, default=1_000, help="games, each in both seatings")
    parser.add_argument(
        "--euchre-deals", type=count_argument, default=2_000, help="deals for points a hand and the gap"
    )
    parser.add_argument("--straights-deals", type=count_argument, default=2_000)
    parser.add_argument("--ablation-deals", type=count_argument, default=1_000, help="Euchre and Straights parts")
    parser.add_argument("--ginrummy-games", type=count_argument, default=1_000, help="deals, each in both seats")
    parser.add_argument("--gemstones-games", type=count_argument, default=1_000, help="deals, each in both seats")
    parser.add_argument(
        "--baseline-games",
        type=count_argument,
        help="Gin Rummy and Gemstones deals against the baseline (default: as against mc)",
    )
    parser.add_argument("--ablation-games", type=count_argument, default=200, help="Gin Rummy and Gemstones parts")
    parser.add_argument("--jobs", type=jobs_argument, default=2)
    args = parser.parse_args()
    for game in args.game or GAMES:
        began = time.time()
        text = SECTIONS[game](args)
        command = " ".join(["python -m experiments.search_evidence", *section_arguments(game, args)])
        stamp = f"Produced by `{command}` ({time.time() - began:.0f} s on this 2-core machine, fast engine)."
        head_to_head.replace_results(DOC, f"{stamp}\n\n{text}", f"search:{game}")
        print(f"wrote the {game} section of {DOC}")


def section_arguments(game: str, args: argparse.Namespace) -> list[str]:
    """The command-line arguments that play ``game``'s section again."""
    sizes = {
        "euchre": ("euchre_games", "euchre_deals", "ablation_deals"),
        "straights": ("straights_deals", "ablation_deals"),
        "ginrummy": ("ginrummy_games", "baseline_games", "ablation_games"),
        "gemstones": ("gemstones_games", "baseline_games", "ablation_games"),
    }[game]
    named = [f"--{name.replace('_', '-')} {getattr(args, name)}" for name in sizes if getattr(args, name)]
    return [f"--game {game}", *named, f"--jobs {args.jobs}"]


if __name__ == "__main__":
    run_script(main, "search_evidence", RUNS_KEPT)
