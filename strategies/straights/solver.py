"""An exact open-hand solver for the end of a Straights round: every hand known, every line searched.

``solve_moves`` values every legal action of the seat to move; ``solve_points`` gives the points each
seat still loses after each of those actions, so a caller can score any objective from one solve.
Points are counted *from now on*: the discards still to come, not those already made.

Two rules say how the seats play:

* ``MAXN`` (max^n): every seat minimises its own points. Ties between actions are broken by their
  outcome alone, so every position has one value: fewer own points, then more points for the other
  three together, then more for the next seat in turn, then more for the one after. A seat
  indifferent for itself hurts the others, as the game is won by the lowest score.
* ``PARANOID``: the seat to move at the root minimises its points minus the mean of the other three's,
  and the three others jointly maximise that same quantity: a zero-sum game, searched by alpha-beta.
  Its ``solve_points`` follow one optimal line: at every turn the lowest card id among the actions
  that keep the value.

**The positions the search sees.** Once the 7 of spades is down, each card in hand is of one of three
kinds, for good:

* *dead*: a card between it and its 7 was discarded, so it can never be played. Its holder discards
  it some day, at its rank in points, whenever that is: its cost is counted once, up front, and which
  dead card a seat discards changes nothing.
* *inert*: playable, and playing it opens no card anyone holds: a legal play for the rest of the
  round that changes nothing for anyone, and never a discard. Which inert card a seat plays changes
  nothing either.
* *live*: all the others. A live card is playable exactly when the card next to it towards its 7 is
  in no hand (that card is then on the table: were it discarded, the card would be dead), and 7s are.

So a position is each seat's live cards and how many dead and inert cards it holds: the table follows
from the live cards. That is the transposition key, the search values a position net of its dead
cards' points, and "discard a dead card" and "play an inert card" are one action each. A position
where at most one seat holds live cards is worth nothing more: that seat always has a live card to
play, and the others hold inert and dead cards only. Further, under MAXN an action that costs the
mover more points now than the best action found so far loses, and is not searched.

Both searches are depth-first loops over an explicit stack of frames: numba cannot cache recursive
functions (numba issues 6061 and 9129: a process loading them can abort). Each thread keeps a
transposition table per rule from call to call (its values hold for any later solve), so a round's
solves from turn to turn share their work.

**Speed.** ``solve_moves`` on one position a call, positions reached by random play from random
deals with N cards left over the four hands: 500 positions per N up to 24, 300 beyond; the CPU time
of the calling thread in ms, the least of 3 solves from an empty table (the machine was shared); the
floor, about 0.045 ms, is the Python call and its checks. In batches a position costs the search alone.

====  ========  ======  ======  ======
N     rule      median  99th %  max
====  ========  ======  ======  ======
8     MAXN       0.047   0.062   0.135
8     PARANOID   0.047   0.055   0.076
12    MAXN       0.049   0.073   0.083
12    PARANOID   0.051   0.085   0.135
16    MAXN       0.053   0.101   0.149
16    PARANOID   0.056   0.120   0.183
20    MAXN       0.077   0.364   0.935
20    PARANOID   0.088   0.388   0.744
24    MAXN       0.189   2.166   4.409
24    PARANOID   0.205   1.525   3.473
26    MAXN       0.426   7.813  11.933
26    PARANOID   0.379   3.286   8.306
28    MAXN       0.782  14.962  82.532
28    PARANOID   0.696   8.960  46.572
====  ========  ======  ======  ======

So up to **N = 24** a solve stays well under 1 ms median and 10 ms worst; at 26 the worst cases pass
10 ms. ``solve_points`` under PARANOID, which also follows a line from each action, costs 10-20% more.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import numpy as np

from sim import jit
from sim.cards import NUM_CARDS, NUM_RANKS, NUM_SUITS, count_cards, make_card
from sim.straights import rules

MAXN = 0
PARANOID = 1
RULES = (MAXN, PARANOID)
SEATS = rules.NUM_PLAYERS
SEVEN = rules.SEVEN
TOKEN = NUM_CARDS  # the action "play an inert card" or "discard a dead card", whichever card it is
MAX_OPTIONS = rules.HAND_SIZE + 1  # a seat's cards and the token
FIELD = 9  # bits per seat of a packed points vector: all 52 cards are worth 364 < 512 points
FIELD_MASK = (1 << FIELD) - 1
INERT_SHIFT, DEAD_SHIFT = 0, 16  # counts: 4 bits per seat of inert cards, then 4 per seat of dead ones
COUNT_MASK = 15
INF = 1 << 20
# A transposition entry is 4 words, so a bucket of two fills one 64-byte cache line: the key is the
# cards held live, those of seats 1 and 3 and those of seats 2 and 3 (which spell each seat's), with
# in their top 12 bits the counts, the mover and the root (PARANOID); then the value, with the cards
# left at bit 48 (``_store``). No key is all zeros: positions with one live hand or none are not kept.
ENTRY = 4
KEY_BITS = 12
KEY_LOW = (1 << KEY_BITS) - 1
TABLE_BITS = 18  # 2^18 entries, 8 MB a thread and rule: 24 cards need at most some 35,000
CACHE_LINE = 64
HASH_FACTORS = (0x2545F4914F6CDD1D, 0x5851F42D4C957F2D, 0x14057B7EF767814F)
EXACT, LOWER, UPPER = 0, 1, 2  # what a PARANOID entry's value is
VALUE_OFFSET = 1 << 15  # PARANOID values are kept shifted to be non-negative in 16 bits


def _ranks_mask(suit: int, ranks: Iterable[int]) -> int:
    """The cards of ``suit`` of these ranks (those that exist)."""
    return sum(1 << make_card(rank, suit) for rank in ranks if 0 <= rank < NUM_RANKS)


def _pile_geometry(card: int) -> tuple[int, int, int, int]:
    """A card's outward neighbours (the cards playing it opens: both for a 7), the cards its pile
    reaches only through it, the cards between it and its 7 (the 7 included), and the neighbour it
    is played on (-1 for a 7)."""
    suit, rank = divmod(card, NUM_RANKS)
    if rank < SEVEN:
        opens, beyond, inner, inward = [rank - 1], range(rank), range(rank + 1, SEVEN + 1), card + 1
    elif rank > SEVEN:
        opens, beyond, inner, inward = [rank + 1], range(rank + 1, NUM_RANKS), range(SEVEN, rank), card - 1
    else:
        opens, beyond, inner, inward = [rank - 1, rank + 1], range(NUM_RANKS), range(0), -1
    beyond_mask = _ranks_mask(suit, beyond) & ~(1 << card)
    return _ranks_mask(suit, opens), beyond_mask, _ranks_mask(suit, inner), inward


OUTWARD, BEYOND, INNER, INWARD = np.array([_pile_geometry(card) for card in range(NUM_CARDS)]).T.copy()
NEAR = np.array(
    [_ranks_mask(card // NUM_RANKS, [card % NUM_RANKS - 1, card % NUM_RANKS + 1]) for card in range(NUM_CARDS)]
)
POINTS = np.array([rules.card_points(card) for card in range(NUM_CARDS)], dtype=np.int64)
RANK_MASKS = np.array([sum(_ranks_mask(suit, [rank]) for suit in range(NUM_SUITS)) for rank in range(NUM_RANKS)])
LOW_RANKS = sum(_ranks_mask(suit, range(SEVEN)) for suit in range(NUM_SUITS))  # below the 7s
HIGH_RANKS = sum(_ranks_mask(suit, range(SEVEN + 1, NUM_RANKS)) for suit in range(NUM_SUITS))
SEVENS = rules.SEVENS_MASK
SUIT_MASK = (1 << NUM_RANKS) - 1
ACES, KINGS, ALL_CARDS = rules.ACES_MASK, rules.KINGS_MASK, (1 << NUM_CARDS) - 1


def solve_moves(hands: np.ndarray, table: np.ndarray, mover: np.ndarray, rule: int) -> np.ndarray:
    """(n, 52) float64: each legal action's value for the mover, NaN for every other card.

    ``hands`` (n, 4) int64 are each seat's cards, ``table`` (n,) int64 the cards played face up (the 7
    of spades among them), ``mover`` (n,) int64 the seat to move; play goes on in turn from it, passing
    over empty hands, until every hand is empty. The legal actions are the mover's playable cards or,
    when it has none, every card it holds (none when its hand is empty). Under ``MAXN`` a value is the
    points the mover still loses after the action; under ``PARANOID``, those points minus the mean of
    the other seats' (in thirds of a point). ``ValueError`` for a position no round reaches.
    """
    values, _ = _solve(hands, table, mover, rule, points=False)
    return values


def solve_points(hands: np.ndarray, table: np.ndarray, mover: np.ndarray, rule: int) -> np.ndarray:
    """(n, 52, 4) float64: after each legal action of the mover (NaN for every other card), the points
    each seat still loses when the round is played out by ``rule``; arguments as ``solve_moves``.

    Under ``MAXN`` the play is unique (the module's tie rule); under ``PARANOID`` it is one optimal
    line, the lowest card id at each turn among the actions that keep the value. Either way
    ``solve_moves`` is these points scored for the mover: its own, or its own minus the others' mean.
    """
    _, points = _solve(hands, table, mover, rule, points=True)
    return points


def _solve(hands: np.ndarray, table: np.ndarray, mover: np.ndarray, rule: int, points: bool) -> tuple[np.ndarray, ...]:
    hands, table, mover = _check(hands, table, mover, rule)
    values = np.full((len(table), NUM_CARDS), np.nan)
    lines = np.full((len(table), NUM_CARDS, SEATS), np.nan)
    _solve_rows(hands, table, mover, rule, points, values, lines, _table(rule))
    return values, lines


def _check(hands: np.ndarray, table: np.ndarray, mover: np.ndarray, rule: int) -> tuple[np.ndarray, ...]:
    """The arguments as contiguous int64 arrays; ``ValueError`` for positions no round reaches."""
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    table = np.ascontiguousarray(table, dtype=np.int64)
    mover = np.ascontiguousarray(mover, dtype=np.int64)
    count = len(table)
    if hands.shape != (count, SEATS) or table.shape != (count,) or mover.shape != (count,):
        shapes = f"{hands.shape}, {table.shape}, {mover.shape}"
        raise ValueError(f"hands must be (n, {SEATS}), table and mover (n,); got {shapes}")
    if rule not in RULES:
        raise ValueError(f"rule must be MAXN ({MAXN}) or PARANOID ({PARANOID}), not {rule!r}")
    if count and (mover.min() < 0 or mover.max() >= SEATS):
        raise ValueError(f"mover must be a seat 0..{SEATS - 1}")
    held = np.zeros(count, dtype=np.int64)
    overlap = np.zeros(count, dtype=bool)
    for seat in range(SEATS):
        overlap |= (held & hands[:, seat]) != 0
        held |= hands[:, seat]
    overlap |= (held & table) != 0
    if ((held | table) & ~ALL_CARDS).any() or overlap.any():
        raise ValueError("hands and table must be disjoint sets of cards 0..51")
    if (np.bitwise_count(hands) > rules.HAND_SIZE).any():
        raise ValueError(f"a hand holds at most {rules.HAND_SIZE} cards")
    if ((table >> rules.SEVEN_OF_SPADES) & 1 == 0).any():
        raise ValueError("the table must hold the 7 of spades: the solver starts after the first play")
    for suit in range(NUM_SUITS):
        pile = (table >> (suit * NUM_RANKS)) & SUIT_MASK
        # One run of ranks, through the 7: adding a run's lowest card carries past its top.
        if (((pile & (pile + (pile & -pile))) != 0) | ((pile != 0) & ((pile >> SEVEN) & 1 == 0))).any():
            raise ValueError("the table must be piles: runs of ranks through each suit's 7")
    return hands, table, mover


_tables = threading.local()


def _table(rule: int) -> np.ndarray:
    """This thread's transposition table for ``rule``, kept from call to call: an entry's value is a
    function of the position its key spells out (and of the root, for PARANOID), so it holds for any
    later solve."""
    tables = getattr(_tables, "by_rule", None)
    if tables is None:
        tables = _tables.by_rule = {}
    if rule not in tables:
        words = np.zeros(((1 << TABLE_BITS) + 2) * ENTRY, dtype=np.int64)
        start = -words.ctypes.data % CACHE_LINE // words.itemsize  # buckets on cache lines
        tables[rule] = words[start : start + (1 << TABLE_BITS) * ENTRY].reshape(-1, ENTRY)
    return tables[rule]


@jit.njit(cache=True, nogil=True)
def _lowest(mask):
    """The id of the lowest card of a non-empty mask."""
    return count_cards((mask & -mask) - 1)


@jit.njit(cache=True, nogil=True)
def _points_of(mask):
    """The discard points of the cards of ``mask``."""
    total = 0
    while mask:
        total += POINTS[_lowest(mask)]
        mask &= mask - 1
    return total


@jit.njit(cache=True, nogil=True)
def _playable(union):
    """The live cards (``union`` of all seats') that are playable: 7s, and cards whose neighbour
    towards the 7 nobody holds."""
    return union & ((LOW_RANKS & ~(union >> 1)) | (HIGH_RANKS & ~(union << 1)) | SEVENS)


@jit.njit(cache=True, nogil=True)
def _owner(live, depth, card):
    """The seat whose live cards hold ``card``."""
    for seat in range(SEATS):
        if (live[depth, seat] >> card) & 1:
            return seat
    return -1


@jit.njit(cache=True, nogil=True)
def _play(live, depth, mover, card, counts, union):
    """Play live ``card`` in position ``live[depth]`` (changed in place); returns the new counts.

    It opens its outward neighbours: one that then opens nothing itself turns inert."""
    bit = np.int64(1) << card
    live[depth, mover] &= ~bit
    union &= ~bit
    opened = OUTWARD[card] & union
    while opened:
        near = _lowest(opened)
        opened &= opened - 1
        if NEAR[near] & union == 0:
            owner = _owner(live, depth, near)
            live[depth, owner] &= ~(np.int64(1) << near)
            counts += 1 << (INERT_SHIFT + 4 * owner)
    return counts


@jit.njit(cache=True, nogil=True)
def _discard(live, depth, mover, card, counts, union):
    """Discard live ``card`` (never playable, so never a 7) in ``live[depth]``, changed in place;
    returns the new counts and the packed points it costs now: its own and those of the cards it
    kills (every held card beyond it). Its inward neighbour turns inert if it is playable and
    now opens nothing."""
    bit = np.int64(1) << card
    live[depth, mover] &= ~bit
    union &= ~bit
    cost = POINTS[card] << (FIELD * mover)
    killed = BEYOND[card] & union
    if killed:
        union &= ~killed
        for seat in range(SEATS):
            dead = live[depth, seat] & killed
            if dead:
                live[depth, seat] &= ~dead
                counts += count_cards(dead) << (DEAD_SHIFT + 4 * seat)
                cost += _points_of(dead) << (FIELD * seat)
    inward = INWARD[card]
    if (union >> inward) & 1 and (_playable(union) >> inward) & 1 and NEAR[inward] & union == 0:
        owner = _owner(live, depth, inward)
        live[depth, owner] &= ~(np.int64(1) << inward)
        counts += 1 << (INERT_SHIFT + 4 * owner)
    return counts, cost


@jit.njit(cache=True, nogil=True)
def _seat_points(packed, seat):
    """A seat's points in a packed points vector (``FIELD`` bits a seat)."""
    return (packed >> (FIELD * seat)) & FIELD_MASK


@jit.njit(cache=True, nogil=True)
def _margin(packed, root):
    """3 x (root's points - mean of the others'), an integer, from a packed points vector."""
    total = 0
    for seat in range(SEATS):
        total += _seat_points(packed, seat)
    return 4 * _seat_points(packed, root) - total


@jit.njit(cache=True, nogil=True)
def _maxn_order(packed, mover):
    """Where a points vector ranks for ``mover`` under MAXN, smaller is better: own points, then the
    others' total (more is better), then the next seat's, then the one after's."""
    own = _seat_points(packed, mover)
    others = -own
    for seat in range(SEATS):
        others += _seat_points(packed, seat)
    order = own * 1024 + (1023 - others)
    order = order * 512 + (FIELD_MASK - _seat_points(packed, (mover + 1) & 3))
    return order * 512 + (FIELD_MASK - _seat_points(packed, (mover + 2) & 3))


@jit.njit(cache=True, nogil=True)
def _next_to_move(live, depth, counts, mover):
    """``mover``, or the first seat after it holding a card."""
    for step in range(SEATS):
        seat = (mover + step) & 3
        inert = (counts >> (INERT_SHIFT + 4 * seat)) & COUNT_MASK
        if live[depth, seat] or inert or (counts >> (DEAD_SHIFT + 4 * seat)) & COUNT_MASK:
            return seat
    return mover


@jit.njit(cache=True, nogil=True)
def _settled(live, depth):
    """True when at most one seat holds live cards: nobody loses a point but its dead cards' (module doc)."""
    holders = 0
    for seat in range(SEATS):
        if live[depth, seat]:
            holders += 1
    return holders <= 1


@jit.njit(cache=True, nogil=True)
def _key(live, depth, word):
    """The transposition key of position ``live[depth]``; ``word``: counts | mover << 32 | root << 34."""
    key0 = live[depth, 0] | live[depth, 1] | live[depth, 2] | live[depth, 3]
    key1 = live[depth, 1] | live[depth, 3]
    key2 = live[depth, 2] | live[depth, 3]
    key0 |= (word & KEY_LOW) << NUM_CARDS
    key1 |= ((word >> KEY_BITS) & KEY_LOW) << NUM_CARDS
    key2 |= ((word >> (2 * KEY_BITS)) & KEY_LOW) << NUM_CARDS
    return key0, key1, key2


@jit.njit(cache=True, nogil=True)
def _slot(tt, key0, key1, key2):
    """The entry holding the key, or ``-1 - bucket`` when the table lacks it."""
    # A product's low bits see only its factors' low bits: fold the high bits down before each one.
    mixed = key0 ^ (key1 ^ (key1 >> 31)) * HASH_FACTORS[1] ^ (key2 ^ (key2 >> 29)) * HASH_FACTORS[2]
    mixed = (mixed ^ (mixed >> 32)) * HASH_FACTORS[0]
    mixed ^= mixed >> 29
    index = mixed & (tt.shape[0] - 2)  # two entries a bucket: this one and the next
    for slot in range(index, index + 2):
        if tt[slot, 0] == key0 and tt[slot, 1] == key1 and tt[slot, 2] == key2:
            return slot
    return -1 - index


@jit.njit(cache=True, nogil=True, inline="always")
def _store(tt, frames, depth, value, size):
    """Keep ``value`` for the position at ``depth``, which ``_slot`` missed: the bucket's first entry
    keeps the larger subtree, the second takes what the first refuses."""
    index = -1 - frames[depth, PROBE]
    if (tt[index, 3] >> 48) > size:
        index += 1
    tt[index, 0], tt[index, 1], tt[index, 2] = frames[depth, KEY0], frames[depth, KEY1], frames[depth, KEY2]
    tt[index, 3] = value | (np.int64(size) << 48)


@jit.njit(cache=True, nogil=True)
def _size(live, depth, counts):
    """Cards left in position ``live[depth]``: the transposition table keeps the bigger subtrees."""
    size = 0
    for seat in range(SEATS):
        size += count_cards(live[depth, seat])
        size += (counts >> (INERT_SHIFT + 4 * seat)) & COUNT_MASK
        size += (counts >> (DEAD_SHIFT + 4 * seat)) & COUNT_MASK
    return size


@jit.njit(cache=True, nogil=True)
def _options(live, depth, counts, mover, union, moves):
    """The mover's actions into ``moves[depth]``; returns (how many, whether they are plays).

    Plays: its playable live cards, then ``TOKEN`` for an inert card. Discards (only when it has no
    play): ``TOKEN`` for a dead card first (no new cost), then its live cards, cheapest first."""
    own = live[depth, mover]
    legal = own & _playable(union)
    count = 0
    if legal or (counts >> (INERT_SHIFT + 4 * mover)) & COUNT_MASK:
        while legal:
            moves[depth, count] = _lowest(legal)
            legal &= legal - 1
            count += 1
        if (counts >> (INERT_SHIFT + 4 * mover)) & COUNT_MASK:
            moves[depth, count] = TOKEN
            count += 1
        return count, True
    if (counts >> (DEAD_SHIFT + 4 * mover)) & COUNT_MASK:
        moves[depth, count] = TOKEN
        count += 1
    for rank in range(NUM_RANKS):
        cards = own & RANK_MASKS[rank]
        while cards:
            moves[depth, count] = _lowest(cards)
            cards &= cards - 1
            count += 1
    return count, False


@jit.njit(cache=True, nogil=True, inline="always")
def _apply(live, depth, counts, mover, union, move, plays):
    """Position ``live[depth + 1]`` after ``move``; returns its counts and the packed points it cost."""
    for seat in range(SEATS):
        live[depth + 1, seat] = live[depth, seat]
    if move == TOKEN:
        return counts - (1 << ((INERT_SHIFT if plays else DEAD_SHIFT) + 4 * mover)), 0
    if plays:
        return _play(live, depth + 1, mover, move, counts, union), 0
    return _discard(live, depth + 1, mover, move, counts, union)


# A search's frames, one row per depth of ``frames``: the position's counts (its live cards are the
# same row of ``live``), whose turn, the cards anyone holds live, whether its actions are plays, how
# many there are (in ``moves``) and which one is being searched, the points that one cost, the best
# so far, where the transposition table has the position, and PARANOID's windows.
COUNTS, MOVER, UNION, PLAYS, OPTIONS, NEXT, COST, BEST, ORDER, PROBE, KEY0, KEY1, KEY2 = range(13)
ALPHA, BETA, LOW, HIGH, BEST_MOVE = range(13, 18)
FRAME = 18


# The helpers a search calls at every position are inlined into it (numba's inliner): as calls they
# cost a quarter of its time, and inlining the smaller helpers too doubles the compile time for no more.
@jit.njit(cache=True, nogil=True, inline="always")
def _look_up(live, depth, frames, tt, root):
    """Whose turn it is at the position at ``depth`` (set in its frame with its key); returns its entry
    in the table, or ``-1 - bucket``."""
    mover = _next_to_move(live, depth, frames[depth, COUNTS], frames[depth, MOVER])
    frames[depth, MOVER] = mover
    key0, key1, key2 = _key(live, depth, frames[depth, COUNTS] | (mover << 32) | (root << 34))
    frames[depth, KEY0], frames[depth, KEY1], frames[depth, KEY2] = key0, key1, key2
    probe = _slot(tt, key0, key1, key2)
    frames[depth, PROBE] = probe
    return probe


@jit.njit(cache=True, nogil=True, inline="always")
def _enter(live, depth, frames, moves, hint):
    """List the actions of the position at ``depth``, ``hint`` first when it is one of them, and go
    down to the first."""
    union = live[depth, 0] | live[depth, 1] | live[depth, 2] | live[depth, 3]
    count, plays = _options(live, depth, frames[depth, COUNTS], frames[depth, MOVER], union, moves)
    for option in range(1, count):
        if moves[depth, option] == hint:
            moves[depth, option], moves[depth, 0] = moves[depth, 0], hint
    frames[depth, UNION], frames[depth, PLAYS], frames[depth, OPTIONS] = union, plays, count
    frames[depth, BEST_MOVE] = moves[depth, 0]
    _descend(live, depth, frames, moves, 0)


@jit.njit(cache=True, nogil=True, inline="always")
def _descend(live, depth, frames, moves, option):
    """Take action ``option`` of the position at ``depth``: its child becomes the position at ``depth + 1``
    and the frame's ``COST`` what the action cost (packed points)."""
    mover = frames[depth, MOVER]
    move, plays = moves[depth, option], frames[depth, PLAYS] != 0
    counts, cost = _apply(live, depth, frames[depth, COUNTS], mover, frames[depth, UNION], move, plays)
    frames[depth, NEXT], frames[depth, COST] = option, cost
    frames[depth + 1, COUNTS], frames[depth + 1, MOVER] = counts, (mover + 1) & 3


@jit.njit(cache=True, nogil=True)
def _maxn(live, top, tt, moves, frames):
    """The packed points every seat still loses from the position at depth ``top`` (``live[top]``,
    ``frames[top]``'s counts and mover), net of its dead cards, each seat minimising its own, ties
    broken by the outcome (module doc). A depth-first search with an explicit stack: numba's cache
    cannot hold recursive functions (numba issues 6061, 9129: the process aborts loading them)."""
    depth = top
    while True:
        # Down: the position at ``depth`` is new; settle it, or go down to its first child.
        value = np.int64(0)
        if not _settled(live, depth):
            probe = _look_up(live, depth, frames, tt, 0)
            if probe >= 0:
                value = tt[probe, 3] & ((np.int64(1) << (FIELD * SEATS)) - 1)
            else:
                frames[depth, BEST], frames[depth, ORDER] = 0, np.int64(1) << 62
                _enter(live, depth, frames, moves, -1)
                depth += 1
                continue
        # Up: ``value`` is the position at ``depth``'s; fold it into its parent's, then go on with the
        # parent's next action, or, when it has none, settle the parent too.
        while depth > top:
            depth -= 1
            value += frames[depth, COST]
            mover = frames[depth, MOVER]
            order = _maxn_order(value, mover)
            if order < frames[depth, ORDER]:
                frames[depth, BEST], frames[depth, ORDER] = value, order
            best_own = _seat_points(frames[depth, BEST], mover)
            option = frames[depth, NEXT] + 1
            while option < frames[depth, OPTIONS]:
                _descend(live, depth, frames, moves, option)
                # A seat's points only grow: an action that costs it more now than the best so far
                # loses in total, whatever follows.
                if _seat_points(frames[depth, COST], mover) <= best_own:
                    break
                option += 1
            if option < frames[depth, OPTIONS]:
                depth += 1
                break
            value = frames[depth, BEST]
            _store(tt, frames, depth, value, _size(live, depth, frames[depth, COUNTS]))
        else:
            return value


@jit.njit(cache=True, nogil=True)
def _paranoid(live, top, alpha, beta, root, tt, moves, frames):
    """3 x (root's points - the others' mean) still to lose from the position at depth ``top``, net
    of its dead cards, the root minimising and the others maximising: fail-soft alpha-beta, so a value
    at or below ``alpha`` is an upper bound and one at or above ``beta`` a lower bound. Explicit
    stack, as ``_maxn``."""
    depth = top
    frames[depth, ALPHA], frames[depth, BETA] = alpha, beta
    while True:
        value = np.int64(0)
        if not _settled(live, depth):
            probe = _look_up(live, depth, frames, tt, root)
            alpha, beta = frames[depth, ALPHA], frames[depth, BETA]
            hint, done = -1, False
            if probe >= 0:
                entry = tt[probe, 3]
                value = (entry & 0xFFFF) - VALUE_OFFSET
                bound = (entry >> 16) & 3
                hint = (entry >> 18) & 63
                if bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha):
                    done = True
                elif bound == LOWER:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
            if not done:
                frames[depth, ALPHA], frames[depth, BETA] = alpha, beta
                frames[depth, LOW], frames[depth, HIGH] = alpha, beta
                frames[depth, BEST] = INF if frames[depth, MOVER] == root else -INF
                _enter(live, depth, frames, moves, hint)
                _window(frames, depth, root)
                depth += 1
                continue
        while depth > top:
            depth -= 1
            value += frames[depth, COST]
            option = frames[depth, NEXT]
            if frames[depth, MOVER] == root:
                if value < frames[depth, BEST]:
                    frames[depth, BEST], frames[depth, BEST_MOVE] = value, moves[depth, option]
                    frames[depth, HIGH] = min(frames[depth, HIGH], value)
            elif value > frames[depth, BEST]:
                frames[depth, BEST], frames[depth, BEST_MOVE] = value, moves[depth, option]
                frames[depth, LOW] = max(frames[depth, LOW], value)
            if frames[depth, LOW] < frames[depth, HIGH] and option + 1 < frames[depth, OPTIONS]:
                _descend(live, depth, frames, moves, option + 1)
                _window(frames, depth, root)
                depth += 1
                break
            value = frames[depth, BEST]
            _keep_bound(tt, live, depth, frames, value)
        else:
            return value


@jit.njit(cache=True, nogil=True, inline="always")
def _window(frames, depth, root):
    """After ``_descend``: the action's cost as PARANOID counts it, and the child's window."""
    spent = _margin(frames[depth, COST], root)
    frames[depth, COST] = spent
    frames[depth + 1, ALPHA] = frames[depth, LOW] - spent
    frames[depth + 1, BETA] = frames[depth, HIGH] - spent


@jit.njit(cache=True, nogil=True, inline="always")
def _keep_bound(tt, live, depth, frames, best):
    """Store what the PARANOID search of the position at ``depth`` found: a value, exact or a bound."""
    alpha, beta = frames[depth, ALPHA], frames[depth, BETA]
    bound = UPPER if best <= alpha else LOWER if best >= beta else EXACT
    entry = (best + VALUE_OFFSET) | (bound << 16) | (frames[depth, BEST_MOVE] << 18)
    probe = frames[depth, PROBE]
    if probe >= 0:  # the entry's bound did not settle it; the new one is at least as useful
        tt[probe, 3] = entry | (tt[probe, 3] >> 48 << 48)
    else:
        _store(tt, frames, depth, entry, _size(live, depth, frames[depth, COUNTS]))


@jit.njit(cache=True, nogil=True)
def _search(live, depth, counts, mover, rule, root, tt, moves, frames):
    """The value of the position ``live[depth]`` with ``counts``, ``mover`` to move: MAXN's packed
    points or PARANOID's exact 3 x margin for ``root``, net of its dead cards."""
    frames[depth, COUNTS], frames[depth, MOVER] = counts, mover
    if rule == MAXN:
        return _maxn(live, depth, tt, moves, frames)
    return _paranoid(live, depth, -INF, INF, root, tt, moves, frames)


@jit.njit(cache=True, nogil=True)
def _solve_rows(hands, table, movers, rule, lines, values, points, tt):
    """Fill ``values`` (n, 52) and, under MAXN or with ``lines``, ``points`` (n, 52, 4) for each row
    (see ``solve_moves``); ``lines``: follow a PARANOID line from each action for its points."""
    live = np.zeros((NUM_CARDS + 2, SEATS), dtype=np.int64)  # a position a depth (the root at 0)
    moves = np.zeros((NUM_CARDS + 2, MAX_OPTIONS), dtype=np.int64)
    frames = np.zeros((NUM_CARDS + 2, FRAME), dtype=np.int64)
    inert_now = np.zeros(SEATS, dtype=np.int64)
    dead_now = np.zeros(SEATS, dtype=np.int64)
    for row in range(len(table)):
        mover = movers[row]
        hand = hands[row, mover]
        counts, dead_points, inert_cards, dead_cards = _classify(hands[row], table[row], live)
        union = live[0, 0] | live[0, 1] | live[0, 2] | live[0, 3]
        legal = hand & _table_playable(table[row])
        plays = legal != 0
        candidates = legal if plays else hand
        tokens = inert_cards | dead_cards
        token_seen, token_value, token_packed = False, 0.0, np.int64(0)
        while candidates:
            card = _lowest(candidates)
            candidates &= candidates - 1
            move = TOKEN if (tokens >> card) & 1 else card
            if move == TOKEN and token_seen:  # another card of the same kind: the same outcome
                value, packed = token_value, token_packed
            else:
                child_counts, cost = _apply(live, 0, counts, mover, union, move, plays)
                packed = dead_points + cost
                after = (mover + 1) & 3
                if rule == MAXN:
                    packed += _search(live, 1, child_counts, after, MAXN, mover, tt, moves, frames)
                    value = float(_seat_points(packed, mover))
                else:
                    child = _search(live, 1, child_counts, after, PARANOID, mover, tt, moves, frames)
                    value = (_margin(packed, mover) + child) / 3.0
                    if lines:
                        for seat in range(SEATS):
                            inert_now[seat] = hands[row, seat] & inert_cards
                            dead_now[seat] = hands[row, seat] & dead_cards
                        _follow(live, 0, move, plays, card, mover, inert_now, dead_now)
                        line = _paranoid_line(
                            live, 1, child_counts, after, mover, inert_now, dead_now, child, tt, moves, frames
                        )
                        packed += line
                if move == TOKEN:
                    token_seen, token_value, token_packed = True, value, packed
            values[row, card] = value
            if rule == MAXN or lines:
                for seat in range(SEATS):
                    points[row, card, seat] = _seat_points(packed, seat)


@jit.njit(cache=True, nogil=True)
def _classify(hands, table, live):
    """The root position: each seat's live cards into ``live[0]``; returns the counts, the packed
    points of the dead cards, the inert cards and the dead cards."""
    held = hands[0] | hands[1] | hands[2] | hands[3]
    gone = ~(held | table) & ALL_CARDS  # discarded: the cards beyond one are dead
    reachable, dead_cards, inert_cards = np.int64(0), np.int64(0), np.int64(0)
    rest = held
    while rest:
        card = _lowest(rest)
        rest &= rest - 1
        if INNER[card] & gone:
            dead_cards |= np.int64(1) << card
        else:
            reachable |= np.int64(1) << card
    rest = _playable(reachable)
    while rest:
        card = _lowest(rest)
        rest &= rest - 1
        if NEAR[card] & reachable == 0:
            inert_cards |= np.int64(1) << card
    counts, dead_points = np.int64(0), np.int64(0)
    for seat in range(SEATS):
        live[0, seat] = hands[seat] & reachable & ~inert_cards
        counts += count_cards(hands[seat] & inert_cards) << (INERT_SHIFT + 4 * seat)
        counts += count_cards(hands[seat] & dead_cards) << (DEAD_SHIFT + 4 * seat)
        dead_points += _points_of(hands[seat] & dead_cards) << (FIELD * seat)
    return counts, dead_points, inert_cards, dead_cards


@jit.njit(cache=True, nogil=True)
def _table_playable(table):
    """``rules.playable_mask`` of a table holding the 7 of spades, compiled."""
    one_up = (table << 1) & ~ACES & ALL_CARDS
    one_down = (table >> 1) & ~KINGS
    return (SEVENS | one_up | one_down) & ~table


@jit.njit(cache=True, nogil=True)
def _paranoid_line(live, depth, counts, mover, root, inert_cards, dead_cards, value, tt, moves, frames):
    """The packed points lost along one optimal PARANOID line from the position ``live[depth]`` worth
    ``value`` (net of its dead cards), which it overwrites: at each turn the lowest card id among the
    actions that keep the value. ``inert_cards``, ``dead_cards`` (4,): the cards the counts stand for."""
    total = np.int64(0)
    while not _settled(live, depth):
        mover = _next_to_move(live, depth, counts, mover)
        union = live[depth, 0] | live[depth, 1] | live[depth, 2] | live[depth, 3]
        legal = live[depth, mover] & _playable(union)
        plays = legal != 0 or (counts >> (INERT_SHIFT + 4 * mover)) & COUNT_MASK != 0
        tokens = inert_cards[mover] if plays else dead_cards[mover]
        candidates = (legal if plays else live[depth, mover]) | tokens
        token_tried = False
        card, move, child_counts, cost, spent = -1, -1, counts, np.int64(0), np.int64(0)
        while candidates:
            card = _lowest(candidates)
            candidates &= candidates - 1
            move = TOKEN if (tokens >> card) & 1 else card
            if move == TOKEN and token_tried:
                continue  # another card of the same kind: the same value, which did not keep it
            token_tried |= move == TOKEN
            child_counts, cost = _apply(live, depth, counts, mover, union, move, plays)
            spent = _margin(cost, root)
            if (
                spent + _search(live, depth + 1, child_counts, (mover + 1) & 3, PARANOID, root, tt, moves, frames)
                == value
            ):
                break
        _follow(live, depth, move, plays, card, mover, inert_cards, dead_cards)
        total += cost
        value -= spent
        counts, mover = child_counts, (mover + 1) & 3
        for seat in range(SEATS):
            live[depth, seat] = live[depth + 1, seat]
    return total


@jit.njit(cache=True, nogil=True)
def _follow(live, depth, move, plays, card, mover, inert_cards, dead_cards):
    """Keep ``inert_cards`` and ``dead_cards`` (4,), which cards the counts stand for, as ``card``
    (action ``move``) takes ``live[depth]`` to ``live[depth + 1]``: the cards that left the live masks
    other than it turned inert or, beyond a discard, dead."""
    bit = np.int64(1) << card
    for seat in range(SEATS):
        left = live[depth, seat] & ~live[depth + 1, seat] & ~bit
        if move != TOKEN and not plays:
            dead_cards[seat] |= left & BEYOND[card]
            inert_cards[seat] |= left & ~BEYOND[card]
        else:
            inert_cards[seat] |= left
    if move == TOKEN and plays:
        inert_cards[mover] &= ~bit
    elif move == TOKEN:
        dead_cards[mover] &= ~bit
