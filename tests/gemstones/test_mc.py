"""Gemstones' Monte-Carlo lookahead: worlds consistent with what the seat saw, decisions that depend
on nothing but themselves, both engines alike, and an oracle that replays the true game."""

import numpy as np
import pytest

import strategies
from sim.crosscheck import crosscheck
from sim.gemstones import fast, rules
from sim.gemstones.engine import State
from sim.gemstones.game import PACKS
from sim.gemstones.observation import NONE, Observation
from strategies.gemstones import mc
from strategies.montecarlo import decision_rng

MC = "mc:samples=4"


def observations(count: int, seed: int) -> Observation:
    """Every decision of ``count`` games of heuristic play on the reference engine, stacked."""
    heuristic = strategies.get("gemstones", "heuristic")
    seen = []
    for game_id, deal in enumerate(PACKS.deals(seed, 0, count)):
        state, _ = State.new(deal, game_id=game_id)
        while not state.is_over:
            seen.append(state.observe().arrays())
            state.apply(int(heuristic.choose(Observation(**seen[-1]))[0]))
    return Observation(**{name: np.concatenate([fields[name] for fields in seen]) for name in seen[0]})


OBSERVED = observations(3, 41)


def test_every_world_deals_the_unseen_cards_as_the_seat_saw_them():
    samples = 5
    worlds = mc.sample_worlds(OBSERVED, [decision_rng(1, row) for row in range(len(OBSERVED))], samples)
    assert (worlds.card_counts() == rules.CARDS_PER_STONE).all()
    seen = OBSERVED.take(np.repeat(np.arange(len(OBSERVED)), samples))
    again = fast.observe(worlds)
    for name, values in seen.arrays().items():  # the seat sees in every world exactly what it saw
        assert np.array_equal(again.arrays()[name], values), name
    opponent = worlds.hands[np.arange(len(seen.seat)), 1 - seen.seat]
    assert ((opponent != NONE).sum(axis=1) == seen.hand_sizes[np.arange(len(seen.seat)), 1 - seen.seat]).all()


def test_unseen_cards_are_spread_evenly_between_the_opponent_and_the_deck():
    row = len(OBSERVED) // 2
    o = OBSERVED.take(np.array([row]))
    samples = 3000
    worlds = mc.sample_worlds(o, [decision_rng(2, 0)], samples)
    opponent = 1 - int(o.seat[0])
    held = worlds.hands[:, opponent]
    unseen = o.unseen_counts(0)
    size = int(o.hand_sizes[0, opponent])
    share = size / unseen.sum()
    for stone in np.flatnonzero(unseen):
        counts = (held == stone).sum(axis=1)
        expected = unseen[stone] * share
        assert abs(counts.mean() - expected) < 5 * np.sqrt(expected / samples) + 0.02, rules.STONES[stone]


def test_a_decision_depends_on_nothing_but_itself():
    player = strategies.get("gemstones", MC)
    rows = np.arange(0, len(OBSERVED), 9)
    together = player.choose(OBSERVED.take(rows))
    alone = [int(player.choose(OBSERVED.take(np.array([row])))[0]) for row in rows[:12]]
    assert together[:12].tolist() == alone
    assert player.choose(OBSERVED.take(rows)).tolist() == together.tolist()
    assert OBSERVED.legal_mask[rows, together].all()


def test_mc_plays_alike_on_both_engines():
    report = crosscheck("gemstones", 1, 7, ("mc:samples=2", "heuristic"))
    assert report.ok, report.format()
    assert report.actions > 100


def test_the_oracle_replays_the_true_game_and_needs_a_truth():
    deals, ids = PACKS.deals(8, 0, 10), np.arange(10)
    oracle = strategies.get("gemstones", "oracle-mc")
    with pytest.raises(RuntimeError, match="bind"):
        oracle.choose(OBSERVED.take(np.arange(3)))
    truth = mc.truth_of(deals[:2], ids[:2])
    oracle.bind(truth)
    heuristic = strategies.get("gemstones", "heuristic")
    coins = fast.play_rounds(deals[:2], truth.watch([oracle, heuristic]), ids[:2]).points
    plain = fast.play_rounds(deals[:2], [heuristic, heuristic], ids[:2]).points
    assert (coins[:, 0] - coins[:, 1]).sum() > (plain[:, 0] - plain[:, 1]).sum()
    # Mid-game, the replayed states are the games themselves, hidden cards and all.
    states = fast.deal(deals, ids)
    for _ in range(60):
        fast.apply(states, heuristic.choose(fast.observe(states)))
    truth = mc.truth_of(deals, ids)
    watched = truth.watch([heuristic])[0]
    replay = fast.deal(deals, ids)
    for _ in range(60):
        fast.apply(replay, watched.choose(fast.observe(replay)))
    rebuilt = truth.states(fast.observe(states))
    for name, values in states.arrays().items():
        if name != "trade":
            assert np.array_equal(getattr(rebuilt, name), values), name
    width = min(rebuilt.trade.shape[1], states.trade.shape[1])
    assert np.array_equal(rebuilt.trade[:, :width], states.trade[:, :width])


def test_a_position_is_worth_its_coins_and_in_a_game_going_on_its_chains_sale():
    deals = PACKS.deals(9, 0, 50)
    heuristic = strategies.get("gemstones", "heuristic")
    going = fast.play_on(fast.deal(deals), [heuristic] * 2, turns=10)
    worth = mc.position_worth(going)
    sale = [
        [
            sum(rules.chain_value(stone, length) for stone, length in zip(stones, lengths) if stone != NONE)
            for stones, lengths in zip(game_stones, game_lengths)
        ]
        for game_stones, game_lengths in zip(going.chain_stones.tolist(), going.chain_lengths.tolist())
    ]
    np.testing.assert_array_equal(worth, going.coins + np.array(sale))
    assert (np.array(sale) > 0).any()
    ended = fast.play_on(going, [heuristic] * 2)
    assert (ended.chain_lengths > 0).any(), "chains left on the table at the end pay nothing"
    np.testing.assert_array_equal(mc.position_worth(ended), ended.coins)
