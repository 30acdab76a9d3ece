"""The Gin Rummy strategies on the reference engine: legal actions only, deterministic, blind to hidden cards."""

import copy
import random

import numpy as np
import pytest

import strategies
from sim.cards import cards_in, mask_of
from sim.ginrummy import game, rules
from sim.ginrummy.engine import Game
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK
from sim.ginrummy.policies.masks import meld_outs

NAMES = ("cs340", "simple", "heuristic")
GAMES = 2


def deal_source(ids, hand):
    return game.GAME.deals_at(11, ids, (3, hand))


def play(game_id: int, players, on_decision=None) -> tuple[tuple[int, int], list[int]]:
    """One whole game; ``on_decision(hand, strategy, action)`` sees every decision. Returns the
    totals and every action taken."""
    gin = Game(lambda: deal_source(np.array([game_id]), gin.hands_dealt)[0], first_dealer=game_id % 2)
    actions = []
    while not gin.is_over and gin.hands_dealt < 200:
        gin.deal()
        while gin.in_hand:
            player = players[gin.current_player]
            if on_decision is not None:
                on_decision(gin.hand, player)
            action = int(player.choose(gin.observe())[0])
            actions.append(action)
            gin.apply(action)
    return gin.points_toward_target, actions


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("opponent", NAMES)
def test_only_legal_actions(name, opponent):
    players = [strategies.get("ginrummy", name), strategies.get("ginrummy", opponent)]
    for game_id in range(GAMES):
        seen: list[int] = []

        def check(hand, player, seen=seen):
            observation = hand.observe()
            action = int(copy.deepcopy(player).choose(observation)[0])
            assert observation.legal[0, action], (player, action)
            seen.append(action)

        play(game_id, players, check)  # Game.apply also raises on an illegal action
        assert seen


@pytest.mark.parametrize("name", NAMES)
def test_deterministic(name):
    for game_id in range(GAMES):
        first = play(game_id, [strategies.get("ginrummy", name), strategies.get("ginrummy", "simple")])
        again = play(game_id, [strategies.get("ginrummy", name), strategies.get("ginrummy", "simple")])
        assert first == again


@pytest.mark.parametrize("name", NAMES)
def test_choices_depend_on_the_observation_alone(name):
    """A player that has played the game so far chooses as a new one would: strategies keep no state."""
    decisions = 0

    def check(hand, player):
        nonlocal decisions
        if player is tested:
            observation = hand.observe()
            assert int(player.choose(observation)[0]) == int(strategies.get("ginrummy", name).choose(observation)[0])
            decisions += 1

    for game_id in range(GAMES):
        tested = strategies.get("ginrummy", name)
        play(game_id, [tested, strategies.get("ginrummy", "simple")], check)
    assert decisions > 50


def scrambled(hand, rng: random.Random):
    """A copy of the hand with the cards its current player cannot see dealt again: the opponent's
    cards not known (not taken from the pile) and the stock, reshuffled between them."""
    other = 1 - hand.turn
    twin = copy.deepcopy(hand)
    known = hand.took[other]
    hidden = list(cards_in(hand.hands[other] & ~known)) + list(hand.stock)
    rng.shuffle(hidden)
    count = (hand.hands[other] & ~known).bit_count()
    twin.hands[other] = known | mask_of(hidden[:count])
    twin.stock = hidden[count:]
    return twin


@pytest.mark.parametrize("name", NAMES)
def test_blind_to_the_opponents_hand_and_the_stock(name):
    rng = random.Random(5)
    changed = 0

    def check(hand, player):
        nonlocal changed
        twin = scrambled(hand, rng)
        changed += twin.hands[1 - hand.turn] != hand.hands[1 - hand.turn]
        real = copy.deepcopy(player).choose(hand.observe())
        other = copy.deepcopy(player).choose(twin.observe())
        assert int(real[0]) == int(other[0])

    for game_id in range(GAMES):
        play(game_id, [strategies.get("ginrummy", name), strategies.get("ginrummy", "simple")], check)
    assert changed > 0


def test_meld_outs_matches_makes_meld():
    rng = random.Random(1)
    for _ in range(500):
        hand = mask_of(rng.sample(range(52), rng.choice([2, 5, 10, 11])))
        expected = mask_of(card for card in range(52) if not hand >> card & 1 and rules.makes_meld(hand, card))
        assert meld_outs(hand) == expected


def test_heuristic_never_takes_back_its_own_throw():
    """Two players taking each other's throws could circle forever; the heuristic reads its throws from
    the observation."""
    players = [strategies.get("ginrummy", "heuristic"), strategies.get("ginrummy", "heuristic")]
    thrown: dict[int, set[int]] = {}
    current = []  # the hand being played (kept alive, so a new hand is a new object)
    takes = 0

    def check(hand, player):
        nonlocal takes
        if not current or current[0] is not hand:
            current[:] = [hand]
            thrown.clear()
        action = int(copy.deepcopy(player).choose(hand.observe())[0])
        mine = thrown.setdefault(hand.turn, set())
        if action == DRAW_DISCARD:
            takes += 1
            assert hand.top_discard not in mine
        elif action != DRAW_STOCK:
            mine.add(action - KNOCK if action >= KNOCK else action)

    for game_id in range(GAMES):
        points, _ = play(game_id, players, check)
        assert max(points) >= rules.GAME_TARGET
    assert takes > 0
