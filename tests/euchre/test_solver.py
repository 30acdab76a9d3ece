"""The open-hand trick solver: every legal card's value equals a plain minimax over the rules' own
``legal_plays`` and ``trick_winner``, on random positions and on hands checked by reasoning."""

import random
from functools import cache

import numpy as np
import pytest

from sim.cards import rank_of, suit_of
from sim.euchre import rules
from sim.euchre.rules import HEARTS, SPADES
from strategies.euchre.solver import solve_moves

TRICKS = rules.TRICKS_PER_HAND


def card(text: str) -> int:
    return rules.parse_long_name(text)


def cards(*names: str) -> list[int]:
    return [card(name) for name in names]


# A position: (hands: four lists of cards, trump, leader of the current trick, its cards, tricks by team).


def random_position(rng: random.Random, cards_played: int):
    """A random deal after trump is made, played on by ``cards_played`` random legal cards."""
    pack = list(rules.NEW_PACK)
    rng.shuffle(pack)
    hands = [pack[seat * 5 : seat * 5 + 5] for seat in range(4)]
    trump, leader, trick, taken = rng.randrange(4), rng.randrange(4), [], [0, 0]
    for _ in range(cards_played):
        seat = (leader + len(trick)) % 4
        played = rng.choice(rules.legal_plays(hands[seat], trick, trump))
        hands[seat].remove(played)
        trick.append(played)
        if len(trick) == 4:
            leader = rules.trick_winner(trick, leader, trump)
            taken[rules.team_of(leader)] += 1
            trick = []
    return hands, trump, leader, trick, taken


def mover(position) -> int:
    _, _, leader, trick, _ = position
    return (leader + len(trick)) % 4


def as_arrays(positions):
    n = len(positions)
    hands = np.zeros((n, 4), dtype=np.int64)
    trump, leader = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    trick, taken = np.full((n, 3), -1, dtype=np.int64), np.zeros((n, 2), dtype=np.int64)
    for row, (held, trumps, lead, played, tricks) in enumerate(positions):
        for seat in range(4):
            hands[row, seat] = sum(1 << c for c in held[seat])
        trump[row], leader[row], taken[row] = trumps, lead, tricks
        trick[row, : len(played)] = played
    return hands, trump, leader, trick, taken


def solve(positions) -> np.ndarray:
    return solve_moves(*as_arrays(positions))


def brute_force(position) -> np.ndarray:
    """(52,) the mover's team's tricks at the end of the hand after each legal card, by plain minimax
    (team 0 maximises its tricks, team 1 minimises them), -1 for other cards."""
    hands, trump, leader, trick, taken = position

    def play(hands, seat, played):
        return tuple(tuple(c for c in hand if c != played) if s == seat else hand for s, hand in enumerate(hands))

    @cache
    def team_zero_tricks(hands, leader, trick):  # from the current trick to the end of the hand
        if len(trick) == 4:
            winner = rules.trick_winner(trick, leader, trump)
            return (rules.team_of(winner) == 0) + team_zero_tricks(hands, winner, ())
        seat = (leader + len(trick)) % 4
        if not hands[seat]:
            return 0
        values = [
            team_zero_tricks(play(hands, seat, c), leader, trick + (c,))
            for c in rules.legal_plays(hands[seat], trick, trump)
        ]
        return max(values) if rules.team_of(seat) == 0 else min(values)

    hands, trick = tuple(tuple(sorted(hand)) for hand in hands), tuple(trick)
    seat = mover(position)
    team, left = rules.team_of(seat), len(hands[seat])
    values = np.full(52, -1, dtype=np.int64)
    for c in rules.legal_plays(hands[seat], trick, trump):
        zero = team_zero_tricks(play(hands, seat, c), leader, trick + (c,))
        values[c] = taken[team] + (zero if team == 0 else left - zero)
    return values


def test_every_value_agrees_with_brute_force_with_up_to_three_tricks_left():
    rng = random.Random(280)
    # 8 cards played leave three tricks; 9..19 cover every place in a trick down to the last card.
    positions = [random_position(rng, played) for played in range(8, 20) for _ in range(40)]
    movers = [mover(position) for position in positions]
    trick_sizes = [len(position[3]) for position in positions]
    assert set(movers) == {0, 1, 2, 3} and set(trick_sizes) == {0, 1, 2, 3}
    left_bower_legal = 0
    solved = solve(positions)
    for position, values, seat in zip(positions, solved, movers):
        hands, trump = position[0], position[1]
        assert np.array_equal(values, brute_force(position)), position
        left_bower = rules.make_card(rules.JACK, rules.next_suit(trump))
        left_bower_legal += values[left_bower] >= 0 and len(hands[seat]) > 1
    assert left_bower_legal > 20  # the left bower was often a choice, not a forced last card


