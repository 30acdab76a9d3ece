"""The Simple player's decisions, one spec rule at a time (each one call of its compiled policy)."""

from sim.api import MAX_POLICY_SETTINGS
from sim.euchre import rules
from sim.euchre.observation import NONE, PASS, Phase, order_up
from strategies.euchre.simple import simple

HEARTS, DIAMONDS, SPADES = rules.HEARTS, rules.DIAMONDS, rules.SPADES


def cards(*names):
    return [rules.parse_long_name(name) for name in names]


SETTINGS = (0.0,) * MAX_POLICY_SETTINGS


def mask(hand):
    return sum(1 << card for card in hand)


def make_trump(hand, upcard, is_dealer, making_round):
    dealer = 0 if is_dealer else 3
    return simple(
        Phase.MAKING, 0, dealer, making_round, 0, mask(hand), upcard, NONE, NONE, NONE, NONE, NONE, 0, SETTINGS
    )


def lead_card(hand, trump):
    return simple(Phase.PLAYING, 0, 3, 1, 0, mask(hand), 0, trump, 1, NONE, NONE, NONE, 0, SETTINGS)


def play_card(hand, led_card, trump):
    return simple(Phase.PLAYING, 0, 3, 1, 0, mask(hand), 0, trump, 1, led_card, led_card, 3, 1, SETTINGS)


UPCARD_HEART = rules.parse_long_name("Nine of Hearts")


def test_round_one_needs_two_trump_face_cards_counting_the_left_bower():
    hand = cards("Jack of Diamonds", "Queen of Hearts", "Nine of Spades", "Ten of Spades", "Nine of Clubs")
    assert make_trump(hand, UPCARD_HEART, False, 1) == order_up(HEARTS)
    assert make_trump(hand[1:], UPCARD_HEART, False, 1) == PASS


def test_round_two_considers_only_the_next_suit_and_the_dealer_is_screwed():
    hand = cards("King of Diamonds", "Nine of Spades", "Ten of Spades", "Nine of Clubs", "Ten of Clubs")
    assert make_trump(hand, UPCARD_HEART, False, 2) == order_up(DIAMONDS)
    spades_faces = cards("Ace of Spades", "King of Spades", "Queen of Spades", "Nine of Clubs", "Ten of Clubs")
    assert make_trump(spades_faces, UPCARD_HEART, False, 2) == PASS
    assert make_trump(spades_faces, UPCARD_HEART, True, 2) == order_up(DIAMONDS)


def test_leads_the_highest_non_trump_else_the_highest_trump():
    hand = cards("Jack of Diamonds", "Ace of Hearts", "King of Clubs", "King of Spades")
    assert lead_card(hand, HEARTS) == rules.parse_long_name("King of Clubs")  # clubs beat spades on ties
    assert lead_card(cards("Jack of Diamonds", "Ace of Hearts"), HEARTS) == rules.parse_long_name("Jack of Diamonds")


def test_follows_high_with_the_left_bower_as_trump_else_plays_lowest():
    hand = cards("Jack of Diamonds", "Ace of Diamonds", "Nine of Spades", "Ten of Clubs")
    led_trump = rules.parse_long_name("Nine of Hearts")
    assert play_card(hand, led_trump, HEARTS) == rules.parse_long_name("Jack of Diamonds")
    led_diamond = rules.parse_long_name("Nine of Diamonds")
    assert play_card(hand, led_diamond, HEARTS) == rules.parse_long_name("Ace of Diamonds")
    assert play_card(cards("Jack of Diamonds", "Ten of Clubs", "Nine of Spades"), led_diamond, HEARTS) == (
        rules.parse_long_name("Nine of Spades")
    )
