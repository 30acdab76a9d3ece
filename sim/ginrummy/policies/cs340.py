"""The CS 340 spec's computer player as a compiled policy, one hand at a time (the readable reference
it plays exactly as: ``strategies.ginrummy.cs340``).

``organize_hand`` runs ``rules.organize`` on an int64 card mask (sequences, groups, pairs and
partial sequences are shifts and masks). Breaking a sequence for a pair (step 3) goes over the
ranks held in pairs, highest first; each card keeps its sequence's place in ``organize``'s list, so
that two sequences leaving the same value are broken in the same order. Where the spec leaves a
choice (docs/ginrummy.md): among equal-valued candidates the highest rank is thrown, then the
highest suit — which takes the top card of a run, so what is left stays a run.
"""

from __future__ import annotations

import numpy as np

from sim import jit
from sim.cards import NUM_RANKS, NUM_SUITS
from sim.ginrummy import melds, rules
from sim.ginrummy.melds import LOWERED_ONE_RANK, RAISED_ONE_RANK, RANK_ACROSS_SUITS, hand_value
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, KNOCK, POLICY, Phase

_SUIT = (1 << NUM_RANKS) - 1
_RANK_VALUES = np.array([rules.card_value(rank) for rank in range(NUM_RANKS)], dtype=np.int64)
_PAST_VALUES = 1 << 10  # above any value left unmatched, and above every sequence's place
_FIRST_APPENDED = 16  # the first place of a sequence appended by a break, after the four suits'
_DRAW = int(Phase.DRAW)
_CUT_WIDTH, _CUT_BITS = 4, 15  # a suit's last broken rank + 1 (0: none) in four bits of an int


@jit.njit(cache=True, nogil=True)
def _up(mask: int) -> int:
    """Each card moved one rank up its suit (a king drops out): bit x set where x - 1 is held."""
    return (mask << 1) & RAISED_ONE_RANK


@jit.njit(cache=True, nogil=True)
def _down(mask: int) -> int:
    """Each card moved one rank down its suit (an ace drops out): bit x set where x + 1 is held."""
    return (mask >> 1) & LOWERED_ONE_RANK


@jit.njit(cache=True, nogil=True)
def _ranks(mask: int) -> int:
    """The 13-bit pattern of the ranks a mask holds in any suit."""
    return (mask | (mask >> NUM_RANKS) | (mask >> (2 * NUM_RANKS)) | (mask >> (3 * NUM_RANKS))) & _SUIT


_HIGHEST_RANK = np.array([pattern.bit_length() - 1 for pattern in range(1 << NUM_RANKS)], dtype=np.int8)
"""[pattern] the highest rank of a 13-bit rank pattern (-1 for none)."""


@jit.njit(cache=True, nogil=True)
def _highest_card_of_rank(cards: int, rank: int) -> int:
    """The card of ``rank`` in the highest suit among ``cards`` (which hold one)."""
    suit = NUM_SUITS - 1
    while not cards >> (NUM_RANKS * suit + rank) & 1:
        suit -= 1
    return NUM_RANKS * suit + rank


@jit.njit(cache=True, nogil=True)
def _break(pattern: int, rank: int) -> tuple[int, int, int]:
    """Breaking ``rank`` out of a suit's ``pattern`` of sequence cards: the value left unmatched,
    the ranks still in sequences and the loose ranks (``rules.broken_value``)."""
    loose = 0
    for step in (-1, 1):
        piece, length, other = 0, 0, rank + step
        while 0 <= other < NUM_RANKS and pattern >> other & 1:
            piece |= 1 << other
            length += 1
            other += step
        if length < rules.MIN_MELD:
            loose |= piece
    value = 0
    for other in range(NUM_RANKS):
        if loose >> other & 1:
            value += _RANK_VALUES[other]
    return value, pattern & ~loose & ~(1 << rank), loose


