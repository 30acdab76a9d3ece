"""The built-in policies the kernel calls directly, a policy from outside called through its address,
and the kernel's trace of the actions it took."""

from __future__ import annotations

import numpy as np
import pytest

import strategies
from sim import jit
from sim.api import CompiledPolicy
from sim.gemstones import fast
from sim.gemstones.engine import State, Variants
from sim.gemstones.game import PACKS
from sim.gemstones.observation import POLICY, Observation, choose_compiled
from sim.gemstones.policies import BUILT_IN, GREEDY, HEURISTIC, UNIFORM, greedy, heuristic, uniform
from sim.gemstones.policies.uniform import FLOAT_BITS, GOLDEN_GAMMA, MIX_MULTIPLIERS, MIX_SHIFTS
from sim.lockstep import EXTERNAL, CompiledSeats
from strategies import montecarlo

# The built-in policies' rules, compiled apart: the kernel calls these through their addresses.
greedy_elsewhere = jit.njit(POLICY.signature, nogil=True)(greedy.py_func)
heuristic_elsewhere = jit.njit(POLICY.signature, nogil=True)(heuristic.py_func)
uniform_elsewhere = jit.njit(POLICY.signature, nogil=True)(uniform.py_func)


class Compiled:
    """A strategy whose compiled policy is ``function`` with ``settings``."""

    def __init__(self, function, settings=()):
        self.compiled = CompiledPolicy(function, settings)

    def choose(self, observation: Observation) -> np.ndarray:
        return choose_compiled(self.compiled, observation)


UNIFORM_SETTINGS = (0.0, 7.0)  # random's seed 7


@pytest.mark.parametrize("lineup", ["external", "mixed"])
def test_a_policy_from_outside_plays_through_its_address_as_the_built_in_plays(lineup):
    deals = PACKS.deals(31, 0, 400)
    pairs = [
        (Compiled(greedy), Compiled(greedy_elsewhere)),
        (Compiled(heuristic), Compiled(heuristic_elsewhere)),
        (Compiled(uniform, UNIFORM_SETTINGS), Compiled(uniform_elsewhere, UNIFORM_SETTINGS)),
    ]
    for (built_in, outside), (other, other_outside) in zip(pairs, pairs[1:] + pairs[:1]):
        inside = [built_in, other]
        outside_lineup = [outside, other_outside if lineup == "external" else other]
        kinds = CompiledSeats(outside_lineup, POLICY, fast._never_called, BUILT_IN).kinds.tolist()
        assert kinds.count(EXTERNAL) == (2 if lineup == "external" else 1)
        expected = fast.play_rounds(deals, inside, trace=True)
        played = fast.play_rounds(deals, outside_lineup, trace=True)
        assert np.array_equal(played.points, expected.points)
        assert np.array_equal(played.actions, expected.actions)


def test_each_built_in_policy_has_its_kind():
    lineup = [strategies.get("gemstones", name) for name in ("greedy", "heuristic")]
    assert CompiledSeats(lineup, POLICY, fast._never_called, BUILT_IN).kinds.tolist() == [GREEDY, HEURISTIC]
    assert BUILT_IN[UNIFORM] is strategies.get("gemstones", "random").compiled.function


@pytest.mark.parametrize("variants", [Variants(), Variants(sold_cards="discard", final_sale=True)])
def test_the_trace_is_every_action_taken_in_order_as_the_reference_takes_them(variants):
    deals = PACKS.deals(5, 0, 120)
    ids = np.arange(120, dtype=np.int64)
    players = [strategies.get("gemstones", name) for name in ("heuristic", "random")]
    played = fast.play_rounds(deals, players, ids, variants, trace=True)
    assert played.actions.dtype == np.int16 and played.actions.shape[0] == len(deals)
    taken = played.actions >= 0
    assert taken[:, -1].any(), "the trace is as wide as the longest game"
    assert (taken[:, :-1] >= taken[:, 1:]).all(), "-1 only after a game's last action"
    for deal, game_id, actions, coins in zip(deals, ids.tolist(), played.actions, played.points):
        state, _ = State.new(deal, variants, game_id)
        for action in actions[actions >= 0].tolist():
            assert action == int(players[state.current_player].choose(state.observe())[0])
            state.apply(action)
        assert state.is_over and list(state.coins) == coins.tolist()


def test_a_trace_widens_past_its_first_columns_and_records_seats_played_in_python(monkeypatch):
    deals = PACKS.deals(6, 0, 200)
    compiled = [strategies.get("gemstones", name) for name in ("greedy", "heuristic")]
    expected = fast.play_rounds(deals, compiled, trace=True)
    monkeypatch.setattr(fast, "TRACE_WIDTH", 7)
    narrow = fast.play_rounds(deals, compiled, trace=True)
    assert np.array_equal(narrow.actions, expected.actions)

    class InPython:
        """greedy, asked in Python."""

        def choose(self, observation: Observation) -> np.ndarray:
            return compiled[0].choose(observation)

    mixed = fast.play_rounds(deals, [InPython(), compiled[1]], trace=True)
    assert np.array_equal(mixed.actions, expected.actions) and np.array_equal(mixed.points, expected.points)


def test_without_a_trace_there_are_no_actions():
    assert fast.play_rounds(PACKS.deals(1, 0, 3), [strategies.get("gemstones", "greedy")] * 2).actions is None


def test_random_hashes_with_the_constants_of_decision_uniforms():
    assert (GOLDEN_GAMMA, MIX_MULTIPLIERS, MIX_SHIFTS, FLOAT_BITS) == (
        montecarlo.GOLDEN_GAMMA,
        montecarlo.MIX_MULTIPLIERS,
        montecarlo.MIX_SHIFTS,
        montecarlo.FLOAT_BITS,
    )
