"""Does Gin Rummy's lookahead win more games choosing by its chance to win the game than by points?

    python -m experiments.ginrummy_objective --chunks 6 --jobs 2

``mc`` keeps the action with the most points in the hand, ours minus the opponent's; the issue asks
for that "or what wins more games: measure". ``mc-game`` (registered here) is ``mc`` valuing each
rollout instead by the chance of winning the game to 100 from the scores the hand leaves
(``win_chances``), so a point matters more or less depending on how near either side is to 100.

It plays the first ``--chunks`` chunks of the evidence's pairing of mc against ``simple``
(``experiments.ginrummy_strategies``: the same seed, deals and seatings) with ``mc-game`` in mc's
seat, keeping them as a run under ``results/experiments/`` (resumable, and a tournament can finish
it: ``cardsim tournament --import experiments.ginrummy_objective ...``), and compares them chunk by
chunk with the same chunks of mc's run: the same games, so the games won are paired. Only the chunks
both runs hold are compared.

The model of the game: every hand not yet played is distributed as the heuristic's hands against
itself (``hand_outcomes``: 100,000 hands of a fixed seed, from each seat's side, dealing or not; the
deal passes after each hand but a void one). The chance to win from each pair of scores follows by
working back from 100 (``win_table``): every hand that is not void scores at least a point.
"""

from __future__ import annotations

import argparse
import functools

import numpy as np

import strategies
from experiments import head_to_head, run_script
from experiments.ginrummy_strategies import GAME, MC, SEED
from sim import games, stats, tournament
from sim.console import bounded_int_argument, progress_bar
from sim.ginrummy import fast, rules
from sim.results import RunStore
from strategies import register
from strategies.ginrummy.mc import MonteCarloLookahead

TARGET = rules.GAME_TARGET
OUTCOME_HANDS = 100_000
OUTCOME_SEED = 99
CHANCE_SCALE = 1 << 20  # win chances as integers, so the lookahead's totals stay exact
VARIANT = "mc-game" + MC.removeprefix("mc")
CONFIDENCE = 0.95


def hand_outcomes(hands: int, seed: int) -> np.ndarray:
    """(2, K, K) the share of hands in which a seat scores ``i`` points and its opponent ``j``,
    ``[1, i, j]`` when the seat deals, ``[0, i, j]`` when not: the heuristic against itself."""
    heuristic = strategies.get(GAME, "heuristic")
    ids = np.arange(hands)
    points = fast.play_rounds(games.load(GAME).deals(seed, 0, hands), [heuristic, heuristic], ids).points
    dealer = ids % rules.NUM_PLAYERS
    size = int(points.max()) + 1
    shares = np.zeros((2, size, size))
    for seat in range(rules.NUM_PLAYERS):
        np.add.at(shares, ((dealer == seat).astype(np.int64), points[:, seat], points[:, 1 - seat]), 1)
    return shares / shares.sum(axis=(1, 2), keepdims=True)


def win_table(outcomes: np.ndarray) -> np.ndarray:
    """(100, 100, 2) the chance to win the game from scores ``[ours, theirs]`` below 100, ``[.., .., 1]``
    when we deal the next hand, hands distributed as ``outcomes`` (``hand_outcomes``)."""
    chances = np.zeros((TARGET, TARGET, 2))
    gains = np.arange(1, outcomes.shape[1])
    for total in range(2 * TARGET - 2, -1, -1):  # a hand raises one score: work down from the highest totals
        for ours in range(max(0, total - TARGET + 1), min(TARGET - 1, total) + 1):
            theirs = total - ours
            for we_deal in (0, 1):
                shares = outcomes[we_deal]
                after_ours = np.minimum(ours + gains, TARGET - 1)
                after_theirs = np.minimum(theirs + gains, TARGET - 1)
                won = np.where(ours + gains >= TARGET, 1.0, chances[after_ours, theirs, 1 - we_deal])
                lost = np.where(theirs + gains >= TARGET, 0.0, chances[ours, after_theirs, 1 - we_deal])
                void = shares[0, 0]  # dealt again by the same dealer: the same chance
                chances[ours, theirs, we_deal] = (shares[1:, 0] @ won + shares[0, 1:] @ lost) / (1 - void)
    return chances


