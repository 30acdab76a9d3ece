"""Does a game's lookahead win more games choosing by its chance to win the game than by the hand's points?

    python -m experiments.objective --game ginrummy --chunks 6 --jobs 2
    python -m experiments.objective --game euchre --chunks 16 --jobs 2

Gin Rummy's and Euchre's ``mc`` keep the action with the most points in the hand, their side's minus
the other's; their issues ask for that "or what wins more games: measure". ``mc-game`` (registered
here for both) is ``mc`` valuing each rollout instead by the chance of winning the game (to 100, to
10) from the scores the hand leaves (``win_chances``), so a point matters more or less depending on
how near either side is to the target.

It plays the first ``--chunks`` chunks of the evidence's pairing of ``mc`` with a baseline (``BASES``:
the same seed, deals and seatings) with ``mc-game`` in mc's seats, keeping them as a run under
``results/experiments/`` (resumable, and a tournament can finish it: ``cardsim tournament --import
experiments.objective ...``), and compares them chunk by chunk with the same chunks of mc's run: the
same games, so the games won are paired. Only the chunks both runs hold are compared.

The model of the game: every hand not yet played is distributed as the heuristic's hands against
itself (``hand_outcomes``: 100,000 hands of a fixed seed, from each side's view, dealing or not). The
deal passes to the other side after each hand but a void one (Gin Rummy's; the same dealer deals
again). The chance to win from each pair of scores follows by working back from the target
(``win_table``): every hand that is not void scores at least a point.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import strategies
from experiments import count_argument, euchre_strategies, ginrummy_strategies, head_to_head, jobs_argument, run_script
from sim import games, stats, tournament
from sim.console import progress_bar
from sim.euchre import rules as euchre_rules
from sim.ginrummy import fast as gin_fast
from sim.ginrummy import rules as gin_rules
from sim.results import RunStore
from strategies import register
from strategies.euchre import mc as euchre_mc
from strategies.ginrummy import mc as gin_mc

OUTCOME_HANDS = 100_000
OUTCOME_SEED = 99
CHANCE_SCALE = 1 << 20  # win chances as integers, so the lookahead's totals stay exact
CONFIDENCE = 0.95
VARIANT = "mc-game"


@dataclass(frozen=True)
class Base:
    """A game's evidence run of ``mc`` against a baseline, which ``mc-game`` plays again."""

    target: int  # game points that win
    lookahead: str  # mc's spec in the evidence
    plan: Callable[[int], tournament.Plan]  # the evidence's plan from its number of deals (or games)
    deals: int  # the evidence's number


BASES = {
    "ginrummy": Base(
        gin_rules.GAME_TARGET,
        ginrummy_strategies.MC,
        lambda deals: head_to_head.pairing_plan(
            "ginrummy", ginrummy_strategies.MC, "simple", deals, ginrummy_strategies.SEED
        ),
        ginrummy_strategies.LOOKAHEAD_GAMES,
    ),
    "euchre": Base(
        euchre_rules.DEFAULT_POINTS_TO_WIN,
        euchre_strategies.MC,
        lambda deals: euchre_strategies.pairing_plan(
            euchre_strategies.MC, "heuristic", deals, euchre_strategies.MC_SEED, games=True
        ),
        euchre_strategies.MC_GAMES,
    ),
}


def hand_outcomes(game: str, hands: int, seed: int) -> np.ndarray:
    """(2, K, K) the share of hands in which a side scores ``i`` points and the other ``j``, ``[1, i, j]``
    when the side deals, ``[0, i, j]`` when not: the heuristic in every seat, on the fast engine."""
    record = games.load(game)
    heuristic = strategies.get(game, "heuristic")
    ids = np.arange(hands)
    deals = record.deals(seed, 0, hands)
    points = record.play_rounds["fast"](deals, [heuristic] * record.num_seats, ids).points
    dealing_side = np.asarray(record.teams)[ids % record.num_seats]  # hand i is dealt by seat i % seats
    size = int(points.max()) + 1
    shares = np.zeros((2, size, size))
    for side in range(2):  # seats 0 and 1 play for the two sides
        np.add.at(shares, ((dealing_side == side).astype(np.int64), points[:, side], points[:, 1 - side]), 1)
    return shares / shares.sum(axis=(1, 2), keepdims=True)


