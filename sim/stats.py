"""Statistics for tournaments: confidence intervals, paired differences, Elo, LOS, SPRT and ratings.

Pure functions on plain numbers and numpy arrays; numpy is the only dependency. Every interval
is two-sided and returned as an :class:`Interval`. Conventions:

* A mean's interval is the normal approximation ``mean ± z·s/√n`` with the sample standard
  deviation ``s`` (ddof=1), ``z`` the two-sided normal quantile of the confidence level.
* Aggregated data come as moments ``(n, total, total_sq)`` = (count, Σx, Σx²), so a run of
  10^8 deals never has to keep its rows. When all three are integers the variance is computed
  exactly; with floats it loses precision when the mean is large relative to the spread.
* A proportion's interval (a win rate, a score rate) is Wilson's score interval, never zero wide
  at 0% or 100% (docs/research.md says why Wilson's and not Clopper-Pearson's).
* A "paired" difference is per deal: both contestants played the same deal (in the duplicate
  seatings), and the difference is taken deal by deal before averaging.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "Interval",
    "normal_cdf",
    "normal_quantile",
    "mean_interval",
    "mean_interval_from_moments",
    "wilson_interval",
    "score_interval",
    "paired_difference",
    "variance_reduction",
    "elo_from_score",
    "elo_interval",
    "likelihood_of_superiority",
    "sprt_bounds",
    "sprt_llr",
    "sprt_decision",
    "Encounter",
    "paired_comparison_ratings",
]


@dataclass(frozen=True)
class Interval:
    """A point estimate with a two-sided confidence interval [low, high] from n observations.

    ``low`` and ``high`` are nan when n is too small to estimate a spread.
    """

    estimate: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        """Half the interval's width (nan when the interval is undefined)."""
        return (self.high - self.low) / 2

    def contains(self, value: float) -> bool:
        """Whether value lies within [low, high] (False when the interval is undefined)."""
        return bool(self.low <= value <= self.high)


# --------------------------------------------------------------------------- normal distribution

# Coefficients of Peter Acklam's rational approximation to the normal quantile (rel. error 1.15e-9).
_A = (
    -3.969683028665376e01,
    2.209460984245205e02,
    -2.759285104469687e02,
    1.383577518672690e02,
    -3.066479806614716e01,
    2.506628277459239e00,
)
_B = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02, 6.680131188771972e01, -1.328068155288572e01)
_C = (
    -7.784894002430293e-03,
    -3.223964580411365e-01,
    -2.400758277161838e00,
    -2.549732539343734e00,
    4.374664141464968e00,
    2.938163982698783e00,
)
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00)
_P_LOW = 0.02425
_SQRT2 = math.sqrt(2.0)
_SQRT2PI = math.sqrt(2.0 * math.pi)


def normal_cdf(x: float) -> float:
    """Standard normal cumulative distribution function Φ(x)."""
    return 0.5 * math.erfc(-x / _SQRT2)


def _acklam_lower(p: float) -> float:
    """Acklam's approximation of Φ⁻¹(p) for 0 < p <= 0.5."""
    if p < _P_LOW:
        q = math.sqrt(-2.0 * math.log(p))
        return (((((_C[0] * q + _C[1]) * q + _C[2]) * q + _C[3]) * q + _C[4]) * q + _C[5]) / (
            (((_D[0] * q + _D[1]) * q + _D[2]) * q + _D[3]) * q + 1.0
        )
    q = p - 0.5
    r = q * q
    return (
        (((((_A[0] * r + _A[1]) * r + _A[2]) * r + _A[3]) * r + _A[4]) * r + _A[5])
        * q
        / (((((_B[0] * r + _B[1]) * r + _B[2]) * r + _B[3]) * r + _B[4]) * r + 1.0)
    )


