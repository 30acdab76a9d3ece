"""Gin Rummy rules (pagat's, with the CS 340 start) as pure functions over card ids and bitmasks.

Cards are ``sim.cards`` ids (``suit * 13 + rank``, ace low) and a hand is usually an int bitmask.
The values a hand is judged by:

- ``deadwood(mask)``: the least deadwood over every arrangement of the cards into runs and sets,
  found exactly by a memoised search that always decides the lowest remaining card first;
- ``organize(cards)``: the CS 340 spec's five-step organizing algorithm, which the spec's computer
  player must use even though it is not always optimal.

Scoring follows pagat: knock at 10 or less, gin bonus 20, undercut bonus 10 (a tie is an undercut),
no laying off onto gin, game to 100 with a 100-point game bonus (200 on a shutout) and a 20-point
box bonus per hand won that does not count toward the 100.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from sim.cards import NUM_RANKS, NUM_SUITS, cards_in, make_card, mask_of, parse_card, rank_of, suit_of

NUM_PLAYERS = 2
HAND_SIZE = 10
FIRST_HAND_SIZE = 11  # the CS 340 start: the non-dealer is dealt 11 cards and opens with a discard
DEALT_CARDS = HAND_SIZE + FIRST_HAND_SIZE
VOID_STOCK_SIZE = 2  # a discard that leaves only two stock cards voids the hand
KNOCK_LIMIT = 10
GIN_BONUS = 20
UNDERCUT_BONUS = 10
GAME_TARGET = 100
GAME_BONUS = 100
SHUTOUT_GAME_BONUS = 200
BOX_BONUS = 20
MIN_MELD = 3

CardsLike = Iterable[int | str]


def to_cards(cards: CardsLike) -> list[int]:
    """Card ids from ids or two-character names such as ``"TD"``."""
    return [parse_card(card) if isinstance(card, str) else int(card) for card in cards]


def card_value(card: int) -> int:
    """Deadwood value: ace 1, two to ten face value, jack, queen and king 10."""
    return min(rank_of(card) + 1, 10)


def cards_value(cards: Iterable[int]) -> int:
    """The total deadwood value of some cards."""
    return sum(card_value(card) for card in cards)


def mask_value(mask: int) -> int:
    """The total deadwood value of the cards in a bitmask."""
    return cards_value(cards_in(mask))


def is_run(cards: Sequence[int]) -> bool:
    """Three or more cards of one suit in consecutive ranks (ace low, no wrapping round)."""
    if len(cards) < MIN_MELD or len({suit_of(card) for card in cards}) != 1:
        return False
    ranks = sorted(rank_of(card) for card in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_set(cards: Sequence[int]) -> bool:
    """Three or four cards of one rank."""
    return len(cards) >= MIN_MELD and len(set(cards)) == len(cards) and len({rank_of(c) for c in cards}) == 1


def is_meld(cards: Sequence[int]) -> bool:
    """A run or a set."""
    return is_run(cards) or is_set(cards)


def _all_melds() -> list[int]:
    """Every meld of the pack as a bitmask: all runs of 3 to 13 cards, all sets of 3 and 4."""
    melds = []
    for suit in range(NUM_SUITS):
        for low in range(NUM_RANKS):
            for high in range(low + MIN_MELD - 1, NUM_RANKS):
                melds.append(mask_of(make_card(rank, suit) for rank in range(low, high + 1)))
    for rank in range(NUM_RANKS):
        suits = mask_of(make_card(rank, suit) for suit in range(NUM_SUITS))
        melds.append(suits)
        melds.extend(suits & ~(1 << make_card(rank, left_out)) for left_out in range(NUM_SUITS))
    return melds


# Melds by their lowest card id: the search always places the lowest card still undecided, so only
# melds starting at that card can hold it (every lower card is already placed).
MELDS_BY_LOWEST: tuple[tuple[int, ...], ...] = tuple(
    tuple(meld for meld in _all_melds() if (meld & -meld).bit_length() - 1 == card) for card in range(52)
)


MELDS_WITH: tuple[tuple[int, ...], ...] = tuple(
    tuple(meld for meld in _all_melds() if meld >> card & 1) for card in range(52)
)


def makes_meld(hand: int, card: int) -> bool:
    """Whether ``card`` would sit in some meld of ``hand`` with it added."""
    with_card = hand | (1 << card)
    return any(meld & with_card == meld for meld in MELDS_WITH[card])


@lru_cache(maxsize=1 << 18)
def _best(mask: int) -> tuple[int, int]:
    """(least deadwood, melded cards mask) of the cards in ``mask``."""
    if not mask:
        return 0, 0
    low = mask & -mask
    card = low.bit_length() - 1
    rest_value, rest_melded = _best(mask ^ low)
    best_value, best_melded = rest_value + card_value(card), rest_melded
    for meld in MELDS_BY_LOWEST[card]:
        if meld & mask == meld:
            value, melded = _best(mask ^ meld)
            if value < best_value:
                best_value, best_melded = value, melded | meld
    return best_value, best_melded


def deadwood(mask: int) -> int:
    """The least deadwood over every arrangement of the cards of ``mask`` into runs and sets."""
    return _best(mask)[0]


def melded_mask(mask: int) -> int:
    """The cards melded in one arrangement reaching the least deadwood."""
    return _best(mask)[1]


def split_melds(melded: int) -> list[tuple[int, ...]]:
    """A mask of melded cards cut back into melds: the one the search found, rebuilt greedily."""
    melds = []
    while melded:
        card = (melded & -melded).bit_length() - 1
        for meld in MELDS_BY_LOWEST[card]:
            if meld & melded == meld and _best(melded ^ meld)[0] == 0:
                melds.append(tuple(cards_in(meld)))
                melded ^= meld
                break
    return melds


def best_arrangement(mask: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """Melds and deadwood cards of an arrangement with the least deadwood."""
    melded = melded_mask(mask)
    return split_melds(melded), list(cards_in(mask & ~melded))


def discard_deadwoods(mask: int) -> dict[int, int]:
    """For each card of an 11-card hand, the least deadwood of the ten cards left by discarding it."""
    return {card: deadwood(mask & ~(1 << card)) for card in cards_in(mask)}


def can_knock(ten_cards: int) -> bool:
    """Whether ten cards (after the discard) have deadwood of ``KNOCK_LIMIT`` or less."""
    return deadwood(ten_cards) <= KNOCK_LIMIT


def knocking_discards(hand: int) -> list[int]:
    """The cards of an 11-card hand whose discard leaves ten cards that may knock, ascending."""
    # Discarding a card lowers the least deadwood by at most its value (the hand's best arrangement
    # is never worse than the ten's plus that card as deadwood), so one search of the whole hand
    # rules out most discards before their own search: early in a hand, all of them.
    whole = deadwood(hand)
    return [
        card for card in cards_in(hand) if whole - card_value(card) <= KNOCK_LIMIT and can_knock(hand & ~(1 << card))
    ]


# ----------------------------------------------------------------------------- laying off


def _extends_run(card: int, run: Sequence[int]) -> bool:
    if suit_of(card) != suit_of(run[0]):
        return False
    ranks = [rank_of(c) for c in run]
    return rank_of(card) in (min(ranks) - 1, max(ranks) + 1)


def _extends_set(card: int, group: Sequence[int]) -> bool:
    return len(group) < NUM_SUITS and rank_of(card) == rank_of(group[0]) and card not in group


def lay_off(
    unmatched: Iterable[int], knocker_melds: Sequence[Sequence[int]]
) -> tuple[list[tuple[int, int]], list[int]]:
    """The non-knocker's layoffs onto the knocker's melds, runs before sets (the CS 340 spec).

    Every unmatched card is tried on the runs first, lowest card first and again after each success
    (a laid-off card can make room for the next); then the cards left are tried on the sets.
    Returns ``(card, index of the meld it went on)`` pairs and the cards still unmatched.
    """
    melds = [list(meld) for meld in knocker_melds]
    left = sorted(unmatched)
    laid: list[tuple[int, int]] = []
    for fits in (_extends_run, _extends_set):
        targets = [i for i, meld in enumerate(melds) if (is_run(meld) if fits is _extends_run else is_set(meld))]
        placed = True
        while placed:
            placed = False
            for card in left:
                target = next((i for i in targets if fits(card, melds[i])), None)
                if target is not None:
                    melds[target].append(card)
                    laid.append((card, target))
                    left.remove(card)
                    placed = True
                    break
    return laid, left


# ----------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class HandScore:
    """Who won a knocked hand, how many points, and how (``"knock"``, ``"gin"``, ``"undercut"``)."""

    winner: int  # the seat that scores
    points: int
    kind: str


def score_knock(knocker: int, knocker_deadwood: int, defender_deadwood: int) -> HandScore:
    """Pagat's hand score: gin scores the opponent's deadwood + 20; otherwise the lower deadwood
    scores the difference, and a defender with equal or less deadwood undercuts for + 10."""
    defender = 1 - knocker
    if knocker_deadwood == 0:
        return HandScore(knocker, defender_deadwood + GIN_BONUS, "gin")
    if knocker_deadwood < defender_deadwood:
        return HandScore(knocker, defender_deadwood - knocker_deadwood, "knock")
    return HandScore(defender, knocker_deadwood - defender_deadwood + UNDERCUT_BONUS, "undercut")


def game_winner(points: Sequence[int], target: int = GAME_TARGET) -> int | None:
    """The seat whose hand points have reached ``target`` (only one seat scores per hand)."""
    return next((seat for seat, total in enumerate(points) if total >= target), None)


def final_scores(points: Sequence[int], hands_won: Sequence[int], winner: int) -> tuple[int, ...]:
    """Grand totals of a finished game: hand points, the winner's game bonus (200 when the loser
    scored nothing: a shutout, else 100), and 20 per hand won (the box bonus)."""
    shutout = all(total == 0 for seat, total in enumerate(points) if seat != winner)
    bonus = SHUTOUT_GAME_BONUS if shutout else GAME_BONUS
    return tuple(
        total + BOX_BONUS * won + (bonus if seat == winner else 0)
        for seat, (total, won) in enumerate(zip(points, hands_won))
    )


# ----------------------------------------------------------------------------- the CS 340 organizer


@dataclass(frozen=True)
class Organization:
    """The CS 340 spec's five categories of a hand, each set's cards ascending (suit-major)."""

    sequences: tuple[tuple[int, ...], ...]
    groups: tuple[tuple[int, ...], ...]
    partial_groups: tuple[tuple[int, ...], ...]
    partial_sequences: tuple[tuple[int, ...], ...]
    deadwood: tuple[int, ...]

    @property
    def complete(self) -> tuple[tuple[int, ...], ...]:
        """The complete sequences then the complete groups: the melds."""
        return self.sequences + self.groups

    @property
    def unmatched(self) -> tuple[int, ...]:
        """Cards in partial groups, partial sequences and deadwood, ascending."""
        return tuple(
            sorted(card for part in self.partial_groups + self.partial_sequences for card in part)
            + sorted(self.deadwood)
        )

    @property
    def unmatched_value(self) -> int:
        """The spec's value of the hand: the total value of the unmatched cards."""
        return cards_value(self.unmatched)

    def sets(self) -> list[tuple[int, ...]]:
        """Every set in set-letter order (a, b, c, ...); the deadwood is one set, last."""
        parts = list(self.sequences + self.groups + self.partial_groups + self.partial_sequences)
        return parts + ([self.deadwood] if self.deadwood else [])


