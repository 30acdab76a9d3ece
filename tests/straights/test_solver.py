"""The open-hand end-of-round solver against a plain brute force over the rule functions, by hand, and
for consistency on positions too big to brute-force."""

import random
from functools import cache

import numpy as np
import pytest

from sim.cards import NUM_CARDS, cards_in, mask_of, parse_card
from sim.straights import rules
from strategies.straights.solver import MAXN, PARANOID, solve_moves, solve_points

SEATS = rules.NUM_PLAYERS
ALL = (1 << NUM_CARDS) - 1
Position = tuple[tuple[int, ...], int, int]  # each seat's hand mask, the table mask, the seat to move


def random_position(chooser: random.Random, cards_left: int) -> Position:
    """Play a random deal at random until ``cards_left`` cards are left in the hands."""
    deck = list(range(NUM_CARDS))
    chooser.shuffle(deck)
    hands = [mask_of(hand) for hand in rules.deal(deck)]
    mover = next(seat for seat in range(SEATS) if hands[seat] >> rules.SEVEN_OF_SPADES & 1)
    table = 0
    for _ in range(NUM_CARDS - cards_left):
        card = chooser.choice(rules.legal_actions(tuple(cards_in(hands[mover])), table))
        if rules.playable_mask(table) >> card & 1:
            table |= 1 << card
        hands[mover] &= ~(1 << card)
        mover = (mover + 1) % SEATS
    return tuple(hands), table, mover


def positions(seed: int, count: int, sizes: range) -> list[Position]:
    chooser = random.Random(seed)
    return [random_position(chooser, chooser.choice(sizes)) for _ in range(count)]