def normal_quantile(p: float) -> float:
    """The standard normal quantile Φ⁻¹(p), accurate to about 1e-12 relative.

    Returns -inf for p = 0 and +inf for p = 1; raises ValueError for p outside [0, 1] or nan.
    Exactly antisymmetric: ``normal_quantile(1 - p) == -normal_quantile(p)`` whenever 1 - p is
    exact (as it is for every float p >= 0.5).
    """
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {p!r}")
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    if p == 0.5:
        return 0.0
    tail = min(p, 1.0 - p)  # exact for p >= 0.5 (Sterbenz), so the upper tail keeps its precision
    x = _acklam_lower(tail)
    # One Halley step on Φ(x) - tail = 0 brings the 1e-9 approximation to machine precision.
    error = 0.5 * math.erfc(-x / _SQRT2) - tail
    u = error * _SQRT2PI * math.exp(x * x / 2.0)
    x = x - u / (1.0 + x * u / 2.0)
    return x if p < 0.5 else -x


def _two_sided_z(confidence: float) -> float:
    """The z with P(|Z| <= z) = confidence for a standard normal Z."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return -normal_quantile((1.0 - confidence) / 2.0)


# --------------------------------------------------------------------------- means


def _is_integer(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _mean_and_ss(n: int, total: float, total_sq: float) -> tuple[float, float]:
    """Mean and sum of squared deviations from it, from the count, Σx and Σx² (n >= 1)."""
    if _is_integer(total) and _is_integer(total_sq):
        total, total_sq = int(total), int(total_sq)
        # n·Σ(x - mean)² = n·Σx² - (Σx)², exact in integer arithmetic.
        ss = (n * total_sq - total * total) / n
    else:
        total, total_sq = float(total), float(total_sq)
        ss = total_sq - total * total / n
    return total / n, max(float(ss), 0.0)


def _interval_around(mean: float, sd: float, n: int, confidence: float) -> Interval:
    if n < 2:
        return Interval(mean, math.nan, math.nan, n)
    half = _two_sided_z(confidence) * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)


def _check_count(n: int) -> int:
    if not _is_integer(n) or n < 0:
        raise ValueError(f"count must be a non-negative integer, got {n!r}")
    return int(n)


def mean_interval(values: ArrayLike, confidence: float = 0.95) -> Interval:
    """The mean of values with its normal-approximation confidence interval.

    Uses the sample standard deviation (ddof=1). With fewer than two values low and high are nan
    (and with none the estimate is nan too).
    """
    x = np.asarray(values, dtype=float).ravel()
    _two_sided_z(confidence)
    n = x.size
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n >= 2 else math.nan
    return _interval_around(mean, sd, n, confidence)


def mean_interval_from_moments(n: int, total: float, total_sq: float, confidence: float = 0.95) -> Interval:
    """The same interval as :func:`mean_interval`, from the count n, Σx and Σx² of the values."""
    n = _check_count(n)
    _two_sided_z(confidence)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean, ss = _mean_and_ss(n, total, total_sq)
    sd = math.sqrt(ss / (n - 1)) if n >= 2 else math.nan
    return _interval_around(mean, sd, n, confidence)


# --------------------------------------------------------------------------- proportions


def ratio_interval(numerator: ArrayLike, denominator: ArrayLike, confidence: float = 0.95) -> Interval:
    """mean(numerator) / mean(denominator) of paired values, with the delta method's interval.

    The ratio's error is that of the mean of the linearized values (n_i - r d_i) / mean(d): what
    "the share of a gap closed" needs when both gaps are measured on the same deals.
    """
    top, bottom = np.asarray(numerator, dtype=float).ravel(), np.asarray(denominator, dtype=float).ravel()
    if top.size != bottom.size:
        raise ValueError("numerator and denominator must be paired (same length)")
    ratio = float(top.mean() / bottom.mean())
    spread = mean_interval((top - ratio * bottom) / bottom.mean(), confidence)
    return Interval(ratio, ratio - spread.half_width, ratio + spread.half_width, spread.n)


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> Interval:
    """The success proportion with its Wilson score confidence interval.

    The interval always lies within [0, 1] and is never zero wide once there is a trial: low is
    exactly 0 with no successes and high exactly 1 with no failures, while the other bound stays
    inside (0/20 gives [0, 0.1611], 20/20 [0.8389, 1]). With no trials everything is nan.
    """
    successes, trials = _check_count(successes), _check_count(trials)
    if successes > trials:
        raise ValueError(f"successes ({successes}) exceed trials ({trials})")
    return _wilson(successes, trials, _two_sided_z(confidence))


def _wilson(successes: float, trials: int, z: float) -> Interval:
    """The Wilson score interval of ``successes`` (a draw may count half) out of ``trials``: the
    proportions p whose normal test |p̂ - p| <= z·√(p(1 - p)/n) does not reject, solved for p."""
    if trials == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2.0) / (1.0 + z2n)
    half = z * math.sqrt(p * (1.0 - p) / trials + z2n / (4.0 * trials)) / (1.0 + z2n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(p, low, high, trials)


# --------------------------------------------------------------------------- paired comparisons


def _paired_diffs(a: ArrayLike, b: ArrayLike) -> np.ndarray:
    xa = np.asarray(a, dtype=float).ravel()
    xb = np.asarray(b, dtype=float).ravel()
    if xa.shape != xb.shape:
        raise ValueError(f"paired samples differ in length: {xa.size} and {xb.size}")
    return xa - xb


def paired_difference(a: ArrayLike, b: ArrayLike, confidence: float = 0.95) -> Interval:
    """Mean of the per-deal differences a[i] - b[i] with its confidence interval.

    a and b hold the two contestants' results on the same deals, in the same order.
    """
    return mean_interval(_paired_diffs(a, b), confidence)


def variance_reduction(paired_diffs: ArrayLike, unpaired_a: ArrayLike, unpaired_b: ArrayLike) -> float:
    """How many times smaller pairing made the variance of the estimated mean difference.

    Returns ``(var(unpaired_a) + var(unpaired_b)) / var(paired_diffs)``, each a sample variance
    (ddof=1). For the same number n of deals, an unpaired comparison (independent deals for a and
    for b) estimates the mean difference with variance ``(var(a) + var(b)) / n`` and a paired one
    with ``var(a - b) / n``; the n cancels, so the result is the ratio of those two variances, i.e.
    the factor by which pairing multiplies the effective number of deals. Above 1 pairing helped.

    When unpaired_a and unpaired_b are the two columns whose differences are paired_diffs, this is
    ``1 + 2·cov(a, b) / var(a - b)``. Returns nan when any sample has fewer than two values (or
    both variances are 0) and inf when only the paired variance is 0.
    """
    d = np.asarray(paired_diffs, dtype=float).ravel()
    xa = np.asarray(unpaired_a, dtype=float).ravel()
    xb = np.asarray(unpaired_b, dtype=float).ravel()
    if min(d.size, xa.size, xb.size) < 2:
        return math.nan
    unpaired = float(xa.var(ddof=1) + xb.var(ddof=1))
    paired = float(d.var(ddof=1))
    if paired == 0.0:
        return math.inf if unpaired > 0.0 else math.nan
    return unpaired / paired


# --------------------------------------------------------------------------- Elo and LOS


def elo_from_score(score: float) -> float:
    """The Elo rating difference whose expected score is score: 400·log10(s / (1 - s)).

    -inf for a score of 0 and +inf for 1; ValueError outside [0, 1].
    """
    s = float(score)
    if not 0.0 <= s <= 1.0:
        raise ValueError(f"score must be in [0, 1], got {score!r}")
    if s == 0.0:
        return -math.inf
    if s == 1.0:
        return math.inf
    return 400.0 * math.log10(s / (1.0 - s))


def elo_interval(wins: int, draws: int, losses: int, confidence: float = 0.95) -> Interval:
    """The Elo difference implied by a win/draw/loss record, with its confidence interval.

    The score's interval (:func:`score_interval`, Wilson's) converted bound by bound with
    :func:`elo_from_score`, so the interval is not symmetric about the estimate, and a bound is
    infinite exactly when the score's is 0 or 1: a record without a loss has +inf as its upper
    bound (and as its estimate), never a finite number standing in for it. n is the number of
    games; with none all are nan.
    """
    score = score_interval(wins, draws, losses, confidence)
    if score.n == 0:
        return score
    return Interval(elo_from_score(score.estimate), elo_from_score(score.low), elo_from_score(score.high), score.n)


def score_interval(wins: int, draws: int, losses: int, confidence: float = 0.95) -> Interval:
    """The score rate (wins + draws/2) / games of a win/draw/loss record, with its interval.

    Wilson's score interval (:func:`wilson_interval`) with a draw counted as half a success. Without
    draws it is exactly Wilson's; with draws it is a little wide, never too narrow: an outcome in
    [0, 1] whose mean is p has a variance of at most p(1 - p), the binomial variance Wilson assumes.
    It is never zero wide, 20-0-0 included ([0.8389, 1]). n is the number of games; with none
    all are nan.
    """
    wins, draws, losses = _check_count(wins), _check_count(draws), _check_count(losses)
    return _wilson(wins + 0.5 * draws, wins + draws + losses, _two_sided_z(confidence))


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """The likelihood that the first player is the stronger: Φ((wins - losses) / √(wins + losses)).

    Draws carry no information and are left out. 0.5 when there are no decisive games.
    """
    wins, losses = _check_count(wins), _check_count(losses)
    if wins + losses == 0:
        return 0.5
    return normal_cdf((wins - losses) / math.sqrt(wins + losses))


# --------------------------------------------------------------------------- SPRT


def _check_error_rates(alpha: float, beta: float) -> None:
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
        raise ValueError(f"need 0 < alpha, beta < 1 and alpha + beta < 1, got alpha={alpha!r}, beta={beta!r}")


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds (lower, upper) = (log(β/(1-α)), log((1-β)/α)) for the LLR.

    alpha is the tolerated rate of accepting H1 when H0 holds, beta of accepting H0 when H1 holds.
    """
    _check_error_rates(alpha, beta)
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_llr(n: int, total: float, total_sq: float, mu0: float, mu1: float) -> float:
    """Log-likelihood ratio of H1 (mean difference mu1) over H0 (mean difference mu0).

    The data are n real-valued per-deal differences with sum total and sum of squares total_sq,
    modelled as normal with a common variance estimated from the data (the maximum-likelihood
    variance about the sample mean, as in the generalized SPRT):
    ``LLR = (mu1 - mu0)·(total - n·(mu0 + mu1)/2) / var``. Requires mu0 < mu1.

    Returns 0 with fewer than two differences (no variance estimate yet). When the differences
    are all equal (variance 0) it returns ±inf by the side of the midpoint (mu0 + mu1)/2 they lie
    on, or 0 exactly on it.
    """
    n = _check_count(n)
    if not mu0 < mu1:
        raise ValueError(f"need mu0 < mu1, got mu0={mu0!r}, mu1={mu1!r}")
    if n < 2:
        return 0.0
    _, ss = _mean_and_ss(n, total, total_sq)
    var = ss / n
    numerator = (mu1 - mu0) * (float(total) - n * (mu0 + mu1) / 2.0)
    if var == 0.0:
        return math.copysign(math.inf, numerator) if numerator != 0.0 else 0.0
    return numerator / var


