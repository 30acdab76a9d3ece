"""The reference engine: the notes' section 11 invariants under random play, rule values, save/load identity."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from sim import games
from sim.gemstones import rules, savefile
from sim.gemstones.engine import (
    BoughtThirdChain,
    Discarded,
    GameEnded,
    IllegalAction,
    Sold,
    State,
    TradeAreaFilled,
    TurnStarted,
    Variants,
)
from sim.gemstones.game import PACKS
from sim.gemstones.observation import BUY, PASS, Phase

VARIANTS = st.builds(
    Variants,
    third_chain_cost=st.sampled_from([2, 3]),
    draw_at_turn_start=st.booleans(),
    finish_round=st.booleans(),
    sold_cards=st.sampled_from(["removed", "discard", "bohnanza"]),
    bean_protection=st.booleans(),
    final_sale=st.booleans(),
)


def check_invariants(state: State) -> None:
    assert rules.stone_counts(state.cards_in_play()) == rules.CARDS_PER_STONE
    for slots in state.slots:
        stones = [chain[0] for chain in slots if chain]
        assert len(stones) == len(set(stones)) and len(slots) in (2, 3)
        assert all(chain[1] >= 1 for chain in slots if chain)
    assert min(state.coins) >= 0


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), VARIANTS)
def test_section_11_invariants_hold_after_every_decision(seed, variants):
    rng = np.random.default_rng(seed)
    state, events = State.new(PACKS.deal_at(seed, 0), variants)
    deck_sizes = [len(state.deck)]
    emptied_in_turn = None
    while not state.is_over:
        coins_before, deck_before = list(state.coins), len(state.deck)
        legal = state.legal_actions()
        assert list(legal) == sorted(legal) and legal
        events = state.apply(int(rng.choice(legal)))
        check_invariants(state)
        # Coins change only by sales (+) and the one purchase (-cost).
        for seat in range(2):
            change = sum(e.coins for e in events if isinstance(e, Sold) and e.seat == seat)
            change -= sum(e.cost for e in events if isinstance(e, BoughtThirdChain) and e.seat == seat)
            assert state.coins[seat] - coins_before[seat] == change
        for event in events:
            if isinstance(event, Discarded) and event.source == "offer":
                assert state.trade_area == [] or state.phase == Phase.TRADE
            if isinstance(event, TradeAreaFilled) and state.phase == Phase.TRADE and state.discard:
                assert state.discard[-1] not in state.trade_area or any(isinstance(e, Sold) for e in events)
            if isinstance(event, TurnStarted):
                # A turn starts only while the deck has cards, or as the round's second turn under finish_round.
                assert emptied_in_turn is None or (variants.finish_round and event.seat == 1)
        assert len(state.deck) <= deck_before
        if deck_before and not state.deck and emptied_in_turn is None:
            emptied_in_turn = state.turn
        deck_sizes.append(len(state.deck))
    assert isinstance(events[-1], GameEnded) and not state.deck
    last_turn = emptied_in_turn + (1 if variants.finish_round and emptied_in_turn % 2 == 1 else 0)
    assert state.turn == last_turn
    if variants == Variants():
        assert state.turn == 19


def test_chain_values_follow_the_table_and_emerald_has_no_one_or_four():
    assert [rules.chain_value(0, n) for n in range(12)] == [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert [rules.chain_value(7, n) for n in range(7)] == [0, 0, 2, 3, 3, 3, 3]
    assert all(rules.chain_value(stone, 40) == 4 for stone in range(7))
    assert rules.format_chain((5, 4)) == "Ruby      R R R R"
    assert rules.format_chain((4, 2)) == "Turquoise T T"


def test_placing_a_card_extends_starts_or_needs_a_sale():
    slots = ((0, 3), None)
    assert rules.place(slots, 0) == (((0, 4), None), 0)
    assert rules.place(slots, 5) == (((0, 3), (5, 1)), 0)
    with pytest.raises(ValueError):
        rules.place(((0, 3), (5, 1)), 2)
    assert rules.place(((0, 4), (5, 1)), 2, 0) == (((2, 1), (5, 1)), 1)
    assert rules.sellable_slots(((0, 4), (5, 1)), bean_protection=True) == (0,)


def scripted_state():
    """Seat 0 holds Ruby and Quartz chains, 3 coins, and is at the start of its turn."""
    state, _ = State.new(PACKS.deal_at(1, 0))
    state.slots = [((5, 2), (0, 4)), (None, None)]
    state.coins = [3, 0]
    state.phase = Phase.BUY
    return state


def test_buying_the_third_chain_costs_three_coins_and_is_refused_without_them():
    state = scripted_state()
    events = state.apply(BUY)
    assert isinstance(events[0], BoughtThirdChain) and state.coins[0] == 0 and len(state.slots[0]) == 3
    poor = scripted_state()
    poor.coins = [2, 0]
    with pytest.raises(IllegalAction):
        poor.apply(BUY)
    assert poor.apply(PASS) is not None


def play_with(state, players):
    while not state.is_over:
        state.apply(int(players[state.current_player].choose(state.observe())[0]))
    return state


@pytest.mark.parametrize("seed", range(12))
def test_saved_and_loaded_at_any_point_plays_on_identically(seed):
    players = [
        strategies.get("gemstones", name) for name in (("random", "greedy") if seed % 2 else ("greedy", "random"))
    ]
    variants = Variants(draw_at_turn_start=seed % 3 == 0, sold_cards=("removed", "discard", "bohnanza")[seed % 3])
    original, _ = State.new(PACKS.deal_at(seed, 0), variants, game_id=seed)
    play_with(original, players)
    for pause in range(0, len(original.history), 7):
        state, _ = State.new(PACKS.deal_at(seed, 0), variants, game_id=seed)
        for action in original.history[:pause]:
            state.apply(action)
        text = savefile.to_text(savefile.SavedGame(["A", "B"], ["random", "greedy"], state))
        loaded = savefile.from_text(text).state
        assert savefile.to_text(savefile.SavedGame(["A", "B"], ["random", "greedy"], loaded)) == text
        play_with(loaded, players)
        assert loaded.history == original.history[pause:] and loaded.coins == original.coins


def test_the_registered_game_plays_whole_games_with_swapped_seats():
    game = games.load("gemstones")
    assert game.duplicate_seatings == ((0, 1), (1, 0)) and not game.lower_is_better
    assert (game.deals(3, 2, 2) == game.deals_at(3, [2, 3])).all()
    greedy = strategies.get("gemstones", "greedy")
    ids = np.arange(3)
    result = game.play_games["reference"](ids, lambda g, r: game.deals_at(5, g, (1, r)), [greedy, greedy])
    assert result.scores.shape == (3, 2) and (result.rounds == 1).all()
    # The seat with more coins wins; a draw is a win both share (sim.api).
    assert (result.winners == (result.scores >= result.scores[:, ::-1])).all()
