"""Euchre's table view: whole games drawn for every seat at every decision show what the seat may see
and nothing it may not."""

import numpy as np

import strategies
from sim import games
from sim.cards import card_name, parse_card
from sim.euchre import rules, view
from sim.euchre.engine import Game
from sim.euchre.observation import NONE, PASS, Phase, order_up
from sim.play import reference_state
from tests.views import PLAYING_CARD_FACES, check_table_view, faces_shown, zone

GAME = games.load("euchre")
NAMES = ("South", "West", "North", "East")
FACES = PLAYING_CARD_FACES
SIMPLE = strategies.get("euchre", "simple")


def played_games(seeds, random_seats=(1, 3)):
    """Whole games of Simple players (random legal actions in ``random_seats``), yielding the state at
    every decision and once the game is over."""
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = reference_state(GAME, seed, 0, whole_game=True)
        while not state.is_over:
            yield state
            legal = state.legal_actions()
            if state.current_player in random_seats:
                state.apply(int(legal[rng.integers(len(legal))]))
            else:
                state.apply(int(SIMPLE.choose(state.observe())[0]))
        yield state


def hidden_from(state: Game, seat: int) -> set[str]:
    """Faces ``seat`` may not see: the other hands, the undealt cards and another seat's discard."""
    hand = state.hand
    cards = {card for other in range(rules.NUM_PLAYERS) if other != seat for card in hand.hands[other]}
    cards |= set(hand.pack[rules.UPCARD_POSITION + 1 :])
    if seat != hand.dealer and hand.discard != NONE:
        cards.add(hand.discard)
    return {card_name(card) for card in cards}


def test_every_view_of_whole_games_shows_only_what_the_seat_may_see():
    views = 0
    for state in played_games(range(3)):
        for seat in range(rules.NUM_PLAYERS):
            table = view.table(state, seat, NAMES)
            views += 1
            check_table_view(table)
            shown = faces_shown(table)
            assert not shown & hidden_from(state, seat)
            (own,) = zone(table, "Your hand")["rows"]
            assert sorted(own["cards"]) == sorted(card_name(card) for card in state.hand.hands[seat])
            backs = [row["cards"].count("back") for row in zone(table, "Other hands")["rows"]]
            assert sum(backs) == sum(len(state.hand.hands[other]) for other in range(4) if other != seat)
            if not state.is_over and state.current_player == seat:
                for action in state.legal_actions():
                    face = view.action_face(action)
                    assert face is None or face in own["cards"]
                    assert (face is None) == (state.hand.phase == Phase.MAKING)
    assert views > 500


def test_the_upcard_is_shown_while_making_and_the_trump_after():
    state = reference_state(GAME, 7, 0, whole_game=True)
    hand = state.hand
    table = view.table(state, 0, NAMES)
    assert zone(table, "Upcard")["rows"] == [
        {"label": NAMES[hand.dealer], "cards": [card_name(hand.upcard)], "note": "turned up by the dealer"}
    ]
    assert f"Hand 1, dealt by {NAMES[hand.dealer]}" in table["facts"]
    while hand.phase == Phase.MAKING:  # Spades is ordered up in round one if turned up, else in round two
        state.apply(order_up(3) if order_up(3) in state.legal_actions() else PASS)
    table = view.table(state, 0, NAMES)
    assert "Upcard" not in [zone["title"] for zone in table["zones"]]
    maker = NAMES[hand.maker]
    assert f"Trump: Spades, ordered up by {maker} in round {hand.making_round}" in table["facts"]
    (own,) = zone(table, "Your hand")["rows"]
    trumps = [rules.is_trump(parse_card(face), rules.SPADES) for face in own["cards"]]
    assert trumps == sorted(trumps)  # the trumps, with the left bower, come last
    assert table["scores"] == [{"name": "South and North", "score": 0}, {"name": "West and East", "score": 0}]


def test_the_trick_shows_each_card_by_its_seat_and_the_last_one_its_taker():
    last_tricks = 0
    for state in played_games([11]):
        hand = state.hand
        table = view.table(state, 2, NAMES)
        titles = [zone["title"] for zone in table["zones"]]
        (trick,) = [zone(table, title) for title in titles if title in ("Trick", "Last trick")]
        seats = [NAMES.index(row["label"]) for row in trick["rows"]]
        assert seats == [rules.left_of(seats[0], offset) for offset in range(4)]
        cards = [card for row in trick["rows"] for card in row["cards"]]
        if trick["title"] == "Trick":
            assert seats[0] == hand.leader and cards == [card_name(card) for card in hand.trick]
            continue
        last_tricks += 1
        assert not hand.trick and cards == [card_name(card) for card in hand.played[-4:]]
        assert rules.trick_winner(hand.played[-4:], seats[0], hand.trump) == hand.leader
        assert [row["label"] for row in trick["rows"] if "note" in row] == [NAMES[hand.leader]]
    assert last_tricks > 10


def test_action_faces():
    assert view.action_face(rules.NEW_PACK[0]) == card_name(rules.NEW_PACK[0])
    assert view.action_face(PASS) is None
    assert all(view.action_face(order_up(suit)) is None for suit in range(4))