def sprt_decision(llr: float, alpha: float, beta: float) -> Literal["H1", "H0"] | None:
    """The SPRT's verdict for a log-likelihood ratio from :func:`sprt_llr`.

    "H1" (accept: the mean difference is at least mu1) when llr reaches the upper bound, "H0"
    (accept: it is at most mu0) when llr reaches the lower bound, None to keep sampling. Read with
    mu0 < mu1, the test accepts H1 with probability about alpha or less when the true difference
    is at most mu0, and accepts H0 with probability about beta or less when it is at least mu1;
    between mu0 and mu1 either verdict may come.
    """
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return None


# --------------------------------------------------------------------------- ratings

ELO_PER_NATURAL_UNIT = 400.0 / math.log(10.0)  # Elo points per unit of the logistic's natural scale
_UNBOUNDED = "the ratings are unbounded: some group of players won (or lost) every comparison with the others"


def _unreached(linked: np.ndarray, start: int) -> list[int]:
    """The nodes not reachable from ``start`` over the symmetric adjacency matrix ``linked``."""
    reached, frontier = {start}, [start]
    while frontier:
        node = frontier.pop()
        for other in np.flatnonzero(linked[node]).tolist():
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    return [node for node in range(len(linked)) if node not in reached]


@dataclass(frozen=True)
class Encounter:
    """The results of ``first`` against ``second`` (indexes into the rated players): the comparisons
    the first won, drew and lost."""

    first: int
    second: int
    wins: float
    draws: float
    losses: float


