"""An exact open-hand solver for the tricks of a Euchre hand: every legal card's value under best play.

``solve_moves`` takes a batch of positions with every hand known (perfect information) and, for the
seat to move, the tricks its team ends the hand with after each legal card when both teams then play
to take as many tricks as they can (zero-sum: the tricks one team does not take go to the other).

Search, per position (a compiled kernel, row by row):

* **alpha-beta**, fail-soft, one card at a time; team 0 maximises its tricks, team 1 minimises them;
  each of the mover's cards is searched with a window wider than any value, so each gets its exact
  value, the searches sharing one transposition table;
* **a transposition table at trick boundaries**, keyed by the leader and, suit by suit, who holds
  each card left in the suit's order: from a boundary on only that order matters, not which cards are
  gone, so positions that differ only in the cards gone share an entry. Entries keep a lower and an
  upper bound on team 0's tricks to come, in a fixed-size numpy table whose rows carry the stamp of the
  position that wrote them (a thread keeps its table from call to call and never clears it);
* **sure tricks**: a seat's trumps above every trump of the other team each take a trick, which bounds
  the value before any card is searched;
* **equivalent cards collapsed**: cards of one seat adjacent in their suit's order, with no card
  between them still held or on the table, do the same, so only the highest of such a run is searched
  (and at the root its value is given to the whole run);
* **move ordering**: a lead cashes the cards that hold their suit, strongest first, else leads low; a
  follower plays low under a partner winning the trick, else its cheapest winning card, else its lowest.

The search is a loop over an explicit stack, not a recursive function: numba's disk cache cannot
hold a recursive function (numba issues #6061 and #9129: it loads broken, and segfaults).

Speed, measured on this machine (AMD EPYC, 2 cores shared with other work, load average 5-8; one
core used): 1,000 random positions after trump is made (five cards a seat, random trump and leader),
each solved alone for every legal lead, the fastest of three runs of each: median 42 µs, 90th
percentile 88 µs, 99th percentile 168 µs, slowest 325 µs per position, call overhead (about 2 µs)
included. A search visits about 770 nodes a position on average, 270 of them trick boundaries.
"""

from __future__ import annotations

import threading

import numpy as np

from sim import jit
from sim.euchre import rules

SEATS = rules.NUM_PLAYERS
_CARD_IDS = 52
_MAX_DEPTH = SEATS * rules.TRICKS_PER_HAND + 1  # a frame per card played from the root, and the root's
_RUN = 7  # the most cards of one effective suit (trump: both bowers and five more)
_NO_CARD = -1
_BIG = 99  # above any count of tricks

# The rules' tables, flat and int64 for the kernel (indexes as in sim.euchre.fast).
_EFFECTIVE_SUIT = rules.EFFECTIVE_SUIT.astype(np.int64).ravel()  # [trump * 52 + card]
_SUIT_CARDS = rules.SUIT_CARDS.astype(np.int64).ravel()  # [trump * 4 + suit]
_STRENGTH = rules.STRENGTH.astype(np.int64).ravel()  # [(trump * 5 + led suit) * 52 + card]
_TRUMP_ORDER = rules.NO_LED  # the led-suit index of the order with trump alone
_PACK_MASK = np.int64(rules.PACK_MASK)


def _suit_orders() -> np.ndarray:
    """[(trump * 4 + suit) * _RUN + i] the cards counting as ``suit``, strongest first, -1 padding."""
    orders = np.full((4, 4, _RUN), _NO_CARD, dtype=np.int64)
    for trump in range(4):
        strength = rules.STRENGTH[trump, rules.NO_LED]
        for suit in range(4):
            cards = [card for card in rules.NEW_PACK if rules.effective_suit(card, trump) == suit]
            cards.sort(key=lambda card: -int(strength[card]))
            orders[trump, suit, : len(cards)] = cards
    return orders.ravel()


_SUIT_ORDER = _suit_orders()

# The transposition table: rows of (key, stamp, lower bound, upper bound), indexed by a multiplicative hash.
_TABLE_BITS = 12
_TABLE_SIZE = 1 << _TABLE_BITS
_HASH = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64: Fibonacci hashing
_KEY, _STAMP, _LOWER, _UPPER = range(4)

