"""Straights as the tournament machinery sees it: deals, seatings and both engines behind one shape.

A deal is a (52,) int8 array of card ids (``sim.cards``) in deck order: the first 13 go to seat 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sim import seating
from sim.api import UnknownAction
from sim.cards import NUM_CARDS, CardError, card_name, parse_card
from sim.dealing import BlockDealer
from sim.games import Game
from sim.play import games_player, rounds_player
from sim.straights import fast, rules
from sim.straights.engine import Game as StraightsGame
from sim.straights.engine import Round
from sim.straights.observation import ENCODED_SIZE, Observation, encode

PACKS = BlockDealer(range(NUM_CARDS))  # deal i of a seed and stream: sim.dealing


def parse_action(text: str) -> int:
    """The card ``text`` names (playing or discarding it is the action); ``UnknownAction`` if none."""
    try:
        return parse_card(text)
    except CardError as error:
        raise UnknownAction(str(error)) from None


def new_state(deal: Sequence[int], round_id: int) -> Round:
    """A round of ``deal`` (scores 0), numbered ``round_id``."""
    return Round(tuple(int(card) for card in deal), (0,) * rules.NUM_PLAYERS, round_id)


def new_game(next_deal: Callable[[], Sequence[int]], game_id: int) -> StraightsGame:
    """A whole game whose rounds are dealt by ``next_deal``, dealt its first round."""
    game = StraightsGame(next_deal, game_id=game_id)
    game.start()
    return game


GAME = Game(
    name="straights",
    num_seats=rules.NUM_PLAYERS,
    duplicate_seatings=seating.rotations(rules.NUM_PLAYERS),
    lower_is_better=True,
    deals=PACKS.deals,
    deals_at=PACKS.deals_at,
    deal_version=1,  # sim.dealing's blocks, Straights' sequence before deal versions were recorded
    play_rounds={"fast": fast.play_rounds, "reference": rounds_player(new_state, rules.NUM_PLAYERS)},
    play_games={"fast": fast.play_games, "reference": games_player(new_game, rules.NUM_PLAYERS)},
    new_state=new_state,
    new_game=new_game,
    num_actions=NUM_CARDS,
    action_name=card_name,
    parse_action=parse_action,
    program="sim.straights.cli",
    transcript="sim.straights.transcript",
    view="sim.straights.view",
    encode=encode,
    observation_size=ENCODED_SIZE,
    observation=Observation,
    baseline="first-legal",
    tables=fast.Tables,
)