def test_full_hands_agree_with_brute_force():
    rng = random.Random(3)
    # Whole hands from the first lead and from each later card of the first trick; then four tricks left.
    positions = [random_position(rng, played) for played in (0, 1, 2, 3, 4, 4, 5, 6)]
    for position, values in zip(positions, solve(positions)):
        assert np.array_equal(values, brute_force(position)), position


def test_full_hands_are_consistent_one_card_on():
    """A card's value is the best value of the position it leads to, seen from the same team."""
    rng = random.Random(11)
    positions = [random_position(rng, played) for played in (0, 1, 2, 3) for _ in range(60)]
    solved = solve(positions)
    children, expected = [], []
    for position, values in zip(positions, solved):
        hands, trump, leader, trick, taken = position
        seat = mover(position)
        legal = rules.legal_plays(hands[seat], trick, trump)
        assert set(np.flatnonzero(values >= 0)) == set(legal)
        assert values[values >= 0].min() >= taken[seat % 2] and values.max() <= TRICKS
        for played in legal:
            after = [list(hand) for hand in hands]
            after[seat].remove(played)
            child_trick, child_leader, child_taken = trick + [played], leader, list(taken)
            if len(child_trick) == 4:
                child_leader = rules.trick_winner(child_trick, leader, trump)
                child_taken[child_leader % 2] += 1
                child_trick = []
            children.append((after, trump, child_leader, child_trick, child_taken))
            expected.append((values[played], seat % 2))
    for child, best, (value, team) in zip(children, solve(children).max(axis=1), expected):
        assert value == (best if mover(child) % 2 == team else TRICKS - best)


def renamed(position, seat_shift: int, suits: dict[int, int]):
    """The same position with every seat moved ``seat_shift`` places left and suits renamed by
    ``suits`` (which must keep each suit's partner of the same colour, so bowers stay bowers)."""
    hands, trump, leader, trick, taken = position

    def rename(c: int) -> int:
        return rules.make_card(rank_of(c), suits[suit_of(c)])

    moved = [[rename(c) for c in hands[(seat - seat_shift) % 4]] for seat in range(4)]
    swapped = taken if seat_shift % 2 == 0 else taken[::-1]
    return moved, suits[trump], (leader + seat_shift) % 4, [rename(c) for c in trick], list(swapped)


CLUBS, DIAMONDS = rules.CLUBS, rules.DIAMONDS
COLOURS_SWAPPED = {CLUBS: DIAMONDS, SPADES: HEARTS, DIAMONDS: CLUBS, HEARTS: SPADES}
PARTNERS_SWAPPED = {CLUBS: SPADES, SPADES: CLUBS, DIAMONDS: DIAMONDS, HEARTS: HEARTS}


@pytest.mark.parametrize("seat_shift", [1, 2, 3])
@pytest.mark.parametrize("suits", [COLOURS_SWAPPED, PARTNERS_SWAPPED], ids=["colours", "partners"])
def test_full_hands_do_not_depend_on_names_of_seats_or_suits(seat_shift, suits):
    """Moving every seat round the table (an odd shift makes the other team the maximiser) and renaming
    suits plays the same hands, so every card keeps its value while the search's path changes."""
    rng = random.Random(seat_shift)
    positions = [random_position(rng, played) for played in (0, 1, 2, 3) for _ in range(50)]
    moved = [renamed(position, seat_shift, suits) for position in positions]
    for position, values, moved_values in zip(positions, solve(positions), solve(moved)):
        expected = np.full(52, -1, dtype=np.int8)
        for c in np.flatnonzero(values >= 0):
            expected[rules.make_card(rank_of(c), suits[suit_of(c)])] = values[c]
        assert np.array_equal(moved_values, expected), position


def test_batches_answer_as_rows_alone_do():
    """Rows of one batch share a transposition table: no row may read another's entries, even where
    the same cards lie the same way under another trump (positions with the same key)."""
    rng = random.Random(7)
    dealt = [random_position(rng, played) for played in range(0, 12) for _ in range(3)]
    positions = [(hands, trump, leader, trick, taken) for hands, _, leader, trick, taken in dealt for trump in range(4)]
    together = solve(positions)
    alone = np.array([solve([position])[0] for position in reversed(positions)])[::-1]
    assert np.array_equal(together, alone)
    assert together.dtype == np.int8 and together.shape == (len(positions), 52)


