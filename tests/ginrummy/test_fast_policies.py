"""The fast engine's built-in policies (called directly by number), an external compiled policy (called
through its address) and the trace of the actions the kernel took."""

import numpy as np
import pytest

import strategies
from sim import jit, lockstep
from sim.api import CompiledPolicy
from sim.ginrummy import fast, policies, rules
from sim.ginrummy.game import GAME
from sim.ginrummy.observation import POLICY, compiled_policy
from sim.ginrummy.policies.heuristic import heuristic as built_in_heuristic
from strategies.ginrummy.mc import MonteCarloLookahead
from strategies.ginrummy.search import InferenceSearch

# The heuristic's policy compiled again on its own: the same code, but not one of policies.BUILT_IN.
external_heuristic = jit.njit(POLICY.signature, nogil=True)(built_in_heuristic.py_func)


class ExternalHeuristic:
    """The default heuristic, its compiled policy from outside the engine's built-in ones."""

    name = "external-heuristic"

    def __init__(self) -> None:
        self.compiled: CompiledPolicy = compiled_policy(
            external_heuristic, strategies.get("ginrummy", "heuristic").compiled.arguments
        )

    def choose(self, observation):
        return strategies.get("ginrummy", "heuristic").choose(observation)


class InPython:
    """A strategy asked in Python: the kernel pauses for its rows."""

    compiled = None

    def __init__(self, strategy):
        self.strategy = strategy

    def choose(self, observation):
        return self.strategy.choose(observation)


def reference_actions(deals: np.ndarray, players: list) -> list[list[int]]:
    """Each deal's actions as the reference engine plays them."""
    played = []
    for hand_id, deal in enumerate(deals):
        state = GAME.new_state(deal, hand_id)
        actions = []
        while not state.is_over:
            action = int(players[state.current_player].choose(state.observe())[0])
            actions.append(action)
            state.apply(action)
        played.append(actions)
    return played


def test_the_built_in_strategies_are_seated_by_kind():
    names = ("cs340", "simple", "heuristic")
    seats = fast._seats([strategies.get("ginrummy", name) for name in names[:2]])
    assert seats.kinds.tolist() == [policies.CS340, policies.SIMPLE]
    assert fast._seats([strategies.get("ginrummy", "heuristic")] * 2).kinds.tolist() == [policies.HEURISTIC] * 2
    assert fast._seats([ExternalHeuristic()] * 2).kinds.tolist() == [lockstep.EXTERNAL] * 2
    assert policies.kind_of(external_heuristic) == lockstep.EXTERNAL


def test_an_external_policy_plays_through_its_address_as_the_built_in_plays():
    deals = GAME.deals(44, 0, 1_500)
    built_in = fast.play_rounds(deals, [strategies.get("ginrummy", "heuristic")] * 2, trace=True)
    external = fast.play_rounds(deals, [ExternalHeuristic()] * 2, trace=True)
    mixed = fast.play_rounds(deals, [ExternalHeuristic(), strategies.get("ginrummy", "heuristic")], trace=True)
    for other in (external, mixed):
        assert np.array_equal(other.points, built_in.points)
        assert np.array_equal(other.actions, built_in.actions)


def test_lookaheads_judge_worlds_alike_with_an_external_rollout_policy():
    """mc's and search's world-judging kernels call a built-in rollout policy by number and any other
    through its address: the same worlds, so the same choices."""
    deals = GAME.deals(45, 0, 3)
    lookaheads = (MonteCarloLookahead(samples=8, oversample=4), InferenceSearch(samples=8, oversample=4))
    for lookahead in lookaheads:
        chosen = []
        for policy in (strategies.get("ginrummy", "heuristic"), ExternalHeuristic()):
            lookahead.policy = policy
            chosen.append(
                fast.play_rounds(deals, [lookahead, strategies.get("ginrummy", "simple")], trace=True).actions
            )
        assert np.array_equal(*chosen)


@pytest.mark.parametrize("lineup", [("cs340", "cs340"), ("simple", "heuristic"), ("heuristic", "cs340")])
def test_the_trace_is_every_action_the_reference_takes(lineup):
    players = [strategies.get("ginrummy", name) for name in lineup]
    deals = GAME.deals(46, 0, 400)
    result = fast.play_rounds(deals, players, trace=True)
    assert result.actions.dtype == np.int16
    expected = reference_actions(deals, players)
    assert result.actions.shape == (len(deals), max(len(actions) for actions in expected))
    for row, actions in zip(result.actions, expected):
        assert row[: len(actions)].tolist() == actions
        assert (row[len(actions) :] == -1).all()


def test_a_trace_grows_past_its_first_width_and_follows_python_seats(monkeypatch):
    monkeypatch.setattr(fast, "TRACE_WIDTH", 4)
    players = [InPython(strategies.get("ginrummy", "simple")), strategies.get("ginrummy", "cs340")]
    deals = GAME.deals(47, 0, 120)
    result = fast.play_rounds(deals, players, trace=True)
    expected = reference_actions(deals, players)
    assert [row[row >= 0].tolist() for row in result.actions] == expected
    assert np.array_equal(result.points, fast.play_rounds(deals, players).points)
    assert fast.play_rounds(deals, players).actions is None


def test_a_trace_of_no_hands_is_empty():
    result = fast.play_rounds(
        GAME.deals(1, 0, 0), [strategies.get("ginrummy", "cs340")] * rules.NUM_PLAYERS, trace=True
    )
    assert result.actions.shape == (0, 0)