# The search's stack: a row (frame) per node on the path from the root, these columns each.
(
    _LEADER,  # the seat that led the node's trick
    _PLAYED,  # cards on the table in it
    _ON_TABLE,  # those cards, as a mask
    _LED_MASK,  # the cards of the led suit (following it is compulsory when able)
    _ORDER,  # where the trick's order is in _STRENGTH
    _BEST_STRENGTH,  # the strongest card so far, in that order
    _BEST_SEAT,  # and who played it
    _ALPHA,  # the window, narrowed as moves are searched
    _BETA,
    _BEST,  # the best value so far for the seat to move
    _WINDOW_LOW,  # the window the node was searched with, after the table's bounds (for storing)
    _WINDOW_HIGH,
    _SLOT,  # the node's table row, -1 in mid-trick
    _NODE_KEY,
    _NODE_LOWER,  # the bounds the table held on entry
    _NODE_UPPER,
    _SEAT,  # the seat to move
    _COUNT,  # candidate moves
    _NEXT,  # the next move to search
    _WON,  # team 0's trick from the move being searched, when it completes the trick
    _MOVES,  # candidate cards from here (a seat holds at most five)
) = range(21)
_SCORES = _MOVES + 8  # and their ordering scores
_FRAME = _SCORES + 8

_ENTER, _NEXT_MOVE, _RETURN = range(3)  # the search loop's states


@jit.njit(cache=True, nogil=True)
def _count(mask):  # pragma: no cover - compiled
    """How many cards ``mask`` holds."""
    count = 0
    while mask:  # LLVM turns this loop into one popcount instruction
        mask &= mask - 1
        count += 1
    return count


@jit.njit(cache=True, nogil=True)
def _last_trick(hands, trump, leader):  # pragma: no cover - compiled
    """1 when team 0 takes the trick each seat plays its one card to from ``leader``, else 0."""
    led = _count(hands[leader] - 1)  # a single bit's index is the count of the bits below it
    order = (trump * 5 + _EFFECTIVE_SUIT[trump * _CARD_IDS + led]) * _CARD_IDS
    best, winner = _STRENGTH[order + led], leader
    for step in range(1, SEATS):
        seat = (leader + step) & 3
        strength = _STRENGTH[order + _count(hands[seat] - 1)]
        if strength > best:
            best, winner = strength, seat
    return 1 - (winner & 1)


@jit.njit(cache=True, nogil=True)
def _candidates(stack, depth, legal, alive, trump):  # pragma: no cover - compiled
    """Write the highest card of each run of equivalent cards of ``legal`` into the frame's moves and
    return how many. A run is cards of one suit with no other ``alive`` card between them."""
    count = 0
    for suit in range(4):
        if not legal & _SUIT_CARDS[trump * 4 + suit]:
            continue
        base = (trump * 4 + suit) * _RUN
        in_run = False
        for place in range(_RUN):
            card = _SUIT_ORDER[base + place]
            if card < 0:
                break
            bit = np.int64(1) << card
            if legal & bit:
                if not in_run:
                    stack[depth, _MOVES + count] = card
                    count += 1
                    in_run = True
            elif alive & bit:
                in_run = False
    return count


@jit.njit(cache=True, nogil=True)
def _holds_suit(card, alive, trump):  # pragma: no cover - compiled
    """True when no ``alive`` card of ``card``'s suit is stronger."""
    base = (trump * 4 + _EFFECTIVE_SUIT[trump * _CARD_IDS + card]) * _RUN
    for place in range(_RUN):
        other = _SUIT_ORDER[base + place]
        if other == card:
            return True
        if alive >> other & 1:
            return False
    return True


