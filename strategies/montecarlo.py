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

A game subclasses ``MonteCarlo`` and supplies steps 1–3 and the policy's choice; this module does
the bookkeeping. Values are integers (higher is better), so totals are exact, and every quantity a
choice depends on is computed from that decision's own rollouts: the batch makes no difference.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import numpy as np


def decision_rng(seed: int, *key: int) -> np.random.Generator:
    """The random generator of one decision, identified by ``key`` (e.g. round id, step, seat)."""
    return np.random.default_rng(np.random.SeedSequence([seed, *key]))


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


class MonteCarlo(ABC):
    """The lookahead loop; a game says what the candidates are and how to play them out."""

    worlds_per_decision: int
    confidence: float = 0.0

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
