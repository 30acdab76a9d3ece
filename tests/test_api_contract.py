"""The game contract (``sim.api``) checked on random play of every registered game, OpenSpiel style.

The generic tests read nothing but the ``Game`` record: seeded deals become states by ``new_state``
(whole games by ``new_game``), and uniformly random legal actions play them out while every step is
checked against the contract — the legal actions and their ``legal_mask``, the observation's shape,
illegal actions refused without a trace, ``clone`` independent both ways, points and winners.

"Strategies see only what their player may see" (DESIGN.md, rule 4) is checked by reshuffling what
the mover has not seen: at sampled decisions, the cards at the deal positions hidden from the mover
(other hands, the stock, face-down discards) are permuted, the same actions (cards renamed by the
permutation where an action names a hidden card) are replayed on the new deal, and the mover's
observation must be identical, array for array; deterministic strategies must choose alike on the
two. As a control, swapping one card the mover *has* seen with a hidden one must change the
observation whenever the actions still replay. Which positions are hidden is the only per-game
knowledge here: one small function per game below (``HIDING``), written from the rules, not from
the observation.

A reshuffled deal counts only if the renamed actions replay and the same positions stay hidden (so
nothing public changed: a Straights discard renamed to a card the table takes would be a legal play,
seen by all). Where the mover's information set is a product (every reshuffle of its hidden cards is
consistent with what it saw: Gin Rummy, Gemstones), every full reshuffle must count. Where play
reveals more (Straights: a face-down discard says the discarder could not play; Euchre: not following
suit shows a void), a reshuffle is a random walk of transpositions of hidden cards, each kept only
when it counts, so it stays within what the mover may consider possible.
"""

from __future__ import annotations

import functools
import itertools
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

import strategies
from sim import games
from sim.api import ROUND_ID_STRIDE, IllegalAction, legal_mask_of
from sim.euchre import rules as euchre_rules
from sim.euchre.observation import ORDER_UP as EUCHRE_ORDER_UP
from sim.euchre.observation import PASS as EUCHRE_PASS
from sim.gemstones import rules as gemstones_rules
from sim.gemstones.engine import Drew as GemstonesDrew
from sim.gemstones.engine import TradeAreaFilled
from sim.gemstones.observation import DISCARD as GEMSTONES_DISCARD
from sim.gemstones.observation import PLAY as GEMSTONES_PLAY
from sim.ginrummy import rules as ginrummy_rules
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK
from sim.straights import rules as straights_rules

NAMES = games.names()
SEED = 13
DEALS = 40  # random rounds per game in the step-by-step test
MAX_ROUND_STEPS = 5_000  # no round (hand) of any game takes more decisions
MAX_GAME_STEPS = 200_000  # nor any whole game (random Gin Rummy voids many hands)
GAME_IDS = (3, 8, 21)  # whole games per game, by id (not 0: round ids must name their game)
CLONE_RATE = 0.1  # the share of decisions at which clones are checked
SLOW_STRATEGIES = {"mc", "oracle-mc", "search", "learned"}  # lookahead: seconds per decision


def rng_for(test: str, name: str) -> np.random.Generator:
    """A generator seeded by the test and the game, independent of test order."""
    return np.random.default_rng([SEED, zlib.crc32(test.encode()), zlib.crc32(name.encode())])


def random_legal(state: Any, rng: np.random.Generator) -> int:
    legal = state.legal_actions()
    return int(legal[rng.integers(len(legal))])


# ------------------------------------------------------------------------------------------------
# Snapshots: everything the contract lets anyone read of a state


@dataclass
class Snapshot:
    over: bool
    legal: tuple[int, ...]
    points: tuple[Any, ...]
    player: int | None
    arrays: dict[str, np.ndarray] | None


def snapshot(state: Any) -> Snapshot:
    over = bool(state.is_over)
    arrays = None
    if not over:
        arrays = {key: np.array(value, copy=True) for key, value in state.observe().arrays().items()}
    return Snapshot(
        over, tuple(state.legal_actions()), tuple(state.points()), None if over else state.current_player, arrays
    )


def same_arrays(first: dict[str, np.ndarray], second: dict[str, np.ndarray]) -> list[str]:
    """The names of the fields that differ (in presence, dtype, shape or value)."""
    return sorted(
        key
        for key in first.keys() | second.keys()
        if key not in first
        or key not in second
        or first[key].dtype != second[key].dtype
        or not np.array_equal(first[key], second[key])
    )


