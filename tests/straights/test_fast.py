"""The vectorized engine against the reference engine, the deals it refuses, and what strategies get to see."""

import itertools

import numpy as np
import pytest

from sim import jit
from sim.api import CompiledPolicy, StrategyFault, round_id
from sim.cards import NUM_CARDS, rank_of
from sim.crosscheck import crosscheck
from sim.games import game_deal_source, load
from sim.lockstep import EXTERNAL, CompiledSeats
from sim.straights import rules
from sim.straights.engine import Game, Round
from sim.straights.fast import DealError, play_games, play_rounds
from sim.straights.game import PACKS
from sim.straights.observation import DISCARDED, FIELDS, NOT_YET, POLICY, Observation
from sim.straights.policies import BUILT_IN
from sim.straights.policies.first_legal import first_legal
from sim.straights.policies.heuristic import heuristic
from strategies.straights.first_legal import FirstLegal

HAND_POSITIONS = np.arange(rules.HAND_SIZE)


class LastLegalOrLowest:
    """Plays its last legal card in dealt order; with none, discards its lowest card (the first such)."""

    name = "last-legal-or-lowest"

    def choose(self, observation: Observation) -> np.ndarray:
        hand = np.asarray(observation.hand)
        in_hand = (observation.held[:, None] >> HAND_POSITIONS) & 1 == 1
        playable = (observation.legal[:, None] >> HAND_POSITIONS) & 1 == 1
        last_legal = rules.HAND_SIZE - 1 - np.argmax(playable[:, ::-1], axis=1)
        lowest = np.argmin(np.where(in_hand, hand % 13, 99), axis=1)
        chosen = np.where(observation.legal != 0, last_legal, lowest)
        return hand[np.arange(len(hand)), chosen]


class Recorder:
    """Plays like ``inner`` and keeps every field of every observation it was given, by round and step."""

    def __init__(self, inner):
        self.inner = inner
        self.name = f"recorded {getattr(inner, 'name', type(inner).__name__)}"
        self.seen: dict[tuple[int, int], dict[str, np.ndarray]] = {}
        self.batch_sizes: list[int] = []

    def choose(self, observation: Observation) -> np.ndarray:
        assert set(observation._fields) == set(FIELDS), "an observation carries only the public fields"
        fields = {name: np.asarray(getattr(observation, name)) for name in FIELDS}
        for row in range(len(observation)):
            key = (int(fields["round_id"][row]), int(fields["step"][row]))
            self.seen[key] = {name: value[row] for name, value in fields.items()}
        self.batch_sizes.append(len(observation))
        return self.inner.choose(observation)


class Scripted:
    """Returns whatever ``pick(observation)`` says, legal or not."""

    def __init__(self, name, pick):
        self.name = name
        self.pick = pick

    def choose(self, observation: Observation) -> np.ndarray:
        return self.pick(observation)


def play_reference(deck, strategies, round_id=0) -> Round:
    current = Round(tuple(int(card) for card in deck), round_id=round_id)
    while not current.is_over:
        current.apply(int(strategies[current.current_player].choose(current.observe())[0]))
    return current


# --- the two engines agree ---------------------------------------------------------------------------


def test_mixed_seats_play_the_same_in_both_engines_on_2000_deals():
    first, last = FirstLegal(), LastLegalOrLowest()
    report = crosscheck("straights", rounds=2_000, seed=7, strategies=[first, last, last, first], jobs=2)
    assert report.ok, report.format()
    assert report.rounds == 2_000


def test_a_divergence_names_the_deal_the_step_and_both_actions():
    class FastOnlyDeviation(LastLegalOrLowest):
        """Plays first-legal when the reference engine asks (a batch of one), last-legal otherwise."""

        def choose(self, observation):
            return FirstLegal().choose(observation) if len(observation) == 1 else super().choose(observation)

    report = crosscheck("straights", rounds=50, seed=1, strategies=[FastOnlyDeviation()] * 4)
    assert not report.ok
    assert report.divergence.step is not None and report.divergence.reference != report.divergence.fast
    assert f"deal {report.divergence.deal}" in report.format()


def test_observations_are_the_same_in_both_engines():
    dealt = PACKS.deals(5, 0, 300)
    reference = [Recorder(FirstLegal()), Recorder(LastLegalOrLowest())]
    fast = [Recorder(FirstLegal()), Recorder(LastLegalOrLowest())]
    for dealt_round, deck in enumerate(dealt):
        play_reference(deck, [reference[0], reference[1], reference[0], reference[1]], dealt_round)
    play_rounds(dealt, [fast[0], fast[1], fast[0], fast[1]])
    for expected, got in zip(reference, fast):
        assert expected.seen.keys() == got.seen.keys()
        for key, fields in expected.seen.items():
            for name in FIELDS:
                assert np.array_equal(fields[name], got.seen[key][name]), (key, name)


