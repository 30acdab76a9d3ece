"""Monte-Carlo lookahead for Gin Rummy (``mc``) and its cheating yardstick (``oracle-mc``).

``mc`` deals the cards its seat has not seen many times over, consistently with what it has seen,
plays every legal action out in each of those worlds on the fast engine
(``strategies.montecarlo``) with a rollout policy (``heuristic``) after it, and keeps the action
that does best on average: the points it scores in the hand minus its opponent's. Every decision
is looked ahead: drawing from the stock or the pile, and which card to throw, knocking or not
(of the throws, the ``throws`` leaving the least deadwood and the rollout policy's own).
``oracle-mc`` runs the same lookahead in the one true world.

**What a seat knows** (``sim.ginrummy.observation``): its own cards, the discard pile (the top card
face up), the cards each seat took from the pile and still holds, the cards each seat threw and the
size of the stock. Every other card is *unseen*: the opponent holds ten cards, those it took from the
pile and as many unseen ones as make ten, and the stock is the rest.

**The sampler.** A world shuffles the unseen cards uniformly (one random key per card, sorted): the
first ones complete the opponent's hand, the next ones are the stock in the order it will be drawn.
Nothing else constrains them: a card the opponent threw is in the pile or in our hand, so seen.
The pile keeps its top card; the order of the cards below it never matters to play (a seat
never draws twice from the pile without discarding onto it in between).

**Inference** (``oversample``, 128 by default): draw ``oversample`` times as many worlds and keep
those in which the rollout policy, holding the world's opponent hand and the card the opponent threw
last, would have thrown that card too (``throw_mismatches``). Uniform worlds deal the opponent
hands far worse than the ones a player keeps after many turns, and a lookahead in them throws too
freely: on 300 deals with seats swapped, mc v heuristic scored -4.0 points a hand without
inference, -1.2 keeping the best quarter, -0.5 the best sixteenth, +0.3 the best sixty-fourth.
Worlds are judged in rounds and a decision stops once enough agree (``likeliest_keys``), so drawing
more costs little where the opponent's throw is common; docs/ginrummy.md has the tuning. With a
compiled rollout policy the judging is one kernel (``_judge_worlds``) over the same keys.

**The rollouts** play each world on from the decision (``sim.ginrummy.fast.play_from``): the
candidate is each rollout's scripted first decision and the rollout policy plays both seats after
it, inside the compiled engine's kernel when the policy is compiled. Randomness is drawn per
decision from ``decision_rng(seed, round id, seat, phase, stock size, hand)``, so a decision does
not depend on which others share the batch.

**The oracle hook** (``strategies.montecarlo.Truth``): the code running an evaluation makes
``truth_of(deals, round_ids)``, plays every seat with the strategies its ``watch`` returns (a deal
alone does not say what the opponent holds once cards have been taken from the pile) and binds it:
``oracle.bind(truth)``.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import numpy as np
from numba import types

import strategies
from sim import jit, lockstep
from sim.cards import ALL_CARDS_MASK, NUM_CARDS, bits_to_bools, bools_to_bits
from sim.ginrummy import melds, policies, rules
from sim.ginrummy.observation import DRAW_DISCARD, KNOCK, NONE, NUM_ACTIONS, POLICY, SETTINGS, Observation, Phase
from strategies import SEED_MAX, Between, DigestOf, NestedSpec, Strategy, register
from strategies.montecarlo import (
    CARD_IDS,
    Cheater,
    Rollouts,
    SlotLookahead,
    Truth,
    card_bits,
    decision_rng,
    leaf_margins,
    likeliest_worlds,
)
from strategies.policy import MAX_POLICY_BYTES

if TYPE_CHECKING:
    from sim.ginrummy.fast import HandStates

SEATS = rules.NUM_PLAYERS
MAX_SAMPLES = 100_000
THROWS = 6  # the throws looked at besides the rollout policy's, by the least deadwood they leave (docs/ginrummy.md)
MAX_OVERSAMPLE = 1_000
MAX_LEAF_TURNS = 1_000  # the deciding seat's decisions before a learned leaf; a hand has about 23 in all
INFERENCE_ROUND = 4  # worlds judged in the first round of inference, per world kept
_DISCARD = int(Phase.DISCARD)
_NOT_UNSEEN = 2.0  # a sort key above any uniform draw: seen cards sort after the unseen ones
_KEY_SLOTS = 64  # a power of two above the 52 cards


@dataclass(frozen=True)
class Worlds:
    """Full states of the hands being decided, ``w`` per decision."""

    opponent: np.ndarray
    """(d, w) int64 the opponent's hand."""
    stock: np.ndarray
    """(d, w, 52) int8 the stock in the last ``stock_size`` columns, the next card drawn first."""


