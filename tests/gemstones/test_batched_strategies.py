"""The batched Gemstones strategies: ``greedy`` and ``heuristic`` decide every row of a batch exactly as
their scalar definitions (``greedy_action``, ``heuristic_action`` on a ``View``) do, and ``random``
plays a legal, uniform, reproducible action per row, whatever else shares its batch.

Observations come from whole games on the reference engine under the default rules and under each
variant of ``Variants`` (a third chain for 2 and for 0 coins, the start-of-turn draw, the finished
round, sold cards to the discard pile or Bohnanza-style, bean protection, the final sale), each seat
played by ``random`` (seeded per game), ``greedy`` or ``heuristic``; every decision of every game goes
to ``choose`` as one batch, phases and seats mixed.
"""

from __future__ import annotations

import dataclasses
from functools import cache

import numpy as np
import pytest

import strategies
from sim.gemstones import rules
from sim.gemstones.engine import NUM_PLAYERS, State, Variants
from sim.gemstones.game import PACKS
from sim.gemstones.observation import BUY, CHAIN, NUM_ACTIONS, PASS, PLAY, SELL, Observation, Phase
from strategies.montecarlo import decision_uniforms
from tests.gemstones.definitions import View, chain_worth, greedy_action, heuristic_action, position_value

SEED = 11
GAMES_PER_RULES = 10
RULES = (
    Variants(),
    Variants(third_chain_cost=2),
    Variants(third_chain_cost=0),  # bought before any chain is started: greedy's declined purchase
    Variants(draw_at_turn_start=True),
    Variants(finish_round=True),
    Variants(sold_cards="discard"),
    Variants(sold_cards="bohnanza"),
    Variants(bean_protection=True),
    Variants(final_sale=True),
)
PLAYERS = ("random", "greedy", "heuristic")
SCALAR = {"greedy": greedy_action, "heuristic": heuristic_action}

# --------------------------------------------------------------------------- the sample of observations


def concatenated(observations: list[Observation]) -> Observation:
    """One batch holding the rows of every observation, in order."""
    fields = observations[0].arrays()
    return Observation(**{name: np.concatenate([o.arrays()[name] for o in observations]) for name in fields})


@cache
def sample() -> Observation:
    """Every decision of ``GAMES_PER_RULES`` games under each of ``RULES``."""
    rng = np.random.default_rng(SEED)
    observations = []
    for game_id, deal in enumerate(PACKS.deals(SEED, 0, GAMES_PER_RULES * len(RULES))):
        state, _ = State.new(deal, RULES[game_id % len(RULES)], game_id)
        names = rng.choice(PLAYERS, size=NUM_PLAYERS)
        seats = [strategies.get("gemstones", f"random:seed={game_id}" if name == "random" else name) for name in names]
        while not state.is_over:
            observation = state.observe()
            observations.append(observation)
            state.apply(int(seats[state.current_player].choose(observation)[0]))
    return concatenated(observations)


@cache
def views() -> list[View]:
    batch = sample()
    return [View.of(batch, row) for row in range(len(batch))]


@cache
def oracle(name: str) -> np.ndarray:
    """The scalar strategy's action on every row of the sample."""
    return np.array([SCALAR[name](view) for view in views()], dtype=np.int64)


def assert_same_rows(batch: Observation, batched: np.ndarray, scalar: np.ndarray) -> None:
    """The two answers agree on every row; else name the first rows that differ."""
    differing = np.flatnonzero(batched != scalar)
    shown = [
        (int(row), Phase(int(batch.phase[row])).name, int(batched[row]), int(scalar[row])) for row in differing[:5]
    ]
    assert not differing.size, f"{differing.size} of {len(batch)} rows differ (row, phase, batched, scalar): {shown}"


def chain_kind(view: View, action: int) -> str:
    """How greedy's choice of a trade-area card goes: onto its chain, into an empty slot, or by a sale."""
    if action == PASS:
        return "pass"
    stone = action - CHAIN
    if any(chain and chain[0] == stone for chain in view.slots):
        return "extend"
    return "start" if None in view.slots else "sell"


