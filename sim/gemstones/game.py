"""Gemstones as the tournament machinery sees it: seeded deals, swapped seats, the reference engine.

A deal is a (104,) array of stone ids: the shuffled deck, drawn from its end. Deal ``i`` of seed
``s`` in stream ``t`` is the factory order permuted by a generator seeded with
``SeedSequence(s, spawn_key=(*t, i))`` alone, so it depends on nothing but the seed, the stream and
its index. Gemstones has no rounds: one "round" is one whole game, and its points are each seat's
coins. A drawn game has no winner in ``GamesResult.winners``. There is no fast engine yet.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sim import seating
from sim.dealing import SeededPacks
from sim.games import DealSource, Game, GamesResult, RoundsResult
from sim.gemstones import rules
from sim.gemstones.engine import NUM_PLAYERS, State, Variants

PACKS = SeededPacks(rules.FACTORY_ORDER)  # deal i of a seed and stream: sim.dealing


def play_game_reference(deal: Sequence[int], strategies: Sequence, game_id: int, variants: Variants = Variants()) -> State:
    """One whole game on the reference engine, each seat asking its strategy with a batch of one."""
    state, _ = State.new(deal, variants, int(game_id))
    while not state.is_over:
        state.apply(int(strategies[state.current_player].choose(state.observe())[0]))
    return state


def play_rounds_reference(decks: np.ndarray, strategies: Sequence, round_ids: np.ndarray) -> RoundsResult:
    """Each deal played as one whole game; points are the seats' coins."""
    coins = [play_game_reference(deck, strategies, rid).coins for deck, rid in zip(decks, round_ids)]
    return RoundsResult(np.array(coins, dtype=np.int64).reshape(len(decks), NUM_PLAYERS))


def winners_mask(coins: np.ndarray) -> np.ndarray:
    """(B, 2) bool: the seat with strictly more coins; neither seat in a drawn game."""
    return coins > coins[:, ::-1]


def play_games_reference(game_ids: np.ndarray, deal_source: DealSource, strategies: Sequence) -> GamesResult:
    """Whole games, each from ``deal_source([g], 0)``: a game is its only "round"."""
    game_ids = np.asarray(game_ids, dtype=np.int64)
    coins = play_rounds_reference(deal_source(game_ids, 0), strategies, game_ids).points
    return GamesResult(coins, np.ones(len(game_ids), dtype=np.int64), winners_mask(coins))


GAME = Game(
    name="gemstones",
    num_seats=NUM_PLAYERS,
    duplicate_seatings=seating.swapped(),
    lower_is_better=False,
    deals=PACKS.deals,
    deals_at=PACKS.deals_at,
    play_rounds={"reference": play_rounds_reference},
    play_games={"reference": play_games_reference},
)
