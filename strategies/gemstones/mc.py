"""Monte-Carlo lookahead for Gemstones (``mc``) and its cheating yardstick (``oracle-mc``).

``mc`` deals the cards its seat has not seen many times over, plays every legal action out in each
of those worlds on the fast engine (``strategies.montecarlo``) with a rollout policy (``heuristic``)
after it, and keeps the action that does best on average: what it has two turns later (coins, and
chains at what they would sell for) minus what its opponent has. Every decision with a choice is
looked ahead: buying the third chain, which stones to chain from the offer and the trade area, the
second play, the discard, the chain to sell.
``oracle-mc`` runs the same lookahead in the one true world.

**What a seat knows** (``sim.gemstones.observation``): its own hand in order, both players' chains,
coins and hand sizes, the trade area, the whole discard pile, the removed pile and the deck's size.
The *unseen* cards are exactly the deck and the opponent's hand (``Observation.unseen_counts``).

**The sampler.** A world shuffles the unseen cards uniformly: the first ones are the opponent's hand
(front first), the rest the deck (drawn from its end). The trade area, of which a seat sees the
stones but not the order, is laid out in stone order: the order only decides the order in which its
leftovers reach the discard pile. Randomness is drawn per decision from ``decision_rng(seed, round
id, step)``, so a decision does not depend on which others share the batch.

**The rollouts** start from each world at the decision (``sim.gemstones.fast.GameStates``), take the
candidate with ``fast.apply`` and play on with the rollout policy in both seats through the rest of
the turn and ``horizon`` more (``fast.play_on``), where ``position_worth`` values each seat. Two
turns were as strong as playing to the end at a third of the cost; an odd horizon, which stops just
after the opponent's turn, much weaker (docs/gemstones.md).
The rules rolled out are the defaults with the observed cost of the third chain (an observation
does not say which other variants a game plays).

**The oracle hook** (``strategies.montecarlo.Truth``): the code running an evaluation makes
``truth_of(deals, round_ids)``, plays every seat with the strategies its ``watch`` returns and binds
it: ``oracle.bind(truth)``. The oracle replays each game's deal through the actions taken so far on
the fast engine, which gives the true state: the opponent's hand and the deck's order.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Annotated

import numpy as np

import strategies
from sim.api import Strategy
from sim.gemstones import fast, rules
from sim.gemstones.engine import Variants
from sim.gemstones.observation import NONE, Observation, Phase
from strategies import SEED_MAX, Between, DigestOf, NestedSpec, StrategyError, register
from strategies.montecarlo import ActionTruth, Cheater, Rollouts, SlotLookahead, decision_rng, leaf_margins
from strategies.policy import MAX_POLICY_BYTES

SEATS = fast.SEATS
MAX_SAMPLES = 10_000
MAX_DECISIONS = 1024  # decisions a Truth keeps per game; a game takes about 160
HORIZON = 2  # turns a rollout plays before its position is valued (0: to the end of the game)
MAX_HORIZON = 1_000
MAX_LEAF_TURNS = 1_000  # the seat's decisions before a learned leaf; a game has about 80 a seat
ROLLOUT_BATCH = fast.BLOCK_SIZE  # rollouts per fast-engine call: memory stays flat however many share a batch
_STONE_IDS = np.arange(rules.NUM_STONES)


def sample_worlds(observation: Observation, rngs: list[np.random.Generator], samples: int) -> fast.GameStates:
    """``samples`` worlds per row of ``observation`` (row-major), row ``r`` drawn from ``rngs[r]`` alone."""
    size = len(observation)
    opponent_hands = np.full((size, samples, rules.HAND_WIDTH), NONE, dtype=np.int8)
    decks = np.full((size, samples, rules.NUM_CARDS), NONE, dtype=np.int8)
    for row, rng in enumerate(rngs):
        unseen = np.repeat(_STONE_IDS, observation.unseen_counts(row)).astype(np.int8)
        shuffled = unseen[np.argsort(rng.random((samples, len(unseen))), axis=1)]
        held = int(observation.hand_sizes[row, 1 - int(observation.seat[row])])
        opponent_hands[row, :, :held] = shuffled[:, :held]
        decks[row, :, : len(unseen) - held] = shuffled[:, held:]
    seen = observation.take(np.repeat(np.arange(size), samples))
    return states_of(seen, opponent_hands.reshape(-1, rules.HAND_WIDTH), decks.reshape(-1, rules.NUM_CARDS))


def states_of(observation: Observation, opponent_hands: np.ndarray, decks: np.ndarray) -> fast.GameStates:
    """The games the rows of ``observation`` are at, given each one's opponent hand and deck."""
    size = len(observation)
    rows = np.arange(size)
    seat = np.asarray(observation.seat, dtype=np.int64)
    hands = np.full((size, SEATS, rules.HAND_WIDTH), NONE, dtype=np.int8)
    hands[rows, seat] = observation.hand
    hands[rows, 1 - seat] = opponent_hands
    counts = np.asarray(observation.trade_counts, dtype=np.int64)
    width = max(fast.TRADE_WIDTH, int(counts.sum(axis=1).max(initial=0)))
    # Column j of the trade area holds the stone whose cumulative count first exceeds j.
    stone = (np.arange(width)[None, :, None] >= counts.cumsum(axis=1)[:, None, :]).sum(axis=2)
    trade = np.where(stone < rules.NUM_STONES, stone, NONE).astype(np.int8)
    discard = np.asarray(observation.discard).astype(np.int8)
    return fast.GameStates(
        deck=decks,
        deck_size=np.asarray(observation.deck_size, dtype=np.int64).copy(),
        hands=hands,
        hand_sizes=np.array(observation.hand_sizes, dtype=np.int64),
        chain_stones=np.array(observation.chain_stones, dtype=np.int64),
        chain_lengths=np.array(observation.chain_lengths, dtype=np.int64),
        slots=np.array(observation.slots, dtype=np.int64),
        coins=np.array(observation.coins, dtype=np.int64),
        trade=trade,
        trade_counts=counts.copy(),
        discard=discard,
        discard_size=(discard != NONE).sum(axis=1).astype(np.int64),
        removed_counts=np.array(observation.removed_counts, dtype=np.int64),
        mover=seat.copy(),
        phase=np.array(observation.phase, dtype=np.int64),
        pending=np.array(observation.pending, dtype=np.int64),
        resume=np.array(observation.resume, dtype=np.int64),
        turn=np.array(observation.turn, dtype=np.int64),
        step=np.array(observation.step, dtype=np.int64),
        round_id=np.array(observation.round_id, dtype=np.int64),
    )


