"""Straights' solver-backed search: the states it solves are the game's, its worlds honour what was seen."""

from __future__ import annotations

import numpy as np
import pytest

import strategies
from sim.cards import mask_of
from sim.crosscheck import crosscheck
from sim.straights import rules
from sim.straights.engine import Round
from sim.straights.game import GAME
from strategies.straights.search import margin, state_at

ROUNDS = 12


def played_rounds(spec: str, count: int, seed: int = 21):
    """Rounds played on the reference engine by ``spec`` in every seat: at each decision, the round (a
    clone) and its observation."""
    player = strategies.get("straights", spec)
    for round_id, deck in enumerate(GAME.deals(seed, 0, count)):
        state = Round(tuple(int(card) for card in deck), round_id=round_id)
        while not state.is_over:
            observation = state.observe()
            yield state.clone(), observation
            state.apply(int(player.choose(observation)[0]))


def test_state_at_is_the_reference_engines_state():
    for state, _ in played_rounds("heuristic", ROUNDS):
        step = len(state.actions)
        discarded = np.array([[card in sum(state.discards, []) for card in state.actions]])
        actions = np.array([state.actions + [0] * (52 - step)], dtype=np.int8)
        flags = np.zeros((1, 52), dtype=bool)
        flags[0, :step] = discarded[0]
        hands, table, points, mover = state_at(np.array([state.deck]), actions, flags, np.array([step]))
        assert hands[0].tolist() == [mask_of(hand) for hand in state.hands]
        assert table[0] == state.table and mover[0] == state.current_player
        assert points[0].tolist() == [rules.discard_points(cards) for cards in state.discards]


def test_margin_is_the_others_total_minus_three_times_ours():
    assert margin(np.array([[10, 0, 5, 7]]), np.array([0])).tolist() == [12 - 30]
    assert margin(np.array([[10, 0, 5, 7]]), np.array([1])).tolist() == [22]


@pytest.mark.parametrize("spec", ["search:samples=8,oversample=4", "search:samples=8,oversample=2,moves=6"])
def test_no_world_gives_a_seat_a_card_it_showed_it_lacks(spec):
    """A seat that discarded held none of the cards the table accepted then; in every world, the cards
    it holds or discarded afterwards honour that, and our own hand and the table are as seen (swap
    moves included: a swap both of whose slots may take the other's card)."""
    search = strategies.get("straights", spec)
    checked = 0
    for state, observation in played_rounds("heuristic", ROUNDS, seed=22):
        if state.current_player != 0 or not any(state.discards[1:]):
            continue
        worlds = search.worlds(observation)
        step = len(state.actions)
        samples = worlds.deals.shape[1]
        scripts = worlds.scripts[0]
        flags = np.zeros((samples, 52), dtype=bool)
        flags[:, :step] = observation.history[0, :step] == -1
        hands, table, _, _ = state_at(worlds.deals[0], scripts, flags, np.full(samples, step))
        assert (hands[:, 0] == mask_of(state.hands[0])).all() and (table == state.table).all()
        for at in range(len(state.actions)):
            seat = state.seat_of_step(at)
            if seat != 0 and observation.history[0, at] == -1:
                before = Round(state.deck, round_id=state.round_id)
                for earlier in state.actions[:at]:
                    before.apply(earlier)
                lacked = rules.playable_mask(before.table)
                theirs = np.array([t >= at and state.seat_of_step(t) == seat for t in range(52)])
                later = np.where(theirs, scripts, -1)
                held_later = hands[:, seat] | np.bitwise_or.reduce(
                    np.where((later >= 0) & flags, np.left_shift(1, np.maximum(later, 0).astype(np.int64)), 0), axis=1
                )
                assert not (held_later & lacked).any(), (state.round_id, at, seat)
        checked += 1
    assert checked > 10


def test_swap_moves_explain_the_other_seats_turns_better():
    """Walking from the drawn worlds by swaps never loses explained turns at softness 0, and gains some."""
    drawn, walked = (
        strategies.get("straights", "search:samples=8,oversample=2"),
        strategies.get("straights", "search:samples=8,oversample=2,moves=12"),
    )
    before, after = [], []
    for state, observation in played_rounds("heuristic", 4, seed=24):
        if len(state.actions) < 12 or state.current_player != 0:
            continue
        before.append(drawn.mismatches(observation, drawn.worlds(observation)).sum())
        after.append(walked.mismatches(observation, walked.worlds(observation)).sum())
    assert len(before) > 5
    assert all(a <= b for a, b in zip(after, before)) and sum(after) < sum(before)


@pytest.mark.parametrize(
    "spec", ["search:samples=4,oversample=2", "search:samples=4,softness=0.3,rule=paranoid,moves=2"]
)
def test_search_chooses_legal_actions_reproducibly(spec):
    first, second = strategies.get("straights", spec), strategies.get("straights", spec)
    count = 0
    for state, observation in played_rounds("heuristic", 2, seed=23):
        action = int(first.choose(observation)[0])
        assert action in state.legal_actions() and action == int(second.choose(observation)[0])
        count += 1
    assert count == 104


def test_search_plays_the_same_in_both_engines():
    """search decides from the observation alone, one decision at a time or a batch at once."""
    lineup = ["search:samples=8,oversample=4", "heuristic", "heuristic", "heuristic"]
    report = crosscheck("straights", rounds=6, seed=32, strategies=lineup, jobs=1)
    assert report.ok, report.format()