def assert_unchanged(after: Snapshot, before: Snapshot, what: str) -> None:
    assert after.over == before.over, what
    assert after.legal == before.legal, what
    assert after.points == before.points, what
    assert after.player == before.player, what
    if before.arrays is not None:
        differ = same_arrays(after.arrays, before.arrays)
        assert not differ, f"{what}: observation fields {differ}"


# ------------------------------------------------------------------------------------------------
# Random rounds, step by step


def check_decision(game: games.Game, state: Any, round_id: int) -> Snapshot:
    """The contract at one decision; returns the state's snapshot."""
    legal = state.legal_actions()
    assert isinstance(legal, tuple) and legal, "legal_actions() is a non-empty tuple until the state is over"
    assert all(isinstance(action, int) for action in legal), legal
    assert len(set(legal)) == len(legal), f"repeated legal actions {legal}"
    assert all(0 <= action < game.num_actions for action in legal), legal
    assert state.current_player in range(game.num_seats)
    observation = state.observe()
    assert len(observation) == 1
    mask = observation.legal_mask
    assert mask.dtype == np.bool_ and mask.shape == (1, game.num_actions)
    assert np.array_equal(mask, legal_mask_of(legal, game.num_actions)), "legal_mask is not legal_actions()"
    arrays = observation.arrays()
    assert "round_id" in arrays and arrays["round_id"].dtype == np.int64
    assert arrays["round_id"].tolist() == [round_id]
    assert all(len(value) == 1 for value in arrays.values()), {k: v.shape for k, v in arrays.items()}
    points = state.points()
    assert len(points) == game.num_seats
    return snapshot(state)


def check_over(game: games.Game, state: Any, rng: np.random.Generator) -> None:
    assert state.legal_actions() == ()
    points = tuple(state.points())
    assert len(points) == game.num_seats and all(isinstance(p, (int, np.integer)) for p in points), points
    for action in {0, int(rng.integers(game.num_actions)), game.num_actions - 1}:
        with pytest.raises(IllegalAction):
            state.apply(action)
    assert tuple(state.points()) == points and state.is_over


@pytest.mark.parametrize("name", NAMES)
def test_random_rounds_keep_the_contract_at_every_step(name):
    game = games.load(name)
    rng = rng_for("rounds", name)
    every_action = np.arange(game.num_actions)
    for round_id, deal in enumerate(game.deals(SEED, 0, DEALS)):
        state = game.new_state(deal, round_id)
        actions: list[int] = []
        kept: list[tuple[int, Any, Snapshot]] = []  # (step, an untouched clone, its snapshot)
        while not state.is_over:
            assert len(actions) < MAX_ROUND_STEPS, "the round does not end"
            before = check_decision(game, state, round_id)
            illegal = every_action[~legal_mask_of(before.legal, game.num_actions)[0]]
            if len(illegal):
                action = int(rng.choice(illegal))
                with pytest.raises(IllegalAction):
                    state.apply(action)
                assert_unchanged(snapshot(state), before, f"deal {round_id} step {len(actions)}: illegal {action}")
            if rng.random() < CLONE_RATE:
                kept.append((len(actions), check_clone(state, before, rng), before))
            action = random_legal(state, rng)
            assert isinstance(state.apply(action), list), "apply returns the list of events"
            actions.append(action)
        check_over(game, state, rng)
        final = snapshot(state)
        for step, copy, copied in kept:
            # Applying actions to the original left the clone as it was; the same actions end it alike.
            assert_unchanged(snapshot(copy), copied, f"deal {round_id}: the clone of step {step}")
            for action in actions[step:]:
                copy.apply(action)
            assert_unchanged(snapshot(copy), final, f"deal {round_id}: the clone of step {step} replayed")


def check_clone(state: Any, before: Snapshot, rng: np.random.Generator) -> Any:
    """Random actions applied to one clone leave the original unchanged; returns another, untouched clone."""
    played = state.clone()
    assert played is not state
    assert_unchanged(snapshot(played), before, "a fresh clone")
    for _ in range(8):
        if played.is_over:
            break
        played.apply(random_legal(played, rng))
    assert_unchanged(snapshot(state), before, "the original after its clone played on")
    return state.clone()


