"""The fast Gemstones engine against the reference: move for move under every rule variant, the rules'
invariants at every decision (hypothesis), resumed positions, and bad input."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from sim.api import StrategyFault
from sim.crosscheck import Call, Decisions, recorders
from sim.gemstones import fast, rules
from sim.gemstones.engine import State, Variants
from sim.gemstones.game import PACKS
from sim.gemstones.observation import BUY, CHAIN, NONE, PLAY, SELL, Observation, Phase
from sim.lockstep import DealError

VARIANTS = {
    "default": Variants(),
    "third_chain_cost=2": Variants(third_chain_cost=2),
    "draw_at_turn_start": Variants(draw_at_turn_start=True),
    "finish_round": Variants(finish_round=True),
    "sold_cards=discard": Variants(sold_cards="discard"),
    "sold_cards=bohnanza": Variants(sold_cards="bohnanza"),
    "bean_protection": Variants(bean_protection=True),
    "final_sale": Variants(final_sale=True),
}
# Every deterministic strategy but the lookahead (test_mc.py), in both seats across the lineups.
LINEUPS = (("greedy", "heuristic"), ("heuristic", "random"), ("random", "greedy"))
GAMES = 2000  # under the default rules
GAMES_PER_VARIANT = 600  # under each other variant, which changes a few of the default's decisions


OBSERVED_EVERY = 10  # every 10th game's observations are compared field by field (the reference's observe is slow)


def reference_replay(deals: np.ndarray, ids: np.ndarray, actions: list[np.ndarray], variants: Variants):
    """Each game replayed on the reference engine through ``actions[i]``, which must be legal there:
    the observations of every ``OBSERVED_EVERY``-th game, stacked in play order, and every game's coins."""
    seen: list[dict[str, np.ndarray]] = []
    coins = []
    for number, (deal, game_id, taken) in enumerate(zip(deals, ids.tolist(), actions)):
        state, _ = State.new(deal, variants, game_id)
        observed = number % OBSERVED_EVERY == 0
        for action in taken.tolist():
            if observed:
                seen.append(state.observe().arrays())
            state.apply(action)  # IllegalAction if the engines disagree on what is legal
        assert state.is_over
        coins.append(state.coins)
    stacked = {name: np.concatenate([fields[name] for fields in seen]) for name in seen[0]}
    return stacked, np.array(coins)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_fast_engine_plays_move_for_move_as_the_reference(name):
    """The reference engine takes the fast engine's actions in every game and ends with the same
    coins; what the mover saw agrees field by field (every 10th game); and each strategy, asked again
    with all its recorded observations at once, chooses as it did in the engine's batches (so it
    plays the same on the reference engine, which shows it the same observations one at a time).
    ``cardsim crosscheck --game gemstones --rules ...`` compares every decision of every game."""
    variants = VARIANTS[name]
    seed = 11 + list(VARIANTS).index(name)
    per_lineup = (GAMES if name == "default" else GAMES_PER_VARIANT) // len(LINEUPS) + 1
    for number, lineup in enumerate(LINEUPS):
        deals = PACKS.deals(seed, number * per_lineup, per_lineup)
        ids = np.arange(number * per_lineup, (number + 1) * per_lineup, dtype=np.int64)
        players = [strategies.get("gemstones", spec) for spec in lineup]
        log: list[Call] = []
        coins = fast.play_rounds(deals, recorders(players, log), ids, variants).points
        played = Decisions.of(log)
        starts, stops = played.spans(ids)
        per_game = [played.actions[start:stop] for start, stop in zip(starts, stops)]
        seen, reference_coins = reference_replay(deals, ids, per_game, variants)
        observed = np.concatenate([np.arange(start, stop) for start, stop in zip(starts, stops)][::OBSERVED_EVERY])
        for field, values in seen.items():
            assert np.array_equal(values, played.fields[field][observed]), f"{name}, {lineup}: {field} differs"
        np.testing.assert_array_equal(coins, reference_coins)
        observations = Observation(**played.fields)
        for seat, player in enumerate(players):
            rows = np.flatnonzero(played.fields["seat"] == seat)
            again = player.choose(observations.take(rows))
            np.testing.assert_array_equal(again, played.actions[rows], err_msg=f"{lineup[seat]} in a new batch")


