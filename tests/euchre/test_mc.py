"""Euchre's Monte-Carlo strategies: worlds consistent with what the seat saw, the same play in both
engines and whatever the batch, the oracle kept to the truth it is bound to."""

import numpy as np
import pytest

import strategies
from sim.api import StrategyFault
from sim.crosscheck import crosscheck
from sim.euchre import fast
from sim.euchre.engine import Hand
from sim.euchre.game import PACKS, new_state
from sim.euchre.observation import NONE, PASS, Observation, Phase
from strategies.euchre.mc import (
    FIRST_CARD_STEP,
    OTHER_SIDE_MISMATCH,
    SCRIPT_STEPS,
    UNDEALT,
    UNDEALT_OWNER,
    Worlds,
    build_worlds,
    lineups,
    policy_mismatches,
    script_step,
    truth_of,
    what_is_known,
)
from strategies.montecarlo import decision_rng, draw_slot_cards
from tests.euchre.test_fast import Hashed

SMALL_MC = "mc:samples=4"


def replay(deal, script, step: int, round_id: int) -> Hand:
    """The hand of ``deal`` after the script's actions before ``step`` (its empty places skipped)."""
    hand = new_state(deal, round_id)
    for action in script[:step]:
        if action != NONE:
            hand.apply(int(action))
    return hand


def observations_of_play(hands: int, seed: int) -> list[tuple[Observation, tuple[int, ...], int]]:
    """Every decision of ``hands`` hands played by ``Hashed`` (dealers discarding the upcard, players
    failing to follow suit, every making path): (observation, true deal, round id)."""
    player = Hashed()
    seen = []
    for round_id, deal in enumerate(PACKS.deals(seed, 0, hands)):
        hand = new_state(deal, round_id)
        while not hand.is_over:
            observation = hand.observe()
            seen.append((observation, tuple(int(card) for card in deal), round_id))
            hand.apply(int(player.choose(observation)[0]))
    return seen


def same_observation(first: Observation, second: Observation) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(first.arrays().values(), second.arrays().values()))


def test_every_world_replays_to_the_observation_it_was_drawn_for():
    """Replaying a world's script on its deal is legal throughout and shows the seat exactly what it
    saw: its hand, the bidding, the tricks (voids kept), the discard as dealer."""
    decisions = observations_of_play(hands=80, seed=3)
    for observation, _, round_id in decisions:
        known = what_is_known(observation)
        assert int(known.is_slot.sum()) == int(np.bitwise_count(known.unseen).sum())
        rng = decision_rng(0, round_id, int(script_step(observation)[0]))
        worlds = build_worlds(known, draw_slot_cards(known.unseen, known.slot_void, known.is_slot, [rng], 3))
        for deal, script in zip(worlds.deals[0], worlds.scripts[0]):
            assert sorted(deal.tolist()) == sorted(PACKS.deals(3, 0, 1)[0].tolist())
            world = replay(deal.tolist(), script, int(script_step(observation)[0]), round_id)
            assert same_observation(world.observe(), observation)


def test_unseen_cards_are_spread_evenly_before_anyone_has_played():
    """At the eldest hand's first bid, each of the 18 cards it has not seen is undealt in 3 worlds of 18."""
    observation = new_state(PACKS.deals(5, 0, 1)[0], 0).observe()
    known = what_is_known(observation)
    samples = 9_000
    cards = draw_slot_cards(known.unseen, known.slot_void, known.is_slot, [np.random.default_rng(2)], samples)[0]
    undealt = cards[:, known.slot_owner[0] == UNDEALT_OWNER]
    counts = np.bincount(undealt.ravel(), minlength=52)[np.flatnonzero((int(known.unseen[0]) >> np.arange(52)) & 1)]
    expected = samples * UNDEALT / 18
    assert len(counts) == 18
    assert np.abs(counts - expected).max() < 4.5 * np.sqrt(expected * (1 - UNDEALT / 18))


