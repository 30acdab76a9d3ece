"""The compiled Euchre strategies decide every row of a batch exactly as the scalar strategies did.

The oracle below is the scalar code the batched (now compiled) ``simple`` and ``heuristic`` replaced, kept verbatim
but for the heuristic's arithmetic: its card values are whole tenths (``TRUMP_VALUES`` 10..30, ace 10,
void 5, a plain card 0) and its two comparisons read ``threshold * 10``, as in the batched code, so
sums are exact; ``Heuristic._action`` became ``heuristic_action``. Observations come from the
reference engine, in every phase, played by random, Simple and Heuristic seats; all of them go to
``choose`` as one batch.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

import strategies
from sim.cards import cards_in, rank_of, suit_of
from sim.euchre import rules
from sim.euchre.game import GAME
from sim.euchre.observation import NONE, PASS, Observation, Phase, order_up
from sim.euchre.policies import pickers as helpers

DEALS = 200
SEED = 11
THRESHOLDS = (5.0, 7.5, 9.0)

# --------------------------------------------------------------------------- the scalar Simple player


def make_trump(hand: list[int], upcard: int, is_dealer: bool, making_round: int) -> int:
    """Round one: order up the upcard's suit with two or more trump face cards (the upcard not
    counted). Round two: order up the next suit with one or more, and always as the dealer."""
    if making_round == 1:
        trump = suit_of(upcard)
        return order_up(trump) if rules.trump_face_count(hand, trump) >= 2 else PASS
    trump = rules.next_suit(suit_of(upcard))
    return order_up(trump) if is_dealer or rules.trump_face_count(hand, trump) >= 1 else PASS


def dealer_discard(hand: list[int], trump: int) -> int:
    """The lowest of the six cards with trump, even when it is the upcard just picked up."""
    return min(hand, key=lambda card: rules.trump_key(card, trump))


def lead_card(hand: list[int], trump: int) -> int:
    """The highest non-trump card; with only trump, the highest trump."""
    plain = [card for card in hand if not rules.is_trump(card, trump)]
    return max(plain or hand, key=lambda card: rules.trump_key(card, trump))


def play_card(hand: list[int], led_card: int, trump: int) -> int:
    """The highest card that follows suit, else the lowest card in the hand."""
    led_suit = rules.effective_suit(led_card, trump)
    following = [card for card in hand if rules.follows(card, led_card, trump)]
    if following:
        return max(following, key=lambda card: rules.led_key(card, trump, led_suit))
    return min(hand, key=lambda card: rules.led_key(card, trump, led_suit))


def simple_action(observation: Observation, row: int) -> int:
    """The Simple player's action in hand ``row`` of the batch."""
    hand = list(cards_in(int(observation.hand[row])))
    trump = int(observation.trump[row])
    phase = Phase(int(observation.phase[row]))
    if phase == Phase.MAKING:
        is_dealer = observation.seat[row] == observation.dealer[row]
        return make_trump(hand, int(observation.upcard[row]), bool(is_dealer), int(observation.making_round[row]))
    if phase == Phase.DISCARD:
        return dealer_discard(hand, trump)
    led_card = int(observation.trick[row, 0])
    return lead_card(hand, trump) if led_card == NONE else play_card(hand, led_card, trump)


# --------------------------------------------------------------------------- the scalar Heuristic player
# Trick-taking value of a trump by its order within trump (9, 10, Q, K, A, left bower, right bower), in tenths.
TRUMP_VALUES = (10, 12, 15, 17, 20, 25, 30)
OFF_SUIT_ACE = 10
VOID_WITH_TRUMPS = 5
ACE = 0  # rank index of the ace in sim.cards


def card_value(card: int, trump: int) -> float:
    """How much ``card`` helps take tricks with ``trump`` as trump."""
    if rules.is_trump(card, trump):
        order = sorted(
            (c for c in rules.NEW_PACK if rules.is_trump(c, trump)), key=lambda c: rules.trump_key(c, trump)
        ).index(card)
        return TRUMP_VALUES[order]
    return OFF_SUIT_ACE if rank_of(card) == ACE else 0


