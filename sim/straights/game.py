"""Straights as the tournament machinery sees it: deals, seatings and both engines behind one shape."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sim import seating
from sim.games import Game, GamesResult, RoundsResult
from sim.straights import deals, fast, rules
from sim.straights.engine import Round


def play_round_reference(deck: Sequence[int], strategies: Sequence, scores: Sequence[int], round_id: int) -> Round:
    """One round on the reference engine, each seat asking its strategy with a batch of one."""
    current = Round(tuple(int(card) for card in deck), tuple(int(s) for s in scores), int(round_id))
    while not current.is_over:
        strategy = strategies[current.current_player]
        current.apply(int(strategy.choose(current.observe())[0]))
    return current


def play_rounds_reference(decks: np.ndarray, strategies: Sequence, round_ids: np.ndarray) -> RoundsResult:
    """Each deck played once on the reference engine, ``strategies[seat]`` in each seat."""
    points = np.array(
        [play_round_reference(deck, strategies, (0,) * 4, rid).points() for deck, rid in zip(decks, round_ids)],
        dtype=np.int64,
    ).reshape(len(decks), rules.NUM_PLAYERS)
    return RoundsResult(points)


def play_games_reference(game_ids: np.ndarray, deal_source: fast.DealSource, strategies: Sequence) -> GamesResult:
    """Whole games on the reference engine, dealt and numbered exactly as ``fast.play_games`` does."""
    game_ids = np.asarray(game_ids, dtype=np.int64)
    scores = np.zeros((len(game_ids), rules.NUM_PLAYERS), dtype=np.int64)
    rounds = np.zeros(len(game_ids), dtype=np.int64)
    going = np.arange(len(game_ids))
    round_number = 0
    while going.size:
        deals = deal_source(game_ids[going], round_number)
        for game, deck in zip(going, deals):
            round_id = game_ids[game] * fast.GAME_ROUND_ID_STRIDE + round_number
            scores[game] += play_round_reference(deck, strategies, scores[game], round_id).points()
        rounds[going] += 1
        going = going[scores[going].max(axis=1) < rules.GAME_OVER_SCORE]
        round_number += 1
    return GamesResult(scores, rounds, scores == scores.min(axis=1, keepdims=True))


GAME = Game(
    name="straights",
    num_seats=rules.NUM_PLAYERS,
    duplicate_seatings=seating.rotations(rules.NUM_PLAYERS),
    lower_is_better=True,
    deals=deals.deals,
    deals_at=deals.deals_at,
    play_rounds={"fast": fast.play_rounds, "reference": play_rounds_reference},
    play_games={"fast": fast.play_games, "reference": play_games_reference},
)
