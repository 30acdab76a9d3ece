"""The batched Gin Rummy strategies decide every row of a batch exactly as the scalar strategies did.

The oracle below is the scalar code the batched ``simple`` and ``heuristic`` replaced, kept verbatim
but for one rule added to both since (simple never takes back from the pile a card it threw) and
the heuristic's defaults, which follow the registered player's:
``simple_action`` and ``throw_key`` as they were, the heuristic's helpers and its class (renamed
``ScalarHeuristic``, unregistered). Observations come from whole hands on the reference engine, each
seat played by a random-but-seeded legal player (it takes from the pile, knocks at any deadwood it
may, and otherwise lets the stock run down), by Simple, by CS340 or by a Heuristic; all of them go to
``choose`` as one batch, draws and discards mixed.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated

import numpy as np
import pytest

import strategies
from sim.cards import ALL_CARDS_MASK, NUM_CARDS, cards_in, rank_of, suit_of
from sim.ginrummy import melds, rules
from sim.ginrummy.game import GAME
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, NONE, Observation, Phase, knock
from sim.ginrummy.policies import masks as helpers
from strategies import Between

DEALS = 200
SEED = 15
# Default settings; every setting changed, with whole-number weights so that throws tie often; and
# holding out for gin and for a low knock, taking the face-up card more readily.
HEURISTICS = (
    {},
    {"take_gain": 1, "out_weight": 1.0, "feed_cost": 2.0, "near_cost": 1.0, "safe_bonus": 1.0},
    {"take_gain": 0, "out_weight": 0.5, "gin_hold": 6, "patience": 8, "early_knock": 4, "late": 12},
)

# --------------------------------------------------------------------------- the scalar Simple player


def throw_key(hand: int, card: int) -> tuple[int, int]:
    """Least deadwood left first, then the higher card (it costs more if it stays)."""
    return rules.deadwood(hand & ~(1 << card)), -rules.card_value(card)


def simple_action(observation: Observation, row: int) -> int:
    """The simple player's action in hand ``row`` of the batch."""
    hand = int(observation.hand[row])
    if observation.phase[row] == Phase.DRAW:
        top = int(observation.top_discard[row])
        takes = rules.makes_meld(hand, top) and not int(observation.threw[row]) >> top & 1
        return DRAW_DISCARD if takes else DRAW_STOCK
    legal = np.flatnonzero(observation.legal[row])
    throwable = [int(a) for a in legal if a < KNOCK]
    card = min(throwable, key=lambda c: throw_key(hand, c))
    return knock(card) if observation.legal[row, knock(card)] else card


# --------------------------------------------------------------------------- the scalar Heuristic player

NUM_RANKS, NUM_SUITS = 13, 4


def _ranks_mask(ranks: set[int]) -> int:
    return sum(1 << (suit * NUM_RANKS + rank) for suit in range(NUM_SUITS) for rank in ranks)


NOT_ACE, NOT_LOW2 = ALL_CARDS_MASK & ~_ranks_mask({0}), ALL_CARDS_MASK & ~_ranks_mask({0, 1})
NOT_KING, NOT_HIGH2 = ALL_CARDS_MASK & ~_ranks_mask({12}), ALL_CARDS_MASK & ~_ranks_mask({11, 12})
RANK_MASKS = tuple(_ranks_mask({rank}) for rank in range(NUM_RANKS))


def meld_outs(hand: int) -> int:
    """The mask of cards that would sit in a meld with ``hand`` (three of a rank, three in a row)."""
    below1, below2 = (hand << 1) & NOT_ACE, (hand << 2) & NOT_LOW2  # card x with x-1 / x-2 held
    above1, above2 = (hand >> 1) & NOT_KING, (hand >> 2) & NOT_HIGH2  # card x with x+1 / x+2 held
    outs = (below1 & below2) | (below1 & above1) | (above1 & above2)
    for rank_mask in RANK_MASKS:
        if (hand & rank_mask).bit_count() >= 2:
            outs |= rank_mask
    return outs & ~hand


def outs(hand: int, unseen: int) -> int:
    """How many unseen cards would join a meld with the hand: its chances to improve."""
    return (meld_outs(hand) & unseen).bit_count()


def feeds(card: int, opponent_took: int) -> bool:
    """Whether ``card`` completes a meld with cards the opponent is known to hold."""
    return bool(meld_outs(opponent_took) >> card & 1)


def _near(card: int, span: int) -> int:
    """Cards of the same rank, or of the same suit within ``span`` ranks, as ``card``."""
    rank, suit = rank_of(card), suit_of(card)
    near = RANK_MASKS[rank]
    for other in range(max(rank - span, 0), min(rank + span, NUM_RANKS - 1) + 1):
        near |= 1 << (suit * NUM_RANKS + other)
    return near & ~(1 << card)


