"""``judge_scripts``, a lookahead's inference on the compiled engine: a script the strategies played
judges to nothing, a card they would not have chosen costs exactly its weight, and every round judges
as a slow replay on the reference engine that asks the strategy at every step does."""

import numpy as np
import pytest

import strategies
from sim.api import StrategyFault
from sim.cards import NUM_CARDS
from sim.straights import fast, rules
from sim.straights.engine import Round
from sim.straights.fast import judge_scripts, play_rounds
from sim.straights.game import PACKS
from sim.straights.observation import LOWEST_POSITION, Observation


class FirstLegalInPython:
    """The spec's computer in numpy, with no compiled policy: the engine asks it in Python. It keeps
    the (round id, step) of every decision it was asked about."""

    name = "first-legal-in-python"

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []

    def choose(self, observation: Observation) -> np.ndarray:
        self.asked.extend(zip(observation.round_id.tolist(), observation.step.tolist()))
        first = LOWEST_POSITION[observation.options]
        return np.asarray(observation.hand)[np.arange(len(observation)), first]


class LastOptionInPython:
    """Plays (or discards) the card at the highest hand position it may: another Python strategy."""

    name = "last-option-in-python"

    def choose(self, observation: Observation) -> np.ndarray:
        last = np.array([int(options).bit_length() - 1 for options in observation.options])
        return np.asarray(observation.hand)[np.arange(len(observation)), last]


class Contrary:
    """Answers -1, never a card: an opinion that contradicts every scripted card (and is illegal)."""

    name = "contrary"

    def choose(self, observation: Observation) -> np.ndarray:
        return np.full(len(observation), -1)


def lineup(name: str) -> list:
    """Four strategies: one compiled strategy in every seat, or Python seats among compiled ones."""
    if name == "python":
        python = FirstLegalInPython()
        return [python, strategies.get("straights", "heuristic"), python, strategies.get("straights", "first-legal")]
    return [strategies.get("straights", name)] * rules.NUM_PLAYERS


LINEUPS = ["heuristic", "first-legal", "python"]