def arrays(batch: list[Position]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    hands = np.array([hands for hands, _, _ in batch], dtype=np.int64)
    return hands, np.array([table for _, table, _ in batch], dtype=np.int64), np.array([m for *_, m in batch])


# The brute force: the rules as written, every line of play, no cleverness.


def actions(hands: tuple[int, ...], table: int, mover: int) -> list[tuple[int, tuple[int, ...], int, int]]:
    """Each legal action of ``mover``: (card, hands after, table after, points it costs now)."""
    outcomes = []
    for card in rules.legal_actions(tuple(cards_in(hands[mover])), table):
        after = tuple(hand & ~(1 << card) if seat == mover else hand for seat, hand in enumerate(hands))
        if rules.playable_mask(table) >> card & 1:
            outcomes.append((card, after, table | 1 << card, 0))
        else:
            outcomes.append((card, after, table, rules.card_points(card)))
    return outcomes


def next_mover(hands: tuple[int, ...], mover: int) -> int:
    """The mover, or the first seat after it that still holds a card."""
    return next((mover + step) % SEATS for step in range(SEATS) if hands[(mover + step) % SEATS])


def added(points: tuple[int, ...], seat: int, cost: int) -> tuple[int, ...]:
    return tuple(p + cost if s == seat else p for s, p in enumerate(points))


@cache
def maxn_points(hands: tuple[int, ...], table: int, mover: int) -> tuple[int, ...]:
    """The points each seat still loses, each seat minimising its own; ties: more for the others
    together, then for the next seat, then for the one after."""
    if not any(hands):
        return (0,) * SEATS
    mover = next_mover(hands, mover)
    outcomes = [
        added(maxn_points(after, new_table, (mover + 1) % SEATS), mover, cost)
        for _, after, new_table, cost in actions(hands, table, mover)
    ]

    def order(points: tuple[int, ...]) -> tuple[int, ...]:
        own = points[mover]
        return own, -(sum(points) - own), -points[(mover + 1) % SEATS], -points[(mover + 2) % SEATS]

    return min(outcomes, key=order)


def margin(points: tuple[int, ...], root: int) -> int:
    """3 x (root's points - the mean of the others')."""
    return 4 * points[root] - sum(points)


@cache
def paranoid_value(hands: tuple[int, ...], table: int, mover: int, root: int) -> int:
    """3 x (root's points - the others' mean) still to lose: root minimises, the others maximise."""
    if not any(hands):
        return 0
    mover = next_mover(hands, mover)
    values = [
        margin(added((0,) * SEATS, mover, cost), root) + paranoid_value(after, new_table, (mover + 1) % SEATS, root)
        for _, after, new_table, cost in actions(hands, table, mover)
    ]
    return min(values) if mover == root else max(values)


def paranoid_line(hands: tuple[int, ...], table: int, mover: int, root: int) -> tuple[int, ...]:
    """The points lost along the PARANOID line taking the lowest card that keeps the value."""
    points = (0,) * SEATS
    while any(hands):
        mover = next_mover(hands, mover)
        value = paranoid_value(hands, table, mover, root)
        for _card, after, new_table, cost in sorted(actions(hands, table, mover)):
            spent = margin(added((0,) * SEATS, mover, cost), root)
            if spent + paranoid_value(after, new_table, (mover + 1) % SEATS, root) == value:
                hands, table, points = after, new_table, added(points, mover, cost)
                break
        mover = (mover + 1) % SEATS
    return points


def brute_force(position: Position, rule: int) -> tuple[np.ndarray, np.ndarray]:
    """``solve_moves`` and ``solve_points`` for one position, by brute force."""
    hands, table, mover = position
    values = np.full(NUM_CARDS, np.nan)
    points = np.full((NUM_CARDS, SEATS), np.nan)
    for card, after, new_table, cost in actions(hands, table, mover):
        if rule == MAXN:
            points[card] = added(maxn_points(after, new_table, (mover + 1) % SEATS), mover, cost)
            values[card] = points[card, mover]
        else:
            later = paranoid_value(after, new_table, (mover + 1) % SEATS, mover)
            values[card] = (margin(added((0,) * SEATS, mover, cost), mover) + later) / 3
            points[card] = added(paranoid_line(after, new_table, (mover + 1) % SEATS, mover), mover, cost)
    return values, points


# The tests.


@pytest.mark.parametrize("rule", [MAXN, PARANOID])
def test_small_positions_match_the_brute_force(rule: int) -> None:
    batch = positions(seed=20240 + rule, count=400, sizes=range(4, 10))
    assert sum(not rules.playable_mask(table) & hands[mover] for hands, table, mover in batch) > 50  # discards
    check_against_brute_force(batch, rule)


@pytest.mark.parametrize("rule", [MAXN, PARANOID])
def test_medium_positions_match_the_brute_force(rule: int) -> None:
    check_against_brute_force(positions(seed=31 + rule, count=60, sizes=range(10, 19)), rule)


def check_against_brute_force(batch: list[Position], rule: int) -> None:
    values, points = solve_moves(*arrays(batch), rule), solve_points(*arrays(batch), rule)
    for row, position in enumerate(batch):
        expected_values, expected_points = brute_force(position, rule)
        np.testing.assert_array_equal(values[row], expected_values, err_msg=str(position))
        np.testing.assert_array_equal(points[row], expected_points, err_msg=str(position))


def cards(text: str) -> int:
    return mask_of(parse_card(name) for name in text.split())


def table_without(text: str) -> int:
    """Every card on the table but these (held, or discarded before)."""
    return ALL & ~cards(text)


def solve_one(hands: list[int], table: int, mover: int, rule: int, points: bool = False) -> np.ndarray:
    solve = solve_points if points else solve_moves
    return solve(np.array([hands]), np.array([table]), np.array([mover]), rule)[0]


def test_a_seat_without_plays_discards_its_cheapest_card_when_both_come_back() -> None:
    # Clubs are on the table from 6 to 8, A-3 and J-K were discarded. Seat 0 holds 4C and TC and must
    # discard one; seat 1's 5C and seat 2's 9C then let it play the other.
    hands = [cards("4C TC"), cards("5C"), cards("9C"), 0]
    table = table_without("AC 2C 3C 4C 5C 9C TC JC QC KC")
    for rule in (MAXN, PARANOID):
        values = solve_one(hands, table, 0, rule)
        assert values[parse_card("4C")] == 4 and values[parse_card("TC")] == 10
        assert np.isnan(np.delete(values, [parse_card("4C"), parse_card("TC")])).all()


def test_a_dead_card_goes_first_even_when_dearer() -> None:
    # The QD was discarded, so seat 0's KD can never be played; its 5C can, once seat 1 plays the 6C.
    # Discarding the king now saves the five: 13 points rather than 5 + 13.
    hands = [cards("5C KD"), cards("6C"), 0, 0]
    table = table_without("AC 2C 3C 4C 5C 6C QD KD")
    points = solve_one(hands, table, 0, MAXN, points=True)
    assert points[parse_card("KD")].tolist() == [13, 0, 0, 0]
    assert points[parse_card("5C")].tolist() == [18, 0, 0, 0]


def test_a_seat_indifferent_for_itself_hurts_the_others_under_maxn() -> None:
    # Seat 0 must play its 8S. Seat 1 then plays its 6C or its 8D, and plays the other next turn: it
    # loses nothing either way. The 6C would let seat 2 play its 5C; after the 8D seat 2 has no play
    # and discards the 5C. Under MAXN seat 1 picks the 8D (the lowest card id would be the 6C); under
    # PARANOID, against seat 0, it opens the 5C for seat 2.
    hands = [cards("8S"), cards("6C 8D"), cards("5C"), 0]
    table = table_without("AC 2C 3C 4C 5C 6C 8D 9D TD JD QD KD 8S 9S TS JS QS KS")
    assert solve_one(hands, table, 0, MAXN, points=True)[parse_card("8S")].tolist() == [0, 0, 5, 0]
    assert solve_one(hands, table, 0, PARANOID, points=True)[parse_card("8S")].tolist() == [0, 0, 0, 0]
    assert solve_one(hands, table, 0, PARANOID)[parse_card("8S")] == 0


def test_a_mover_with_no_cards_has_no_actions() -> None:
    values = solve_one([0, cards("8C"), 0, 0], table_without("8C 9C TC JC QC KC"), 0, MAXN)
    assert np.isnan(values).all()


@pytest.mark.parametrize("rule", [MAXN, PARANOID])
def test_bigger_positions_are_consistent(rule: int) -> None:
    batch = positions(seed=99 + rule, count=40, sizes=range(16, 23))
    hands, table, mover = arrays(batch)
    values, points = solve_moves(hands, table, mover, rule), solve_points(hands, table, mover, rule)
    for row, (held, on_table, seat) in enumerate(batch):
        legal = mask_of(rules.legal_actions(tuple(cards_in(held[seat])), on_table))
        is_legal = np.array([legal >> card & 1 == 1 for card in range(NUM_CARDS)])
        assert not np.isnan(values[row, is_legal]).any() and np.isnan(values[row, ~is_legal]).all()
        assert not np.isnan(points[row, is_legal]).any() and np.isnan(points[row, ~is_legal]).all()
        line = points[row, is_legal]
        # No seat loses more than it holds, and the mover's points are what its value says.
        assert (line >= 0).all() and (line <= [rules.discard_points(cards_in(hand)) for hand in held]).all()
        mine, others = line[:, seat], np.delete(line, seat, axis=1)
        expected = mine if rule == MAXN else mine - others.mean(axis=1)
        np.testing.assert_allclose(values[row, is_legal], expected, rtol=0, atol=1e-9)


def test_answers_do_not_depend_on_what_was_solved_before() -> None:
    # Each thread keeps its transposition table between calls: a row alone, a batch, and the batch
    # again (from a table full of its own entries) agree.
    batch = positions(seed=7, count=30, sizes=range(8, 17))
    for rule in (MAXN, PARANOID):
        together = solve_points(*arrays(batch), rule)
        np.testing.assert_array_equal(solve_points(*arrays(batch), rule), together)
        for row, position in enumerate(batch[:10]):
            np.testing.assert_array_equal(solve_points(*arrays([position]), rule)[0], together[row])


def test_positions_no_round_reaches_are_refused() -> None:
    hands = np.array([[cards("4C"), cards("5C"), 0, 0]])
    with pytest.raises(ValueError, match="7 of spades"):
        solve_moves(hands, np.array([cards("7C")]), np.array([0]), MAXN)
    with pytest.raises(ValueError, match="disjoint"):
        solve_moves(hands, np.array([cards("7S 4C")]), np.array([0]), MAXN)
    with pytest.raises(ValueError, match="piles"):
        solve_moves(hands, np.array([cards("7S 9S")]), np.array([0]), MAXN)
    with pytest.raises(ValueError, match="at most 13"):
        solve_moves(
            np.array([[ALL & ~cards("7S") & ((1 << 14) - 1), 0, 0, 0]]), np.array([cards("7S")]), np.array([0]), 0
        )
    with pytest.raises(ValueError, match="rule"):
        solve_moves(hands, np.array([cards("7S")]), np.array([0]), 2)
