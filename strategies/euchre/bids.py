"""Trained bids for Euchre: what ordering up (or calling a suit) gained over passing, by kind of hand.

The table (``bids.csv`` beside this module, made by ``python -m experiments.euchre_bids``) was trained
offline on the compiled engine by self-play: in a few hundred thousand hands played by
``heuristic:threshold=6`` (mc's model of its own side), every bidding decision reached was played
out once with each legal bid and once with a pass, the rest of the hand by the same players, and the
bidding team's points minus the other team's were averaged by *bucket*, an abstraction of the
decision (``bid_buckets``): the making round, the seat's place from the dealer, and, for the suit it
would name, the bowers it holds, its other trumps, off-suit aces and empty off suits, and in round
one whether the upcard the dealer takes is a jack, an ace or lower.

Why self-play averages and not counterfactual regret minimisation: the rest of the hand is played by
a fixed model, so each bucket's best bid is a one-step improvement that a few seconds of compiled
play estimates with small error, while CFR needs the whole bidding tree solved jointly (the published
Euchre CFR bids took 50 hours). The table bids where its estimate is clear (``confident``) and leaves
the other decisions to the search.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.cards import make_card
from sim.euchre import rules
from sim.euchre.observation import ORDER_UP, PASS, Observation
from sim.files import UnreadableFile, read_bounded
from sim.numbers import clipped
from strategies import StrategyError

TABLE = Path(__file__).with_name("bids.csv")
MOST_TABLE_BYTES = 1 << 20  # the table is about 100 KB
COLUMNS = ("bucket", "count", "mean_gain", "sd_gain")
SUITS = 4
ROUNDS, PLACES, TRUMP_COUNTS, ACE_COUNTS, UPCARD_KINDS, VOID_COUNTS = 2, 4, 4, 3, 3, 3
BUCKETS = ROUNDS * PLACES * 2 * 2 * TRUMP_COUNTS * ACE_COUNTS * UPCARD_KINDS * VOID_COUNTS
NO_BUCKET = -1
_RIGHT = np.array([make_card(rules.JACK, suit) for suit in range(SUITS)], dtype=np.int64)
_LEFT = np.array([make_card(rules.JACK, rules.next_suit(suit)) for suit in range(SUITS)], dtype=np.int64)
_TRUMPS = np.array([int(rules.SUIT_CARDS[suit, suit]) for suit in range(SUITS)], dtype=np.int64)
_OFF_SUITS = np.array([[int(rules.SUIT_CARDS[trump, suit]) for suit in range(SUITS)] for trump in range(SUITS)])
_ACES = np.array([1 << make_card(rules.ACE, suit) for suit in range(SUITS)], dtype=np.int64)


def bid_buckets(hand: np.ndarray, seat: np.ndarray, dealer: np.ndarray, making_round: np.ndarray, upcard: np.ndarray):
    """(n, 4) the bucket of naming each suit as trump (-1 where no bid names it: in round one only the
    upcard's suit, in round two every other suit), for hands (n,) card masks of seats (n,) with dealers
    (n,) in making rounds (n,) 1 or 2 with upcards (n,)."""
    size = len(hand)
    suits = np.arange(SUITS)
    up_suit = np.asarray(upcard, dtype=np.int64) // 13
    round_two = np.asarray(making_round) == 2
    place = (np.asarray(seat, dtype=np.int64) - dealer - 1) % 4  # 0: left of the dealer, 3: the dealer
    hand = np.asarray(hand, dtype=np.int64)[:, None]
    right = (hand >> _RIGHT) & 1
    left = (hand >> _LEFT) & 1
    others = np.minimum(np.bitwise_count(hand & _TRUMPS & ~(1 << _RIGHT) & ~(1 << _LEFT)), TRUMP_COUNTS - 1)
    off_suit_aces = np.bitwise_or.reduce(np.where(suits[:, None] != suits, _ACES, 0), axis=1)
    aces = np.minimum(np.bitwise_count(hand & off_suit_aces), ACE_COUNTS - 1)
    voids = np.minimum(
        ((hand[:, :, None] & _OFF_SUITS[None]) == 0).sum(axis=2) - ((hand & _TRUMPS) == 0), VOID_COUNTS - 1
    )
    up_rank = np.asarray(upcard, dtype=np.int64) % 13
    upcard_kind = np.where(round_two, 0, np.where(up_rank == rules.JACK, 2, np.where(up_rank == rules.ACE, 1, 0)))
    index = round_two.astype(np.int64)[:, None]
    for part, size_of in (
        (np.broadcast_to(place[:, None], (size, SUITS)), PLACES), (right, 2), (left, 2), (others, TRUMP_COUNTS),
        (aces, ACE_COUNTS), (np.broadcast_to(upcard_kind[:, None], (size, SUITS)), UPCARD_KINDS),
        (voids, VOID_COUNTS),
    ):  # fmt: skip
        index = index * size_of + part
    named = np.where(round_two[:, None], suits != up_suit[:, None], suits == up_suit[:, None])
    return np.where(named, index, NO_BUCKET)


@dataclass(frozen=True)
class BidTable:
    """Per bucket, how many decisions were played out and the mean and spread of the bid's gain over a pass."""

    count: np.ndarray
    mean_gain: np.ndarray
    sd_gain: np.ndarray

    @classmethod
    def load(cls, path: Path = TABLE) -> BidTable:
        """The table stored at ``path`` (CSV with a header: ``COLUMNS``), every bucket present;
        ``StrategyError`` in one line if it cannot be read or is not such a table."""
        try:
            text = read_bounded(path, MOST_TABLE_BYTES, "bid table").decode("utf-8")
            rows = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=1, ndmin=2)
        except (UnreadableFile, UnicodeDecodeError, ValueError) as error:
            raise StrategyError(f"{path}: {clipped(str(error))}") from None
        shaped = rows.shape[1] == len(COLUMNS) and len(rows) == BUCKETS and (rows[:, 0] == np.arange(BUCKETS)).all()
        if not shaped or not np.isfinite(rows).all() or (rows[:, [1, 3]] < 0).any() or (rows[:, 1] % 1 != 0).any():
            raise StrategyError(f"{path} is not a Euchre bid table of {BUCKETS} buckets")
        return cls(rows[:, 1].astype(np.int64), rows[:, 2], rows[:, 3])

    def choose(self, observation: Observation, confidence: float, least: int) -> np.ndarray:
        """(n,) the trained bid of each row (``ORDER_UP + suit`` or ``PASS``), or -1 where no bid's gain
        over passing is clear: ``confidence`` standard errors away from zero over at least ``least`` plays."""
        buckets = bid_buckets(
            observation.hand, observation.seat, observation.dealer, observation.making_round, observation.upcard
        )
        named = buckets != NO_BUCKET
        at = np.maximum(buckets, 0)
        count = np.where(named, self.count[at], 0)
        mean = np.where(named, self.mean_gain[at], -np.inf)
        error = self.sd_gain[at] / np.sqrt(np.maximum(count, 1))
        clear = named & (count >= least) & (np.abs(mean) >= confidence * error)
        may_pass = (observation.legal >> PASS) & 1 == 1
        best = np.argmax(mean, axis=1)
        rows = np.arange(len(buckets))
        call = clear[rows, best] & (mean[rows, best] > 0)
        all_worse = (clear | ~named).all(axis=1) & (mean <= 0).all(axis=1) & may_pass
        # A dealer who may not pass (round two, everyone passed) names its best suit: the table holds
        # each call's value there, not its gain over a pass.
        call |= ~may_pass
        return np.where(call, ORDER_UP + best, np.where(all_worse, PASS, -1))