def win_table(outcomes: np.ndarray, target: int) -> np.ndarray:
    """(target, target, 2) the chance to win the game from scores ``[ours, theirs]`` below ``target``,
    ``[.., .., 1]`` when we deal the next hand, hands distributed as ``outcomes`` (``hand_outcomes``)."""
    chances = np.zeros((target, target, 2))
    gains = np.arange(1, outcomes.shape[1])
    for total in range(2 * target - 2, -1, -1):  # a hand raises one score: work down from the highest totals
        for ours in range(max(0, total - target + 1), min(target - 1, total) + 1):
            theirs = total - ours
            for we_deal in (0, 1):
                shares = outcomes[we_deal]
                after_ours = np.minimum(ours + gains, target - 1)
                after_theirs = np.minimum(theirs + gains, target - 1)
                won = np.where(ours + gains >= target, 1.0, chances[after_ours, theirs, 1 - we_deal])
                lost = np.where(theirs + gains >= target, 0.0, chances[ours, after_theirs, 1 - we_deal])
                void = shares[0, 0]  # dealt again by the same dealer: the same chance
                chances[ours, theirs, we_deal] = (shares[1:, 0] @ won + shares[0, 1:] @ lost) / (1 - void)
    return chances


@functools.cache
def model(game: str) -> np.ndarray:
    """``win_table`` of ``OUTCOME_HANDS`` hands of ``OUTCOME_SEED``."""
    return win_table(hand_outcomes(game, OUTCOME_HANDS, OUTCOME_SEED), BASES[game].target)


def win_chances(game: str, ours: np.ndarray, theirs: np.ndarray, we_deal_next: np.ndarray) -> np.ndarray:
    """The chance to win from game scores (1 at the target or more, 0 once the other side is there)."""
    target = BASES[game].target
    below = model(game)[np.minimum(ours, target - 1), np.minimum(theirs, target - 1), we_deal_next]
    return np.where(ours >= target, 1.0, np.where(theirs >= target, 0.0, below))


def chance_values(
    game: str, ours: np.ndarray, theirs: np.ndarray, we_dealt: np.ndarray, void: np.ndarray
) -> np.ndarray:
    """Rollout values: the win chance, scaled to integers, from the scores after a hand that ``we_dealt``
    (the deal passes, but not after a ``void`` hand)."""
    we_deal_next = (we_dealt == void).astype(np.int64)
    return np.rint(win_chances(game, ours, theirs, we_deal_next) * CHANCE_SCALE).astype(np.int64)


class GinGameObjective(gin_mc.MonteCarloLookahead):
    """``mc`` valuing a rollout by the chance to win the game from the scores the hand leaves."""

    def values(self, states: gin_fast.HandStates, points: np.ndarray) -> np.ndarray:
        rows, seat = np.arange(len(points)), states.mover
        scores = np.asarray(states.scores, dtype=np.int64) + points
        we_dealt = np.asarray(states.dealer) == seat
        void = points.sum(axis=1) == 0
        return chance_values("ginrummy", scores[rows, seat], scores[rows, 1 - seat], we_dealt, void)


class EuchreGameObjective(euchre_mc.MonteCarloLookahead):
    """``mc`` valuing a rollout by its team's chance to win the game from the scores the hand leaves."""

    def values(self, seat: np.ndarray, dealer: np.ndarray, scores: np.ndarray, points: np.ndarray) -> np.ndarray:
        rows, team = np.arange(len(points)), euchre_rules.team_of(seat)
        ours = scores[rows, team] + points[rows, seat]
        theirs = scores[rows, 1 - team] + points[rows, (seat + 1) % euchre_rules.NUM_PLAYERS]
        we_dealt = euchre_rules.team_of(dealer) == team
        return chance_values("euchre", ours, theirs, we_dealt, np.zeros(len(points), dtype=bool))


