"""The one block dealer (``sim.dealing``): every game's deals are shuffles of its pack, the same however
they are asked for, uniform, and Straights' deals are the sequence it has always dealt."""

import hashlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from joblib import Parallel, delayed

from benchmarks import dealing as dealing_benchmark
from sim import games
from sim.dealing import DEALS_PER_BLOCK, MAX_SEED, BlockDealer
from sim.euchre.game import PACKS as EUCHRE_PACKS
from sim.gemstones.game import PACKS as GEMSTONES_PACKS
from sim.ginrummy.game import PACKS as GINRUMMY_PACKS
from sim.shuffle import lanes_for, pcg64_words
from sim.straights.game import PACKS as STRAIGHTS_PACKS

DEALERS = {
    "straights": STRAIGHTS_PACKS,
    "euchre": EUCHRE_PACKS,
    "ginrummy": GINRUMMY_PACKS,
    "gemstones": GEMSTONES_PACKS,
}
PACK_SIZES = (24, 52, 104)


def sha256(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def test_straights_deals_the_sequence_it_always_dealt():
    # Recorded from sim/straights/deals.py before the block dealer replaced it (Straights' deal version 1).
    whole = STRAIGHTS_PACKS.deals(7, 0, 20_000)
    assert sha256(whole) == "209ba6e88247b5d2c3ed29680531c1433fa366d44f6216ea1179cb2135ff18c6"
    scattered = STRAIGHTS_PACKS.deals_at(7, [19_999, 3, 8192, 8191, 0, 40_000, 123_457], (2, 5))
    assert sha256(scattered) == "e820c6cc2256051b7bebdbe3d91cdacbb04d9d3a18763ac143fb834c0bb7388c"
    assert whole[0, :13].tolist() == [5, 39, 51, 30, 33, 45, 13, 31, 24, 10, 32, 27, 40]  # seat 0's first hand


@pytest.mark.parametrize("name", games.names())
def test_every_game_deals_permutations_of_its_pack_from_the_block_dealer(name):
    game, dealer = games.load(name), DEALERS[name]
    dealt = game.deals(1, 0, 3000)
    assert dealt.dtype == np.int8 and dealt.shape == (3000, dealer.pack.size)
    assert (np.sort(dealt, axis=1) == np.sort(dealer.pack)).all()
    assert np.array_equal(dealt, dealer.deals(1, 0, 3000))
    assert np.array_equal(game.deals_at(1, [5, 2], (3,)), dealer.deals_at(1, [5, 2], (3,)))
    assert game.deal_version >= 1


@pytest.mark.parametrize("size", PACK_SIZES)
def test_deals_do_not_depend_on_how_they_are_asked_for(size):
    dealer = BlockDealer(range(size))
    count = 2 * DEALS_PER_BLOCK + 123
    whole = dealer.deals(11, 0, count, (4,))
    pieces = [dealer.deals(11, start, length, (4,)) for start, length in ((0, 5), (5, 9000), (9005, count - 9005))]
    assert np.array_equal(whole, np.concatenate(pieces))
    blocks_backwards = {index: dealer.block(11, index, (4,)) for index in (2, 1, 0)}
    assert np.array_equal(whole, np.concatenate([blocks_backwards[i] for i in range(3)])[:count])
    scattered = np.array([count - 1, 3, DEALS_PER_BLOCK, 17, 3, DEALS_PER_BLOCK - 1])
    assert np.array_equal(dealer.deals_at(11, scattered, (4,)), whole[scattered])
    assert np.array_equal(dealer.deal_at(11, 17, (4,)), whole[17])


def test_deals_do_not_depend_on_the_workers_that_make_them():
    # Spans out of order, cutting blocks in different places, as tournament chunks may be.
    block = DEALS_PER_BLOCK
    spans = [(3 * block, 500), (100, block), (0, 100), (block + 100, 2 * block - 100)]
    in_workers = Parallel(n_jobs=2, backend="loky")(
        delayed(GEMSTONES_PACKS.deals)(3, start, count, (1,)) for start, count in spans
    )
    in_order = [dealt for _, dealt in sorted(zip(spans, in_workers), key=lambda pair: pair[0][0])]
    assert np.array_equal(np.concatenate(in_order), GEMSTONES_PACKS.deals(3, 0, 3 * block + 500, (1,)))


def test_deals_differ_by_seed_and_stream():
    dealt = EUCHRE_PACKS.deals(1, 0, 1000)
    assert not np.array_equal(dealt, EUCHRE_PACKS.deals(2, 0, 1000))
    assert not np.array_equal(dealt, EUCHRE_PACKS.deals(1, 0, 1000, (0,)))
    assert not np.array_equal(EUCHRE_PACKS.deals(1, 0, 1000, (0,)), EUCHRE_PACKS.deals(1, 0, 1000, (1,)))


def chi_square_is_plausible(counts: np.ndarray, degrees: int) -> bool:
    """Pearson's statistic of equal expected ``counts`` below chi-square's 1-in-a-million upper quantile
    (Wilson–Hilferty: z = 4.75)."""
    expected = counts.sum() / counts.size
    statistic = ((counts - expected) ** 2 / expected).sum()
    quantile = degrees * (1 - 2 / (9 * degrees) + 4.75 * np.sqrt(2 / (9 * degrees))) ** 3
    return statistic < quantile


def items_by_place(dealt: np.ndarray) -> np.ndarray:
    """(place, item) how often each item of a pack of distinct items 0 .. n - 1 was dealt to each place."""
    size = dealt.shape[1]
    return np.array([np.bincount(dealt[:, place], minlength=size) for place in range(size)])


@pytest.mark.parametrize("size", PACK_SIZES)
def test_deals_are_uniform_shuffles(size):
    dealt = BlockDealer(range(size)).deals(5, 0, 5 * DEALS_PER_BLOCK).astype(np.int64)
    # Every item in every place equally often.
    assert chi_square_is_plausible(items_by_place(dealt), (size - 1) ** 2)
    # The relative order of items 0-3 uniform over its 24 orders (catches picks that depend on each other).
    places_of_first_items = np.argsort(dealt, axis=1)[:, :4]
    order = np.argsort(places_of_first_items, axis=1) @ np.array([64, 16, 4, 1])
    assert chi_square_is_plausible(np.unique(order, return_counts=True)[1], 23)
    assert len(np.unique(order)) == 24
    # A shuffle that always leaves the last item in the last place fails the same test.
    last = size - 1
    biased = dealt.copy()
    biased[np.arange(len(dealt)), np.argmax(dealt == last, axis=1)], biased[:, -1] = dealt[:, -1], last
    assert not chi_square_is_plausible(items_by_place(biased), (size - 1) ** 2)


def test_a_pack_deals_in_the_smallest_integers_that_hold_it():
    assert BlockDealer([3, 1, 2]).deals(0, 0, 2).dtype == np.int8
    wide = BlockDealer([0, 300, 7]).deals(0, 0, 4)
    assert wide.dtype == np.int16 and (np.sort(wide, axis=1) == [0, 7, 300]).all()


def test_bad_packs_and_requests_are_refused():
    for pack in ([], [[1, 2]], [0.5, 1.5], [2**40]):
        with pytest.raises(ValueError):
            BlockDealer(pack)
    with pytest.raises(ValueError, match="start at 0"):
        EUCHRE_PACKS.deals(1, -1, 3)
    with pytest.raises(ValueError, match="start at 0"):
        EUCHRE_PACKS.deals_at(1, [4, -2])
    assert EUCHRE_PACKS.deals_at(1, []).shape == (0, 24) and EUCHRE_PACKS.deals(1, 9, 0).shape == (0, 24)


def test_the_dealing_benchmark_measures_every_game():
    rows = dealing_benchmark.run(count=100)
    assert [row.game for row in rows] == games.names()
    assert all(
        row.pack_size == DEALERS[row.game].pack.size and row.in_one_call > 0 and row.in_chunks > 0 for row in rows
    )


def numpy_block(pack: np.ndarray, seed: int, block_index: int, stream: tuple[int, ...]) -> np.ndarray:
    """A block as the numpy dealer made it before the compiled one (deal version 1 of every game): all
    packs shuffled at once, one numpy call per step, from the same raw PCG64 words."""
    bits = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(*stream, block_index)))
    spans = np.arange(2, pack.size + 1, dtype=np.int64)[:, None]
    needed = len(spans) * DEALS_PER_BLOCK
    halves = bits.random_raw((needed + 1) // 2).view(np.uint32)[:needed]
    picks = (halves.reshape(len(spans), DEALS_PER_BLOCK) * spans) >> 32
    decks = np.empty((DEALS_PER_BLOCK, pack.size), dtype=pack.dtype)
    decks[:, 0] = pack[0]
    rows = np.arange(DEALS_PER_BLOCK)
    for place, value in enumerate(pack.tolist()[1:], start=1):
        picked = picks[place - 1]
        decks[:, place] = decks[rows, picked]
        decks[rows, picked] = value
    return decks


@pytest.mark.parametrize("name", games.names())
def test_the_compiled_dealer_deals_what_the_numpy_dealer_dealt(name):
    dealer = DEALERS[name]
    for seed in (0, 1, 2026, 2**63 - 1):
        for stream in ((), (0,), (3,), (1, 2)):
            for block_index in (0, 1, 41):
                expected = numpy_block(dealer.pack, seed, block_index, stream)
                assert np.array_equal(dealer.block(seed, block_index, stream), expected), (seed, stream, block_index)


@pytest.mark.parametrize("size", (2, 7, 110))
def test_the_compiled_dealer_shuffles_any_pack_as_the_numpy_dealer_did(size):
    pack = np.arange(-3, size - 3, dtype=np.int16)
    assert np.array_equal(BlockDealer(pack).block(5, 2, (9,)), numpy_block(BlockDealer(pack).pack, 5, 2, (9,)))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, MAX_SEED), st.lists(st.integers(0, 2**32), max_size=3), st.integers(0, 3000))
def test_the_compiled_generator_draws_numpys_pcg64_words(seed, stream, count):
    bits = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=stream))
    generator = bits.state["state"]
    words = np.empty(count, dtype=np.uint64)
    pcg64_words(*lanes_for(generator["state"], generator["inc"]), words)
    assert np.array_equal(words, bits.random_raw(count))