def rules_seen(observation: Observation) -> Variants:
    """The rules a lookahead rolls out: the defaults, with the third chain's observed cost."""
    costs = np.unique(np.asarray(observation.third_chain_cost))
    if len(costs) > 1:
        raise ValueError("a batch of Gemstones decisions mixes third-chain costs")
    return Variants(third_chain_cost=int(costs[0]) if len(costs) else Variants().third_chain_cost)


class GemstonesLookahead(SlotLookahead):
    """The Gemstones side of the lookahead; subclasses say which worlds to play in."""

    def __init__(self, rollout: str, horizon: int, leaves: str = "", leaves_sha256: str = "") -> None:
        self.policy = strategies.get("gemstones", rollout)
        self.horizon = horizon
        self.use_leaves("gemstones", leaves, leaves_sha256)

    @abstractmethod
    def worlds(self, observation: Observation) -> fast.GameStates:
        """``worlds_per_decision`` games per row of ``observation``, row-major."""

    def candidates(self, observation: Observation) -> np.ndarray:
        return np.asarray(observation.legal_mask, dtype=bool)

    def roll_out(self, observation: Observation, deciding: np.ndarray, rollouts: Rollouts) -> np.ndarray:
        deciders = observation.take(deciding)
        variants = rules_seen(deciders)
        worlds = self.worlds(deciders)
        start_at = rollouts.decision * self.worlds_per_decision + rollouts.world
        margins = np.empty(len(start_at), dtype=np.int64)
        for first in range(0, len(start_at), ROLLOUT_BATCH):
            batch = slice(first, first + ROLLOUT_BATCH)
            states = worlds.take(start_at[batch])
            seat = states.mover.copy()
            fast.apply(states, rollouts.candidate[batch], variants)
            margins[batch] = self.played_on(states, seat, variants)
        return margins

    def played_on(self, states: fast.GameStates, seat: np.ndarray, variants: Variants) -> np.ndarray:
        """(n,) int64 ``seat``'s margin (ours less the opponent's, in ``value_scale`` units) in each game
        of ``states`` played on by the rollout policy: through ``horizon`` turns, valued by ``leaf_worth``;
        with learned leaves, until ``seat`` has been to move ``leaf_turns`` times, valued by the coins
        so far and the network's value of the coins to come (``strategies.montecarlo.leaf_margins``)."""
        lineup = [self.policy] * SEATS
        if self.leaves is not None:

            def tables(rows: np.ndarray, seated: list[Strategy]) -> fast.Tables:
                return fast.Tables.resumed(seated, states.take(rows), variants)

            margins = leaf_margins(tables, seat, lambda decider: lineup, self.leaf_turns, self.leaves, False)
            return np.rint(margins * self.value_scale).astype(np.int64)
        worth = self.leaf_worth(fast.play_on(states, lineup, variants, self.horizon or None))
        rows = np.arange(len(seat))
        return worth[rows, seat] - worth[rows, 1 - seat]

    def margins(self, observation: Observation) -> np.ndarray:
        """(n,) float64 the coins each row's seat can expect to end the game ahead of its opponent by
        this lookahead (``position_values``), what ``cardsim train --labels`` learns: rollouts played
        to the end (``horizon=0``) or valued by learned leaves."""
        if self.horizon and self.leaves is None:
            raise StrategyError(
                f"a lookahead labels the margin at the game's end: horizon=0 (or leaves), not horizon={self.horizon}"
            )
        return self.position_values(observation)

    def leaf_worth(self, states: fast.GameStates) -> np.ndarray:
        """(n, 2) int64 what each seat's position is worth where a rollout stops (``position_worth``)."""
        return position_worth(states)


