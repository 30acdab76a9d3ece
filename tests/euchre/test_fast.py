"""The compiled Euchre engine: the same moves, observations and points as the reference engine,
and the rules' invariants over every hand it plays."""

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from sim import games, lockstep
from sim.api import CompiledPolicy, StrategyFault
from sim.crosscheck import crosscheck
from sim.euchre import fast, policies, rules
from sim.euchre.game import GAME
from sim.euchre.observation import BIDS, DISCARD_STEP, FIRST_CARD_STEP, NONE, PASS, POLICY, choose_compiled
from sim.euchre.policies.simple import simple as simple_policy
from tests.keeper import Keeper


class Hashed:
    """Legal actions that look random but are a function of the observation alone, so both engines,
    shown the same observation, choose the same: it reaches what Simple and heuristic never do
    (a dealer discarding the upcard, reneging chances, every making path)."""

    name = "hashed"

    def choose(self, observation):
        key = (
            observation.round_id * 1_000_003
            + (observation.bids + 2).sum(axis=1) * 7919
            + (observation.history + 2).sum(axis=1) * 104_729
            + observation.seat * 31
            + observation.hand % 65_521
            + observation.phase * 13
        ) % (1 << 31)
        masks = observation.legal_mask
        return np.array([np.flatnonzero(mask)[int(k) % int(mask.sum())] for mask, k in zip(masks, key)])


@pytest.mark.parametrize(
    ("lineup", "hands"),
    [
        (("heuristic", "simple", "heuristic", "simple"), 5_000),  # every deterministic strategy, both teams
        (("simple", "heuristic", "simple", "heuristic"), 2_000),
    ],
)
def test_both_engines_make_the_same_moves_see_the_same_and_score_the_same(lineup, hands):
    report = crosscheck("euchre", rounds=hands, seed=11, strategies=lineup, jobs=2)
    assert report.ok, report.format()
    assert report.rounds == hands


def test_random_play_agrees_move_for_move():
    player = Hashed()
    report = crosscheck("euchre", rounds=2_000, seed=12, strategies=[player] * 4)
    assert report.ok, report.format()


@pytest.mark.parametrize("lineup", [("simple",) * 4, ("heuristic", "simple", "heuristic", "simple")])
def test_whole_games_agree_with_the_reference_engine(lineup):
    players = [strategies.get("euchre", name) for name in lineup]
    deal_source = games.game_deal_source(GAME, 13)
    ids = np.arange(150)
    fast_games = GAME.play_games["fast"](ids, deal_source, players)
    reference = GAME.play_games["reference"](ids, deal_source, players)
    assert np.array_equal(fast_games.scores, reference.scores)
    assert np.array_equal(fast_games.rounds, reference.rounds)
    assert np.array_equal(fast_games.winners, reference.winners)
    assert (fast_games.winners.sum(axis=1) == 2).all()  # one partnership wins each game
    assert (fast_games.scores[fast_games.winners] >= rules.DEFAULT_POINTS_TO_WIN).all()


class InPython:
    """A strategy's ``choose`` alone, so the engine asks it in Python rather than calling its compiled policy."""

    def __init__(self, strategy):
        self.strategy = strategy
        self.name = f"{strategy} in Python"

    def choose(self, observation):
        return self.strategy.choose(observation)


@pytest.mark.parametrize("spec", ["simple", "heuristic", "heuristic:threshold=5,ace_stands=true"])
def test_a_compiled_policy_plays_alike_in_the_kernel_and_through_its_choose(spec):
    strategy = strategies.get("euchre", spec)
    deals = GAME.deals(14, 0, 3000)
    ids = np.arange(len(deals)) * 7
    compiled = fast.play_rounds(deals, [strategy] * 4, ids, trace=True)
    in_python = fast.play_rounds(deals, [InPython(strategy)] * 4, ids, trace=True)
    assert np.array_equal(compiled.actions, in_python.actions)
    assert np.array_equal(compiled.points, in_python.points)


def test_tournaments_default_to_the_fast_engine():
    assert games.default_engine(GAME) == "fast" and games.default_engine(GAME, whole_games=True) == "fast"