@jit.njit(cache=True, nogil=True)
def _break_sequences(sequences: int, pairs: int) -> tuple[int, int, int]:
    """Step 3 of ``rules.organize`` for a hand holding a pair of a rank in one of its ``sequences``:
    ``(sequences left, cards of the groups made by breaking, loose cards)``.

    Pairs go highest rank first. A pair's options are the cards of its rank in the sequences (at
    most two, in the suits the pair lacks); the one leaving the least value is broken when that is
    less than the pair's, of equal values the one ``organize`` lists first: its sequences in card
    order, then those a break appended, in turn (the part below the broken card before the part
    above). ``cuts`` keeps where each suit was last broken, which says its sequences' positions in
    that order (``_place``)."""
    loose = 0
    broken = 0
    cuts = 0
    pair_ranks = _ranks(pairs)
    for rank in range(NUM_RANKS - 1, -1, -1):
        if not (pair_ranks & _ranks(sequences)) >> rank & 1:
            continue
        best_order, best_suit = -1, -1
        for suit in range(NUM_SUITS):
            pattern = (sequences >> (NUM_RANKS * suit)) & _SUIT
            if pattern >> rank & 1:
                order = _break(pattern, rank)[0] * _PAST_VALUES + _place(cuts, suit, rank)
                if best_suit < 0 or order < best_order:
                    best_order, best_suit = order, suit
        if best_order // _PAST_VALUES >= 2 * _RANK_VALUES[rank]:
            continue
        shift = NUM_RANKS * best_suit
        pattern = (sequences >> shift) & _SUIT
        _, kept, loose_ranks = _break(pattern, rank)
        sequences = (sequences & ~(pattern << shift)) | (kept << shift)
        loose |= loose_ranks << shift
        broken |= (pairs | (1 << (shift + rank))) & (RANK_ACROSS_SUITS << rank)
        cuts = (cuts & ~(_CUT_BITS << (_CUT_WIDTH * best_suit))) | ((rank + 1) << (_CUT_WIDTH * best_suit))
    return sequences, broken, loose


@jit.njit(cache=True, nogil=True)
def _place(cuts: int, suit: int, rank: int) -> int:
    """The position in ``organize``'s list of the sequence holding the card of ``suit`` and ``rank``:
    its suit's, until a break cut the suit (``cuts``: each suit's last broken rank + 1, 0 for none);
    then every card the break kept in the suit went into the two sequences it appended, the part
    below the broken rank before the part above (a later break of the suit appends anew)."""
    cut = (cuts >> (_CUT_WIDTH * suit)) & _CUT_BITS
    if cut == 0:
        return suit
    return _FIRST_APPENDED + 2 * (NUM_RANKS - cut) + (rank >= cut)


@jit.njit(cache=True, nogil=True)
def organize_hand(hand: int) -> tuple[int, int, int, int, int, int, int]:
    """``rules.organize`` of one hand (an int64 card mask), exactly, by category: (sequences,
    groups, partial groups, partial sequences, deadwood, the cards of the sequences of four or more,
    the cards of the groups of four)."""
    return _organize(hand)[:7]


@jit.njit(cache=True, nogil=True)
def _organize(hand: int) -> tuple[int, int, int, int, int, int, int, int]:
    """``organize_hand``'s categories and the cards step 3 took out of sequences, with their pairs
    (0 when it broke none)."""
    starts = hand & _down(hand) & _down(_down(hand))  # three in a row from here
    sequences = starts | _up(starts) | _up(_up(starts))
    left = hand & ~sequences
    clubs, diamonds = left & _SUIT, (left >> NUM_RANKS) & _SUIT
    hearts, spades = (left >> (2 * NUM_RANKS)) & _SUIT, (left >> (3 * NUM_RANKS)) & _SUIT
    two = (clubs & diamonds) | ((clubs | diamonds) & (hearts | spades)) | (hearts & spades)
    three = (clubs & diamonds & (hearts | spades)) | ((clubs | diamonds) & hearts & spades)
    four_groups = (clubs & diamonds & hearts & spades) * RANK_ACROSS_SUITS
    groups = (three * RANK_ACROSS_SUITS) & left
    pairs = ((two & ~three) * RANK_ACROSS_SUITS) & left
    loose, broken = 0, 0
    if _ranks(pairs) & _ranks(sequences):
        sequences, broken, loose = _break_sequences(sequences, pairs)
        groups |= broken
        pairs &= ~broken
    # The cards left never hold three in a row: two are a partial sequence, one is deadwood.
    rest = (left & ~groups & ~pairs) | loose
    partial_sequences = rest & (_up(rest) | _down(rest))
    four = sequences & _down(sequences) & _down(_down(sequences)) & _down(_down(_down(sequences)))
    long_sequences = four | _up(four) | _up(_up(four)) | _up(_up(_up(four)))
    deadwood = rest & ~partial_sequences
    return sequences, groups, pairs, partial_sequences, deadwood, long_sequences, four_groups, broken | loose


