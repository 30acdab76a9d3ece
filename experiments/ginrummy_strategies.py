"""Evidence for the Gin Rummy strategies: whole-game win rates, seats swapped, written to docs/ginrummy.md.

    python -m experiments.ginrummy_strategies                # 10,000 games per pairing (slow: reference engine)
    python -m experiments.ginrummy_strategies --games 400    # a quicker, wider-interval run
    python -m experiments.ginrummy_strategies --pairings 2 --cache wins.json --no-write   # one pairing, kept
    python -m experiments.ginrummy_strategies --games 2500,2500,5000 --cache wins.json    # reuse, tabulate

Game ``g`` of a pairing is played twice on the same deals, once with each player in seat 0 (the
seat that deals first in even games). A player's win rate is its share of all games played, with a
99% Wilson interval (``sim.stats.wilson_interval``); games played with swapped seats are counted as
separate trials, which is slightly conservative for a paired design.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

import strategies
from sim import stats
from sim.ginrummy import game

CONFIDENCE = 0.99
SEED = 2026
PAIRINGS = (("heuristic", "simple"), ("heuristic", "cs340"), ("simple", "cs340"))
DOC = Path(__file__).resolve().parent.parent / "docs" / "ginrummy.md"
BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"
CHUNK = 100


def wins_of_first(first: str, second: str, game_ids: np.ndarray) -> int:
    """How many of these games, each played in both seatings, ``first`` wins."""
    players = [strategies.get("ginrummy", first), strategies.get("ginrummy", second)]
    deal_source = lambda ids, hand: game.GAME.deals_at(SEED, ids, (1, hand))  # noqa: E731
    as_seat0 = game.GAME.play_games["reference"](game_ids, deal_source, players)
    as_seat1 = game.GAME.play_games["reference"](game_ids, deal_source, players[::-1])
    return int(as_seat0.winners[:, 0].sum() + as_seat1.winners[:, 1].sum())


def _ranges(known: dict[str, int], first: str, second: str) -> dict[tuple[int, int], int]:
    """Win counts in the cache for this pairing and seed, by range of deals ``(start, stop)``."""
    prefix = f"{first} vs {second}, seed {SEED}, "
    ranges = {}
    for key, wins in known.items():
        if key.startswith(prefix):
            span = key[len(prefix):]
            if span.startswith("deals "):
                low, high = span[len("deals "):].split("-")
                ranges[int(low), int(high)] = wins
            else:  # "N deals": deals 0 to N - 1
                ranges[0, int(span.split()[0])] = wins
    return ranges


def measure(first: str, second: str, games: int, jobs: int, cache: Path | None = None) -> stats.Interval:
    """``first``'s win rate over deals 0 .. ``games`` - 1, each in both seatings.

    With ``cache`` (a JSON file), win counts already measured for ranges of deals of this pairing and
    seed are reused and only the deals missing are played (then stored): pairings can be run
    separately (``--pairings``) or extended to more deals, and tabulated together."""
    known = json.loads(cache.read_text()) if cache is not None and cache.exists() else {}
    ranges = _ranges(known, first, second)
    covered, wins = 0, 0
    while True:
        stops = [high for (low, high) in ranges if low == covered and high <= games]
        if not stops:
            break
        wins += ranges[covered, max(stops)]
        covered = max(stops)
    if covered < games:
        chunks = [np.arange(start, min(start + CHUNK, games)) for start in range(covered, games, CHUNK)]
        new = sum(Parallel(n_jobs=jobs)(delayed(wins_of_first)(first, second, ids) for ids in chunks))
        wins += new
        if cache is not None:
            known = json.loads(cache.read_text()) if cache.exists() else {}
            key = f"{first} vs {second}, seed {SEED}, deals {covered}-{games}"
            cache.write_text(json.dumps({**known, key: new}, indent=1))
    return stats.wilson_interval(wins, 2 * games, CONFIDENCE)


def table(results: dict[tuple[str, str], stats.Interval]) -> str:
    deals = {interval.n // 2 for interval in results.values()}
    if len(deals) == 1:
        games = deals.pop()
        head = f"{games:,} deals per pairing, each played with the seats swapped ({2 * games:,} games); seed {SEED}."
    else:
        head = f"Deals 0, 1, ... of seed {SEED}, each played with the seats swapped (the games column counts both)."
    lines = [
        head,
        "",
        "| player | opponent | games | win rate | 99% Wilson interval |",
        "| --- | --- | ---: | ---: | --- |",
    ]
    for (first, second), interval in results.items():
        lines.append(f"| {first} | {second} | {interval.n:,} | {interval.estimate:.1%} | "
                     f"{interval.low:.1%} – {interval.high:.1%} |")
    return "\n".join(lines)


def write(text: str) -> None:
    page = DOC.read_text()
    block = f"{BEGIN}\n{text}\n{END}"
    DOC.write_text(re.sub(f"{BEGIN}.*?{END}", lambda _: block, page, flags=re.S))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="5000",
                        help="deals per pairing (each played twice); one number, or one per pairing played, comma-separated")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--pairings", default="all",
                        help="comma-separated indexes into PAIRINGS to play (0,1,2), or all")
    parser.add_argument("--cache", type=Path, default=None,
                        help="JSON file of win counts to reuse and extend (for pairings run separately)")
    parser.add_argument("--no-write", action="store_true", help="print the table without writing the doc")
    arguments = parser.parse_args()
    chosen = PAIRINGS if arguments.pairings == "all" else [PAIRINGS[int(i)] for i in arguments.pairings.split(",")]
    games = [int(n) for n in arguments.games.split(",")]
    games = games * len(chosen) if len(games) == 1 else games
    if len(games) != len(chosen):
        parser.error("--games: give one number, or one per pairing played")
    results = {pair: measure(*pair, n, arguments.jobs, arguments.cache) for pair, n in zip(chosen, games)}
    text = table(results)
    print(text)
    if not arguments.no_write and len(results) == len(PAIRINGS):
        write(text)


if __name__ == "__main__":
    main()
