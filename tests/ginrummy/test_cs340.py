"""The spec's organizing algorithm (Examples One to Seven) and its computer player's draw, discard and knock."""

import numpy as np
import pytest

import strategies
from sim.cards import parse_card
from sim.ginrummy import rules
from strategies.ginrummy.cs340 import choose_discard, choose_draw


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(name) for name in text.split()))


def test_the_five_categories():
    hand = "AC 2C 3C 9D 9H 9S KD KH 4S 5S JH"
    organization = rules.organize(hand.split())
    assert organization.sequences == (cards("AC 2C 3C"),)
    assert organization.groups == (cards("9D 9H 9S"),)
    assert organization.partial_groups == (cards("KD KH"),)
    assert organization.partial_sequences == (cards("4S 5S"),)
    assert organization.deadwood == cards("JH")
    assert organization.unmatched_value == 10 + 10 + 4 + 5 + 10


@pytest.mark.parametrize(
    "hand, sequences, groups, partial_groups, unmatched_value",
    [
        # Example One: breaking 6C leaves 4C 5C (9) < 12: break; 4C 5C become a partial sequence.
        ("4C 5C 6C 6H 6S", (), ("6C 6H 6S",), (), 9),
        # Example Two: breaking 4C would leave 11, not less than 8: keep the sequence.
        ("4C 5C 6C 4H 4S", ("4C 5C 6C",), (), ("4H 4S",), 8),
        # Example Three: a tie (10 = 10) — cardsim does not break.
        ("4C 5C 6C 5H 5S", ("4C 5C 6C",), (), ("5H 5S",), 10),
        # Example Four: 3C 4C 5C stays a sequence: broken value 0 < 12.
        ("3C 4C 5C 6C 6H 6S", ("3C 4C 5C",), ("6C 6H 6S",), (), 0),
        # Example Five: the seven-card sequence splits in two complete sequences.
        ("3C 4C 5C 6C 7C 8C 9C 6H 6S", ("3C 4C 5C", "7C 8C 9C"), ("6C 6H 6S",), (), 0),
        # Example Six: 7C left over (7 < 12): break.
        ("3C 4C 5C 6C 7C 6H 6S", ("3C 4C 5C",), ("6C 6H 6S",), (), 7),
        # Example Seven: 7C 8C left over (15, not less than 12): keep.
        ("3C 4C 5C 6C 7C 8C 6H 6S", ("3C 4C 5C 6C 7C 8C",), (), ("6H 6S",), 12),
    ],
    ids=["one", "two", "three", "four", "five", "six", "seven"],
)
def test_breaking_the_sequence(hand, sequences, groups, partial_groups, unmatched_value):
    organization = rules.organize(hand.split())
    assert organization.sequences == tuple(cards(s) for s in sequences)
    assert organization.groups == tuple(cards(g) for g in groups)
    assert organization.partial_groups == tuple(cards(p) for p in partial_groups)
    assert organization.unmatched_value == unmatched_value


def test_example_one_leaves_a_partial_sequence():
    assert rules.organize("4C 5C 6C 6H 6S".split()).partial_sequences == (cards("4C 5C"),)


def test_example_six_leaves_deadwood():
    assert rules.organize("3C 4C 5C 6C 7C 6H 6S".split()).deadwood == cards("7C")


def test_sets_are_lettered_in_category_order():
    organization = rules.organize("AC 2C 3C 9D 9H 9S KD KH 4S 5S JH QC".split())
    assert organization.sets() == [cards("AC 2C 3C"), cards("9D 9H 9S"), cards("KD KH"), cards("4S 5S"), cards("QC JH")]


@pytest.mark.parametrize(
    "hand, top, expected",
    [
        ("KD KH 2C 5D 8S TC 3H 6S 9D JS", "KS", "discard"),  # completes a partial group
        ("4S 5S 2C 8D TC 3H KH 6D 9D JC", "6S", "discard"),  # extends a partial sequence
        ("AC 2C 3C 9D TD QH KS 5H 7S JC", "4C", "discard"),  # extends a complete sequence
        ("7C 7D 7H 2S 9D JH KS 4C AD 5H", "7S", "discard"),  # the fourth of a group
        ("AC 3D 5H 7S 9C JD KH 2S 8H QC", "KC", "discard"),  # pairs with deadwood KH, more than one deadwood
        ("AC 2C 3C 4D 5D 6D 7H 8H 9H KS", "KD", "stock"),  # pairs with the only deadwood card
        ("AC 2C 3C 4D 5D 6D 7H 8H 9H KS", "2S", "stock"),  # helps nothing
    ],
)
def test_choose_draw(hand, top, expected):
    assert choose_draw(hand.split(), top) == expected


@pytest.mark.parametrize(
    "hand, card, knocks",
    [
        ("AC 2C 3C 4D 5D 6D 7H 8H 9H KS 2D", "KS", True),  # highest deadwood; 2D left: 2 points
        ("AC 2C 3C 4D 5D 6D 7H 8H KS QD 2D", "KS", False),  # deadwood KS QD 2D 7H 8H ... too much
        ("AC 2C 3C 4D 5D 6D 7H 8H 9H 2S 3S", "3S", True),  # no deadwood: highest of the partial sets
        ("AC 2C 3C 4D 5D 6D 7H 8H 9H TH JH", "JH", True),  # a sequence of five: gin after throwing its top
        ("AC 2C 3C 4D 5D 6D 9C 9D 9H 9S 2D", "2D", True),  # 2D is deadwood (4D-6D is the run)
    ],
)
def test_choose_discard(hand, card, knocks):
    assert choose_discard(hand.split()) == (parse_card(card), knocks)


def test_choose_discard_from_a_group_of_four():
    # Everything melded, no sequence of four: a card of a group of four goes (the highest: KS).
    assert choose_discard("AC 2C 3C 9C 9D 9H 9S KC KD KH KS".split()) == (parse_card("KS"), True)


def test_equal_values_throw_the_highest_rank_then_suit():
    card, _ = choose_discard("AC 2C 3C 4D 5D 6D 7H 8H 9H TS KD".split())
    assert card == parse_card("KD")  # TS and KD are both worth 10: the king goes


def test_a_card_just_taken_is_not_thrown_back():
    card, _ = choose_discard("AC 2C 3C 4D 5D 6D 7H 8H 9H KS 2D".split(), forbidden="KS")
    assert card == parse_card("2D")


def test_registered_player_answers_a_batch_of_one():
    from sim.ginrummy.engine import Hand

    hand = Hand(tuple(range(52)), dealer=0)
    player = strategies.get("ginrummy", "cs340")
    action = player.choose(hand.observe())
    assert action.shape == (1,) and int(action[0]) in hand.legal_actions()
    assert isinstance(action, np.ndarray)