NEAR2 = tuple(_near(card, 2) for card in range(52))
NEAR1 = tuple(_near(card, 1) for card in range(52))
SAME_RANK = tuple(RANK_MASKS[rank_of(card)] & ~(1 << card) for card in range(52))


class ScalarHeuristic:
    """Least deadwood with live cards and safety; take the face-up card when it helps; knock by the stock left."""

    def __init__(
        self,
        take_gain: int = 4,
        out_weight: float = 0.75,
        feed_cost: float = 6.0,
        near_cost: float = 1.5,
        safe_bonus: float = 0.0,
        gin_hold: Annotated[int, Between(0, rules.KNOCK_LIMIT)] = 0,
        patience: Annotated[int, Between(0, 99)] = 99,
        early_knock: Annotated[int, Between(0, rules.KNOCK_LIMIT)] = 10,
        late: Annotated[int, Between(0, 99)] = 0,
    ) -> None:
        self.take_gain = take_gain
        self.out_weight = out_weight
        self.feed_cost = feed_cost
        self.near_cost = near_cost
        self.safe_bonus = safe_bonus
        self.gin_hold = gin_hold
        self.patience = patience
        self.early_knock = early_knock
        self.late = late

    # ------------------------------------------------------------------ pieces

    def danger(self, card: int, took: int, threw: int) -> float:
        """How likely ``card`` helps the opponent, from what it took and threw."""
        cost = 0.0
        if took:
            if feeds(card, took):
                cost += self.feed_cost
            elif NEAR2[card] & took:
                cost += self.near_cost
        if threw and (SAME_RANK[card] | NEAR1[card]) & threw:
            cost -= self.safe_bonus
        return cost

    def throw_score(self, hand: int, card: int, unseen: int, took: int, threw: int) -> tuple[float, int]:
        left = hand & ~(1 << card)
        score = rules.deadwood(left) - self.out_weight * outs(left, unseen) + self.danger(card, took, threw)
        return score, -rules.card_value(card)

    def should_knock(self, left_deadwood: int, stock: int) -> bool:
        if left_deadwood == 0:
            return True
        if left_deadwood > rules.KNOCK_LIMIT:
            return False
        if left_deadwood <= self.gin_hold and stock > self.patience:
            return False
        return not (left_deadwood > self.early_knock and stock > self.late)

    # ------------------------------------------------------------------ decisions

    def draw(self, hand: int, top: int, thrown: int) -> int:
        if top == NONE or thrown >> top & 1:
            return DRAW_STOCK
        with_top = hand | (1 << top)
        after = min(rules.deadwood(with_top & ~(1 << card)) for card in cards_in(hand))
        return DRAW_DISCARD if rules.deadwood(hand) - after >= self.take_gain else DRAW_STOCK

    def discard(self, observation: Observation, row: int) -> int:
        hand = int(observation.hand[row])
        took = int(observation.opponent_took[row])
        threw = int(observation.opponent_threw[row])
        unseen = ALL_CARDS_MASK & ~hand & ~int(observation.discard_pile[row]) & ~took
        legal = observation.legal[row]
        throwable = [int(a) for a in np.flatnonzero(legal[:KNOCK])]
        left = {card: rules.deadwood(hand & ~(1 << card)) for card in throwable}
        best = min(throwable, key=lambda c: (left[c], -rules.card_value(c)))
        if legal[knock(best)] and self.should_knock(left[best], int(observation.stock_size[row])):
            return knock(best)
        return min(throwable, key=lambda c: self.throw_score(hand, c, unseen, took, threw))

    def action(self, observation: Observation, row: int) -> int:
        if observation.phase[row] == Phase.DRAW:
            return self.draw(int(observation.hand[row]), int(observation.top_discard[row]), int(observation.threw[row]))
        return self.discard(observation, row)

    def choose(self, observation: Observation) -> np.ndarray:
        return np.array([self.action(observation, row) for row in range(len(observation))], dtype=np.int64)


# --------------------------------------------------------------------------- the sample of observations


def spec(settings: dict[str, float]) -> str:
    """The registry's name of a heuristic with these settings."""
    return ":".join(["heuristic", ",".join(f"{key}={value}" for key, value in settings.items())]).rstrip(":")


def concatenated(observations: list[Observation]) -> Observation:
    """One batch holding the rows of every observation, in order."""
    fields = observations[0].arrays()
    return Observation(**{name: np.concatenate([o.arrays()[name] for o in observations]) for name in fields})


