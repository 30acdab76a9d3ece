"""The vectorized Straights engine: many rounds in lockstep on numpy bitmasks.

``play_rounds`` plays B deals with four strategies (the same objects the reference engine takes) and
returns each seat's points and, on request, every action; ``play_games`` strings rounds into games
until someone reaches 80. ``sim.crosscheck`` checks that both engines make the same moves.

State is kept by dealt *position* rather than by card. Position ``13 * k + i`` of a round is card
``i`` of the hand of the ``k``-th seat to move (``k = 0`` is the leader, who holds the 7 of spades).
Seats move in turn from the leader, so at step ``t`` every round's mover is ``k = t % 4``: one shift
by ``13 * k`` selects the mover's hand in all rounds at once, and its 13 bits are exactly the
observation's ``held``/``legal`` masks. Per round the engine keeps two 52-bit masks::

    held    positions still in hand
    accept  positions whose card the table accepts, or accepted once (test with held)

and a log of the actions; the card-space table a strategy may ask for is rebuilt from the log then.

Observations handed to strategies are valid during the ``choose`` call that receives them; their
lazy fields read the engine's state when first accessed. The engine checks every action and raises
``IllegalAction`` naming the strategy, so an illegal action never becomes a result.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim import lockstep
from sim.api import IllegalAction, Strategy
from sim.cards import NUM_CARDS, NUM_RANKS, bits_to_bools, format_cards, make_card
from sim.games import DealSource, GamesResult, RoundsResult
from sim.lockstep import DealError, strategy_name
from sim.straights import rules
from sim.straights.observation import DISCARDED, NOT_YET, Observation, positions_to_cards

BLOCK_SIZE = 8192
SEATS = rules.NUM_PLAYERS
HAND = rules.HAND_SIZE
HAND_MASK = (1 << HAND) - 1
ALL_POSITIONS = (1 << NUM_CARDS) - 1
CARD_POINTS = np.array([rules.card_points(card) for card in range(NUM_CARDS)], dtype=np.int8)

# Indexed by card id viewed as a byte: np.take converts int8 indexes to intp first, uint8 ones faster.
_CARD_POINTS_BY_BYTE = np.zeros(256, dtype=np.int8)
_CARD_POINTS_BY_BYTE[:NUM_CARDS] = CARD_POINTS
_ONE = np.int64(1)  # so shifts by int8 card ids compute in int64
# A bit beyond the 52 positions: accepting it is harmless, as no card is ever held there.
NO_POSITION = 62
# [leader, slot]: the position of the card dealt to ``slot`` of the deck when ``leader`` leads.
_POSITION_OF_SLOT = np.array([np.roll(np.arange(NUM_CARDS), HAND * leader) for leader in range(SEATS)], dtype=np.int8)
_OTHER_SEVENS = np.array([make_card(rules.SEVEN, suit) for suit in range(rules.NUM_SUITS - 1)])


@dataclass(frozen=True)
class RoundResults(RoundsResult):
    """What B rounds came to, in the order of the deals: ``points`` (B, 4) int64, what each seat
    scored (the sum of its discards), and on request the trace."""

    actions: np.ndarray | None = None
    """(B, 52) int8 the card taken at each step, when a trace was asked for."""
    discarded: np.ndarray | None = None
    """(B, 52) bool whether that card was discarded rather than played."""


@dataclass(frozen=True)
class GameResults(GamesResult):
    """What B games came to, in the order of the game ids: ``scores`` (B, 4) int64 final game scores,
    ``rounds`` (B,) int64 how many rounds each game lasted, ``winners`` (B, 4) bool the seats with
    the lowest final score (several when tied)."""


def play_rounds(
    deals: np.ndarray,
    strategies: Sequence[Strategy],
    round_ids: np.ndarray | None = None,
    scores: np.ndarray | None = None,
    trace: bool = False,
) -> RoundResults:
    """Play each deal once with ``strategies[seat]`` in each seat.

    ``round_ids`` (default ``0..B-1``) and ``scores`` (game scores before the round, default zeros)
    are what the observations report. Raises ``IllegalAction`` naming the strategy that chose an
    illegal action, and ``DealError`` for a deal that is not a permutation of the 52 cards.
    """
    deals = np.asarray(deals)
    count = len(deals)
    if len(strategies) != SEATS:
        raise ValueError(f"Straights needs {SEATS} strategies, got {len(strategies)}")
    round_ids = np.arange(count, dtype=np.int64) if round_ids is None else np.asarray(round_ids, dtype=np.int64)
    scores = np.zeros((count, SEATS), dtype=np.int64) if scores is None else np.asarray(scores, dtype=np.int64)
    points = np.empty((count, SEATS), dtype=np.int64)
    actions = np.empty((count, NUM_CARDS), dtype=np.int8) if trace else None
    discarded = np.empty((count, NUM_CARDS), dtype=bool) if trace else None
    seating = _Seating(strategies)
    workspace = None
    for start in range(0, count, BLOCK_SIZE):
        block_deals = deals[start : start + BLOCK_SIZE]
        if workspace is None or workspace.size != len(block_deals):
            workspace = _take_workspace(len(block_deals))
        leader = _leaders(block_deals)
        order = seating.order(leader)
        if order is None:
            rounds: slice | np.ndarray = slice(start, start + len(block_deals))
        else:
            rounds = start + order  # where the block's rounds, in the order it plays them, sit in the results
            block_deals, leader = np.take(block_deals, order, axis=0), leader[order]
        block = _Block(block_deals, leader, round_ids[rounds], scores[rounds], seating, workspace)
        for step in range(NUM_CARDS):
            block.play_step(step)
        points[rounds] = block.points()
        if actions is not None and discarded is not None:  # trace
            actions[rounds] = block.actions.T
            discarded[rounds] = block.discarded.T
    if workspace is not None:
        _spare.workspace = workspace
    return RoundResults(points, actions, discarded)


def play_games(game_ids: int | np.ndarray, deal_source: DealSource, strategies: Sequence[Strategy]) -> GameResults:
    """Play whole games (``game_ids`` or that many games numbered from 0) until someone reaches 80.

    Every round of every game still going is dealt by ``deal_source(game_ids, round_number)``;
    round ``r`` of game ``g`` has round id ``sim.api.round_id(g, r)``.
    """
    game_ids = np.arange(int(game_ids), dtype=np.int64) if np.ndim(game_ids) == 0 else np.asarray(game_ids, np.int64)

    def play(deals: np.ndarray, ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        return play_rounds(deals, strategies, ids, scores).points

    def is_over(scores: np.ndarray) -> np.ndarray:
        return scores.max(axis=1) >= rules.GAME_OVER_SCORE

    scores, rounds = lockstep.play_games(game_ids, deal_source, play, SEATS, is_over)
    return GameResults(scores, rounds, scores == scores.min(axis=1, keepdims=True))


Rows = list[slice]
"""Some rounds of a block: runs of consecutive rounds."""


class _Seating:
    """Which rounds of a block each distinct strategy object plays at each step.

    At step t the mover of a round led by seat L is seat (L + t) % 4, so a block's rounds are grouped
    by leader and each group has one strategy to move. The groups go in the order that leaves each
    strategy's rounds in the fewest runs (one run each when seats 0 and 2 play seats 1 and 3), so a
    strategy's observation is made of slices rather than gathered round by round.
    """

    def __init__(self, strategies: Sequence[Strategy]) -> None:
        self.strategies = list(strategies)
        self.distinct = list({id(strategy): strategy for strategy in strategies}.values())
        orders = itertools.permutations(range(SEATS)) if len(self.distinct) > 1 else [tuple(range(SEATS))]
        self.group_order = min(orders, key=self._count_runs)
        self.group_of_leader = np.argsort(self.group_order)

    def order(self, leader: np.ndarray) -> np.ndarray | None:
        """The order in which to play rounds with these leaders: by leader group (None: as they come)."""
        if len(self.distinct) == 1:
            return None
        return np.argsort(self.group_of_leader[leader], kind="stable")

    def movers(self, leader: np.ndarray) -> list[list[tuple[Strategy, Rows | None]]]:
        """For each mover k = step % 4: each strategy to move somewhere and its rounds (None: all of them).

        ``leader`` is the leaders of the block's rounds in the order ``order`` gave.
        """
        if len(self.distinct) == 1:
            return [[(self.distinct[0], None)]] * SEATS
        bounds = np.searchsorted(self.group_of_leader[leader], np.arange(SEATS + 1)).tolist()
        movers: list[list[tuple[Strategy, Rows | None]]] = []
        for mover in range(SEATS):
            plays: list[tuple[Strategy, Rows | None]] = []
            for strategy in self.distinct:
                runs = self._group_runs(strategy, mover, self.group_order)
                rows = [slice(bounds[first], bounds[last]) for first, last in runs if bounds[last] > bounds[first]]
                if rows:
                    plays.append((strategy, rows))
            movers.append(plays)
        return movers

    def _group_runs(self, strategy: Strategy, mover: int, group_order: Sequence[int]) -> list[tuple[int, int]]:
        """The runs [first, last) of consecutive groups in which ``strategy`` is the mover-th to move."""
        runs: list[tuple[int, int]] = []
        for group, leader in enumerate(group_order):
            if self.strategies[(leader + mover) % SEATS] is strategy:
                if runs and runs[-1][1] == group:
                    runs[-1] = (runs[-1][0], group + 1)
                else:
                    runs.append((group, group + 1))
        return runs

    def _count_runs(self, group_order: Sequence[int]) -> int:
        return sum(
            len(self._group_runs(strategy, mover, group_order)) for mover in range(SEATS) for strategy in self.distinct
        )


class _Workspace:
    """The large arrays of a block of ``size`` rounds, allocated once and reused block after block
    and call after call.

    Fresh arrays of this size (megabytes) came from the OS page by page at every block, which made
    blocks 3-5x slower to set up.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.row_base = np.arange(size, dtype=np.int64) * NUM_CARDS
        self.deal_index = np.empty((size, NUM_CARDS), dtype=np.int64)
        # positions[52 * b + c] is the position of card c in round b; a spare byte before and two after
        # let every card's four bytes from its lower neighbour on be read as one int32.
        padded_positions = np.full(size * NUM_CARDS + 3, NO_POSITION, dtype=np.int8)
        self.positions = padded_positions[1:-2]
        self.position_windows = np.ndarray((size * NUM_CARDS,), np.int32, buffer=padded_positions, strides=(1,))
        self.slot_positions = np.empty((size, NUM_CARDS), dtype=np.int8)
        # Row 52 * b + c: card c of round b's [lower neighbour's position, position, higher neighbour's
        # position, unused], read as one int32 so a step needs a single gather.
        self.card_table = np.empty((size * NUM_CARDS, 4), dtype=np.int8)
        self.card_entries = self.card_table.view(np.int32).reshape(-1)
        chosen_fields = np.empty((size, 4), dtype=np.int8)
        self.chosen_entries = chosen_fields.view(np.int32).reshape(-1)
        self.chosen_lower, self.chosen_position, self.chosen_higher = (chosen_fields[:, field] for field in range(3))
        self.actions = np.empty((NUM_CARDS, size), dtype=np.int8)
        self.discarded = np.empty((NUM_CARDS, size), dtype=bool)
        self.lost = np.empty((NUM_CARDS, size), dtype=np.int8)
        self.index = np.empty(size, dtype=np.int64)
        self.bit = np.empty(size, dtype=np.int64)
        self.discard_mask = np.empty(size, dtype=np.int64)
        self.play_mask = np.empty(size, dtype=np.int64)
        self.allowed = np.empty(size, dtype=np.int64)
        self.unlocked = np.empty(size, dtype=np.int64)
        self.unlocked_higher = np.empty(size, dtype=np.int64)
        self.chosen = np.empty(size, dtype=np.int64)