def hand_strength(hand: list[int], trump: int) -> float:
    """Trick-taking strength of a five-card hand in ``trump``."""
    strength = sum(card_value(card, trump) for card in hand)
    trumps = sum(rules.is_trump(card, trump) for card in hand)
    if trumps >= 2:
        suits = {rules.effective_suit(card, trump) for card in hand}
        strength += VOID_WITH_TRUMPS * sum(1 for suit in range(4) if suit != trump and suit not in suits)
    return strength


def best_discard(hand: list[int], trump: int) -> int:
    """The card whose loss leaves the strongest five (a low off-suit card, voiding a suit if it can)."""
    return max(
        hand,
        key=lambda card: (
            hand_strength([c for c in hand if c != card], trump),
            -rules.trump_key(card, trump)[0],
            [-k for k in rules.trump_key(card, trump)],
        ),
    )


def making_action(observation: Observation, row: int, hand: list[int], threshold: float) -> int:
    seat, dealer = int(observation.seat[row]), int(observation.dealer[row])
    upcard = int(observation.upcard[row])
    rejected = suit_of(upcard)
    if int(observation.making_round[row]) == 1:
        if seat == dealer:
            strength = hand_strength(
                [c for c in hand + [upcard] if c != best_discard(hand + [upcard], rejected)], rejected
            )
        else:
            partner_deals = rules.team_of(dealer) == rules.team_of(seat)
            strength = hand_strength(hand, rejected) + (0.5 if partner_deals else -0.5) * card_value(upcard, rejected)
        return order_up(rejected) if strength >= threshold * 10 else PASS
    suit = max((s for s in range(4) if s != rejected), key=lambda s: hand_strength(hand, s))
    screwed = seat == dealer
    return order_up(suit) if screwed or hand_strength(hand, suit) >= threshold * 10 else PASS


def lead(hand: list[int], trump: int, we_made_it: bool) -> int:
    trumps = [c for c in hand if rules.is_trump(c, trump)]
    plain = [c for c in hand if not rules.is_trump(c, trump)]
    if we_made_it and len(trumps) >= 2:
        return max(trumps, key=lambda c: rules.trump_key(c, trump))
    aces = [c for c in plain if rank_of(c) == ACE]
    if aces:
        return aces[0]
    if plain:
        return min(plain, key=lambda c: rules.trump_key(c, trump))
    return max(hand, key=lambda c: rules.trump_key(c, trump))


def follow(hand: list[int], trick: list[int], leader: int, seat: int, trump: int, ace_stands: bool) -> int:
    legal = rules.legal_plays(hand, trick, trump)
    led_suit = rules.effective_suit(trick[0], trump)
    key = lambda card: rules.led_key(card, trump, led_suit)  # noqa: E731 - the trick's order
    winning = max(range(len(trick)), key=lambda position: key(trick[position]))
    partner_winning = rules.team_of((leader + winning) % 4) == rules.team_of(seat)
    last_to_play = len(trick) == 3
    beating = [card for card in legal if key(card) > key(trick[winning])]
    ace = ace_stands and rank_of(trick[winning]) == ACE
    if partner_winning and (last_to_play or key(trick[winning])[0] == 2 or not beating or ace):
        return min(legal, key=key)
    if beating:
        return min(beating, key=key)
    return min(legal, key=key)


def heuristic_action(observation: Observation, row: int, threshold: float, ace_stands: bool = False) -> int:
    """The Heuristic player's action in hand ``row`` of the batch (formerly ``Heuristic._action``;
    ``ace_stands`` added since: a partner's winning ace is let stand)."""
    hand = list(cards_in(int(observation.hand[row])))
    trump = int(observation.trump[row])
    phase = Phase(int(observation.phase[row]))
    if phase == Phase.MAKING:
        return making_action(observation, row, hand, threshold)
    if phase == Phase.DISCARD:
        return best_discard(hand, trump)
    trick = [int(card) for card in observation.trick[row] if card != NONE]
    seat = int(observation.seat[row])
    if not trick:
        return lead(hand, trump, rules.team_of(int(observation.maker[row])) == rules.team_of(seat))
    return follow(hand, trick, int(observation.leader[row]), seat, trump, ace_stands)