def unseen_cards(observation: Observation) -> np.ndarray:
    """(n,) int64 card masks of the cards each deciding seat has not seen."""
    return ALL_CARDS_MASK & ~observation.hand & ~observation.discard_pile & ~observation.opponent_took


def draw_keys(observation: Observation, rngs: list[np.random.Generator], samples: int) -> np.ndarray:
    """(n, samples, 52) a random sort key per card of each world, row ``r``'s from ``rngs[r]`` alone:
    uniform for the unseen cards, above every one of them for the others. The unseen cards in key
    order are the world's deal: the first ones complete the opponent's hand, the rest are the stock."""
    return seen_last(observation, uniform_keys(rngs, samples))


def uniform_keys(rngs: list[np.random.Generator], samples: int) -> np.ndarray:
    """(n, samples, 52) a uniform key per card of each world, row ``r``'s from ``rngs[r]`` alone."""
    keys = np.empty((len(rngs), samples, NUM_CARDS))
    for row, rng in enumerate(rngs):
        rng.random(out=keys[row])
    return keys


def seen_last(observation: Observation, keys: np.ndarray) -> np.ndarray:
    """``keys`` (n, w, 52) with the cards each deciding seat has seen keyed above every unseen one."""
    is_unseen = ((unseen_cards(observation)[:, None] >> CARD_IDS) & 1).astype(bool)
    return np.where(is_unseen[:, None, :], keys, _NOT_UNSEEN)


def missing_cards(observation: Observation) -> np.ndarray:
    """(n,) how many of the opponent's cards are unseen: ten less those it took from the pile."""
    return rules.HAND_SIZE - np.bitwise_count(observation.opponent_took).astype(np.int64)


def opponent_hands(observation: Observation, keys: np.ndarray) -> np.ndarray:
    """(n, w) int64 the opponent's hand in each world of ``keys``: what it took from the pile and the
    unseen cards of the smallest keys. (Sorted keys, not their order: numpy sorts floats several times
    faster than it argsorts them, or partitions them at ten places.)"""
    missing = missing_cards(observation)
    decisions, samples, _ = keys.shape
    threshold = np.take_along_axis(np.sort(keys, axis=2), np.maximum(missing - 1, 0)[:, None, None], axis=2)
    dealt = (keys <= threshold) & (missing > 0)[:, None, None]
    bits = bools_to_bits(dealt.reshape(-1, NUM_CARDS)).reshape(decisions, samples)
    return observation.opponent_took[:, None] | bits


def stocks(observation: Observation, keys: np.ndarray) -> np.ndarray:
    """(n, w, 52) int8 the stock of each world of ``keys`` in the last ``stock_size`` columns, the
    next card drawn first: the unseen cards after the opponent's, in key order."""
    shuffled = np.argsort(keys, axis=2)  # the unseen cards in key order, then the others
    missing, samples = missing_cards(observation), keys.shape[1]
    # Column j of the stock (j >= 52 - stock_size) is shuffled card missing + j - (52 - stock_size).
    stock_size = observation.stock_size.astype(np.int64)
    source = missing[:, None] + np.arange(NUM_CARDS) - (NUM_CARDS - stock_size[:, None])
    in_stock = (source >= missing[:, None])[:, None, :]
    stock = np.take_along_axis(shuffled, np.clip(source, 0, NUM_CARDS - 1)[:, None, :].repeat(samples, 1), axis=2)
    return (stock * in_stock).astype(np.int8)