@jit.njit(cache=True, nogil=True)
def draw(hand: int, top_discard: int) -> int:
    """``choose_draw``: ``DRAW_DISCARD`` when the face-up card completes a partial set, adds to a
    meld, or pairs with a deadwood card while there are two or more, else ``DRAW_STOCK``."""
    sequences, groups, partial_groups, partial_sequences, deadwood, _, _ = organize_hand(hand)
    if top_discard < 0:
        return DRAW_STOCK
    rank = top_discard % NUM_RANKS
    card = 1 << top_discard
    if _ranks(partial_groups | groups) >> rank & 1:
        return DRAW_DISCARD
    if card & melds.hand_rank_neighbours(partial_sequences | sequences):
        return DRAW_DISCARD
    pairs_dead = (_ranks(deadwood) >> rank & 1) or (card & melds.hand_rank_neighbours(deadwood))
    return DRAW_DISCARD if pairs_dead and deadwood & (deadwood - 1) else DRAW_STOCK


@jit.njit(cache=True, nogil=True)
def discard(hand: int, taken: int) -> int:
    """``choose_discard`` as an action: the highest card (rank, then suit) of the first category
    holding one but the card ``taken`` (``NONE`` for none), knocking with it when the ten cards left
    organize to an unmatched value of 10 or less; -1 (refused as illegal) when no card may go."""
    _, _, partial_groups, partial_sequences, deadwood, long_sequences, four_groups, broken = _organize(hand)
    allowed = ~(1 << taken) if taken >= 0 else -1
    candidates = deadwood & allowed
    if not candidates:
        candidates = (partial_groups | partial_sequences) & allowed
    if not candidates:
        candidates = long_sequences & allowed
    if not candidates:
        candidates = four_groups & allowed
    if not candidates:
        return -1
    # The card value rises with the rank, so the highest value, then rank, is the highest rank.
    card = _highest_card_of_rank(candidates, _HIGHEST_RANK[_ranks(candidates)])
    if deadwood >> card & 1 and not broken:
        # A deadwood card is in no sequence and meets no card left over (of its rank or next to it in
        # its suit), and no sequence was broken: the ten cards left organize as the eleven did, less it.
        unmatched = hand_value(partial_groups | partial_sequences | deadwood) - _RANK_VALUES[card % NUM_RANKS]
    else:
        _, _, pairs_left, partial_left, deadwood_left, _, _ = organize_hand(hand & ~(1 << card))
        unmatched = hand_value(pairs_left | partial_left | deadwood_left)
    knocks = unmatched <= rules.KNOCK_LIMIT
    return card + KNOCK if knocks else card


@jit.njit(POLICY.signature, cache=True, nogil=True)
def cs340(
    phase, hand, top_discard, discard_pile, took, opponent_took, threw, opponent_threw, taken, stock_size, settings
):  # fmt: skip
    """The CS 340 computer player's action: ``draw`` or ``discard`` by the phase."""
    return draw(hand, top_discard) if phase == _DRAW else discard(hand, taken)
