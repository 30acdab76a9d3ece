"""Gemstones as the tournament machinery sees it: seeded deals, swapped seats, the reference engine.

A deal is a (104,) array of stone ids: the shuffled deck, drawn from its end. It is the factory
order shuffled by ``sim.dealing``'s block dealer, so deal ``i`` depends on nothing but the seed,
the stream and ``i``. Gemstones has no rounds: one "round" is one whole game, and its points are
each seat's coins. A drawn game is a win both seats share in ``GamesResult.winners``. There is no fast engine yet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sim import seating
from sim.api import round_id
from sim.dealing import BlockDealer
from sim.games import Game
from sim.gemstones import rules
from sim.gemstones.engine import NUM_PLAYERS, State, Variants
from sim.gemstones.observation import NUM_ACTIONS, describe, parse_action
from sim.play import games_player, rounds_player

PACKS = BlockDealer(rules.FACTORY_ORDER)  # deal i of a seed and stream: sim.dealing


def new_state(deal: Sequence[int], round_id: int) -> State:
    """A whole game of ``deal`` with the default rules, numbered ``round_id``: a game is its only round."""
    return State.new(deal, Variants(), round_id)[0]


def new_game(next_deal: Callable[[], Sequence[int]], game_id: int) -> State:
    """A whole game, dealt once by ``next_deal``: its one round is numbered ``round_id(game_id, 0)``."""
    return new_state(next_deal(), round_id(game_id, 0))


GAME = Game(
    name="gemstones",
    num_seats=NUM_PLAYERS,
    duplicate_seatings=seating.swapped(),
    lower_is_better=False,
    deals=PACKS.deals,
    deals_at=PACKS.deals_at,
    deal_version=2,  # 1: one seeded generator per deal; 2: sim.dealing's blocks
    play_rounds={"reference": rounds_player(new_state, NUM_PLAYERS)},
    play_games={"reference": games_player(new_game, NUM_PLAYERS)},
    new_state=new_state,
    new_game=new_game,
    num_actions=NUM_ACTIONS,
    action_name=describe,
    parse_action=parse_action,
    program="sim.gemstones.cli",
    baseline="greedy",
)