# --------------------------------------------------------------------------- the rules at every decision


def placed_stones(before: fast.GameStates, actions: np.ndarray) -> np.ndarray:
    """(n,) the stone each action puts on the mover's chains (chained, played or waiting for the
    sale), NONE for the other actions."""
    rows = np.arange(len(actions))
    front = before.hands[rows, before.mover, 0].astype(np.int64)
    return np.select(
        [before.phase == fast.Phase.SELL, actions < SELL, actions == PLAY],
        [before.pending, actions - CHAIN, front],
        NONE,
    )


def chains_sold(before: fast.GameStates, after: fast.GameStates, actions: np.ndarray, variants: Variants) -> np.ndarray:
    """(n, 2) the coins of the chains each seat no longer holds (sold), by the coin table. A game that
    ended with a final sale sold its chains as they were after this action's card joined one."""
    stones, lengths = before.chain_stones, before.chain_lengths.copy()
    if variants.final_sale:
        ended = np.flatnonzero(after.phase == fast.Phase.OVER)
        mover = before.mover[ended]
        lengths[ended, mover] += stones[ended, mover] == placed_stones(before, actions)[ended, None]
    gone = (stones != NONE) & ((after.chain_stones != stones) | (after.chain_lengths < before.chain_lengths))
    return np.where(gone, fast.COINS[np.maximum(stones, 0), lengths], 0).sum(axis=2)


def check_rules(before: fast.GameStates, after: fast.GameStates, actions: np.ndarray, variants: Variants) -> None:
    counts = after.card_counts()
    assert (counts == rules.CARDS_PER_STONE).all(), "the 104 cards are not all there"
    stones, lengths = after.chain_stones, after.chain_lengths
    assert ((stones == NONE) == (lengths == 0)).all(), "a slot is half empty"
    for seat in range(2):
        mine = stones[:, seat]
        same = (mine[:, :, None] == mine[:, None, :]) & (mine[:, :, None] != NONE) & ~np.eye(3, dtype=bool)
        assert not same.any(), "a seat holds two chains of one stone"
        unbought = np.arange(3) >= after.slots[:, seat][:, None]
        assert (mine[unbought] == NONE).all(), "a chain in an unbought slot"
    bought = np.zeros_like(after.coins)
    bought[np.arange(len(actions)), before.mover] = actions == BUY
    earned = after.coins - before.coins + bought * variants.third_chain_cost
    np.testing.assert_array_equal(
        earned, chains_sold(before, after, actions, variants), err_msg="coins not from the coin table"
    )
    assert (after.deck_size <= before.deck_size).all()
    assert (after.hand_sizes <= rules.HAND_WIDTH).all()


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(list(VARIANTS)))
def test_the_rules_hold_at_every_decision_of_random_play(seed, variant):
    """104 cards conserved, coins only from the coin table (less the third chain), no chain mixes
    stones or doubles one, under random legal play of 64 games."""
    variants = VARIANTS[variant]
    rng = np.random.default_rng(seed)
    states = fast.deal(PACKS.deals(seed, 0, 64), variants=variants)
    while (going := np.flatnonzero(states.phase != fast.Phase.OVER)).size:
        states = states.take(going)
        legal = fast.observe(states, variants=variants).legal_mask
        actions = np.argmax(rng.random(legal.shape) * legal, axis=1)
        before = dataclasses.replace(states, **{k: v.copy() for k, v in states.arrays().items()})
        fast.apply(states, actions, variants)
        check_rules(before, states, actions, variants)


def test_playing_on_from_a_position_ends_as_the_whole_game():
    """Games stopped after 57 decisions (every kind of decision among them) and played on with
    ``play_from`` end as when played whole; ``play_from`` leaves the positions unchanged."""
    deals = PACKS.deals(5, 0, 300)
    players = [strategies.get("gemstones", "heuristic"), strategies.get("gemstones", "greedy")]
    whole = fast.play_rounds(deals, players).points
    states = fast.deal(deals)
    for _ in range(57):
        actions = np.empty(len(deals), dtype=np.int64)
        for seat, player in enumerate(players):
            rows = np.flatnonzero(states.mover == seat)
            actions[rows] = player.choose(fast.observe(states, rows))
        fast.apply(states, actions)
    assert set(states.phase.tolist()) >= {1, 2, 3, 4, 5}
    kept = {name: values.copy() for name, values in states.arrays().items()}
    np.testing.assert_array_equal(fast.play_from(states, players).points, whole)
    for name, values in states.arrays().items():
        np.testing.assert_array_equal(values, kept[name], err_msg=name)


