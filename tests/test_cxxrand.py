"""minstd_rand0 and std::shuffle against values fixed by the C++ standard and by g++ itself."""

import shutil
import subprocess

import pytest

from sim.cards import format_cards
from sim.cxxrand import MinstdRand0, cxx_seed, shuffle, uniform_int

# Decks printed by a g++ 12 program: rng{seed} once, then std::shuffle of one deck per round.
GPP_DECKS = {
    (6788, 1): "29 17 14 10 33 37 27 5 34 21 8 39 1 49 24 4 7 16 30 12 19 51 0 36 31 32 28 3 41 15 26 11 2 35 "
    "42 47 40 46 48 6 50 38 43 44 23 13 45 20 22 18 9 25",
    (6788, 2): "25 32 11 21 31 17 23 51 7 39 47 6 49 2 34 48 45 26 18 36 33 50 3 37 28 30 41 42 27 24 46 15 4 29 "
    "35 14 10 44 5 0 19 38 16 9 1 20 43 22 13 40 8 12",
    (-5, 1): "0 2 13 23 6 27 35 39 5 46 44 12 30 7 19 1 37 43 33 51 9 50 48 31 28 20 3 41 26 22 49 38 32 21 34 17 "
    "18 16 47 15 42 4 24 25 29 8 11 36 45 40 10 14",
}

CXX_PROGRAM = r"""
#include <algorithm>
#include <iostream>
#include <random>
#include <string>
#include <vector>
int main(int argc, char** argv) {
  unsigned seed = std::stoi(argv[1]);
  std::default_random_engine rng{seed};
  std::vector<int> deck(52);
  for (int i = 0; i < 52; i++) deck[i] = i;
  for (int round = 0; round < 3; round++) {
    std::shuffle(deck.begin(), deck.end(), rng);
    for (int i = 0; i < 52; i++) std::cout << deck[i] << (i == 51 ? '\n' : ' ');
  }
}
"""


def decks(seed: int, rounds: int) -> list[list[int]]:
    rng = MinstdRand0(cxx_seed(seed))
    deck = list(range(52))
    result = []
    for _ in range(rounds):
        shuffle(deck, rng)
        result.append(list(deck))
    return result


def test_the_standards_ten_thousandth_value():
    rng = MinstdRand0()
    for _ in range(9999):
        rng()
    assert rng() == 1043618065


def test_seeds_zero_and_one_are_the_same_stream_and_negative_seeds_wrap():
    assert decks(0, 2) == decks(1, 2)
    assert decks(-1, 1) == decks(2**32 - 1, 1)


@pytest.mark.parametrize(("seed", "round_number"), sorted(GPP_DECKS))
def test_shuffle_matches_gpp(seed, round_number):
    deck = decks(seed, round_number)[-1]
    assert " ".join(map(str, deck)) == GPP_DECKS[seed, round_number]


def test_seed_6788_deals_the_spec_examples_hands():
    deck = decks(6788, 1)[0]
    assert format_cards(deck[:13]) == "4H 5D 2D JC 8H QH 2H 6C 9H 9D 9C AS 2C"
    assert format_cards(deck[39:]) == "7C QS KH 5S 6S JD AD 7S 8D TD 6D TC KD"


def test_uniform_int_stays_in_range_and_hits_every_value():
    rng = MinstdRand0(7)
    draws = {uniform_int(rng, 3, 9) for _ in range(500)}
    assert draws == set(range(3, 10))


def test_odd_length_and_non_paired_shuffles_are_permutations():
    rng = MinstdRand0(3)
    for length in (0, 1, 2, 7, 53):
        items = list(range(length))
        shuffle(items, rng)
        assert sorted(items) == list(range(length))


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_against_a_freshly_compiled_gpp_program(tmp_path):
    source = tmp_path / "shuffle.cc"
    source.write_text(CXX_PROGRAM)
    binary = tmp_path / "shuffle"
    subprocess.run(["g++", "-O1", "-o", str(binary), str(source)], check=True)
    for seed in (0, 44, -7, 2147483647, -2147483648, 123456789):
        printed = subprocess.run([str(binary), str(seed)], capture_output=True, text=True, check=True).stdout
        assert printed.splitlines() == [" ".join(map(str, deck)) for deck in decks(seed, 3)]
