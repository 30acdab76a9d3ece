"""The Monte-Carlo strategies: determinism, both engines alike, consistent worlds, hidden cards unseen,
the cheating oracle kept apart, and the registry's view of them all."""

from types import SimpleNamespace

import numpy as np
import pytest

import strategies
from sim.api import StrategyFault
from sim.crosscheck import crosscheck
from sim.play import play_out
from sim.straights import rules
from sim.straights.engine import IllegalAction, Round
from sim.straights.fast import play_rounds
from sim.straights.game import PACKS, new_state
from sim.straights.observation import FIELDS, Observation
from strategies.montecarlo import (
    Rollouts,
    Truth,
    best_candidates,
    decision_rng,
    draw_slot_cards,
    fill_slots,
    likeliest_worlds,
)
from strategies.straights.mc import SLOTS, build_worlds, truth_of, what_is_known, win_chances

SMALL_MC = "mc:samples=4"


class RandomLegal:
    """Plays a uniformly random legal action (discards a random card when stuck): many discards, many voids."""

    name = "random-legal"

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def choose(self, observation: Observation) -> np.ndarray:
        options = np.where(observation.legal != 0, observation.legal, observation.held)
        allowed = (options[:, None] >> np.arange(rules.HAND_SIZE)) & 1
        pick = np.argmax(self.rng.random(allowed.shape) * allowed, axis=1)
        return np.asarray(observation.hand)[np.arange(len(observation)), pick].astype(np.int64)


def same_observation(a: Observation, b: Observation) -> bool:
    return all(np.array_equal(np.asarray(getattr(a, name)), np.asarray(getattr(b, name))) for name in FIELDS)


def replay(deck, actions, round_id: int) -> Round:
    """A round of ``deck`` after ``actions``; IllegalAction if one of them breaks the rules."""
    current = Round(tuple(int(card) for card in deck), round_id=round_id)
    for card in actions:
        current.apply(int(card))
    return current


def observed_states(count: int, seed: int):
    """(deck, actions so far, round id) at every step of ``count`` rounds played by random-legal players."""
    player = RandomLegal(seed)
    for round_id, deck in enumerate(PACKS.deals(seed, 0, count)):
        current = Round(tuple(int(card) for card in deck), round_id=round_id)
        while not current.is_over:
            yield current.deck, tuple(current.actions), round_id
            current.apply(int(player.choose(current.observe())[0]))


# --- determinism and the two engines ---------------------------------------------------------------


def test_mc_is_deterministic_given_its_seed():
    dealt = PACKS.deals(31, 0, 40)
    heuristic = strategies.get("straights", "heuristic")

    def actions(spec: str) -> np.ndarray:
        mc = strategies.get("straights", spec)
        return play_rounds(dealt, [mc, heuristic, mc, heuristic], trace=True).actions

    first = actions(SMALL_MC)
    np.random.seed(12345)  # stirring the global generator changes nothing
    np.random.random(1000)
    assert np.array_equal(first, actions(SMALL_MC))
    assert not np.array_equal(first, actions(SMALL_MC + ",seed=1")), "another seed, other worlds, other moves"


def test_mc_plays_the_same_in_both_engines_on_200_deals():
    # The reference engine asks one decision at a time, the fast engine hundreds at once: each
    # decision's worlds come from its own generator, so the batch makes no difference.
    report = crosscheck("straights", rounds=200, seed=7, strategies=[SMALL_MC, "heuristic", "heuristic", "heuristic"])
    assert report.ok, report.format()


def test_oracle_plays_the_same_in_both_engines_when_watching_every_seat():
    dealt = PACKS.deals(8, 0, 30)
    round_ids = np.arange(100, 130)
    heuristic = strategies.get("straights", "heuristic")

    def watched() -> tuple[Truth, list]:
        oracle = strategies.get("straights", "oracle-mc")
        truth = truth_of(dealt, round_ids)
        oracle.bind(truth)
        return truth, truth.watch([oracle, heuristic, oracle, heuristic])

    _, seats = watched()
    fast = play_rounds(dealt, seats, round_ids, trace=True).actions
    _, seats = watched()
    for row, deck in enumerate(dealt):
        reference = play_out(new_state(deck, int(round_ids[row])), seats)
        assert list(reference.actions) == fast[row].tolist()


def test_oracle_refuses_to_play_without_the_truth():
    oracle = strategies.get("straights", "oracle-mc")
    heuristic = strategies.get("straights", "heuristic")
    with pytest.raises(StrategyFault, match="raised RuntimeError: .*bind"):
        play_rounds(PACKS.deals(8, 0, 4), [oracle, heuristic, heuristic, heuristic])
    truth = truth_of(PACKS.deals(8, 0, 4), np.arange(4))
    oracle.bind(truth)
    with pytest.raises(StrategyFault, match="raised RuntimeError: .*watch"):  # bound, the others' actions unrecorded
        play_rounds(PACKS.deals(8, 0, 4), [truth.watch([oracle])[0], heuristic, heuristic, heuristic])


