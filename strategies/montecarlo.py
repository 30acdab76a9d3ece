"""Monte-Carlo lookahead: determinize the hidden state, roll out every legal action, keep the best.

This is perfect-information Monte Carlo (Ginsberg's GIB): for each decision of a batch,

1. **candidates** — the legal actions of the deciding player;
2. **worlds** — ``samples`` full states consistent with everything that player has seen, drawn with
   a random generator of that decision alone, ``decision_rng(seed, *key)``, so a decision never
   depends on which other decisions share the batch (the reference engine asks one at a time, the
   fast engine many);
3. **rollouts** — every (decision, candidate, world) played to the end on the fast engine, the
   candidate forced and a rollout policy after it, as one batch;
4. **choice** — the rollout policy's own choice, unless the candidate with the best total value
   over the worlds beats it by at least ``confidence`` standard errors of the gain, paired world by
   world (ties go to the policy's choice, then to the lowest candidate index). Starting from the
   policy's choice is rollout policy improvement: with exact values the lookahead never does worse
   than the policy it rolls out; the confidence keeps sampling noise from passing for a gain.

A game subclasses ``MonteCarlo`` and supplies steps 1–3 and the policy's choice (``SlotLookahead``
supplies the choice where candidates are action slots); this module does the bookkeeping. Values
are integers (higher is better), so totals are exact, and every quantity a choice depends on is
computed from that decision's own rollouts: the batch makes no difference.

It also holds what every game's sampler and oracle share:

* **slots** — a world deals the cards its player has not seen into *slots* (a card some seat holds,
  a face-down discard, an undealt card), each with the cards it cannot take (a seat's revealed voids).
  ``draw_slot_cards`` fills them most constrained first, each with a uniform pick among the free
  cards it may take, and draws a world again when some slot finds no card: every world is consistent.
* **the oracle's hook** — observations never carry hidden cards, and the engines know of no oracle.
  The code running an evaluation makes a ``Truth`` of the deals it plays (by round id), wraps every
  seat's strategy with ``Truth.watch`` so what the actions actually taken reveal is recorded (a deal
  alone does not say which card was thrown face down, or what a seat holds after taking from the
  pile), and binds it to the cheating strategy.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim import jit
from sim.api import Strategy
from sim.cards import NUM_CARDS, count_cards
from strategies.policy import load_value

CARD_IDS = np.arange(NUM_CARDS, dtype=np.int64)
MAX_REDRAWS = 1000
NOT_YET = -2
"""A ``Truth``'s entry for an action not taken (yet)."""


def decision_rng(seed: int, *key: int) -> np.random.Generator:
    """The random generator of one decision, identified by ``key`` (e.g. round id, step, seat)."""
    return np.random.default_rng(np.random.SeedSequence([seed, *key]))


# splitmix64's constants (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014).
GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX_MULTIPLIERS = (np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))
MIX_SHIFTS = (np.uint64(30), np.uint64(27), np.uint64(31))
FLOAT_BITS = 53  # a float64's significand: 53 random bits give every multiple of 2**-53 in [0, 1)


def mix64(values: np.ndarray) -> np.ndarray:
    """splitmix64's finalizer on uint64 values: a bijection whose every output bit depends on every input bit."""
    mixed = (values ^ (values >> MIX_SHIFTS[0])) * MIX_MULTIPLIERS[0]
    mixed = (mixed ^ (mixed >> MIX_SHIFTS[1])) * MIX_MULTIPLIERS[1]
    return mixed ^ (mixed >> MIX_SHIFTS[2])