@functools.cache
def model() -> np.ndarray:
    """``win_table`` of ``OUTCOME_HANDS`` hands of ``OUTCOME_SEED``."""
    return win_table(hand_outcomes(OUTCOME_HANDS, OUTCOME_SEED))


def win_chances(ours: np.ndarray, theirs: np.ndarray, we_deal_next: np.ndarray) -> np.ndarray:
    """The chance to win from game scores (1 at 100 or more, 0 once the opponent is there)."""
    below = model()[np.minimum(ours, TARGET - 1), np.minimum(theirs, TARGET - 1), we_deal_next]
    return np.where(ours >= TARGET, 1.0, np.where(theirs >= TARGET, 0.0, below))


@register(GAME, "mc-game", deterministic=True)
class GameObjectiveLookahead(MonteCarloLookahead):
    """``mc`` valuing a rollout by the chance to win the game from the scores the hand leaves."""

    def values(self, states: fast.HandStates, points: np.ndarray) -> np.ndarray:
        rows, seat = np.arange(len(points)), states.mover
        scores = np.asarray(states.scores, dtype=np.int64) + points
        we_deal = np.asarray(states.dealer) == seat
        void = points.sum(axis=1) == 0
        we_deal_next = (we_deal == void).astype(np.int64)  # the deal passes, but not after a void hand
        chances = win_chances(scores[rows, seat], scores[rows, 1 - seat], we_deal_next)
        return np.rint(chances * CHANCE_SCALE).astype(np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--chunks",
        type=bounded_int_argument(0, None),
        default=6,
        help="chunks of the evidence's plan to play (32 in all)",
    )
    parser.add_argument("--jobs", type=bounded_int_argument(1, 64), default=2)
    parser.add_argument(
        "--deals",
        type=bounded_int_argument(1, None),
        default=5_000,
        help="deals of the evidence's plan (its --lookahead-games)",
    )
    arguments = parser.parse_args()
    base, variant = (head_to_head.pairing_plan(GAME, spec, "simple", arguments.deals, SEED) for spec in (MC, VARIANT))
    store = RunStore(head_to_head.RESULTS / variant.run_id)
    store.prepare(tournament.plan_config(variant))
    todo = [index for index in range(min(arguments.chunks, variant.num_chunks)) if index not in store.finished_chunks()]
    with progress_bar(len(todo), "chunk", f"{GAME} {VARIANT.split(':')[0]}", enabled=bool(todo)) as bar:
        for chunk in tournament.play_chunks(variant, todo, arguments.jobs):
            store.write_chunk(chunk.index, chunk.aggregates, chunk.rows)
            bar.update()
    base_store = RunStore(head_to_head.RESULTS / base.run_id)
    both = sorted(set(store.finished_chunks()) & set(base_store.finished_chunks()))
    if not both:
        raise SystemExit(f"mc's run {base_store.path} holds none of these chunks yet")
    mine, theirs = (
        np.array([[part["strategies"][name][key] for key in ("wins", "games")] for part in run.load_aggregates(both)])
        for run, name in ((store, VARIANT), (base_store, MC))
    )
    games_played = int(mine[:, 1].sum())
    gain = (mine[:, 0] - theirs[:, 0]) / mine[:, 1]  # per chunk: the same games, so paired
    spread = stats.mean_interval(gain, CONFIDENCE)
    print(
        f"{len(both)} chunks, {games_played:,} games against simple: mc-game won {mine[:, 0].sum() / games_played:.2%},"
        f" mc {theirs[:, 0].sum() / games_played:.2%}; difference {spread.estimate:+.2%}"
        f" ({CONFIDENCE:.0%} interval over chunks {spread.low:+.2%} to {spread.high:+.2%})"
    )


if __name__ == "__main__":
    run_script(main, "experiments.ginrummy_objective", "the chunks played so far are kept under results/experiments/")
