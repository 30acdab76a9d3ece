"""Gin Rummy's melds on numpy: the exact least deadwood of a whole batch of hands, and what follows
from it (the best throw, the throws that may knock, the reference's layout).

Hands are card masks as in ``sim.cards`` (bit ``suit * 13 + rank`` for each card held), uint64 or
int64, of at most 11 cards. Each function here answers for the whole batch what its counterpart in
``sim.ginrummy.rules`` answers for one hand, exactly, ties included, with no Python loop over hands.

Deadwood
--------
Within one suit and with runs only, the best arrangement is plain: every stretch of three or more
consecutive ranks is melded (as one run, or cut into runs), every other card is deadwood. So a table
over the 2^13 rank patterns of a suit, built at import, gives a suit's runs-only deadwood in one
lookup, and a hand's is the sum over its four suits. Only sets couple the suits, and 11 cards hold
at most three ranks three or four times. The ways to take sets are few: for a rank held three
times, the set or not; held four times, no set, the four, or one of the four sets of three (the card
left out may sit in a run). Hands are grouped by how many ranks they hold three and four times
(eight kinds at most), and each group tries every combination of those choices at once, in a
fixed-size array: the answer is the least runs-only deadwood of the cards the sets leave. Taking no
set at all is the runs-only answer every hand has already, so only the other combinations are tried.

The deadwood after each discard comes from the same choices. Without card ``c`` a hand can take
exactly the sets of its choices that leave ``c`` out (a set of four less ``c`` is a set of three,
itself a choice), and removing ``c`` changes one suit's lookup, by an amount a second table holds for
each pattern and rank. The best throw needs less: each suit's best throw with runs only is a lookup,
and so is its best throw but one rank (the card just taken from the pile may not go straight back).

When several arrangements tie, which cards the reference melds follows from its search: it places
the lowest card still free, preferring to leave it deadwood, then each meld that has it as lowest
card in list order (runs shortest first, then that rank's sets: the four, then the threes by the
suit left out). It returns the least arrangement in that order among those of least deadwood. Each
choice of sets has one best arrangement in that order (every stretch cut into runs shortest first),
written as a code per card (its decision there; nought for deadwood and for cards already placed),
four bits a card, rank by rank within a suit: comparing those words suit by suit finds the choice
the reference makes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import product

import numpy as np

from sim import jit
from sim.cards import ALL_CARDS_MASK, NUM_CARDS, NUM_RANKS, NUM_SUITS, bits_to_bools, bools_to_bits, count_cards
from sim.ginrummy import rules

MAX_CARDS = rules.FIRST_HAND_SIZE
NOT_HELD = np.int16(999)  # discard_deadwoods' entry for a card the hand does not hold

_BLOCK = 1 << 15  # hands worked on together (measured best): a step's arrays stay in the CPU caches
_PATTERNS = 1 << NUM_RANKS  # the rank patterns of one suit
_SUIT = _PATTERNS - 1
RANK_ACROSS_SUITS = sum(1 << (suit * NUM_RANKS) for suit in range(NUM_SUITS))
"""Times a rank's bit (``1 << rank``): the mask of its four cards."""


def without_ranks(*ranks: int) -> int:
    """The mask of every card but those of ``ranks``."""
    return ALL_CARDS_MASK & ~sum(RANK_ACROSS_SUITS << rank for rank in ranks)


# A card mask shifted up (down) by one rank, less the cards that crossed into the next suit.
RAISED_ONE_RANK, LOWERED_ONE_RANK = without_ranks(0), without_ranks(NUM_RANKS - 1)
_RUN_STARTS = sum(((1 << (NUM_RANKS - 2)) - 1) << (suit * NUM_RANKS) for suit in range(NUM_SUITS))  # aces to jacks
_CARD_VALUES = np.array([rules.card_value(card) for card in range(NUM_CARDS)], dtype=np.int32)
_RANK_VALUES = _CARD_VALUES[:NUM_RANKS]

# Decision codes of the tie-break words: 0 deadwood or already placed, a run of n cards n - 2 (at
# most 9 in 11 cards), a set 10 to 13 by its place among the sets of its lowest card.
_CODE_BITS = 4
_FIRST_SET_CODE = 10

# best_discards' order: least deadwood, then the higher value, then the lower card id, in one int32.
_CARD_BITS = 6
_DEADWOOD_SHIFT = 10
_DISCARD_ORDER = ((max(_RANK_VALUES) - _CARD_VALUES) << _CARD_BITS) | np.arange(NUM_CARDS, dtype=np.int32)