@pytest.mark.parametrize("name", NAMES)
def test_legal_actions_are_sorted_ascending(name):
    game = games.load(name)
    rng = rng_for("sorted", name)
    for round_id, deal in enumerate(game.deals(SEED, 100, 10)):
        state = game.new_state(deal, round_id)
        while not state.is_over:
            legal = state.legal_actions()
            assert list(legal) == sorted(legal), f"deal {round_id}: {legal}"
            state.apply(random_legal(state, rng))


@pytest.mark.parametrize("name", NAMES)
def test_actions_out_of_range_are_illegal_and_change_nothing(name):
    game = games.load(name)
    rng = rng_for("range", name)
    for round_id, deal in enumerate(game.deals(SEED, 200, 5)):
        state = game.new_state(deal, round_id)
        while not state.is_over:
            before = snapshot(state)
            for action in (-1, game.num_actions, game.num_actions + 1, -game.num_actions):
                with pytest.raises(IllegalAction):
                    state.apply(action)
                assert_unchanged(snapshot(state), before, f"deal {round_id}: action {action}")
            state.apply(random_legal(state, rng))


@pytest.mark.parametrize("name", NAMES)
def test_every_action_name_reads_back_as_the_action(name):
    game = games.load(name)
    named = [game.action_name(action) for action in range(game.num_actions)]
    assert all(isinstance(text, str) and text for text in named)
    assert [game.parse_action(text) for text in named] == list(range(game.num_actions))


# ------------------------------------------------------------------------------------------------
# Whole games


@dataclass
class PlayedGame:
    game_id: int
    state: Any
    steps: int
    round_ids: list[int]  # the observation's round id at every decision


def dealer_of(deal_source: games.DealSource, game_id: int) -> Callable[[], np.ndarray]:
    """``next_deal`` of whole game ``game_id``: its rounds' deals in turn."""
    rounds = itertools.count()
    return lambda: deal_source(np.array([game_id]), next(rounds))[0]


@functools.cache
def random_whole_games(name: str) -> list[PlayedGame]:
    game = games.load(name)
    rng = rng_for("games", name)
    deal_source = games.game_deal_source(game, SEED)
    played = []
    for game_id in GAME_IDS:
        state = game.new_game(dealer_of(deal_source, game_id), game_id)
        steps, round_ids = 0, []
        while not state.is_over and steps < MAX_GAME_STEPS:
            assert state.legal_actions() and state.current_player in range(game.num_seats)
            assert state.winning_seats() == ()
            round_ids.append(int(state.observe().round_id[0]))
            state.apply(random_legal(state, rng))
            steps += 1
        played.append(PlayedGame(game_id, state, steps, round_ids))
    return played


@pytest.mark.parametrize("name", NAMES)
def test_random_whole_games_end_with_winners(name):
    game = games.load(name)
    for played in random_whole_games(name):
        state = played.state
        assert state.is_over, f"game {played.game_id} did not end in {MAX_GAME_STEPS} decisions"
        check_over(game, state, rng_for("over", name))
        assert state.rounds_played >= 1
        winners = state.winning_seats()
        assert winners and len(set(winners)) == len(winners) and set(winners) <= set(range(game.num_seats))
        # A team wins together: every partner of a winner is a winner.
        assert {seat for seat in range(game.num_seats) if game.teams[seat] in {game.teams[w] for w in winners}} == set(
            winners
        )


@pytest.mark.parametrize("name", NAMES)
def test_whole_game_decisions_are_numbered_by_game_and_round(name):
    for played in random_whole_games(name):
        games_of, rounds_of = np.divmod(np.array(played.round_ids), ROUND_ID_STRIDE)
        assert set(games_of.tolist()) == {played.game_id}
        assert rounds_of[0] == 0 and np.all(np.diff(rounds_of) >= 0) and np.all(np.diff(rounds_of) <= 1)
        assert rounds_of[-1] < played.state.rounds_played


# ------------------------------------------------------------------------------------------------
# What the mover has not seen: one function per game


