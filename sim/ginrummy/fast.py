"""Gin Rummy on numpy: the exact least deadwood of a whole batch of hands.

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
fixed-size array: the answer is the least runs-only deadwood of the cards the sets leave.

The deadwood after each discard comes from the same choices. Without card ``c`` a hand can take
exactly the sets of its choices that leave ``c`` out (a set of four less ``c`` is a set of three,
itself a choice), and removing ``c`` changes one suit's lookup, by an amount a second table holds for
each pattern and rank.

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

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from sim import lockstep
from sim.api import ROUND_ID_STRIDE, ArrayRecord, IllegalAction, Strategy
from sim.cards import ALL_CARDS_MASK, NUM_CARDS, NUM_RANKS, NUM_SUITS, bits_to_bools, bools_to_bits
from sim.games import DealSource, GamesResult, RoundsResult
from sim.ginrummy import rules
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, NONE, NUM_ACTIONS, Observation, Phase, action_name
from sim.lockstep import DealError, Players, strategy_name

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
    """Per rank pattern of one suit: the packed key (as ``_DISCARD_ORDER``'s, the deadwood part the
    change the throw makes to the suit's runs-only deadwood, the card part its rank) of the suit's
    best throw; of no card, a key above any throw's."""
    keys = (_DISCARD_CHANGE.astype(np.int32) << _DEADWOOD_SHIFT) + _DISCARD_ORDER[:NUM_RANKS]
    keys[_DISCARD_CHANGE == NOT_HELD] = _NO_THROW_KEY
    return keys.min(axis=1)


_NO_THROW_KEY = np.int32(int(NOT_HELD) << _DEADWOOD_SHIFT)  # what best_discards reads as no card to throw
_BEST_THROW = _best_throws()

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
    total, *rest = (_PATTERN_VALUES.take(pattern) for pattern in _suits(masks))
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


def _suits(masks: np.ndarray) -> list[np.ndarray]:
    """The rank pattern of each suit, clubs to spades."""
    return [(masks >> (suit * NUM_RANKS)) & _SUIT for suit in range(NUM_SUITS)]


def _set_choices(hands: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(rows, sets)`` for the hands holding some rank three or four times, a group of the same
    kind at a time: ``sets`` (choices, rows) holds every way to take sets from ``hands[rows]`` (the
    cards they take), taking none included. Choices come first so that the least over them is an
    elementwise minimum of whole rows."""
    clubs, diamonds, hearts, spades = _suits(hands)
    black, red = clubs & diamonds, hearts & spades
    threes = (black & (hearts | spades)) | (red & (clubs | diamonds))
    rows = np.flatnonzero(threes)
    if not len(rows):
        return
    fours = (black & red).take(rows)
    threes = threes.take(rows) & ~fours
    kinds = np.bitwise_count(threes) + (np.bitwise_count(fours) << 2)
    for kind in np.unique(kinds):
        members = np.flatnonzero(kinds == kind)
        group = rows.take(members)
        held = hands.take(group)
        choices = np.zeros((1, len(group)), dtype=np.int64)
        for ranks, size in ((threes.take(members), 3), (fours.take(members), 4)):
            for _ in range(int(np.bitwise_count(ranks[0]))):
                lowest = ranks & -ranks
                ranks = ranks ^ lowest
                cards = (lowest * RANK_ACROSS_SUITS) & held
                options = [np.zeros_like(cards), cards]
                if size == 4:  # a set of three leaves a card free for a run
                    options += [cards ^ (lowest << (suit * NUM_RANKS)) for suit in range(NUM_SUITS)]
                choices = (np.stack(options)[:, None, :] | choices[None, :, :]).reshape(-1, len(group))
        yield group, choices


# ----------------------------------------------------------------------------- one block


def _runs_deadwood(masks: np.ndarray) -> np.ndarray:
    """The least deadwood of each mask with runs only (uint8)."""
    total, *rest = (_RUN_DEADWOOD.take(pattern) for pattern in _suits(masks))
    for suit in rest:
        total += suit
    return total


def _least_deadwood(hands: np.ndarray) -> np.ndarray:
    """``deadwood`` of one block (uint8)."""
    least = _runs_deadwood(hands)
    for rows, sets in _set_choices(hands):
        least[rows] = _runs_deadwood(hands.take(rows) & ~sets).min(axis=0)
    return least


def _runs_discard_deadwoods(masks: np.ndarray) -> np.ndarray:
    """(*masks.shape, 52) int16: the runs-only deadwood of each mask less each card (``NOT_HELD``
    or more for the cards it does not hold)."""
    total = _runs_deadwood(masks).astype(np.int16)[..., None]
    left = np.empty((*masks.shape, NUM_CARDS), dtype=np.int16)
    for suit, pattern in enumerate(_suits(masks)):
        np.add(_DISCARD_CHANGE.take(pattern, axis=0), total, out=left[..., suit * NUM_RANKS : (suit + 1) * NUM_RANKS])
    return left


def _discard_block(hands: np.ndarray) -> np.ndarray:
    """``discard_deadwoods`` of one block."""
    left = _runs_discard_deadwoods(hands)
    for rows, sets in _set_choices(hands):
        left[rows] = _runs_discard_deadwoods(hands.take(rows) & ~sets).min(axis=0)
    return np.minimum(left, NOT_HELD, out=left)


def _least_discard_key(hands: np.ndarray, allowed: np.ndarray | None = None) -> np.ndarray:
    """``best_discards`` of one block, packed: deadwood above the discard order (``_DISCARD_ORDER``).

    A hand that may throw any of its cards takes its suits' best throws from ``_BEST_THROW``, the
    others a whole row of ``discard_deadwoods``."""
    keys = _least_throw_key(hands)
    if allowed is None:
        return keys
    limited = np.flatnonzero(hands & ~allowed)
    if limited.size:
        left = _discard_block(hands.take(limited))
        np.putmask(left, ~bits_to_bools(allowed.take(limited)), NOT_HELD)
        keys[limited] = ((left.astype(np.int32) << _DEADWOOD_SHIFT) | _DISCARD_ORDER).min(axis=1)
    return keys


def _least_throw_key(hands: np.ndarray) -> np.ndarray:
    """The packed ``best_discards`` of each hand, free to throw any card.

    A throw's key is the deadwood it leaves and its order; with runs only, that is the hand's
    deadwood plus the change its suit's table holds, so each suit's best throw is a lookup, and the
    hand's the least over its suits. With sets, the least over the choices of sets of the least
    over the cards they leave free (a choice's own cards are thrown under the other choices)."""
    keys = _runs_throw_key(hands)
    for rows, sets in _set_choices(hands):
        keys[rows] = _runs_throw_key(hands.take(rows) & ~sets).min(axis=0)
    return np.minimum(keys, _NO_THROW_KEY, out=keys)


def _runs_throw_key(masks: np.ndarray) -> np.ndarray:
    """The packed best throw of each mask with runs only (int32; ``_NO_THROW_KEY`` or more for none)."""
    first, *rest = (_BEST_THROW.take(pattern) + suit * NUM_RANKS for suit, pattern in enumerate(_suits(masks)))
    for suit in rest:
        np.minimum(first, suit, out=first)
    first += _runs_deadwood(masks).astype(np.int32) << _DEADWOOD_SHIFT
    return first


def _knocking_block(hands: np.ndarray) -> np.ndarray:
    """``knocking_discards`` of one block."""
    # A discard lowers the least deadwood by at most the card's value (as rules.knocking_discards
    # reasons), so only hands within the highest value of the limit need a search per discard.
    result = np.zeros(len(hands), dtype=np.int64)
    rows = np.flatnonzero(_least_deadwood(hands) <= rules.KNOCK_LIMIT + _CARD_VALUES.max())
    if rows.size:
        result[rows] = bools_to_bits(_discard_block(hands.take(rows)) <= rules.KNOCK_LIMIT)
    return result


def _split_block(hands: np.ndarray) -> np.ndarray:
    """``runs_and_sets`` of one block: (n, 2), the run cards then the set cards."""
    split = np.zeros((len(hands), 2), dtype=np.int64)
    split[:, 0] = _run_cards(hands)
    for rows, sets in _set_choices(hands):
        split[rows] = _reference_choice(hands.take(rows), sets)
    return split


def _run_cards(masks: np.ndarray) -> np.ndarray:
    """The cards of each mask in a stretch of three or more consecutive ranks of a suit."""
    starts = masks & (masks >> 1) & (masks >> 2) & _RUN_STARTS
    return starts | (starts << 1) | (starts << 2)


def _reference_choice(hands: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """(n, 2) the run cards and the set cards of the reference's arrangement, given every choice of
    ``sets`` (a row each)."""
    rest = hands & ~sets
    least = _runs_deadwood(rest)
    chosen = least == least.min(axis=0)
    set_keys = _set_keys(sets)
    for suit, pattern in enumerate(_suits(rest)):
        key = _RUN_KEY.take(pattern) + set_keys[suit]
        key = np.where(chosen, key, np.iinfo(np.int64).max)
        chosen &= key == key.min(axis=0)
    choice = chosen.argmax(axis=0)[None, :]
    runs = np.take_along_axis(_run_cards(rest), choice, axis=0)[0]
    return np.stack([runs, np.take_along_axis(sets, choice, axis=0)[0]], axis=1)


def _set_keys(sets: np.ndarray) -> list[np.ndarray | int]:
    """Each suit's tie-break word for the sets taken: every set's code at its lowest card, which is
    a club but in the set of three without the club, whose lowest is a diamond."""
    clubs, diamonds, hearts, spades = _suits(sets)  # every rank holds no card of the sets, or a whole set
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


# ============================================================================= the engine
#
# ``play_rounds`` plays a batch of deals (each the 52-card pack in the order it is dealt from, as the
# reference ``Hand`` takes it), a block of hands at a time, in lockstep: every hand still going is at
# the same step of the same turn, so one strategy call answers the same decision of every hand. A
# turn's mover is the same seat counted from the dealer in every hand (the opener, who is not the
# dealer, discards first), so holdings are kept by that seat: row 0 the opener's, row 1 the dealer's.
# A hand that ends (a knock, or a discard that leaves two cards in the stock) is scored and leaves
# the block's arrays, which are gathered down to the hands still going.

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
    points before the hand (default zeros), which observations report. Raises ``IllegalAction``
    naming a strategy that chose an illegal action, and ``DealError`` for a deal that is not a pack.
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
        in_pile = np.arange(NUM_CARDS) < self.pile_size[:, None]
        self.pile_mask = np.bitwise_or.reduce((_ONE << self.pile.astype(np.int64)) * in_pile, axis=1)
        self.took = took  # taken from the pile and still held
        self.threw = threw
        self.taken = taken.astype(np.int64)  # the card just taken from the pile
        self.ids = _constant(ids.copy())
        self.scores = _constant(scores.copy())
        self.dealer = _constant(dealers.copy())
        self.row = np.arange(len(ids))  # each hand's row in the block's results

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
        ``IllegalAction`` names a strategy that chooses otherwise."""
        for values in fields.values():
            values.flags.writeable = False
        observation = Observation(**fields)
        single = self.players.single
        if single is not None:
            return _checked_actions(single, single.choose(observation), legal)
        actions = np.empty(len(seat), dtype=np.int64)
        for strategy, seats in self.players.seats_of:
            rows = np.flatnonzero(seats.take(seat))
            if rows.size:
                chosen = strategy.choose(observation.take(rows))
                actions[rows] = _checked_actions(strategy, chosen, legal.take(rows, axis=0))
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
    clubs, diamonds, hearts, spades = _suits(sets)
    threes = (clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds))
    threes &= ~(clubs & diamonds & hearts & spades)
    fourth_cards = (threes * RANK_ACROSS_SUITS) & ~sets
    return on_runs | (unmatched & ~on_runs & fourth_cards)


def _checked_actions(strategy: Strategy, chosen: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """``chosen`` as int64 actions if each is legal in its row of ``legal``; else ``IllegalAction``
    naming the strategy."""
    actions = np.asarray(chosen).astype(np.int64, copy=False).reshape(-1)
    if len(actions) != len(legal):
        raise IllegalAction(f"{strategy_name(strategy)} answered {len(actions)} actions for {len(legal)} decisions")
    in_range = (actions >= 0) & (actions < NUM_ACTIONS)
    allowed = in_range & legal[np.arange(len(actions)), actions * in_range]
    if not allowed.all():
        action = int(actions[np.argmin(allowed)])
        named = f" ({action_name(action)})" if 0 <= action < NUM_ACTIONS else ""
        raise IllegalAction(f"{strategy_name(strategy)} chose action {action}{named}, which is not legal here")
    return actions