def _run_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per rank pattern of one suit: its runs-only deadwood, the change to it on removing each rank
    (``NOT_HELD`` for ranks not held), the tie-break word of the reference's runs, and a nibble of
    one at each held rank's place in a tie-break word."""
    patterns = np.arange(_PATTERNS)
    held = (patterns[:, None] >> np.arange(NUM_RANKS)) & 1
    places = _CODE_BITS * (NUM_RANKS - 1 - np.arange(NUM_RANKS))  # rank 0 is the most significant
    stretch = np.zeros_like(held)  # consecutive ranks held from each rank up
    above = np.zeros(_PATTERNS, dtype=np.int64)
    for rank in reversed(range(NUM_RANKS)):
        above = held[:, rank] * (above + 1)
        stretch[:, rank] = above
    deadwood = np.zeros(_PATTERNS, dtype=np.int64)
    key = np.zeros(_PATTERNS, dtype=np.int64)
    covered = np.zeros(_PATTERNS, dtype=np.int64)  # ranks still to come of the run begun below
    for rank in range(NUM_RANKS):
        starts = (covered == 0) & (stretch[:, rank] >= rules.MIN_MELD)
        # The reference tries the shortest run first: three cards, unless that strands one or two.
        length = np.where(
            (stretch[:, rank] == rules.MIN_MELD) | (stretch[:, rank] >= 2 * rules.MIN_MELD),
            rules.MIN_MELD,
            stretch[:, rank],
        )
        key |= np.where(starts, (length - 2) << places[rank], 0)
        deadwood += held[:, rank] * (covered == 0) * ~starts * int(_RANK_VALUES[rank])
        covered = np.where(starts, length - 1, np.maximum(covered - 1, 0))
    without = np.stack([deadwood[patterns & ~(1 << rank)] for rank in range(NUM_RANKS)], axis=1) - deadwood[:, None]
    change = np.where(held == 1, without, NOT_HELD).astype(np.int16)
    nibbles = (held << places).sum(axis=1)
    return deadwood.astype(np.uint8), change, key, nibbles


# By rank pattern: runs-only deadwood (uint8: a hand's fits), its change per rank removed (int16),
# the reference's run decisions and the nibbles of the ranks held (int64 tie-break words).
_RUN_DEADWOOD, _DISCARD_CHANGE, _RUN_KEY, _RANK_NIBBLES = _run_tables()


def _best_throws() -> np.ndarray:
    """(14, patterns): per rank pattern of one suit, the packed key (as ``_DISCARD_ORDER``'s, the
    deadwood part the change the throw makes to the suit's runs-only deadwood, the card part its
    rank) of the suit's best throw but that of rank ``r`` in row ``r``, of any rank in the last row;
    of no card, a key above any throw's."""
    keys = (_DISCARD_CHANGE.astype(np.int32) << _DEADWOOD_SHIFT) + _DISCARD_ORDER[:NUM_RANKS]
    keys[_DISCARD_CHANGE == NOT_HELD] = _NO_THROW_KEY
    barred = np.vstack([np.eye(NUM_RANKS, dtype=bool), np.zeros(NUM_RANKS, dtype=bool)])
    return np.where(barred[:, None, :], _NO_THROW_KEY, keys[None, :, :]).min(axis=2)


_NO_THROW_KEY = np.int32(int(NOT_HELD) << _DEADWOOD_SHIFT)  # what best_discards reads as no card to throw
_LAST_KNOCKING_KEY = ((rules.KNOCK_LIMIT + 1) << _DEADWOOD_SHIFT) - 1  # the highest key of a throw one may knock after
_BEST_THROW_BUT = _best_throws().reshape(-1)  # flat: row r (or NUM_RANKS: none barred) from r * _PATTERNS
_BEST_THROW = _BEST_THROW_BUT[NUM_RANKS * _PATTERNS :]  # by pattern: the best throw of any rank

# By rank pattern: the value of its cards.
_PATTERN_VALUES = ((np.arange(_PATTERNS)[:, None] >> np.arange(NUM_RANKS)) & 1) @ _RANK_VALUES.astype(np.int64)


# ----------------------------------------------------------------------------- public functions


def deadwood(hands: np.ndarray) -> np.ndarray:
    """The least deadwood of each hand (int16, shaped as ``hands``): ``rules.deadwood``."""
    return _blockwise(_least_deadwood, np.int16, (), _checked(hands))


def discard_deadwoods(hands: np.ndarray) -> np.ndarray:
    """The least deadwood left by discarding each card: (*hands.shape, 52) int16 by card id, with
    ``NOT_HELD`` for the cards a hand does not hold (``rules.discard_deadwoods`` as an array)."""
    return _blockwise(_discard_block, np.int16, (NUM_CARDS,), _checked(hands))


