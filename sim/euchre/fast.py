"""The vectorized Euchre engine: many hands in lockstep on numpy bitmasks.

``play_rounds`` plays B deals (each the 24-card pack in the order it is dealt from, as the reference
``Hand`` takes it) with four strategies, the same objects the reference engine takes, and returns
each seat's points; ``play_games`` strings hands into games until a team reaches 10 points, the hands
of finished games dropping out. ``sim.crosscheck`` checks that both engines make the same moves.

A block of hands is played phase by phase rather than decision by decision. Making trump takes up to
eight rounds of bids, the k-th bid of every hand still making coming from the same seat relative to
its dealer; then every dealer who picked up the upcard discards at once; then all twenty cards of
the tricks, where every hand is at the same card of the same trick, so every hand of the block takes
part in every step (its rows are the whole block, and no row is gathered). Each hand's decisions
are the reference engine's, in its order; only which hands share a strategy call differs.

Holdings are card bitmasks kept by seat relative to the dealer (row ``r`` holds the cards of seat
``dealer + r``), so the deal fills them without a per-hand rotation. The winner of the trick so far
is tracked card by card with the trick order of ``sim.euchre.rules``' decision tables.

Observations are read-only and made of fresh arrays or of arrays never written again once shown
(the block's dealers, the bids once made, trump, ...): a strategy may keep one, and observations
share arrays rather than copy them. Fields that count seats, cards and bids are int8; bitmasks and
ids int64. Rows are gathered with ``take`` (many times faster than indexing a 2-d array with rows),
and a choice per row is arithmetic rather than ``np.where`` or a boolean mask, on which numpy
branches row by row: several times slower on rows as unpredictable as a game's.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim import lockstep
from sim.api import Strategy
from sim.cards import NUM_RANKS, bits_to_bools
from sim.euchre import rules
from sim.euchre.observation import NONE, NUM_ACTIONS, ORDER_UP, PASS, Observation, Phase
from sim.games import DealSource, GamesResult, RoundsResult
from sim.lockstep import DealError, Players

BLOCK_SIZE = 8192  # hands played together: memory stays flat however many are asked for
SEATS = rules.NUM_PLAYERS
MAKING_BIDS = 2 * SEATS
CARDS_PLAYED = SEATS * rules.TRICKS_PER_HAND
_ONE = np.int64(1)
_PASS_BIT = _ONE << PASS
_EVERY_ORDER = np.int64(sum(1 << (ORDER_UP + suit) for suit in range(4)))
_TEAM_OF_SEAT = np.array([rules.team_of(seat) for seat in range(SEATS)])
_CARD_IDS = 52

# The rules' decision tables, flat: an index is computed once per trick and a step takes one lookup.
_EFFECTIVE_SUIT = rules.EFFECTIVE_SUIT.astype(np.intp).ravel()  # [trump * 52 + card]
_SUIT_CARDS = rules.SUIT_CARDS.ravel()  # [trump * 4 + suit]
_STRENGTH = rules.STRENGTH.ravel()  # [(trump * 5 + led suit) * 52 + card]


def _deal_order() -> np.ndarray:
    """The pack positions grouped by the seat they are dealt to, counted from the dealer (five each),
    then the four positions never dealt (the upcard first)."""
    by_seat = rules.deal_hands(range(rules.PACK_SIZE), dealer=0)
    return np.array(
        [*(position for hand in by_seat for position in hand), *range(rules.UPCARD_POSITION, rules.PACK_SIZE)],
        dtype=np.intp,
    )


_DEAL_ORDER = _deal_order()
_UPCARD_ROW = SEATS * rules.HAND_SIZE  # the upcard's row in a deal's positions in ``_DEAL_ORDER``


def play_rounds(
    deals: np.ndarray,
    strategies: Sequence[Strategy],
    round_ids: np.ndarray | None = None,
    scores: np.ndarray | None = None,
) -> RoundsResult:
    """Play each deal as one hand with ``strategies[seat]`` in each seat; each seat's points (its team's).

    Hand ``i`` is numbered ``round_ids[i]`` (default ``0..B-1``) and, as in the reference engine's
    ``new_state``, dealt by seat ``round_ids[i] % 4``. ``scores`` (B, 2) are the teams' game scores
    before the hand (default zeros), which observations report. Raises ``StrategyFault`` naming the
    strategy that raised or chose what it may not, and ``DealError`` for a deal that is not a Euchre pack.
    """
    deals = _checked_deals(deals)
    count = len(deals)
    if len(strategies) != SEATS:
        raise ValueError(f"Euchre needs {SEATS} strategies, got {len(strategies)}")
    round_ids = np.arange(count, dtype=np.int64) if round_ids is None else np.asarray(round_ids, dtype=np.int64)
    scores = np.zeros((count, rules.NUM_TEAMS), dtype=np.int64) if scores is None else np.asarray(scores, np.int64)
    points = np.empty((count, SEATS), dtype=np.int64)
    players = Players(strategies)
    workspaces: dict[int, _Workspace] = {}
    for start in range(0, count, BLOCK_SIZE):
        block = slice(start, start + BLOCK_SIZE)
        size = len(deals[block])
        if size not in workspaces:
            workspaces[size] = _take_workspace(size)
        hands = _play_block(deals[block], round_ids[block], scores[block], players, workspaces[size])
        points[block] = hands.team_points()[:, _TEAM_OF_SEAT]
    _keep_workspaces(workspaces)
    return RoundsResult(points)


def play_games(game_ids: np.ndarray, deal_source: DealSource, strategies: Sequence[Strategy]) -> GamesResult:
    """Play whole games to ``rules.DEFAULT_POINTS_TO_WIN``: hand ``r`` of every game still going is
    dealt by ``deal_source(its game ids, r)``, numbered ``sim.api.round_id(g, r)`` and dealt by seat
    ``r % 4``, as the reference ``Game`` deals (``sim.lockstep``). Games that are over drop out of later hands."""

    def play(deals: np.ndarray, ids: np.ndarray, team_scores: np.ndarray) -> np.ndarray:
        return play_rounds(deals, strategies, ids, team_scores).points[:, : rules.NUM_TEAMS]  # seats 0, 1: teams 0, 1

    def is_over(team_scores: np.ndarray) -> np.ndarray:
        return team_scores.max(axis=1) >= rules.DEFAULT_POINTS_TO_WIN

    team_scores, hands_played = lockstep.play_games(game_ids, deal_source, play, rules.NUM_TEAMS, is_over)
    winners = team_scores >= rules.DEFAULT_POINTS_TO_WIN
    return GamesResult(team_scores[:, _TEAM_OF_SEAT], hands_played, winners[:, _TEAM_OF_SEAT])


def _checked_deals(deals: np.ndarray) -> np.ndarray:
    """The deals as int8 card ids once their shape and values are those of card ids (that each is
    exactly the pack is checked as a block is dealt)."""
    deals = np.asarray(deals)
    if deals.ndim != 2 or deals.shape[1] != rules.PACK_SIZE or not np.issubdtype(deals.dtype, np.integer):
        raise DealError(f"Euchre deals are (n, {rules.PACK_SIZE}) arrays of card ids, not {deals.dtype} {deals.shape}")
    if deals.size and (deals.min() < 0 or deals.max() >= _CARD_IDS):
        raise DealError("a Euchre deal holds card ids from 0 to 51")
    return deals.astype(np.int8, copy=False)


class _Workspace:
    """The arrays of a block of ``size`` hands that strategies never see, allocated once and reused
    block after block and call after call (fresh megabyte arrays come from the OS page by page)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.rows = np.arange(size, dtype=np.intp)
        self.positions = np.empty((rules.PACK_SIZE, size), dtype=np.int8)
        self.bits = np.empty((rules.PACK_SIZE, size), dtype=np.int64)
        self.holdings = np.empty((SEATS, size), dtype=np.int64)  # by seat counted from the dealer
        self.history = np.empty((size, CARDS_PLAYED), dtype=np.int8)
        self.doubled = np.empty((2 * SEATS, size), dtype=np.int64)
        # Arrays observations share that never change: read-only, so no strategy changes them for another.
        self.constants = {
            "making": _constant(np.full(size, Phase.MAKING, dtype=np.int8)),
            "discarding": _constant(np.full(size, Phase.DISCARD, dtype=np.int8)),
            "playing": _constant(np.full(size, Phase.PLAYING, dtype=np.int8)),
            "round 1": _constant(np.full(size, 1, dtype=np.int8)),
            "round 2": _constant(np.full(size, 2, dtype=np.int8)),
            "none": _constant(np.full(size, NONE, dtype=np.int8)),
            "no trick": _constant(np.full((size, SEATS), NONE, dtype=np.int8)),
            "no history": _constant(np.full((size, CARDS_PLAYED), NONE, dtype=np.int8)),
            "no tricks": _constant(np.zeros((size, rules.NUM_TEAMS), dtype=np.int8)),
        }