# Each thread keeps the workspace of its last call for the next one; a call takes it while it
# plays, so a strategy that runs the engine inside ``choose`` gets a workspace of its own.
_spare = threading.local()


def _take_workspace(size: int) -> _Workspace:
    """A workspace for blocks of ``size`` rounds: this thread's spare one when it fits, else a new one."""
    spare = getattr(_spare, "workspace", None)
    if spare is None or spare.size != size:
        return _Workspace(size)
    _spare.workspace = None
    return spare


class _Block:
    """Up to ``BLOCK_SIZE`` rounds played in lockstep."""

    def __init__(
        self,
        deals: np.ndarray,
        leader: np.ndarray,
        round_ids: np.ndarray,
        scores: np.ndarray,
        seating: _Seating,
        workspace: _Workspace,
    ) -> None:
        size = len(deals)
        self.size = size
        self.leader = leader
        self.round_ids = round_ids
        self.scores = scores
        self.strategies = seating.strategies
        self.movers = seating.movers(leader)
        self.work = workspace
        self.hands = _hands_in_turn_order(deals, leader)
        _fill_card_table(deals, leader, round_ids, workspace)
        self.held = np.full(size, ALL_POSITIONS, dtype=np.int64)
        self.accept = self._position_bits(rules.SEVEN_OF_SPADES)
        self.other_sevens = np.bitwise_or.reduce([self._position_bits(card) for card in _OTHER_SEVENS])
        self.actions = workspace.actions
        self.discarded = workspace.discarded
        self._table = np.zeros(size, dtype=np.int64)
        self._table_step = 0

    def _position_bits(self, card: int) -> np.ndarray:
        """(n,) int64 the bit of ``card``'s position in each round."""
        return np.left_shift(_ONE, self.work.positions[card::NUM_CARDS])

    def play_step(self, step: int) -> None:
        """Ask each strategy for its movers' actions, check them and apply them."""
        shift = HAND * (step % SEATS)
        held = np.right_shift(self.held, shift)
        held &= HAND_MASK
        legal = np.right_shift(self.accept, shift)
        legal &= held
        must_discard = self.discarded[step]
        np.equal(legal, 0, out=must_discard)
        # Masks rather than np.where/copyto(where=): those branch per round and mispredicted.
        discard_mask = self.work.discard_mask
        np.negative(must_discard.view(np.int8), out=discard_mask)  # all ones where the mover must discard
        options = np.bitwise_and(held, discard_mask)
        options |= legal
        # Strategies get these arrays themselves; read-only keeps a strategy from changing what the
        # engine checks against.
        for mask in (held, legal, options):
            mask.flags.writeable = False
        self._apply(step, self._choose(step, held, legal, options), options)

    def _choose(self, step: int, held: np.ndarray, legal: np.ndarray, options: np.ndarray) -> np.ndarray:
        chosen = self.work.chosen
        for strategy, rows in self.movers[step % SEATS]:
            if rows is None:  # the one strategy of every seat: it moves in all the rounds
                observation = self._observe(step, held, legal, options, None)
                return _checked_choice(strategy, strategy.choose(observation), self.size)
            held_rows, legal_rows, options_rows = (_subset(mask, rows) for mask in (held, legal, options))
            observation = self._observe(step, held_rows, legal_rows, options_rows, rows)
            choice = _checked_choice(strategy, strategy.choose(observation), len(observation))
            start = 0
            for run in rows:
                chosen[run] = choice[start : start + run.stop - run.start]
                start += run.stop - run.start
        return chosen

    def _observe(
        self, step: int, held: np.ndarray, legal: np.ndarray, options: np.ndarray, rows: Rows | None
    ) -> Observation:
        """The movers' view of the rounds ``rows`` (all when None) at ``step``."""
        mover = step % SEATS
        hands = self.hands[mover]
        return Observation(
            len(held),
            {
                "seat": lambda: (_subset(self.leader, rows) + mover) % SEATS,
                "hand": hands if rows is None else lambda: _subset(hands, rows),
                "held": held,
                "legal": legal,
                "options": options,
                "legal_mask": lambda: bits_to_bools(positions_to_cards(_subset(hands, rows), options)),
                "table": lambda: _own(self._table_at(step), rows),
                "step": lambda: np.full(len(held), step),
                "history": lambda: self._history(step, rows),
                "cards_left": lambda: _cards_left(step, _subset(self.leader, rows)),
                "scores": lambda: _own(self.scores, rows),
                "round_id": lambda: _own(self.round_ids, rows),
            },
        )

    def _table_at(self, step: int) -> np.ndarray:
        """(n,) int64 card mask of the table at ``step``, brought up to date from the action log.

        Kept only when a strategy asks, so strategies that never look at the table don't pay for it.
        """
        for past in range(self._table_step, step):
            played = np.left_shift(_ONE, self.actions[past])
            played[self.discarded[past]] = 0
            self._table |= played
        self._table_step = step
        return self._table

    def _history(self, step: int, rows: Rows | None) -> np.ndarray:
        actions = _subset(self.actions[:step].T, rows)
        history = np.full((len(actions), NUM_CARDS), NOT_YET, dtype=np.int8)
        history[:, :step] = np.where(_subset(self.discarded[:step].T, rows), DISCARDED, actions)
        return history

    def _apply(self, step: int, chosen: np.ndarray, options: np.ndarray) -> None:
        """Check the ``chosen`` cards are among their movers' ``options``, then play or discard them."""
        work = self.work
        shift = HAND * (step % SEATS)
        np.add(work.row_base, chosen, out=work.index)
        # The method, not np.take: per step, numpy's Python wrapper costs as much as a small take.
        work.card_entries.take(work.index, out=work.chosen_entries, mode="clip")
        np.left_shift(_ONE, work.chosen_position, out=work.bit)
        allowed = np.right_shift(work.bit, shift, out=work.allowed)  # the chosen card in the mover's 13 bits
        allowed &= options
        if allowed.min() == 0:
            self._raise_illegal(step, chosen, int(np.flatnonzero(allowed == 0)[0]), options)
        self.held ^= work.bit
        # A played card opens up its neighbours; a discard opens nothing.
        np.left_shift(_ONE, work.chosen_lower, out=work.unlocked)
        np.left_shift(_ONE, work.chosen_higher, out=work.unlocked_higher)
        work.unlocked |= work.unlocked_higher
        np.invert(work.discard_mask, out=work.play_mask)
        work.unlocked &= work.play_mask
        self.accept |= work.unlocked
        if step == 0:  # the 7 of spades, which every leader plays first, opens the other suits
            self.accept |= self.other_sevens
        self.actions[step] = chosen

    def _raise_illegal(self, step: int, chosen: np.ndarray, row: int, options: np.ndarray) -> None:
        seat = int(self.leader[row] + step) % SEATS
        hand = self.hands[step % SEATS][row]
        raise IllegalAction(
            f"strategy {strategy_name(self.strategies[seat])!r} (player {seat + 1})"
            f" chose {format_cards([int(chosen[row])])}"
            f" in round {int(self.round_ids[row])} at step {step}; legal actions were"
            f" {format_cards(int(card) for i, card in enumerate(hand) if int(options[row]) >> i & 1)}"
        )

    def points(self) -> np.ndarray:
        """(n, 4) each seat's points: the sum of the cards it discarded."""
        lost = self.work.lost
        np.take(_CARD_POINTS_BY_BYTE, self.actions.view(np.uint8), out=lost, mode="clip")
        lost *= self.discarded.view(np.int8)
        by_mover = lost.reshape(HAND, SEATS, self.size).sum(axis=0, dtype=np.int16)  # mover k acts at k, k+4, ...
        points = np.empty((self.size, SEATS), dtype=np.int64)
        first_seat = np.arange(self.size) * SEATS
        for mover in range(SEATS):
            points.reshape(-1)[first_seat + (self.leader + mover) % SEATS] = by_mover[mover]
        return points


