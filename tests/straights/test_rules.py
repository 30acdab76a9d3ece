"""Rule functions and the reference engine, checked on random play (hypothesis) and by hand."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.cards import cards_in, mask_of, parse_card, rank_of, suit_of
from sim.straights import rules
from sim.straights.engine import Discarded, Game, GameEnded, IllegalAction, Played, Round, RoundEnded, RoundStarted

decks = st.permutations(range(52))


def cards(text: str) -> list[int]:
    return [parse_card(name) for name in text.split()]


def naive_playable(table: int) -> set[int]:
    """The spec's wording, card by card: a 7, or a same-suit card of adjacent rank already played."""
    if table == 0:
        return {parse_card("7S")}
    played = set(cards_in(table))
    return {
        card
        for card in range(52)
        if card not in played
        and (
            rank_of(card) == 6
            or any(
                other in played and suit_of(other) == suit_of(card) and abs(rank_of(other) - rank_of(card)) == 1
                for other in range(52)
            )
        )
    }


def play_randomly(current: Round, chooser: random.Random) -> None:
    while not current.is_over:
        current.apply(chooser.choice(current.legal_actions()))


def test_the_specs_legal_play_examples():
    assert set(cards_in(rules.playable_mask(mask_of(cards("7S"))))) == set(cards("7D 7H 7C 8S 6S"))
    assert set(cards_in(rules.playable_mask(mask_of(cards("7S 8S"))))) == set(cards("9S 6S 7D 7H 7C"))


def test_king_and_ace_are_not_adjacent():
    table = mask_of(cards("7C 8C 9C TC JC QC KC 7D"))
    assert parse_card("AD") not in set(cards_in(rules.playable_mask(table)))
    table = mask_of(cards("7D 6D 5D 4D 3D 2D AD 7C"))
    assert parse_card("KC") not in set(cards_in(rules.playable_mask(table)))


def test_first_play_must_be_the_seven_of_spades_even_with_other_sevens():
    hand = cards("7C QS KH 5S 6S JD AD 7S 8D TD 6D TC KD")
    assert rules.legal_plays(hand, 0) == (parse_card("7S"),)


def test_points_and_winners():
    assert rules.discard_points(cards("AS 6H KD")) == 20
    assert rules.winners((65, 85, 23, 115)) == (2,)
    assert rules.winners((30, 81, 30, 50)) == (0, 2)
    assert not rules.is_game_over((79, 0, 0, 0)) and rules.is_game_over((80, 0, 0, 0))


@settings(max_examples=60, deadline=None)
@given(deck=decks, seed=st.integers(0, 2**32))
def test_random_rounds_obey_the_rules(deck, seed):
    chooser = random.Random(seed)
    current = Round(tuple(deck))
    assert parse_card("7S") in current.hands[current.leader]
    while not current.is_over:
        seat = current.current_player
        legal = current.legal_plays()
        assert set(legal) == naive_playable(current.table) & set(current.hands[seat])
        card = chooser.choice(current.legal_actions())
        (event,) = current.apply(card)
        # A player with a legal play never discards; one without always does.
        assert isinstance(event, Played if legal else Discarded)
    assert current.step == 52
    assert all(not hand for hand in current.hands)
    discarded = [card for pile in current.discards for card in pile]
    assert sorted(discarded + list(cards_in(current.table))) == list(range(52))
    assert current.points() == tuple(sum(rank_of(card) + 1 for card in pile) for pile in current.discards)


@settings(max_examples=30, deadline=None)
@given(deck=decks, data=st.data())
def test_discarding_while_holding_a_legal_play_is_refused(deck, data):
    current = Round(tuple(deck))
    chooser = random.Random(data.draw(st.integers(0, 1000)))
    for _ in range(data.draw(st.integers(0, 40))):
        current.apply(chooser.choice(current.legal_actions()))
    hand = current.hands[current.current_player]
    legal = current.legal_plays()
    for card in set(range(52)) - set(current.legal_actions()):
        with pytest.raises(IllegalAction):
            current.apply(card)
    if legal:
        assert set(current.legal_actions()) == set(legal) < set(hand) or set(legal) == set(hand)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_games_run_until_someone_reaches_80(seed):
    generator = random.Random(seed)

    def next_deck():
        deck = list(range(52))
        generator.shuffle(deck)
        return deck

    game = Game(next_deck)
    events = game.start()
    assert isinstance(events[0], RoundStarted)
    totals = [0] * 4
    while not game.is_over:
        for event in game.apply(generator.choice(game.legal_actions())):
            if isinstance(event, RoundEnded):
                assert event.old_scores == tuple(totals)
                totals = [old + gained for old, gained in zip(totals, event.points)]
                assert event.new_scores == tuple(totals)
                assert sum(event.points) == sum(rank_of(c) + 1 for pile in event.discards for c in pile)
            if isinstance(event, GameEnded):
                assert max(totals) >= 80
                assert event.winners == tuple(s for s in range(4) if totals[s] == min(totals))
    assert game.legal_actions() == ()
    with pytest.raises(IllegalAction):
        game.apply(0)
