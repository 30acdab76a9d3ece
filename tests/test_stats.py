"""Tests for sim.stats: known values, agreement between forms, calibration and SPRT behaviour."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim import stats
from sim.stats import (
    Interval,
    elo_from_score,
    elo_interval,
    likelihood_of_superiority,
    mean_interval,
    mean_interval_from_moments,
    normal_cdf,
    normal_quantile,
    paired_difference,
    score_interval,
    sprt_bounds,
    sprt_decision,
    sprt_llr,
    variance_reduction,
    wilson_interval,
)

Z975 = 1.959963984540054  # Φ⁻¹(0.975)


# --------------------------------------------------------------------------- normal_quantile


@pytest.mark.parametrize(
    ("p", "expected"),
    [
        (0.975, 1.959963984540054),
        (0.995, 2.5758293035489004),
        (0.95, 1.6448536269514722),
        (0.8413447460685429, 1.0),  # Φ(1)
        (0.15865525393145707, -1.0),  # Φ(-1)
        (0.02275013194817921, -2.0),  # Φ(-2), in Acklam's lower-tail region
        (1e-10, -6.361340902404056),
        (1e-20, -9.262340089798409),
        (1e-300, -37.0470962993612),
    ],
)
def test_normal_quantile_known_values(p: float, expected: float) -> None:
    assert normal_quantile(p) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_normal_quantile_centre_and_ends() -> None:
    assert normal_quantile(0.5) == 0.0
    assert normal_quantile(0.0) == -math.inf
    assert normal_quantile(1.0) == math.inf


@pytest.mark.parametrize("p", [1e-10, 1e-5, 0.001, 0.02425, 0.1, 0.3, 0.49999])
def test_normal_quantile_is_antisymmetric(p: float) -> None:
    assert normal_quantile(1 - p) == pytest.approx(-normal_quantile(p), rel=1e-6)  # 1 - p rounds
    q = 1 - p  # a float >= 0.5, so 1 - q is exact and the symmetry holds bit for bit
    assert normal_quantile(q) == -normal_quantile(1 - q)


def test_normal_quantile_upper_tail_keeps_precision() -> None:
    assert normal_quantile(1 - 1e-10) == pytest.approx(6.361340902404056, rel=1e-6)


def test_normal_quantile_inverts_the_cdf() -> None:
    for p in np.concatenate([np.logspace(-15, -1, 60), np.linspace(0.01, 0.99, 99)]):
        assert normal_cdf(normal_quantile(p)) == pytest.approx(p, rel=1e-12)


def test_normal_quantile_is_increasing() -> None:
    xs = [normal_quantile(p) for p in np.linspace(1e-6, 1 - 1e-6, 2001)]
    assert all(a < b for a, b in zip(xs, xs[1:]))


@pytest.mark.parametrize("p", [-0.1, 1.1, math.nan])
def test_normal_quantile_rejects_non_probabilities(p: float) -> None:
    with pytest.raises(ValueError):
        normal_quantile(p)


def test_normal_quantile_matches_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    ps = np.concatenate([np.logspace(-300, -1, 300), np.linspace(0.001, 0.999, 999)])
    ours = np.array([normal_quantile(p) for p in ps])
    np.testing.assert_allclose(ours, stats.norm.ppf(ps), rtol=1e-12, atol=1e-12)


# --------------------------------------------------------------------------- means


def test_mean_interval_known_value() -> None:
    iv = mean_interval([1, 2, 3, 4, 5])
    half = Z975 * math.sqrt(2.5) / math.sqrt(5)
    assert iv.estimate == 3.0 and iv.n == 5
    assert iv.low == pytest.approx(3 - half, rel=1e-12)
    assert iv.high == pytest.approx(3 + half, rel=1e-12)
    assert iv.half_width == pytest.approx(half, rel=1e-12)
    assert iv.contains(3.0) and not iv.contains(5.0)


def test_ratio_interval_known_value() -> None:
    """The delta method: linearized values ([1, 2, 3] - 1 * 2) / 2 = [-0.5, 0, 0.5] around the ratio 1."""
    iv = stats.ratio_interval([1, 2, 3], [2, 2, 2])
    half = Z975 * 0.5 / math.sqrt(3)
    assert iv.estimate == 1.0 and iv.n == 3
    assert iv.low == pytest.approx(1 - half, rel=1e-12) and iv.high == pytest.approx(1 + half, rel=1e-12)
    with pytest.raises(ValueError, match="paired"):
        stats.ratio_interval([1, 2], [1, 2, 3])


def test_mean_interval_narrows_with_lower_confidence() -> None:
    values = np.arange(20.0)
    assert mean_interval(values, 0.8).half_width < mean_interval(values, 0.99).half_width


def test_mean_interval_too_few_values() -> None:
    one = mean_interval([7.0])
    assert one.estimate == 7.0 and one.n == 1
    assert math.isnan(one.low) and math.isnan(one.high)
    assert not one.contains(7.0)
    empty = mean_interval([])
    assert empty.n == 0 and math.isnan(empty.estimate)


@pytest.mark.parametrize("confidence", [0.0, 1.0, 1.5, -0.2])
def test_confidence_must_be_a_proper_level(confidence: float) -> None:
    with pytest.raises(ValueError):
        mean_interval([1.0, 2.0], confidence)


def _assert_same_interval(a: Interval, b: Interval, tol: float = 1e-9) -> None:
    assert a.n == b.n
    for x, y in [(a.estimate, b.estimate), (a.low, b.low), (a.high, b.high)]:
        assert x == pytest.approx(y, rel=tol, abs=tol, nan_ok=True)


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.999])
def test_from_moments_agrees_with_values_for_floats(confidence: float) -> None:
    rng = np.random.default_rng(1)
    for n in [1, 2, 3, 10, 1000]:
        x = rng.normal(3.0, 5.0, size=n)
        _assert_same_interval(
            mean_interval_from_moments(n, x.sum(), (x * x).sum(), confidence),
            mean_interval(x, confidence),
        )


def test_from_moments_is_exact_for_large_integer_points() -> None:
    # Large offset, small spread: the float formula Σx² - (Σx)²/n would cancel catastrophically.
    rng = np.random.default_rng(2)
    x = rng.integers(10**9, 10**9 + 5, size=5000)
    total, total_sq = int(x.sum()), sum(int(v) ** 2 for v in x)
    _assert_same_interval(mean_interval_from_moments(x.size, total, total_sq), mean_interval(x))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-200, 200), min_size=0, max_size=60))
def test_from_moments_agrees_with_values_for_integer_points(points: list[int]) -> None:
    x = np.array(points, dtype=np.int64)
    iv = mean_interval_from_moments(len(points), x.sum(), (x * x).sum())
    _assert_same_interval(iv, mean_interval(x))


def test_from_moments_chunks_add_up() -> None:
    rng = np.random.default_rng(3)
    chunks = [rng.integers(-26, 27, size=size) for size in (100, 1, 37, 500)]
    n = sum(c.size for c in chunks)
    total = sum(int(c.sum()) for c in chunks)
    total_sq = sum(int((c * c).sum()) for c in chunks)
    _assert_same_interval(mean_interval_from_moments(n, total, total_sq), mean_interval(np.concatenate(chunks)))


# --------------------------------------------------------------------------- Wilson

# Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison of seven
# methods", Statistics in Medicine 17:857-872, Table II, method 3 (the score method without continuity
# correction), to four decimals: his examples at 0 of n, 1 of a few dozen and larger counts.
NEWCOMBE_WILSON = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("successes", "trials", "low", "high"), NEWCOMBE_WILSON)
def test_wilson_known_values(successes: int, trials: int, low: float, high: float) -> None:
    iv = wilson_interval(successes, trials)
    assert iv.estimate == pytest.approx(successes / trials)
    assert iv.low == pytest.approx(low, abs=5e-5)
    assert iv.high == pytest.approx(high, abs=5e-5)
    # All successes mirror none: 20 of 20 is [0.8389, 1], not the [1, 1] of the normal approximation.
    mirrored = wilson_interval(trials - successes, trials)
    assert (mirrored.low, mirrored.high) == pytest.approx((1 - high, 1 - low), abs=5e-5)


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    # One or two trials, from the closed forms: 0 of 1 is [0, z²/(1 + z²)], 1 of 1 is [1/(1 + z²), 1],
    # 1 of 2 is ½ ± z·√(1/8 + z²/16)/(1 + z²/2).
    [
        (0, 1, 0.0, Z975**2 / (1 + Z975**2)),  # [0, 0.7935]
        (1, 1, 1 / (1 + Z975**2), 1.0),  # [0.2065, 1]
        (
            1,
            2,
            0.5 - Z975 * math.sqrt(1 / 8 + Z975**2 / 16) / (1 + Z975**2 / 2),
            0.5 + Z975 * math.sqrt(1 / 8 + Z975**2 / 16) / (1 + Z975**2 / 2),
        ),  # [0.0945, 0.9055]
    ],
)
def test_wilson_at_a_trial_or_two_is_wide_but_never_zero_wide(successes, trials, low, high) -> None:
    iv = wilson_interval(successes, trials)
    assert (iv.low, iv.high) == pytest.approx((low, high), rel=1e-12)
    assert iv.high - iv.low > 0.7
    assert wilson_interval(1, 1).low == pytest.approx(0.2065, abs=5e-5)
    assert wilson_interval(1, 2).low == pytest.approx(0.0945, abs=5e-5)


def test_wilson_extremes() -> None:
    none = wilson_interval(0, 10)
    assert none.low == 0.0
    assert none.high == pytest.approx(Z975**2 / (10 + Z975**2), rel=1e-12)
    every = wilson_interval(10, 10)
    assert every.high == 1.0
    assert every.low == pytest.approx(1 - none.high, rel=1e-12)
    empty = wilson_interval(0, 0)
    assert empty.n == 0 and math.isnan(empty.estimate)


@pytest.mark.parametrize(("successes", "trials"), [(-1, 5), (6, 5), (1.5, 5)])
def test_wilson_rejects_bad_counts(successes: float, trials: int) -> None:
    with pytest.raises(ValueError):
        wilson_interval(successes, trials)  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_is_a_sub_interval_of_unit_containing_the_proportion(
    counts: tuple[int, int],
) -> None:
    successes, trials = counts
    iv = wilson_interval(successes, trials)
    assert 0.0 <= iv.low <= iv.estimate <= iv.high <= 1.0
    mirrored = wilson_interval(trials - successes, trials)
    assert mirrored.low == pytest.approx(1 - iv.high, abs=1e-12)


@pytest.mark.parametrize(("trials", "p"), [(20, 0.5), (50, 0.1), (100, 0.3), (400, 0.05), (1000, 0.5)])
def test_wilson_coverage_is_close_to_nominal(trials: int, p: float) -> None:
    # Exact coverage: the binomial probability of the outcomes whose interval contains p.
    coverage = sum(
        math.comb(trials, k) * p**k * (1 - p) ** (trials - k)
        for k in range(trials + 1)
        if wilson_interval(k, trials).contains(p)
    )
    assert 0.92 <= coverage <= 0.98


# --------------------------------------------------------------------------- paired differences


def test_paired_difference_known_value() -> None:
    iv = paired_difference([3, 5, 7, 9, 11], [2, 3, 4, 5, 6])  # differences 1..5
    _assert_same_interval(iv, mean_interval([1, 2, 3, 4, 5]), tol=1e-15)


def test_paired_difference_rejects_unequal_lengths() -> None:
    with pytest.raises(ValueError):
        paired_difference([1, 2, 3], [1, 2])


def test_self_match_interval_excludes_zero_about_five_percent_of_the_time() -> None:
    rng = np.random.default_rng(2024)
    deals = 300
    excluded = 0
    for _ in range(200):
        deal_effect = rng.normal(0.0, 10.0, size=deals)  # shared by both seats of a deal
        a = deal_effect + rng.normal(0.0, 3.0, size=deals)
        b = deal_effect + rng.normal(0.0, 3.0, size=deals)
        excluded += not paired_difference(a, b).contains(0.0)
    assert 2 <= excluded <= 22  # between 1% and 11% of 200


def test_variance_reduction_from_shared_deal_effects() -> None:
    rng = np.random.default_rng(5)
    deal_effect = rng.normal(0.0, 10.0, size=20_000)
    a = deal_effect + rng.normal(0.0, 3.0, size=deal_effect.size)
    b = deal_effect + rng.normal(0.0, 3.0, size=deal_effect.size)
    factor = variance_reduction(a - b, a, b)
    # var(a) + var(b) = 2·(100 + 9), var(a - b) = 2·9.
    assert factor == pytest.approx(218 / 18, rel=0.05)
    cov = np.cov(a, b)[0, 1]
    assert factor == pytest.approx(1 + 2 * cov / np.var(a - b, ddof=1), rel=1e-9)


def test_variance_reduction_known_value_and_edges() -> None:
    assert variance_reduction([1, 3], [0, 2], [0, 4]) == pytest.approx((2 + 8) / 2)
    rng = np.random.default_rng(6)
    a, b = rng.normal(size=20_000), rng.normal(size=20_000)
    assert variance_reduction(a - b, a, b) == pytest.approx(1.0, abs=0.05)  # nothing shared
    assert variance_reduction([2, 2, 2], [1, 2, 3], [0, 1, 2]) == math.inf
    assert math.isnan(variance_reduction([1], [1, 2], [1, 2]))


# --------------------------------------------------------------------------- Elo and LOS


def test_elo_from_score_known_values() -> None:
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3), rel=1e-12)
    assert elo_from_score(10 / 11) == pytest.approx(400.0, rel=1e-12)
    assert elo_from_score(0.2) == pytest.approx(-elo_from_score(0.8), rel=1e-12)
    assert elo_from_score(0.0) == -math.inf and elo_from_score(1.0) == math.inf
    with pytest.raises(ValueError):
        elo_from_score(1.2)


def test_elo_interval_is_the_elo_of_the_score_interval() -> None:
    # 60 wins, 20 draws, 20 losses: score 0.7 over 100 games, Wilson's interval of 70 successes in 100.
    iv = elo_interval(60, 20, 20)
    assert iv.n == 100
    assert iv.estimate == pytest.approx(400 * math.log10(0.7 / 0.3), rel=1e-12)
    score = wilson_interval(70, 100)
    assert iv.low == pytest.approx(elo_from_score(score.low), rel=1e-12)
    assert iv.high == pytest.approx(elo_from_score(score.high), rel=1e-12)
    assert iv.low < iv.estimate < iv.high


def test_elo_interval_mirrors_and_edges() -> None:
    iv, mirrored = elo_interval(30, 10, 12), elo_interval(12, 10, 30)
    assert mirrored.estimate == pytest.approx(-iv.estimate)
    assert mirrored.low == pytest.approx(-iv.high) and mirrored.high == pytest.approx(-iv.low)
    even = elo_interval(10, 5, 10)
    assert even.estimate == 0.0 and even.low == pytest.approx(-even.high)
    assert math.isnan(elo_interval(0, 0, 0).estimate)


def test_a_clean_sweep_has_a_finite_lower_bound_and_an_infinite_upper_one() -> None:
    """20-0-0: the score is 1 and its Wilson interval [0.8389, 1], so the Elo is +inf with a lower
    bound of 400·log10(0.8389/0.1611) = +286.6, and the upper bound is +inf, not a number."""
    sweep = elo_interval(20, 0, 0)
    assert sweep.estimate == math.inf and sweep.high == math.inf
    # The score's lower bound is 1 - z²/(20 + z²), whose odds are 20/z².
    assert sweep.low == pytest.approx(400 * math.log10(20 / Z975**2), rel=1e-12)
    assert sweep.low == pytest.approx(286.6, abs=0.05)
    lost = elo_interval(0, 0, 20)
    assert lost.estimate == -math.inf and lost.low == -math.inf and lost.high == pytest.approx(-sweep.low)
    assert math.isfinite(elo_interval(1, 0, 1).low)  # no longer clipped to a score of 0


def test_likelihood_of_superiority() -> None:
    assert likelihood_of_superiority(10, 10) == 0.5
    assert likelihood_of_superiority(0, 0) == 0.5
    # Φ(5/√15) = Φ(1.2909944...) ≈ 0.90164720
    assert likelihood_of_superiority(10, 5) == pytest.approx(0.9016471987705266, rel=1e-12)
    assert likelihood_of_superiority(10, 5) + likelihood_of_superiority(5, 10) == pytest.approx(1.0)
    assert likelihood_of_superiority(1000, 900) > 0.98


# --------------------------------------------------------------------------- SPRT


def test_sprt_bounds_known_values() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19), rel=1e-12)
    assert lower == pytest.approx(-math.log(19), rel=1e-12)
    lower, upper = sprt_bounds(0.05, 0.1)
    assert (lower, upper) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


@pytest.mark.parametrize(("alpha", "beta"), [(0.0, 0.1), (0.1, 1.0), (0.6, 0.5)])
def test_sprt_bounds_reject_bad_error_rates(alpha: float, beta: float) -> None:
    with pytest.raises(ValueError):
        sprt_bounds(alpha, beta)


def test_sprt_llr_known_value() -> None:
    x = np.array([1.0, -1.0, 2.0, 0.0])  # mean 0.5, MLE variance 1.25
    llr = sprt_llr(4, x.sum(), (x * x).sum(), 0.0, 1.0)
    assert llr == pytest.approx(1.0 * (2.0 - 4 * 0.5) / 1.25 + 0.0)
    y = np.array([3.0, 1.0, 2.0, 2.0])  # mean 2, MLE variance 0.5
    assert sprt_llr(4, y.sum(), (y * y).sum(), 0.0, 1.0) == pytest.approx(1.0 * (8 - 2) / 0.5)
    assert sprt_llr(4, int(y.sum()), int((y * y).sum()), 0.0, 1.0) == pytest.approx(12.0)


def test_sprt_llr_edges() -> None:
    assert sprt_llr(0, 0, 0, 0.0, 1.0) == 0.0
    assert sprt_llr(1, 5.0, 25.0, 0.0, 1.0) == 0.0
    assert sprt_llr(3, 6, 12, 0.0, 1.0) == math.inf  # all differences 2 > midpoint
    assert sprt_llr(3, 0, 0, 0.0, 1.0) == -math.inf  # all differences 0 < midpoint
    with pytest.raises(ValueError):
        sprt_llr(10, 1.0, 5.0, 1.0, 1.0)


def test_sprt_decision_thresholds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert sprt_decision(upper, 0.05, 0.05) == "H1"
    assert sprt_decision(lower, 0.05, 0.05) == "H0"
    assert sprt_decision(0.0, 0.05, 0.05) is None
    assert sprt_decision(math.inf, 0.05, 0.05) == "H1"


def _run_sprt(
    rng: np.random.Generator, true_mean: float, mu0: float, mu1: float, max_samples: int
) -> tuple[str | None, int]:
    diffs = rng.normal(true_mean, 1.0, size=max_samples)
    totals, totals_sq = np.cumsum(diffs), np.cumsum(diffs * diffs)
    for n in range(10, max_samples + 1):  # a short burn-in before the variance is trusted
        verdict = sprt_decision(sprt_llr(n, totals[n - 1], totals_sq[n - 1], mu0, mu1), 0.05, 0.05)
        if verdict is not None:
            return verdict, n
    return None, max_samples


@pytest.mark.parametrize(("true_mean", "expected"), [(0.4, "H1"), (0.0, "H0")])
def test_sprt_decides_correctly_on_simulated_streams(true_mean: float, expected: str) -> None:
    rng = np.random.default_rng(99)
    verdicts = [_run_sprt(rng, true_mean, 0.0, 0.2, 3000) for _ in range(60)]
    assert all(verdict is not None for verdict, _ in verdicts)  # stopped within the budget
    correct = sum(verdict == expected for verdict, _ in verdicts)
    assert correct >= 54  # ≥ 90% with nominal error rates of 5%
    assert np.median([n for _, n in verdicts]) < 500


def test_score_interval_is_wilsons_with_a_draw_as_half_a_success() -> None:
    # 10 wins, 5 draws, 5 losses: 12.5 successes in 20, Wilson's formula with p = 0.625.
    interval = score_interval(10, 5, 5)
    z2n = Z975**2 / 20
    centre = (0.625 + z2n / 2) / (1 + z2n)
    half = Z975 * math.sqrt(0.625 * 0.375 / 20 + z2n / 80) / (1 + z2n)
    assert (interval.estimate, interval.low, interval.high, interval.n) == pytest.approx(
        (0.625, centre - half, centre + half, 20), rel=1e-12
    )
    # Without draws it is Wilson's interval exactly, at 0 and at n too: never zero wide.
    for wins, losses in ((3, 0), (0, 3), (7, 13), (20, 0)):
        assert score_interval(wins, 0, losses) == wilson_interval(wins, wins + losses)
    assert score_interval(20, 0, 0).low == pytest.approx(0.8389, abs=5e-5)
    draws_only = score_interval(0, 20, 0)
    assert draws_only.low < 0.5 < draws_only.high
    assert math.isnan(score_interval(0, 0, 0).estimate)


# --------------------------------------------------------------------------- ratings


def test_two_player_rating_is_the_elo_of_the_score_with_the_fisher_interval() -> None:
    # Worked by hand: A scores 30 of 40 against B, so P(A beats B) = 0.75 and the rating difference
    # is 400·log10(0.75/0.25) = 400·log10(3) = 190.849. On the logistic's natural scale the
    # observed information is n·p·(1-p) = 40·0.75·0.25 = 7.5, so the standard error is
    # 1/√7.5 = 0.365148 natural units = 0.365148·400/ln 10 = 63.432 Elo; ±1.959964·63.432.
    a, b = stats.paired_comparison_ratings(2, [stats.Encounter(0, 1, 30, 0, 10)], anchor=1)
    assert a.estimate == pytest.approx(190.849, abs=1e-3)
    assert a.low == pytest.approx(190.849 - 124.326, abs=1e-2) and a.high == pytest.approx(190.849 + 124.326, abs=1e-2)
    assert (b.estimate, b.low, b.high) == (0.0, 0.0, 0.0)  # the anchor


def test_draws_count_half_and_a_chain_adds_ratings_and_variances() -> None:
    # 20 wins, 20 draws, 0 losses is a score of 30 of 40: the same as 30-0-10 above.
    (drawn,) = stats.paired_comparison_ratings(2, [stats.Encounter(0, 1, 20, 20, 0)], anchor=1)[:1]
    assert drawn.estimate == pytest.approx(190.849, abs=1e-3)
    # A beat B and B beat C 30-10 each, A never met C: A is 2 × 190.849 above C, and its variance is
    # the sum of the two links' (so its half-width is √2 times one link's, 124.326·√2 = 175.823).
    a, b, c = stats.paired_comparison_ratings(
        3, [stats.Encounter(0, 1, 30, 0, 10), stats.Encounter(1, 2, 30, 0, 10)], anchor=2
    )
    assert a.estimate == pytest.approx(381.697, abs=1e-3) and b.estimate == pytest.approx(190.849, abs=1e-3)
    assert (a.high - a.low) / 2 == pytest.approx(175.823, abs=1e-2)


def test_ratings_fit_the_likelihood_equations_of_a_cycle() -> None:
    # At the maximum each player's expected score equals its actual score (the score equations).
    encounters = [stats.Encounter(0, 1, 12, 3, 5), stats.Encounter(1, 2, 9, 4, 7), stats.Encounter(0, 2, 6, 2, 12)]
    ratings = [r.estimate for r in stats.paired_comparison_ratings(3, encounters, anchor=0)]
    actual, expected = np.zeros(3), np.zeros(3)
    for e in encounters:
        p = 1 / (1 + 10 ** ((ratings[e.second] - ratings[e.first]) / 400))
        n = e.wins + e.draws + e.losses
        actual[e.first] += e.wins + e.draws / 2
        actual[e.second] += e.losses + e.draws / 2
        expected[e.first] += n * p
        expected[e.second] += n * (1 - p)
    np.testing.assert_allclose(expected, actual, atol=1e-8)


def test_ratings_that_do_not_exist_are_refused_or_need_the_prior() -> None:
    with pytest.raises(ValueError, match="unbounded"):
        stats.paired_comparison_ratings(2, [stats.Encounter(0, 1, 30, 0, 0)])
    with pytest.raises(ValueError, match=r"players \[2\] have no encounters"):
        stats.paired_comparison_ratings(3, [stats.Encounter(0, 1, 3, 0, 1)])
    # One virtual draw: a score of 30.5 of 31, finite: 400·log10(30.5/0.5) = 714.132.
    a, _ = stats.paired_comparison_ratings(2, [stats.Encounter(0, 1, 30, 0, 0)], anchor=1, virtual_draws=1)
    assert a.estimate == pytest.approx(714.132, abs=1e-3)


def test_elo_sprt_is_the_trinomial_gsprt_on_deal_scores() -> None:
    from sim.match import Bounds, match_llr, score_of_elo

    # 60 wins, 20 draws, 20 losses: mean score 0.7, variance 0.65 - 0.49 = 0.16. Against elo0 = 0
    # (score 0.5) and elo1 = 100 (score 1/(1 + 10^-0.25) = 0.640065): LLR = (s1 - s0)·(70 - 100·(s0 +
    # s1)/2) / 0.16 = 0.140065·12.99675 / 0.16 = 11.3774.
    assert score_of_elo(100) == pytest.approx(0.640065, abs=1e-6)
    pair = {"wins": 60, "draws": 20, "losses": 20, "diff": {"n": 100, "sum": 0.0, "sum_sq": 0.0}}
    deals, llr = match_llr(Bounds("elo", 0, 100), pair, 1.0)
    assert deals == 100 and llr == pytest.approx(11.3774, abs=1e-3)