def decision_uniforms(seed: int, *keys: np.ndarray) -> np.ndarray:
    """One float64 in [0, 1) per row, a hash of ``seed`` (0 .. 2**64 - 1) and that row of each of
    ``keys`` (integer arrays of one shape, e.g. round ids and steps): the counter-based, vectorized
    counterpart of ``decision_rng(seed, *key).random()`` (not the same numbers).

    A row's number depends on nothing but its seed and keys, so a decision draws the same whatever
    else shares its batch. Keys are taken modulo 2**64 and folded in one after the other, each
    through a splitmix64 round, so their order matters.
    """
    shape = np.broadcast_shapes(*(np.shape(key) for key in keys))
    # Arrays throughout (never numpy scalars), so the wrap-around of uint64 products is silent.
    state = mix64(np.full(shape, seed, dtype=np.uint64).reshape(-1) + GOLDEN_GAMMA)
    for key in keys:
        state = mix64((state + GOLDEN_GAMMA) ^ np.broadcast_to(key, shape).astype(np.uint64).reshape(-1))
    bits = state >> np.uint64(64 - FLOAT_BITS)
    return (bits.astype(np.float64) * 2.0**-FLOAT_BITS).reshape(shape)


@dataclass(frozen=True)
class Rollouts:
    """Every (decision, candidate, world) to play out, decision-major, then candidate, then world."""

    decision: np.ndarray
    """(m,) the index of the decision (among those with a choice to make)."""
    candidate: np.ndarray
    """(m,) the candidate's index in its decision's candidate row."""
    world: np.ndarray
    """(m,) which of the decision's worlds it is played in."""


def plan_rollouts(candidates: np.ndarray, worlds: int) -> Rollouts:
    """The rollouts for ``candidates`` (d, A) bool: each true entry in each of ``worlds`` worlds."""
    decision, candidate = np.nonzero(candidates)
    return Rollouts(
        np.repeat(decision, worlds), np.repeat(candidate, worlds), np.tile(np.arange(worlds), len(decision))
    )


def best_candidates(
    candidates: np.ndarray, rollouts: Rollouts, values: np.ndarray, preferred: np.ndarray, confidence: float
) -> np.ndarray:
    """(d,) per decision the candidate whose rollouts have the highest total value, if it beats ``preferred``.

    The best candidate (ties to ``preferred``, then to the lowest index) replaces ``preferred`` (d,)
    only when its mean gain, paired world by world, is at least ``confidence`` standard errors: with
    few worlds, a small gain is mostly sampling noise. (One world per decision means exact values.)
    """
    decisions, width = candidates.shape
    worlds = int(rollouts.world.max()) + 1
    table = np.zeros((decisions, width, worlds), dtype=np.int64)
    table[rollouts.decision, rollouts.candidate, rollouts.world] = values
    totals = table.sum(axis=2)
    totals[~candidates] = np.iinfo(np.int64).min
    rows = np.arange(decisions)
    best_total = totals == totals.max(axis=1, keepdims=True)
    best = np.where(best_total[rows, preferred], preferred, np.argmax(best_total, axis=1))
    gain = (table[rows, best] - table[rows, preferred]).astype(np.float64)
    mean = gain.mean(axis=1)
    spread = gain.std(axis=1, ddof=1) if worlds > 1 else np.zeros(decisions)
    significant = (mean > 0) & (mean * np.sqrt(worlds) >= confidence * spread)
    return np.where(significant, best, preferred)


LEAF_SCALE = 1024
"""With learned leaves a lookahead's values are in 1/1024ths (``value_scale``): a leaf's value is no
whole number of points, and values stay integers, as the lookahead sums them."""


def leaf_margins(
    make_tables: Callable[[np.ndarray, list[Strategy]], Any],
    seat: np.ndarray,
    lineup_of: Callable[[int], list[Strategy]],
    leaf_turns: int,
    leaves: Any,
    lower_is_better: bool,
) -> np.ndarray:
    """(n,) float64 each rollout's margin for its deciding ``seat`` (its points, negated where fewer
    win, less the mean of the other seats'), the rollouts of a decider's rows played on by
    ``make_tables(rows, seats)`` (``sim.vecenv.Tables`` at their decisions) with ``lineup_of(decider)``
    until the decider has been to move ``leaf_turns`` times: the margin scored so far plus ``leaves``'
    value (a ``SavedValue``) of the margin to come, as the decider sees the position; a round that
    ends first, its margin.

    Learned leaves: a rollout cut short and valued by a network rather than played to its end."""
    margins = np.empty(len(seat))
    for decider in np.unique(seat):
        rows = np.flatnonzero(seat == decider)
        lineup = lineup_of(int(decider))
        tables = functools.partial(make_tables, rows)
        margins[rows] = _margins_at_leaves(tables, len(rows), int(decider), lineup, leaf_turns, leaves, lower_is_better)
    return margins


