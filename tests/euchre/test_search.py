"""Euchre's solver-backed search: the states it solves are the game's, its worlds honour what was seen."""

from __future__ import annotations

import numpy as np
import pytest

import strategies
from sim.cards import mask_of
from sim.crosscheck import crosscheck
from sim.euchre import rules
from sim.euchre.engine import Hand
from sim.euchre.game import GAME
from sim.euchre.observation import DISCARD_STEP, NONE, SCRIPT_STEPS, Phase
from strategies.euchre.mc import script_step
from strategies.euchre.search import replay_scripts, team_points

HANDS = 40


def played_hands(spec: str, count: int, seed: int = 11):
    """Hands played on the reference engine by ``spec`` in every seat: at each decision, the hand
    (a clone), its observation and its script so far."""
    player = strategies.get("euchre", spec)
    for hand_id, pack in enumerate(GAME.deals(seed, 0, count)):
        hand = Hand(tuple(int(card) for card in pack), dealer=hand_id % 4, hand_id=hand_id)
        script = np.full(SCRIPT_STEPS, NONE, dtype=np.int8)
        while not hand.is_over:
            observation = hand.observe()
            yield hand.clone(), observation, script.copy()
            action = int(player.choose(observation)[0])
            script[script_step(observation)[0]] = action
            hand.apply(action)


def test_a_replayed_script_reaches_the_reference_engines_state():
    for hand, observation, script in played_hands("heuristic", HANDS):
        step = script_step(observation)
        deal = np.array(hand.pack, dtype=np.int8)[None]
        hands, trump, makers, leader, trick, tricks = replay_scripts(deal, script[None], np.array([hand.dealer]), step)
        assert [mask_of(cards) for cards in hand.hands] == hands[0].tolist()
        assert trump[0] == hand.trump
        assert makers[0] == (-1 if hand.maker == NONE else rules.team_of(hand.maker))
        if hand.phase == Phase.PLAYING:
            assert leader[0] == hand.leader
            assert trick[0].tolist() == [*hand.trick, *[-1] * (3 - len(hand.trick))]
            assert tricks[0].tolist() == hand.tricks_won


@pytest.mark.parametrize(
    ("tricks", "team", "makers", "points"),
    [
        (5, 0, 0, 2),
        (4, 0, 0, 1),
        (3, 1, 1, 1),
        (2, 0, 0, -2),  # our team made trump
        (0, 1, 1, -2),
        (3, 0, 1, 2),
        (0, 0, 1, -2),
        (1, 0, 1, -1),  # theirs, or ours as the other team
    ],  # fmt: skip
)
def test_team_points_follow_the_spec(tricks, team, makers, points):
    assert team_points(np.array([tricks]), np.array([team]), np.array([makers]))[0] == points


def test_every_world_honours_the_voids_and_cards_seen():
    """A seat that did not follow suit holds none of it in any world, and no world moves a card seen."""
    search = strategies.get("euchre", "search:samples=16,oversample=2")
    checked = 0
    for hand, observation, script in played_hands("heuristic", HANDS, seed=12):
        if hand.phase != Phase.PLAYING or hand.current_player != 0:
            continue
        worlds = search.worlds(observation)
        step = script_step(observation)
        samples = worlds.deals.shape[1]
        held, *_ = replay_scripts(
            worlds.deals[0], worlds.scripts[0], np.full(samples, hand.dealer), np.repeat(step, samples)
        )
        for seat in range(4):
            void = _revealed_voids(hand, seat)
            assert not (held[:, seat] & void).any(), (hand.hand_id, seat)
        assert (held[:, 0] == mask_of(hand.hands[0])).all()
        seen = np.arange(SCRIPT_STEPS) != DISCARD_STEP  # another dealer's discard differs world to world
        assert (worlds.scripts[0][:, : step[0]] == script[: step[0]])[:, seen[: step[0]]].all()
        checked += 1
    assert checked > 100


def _revealed_voids(hand: Hand, seat: int) -> int:
    """The cards ``seat`` showed it no longer holds by not following suit in the tricks so far."""
    void, leader = 0, rules.left_of(hand.dealer)
    cards = hand.played
    for start in range(0, len(cards) - len(hand.trick), 4):
        trick = cards[start : start + 4]
        led = rules.effective_suit(trick[0], hand.trump)
        for place, card in enumerate(trick):
            if (leader + place) % 4 == seat and rules.effective_suit(card, hand.trump) != led:
                void |= int(rules.SUIT_CARDS[hand.trump, led])
        leader = rules.trick_winner(trick, leader, hand.trump)
    in_trick = hand.trick
    for place, card in enumerate(in_trick[1:], start=1):
        if (leader + place) % 4 == seat and rules.effective_suit(card, hand.trump) != rules.effective_suit(
            in_trick[0], hand.trump
        ):
            void |= int(rules.SUIT_CARDS[hand.trump, rules.effective_suit(in_trick[0], hand.trump)])
    return void


@pytest.mark.parametrize("spec", ["search:samples=8", "search:samples=8,softness=0.2", "search:samples=8,bids=rollout"])
def test_search_chooses_legal_actions_reproducibly(spec):
    first, second = strategies.get("euchre", spec), strategies.get("euchre", spec)
    decisions = 0
    for hand, observation, _ in played_hands("heuristic", 6, seed=13):
        action = int(first.choose(observation)[0])
        assert action in hand.legal_actions()
        assert action == int(second.choose(observation)[0])
        decisions += 1
    assert decisions > 50


def test_search_plays_the_same_in_both_engines():
    """search decides from the observation alone, one decision at a time or a batch at once."""
    report = crosscheck("euchre", rounds=12, seed=31, strategies=["search:samples=16", "heuristic"] * 2, jobs=1)
    assert report.ok, report.format()