@jit.njit(cache=True, nogil=True)
def _order_moves(stack, depth, count, alive, trump):  # pragma: no cover - compiled
    """Sort the frame's ``count`` moves most promising first (insertion sort on a score)."""
    played, seat = stack[depth, _PLAYED], stack[depth, _SEAT]
    order, best_strength = stack[depth, _ORDER], stack[depth, _BEST_STRENGTH]
    partner_winning = played > 0 and (stack[depth, _BEST_SEAT] & 1) == (seat & 1)
    for index in range(count):
        card = stack[depth, _MOVES + index]
        if played == 0:
            strength = _STRENGTH[(trump * 5 + _TRUMP_ORDER) * _CARD_IDS + card]
            # Cash the cards that hold their suit, strongest first; else lead low.
            score = 100 + strength if _holds_suit(card, alive, trump) else -strength
        else:
            strength = _STRENGTH[order + card]
            if not partner_winning and strength > best_strength:
                score = 100 - strength  # the cheapest card that wins
            else:
                score = -strength  # keep the strong cards
        stack[depth, _SCORES + index] = score
    for index in range(1, count):
        card, score = stack[depth, _MOVES + index], stack[depth, _SCORES + index]
        place = index
        while place > 0 and stack[depth, _SCORES + place - 1] < score:
            stack[depth, _MOVES + place] = stack[depth, _MOVES + place - 1]
            stack[depth, _SCORES + place] = stack[depth, _SCORES + place - 1]
            place -= 1
        stack[depth, _MOVES + place], stack[depth, _SCORES + place] = card, score


@jit.njit(cache=True, nogil=True)
def _push(stack, depth, trump, card):  # pragma: no cover - compiled
    """Fill frame ``depth + 1``: the node after the frame's seat plays ``card`` (the hands already
    without it), with the frame's window less the trick the card completes for team 0, if it does."""
    child = depth + 1
    played = stack[depth, _PLAYED]
    seat = stack[depth, _SEAT]
    if played == 0:
        suit = _EFFECTIVE_SUIT[trump * _CARD_IDS + card]
        order = (trump * 5 + suit) * _CARD_IDS
        led_mask, best_strength, best_seat = _SUIT_CARDS[trump * 4 + suit], _STRENGTH[order + card], seat
    else:
        order, led_mask = stack[depth, _ORDER], stack[depth, _LED_MASK]
        best_strength, best_seat = stack[depth, _BEST_STRENGTH], stack[depth, _BEST_SEAT]
        strength = _STRENGTH[order + card]
        if strength > best_strength:
            best_strength, best_seat = strength, seat
    won = 0
    if played == SEATS - 1:  # the trick is complete: its winner leads the next
        won = 1 - (best_seat & 1)
        stack[child, _LEADER], stack[child, _PLAYED], stack[child, _ON_TABLE] = best_seat, 0, 0
    else:
        stack[child, _LEADER], stack[child, _PLAYED] = stack[depth, _LEADER], played + 1
        stack[child, _ON_TABLE] = stack[depth, _ON_TABLE] | (np.int64(1) << card)
        stack[child, _LED_MASK], stack[child, _ORDER] = led_mask, order
        stack[child, _BEST_STRENGTH], stack[child, _BEST_SEAT] = best_strength, best_seat
    stack[depth, _WON] = won
    stack[child, _ALPHA] = stack[depth, _ALPHA] - won
    stack[child, _BETA] = stack[depth, _BETA] - won


@jit.njit(cache=True, nogil=True)
def _position_key(hands, trump, leader):  # pragma: no cover - compiled
    """The table's key of a trick boundary: the leader, then for each suit who holds its cards left,
    strongest first (two bits each), and how many there are (three bits): 54 bits at most.

    Only the cards' order within their suit matters from here on, not which cards were played, so
    positions that differ only in the cards gone share a key."""
    key = leader
    for suit in range(4):
        base = (trump * 4 + suit) * _RUN
        held = 0
        for place in range(_RUN):
            card = _SUIT_ORDER[base + place]
            if card < 0:
                break
            bit = np.int64(1) << card
            if hands[0] & bit:
                key <<= 2
            elif hands[1] & bit:
                key = (key << 2) | 1
            elif hands[2] & bit:
                key = (key << 2) | 2
            elif hands[3] & bit:
                key = (key << 2) | 3
            else:
                continue
            held += 1
        key = (key << 3) | held
    return key


