"""Gin Rummy's Monte-Carlo lookahead: worlds consistent with what the seat saw, evenly spread,
decisions that depend on nothing but themselves, both engines alike, and an oracle that sees the
true hands."""

import numpy as np
import pytest

import strategies
from sim.api import StrategyFault
from sim.cards import ALL_CARDS_MASK, NUM_CARDS, mask_of
from sim.crosscheck import crosscheck
from sim.ginrummy import fast, rules
from sim.ginrummy.game import GAME, new_state
from sim.ginrummy.observation import Observation
from strategies.ginrummy import mc
from strategies.montecarlo import decision_rng, likeliest_worlds


def observations(count: int, seed: int) -> Observation:
    """Observations from hands of heuristic play on the reference engine, every decision of them."""
    heuristic = strategies.get("ginrummy", "heuristic")
    seen = []
    for row, deal in enumerate(GAME.deals(seed, 0, count)):
        state = new_state(deal, row)
        while not state.is_over:
            seen.append(state.observe())
            state.apply(int(heuristic.choose(seen[-1])[0]))
    return Observation(**{name: np.concatenate([o.arrays()[name] for o in seen]) for name in seen[0].arrays()})


OBSERVED = observations(6, 31)


def test_every_world_deals_the_unseen_cards_as_the_seat_saw_them():
    samples = 8
    worlds = mc.sample_worlds(OBSERVED, [decision_rng(1, row) for row in range(len(OBSERVED))], samples)
    for row in range(len(OBSERVED)):
        o = OBSERVED.take(np.array([row]))
        size = int(o.stock_size[0])
        for world in range(samples):
            opponent = int(worlds.opponent[row, world])
            stock = worlds.stock[row, world, NUM_CARDS - size :].tolist()
            assert bin(opponent).count("1") == rules.HAND_SIZE
            assert opponent & int(o.opponent_took[0]) == int(o.opponent_took[0])
            assert len(set(stock)) == size
            everything = int(o.hand[0]) | int(o.discard_pile[0]) | opponent | mask_of(stock)
            assert everything == ALL_CARDS_MASK
            assert bin(opponent & (int(o.hand[0]) | int(o.discard_pile[0]))).count("1") == 0


