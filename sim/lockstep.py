"""What every fast engine shares: whole games played as rounds in lockstep, the seats' strategies, and
the error for bad deals.

A fast engine plays a batch of rounds at once (``play_rounds``). ``play_games`` strings them into
whole games: round ``r`` of every game still going is dealt together, played as one batch and
scored, and the games that are over leave the batch before the next round, so every round is one
vectorized call over the games that still need it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from sim.api import Strategy, round_ids
from sim.games import DealSource


class DealError(ValueError):
    """Deals a fast engine refuses: not an array of whole packs of its game."""


PlayScoredRounds = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""``play(deals (n, ...), round ids (n,), scores before the round (n, k)) -> scores gained (n, k)``."""


def play_games(
    game_ids: np.ndarray,
    deal_source: DealSource,
    play: PlayScoredRounds,
    score_columns: int,
    is_over: Callable[[np.ndarray], np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """(final scores (B, score_columns), rounds played (B,)) of whole games ``game_ids``.

    Round ``r`` of game ``g`` is dealt by ``deal_source(game ids still going, r)`` and numbered
    ``sim.api.round_id(g, r)``; ``is_over(scores (n, k)) -> (n,) bool`` ends a game after a round.
    """
    game_ids = np.asarray(game_ids, dtype=np.int64)
    scores = np.zeros((len(game_ids), score_columns), dtype=np.int64)
    rounds = np.zeros(len(game_ids), dtype=np.int64)
    going = np.arange(len(game_ids))
    round_number = 0
    while going.size:
        ids = game_ids[going]
        scores[going] += play(deal_source(ids, round_number), round_ids(ids, round_number), scores[going])
        rounds[going] += 1
        going = going[~is_over(scores[going])]
        round_number += 1
    return scores, rounds


class Players:
    """The seats' strategies, each distinct strategy object once with the seats it plays: a fast
    engine asks each object once per step, for every row whose mover it plays."""

    def __init__(self, strategies: Sequence[Strategy]) -> None:
        distinct = list({id(strategy): strategy for strategy in strategies}.values())
        self.seats_of = [(strategy, np.array([other is strategy for other in strategies])) for strategy in distinct]

    @property
    def single(self) -> Strategy | None:
        """The strategy of every seat, when one object plays them all."""
        return self.seats_of[0][0] if len(self.seats_of) == 1 else None


def strategy_name(strategy: Strategy) -> str:
    """What messages call a strategy: its ``name``, else its class's."""
    return getattr(strategy, "name", type(strategy).__name__)
