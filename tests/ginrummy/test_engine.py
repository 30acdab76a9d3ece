"""The reference engine: random play keeps the rules, the CS 340 start, void hands, knocks and games."""

import random

import numpy as np
import pytest

import strategies
from sim.cards import parse_card
from sim.ginrummy import game as gin_game
from sim.ginrummy import rules
from sim.ginrummy.engine import Game, Hand, HandEnded, HandVoid, IllegalAction
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, Phase, knock


def random_hand(seed: int) -> Hand:
    rng = random.Random(seed)
    hand = Hand(tuple(rng.sample(range(52), 52)), dealer=seed % 2)
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal == tuple(sorted(legal))
        knocks = [a for a in legal if a >= KNOCK]
        # Knock half the time it is allowed, so both knocked and void hands happen.
        hand.apply(rng.choice(knocks if knocks and rng.random() < 0.5 else legal))
        held = hand.hands[0].bit_count() + hand.hands[1].bit_count()
        assert held + len(hand.stock) + len(hand.pile) == 52
    return hand


def test_the_cs340_start():
    hand = Hand(tuple(range(52)), dealer=1)
    assert hand.current_player == 0 and hand.phase == Phase.DISCARD
    assert hand.hands[0].bit_count() == 11 and hand.hands[1].bit_count() == 10 and len(hand.stock) == 31
    assert DRAW_STOCK not in hand.legal_actions()  # the opener only discards or knocks


def test_random_play_keeps_every_card_and_ends():
    endings = {HandEnded: 0, HandVoid: 0}
    for seed in range(300):
        hand = random_hand(seed)
        endings[type(hand.ended)] += 1
        if isinstance(hand.ended, HandVoid):
            assert len(hand.stock) == rules.VOID_STOCK_SIZE
    assert all(endings.values())


def test_observations_show_what_each_seat_threw_this_hand():
    for seed in range(40):
        rng = random.Random(seed)
        hand = Hand(tuple(rng.sample(range(52), 52)), dealer=seed % 2)
        threw = [0, 0]
        while not hand.is_over:
            observation = hand.observe()
            seat = hand.turn
            assert int(observation.threw[0]) == threw[seat] and int(observation.opponent_threw[0]) == threw[1 - seat]
            action = rng.choice(hand.legal_actions())
            if action not in (DRAW_STOCK, DRAW_DISCARD):
                threw[seat] |= 1 << (action - KNOCK if action >= KNOCK else action)
            hand.apply(action)


def test_a_card_taken_from_the_pile_is_not_thrown_back():
    hand = Hand(tuple(range(52)), dealer=1)
    hand.apply(hand.legal_actions()[0])
    hand.apply(DRAW_DISCARD)
    assert hand.taken not in hand.legal_actions() and knock(hand.taken) not in hand.legal_actions()
    with pytest.raises(IllegalAction):
        hand.apply(hand.taken)


def deal(non_dealer: str, dealer: str) -> Hand:
    """A hand dealt by seat 1 in which seat 0 holds ``non_dealer`` (11 cards) and seat 1 ``dealer``."""
    opener, other = [parse_card(c) for c in non_dealer.split()], [parse_card(c) for c in dealer.split()]
    pack = [0] * 21
    pack[0:20:2], pack[1:20:2], pack[20] = opener[:10], other, opener[10]
    return Hand(tuple(pack + [c for c in range(52) if c not in opener + other]), dealer=1)


def test_knock_lays_off_runs_first_and_scores():
    hand = deal("AC 2C 3C 7D 7H 7S 9D TD JD 2H KC", "4C 5C 8D 7C QH QS JS 3H 6S 2S")
    _, ended = hand.apply(knock(parse_card("KC")))
    assert ended.knocker_deadwood == 2
    # 4C then 5C extend A-3C, 8D extends 9D-JD, and only then 7C goes on the sevens.
    laid = [(card, meld) for card, meld in ended.layoffs]
    assert [c for c, _ in laid] == [parse_card(c) for c in "4C 5C 8D 7C".split()]
    assert ended.defender_deadwood == 10 + 10 + 10 + 3 + 6 + 2
    assert ended.score == rules.HandScore(0, 39, "knock") and hand.points() == (39, 0)


def test_no_laying_off_onto_gin():
    hand = deal("AC 2C 3C 7D 7H 7S 9D TD JD QD KC", "4C 5C 8D 7C QH QS JS 3H 6S 2S")
    _, ended = hand.apply(knock(parse_card("KC")))
    assert ended.layoffs == () and ended.score == rules.HandScore(0, 65 + 20, "gin")


def test_undercut():
    hand = deal("AC 2C 3C 7D 7H 7S 9D TD JD 9H KC", "4C 4D 4H 5S 5H 5D 8S 8H 8C AS")
    _, ended = hand.apply(knock(parse_card("KC")))
    assert ended.score == rules.HandScore(1, 9 - 1 + 10, "undercut")


def test_a_game_alternates_the_deal_and_ends_with_bonuses():
    rng = random.Random(1)
    player = strategies.get("ginrummy", "simple")
    game = Game(lambda: rng.sample(range(52), 52), first_dealer=0)
    dealers = []
    while not game.is_over:
        game.deal()
        dealers.append(game.hand.dealer)
        while game.in_hand:
            game.apply(int(player.choose(game.observe())[0]))
    assert max(game.points_toward_target) >= 100 and game.winner == int(np.argmax(game.points_toward_target))
    assert dealers[0] == 0 and sum(game.hands_won) <= game.hands_dealt


def test_tournament_view_is_seeded_and_swaps_seats():
    first = gin_game.PACKS.deals(3, 0, 4)
    assert (first == gin_game.PACKS.deals(3, 0, 4)).all() and (first[2] == gin_game.PACKS.deals_at(3, [2])[0]).all()
    assert gin_game.GAME.duplicate_seatings == ((0, 1), (1, 0))
    players = [strategies.get("ginrummy", name) for name in ("cs340", "simple")]
    rounds = gin_game.GAME.play_rounds["reference"](first, players, np.arange(4))
    assert rounds.points.shape == (4, 2) and (rounds.points.min(axis=1) == 0).all()
    result = gin_game.GAME.play_games["reference"](
        np.arange(2), lambda ids, r: gin_game.PACKS.deals_at(3, ids, (1, r)), players
    )
    assert result.winners.sum(axis=1).tolist() == [1, 1] and (result.rounds >= 1).all()