@dataclass(frozen=True)
class Hiding:
    """A game's knowledge of hidden cards.

    ``hidden(deal, actions, state)``: the deal positions whose cards the mover of ``state`` (reached
    from ``deal`` by ``actions``) has not seen. ``rename(actions, renamed)``: the actions with every
    card id ``c`` they name replaced by ``renamed[c]``. ``exact``: every permutation of the hidden
    cards is consistent with what the mover saw."""

    hidden: Callable[[Sequence[int], Sequence[int], Any], set[int]]
    rename: Callable[[Sequence[int], dict[int, int]], list[int]]
    exact: bool


def straights_hidden(deal: Sequence[int], actions: Sequence[int], state: Any) -> set[int]:
    """Everything but the mover's 13 dealt cards and the cards played face up: other hands and every
    face-down discard by another seat. A card is a discard exactly when the table does not take it."""
    seat = state.current_player
    position = {card: index for index, card in enumerate(deal)}
    seen = set(range(seat * straights_rules.HAND_SIZE, (seat + 1) * straights_rules.HAND_SIZE))
    table = 0
    for card in actions:
        if straights_rules.playable_mask(table) >> card & 1:
            table |= 1 << card
            seen.add(position[card])
    return set(range(len(deal))) - seen


def euchre_hidden(deal: Sequence[int], actions: Sequence[int], state: Any) -> set[int]:
    """Other hands' unplayed cards, the three undealt cards and (but to the dealer) the dealer's
    discard; the upcard is seen by all."""
    seat, dealer = state.current_player, int(state.observe().dealer[0])
    position = {card: index for index, card in enumerate(deal)}
    seen = set(euchre_rules.deal_hands(range(len(deal)), dealer)[seat]) | {euchre_rules.UPCARD_POSITION}
    bids, discard_due = 0, False
    for action in actions:
        if action >= EUCHRE_ORDER_UP:
            bids += 1
            discard_due = action != EUCHRE_PASS and bids <= euchre_rules.NUM_PLAYERS  # ordered up in round one
        elif discard_due:
            discard_due = False
            if seat == dealer:
                seen.add(position[action])
        else:
            seen.add(position[action])  # played face up
    return set(range(len(deal))) - seen


def ginrummy_hidden(deal: Sequence[int], actions: Sequence[int], state: Any) -> set[int]:
    """The stock and the opponent's cards it drew from the stock or was dealt and has not thrown;
    every discard is face up, so a card drawn from the pile is seen by both."""
    seat, dealer = state.current_player, int(state.observe().dealer[0])
    opener = 1 - dealer
    last_dealt = ginrummy_rules.DEALT_CARDS - 1
    dealt = {opener: {*range(0, last_dealt, 2), last_dealt}, dealer: set(range(1, last_dealt, 2))}
    position = {card: index for index, card in enumerate(deal)}
    seen, next_stock, turn = set(dealt[seat]), ginrummy_rules.DEALT_CARDS, opener
    for action in actions:
        if action == DRAW_STOCK:
            if turn == seat:
                seen.add(next_stock)
            next_stock += 1
        elif action != DRAW_DISCARD:  # a discard (a knock ends the hand)
            seen.add(position[action - KNOCK if action >= KNOCK else action])
            turn = 1 - turn
    return set(range(len(deal))) - seen


def gemstones_hidden(deal: Sequence[int], actions: Sequence[int], state: Any) -> set[int]:
    """The deck and the opponent's hand (notes, section 7). Cards are drawn from the deal's end; hands
    are queues of deal positions, played from the front and discarded by position; the draws to
    hands are read from the events of a replay."""
    seat = state.current_player
    top = len(deal) - 1
    hands: list[list[int]] = [[], []]
    for _ in range(gemstones_rules.HAND_SIZE):
        for player in hands:
            player.append(top)
            top -= 1
    replay = games.load("gemstones").new_state(deal, 0)
    for action in actions:
        mover = replay.current_player
        if action == GEMSTONES_PLAY:
            hands[mover].pop(0)
        elif action >= GEMSTONES_DISCARD:
            hands[mover].pop(action - GEMSTONES_DISCARD)
        for event in replay.apply(action):
            if isinstance(event, GemstonesDrew):
                for _ in event.stones:
                    hands[event.seat].append(top)
                    top -= 1
            elif isinstance(event, TradeAreaFilled):
                top -= len(event.drawn)
    seen = state.observe()
    assert seen.deck_size.tolist() == [top + 1] and seen.hand_sizes[0].tolist() == [len(hand) for hand in hands]
    return set(range(top + 1)) | set(hands[1 - seat])