def sample_worlds(observation: Observation, rngs: list[np.random.Generator], samples: int) -> Worlds:
    """``samples`` worlds per row of ``observation``, row ``r`` drawn from ``rngs[r]`` alone."""
    keys = draw_keys(observation, rngs, samples)
    return Worlds(opponent_hands(observation, keys), stocks(observation, keys))


def pile_order(discard_pile: np.ndarray, top_discard: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, 52) card ids and (n,) sizes: each pile's cards in ascending order but its top card last."""
    in_pile = ((discard_pile[:, None] >> CARD_IDS) & 1).astype(bool)
    is_top = CARD_IDS == top_discard[:, None]
    order = np.argsort(np.where(in_pile, CARD_IDS + NUM_CARDS * is_top, 3 * NUM_CARDS), axis=1)
    return order, in_pile.sum(axis=1)


def rollout_states(deciders: Observation, rollouts: Rollouts, worlds: Worlds) -> HandStates:
    """The hand states the rollouts start from: their decision's observation in their world."""
    # Imported here, as in roll_out: the programs that seat mc load this module, and need the
    # engine's kernels only once a rollout runs.
    from sim.ginrummy import fast

    decision, world = rollouts.decision, rollouts.world
    o = deciders.take(decision)
    seat = o.seat.astype(np.int64)
    rows = np.arange(len(decision))
    hands, took, threw = (np.empty((len(decision), SEATS), dtype=np.int64) for _ in range(3))
    for values, mine, theirs in (
        (hands, o.hand, worlds.opponent[decision, world]),
        (took, o.took, o.opponent_took),
        (threw, o.threw, o.opponent_threw),
    ):
        values[rows, seat], values[rows, 1 - seat] = mine, theirs
    # Every rollout of a decision starts from its pile: ordered once per decision.
    piles, pile_sizes = pile_order(deciders.discard_pile, np.asarray(deciders.top_discard, dtype=np.int64))
    pile, pile_size = piles[decision], pile_sizes[decision]
    return fast.HandStates(
        dealer=o.dealer,
        mover=seat,
        phase=o.phase,
        hands=hands,
        stock=worlds.stock[decision, world],
        stock_size=o.stock_size,
        pile=pile,
        pile_size=pile_size,
        took=took,
        threw=threw,
        taken=o.taken,
        round_id=np.zeros(len(decision), dtype=np.int64),  # rollouts are no hand of the run
        scores=o.scores,
    )


def last_throws(observation: Observation) -> np.ndarray:
    """(n,) the card the opponent threw last, or ``NONE`` before it has thrown: the face-up card, or
    the card the seat just took from the pile (which was on top)."""
    taken = np.asarray(observation.taken, dtype=np.int64)
    return np.where(taken != NONE, taken, np.asarray(observation.top_discard, dtype=np.int64))


