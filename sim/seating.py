"""Duplicate seat plans: how a lineup of players is rotated through the seats so luck cancels.

A plan is a tuple of seatings; a seating maps each seat to the index of the lineup player sitting
there. Playing every deal once per seating gives every player every seat's cards.
"""

from __future__ import annotations

Seating = tuple[int, ...]


def fixed(num_seats: int) -> tuple[Seating, ...]:
    """The lineup as given: player i in seat i."""
    return (tuple(range(num_seats)),)


def rotations(num_seats: int) -> tuple[Seating, ...]:
    """Every cyclic rotation: in seating r, seat s holds player (s + r) mod n (Straights: 4)."""
    return tuple(tuple((seat + shift) % num_seats for seat in range(num_seats)) for shift in range(num_seats))


def partnerships_rotated() -> tuple[Seating, ...]:
    """Euchre: partners sit opposite (seats 0/2 and 1/3); each partnership plays both seat pairs."""
    return ((0, 1, 2, 3), (1, 0, 3, 2))


def swapped() -> tuple[Seating, ...]:
    """Two-player games: each player takes each seat once."""
    return ((0, 1), (1, 0))
