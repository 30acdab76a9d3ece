"""Gin Rummy's table view: whole games drawn for both seats at every decision show what the seat may
see and nothing it may not, the opponent's melds once a knock ends the game's last hand."""

import strategies
from sim import games
from sim.api import Zone
from sim.cards import card_name, cards_in, parse_card
from sim.ginrummy import rules, view
from sim.ginrummy.engine import Game, HandEnded
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, knock
from sim.play import reference_state
from tests.views import PLAYING_CARD_FACES, check_table_view, faces_shown, zone

GAME = games.load("ginrummy")
NAMES = ("Ada", "Bo")
FACES = PLAYING_CARD_FACES
PLAYERS = (strategies.get("ginrummy", "simple"), strategies.get("ginrummy", "cs340"))


def played_games(seeds):
    """Whole games of Simple (seat 0) against CS 340, yielding the state at every decision and once
    the game is over."""
    for seed in seeds:
        state = reference_state(GAME, seed, seed, whole_game=True)
        while not state.is_over:
            yield state
            state.apply(int(PLAYERS[state.current_player].choose(state.observe())[0]))
        yield state


def hidden_from(state: Game, seat: int) -> set[str]:
    """Faces ``seat`` may not see: the stock and, until a knock lays it down, the opponent's hand but
    for the cards it took from the discard pile."""
    hand = state.hand
    cards = set(hand.stock)
    if not isinstance(hand.ended, HandEnded):
        cards |= set(cards_in(hand.hands[1 - seat] & ~hand.took[1 - seat]))
    return {card_name(card) for card in cards}


def shown_cards(zone: Zone) -> list[int]:
    return [parse_card(face) for row in zone["rows"] for face in row["cards"] if face != "back"]


def test_every_view_of_whole_games_shows_only_what_the_seat_may_see():
    views = 0
    for state in played_games(range(2)):
        hand = state.hand
        for seat in range(rules.NUM_PLAYERS):
            table = view.table(state, seat, NAMES)
            views += 1
            check_table_view(table)
            shown = faces_shown(table)
            assert not shown & hidden_from(state, seat)
            own = shown_cards(zone(table, "Your hand"))
            assert sorted(own) == list(cards_in(hand.hands[seat]))
            assert zone(table, "Stock and discard pile")["rows"][1]["cards"] == [card_name(c) for c in hand.pile[-1:]]
            if not isinstance(hand.ended, HandEnded):
                (opponent,) = zone(table, "Opponent's hand")["rows"]
                assert len(opponent["cards"]) == hand.hands[1 - seat].bit_count()
                assert shown_cards(zone(table, "Opponent's hand")) == list(cards_in(hand.took[1 - seat]))
            if not state.is_over and state.current_player == seat:
                for action in state.legal_actions():
                    face = view.action_face(action)
                    assert (face is None) == (action in (DRAW_STOCK, DRAW_DISCARD))
                    assert face is None or parse_card(face) in own
    assert views > 200


def test_the_deadwood_fact_and_row_are_the_rules_deadwood_of_the_hand():
    for state in played_games([5]):
        for seat in range(rules.NUM_PLAYERS):
            table = view.table(state, seat, NAMES)
            least = rules.deadwood(state.hand.hands[seat])
            assert f"Deadwood: {least}" in table["facts"]
            *melds, deadwood = zone(table, "Your hand")["rows"]
            assert deadwood["label"] == "Deadwood" and deadwood["note"] == f"{least} points"
            assert all(rules.is_meld([parse_card(face) for face in meld["cards"]]) for meld in melds)


def test_the_game_over_view_lays_the_opponents_melds_down_and_shows_the_final_scores():
    *_, state = played_games([3])
    ended = state.hand.ended
    assert state.is_over and isinstance(ended, HandEnded)
    defender = 1 - ended.knocker
    table = view.table(state, ended.knocker, NAMES)
    melds = zone(table, "Opponent's melds")["rows"]
    assert sorted(shown_cards({"title": "", "rows": melds})) == list(cards_in(state.hand.hands[defender]))
    assert [row["cards"] for row in melds[:-1]] == [
        [card_name(c) for c in meld] for meld in ended.defender_layout.melds
    ]
    assert melds[-1]["label"] == "Unmatched"
    assert f"{NAMES[ended.score.winner]} scored {ended.score.points} points" in table["facts"]
    assert table["scores"] == [{"name": NAMES[seat], "score": state.points()[seat]} for seat in range(2)]


def test_action_faces():
    assert view.action_face(DRAW_STOCK) is None and view.action_face(DRAW_DISCARD) is None
    assert view.action_face(parse_card("7S")) == "7S"
    assert view.action_face(knock(parse_card("TD"))) == "TD"