@jit.njit(cache=True, nogil=True)
def _sure_tricks(hands, trump):  # pragma: no cover - compiled
    """Tricks a team is sure of: a seat's trumps above every trump of the other team win whichever
    tricks they fall in, one each. Positive for team 0, negative for team 1, 0 when none."""
    base = (trump * 4 + trump) * _RUN
    team = -1
    near, far = 0, 0  # the team's seats 0 or 1, and 2 or 3
    for place in range(_RUN):
        card = _SUIT_ORDER[base + place]
        if card < 0:
            break
        owner = -1
        for seat in range(SEATS):
            if hands[seat] >> card & 1:
                owner = seat
        if owner < 0:
            continue
        if team < 0:
            team = owner & 1
        elif owner & 1 != team:
            break
        if owner < 2:
            near += 1
        else:
            far += 1
    most = max(near, far)
    return most if team == 0 else -most


@jit.njit(cache=True, nogil=True)
def _search(hands, trump, stack, base, table, stamp):  # pragma: no cover - compiled
    """Team 0's tricks from the node of frame ``base`` to the end of the hand under best play, fail-soft
    in the frame's window (``_ALPHA``, ``_BETA``): a value at most alpha is an upper bound, at least beta
    a lower bound. ``hands`` are played in place and restored."""
    depth = base
    state = _ENTER
    value = 0
    while True:
        if state == _ENTER:
            state = _NEXT_MOVE
            alpha, beta = stack[depth, _ALPHA], stack[depth, _BETA]
            leader, played = stack[depth, _LEADER], stack[depth, _PLAYED]
            stack[depth, _SLOT] = -1
            if played == 0:  # a trick boundary: the end of the hand, bounds, the table
                left = _count(hands[leader])
                if left <= 1:
                    value = _last_trick(hands, trump, leader) if left else 0
                    state = _RETURN
                    continue
                if alpha >= left:
                    value, state = left, _RETURN
                    continue
                if beta <= 0:
                    value, state = 0, _RETURN
                    continue
                key = _position_key(hands, trump, leader)
                slot = ((key * _HASH) >> (64 - _TABLE_BITS)) & (_TABLE_SIZE - 1)
                if table[slot, _STAMP] == stamp and table[slot, _KEY] == key:
                    lower, upper = table[slot, _LOWER], table[slot, _UPPER]
                else:
                    lower, upper = 0, left
                    sure = _sure_tricks(hands, trump)
                    if sure > 0:
                        lower = sure
                    else:
                        upper = left + sure
                if lower >= beta or lower == upper:
                    value, state = lower, _RETURN
                    continue
                if upper <= alpha:
                    value, state = upper, _RETURN
                    continue
                alpha, beta = max(alpha, lower), min(beta, upper)
                stack[depth, _ALPHA], stack[depth, _BETA] = alpha, beta
                stack[depth, _SLOT], stack[depth, _NODE_KEY] = slot, key
                stack[depth, _NODE_LOWER], stack[depth, _NODE_UPPER] = lower, upper
            stack[depth, _WINDOW_LOW], stack[depth, _WINDOW_HIGH] = alpha, beta
            seat = (leader + played) & 3
            stack[depth, _SEAT] = seat
            legal = hands[seat]
            if played and legal & stack[depth, _LED_MASK]:
                legal &= stack[depth, _LED_MASK]
            alive = hands[0] | hands[1] | hands[2] | hands[3] | stack[depth, _ON_TABLE]
            count = _candidates(stack, depth, legal, alive, trump)
            if count > 1:
                _order_moves(stack, depth, count, alive, trump)
            stack[depth, _COUNT], stack[depth, _NEXT] = count, 0
            stack[depth, _BEST] = -1 if seat & 1 == 0 else _BIG
        elif state == _RETURN:
            if depth == base:
                return value
            depth -= 1
            seat = stack[depth, _SEAT]
            hands[seat] ^= np.int64(1) << stack[depth, _MOVES + stack[depth, _NEXT] - 1]
            value += stack[depth, _WON]
            if seat & 1 == 0:
                if value > stack[depth, _BEST]:
                    stack[depth, _BEST] = value
                    if value > stack[depth, _ALPHA]:
                        stack[depth, _ALPHA] = value
            elif value < stack[depth, _BEST]:
                stack[depth, _BEST] = value
                if value < stack[depth, _BETA]:
                    stack[depth, _BETA] = value
            state = _NEXT_MOVE
        else:
            index = stack[depth, _NEXT]
            if index < stack[depth, _COUNT] and stack[depth, _ALPHA] < stack[depth, _BETA]:
                card = stack[depth, _MOVES + index]
                stack[depth, _NEXT] = index + 1
                hands[stack[depth, _SEAT]] ^= np.int64(1) << card
                _push(stack, depth, trump, card)
                depth += 1
                state = _ENTER
            else:
                value, state = stack[depth, _BEST], _RETURN
                slot = stack[depth, _SLOT]
                if slot >= 0:
                    lower, upper = stack[depth, _NODE_LOWER], stack[depth, _NODE_UPPER]
                    if value <= stack[depth, _WINDOW_LOW]:
                        upper = min(upper, value)  # failed low: an upper bound
                    elif value >= stack[depth, _WINDOW_HIGH]:
                        lower = max(lower, value)  # failed high: a lower bound
                    else:
                        lower = upper = value
                    table[slot, _KEY], table[slot, _STAMP] = stack[depth, _NODE_KEY], stamp
                    table[slot, _LOWER], table[slot, _UPPER] = lower, upper