def paired_comparison_ratings(
    num_players: int,
    encounters: list[Encounter],
    anchor: int = 0,
    confidence: float = 0.95,
    virtual_draws: float = 0.0,
    iterations: int = 100,
) -> list[Interval]:
    """Maximum-likelihood Elo ratings of ``num_players`` from their encounters, ``anchor`` at 0.

    The Bradley–Terry model on the Elo scale, as Ordo fits it: player i scores against j with
    probability 1 / (1 + 10^((r_j - r_i)/400)), a draw counting as half a win and half a loss.
    Newton's method maximizes the likelihood; each rating's interval is the normal approximation
    from the inverse of the observed information with the anchor held fixed (its interval is
    [0, 0]). ``virtual_draws`` adds that many draws to every encounter, BayesElo's prior, for data
    where some player won or lost everything (whose likelihood has no maximum). Ratings of
    players not connected to the anchor by encounters, or unbounded, raise ValueError.
    """
    z = _two_sided_z(confidence)
    score = np.zeros((num_players, num_players))  # score[i, j]: what i scored against j
    games = np.zeros((num_players, num_players))
    for encounter in encounters:
        i, j = encounter.first, encounter.second
        draws = encounter.draws + virtual_draws
        score[i, j] += encounter.wins + draws / 2
        score[j, i] += encounter.losses + draws / 2
        played = encounter.wins + encounter.losses + draws
        games[i, j] += played
        games[j, i] += played
    unreached = _unreached(games > 0, anchor)
    if unreached:
        raise ValueError(
            f"the ratings are not determined: players {unreached} have no encounters linking them to the anchor"
        )
    free = [player for player in range(num_players) if player != anchor]
    theta = np.zeros(num_players)  # natural-scale ratings

    def information(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The gradient of the log-likelihood and the observed information, over the free players."""
        expected = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
        gradient = (score - games * expected).sum(axis=1)
        weight = games * expected * (1.0 - expected)
        info = np.diag(weight.sum(axis=1)) - weight
        return gradient[free], info[np.ix_(free, free)]

    for _ in range(iterations):
        gradient, info = information(theta)
        try:
            step = np.linalg.solve(info, gradient)
        except np.linalg.LinAlgError:
            break  # the information vanished: ratings running off to infinity
        theta[free] += np.clip(step, -2.0, 2.0)  # damped: far from the maximum a full step can overshoot
        if np.abs(step).max() < 1e-10:
            break
    else:
        raise ValueError(_UNBOUNDED)
    if np.abs(theta).max() > 50.0:  # a win probability of 1 - 1e-22: no finite maximum
        raise ValueError(_UNBOUNDED)
    _, info = information(theta)
    covariance = np.linalg.inv(info)
    spread = np.zeros(num_players)
    spread[free] = np.sqrt(np.diag(covariance))
    return [
        Interval(
            float(theta[i] * ELO_PER_NATURAL_UNIT),
            float((theta[i] - z * spread[i]) * ELO_PER_NATURAL_UNIT),
            float((theta[i] + z * spread[i]) * ELO_PER_NATURAL_UNIT),
            int(games[i].sum()),
        )
        for i in range(num_players)
    ]
