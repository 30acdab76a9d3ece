"""Monte-Carlo lookahead with inference from every action of the opponent, for Gin Rummy (``search``).

``search`` is mc's lookahead (``strategies.ginrummy.mc``: the candidates, the rollouts on the fast
engine, the gate of ``confidence`` standard errors over the rollout policy's choice) with its worlds
chosen otherwise. mc keeps the worlds in which the rollout policy would have thrown the opponent's
last throw; ``search`` draws ``oversample`` worlds per world kept and asks the rollout policy, holding
each world's opponent hand, about every action of the opponent the observation shows (``judge``):

* **throws** (``throws`` and up): for each card the opponent threw this hand, would the policy,
  holding the world's hand and that card, have thrown it (not another card, not a knock)?
* **passes** (``passes`` and up): for each card we threw that the opponent left on the pile (in the
  pile and never thrown by it, so never taken), would the policy have drawn from the stock?
* **takes** (``all``): for each card it took from the pile and still holds, would the policy, holding
  the world's hand without it, have taken it?

A world's mismatches are how many of these the policy would have done otherwise. The worlds kept are
the ``samples`` with the fewest, first drawn first (``softness`` 0: ``likeliest_worlds``), or drawn
with weights ``softness ** mismatches`` (``weighted_worlds``: the chance the opponent strays from the
model at an action). ``judge=last`` judges the last throw alone, as mc does (the same worlds).

**An approximation.** The observation holds the sets of cards thrown and taken, not their order, so
the hand the opponent held at an earlier action is unknown: every action is judged against the
world's hand now (with the card thrown added back, or the card taken left out), and the rest of what
the opponent saw then (the pile, the cards thrown, the stock's size) is taken to be what it sees now.
The last throw is judged exactly so; an early throw of a card that the opponent's later draws would
have melded reads as a mismatch even in the true world (which ``softness`` allows for).

The judging is one compiled kernel (``_count_mismatches``) calling the rollout policy, which must be
compiled; a world's count stops once it is above every world that could be kept. Worlds are drawn
from each decision's own generator (mc's ``decision_rng`` keys), so a decision does not depend on
which others share the batch. The defaults (256 worlds, 128 drawn per world kept, every action
judged, hard rejection) are measured in docs/ginrummy.md, "search". ``value="game"`` values a rollout
by the chance of winning the game to 100 from the score it leaves (``strategies.game_chances``)
instead of the hand's points.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import numpy as np
from numba import types

from sim import jit, lockstep
from sim.cards import NUM_CARDS, count_cards
from sim.ginrummy import policies, rules
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, NONE, POLICY, SETTINGS, Observation, Phase
from strategies import SEED_MAX, Between, DigestOf, NestedSpec, OneOf, StrategyError, register
from strategies.game_chances import VALUES, game_values, lookahead_chances
from strategies.ginrummy.mc import (
    MAX_LEAF_TURNS,
    MAX_OVERSAMPLE,
    MAX_SAMPLES,
    THROWS,
    MonteCarloLookahead,
    Worlds,
    decision_keys,
    draw_keys,
    last_throws,
    opponent_hands,
    stocks,
)
from strategies.montecarlo import card_bits, decision_rng, likeliest_worlds, weighted_worlds
from strategies.policy import MAX_POLICY_BYTES

if TYPE_CHECKING:
    from sim.ginrummy.fast import HandStates

JUDGED = ("last", "throws", "passes", "all")
"""What ``judge`` may say, each judging what the one before does and more (see the module)."""
KEYS_AT_ONCE = 1 << 20  # sort keys drawn for a slice of decisions at a time (8 bytes each)
_DRAW, _DISCARD = int(Phase.DRAW), int(Phase.DISCARD)
HAND_OUTCOMES = Path(__file__).with_name("hand_outcomes.csv")  # python -m experiments.hand_outcomes --game ginrummy


def judged_actions(observation: Observation, judge: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n,) card masks per row of the opponent's actions ``judge`` looks at: the cards it threw, the
    cards of ours it left on the pile, the cards it took from the pile and still holds."""
    o = observation
    none = np.zeros(len(o), dtype=np.int64)
    if judge == "last":
        return card_bits(last_throws(o)), none, none
    threw = np.asarray(o.opponent_threw, dtype=np.int64)
    # Each of our throws was offered to the opponent at its next draw; one still in the pile that it
    # never threw itself was never taken.
    passed = o.threw & o.discard_pile & ~o.opponent_threw if judge != "throws" else none
    took = np.asarray(o.opponent_took, dtype=np.int64) if judge == "all" else none
    return threw, passed, took


