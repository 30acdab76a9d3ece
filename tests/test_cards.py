import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.cards import CardError, card_name, cards_in, format_cards, mask_of, nth_card, parse_card, rank_of, suit_of


def test_ids_follow_the_specs_initial_deck_order():
    names = [card_name(card) for card in range(52)]
    assert names[:3] == ["AC", "2C", "3C"]
    assert names[12:14] == ["KC", "AD"]
    assert names[-1] == "KS"
    assert " ".join(names[9:13]) == "TC JC QC KC"


@pytest.mark.parametrize("card", range(52))
def test_parse_and_format_round_trip(card):
    assert parse_card(card_name(card)) == card
    assert parse_card(card_name(card).lower()) == card


def test_rank_and_suit():
    seven_of_spades = parse_card("7S")
    assert (rank_of(seven_of_spades), suit_of(seven_of_spades)) == (6, 3)


@pytest.mark.parametrize("text", ["", "7", "10S", "ZZ", "7X", "7SS", "S7"])
def test_malformed_cards_are_refused(text):
    with pytest.raises(CardError, match="not a card"):
        parse_card(text)


def test_masks():
    cards = [parse_card(name) for name in ("KS", "AC", "7H")]
    assert list(cards_in(mask_of(cards))) == sorted(cards)
    assert format_cards(cards) == "KS AC 7H"


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 62), min_size=1, max_size=63, unique=True), st.data())
def test_nth_card_picks_the_nth_lowest_card(cards, data):
    """nth_card(mask, n) is the n-th card of the mask in ascending id order, for every n."""
    mask = mask_of(cards)
    ns = np.arange(len(cards))
    assert nth_card(np.full(len(cards), mask, dtype=np.int64), ns).tolist() == sorted(cards)
    n = data.draw(st.integers(0, len(cards) - 1))
    assert nth_card(np.array([mask], dtype=np.int64), np.array([n])).tolist() == [sorted(cards)[n]]
