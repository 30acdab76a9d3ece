"""What a hand is worth to the game: the chance of winning a game to a target score after it.

A lookahead maximises a hand's points by default, but whole games are what a player wins, and a
point is not worth the same at every score: in Euchre at 9 to 9 one point wins and a march wins no
more; in Gin Rummy an opponent at 95 wins with any knock, so a quick knock beats a slow gin. So a
lookahead may value a rollout by the chance of winning the game from the score it leaves.

The chances come from how hands end: the share of hands in which the dealing side scores so many
points, or the other side does (a game's ``hand_outcomes.csv``, made by ``python -m
experiments.hand_outcomes``). Taking every later hand to end so, the deal passing to the other side
after each, a recursion over the scores from the end of the game back gives every score's chance.
(A hand that scores nothing, a void Gin Rummy hand, changes neither the score nor the dealer, so
leaving such hands out is exact.)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.files import UnreadableFile, read_bounded
from sim.numbers import NumberError, parse_int
from strategies import StrategyError

COLUMNS = ("dealing_points", "other_points", "count")
VALUES = ("points", "game")  # what a lookahead's rollout is worth: the hand's points, or the game's chance
GAME_SCALE = 1_000_000  # chances in millionths: rollout values are integers (MonteCarlo.value_scale)
MOST_POINTS = 1000  # in one hand; a table claiming more is not one
MOST_ENDINGS = 1000
MOST_COUNT = 10**12  # hands counted for one ending
MOST_TABLE_BYTES = 1 << 16


@dataclass(frozen=True)
class Endings:
    """How hands end: per ending, the points the dealing side and the other side score (one of them
    positive) and its share of the hands."""

    dealing_points: np.ndarray
    other_points: np.ndarray
    shares: np.ndarray


def read_endings(path: Path) -> Endings:
    """The endings stored at ``path`` (CSV: ``COLUMNS``, one row per ending); ``StrategyError`` in one
    line if it cannot be read or is not such a table (a search that values the game cannot be built)."""
    try:
        text = read_bounded(path, MOST_TABLE_BYTES, "table of hand endings").decode("utf-8")
    except (UnreadableFile, UnicodeDecodeError) as error:
        raise StrategyError(f"{path}: {error}") from None
    header, *lines = text.splitlines() or [""]
    if header != ",".join(COLUMNS) or not 0 < len(lines) <= MOST_ENDINGS:
        raise StrategyError(f"{path} is not a table of hand endings ({', '.join(COLUMNS)})")
    bounds = (MOST_POINTS, MOST_POINTS, MOST_COUNT)
    rows = []
    for number, line in enumerate(lines, start=2):
        fields = line.split(",")
        try:
            if len(fields) != len(COLUMNS):
                raise NumberError(f"{len(fields)} fields, not {len(COLUMNS)}")
            rows.append([parse_int(field, 0, bound) for field, bound in zip(fields, bounds, strict=True)])
        except NumberError as error:
            raise StrategyError(f"{path}: line {number}: {error}") from None
    dealing, other, count = np.array(rows, dtype=np.int64).T
    if ((dealing > 0) == (other > 0)).any() or count.sum() == 0:
        raise StrategyError(f"{path}: each ending must have one side scoring, and some ending a count")
    return Endings(dealing, other, count / count.sum())


def write_endings(path: Path, dealing_points: np.ndarray, other_points: np.ndarray) -> int:
    """Store how the hands whose sides scored ``dealing_points`` and ``other_points`` (n,) ended, as
    ``read_endings`` reads it; hands where nobody scored are left out. Returns the hands counted."""
    scored = (dealing_points > 0) | (other_points > 0)
    endings, counts = np.unique(np.column_stack([dealing_points, other_points])[scored], axis=0, return_counts=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(",".join(COLUMNS) + "\n")
        out.writelines(f"{dealing},{other},{count}\n" for (dealing, other), count in zip(endings, counts, strict=True))
    return int(counts.sum())


def win_chances(endings: Endings, target: int) -> np.ndarray:
    """(target, target, 2) the chance that a side wins the game when it has ``ours`` points and the
    other side ``theirs`` (both below ``target``) and it deals the next hand (last index 1) or the
    other side does (0), every hand ending as ``endings`` say."""
    most = int(max(endings.dealing_points.max(), endings.other_points.max()))
    chance = np.zeros((target + most, target + most, 2))
    chance[target:, :target, :] = 1.0  # we reached the target (the other side cannot have: the game is over)
    for total in range(2 * (target - 1), -1, -1):  # every hand adds points, so later scores come first
        ours = np.arange(max(0, total - target + 1), min(total, target - 1) + 1)
        theirs = total - ours
        for we_deal, our_gain, their_gain in (
            (1, endings.dealing_points, endings.other_points),
            (0, endings.other_points, endings.dealing_points),
        ):
            after = chance[ours[:, None] + our_gain, theirs[:, None] + their_gain, 1 - we_deal]
            chance[ours, theirs, we_deal] = after @ endings.shares
    return chance[:target, :target]


def lookahead_chances(value: str, path: Path, target: int) -> tuple[np.ndarray | None, int]:
    """For a lookahead's ``value`` setting (``VALUES``): the chances it values rollouts by (None when
    it values the hand's points) from the endings at ``path``, and its ``value_scale``."""
    if value == "points":
        return None, 1
    return win_chances(read_endings(path), target), GAME_SCALE


def game_values(chances: np.ndarray, ours: np.ndarray, theirs: np.ndarray, we_deal_next: np.ndarray) -> np.ndarray:
    """(m,) int64 the chance of winning the game (``win_chances``) in millionths (``GAME_SCALE``), at
    scores ``ours`` and ``theirs`` (m,) after a hand, dealing the next hand or not (``we_deal_next``,
    m bools): all of it at the target, none when the other side is there."""
    target = chances.shape[0]
    below = (ours < target) & (theirs < target)
    at = chances[np.minimum(ours, target - 1), np.minimum(theirs, target - 1), we_deal_next.astype(np.int64)]
    return np.rint(np.where(below, at, (ours >= target).astype(np.float64)) * GAME_SCALE).astype(np.int64)
