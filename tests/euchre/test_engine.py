"""The reference engine: properties of every hand and game under random play, and fixed scenarios."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from sim import games
from sim.cards import suit_of
from sim.euchre import rules
from sim.euchre.engine import (
    Game,
    GameEnded,
    Hand,
    HandEnded,
    IllegalAction,
    Played,
    ScoresChanged,
    SpecPack,
    TrickTaken,
)
from sim.euchre.observation import PASS, Phase, order_up

SIMPLE = strategies.get("euchre", "simple")


def play_randomly(state, rng, simple_seats=()):
    """Play ``state`` to its end with uniformly random legal actions (Simple in ``simple_seats``),
    checking every play against the hand it came from; returns all events."""
    events = []
    while not state.is_over:
        hand = state.hand if isinstance(state, Game) else state
        seat = state.current_player
        legal = state.legal_actions()
        action = int(SIMPLE.choose(state.observe())[0]) if seat in simple_seats else legal[rng.integers(len(legal))]
        assert action in legal
        if hand.phase == Phase.PLAYING:
            check_follows_suit(hand, seat, action)
        events += state.apply(action)
    return events


def check_follows_suit(hand, seat, card):
    if hand.trick:
        led_suit = rules.effective_suit(hand.trick[0], hand.trump)
        able = any(rules.effective_suit(c, hand.trump) == led_suit for c in hand.hands[seat])
        assert not able or rules.effective_suit(card, hand.trump) == led_suit


@settings(max_examples=200, deadline=None)
@given(st.permutations(rules.NEW_PACK), st.integers(0, 3), st.integers(0, 2**32 - 1), st.booleans())
def test_every_hand_deals_24_distinct_cards_plays_five_tricks_and_scores_one_team(pack, dealer, seed, simple):
    hand = Hand(tuple(pack), dealer)
    dealt = [card for cards in hand.hands for card in cards]
    assert len(dealt) == 20 and all(len(cards) == 5 for cards in hand.hands)
    assert sorted(dealt + [hand.upcard] + list(pack[21:])) == sorted(rules.NEW_PACK)
    events = play_randomly(hand, np.random.default_rng(seed), range(4) if simple else ())
    tricks = [e for e in events if isinstance(e, TrickTaken)]
    assert len(tricks) == 5 and sum(hand.tricks_won) == 5
    assert sum(isinstance(e, Played) for e in events) == 20
    assert sorted(card for t in tricks for card in t.cards) == sorted(set(card for t in tricks for card in t.cards))
    points = hand.team_points()
    assert sorted(points) in ([0, 1], [0, 2])
    assert isinstance(events[-1], HandEnded)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_game_ends_exactly_when_a_team_reaches_the_target(points_to_win, seed, shuffle, simple):
    rng = np.random.default_rng(seed)
    game = Game(SpecPack(tuple(rng.permutation(rules.NEW_PACK)), shuffle), points_to_win)
    events = game.start() + play_randomly(game, rng, range(4) if simple else ())
    totals = [e.scores for e in events if isinstance(e, ScoresChanged)]
    assert all(max(scores) < points_to_win for scores in totals[:-1])
    assert max(totals[-1]) >= points_to_win
    ended = events[-1]
    assert isinstance(ended, GameEnded) and ended.scores[ended.winners] >= points_to_win
    assert ended.scores[1 - ended.winners] < points_to_win


def test_screw_the_dealer_forbids_passing():
    hand = Hand(rules.NEW_PACK, dealer=0)
    for _ in range(7):
        hand.apply(PASS)
    rejected = suit_of(hand.upcard)
    assert hand.current_player == 0
    assert hand.legal_actions() == tuple(order_up(s) for s in range(4) if s != rejected)
    with pytest.raises(IllegalAction):
        hand.apply(PASS)


def test_dealer_may_throw_away_the_upcard():
    hand = Hand(rules.NEW_PACK, dealer=0)
    original = list(hand.hands[0])
    hand.apply(order_up(suit_of(hand.upcard)))
    assert hand.phase == Phase.DISCARD and hand.upcard in hand.legal_actions()
    hand.apply(hand.upcard)
    assert hand.hands[0] == original and hand.phase == Phase.PLAYING


def test_simple_dealer_discards_the_upcard_when_it_is_lowest():
    # Trump hearts; the dealer (seat 0) holds the bowers, ace, king and queen of hearts, and the
    # upcard is the ten of hearts: the lowest of the six, so Simple throws it straight back.
    names = ["Jack of Hearts", "Jack of Diamonds", "Ace of Hearts", "King of Hearts", "Queen of Hearts"]
    dealer_cards = [rules.parse_long_name(n) for n in names]
    upcard = rules.parse_long_name("Ten of Hearts")
    others = [c for c in rules.NEW_PACK if c not in dealer_cards and c != upcard]
    # Batches go to seats 1, 2, 3, 0: the dealer gets pack positions 8-9 and 17-19.
    pack = others[:8] + dealer_cards[:2] + others[8:15] + dealer_cards[2:] + [upcard] + others[15:]
    hand = Hand(tuple(pack), dealer=0)
    assert sorted(hand.hands[0]) == sorted(dealer_cards) and hand.upcard == upcard
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(order_up(rules.HEARTS))
    assert int(SIMPLE.choose(hand.observe())[0]) == upcard


def test_observation_hides_other_hands():
    hand = Hand(rules.NEW_PACK, dealer=0)
    seen = hand.observe()
    assert int(seen.hand[0]) == sum(1 << c for c in hand.hands[1])
    assert seen.discard[0] == -1


def test_tournament_game_is_seeded_and_scores_partners_alike():
    game = games.load("euchre")
    assert np.array_equal(game.deals(3, 2, 4), game.deals_at(3, np.arange(2, 6)))
    assert not np.array_equal(game.deals(3, 0, 2), game.deals(4, 0, 2))
    assert all(sorted(deal) == sorted(rules.NEW_PACK) for deal in game.deals(3, 0, 10))
    seats = [SIMPLE] * 4
    points = game.play_rounds["reference"](game.deals(3, 0, 20), seats, np.arange(20)).points
    assert (points[:, 0] == points[:, 2]).all() and (points[:, 1] == points[:, 3]).all()
    assert ((points[:, 0] == 0) ^ (points[:, 1] == 0)).all()

    def deal_source(ids, hand_number):
        return game.deals_at(3, ids, (1, hand_number))

    result = game.play_games["reference"](np.arange(6), deal_source, seats)
    assert (result.scores.max(axis=1) >= 10).all() and (result.winners.sum(axis=1) == 2).all()
    again = game.play_games["reference"](np.arange(3, 6), deal_source, seats)
    assert np.array_equal(again.scores, result.scores[3:])
