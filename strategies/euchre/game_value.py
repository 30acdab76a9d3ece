"""What a Euchre hand is worth to the game: the chance of winning a game to 10 after it, from the score.

A hand's points are what a lookahead maximises by default, but whole games are what a player wins,
and a point is not worth the same at every score: at 9 to 9 one point wins and a march wins no more;
at 6 to 9 the side at 9 wins with any point, so the other must keep it from scoring at all. So
``search:value=game`` values a rollout by the chance of winning the game from the score it leaves.

The chances come from how hands end (``hand_outcomes.csv`` beside this module, made by ``python -m
experiments.euchre_hand_outcomes``: the share of hands in which the dealing team scores 1 or 2, or the
other team 1 or 2, over a million hands of heuristic play), taking every later hand to end so, the
deal passing to the other team each hand: a recursion over the scores from the end of the game back.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.euchre import rules

OUTCOMES = Path(__file__).with_name("hand_outcomes.csv")
COLUMNS = ("ending", "count", "share")
ENDINGS = ("dealing+1", "dealing+2", "other+1", "other+2")  # who scores, and how much
_POINTS = np.array([1, 2, 1, 2])
_DEALING_SCORES = np.array([True, True, False, False])
TARGET = rules.DEFAULT_POINTS_TO_WIN


def hand_endings(path: Path = OUTCOMES) -> np.ndarray:
    """(4,) the share of hands ending each way of ``ENDINGS``, as stored at ``path``."""
    with open(path, encoding="utf-8") as stored:
        header, *lines = stored.read().splitlines()
    rows = [line.split(",") for line in lines]
    if header != ",".join(COLUMNS) or [row[0] for row in rows] != list(ENDINGS) or any(len(row) != 3 for row in rows):
        raise ValueError(f"{path} is not a table of Euchre hand endings ({', '.join(ENDINGS)})")
    shares = np.array([float(row[2]) for row in rows])
    if (shares < 0).any() or abs(shares.sum() - 1.0) > 1e-3:
        raise ValueError(f"{path}: the shares of the endings do not add up to 1")
    return shares / shares.sum()


def win_chances(endings: np.ndarray, target: int = TARGET) -> np.ndarray:
    """(target + 3, target + 3, 2) the chance that a team wins the game when it has ``ours`` points and
    the other team ``theirs`` (at most ``target + 2``: a game's last hand may pass the target) and it
    deals the next hand (last index 1) or the other team does (0), every hand ending as ``endings``
    (4,) says, the deal alternating between the teams."""
    top = target + 2
    chance = np.zeros((top + 1, top + 1, 2))
    chance[target:, :, :] = 1.0  # a team at the target has won (the other cannot be there too)
    for total in range(2 * (target - 1), -1, -1):  # every hand adds points, so later scores come first
        for ours in range(max(0, total - target + 1), min(total, target - 1) + 1):
            theirs = total - ours
            for we_deal in (0, 1):
                scoring_is_ours = _DEALING_SCORES == bool(we_deal)
                after_ours = ours + np.where(scoring_is_ours, _POINTS, 0)
                after_theirs = theirs + np.where(scoring_is_ours, 0, _POINTS)
                chance[ours, theirs, we_deal] = endings @ chance[after_ours, after_theirs, 1 - we_deal]
    return chance


def game_values(
    chances: np.ndarray, scores: np.ndarray, team: np.ndarray, dealer: np.ndarray, margin: np.ndarray
) -> np.ndarray:
    """(m,) ``team``'s chance of winning the game (``win_chances``) after a hand dealt by ``dealer``
    that ends with its points minus the other team's ``margin`` (m,), from the game ``scores`` (m, 2)
    by team before it. The next hand is dealt by the seat after ``dealer``."""
    rows = np.arange(len(margin))
    top = chances.shape[0] - 1
    ours = np.minimum(scores[rows, team] + np.maximum(margin, 0), top)
    theirs = np.minimum(scores[rows, 1 - team] + np.maximum(-margin, 0), top)
    we_deal_next = (((dealer + 1) & 1) == team).astype(np.int64)
    return chances[ours, theirs, we_deal_next]