def _subset(array: np.ndarray, rows: Rows | None) -> np.ndarray:
    """The rounds ``rows`` of ``array`` (axis 0): ``array`` itself for all of them, else a copy.

    Never a view: its base would show a strategy the rounds of other seats.
    """
    if rows is None:
        return array
    if len(rows) == 1:
        return array[rows[0]].copy()
    return np.concatenate([array[run] for run in rows])


def _own(array: np.ndarray, rows: Rows | None) -> np.ndarray:
    """A copy of the rounds ``rows`` of ``array`` (all when None) that later steps will not change."""
    return array.copy() if rows is None else _subset(array, rows)


def _checked_choice(strategy: Strategy, choice: object, size: int) -> np.ndarray:
    """``choice`` as an array of ``size`` card ids, or IllegalAction naming the strategy."""
    choice = np.asarray(choice)
    if choice.shape != (size,) or choice.dtype.kind not in "iu":
        raise IllegalAction(
            f"strategy {strategy_name(strategy)!r} returned {choice.dtype} array of shape {choice.shape};"
            f" expected {size} card ids"
        )
    # Viewed unsigned, negative ids become huge: one reduction checks both ends.
    if choice.view(np.dtype(f"u{choice.itemsize}")).max() >= NUM_CARDS:
        bad = choice[(choice < 0) | (choice >= NUM_CARDS)][0]
        raise IllegalAction(f"strategy {strategy_name(strategy)!r} returned {bad}, which is not a card id (0..51)")
    return choice