def rename_cards(actions: Sequence[int], renamed: dict[int, int]) -> list[int]:
    return [renamed[action] for action in actions]


def rename_euchre(actions: Sequence[int], renamed: dict[int, int]) -> list[int]:
    return [renamed[action] if action < EUCHRE_ORDER_UP else action for action in actions]


def rename_ginrummy(actions: Sequence[int], renamed: dict[int, int]) -> list[int]:
    return [KNOCK + renamed[action - KNOCK] if action >= KNOCK else renamed.get(action, action) for action in actions]


def rename_nothing(actions: Sequence[int], renamed: dict[int, int]) -> list[int]:
    return list(actions)  # Gemstones' actions name positions and trade-area stones, never a hidden card


HIDING = {
    "straights": Hiding(straights_hidden, rename_cards, exact=False),
    "euchre": Hiding(euchre_hidden, rename_euchre, exact=False),
    "ginrummy": Hiding(ginrummy_hidden, rename_ginrummy, exact=True),
    "gemstones": Hiding(gemstones_hidden, rename_nothing, exact=True),
}


# ------------------------------------------------------------------------------------------------
# Reshuffling the hidden cards


INVARIANCE_DEALS = 30
DECISIONS_PER_DEAL = 3
RESHUFFLES = 3  # full reshuffles per decision (exact games)
TRANSPOSITIONS = 12  # proposed transpositions per decision (the others)
CONTROLS = 3  # swaps of a seen card with a hidden one that replay, per decision (of up to 4 times as many tried)


@dataclass
class Decision:
    deal: np.ndarray
    round_id: int
    actions: list[int]
    state: Any  # the original state at the decision
    hidden: set[int]
    reshuffled: list[tuple[np.ndarray, Any]] = field(default_factory=list)  # (deal, state at the decision)
    refused: list[np.ndarray] = field(default_factory=list)  # full reshuffles that did not count (exact games)
    controls: list[tuple[int, int, Any]] = field(default_factory=list)  # (seen, hidden position, state)


def replay(game: games.Game, hiding: Hiding, decision: Decision, deal: np.ndarray) -> Any | None:
    """The decision's actions, renamed to ``deal``, replayed on it; None if one is illegal or if the
    replay no longer shows the mover the same positions (a Straights discard renamed to a card the
    table takes is a legal play, which everyone would see)."""
    renamed = {int(old): int(new) for old, new in zip(decision.deal, deal)}
    actions = hiding.rename(decision.actions, renamed)
    state = game.new_state(deal, decision.round_id)
    for action in actions:
        try:
            state.apply(action)
        except IllegalAction:
            return None
    if state.is_over or hiding.hidden(deal, actions, state) != decision.hidden:
        return None
    return state


@functools.cache
def reshuffled_decisions(name: str) -> list[Decision]:
    if name not in HIDING:
        pytest.fail(f"{name}: write the function naming the positions a mover has not seen (HIDING)")
    game, hiding = games.load(name), HIDING[name]
    rng = rng_for("hidden", name)
    decisions = []
    for round_id, deal in enumerate(game.deals(SEED, 1000, INVARIANCE_DEALS)):
        state = game.new_state(deal, round_id)
        actions: list[int] = []
        originals = []
        while not state.is_over:
            originals.append(state.clone())
            actions.append(random_legal(state, rng))
            state.apply(actions[-1])
        for step in sorted(rng.choice(len(originals), min(DECISIONS_PER_DEAL, len(originals)), replace=False)):
            original = originals[step]
            hidden = hiding.hidden(deal, actions[:step], original)
            decision = Decision(deal, round_id, actions[:step], original, hidden)
            reshuffle(game, hiding, decision, rng)
            control(game, hiding, decision, rng)
            decisions.append(decision)
    return decisions


def reshuffle(game: games.Game, hiding: Hiding, decision: Decision, rng: np.random.Generator) -> None:
    hidden = np.array(sorted(decision.hidden), dtype=np.int64)
    if len(hidden) < 2:
        return
    if hiding.exact:
        for _ in range(RESHUFFLES):
            deal = decision.deal.copy()
            deal[hidden] = decision.deal[rng.permutation(hidden)]
            state = replay(game, hiding, decision, deal)
            if state is None:
                decision.refused.append(deal)
            else:
                decision.reshuffled.append((deal, state))
        return
    deal = decision.deal.copy()
    for _ in range(TRANSPOSITIONS):
        first, second = rng.choice(hidden, 2, replace=False)
        proposed = deal.copy()
        proposed[[first, second]] = deal[[second, first]]
        state = replay(game, hiding, decision, proposed)
        if state is not None:
            deal = proposed
            decision.reshuffled.append((deal, state))


