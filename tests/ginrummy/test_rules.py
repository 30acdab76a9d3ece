"""Gin Rummy rules: optimal deadwood against brute force, melds, layoffs, hand and game scoring."""

import itertools
import random

import pytest

from sim.cards import mask_of, parse_card
from sim.ginrummy import rules


def cards(text: str) -> list[int]:
    return [parse_card(name) for name in text.split()]


def brute_deadwood(hand: list[int]) -> int:
    """Least deadwood by trying every set of disjoint melds among all melds inside the hand."""
    held = set(hand)
    runs = [
        mask_of(suit * 13 + rank for rank in range(low, high + 1))
        for suit in range(4)
        for low in range(13)
        for high in range(low + 2, 13)
        if all(suit * 13 + rank in held for rank in range(low, high + 1))
    ]
    sets = [
        mask_of(combo)
        for rank in range(13)
        for size in (3, 4)
        for combo in itertools.combinations([c for c in hand if c % 13 == rank], size)
    ]
    melds = runs + sets
    total = rules.cards_value(hand)
    best = total

    def search(start: int, used: int, saved: int) -> None:
        nonlocal best
        best = min(best, total - saved)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                search(i + 1, used | melds[i], saved + rules.mask_value(melds[i]))

    search(0, 0, 0)
    return best


def meldy_hand(rng: random.Random, size: int) -> list[int]:
    """A hand from a few suits and nearby ranks, so melds are common and the search is tested hard."""
    pool = [
        suit * 13 + rank for suit in rng.sample(range(4), rng.randint(2, 4)) for rank in range(rng.randint(0, 4), 13)
    ]
    return rng.sample(pool, size)


@pytest.mark.parametrize("size", [10, 11])
def test_deadwood_matches_brute_force(size):
    rng = random.Random(size)
    for trial in range(1500):
        hand = rng.sample(range(52), size) if trial % 2 else meldy_hand(rng, size)
        assert rules.deadwood(mask_of(hand)) == brute_deadwood(hand), hand


def test_knocking_discards_are_the_discards_that_leave_a_knock():
    rng = random.Random(7)
    knockers = 0
    for trial in range(3000):
        hand = mask_of(rng.sample(range(52), 11) if trial % 3 == 0 else meldy_hand(rng, 11))
        expected = [card for card in range(52) if hand >> card & 1 and rules.can_knock(hand & ~(1 << card))]
        assert rules.knocking_discards(hand) == expected
        knockers += bool(expected)
    assert knockers > 50  # some hands do knock (68 with this seed), so both outcomes are checked


def test_best_arrangement_is_melds_plus_the_deadwood():
    rng = random.Random(5)
    for _ in range(300):
        hand = meldy_hand(rng, 11)
        melds, loose = rules.best_arrangement(mask_of(hand))
        assert all(rules.is_meld(list(meld)) for meld in melds)
        assert sorted([c for meld in melds for c in meld] + loose) == sorted(hand)
        assert rules.cards_value(loose) == rules.deadwood(mask_of(hand))


def test_card_values_and_melds():
    assert [rules.card_value(c) for c in cards("AC 2C 9D TD JH QS KS")] == [1, 2, 9, 10, 10, 10, 10]
    assert rules.is_run(cards("AC 2C 3C")) and not rules.is_run(cards("QD KD AD"))
    assert not rules.is_run(cards("KS AS 2S")) and not rules.is_run(cards("4C 5C 6D"))
    assert rules.is_set(cards("7C 7D 7S")) and rules.is_set(cards("7C 7D 7H 7S")) and not rules.is_set(cards("7C 7D"))
    assert rules.deadwood(mask_of(cards("QD KD AD"))) == 21  # no wrap-around


def test_a_card_counts_in_one_meld_only():
    # 7C could finish the run or the set, not both: the best is the run 5C-7C plus 7D 7H loose, or the set.
    hand = cards("5C 6C 7C 7D 7H")
    assert rules.deadwood(mask_of(hand)) == 11  # set 7C 7D 7H leaves 5C 6C (11); run leaves 7D 7H (14)


def test_layoff_tries_runs_before_sets():
    run, group = cards("4C 5C 6C"), cards("7D 7H 7S")
    laid, left = rules.lay_off(cards("7C 8C KD"), [run, group])
    assert laid == [(parse_card("7C"), 0), (parse_card("8C"), 0)]  # 7C goes on the run, then 8C follows
    assert left == cards("KD")


def test_layoff_onto_a_set_and_never_a_fifth():
    laid, left = rules.lay_off(cards("9D 9S"), [cards("9C 9H 9S")])
    assert laid == [(parse_card("9D"), 0)] and left == cards("9S")  # 9S is already in the set: stays


@pytest.mark.parametrize(
    "knocker_deadwood, defender_deadwood, expected",
    [
        (5, 12, rules.HandScore(0, 7, "knock")),
        (5, 5, rules.HandScore(1, 10, "undercut")),  # a tie is an undercut
        (8, 3, rules.HandScore(1, 15, "undercut")),
        (0, 0, rules.HandScore(0, 20, "gin")),  # gin cannot be undercut
        (0, 31, rules.HandScore(0, 51, "gin")),
    ],
)
def test_hand_scores(knocker_deadwood, defender_deadwood, expected):
    assert rules.score_knock(0, knocker_deadwood, defender_deadwood) == expected


def test_game_bonus_box_bonus_and_shutout():
    assert rules.game_winner((99, 40)) is None and rules.game_winner((40, 100)) == 1
    # The loser can finish ahead: box bonuses do not count toward the 100.
    assert rules.final_scores((104, 90), (2, 6), 0) == (104 + 100 + 40, 90 + 120)
    assert rules.final_scores((0, 120), (0, 3), 1) == (0, 120 + 200 + 60)  # shutout
