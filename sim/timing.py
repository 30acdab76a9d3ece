"""Decision timing: how many decisions a strategy made and how long it took over each.

A ``TimedStrategy`` stands in for a strategy, counting the rows of each observation it answers and
timing each call. A batched call answers many decisions at once, so each of its decisions is
counted at the call's time divided by its rows. A strategy with a compiled policy plays inside the
fast engines' kernels, uncounted (timing each decision there would cost more than making it); its
time is *sampled* instead: some deals are played again with it asked from Python
(``asked_in_python``), in batches, as a numpy strategy is asked, and those decisions are counted
apart as ``sampled``. The clock runs once each batch's observation is laid out: it times the
policy over the batch's rows (``choose_compiled``) and the call, shared by the batch's decisions,
a little more than the policy costs inside the kernel. The times go into a histogram of fixed
logarithmic bins: histograms of chunks add up, so a run's mean and 99th percentile come from its
chunks' aggregates whatever the number of workers (the percentile to within one bin, 12%).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from sim.api import CompiledPolicy, Strategy
from sim.lockstep import strategy_name

BINS_PER_DECADE = 20
SHORTEST_SECONDS = 1e-9  # the lower edge of bin 0; shorter decisions count there
NUM_BINS = 11 * BINS_PER_DECADE  # up to 100 s a decision; longer ones count in the last bin


def bin_of(seconds: float) -> int:
    """The histogram bin of a decision that took ``seconds``."""
    if seconds <= SHORTEST_SECONDS:
        return 0
    return min(NUM_BINS - 1, int(math.log10(seconds / SHORTEST_SECONDS) * BINS_PER_DECADE))


def bin_top(index: int) -> float:
    """The upper edge of histogram bin ``index``, in seconds."""
    return SHORTEST_SECONDS * 10 ** ((index + 1) / BINS_PER_DECADE)


class TimedStrategy:
    """A strategy's stand-in that counts and times the decisions it answers."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.name = strategy_name(strategy)  # what engines name in their errors
        self.decisions = 0
        self.seconds = 0.0
        self.histogram = np.zeros(NUM_BINS, dtype=np.int64)
        self.sampled = 0  # of the decisions, those asked only to time a compiled policy

    @property
    def compiled(self) -> CompiledPolicy | None:
        """The strategy's compiled policy, if it has one: fast engines call it inside their kernels,
        where its decisions are neither counted nor timed (timing each would cost more than making it)."""
        return getattr(self.strategy, "compiled", None)

    def choose(self, observation: Any) -> np.ndarray:
        began = time.perf_counter()
        actions = self.strategy.choose(observation)
        spent = time.perf_counter() - began
        rows = len(observation)  # what was asked: what came back is checked by the engine
        self.decisions += rows
        self.seconds += spent
        if rows:
            self.histogram[bin_of(spent / rows)] += rows
        return actions

    def asked_in_python(self) -> AskedInPython:
        """This strategy as a seat a fast engine asks from Python (without its compiled policy), its
        decisions timed into this one's counts as sampled."""
        return AskedInPython(self)

    def aggregates(self) -> dict[str, Any]:
        """The counts as additive aggregates (``sim.report.merge`` adds them across chunks); ``sampled``
        only where some decisions were."""
        counts = {"decisions": self.decisions, "seconds": self.seconds, "histogram": self.histogram.tolist()}
        return counts | ({"sampled": self.sampled} if self.sampled else {})


class AskedInPython:
    """A timed strategy hiding its compiled policy, so that a fast engine asks it from Python: its
    decisions are timed, and counted as sampled, by the ``TimedStrategy`` it stands for."""

    def __init__(self, timed: TimedStrategy) -> None:
        self.timed = timed
        self.name = timed.name

    def choose(self, observation: Any) -> np.ndarray:
        # Every field laid out before the clock starts: the kernel hands its policy the state itself.
        observation.arrays()
        before = self.timed.decisions
        actions = self.timed.choose(observation)
        self.timed.sampled += self.timed.decisions - before
        return actions


def percentile_seconds(histogram: list[int], share: float) -> float:
    """The time within which ``share`` of the decisions of ``histogram`` were made (a bin's top edge);
    nan for no decisions."""
    counts = np.asarray(histogram, dtype=np.int64)
    total = int(counts.sum())
    if total == 0:
        return math.nan
    index = int(np.searchsorted(np.cumsum(counts), math.ceil(share * total)))
    return bin_top(index)