def count_mismatches(
    observation: Observation, opponents: np.ndarray, judge: str, policy: object, keep: int = 0
) -> np.ndarray:
    """(d, w) int64: how many of the opponent's actions ``judge`` looks at (``judged_actions``) the
    compiled ``policy`` would have taken otherwise, holding each world's opponent hand (``opponents``
    (d, w)) as the module says. With ``keep`` > 0, a world's count stops once it is above the
    ``keep``-th least of the worlds before it: ``likeliest_worlds(counts, keep)`` keeps the same worlds
    (a count cut short is still above every world kept), at a fraction of the policy's calls."""
    compiled = getattr(policy, "compiled", None)
    if compiled is None:
        raise StrategyError("search judges worlds with a compiled rollout policy (heuristic, simple, cs340)")
    o = observation
    # What the opponent saw when it last threw: the seat's view now, with the stock as it was then.
    stock_size = o.stock_size + (o.taken == NONE) * (o.phase == Phase.DISCARD)
    rows = (*judged_actions(o, judge), o.discard_pile, o.took, o.opponent_took, o.threw, o.opponent_threw, stock_size)
    mismatches = np.empty(opponents.shape, dtype=np.int64)
    _COUNT_MISMATCHES_ENTRY(
        np.ascontiguousarray(opponents, dtype=np.int64),
        *(np.ascontiguousarray(values, dtype=np.int64) for values in rows),
        policies.kind_of(compiled.function),
        lockstep.policy_address(compiled.function, POLICY.signature),
        compiled.arguments,
        keep,
        mismatches,
    )
    return mismatches


_ROW = types.Array(types.int64, 1, "C", readonly=True)
_COUNT_MISMATCHES = types.void(
    types.Array(types.int64, 2, "C", readonly=True),
    *(_ROW,) * 9,
    types.int64,  # the policy's kind (sim.ginrummy.policies)
    POLICY,  # the policy, called through its address when not built in
    SETTINGS,
    types.int64,
    types.int64[:, :],
)


@jit.njit(_COUNT_MISMATCHES, cache=True, nogil=True)
def _count_mismatches(
    opponents, thrown, passed, taken, discard_pile, took, opponent_took, threw, opponent_threw, stock_size, kind,
    policy, settings, keep, mismatches,
):  # fmt: skip
    """``mismatches[row, world]``: how many of the row's ``thrown``, ``passed`` and ``taken`` cards the
    ``policy`` (of ``kind``), holding the world's opponent hand, would have thrown, passed or taken otherwise; with
    ``keep`` > 0, cut short once above ``most``, the ``keep``-th least count of the worlds before."""
    worlds_at = np.zeros(NUM_CARDS + 2, dtype=np.int64)  # how many worlds counted each number, up to most
    for row in range(opponents.shape[0]):
        most = count_cards(thrown[row]) + count_cards(passed[row]) + count_cards(taken[row])
        worlds_at[:] = 0
        at_most = 0  # worlds counting most or fewer
        for world in range(opponents.shape[1]):
            hand = opponents[row, world]
            count = 0
            cards = thrown[row]
            while cards and count <= most:
                bit = cards & -cards
                cards ^= bit
                action = policies.decide(
                    kind, policy, _DISCARD, hand | bit, NONE, discard_pile[row] & ~bit, opponent_took[row], took[row],
                    opponent_threw[row] & ~bit, threw[row], NONE, stock_size[row], settings,
                )  # fmt: skip
                count += action != count_cards(bit - 1)
            for cards, wanted in ((passed[row], DRAW_STOCK), (taken[row], DRAW_DISCARD)):
                while cards and count <= most:
                    bit = cards & -cards
                    cards ^= bit
                    action = policies.decide(
                        kind, policy, _DRAW, hand & ~bit, count_cards(bit - 1), discard_pile[row] | bit,
                        opponent_took[row] & ~bit, took[row], opponent_threw[row], threw[row], NONE, stock_size[row],
                        settings,
                    )  # fmt: skip
                    count += action != wanted
            mismatches[row, world] = count
            if keep > 0 and count <= most:
                worlds_at[count] += 1
                at_most += 1
                while most > 0 and at_most - worlds_at[most] >= keep:
                    at_most -= worlds_at[most]
                    most -= 1