def _leaders(deals: np.ndarray) -> np.ndarray:
    """(n,) the seat dealt the 7 of spades in each deal."""
    if deals.ndim != 2 or deals.shape[1] != NUM_CARDS:
        raise DealError(f"deals must be an array of shape (n, {NUM_CARDS}), not {deals.shape}")
    if deals.dtype.kind not in "iu":
        raise DealError(f"deals hold integer card ids, not {deals.dtype}")
    if deals.size and (deals.min() < 0 or deals.max() >= NUM_CARDS):
        raise DealError(f"deals hold card ids 0..{NUM_CARDS - 1}")
    return np.argmax(deals == rules.SEVEN_OF_SPADES, axis=1) // HAND


def _hands_in_turn_order(deals: np.ndarray, leader: np.ndarray) -> list[np.ndarray]:
    """For k = 0..3, (n, 13) int8 read-only: the hands of the k-th seat to move, in dealt order."""
    hands_by_seat = np.ascontiguousarray(deals, dtype=np.int8).reshape(-1, HAND)  # row 4 * b + seat
    first_hand = np.arange(len(deals)) * SEATS
    hands = []
    for mover in range(SEATS):
        hand = np.take(hands_by_seat, first_hand + (leader + mover) % SEATS, axis=0, mode="clip")
        hand.flags.writeable = False
        hands.append(hand)
    return hands


