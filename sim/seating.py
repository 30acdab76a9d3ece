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


def head_to_head(teams: tuple[int, ...]) -> tuple[Seating, ...]:
    """Every fair way two players, 0 and 1, can share a table whose seats form ``teams``.

    Two partnerships: each player holds one partnership (Euchre: 0 1 0 1). Every seat its own team:
    every arrangement of the two around the table with both present, up to rotation (four seats:
    one against three either way, and two against two side by side or alternating); two seats: one
    each. Combine with a game's duplicate seatings (``league_seatings``) so each sits everywhere.
    """
    num_seats = len(teams)
    if len(set(teams)) == 2 and num_seats > 2:
        return (tuple(0 if team == teams[0] else 1 for team in teams),)
    if len(set(teams)) != num_seats:
        raise ValueError(f"no fair two-player arrangement for the teams {teams}")
    arrangements = set()
    for code in range(1, 2**num_seats - 1):
        pattern = tuple((code >> seat) & 1 for seat in range(num_seats))
        arrangements.add(min(pattern[shift:] + pattern[:shift] for shift in range(num_seats)))
    return tuple(sorted(arrangements))


def league_seatings(teams: tuple[int, ...], duplicate: tuple[Seating, ...]) -> tuple[Seating, ...]:
    """The seatings of a head-to-head pairing: each arrangement of ``head_to_head`` under each of the
    game's ``duplicate`` seatings (seat s holds the arrangement's player at position seating[s])."""
    seatings = (
        tuple(pattern[position] for position in seats) for pattern in head_to_head(teams) for seats in duplicate
    )
    return tuple(dict.fromkeys(seatings))