def throw_mismatches(observation: Observation, opponents: np.ndarray, policy: Strategy) -> np.ndarray:
    """(d, w) whether ``policy``, holding each world's opponent hand (``opponents``) and its last throw, would have
    done anything but throw that card (another card, or a knock): a world in which the opponent's
    last move makes sense is likelier. What the opponent saw then is taken to be what the seat sees
    now, less that card; before the opponent has thrown, nothing is judged."""
    decisions, samples = opponents.shape
    last = last_throws(observation)
    judged = np.flatnonzero(last != NONE)
    mismatches = np.zeros((decisions, samples), dtype=bool)
    if not judged.size:
        return mismatches
    o = observation.take(np.repeat(judged, samples))
    thrown = np.repeat(last.take(judged), samples)
    bit = card_bits(thrown)
    hand = opponents[judged].reshape(-1) | bit
    legal = np.zeros((len(hand), NUM_ACTIONS), dtype=bool)
    legal[:, :NUM_CARDS] = bits_to_bools(hand)
    legal[:, KNOCK:] = bits_to_bools(melds.knocking_discards(hand))
    seen_by_opponent = Observation(
        seat=1 - o.seat,
        dealer=o.dealer,
        phase=np.full(len(hand), Phase.DISCARD),
        legal=legal,
        hand=hand,
        top_discard=np.full(len(hand), NONE),
        discard_pile=o.discard_pile & ~bit,
        took=o.opponent_took,
        opponent_took=o.took,
        opponent_threw=o.threw,
        threw=o.opponent_threw & ~bit,
        taken=np.full(len(hand), NONE),
        stock_size=o.stock_size + (o.taken == NONE) * (o.phase == Phase.DISCARD),
        scores=o.scores,
        round_id=o.round_id,
    )
    wanted = np.asarray(policy.choose(seen_by_opponent), dtype=np.int64)
    mismatches[judged] = (wanted != thrown).reshape(len(judged), samples)
    return mismatches


def judged_worlds(observation: Observation, keys: np.ndarray, policy: Strategy) -> np.ndarray:
    """(d, w) ``throw_mismatches`` of the worlds of uniform ``keys`` (d, w, 52): in one compiled
    kernel when ``policy`` has a compiled policy, which it calls world by world."""
    compiled = getattr(policy, "compiled", None)
    if compiled is None:
        return throw_mismatches(observation, opponent_hands(observation, seen_last(observation, keys)), policy)
    mismatches = np.empty(keys.shape[:2], dtype=bool)
    o = observation
    # What the opponent saw when it threw: the seat's view now, less its last throw.
    stock_size = o.stock_size + (o.taken == NONE) * (o.phase == Phase.DISCARD)
    rows = (
        unseen_cards(o), missing_cards(o), last_throws(o), o.discard_pile, o.took, o.opponent_took, o.threw,
        o.opponent_threw, stock_size,
    )  # fmt: skip
    _JUDGE_WORLDS_ENTRY(
        np.ascontiguousarray(keys, dtype=np.float64),
        *(np.ascontiguousarray(values, dtype=np.int64) for values in rows),
        policies.kind_of(compiled.function),
        lockstep.policy_address(compiled.function, POLICY.signature),
        compiled.arguments,
        mismatches,
    )
    return mismatches


_ROW = types.Array(types.int64, 1, "C", readonly=True)


_JUDGE_WORLDS = types.void(
    types.Array(types.float64, 3, "C", readonly=True),
    *(_ROW,) * 9,
    types.int64,  # the policy's kind (sim.ginrummy.policies)
    POLICY,  # the policy, called through its address when not built in
    SETTINGS,
    types.boolean[:, :],
)


@jit.njit(_JUDGE_WORLDS, cache=True, nogil=True)
def _judge_worlds(
    keys, unseen, missing, last, discard_pile, took, opponent_took, threw, opponent_threw, stock_size, kind,
    policy, settings, mismatches,
):  # fmt: skip
    """``mismatches[row, world]``: whether ``policy`` (of ``kind``), holding the world's opponent hand (the unseen
    cards of the ``missing[row]`` least keys, and the cards it took) and its last throw, would do
    anything but throw that card again, as ``throw_mismatches`` judges (never before it has thrown)."""
    cards = np.empty(NUM_CARDS, dtype=np.int64)  # the row's unseen cards
    # Their keys in one world, then keys above any: a loop of a fixed length over them is a few
    # vector instructions, where keeping the least keys in order mispredicts its branches.
    world_keys = np.empty(_KEY_SLOTS)
    for row in range(keys.shape[0]):
        thrown = last[row]
        if thrown == NONE:
            mismatches[row, :] = False
            continue
        bit = np.int64(1) << thrown
        wanted = missing[row]
        count = 0
        for card in range(NUM_CARDS):
            if unseen[row] >> card & 1:
                cards[count] = card
                count += 1
        world_keys[count:] = _NOT_UNSEEN
        for world in range(keys.shape[1]):
            for index in range(count):
                world_keys[index] = keys[row, world, cards[index]]
            hand = opponent_took[row] | bit
            for index in range(count):
                # Dealt when fewer than ``wanted`` keys are below its own: its key is at most the
                # wanted-th least, as opponent_hands deals them (ties alike).
                key, below = world_keys[index], 0
                for other in range(_KEY_SLOTS):
                    below += np.int64(world_keys[other] < key)
                hand |= np.int64(below < wanted) << cards[index]
            action = policies.decide(
                kind, policy, _DISCARD, hand, NONE, discard_pile[row] & ~bit, opponent_took[row], took[row],
                opponent_threw[row] & ~bit, threw[row], NONE, stock_size[row], settings,
            )  # fmt: skip
            mismatches[row, world] = action != thrown