def control(game: games.Game, hiding: Hiding, decision: Decision, rng: np.random.Generator) -> None:
    seen = np.array(sorted(set(range(len(decision.deal))) - decision.hidden), dtype=np.int64)
    hidden = np.array(sorted(decision.hidden), dtype=np.int64)
    if not len(hidden):
        return
    for _ in range(4 * CONTROLS):
        if len(decision.controls) == CONTROLS:
            break
        shown, unseen = int(rng.choice(seen)), int(rng.choice(hidden))
        if decision.deal[shown] == decision.deal[unseen]:
            continue
        deal = decision.deal.copy()
        deal[[shown, unseen]] = deal[[unseen, shown]]
        state = replay(game, hiding, decision, deal)
        if state is not None:
            decision.controls.append((shown, unseen, state))


def describe(decision: Decision, deal: np.ndarray | None = None) -> str:
    changed = [] if deal is None else np.flatnonzero(deal != decision.deal).tolist()
    return (
        f"deal {decision.round_id} (seed {SEED}) after {len(decision.actions)} actions, seat "
        f"{decision.state.current_player}; hidden positions {sorted(decision.hidden)}; changed {changed}"
    )


@pytest.mark.parametrize("name", NAMES)
def test_reshuffling_what_the_mover_has_not_seen_leaves_its_observation_alone(name):
    decisions = reshuffled_decisions(name)
    changed_decisions = 0
    for decision in decisions:
        seat = decision.state.current_player
        assert decision.hidden <= set(range(len(decision.deal)))
        # An exact hiding function names exactly what the mover cannot tell apart: every reshuffle counts.
        assert not decision.refused, (
            f"{describe(decision, decision.refused[0])}: the actions no longer replay "
            "or no longer hide the same positions"
        )
        expected = decision.state.observe().arrays()
        for deal, state in decision.reshuffled:
            assert not state.is_over and state.current_player == seat, describe(decision, deal)
            differ = same_arrays(state.observe().arrays(), expected)
            assert not differ, f"{describe(decision, deal)}: the mover sees a reshuffle of hidden cards in {differ}"
        changed_decisions += any(np.any(deal != decision.deal) for deal, _ in decision.reshuffled)
    # Not vacuous: most decisions had hidden cards actually reshuffled.
    assert changed_decisions >= 0.9 * len(decisions), (changed_decisions, len(decisions))


@pytest.mark.parametrize("name", NAMES)
def test_swapping_a_card_the_mover_has_seen_changes_its_observation(name):
    decisions = reshuffled_decisions(name)
    controls = 0
    for decision in decisions:
        expected = decision.state.observe().arrays()
        for shown, unseen, state in decision.controls:
            controls += 1
            assert same_arrays(state.observe().arrays(), expected), (
                f"{describe(decision)}: swapping seen position {shown} with hidden {unseen} changes nothing"
            )
    assert controls >= len(decisions), (controls, len(decisions))


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_strategies_choose_alike_on_identical_observations(name):
    tested = [
        info
        for info in strategies.available(name)
        if info.deterministic and not info.cheating and info.name not in SLOW_STRATEGIES and not info.required
    ]  # policy needs a file: tests/test_policy.py seats random ones
    assert tested
    pairs = 0
    for decision in reshuffled_decisions(name):
        if not decision.reshuffled:
            continue
        deal, reshuffled = decision.reshuffled[-1]
        legal = decision.state.legal_actions()
        for info in tested:
            mine = strategies.get(name, info.name).choose(decision.state.observe())
            theirs = strategies.get(name, info.name).choose(reshuffled.observe())
            assert np.shape(mine) == (1,) and int(mine[0]) in legal, (info.name, mine, legal)
            assert int(mine[0]) == int(theirs[0]), f"{info.name} at {describe(decision, deal)}: {mine} vs {theirs}"
        pairs += 1
    assert pairs >= 0.9 * len(reshuffled_decisions(name))