def test_playing_on_for_some_turns_stops_at_the_next_turns_first_decision():
    """``play_on`` with ``turns`` stops each game at the first decision of the turn after them, or at
    its end (a game lasts 19 turns); played on from there, the games end as when played whole."""
    deals = PACKS.deals(6, 0, 200)
    players = [strategies.get("gemstones", "heuristic"), strategies.get("gemstones", "greedy")]
    whole = fast.play_rounds(deals, players).points
    states = fast.play_on(fast.deal(deals), players, turns=13)  # the rest of turn 1, then turns 2 to 14
    np.testing.assert_array_equal(states.turn, 15)
    kept = {name: values.copy() for name, values in states.arrays().items()}
    stopped = fast.play_on(states, players, turns=2)
    for name, values in states.arrays().items():
        np.testing.assert_array_equal(values, kept[name], err_msg=name)
    np.testing.assert_array_equal(stopped.round_id, states.round_id)
    np.testing.assert_array_equal(stopped.turn, 18)
    assert (stopped.phase < Phase.SELL).all() and (stopped.step > states.step).all()
    assert (fast.play_on(states, players, turns=4).phase == Phase.OVER).all()
    np.testing.assert_array_equal(fast.play_from(stopped, players).points, whole)
    np.testing.assert_array_equal(fast.play_on(states, players).coins, whole)


def test_whole_games_name_the_winner_and_share_a_draw():
    from sim.games import game_deal_source
    from sim.gemstones.game import GAME

    players = [strategies.get("gemstones", "greedy")] * 2
    result = fast.play_games(np.arange(400), game_deal_source(GAME, 3), players)
    coins = result.scores
    np.testing.assert_array_equal(result.winners[:, 0], coins[:, 0] >= coins[:, 1])
    np.testing.assert_array_equal(result.winners[:, 1], coins[:, 1] >= coins[:, 0])
    assert (result.rounds == 1).all()
    assert (coins[:, 0] == coins[:, 1]).any(), "400 greedy games without a draw"


@pytest.mark.parametrize(
    "deals, message",
    [
        (np.zeros((2, 104), dtype=np.int8), "exactly the 104 cards"),
        (np.zeros((2, 52), dtype=np.int8), "(n, 104) arrays"),
        (np.full((1, 104), 9), "stone ids from 0 to 7"),
        (np.zeros((2, 104), dtype=float), "(n, 104) arrays"),
    ],
)
def test_bad_deals_are_refused(deals, message):
    with pytest.raises(DealError, match=message.replace("(", r"\(").replace(")", r"\)")):
        fast.play_rounds(deals, [strategies.get("gemstones", "greedy")] * 2)


def test_an_illegal_action_names_the_strategy():
    class Buyer:
        name = "always-buy"

        def choose(self, observation):
            return np.full(len(observation), BUY)

    with pytest.raises(StrategyFault, match=rf"'always-buy' chose action {BUY}, which is not legal there \(round 0"):
        fast.play_rounds(PACKS.deals(1, 0, 4), [Buyer(), Buyer()])
    with pytest.raises(ValueError, match="needs 2 strategies"):
        fast.play_rounds(PACKS.deals(1, 0, 4), [Buyer()])


def test_cardsim_crosscheck_compares_every_decision_under_a_variant_and_one_strategy_in_both_seats():
    """One strategy object in both seats gets read-only views of the engine's own arrays: what the
    cross-check keeps of them must not change as play goes on."""
    from sim.crosscheck import crosscheck

    report = crosscheck("gemstones", 30, 3, ("greedy", "greedy"), rules="sold_cards=discard")
    assert report.ok, report.format()
    assert report.actions > 4000 and "gemstones (sold_cards=discard)" in report.format()