_JUDGE_WORLDS_ENTRY = lockstep.entry_point(_judge_worlds, _JUDGE_WORLDS)


def decision_keys(observation: Observation) -> list[tuple[int, ...]]:
    """Per row, what tells its decision from every other of the run: hand, seat, phase, stock, cards held."""
    columns = (observation.round_id, observation.seat, observation.phase, observation.stock_size, observation.hand)
    return list(zip(*(np.asarray(values, dtype=np.int64).tolist() for values in columns)))


class GinLookahead(SlotLookahead):
    """The Gin Rummy side of the lookahead; subclasses say which worlds to play in."""

    def __init__(self, rollout: str, throws: int, leaves: str = "", leaves_sha256: str = "") -> None:
        self.policy = strategies.get("ginrummy", rollout)
        self.throws = throws
        self.use_leaves("ginrummy", leaves, leaves_sha256)

    @abstractmethod
    def worlds(self, observation: Observation) -> Worlds:
        """``worlds_per_decision`` full states for each row of ``observation``."""

    def candidates(self, observation: Observation) -> np.ndarray:
        """Both draws; of the throws, the ``throws`` leaving the least deadwood (knocking with them
        too where that is legal) and the rollout policy's own choice."""
        legal = np.asarray(observation.legal_mask)
        left = melds.discard_deadwoods(observation.hand).astype(np.int64)  # (n, 52) by card
        left[~legal[:, :NUM_CARDS]] = melds.NOT_HELD
        order = np.argsort(left * NUM_CARDS + CARD_IDS, axis=1, kind="stable")[:, : self.throws]
        kept = np.zeros_like(legal)
        rows = np.arange(len(legal))[:, None]
        kept[rows, order] = True
        kept[rows, KNOCK + order] = True
        kept[:, NUM_CARDS:KNOCK] = True  # the draws
        kept[np.arange(len(legal)), self.policy.choose(observation)] = True
        return legal & kept

    def roll_out(self, observation: Observation, deciding: np.ndarray, rollouts: Rollouts) -> np.ndarray:
        deciders = observation.take(deciding)
        states = rollout_states(deciders, rollouts, self.worlds(deciders))
        # Each rollout's first decision is its candidate and the rollout policy plays on: on the
        # compiled engine, one kernel call when the policy is compiled.
        script = np.asarray(rollouts.candidate, dtype=np.int64)[:, None]
        from sim.ginrummy import fast  # see rollout_states

        first = np.ones(len(script), dtype=np.int64)
        if self.leaves is not None:
            return self.valued_at_leaves(states, script, first)
        points = fast.play_from(states, [self.policy] * SEATS, script, first).points
        return self.values(states, points)

    def valued_at_leaves(self, states: HandStates, script: np.ndarray, script_length: np.ndarray) -> np.ndarray:
        """(m,) int64 each rollout's margin, our points less the opponent's (in ``value_scale`` units),
        from learned leaves (``strategies.montecarlo.leaf_margins``): its script played, then the
        rollout policy until the decider has been to move ``leaf_turns`` times, valued there by the network."""
        from sim.ginrummy import fast  # see rollout_states

        def tables(rows: np.ndarray, seated: list[Strategy]) -> fast.Tables:
            return fast.Tables.resumed(seated, states.take(rows), script[rows], script_length[rows])

        lineup = [self.policy] * SEATS
        seat = states.mover.astype(np.int64)
        margins = leaf_margins(tables, seat, lambda decider: lineup, self.leaf_turns, self.leaves, False)
        return np.rint(margins * self.value_scale).astype(np.int64)

    def margins(self, observation: Observation) -> np.ndarray:
        """(n,) float64 the points each row's seat can expect to score in the hand beyond its opponent's
        by this lookahead (``position_values``), what ``cardsim train --labels`` learns."""
        return self.position_values(observation)

    def values(self, states: HandStates, points: np.ndarray) -> np.ndarray:
        """(m,) the deciding seat's value of each rollout from the hand's points (m, 2) by seat: ours
        minus the opponent's."""
        rows, seat = np.arange(len(points)), states.mover
        return points[rows, seat] - points[rows, 1 - seat]


