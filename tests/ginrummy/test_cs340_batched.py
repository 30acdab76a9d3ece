"""The batched cs340 player decides every row of a batch exactly as the per-row ``cs340_action``.

Two samples: every decision of whole hands played on the fast engine, each seat's rows answered by
the heuristic, simple or cs340 by the hand (so hands run as each of them plays them), and made-up
meld-dense hands (few suits, nearby ranks), where sequences are broken for pairs, twice in a hand,
and two sequences tie for the breaking, and groups of four are common. Both go to ``choose`` as one
batch, draws and discards mixed; the dense hands are also organized directly, category by category.
"""

from __future__ import annotations

from functools import cache

import numpy as np

import strategies
from sim.cards import NUM_CARDS, NUM_RANKS, cards_in, mask_of
from sim.ginrummy import fast, rules
from sim.ginrummy.game import GAME
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, NONE, NUM_ACTIONS, Observation, Phase
from strategies.ginrummy.cs340 import cs340_action, organize_masks

DEALS = 600
SEED = 21
DENSE_HANDS = 12_000
PLAYERS = ("heuristic", "simple", "cs340")


def concatenated(observations: list[Observation]) -> Observation:
    """One batch holding the rows of every observation, in order."""
    fields = observations[0].arrays()
    return Observation(**{name: np.concatenate([o.arrays()[name] for o in observations]) for name in fields})


class Recorder:
    """Keeps every observation shown; a row is answered by one of ``PLAYERS``, chosen by its hand and seat."""

    def __init__(self, seen: list[Observation]) -> None:
        self.seen = seen
        self.players = [strategies.get("ginrummy", name) for name in PLAYERS]

    def choose(self, observation: Observation) -> np.ndarray:
        self.seen.append(observation)
        answers = np.stack([player.choose(observation) for player in self.players])
        which = (observation.round_id * 7 + observation.seat * 5) % len(self.players)
        return answers[which, np.arange(len(observation))]


@cache
def played() -> Observation:
    """Every decision of ``DEALS`` hands on the fast engine."""
    seen: list[Observation] = []
    recorder = Recorder(seen)
    fast.play_rounds(GAME.deals(SEED, 0, DEALS), [recorder, recorder])
    return concatenated(seen)


def dense_hand(rng: np.random.Generator, size: int) -> int:
    """``size`` cards from two to four suits and four to eight neighbouring ranks."""
    suits = rng.choice(4, rng.integers(2, 5), replace=False)
    width = int(rng.integers(4, 9))
    low = int(rng.integers(0, NUM_RANKS - width + 1))
    pool = [int(suit) * NUM_RANKS + rank for suit in suits for rank in range(low, low + width)]
    if len(pool) <= size:
        pool = list(range(NUM_CARDS))
    return mask_of(int(card) for card in rng.choice(pool, size, replace=False))


@cache
def dense() -> Observation:
    """``DENSE_HANDS`` made-up decisions: half draws (ten cards, a face-up card near them), half
    discards (eleven cards, half of them just having taken one of them from the pile)."""
    rng = np.random.default_rng(SEED)
    n = DENSE_HANDS
    phase = np.where(np.arange(n) % 2 == 0, int(Phase.DRAW), int(Phase.DISCARD))
    hands = np.zeros(n, dtype=np.int64)
    top = np.full(n, NONE, dtype=np.int64)
    taken = np.full(n, NONE, dtype=np.int64)
    for row in range(n):
        if phase[row] == Phase.DRAW:
            both = dense_hand(rng, rules.HAND_SIZE + 1)  # the face-up card among the dense cards
            cards = list(cards_in(both))
            face_up = cards[rng.integers(len(cards))]
            hands[row], top[row] = both & ~(1 << face_up), face_up
        else:
            hands[row] = dense_hand(rng, rules.FIRST_HAND_SIZE)
            if rng.random() < 0.5:
                cards = list(cards_in(int(hands[row])))
                taken[row] = cards[rng.integers(len(cards))]
    zeros = np.zeros(n, dtype=np.int64)
    return Observation(
        seat=zeros,
        dealer=zeros,
        phase=phase,
        legal=np.zeros((n, NUM_ACTIONS), dtype=bool),
        hand=hands,
        top_discard=top,
        discard_pile=zeros,
        took=zeros,
        opponent_took=zeros,
        opponent_threw=zeros,
        threw=zeros,
        taken=taken,
        stock_size=zeros + 20,
        scores=np.zeros((n, 2), dtype=np.int64),
        round_id=np.arange(n, dtype=np.int64),
    )


@cache
def sample() -> Observation:
    return concatenated([played(), dense()])