def _fill_card_table(deals: np.ndarray, leader: np.ndarray, round_ids: np.ndarray, work: _Workspace) -> None:
    """Fill ``work.card_table`` with each card's position and the positions of its neighbours in rank.

    An ace has no lower neighbour nor a king a higher one: they get ``NO_POSITION``.
    """
    positions = work.positions
    positions.fill(-1)
    np.add(work.row_base[:, None], deals, out=work.deal_index)
    np.take(_POSITION_OF_SLOT, leader, axis=0, out=work.slot_positions, mode="clip")
    positions[work.deal_index] = work.slot_positions
    if positions.min() < 0:
        row = int(np.flatnonzero((positions < 0).reshape(-1, NUM_CARDS).any(axis=1))[0])
        raise DealError(f"the deal of round {round_ids[row]} is not a permutation of the {NUM_CARDS} cards")
    # Copying the unaligned int32 windows of positions is 2x faster than writing three byte columns.
    np.copyto(work.card_entries, work.position_windows)
    by_rank = work.card_table.reshape(-1, NUM_RANKS, 4)
    by_rank[:, 0, 0] = NO_POSITION
    by_rank[:, -1, 2] = NO_POSITION


def _cards_left(step: int, leader: np.ndarray) -> np.ndarray:
    """(n, 4) cards each seat holds at ``step``: a seat k places after the leader has moved at t = k, k + 4, ..."""
    turn_order = (np.arange(SEATS) - leader[:, None]) % SEATS
    return HAND - (step - turn_order + SEATS - 1) // SEATS
