"""Gin Rummy's search: its worlds honour what the seat saw and favour what the opponent's play
explains, its judging counts as mc's on the last throw, its decisions depend on nothing but
themselves, and both engines play it alike."""

import numpy as np
import pytest

import strategies
from sim.cards import NUM_CARDS, NUM_RANKS, NUM_SUITS
from sim.crosscheck import crosscheck
from sim.ginrummy import rules
from sim.ginrummy.game import GAME, new_state
from sim.ginrummy.observation import Observation
from strategies.ginrummy import mc, search
from strategies.montecarlo import decision_rng, likeliest_worlds

CARD_IDS = np.arange(NUM_CARDS, dtype=np.int64)


def positions(count: int, seed: int) -> tuple[Observation, np.ndarray]:
    """Every decision of ``count`` hands of heuristic play on the reference engine, as one batch of
    observations, with the opponent's true hand at each."""
    heuristic = strategies.get("ginrummy", "heuristic")
    seen, truth = [], []
    for row, deal in enumerate(GAME.deals(seed, 0, count)):
        state = new_state(deal, row)
        while not state.is_over:
            seen.append(state.observe())
            truth.append(state.hands[1 - state.turn])
            state.apply(int(heuristic.choose(seen[-1])[0]))
    batch = Observation(**{name: np.concatenate([o.arrays()[name] for o in seen]) for name in seen[0].arrays()})
    return batch, np.array(truth, dtype=np.int64)


OBSERVED, TRUE_OPPONENT = positions(6, 41)
LATE = np.flatnonzero(np.bitwise_count(OBSERVED.opponent_threw) >= 4)  # the opponent has thrown four cards


def rngs_of(observation: Observation, seed: int = 0) -> list[np.random.Generator]:
    return [decision_rng(seed, *key) for key in mc.decision_keys(observation)]


def test_kept_worlds_never_contradict_what_was_seen():
    """The opponent never holds a card in the pile, in our hand or that it threw and we took; it always
    holds the cards it took from the pile and still has; and every world deals every card once."""
    player = strategies.get("ginrummy", "search:samples=8,oversample=8")
    o = OBSERVED.take(LATE)
    worlds = player.worlds(o)
    seen = (o.hand | o.discard_pile)[:, None]
    assert not (worlds.opponent & seen).any()
    assert ((worlds.opponent & o.opponent_took[:, None]) == o.opponent_took[:, None]).all()
    assert (np.bitwise_count(worlds.opponent) == rules.HAND_SIZE).all()
    in_stock = np.zeros(worlds.opponent.shape, dtype=np.int64)
    for column in range(NUM_CARDS):
        drawn = (NUM_CARDS - column <= o.stock_size)[:, None]  # the stock is the last stock_size columns
        in_stock |= np.where(drawn, np.left_shift(1, worlds.stock[:, :, column].astype(np.int64)), 0)
    assert (np.bitwise_count(in_stock) == o.stock_size[:, None]).all()
    assert not (in_stock & (worlds.opponent | seen)).any()


def test_judging_the_last_throw_counts_as_mc_does():
    heuristic = strategies.get("ginrummy", "heuristic")
    o = OBSERVED.take(np.arange(0, len(OBSERVED), 3))
    worlds = mc.sample_worlds(o, rngs_of(o, 5), 16)
    counted = search.count_mismatches(o, worlds.opponent, "last", heuristic)
    assert np.array_equal(counted, mc.throw_mismatches(o, worlds.opponent, heuristic).astype(np.int64))
    every = search.count_mismatches(o, worlds.opponent, "all", heuristic)
    assert (every >= counted).all() and (every > counted).any()


def test_counts_cut_short_keep_the_same_worlds():
    heuristic = strategies.get("ginrummy", "heuristic")
    o = OBSERVED.take(LATE[::4])
    opponents = mc.sample_worlds(o, rngs_of(o, 8), 512).opponent
    whole = search.count_mismatches(o, opponents, "all", heuristic)
    cut = search.count_mismatches(o, opponents, "all", heuristic, keep=16)
    assert np.array_equal(likeliest_worlds(whole, 16), likeliest_worlds(cut, 16)) and (cut < whole).any()


def test_search_judging_the_last_throw_is_mc():
    rows = np.arange(0, len(OBSERVED), 9)
    o = OBSERVED.take(rows)
    judged = strategies.get("ginrummy", "search:samples=6,oversample=16,judge=last").choose(o)
    assert judged.tolist() == strategies.get("ginrummy", "mc:samples=6,oversample=16").choose(o).tolist()