def position_worth(states: fast.GameStates) -> np.ndarray:
    """(n, 2) what each seat has: its coins, and in a game still going what its chains would sell for now
    (at the end of a game chains left on the table pay nothing)."""
    stones, lengths = states.chain_stones, states.chain_lengths
    sale = np.where(stones != NONE, fast.COINS[np.maximum(stones, 0), lengths], 0).sum(axis=2)
    return states.coins + sale * (states.phase != Phase.OVER)[:, None]


@register("gemstones", "mc", deterministic=True)
class MonteCarloLookahead(GemstonesLookahead):
    """Monte-Carlo lookahead: deal the unseen cards many times, roll out each legal action, keep the best."""

    def __init__(
        self,
        samples: Annotated[int, Between(2, MAX_SAMPLES)] = 16,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        seed: Annotated[int, Between(0, SEED_MAX)] = 0,
        confidence: Annotated[float, Between(0.0, 100.0)] = 1.0,
        horizon: Annotated[int, Between(0, MAX_HORIZON)] = HORIZON,
        leaves: str = "",
        leaves_sha256: Annotated[str, DigestOf("leaves", MAX_POLICY_BYTES, "value file")] = "",
        leaf_turns: Annotated[int, Between(1, MAX_LEAF_TURNS)] = 1,
    ) -> None:
        super().__init__(rollout, horizon, leaves, leaves_sha256)
        self.leaf_turns = leaf_turns
        self.worlds_per_decision = samples
        self.seed = seed
        self.confidence = confidence

    def worlds(self, observation: Observation) -> fast.GameStates:
        keys = zip(np.asarray(observation.round_id).tolist(), np.asarray(observation.step).tolist())
        rngs = [decision_rng(self.seed, round_id, step) for round_id, step in keys]
        return sample_worlds(observation, rngs, self.worlds_per_decision)


class GameTruth(ActionTruth):
    """A Truth keeping every action taken, to replay each game to where it is."""

    def __init__(self, deals: np.ndarray, round_ids: np.ndarray) -> None:
        super().__init__(deals, round_ids, MAX_DECISIONS, lambda observation: observation.step)

    def states(self, observation: Observation) -> fast.GameStates:
        """The true games of the rows of ``observation``: their deals replayed through the actions taken."""
        rows = self.rows(np.asarray(observation.round_id, dtype=np.int64))
        steps = np.asarray(observation.step, dtype=np.int64)
        variants = rules_seen(observation)
        going = np.argsort(steps, kind="stable")  # the rows of ``observation`` still being replayed
        states = fast.deal(self.deals[rows[going]], observation.round_id[going], variants)
        replayed: list[tuple[np.ndarray, fast.GameStates]] = []
        for step in range(int(steps.max(initial=-1)) + 1):
            there = steps[going] == step  # sorted by step: the first rows
            if there.any():
                replayed.append((going[there], states.take(np.flatnonzero(there))))
                going, states = going[~there], states.take(np.flatnonzero(~there))
            if going.size:
                fast.apply(states, self.actions[rows[going], step].astype(np.int64), variants)
        order, true_states = np.concatenate([part[0] for part in replayed]), fast.stacked([p[1] for p in replayed])
        true_states = true_states.take(np.argsort(order))
        if (true_states.phase != observation.phase).any() or (true_states.coins != observation.coins).any():
            raise RuntimeError("oracle-mc's Truth missed actions: play with the strategies Truth.watch returns")
        return true_states


def truth_of(deals: np.ndarray, round_ids: np.ndarray) -> GameTruth:
    """The ``Truth`` of Gemstones games: the deals and every action taken in them."""
    return GameTruth(deals, round_ids)


@register("gemstones", "oracle-mc", deterministic=True, cheating=True)
class OracleLookahead(Cheater, GemstonesLookahead):
    """CHEATS: mc's lookahead in the true world (sees the opponent's hand and the deck's order); needs
    bind(truth_of(...)): see its module."""

    worlds_per_decision = 1  # the true world is the only one, and rollouts in it are deterministic

    def __init__(
        self,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        horizon: Annotated[int, Between(0, MAX_HORIZON)] = HORIZON,
    ) -> None:
        super().__init__(rollout, horizon)

    def worlds(self, observation: Observation) -> fast.GameStates:
        truth: GameTruth = self.bound_truth()
        return truth.states(observation)