@register("ginrummy", "mc", deterministic=True)
class MonteCarloLookahead(GinLookahead):
    """Monte-Carlo lookahead: deal the unseen cards many times, roll out each legal action, keep the best."""

    def __init__(
        self,
        samples: Annotated[int, Between(2, MAX_SAMPLES)] = 96,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        seed: Annotated[int, Between(0, SEED_MAX)] = 0,
        confidence: Annotated[float, Between(0.0, 100.0)] = 2.0,
        oversample: Annotated[int, Between(1, MAX_OVERSAMPLE)] = 128,
        throws: Annotated[int, Between(1, rules.FIRST_HAND_SIZE)] = THROWS,
        leaves: str = "",
        leaves_sha256: Annotated[str, DigestOf("leaves", MAX_POLICY_BYTES, "value file")] = "",
        leaf_turns: Annotated[int, Between(1, MAX_LEAF_TURNS)] = 1,
    ) -> None:
        super().__init__(rollout, throws, leaves, leaves_sha256)
        self.leaf_turns = leaf_turns
        self.worlds_per_decision = samples
        self.seed = seed
        self.confidence = confidence
        self.oversample = oversample

    def worlds(self, observation: Observation) -> Worlds:
        rngs = [decision_rng(self.seed, *key) for key in decision_keys(observation)]
        if self.oversample == 1:
            keys = draw_keys(observation, rngs, self.worlds_per_decision)
        else:
            keys = self.likeliest_keys(observation, rngs)
        return Worlds(opponent_hands(observation, keys), stocks(observation, keys))

    def likeliest_keys(self, observation: Observation, rngs: list[np.random.Generator]) -> np.ndarray:
        """(n, samples, 52) the keys of the worlds inference keeps: of ``samples * oversample`` drawn,
        those in which the opponent's last throw is the rollout policy's, first drawn first (then the
        first others, where too few are).

        The worlds are drawn and judged in rounds, each doubling what a decision has drawn, and a
        decision stops once ``samples`` of its worlds agree: the worlds after them could not be kept.
        Each generator draws its worlds in order, so the worlds kept are those of one draw of them
        all, at a fraction of the judging (the policy's choice in each world is most of the cost).
        """
        samples, drawn = self.worlds_per_decision, self.worlds_per_decision * self.oversample
        mismatches = np.ones((len(observation), drawn), dtype=bool)  # a world not judged is never kept
        rounds = []
        pending, start, size = np.arange(len(observation)), 0, min(drawn, INFERENCE_ROUND * samples)
        while pending.size:
            judged = observation.take(pending)
            keys = uniform_keys([rngs[row] for row in pending], size)
            mismatches[pending, start : start + size] = judged_worlds(judged, keys, self.policy)
            rounds.append((pending, start, keys))
            start += size
            agreeing = (~mismatches[pending, :start]).sum(axis=1)
            pending = pending[agreeing < samples] if start < drawn else pending[:0]
            size = min(start, drawn - start)
        kept = likeliest_worlds(mismatches, samples)
        chosen = np.empty((len(observation), samples, NUM_CARDS))
        for rows, first, keys in rounds:
            in_round = (kept[rows] >= first) & (kept[rows] < first + keys.shape[1])
            row, slot = np.nonzero(in_round)
            chosen[rows[row], slot] = keys[row, kept[rows[row], slot] - first]
        return seen_last(observation, chosen)