def test_inference_tells_worlds_apart_and_finds_no_fault_with_the_true_one():
    """With heuristic players all round, the true world has no mismatch; sampled ones mostly do."""
    heuristic = strategies.get("euchre", "heuristic")
    deals = PACKS.deals(8, 0, 6)
    truth = truth_of(deals, np.arange(6))
    witness = truth.watch([heuristic])[0]
    for round_id, deal in enumerate(deals):
        hand = new_state(deal, round_id)
        while not hand.is_over:
            observation = hand.observe()
            hand.apply(int(witness.choose(observation)[0]))
            if (observation.history != NONE).sum() == 13:
                break
        step, seat = script_step(observation), observation.seat.astype(np.int64)
        dealer, scores = observation.dealer.astype(np.int64), observation.scores
        true_world = Worlds(deals[[round_id]][:, None], truth.actions[[round_id]][:, None])
        assert policy_mismatches(true_world, step, seat, dealer, scores, heuristic, heuristic).tolist() == [[0]]
        known = what_is_known(observation)
        rng = decision_rng(0, round_id)
        sampled = build_worlds(known, draw_slot_cards(known.unseen, known.slot_void, known.is_slot, [rng], 32))
        assert policy_mismatches(sampled, step, seat, dealer, scores, heuristic, heuristic).max() > 0


def test_mc_plays_the_same_in_both_engines_and_whatever_the_batch():
    report = crosscheck("euchre", rounds=12, seed=21, strategies=[SMALL_MC, "heuristic", SMALL_MC, "simple"])
    assert report.ok, report.format()


def test_mc_decisions_depend_on_the_seed_alone():
    deals = PACKS.deals(6, 0, 16)
    heuristic = strategies.get("euchre", "heuristic")

    def points() -> np.ndarray:
        mc = strategies.get("euchre", SMALL_MC)
        return fast.play_rounds(deals, [mc, heuristic, mc, heuristic]).points

    assert np.array_equal(points(), points())


def test_oracle_needs_the_truth_and_every_action_of_it():
    deals = PACKS.deals(8, 0, 6)
    heuristic = strategies.get("euchre", "heuristic")
    oracle = strategies.get("euchre", "oracle-mc")
    with pytest.raises(StrategyFault, match="raised RuntimeError: .*bind"):
        fast.play_rounds(deals, [oracle, heuristic, heuristic, heuristic])
    truth = truth_of(deals, np.arange(6))
    oracle.bind(truth)
    with pytest.raises(StrategyFault, match="raised RuntimeError: .*missed actions"):
        fast.play_rounds(deals, [truth.watch([oracle])[0], heuristic, heuristic, heuristic])


def test_the_oracle_wins_more_points_than_heuristic_with_the_same_cards():
    deals = PACKS.deals(9, 0, 300)
    ids = np.arange(300)
    heuristic = strategies.get("euchre", "heuristic")
    oracle = strategies.get("euchre", "oracle-mc")
    truth = truth_of(deals, ids)
    oracle.bind(truth)
    with_oracle = fast.play_rounds(deals, truth.watch([oracle, heuristic, oracle, heuristic]), ids).points
    without = fast.play_rounds(deals, [heuristic] * 4, ids).points
    gain = (with_oracle[:, 0] - with_oracle[:, 1]) - (without[:, 0] - without[:, 1])
    assert gain.mean() - 3 * gain.std() / np.sqrt(len(gain)) > 0


def test_registry_lists_mc_and_marks_the_oracle_as_cheating():
    listed = {info.name: info for info in strategies.available("euchre")}
    assert listed["mc"].parameters == {
        "samples": 256,
        "rollout": "heuristic",
        "team_rollout": "heuristic:threshold=6",
        "seed": 0,
        "confidence": 1.5,
        "oversample": 8,
        "leaves": "",
        "leaves_sha256": "",
        "leaf_turns": 1,
    }
    assert strategies.info("euchre", "best").name == "search"  # docs/search.md
    assert listed["oracle-mc"].cheating and listed["oracle-mc"].description.startswith("CHEATS:")
    assert not listed["mc"].cheating


class Recording:
    """A strategy that records the seats it is asked to play, and plays heuristic."""

    name = "recording"

    def __init__(self):
        self.heuristic = strategies.get("euchre", "heuristic")
        self.seats = []
        self.round_ids = []
        self.phases = []

    def choose(self, observation):
        self.seats.extend(observation.seat.tolist())
        self.round_ids.extend(observation.round_id.tolist())
        self.phases.extend(observation.phase.tolist())
        return self.heuristic.choose(observation)