# --------------------------------------------------------------------------- the sample of observations


def concatenated(observations: list[Observation]) -> Observation:
    """One batch holding the rows of every observation, in order."""
    fields = observations[0].arrays()
    return Observation(**{name: np.concatenate([o.arrays()[name] for o in observations]) for name in fields})


def random_action(legal: tuple[int, ...], rng: np.random.Generator) -> int:
    """A random legal action, passing four times in five while making so round two and a screwed dealer
    come up often."""
    if PASS in legal and rng.random() < 0.8:
        return PASS
    return legal[rng.integers(len(legal))]


@cache
def sample() -> Observation:
    """Every decision of ``DEALS`` hands, each seat played at random, by Simple or by Heuristic."""
    rng = np.random.default_rng(SEED)
    players = [
        None,
        strategies.get("euchre", "simple"),
        *(strategies.get("euchre", f"heuristic:threshold={threshold}") for threshold in THRESHOLDS),
    ]
    observations = []
    for index, deal in enumerate(GAME.deals(SEED, 0, DEALS)):
        state = GAME.new_state(deal, index)
        seats = [players[choice] for choice in rng.integers(len(players), size=rules.NUM_PLAYERS)]
        while not state.is_over:
            observation = state.observe()
            observations.append(observation)
            player = seats[state.current_player]
            legal = state.legal_actions()
            state.apply(random_action(legal, rng) if player is None else int(player.choose(observation)[0]))
    return concatenated(observations)


def situations(batch: Observation) -> dict[str, np.ndarray]:
    """Masks of the rows of each kind of decision the strategies tell apart."""
    making = batch.phase == Phase.MAKING
    playing = batch.phase == Phase.PLAYING
    following = playing & (batch.trick[:, 0] != NONE)
    trump = np.where(batch.trump == NONE, 0, batch.trump)
    led_suit = rules.EFFECTIVE_SUIT[trump, np.where(following, batch.trick[:, 0], 0)]
    return {
        "making round one": making & (batch.making_round == 1),
        "making round one as dealer": making & (batch.making_round == 1) & (batch.seat == batch.dealer),
        "making round two": making & (batch.making_round == 2),
        "dealer forced to call": making & (batch.making_round == 2) & (batch.seat == batch.dealer),
        "discard": batch.phase == Phase.DISCARD,
        "lead": playing & (batch.trick[:, 0] == NONE),
        "follow": following,
        "void in the led suit": following & ((batch.hand & rules.SUIT_CARDS[trump, led_suit]) == 0),
        "last to play": playing & (batch.trick[:, 2] != NONE),  # three cards down
        "partner led an ace, void": following
        & (batch.trick[:, 1] != NONE)
        & (batch.trick[:, 2] == NONE)  # third to play: the partner led
        & (batch.trick[:, 0] % 13 == ACE)
        & ((batch.hand & rules.SUIT_CARDS[trump, led_suit]) == 0),
    }


def assert_same_rows(batch: Observation, batched: np.ndarray, oracle: np.ndarray) -> None:
    """The two answers agree on every row; else name the first rows that differ."""
    differing = np.flatnonzero(batched != oracle)
    shown = [
        (int(row), Phase(int(batch.phase[row])).name, int(batched[row]), int(oracle[row])) for row in differing[:5]
    ]
    assert not differing.size, f"{differing.size} of {len(batch)} rows differ (row, phase, batched, oracle): {shown}"


# --------------------------------------------------------------------------- the tests


def test_the_sample_covers_every_kind_of_decision():
    batch = sample()
    assert 3000 <= len(batch) <= 10000
    counts = {name: int(rows.sum()) for name, rows in situations(batch).items()}
    assert min(counts.values()) >= 20, counts


def test_simple_decides_every_row_as_the_scalar_player():
    batch = sample()
    oracle = np.array([simple_action(batch, row) for row in range(len(batch))])
    assert_same_rows(batch, strategies.get("euchre", "simple").choose(batch), oracle)


@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_heuristic_decides_every_row_as_the_scalar_player(threshold):
    batch = sample()
    oracle = np.array([heuristic_action(batch, row, threshold) for row in range(len(batch))])
    assert_same_rows(batch, strategies.get("euchre", f"heuristic:threshold={threshold}").choose(batch), oracle)