# --- calling strategies ----------------------------------------------------------------------------------


def test_one_strategy_in_every_seat_is_called_once_per_step_with_every_round():
    recorder = Recorder(FirstLegal())
    play_rounds(PACKS.deals(1, 0, 1000), [recorder] * 4)
    assert recorder.batch_sizes == [1000] * NUM_CARDS


def test_each_distinct_strategy_is_called_at_most_once_per_step_for_its_own_seats():
    first, last = Recorder(FirstLegal()), Recorder(LastLegalOrLowest())
    dealt = PACKS.deals(1, 0, 1000)
    play_rounds(dealt, [first, last, last, first])
    assert len(first.batch_sizes) <= NUM_CARDS and len(last.batch_sizes) <= NUM_CARDS
    assert sum(first.batch_sizes) + sum(last.batch_sizes) == 1000 * NUM_CARDS
    assert all(int(fields["seat"]) in (0, 3) for fields in first.seen.values())
    assert all(int(fields["seat"]) in (1, 2) for fields in last.seen.values())


def test_observations_show_only_the_movers_own_cards():
    dealt = PACKS.deals(9, 0, 200)
    recorder = Recorder(LastLegalOrLowest())
    original_choose = recorder.choose

    def choose_and_check(observation):
        # No view onto the engine's arrays of every hand: the hand array owns its data.
        assert observation.hand.base is None
        return original_choose(observation)

    recorder.choose = choose_and_check
    play_rounds(dealt, [recorder, FirstLegal(), recorder, FirstLegal()])
    for (seen_round, step), fields in recorder.seen.items():
        seat = int(fields["seat"])
        own_hand = dealt[seen_round, seat * rules.HAND_SIZE : (seat + 1) * rules.HAND_SIZE]
        assert np.array_equal(fields["hand"], own_hand)
        history = fields["history"]
        played = history[(history != DISCARDED) & (history != NOT_YET)]
        assert all(int(fields["table"]) >> int(card) & 1 for card in played), "the log shows played cards only"
        assert (history[:step] != NOT_YET).all() and (history[step:] == NOT_YET).all()


# --- deals ---------------------------------------------------------------------------------------------------


def test_bad_deals_are_refused():
    dealt = PACKS.deals(1, 0, 3).astype(np.int64)
    dealt[1, 5] = dealt[1, 6]
    with pytest.raises(DealError, match="round 1 is not a permutation"):
        play_rounds(dealt, [FirstLegal()] * 4)
    with pytest.raises(DealError):
        play_rounds(np.full((2, NUM_CARDS), 52), [FirstLegal()] * 4)
    for not_integers in (PACKS.deals(1, 0, 3).astype(float), PACKS.deals(1, 0, 3).astype(str)):
        with pytest.raises(DealError, match="integer card ids"):
            play_rounds(not_integers, [FirstLegal()] * 4)


# --- points and games ----------------------------------------------------------------------------------------


def test_points_are_the_values_of_the_cards_each_seat_discarded():
    dealt = PACKS.deals(3, 0, 3000)
    result = play_rounds(dealt, [FirstLegal(), LastLegalOrLowest()] * 2, trace=True)
    leaders = np.array([rules.leader(rules.deal(deck)) for deck in dealt])
    seats = (leaders[:, None] + np.arange(NUM_CARDS)) % rules.NUM_PLAYERS
    values = np.vectorize(rank_of)(result.actions) + 1
    expected = np.zeros((len(dealt), rules.NUM_PLAYERS), dtype=np.int64)
    rounds = np.repeat(np.arange(len(dealt)), NUM_CARDS)
    np.add.at(expected, (rounds, seats.ravel()), (values * result.discarded).ravel())
    assert np.array_equal(result.points, expected)
    assert result.points.sum() == (values * result.discarded).sum() > 0


def test_whole_games_end_at_80_and_crown_the_lowest_scores_with_ties():
    results = play_games(3000, game_deal_source(load("straights"), 4), [FirstLegal()] * 4)
    assert (results.scores.max(axis=1) >= rules.GAME_OVER_SCORE).all()
    expected = np.array([[seat in rules.winners(tuple(scores)) for seat in range(4)] for scores in results.scores])
    assert np.array_equal(results.winners, expected)
    assert (results.winners.sum(axis=1) > 1).any(), "the sample should include tied games"


def decks_of_game(source, game_id):
    """The reference engine's deck source for one game of a fast-engine deal source."""
    rounds = itertools.count()
    return lambda: source(np.array([game_id]), next(rounds))[0].tolist()


