"""The batched deadwood of sim.ginrummy.melds against the reference rules, hand for hand: the least
deadwood, the cards melded (ties broken as the reference breaks them), the deadwood after each
discard, the best discard, knocking; and the shapes and inputs it takes or refuses."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.cards import NUM_CARDS, cards_in, mask_of, parse_card
from sim.ginrummy import melds, rules
from tests.ginrummy.test_batched_strategies import throw_key


def hand(text: str) -> int:
    return mask_of(parse_card(name) for name in text.split())


def reference(function, hands) -> np.ndarray:
    return np.array([function(int(mask)) for mask in hands], dtype=np.int64)


def reference_discards(hands) -> np.ndarray:
    expected = np.full((len(hands), NUM_CARDS), melds.NOT_HELD, dtype=np.int16)
    for row, mask in enumerate(hands):
        for card, left in rules.discard_deadwoods(int(mask)).items():
            expected[row, card] = left
    return expected


def dealt(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """``count`` random hands of ``size`` cards (int64 masks)."""
    cards = rng.permuted(np.tile(np.arange(NUM_CARDS), (count, 1)), axis=1)[:, :size]
    return (np.int64(1) << cards).sum(axis=1)


def crowded(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """Hands from a window of six ranks in all four suits: sets, runs and ties everywhere."""
    low = rng.integers(0, 8, count)
    window = rng.permuted(np.tile(np.arange(24), (count, 1)), axis=1)[:, :size]
    cards = (window // 6) * 13 + low[:, None] + window % 6
    return (np.int64(1) << cards).sum(axis=1)


hands_of_up_to_11 = st.sets(st.integers(0, NUM_CARDS - 1), max_size=melds.MAX_CARDS).map(mask_of)


@st.composite
def meldy_hands(draw) -> int:
    """Runs and sets (overlapping or not) plus a few loose cards, cut down to at most 11 cards."""
    cards: list[int] = []
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            suit, low = draw(st.integers(0, 3)), draw(st.integers(0, 10))
            length = draw(st.integers(3, 13 - low))
            cards += [suit * 13 + rank for rank in range(low, low + length)]
        else:
            rank = draw(st.integers(0, 12))
            cards += [suit * 13 + rank for suit in draw(st.sets(st.integers(0, 3), min_size=3))]
    cards += draw(st.lists(st.integers(0, NUM_CARDS - 1), max_size=3))
    distinct = list(dict.fromkeys(cards))
    kept = draw(st.permutations(distinct))[: draw(st.integers(0, melds.MAX_CARDS))]
    return mask_of(kept)


@settings(max_examples=60, deadline=None)
@given(st.lists(hands_of_up_to_11 | meldy_hands(), min_size=1, max_size=40))
def test_deadwood_and_melded_cards_match_the_reference(hands):
    masks = np.array(hands, dtype=np.uint64)
    assert melds.deadwood(masks).tolist() == [rules.deadwood(mask) for mask in hands]
    assert melds.melded_mask(masks).tolist() == [rules.melded_mask(mask) for mask in hands]


@settings(max_examples=40, deadline=None)
@given(st.lists(hands_of_up_to_11 | meldy_hands(), min_size=1, max_size=20))
def test_discards_and_knocks_match_the_reference(hands):
    masks = np.array(hands, dtype=np.int64)
    assert np.array_equal(melds.discard_deadwoods(masks), reference_discards(hands))
    assert melds.knocking_discards(masks).tolist() == [mask_of(rules.knocking_discards(mask)) for mask in hands]
    assert melds.may_knock(masks).tolist() == [rules.can_knock(mask) for mask in hands]


@pytest.mark.parametrize(
    ("cards", "deadwood", "melded"),
    [
        ("AC 2C 3C 9D", 9, "AC 2C 3C"),  # ace low
        ("QC KC AC 5D", 26, ""),  # no wrapping round the king
        ("2C 3C 4C 3D 3H", 6, "3C 3D 3H"),  # the 3C makes a run or a set: a tie, and the reference takes the set
        # Four of a kind and two runs through it tie three ways at 10; the reference leaves its lowest card out.
        ("5C 5D 5H 5S 4C 6C 4D 6D", 10, "5C 5H 5S 4D 5D 6D"),
        ("5C 5D 5H 5S 4C 6C", 0, "4C 5C 6C 5D 5H 5S"),  # a set of three lets the fourth card make a run
        ("3C 4C 5C 6C 7C 8C 6D 6H", 12, "3C 4C 5C 6C 7C 8C"),  # breaking the long run strands 7C 8C
        ("4C 5C 6C 7C 7D 7H 7S", 0, "4C 5C 6C 7C 7D 7H 7S"),  # the run gives its top card to the set of four
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC", 0, "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC"),
        ("KC KD KH KS QC QD QH QS JC JD JH", 0, "KC KD KH KS QC QD QH QS JC JD JH"),
        ("", 0, ""),
    ],
)
def test_known_hands(cards, deadwood, melded):
    mask = hand(cards)
    assert rules.deadwood(mask) == deadwood and rules.melded_mask(mask) == hand(melded)  # the reference agrees
    assert melds.deadwood(np.array([mask])).tolist() == [deadwood]
    assert melds.melded_mask(np.array([mask])).tolist() == [hand(melded)]


def test_every_single_suit_hand_matches_the_reference():
    # The run table itself, pattern by pattern: every rank pattern of a suit holding 11 cards or fewer.
    patterns = np.array([pattern for pattern in range(1 << 13) if pattern.bit_count() <= melds.MAX_CARDS])
    for suit in range(4):
        masks = patterns << (13 * suit)
        assert np.array_equal(melds.deadwood(masks), reference(rules.deadwood, masks))
        assert np.array_equal(melds.melded_mask(masks), reference(rules.melded_mask, masks))


@pytest.mark.parametrize("size", [10, 11])
def test_a_large_batch_matches_the_reference(size):
    rng = np.random.default_rng(size)
    masks = np.concatenate([dealt(rng, 15_000, size), crowded(rng, 5_000, size)])
    assert np.array_equal(melds.deadwood(masks), reference(rules.deadwood, masks))
    assert np.array_equal(melds.melded_mask(masks), reference(rules.melded_mask, masks))
    some = masks[::10]
    assert np.array_equal(melds.discard_deadwoods(some), reference_discards(some))


def test_the_best_discard_is_the_strategies_throw():
    rng = np.random.default_rng(3)
    masks = np.concatenate([dealt(rng, 1_500, 11), crowded(rng, 1_500, 11)])
    taken = np.array([rng.choice(list(cards_in(int(mask)))) for mask in masks])  # the card that may not go back
    allowed = np.repeat(masks & ~(np.int64(1) << taken), 2)[::2]  # strided, as a column of a table would be
    # Several cards barred (a caller's own rule, say): a mask of three to six of the hand's cards.
    several = np.array(
        [
            sum(1 << int(card) for card in rng.choice(list(cards_in(int(mask))), rng.integers(3, 7), replace=False))
            for mask in masks
        ]
    )
    for barred, permitted in ((None, None), (np.int64(1) << taken, allowed), (several, ~several & masks)):
        cards, deadwoods = melds.best_discards(masks, permitted)
        expected = [
            min(
                (card for card in cards_in(int(mask)) if barred is None or not (int(barred[row]) >> card) & 1),
                key=lambda card, mask=int(mask): throw_key(mask, card),
            )
            for row, mask in enumerate(masks)
        ]
        assert cards.tolist() == expected
        assert deadwoods.tolist() == [rules.deadwood(int(mask) & ~(1 << card)) for mask, card in zip(masks, expected)]


def test_a_hand_with_nothing_to_throw_gets_no_card():
    cards, deadwoods = melds.best_discards(np.array([0, hand("5C 6D")]), np.array([0, hand("6D")]))
    assert cards.tolist() == [-1, parse_card("6D")] and deadwoods.tolist() == [melds.NOT_HELD, 5]


def test_shapes_follow_the_input():
    rng = np.random.default_rng(5)
    grid = dealt(rng, 12, 11).reshape(3, 4)
    assert melds.deadwood(grid).shape == (3, 4)
    assert np.array_equal(melds.deadwood(grid).ravel(), melds.deadwood(grid.ravel()))
    assert melds.discard_deadwoods(grid).shape == (3, 4, NUM_CARDS)
    assert [part.shape for part in melds.best_discards(grid)] == [(3, 4), (3, 4)]
    assert melds.melded_mask(grid).shape == melds.knocking_discards(grid).shape == melds.may_knock(grid).shape == (3, 4)
    assert melds.deadwood(np.int64(hand("AC 2C 3C 9D"))).shape == ()
    empty = np.array([], dtype=np.uint64)
    assert melds.deadwood(empty).shape == (0,) and melds.deadwood([]).shape == (0,)
    assert melds.discard_deadwoods(empty).shape == (0, NUM_CARDS)
    assert melds.best_discards(empty)[0].shape == (0,)


def test_uint64_int64_and_lists_agree():
    masks = dealt(np.random.default_rng(6), 500, 10)
    expected = melds.deadwood(masks)
    assert melds.deadwood(masks).dtype == np.int16
    assert np.array_equal(melds.deadwood(masks.astype(np.uint64)), expected)
    assert np.array_equal(melds.deadwood(masks.tolist()), expected)
    assert np.array_equal(melds.discard_deadwoods(masks.astype(np.uint64)), melds.discard_deadwoods(masks))


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (np.array([0, hand("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC")]), r"hands\[1\] holds 12 cards"),
        (np.array([[0, 0], [1 << 52, 0]], dtype=np.uint64), r"hands\[1, 0\] = 0x10000000000000 has bits above card 51"),
        (np.array([-1]), "bits above card 51"),
    ],
)
def test_impossible_hands_are_refused(hands, message):
    for function in (melds.deadwood, melds.discard_deadwoods, melds.best_discards, melds.melded_mask):
        with pytest.raises(ValueError, match=message):
            function(hands)


def test_non_integer_masks_are_refused():
    with pytest.raises(TypeError, match="integers"):
        melds.deadwood(np.array([1.0]))
    with pytest.raises(ValueError, match=r"allowed\[0\]"):
        melds.best_discards(np.array([hand("5C")]), np.array([1 << 60]))