# --- the sampler --------------------------------------------------------------------------------------


def test_every_sampled_world_replays_legally_to_the_same_observation():
    # OpenSpiel's test for a resampler: the player cannot tell a sampled world from the real one.
    # Replaying checks the rest: Round.apply refuses a discard by a seat holding a playable card, so
    # each opponent's sampled hand honours the voids its discards revealed.
    worlds_checked = 0
    for deck, actions, round_id in observed_states(30, seed=3):
        truth = replay(deck, actions, round_id)
        observation = truth.observe()
        known = what_is_known(observation)
        rng = decision_rng(0, round_id, truth.step, truth.current_player)
        worlds = build_worlds(known, draw_slot_cards(known.unseen, known.slot_void, known.is_slot, [rng], 4))
        for deal, script in zip(worlds.deals[0], worlds.scripts[0]):
            assert sorted(deal.tolist()) == list(range(52))
            world = replay(deal, script[: truth.step], round_id)
            assert same_observation(world.observe(), observation)
            worlds_checked += 1
    assert worlds_checked == 30 * 52 * 4


def test_sampled_cards_stay_out_of_every_revealed_void():
    # Direct check of the slots: no opponent is given a card it was void in while holding it.
    for deck, actions, round_id in list(observed_states(10, seed=4))[::7]:
        observation = replay(deck, actions, round_id).observe()
        known = what_is_known(observation)
        cards = draw_slot_cards(known.unseen, known.slot_void, known.is_slot, [decision_rng(0, round_id)], 16)
        assert np.array_equal(cards >= 0, np.broadcast_to(known.is_slot[:, None], cards.shape))
        dealt = np.where(cards >= 0, np.left_shift(1, np.maximum(cards, 0)), 0)
        assert not (dealt & known.slot_void[:, None, :]).any()
        assert (np.bitwise_or.reduce(dealt, axis=2) == known.unseen[:, None]).all()


def test_the_sampler_draws_again_when_filling_slots_greedily_gets_stuck():
    # Cards 1..6; three opponents hold two each and are void in {5, 6}, {1, 2} and {3, 4}. Filling
    # slot after slot can strand the last seat with cards it is void in, e.g. 1 and 3 to the first,
    # 5 and 6 to the second, leaving 2 and 4 for a seat void in 3 and 4.
    pool = sum(1 << card for card in range(1, 7))
    voids = [sum(1 << card for card in pair) for pair in ((5, 6), (5, 6), (1, 2), (1, 2), (3, 4), (3, 4))]
    slot_void = np.zeros((1, SLOTS), dtype=np.int64)
    slot_void[0, :6] = voids
    is_slot = np.zeros((1, SLOTS), dtype=bool)
    is_slot[0, :6] = True
    known = SimpleNamespace(unseen=np.array([pool]), slot_void=slot_void, is_slot=is_slot)

    uniform = np.random.default_rng(0).random((200, SLOTS))
    _, filled = fill_slots(
        np.repeat(known.unseen, 200), np.repeat(slot_void, 200, 0), np.repeat(is_slot, 200, 0), uniform
    )
    assert not filled.all(), "the case should strand the greedy fill now and then"
    cards = draw_slot_cards(known.unseen, known.slot_void, known.is_slot, [np.random.default_rng(1)], 200)[0, :, :6]
    assert (np.sort(cards, axis=1) == np.arange(1, 7)).all()
    assert not (np.left_shift(1, cards) & np.array(voids)).any()


# --- hidden information -------------------------------------------------------------------------------


def scrambled(deck, actions, seat: int, rng: np.random.Generator, swaps: int = 40):
    """Another deck and action log the player in ``seat`` cannot tell from these.

    Swaps two unplayed cards of two opponents (in the deck and, for discards, in the log), keeping
    each swap whose replay is legal and shows the player the same: the other seats' hidden cards
    change, everything seen stays. (A swap can turn a discard into a legal play: that one is dropped.)
    """
    deck, actions = list(deck), list(actions)
    truth = replay(deck, actions, 0)
    table = truth.table
    seen = truth.observe()
    for _ in range(swaps):
        first, second = rng.choice([s for s in range(rules.NUM_PLAYERS) if s != seat], 2, replace=False)
        unplayed = [[i for i in range(s * 13, s * 13 + 13) if not table >> deck[i] & 1] for s in (first, second)]
        if not unplayed[0] or not unplayed[1]:
            continue
        i, j = rng.choice(unplayed[0]), rng.choice(unplayed[1])
        new_deck = list(deck)
        new_deck[i], new_deck[j] = deck[j], deck[i]
        renamed = {deck[i]: deck[j], deck[j]: deck[i]}
        new_actions = [renamed.get(card, card) for card in actions]
        try:
            if not same_observation(replay(new_deck, new_actions, 0).observe(), seen):
                continue
        except IllegalAction:
            continue
        deck, actions = new_deck, new_actions
    return deck, actions


