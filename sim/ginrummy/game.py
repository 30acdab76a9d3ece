"""Gin Rummy as the tournament machinery sees it: seeded deals, swapped seats, the reference engine.

A deal is a (52,) array of card ids: the pack in the order it is dealt from (``engine.Hand``).
Deal ``i`` of seed ``s`` in stream ``t`` is the new pack permuted by a generator seeded with
``SeedSequence(s, spawn_key=(*t, i))`` alone. ``play_rounds`` plays each deal as one hand, dealt by
seat ``round id % 2``, and gives each seat the points it scored; ``play_games`` plays whole games
(first dealer ``game id % 2``, then alternating) and gives grand totals with the game and box
bonuses, the winner being the seat that reached 100. There is no fast engine yet.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sim import seating
from sim.dealing import SeededPacks
from sim.games import DealSource, Game, GamesResult, RoundsResult
from sim.ginrummy import rules
from sim.ginrummy.engine import Game as GinGame
from sim.ginrummy.engine import Hand

MAX_HANDS = 1000  # a guard: void hands could in principle repeat forever

PACKS = SeededPacks(range(52))  # deal i of a seed and stream: sim.dealing


def play_hand_reference(pack: Sequence[int], strategies: Sequence, dealer: int, scores: Sequence[int], hand_id: int) -> Hand:
    """One hand on the reference engine, each seat asking its strategy with a batch of one."""
    hand = Hand(tuple(int(card) for card in pack), dealer, tuple(int(s) for s in scores), int(hand_id))
    while not hand.is_over:
        hand.apply(int(strategies[hand.current_player].choose(hand.observe())[0]))
    return hand


def play_rounds_reference(decks: np.ndarray, strategies: Sequence, round_ids: np.ndarray) -> RoundsResult:
    """Each deal played as one hand; the deal's id modulo 2 is the dealer, the same in every seating."""
    points = [
        play_hand_reference(deck, strategies, int(rid) % rules.NUM_PLAYERS, (0, 0), int(rid)).seat_points()
        for deck, rid in zip(decks, round_ids)
    ]
    return RoundsResult(np.array(points, dtype=np.int64).reshape(len(decks), rules.NUM_PLAYERS))


def play_game_reference(game_id: int, deal_source: DealSource, strategies: Sequence) -> tuple[tuple[int, int], int, int]:
    """One whole game: (grand totals, hands dealt, winner). Hand ``r`` is ``deal_source([game_id], r)``."""
    game = GinGame(lambda: deal_source(np.array([game_id]), game.hands_dealt)[0], first_dealer=game_id % 2)
    while not game.is_over and game.hands_dealt < MAX_HANDS:
        game.deal()
        while game.in_hand:
            game.apply(int(strategies[game.current_player].choose(game.observe())[0]))
    winner = game.winner if game.winner is not None else int(np.argmax(game.points))
    return rules.final_scores(game.points, game.hands_won, winner), game.hands_dealt, winner


def play_games_reference(game_ids: np.ndarray, deal_source: DealSource, strategies: Sequence) -> GamesResult:
    """Whole games to 100; scores are grand totals (game and box bonuses in), winners reached 100."""
    played = [play_game_reference(int(game_id), deal_source, strategies) for game_id in np.asarray(game_ids)]
    scores = np.array([p[0] for p in played], dtype=np.int64).reshape(len(played), rules.NUM_PLAYERS)
    rounds = np.array([p[1] for p in played], dtype=np.int64)
    winners = np.zeros((len(played), rules.NUM_PLAYERS), dtype=bool)
    winners[np.arange(len(played)), [p[2] for p in played]] = True
    return GamesResult(scores, rounds, winners)


GAME = Game(
    name="ginrummy",
    num_seats=rules.NUM_PLAYERS,
    duplicate_seatings=seating.swapped(),
    lower_is_better=False,
    deals=PACKS.deals,
    deals_at=PACKS.deals_at,
    play_rounds={"reference": play_rounds_reference},
    play_games={"reference": play_games_reference},
)