def situations() -> dict[str, int]:
    """How often each way the scalar strategies decide happens in the sample."""
    batch, greedy, heuristic = sample(), oracle("greedy"), oracle("heuristic")
    choosing = [row for row, view in enumerate(views()) if len(view.legal) > 1]
    counts: dict[str, int] = {}

    def seen(name: str) -> None:
        counts[name] = counts.get(name, 0) + 1

    for row in choosing:
        view = views()[row]
        phase = view.phase
        if phase == Phase.BUY:
            seen(f"greedy buys: {greedy[row] == BUY}")
            seen(f"heuristic buys: {heuristic[row] == BUY}")
        elif phase in (Phase.OFFER, Phase.TRADE):
            seen(f"greedy chains: {chain_kind(view, int(greedy[row]))}")
        elif phase == Phase.PLAY_SECOND:
            seen(f"greedy plays the second card: {greedy[row] == PLAY}")
        elif phase == Phase.DISCARD:
            seen(f"greedy discards: {greedy[row] != PASS}")
            seen(f"heuristic discards: {heuristic[row] != PASS}")
            hand = view.hand
            scores = [position_value(view, view.slots, hand[:at] + hand[at + 1 :]) for at in range(len(hand))]
            if heuristic[row] != PASS and scores.count(max(scores)) > 1:
                seen("heuristic discards the first of equal best")
        elif phase == Phase.SELL:
            seen(f"greedy sells slot {greedy[row] - SELL}")
            seen(f"heuristic sells slot {heuristic[row] - SELL}")
            sellable = [action - SELL for action in view.legal]
            if len(sellable) < sum(chain is not None for chain in view.slots):
                seen("bean protection keeps a chain from the sale")
            values = [rules.chain_value(*rules.chain_at(view.slots, slot)) for slot in sellable]
            if values.count(max(values)) > 1:
                seen("greedy's best sales tie on coins")
            losses = [
                chain_worth(view, rules.chain_at(view.slots, slot), view.hand[2:]) - values[at]
                for at, slot in enumerate(sellable)
            ]
            if losses.count(min(losses)) > 1:
                seen("heuristic's cheapest sales tie")
            if heuristic[row] != greedy[row]:
                seen("the sales of heuristic and greedy differ")
    counts["a third chain"] = int((batch.slots[np.arange(len(batch)), batch.seat] == rules.MAX_SLOTS).sum())
    counts["both seats"] = min(np.bincount(batch.seat[choosing], minlength=NUM_PLAYERS))
    return counts


# --------------------------------------------------------------------------- greedy and heuristic


def test_the_sample_takes_every_way_of_every_decision():
    """Both outcomes of each yes-or-no, each kind of chaining, every slot sold, and the tie-breaks."""
    assert 10_000 <= len(sample()) <= 25_000
    counts = situations()
    expected = [
        *(f"greedy buys: {answer}" for answer in (True, False)),
        *(f"heuristic buys: {answer}" for answer in (True, False)),
        *(f"greedy chains: {kind}" for kind in ("extend", "start", "sell", "pass")),
        *(f"greedy plays the second card: {answer}" for answer in (True, False)),
        *(f"{name} discards: {answer}" for name in ("greedy", "heuristic") for answer in (True, False)),
        "heuristic discards the first of equal best",
        *(f"{name} sells slot {slot}" for name in ("greedy", "heuristic") for slot in range(rules.MAX_SLOTS)),
        "bean protection keeps a chain from the sale",
        "greedy's best sales tie on coins",
        "heuristic's cheapest sales tie",
        "the sales of heuristic and greedy differ",
        "a third chain",
        "both seats",
    ]
    assert min(counts.get(name, 0) for name in expected) >= 5, {name: counts.get(name, 0) for name in expected}


@pytest.mark.parametrize("name", ["greedy", "heuristic"])
def test_the_compiled_strategy_decides_every_row_as_the_scalar_definition(name):
    batch = sample()
    assert_same_rows(batch, strategies.get("gemstones", name).choose(batch), oracle(name))