def finished_hands(deals, players):
    """The engine's record of these hands played to their end (one block, the general kernel)."""
    count = len(deals)
    ids, scores = np.arange(count), np.zeros((count, 2), np.int64)
    script, script_length = np.empty((count, fast.SCRIPT_STEPS), np.int8), np.zeros(count, np.int64)
    block = fast._Block(np.asarray(deals, dtype=np.int8), ids, scores, script, script_length)
    block.play(lockstep.CompiledSeats(players, POLICY, fast._never_called, policies.BUILT_IN))
    return block


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(["random", "simple", "heuristic"]))
def test_every_hand_keeps_the_rules(seed, lineup):
    deals = GAME.deals(seed, 0, 64)
    players = [Hashed()] * 4 if lineup == "random" else [strategies.get("euchre", lineup)] * 4
    hands = finished_hands(deals, players)
    assert np.array_equal(hands.points, fast.play_rounds(deals, players).points)  # as one kernel call plays them
    pack = set(rules.NEW_PACK)
    for row, deal in enumerate(deals.tolist()):
        played = hands.actions[row, FIRST_CARD_STEP:].tolist()
        discard = int(hands.actions[row, DISCARD_STEP])
        assert NONE not in played and len(set(played)) == rules.NUM_PLAYERS * rules.TRICKS_PER_HAND
        picked_up = discard != NONE
        # 24 cards conserved: played, thrown away by the dealer, or never dealt (the upcard unless taken).
        never_dealt = set(deal[rules.UPCARD_POSITION :]) - ({deal[rules.UPCARD_POSITION]} if picked_up else set())
        thrown = {discard} if picked_up else set()
        assert sorted(played + sorted(thrown) + sorted(never_dealt)) == sorted(pack)
        assert (hands.holdings[row] == 0).all()
        assert hands.tricks_won[row].sum() == rules.TRICKS_PER_HAND  # one winner per trick, five tricks
        bids = [bid for bid in hands.actions[row, :BIDS].tolist() if bid != NONE]
        assert bids[-1] != PASS and all(bid == PASS for bid in bids[:-1])  # made once, by the last bidder
        winners, points, _ = rules.hand_points(hands.tricks_won[row], rules.team_of(int(hands.maker[row])))
        assert all(hands.points[row, seat] == (points if rules.team_of(seat) == winners else 0) for seat in range(4))


def test_an_illegal_choice_names_the_strategy_and_is_never_a_result():
    class PassesAlways:
        name = "passes-always"

        def choose(self, observation):
            return np.full(len(observation), PASS)

    with pytest.raises(StrategyFault, match="'passes-always' chose action 56, which is not legal there"):
        fast.play_rounds(GAME.deals(1, 0, 50), [PassesAlways()] * 4)


def test_an_action_out_of_range_is_illegal():
    class Wild:
        name = "wild"

        def choose(self, observation):
            return np.full(len(observation), 99)

    with pytest.raises(StrategyFault, match="'wild' chose action 99"):
        fast.play_rounds(GAME.deals(1, 0, 5), [Wild()] * 4)


def test_a_compiled_policy_choosing_an_illegal_action_is_named():
    strategy = strategies.get("euchre", "heuristic")
    deals = GAME.deals(1, 0, 20)
    script = np.full((len(deals), fast.SCRIPT_STEPS), NONE, dtype=np.int8)
    script[:, 0] = 13  # a card, not a bid
    with pytest.raises(StrategyFault, match="'heuristic' chose action 13, which is not legal there"):
        fast.play_rounds(deals, [strategy] * 4, script=script, script_length=np.ones(len(deals), dtype=np.int64))