_COUNT_MISMATCHES_ENTRY = lockstep.entry_point(_count_mismatches, _COUNT_MISMATCHES)


@register("ginrummy", "search", deterministic=True)
class InferenceSearch(MonteCarloLookahead):
    """mc's lookahead in worlds judged by every action of the opponent (see the module)."""

    def __init__(
        self,
        samples: Annotated[int, Between(2, MAX_SAMPLES)] = 256,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        seed: Annotated[int, Between(0, SEED_MAX)] = 0,
        confidence: Annotated[float, Between(0.0, 100.0)] = 2.0,
        oversample: Annotated[int, Between(1, MAX_OVERSAMPLE)] = 128,
        throws: Annotated[int, Between(1, rules.FIRST_HAND_SIZE)] = THROWS,
        softness: Annotated[float, Between(0.0, 1.0)] = 0.0,
        judge: Annotated[str, OneOf(JUDGED)] = "all",
        value: Annotated[str, OneOf(VALUES)] = "points",
        leaves: str = "",
        leaves_sha256: Annotated[str, DigestOf("leaves", MAX_POLICY_BYTES, "value file")] = "",
        leaf_turns: Annotated[int, Between(1, MAX_LEAF_TURNS)] = 1,
    ) -> None:
        if leaves and value != "points":
            raise StrategyError(f"learned leaves value the hand's points: value must be points, not {value!r}")
        self.chances, self.value_scale = lookahead_chances(value, HAND_OUTCOMES, rules.GAME_TARGET)
        super().__init__(samples, rollout, seed, confidence, oversample, throws, leaves, leaves_sha256, leaf_turns)
        if getattr(self.policy, "compiled", None) is None:
            raise StrategyError(f"search judges worlds with a compiled rollout policy, and {rollout!r} is not one")
        self.softness = softness
        self.judge = judge

    def values(self, states: HandStates, points: np.ndarray) -> np.ndarray:
        if self.chances is None:
            return super().values(states, points)
        rows, seat = np.arange(len(points)), states.mover.astype(np.int64)
        ours = states.scores[rows, seat] + points[rows, seat]
        theirs = states.scores[rows, 1 - seat] + points[rows, 1 - seat]
        void = points.sum(axis=1) == 0  # nobody scored: the same dealer deals again; else the deal passes
        next_dealer = np.where(void, states.dealer, 1 - states.dealer)
        return game_values(self.chances, ours, theirs, next_dealer == seat)

    def worlds(self, observation: Observation) -> Worlds:
        rngs = [decision_rng(self.seed, *key) for key in decision_keys(observation)]
        drawn = self.worlds_per_decision * self.oversample
        step = max(1, KEYS_AT_ONCE // (drawn * NUM_CARDS))
        chosen = []
        for start in range(0, len(observation), step):
            rows = np.arange(start, min(start + step, len(observation)))
            chosen.append(self.kept_keys(observation.take(rows), rngs[start : start + step], drawn))
        keys = np.concatenate(chosen)
        return Worlds(opponent_hands(observation, keys), stocks(observation, keys))

    def kept_keys(self, observation: Observation, rngs: list[np.random.Generator], drawn: int) -> np.ndarray:
        """(n, samples, 52) the sort keys of the worlds kept of ``drawn`` per row (see the module)."""
        keys = draw_keys(observation, rngs, drawn)
        if self.oversample == 1:
            return keys
        hands = opponent_hands(observation, keys)
        keep = self.worlds_per_decision if self.softness == 0.0 else 0  # cut counts short where they cannot matter
        mismatches = count_mismatches(observation, hands, self.judge, self.policy, keep)
        if self.softness == 0.0:
            kept = likeliest_worlds(mismatches, self.worlds_per_decision)
        else:
            kept = weighted_worlds(mismatches, self.softness, self.worlds_per_decision, rngs)
        return np.take_along_axis(keys, kept[:, :, None], axis=1)