def _constant(values: np.ndarray) -> np.ndarray:
    values.flags.writeable = False
    return values


# Each thread keeps the workspaces of its calls for the next ones, by size; a call takes them while it
# plays, so a strategy that runs the engine inside ``choose`` gets workspaces of its own.
_spare = threading.local()
_SPARE_SIZES = 4  # a thread keeps the workspaces of this many sizes at most, the largest


def _spares() -> dict[int, _Workspace]:
    if not hasattr(_spare, "workspaces"):
        _spare.workspaces = {}
    return _spare.workspaces


def _take_workspace(size: int) -> _Workspace:
    """A workspace for blocks of ``size`` hands: this thread's spare one of that size, else a new one."""
    return _spares().pop(size, None) or _Workspace(size)


def _keep_workspaces(workspaces: dict[int, _Workspace]) -> None:
    """Keep a call's workspaces for this thread's next calls."""
    spares = _spares()
    spares.update(workspaces)
    for size in sorted(spares)[:-_SPARE_SIZES]:
        del spares[size]


@dataclass
class _Hands:
    """A block of played hands: one row per hand."""

    holdings: np.ndarray  # (4, n) the cards each seat still holds: none, once the hand is played
    dealer: np.ndarray
    bids: np.ndarray  # (n, 8) making actions from the eldest hand on, NONE after the last
    trump: np.ndarray
    maker: np.ndarray
    discard: np.ndarray
    history: np.ndarray  # (n, 20) every card played
    tricks_won: np.ndarray  # (n, 2)

    def team_points(self) -> np.ndarray:
        """(n, 2) the points each team scored in its finished hand (``rules.hand_points``)."""
        team_zero, team_one = self.tricks_won[:, 0], self.tricks_won[:, 1]
        team_one_wins = team_zero <= team_one  # team 0 wins with more tricks, else team 1
        euchred = team_one_wins != (self.maker & 1).astype(bool)  # a maker's team is its seat's parity
        march = (team_zero == rules.TRICKS_PER_HAND) | (team_one == rules.TRICKS_PER_HAND)
        winners_points = 1 + (euchred | march)
        points = np.empty(self.tricks_won.shape, dtype=np.int64)
        points[:, 0] = winners_points * ~team_one_wins
        points[:, 1] = winners_points * team_one_wins
        return points


