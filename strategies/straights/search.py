"""Solver-backed search with inference for Straights (``search``).

``search`` is mc's lookahead (``strategies.straights.mc``) with two parts added:

* **Inference.** mc deals the unseen cards uniformly among what is consistent with the voids the
  discards revealed. ``search`` draws ``oversample`` times as many worlds, replays each to the decision
  and asks a model of the other seats (the rollout policy) what it would have played at every one of
  their past turns (``sim.straights.fast.judge_scripts``); it keeps the worlds whose turns the model
  explains best (``softness`` 0), or draws them weighted by ``softness ** mismatches``. A heuristic
  player's plays say much about what it holds: which of its legal cards it chose, and which it kept.
* **An exact endgame.** Once at most ``endgame`` cards are left in all hands, the rest of the round is
  solved open-handed in each world (``strategies.straights.solver``, rule ``paranoid``: the others
  gang up on us, or ``maxn``: every seat minimises its own points; paranoid played better, by 0.35
  points a round on 300 deals, docs/search.md). Before that, each candidate is
  played on by the rollout policy up to the endgame, which is then solved.

A world's value is mc's ``margin``: our points minus the mean of the others' (times four minus the
sum, an integer), the round's points so far and to come. The choice rule is mc's: the rollout
policy's own choice unless a candidate beats it by ``confidence`` standard errors, paired world by world.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

from sim.cards import NUM_CARDS
from sim.straights import rules
from sim.straights.observation import Observation, take_rows
from strategies import SEED_MAX, Between, DigestOf, NestedSpec, OneOf, register
from strategies.montecarlo import (
    Rollouts,
    card_bits,
    decision_rng,
    draw_slot_cards,
    likeliest_worlds,
    weighted_worlds,
)
from strategies.policy import MAX_POLICY_BYTES
from strategies.straights.mc import (
    MAX_SAMPLES,
    SEATS,
    Knowledge,
    MonteCarloLookahead,
    Worlds,
    build_worlds,
    what_is_known,
)
from strategies.straights.solver import MAXN, PARANOID, solve_points

HAND = rules.HAND_SIZE
RULE_NAMES = {"maxn": MAXN, "paranoid": PARANOID}
MAX_OVERSAMPLE = 1_000
MAX_MOVES = 1_000
MAX_ENDGAME = 24  # cards in all hands: past this a solve can take a second (strategies/straights/solver.py)
_STEPS = np.arange(NUM_CARDS)
_CARD_POINTS = np.array([rules.card_points(card) for card in range(NUM_CARDS)], dtype=np.int64)


def _engine():
    """The fast engine, imported at a lookahead's first rollout (the programs seating search load this module)."""
    from sim.straights import fast

    return fast