def test_rollouts_play_the_deciding_partnership_with_the_team_policy_and_the_other_with_the_rollout_policy():
    """After the decision (here each hand's first bid, by the seat left of the dealer), the deciding
    seat's partnership is played by team_policy and the other by policy, never the other way round."""
    count = 64
    deals = PACKS.deals(5, 0, count)
    dealers = np.arange(count) % 4
    scripts = np.full((count, SCRIPT_STEPS), NONE, dtype=np.int8)
    deciders = (dealers + 1) % 4
    scripts[:, 0] = PASS
    policy, team_policy = Recording(), Recording()
    for rows, lineup in lineups(deciders, policy, team_policy):
        fast.play_rounds(
            deals[rows],
            lineup,
            4 * rows + dealers[rows],
            script=scripts[rows],
            script_length=np.ones(rows.size, np.int64),
        )
    for recorder, ours in ((team_policy, True), (policy, False)):
        assert recorder.seats
        decider = deciders[np.array(recorder.round_ids) // 4]
        assert np.all((((np.array(recorder.seats) ^ decider) & 1) == 0) == ours)


def checked_heuristic_hands(seed, deciders, decision_step, policy, team_policy) -> np.ndarray:
    """The inference's verdict (mismatches) on hands of ``seed`` that heuristic played in every seat,
    hand ``i`` dealt by seat ``i % 4`` and decided by ``deciders[i]`` at ``decision_step``."""
    count = len(deciders)
    deals = PACKS.deals(seed, 0, count)
    heuristic = strategies.get("euchre", "heuristic")
    truth = truth_of(deals, np.arange(count))
    fast.play_rounds(deals, truth.watch([heuristic] * 4), np.arange(count))
    worlds = Worlds(deals[:, None], truth.actions[:, None])
    dealers, scores = np.arange(count) % 4, np.zeros((count, 2), np.int64)
    steps = np.full(count, decision_step)
    return policy_mismatches(worlds, steps, deciders, dealers, scores, policy, team_policy)[:, 0]


def test_inference_judges_the_other_side_by_policy_and_only_the_partners_bids_by_team_policy():
    """Replaying true hands to the middle of the third trick, the other partnership's bids and cards
    are judged by policy, the partner's bids by team_policy, and its cards (a lookahead's) not at all."""
    count = 64
    deciders = (np.arange(count) + 2) % 4  # the dealer's partner
    policy, team_policy = Recording(), Recording()
    mismatches = checked_heuristic_hands(12, deciders, FIRST_CARD_STEP + 10, policy, team_policy)
    assert mismatches.tolist() == [0] * count  # heuristic played every seat, as both models
    partner = (deciders + 2) % 4
    seats, hands = np.array(policy.seats), np.array(policy.round_ids) // 4
    assert np.all((seats ^ deciders[hands]) & 1 == 1)
    assert {Phase.MAKING, Phase.PLAYING} <= set(policy.phases)
    seats, hands = np.array(team_policy.seats), np.array(team_policy.round_ids) // 4
    assert len(seats) and np.array_equal(seats, partner[hands])
    assert set(team_policy.phases) == {Phase.MAKING}


class Contrary:
    """A model that never takes the action taken (every action it judges is a mismatch), counting
    the actions it is asked about per rollout hand."""

    name = "contrary"

    def __init__(self, hands: int):
        self.asked = np.zeros(hands, dtype=np.int64)

    def choose(self, observation):
        np.add.at(self.asked, observation.round_id // 4, 1)
        return np.full(len(observation), -1)


def test_inference_weighs_each_mismatch_of_the_other_side_above_all_of_the_partners_bids():
    """Judged by models that contradict every action, a hand scores OTHER_SIDE_MISMATCH for each action
    of the other partnership before the decision and 1 for each bid of the partner, so one mismatch
    of the other side outweighs all of the partner's (at most two) bids."""
    count = 64
    deciders = (np.arange(count) + 1) % 4  # the dealer's left
    other_side, partner = Contrary(count), Contrary(count)
    mismatches = checked_heuristic_hands(13, deciders, FIRST_CARD_STEP + 6, other_side, partner)
    assert other_side.asked.min() > 0 and partner.asked.max() > 0
    assert partner.asked.max() <= 2 < OTHER_SIDE_MISMATCH
    assert np.array_equal(mismatches, OTHER_SIDE_MISMATCH * other_side.asked + partner.asked)