@jit.njit(cache=True, nogil=True)
def _is_position(hands, trump, leader, trick, tricks):  # pragma: no cover - compiled
    """True when one row can be a moment of a hand's play: trump and leader in range, every card of the
    pack and in one place only, the trick's cards first, each seat holding as many cards as the play so
    far leaves it (one fewer for those already in the trick), and the tricks taken and left making five."""
    if not (0 <= trump < 4 and 0 <= leader < SEATS):
        return False
    seen = np.int64(0)
    for seat in range(SEATS):
        if hands[seat] & ~_PACK_MASK or hands[seat] & seen:
            return False
        seen |= hands[seat]
    played = 0
    for place in range(SEATS - 1):
        card = trick[place]
        if card < 0:
            continue
        if place != played or card >= _CARD_IDS or not _PACK_MASK >> card & 1 or seen >> card & 1:
            return False
        seen |= np.int64(1) << card
        played += 1
    left = _count(hands[(leader + played) & 3])
    if tricks[0] < 0 or tricks[1] < 0 or tricks[0] + tricks[1] + left != rules.TRICKS_PER_HAND:
        return False
    if played and left == 0:
        return False
    for step in range(SEATS):
        if _count(hands[(leader + step) & 3]) != (left - 1 if step < played else left):
            return False
    return True


@jit.njit(cache=True, nogil=True)
def _solve_rows(hands, trump, leader, trick, tricks, out, table, first_stamp):  # pragma: no cover - compiled
    """Fill ``out`` (n, 52) with each row's legal cards' values for the mover's team, -1 elsewhere.
    Row ``i`` owns the entries of ``table`` stamped ``first_stamp + i``. Returns the first row that is
    not a position of the play (see ``_is_position``), whose values are left unset, else -1."""
    stack = np.zeros((_MAX_DEPTH + 1, _FRAME), dtype=np.int64)
    held = np.zeros(SEATS, dtype=np.int64)
    representative = np.full(_CARD_IDS, _NO_CARD, dtype=np.int64)
    for row in range(hands.shape[0]):
        if not _is_position(hands[row], trump[row], leader[row], trick[row], tricks[row]):
            return row
        stamp = first_stamp + row
        out[row, :] = -1
        trumps = trump[row]
        for seat in range(SEATS):
            held[seat] = hands[row, seat]
        # Frame 0 is the position itself: the trick so far, played into it as the search plays cards.
        stack[0, _LEADER], stack[0, _PLAYED], stack[0, _ON_TABLE] = leader[row], 0, 0
        while stack[0, _PLAYED] < SEATS - 1 and trick[row, stack[0, _PLAYED]] >= 0:
            card = trick[row, stack[0, _PLAYED]]
            stack[0, _SEAT] = (stack[0, _LEADER] + stack[0, _PLAYED]) & 3
            _push(stack, 0, trumps, card)
            stack[0, :_WON] = stack[1, :_WON]
        played = stack[0, _PLAYED]
        seat = (stack[0, _LEADER] + played) & 3
        stack[0, _SEAT] = seat
        team = seat & 1
        left = _count(held[seat])  # tricks to play, this one included
        if left == 0:
            continue
        legal = held[seat]
        if played and legal & stack[0, _LED_MASK]:
            legal &= stack[0, _LED_MASK]
        alive = held[0] | held[1] | held[2] | held[3] | stack[0, _ON_TABLE]
        # Each legal card's run of equivalent cards, named by its highest card: one search serves the run.
        for suit in range(4):
            base = (trumps * 4 + suit) * _RUN
            current = _NO_CARD
            for place in range(_RUN):
                card = _SUIT_ORDER[base + place]
                if card < 0:
                    break
                if legal >> card & 1:
                    if current < 0:
                        current = card
                    representative[card] = current
                elif alive >> card & 1:
                    current = _NO_CARD
        for card in range(_CARD_IDS):
            if not legal >> card & 1 or representative[card] != card:
                continue
            held[seat] ^= np.int64(1) << card
            # Team 0's tricks from this trick on, exactly: a window wider than every value.
            stack[0, _ALPHA], stack[0, _BETA] = -1, left + 1
            _push(stack, 0, trumps, card)
            value = stack[0, _WON] + _search(held, trumps, stack, 1, table, stamp)
            held[seat] ^= np.int64(1) << card
            out[row, card] = tricks[row, team] + (value if team == 0 else left - value)
        for card in range(_CARD_IDS):
            if legal >> card & 1:
                out[row, card] = out[row, representative[card]]
                representative[card] = _NO_CARD
    return -1