def margin(points: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """(m,) the seat's margin from each row's points (m, 4): the others' total minus three times ours,
    so higher is better (four times minus-our-points-minus-the-others'-mean, an integer)."""
    own = points[np.arange(len(points)), seat]
    return points.sum(axis=1) - SEATS * own


def state_at(deals: np.ndarray, actions: np.ndarray, discarded: np.ndarray, steps: np.ndarray):
    """Each round after its first ``steps`` actions: the cards each seat holds (n, 4) by seat, the
    table (n,), the points each seat has discarded (n, 4) and the seat to move (n,)."""
    size = len(deals)
    by_seat = card_bits(deals.astype(np.int64)).reshape(size, SEATS, HAND)
    hands = np.bitwise_or.reduce(by_seat, axis=2)
    leader = np.argmax((hands >> rules.SEVEN_OF_SPADES) & 1, axis=1)
    past = _STEPS < steps[:, None]
    taken = np.where(past, card_bits(actions.astype(np.int64)), 0)
    seat_of_step = (leader[:, None] + _STEPS) % SEATS
    for seat in range(SEATS):
        hands[:, seat] &= ~np.bitwise_or.reduce(np.where(seat_of_step == seat, taken, 0), axis=1)
    table = np.bitwise_or.reduce(np.where(discarded, 0, taken), axis=1)
    lost = np.where(past & discarded, _CARD_POINTS[np.maximum(actions, 0)], 0)
    points = np.stack([np.where(seat_of_step == seat, lost, 0).sum(axis=1) for seat in range(SEATS)], axis=1)
    return hands, table, points, (leader + steps) % SEATS


@register("straights", "search", deterministic=True)
class SolverSearch(MonteCarloLookahead):
    """mc's lookahead with inference from the other seats' play and an exact endgame (see the module)."""

    def __init__(
        self,
        samples: Annotated[int, Between(2, MAX_SAMPLES)] = 32,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        seed: Annotated[int, Between(0, SEED_MAX)] = 0,
        confidence: Annotated[float, Between(0.0, 100.0)] = 1.0,
        oversample: Annotated[int, Between(1, MAX_OVERSAMPLE)] = 32,
        softness: Annotated[float, Between(0.0, 1.0)] = 0.0,
        endgame: Annotated[int, Between(0, MAX_ENDGAME)] = 12,
        rule: Annotated[str, OneOf(tuple(RULE_NAMES))] = "paranoid",
        moves: Annotated[int, Between(0, MAX_MOVES)] = 0,
        leaves: str = "",
        leaves_sha256: Annotated[str, DigestOf("leaves", MAX_POLICY_BYTES, "value file")] = "",
        leaf_turns: Annotated[int, Between(1, HAND)] = 1,
    ) -> None:
        super().__init__(samples, rollout, seed, "margin", confidence, leaves, leaves_sha256, leaf_turns)
        self.oversample = oversample
        self.softness = softness
        self.moves = moves
        self.endgame = endgame
        self.rule = RULE_NAMES[rule]

    def worlds(self, observation: Observation) -> Worlds:
        known = what_is_known(observation)
        keys = zip(observation.round_id.tolist(), observation.step.tolist(), observation.seat.tolist())
        rngs = [decision_rng(self.seed, *key) for key in keys]
        drawn = self.worlds_per_decision * self.oversample
        slot_cards = draw_slot_cards(known.unseen, known.slot_void, known.is_slot, rngs, drawn)
        if self.oversample == 1 and not self.moves:
            return build_worlds(known, slot_cards)
        mismatches = self.mismatches(observation, build_worlds(known, slot_cards))
        if self.softness == 0.0:
            kept = likeliest_worlds(mismatches, self.worlds_per_decision)
        else:
            kept = weighted_worlds(mismatches, self.softness, self.worlds_per_decision, rngs)
        slot_cards = np.take_along_axis(slot_cards, kept[:, :, None], axis=1)
        mismatches = np.take_along_axis(mismatches, kept, axis=1)
        for _ in range(self.moves):
            slot_cards, mismatches = self.swap_move(observation, known, slot_cards, mismatches, rngs)
        return build_worlds(known, slot_cards)

    def swap_move(
        self,
        observation: Observation,
        known: Knowledge,
        slot_cards: np.ndarray,
        mismatches: np.ndarray,
        rngs: list[np.random.Generator],
    ) -> tuple[np.ndarray, np.ndarray]:
        """One Metropolis step in every world: swap the cards of two random slots where both slots may take
        the other's card, and keep the swap with probability ``softness ** (mismatches gained)`` (always
        when it explains the other seats' turns as well or better). Rejection from uniform draws keeps
        few worlds that explain most turns; walking from the best of them finds better ones."""
        decisions, samples, _ = slot_cards.shape
        uniform = np.stack([rng.random((samples, 3)) for rng in rngs])
        slots = known.is_slot.sum(axis=1)[:, None]  # the slots are each row's first columns
        first = (uniform[:, :, 0] * slots).astype(np.int64)
        second = (uniform[:, :, 1] * slots).astype(np.int64)
        first_card = np.take_along_axis(slot_cards, first[:, :, None], axis=2)[:, :, 0]
        second_card = np.take_along_axis(slot_cards, second[:, :, None], axis=2)[:, :, 0]

        def of_slot(values: np.ndarray, column: np.ndarray) -> np.ndarray:
            return np.take_along_axis(values, column, axis=1)

        moved = (of_slot(known.slot_seat, first) != of_slot(known.slot_seat, second)) | (
            (of_slot(known.slot_step, first) >= 0) | (of_slot(known.slot_step, second) >= 0)
        )
        allowed = ((of_slot(known.slot_void, second) >> first_card) & 1 == 0) & (
            (of_slot(known.slot_void, first) >> second_card) & 1 == 0
        )
        swap = (first != second) & moved & allowed
        proposal = slot_cards.copy()
        world_rows, world = np.nonzero(swap)
        proposal[world_rows, world, first[swap]] = second_card[swap]
        proposal[world_rows, world, second[swap]] = first_card[swap]
        proposed = self.mismatches(observation, build_worlds(known, proposal))
        gained = proposed - mismatches
        keep = swap & ((gained <= 0) | (uniform[:, :, 2] < self.softness ** np.maximum(gained, 0)))
        return np.where(keep[:, :, None], proposal, slot_cards), np.where(keep, proposed, mismatches)

    def mismatches(self, observation: Observation, worlds: Worlds) -> np.ndarray:
        """(d, w) how many of the other seats' past turns the rollout policy would have played otherwise."""
        decisions, samples = worlds.deals.shape[:2]
        step = observation.step.astype(np.int64)
        seat = observation.seat.astype(np.int64)
        leader = (seat - step) % SEATS
        mover = (leader[:, None] + _STEPS) % SEATS
        weights = ((_STEPS < step[:, None]) & (mover != seat[:, None])).astype(np.int64)
        judged = _engine().judge_scripts(
            worlds.deals.reshape(-1, NUM_CARDS),
            [self.policy] * SEATS,
            np.repeat(observation.round_id, samples),
            np.repeat(observation.scores, samples, axis=0),
            worlds.scripts.reshape(-1, NUM_CARDS),
            np.repeat(step, samples),
            np.repeat(weights, samples, axis=0),
        )
        return judged.reshape(decisions, samples)

    def roll_out(self, observation: Observation, deciding: np.ndarray, rollouts: Rollouts) -> np.ndarray:
        deciders = take_rows(observation, deciding)
        worlds = self.worlds(deciders)
        decision, world = rollouts.decision, rollouts.world
        deals = worlds.deals[decision, world]
        scripts = worlds.scripts[decision, world]
        step = deciders.step.astype(np.int64)[decision]
        seat = deciders.seat.astype(np.int64)[decision]
        scripts[np.arange(len(decision)), step] = deciders.hand[decision, rollouts.candidate]
        scores, round_ids = deciders.scores[decision], deciders.round_id[decision]
        # With learned leaves, decisions before the endgame are valued at them (see mc), the others solved.
        learned = np.zeros(len(decision), dtype=bool) if self.leaves is None else NUM_CARDS - step > self.endgame
        values = np.empty(len(decision), dtype=np.int64)
        for rows in (learned, ~learned):
            if rows.any():
                value_of = self.valued_at_leaves if rows is learned else self.solved
                values[rows] = value_of(
                    deals[rows], scripts[rows], step[rows], seat[rows], scores[rows], round_ids[rows]
                )
        return values

    def solved(
        self,
        deals: np.ndarray,
        scripts: np.ndarray,
        step: np.ndarray,
        seat: np.ndarray,
        scores: np.ndarray,
        round_ids: np.ndarray,
    ) -> np.ndarray:
        """(n,) each rollout's margin (in ``value_scale`` units): its world's script replayed, its
        candidate (the script's last action) played and the rollout policy playing on to the endgame
        (or to the end, with no endgame), which the solver then plays out exactly."""
        traced = _engine().play_rounds(
            deals, [self.policy] * SEATS, round_ids, scores, trace=True, script=scripts, script_length=step + 1
        )
        solve_from = np.maximum(step + 1, NUM_CARDS - self.endgame)
        hands, table, points, mover = state_at(deals, traced.actions, traced.discarded, solve_from)
        if self.endgame:
            points = points + self.solved_points(hands, table, mover)
        return margin(points, seat) * self.value_scale

    def solved_points(self, hands: np.ndarray, table: np.ndarray, mover: np.ndarray) -> np.ndarray:
        """(n, 4) the points each seat still loses from each position when the solver plays it out:
        the mover takes its best action by the rule (its lowest own points under maxn)."""
        left = np.zeros((len(hands), SEATS), dtype=np.int64)
        open_rows = np.flatnonzero(hands.any(axis=1))
        if open_rows.size:
            after = solve_points(hands[open_rows], table[open_rows], mover[open_rows], self.rule)  # (r, 52, 4)
            rows = np.arange(open_rows.size)
            own = after[rows, :, mover[open_rows]]
            value = own if self.rule == MAXN else own - (np.nansum(after, axis=2) - own) / (SEATS - 1)
            best = np.nanargmin(np.where(np.isnan(value), np.inf, value), axis=1)
            left[open_rows] = np.rint(after[rows, best]).astype(np.int64)
        return left