def test_unseen_cards_are_spread_evenly_between_the_opponent_and_the_stock():
    o = OBSERVED.take(np.array([len(OBSERVED) // 2]))
    samples = 4000
    worlds = mc.sample_worlds(o, [decision_rng(2, 0)], samples)
    unseen = [card for card in range(NUM_CARDS) if int(mc.unseen_cards(o)[0]) >> card & 1]
    held = (worlds.opponent[0][:, None] >> np.array(unseen)) & 1
    share = (rules.HAND_SIZE - bin(int(o.opponent_took[0])).count("1")) / len(unseen)
    counts = held.sum(axis=0)
    expected = samples * share
    assert np.abs(counts - expected).max() < 5 * np.sqrt(expected * (1 - share))  # each card within 5 sigma
    chi_square = (((counts - expected) ** 2) / (expected * (1 - share))).sum()
    assert chi_square < len(unseen) + 5 * np.sqrt(2 * len(unseen))


def test_a_decision_depends_on_nothing_but_itself():
    player = strategies.get("ginrummy", "mc:samples=4,oversample=2")
    rows = np.arange(0, len(OBSERVED), 7)
    together = player.choose(OBSERVED.take(rows))
    alone = [int(player.choose(OBSERVED.take(np.array([row])))[0]) for row in rows]
    assert together.tolist() == alone
    assert np.all(OBSERVED.legal[rows, together])


def test_inference_keeps_the_worlds_where_the_opponent_threw_as_the_policy_would():
    heuristic = strategies.get("ginrummy", "heuristic")
    o = OBSERVED.take(np.arange(3, len(OBSERVED), 5))
    worlds = mc.sample_worlds(o, [decision_rng(3, row) for row in range(len(o))], 6)
    mismatches = mc.throw_mismatches(o, worlds.opponent, heuristic)
    last = mc.last_throws(o)
    assert not mismatches[last < 0].any()  # nothing to judge before the opponent's first throw
    assert mismatches.any() and not mismatches.all()


def test_inference_in_rounds_keeps_the_worlds_of_judging_every_draw_at_once():
    player = strategies.get("ginrummy", "mc:samples=6,oversample=16")
    o = OBSERVED.take(np.arange(0, len(OBSERVED), 3))
    drawn = player.worlds_per_decision * player.oversample
    keys = mc.draw_keys(o, [decision_rng(0, *key) for key in mc.decision_keys(o)], drawn)
    judged = mc.throw_mismatches(o, mc.opponent_hands(o, keys), player.policy)
    kept = likeliest_worlds(judged, player.worlds_per_decision)
    expected = np.take_along_axis(keys, kept[:, :, None], axis=1)
    rngs = [decision_rng(0, *key) for key in mc.decision_keys(o)]
    assert np.array_equal(player.likeliest_keys(o, rngs), expected)
    assert judged.all(axis=1).any() and (~judged).sum(axis=1).max() > player.worlds_per_decision  # both ends


def test_both_engines_play_mc_alike():
    report = crosscheck("ginrummy", rounds=12, seed=32, strategies=["mc:samples=4,oversample=2", "heuristic"])
    assert report.ok, report.format()


def test_the_oracle_sees_the_true_hands_and_beats_the_heuristic():
    deals, ids = GAME.deals(33, 0, 60), np.arange(60)
    oracle, heuristic = strategies.get("ginrummy", "oracle-mc"), strategies.get("ginrummy", "heuristic")
    with pytest.raises(StrategyFault, match="raised RuntimeError: .*bind"):
        fast.play_rounds(deals[:2], [oracle, heuristic], ids[:2])
    truth = mc.truth_of(deals, ids)
    oracle.bind(truth)

    class TrueHands:
        """Checks, on the reference engine, that the truth knows each opponent's hand."""

        def __init__(self):
            self.state = None

        def choose(self, observation):
            assert truth.opponent_hands(observation).tolist() == [self.state.hands[1 - self.state.turn]]
            return oracle.choose(observation)

    checker = TrueHands()
    seats = truth.watch([checker, heuristic])
    for row in range(10):
        checker.state = new_state(deals[row], row)
        while not checker.state.is_over:
            checker.state.apply(int(seats[checker.state.turn].choose(checker.state.observe())[0]))
    truth = mc.truth_of(deals, ids)
    oracle.bind(truth)
    points = fast.play_rounds(deals, truth.watch([oracle, heuristic]), ids).points.sum(axis=0)
    assert points[0] > 2 * points[1]


def test_play_from_a_hand_in_progress_ends_as_the_reference_does():
    simple = strategies.get("ginrummy", "simple")
    rng = np.random.default_rng(34)
    states, expected = [], []
    for row, deal in enumerate(GAME.deals(34, 0, 120)):
        state = new_state(deal, row)
        for _ in range(int(rng.integers(0, 30))):
            if not state.is_over:
                state.apply(int(simple.choose(state.observe())[0]))
        if not state.is_over:
            states.append(state.clone())
            while not state.is_over:
                state.apply(int(simple.choose(state.observe())[0]))
            expected.append(state.points())
    stock, pile = np.zeros((len(states), NUM_CARDS), np.int8), np.zeros((len(states), NUM_CARDS), np.int8)
    for row, state in enumerate(states):
        stock[row, NUM_CARDS - len(state.stock) :] = state.stock[::-1]  # the reference draws from the end
        pile[row, : len(state.pile)] = state.pile
    resumed = fast.HandStates(
        dealer=np.array([s.dealer for s in states]),
        mover=np.array([s.turn for s in states]),
        phase=np.array([int(s.phase) for s in states]),
        hands=np.array([s.hands for s in states]),
        stock=stock,
        stock_size=np.array([len(s.stock) for s in states]),
        pile=pile,
        pile_size=np.array([len(s.pile) for s in states]),
        took=np.array([s.took for s in states]),
        threw=np.array([s.threw for s in states]),
        taken=np.array([s.taken for s in states]),
        round_id=np.array([s.hand_id for s in states]),
        scores=np.array([s.scores for s in states]),
    )
    assert len({(int(s.turn != s.dealer), int(s.phase)) for s in states}) == 4  # every kind of position
    assert fast.play_from(resumed, [simple, simple]).points.tolist() == [list(p) for p in expected]