class HandTruth(Truth):
    """A Truth keeping what each seat holds after its last action (``hands[row, seat]``, 0 before its
    first), from its observation and its action: less the card thrown, or with the card drawn (the
    pile's top, or the stock's next card, which the deal says)."""

    def __init__(self, deals: np.ndarray, round_ids: np.ndarray) -> None:
        super().__init__(deals, round_ids)
        self.hands = np.zeros((len(self.deals), SEATS), dtype=np.int64)

    def record(self, observation: Observation, actions: np.ndarray) -> None:
        rows = self.rows(np.asarray(observation.round_id, dtype=np.int64))
        actions = np.asarray(actions, dtype=np.int64)
        drawing = observation.phase == Phase.DRAW
        stock_card = self.deals[rows, NUM_CARDS - np.asarray(observation.stock_size, dtype=np.int64)]
        drawn = np.where(actions == DRAW_DISCARD, observation.top_discard, stock_card)
        thrown = actions - KNOCK * (actions >= KNOCK)
        after = np.where(drawing, observation.hand | card_bits(drawn), observation.hand & ~card_bits(thrown))
        self.hands[rows, np.asarray(observation.seat, dtype=np.int64)] = after

    def opponent_hands(self, observation: Observation) -> np.ndarray:
        """(n,) what each deciding seat's opponent holds: after its last action, or as dealt."""
        rows = self.rows(np.asarray(observation.round_id, dtype=np.int64))
        opponent = 1 - np.asarray(observation.seat, dtype=np.int64)
        recorded = self.hands[rows, opponent]
        deals = self.deals[rows].astype(np.int64)
        bits = card_bits(deals)
        last = rules.DEALT_CARDS - 1
        as_opener = np.bitwise_or.reduce(bits[:, 0:last:2], axis=1) | bits[:, last]
        as_dealer = np.bitwise_or.reduce(bits[:, 1:last:2], axis=1)
        dealt = np.where(opponent == np.asarray(observation.dealer), as_dealer, as_opener)
        return np.where(recorded != 0, recorded, dealt)


def truth_of(deals: np.ndarray, round_ids: np.ndarray) -> HandTruth:
    """The ``Truth`` of Gin Rummy hands: what each seat holds as play goes on."""
    return HandTruth(deals, round_ids)


@register("ginrummy", "oracle-mc", deterministic=True, cheating=True)
class OracleLookahead(Cheater, GinLookahead):
    """CHEATS: mc's lookahead in the true world (sees the opponent's hand and the stock); needs
    bind(truth_of(...)): see its module."""

    worlds_per_decision = 1  # the true world is the only one, and rollouts in it are deterministic

    def __init__(
        self,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        throws: Annotated[int, Between(1, rules.FIRST_HAND_SIZE)] = THROWS,
    ) -> None:
        super().__init__(rollout, throws)

    def worlds(self, observation: Observation) -> Worlds:
        truth: HandTruth = self.bound_truth()
        opponent = truth.opponent_hands(observation)
        if (opponent & (observation.hand | observation.discard_pile) != 0).any():
            raise RuntimeError("oracle-mc's Truth missed actions: play with the strategies Truth.watch returns")
        rows = truth.rows(np.asarray(observation.round_id, dtype=np.int64))
        stock_start = NUM_CARDS - np.asarray(observation.stock_size, dtype=np.int64)
        stock = truth.deals[rows] * (np.arange(NUM_CARDS) >= stock_start[:, None])
        return Worlds(opponent[:, None], stock[:, None, :].astype(np.int8))