def round_inputs(count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deals, round ids and game scores before the round (some far from zero) of ``count`` rounds."""
    rng = np.random.default_rng(seed)
    deals = PACKS.deals(seed, 0, count)
    return deals, rng.integers(0, 1 << 40, count), rng.integers(0, rules.GAME_OVER_SCORE, (count, rules.NUM_PLAYERS))


def leaders(deals: np.ndarray) -> np.ndarray:
    """(n,) the seat that holds the 7 of spades in each deal."""
    return np.flatnonzero(deals == rules.SEVEN_OF_SPADES) % NUM_CARDS // rules.HAND_SIZE


def other_legal_card(deck: np.ndarray, script: np.ndarray, step: int, rng: np.random.Generator) -> int | None:
    """A legal action at ``step`` of the round ``script`` plays other than its own, if there is one."""
    current = Round(tuple(int(card) for card in deck))
    for card in script[:step]:
        current.apply(int(card))
    others = [card for card in current.legal_actions() if card != script[step]]
    return int(rng.choice(others)) if others else None


def judged_by_reference(deck, seats, round_id, scores, script, length, weights) -> int:
    """The sum of the weights of the scripted steps below ``length`` where the mover's strategy, asked
    at every step on the reference engine, would have chosen another card; the script is played."""
    current = Round(tuple(int(card) for card in deck), tuple(int(score) for score in scores), int(round_id))
    mismatches = 0
    for step in range(length):
        wanted = int(np.asarray(seats[current.current_player].choose(current.observe()))[0])
        if wanted != script[step]:
            mismatches += int(weights[step])
        current.apply(int(script[step]))
    return mismatches


def random_scripts(deals: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(n, 52) int8 whole rounds of random legal play, one per deal (on the reference engine)."""
    scripts = np.empty(deals.shape, dtype=np.int8)
    for row, deck in enumerate(deals):
        current = Round(tuple(int(card) for card in deck))
        for step in range(NUM_CARDS):
            scripts[row, step] = card = rng.choice(current.legal_actions())
            current.apply(int(card))
    return scripts


# --- what the strategies played judges to nothing ------------------------------------------------------


@pytest.mark.parametrize("name", LINEUPS)
def test_what_the_strategies_played_judges_to_nothing(name):
    deals, round_ids, scores = round_inputs(400, seed=3)
    seats = lineup(name)
    script = play_rounds(deals, seats, round_ids, scores, trace=True).actions
    rng = np.random.default_rng(4)
    for length in (np.full(len(deals), NUM_CARDS), rng.integers(0, NUM_CARDS + 1, len(deals))):
        weights = rng.integers(1, 100, script.shape)
        kept = script.copy(), length.copy()
        mismatches = judge_scripts(deals, seats, round_ids, scores, script, length, weights)
        assert mismatches.dtype == np.int64 and mismatches.tolist() == [0] * len(deals)
        assert np.array_equal(script, kept[0]) and np.array_equal(length, kept[1]), "the inputs are left alone"


def test_a_python_seat_is_asked_once_at_each_of_its_judged_steps_and_only_there():
    deals, round_ids, scores = round_inputs(300, seed=5)
    python = FirstLegalInPython()
    seats = [python, strategies.get("straights", "heuristic"), python, strategies.get("straights", "first-legal")]
    script = play_rounds(deals, seats, round_ids, scores, trace=True).actions
    rng = np.random.default_rng(6)
    length = rng.integers(0, NUM_CARDS + 1, len(deals))
    weights = rng.integers(0, 3, script.shape) * rng.integers(0, 2, script.shape)  # many zeros
    python.asked.clear()
    assert judge_scripts(deals, seats, round_ids, scores, script, length, weights).tolist() == [0] * len(deals)
    steps = np.arange(NUM_CARDS)
    seat_at = (leaders(deals)[:, None] + steps) % rules.NUM_PLAYERS
    judged = (steps < length[:, None]) & (weights != 0) & ((seat_at == 0) | (seat_at == 2))
    expected = sorted((int(round_ids[row]), int(step)) for row, step in zip(*np.nonzero(judged)))
    assert sorted(python.asked) == expected and len(python.asked) == len(set(python.asked))


def test_rounds_with_empty_scripts_judge_to_nothing_and_ask_nobody():
    deals, round_ids, scores = round_inputs(50, seed=7)
    python = FirstLegalInPython()
    script = np.zeros(deals.shape, dtype=np.int8)  # not even legal: never played
    weights = np.ones(deals.shape, dtype=np.int64)
    mismatches = judge_scripts(deals, [python] * 4, round_ids, scores, script, np.zeros(len(deals)), weights)
    assert mismatches.tolist() == [0] * len(deals) and python.asked == []


# --- a card the strategy would not have chosen costs its weight ----------------------------------------------


@pytest.mark.parametrize("name", LINEUPS)
def test_another_legal_card_costs_exactly_its_steps_weight(name):
    deals, round_ids, scores = round_inputs(60, seed=8)
    seats = lineup(name)
    played = play_rounds(deals, seats, round_ids, scores, trace=True).actions
    rng = np.random.default_rng(9)
    script, length = played.copy(), np.zeros(len(deals), dtype=np.int64)
    weights = rng.integers(1, 1000, script.shape)
    expected = np.zeros(len(deals), dtype=np.int64)
    for row in range(len(deals)):
        for step in rng.permutation(NUM_CARDS):  # a step where the mover had a choice
            card = other_legal_card(deals[row], played[row], step, rng)
            if card is not None:
                script[row, step], length[row] = card, step + 1
                expected[row] = weights[row, step]
                break
    assert length.min() > 0
    # Weights after the script's end are not judged: the strategies played on from another card.
    weights[np.arange(NUM_CARDS) >= length[:, None]] = 10**9
    assert np.array_equal(judge_scripts(deals, seats, round_ids, scores, script, length, weights), expected)
    # A zero weight is not asked: the changed card then costs nothing.
    at_change = np.zeros_like(weights)
    at_change[np.arange(len(deals)), length - 1] = weights[np.arange(len(deals)), length - 1]
    without = judge_scripts(deals, seats, round_ids, scores, script, length, weights - at_change)
    assert without.tolist() == [0] * len(deals)


def test_an_opinion_may_be_any_answer_and_the_scripted_card_is_played_regardless():
    """A model that answers -1 (no card at all) is no fault: every judged step is a mismatch."""
    deals, round_ids, scores = round_inputs(80, seed=10)
    script = random_scripts(deals, np.random.default_rng(11))
    rng = np.random.default_rng(12)
    length = rng.integers(0, NUM_CARDS + 1, len(deals))
    weights = rng.integers(0, 5, script.shape)
    expected = np.where(np.arange(NUM_CARDS) < length[:, None], weights, 0).sum(axis=1)
    contrary = Contrary()
    assert np.array_equal(judge_scripts(deals, [contrary] * 4, round_ids, scores, script, length, weights), expected)


def test_an_illegal_scripted_card_is_a_fault_and_bad_shapes_are_refused():
    deals, round_ids, scores = round_inputs(4, seed=13)
    seats = lineup("first-legal")
    script = play_rounds(deals, seats, round_ids, scores, trace=True).actions
    script[2, 5] = script[2, 40]  # a card another seat holds (step 40 is not the same seat's turn)
    full, weights = np.full(4, NUM_CARDS), np.ones(script.shape, dtype=np.int64)
    with pytest.raises(StrategyFault, match="step 5"):
        judge_scripts(deals, seats, round_ids, scores, script, full, weights)
    with pytest.raises(ValueError, match="shape"):
        judge_scripts(deals, seats, round_ids, scores, script, full, weights[:, :10])
    with pytest.raises(ValueError, match="script lengths"):
        judge_scripts(deals, seats, round_ids, scores, script, full + 1, weights)


# --- the same as asking the strategy at every step on the reference engine --------------------------------


@pytest.mark.parametrize(
    "names",
    [
        ("heuristic",) * 4,
        ("first-legal",) * 4,
        ("first-legal-in-python", "heuristic", "last-option-in-python", "first-legal"),
        ("contrary", "last-option-in-python", "heuristic", "last-option-in-python"),
    ],
)
def test_judging_agrees_with_asking_at_every_step_on_the_reference_engine(names, monkeypatch):
    python = {"first-legal-in-python": FirstLegalInPython, "last-option-in-python": LastOptionInPython}
    python["contrary"] = Contrary

    def build(name):
        return python[name]() if name in python else strategies.get("straights", name)

    monkeypatch.setattr(fast, "BLOCK_SIZE", 16)  # several blocks, each with its own pauses
    count = 50
    deals, round_ids, scores = round_inputs(count, seed=14)
    rng = np.random.default_rng(15)
    script = random_scripts(deals, rng)
    length = rng.integers(0, NUM_CARDS + 1, count)
    length[:5] = NUM_CARDS, 0, 1, 2, NUM_CARDS - 1
    weights = rng.integers(1, 20, script.shape) * (rng.random(script.shape) < 0.8)
    seats = [build(name) for name in names]
    judged = judge_scripts(deals, seats, round_ids, scores, script, length, weights)
    reference_seats = [build(name) for name in names]
    expected = [
        judged_by_reference(
            deals[row], reference_seats, round_ids[row], scores[row], script[row], length[row], weights[row]
        )
        for row in range(count)
    ]
    assert judged.tolist() == expected
    assert sum(expected) > 0
