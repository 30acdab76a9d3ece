"""Gin Rummy as the tournament machinery sees it: seeded deals, swapped seats, the reference engine.

A deal is a (52,) array of card ids: the pack in the order it is dealt from (``engine.Hand``),
shuffled by ``sim.dealing``'s block dealer. ``play_rounds`` plays each deal as one hand, dealt by
seat ``round id % 2``, and gives each seat the points it scored; ``play_games`` plays whole games
(first dealer ``game id % 2``, then alternating) and gives grand totals with the game and box
bonuses, the winner being the seat that reached 100. Both engines are offered: "fast"
(``sim.ginrummy.fast``, the default) and "reference".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sim import seating
from sim.dealing import BlockDealer
from sim.games import Game
from sim.ginrummy import fast, rules
from sim.ginrummy.engine import Game as GinGame
from sim.ginrummy.engine import Hand
from sim.ginrummy.observation import ENCODED_SIZE, NUM_ACTIONS, Observation, action_name, encode, parse_action
from sim.play import games_player, rounds_player

PACKS = BlockDealer(range(52))  # deal i of a seed and stream: sim.dealing


def new_state(deal: Sequence[int], round_id: int) -> Hand:
    """A hand of ``deal`` (scores 0), dealt by seat ``round_id % 2`` so every seating of a deal has
    the same dealer."""
    return Hand(tuple(int(card) for card in deal), round_id % rules.NUM_PLAYERS, (0, 0), round_id)


def new_game(next_deal: Callable[[], Sequence[int]], game_id: int) -> GinGame:
    """A whole game to 100 whose hands are dealt by ``next_deal``: first dealer ``game_id % 2``, then
    alternating (a void hand is dealt again by its dealer); its points are the grand totals."""
    return GinGame(next_deal, first_dealer=game_id % rules.NUM_PLAYERS, game_id=game_id, auto_deal=True)


GAME = Game(
    name="ginrummy",
    num_seats=rules.NUM_PLAYERS,
    duplicate_seatings=seating.swapped(),
    lower_is_better=False,
    deals=PACKS.deals,
    deals_at=PACKS.deals_at,
    deal_version=2,  # 1: one seeded generator per deal; 2: sim.dealing's blocks
    play_rounds={"fast": fast.play_rounds, "reference": rounds_player(new_state, rules.NUM_PLAYERS)},
    play_games={"fast": fast.play_games, "reference": games_player(new_game, rules.NUM_PLAYERS)},
    new_state=new_state,
    new_game=new_game,
    num_actions=NUM_ACTIONS,
    action_name=action_name,
    parse_action=parse_action,
    program="sim.ginrummy.cli",
    transcript="sim.ginrummy.transcript",
    view="sim.ginrummy.view",
    encode=encode,
    observation_size=ENCODED_SIZE,
    observation=Observation,
    baseline="cs340",
    tables=fast.Tables,
)