def _margins_at_leaves(
    make_tables: Callable[[list[Strategy]], Any],
    count: int,
    decider: int,
    lineup: Sequence[Strategy],
    leaf_turns: int,
    leaves: Any,
    lower_is_better: bool,
) -> np.ndarray:
    """``leaf_margins`` for ``count`` rollouts of one ``decider``."""
    from sim import lockstep
    from sim.vecenv import Learner

    seats: list[Strategy] = list(lineup)
    seats[decider] = Learner()  # the tables pause whenever it is to move
    tables = make_tables(seats)
    every = np.arange(count)
    rows, at_leaf, turns = every, [], np.zeros(len(every), dtype=np.int64)
    while rows.size:
        paused = tables.advance(rows)
        mover = tables.mover(paused)
        ours = mover == decider
        turns[paused[ours]] += 1
        leaf_now = ours & (turns[paused] == leaf_turns)
        at_leaf.append(paused[leaf_now])
        rows, mover = paused[~leaf_now], mover[~leaf_now]
        for seat in np.unique(mover):  # a seat played in numpy (or ours, before its last turn) is asked here
            asked = rows[mover == seat]
            observation = tables.observe(asked)
            chosen = lockstep.choose_checked(lineup[int(seat)], observation, observation.legal_mask, None, int(seat))
            tables.take(asked, chosen)
    leaf = np.concatenate(at_leaf)
    ended = np.setdiff1d(every, leaf, assume_unique=True)
    points = np.zeros((count, len(lineup)))
    points[ended] = tables.points(ended)
    points[leaf] = tables.scored(leaf)  # what is scored so far
    signed = -points if lower_is_better else points
    margin = signed[:, decider] - (signed.sum(axis=1) - signed[:, decider]) / (len(lineup) - 1)
    if leaf.size:
        margin[leaf] += leaves.values(tables.encoded(leaf)[0])
    return margin


