"""Straights drawn for one seat (sim.straights.view): the table, the hand and the legal plays, and
never another seat's cards."""

from __future__ import annotations

import numpy as np

from sim import games
from sim.cards import card_name
from sim.play import reference_state
from sim.straights import rules
from sim.straights.view import action_face, table
from tests.views import check_table_view, faces_shown, zone

GAME = games.load("straights")
NAMES = ["Ann", "Bo", "Cy", "Di"]


def test_a_seat_sees_its_hand_the_table_and_no_other_hand() -> None:
    rng = np.random.default_rng(3)
    for seed in range(3):
        state = reference_state(GAME, seed, seed, whole_game=True)
        while not state.is_over:
            current = state.live_round()
            for seat in range(rules.NUM_PLAYERS):
                view = table(state, seat, NAMES)
                check_table_view(view)
                shown = faces_shown(view)
                hidden = {
                    card_name(card)
                    for other in range(rules.NUM_PLAYERS)
                    if other != seat
                    for card in current.hands[other]
                }
                hidden |= {
                    card_name(card)
                    for other in range(rules.NUM_PLAYERS)
                    if other != seat
                    for card in current.discards[other]
                }
                assert not hidden & shown
                hand = zone(view, "Your hand")["rows"][0]
                assert hand["cards"] == [card_name(card) for card in sorted(current.hands[seat])]
                assert view["scores"] == [{"name": name, "score": score} for name, score in zip(NAMES, state.scores)]
            legal = state.legal_actions()
            mover = sorted(current.hands[state.current_player])
            assert all(action_face(action) in {card_name(card) for card in mover} for action in legal)
            state.apply(int(legal[rng.integers(len(legal))]))
        # Once the game is over the last round's discards are shown face up.
        over = table(state, 0, NAMES)
        discards = zone(over, "Discards")["rows"]
        assert all("back" not in row["cards"] for row in discards)


def test_a_turn_without_a_legal_play_says_to_discard() -> None:
    state = reference_state(GAME, 1, 0, whole_game=True)
    while state.live_round().legal_plays():
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    hand = zone(table(state, seat, NAMES), "Your hand")["rows"][0]
    assert hand["note"] == "No legal play: discard a card"
