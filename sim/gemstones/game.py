"""Gemstones as the tournament machinery sees it: seeded deals, swapped seats, both engines, the variants.

A deal is a (104,) array of stone ids: the shuffled deck, drawn from its end. It is the factory
order shuffled by ``sim.dealing``'s block dealer, so deal ``i`` depends on nothing but the seed,
the stream and ``i``. Gemstones has no rounds: one "round" is one whole game, and its points are
each seat's coins. A drawn game is a win both seats share in ``GamesResult.winners``. Both engines are
offered: "fast" (``sim.gemstones.fast``, the default) and "reference". ``GAME`` plays the default
rules; ``games.load("gemstones", "final_sale=yes")`` the same game under rule variants.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from sim import seating
from sim.api import round_id
from sim.dealing import BlockDealer
from sim.games import Game
from sim.gemstones import fast, rules
from sim.gemstones.engine import DEFAULT_VARIANTS, NUM_PLAYERS, State, Variants
from sim.gemstones.observation import ENCODED_SIZE, NUM_ACTIONS, Observation, describe, encode, parse_action
from sim.play import games_player, rounds_player

PACKS = BlockDealer(rules.FACTORY_ORDER)  # deal i of a seed and stream: sim.dealing


def game_under(variants: Variants) -> Game:
    """Gemstones played under ``variants``: both engines, the reference's new games and the record's
    ``rules`` (the variants as ``name=value`` words, "" for the defaults)."""

    def new_state(deal: Sequence[int], round_id: int) -> State:
        """A whole game of ``deal`` numbered ``round_id``: a game is its only round."""
        return State.new(deal, variants, round_id)[0]

    def new_game(next_deal: Callable[[], Sequence[int]], game_id: int) -> State:
        """A whole game, dealt once by ``next_deal``: its one round is numbered ``round_id(game_id, 0)``."""
        return new_state(next_deal(), round_id(game_id, 0))

    return Game(
        name="gemstones",
        num_seats=NUM_PLAYERS,
        duplicate_seatings=seating.swapped(),
        lower_is_better=False,
        deals=PACKS.deals,
        deals_at=PACKS.deals_at,
        deal_version=2,  # 1: one seeded generator per deal; 2: sim.dealing's blocks
        play_rounds={
            "fast": functools.partial(fast.play_rounds, variants=variants),
            "reference": rounds_player(new_state, NUM_PLAYERS),
        },
        play_games={
            "fast": functools.partial(fast.play_games, variants=variants),
            "reference": games_player(new_game, NUM_PLAYERS),
        },
        new_state=new_state,
        new_game=new_game,
        num_actions=NUM_ACTIONS,
        action_name=describe,
        parse_action=parse_action,
        program="sim.gemstones.cli",
        transcript="sim.gemstones.transcript",
        view="sim.gemstones.view",
        encode=encode,
        observation_size=ENCODED_SIZE,
        observation=Observation,
        baseline="greedy",
        with_rules=with_rules,
        tables=functools.partial(fast.Tables, variants=variants),
        rules=""
        if variants == DEFAULT_VARIANTS
        else ",".join(word for word, default in zip(variants.words(), DEFAULT_VARIANTS.words()) if word != default),
    )


def with_rules(text: str) -> Game:
    """Gemstones under the variants ``text`` names, comma- or space-separated ``name=value`` words
    (``engine.Variants.parse``)."""
    return game_under(Variants.parse(text.replace(",", " ").split()))


GAME = game_under(DEFAULT_VARIANTS)
