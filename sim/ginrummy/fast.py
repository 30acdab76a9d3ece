"""The vectorized Gin Rummy engine: many hands in lockstep on numpy bitmasks.

``play_rounds`` plays a batch of deals (each the 52-card pack in the order it is dealt from, as the
reference ``Hand`` takes it), a block of hands at a time, in lockstep: every hand still going is at
the same step of the same turn, so one strategy call answers the same decision of every hand. A
turn's mover is the same seat counted from the dealer in every hand (the opener, who is not the
dealer, discards first), so holdings are kept by that seat: row 0 the opener's, row 1 the dealer's.
A hand that ends (a knock, or a discard that leaves two cards in the stock) is scored and leaves
the block's arrays, which are gathered down to the hands still going.

The meld arithmetic (least deadwood, legal knocks, layouts) is ``sim.ginrummy.melds``; its
``deadwood``, ``best_discards`` and ``may_knock`` are also offered here, where issue 15 named them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim import lockstep
from sim.api import ROUND_ID_STRIDE, ArrayRecord, Strategy
from sim.cards import ALL_CARDS_MASK, NUM_CARDS, bits_to_bools
from sim.games import DealSource, GamesResult, RoundsResult
from sim.ginrummy import rules
from sim.ginrummy.melds import (
    RANK_ACROSS_SUITS,
    best_discards,
    cards_value,
    deadwood,
    knocking_discards,
    may_knock,
    rank_neighbours,
    runs_and_sets,
    suit_patterns,
)
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, NONE, NUM_ACTIONS, Observation, Phase
from sim.lockstep import DealError, Players, choose_checked

__all__ = ["best_discards", "deadwood", "may_knock", "play_from", "play_games", "play_rounds"]

BLOCK_SIZE = 65536  # hands played together: memory stays flat however many are asked for
MAX_TURNS = 10_000  # a hand is ~20 turns; one this long never ends (two players passing cards to and fro)


class EndlessHand(RuntimeError):
    """Hands that never end: their stock stops running down, as the strategies only take from the pile."""


SEATS = rules.NUM_PLAYERS
_OPENER, _DEALER = 0, 1  # the holdings' rows: the seat that discards first, then the dealer
_ONE = np.int64(1)
_GAME_COLUMNS = 5  # what play_games keeps per game: points (2), hands won (2), deals passed on


def play_rounds(
    deals: np.ndarray,
    strategies: Sequence[Strategy],
    round_ids: np.ndarray | None = None,
    scores: np.ndarray | None = None,
    dealers: np.ndarray | None = None,
) -> RoundsResult:
    """Play each deal as one hand with ``strategies[seat]`` in each seat; the points each seat scored.

    Hand ``i`` is numbered ``round_ids[i]`` (default ``0..B-1``) and dealt by seat ``dealers[i]``
    (default, as the reference's ``new_state``: ``round_ids[i] % 2``); ``scores`` (B, 2) are the game
    points before the hand (default zeros), which observations report. Raises ``StrategyFault``
    naming a strategy that raised or chose what it may not, and ``DealError`` for a deal that is not a pack.
    """
    return RoundsResult(_play(deals, _players(strategies), round_ids, scores, dealers)[0])


def play_games(game_ids: np.ndarray, deal_source: DealSource, strategies: Sequence[Strategy]) -> GamesResult:
    """Play whole games to ``rules.GAME_TARGET`` as the reference ``Game`` does: hand ``r`` of every
    game still going is dealt by ``deal_source(its game ids, r)`` and numbered ``sim.api.round_id(g,
    r)``; game ``g``'s first dealer is seat ``g % 2``, and the deal passes after every hand but a void
    one. Scores are the grand totals, with the game bonus and the box bonuses (``rules.final_scores``)."""
    players = _players(strategies)

    def play(deals: np.ndarray, ids: np.ndarray, games: np.ndarray) -> np.ndarray:
        passed = games[:, 4]  # how many times the deal has passed to the other seat
        dealers = (ids // ROUND_ID_STRIDE + passed) % SEATS
        points, void = _play(deals, players, ids, games[:, :SEATS], dealers)
        gained = np.empty((len(deals), _GAME_COLUMNS), dtype=np.int64)
        gained[:, :SEATS] = points
        gained[:, SEATS : 2 * SEATS] = points > 0  # every hand that is not void has one winner
        gained[:, 4] = ~void
        return gained

    def is_over(games: np.ndarray) -> np.ndarray:
        return games[:, :SEATS].max(axis=1) >= rules.GAME_TARGET

    games, hands_played = lockstep.play_games(game_ids, deal_source, play, _GAME_COLUMNS, is_over)
    points, hands_won = games[:, :SEATS], games[:, SEATS : 2 * SEATS]
    winners = points >= rules.GAME_TARGET  # one seat scores a hand: the game ends as the first gets there
    shutout = points[:, ::-1] == 0  # the other seat scored nothing
    bonus = np.where(shutout, rules.SHUTOUT_GAME_BONUS, rules.GAME_BONUS) * winners
    return GamesResult(points + rules.BOX_BONUS * hands_won + bonus, hands_played, winners)


def _play(
    deals: np.ndarray,
    players: Players,
    round_ids: np.ndarray | None,
    scores: np.ndarray | None,
    dealers: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """(points (B, 2) by seat, void (B,) bool) of the deals played as hands (``play_rounds``)."""
    deals = _checked_deals(deals)
    count = len(deals)
    ids = np.arange(count, dtype=np.int64) if round_ids is None else np.asarray(round_ids, dtype=np.int64)
    scores = np.zeros((count, SEATS), dtype=np.int64) if scores is None else np.asarray(scores, dtype=np.int64)
    dealers = ids % SEATS if dealers is None else np.asarray(dealers, dtype=np.int64)
    points = np.zeros((count, SEATS), dtype=np.int64)
    void = np.zeros(count, dtype=bool)
    for start in range(0, count, BLOCK_SIZE):
        block = slice(start, start + BLOCK_SIZE)
        _Block.dealt(deals[block], ids[block], scores[block], dealers[block], players).play(points[block], void[block])
    return points, void


def _players(strategies: Sequence[Strategy]) -> Players:
    if len(strategies) != SEATS:
        raise ValueError(f"Gin Rummy needs {SEATS} strategies, got {len(strategies)}")
    return Players(strategies)


def _checked_deals(deals: np.ndarray) -> np.ndarray:
    """The deals as int64 card ids once their shape and values are those of card ids (that each is
    exactly the pack is checked as a block is dealt)."""
    deals = np.asarray(deals)
    if deals.ndim != 2 or deals.shape[1] != NUM_CARDS or not np.issubdtype(deals.dtype, np.integer):
        raise DealError(f"Gin Rummy deals are (n, {NUM_CARDS}) arrays of card ids, not {deals.dtype} {deals.shape}")
    if deals.size and (deals.min() < 0 or deals.max() >= NUM_CARDS):
        raise DealError(f"a Gin Rummy deal holds card ids from 0 to {NUM_CARDS - 1}")
    return deals.astype(np.int64, copy=False)


def _constant(values: np.ndarray) -> np.ndarray:
    values.flags.writeable = False
    return values


def _draw_legal() -> np.ndarray:
    """Rows of a drawing turn's legal mask: from the stock or the pile, always both."""
    legal = np.zeros((BLOCK_SIZE, NUM_ACTIONS), dtype=bool)
    legal[:, [DRAW_STOCK, DRAW_DISCARD]] = True
    return _constant(legal)


# Arrays observations share that never change: read-only, so no strategy changes them for another.
_DRAW_LEGAL = _draw_legal()
_DRAWING = _constant(np.full(BLOCK_SIZE, Phase.DRAW, dtype=np.int64))
_DISCARDING = _constant(np.full(BLOCK_SIZE, Phase.DISCARD, dtype=np.int64))
_NOTHING_TAKEN = _constant(np.full(BLOCK_SIZE, NONE, dtype=np.int64))


@dataclass(frozen=True)
class HandStates(ArrayRecord):
    """Hands in the middle of play, one row each: everything the engine needs to play them on.

    Seats are the game's (0 and 1). ``stock`` holds each hand's stock in its last ``stock_size``
    columns, the next card drawn first; ``pile`` the discard pile in its first ``pile_size``
    columns, the top card last. ``mover`` is the seat to move and ``phase`` its step of the turn
    (``Phase.DRAW`` or ``Phase.DISCARD``); ``taken`` the card it just took from the pile, or ``NONE``.
    """

    dealer: np.ndarray  # (n,)
    mover: np.ndarray  # (n,)
    phase: np.ndarray  # (n,)
    hands: np.ndarray  # (n, 2) int64 card masks by seat
    stock: np.ndarray  # (n, 52) card ids
    stock_size: np.ndarray  # (n,)
    pile: np.ndarray  # (n, 52) card ids
    pile_size: np.ndarray  # (n,)
    took: np.ndarray  # (n, 2) int64: cards each seat took from the pile and still holds
    threw: np.ndarray  # (n, 2) int64: cards each seat threw this hand
    taken: np.ndarray  # (n,)
    round_id: np.ndarray  # (n,)
    scores: np.ndarray  # (n, 2) game points before the hand


def play_from(states: HandStates, strategies: Sequence[Strategy]) -> RoundsResult:
    """Play hands on from ``states`` to their end: the points each seat scores in each (none while a
    hand was void). Rows are played a group at a time, those whose mover and phase are alike."""
    players = _players(strategies)
    count = len(states.mover)
    points = np.zeros((count, SEATS), dtype=np.int64)
    void = np.zeros(count, dtype=bool)
    opener = 1 - np.asarray(states.dealer)
    mover = (np.asarray(states.mover) != opener).astype(np.int64)  # counted from the dealer
    group = mover * 2 + (np.asarray(states.phase) == Phase.DRAW)
    for kind in np.unique(group).tolist():
        rows = np.flatnonzero(group == kind)
        for start in range(0, len(rows), BLOCK_SIZE):
            block = rows[start : start + BLOCK_SIZE]
            played, lost = np.zeros((len(block), SEATS), dtype=np.int64), np.zeros(len(block), dtype=bool)
            _Block.resumed(states, block, players).play(played, lost, kind // 2, Phase(kind % 2 == 0))
            points[block], void[block] = played, lost
    return RoundsResult(points)


class _Block:
    """A block of hands in play (see the engine's notes above); its arrays hold the hands still going."""

    def __init__(
        self,
        players: Players,
        holding: np.ndarray,
        pack: np.ndarray,
        next_stock: np.ndarray,
        pile: np.ndarray,
        pile_size: np.ndarray,
        took: np.ndarray,
        threw: np.ndarray,
        taken: np.ndarray,
        ids: np.ndarray,
        scores: np.ndarray,
        dealers: np.ndarray,
    ) -> None:
        """Seat arrays (``holding``, ``took``, ``threw``) are (2, n), by seat counted from the dealer."""
        self.players = players
        self.holding = holding
        self.pack = pack.astype(np.int8)  # small: the block's arrays are gathered as hands end
        self.next_stock = next_stock.astype(np.int64)  # the pack position of the stock's top card
        self.pile = pile.astype(np.int8)  # the discard pile, bottom card first
        self.pile_size = pile_size.astype(np.int64)
        depth = int(self.pile_size.max(initial=0))  # no pile reaches further: none at all when just dealt
        in_pile = np.arange(depth) < self.pile_size[:, None]
        self.pile_mask = np.bitwise_or.reduce((_ONE << self.pile[:, :depth].astype(np.int64)) * in_pile, axis=1)
        self.took = took  # taken from the pile and still held
        self.threw = threw
        self.taken = taken.astype(np.int64)  # the card just taken from the pile
        self.ids = _constant(ids.copy())
        self.scores = _constant(scores.copy())
        self.dealer = _constant(dealers.copy())
        self.row = np.arange(len(ids))  # each hand's row in the block's results
        # Decisions taken in every hand since it was dealt (or resumed: faults then count from there).
        self.step = 0

    @classmethod
    def dealt(cls, deals: np.ndarray, ids: np.ndarray, scores: np.ndarray, dealers: np.ndarray, players: Players):
        """Hands just dealt from ``deals`` (card ids, the pack in the order it is dealt from)."""
        size = len(deals)
        bits = _ONE << deals
        dealt = rules.DEALT_CARDS
        # 52 ids whose bits cover the pack are exactly a permutation of it.
        if size and not (np.bitwise_or.reduce(bits, axis=1) == ALL_CARDS_MASK).all():
            raise DealError("a Gin Rummy deal holds each of the 52 cards once")
        holding = np.empty((SEATS, size), dtype=np.int64)
        # The opener is dealt every other card from the first, and the 21st; the dealer the others.
        holding[_OPENER] = np.bitwise_or.reduce(bits[:, 0 : dealt - 1 : 2], axis=1) | bits[:, dealt - 1]
        holding[_DEALER] = np.bitwise_or.reduce(bits[:, 1 : dealt - 1 : 2], axis=1)
        nothing = np.zeros((SEATS, size), dtype=np.int64)
        return cls(
            players,
            holding,
            deals,
            np.full(size, dealt),
            np.zeros((size, NUM_CARDS), dtype=np.int8),
            np.zeros(size, dtype=np.int64),
            nothing,
            nothing.copy(),
            np.full(size, NONE),
            ids,
            scores,
            dealers,
        )

    @classmethod
    def resumed(cls, states: HandStates, rows: np.ndarray, players: Players):
        """The hands ``rows`` of ``states``, which must all have the same mover counted from the dealer."""
        dealer = np.asarray(states.dealer).take(rows)
        by_seat = np.stack([dealer ^ 1, dealer])  # [seat counted from the dealer] the game's seat

        def seats(values: np.ndarray) -> np.ndarray:
            return np.take_along_axis(np.asarray(values).take(rows, axis=0), by_seat.T, axis=1).T.copy()

        stock_size = np.asarray(states.stock_size).take(rows)
        return cls(
            players,
            seats(states.hands),
            np.asarray(states.stock).take(rows, axis=0),
            NUM_CARDS - stock_size,
            np.asarray(states.pile).take(rows, axis=0),
            np.asarray(states.pile_size).take(rows),
            seats(states.took),
            seats(states.threw),
            np.asarray(states.taken).take(rows),
            np.asarray(states.round_id).take(rows),
            np.asarray(states.scores).take(rows, axis=0),
            dealer,
        )

    def play(self, points: np.ndarray, void: np.ndarray, mover: int = _OPENER, phase: Phase = Phase.DISCARD) -> None:
        """Play every hand to its end from ``mover``'s ``phase`` (the deal: the opener's discard),
        writing each seat's points and whether the hand was void into the rows of ``points`` and ``void``."""
        if phase == Phase.DRAW:
            self._draw(mover)
        self._discard(mover, points, void)
        for _ in range(MAX_TURNS):
            if not len(self.row):
                return
            mover ^= 1
            self._draw(mover)
            self._discard(mover, points, void)
        raise EndlessHand(
            f"hands {self.ids[:5].tolist()} went on for {MAX_TURNS} turns: the strategies take each other's"
            " throws from the pile forever and the stock never runs down"
        )

    # ------------------------------------------------------------------ deciding

    def _seat(self, mover: int) -> np.ndarray:
        """The seat of the mover ``mover`` (counted from the dealer) in each hand."""
        return _constant(self.dealer ^ (mover ^ 1))  # the opener is the seat after the dealer

    def _decide(self, fields: dict[str, np.ndarray], seat: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """(n,) int64 the legal actions the movers ``seat`` choose, shown ``fields`` of every hand;
        ``StrategyFault`` names a strategy that raises or chooses otherwise."""
        for values in fields.values():
            values.flags.writeable = False
        observation = Observation(**fields)
        single, step = self.players.single, self.step
        self.step += 1
        if single is not None:
            return choose_checked(single, observation, legal, step, seat)
        actions = np.empty(len(seat), dtype=np.int64)
        for strategy, seats in self.players.seats_of:
            rows = np.flatnonzero(seats.take(seat))
            if rows.size:
                actions[rows] = choose_checked(
                    strategy, observation.take(rows), legal.take(rows, axis=0), step, seat.take(rows)
                )
        return actions

    def _fields(self, mover: int) -> dict[str, np.ndarray]:
        """What the mover sees besides its phase, its legal actions and the card it just took."""
        size = len(self.row)
        top = self.pile.reshape(-1).take(self.row_starts() + np.maximum(self.pile_size - 1, 0)).astype(np.int64)
        top[self.pile_size == 0] = NONE
        return {
            "seat": self._seat(mover),
            "dealer": self.dealer,
            "hand": self.holding[mover].copy(),
            "top_discard": top,
            "discard_pile": self.pile_mask.copy(),
            "took": self.took[mover].copy(),
            "opponent_took": self.took[mover ^ 1].copy(),
            "opponent_threw": self.threw[mover ^ 1].copy(),
            "threw": self.threw[mover].copy(),
            "stock_size": NUM_CARDS - self.next_stock,
            "scores": self.scores,
            "round_id": self.ids,
        } | {"phase": _DRAWING[:size], "legal": _DRAW_LEGAL[:size], "taken": _NOTHING_TAKEN[:size]}

    def row_starts(self) -> np.ndarray:
        """Each hand's first entry in the flattened (hands, 52) arrays."""
        return np.arange(0, len(self.row) * NUM_CARDS, NUM_CARDS)

    # ------------------------------------------------------------------ a turn

    def _draw(self, mover: int) -> None:
        """Every mover draws, from the stock or the discard pile."""
        fields = self._fields(mover)
        top = fields["top_discard"]
        actions = self._decide(fields, fields["seat"], fields["legal"])
        from_pile = actions == DRAW_DISCARD  # the pile is never empty when a seat draws
        stock_top = self.pack.reshape(-1).take(self.row_starts() + self.next_stock).astype(np.int64)
        card = stock_top + (top - stock_top) * from_pile  # no np.where: it branches, row by row
        bit = _ONE << card
        pile_bit = bit * from_pile
        self.next_stock += ~from_pile
        self.pile_size -= from_pile
        self.pile_mask ^= pile_bit
        self.taken = card * from_pile + NONE * ~from_pile
        self.took[mover] |= pile_bit
        self.holding[mover] |= bit

    def _discard(self, mover: int, points: np.ndarray, void: np.ndarray) -> None:
        """Every mover discards or knocks; hands knocked are scored, hands whose stock is down to
        two cards are void, and both leave the block."""
        hand = self.holding[mover]
        taken = self.taken
        kept = ~((_ONE << np.maximum(taken, 0)) * (taken != NONE))  # the card just taken may not be thrown back
        legal = np.zeros((len(hand), NUM_ACTIONS), dtype=bool)
        legal[:, :NUM_CARDS] = bits_to_bools(hand & kept)
        legal[:, KNOCK:] = bits_to_bools(knocking_discards(hand) & kept)
        fields = self._fields(mover)
        fields |= {"phase": _DISCARDING[: len(hand)], "legal": legal, "taken": self.taken}
        actions = self._decide(fields, fields["seat"], legal)
        knocked = actions >= KNOCK
        card = actions - KNOCK * knocked
        bit = _ONE << card
        hand ^= bit
        self.took[mover] &= ~bit
        self.threw[mover] |= bit
        self.taken = _NOTHING_TAKEN[: len(hand)]
        self.pile.reshape(-1)[self.row_starts() + self.pile_size] = card
        self.pile_size += 1
        self.pile_mask |= bit
        stock_out = NUM_CARDS - self.next_stock <= rules.VOID_STOCK_SIZE
        ended = knocked | stock_out
        if not ended.any():
            return
        scored = np.flatnonzero(knocked)
        if scored.size:
            knocker_seat = fields["seat"].take(scored)
            gained = _knock_points(self.holding[mover].take(scored), self.holding[mover ^ 1].take(scored))
            rows = self.row.take(scored)
            points[rows, knocker_seat] = gained[:, 0]
            points[rows, knocker_seat ^ 1] = gained[:, 1]
        void[self.row[stock_out & ~knocked]] = True
        self._keep(np.flatnonzero(~ended))

    def _keep(self, going: np.ndarray) -> None:
        """Drop every hand but those ``going`` from the block's arrays."""
        for name in ("pack", "next_stock", "pile", "pile_size", "pile_mask", "taken", "row"):
            setattr(self, name, getattr(self, name).take(going, axis=0))
        for name in ("holding", "took", "threw"):
            setattr(self, name, getattr(self, name).take(going, axis=1))
        for name in ("ids", "scores", "dealer"):
            setattr(self, name, _constant(getattr(self, name).take(going, axis=0)))


def _knock_points(knocker: np.ndarray, defender: np.ndarray) -> np.ndarray:
    """(n, 2) the points the knocker and the defender score (``rules.score_knock``), each holding
    ten cards laid down as the reference lays them, the defender's unmatched cards laid off onto
    the knocker's melds unless it has gin."""
    runs, sets = runs_and_sets(np.concatenate([knocker, defender]))  # one call: hands end a few a step
    count = len(knocker)
    runs, sets, defender_melded = runs[:count], sets[:count], runs[count:] | sets[count:]
    knocker_deadwood = cards_value(knocker & ~(runs | sets))
    unmatched = defender & ~defender_melded
    laid_off = _laid_off(unmatched, runs, sets) * (knocker_deadwood > 0)  # none onto gin
    defender_deadwood = cards_value(unmatched & ~laid_off)
    gin = knocker_deadwood == 0
    knock_wins = ~gin & (knocker_deadwood < defender_deadwood)
    gained = np.empty((len(knocker), SEATS), dtype=np.int64)
    gained[:, 0] = gin * (defender_deadwood + rules.GIN_BONUS) + knock_wins * (defender_deadwood - knocker_deadwood)
    gained[:, 1] = (~gin & ~knock_wins) * (knocker_deadwood - defender_deadwood + rules.UNDERCUT_BONUS)
    return gained


def _laid_off(unmatched: np.ndarray, runs: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """The cards of ``unmatched`` laid off as ``rules.lay_off`` lays them: onto the runs first, each
    card that extends one (again and again: a card laid off makes room for the next), then onto the
    sets of three the fourth card of their rank."""
    on_runs = np.zeros_like(unmatched)
    grown = runs
    while True:
        extending = rank_neighbours(grown) & unmatched & ~on_runs
        if not extending.any():
            break
        on_runs |= extending
        grown = grown | extending
    clubs, diamonds, hearts, spades = suit_patterns(sets)
    threes = (clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds))
    threes &= ~(clubs & diamonds & hearts & spades)
    fourth_cards = (threes * RANK_ACROSS_SUITS) & ~sets
    return on_runs | (unmatched & ~on_runs & fourth_cards)