def _play_block(deals: np.ndarray, ids: np.ndarray, scores: np.ndarray, players: Players, work: _Workspace) -> _Hands:
    """Play one block of hands to their end (``len(deals) == work.size``)."""
    return _Block(deals, ids, scores, players, work).play()


class _Block:
    """A block of hands in play; see the module docstring for the phases."""

    def __init__(
        self, deals: np.ndarray, ids: np.ndarray, scores: np.ndarray, players: Players, work: _Workspace
    ) -> None:
        size = len(deals)
        self.size, self.work, self.players = size, work, players
        self.single = players.single
        self.constants = work.constants
        self.constant_ids = {id(values) for values in work.constants.values()}
        np.take(deals.T, _DEAL_ORDER, axis=0, out=work.positions)
        bits = np.left_shift(_ONE, work.positions, out=work.bits)
        dealt = bits[:_UPCARD_ROW].reshape(SEATS, rules.HAND_SIZE, size)
        holdings = work.holdings
        np.bitwise_or(dealt[:, 0], dealt[:, 1], out=holdings)
        for card in range(2, rules.HAND_SIZE):
            holdings |= dealt[:, card]
        # 24 ids whose bits cover the pack's 24 cards are exactly a permutation of the pack.
        every = np.bitwise_or.reduce(bits[_UPCARD_ROW:], axis=0)
        every |= np.bitwise_or.reduce(holdings, axis=0)
        if not (every == rules.PACK_MASK).all():
            raise DealError("a Euchre deal holds exactly the 24 cards nine to ace")
        self.holdings = holdings
        self.ids = ids.copy()
        self.scores = scores.copy()
        self.dealer = (ids % SEATS).astype(np.int8)
        self.upcard = work.positions[_UPCARD_ROW].copy()
        # [r] the seat r places to the dealer's left, per hand.
        self.seat_of = [(self.dealer + offset) & 3 for offset in range(SEATS)]
        self.bids = np.full((size, MAKING_BIDS), NONE, dtype=np.int8)
        self.trump = np.full(size, NONE, dtype=np.int8)
        self.maker = np.full(size, NONE, dtype=np.int8)
        self.making_round = np.zeros(size, dtype=np.int8)  # the round trump was made in
        self.discard = np.full(size, NONE, dtype=np.int8)
        self.tricks_won = np.zeros((size, rules.NUM_TEAMS), dtype=np.int8)

    def play(self) -> _Hands:
        self._make_trump()
        self._discard()
        self._play_tricks()
        return _Hands(
            self.holdings,
            self.dealer,
            self.bids,
            self.trump,
            self.maker,
            self.discard,
            self.work.history,
            self.tricks_won,
        )

    # ------------------------------------------------------------------ deciding

    def _decide(
        self,
        fields: dict[str, np.ndarray],
        seat: np.ndarray,
        legal: np.ndarray,
        steps: int | np.ndarray,
        rows: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(m,) int64 the legal actions the movers ``seat`` choose at ``steps`` of their hands, shown
        ``fields`` (of every hand of the block, or of hands ``rows``), and their bits;
        ``StrategyFault`` names a strategy that raises or chooses otherwise."""
        if rows is not None:
            fields = self._gathered(fields, rows)
        if self.single is not None:
            return _checked(self.single, _observation(fields), legal, steps, seat)
        actions, bits = np.empty(len(seat), dtype=np.int64), np.empty(len(seat), dtype=np.int64)
        for strategy, seats in self.players.seats_of:
            chosen = np.flatnonzero(seats.take(seat))
            if chosen.size:
                observation = _observation(self._gathered(fields, chosen))
                steps_chosen = steps if np.ndim(steps) == 0 else np.take(steps, chosen)
                actions[chosen], bits[chosen] = _checked(
                    strategy, observation, legal.take(chosen), steps_chosen, seat.take(chosen)
                )
        return actions, bits

    def _gathered(self, fields: dict[str, np.ndarray], rows: np.ndarray) -> dict[str, np.ndarray]:
        """``fields`` of the hands ``rows`` (a constant's rows are all alike: its first rows serve). ``take``
        gathers the rows of a 2-d array many times faster than indexing does."""
        constants = self.constant_ids
        return {
            name: values[: len(rows)] if id(values) in constants else values.take(rows, axis=0)
            for name, values in fields.items()
        }

    # ------------------------------------------------------------------ the phases

    def _make_trump(self) -> None:
        """Up to eight bids: bid k of every hand still making comes from seat ``dealer + k + 1``."""
        constant = self.constants
        order_up_bit = _ONE << (ORDER_UP + self.upcard // NUM_RANKS)
        round_one_legal = order_up_bit | _PASS_BIT
        round_two_legal = _EVERY_ORDER ^ order_up_bit
        legal_by_bid = [round_one_legal] * SEATS + [round_two_legal | _PASS_BIT] * (SEATS - 1) + [round_two_legal]
        rows: np.ndarray | None = None  # the hands still making trump (None: all of them)
        for bid in range(MAKING_BIDS):
            offset = (bid + 1) % SEATS
            making_round = 1 + bid // SEATS
            seat, legal = self.seat_of[offset], legal_by_bid[bid]
            fields = {
                "seat": seat,
                "dealer": self.dealer,
                "phase": constant["making"],
                "making_round": constant[f"round {making_round}"],
                "legal": legal,
                "hand": self.holdings[offset],
                "upcard": self.upcard,
                "bids": self.bids,
                "trump": constant["none"],
                "maker": constant["none"],
                "discard": constant["none"],
                "leader": self.seat_of[1],
                "trick": constant["no trick"],
                "history": constant["no history"],
                "tricks_won": constant["no tricks"],
                "scores": self.scores,
                "round_id": self.ids,
            }
            if rows is None:
                fields["hand"], fields["bids"] = fields["hand"].copy(), self.bids.copy()  # both change later
                actions = self._decide(fields, seat, legal, bid)[0]
                self.bids[:, bid] = actions
            else:
                actions = self._decide(fields, seat.take(rows), legal.take(rows), bid, rows)[0]
                self.bids.reshape(-1)[rows * MAKING_BIDS + bid] = actions
            # Gathered by index: boolean masks of rows this unpredictable make numpy branch row by row.
            ordered, staying = np.flatnonzero(actions != PASS), np.flatnonzero(actions == PASS)
            if ordered.size:
                made = ordered if rows is None else rows.take(ordered)
                self.trump[made] = actions.take(ordered) - ORDER_UP
                self.maker[made] = seat.take(made)
                self.making_round[made] = making_round
                if making_round == 1:  # the dealer picks up the upcard, then discards
                    dealer_holding = self.holdings[0]
                    dealer_holding[made] = dealer_holding.take(made) | (_ONE << self.upcard.take(made))
            if not staying.size:
                return
            rows = staying if rows is None else rows.take(staying)
        raise AssertionError("the dealer's last bid must order up")  # pragma: no cover - legal actions forbid it

    def _discard(self) -> None:
        """Every dealer who picked up the upcard throws a card away."""
        rows = np.flatnonzero(self.making_round == 1)
        if not rows.size:
            return
        constant = self.constants
        dealer_holding = self.holdings[0]
        fields = self._gathered(
            {
                "seat": self.dealer,
                "dealer": self.dealer,
                "phase": constant["discarding"],
                "making_round": constant["round 1"],
                "legal": dealer_holding,
                "hand": dealer_holding,
                "upcard": self.upcard,
                "bids": self.bids,
                "trump": self.trump,
                "maker": self.maker,
                "discard": constant["none"],
                "leader": self.seat_of[1],
                "trick": constant["no trick"],
                "history": constant["no history"],
                "tricks_won": constant["no tricks"],
                "scores": self.scores,
                "round_id": self.ids,
            },
            rows,
        )
        hand = fields["legal"] = fields["hand"]
        bids_made = (fields["bids"] != NONE).sum(axis=1)  # the discard is the dealer's next decision
        cards, bits = self._decide(fields, fields["seat"], hand, bids_made)
        dealer_holding[rows] = hand ^ bits
        self.discard[rows] = cards

    def _play_tricks(self) -> None:
        """Five tricks: card j of a trick comes, in every hand, from the seat j places left of its leader.

        The holdings by seat from the dealer are laid out twice over, so the holding of the seat j places
        left of each hand's leader is j rows below the leader's: one gather finds every mover's cards.
        A card played leaves ``unplayed`` rather than its holding."""
        size, work = self.size, self.work
        history = work.history
        history.fill(NONE)
        tricks = history.view(np.int32)  # [hand, trick]: the trick's four cards as one int32
        trump = self.trump.astype(np.intp)
        suit_cards_row = trump * SEATS
        effective_row = trump * _CARD_IDS
        strength_row = trump * (SEATS + 1)
        holdings = work.doubled  # [seat from the dealer, hand], then the same again
        holdings[:SEATS] = holdings[SEATS:] = self.holdings
        flat_holdings = holdings.reshape(-1)
        leader_holding = work.rows + size  # in flat_holdings: the eldest hand leads the first trick
        unplayed = np.full(size, -1, dtype=np.int64)
        leader = self.seat_of[1]
        team_one_tricks = np.zeros(size, dtype=np.int8)
        tricks_won = self.constants["no tricks"]
        fields = {
            "seat": leader,
            "dealer": self.dealer,
            "phase": self.constants["playing"],
            "making_round": self.making_round,
            "legal": leader,
            "hand": leader,
            "upcard": self.upcard,
            "bids": self.bids,
            "trump": self.trump,
            "maker": self.maker,
            "discard": self.discard,
            "leader": leader,
            "trick": leader,
            "history": history,
            "tricks_won": tricks_won,
            "scores": self.scores,
            "round_id": self.ids,
        }
        follow = strength = best = winner = leader  # set by each trick's lead
        # A hand's decisions before its first card: its bids, and the dealer's discard if any.
        first_card_step = (self.bids != NONE).sum(axis=1) + (self.making_round == 1)
        for trick in range(rules.TRICKS_PER_HAND):
            fields["leader"], fields["tricks_won"] = leader, tricks_won
            for place in range(SEATS):
                seat = leader if place == 0 else (leader + place) & 3
                hand = flat_holdings.take(leader_holding + place * size if place else leader_holding)
                hand &= unplayed
                if place == 0:
                    legal = hand
                else:
                    following = hand & follow
                    legal = following | hand * (following == 0)  # no np.where: it branches, row by row
                fields["seat"], fields["hand"], fields["legal"] = seat, hand, legal
                fields["discard"] = self.discard | -(seat != self.dealer).view(np.int8)  # NONE is -1
                fields["trick"] = tricks[:, trick].copy().view(np.int8).reshape(size, SEATS)
                fields["history"] = history.copy()
                cards, bits = self._decide(fields, seat, legal, first_card_step + (SEATS * trick + place))
                unplayed ^= bits
                history[:, SEATS * trick + place] = cards
                if place == 0:
                    led = _EFFECTIVE_SUIT.take(effective_row + cards)
                    follow = _SUIT_CARDS.take(suit_cards_row + led)
                    strength = (strength_row + led) * _CARD_IDS
                    best = _STRENGTH.take(strength + cards)
                    winner = np.zeros(size, dtype=np.int8)  # the winning card's place in the trick
                else:
                    card_strength = _STRENGTH.take(strength + cards)
                    np.maximum(winner, (card_strength > best).view(np.int8) * place, out=winner)
                    np.maximum(best, card_strength, out=best)
            leader = (leader + winner) & 3
            leader_holding = ((leader - self.dealer) & 3).astype(np.intp)
            leader_holding *= size
            leader_holding += work.rows
            team_one_tricks += leader & 1
            tricks_won = np.empty((size, rules.NUM_TEAMS), dtype=np.int8)
            tricks_won[:, 1] = team_one_tricks
            np.subtract(trick + 1, team_one_tricks, out=tricks_won[:, 0])
        self.holdings &= unplayed
        self.tricks_won = tricks_won


def _observation(fields: dict[str, np.ndarray]) -> Observation:
    """The observation of ``fields``, made read-only: arrays are shared between observations, and with
    the engine, which checks the actions against the very ``legal`` it shows."""
    for values in fields.values():
        if values.flags.writeable:
            values.setflags(write=False)
    return Observation(**fields)


def _checked(
    strategy: Strategy, observation: Observation, legal: np.ndarray, steps: int | np.ndarray, seats: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The actions ``strategy`` chooses for ``observation``, each legal in its row of ``legal`` (bits
    over actions), and their bits (``sim.lockstep.choose_checked``)."""
    actions = lockstep.choose_checked(strategy, observation, bits_to_bools(legal, NUM_ACTIONS), steps, seats)
    return actions, _ONE << actions