def best_discards(hands: np.ndarray, allowed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(cards, deadwoods)`` shaped as ``hands``: the discard leaving the least deadwood (int64 card
    id) and that deadwood (int16).

    Ties go as the strategies break them (``simple`` and ``heuristic``): the higher card value is
    thrown, then the lower card id (among ten-count cards, the lower suit: KC before TD).
    ``allowed`` masks the cards that may be thrown (say, all but the card just taken from the pile);
    a hand with no card to throw gets card -1 and deadwood ``NOT_HELD``."""
    masks = _checked(hands)
    if allowed is None:
        keys = _blockwise(_least_discard_key, np.int32, (), masks)
    else:
        permitted = np.broadcast_to(_checked(allowed, "allowed", NUM_CARDS), masks.shape)
        keys = _blockwise(_least_discard_key, np.int32, (), masks, permitted)
    deadwoods = (keys >> _DEADWOOD_SHIFT).astype(np.int16)
    cards = np.where(deadwoods == NOT_HELD, -1, keys & ((1 << _CARD_BITS) - 1)).astype(np.int64)
    return cards, deadwoods


def may_knock(hands: np.ndarray) -> np.ndarray:
    """Whether each hand (ten cards, after its discard) has deadwood of ``KNOCK_LIMIT`` or less:
    ``rules.can_knock``."""
    return deadwood(hands) <= rules.KNOCK_LIMIT


def knocking_discards(hands: np.ndarray) -> np.ndarray:
    """The card mask (int64) of the discards after which each hand may knock: ``rules.knocking_discards``."""
    return _blockwise(_knocking_block, np.int64, (), _checked(hands))


def melded_mask(hands: np.ndarray) -> np.ndarray:
    """The cards (int64 masks) melded in the arrangement ``rules.melded_mask`` returns: of those
    with the least deadwood, the one its search finds first."""
    runs, sets = runs_and_sets(hands)
    return runs | sets


def runs_and_sets(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(run cards, set cards)``, int64 masks shaped as ``hands``: the cards of the runs and of the
    sets of the arrangement ``rules.best_arrangement`` lays down (its melds cut back from
    ``melded_mask``, as ``rules.split_melds`` cuts them)."""
    split = _blockwise(_split_block, np.int64, (2,), _checked(hands))
    return split[..., 0], split[..., 1]


def cards_value(masks: np.ndarray) -> np.ndarray:
    """The total deadwood value of the cards of each mask (int64, shaped as ``masks``):
    ``rules.mask_value``."""
    masks = np.asarray(masks, dtype=np.int64)
    total, *rest = (_PATTERN_VALUES.take(pattern) for pattern in suit_patterns(masks))
    for suit in rest:
        total += suit
    return total


def rank_neighbours(masks: np.ndarray) -> np.ndarray:
    """The cards one rank above or below a card of each mask in its suit (ace low, no wrapping)."""
    masks = np.asarray(masks, dtype=np.int64)
    return ((masks << 1) & RAISED_ONE_RANK) | ((masks >> 1) & LOWERED_ONE_RANK)


# ----------------------------------------------------------------------------- batches


def _checked(hands: np.ndarray, name: str = "hands", most: int = MAX_CARDS) -> np.ndarray:
    """``hands`` as int64 card masks, refused with a clear message unless each holds at most ``most``
    cards (``name`` is what the message calls them)."""
    masks = np.asarray(hands)
    if masks.dtype.kind not in "iu":
        if masks.size:
            raise TypeError(f"card masks must be integers, not {masks.dtype}")
        masks = masks.astype(np.int64)
    outside = (masks >> NUM_CARDS) != 0
    if outside.any():
        where = _index(outside)
        raise ValueError(f"{name}{list(where)} = {int(masks[where]):#x} has bits above card {NUM_CARDS - 1}")
    sizes = np.bitwise_count(masks)
    if (sizes > most).any():
        where = _index(sizes > most)
        raise ValueError(f"{name}{list(where)} holds {int(sizes[where])} cards, more than the {most} of a hand")
    return masks.view(np.int64) if masks.dtype.itemsize == 8 else masks.astype(np.int64)


def _index(wrong: np.ndarray) -> tuple[int, ...]:
    """The index of the first true entry."""
    return tuple(int(i) for i in np.unravel_index(np.argmax(wrong), wrong.shape))


def _blockwise(
    work: Callable[..., np.ndarray], dtype: type, width: tuple[int, ...], hands: np.ndarray, *more: np.ndarray
) -> np.ndarray:
    """``work`` on the int64 ``hands`` (and the rows of ``more``, shaped as them) a block at a time:
    an array of ``dtype`` shaped as ``hands`` then ``width``."""
    flat = hands.reshape(-1)
    extra = [np.reshape(array, -1) for array in more]
    result: np.ndarray = np.empty((len(flat), *width), dtype=dtype)
    for start in range(0, len(flat), _BLOCK):
        block = slice(start, start + _BLOCK)
        result[block] = work(flat[block], *(array[block] for array in extra))
    return result.reshape(hands.shape + width)


def suit_patterns(masks: np.ndarray) -> list[np.ndarray]:
    """The rank pattern of each suit, clubs to spades."""
    last = (NUM_SUITS - 1) * NUM_RANKS  # no card lies above the spades: their pattern needs no mask
    return [(masks >> (suit * NUM_RANKS)) & _SUIT for suit in range(NUM_SUITS - 1)] + [masks >> last]


def _set_multipliers(threes: int, fours: int) -> np.ndarray:
    """(choices, threes + fours) int64: every way but none to take sets from a hand holding
    ``threes`` ranks three times and ``fours`` four times, as the suits each rank gives its set (a
    rank's bit times its entry is the set's cards, less the card of a three the hand lacks). Ranks
    come threes first, each kind lowest first; the first varies fastest."""
    three = [0, RANK_ACROSS_SUITS]
    four = [0, RANK_ACROSS_SUITS] + [RANK_ACROSS_SUITS - (1 << (suit * NUM_RANKS)) for suit in range(NUM_SUITS)]
    slots = [three] * threes + [four] * fours
    return np.array([combination[::-1] for combination in product(*slots[::-1])][1:], dtype=np.int64)


# By kind (the number of ranks held three times, plus four times that of ranks held four times).
_SET_MULTIPLIERS = {
    threes + 4 * fours: _set_multipliers(threes, fours)
    for fours in range(MAX_CARDS // 4 + 1)
    for threes in range((MAX_CARDS - 4 * fours) // 3 + 1)
    if threes + fours
}


def _set_choices(hands: np.ndarray, patterns: list[np.ndarray]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(rows, rest)`` for the hands (of ``suit_patterns`` ``patterns``) holding some rank three or
    four times, a group of the same kind at a time: ``rest`` (choices, rows) holds the cards of
    ``hands[rows]`` left by every way to take sets but taking none, whose answer is the runs-only
    one the callers have already. Choices come first so that the least over them is an elementwise
    minimum of whole rows."""
    clubs, diamonds, hearts, spades = patterns
    black, red = clubs & diamonds, hearts & spades
    threes = (black & (hearts | spades)) | (red & (clubs | diamonds))
    rows = np.flatnonzero(threes)
    if not len(rows):
        return
    fours = (black & red).take(rows)
    threes = threes.take(rows) & ~fours
    kinds = np.bitwise_count(threes) + (np.bitwise_count(fours) << 2)
    order = np.argsort(kinds, kind="stable")  # a radix sort of small numbers: the kinds one after another
    rows, threes, fours = rows.take(order), threes.take(order), fours.take(order)
    held = hands.take(rows)
    stop = 0
    for kind, count in enumerate(np.bincount(kinds).tolist()):
        if not count:
            continue
        group = slice(stop, stop + count)
        stop += count
        multipliers = _SET_MULTIPLIERS[kind]
        sets = np.zeros((len(multipliers), count), dtype=np.int64)
        slot = 0
        for ranks in (threes[group], fours[group]):  # used up here: each group's ranks are read once
            for _ in range(int(np.bitwise_count(ranks[0]))):
                lowest = ranks & -ranks
                ranks ^= lowest
                sets += multipliers[:, slot, None] * lowest
                slot += 1
        sets &= held[group]
        yield rows[group], np.bitwise_xor(sets, held[group], out=sets)


# ----------------------------------------------------------------------------- one block


def _runs_deadwood(patterns: list[np.ndarray]) -> np.ndarray:
    """The least deadwood with runs only of the masks whose ``suit_patterns`` are ``patterns`` (uint8)."""
    total, *rest = (_RUN_DEADWOOD.take(pattern) for pattern in patterns)
    for suit in rest:
        total += suit
    return total


def _least_deadwood(hands: np.ndarray) -> np.ndarray:
    """``deadwood`` of one block (uint8)."""
    patterns = suit_patterns(hands)
    least = _runs_deadwood(patterns)
    for rows, rest in _set_choices(hands, patterns):
        with_sets = _runs_deadwood(suit_patterns(rest)).min(axis=0)
        least[rows] = np.minimum(least.take(rows), with_sets, out=with_sets)
    return least


def _runs_discard_deadwoods(patterns: list[np.ndarray]) -> np.ndarray:
    """(*masks.shape, 52) int16: the runs-only deadwood of the masks whose ``suit_patterns`` are
    ``patterns`` less each card (``NOT_HELD`` or more for the cards a mask does not hold)."""
    total = _runs_deadwood(patterns).astype(np.int16)[..., None]
    left = np.empty((*total.shape[:-1], NUM_CARDS), dtype=np.int16)
    for suit, pattern in enumerate(patterns):
        np.add(_DISCARD_CHANGE.take(pattern, axis=0), total, out=left[..., suit * NUM_RANKS : (suit + 1) * NUM_RANKS])
    return left


def _discard_block(hands: np.ndarray) -> np.ndarray:
    """``discard_deadwoods`` of one block."""
    patterns = suit_patterns(hands)
    left = _runs_discard_deadwoods(patterns)
    for rows, rest in _set_choices(hands, patterns):
        with_sets = _runs_discard_deadwoods(suit_patterns(rest)).min(axis=0)
        left[rows] = np.minimum(left.take(rows, axis=0), with_sets, out=with_sets)
    return np.minimum(left, NOT_HELD, out=left)


def _least_discard_key(hands: np.ndarray, allowed: np.ndarray | None = None) -> np.ndarray:
    """``best_discards`` of one block, packed: deadwood above the discard order (``_DISCARD_ORDER``).

    A hand barred from throwing none of its cards, or one, takes its suits' best throws from
    ``_BEST_THROW_BUT``; the others a whole row of ``discard_deadwoods``."""
    keys = _least_throw_key(hands)
    if allowed is None:
        return keys
    barred = hands & ~allowed
    limited = np.flatnonzero(barred)
    if not limited.size:
        return keys
    barred = barred.take(limited)
    single = (barred & (barred - 1)) == 0
    one = limited[single]
    if one.size:  # as after taking the face-up card, which may not go straight back
        cards = np.bitwise_count(barred[single] - 1).astype(np.int64)  # a single bit's place: the bits below it
        keys[one] = _least_throw_key(hands.take(one), cards)
    many = limited[~single]
    if many.size:
        left = _discard_block(hands.take(many))
        np.putmask(left, ~bits_to_bools(allowed.take(many)), NOT_HELD)
        keys[many] = ((left.astype(np.int32) << _DEADWOOD_SHIFT) | _DISCARD_ORDER).min(axis=1)
    return keys


def _least_throw_key(hands: np.ndarray, barred: np.ndarray | None = None) -> np.ndarray:
    """The packed ``best_discards`` of each hand, free to throw any card but ``barred`` (a card id
    per hand, if given).

    A throw's key is the deadwood it leaves and its order; with runs only, that is the hand's
    deadwood plus the change its suit's table holds, so each suit's best throw is a lookup, and the
    hand's the least over its suits. With sets, the least over the choices of sets of the least
    over the cards they leave free (a choice's own cards are thrown under the other choices)."""
    starts = None
    if barred is not None:
        suit, rank = np.divmod(barred, NUM_RANKS)
        starts = [np.where(suit == each, rank, NUM_RANKS) * _PATTERNS for each in range(NUM_SUITS)]
    patterns = suit_patterns(hands)
    keys = _runs_throw_key(patterns, starts)
    for rows, rest in _set_choices(hands, patterns):
        chosen = None if starts is None else [start.take(rows) for start in starts]
        with_sets = _runs_throw_key(suit_patterns(rest), chosen).min(axis=0)
        keys[rows] = np.minimum(keys.take(rows), with_sets, out=with_sets)
    return np.minimum(keys, _NO_THROW_KEY, out=keys)


def _runs_throw_key(patterns: list[np.ndarray], starts: list[np.ndarray] | None = None) -> np.ndarray:
    """The packed best throw with runs only of the masks whose ``suit_patterns`` are ``patterns``
    (int32; ``_NO_THROW_KEY`` or more for none): each suit's from ``_BEST_THROW``, or if given from
    the row of ``_BEST_THROW_BUT`` that ``starts`` holds for the suit."""
    if starts is None:
        throws = [_BEST_THROW.take(pattern) for pattern in patterns]
    else:
        throws = [_BEST_THROW_BUT.take(pattern + start) for pattern, start in zip(patterns, starts, strict=True)]
    first, *rest = throws
    for suit, throw in enumerate(rest, 1):
        throw += suit * NUM_RANKS
        np.minimum(first, throw, out=first)
    first += _runs_deadwood(patterns).astype(np.int32) << _DEADWOOD_SHIFT
    return first


def _knocking_block(hands: np.ndarray) -> np.ndarray:
    """``knocking_discards`` of one block."""
    # Only hands whose best throw leaves deadwood within the limit need a search per discard.
    result = np.zeros(len(hands), dtype=np.int64)
    rows = np.flatnonzero(_least_throw_key(hands) <= _LAST_KNOCKING_KEY)
    if rows.size:
        result[rows] = bools_to_bits(_discard_block(hands.take(rows)) <= rules.KNOCK_LIMIT)
    return result


def _split_block(hands: np.ndarray) -> np.ndarray:
    """``runs_and_sets`` of one block: (n, 2), the run cards then the set cards."""
    split = np.zeros((len(hands), 2), dtype=np.int64)
    split[:, 0] = _run_cards(hands)
    for rows, rest in _set_choices(hands, suit_patterns(hands)):
        held = hands.take(rows)
        left = _reference_choice(held, np.concatenate([held[None, :], rest]))  # first, the choice of no set
        split[rows, 0] = _run_cards(left)
        split[rows, 1] = held ^ left
    return split


def _run_cards(masks: np.ndarray) -> np.ndarray:
    """The cards of each mask in a stretch of three or more consecutive ranks of a suit."""
    starts = masks & (masks >> 1) & (masks >> 2) & _RUN_STARTS
    return starts | (starts << 1) | (starts << 2)


def _reference_choice(hands: np.ndarray, rest: np.ndarray) -> np.ndarray:
    """The cards the sets of the reference's arrangement leave of each of ``hands``, given those
    every choice of sets leaves (``rest``, a row each)."""
    patterns = suit_patterns(rest)
    least = _runs_deadwood(patterns)
    chosen = least == least.min(axis=0)
    set_keys = _set_keys(hands ^ rest)
    for suit, pattern in enumerate(patterns):
        key = _RUN_KEY.take(pattern) + set_keys[suit]
        key[~chosen] = _NOT_CHOSEN
        chosen &= key == key.min(axis=0)
    return rest[chosen.argmax(axis=0), np.arange(len(hands))]


_NOT_CHOSEN = np.iinfo(np.int64).max  # a tie-break word above any choice's


def _set_keys(sets: np.ndarray) -> list[np.ndarray | int]:
    """Each suit's tie-break word for the sets taken: every set's code at its lowest card, which is
    a club but in the set of three without the club, whose lowest is a diamond."""
    clubs, diamonds, hearts, spades = suit_patterns(sets)  # every rank holds no card of the sets, or a whole set
    first = _FIRST_SET_CODE
    return [
        first * _RANK_NIBBLES.take(clubs & diamonds & hearts & spades)
        + (first + 1) * _RANK_NIBBLES.take(clubs & ~diamonds & hearts & spades)
        + (first + 2) * _RANK_NIBBLES.take(clubs & diamonds & ~hearts & spades)
        + (first + 3) * _RANK_NIBBLES.take(clubs & diamonds & hearts & ~spades),
        first * _RANK_NIBBLES.take(~clubs & diamonds & hearts & spades),
        0,
        0,
    ]


# ----------------------------------------------------------------------------- one hand, compiled
#
# What the compiled engine and the compiled strategies need, for one hand (an int64 card mask) at a
# time: the same tables and the same choices of sets as the batches above, tried one after another.

# int16: small enough to stay in the first-level cache, which the lookups of a search hit again and again.
_SUIT_RUN_DEADWOOD = _RUN_DEADWOOD.astype(np.int16)
_SUIT_VALUES = _PATTERN_VALUES.astype(np.int16)
_THROW_ORDER = _DISCARD_ORDER.astype(np.int64)
_LAST_SUIT = (NUM_SUITS - 1) * NUM_RANKS


@jit.njit(cache=True, nogil=True)
def hand_value(hand: int) -> int:
    """The total deadwood value of the cards of one card mask: ``rules.mask_value``."""
    return (
        _SUIT_VALUES[hand & _SUIT]
        + _SUIT_VALUES[(hand >> NUM_RANKS) & _SUIT]
        + _SUIT_VALUES[(hand >> (2 * NUM_RANKS)) & _SUIT]
        + _SUIT_VALUES[hand >> _LAST_SUIT]
    )


@jit.njit(cache=True, nogil=True)
def _hand_runs_deadwood(hand: int) -> int:
    """The least deadwood of one hand with runs only: a lookup per suit."""
    return (
        _SUIT_RUN_DEADWOOD[hand & _SUIT]
        + _SUIT_RUN_DEADWOOD[(hand >> NUM_RANKS) & _SUIT]
        + _SUIT_RUN_DEADWOOD[(hand >> (2 * NUM_RANKS)) & _SUIT]
        + _SUIT_RUN_DEADWOOD[hand >> _LAST_SUIT]
    )


@jit.njit(cache=True, nogil=True)
def _set_ranks(hand: int) -> tuple[int, int]:
    """(ranks held three or more times, ranks held four times) of one hand, as 13-bit patterns."""
    clubs, diamonds = hand & _SUIT, (hand >> NUM_RANKS) & _SUIT
    hearts, spades = (hand >> (2 * NUM_RANKS)) & _SUIT, hand >> _LAST_SUIT
    black, red = clubs & diamonds, hearts & spades
    return (black & (hearts | spades)) | (red & (clubs | diamonds)), black & red


@jit.njit(cache=True, nogil=True)
def _set_rank_bits(threes: int, fours: int) -> tuple[int, int, int, int, int, int]:
    """The (at most three) ranks held three or four times, as rank bits lowest first (0 past the
    last), each with its number of ways to take sets: a rank held three times is left or set, one
    held four times left, set whole, or set less the club, the diamond, the heart or the spade."""
    first = threes & -threes
    rest = threes ^ first
    second = rest & -rest
    third = rest ^ second
    return (
        first,
        6 if first & fours else 2,
        second,
        (6 if second & fours else 2) if second else 1,
        third,
        (6 if third & fours else 2) if third else 1,
    )


@jit.njit(cache=True, nogil=True)
def _set_option(hand: int, rank_bit: int, option: int) -> int:
    """The cards of way ``option`` (of ``_set_rank_bits``) to take a set of the rank ``rank_bit``
    from ``hand``: none, every card of the rank held, or the four but one suit's card."""
    if option == 0:
        return 0
    cards = rank_bit * RANK_ACROSS_SUITS
    if option >= 2:
        cards &= ~(rank_bit << (NUM_RANKS * (option - 2)))
    return cards & hand


@jit.njit(cache=True, nogil=True)
def hand_deadwood(hand: int) -> int:
    """The least deadwood of one hand of at most 11 cards: ``rules.deadwood``. With runs only it is
    a lookup per suit; each way to take sets leaves cards whose runs-only deadwood is the answer."""
    threes, fours = _set_ranks(hand)
    undecided = threes
    while undecided:
        rank_bit = undecided & -undecided
        undecided ^= rank_bit
        cards = rank_bit * RANK_ACROSS_SUITS & hand
        if not ((cards << 1) | (cards >> 1)) & hand:
            # No card of the rank has a neighbour in its suit, so none can sit in a run: the set it is.
            hand &= ~cards
            threes &= ~rank_bit
    least = _hand_runs_deadwood(hand)
    if threes == 0:
        return least
    first, first_ways, second, second_ways, third, third_ways = _set_rank_bits(threes, fours & threes)
    for first_way in range(first_ways):
        first_sets = _set_option(hand, first, first_way)
        for second_way in range(second_ways):
            two_sets = first_sets | _set_option(hand, second, second_way)
            for third_way in range(third_ways):
                sets = two_sets | _set_option(hand, third, third_way)
                least = min(least, _hand_runs_deadwood(hand & ~sets))
    return least


@jit.njit(cache=True, nogil=True)
def runs_only_deadwood(hand: int) -> int:
    """``hand_deadwood(hand)`` when no rank of ``hand`` is held three times or more (no set can form,
    in it or in any part of it), else -1: what ``throw_deadwood`` takes."""
    return _hand_runs_deadwood(hand) if _set_ranks(hand)[0] == 0 else -1


@jit.njit(cache=True, nogil=True)
def throw_deadwood(hand: int, bit: int, runs_deadwood: int) -> int:
    """``hand_deadwood(hand ^ bit)``, the least deadwood left after throwing the card ``bit`` of
    ``hand``, given ``runs_deadwood = runs_only_deadwood(hand)``: where no set can form, only the
    thrown card's suit changes, so two lookups replace the search (hands are often so)."""
    if runs_deadwood < 0:
        return hand_deadwood(hand ^ bit)
    shift = count_cards(bit - 1) // NUM_RANKS * NUM_RANKS  # the first card of the thrown card's suit
    before, after = (hand >> shift) & _SUIT, ((hand ^ bit) >> shift) & _SUIT
    return runs_deadwood - _SUIT_RUN_DEADWOOD[before] + _SUIT_RUN_DEADWOOD[after]


@jit.njit(cache=True, nogil=True)
def _suit_set_key(sets: int, suit: int) -> int:
    """The tie-break word of suit ``suit`` for the sets ``sets`` (``_set_keys``)."""
    clubs, diamonds = sets & _SUIT, (sets >> NUM_RANKS) & _SUIT
    hearts, spades = (sets >> (2 * NUM_RANKS)) & _SUIT, sets >> _LAST_SUIT
    first = _FIRST_SET_CODE
    if suit == 0:
        return (
            first * _RANK_NIBBLES[clubs & diamonds & hearts & spades]
            + (first + 1) * _RANK_NIBBLES[clubs & ~diamonds & hearts & spades & _SUIT]
            + (first + 2) * _RANK_NIBBLES[clubs & diamonds & ~hearts & spades & _SUIT]
            + (first + 3) * _RANK_NIBBLES[clubs & diamonds & hearts & ~spades & _SUIT]
        )
    if suit == 1:
        return first * _RANK_NIBBLES[~clubs & diamonds & hearts & spades & _SUIT]
    return 0


@jit.njit(cache=True, nogil=True)
def _precedes(rest: int, sets: int, best_rest: int, best_sets: int) -> bool:
    """Whether the arrangement leaving ``rest`` to runs (``sets`` taken) comes before the other in
    the reference's order: its tie-break words, suit by suit."""
    for suit in range(NUM_SUITS):
        shift = NUM_RANKS * suit
        key = _RUN_KEY[(rest >> shift) & _SUIT] + _suit_set_key(sets, suit)
        best_key = _RUN_KEY[(best_rest >> shift) & _SUIT] + _suit_set_key(best_sets, suit)
        if key != best_key:
            return key < best_key
    return False


@jit.njit(cache=True, nogil=True)
def hand_runs_and_sets(hand: int) -> tuple[int, int]:
    """``(run cards, set cards)`` of one hand: ``runs_and_sets``, the arrangement the reference lays
    down (of the ways to take sets leaving the least deadwood, the first in its order)."""
    best_sets = 0
    threes, fours = _set_ranks(hand)
    if threes:
        least = _hand_runs_deadwood(hand)
        first, first_ways, second, second_ways, third, third_ways = _set_rank_bits(threes, fours)
        for first_way in range(first_ways):
            first_sets = _set_option(hand, first, first_way)
            for second_way in range(second_ways):
                two_sets = first_sets | _set_option(hand, second, second_way)
                for third_way in range(third_ways):
                    sets = two_sets | _set_option(hand, third, third_way)
                    left = _hand_runs_deadwood(hand & ~sets)
                    if left < least or (left == least and _precedes(hand & ~sets, sets, hand & ~best_sets, best_sets)):
                        least, best_sets = left, sets
    rest = hand & ~best_sets
    starts = rest & (rest >> 1) & (rest >> 2) & _RUN_STARTS
    return starts | (starts << 1) | (starts << 2), best_sets


@jit.njit(cache=True, nogil=True)
def hand_rank_neighbours(mask: int) -> int:
    """The cards one rank above or below a card of ``mask`` in its suit: ``rank_neighbours``."""
    return ((mask << 1) & RAISED_ONE_RANK) | ((mask >> 1) & LOWERED_ONE_RANK)


@jit.njit(cache=True, nogil=True)
def knock_points(knocker: int, defender: int) -> tuple[int, int]:
    """(the knocker's points, the defender's) for two ten-card hands laid down as the reference lays
    them, the defender's unmatched cards laid off (``rules.lay_off``) unless the knocker has gin:
    ``rules.score_knock``."""
    runs, sets = hand_runs_and_sets(knocker)
    defender_runs, defender_sets = hand_runs_and_sets(defender)
    knocker_deadwood = hand_value(knocker & ~(runs | sets))
    unmatched = defender & ~(defender_runs | defender_sets)
    if knocker_deadwood > 0:
        unmatched &= ~_laid_off(unmatched, runs, sets)
    defender_deadwood = hand_value(unmatched)
    if knocker_deadwood == 0:
        return defender_deadwood + rules.GIN_BONUS, 0
    if knocker_deadwood < defender_deadwood:
        return defender_deadwood - knocker_deadwood, 0
    return 0, knocker_deadwood - defender_deadwood + rules.UNDERCUT_BONUS


@jit.njit(cache=True, nogil=True)
def _laid_off(unmatched: int, runs: int, sets: int) -> int:
    """The cards of ``unmatched`` laid off onto ``runs`` (again and again: a card laid off makes room
    for the next), then onto the sets of three, the fourth card of their rank (as the batch's)."""
    on_runs = 0
    grown = runs
    extending = hand_rank_neighbours(grown) & unmatched
    while extending:
        on_runs |= extending
        grown |= extending
        extending = hand_rank_neighbours(grown) & unmatched & ~on_runs
    clubs, diamonds = sets & _SUIT, (sets >> NUM_RANKS) & _SUIT
    hearts, spades = (sets >> (2 * NUM_RANKS)) & _SUIT, sets >> _LAST_SUIT
    threes = ((clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds))) & ~(
        clubs & diamonds & hearts & spades
    )
    return on_runs | (unmatched & ~on_runs & (threes * RANK_ACROSS_SUITS) & ~sets)


@jit.njit(cache=True, nogil=True)
def hand_best_discard(hand: int, allowed: int) -> tuple[int, int]:
    """(card, deadwood left) of one hand's ``best_discards``: the throw among ``allowed`` leaving the
    least deadwood, the higher card value then the lower card id on ties; (-1, ``NOT_HELD``) for none."""
    best_key = -1
    throws = hand & allowed
    while throws:
        bit = throws & -throws
        throws ^= bit
        card = _card_of_bit(bit)
        key = (hand_deadwood(hand ^ bit) << _DEADWOOD_SHIFT) | _THROW_ORDER[card]
        if best_key < 0 or key < best_key:
            best_key = key
    if best_key < 0:
        return -1, int(NOT_HELD)
    return best_key & ((1 << _CARD_BITS) - 1), best_key >> _DEADWOOD_SHIFT


@jit.njit(cache=True, nogil=True)
def _card_of_bit(bit: int) -> int:
    """The card id of a single-bit card mask: the bits below it."""
    return count_cards(bit - 1)