def random_action(hand: int, legal: tuple[int, ...], rng: np.random.Generator) -> int:
    """A random legal action: either draw alike; a knock one time in ten that one is legal; else half
    the time the discard leaving the least deadwood (so that knocks become legal late in the hand),
    half the time any discard."""
    knocks = [action for action in legal if action >= KNOCK]
    if knocks and rng.random() < 0.1:
        return knocks[rng.integers(len(knocks))]
    plain = [action for action in legal if action < KNOCK]
    if plain[0] < DRAW_STOCK and rng.random() < 0.5:
        return min(plain, key=lambda card: rules.deadwood(hand & ~(1 << card)))
    return plain[rng.integers(len(plain))]


@cache
def sample() -> Observation:
    """Every decision of ``DEALS`` hands, each seat played at random (twice as often as any other
    player, so that hands run long), by Simple, by CS340 or by one of the ``HEURISTICS``."""
    rng = np.random.default_rng(SEED)
    players = [
        None,
        None,
        strategies.get("ginrummy", "simple"),
        strategies.get("ginrummy", "cs340"),
        *(ScalarHeuristic(**settings) for settings in HEURISTICS),
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
            state.apply(
                random_action(int(observation.hand[0]), legal, rng)
                if player is None
                else int(player.choose(observation)[0])
            )
    return concatenated(observations)


def knock_deadwoods(batch: Observation) -> np.ndarray:
    """(n, 52) the deadwood left by each legal knock, ``NOT_HELD`` where there is none."""
    return np.where(batch.legal[:, KNOCK:], melds.discard_deadwoods(batch.hand), melds.NOT_HELD)


def situations(batch: Observation) -> dict[str, np.ndarray]:
    """Masks of the rows of each kind of decision the strategies tell apart."""
    drawing = batch.phase == Phase.DRAW
    discarding = batch.phase == Phase.DISCARD
    top = np.where(batch.top_discard == NONE, 0, batch.top_discard)
    knocks = knock_deadwoods(batch)
    return {
        "draw": drawing,
        "draw a card the seat threw": drawing & ((batch.threw >> top) & 1 == 1),
        "draw with a card the opponent took": drawing & (batch.opponent_took != 0),
        "first discard of the hand (11 cards dealt)": discarding & (batch.top_discard == NONE),
        "discard after taking from the pile": discarding & (batch.taken != NONE),
        "discard with a card the opponent took": discarding & (batch.opponent_took != 0),
        "a knock is legal": (knocks <= rules.KNOCK_LIMIT).any(axis=1),
        "gin is legal": (knocks == 0).any(axis=1),
        "a knock of 5 to 10 is legal": ((knocks >= 5) & (knocks <= rules.KNOCK_LIMIT)).any(axis=1),
        "four or fewer stock cards": batch.stock_size <= 4,
        "the last discard before the hand is void": discarding & (batch.stock_size == rules.VOID_STOCK_SIZE),
        "a knock legal, 12 or fewer stock cards": (batch.stock_size <= 12) & (knocks <= rules.KNOCK_LIMIT).any(axis=1),
    }


def assert_same_rows(batch: Observation, batched: np.ndarray, oracle: np.ndarray) -> None:
    """The two answers agree on every row; else name the first rows that differ."""
    differing = np.flatnonzero(batched != oracle)
    shown = [
        (int(row), Phase(int(batch.phase[row])).name, int(batched[row]), int(oracle[row])) for row in differing[:5]
    ]
    assert not differing.size, f"{differing.size} of {len(batch)} rows differ (row, phase, batched, oracle): {shown}"


@cache
def simple_oracle() -> np.ndarray:
    batch = sample()
    return np.array([simple_action(batch, row) for row in range(len(batch))])


@cache
def heuristic_oracle(index: int) -> np.ndarray:
    return ScalarHeuristic(**HEURISTICS[index]).choose(sample())


# --------------------------------------------------------------------------- the tests


def test_the_sample_covers_every_kind_of_decision():
    batch = sample()
    assert 3000 <= len(batch) <= 10000
    counts = {name: int(rows.sum()) for name, rows in situations(batch).items()}
    assert min(counts.values()) >= 10, counts


def test_the_oracles_take_knock_and_tie_in_every_way():
    """Each way a decision can go happens in the sample: the face-up card taken and left, a legal knock
    taken and held back, and throws whose heuristic scores tie (broken by card value, then card id)."""
    batch = sample()
    drawing = batch.phase == Phase.DRAW
    may_knock = (knock_deadwoods(batch) <= rules.KNOCK_LIMIT).any(axis=1)
    oracles = {"simple": simple_oracle()} | {
        spec(settings): heuristic_oracle(i) for i, settings in enumerate(HEURISTICS)
    }
    for name, actions in oracles.items():
        counts = {
            "take": int((actions[drawing] == DRAW_DISCARD).sum()),
            "leave": int((actions[drawing] == DRAW_STOCK).sum()),
            "knock": int((actions >= KNOCK).sum()),
        }
        assert min(counts.values()) >= 10, (name, counts)
    holding = ScalarHeuristic(**HEURISTICS[2])  # holds for gin and for a low knock while the stock is deep
    assert (may_knock & (heuristic_oracle(2) < KNOCK)).sum() >= 10
    assert (may_knock & (batch.stock_size <= holding.late) & (heuristic_oracle(2) >= KNOCK)).sum() >= 10
    heuristic = ScalarHeuristic(**HEURISTICS[1])
    ties = 0
    for row in np.flatnonzero(~drawing & ~may_knock)[:600]:
        hand, took, threw = int(batch.hand[row]), int(batch.opponent_took[row]), int(batch.opponent_threw[row])
        unseen = ALL_CARDS_MASK & ~hand & ~int(batch.discard_pile[row]) & ~took
        scores = [
            heuristic.throw_score(hand, int(c), unseen, took, threw)[0]
            for c in np.flatnonzero(batch.legal[row, :KNOCK])
        ]
        ties += scores.count(min(scores)) > 1
    assert ties >= 20


def test_simple_decides_every_row_as_the_scalar_player():
    assert_same_rows(sample(), strategies.get("ginrummy", "simple").choose(sample()), simple_oracle())


@pytest.mark.parametrize("index", range(len(HEURISTICS)))
def test_heuristic_decides_every_row_as_the_scalar_player(index):
    batched = strategies.get("ginrummy", spec(HEURISTICS[index])).choose(sample())
    assert_same_rows(sample(), batched, heuristic_oracle(index))


@pytest.mark.parametrize("name", ["simple", "heuristic"])
def test_one_phase_alone_and_single_rows_decide_the_same(name):
    """A batch all of one phase (as the fast engine's are) takes another path than a mixed one, and
    the reference engine asks one row at a time."""
    batch, strategy = sample(), strategies.get("ginrummy", name)
    whole = strategy.choose(batch)
    for phase in (Phase.DRAW, Phase.DISCARD):
        rows = np.flatnonzero(batch.phase == phase)
        assert np.array_equal(strategy.choose(batch.take(rows)), whole[rows])
    for row in range(0, len(batch), 97):
        assert strategy.choose(batch.take(np.array([row]))).tolist() == [whole[row]]


@pytest.mark.parametrize("name", ["simple", "heuristic", spec(HEURISTICS[2])])
def test_every_chosen_action_is_legal(name):
    batch = sample()
    actions = strategies.get("ginrummy", name).choose(batch)
    assert actions.dtype == np.int64 and actions.shape == (len(batch),)
    assert batch.legal[np.arange(len(batch)), actions].all()


@pytest.mark.parametrize("name", ["simple", "heuristic"])
def test_an_empty_batch_gets_no_actions(name):
    empty = Observation(**{field: values[:0] for field, values in sample().arrays().items()})
    actions = strategies.get("ginrummy", name).choose(empty)
    assert actions.shape == (0,) and actions.dtype == np.int64


@pytest.mark.parametrize("name", ["simple", "heuristic"])
def test_small_integer_fields_decide_the_same(name):
    """A fast engine may keep cards, phases and counts in int8; only the bitmasks need int64."""
    batch = sample()
    wide = ("hand", "discard_pile", "took", "opponent_took", "opponent_threw", "threw", "legal", "round_id")
    narrow = Observation(
        **{field: values if field in wide else values.astype(np.int8) for field, values in batch.arrays().items()}
    )
    strategy = strategies.get("ginrummy", name)
    assert np.array_equal(strategy.choose(narrow), strategy.choose(batch))


# --------------------------------------------------------------------------- the shared compiled helpers


def test_compiled_meld_outs_is_the_scalar_meld_outs():
    rng = np.random.default_rng(4)
    sizes = rng.choice([0, 1, 2, 5, 10, 11, 20], size=3000)
    hands = [sum(1 << int(c) for c in rng.choice(NUM_CARDS, size, replace=False)) for size in sizes]
    assert [helpers.meld_outs(hand) for hand in hands] == [meld_outs(hand) for hand in hands]


@pytest.mark.parametrize(("span", "table"), [(1, NEAR1), (2, NEAR2)])
def test_near_is_every_card_near_one_of_the_cards(span, table):
    """``near(cards)`` holds card ``c`` exactly when the scalar ``NEAR1[c]`` (``NEAR2[c]``) meets ``cards``."""
    rng = np.random.default_rng(span)
    masks = [sum(1 << int(c) for c in rng.choice(NUM_CARDS, size, replace=False)) for size in rng.integers(0, 12, 2000)]
    expected = [sum(1 << card for card in range(NUM_CARDS) if table[card] & mask) for mask in masks]
    assert [helpers.near(mask, span) for mask in masks] == expected