class MonteCarlo(ABC):
    """The lookahead loop; a game says what the candidates are and how to play them out."""

    worlds_per_decision: int
    confidence: float = 0.0
    value_scale: int = 1
    """Rollout values are in units of 1 / value_scale (integers, so totals are exact); explanations divide."""
    leaves: Any = None
    """The learned leaves' value network (``use_leaves``), or None: rollouts played to their end."""
    leaf_turns: int = 1
    """With learned leaves: the times the deciding seat is to move in a rollout before it is valued there."""

    def use_leaves(self, game: str, leaves: str, leaves_sha256: str = "") -> None:
        """Value rollouts at learned leaves: ``leaves``, a value file of ``game`` (checked against
        ``leaves_sha256`` if given), or none when empty. A leaf's value is no whole number of points,
        so values are then in 1/``LEAF_SCALE`` units."""
        self.leaves = load_value(game, leaves, leaves_sha256) if leaves else None
        if self.leaves is not None:
            self.value_scale = LEAF_SCALE

    def choose(self, observation: Any) -> np.ndarray:
        """One action per observation row: its only candidate, or the best one by lookahead."""
        candidates = self.candidates(observation)
        choice = np.argmax(candidates, axis=1)  # the first candidate, right when it is the only one
        deciding = np.flatnonzero(candidates.sum(axis=1) > 1)
        if deciding.size:
            rollouts = plan_rollouts(candidates[deciding], self.worlds_per_decision)
            values = self.roll_out(observation, deciding, rollouts)
            preferred = self.policy_candidate(observation, deciding)
            choice[deciding] = best_candidates(candidates[deciding], rollouts, values, preferred, self.confidence)
        return self.action(observation, choice)

    def position_values(self, observation: Any) -> np.ndarray:
        """(n,) float64 each row's value by the lookahead, in the values' units (``value_scale``
        divided out): the mean over its worlds of the candidate ``choose`` plays, a single candidate's too."""
        candidates = self.candidates(observation)
        every = np.arange(len(candidates))
        rollouts = plan_rollouts(candidates, self.worlds_per_decision)
        values = self.roll_out(observation, every, rollouts)
        choice = best_candidates(
            candidates, rollouts, values, self.policy_candidate(observation, every), self.confidence
        )
        totals = np.zeros(candidates.shape, dtype=np.int64)
        np.add.at(totals, (rollouts.decision, rollouts.candidate), values)
        return totals[every, choice] / (self.worlds_per_decision * self.value_scale)

    def candidate_values(self, observation: Any) -> list[tuple[int, float, float]]:
        """Why the decision of the observation's first row goes as it does: each candidate's action,
        the mean value of its rollouts and the half-width of that mean's 95% confidence interval
        (normal approximation), best mean first; empty when there is a single candidate. The worlds
        are those ``choose`` deals for the decision (the rollouts are played again)."""
        every_row = self.candidates(observation)
        candidates = every_row[:1]
        slots = np.flatnonzero(candidates[0])
        if len(slots) < 2:
            return []
        rollouts = plan_rollouts(candidates, self.worlds_per_decision)
        values = self.roll_out(observation, np.zeros(1, dtype=np.int64), rollouts) / self.value_scale
        values = values.reshape(len(slots), self.worlds_per_decision)  # candidate-major, as planned
        means = values.mean(axis=1)
        spread = values.std(axis=1, ddof=1) if self.worlds_per_decision > 1 else np.zeros(len(slots))
        widths = 1.96 * spread / np.sqrt(self.worlds_per_decision)
        actions = [int(self.action(observation, np.full(len(every_row), slot))[0]) for slot in slots]
        found = zip(actions, means.tolist(), widths.tolist())
        return sorted(found, key=lambda row: -row[1])

    @abstractmethod
    def candidates(self, observation: Any) -> np.ndarray:
        """(n, A) bool: which of the A action slots of each row are legal."""

    @abstractmethod
    def roll_out(self, observation: Any, deciding: np.ndarray, rollouts: Rollouts) -> np.ndarray:
        """(m,) int64 the deciding player's value (higher is better) of each rollout.

        ``deciding`` holds the observation rows the rollouts' ``decision`` indexes refer to.
        """

    @abstractmethod
    def policy_candidate(self, observation: Any, deciding: np.ndarray) -> np.ndarray:
        """(d,) the candidate index the rollout policy itself would choose in the rows ``deciding``."""

    @abstractmethod
    def action(self, observation: Any, choice: np.ndarray) -> np.ndarray:
        """(n,) the actions at the chosen candidate slots."""


class SlotLookahead(MonteCarlo):
    """A lookahead whose candidates are the game's action slots (a candidate's index is its action),
    preferring the rollout ``policy``'s own choice."""

    policy: Strategy

    def policy_candidate(self, observation: Any, deciding: np.ndarray) -> np.ndarray:
        return np.asarray(self.policy.choose(observation.take(deciding)), dtype=np.int64)

    def action(self, observation: Any, choice: np.ndarray) -> np.ndarray:
        return choice.astype(np.int64)


# --------------------------------------------------------------------------- sampling worlds


def most_constrained_first(is_slot: np.ndarray, void: np.ndarray, pool: np.ndarray, keep: int) -> np.ndarray:
    """(d, keep) column order: slots before non-slots, then by how many ``pool`` cards a slot cannot take."""
    excluded = np.bitwise_count(void & pool[:, None]).astype(np.int64)
    columns = np.arange(is_slot.shape[1])
    key = (~is_slot) * (1 << 20) + (NUM_CARDS - excluded) * (1 << 10) + columns
    return np.argsort(key, axis=1)[:, :keep]


