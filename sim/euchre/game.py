"""Euchre as the tournament machinery sees it: seeded deals, partnership seatings, the reference engine.

A deal is a (24,) array of card ids: the pack in the order it is dealt from (``rules.deal_hands``
gives the batches, the 21st card is the upcard). Deal ``i`` of seed ``s`` in stream ``t`` is the
new pack permuted by a generator seeded with ``SeedSequence(s, spawn_key=(*t, i))`` alone, so it
depends on nothing but the seed, the stream and its index. Points are per seat: both partners
are credited with their team's points. There is no fast engine yet, so only "reference" is offered.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sim import seating
from sim.dealing import SeededPacks
from sim.euchre import rules
from sim.euchre.engine import Hand
from sim.games import DealSource, Game, GamesResult, RoundsResult

GAME_HAND_ID_STRIDE = 1 << 20  # hand ids of game g are g * stride + hand number

PACKS = SeededPacks(rules.NEW_PACK)  # deal i of a seed and stream: sim.dealing


def play_hand_reference(
    pack: Sequence[int], strategies: Sequence, dealer: int, scores: Sequence[int], hand_id: int
) -> Hand:
    """One hand on the reference engine, each seat asking its strategy with a batch of one."""
    hand = Hand(tuple(int(card) for card in pack), dealer, tuple(int(s) for s in scores), int(hand_id))
    while not hand.is_over:
        hand.apply(int(strategies[hand.current_player].choose(hand.observe())[0]))
    return hand


def seat_points(team_points: Sequence[int]) -> list[int]:
    """Per seat, the points of its team."""
    return [team_points[rules.team_of(seat)] for seat in range(rules.NUM_PLAYERS)]


def play_rounds_reference(decks: np.ndarray, strategies: Sequence, round_ids: np.ndarray) -> RoundsResult:
    """Each deal played as one hand; the deal's id modulo 4 is the dealer, the same in every seating."""
    points = [
        seat_points(play_hand_reference(deck, strategies, int(rid) % rules.NUM_PLAYERS, (0, 0), rid).team_points())
        for deck, rid in zip(decks, round_ids)
    ]
    return RoundsResult(np.array(points, dtype=np.int64).reshape(len(decks), rules.NUM_PLAYERS))


def play_games_reference(
    game_ids: np.ndarray,
    deal_source: DealSource,
    strategies: Sequence,
    points_to_win: int = rules.DEFAULT_POINTS_TO_WIN,
) -> GamesResult:
    """Whole games to ``points_to_win``: hand ``r`` of game ``g`` is ``deal_source([g], r)``, dealt by seat ``r % 4``."""
    game_ids = np.asarray(game_ids, dtype=np.int64)
    team_scores = np.zeros((len(game_ids), rules.NUM_TEAMS), dtype=np.int64)
    hands = np.zeros(len(game_ids), dtype=np.int64)
    going = np.arange(len(game_ids))
    hand_number = 0
    while going.size:
        dealer = hand_number % rules.NUM_PLAYERS
        for game, deck in zip(going, deal_source(game_ids[going], hand_number)):
            hand_id = game_ids[game] * GAME_HAND_ID_STRIDE + hand_number
            played = play_hand_reference(deck, strategies, dealer, team_scores[game], hand_id)
            team_scores[game] += played.team_points()
        hands[going] += 1
        going = going[team_scores[going].max(axis=1) < points_to_win]
        hand_number += 1
    seat_teams = [rules.team_of(seat) for seat in range(rules.NUM_PLAYERS)]
    scores = team_scores[:, seat_teams]
    return GamesResult(scores, hands, scores >= points_to_win)


GAME = Game(
    name="euchre",
    num_seats=rules.NUM_PLAYERS,
    duplicate_seatings=seating.partnerships_rotated(),
    lower_is_better=False,
    deals=PACKS.deals,
    deals_at=PACKS.deals_at,
    play_rounds={"reference": play_rounds_reference},
    play_games={"reference": play_games_reference},
)
