"""Decision timing: the bins, the percentile they give, and what a timed strategy counts."""

import math

import numpy as np
import pytest

from sim.timing import NUM_BINS, TimedStrategy, bin_of, bin_top, percentile_seconds


def test_bins_are_twenty_a_decade_from_a_nanosecond():
    # log10(1e-6 / 1e-9) = 3 decades: bin 60, whose top edge is 1e-9 · 10^(61/20) = 1.1220 µs.
    assert bin_of(1e-6 * 1.0001) == 60 and bin_top(60) == pytest.approx(1.12202e-6, rel=1e-5)
    assert bin_of(0.0) == 0 and bin_of(1e6) == NUM_BINS - 1
    assert all(bin_of(bin_top(index) * 0.999) == index for index in range(NUM_BINS - 1))


def test_the_99th_percentile_is_the_top_of_the_bin_holding_it():
    histogram = [0] * NUM_BINS
    histogram[bin_of(1.0001e-6)] += 99  # 99 decisions of a microsecond
    histogram[bin_of(1.0001)] += 1  # and one of a second
    assert percentile_seconds(histogram, 0.99) == pytest.approx(1.12202e-6, rel=1e-5)
    assert percentile_seconds(histogram, 1.0) == pytest.approx(1.12202, rel=1e-5)
    assert math.isnan(percentile_seconds([0] * NUM_BINS, 0.99))


def test_a_batched_call_shares_its_time_among_its_decisions():
    class Slow:
        def choose(self, observation):
            return np.zeros(len(observation), dtype=np.int64)

    timed = TimedStrategy(Slow())
    timed.choose(np.zeros(10))
    timed.choose(np.zeros(1))
    counts = timed.aggregates()
    assert counts["decisions"] == 11 and sum(counts["histogram"]) == 11 and counts["seconds"] > 0
    assert timed.name == "Slow"
