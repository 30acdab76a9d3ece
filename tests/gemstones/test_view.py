"""The table view: whole games played on the reference engine, drawn for a seat at every decision and
once over; the drawing agrees with the engine and never shows the opponent's hand or the deck order."""

import random

import numpy as np
import pytest

import strategies
from sim import games
from sim.api import TableView
from sim.gemstones import rules
from sim.gemstones.engine import State
from sim.gemstones.observation import NUM_ACTIONS
from sim.gemstones.view import action_face, face, table
from sim.play import reference_state
from tests.views import check_table_view

NAMES = ["Ada", "Bo"]
FACES = {stone.lower() for stone in rules.STONES} | {"back"}


def check_view(state: State, seat: int) -> TableView:
    """Draw ``state`` for ``seat`` and check it against the engine."""
    view = table(state, seat, NAMES)
    check_table_view(view, FACES)
    zones = {zone["title"]: zone["rows"] for zone in view["zones"]}
    own, other = zones["Hands"]
    assert own["cards"] == [face(stone) for stone in state.hands[seat]]
    assert other["cards"] == ["back"] * len(state.hands[1 - seat])
    chains = {row["label"]: row for row in zones["Chains"]}
    for player in (0, 1):
        for slot in range(rules.MAX_SLOTS):
            row = chains[f"{NAMES[player]}: chain {slot + 1}"]
            chain = state.slots[player][slot] if slot < len(state.slots[player]) else None
            if chain is None:
                assert row["cards"] == [] and row["note"] in (
                    "empty",
                    f"not bought (costs {state.variants.third_chain_cost} coins)",
                )
            else:
                stone, length = chain
                assert row["cards"] == [face(stone)] * length
                assert row["note"].startswith(f"sells for {rules.chain_value(stone, length)} coin")
    trade, discard, deck = zones["Trade area and piles"]
    assert trade["cards"] == [face(stone) for stone in state.trade_area]
    assert discard["cards"] == [face(stone) for stone in state.discard[-1:]]
    assert deck["note"] == f"{len(state.deck)} card{'s' * (len(state.deck) != 1)}"
    assert tuple(score["score"] for score in view["scores"]) == state.points()
    assert [score["name"] for score in view["scores"]] == NAMES
    assert ("The deck is empty: the game is over." in view["facts"]) == state.is_over
    return view


def hidden_cards_reshuffled(state: State, seat: int, rng: random.Random) -> State:
    """The state with the cards ``seat`` cannot see (the opponent's hand and the deck) dealt anew."""
    other = state.clone()
    unseen = other.hands[1 - seat] + other.deck
    rng.shuffle(unseen)
    split = len(other.hands[1 - seat])
    other.hands[1 - seat], other.deck = unseen[:split], unseen[split:]
    return other


def play_and_view(rules_text: str, seed: int, chooser: str) -> None:
    """Play a whole game, drawing it for both seats at every decision and once over."""
    state = reference_state(games.load("gemstones", rules_text), seed, 0, whole_game=True)
    greedy, rng, shuffler = strategies.get("gemstones", "greedy"), np.random.default_rng(seed), random.Random(seed)
    while True:
        for seat in (0, 1):
            view = check_view(state, seat)
            assert table(hidden_cards_reshuffled(state, seat, shuffler), seat, NAMES) == view
        if state.is_over:
            return
        for action in state.legal_actions():
            assert action_face(action) is None or action_face(action) in FACES - {"back"}
        if chooser == "greedy" and state.current_player == 0:
            state.apply(int(greedy.choose(state.observe())[0]))
        else:
            state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("seed", [1, 2])
def test_greedy_against_random_games_are_drawn_faithfully(seed):
    play_and_view("", seed, "greedy")


def test_random_games_are_drawn_faithfully():
    play_and_view("", 3, "random")


def test_a_cheap_third_chain_and_a_final_sale_are_drawn_faithfully():
    play_and_view("third_chain_cost=0,final_sale=yes", 4, "random")


def test_only_chaining_actions_name_a_stone():
    faces = {action: action_face(action) for action in range(NUM_ACTIONS)}
    assert [faces[action] for action in range(rules.NUM_STONES)] == [stone.lower() for stone in rules.STONES]
    assert all(faces[action] is None for action in range(rules.NUM_STONES, NUM_ACTIONS))