@cache
def oracle() -> np.ndarray:
    batch = sample()
    return np.array([cs340_action(batch, row) for row in range(len(batch))], dtype=np.int64)


def broken(hand: int) -> bool:
    """Whether ``rules.organize`` breaks a sequence of the hand for a pair."""
    stretches = rules._consecutive_runs(cards_in(hand))
    return [tuple(s) for s in stretches if len(s) >= rules.MIN_MELD] != list(rules.organize(cards_in(hand)).sequences)


def assert_same_rows(batch: Observation, batched: np.ndarray, expected: np.ndarray) -> None:
    differing = np.flatnonzero(batched != expected)
    shown = [
        (
            int(row),
            int(batch.hand[row]),
            int(batch.top_discard[row]),
            int(batch.taken[row]),
            int(batched[row]),
            int(expected[row]),
        )
        for row in differing[:5]
    ]
    assert not differing.size, (
        f"{differing.size} of {len(batch)} rows differ (row, hand, top, taken, batched, oracle): {shown}"
    )


# --------------------------------------------------------------------------- the tests


def test_the_sample_covers_every_kind_of_decision():
    batch, actions = sample(), oracle()
    drawing = batch.phase == Phase.DRAW
    hands = [int(hand) for hand in batch.hand]
    counts = {
        "decisions": len(batch),
        "played decisions": len(played()),
        "take": int((actions[drawing] == DRAW_DISCARD).sum()),
        "leave": int((actions[drawing] == DRAW_STOCK).sum()),
        "knock": int((actions >= KNOCK).sum()),
        "throw without knocking": int((~drawing & (actions < DRAW_STOCK)).sum()),
        "discard after taking from the pile": int((~drawing & (batch.taken != NONE)).sum()),
        "a group of four": int((organize_masks(batch.hand).four_groups != 0).sum()),
        "a sequence broken for a pair": sum(broken(hand) for hand in hands),
    }
    assert counts["decisions"] >= 20_000, counts
    assert counts["played decisions"] >= 10_000, counts
    assert min(counts.values()) >= 100, counts


def test_the_batch_decides_every_row_as_the_per_row_player():
    batch = sample()
    assert_same_rows(batch, strategies.get("ginrummy", "cs340").choose(batch), oracle())


def test_each_phase_alone_and_any_slice_decide_the_same():
    batch, expected = sample(), oracle()
    player = strategies.get("ginrummy", "cs340")
    for rows in (np.flatnonzero(batch.phase == Phase.DRAW), np.flatnonzero(batch.phase == Phase.DISCARD), np.arange(7)):
        assert_same_rows(batch.take(rows), player.choose(batch.take(rows)), expected[rows])


def test_small_integer_fields_decide_the_same():
    """A fast engine may keep cards, phases and counts in int8; only the bitmasks need int64."""
    batch = sample()
    wide = ("hand", "discard_pile", "took", "opponent_took", "opponent_threw", "threw", "legal", "round_id")
    narrow = Observation(
        **{field: values if field in wide else values.astype(np.int8) for field, values in batch.arrays().items()}
    )
    assert np.array_equal(strategies.get("ginrummy", "cs340").choose(narrow), oracle())


def test_organize_masks_is_organize_category_by_category():
    """Every category of every hand, on the dense hands and on the hands of the played sample; the
    dense ones break sequences for pairs, once and twice in a hand."""
    rng = np.random.default_rng(SEED + 1)
    made_up = [dense_hand(rng, int(size)) for size in rng.choice([10, 11], 12_000)]
    hands = np.array(made_up + [int(hand) for hand in played().hand[:4000]], dtype=np.int64)
    organized = organize_masks(hands)
    columns = (
        "sequences",
        "groups",
        "partial_groups",
        "partial_sequences",
        "deadwood",
        "long_sequences",
        "four_groups",
    )
    got = np.stack([getattr(organized, name) for name in columns], axis=1)
    expected = []
    for hand in hands.tolist():
        organization = rules.organize(cards_in(hand))
        expected.append(
            [
                mask_of(card for part in parts for card in part)
                for parts in (
                    organization.sequences,
                    organization.groups,
                    organization.partial_groups,
                    organization.partial_sequences,
                    (organization.deadwood,),
                    [s for s in organization.sequences if len(s) > rules.MIN_MELD],
                    [g for g in organization.groups if len(g) > rules.MIN_MELD],
                )
            ]
        )
    wrong = np.flatnonzero((got != np.array(expected)).any(axis=1))
    assert not wrong.size, [(int(hands[row]), got[row].tolist(), expected[row]) for row in wrong[:3]]
    assert sum(broken(hand) for hand in made_up) >= 500