def test_the_top_three_trumps_take_the_last_three_tricks_whoever_leads():
    # Hearts trump; two tricks gone to team 1. Seat 0 holds the right and left bowers and the ace.
    hands = [
        cards("Jack of Hearts", "Jack of Diamonds", "Ace of Hearts"),
        cards("King of Hearts", "Ace of Spades", "Ace of Clubs"),
        cards("Nine of Spades", "Ten of Spades", "Nine of Clubs"),
        cards("Queen of Hearts", "King of Spades", "King of Clubs"),
    ]
    leading = (hands, HEARTS, 0, [], [0, 2])
    values = solve([leading])[0]
    assert {c: values[c] for c in hands[0]} == {c: 3 for c in hands[0]}
    assert (values >= 0).sum() == 3
    # Seat 3 leads instead: seat 0 trumps in or overtrumps, and still takes all three.
    opponents_lead = (hands, HEARTS, 3, [], [0, 2])
    values = solve([opponents_lead])[0]
    assert {c: values[c] for c in hands[3]} == {c: 2 for c in hands[3]}  # team 1 keeps its two
    # Seat 0 led the right bower: seat 1 must follow trump with its king, and its team ends with two.
    followed = ([hands[0][1:], *hands[1:]], HEARTS, 0, cards("Jack of Hearts"), [0, 2])
    values = solve([followed])[0]
    assert np.flatnonzero(values >= 0).tolist() == cards("King of Hearts") and values.max() == 2


def test_a_seat_with_the_five_top_trumps_marches():
    hands = [
        cards("Jack of Spades", "Jack of Clubs", "Ace of Spades", "King of Spades", "Queen of Spades"),
        cards("Ten of Spades", "Nine of Spades", "Ace of Hearts", "King of Hearts", "Queen of Hearts"),
        cards("Ace of Clubs", "King of Clubs", "Queen of Clubs", "Ten of Clubs", "Nine of Clubs"),
        cards("Ace of Diamonds", "King of Diamonds", "Queen of Diamonds", "Jack of Diamonds", "Ten of Diamonds"),
    ]
    for leader in range(4):
        values = solve([(hands, SPADES, leader, [], [0, 0])])[0]
        assert set(values[values >= 0].tolist()) == ({5} if leader % 2 == 0 else {0})


def test_the_left_bower_follows_trump_not_its_printed_suit():
    # Hearts trump, three tricks played (team 0 one, team 1 two); seat 0 has led the ace of diamonds.
    hands = [
        cards("Nine of Spades"),
        cards("Jack of Diamonds", "Nine of Clubs"),
        cards("Nine of Diamonds", "Ten of Spades"),
        cards("Ten of Diamonds", "King of Clubs"),
    ]
    position = (hands, HEARTS, 0, cards("Ace of Diamonds"), [1, 2])
    values = solve([position])[0]
    # Seat 1 holds no diamond (its jack is a heart now), so either card may go. Trumping with the left
    # bower wins this trick, and its nine of clubs then loses the last to seat 3's king of clubs: team 1
    # takes both. Keeping the bower gives up this trick and ruffs seat 0's spade lead: one more.
    assert values[card("Jack of Diamonds")] == 4 and values[card("Nine of Clubs")] == 3
    assert (values >= 0).sum() == 2
    # With a diamond beside it, seat 1 must follow diamonds and cannot play the bower.
    hands[1] = cards("Jack of Diamonds", "Nine of Diamonds")
    hands[2] = cards("Ten of Spades", "Nine of Clubs")
    values = solve([(hands, HEARTS, 0, cards("Ace of Diamonds"), [1, 2])])[0]
    assert np.flatnonzero(values >= 0).tolist() == cards("Nine of Diamonds")
    # Trump led: the left bower must follow, and it beats the king of hearts.
    # Seat 2 throws its spade on it and takes the last trick with the ace of clubs.
    hands = [
        cards("Nine of Spades"),
        cards("Jack of Diamonds", "Nine of Clubs"),
        cards("Ten of Spades", "Ace of Clubs"),
        cards("Ten of Diamonds", "King of Clubs"),
    ]
    values = solve([(hands, HEARTS, 0, cards("King of Hearts"), [1, 2])])[0]
    assert np.flatnonzero(values >= 0).tolist() == cards("Jack of Diamonds")
    assert values[card("Jack of Diamonds")] == 3


