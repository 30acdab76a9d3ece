"""Euchre's trained bids: buckets say what a hand holds, the stored table loads, and bids follow it."""

from __future__ import annotations

import numpy as np
import pytest

import strategies
from experiments.euchre_bids import bid_values, dealt_hands
from sim.cards import make_card, mask_of
from sim.euchre import rules
from sim.euchre.game import GAME
from sim.euchre.observation import ORDER_UP, PASS
from strategies import StrategyError
from strategies.euchre.bids import BUCKETS, NO_BUCKET, TABLE, BidTable, bid_buckets
from strategies.euchre.mc import TEAM_ROLLOUT

HEARTS, DIAMONDS, SPADES, CLUBS = rules.HEARTS, rules.DIAMONDS, rules.SPADES, rules.CLUBS
J, A, K, NINE = rules.JACK, rules.ACE, rules.KING, rules.NINE


def decode(bucket: int) -> dict[str, int]:
    """The parts of a bucket index, in the order ``bid_buckets`` packs them."""
    parts = {}
    for name, size in reversed(
        (
            ("round_two", 2),
            ("place", 4),
            ("right", 2),
            ("left", 2),
            ("trumps", 4),
            ("aces", 3),
            ("upcard", 3),
            ("voids", 3),
        )
    ):
        bucket, parts[name] = divmod(bucket, size)
    return parts


def test_a_bucket_says_what_the_hand_holds_for_the_suit_it_names():
    hand = mask_of([make_card(J, HEARTS), make_card(J, DIAMONDS), make_card(A, HEARTS), make_card(A, SPADES),
                    make_card(K, SPADES)])  # fmt: skip
    upcard = make_card(NINE, HEARTS)
    buckets = bid_buckets(np.array([hand]), np.array([2]), np.array([1]), np.array([1]), np.array([upcard]))[0]
    assert [b == NO_BUCKET for b in buckets] == [True, True, False, True]  # round one names the upcard's suit
    assert decode(int(buckets[HEARTS])) == {
        "round_two": 0, "place": 0, "right": 1, "left": 1, "trumps": 1, "aces": 1, "upcard": 0, "voids": 2,
    }  # fmt: skip
    second = bid_buckets(np.array([hand]), np.array([1]), np.array([1]), np.array([2]), np.array([upcard]))[0]
    assert second[HEARTS] == NO_BUCKET and (second[[CLUBS, DIAMONDS, SPADES]] != NO_BUCKET).all()
    diamonds = decode(int(second[DIAMONDS]))  # the jack of hearts is the left bower, the jack of diamonds the right
    assert (diamonds["right"], diamonds["left"], diamonds["trumps"], diamonds["place"]) == (1, 1, 0, 3)
    assert diamonds["aces"] == 2 and diamonds["voids"] == 1  # aces of hearts and spades; no clubs


def test_the_stored_table_loads_and_covers_every_bucket():
    table = BidTable.load()
    assert len(table.count) == BUCKETS and table.count.sum() > 1_000_000
    assert (table.sd_gain >= 0).all() and np.isfinite(table.mean_gain).all()
    assert table.mean_gain[table.count == 0].tolist() == [0.0] * int((table.count == 0).sum())


@pytest.mark.parametrize(
    "damage, said",
    [
        (lambda lines: lines[:2], "not a Euchre bid table"),  # one bucket of thousands
        (lambda lines: [*lines[:1], "0,x,0.5,0.1", *lines[2:]], "could not convert"),
        (lambda lines: [*lines[:1], "0,5,0.5,-0.1", *lines[2:]], "not a Euchre bid table"),  # a negative spread
        (lambda lines: [*lines[:1], "0,5,nan,0.1", *lines[2:]], "not a Euchre bid table"),
    ],
)
def test_a_damaged_table_is_refused_in_one_line(tmp_path, damage, said):
    damaged = tmp_path / "bids.csv"
    damaged.write_text("\n".join(damage(TABLE.read_text().splitlines())) + "\n")
    with pytest.raises(StrategyError, match=said) as refused:
        BidTable.load(damaged)
    assert "\n" not in str(refused.value)


def test_a_table_that_is_not_a_file_is_refused_in_one_line(tmp_path):
    with pytest.raises(StrategyError, match="not a regular file|directory"):
        BidTable.load(tmp_path)


def test_training_pairs_each_bid_with_a_pass_of_the_same_deal():
    """On a handful of deals, a bucket's gains are the call's points minus the pass's, decision by decision."""
    players = [strategies.get("euchre", TEAM_ROLLOUT)] * 4
    deals = GAME.deals(3, 0, 200)
    buckets, gains, decisions = bid_values(deals, np.arange(200), players)
    assert int(decisions) >= 200 and len(buckets) == len(gains) >= 200
    assert ((buckets >= 0) & (buckets < BUCKETS)).all()
    assert set(np.unique(gains).tolist()) <= {g for g in range(-4, 5)}  # points minus points: -2..2 each side


def test_dealt_hands_are_the_reference_deal():
    deals = GAME.deals(4, 0, 8)
    dealers, seats = np.arange(8) % 4, (np.arange(8) * 3) % 4
    masks = dealt_hands(deals, dealers, seats)
    for deal, dealer, seat, mask in zip(deals, dealers, seats, masks):
        assert mask == mask_of(rules.deal_hands([int(card) for card in deal], int(dealer))[seat])


def test_table_bids_follow_the_table():
    table = BidTable(np.full(BUCKETS, 1000), np.full(BUCKETS, 0.5), np.full(BUCKETS, 1.0))
    strong = _observation(round_=1, legal=(1 << PASS) | (1 << (ORDER_UP + HEARTS)))
    assert table.choose(strong, 2.0, 100).tolist() == [ORDER_UP + HEARTS]
    losing = BidTable(table.count, -table.mean_gain, table.sd_gain)
    assert losing.choose(strong, 2.0, 100).tolist() == [PASS]
    unclear = BidTable(table.count, np.full(BUCKETS, 0.01), table.sd_gain)
    assert unclear.choose(strong, 2.0, 100).tolist() == [-1]  # left to the search
    forced = _observation(round_=2, legal=sum(1 << (ORDER_UP + suit) for suit in (CLUBS, DIAMONDS, SPADES)))
    assert losing.choose(forced, 2.0, 100)[0] in {ORDER_UP + suit for suit in (CLUBS, DIAMONDS, SPADES)}


def _observation(round_: int, legal: int):
    class Seen:  # the fields a bid table reads
        hand = np.array([mask_of([make_card(J, HEARTS), make_card(A, HEARTS), make_card(K, HEARTS),
                                  make_card(NINE, SPADES), make_card(K, CLUBS)])])  # fmt: skip
        seat, dealer, making_round = np.array([0]), np.array([0]), np.array([round_])
        upcard = np.array([make_card(NINE, HEARTS)])

    Seen.legal = np.array([legal])
    return Seen
