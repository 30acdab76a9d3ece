"""Monte-Carlo lookahead for Straights (``mc``) and its cheating yardstick (``oracle-mc``).

``mc`` deals the unseen cards many times over, consistently with everything its player has seen,
plays every legal action out in each of those worlds on the fast engine (``strategies.montecarlo``)
with a rollout policy (``heuristic``) after it, and keeps the action that does best on average by its
objective:

* ``margin`` (the default): our points minus the mean of the others'. The game is won by the lowest
  score, so only scores relative to the others count; chasing our own points alone (``points``)
  scores fewer points but loses to heuristic on the margin (docs/straights-strategies.md);
* ``points``: our own points;
* ``game``: our chance to win the game, from the game scores and the round's points (``win_chances``).

**Learned leaves** (``leaves=FILE``, a value network of ``cardsim train --learn value``): each rollout
stops when our player is next to move, and is valued there by the margin the world's points give
so far plus the network's value of the position our player sees (the margin still to come); a
round that ends first, by its margin. The objective is the margin.

It leaves the rollout policy's own choice only for a candidate whose gain, paired over the same
worlds, is at least ``confidence`` standard errors: small gains over few worlds are mostly noise
(acting on every gain made mc play worse than heuristic while it was being tuned). ``oracle-mc``
runs the same lookahead in the one true world.

What a player knows (``sim.straights.observation``): its own dealt hand and what it still holds,
every card played and by whom, when someone discarded face down, and how many cards each seat holds.
A discard says more: its maker had no legal play, so at that moment it held none of the cards the
table accepted. It is *void* in them for the rest of the round, as nobody ever picks cards up.

**The sampler.** The unseen cards (neither ours nor on the table) fill *slots*: each opponent's
face-down discards, one per discarding step, and the cards it still holds. A slot cannot take a card
its owner was void in while that card was in hand: a held card none of the owner's voids so far; a
card discarded at step k none of the voids revealed up to step k (that discard's own included: the
card was in hand then). Slots are filled most constrained first, each with a uniform pick among the
free cards it may take; a world in which some slot finds no card is drawn again. So every world is
consistent. The picks are exactly uniform over consistent worlds while at most one opponent has
revealed voids (the others then take any cards left), and close to uniform otherwise.

**The rollouts.** The fast engine plays whole rounds from a deal. A world becomes a deal (our hand in
its dealt order; each opponent's played, discarded and held cards) and a *script*, the history with
every face-down discard filled in (ours in an order consistent with our voids: the order of our own
discards does not change the state reached). One wrapper plays every seat: it replays the script
before the decision step, forces the candidate at it and follows the rollout policy after it.

**The oracle hook** (``strategies.montecarlo.Truth``): the code running an evaluation makes
``truth_of(deals, round_ids)``, plays every seat with the strategies its ``watch`` returns (a deal alone
does not say which unplayed cards were discarded) and binds it: ``oracle.bind(truth)``.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from dataclasses import dataclass
from typing import Annotated

import numpy as np

import strategies
from sim.cards import ALL_CARDS_MASK, NUM_CARDS
from sim.straights import rules
from sim.straights.observation import DISCARDED, Observation, positions_to_cards, take_rows
from strategies import SEED_MAX, Between, DigestOf, NestedSpec, OneOf, StrategyError, register
from strategies.montecarlo import (
    CARD_IDS,
    NOT_YET,
    ActionTruth,
    Cheater,
    MonteCarlo,
    Rollouts,
    card_bits,
    decision_rng,
    draw_slot_cards,
    fill_slots,
    leaf_margins,
    most_constrained_first,
)
from strategies.policy import MAX_POLICY_BYTES

SEATS = rules.NUM_PLAYERS
HAND = rules.HAND_SIZE
HAND_POSITIONS = np.arange(HAND)
STEPS = np.arange(NUM_CARDS)
SLOTS = NUM_CARDS - HAND  # the unseen cards are at most the three other hands
ALL_HAND_POSITIONS = (1 << HAND) - 1
OBJECTIVES = ("margin", "points", "game")
MAX_SAMPLES = 100_000  # worlds per decision; far past where more stop changing the choice
# The game objective's model of the rounds still to come: a seat's points per round in heuristic
# self-play (docs/straights-strategies.md) and a fixed scale for turning win chances into integers.
ROUND_POINTS_MEAN = 12.0
ROUND_POINTS_SD = 14.5
WIN_CHANCE_SCALE = 1 << 20
# Φ, the standard normal distribution function, elementwise (strategies do not import the pipeline's sim.stats).
_normal_cdf = np.vectorize(lambda x: 0.5 * math.erfc(-x / math.sqrt(2.0)), otypes=[float])


@dataclass(frozen=True)
class Knowledge:
    """What each deciding player knows of the hidden cards: fixed cards, and slots for the unseen ones."""

    seat: np.ndarray
    """(d,) the deciding seat."""
    hand: np.ndarray
    """(d, 13) int64 its dealt hand, in dealt order."""
    script: np.ndarray
    """(d, 52) int64 the history with our own discards filled in (the others' still ``DISCARDED``)."""
    card_seat: np.ndarray
    """(d, 52) int64 the seat each card was dealt to where known (our hand, cards played), else -1."""
    unseen: np.ndarray
    """(d,) int64 card mask of the cards nobody has shown us."""
    slot_seat: np.ndarray
    """(d, SLOTS) int64 whose card each slot is, most constrained slot first."""
    slot_step: np.ndarray
    """(d, SLOTS) int64 the step a discard slot's card was discarded at; -1 for a held card."""
    slot_void: np.ndarray
    """(d, SLOTS) int64 card mask of the cards a slot cannot take."""
    is_slot: np.ndarray
    """(d, SLOTS) bool which columns are slots (as many per row as unseen cards)."""


@dataclass(frozen=True)
class Worlds:
    """Full states of the rounds being decided, ``w`` per decision."""

    deals: np.ndarray
    """(d, w, 52) int8 the deals: seat s holds cards 13 s .. 13 s + 12."""
    scripts: np.ndarray
    """(d, w, 52) int8 the card taken at each step before the decision, face-down discards included."""


def what_is_known(observation: Observation) -> Knowledge:
    """The Knowledge of every row of ``observation``."""
    size = len(observation)
    rows = np.arange(size)
    seat = observation.seat.astype(np.int64)
    step = observation.step.astype(np.int64)
    hand = observation.hand.astype(np.int64)
    history = observation.history.astype(np.int64)
    table = observation.table.astype(np.int64)
    leader = (seat - step) % SEATS
    mover = (leader[:, None] + STEPS) % SEATS

    played = card_bits(history)
    table_before = np.zeros_like(played)
    table_before[:, 1:] = np.bitwise_or.accumulate(played, axis=1)[:, :-1]
    discarded = history == DISCARDED
    revealed = np.where(discarded, rules.playable_mask(table_before), 0)
    # voids[:, k, p]: the cards seat p is known not to hold from step k on.
    voids = np.stack(
        [np.bitwise_or.accumulate(np.where(mover == p, revealed, 0), axis=1) for p in range(SEATS)], axis=2
    )
    discard_void = np.take_along_axis(voids, mover[:, :, None], axis=2)[:, :, 0]

    hand_mask = positions_to_cards(hand, np.full(size, ALL_HAND_POSITIONS))
    held_mask = positions_to_cards(hand, observation.held.astype(np.int64))
    script = _fill_own_discards(
        history, discarded & (mover == seat[:, None]), discard_void, hand_mask & ~held_mask & ~table
    )

    card_seat = np.full((size, NUM_CARDS), -1, dtype=np.int64)
    past = np.flatnonzero((history >= 0).ravel())
    card_seat[past // NUM_CARDS, history.ravel()[past]] = mover.ravel()[past]
    card_seat[rows[:, None], hand] = seat[:, None]

    # Candidate slots: 52 discard columns (one per step) then 13 held columns per seat.
    others = np.arange(SEATS)[None, :] != seat[:, None]
    held_slot = (HAND_POSITIONS < observation.cards_left[:, :, None]) & others[:, :, None]
    is_slot = np.concatenate([discarded & (mover != seat[:, None]), held_slot.reshape(size, -1)], axis=1)
    slot_void = np.concatenate([discard_void, np.repeat(voids[:, -1, :], HAND, axis=1)], axis=1)
    slot_seat = np.concatenate([mover, np.repeat(np.arange(SEATS)[None, :], HAND, axis=1).repeat(size, 0)], axis=1)
    slot_step = np.concatenate([np.broadcast_to(STEPS, (size, NUM_CARDS)), np.full((size, NUM_CARDS), -1)], axis=1)
    unseen = ALL_CARDS_MASK & ~hand_mask & ~table
    order = most_constrained_first(is_slot, slot_void, unseen, SLOTS)

    def ordered(values: np.ndarray) -> np.ndarray:
        return np.take_along_axis(values, order, axis=1)

    return Knowledge(
        seat,
        hand,
        script,
        card_seat,
        unseen,
        ordered(slot_seat),
        ordered(slot_step),
        ordered(slot_void),
        ordered(is_slot),
    )


def _fill_own_discards(history: np.ndarray, own: np.ndarray, void: np.ndarray, discards: np.ndarray) -> np.ndarray:
    """``history`` with our face-down discards (card mask ``discards``) put at our discard steps ``own``.

    Our voids only grow, so the latest discard is the most constrained and filling latest first with
    the lowest card allowed always succeeds on a consistent observation.
    """
    steps = most_constrained_first(own, void, discards, NUM_CARDS)
    cards, filled = fill_slots(
        discards, np.take_along_axis(void, steps, axis=1), np.take_along_axis(own, steps, axis=1), np.zeros(own.shape)
    )
    if not filled.all():
        raise ValueError("an observation whose discards contradict its voids")
    script = history.copy()
    rows, columns = np.nonzero(cards >= 0)
    script[rows, steps[rows, columns]] = cards[rows, columns]
    return script


def build_worlds(known: Knowledge, slot_cards: np.ndarray) -> Worlds:
    """The deals and scripts of the worlds whose unseen cards are ``slot_cards`` (d, w, SLOTS)."""
    decisions, samples = slot_cards.shape[:2]
    count = decisions * samples
    cards = slot_cards.reshape(count, SLOTS)
    world_rows, slot = np.nonzero(cards >= 0)
    decision = world_rows // samples
    card_seat = np.repeat(known.card_seat, samples, axis=0)
    card_seat[world_rows, cards[world_rows, slot]] = known.slot_seat[decision, slot]
    # Sorting by (seat, card) lists each seat's 13 cards together, in seat order.
    deals = np.argsort(card_seat * NUM_CARDS + CARD_IDS, axis=1).reshape(count, SEATS, HAND)
    deals[np.arange(count), np.repeat(known.seat, samples)] = np.repeat(known.hand, samples, axis=0)
    scripts = np.repeat(known.script, samples, axis=0)
    discard = known.slot_step[decision, slot] >= 0
    scripts[world_rows[discard], known.slot_step[decision, slot][discard]] = cards[world_rows, slot][discard]
    return Worlds(
        deals.reshape(decisions, samples, NUM_CARDS).astype(np.int8),
        scripts.reshape(decisions, samples, NUM_CARDS).astype(np.int8),
    )


def win_chances(scores: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """(m,) the chance ``seat`` wins the game from game ``scores`` (m, 4) after this round.

    A finished game is won (shared equally when tied) by the lowest scores. Otherwise the game lasts
    about r = (80 - highest score) / ROUND_POINTS_MEAN more rounds (at least one), over which two
    seats' score difference moves by a normal amount of standard deviation
    ROUND_POINTS_SD * sqrt(2 r); we win if we end below each opponent, taken as independent.
    """
    rows = np.arange(len(scores))
    own = scores[rows, seat].astype(float)
    highest = scores.max(axis=1)
    lowest = scores == scores.min(axis=1, keepdims=True)
    finished = np.where(lowest[rows, seat], 1.0 / lowest.sum(axis=1), 0.0)
    rounds_left = np.maximum(1.0, (rules.GAME_OVER_SCORE - highest) / ROUND_POINTS_MEAN)
    spread = ROUND_POINTS_SD * np.sqrt(2.0 * rounds_left)
    ahead = _normal_cdf((scores - own[:, None]) / spread[:, None])
    ahead[rows, seat] = 1.0
    return np.where(highest >= rules.GAME_OVER_SCORE, finished, ahead.prod(axis=1))


class StraightsLookahead(MonteCarlo):
    """The Straights side of the lookahead; subclasses say which worlds to play in."""

    def __init__(self, rollout: str, objective: str, leaves: str = "", leaves_sha256: str = "") -> None:
        if objective not in OBJECTIVES:
            raise StrategyError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
        if leaves and objective != "margin":
            raise StrategyError(f"learned leaves value the margin: objective must be margin, not {objective!r}")
        self.policy = strategies.get("straights", rollout)
        self.objective = objective
        self.use_leaves("straights", leaves, leaves_sha256)

    @abstractmethod
    def worlds(self, observation: Observation) -> Worlds:
        """``worlds_per_decision`` full states for each row of ``observation``."""

    def candidates(self, observation: Observation) -> np.ndarray:
        return (observation.options[:, None] >> HAND_POSITIONS) & 1 == 1

    def margins(self, observation: Observation) -> np.ndarray:
        """(n,) float64 the margin each row's player can expect by this lookahead (``position_values``
        in points: the mean of the others' points less its own), what ``cardsim train --labels`` learns."""
        if self.objective != "margin":
            raise StrategyError(f"a lookahead labels margins with objective=margin, not {self.objective!r}")
        return self.position_values(observation) / (SEATS - 1)  # rollouts' margins are 3 times the mean's

    def policy_candidate(self, observation: Observation, deciding: np.ndarray) -> np.ndarray:
        deciders = take_rows(observation, deciding)
        chosen = self.policy.choose(deciders)
        return np.argmax(deciders.hand == chosen[:, None], axis=1)

    def action(self, observation: Observation, choice: np.ndarray) -> np.ndarray:
        return observation.hand[np.arange(len(observation)), choice].astype(np.int64)

    def roll_out(self, observation: Observation, deciding: np.ndarray, rollouts: Rollouts) -> np.ndarray:
        deciders = take_rows(observation, deciding)
        worlds = self.worlds(deciders)
        decision = rollouts.decision
        deals = worlds.deals[decision, rollouts.world]
        scripts = worlds.scripts[decision, rollouts.world]
        candidate = deciders.hand[decision, rollouts.candidate]
        step = deciders.step[decision]
        seat = deciders.seat[decision]
        scores = deciders.scores[decision]
        round_ids = deciders.round_id[decision]
        # Each rollout replays its world's script up to the decision, plays the candidate, and lets the
        # rollout policy play on: on the compiled engine, one kernel call when the policy is compiled.
        scripts[np.arange(len(decision)), step] = candidate
        if self.leaves is not None:
            return self.valued_at_leaves(deals, scripts, step, seat, scores, round_ids)
        # Imported here: the programs that seat mc load this module, and need the engine's kernels only
        # once a rollout runs (loading them takes a quarter of a second).
        from sim.straights import fast

        points = fast.play_rounds(
            deals, [self.policy] * SEATS, round_ids, scores, script=scripts, script_length=step + 1
        ).points
        own = points[np.arange(len(points)), seat]
        if self.objective == "points":
            return -own
        if self.objective == "margin":  # own points minus the others' mean, times 3 to stay an integer
            return points.sum(axis=1) - SEATS * own
        return np.rint(win_chances(scores + points, seat) * WIN_CHANCE_SCALE).astype(np.int64)

    def valued_at_leaves(
        self,
        deals: np.ndarray,
        scripts: np.ndarray,
        step: np.ndarray,
        seat: np.ndarray,
        scores: np.ndarray,
        round_ids: np.ndarray,
    ) -> np.ndarray:
        """(n,) int64 each rollout's margin (as the ``margin`` objective counts it, in ``value_scale``
        units): played from its script by the rollout policy until ``seat`` is to move again, then the
        margin of the points so far plus the learned value of the margin to come; a round that ends
        first, its margin."""
        from sim.straights import fast

        def tables(rows: np.ndarray, seated: list) -> fast.Tables:
            return fast.Tables(seated, deals[rows], round_ids[rows], scores[rows], scripts[rows], step[rows] + 1)

        lineup = [self.policy] * SEATS
        margins = leaf_margins(tables, seat, lambda decider: lineup, self.leaf_turns, self.leaves, True)
        return np.rint(margins * (SEATS - 1) * self.value_scale).astype(np.int64)


@register("straights", "mc", deterministic=True)
class MonteCarloLookahead(StraightsLookahead):
    """Monte-Carlo lookahead: deal the unseen cards consistently many times, roll out each legal action."""

    def __init__(
        self,
        samples: Annotated[int, Between(2, MAX_SAMPLES)] = 32,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        seed: Annotated[int, Between(0, SEED_MAX)] = 0,
        objective: Annotated[str, OneOf(OBJECTIVES)] = "margin",
        confidence: Annotated[float, Between(0.0, 100.0)] = 1.0,
        leaves: str = "",
        leaves_sha256: Annotated[str, DigestOf("leaves", MAX_POLICY_BYTES, "value file")] = "",
        leaf_turns: Annotated[int, Between(1, HAND)] = 1,
    ) -> None:
        super().__init__(rollout, objective, leaves, leaves_sha256)
        self.worlds_per_decision = samples
        self.leaf_turns = leaf_turns
        self.seed = seed
        self.confidence = confidence

    def worlds(self, observation: Observation) -> Worlds:
        known = what_is_known(observation)
        keys = zip(observation.round_id.tolist(), observation.step.tolist(), observation.seat.tolist())
        rngs = [decision_rng(self.seed, *key) for key in keys]
        slot_cards = draw_slot_cards(known.unseen, known.slot_void, known.is_slot, rngs, self.worlds_per_decision)
        return build_worlds(known, slot_cards)


def truth_of(deals: np.ndarray, round_ids: np.ndarray) -> ActionTruth:
    """The ``Truth`` of Straights rounds: its actions by step, face-down discards included."""
    return ActionTruth(deals, round_ids, NUM_CARDS, lambda observation: observation.step)


@register("straights", "oracle-mc", deterministic=True, cheating=True)
class OracleLookahead(Cheater, StraightsLookahead):
    """CHEATS: mc's lookahead in the true world (sees every hand); needs bind(truth_of(...)): see its module."""

    worlds_per_decision = 1  # the true world is the only one, and rollouts in it are deterministic
    truth_of = staticmethod(truth_of)

    def __init__(
        self,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        objective: Annotated[str, OneOf(OBJECTIVES)] = "margin",
    ) -> None:
        super().__init__(rollout, objective)

    def worlds(self, observation: Observation) -> Worlds:
        truth: ActionTruth = self.bound_truth()
        rows = truth.rows(observation.round_id.astype(np.int64))
        scripts = truth.actions[rows]
        history = observation.history
        past = STEPS < observation.step[:, None]
        if ((scripts == NOT_YET) & past).any() or ((history >= 0) & (scripts != history)).any():
            raise RuntimeError("oracle-mc's Truth missed actions: play with the strategies Truth.watch returns")
        return Worlds(truth.deals[rows][:, None, :], scripts[:, None, :])