@pytest.mark.parametrize("strategies_apart", [False, True])
def test_observations_are_read_only_and_stay_as_shown(strategies_apart):
    players = [Keeper("euchre"), Keeper("euchre")] * 2 if strategies_apart else [Keeper("euchre")] * 4
    deals = GAME.deals(5, 0, 300)
    fast.play_rounds(deals, players)
    fast.play_rounds(GAME.deals(6, 0, 300), players)  # the engine reuses its arrays from call to call
    for player in players:
        assert len(player.kept) > 20
        for observation, shown in player.kept[: len(player.kept) // 2]:
            for name, values in observation.arrays().items():
                assert not values.flags.writeable
                assert np.array_equal(values, shown[name]), name


def test_blocks_of_any_size_play_alike():
    players = [strategies.get("euchre", "simple")] * 4
    deals = GAME.deals(7, 0, fast.BLOCK_SIZE + 700)
    ids = np.arange(len(deals)) + 3
    whole = fast.play_rounds(deals, players, ids).points
    parts = [
        fast.play_rounds(deals[start : start + 500], players, ids[start : start + 500]).points
        for start in range(0, len(deals), 500)
    ]
    assert np.array_equal(whole, np.concatenate(parts))


@pytest.mark.parametrize(
    ("deals", "message"),
    [
        (np.zeros((2, 24), dtype=np.int64), "exactly the 24 cards"),
        (np.zeros((2, 23), dtype=np.int64), r"\(n, 24\) arrays"),
        (np.full((1, 24), 60), "card ids from 0 to 51"),
        (np.zeros((1, 24)), r"\(n, 24\) arrays of card ids"),
    ],
)
def test_deals_that_are_not_euchre_packs_are_refused(deals, message):
    with pytest.raises(fast.DealError, match=message):
        fast.play_rounds(deals, [strategies.get("euchre", "simple")] * 4)


class FromOutside:
    """Simple's policy compiled apart from the built-in one, as a policy from ``--import`` is: the
    kernels call it through its address."""

    name = "simple-from-outside"
    compiled = CompiledPolicy(numba.njit(POLICY.signature, nogil=True)(simple_policy.py_func))

    def choose(self, observation):
        return choose_compiled(self.compiled, observation)


def test_a_policy_from_outside_plays_through_its_address_as_the_built_in_does():
    outside, simple = FromOutside(), strategies.get("euchre", "simple")
    assert (lockstep.CompiledSeats([outside] * 4, POLICY, fast._never_called, policies.BUILT_IN).kinds == -1).all()
    deals = GAME.deals(15, 0, 2000)
    ids = np.arange(len(deals)) * 3
    built_in = fast.play_rounds(deals, [simple] * 4, ids, trace=True)
    for lineup in ([outside] * 4, [outside, simple] * 2, [outside, Hashed()] * 2):
        played = fast.play_rounds(deals, lineup, ids, trace=True)
        alike = fast.play_rounds(deals, [simple if player is outside else player for player in lineup], ids, trace=True)
        assert np.array_equal(played.actions, alike.actions) and np.array_equal(played.points, alike.points)
    played = fast.play_rounds(deals, [outside] * 4, ids, trace=True)
    assert np.array_equal(played.actions, built_in.actions) and np.array_equal(played.points, built_in.points)
    # Judged: every scripted action of another policy's hands, as Simple would not all have taken them.
    script = fast.play_rounds(deals, [strategies.get("euchre", "heuristic")] * 4, ids, trace=True).actions
    length = np.full(len(deals), fast.SCRIPT_STEPS)
    weights = np.ones(script.shape, dtype=np.int64)
    scores = np.zeros((len(deals), 2), dtype=np.int64)
    judged = [
        fast.judge_scripts(deals, [player] * 4, ids, scores, script, length, weights) for player in (outside, simple)
    ]
    assert np.array_equal(*judged) and judged[0].any()


def test_the_trace_is_every_action_by_script_position():
    deals = GAME.deals(16, 0, 500)
    played = fast.play_rounds(deals, [strategies.get("euchre", "heuristic")] * 4, trace=True)
    assert played.actions.shape == (len(deals), fast.SCRIPT_STEPS) and played.actions.dtype == np.int8
    assert (played.actions[:, FIRST_CARD_STEP:] != NONE).all()  # every card of every hand
    assert fast.play_rounds(deals, [strategies.get("euchre", "heuristic")] * 4).actions is None