def completes_a_meld(hands: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """(d, w) whether each hand (d, w) holds two cards making a meld with its row's card (d,): two of
    its rank, or two next to it in its suit."""
    rank = cards % NUM_RANKS
    of_rank = sum((hands >> (suit * NUM_RANKS + rank)[:, None]) & 1 for suit in range(NUM_SUITS))

    def held(offset):
        inside = (rank + offset >= 0) & (rank + offset < NUM_RANKS)
        return ((hands >> np.where(inside, cards + offset, 0)[:, None]) & 1).astype(bool) & inside[:, None]

    return (of_rank >= 2) | (held(-2) & held(-1)) | (held(-1) & held(1)) | (held(1) & held(2))


def test_inference_keeps_worlds_in_which_the_opponents_passes_make_sense():
    """A heuristic opponent that left our throw on the pile rarely held two cards melding with it:
    the worlds kept hold them far less often than uniform worlds."""
    o = OBSERVED.take(LATE)
    passed = o.threw & o.discard_pile & ~o.opponent_threw
    rows = np.flatnonzero(passed)
    o, passed = o.take(rows), passed[rows]
    card = np.array([int(mask).bit_length() - 1 for mask in passed])  # one card it passed, per row
    player = strategies.get("ginrummy", "search:samples=32,oversample=16,judge=passes")
    kept = completes_a_meld(player.worlds(o).opponent, card).mean()
    uniform = completes_a_meld(mc.sample_worlds(o, rngs_of(o, 6), 32).opponent, card).mean()
    assert len(rows) >= 10 and kept < 0.5 * uniform


def test_inference_brings_the_worlds_closer_to_the_true_hand():
    o, truth = OBSERVED.take(LATE), TRUE_OPPONENT[LATE]
    unseen = (mc.unseen_cards(o) & truth)[:, None]  # the opponent's cards we have not seen

    def true_share(hands):
        return (np.bitwise_count(hands & unseen) / np.bitwise_count(unseen)).mean()

    player = strategies.get("ginrummy", "search:samples=32,oversample=16")
    inferred = true_share(player.worlds(o).opponent)
    last_only = true_share(strategies.get("ginrummy", "mc:samples=32,oversample=16").worlds(o).opponent)
    uniform = true_share(mc.sample_worlds(o, rngs_of(o, 7), 32).opponent)
    assert inferred > last_only > uniform


@pytest.mark.parametrize("spec", ["search:samples=4,oversample=4", "search:samples=4,oversample=4,softness=0.3"])
def test_a_decision_depends_on_nothing_but_itself(spec):
    player = strategies.get("ginrummy", spec)
    rows = np.arange(0, len(OBSERVED), 7)
    together = player.choose(OBSERVED.take(rows))
    alone = [int(strategies.get("ginrummy", spec).choose(OBSERVED.take(np.array([row])))[0]) for row in rows]
    assert together.tolist() == alone
    assert np.all(OBSERVED.legal[rows, together])


def test_worlds_do_not_depend_on_the_slices_they_are_drawn_in(monkeypatch):
    player = strategies.get("ginrummy", "search:samples=4,oversample=4")
    o = OBSERVED.take(np.arange(0, len(OBSERVED), 11))
    whole = player.worlds(o)
    monkeypatch.setattr(search, "KEYS_AT_ONCE", 1)  # one decision a slice
    sliced = player.worlds(o)
    assert np.array_equal(whole.opponent, sliced.opponent) and np.array_equal(whole.stock, sliced.stock)


def test_both_engines_play_search_alike():
    report = crosscheck("ginrummy", rounds=3, seed=42, strategies=["search:samples=4,oversample=4", "heuristic"])
    assert report.ok, report.format()


def test_search_is_registered_and_its_settings_checked():
    assert "search" in [info.name for info in strategies.available("ginrummy")]
    player = strategies.get("ginrummy", "search:softness=0.5,judge=throws,oversample=8")
    assert (player.softness, player.judge, player.oversample) == (0.5, "throws", 8)
    for bad in ("search:softness=1.5", "search:judge=everything", "search:oversample=0", "search:samples=1"):
        with pytest.raises(strategies.StrategyError):
            strategies.get("ginrummy", bad)
    with pytest.raises(strategies.StrategyError, match="compiled rollout policy"):  # judging calls compiled code
        strategies.get("ginrummy", "search:rollout=mc")