def solve_moves(
    hands: np.ndarray, trump: np.ndarray, leader: np.ndarray, trick: np.ndarray, tricks: np.ndarray
) -> np.ndarray:
    """(n, 52) int8: for each position, the tricks the mover's team ends the hand with after each card it
    may legally play, both teams then playing to take as many tricks as they can; -1 for other cards.
    A row that cannot be a moment of the play raises ``ValueError``.

    ``hands`` (n, 4) each seat's cards as a bitmask over card ids; ``trump`` (n,) the trump suit;
    ``leader`` (n,) the seat that led the current trick; ``trick`` (n, 3) the cards played to it so far
    from the leader, -1 where none; ``tricks`` (n, 2) the tricks teams 0 (seats 0, 2) and 1 have taken.
    The mover is the seat after the trick's last card; it must follow the led card's suit (the left
    bower counting as trump) when it can.
    """
    hands = np.ascontiguousarray(hands, dtype=np.int64).reshape(-1, SEATS)
    n = len(hands)
    trump = np.ascontiguousarray(trump, dtype=np.int64).reshape(n)
    leader = np.ascontiguousarray(leader, dtype=np.int64).reshape(n)
    trick = np.ascontiguousarray(trick, dtype=np.int64).reshape(n, SEATS - 1)
    tricks = np.ascontiguousarray(tricks, dtype=np.int64).reshape(n, 2)
    out = np.empty((n, _CARD_IDS), dtype=np.int8)
    bad = _solve_rows(hands, trump, leader, trick, tricks, out, _WORKSPACE.table, _WORKSPACE.stamp)
    _WORKSPACE.stamp += n
    if bad >= 0:
        raise ValueError(
            f"row {bad} is not a position of Euchre's play: trump {trump[bad]}, leader {leader[bad]}, "
            f"trick {trick[bad].tolist()}, tricks {tricks[bad].tolist()}, hands {[hex(h) for h in hands[bad]]} "
            "(each card of the pack in one place, the trick's cards first, as many cards in each hand as "
            "the play leaves, and five tricks in all)"
        )
    return out


class _Workspace(threading.local):
    """A thread's transposition table, kept from call to call: entries carry the stamp of the row that
    wrote them and a thread's stamps never repeat, so the table is zeroed once per thread, not per call."""

    def __init__(self) -> None:
        self.table = np.zeros((_TABLE_SIZE, 4), dtype=np.int64)
        self.stamp = 1  # 0 marks a row never written


_WORKSPACE = _Workspace()  # each thread sees its own attributes, set by __init__ on its first use