def test_whole_games_match_the_reference_engine_and_observe_the_scores_before_each_round():
    source = game_deal_source(load("straights"), 8)
    fast_recorder = Recorder(FirstLegal())
    results = play_games(np.arange(40, 100), source, [fast_recorder] * 4)
    for row, game_id in enumerate(range(40, 100)):
        reference_recorder = Recorder(FirstLegal())
        game = Game(decks_of_game(source, game_id))
        game.start()
        while not game.is_over:
            game.apply(int(reference_recorder.choose(game.observe())[0]))
        assert game.scores == tuple(results.scores[row]) and game.winners == tuple(np.flatnonzero(results.winners[row]))
        assert game.rounds_played == results.rounds[row]
        for round_number in range(game.rounds_played):
            fast_fields = fast_recorder.seen[(round_id(game_id, round_number), 0)]
            assert np.array_equal(reference_recorder.seen[(round_number, 0)]["scores"], fast_fields["scores"])


# --- illegal actions -----------------------------------------------------------------------------------------


def first_held(observation):
    held = observation.held
    return np.asarray(observation.hand)[np.arange(len(held)), np.argmax((held[:, None] >> HAND_POSITIONS) & 1, axis=1)]


@pytest.mark.parametrize(
    "pick, message",
    [
        (first_held, r"strategy 'cheat' chose .., which is not legal there \(legal: 7S\) \(round \d+, step 0, seat"),
        (lambda observation: np.full(len(observation), rules.SEVEN_OF_SPADES), r"'cheat' chose 7S, which is not legal"),
        (lambda observation: np.full(len(observation), 52), r"'cheat' chose action 52, which is not an action of this"),
        (lambda observation: np.full(len(observation), -1), r"'cheat' chose action -1"),
        (lambda observation: np.zeros(len(observation) + 1, dtype=int), r"'cheat' returned .* shape"),
        (lambda observation: np.zeros(len(observation)), r"'cheat' returned an array of float64"),
    ],
)
def test_an_illegal_action_raises_naming_the_strategy(pick, message):
    cheat = Scripted("cheat", pick)
    with pytest.raises(StrategyFault, match=message):
        play_rounds(PACKS.deals(1, 0, 500), [cheat, FirstLegal(), FirstLegal(), cheat])


# The built-in policies' rules, compiled apart: the kernels call these through their addresses.
first_legal_elsewhere = jit.njit(POLICY.signature, nogil=True)(first_legal.py_func)
heuristic_elsewhere = jit.njit(POLICY.signature, nogil=True)(heuristic.py_func)


class Compiled:
    """A strategy whose compiled policy is ``function`` with ``settings``."""

    def __init__(self, function, settings=()):
        self.compiled = CompiledPolicy(function, settings)


HEURISTIC_SETTINGS = (4.0, 1.0, 3.0)


@pytest.mark.parametrize("lineup", ["external", "mixed"])
def test_a_policy_from_outside_plays_through_its_address_as_the_built_in_plays(lineup):
    deals = PACKS.deals(31, 0, 700)
    built_in = [Compiled(first_legal), Compiled(heuristic, HEURISTIC_SETTINGS)] * 2
    outside = [Compiled(first_legal_elsewhere), Compiled(heuristic_elsewhere, HEURISTIC_SETTINGS)] * 2
    if lineup == "mixed":
        outside = [outside[0], built_in[1], built_in[2], outside[3]]
    kinds = CompiledSeats(outside, POLICY, first_legal, BUILT_IN).kinds.tolist()
    assert kinds.count(EXTERNAL) == (4 if lineup == "external" else 2)
    expected = play_rounds(deals, built_in, trace=True)
    played = play_rounds(deals, outside, trace=True)
    assert np.array_equal(played.points, expected.points)
    assert np.array_equal(played.actions, expected.actions)
    # The general kernel (a script) calls them the same way.
    script, length = np.zeros((len(deals), NUM_CARDS), dtype=np.int8), np.zeros(len(deals), dtype=np.int64)
    length[::2] = 1
    script[:, 0] = rules.SEVEN_OF_SPADES
    scripted = play_rounds(deals, outside, script=script, script_length=length)
    assert np.array_equal(scripted.points, expected.points)


def test_every_built_in_lineup_plays_as_the_general_kernel_plays():
    deals = PACKS.deals(32, 0, 500)
    script, length = np.zeros((len(deals), NUM_CARDS), dtype=np.int8), np.ones(len(deals), dtype=np.int64)
    script[:, 0] = rules.SEVEN_OF_SPADES  # every round's first card: a script sends it through _Block
    for seats in itertools.product([Compiled(first_legal), Compiled(heuristic, (1.0, 2.0, 0.5))], repeat=2):
        lineup = list(seats) * 2
        fused = play_rounds(deals, lineup, trace=True)
        general = play_rounds(deals, lineup, script=script, script_length=length, trace=True)
        assert np.array_equal(fused.points, general.points)
        assert np.array_equal(fused.actions, general.actions) and np.array_equal(fused.discarded, general.discarded)
