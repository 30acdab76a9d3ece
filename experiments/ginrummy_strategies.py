"""Evidence for the Gin Rummy strategies: whole-game win rates, seats swapped, written to docs/ginrummy.md.

    python -m experiments.ginrummy_strategies                # 10,000 games per pairing (slow: reference engine)
    python -m experiments.ginrummy_strategies --games 400    # a quicker, wider-interval run

Game ``g`` of a pairing is played twice on the same deals, once with each player in seat 0 (the
seat that deals first in even games). A player's win rate is its share of all games played, with a
99% Wilson interval (``sim.stats.wilson_interval``); games played with swapped seats are counted as
separate trials, which is slightly conservative for a paired design.
"""

from __future__ import annotations

import argparse
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
    deal_source = lambda ids, hand: game.deals_at(SEED, ids, (1, hand))  # noqa: E731
    as_seat0 = game.play_games_reference(game_ids, deal_source, players)
    as_seat1 = game.play_games_reference(game_ids, deal_source, players[::-1])
    return int(as_seat0.winners[:, 0].sum() + as_seat1.winners[:, 1].sum())


def measure(first: str, second: str, games: int, jobs: int) -> stats.Interval:
    chunks = [np.arange(start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]
    wins = sum(Parallel(n_jobs=jobs)(delayed(wins_of_first)(first, second, ids) for ids in chunks))
    return stats.wilson_interval(wins, 2 * games, CONFIDENCE)


def table(results: dict[tuple[str, str], stats.Interval], games: int) -> str:
    lines = [
        f"{games:,} deals per pairing, each played with the seats swapped ({2 * games:,} games); seed {SEED}.",
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
    parser.add_argument("--games", type=int, default=5_000, help="deals per pairing (each played twice)")
    parser.add_argument("--jobs", type=int, default=2)
    arguments = parser.parse_args()
    results = {pair: measure(*pair, arguments.games, arguments.jobs) for pair in PAIRINGS}
    text = table(results, arguments.games)
    print(text)
    write(text)


if __name__ == "__main__":
    main()