def fill_slots(
    pool: np.ndarray, void: np.ndarray, is_slot: np.ndarray, uniform: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Fill each row's slots in column order from the card mask ``pool`` (n,).

    A slot takes the free card at fraction ``uniform`` (n, K) of the free cards outside its ``void``
    (card ids ascending). Returns the cards (n, K) int64, -1 where no slot, and whether each row got
    all its slots filled.
    """
    cards = np.full(void.shape, -1, dtype=np.int64)
    filled = np.ones(len(pool), dtype=bool)
    _fill_rows(np.asarray(pool, np.int64), np.asarray(void, np.int64), is_slot, uniform, cards, filled)
    return cards, filled


@jit.njit(cache=True, nogil=True)
def _fill_rows(pool, void, is_slot, uniform, cards, filled):  # pragma: no cover - compiled
    """``fill_slots``, row by row: a row stops at its first slot that finds no card."""
    for row in range(len(pool)):
        free = pool[row]
        for column in range(void.shape[1]):
            if not is_slot[row, column]:
                continue
            allowed = free & ~void[row, column]
            count = count_cards(allowed)
            if count == 0:
                filled[row] = False
                break
            for _ in range(np.int64(uniform[row, column] * count)):  # drop the lower cards
                allowed &= allowed - 1
            card = count_cards((allowed & -allowed) - 1)  # the lowest card left: the bits below it
            cards[row, column] = card
            free &= ~(np.int64(1) << card)


def card_bits(cards: np.ndarray) -> np.ndarray:
    """The int64 single-card masks of card ids, 0 for negative ids (``DISCARDED``, ``NOT_YET``)."""
    return np.where(cards >= 0, np.left_shift(np.int64(1), np.maximum(cards, 0)), np.int64(0))


def draw_slot_cards(
    unseen: np.ndarray, slot_void: np.ndarray, is_slot: np.ndarray, rngs: Sequence[np.random.Generator], samples: int
) -> np.ndarray:
    """(d, samples, K) int64 the ``unseen`` cards (d,) dealt to each row's slots in ``samples`` worlds, -1
    where no slot. ``slot_void`` (d, K) are the cards each slot cannot take, ``is_slot`` (d, K) which
    columns are slots (as many per row as unseen cards), most constrained first.

    Row ``r`` draws only from ``rngs[r]``: its worlds do not depend on the other rows.
    """
    slots = is_slot.shape[1]
    pool = np.repeat(unseen, samples)
    void = np.repeat(slot_void, samples, axis=0)
    is_slot = np.repeat(is_slot, samples, axis=0)
    uniform = np.concatenate([rng.random((samples, slots)) for rng in rngs])
    cards, filled = fill_slots(pool, void, is_slot, uniform)
    for _ in range(MAX_REDRAWS):
        if filled.all():
            return cards.reshape(len(rngs), samples, slots)
        again = np.flatnonzero(~filled)  # ascending, so grouped by row in row order
        rows, counts = np.unique(again // samples, return_counts=True)
        uniform = np.concatenate([rngs[row].random((count, slots)) for row, count in zip(rows, counts)])
        cards[again], filled[again] = fill_slots(pool[again], void[again], is_slot[again], uniform)
    raise RuntimeError(f"no consistent world found in {MAX_REDRAWS} draws for some decision")


def likeliest_worlds(mismatches: np.ndarray, keep: int) -> np.ndarray:
    """(d, keep) which of each decision's drawn worlds to keep, given (d, drawn) counts of how often
    the world contradicts what was seen: the fewest contradictions, the first drawn first."""
    return np.argsort(mismatches, axis=1, kind="stable")[:, :keep]  # stable: ties stay in draw order


def weighted_worlds(
    mismatches: np.ndarray, softness: float, keep: int, rngs: Sequence[np.random.Generator]
) -> np.ndarray:
    """(d, keep) which of each decision's drawn worlds to keep: ``keep`` of the (d, drawn) without
    replacement, each with probability proportional to ``softness ** mismatches`` (0 < softness <= 1:
    the chance a modelled seat strays from its model at a judged action), drawn from row ``r``'s own
    ``rngs[r]`` (Gumbel top-k sampling)."""
    log_weight = mismatches * np.log(softness)
    gumbel = np.stack([-np.log(-np.log(rng.random(mismatches.shape[1]))) for rng in rngs])
    return np.argsort(-(log_weight + gumbel), axis=1, kind="stable")[:, :keep]


# --------------------------------------------------------------------------- the oracle's hook


class Truth(ABC):
    """The oracle's hook: the true deals by round id, and what the actions actually taken reveal.

    Make one for the deals an evaluation plays (a game's ``truth_of``), play with the strategies
    ``watch`` returns (every seat's, so no action is missed) and ``bind`` it to the cheating strategy.
    Round ids must be unique. A game's kind of Truth says what it keeps of each action (``record``).
    """

    def __init__(self, deals: np.ndarray, round_ids: np.ndarray) -> None:
        self.deals = np.asarray(deals, dtype=np.int8)
        self.round_ids = np.asarray(round_ids, dtype=np.int64)
        if len(np.unique(self.round_ids)) != len(self.round_ids) or len(self.round_ids) != len(self.deals):
            raise ValueError("a Truth needs one unique round id per deal")
        self._by_id = np.argsort(self.round_ids)

    def rows(self, round_ids: np.ndarray) -> np.ndarray:
        """The rows of these round ids; KeyError for a round this Truth does not hold."""
        sorted_ids = self.round_ids[self._by_id]
        at = np.minimum(np.searchsorted(sorted_ids, round_ids), len(sorted_ids) - 1)
        rows = self._by_id[at]
        if len(rows) and (self.round_ids[rows] != round_ids).any():
            raise KeyError(f"rounds {sorted(set(round_ids.tolist()) - set(self.round_ids.tolist()))} are unknown")
        return rows

    def watch(self, seats: Sequence[Strategy]) -> list[Strategy]:
        """The seats' strategies, each recording its actions here (one witness per distinct strategy)."""
        witnesses = {id(strategy): Witness(strategy, self) for strategy in seats}
        return [witnesses[id(strategy)] for strategy in seats]

    @abstractmethod
    def record(self, observation: Any, actions: np.ndarray) -> None:
        """Keep what the ``actions`` taken at ``observation``'s decisions reveal."""


class ActionTruth(Truth):
    """A Truth keeping every action taken: ``actions[row, step]`` is the action taken at
    ``step_of(observation)`` (< ``steps``) of that round, ``NOT_YET`` before it is taken."""

    def __init__(
        self, deals: np.ndarray, round_ids: np.ndarray, steps: int, step_of: Callable[[Any], np.ndarray]
    ) -> None:
        super().__init__(deals, round_ids)
        self.step_of = step_of
        self.actions = np.full((len(self.deals), steps), NOT_YET, dtype=np.int8)

    def record(self, observation: Any, actions: np.ndarray) -> None:
        self.actions[self.rows(observation.round_id), self.step_of(observation)] = actions


class Cheater:
    """What every oracle shares: a Truth bound to it (``bind``), which it needs to decide."""

    truth: Any = None
    truth_of: Callable[[np.ndarray, np.ndarray], ActionTruth] | None = None
    """The game's ``truth_of`` where its Truth keeps every action taken (``bind_records``)."""

    def bind(self, truth: Truth) -> None:
        """See the true deals, and what the actions taken reveal, of ``truth`` from now on."""
        self.truth = truth

    def bind_records(self, deals: np.ndarray, round_ids: np.ndarray, actions: np.ndarray) -> None:
        """``bind`` the Truth of rounds whose every action is known (a batched environment's
        ``true_records``): each one's deal and the action taken at each step, negative where none was."""
        if self.truth_of is None:
            raise TypeError(f"{type(self).__name__} is bound to a Truth of its own kind, not to records of actions")
        truth = self.truth_of(deals, round_ids)
        truth.actions[:] = np.where(actions < 0, NOT_YET, actions)
        self.bind(truth)

    def bound_truth(self) -> Any:
        """The Truth bound, or RuntimeError saying how to bind one."""
        if self.truth is None:
            raise RuntimeError(
                "oracle-mc cheats with the true deals: bind(truth_of(...)) it and play its watch()ed seats"
            )
        return self.truth


class Witness:
    """Plays like ``inner`` and records each action it takes in a Truth."""

    def __init__(self, inner: Strategy, truth: Truth) -> None:
        self.inner = inner
        self.truth = truth
        self.name = getattr(inner, "name", type(inner).__name__)

    def choose(self, observation: Any) -> np.ndarray:
        actions = self.inner.choose(observation)
        self.truth.record(observation, np.asarray(actions))
        return actions