@pytest.mark.parametrize("name", PLAYERS)
def test_a_row_gets_the_same_action_alone_as_in_any_batch(name):
    batch, player = sample(), strategies.get("gemstones", name)
    whole = player.choose(batch)
    order = np.random.default_rng(SEED).permutation(len(batch))
    shuffled = np.empty_like(whole)
    shuffled[order] = player.choose(batch.take(order))
    assert np.array_equal(shuffled, whole)
    for row in range(0, len(batch), 97):
        assert player.choose(batch.take(np.array([row])))[0] == whole[row]


@pytest.mark.parametrize("name", PLAYERS)
def test_a_row_without_a_legal_action_is_refused(name):
    over = dataclasses.replace(sample().take(np.arange(3)), legal_mask=np.zeros((3, NUM_ACTIONS), dtype=bool))
    with pytest.raises(ValueError, match="no legal action"):
        strategies.get("gemstones", name).choose(over)


# --------------------------------------------------------------------------- random


def test_random_plays_a_legal_action_on_every_row():
    batch = sample()
    actions = strategies.get("gemstones", "random:seed=5").choose(batch)
    assert batch.legal_mask[np.arange(len(batch)), actions].all()


def test_random_replays_exactly_and_its_seed_changes_its_play():
    batch = sample()
    first = strategies.get("gemstones", "random:seed=5").choose(batch)
    assert np.array_equal(first, strategies.get("gemstones", "random:seed=5").choose(batch))
    choosing = batch.legal_mask.sum(axis=1) > 1
    other = strategies.get("gemstones", "random:seed=6").choose(batch)
    assert 0.3 < (first != other)[choosing].mean() < 0.9  # about 1 - E[1 / number of legal actions]


def repeated(row: int, count: int) -> Observation:
    """Row ``row`` of the sample ``count`` times, each a different decision (round id and step)."""
    batch = sample().take(np.full(count, row))
    ids = np.arange(count, dtype=np.int64)
    return dataclasses.replace(batch, round_id=ids // 256, step=ids % 256)


def chi_square(counts: np.ndarray) -> float:
    expected = counts.sum() / len(counts)
    return float(((counts - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("legal_count", [2, 3, "most"])
def test_random_picks_each_legal_action_equally_often(legal_count):
    """Pearson's chi-square over the legal actions of one position played as 60,000 decisions stays
    below 3 per degree of freedom plus 30, a loose bound (the 99.99th percentile of the distribution
    is 18 for 2 degrees of freedom, about 46 for 16). The draws are fixed: this checks the hash, and
    cannot fail at random."""
    counts = sample().legal_mask.sum(axis=1)
    row = int(np.argmax(counts)) if legal_count == "most" else int(np.flatnonzero(counts == legal_count)[0])
    batch = repeated(row, 60_000)
    legal = np.flatnonzero(batch.legal_mask[0])
    actions = strategies.get("gemstones", "random:seed=3").choose(batch)
    picked = np.array([(actions == action).sum() for action in legal])
    assert picked.sum() == len(batch) and len(legal) >= 2
    assert chi_square(picked) < 3 * (len(legal) - 1) + 30


def test_decision_uniforms_are_uniform_and_unrelated_across_neighbouring_keys():
    """Keys that differ in one low bit (consecutive steps, consecutive rounds, seeds 0 and 1) give
    unrelated numbers: even 64 bins, and no correlation between neighbours."""
    rounds, steps = np.meshgrid(np.arange(512), np.arange(256), indexing="ij")
    uniforms = decision_uniforms(0, rounds, steps)
    assert uniforms.shape == rounds.shape and uniforms.dtype == np.float64
    assert ((uniforms >= 0) & (uniforms < 1)).all()
    assert chi_square(np.bincount((uniforms * 64).astype(np.int64).ravel(), minlength=64)) < 130  # 63 dof
    neighbours = [
        (uniforms[:, :-1], uniforms[:, 1:]),
        (uniforms[:-1], uniforms[1:]),
        (uniforms, decision_uniforms(1, rounds, steps)),
        (uniforms, decision_uniforms(0, steps, rounds)),
    ]
    for first, second in neighbours:
        assert abs(np.corrcoef(first.ravel(), second.ravel())[0, 1]) < 0.02
    assert np.array_equal(decision_uniforms(0, rounds[:7, 3], steps[:7, 3]), uniforms[:7, 3])  # alone as in a grid
