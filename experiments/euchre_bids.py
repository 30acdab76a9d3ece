"""Train Euchre's bid table, strategies/euchre/bids.csv, by self-play on the compiled engine.

    python -m experiments.euchre_bids [--hands 1000000] [--seed 7001]

Every hand of ``--hands`` fresh deals is played by ``MODEL`` in all four seats; at every bidding
decision it reached (each seat in turn until someone ordered up), the hand is played again once per
legal bid, the decision forced and ``MODEL`` playing the rest, and the bid's value is the deciding
team's points minus the other team's. A bucket (``strategies.euchre.bids.bid_buckets``) keeps the
count, mean and spread of each bid's gain over passing at the same decision (the same deal, so the
pair differs in the bid alone); where a dealer may not pass (round two, everyone passed), the
call's own value. Deals come from ``sim.dealing`` through the game record, seeded, so the table is
reproducible. strategies/euchre/bids.py says how search uses it.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import strategies
from experiments import count_argument, seed_argument
from sim.euchre import fast, rules
from sim.euchre.game import GAME
from sim.euchre.observation import BIDS, NONE, ORDER_UP, PASS
from strategies.euchre.bids import BUCKETS, COLUMNS, NO_BUCKET, SUITS, TABLE, bid_buckets
from strategies.euchre.mc import DEAL_POSITIONS, TEAM_ROLLOUT

MODEL = TEAM_ROLLOUT  # how mc models its own side's bidding: heuristic ordering up at 6
BLOCK = 100_000  # hands per pass, so memory stays flat


def dealt_hands(deals: np.ndarray, dealers: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """(n,) the card mask each of ``seats`` was dealt."""
    positions = DEAL_POSITIONS[dealers[:, None], rules.HAND_SIZE * seats[:, None] + np.arange(rules.HAND_SIZE)]
    cards = np.take_along_axis(deals.astype(np.int64), positions, axis=1)
    return np.bitwise_or.reduce(np.left_shift(np.int64(1), cards), axis=1)


def bid_values(deals: np.ndarray, ids: np.ndarray, players: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every bidding decision reached in ``deals`` and each legal bid's value there: (bucket, gain)
    pairs as two arrays, plus how many decisions were played out."""
    dealers = ids % rules.NUM_PLAYERS
    traced = fast.play_rounds(deals, players, ids, trace=True).actions
    assert traced is not None  # a trace was asked for
    found_buckets, found_gains, decisions = [], [], 0
    for step in range(BIDS):
        reached = np.flatnonzero((traced[:, :step] == PASS).all(axis=1) & (traced[:, step] != NONE))
        if not reached.size:
            continue
        decisions += reached.size
        dealer = dealers[reached]
        seat = (dealer + 1 + step) % rules.NUM_PLAYERS
        round_two = step >= rules.NUM_PLAYERS
        upcard = deals[reached, rules.UPCARD_POSITION].astype(np.int64)
        buckets = bid_buckets(
            dealt_hands(deals[reached], dealer, seat), seat, dealer, np.full(reached.size, 1 + round_two), upcard
        )
        forced = round_two & (step == BIDS - 1)  # the dealer, last to bid in round two, may not pass
        passing = (
            np.zeros(reached.size, dtype=np.int64) if forced else _value(deals, ids, traced, reached, step, PASS, seat)
        )
        for suit in range(SUITS):
            named = np.flatnonzero(buckets[:, suit] != NO_BUCKET)
            if named.size:
                rows = reached[named]
                called = _value(deals, ids, traced, rows, step, ORDER_UP + suit, seat[named])
                found_buckets.append(buckets[named, suit])
                found_gains.append(called - passing[named])
    return np.concatenate(found_buckets), np.concatenate(found_gains), np.array(decisions)


def _value(deals, ids, traced, rows, step, bid, seat) -> np.ndarray:
    """The deciding team's points minus the other's when the hands ``rows`` replay their bids up to
    ``step``, bid ``bid`` there, and ``MODEL`` plays the rest."""
    script = traced[rows].copy()
    script[:, step] = bid
    lineup = [strategies.get("euchre", MODEL)] * rules.NUM_PLAYERS
    length = np.full(len(rows), step + 1)
    points = fast.play_rounds(deals[rows], lineup, ids[rows], script=script, script_length=length).points
    picked = np.arange(len(rows))
    return points[picked, seat] - points[picked, (seat + 1) % rules.NUM_PLAYERS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=count_argument, default=1_000_000)
    parser.add_argument("--seed", type=seed_argument, default=7001)
    args = parser.parse_args()
    began = time.perf_counter()
    count, total, squares = np.zeros(BUCKETS), np.zeros(BUCKETS), np.zeros(BUCKETS)
    players = [strategies.get("euchre", MODEL)] * rules.NUM_PLAYERS
    decisions = 0
    for start in range(0, args.hands, BLOCK):
        size = min(BLOCK, args.hands - start)
        ids = np.arange(start, start + size, dtype=np.int64)
        buckets, gains, reached = bid_values(GAME.deals(args.seed, start, size), ids, players)
        decisions += int(reached)
        count += np.bincount(buckets, minlength=BUCKETS)
        total += np.bincount(buckets, weights=gains, minlength=BUCKETS)
        squares += np.bincount(buckets, weights=gains.astype(np.float64) ** 2, minlength=BUCKETS)
    mean = np.divide(total, count, out=np.zeros(BUCKETS), where=count > 0)
    variance = np.divide(squares - count * mean**2, count - 1, out=np.zeros(BUCKETS), where=count > 1)
    rows = np.column_stack([np.arange(BUCKETS), count, mean, np.sqrt(np.maximum(variance, 0.0))])
    np.savetxt(TABLE, rows, fmt=["%d", "%d", "%.6f", "%.6f"], delimiter=",", header=",".join(COLUMNS), comments="")
    print(
        f"{TABLE}: {args.hands:,} hands, {decisions:,} bidding decisions, {int(count.sum()):,} bids played out, "
        f"{int((count > 0).sum()):,} of {BUCKETS:,} buckets seen, {time.perf_counter() - began:.0f} s"
    )


if __name__ == "__main__":
    main()