def test_a_card_on_the_table_keeps_its_neighbours_apart():
    """Cards next to each other in a seat's suit are worth the same only when no card between them is
    left: here the king of clubs is on the table, so the ace takes the trick and the queen does not."""
    hands = [
        cards("Nine of Diamonds"),
        cards("Ace of Clubs", "Queen of Clubs"),
        cards("Nine of Clubs", "Nine of Spades"),
        cards("Ten of Clubs", "Ten of Spades"),
    ]
    position = (hands, HEARTS, 0, cards("King of Clubs"), [1, 2])
    values = solve([position])[0]
    # The ace wins, and the queen is then the best club left: both tricks. The queen loses to the king,
    # and seat 0's nine of diamonds leads to a trick nobody can follow or trump.
    assert values[card("Ace of Clubs")] == 4 and values[card("Queen of Clubs")] == 2
    assert np.array_equal(values, brute_force(position))
    # With the king gone (seat 0 led a diamond), the ace and the queen are alike.
    gone = (
        [
            cards("Nine of Diamonds"),
            cards("Ace of Clubs", "Queen of Clubs"),
            cards("Nine of Clubs", "Nine of Spades"),
            cards("Ten of Clubs", "Ten of Spades"),
        ],
        HEARTS,
        0,
        cards("Ten of Diamonds"),
        [1, 2],
    )
    values = solve([gone])[0]
    assert values[card("Ace of Clubs")] == values[card("Queen of Clubs")] >= 0
    assert np.array_equal(values, brute_force(gone))


def test_a_follower_may_duck_under_a_card_its_partner_played():
    """Deeper in the search too, the cards on the table keep a seat's cards apart."""
    # Clubs trump, two tricks left. Seat 2 holds the ace and jack of diamonds, seat 3 the queen of
    # diamonds and jack of hearts, seat 0 the nine of diamonds and ten of spades, seat 1 the king and
    # ten of diamonds.
    hands = [
        cards("Nine of Diamonds", "Ten of Spades"),
        cards("King of Diamonds", "Ten of Diamonds"),
        cards("Ace of Diamonds", "Jack of Diamonds"),
        cards("Queen of Diamonds", "Jack of Hearts"),
    ]
    position = (hands, rules.CLUBS, 2, [], [2, 1])
    values = solve([position])[0]
    # Leading the jack: seat 3's queen wins it, seat 1 ducks with the ten (the king would overtake
    # its partner and then lose the last trick to the ace), and seat 3's jack of hearts takes the last.
    # Leading the ace takes the first trick, and the king then beats the jack: one trick more.
    assert values[card("Jack of Diamonds")] == 2 and values[card("Ace of Diamonds")] == 3
    assert np.array_equal(values, brute_force(position))


def test_no_cards_left_and_empty_batches():
    assert solve_moves(np.zeros((0, 4)), np.zeros(0), np.zeros(0), np.zeros((0, 3)), np.zeros((0, 2))).shape == (0, 52)
    done = solve([([[], [], [], []], HEARTS, 2, [], [3, 2])])[0]
    assert (done == -1).all()


def invalid(position, **changes):
    hands, trump, leader, trick, taken = as_arrays([position])
    fields = {"hands": hands, "trump": trump, "leader": leader, "trick": trick, "tricks": taken}
    for name, change in changes.items():
        change(fields[name])
    return fields


@pytest.mark.parametrize(
    "changes",
    [
        {"trump": lambda trump: trump.fill(4)},
        {"leader": lambda leader: leader.fill(-1)},
        {"hands": lambda hands: hands.__setitem__((0, 0), hands[0, 0] | 1 << 1)},  # a two: not in the pack
        {"hands": lambda hands: hands.__setitem__((0, 1), hands[0, 1] | hands[0, 0])},  # a card in two hands
        {"hands": lambda hands: hands.__setitem__((0, 0), 0)},  # a seat without its cards
        {"trick": lambda trick: trick.__setitem__((0, 1), trick[0, 0])},  # a card played twice
        {"tricks": lambda tricks: tricks.fill(0)},  # tricks taken and left not five
    ],
)
def test_what_is_not_a_position_is_refused(changes):
    rng = random.Random(5)
    position = random_position(rng, 9)  # three tricks left, a card led
    assert solve_moves(**invalid(position)).max() >= 0
    with pytest.raises(ValueError, match="row 0 is not a position of Euchre's play"):
        solve_moves(**invalid(position, **changes))
