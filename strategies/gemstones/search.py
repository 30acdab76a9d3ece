"""Monte-Carlo lookahead valuing its leaves as the heuristic does, for Gemstones (``search``), issue 39.

``search`` is mc's lookahead (``strategies.gemstones.mc``: uniform worlds, each legal action rolled out
with the heuristic in both seats, paired comparison gated by ``confidence`` standard errors) with two
changes the measurements in docs/gemstones.md ("search") pointed to:

* **A leaf value** (``leaf``): ``sale`` is mc's, each seat's coins plus what its chains would sell for
  now. ``worth`` (the default) values a game still going as the heuristic values a position
  (``sim.gemstones.policies.heuristic.position_value``): the chains at what they should reach with the
  seat's own hand cards and its share of the cards it has not seen, the forced plays of the two front
  hand cards planned. A game over counts its coins alone either way.
* **More worlds**: 256 instead of 16 (128 scored 2 points less). The horizon stays mc's two turns:
  with the worth leaf, four turns did worse and one far worse (odd horizons fail, as they do for mc).

**No inference.** Gemstones' observation holds no history of the opponent's actions, and a trial with
the opponent's true hand in every world (the deck still shuffled) scored no better against mc than the
uniform worlds (docs/gemstones.md): what the cheating oracle gains is the deck's order, which nothing a
seat sees can reveal. So the worlds are mc's (``mc.sample_worlds``), drawn per decision from
``decision_rng(seed, round id, step)``.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

from sim import jit
from sim.gemstones import fast
from sim.gemstones.observation import Phase
from sim.gemstones.policies.heuristic import FULL_WORTH_DECK, MIN_WORTH_SHARE, position_value, unseen_counts
from strategies import SEED_MAX, Between, NestedSpec, OneOf, register
from strategies.gemstones.mc import (
    HORIZON,
    MAX_HORIZON,
    MAX_SAMPLES,
    SEATS,
    MonteCarloLookahead,
    position_worth,
)

LEAVES = ("sale", "worth")
WORTH_SCALE = 100  # leaf worths are fractional coins: margins are kept as integer hundredths


@jit.njit(cache=True, nogil=True)
def _worths(hands, hand_sizes, chain_stones, chain_lengths, slots, coins, trade_counts, discard, removed_counts,
            pending, deck_size, phase, out):  # fmt: skip  # pragma: no cover - compiled
    """``out[row, seat]``: each seat's coins plus, in a game going on, the heuristic's worth of its position."""
    for row in range(out.shape[0]):
        for seat in range(SEATS):
            out[row, seat] = coins[row, seat]
            if phase[row] == Phase.OVER:
                continue
            hand = row * SEATS + seat  # the hand's row of ``hands`` (games by seat)
            unseen = unseen_counts(
                hands, hand, row, hand_sizes, seat, chain_stones, chain_lengths, trade_counts, discard,
                removed_counts, pending,
            )  # fmt: skip
            deck = deck_size[row]
            arrival = min(1.0, deck / max(1, unseen.sum()))
            share = max(MIN_WORTH_SHARE, min(1.0, deck / FULL_WORTH_DECK))
            stones = (chain_stones[row, seat, 0], chain_stones[row, seat, 1], chain_stones[row, seat, 2])
            lengths = (chain_lengths[row, seat, 0], chain_lengths[row, seat, 1], chain_lengths[row, seat, 2])
            size = hand_sizes[row, seat]
            out[row, seat] += position_value(stones, lengths, slots[row, seat], hands, hand, size, -1, unseen,
                                             arrival, share)  # fmt: skip


def position_worths(states: fast.GameStates) -> np.ndarray:
    """(n, 2) float: each seat's coins plus, in a game going on, what the heuristic thinks its position
    is worth (``heuristic.position_value``: its chains at what they should reach, its front cards' forced
    plays planned)."""
    size = len(states.mover)
    out = np.zeros((size, SEATS), dtype=np.float64)
    if size:
        s = states
        _worths(
            np.ascontiguousarray(s.hands.reshape(size * SEATS, -1), dtype=np.int8), _ints(s.hand_sizes),
            _ints(s.chain_stones), _ints(s.chain_lengths), _ints(s.slots), _ints(s.coins), _ints(s.trade_counts),
            np.ascontiguousarray(s.discard, dtype=np.int8), _ints(s.removed_counts), _ints(s.pending),
            _ints(s.deck_size), _ints(s.phase), out,
        )  # fmt: skip
    return out


def _ints(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)


@register("gemstones", "search", deterministic=True)
class WorthLookahead(MonteCarloLookahead):
    """mc's lookahead with the heuristic's worth at the leaves and more worlds (see the module)."""

    value_scale = WORTH_SCALE

    def __init__(
        self,
        samples: Annotated[int, Between(2, MAX_SAMPLES)] = 256,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        seed: Annotated[int, Between(0, SEED_MAX)] = 0,
        confidence: Annotated[float, Between(0.0, 100.0)] = 1.0,
        horizon: Annotated[int, Between(0, MAX_HORIZON)] = HORIZON,
        leaf: Annotated[str, OneOf(LEAVES)] = "worth",
    ) -> None:
        super().__init__(samples, rollout, seed, confidence, horizon)
        self.leaf = leaf

    def leaf_worth(self, states: fast.GameStates) -> np.ndarray:
        """(n, 2) int64 each seat's worth in hundredths of a coin: mc's (``sale``) or the heuristic's (``worth``)."""
        if self.leaf == "sale":
            return position_worth(states) * WORTH_SCALE
        return np.rint(position_worths(states) * WORTH_SCALE).astype(np.int64)