def _consecutive_runs(cards: Iterable[int]) -> list[list[int]]:
    """Cards split into maximal same-suit consecutive stretches, suit-major ascending."""
    stretches: list[list[int]] = []
    for card in sorted(cards):
        if stretches and card == stretches[-1][-1] + 1 and suit_of(card) == suit_of(stretches[-1][-1]):
            stretches[-1].append(card)
        else:
            stretches.append([card])
    return stretches


def _by_rank(cards: Iterable[int]) -> dict[int, list[int]]:
    ranks: dict[int, list[int]] = {}
    for card in sorted(cards, key=lambda c: (rank_of(c), suit_of(c))):
        ranks.setdefault(rank_of(card), []).append(card)
    return ranks


def broken_value(sequence: Sequence[int], card: int) -> tuple[int, list[list[int]], list[int]]:
    """Breaking ``card`` out of a complete sequence: the value of what is left unmatched, the parts
    still complete sequences (three or more cards) and the cards left over."""
    pieces = [[c for c in sequence if c < card], [c for c in sequence if c > card]]
    kept = [piece for piece in pieces if len(piece) >= MIN_MELD]
    loose = [c for piece in pieces if len(piece) < MIN_MELD for c in piece]
    return cards_value(loose), kept, loose


def organize(cards: CardsLike) -> Organization:
    """The CS 340 spec's organizing algorithm.

    1. complete sequences (maximal same-suit stretches of three or more);
    2. complete groups (three or four of a rank) from the cards left;
    3. partial groups (two of a rank) from the cards left; for each, highest rank first, a complete
       sequence holding that rank is broken when what breaking leaves unmatched is worth strictly
       less than the pair (a tie, as in Example Three, does not break); the card joins the pair as
       a complete group and the sequence's loose cards go back among the cards left. With two such
       sequences, the one leaving the least is broken;
    4. partial sequences (two same-suit consecutive cards) from the cards left, lowest first;
    5. everything else is deadwood.
    """
    hand = sorted(set(to_cards(cards)))
    stretches = _consecutive_runs(hand)
    sequences = [s for s in stretches if len(s) >= MIN_MELD]
    left = [c for s in stretches if len(s) < MIN_MELD for c in s]
    ranks = _by_rank(left)
    groups = [cards for cards in ranks.values() if len(cards) >= MIN_MELD]
    pairs = [cards for cards in ranks.values() if len(cards) == 2]
    left = [card for cards in ranks.values() if len(cards) == 1 for card in cards]
    partial_groups = []
    for pair in sorted(pairs, key=lambda p: -rank_of(p[0])):
        rank = rank_of(pair[0])
        options = [(broken_value(seq, card), seq, card) for seq in sequences for card in seq if rank_of(card) == rank]
        if options:
            (value, kept, loose), sequence, card = min(options, key=lambda option: option[0][0])
            if value < cards_value(pair):
                sequences.remove(sequence)
                sequences.extend(kept)
                left.extend(loose)
                groups.append(sorted(pair + [card]))
                continue
        partial_groups.append(pair)
    # The cards left never hold three in a row (those were sequences), so a stretch is one or two cards.
    stretches = _consecutive_runs(left)
    partial_sequences = [s for s in stretches if len(s) == 2]
    deadwood_cards = sorted(card for s in stretches if len(s) != 2 for card in s)
    return Organization(
        sequences=tuple(tuple(s) for s in sorted(sequences)),
        groups=tuple(tuple(sorted(g)) for g in sorted(groups, key=lambda g: rank_of(g[0]))),
        partial_groups=tuple(tuple(sorted(p)) for p in sorted(partial_groups, key=lambda p: rank_of(p[0]))),
        partial_sequences=tuple(tuple(s) for s in partial_sequences),
        deadwood=tuple(deadwood_cards),
    )
