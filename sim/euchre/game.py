"""Euchre as the tournament machinery sees it: seeded deals, partnership seatings, the reference engine.

A deal is a (24,) array of card ids: the pack in the order it is dealt from (``rules.deal_hands``
gives the batches, the 21st card is the upcard), shuffled by ``sim.dealing``'s block dealer, so
deal ``i`` depends on nothing but the seed, the stream and ``i``. Points are per seat: both partners
are credited with their team's points, and ``teams`` tells the tournament to count them once per
partnership. Both engines are offered: "fast" (``sim.euchre.fast``, the default) and "reference".
Hand ``r`` of whole game ``g`` is numbered ``sim.api.round_id(g, r)`` and dealt by seat ``r % 4``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sim import seating
from sim.dealing import BlockDealer
from sim.euchre import fast, rules
from sim.euchre.engine import Game as EuchreGame
from sim.euchre.engine import Hand
from sim.euchre.observation import ENCODED_SIZE, NUM_ACTIONS, Observation, action_name, encode, parse_action
from sim.games import Game
from sim.play import games_player, rounds_player

PACKS = BlockDealer(rules.NEW_PACK)  # deal i of a seed and stream: sim.dealing


def new_state(deal: Sequence[int], round_id: int) -> Hand:
    """A hand of ``deal`` (scores 0), dealt by seat ``round_id % 4`` so every seating of a deal has
    the same dealer."""
    return Hand(tuple(int(card) for card in deal), round_id % rules.NUM_PLAYERS, (0, 0), round_id)


def new_game(next_deal: Callable[[], Sequence[int]], game_id: int) -> EuchreGame:
    """A whole game to 10 points whose hands are dealt by ``next_deal`` (hand ``r`` by seat ``r % 4``)."""
    game = EuchreGame(next_deal, game_id=game_id)
    game.start()
    return game


GAME = Game(
    name="euchre",
    num_seats=rules.NUM_PLAYERS,
    duplicate_seatings=seating.partnerships_rotated(),
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
    program="sim.euchre.cli",
    transcript="sim.euchre.transcript",
    view="sim.euchre.view",
    encode=encode,
    observation_size=ENCODED_SIZE,
    observation=Observation,
    baseline="simple",
    teams=tuple(rules.team_of(seat) for seat in range(rules.NUM_PLAYERS)),
    tables=fast.Tables,
)