def variant_spec(lookahead: str) -> str:
    """``mc-game`` with the settings of mc's spec ``lookahead``."""
    return VARIANT + lookahead.removeprefix("mc")


def variant_of(plan: tournament.Plan, lookahead: str) -> tournament.Plan:
    """``plan`` with ``mc-game`` (mc's settings) in every seat of ``lookahead``."""
    players = tuple(variant_spec(lookahead) if spec == lookahead else spec for spec in plan.players)
    return dataclasses.replace(plan, players=players)


def first_chunks(plan: tournament.Plan, chunks: int, jobs: int) -> RunStore:
    """The run of ``plan`` under ``results/experiments/``, its first ``chunks`` chunks played where missing."""
    store = RunStore(head_to_head.RESULTS / plan.run_id)
    store.prepare(tournament.plan_config(plan))
    todo = [index for index in range(min(chunks, plan.num_chunks)) if index not in store.finished_chunks()]
    with progress_bar(len(todo), "chunk", f"{plan.game} {plan.players[0].split(':')[0]}", enabled=bool(todo)) as bar:
        for chunk in tournament.play_chunks(plan, todo, jobs):
            store.write_chunk(chunk.index, chunk.aggregates, chunk.rows)
            bar.update()
    return store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(BASES), required=True)
    parser.add_argument("--chunks", type=count_argument, default=6, help="chunks of the evidence's plan to compare")
    parser.add_argument("--jobs", type=jobs_argument, default=2)
    parser.add_argument(
        "--deals", type=count_argument, help="deals (games) of the evidence's plan, its default if not given"
    )
    arguments = parser.parse_args()
    game = BASES[arguments.game]
    base = game.plan(arguments.deals or game.deals)
    variant = variant_of(base, game.lookahead)
    # mc's chunks too, where the evidence's run lacks them: both sides played by the same code.
    stores = [first_chunks(plan, arguments.chunks, arguments.jobs) for plan in (base, variant)]
    both = sorted(set(range(arguments.chunks)).intersection(*(store.finished_chunks() for store in stores)))
    wins, played = (
        np.array(
            [
                [part["strategies"][spec][key] for part in store.load_aggregates(both)]
                for store, spec in zip(stores, (game.lookahead, variant_spec(game.lookahead)))
            ]
        )
        for key in ("wins", "games")
    )
    gain = (wins[1] - wins[0]) / played[1]  # per chunk: the same games, so paired
    opponent = next(spec for spec in base.players if spec != game.lookahead)
    total = int(played[1].sum())
    print(
        f"{len(both)} chunks, {total:,} games against {opponent}: mc-game won {wins[1].sum() / total:.2%},"
        f" mc {wins[0].sum() / total:.2%}; difference {gain.mean():+.2%} ({gain_interval(gain)})"
    )


def gain_interval(gain: np.ndarray) -> str:
    """The interval of the mean per-chunk gain, or why there is none: it takes two chunks."""
    if len(gain) < 2:
        return "one chunk: an interval needs two"
    spread = stats.mean_interval(gain, CONFIDENCE)
    return f"{CONFIDENCE:.0%} interval over chunks {spread.low:+.2%} to {spread.high:+.2%}"


if __name__ == "__main__":
    # Run as a script this file is ``__main__``, which worker processes cannot import: the strategies
    # are registered by the module under its own name, and its main runs.
    from experiments import objective

    run_script(objective.main, "experiments.objective", "the chunks played so far are kept under results/experiments/")
else:
    register("ginrummy", VARIANT)(GinGameObjective)
    register("euchre", VARIANT)(EuchreGameObjective)
