"""Solver-backed search for Euchre (``search``): mc's sampled worlds, each judged by an exact solver.

``search`` is mc's lookahead (``strategies.euchre.mc``) with the evaluation of a world changed. mc
plays each candidate out with heuristic players, so a world's value is what heuristic card play would
make of it; ``search`` solves the tricks of every world exactly, open-handed
(``strategies.euchre.solver``), so a value is what the cards are worth under best play by both sides:

* **a card to play**: one solve of the world at the decision gives every legal card's tricks;
* **a bid or the dealer's discard**: the hand is played on from the candidate by the rollout policies
  (the bidding and the dealer's discard as mc models them), and the tricks are solved from the first
  lead (``bids="solver"``); or, as mc does, the whole hand is played out by the policies
  (``bids="rollout"``), since an open-handed solver sees every card and so values contracts too
  boldly (the published solver-backed Euchre players always pick up a bower); or the trained bid
  table decides where its gain is clear and the solver elsewhere (``bids="table"``,
  ``strategies.euchre.bids``: offline self-play on the compiled engine).

A world's value is our team's points minus theirs: a hand's points grow with a team's tricks, so
solving for tricks solves for points. With ``value="game"`` it is instead our team's chance of
winning the game from the score the hand leaves (``strategies.game_chances``): the same tricks,
weighed by what they are worth at this score. Worlds are mc's: dealt consistently with what the seat saw and
judged by how well the models of the other seats explain their actions (inference); ``softness``
turns mc's choice of the best-explained worlds into a draw weighted by ``softness ** mismatches``
(0: mc's choice; larger: less trust in the models). The choice rule is mc's: the rollout policy's own
choice unless a candidate beats it by ``confidence`` standard errors, paired world by world.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import numpy as np

from sim import jit
from sim.euchre import rules
from sim.euchre.observation import BIDS, DISCARD_STEP, FIRST_CARD_STEP, NONE, ORDER_UP, PASS, Observation, Phase
from strategies import SEED_MAX, Between, NestedSpec, OneOf, register
from strategies.euchre.bids import BidTable
from strategies.euchre.mc import (
    DEAL_POSITIONS,
    MAX_OVERSAMPLE,
    MAX_SAMPLES,
    SEATS,
    TEAM_ROLLOUT,
    MonteCarloLookahead,
    Worlds,
    fast_engine,
    lineups,
    script_step,
)
from strategies.euchre.solver import solve_moves
from strategies.game_chances import VALUES, game_values, lookahead_chances
from strategies.montecarlo import Rollouts, weighted_worlds

HAND = rules.HAND_SIZE
TRICKS = rules.TRICKS_PER_HAND
MAJORITY = TRICKS // 2 + 1
BID_EVALUATIONS = ("solver", "rollout", "table")
HAND_OUTCOMES = Path(__file__).with_name("hand_outcomes.csv")  # python -m experiments.hand_outcomes --game euchre
TABLE_CONFIDENCE = 2.0  # standard errors a trained bid's gain must clear
TABLE_LEAST = 200  # decisions a bucket must have been trained on
_STRENGTH = rules.STRENGTH.astype(np.int64)
_EFFECTIVE_SUIT = rules.EFFECTIVE_SUIT.astype(np.int64)


@jit.njit(cache=True, nogil=True)
def _replay(
    deals, scripts, dealers, lengths, hands, trumps, makers, leaders, tricks, trick_cards
):  # pragma: no cover - compiled
    """Each hand replayed from its deal by its script's first ``lengths`` actions: every seat's cards,
    trump, the makers' team, the current trick's leader, its cards so far and the tricks each team took."""
    for row in range(len(deals)):
        dealer = dealers[row]
        positions = DEAL_POSITIONS[dealer]
        for seat in range(SEATS):
            held = np.int64(0)
            for place in range(HAND * seat, HAND * seat + HAND):
                held |= np.int64(1) << deals[row, positions[place]]
            hands[row, seat] = held
        upcard = deals[row, rules.UPCARD_POSITION]
        trumps[row] = -1
        makers[row] = -1
        for step in range(min(lengths[row], BIDS)):
            bid = scripts[row, step]
            if bid != NONE and bid != PASS:
                trumps[row] = bid - ORDER_UP
                makers[row] = ((dealer + 1 + step) & 3) & 1
                if step < SEATS:  # ordered up in round one: the dealer takes the upcard
                    hands[row, dealer] |= np.int64(1) << upcard
                break
        if lengths[row] > DISCARD_STEP and scripts[row, DISCARD_STEP] != NONE:
            hands[row, dealer] &= ~(np.int64(1) << scripts[row, DISCARD_STEP])
        leader = (dealer + 1) & 3
        tricks[row, 0] = 0
        tricks[row, 1] = 0
        trick_cards[row, :] = -1
        trump = trumps[row]
        played = 0
        best_place, best_strength, led = 0, -1, 0
        for step in range(FIRST_CARD_STEP, lengths[row]):
            card = scripts[row, step]
            seat = (leader + played) & 3
            hands[row, seat] &= ~(np.int64(1) << card)
            if played == 0:
                led = _EFFECTIVE_SUIT[trump, card]
            strength = _STRENGTH[trump, led, card]
            if strength > best_strength:
                best_place, best_strength = played, strength
            if played < SEATS - 1:
                trick_cards[row, played] = card
                played += 1
            else:
                leader = (leader + best_place) & 3
                tricks[row, leader & 1] += 1
                trick_cards[row, :] = -1
                played, best_place, best_strength = 0, 0, -1
        leaders[row] = leader


def replay_scripts(deals: np.ndarray, scripts: np.ndarray, dealers: np.ndarray, lengths: np.ndarray):
    """The state after the first ``lengths`` (n,) script actions of each hand (``scripts`` (n, SCRIPT_STEPS)
    from ``deals`` (n, 24) dealt by ``dealers``): hands (n, 4) card masks, trump (n,), the makers'
    team (n,), the current trick's leader (n,), its cards (n, 3) (-1: none) and tricks by team (n, 2);
    trump and makers are -1 before trump is made."""
    size = len(deals)
    hands = np.empty((size, SEATS), dtype=np.int64)
    trumps, makers, leaders = (np.empty(size, dtype=np.int64) for _ in range(3))
    tricks = np.empty((size, rules.NUM_TEAMS), dtype=np.int64)
    trick_cards = np.empty((size, SEATS - 1), dtype=np.int64)
    _replay(
        np.ascontiguousarray(deals, dtype=np.int64), np.ascontiguousarray(scripts, dtype=np.int64),
        np.asarray(dealers, dtype=np.int64), np.asarray(lengths, dtype=np.int64),
        hands, trumps, makers, leaders, tricks, trick_cards,
    )  # fmt: skip
    return hands, trumps, makers, leaders, trick_cards, tricks


def team_points(team_tricks: np.ndarray, team: np.ndarray, makers: np.ndarray) -> np.ndarray:
    """``team``'s points minus the other team's when ``team`` takes ``team_tricks`` of the hand's five
    tricks and ``makers`` made trump: makers 1 for three or four tricks, 2 for five; 2 to the
    defenders when the makers take fewer than three."""
    maker_tricks = np.where(team == makers, team_tricks, TRICKS - team_tricks)
    maker_points = np.where(maker_tricks == TRICKS, 2, np.where(maker_tricks >= MAJORITY, 1, -2))
    return np.where(team == makers, maker_points, -maker_points)


@register("euchre", "search", deterministic=True)
class SolverSearch(MonteCarloLookahead):
    """mc's sampled worlds and inference, each world's tricks solved exactly (see the module)."""

    def __init__(
        self,
        samples: Annotated[int, Between(2, MAX_SAMPLES)] = 128,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        team_rollout: Annotated[str, NestedSpec()] = TEAM_ROLLOUT,
        seed: Annotated[int, Between(0, SEED_MAX)] = 0,
        confidence: Annotated[float, Between(0.0, 100.0)] = 0.5,
        oversample: Annotated[int, Between(1, MAX_OVERSAMPLE)] = 8,
        softness: Annotated[float, Between(0.0, 1.0)] = 0.0,
        bids: Annotated[str, OneOf(BID_EVALUATIONS)] = "solver",
        value: Annotated[str, OneOf(VALUES)] = "points",
    ) -> None:
        super().__init__(samples, rollout, team_rollout, seed, confidence, oversample)
        self.softness = softness
        self.bids = bids
        self.table = BidTable.load() if bids == "table" else None
        self.chances, self.value_scale = lookahead_chances(value, HAND_OUTCOMES, rules.DEFAULT_POINTS_TO_WIN)

    def choose(self, observation: Observation) -> np.ndarray:
        if self.table is None:
            return super().choose(observation)
        chosen = np.full(len(observation), -1, dtype=np.int64)
        making = np.flatnonzero(observation.phase == Phase.MAKING)
        if making.size:
            chosen[making] = self.table.choose(observation.take(making), TABLE_CONFIDENCE, TABLE_LEAST)
        searched = np.flatnonzero(chosen < 0)
        if searched.size:
            chosen[searched] = super().choose(observation.take(searched))
        return chosen

    def kept_worlds(self, mismatches: np.ndarray, rngs: list[np.random.Generator]) -> np.ndarray:
        if self.softness == 0.0:
            return super().kept_worlds(mismatches, rngs)
        return weighted_worlds(mismatches, self.softness, self.worlds_per_decision, rngs)

    def roll_out(self, observation: Observation, deciding: np.ndarray, rollouts: Rollouts) -> np.ndarray:
        deciders = observation.take(deciding)
        worlds = self.worlds(deciders)
        values = np.empty(len(rollouts.decision), dtype=np.int64)
        playing = deciders.phase == Phase.PLAYING
        in_play = playing[rollouts.decision]
        if in_play.any():
            values[in_play] = self._solved_cards(deciders, worlds, _subset(rollouts, in_play))
        if (~in_play).any():
            chosen = _subset(rollouts, ~in_play)
            if self.bids == "rollout":
                values[~in_play] = self.played_out(deciders, worlds, chosen)
            else:
                values[~in_play] = self._solved_contracts(deciders, worlds, chosen)
        if self.chances is None:
            return values
        decision = rollouts.decision
        team, dealer = deciders.seat.astype(np.int64)[decision] & 1, deciders.dealer.astype(np.int64)[decision]
        scores = deciders.scores[decision]
        rows = np.arange(len(decision))
        ours = scores[rows, team] + np.maximum(values, 0)  # one team scores in a hand: the margin is its points
        theirs = scores[rows, 1 - team] + np.maximum(-values, 0)
        return game_values(self.chances, ours, theirs, ((dealer + 1) & 1) == team)  # the deal passes on

    def _solved_cards(self, deciders: Observation, worlds: Worlds, rollouts: Rollouts) -> np.ndarray:
        """Each card's value, solved in each world at the decision (one solve per world gives every card)."""
        decisions = np.unique(rollouts.decision)
        samples = worlds.deals.shape[1]
        deals = worlds.deals[decisions].reshape(-1, rules.PACK_SIZE)
        scripts = worlds.scripts[decisions].reshape(len(deals), -1)
        dealer = np.repeat(deciders.dealer[decisions].astype(np.int64), samples)
        step = np.repeat(script_step(deciders)[decisions], samples)
        hands, trumps, makers, leaders, trick_cards, tricks = replay_scripts(deals, scripts, dealer, step)
        solved = solve_moves(hands, trumps, leaders, trick_cards, tricks)  # (decisions * samples, 52)
        at = np.searchsorted(decisions, rollouts.decision) * samples + rollouts.world
        team = deciders.seat.astype(np.int64)[rollouts.decision] & 1
        return team_points(solved[at, rollouts.candidate].astype(np.int64), team, makers[at])

    def _solved_contracts(self, deciders: Observation, worlds: Worlds, rollouts: Rollouts) -> np.ndarray:
        """Each bid's or discard's value: the bidding and discard played on by the policies, the tricks solved."""
        decision, world = rollouts.decision, rollouts.world
        deals = worlds.deals[decision, world]
        scripts = worlds.scripts[decision, world]
        step = script_step(deciders).take(decision)
        seat = deciders.seat.astype(np.int64).take(decision)
        dealer = deciders.dealer.astype(np.int64).take(decision)
        scores = deciders.scores.take(decision, axis=0)
        scripts[np.arange(len(decision)), step] = rollouts.candidate
        hand_ids = SEATS * np.arange(len(decision), dtype=np.int64) + dealer
        traced = np.empty_like(scripts)
        fast = fast_engine()
        for rows, lineup in lineups(seat, self.policy, self.team_policy):
            traced[rows] = fast.play_rounds(
                deals[rows], lineup, hand_ids[rows], scores[rows], trace=True,
                script=scripts[rows], script_length=step[rows] + 1,
            ).actions  # fmt: skip
        starts = np.full(len(decision), FIRST_CARD_STEP, dtype=np.int64)
        hands, trumps, makers, leaders, trick_cards, tricks = replay_scripts(deals, traced, dealer, starts)
        solved = solve_moves(hands, trumps, leaders, trick_cards, tricks).max(axis=1).astype(np.int64)
        leader_team = leaders & 1
        our_tricks = np.where(leader_team == (seat & 1), solved, TRICKS - solved)
        return team_points(our_tricks, seat & 1, makers)


def _subset(rollouts: Rollouts, keep: np.ndarray) -> Rollouts:
    return Rollouts(rollouts.decision[keep], rollouts.candidate[keep], rollouts.world[keep])