@pytest.mark.parametrize("spec", ["mc", "heuristic", "first-legal"])
def test_decisions_do_not_depend_on_the_hidden_cards(spec):
    rng = np.random.default_rng(5)
    states = list(observed_states(12, seed=6))
    changed = 0
    for index in rng.choice(len(states), 40, replace=False):
        deck, actions, round_id = states[index]
        real = replay(deck, actions, round_id)
        if len(real.legal_actions()) < 2:
            continue
        other_deck, other_actions = scrambled(deck, actions, real.current_player, rng)
        changed += other_deck != list(deck)
        other = replay(other_deck, other_actions, round_id)
        assert same_observation(other.observe(), real.observe())
        player = strategies.get("straights", spec)
        assert player.choose(other.observe())[0] == player.choose(real.observe())[0]
    assert changed >= 10, "the scrambles should really move hidden cards"


# --- the lookahead's bookkeeping ------------------------------------------------------------------------


def test_the_best_candidate_must_beat_the_policy_choice_clearly():
    # Three decisions, three candidates, four worlds each; the rollout policy prefers candidate 0.
    # Decision 0: candidate 2 gains 1 point in every world (no noise: it wins). Decision 1:
    # candidate 1 gains on average but unsteadily (under 1 standard error): candidate 0 stays.
    # Decision 2: candidates 0 and 2 tie for best: the preferred one stays.
    candidates = np.ones((3, 3), dtype=bool)
    values = np.array(
        [
            [[0, 0, 0, 0], [-5, -5, -5, -5], [1, 1, 1, 1]],
            [[0, 0, 0, 0], [9, -8, 1, -1], [-1, -1, -1, -1]],
            [[1, 1, 1, 1], [0, 0, 0, 0], [1, 1, 1, 1]],
        ]
    )
    decision, candidate, world = np.indices(values.shape).reshape(3, -1)
    rollouts = Rollouts(decision, candidate, world)

    def chosen(preferred, confidence):
        return best_candidates(candidates, rollouts, values.ravel(), np.array(preferred), confidence).tolist()

    assert chosen([0, 0, 0], confidence=1.0) == [2, 0, 0]
    assert chosen([0, 0, 0], confidence=0.0) == [2, 1, 0]  # with no confidence asked, any gain wins
    assert chosen([1, 1, 2], confidence=0.0) == [2, 1, 2]  # ties: the preferred if best, else the lowest
    assert chosen([1, 2, 1], confidence=0.0) == [2, 1, 0]


def test_inference_keeps_the_worlds_with_fewest_contradictions_first_drawn_first():
    counts = np.array([[2, 0, 1, 0, 3, 0], [1, 1, 1, 1, 1, 1]])
    assert likeliest_worlds(counts, 4).tolist() == [[1, 3, 5, 2], [0, 1, 2, 3]]
    assert likeliest_worlds(counts > 0, 4).tolist() == [[1, 3, 5, 0], [0, 1, 2, 3]]


def test_win_chances_reward_lower_scores_and_settle_finished_games():
    scores = np.array([[10, 20, 20, 20], [30, 20, 20, 20], [70, 85, 70, 90], [75, 81, 75, 75]])
    chances = win_chances(scores, np.array([0, 0, 0, 0]))
    assert chances[0] > chances[1]
    assert chances[2] == pytest.approx(0.5)  # game over, tied for lowest with seat 2
    assert chances[3] == pytest.approx(1 / 3)


# --- the registry ---------------------------------------------------------------------------------------


def test_registry_lists_the_lookahead_strategies_with_descriptions_and_settings():
    listed = {info.name: info for info in strategies.available("straights")}
    assert {"mc", "oracle-mc"} <= set(listed)
    assert listed["mc"].description and not listed["mc"].cheating and listed["mc"].deterministic
    assert listed["mc"].parameters == {
        "samples": 32,
        "rollout": "heuristic",
        "seed": 0,
        "objective": "margin",
        "confidence": 1.0,
        "leaves": "",
        "leaves_sha256": "",
        "leaf_turns": 1,
    }
    assert listed["oracle-mc"].parameters == {"rollout": "heuristic", "objective": "margin"}
    built = strategies.get("straights", "mc:samples=8,objective=points,confidence=0")
    assert (built.worlds_per_decision, built.objective, built.confidence) == (8, "points", 0.0)
    with pytest.raises(strategies.StrategyError, match="objective"):
        strategies.get("straights", "mc:objective=fewest")


def test_oracle_is_marked_cheating_and_best_is_not_the_oracle():
    oracle = strategies.info("straights", "oracle-mc")
    assert oracle.cheating and oracle.description.startswith("CHEATS:")
    best = strategies.info("straights", "best")
    assert best.name == "learned" and not best.cheating  # docs/search.md
