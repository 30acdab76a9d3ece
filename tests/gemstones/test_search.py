"""Gemstones' deeper lookahead (``search``): worlds honouring what the seat saw, the heuristic's worth at
the leaves, decisions that depend on nothing but themselves, both engines alike, settings checked."""

import numpy as np
import pytest

import strategies
from sim.crosscheck import crosscheck
from sim.gemstones import fast, rules
from sim.gemstones.game import PACKS
from sim.gemstones.observation import NONE
from strategies import StrategyError
from strategies.gemstones import mc, search
from tests.gemstones.definitions import View, position_value
from tests.gemstones.test_mc import observations

SEARCH = "search:samples=8,horizon=2"
OBSERVED = observations(2, 43)


def test_every_world_holds_what_the_seat_saw_and_the_unseen_cards_as_counted():
    player = strategies.get("gemstones", "search:samples=6")
    rows = np.arange(0, len(OBSERVED), 5)
    seen = OBSERVED.take(np.repeat(rows, 6))
    worlds = player.worlds(OBSERVED.take(rows))
    assert (worlds.card_counts() == rules.CARDS_PER_STONE).all()
    again = fast.observe(worlds)
    for name, values in seen.arrays().items():  # the seat sees in every world exactly what it saw
        assert np.array_equal(again.arrays()[name], values), name
    every = np.arange(len(seen.seat))
    opponent = worlds.hands[every, 1 - seen.seat]
    held = seen.hand_sizes[every, 1 - seen.seat]
    assert ((opponent != NONE).sum(axis=1) == held).all()
    # The unseen cards, stone by stone, are exactly the opponent's hand and the deck of each world.
    for world, row in enumerate(np.repeat(np.arange(len(rows)), 6)):
        dealt = np.bincount(opponent[world, : held[world]], minlength=rules.NUM_STONES)
        dealt += np.bincount(worlds.deck[world, : worlds.deck_size[world]], minlength=rules.NUM_STONES)
        assert dealt.tolist() == OBSERVED.unseen_counts(int(rows[row])).tolist()


def test_the_leaf_is_the_coins_plus_the_heuristics_worth_of_a_game_going_on():
    deals = PACKS.deals(9, 0, 40)
    heuristic = strategies.get("gemstones", "heuristic")
    going = fast.play_on(fast.deal(deals), [heuristic] * 2, turns=8)
    worths = search.position_worths(going)
    seen = fast.observe(going)
    for row in range(len(deals)):  # the mover's side, by the scalar definition of the heuristic
        view = View.of(seen, row)
        expected = view.coins + position_value(view, view.slots, view.hand)
        assert worths[row, int(seen.seat[row])] == pytest.approx(expected)
    assert (worths > mc.position_worth(going)).any(), "chains are worth what they should reach"
    ended = fast.play_on(going, [heuristic] * 2)
    np.testing.assert_array_equal(search.position_worths(ended), ended.coins)


def test_a_decision_depends_on_nothing_but_itself():
    player = strategies.get("gemstones", SEARCH)
    rows = np.arange(0, len(OBSERVED), 7)
    together = player.choose(OBSERVED.take(rows))
    alone = [int(player.choose(OBSERVED.take(np.array([row])))[0]) for row in rows[:10]]
    assert together[:10].tolist() == alone
    again = strategies.get("gemstones", SEARCH).choose(OBSERVED.take(rows[::-1]))
    assert again[::-1].tolist() == together.tolist()
    assert OBSERVED.legal_mask[rows, together].all()


@pytest.mark.parametrize("leaf", search.LEAVES)
def test_search_plays_alike_on_both_engines(leaf):
    report = crosscheck("gemstones", 2, 11, (f"search:samples=2,leaf={leaf}", "heuristic"))
    assert report.ok, report.format()
    assert report.actions > 200


def test_search_is_registered_and_checks_its_settings():
    assert "search" in [info.name for info in strategies.available("gemstones")]
    player = strategies.get("gemstones", "search")
    assert (player.worlds_per_decision, player.horizon, player.leaf, player.confidence) == (256, 2, "worth", 1.0)
    for bad in ("search:samples=1", "search:leaf=guess", "search:horizon=-2", "search:confidence=-1", "search:nope=1"):
        with pytest.raises(StrategyError):
            strategies.get("gemstones", bad)
