"""Euchre rules: card orders, bowers, following suit, tricks, scoring, shuffling and dealing."""

from hypothesis import given
from hypothesis import strategies as st

from sim.cards import make_card
from sim.euchre import rules
from sim.euchre.rules import ACE, CLUBS, DIAMONDS, HEARTS, JACK, KING, NINE, QUEEN, SPADES, TEN


def card(text: str) -> int:
    return rules.parse_long_name(text)


def test_new_pack_is_the_official_pack_order():
    names = [rules.card_long_name(c) for c in rules.NEW_PACK]
    assert names[:6] == [f"{rank} of Spades" for rank in ("Nine", "Ten", "Jack", "Queen", "King", "Ace")]
    assert names[6] == "Nine of Hearts" and names[12] == "Nine of Clubs" and names[-1] == "Ace of Diamonds"
    assert len(set(rules.NEW_PACK)) == 24


def test_next_and_cross_suits():
    assert rules.next_suit(HEARTS) == DIAMONDS and rules.next_suit(SPADES) == CLUBS
    assert sorted(rules.cross_suits(HEARTS)) == sorted((CLUBS, SPADES))


def test_plain_order_is_rank_then_suit_d_c_h_s():
    shuffled = ["Ace of Spades", "Nine of Diamonds", "Nine of Spades", "Nine of Clubs", "Nine of Hearts"]
    ordered = rules.sorted_hand([card(name) for name in shuffled])
    assert [rules.card_long_name(c) for c in ordered] == [
        "Nine of Spades",
        "Nine of Hearts",
        "Nine of Clubs",
        "Nine of Diamonds",
        "Ace of Spades",
    ]


def test_trump_order_with_bowers():
    trump = HEARTS
    expected = [
        "Jack of Hearts",
        "Jack of Diamonds",
        "Ace of Hearts",
        "King of Hearts",
        "Queen of Hearts",
        "Ten of Hearts",
        "Nine of Hearts",
        "Ace of Diamonds",
    ]
    cards = [card(name) for name in expected]
    assert sorted(cards, key=lambda c: rules.trump_key(c, trump), reverse=True) == cards


def test_led_suit_beats_other_non_trump_but_not_trump():
    trump, led = HEARTS, SPADES
    nine_spades, ace_clubs, nine_hearts = card("Nine of Spades"), card("Ace of Clubs"), card("Nine of Hearts")
    assert rules.led_key(nine_spades, trump, led) > rules.led_key(ace_clubs, trump, led)
    assert rules.led_key(nine_hearts, trump, led) > rules.led_key(nine_spades, trump, led)


def test_left_bower_is_trump_and_not_its_printed_suit():
    left = card("Jack of Diamonds")
    assert rules.is_left_bower(left, HEARTS) and rules.effective_suit(left, HEARTS) == HEARTS
    # Diamonds led with hearts trump: the left bower does not follow diamonds...
    hand = (left, card("Nine of Clubs"))
    assert rules.legal_plays(hand, [card("Ace of Diamonds")], HEARTS) == hand
    # ...but it must follow when trump is led.
    assert rules.legal_plays(hand, [card("Nine of Hearts")], HEARTS) == (left,)


def test_led_left_bower_means_trump_was_led():
    trick = [card("Jack of Diamonds"), card("Ace of Diamonds"), card("Nine of Hearts"), card("Ace of Spades")]
    assert rules.trick_winner(trick, leader=2, trump=HEARTS) == 2
    trick = [card("Ace of Diamonds"), card("King of Diamonds"), card("Nine of Hearts"), card("Ace of Spades")]
    assert rules.trick_winner(trick, leader=2, trump=HEARTS) == 0  # the nine of trump, played third


def test_hand_points():
    assert rules.hand_points((3, 2), makers=0) == (0, 1, "")
    assert rules.hand_points((1, 4), makers=1) == (1, 1, "")
    assert rules.hand_points((5, 0), makers=0) == (0, 2, "march")
    assert rules.hand_points((3, 2), makers=1) == (0, 2, "euchred")
    assert rules.hand_points((0, 5), makers=0) == (1, 2, "euchred")


def test_in_shuffle_moves_card_12_to_the_front():
    once = rules.in_shuffle(rules.NEW_PACK)
    assert once[:3] == (rules.NEW_PACK[12], rules.NEW_PACK[0], rules.NEW_PACK[13])


def test_seven_in_shuffles_have_period_twenty():
    pack = rules.NEW_PACK
    for _ in range(20):
        pack = rules.shuffled(pack)
    assert pack == rules.NEW_PACK


def test_deal_batches_start_left_of_the_dealer():
    hands = rules.deal_hands(rules.NEW_PACK, dealer=0)
    names = [[rules.card_long_name(c) for c in rules.sorted_hand(hand)] for hand in hands]
    assert names[1] == ["Nine of Spades", "Ten of Spades", "Jack of Spades", "King of Hearts", "Ace of Hearts"]
    assert names[0] == ["Nine of Diamonds", "Ten of Diamonds", "Jack of Hearts", "Queen of Hearts", "Ace of Clubs"]


def test_trump_face_count_counts_the_left_bower():
    ranks_and_suits = [(JACK, DIAMONDS), (QUEEN, HEARTS), (KING, CLUBS), (NINE, HEARTS), (TEN, HEARTS)]
    hand = [make_card(rank, suit) for rank, suit in ranks_and_suits]
    assert rules.trump_face_count(hand, HEARTS) == 2
    assert rules.trump_face_count(hand, DIAMONDS) == 1


cards = st.sampled_from(rules.NEW_PACK)


@given(st.lists(cards, min_size=1, max_size=5, unique=True), cards, st.sampled_from(range(4)))
def test_legal_plays_follow_suit_when_able(hand, led_card, trump):
    legal = rules.legal_plays(hand, [led_card], trump)
    can_follow = any(rules.follows(c, led_card, trump) for c in hand)
    assert set(legal) <= set(hand) and legal
    assert all(rules.follows(c, led_card, trump) for c in legal) if can_follow else set(legal) == set(hand)


@given(st.permutations(rules.NEW_PACK), st.sampled_from(range(4)), st.sampled_from(range(4)))
def test_trick_winner_holds_the_highest_card(pack, leader, trump):
    trick = pack[:4]
    winner = rules.trick_winner(trick, leader, trump)
    led_suit = rules.effective_suit(trick[0], trump)
    winning = trick[(winner - leader) % 4]
    assert all(rules.led_key(winning, trump, led_suit) >= rules.led_key(c, trump, led_suit) for c in trick)


@given(st.sampled_from(rules.NEW_PACK), st.sampled_from(rules.NEW_PACK), st.sampled_from(range(4)))
def test_orders_are_total(a, b, trump):
    if a != b:
        assert rules.plain_key(a) != rules.plain_key(b)
        assert rules.trump_key(a, trump) != rules.trump_key(b, trump)


def test_names_round_trip():
    for c in rules.NEW_PACK:
        assert rules.parse_long_name(rules.card_long_name(c)) == c
    assert rules.card_long_name(make_card(ACE, SPADES)) == "Ace of Spades"