@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_heuristic_letting_aces_stand_decides_every_row_as_the_scalar_player(threshold):
    batch = sample()
    oracle = np.array([heuristic_action(batch, row, threshold, ace_stands=True) for row in range(len(batch))])
    batched = strategies.get("euchre", f"heuristic:threshold={threshold},ace_stands=true").choose(batch)
    assert_same_rows(batch, batched, oracle)
    plain = strategies.get("euchre", f"heuristic:threshold={threshold}").choose(batch)
    assert (batched != plain).sum() >= 5  # the sample holds partners' aces it would have trumped


@pytest.mark.parametrize(
    "spec", ["simple", "heuristic", "heuristic:threshold=5", "heuristic:threshold=9", "heuristic:ace_stands=true"]
)
def test_every_chosen_action_is_legal(spec):
    batch = sample()
    actions = strategies.get("euchre", spec).choose(batch)
    assert actions.dtype == np.int64 and actions.shape == (len(batch),)
    assert np.all((batch.legal >> actions) & 1 == 1)


@pytest.mark.parametrize("spec", ["simple", "heuristic"])
def test_an_empty_batch_gets_no_actions(spec):
    empty = Observation(**{name: values[:0] for name, values in sample().arrays().items()})
    assert strategies.get("euchre", spec).choose(empty).shape == (0,)


@pytest.mark.parametrize("spec", ["simple", "heuristic"])
def test_small_integer_fields_decide_the_same(spec):
    """A fast engine may keep cards and seats in int8 (deals come in the smallest dtype); only the
    bitmasks and ids need int64."""
    batch = sample()
    wide = ("hand", "legal", "round_id")
    narrow = Observation(
        **{name: values if name in wide else values.astype(np.int8) for name, values in batch.arrays().items()}
    )
    strategy = strategies.get("euchre", spec)
    assert np.array_equal(strategy.choose(narrow), strategy.choose(batch))


# --------------------------------------------------------------------------- the shared batched helpers


def random_hands(count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` card bitmasks of 1 to 24 random pack cards each."""
    held = rng.random((count, rules.PACK_SIZE)) < rng.random((count, 1))
    held[np.arange(count), rng.integers(rules.PACK_SIZE, size=count)] = True
    return (held * helpers.PACK_BITS).sum(axis=1)


def test_halves_hold_each_pack_card_at_its_bit():
    hands = random_hands(2000, np.random.default_rng(1))
    first, second = helpers.halves(hands)
    assert first.max() < helpers.HALF and second.max() < helpers.HALF
    patterns = first | (second << 12)
    for hand, pattern in zip(hands.tolist(), patterns.tolist()):
        assert [card for bit, card in enumerate(helpers.PATTERN_CARDS.tolist()) if pattern >> bit & 1] == list(
            cards_in(hand)
        )
    assert sorted(helpers.PATTERN_CARDS.tolist()) == sorted(rules.NEW_PACK)


def test_a_card_picker_picks_the_held_card_with_the_highest_key():
    rng = np.random.default_rng(2)
    keys = np.zeros((5, 52), dtype=np.int64)
    for context in range(5):
        keys[context, rules.PACK_CARDS] = rng.permutation(512)[: rules.PACK_SIZE]
    picker = helpers.CardPicker(keys)
    hands = random_hands(2000, rng)
    contexts = rng.integers(5, size=len(hands))
    expected = [
        max(cards_in(hand), key=lambda card: keys[context, card])
        for hand, context in zip(hands.tolist(), contexts.tolist())
    ]
    picked = [
        helpers.pick(picker.entries, context * 52, hand) for hand, context in zip(hands.tolist(), contexts.tolist())
    ]
    assert picked == expected


def test_a_card_picker_refuses_keys_it_cannot_tell_apart():
    with pytest.raises(ValueError, match="share a key"):
        helpers.CardPicker(np.zeros((1, 52), dtype=np.int64))
    with pytest.raises(ValueError, match="0 to 511"):
        helpers.CardPicker(np.full((1, 52), 512) + np.arange(52))
