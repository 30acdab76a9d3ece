"""Reference engine against fast engine: on the same deals with the same strategies they must agree.

``crosscheck(game, rounds, seed, strategies)`` plays deals ``start .. start + rounds - 1`` of the
game's seeded deal sequence in both of its engines and compares, decision by decision, what each
mover chose and each round's points; the report counts what was compared or names the first
deal, decision and difference. It reads only the game's ``Game`` record (its ``new_state`` and its
fast ``play_rounds``), so any game with two engines takes part.

Deals are checked in spans of ``CHUNK_SIZE``. In each, the fast engine plays every deal with the
strategies as a tournament seats them (compiled policies inside the kernel) and, where its
``play_rounds`` takes ``trace=True`` (``traces``), its kernel records every action, which is
compared with the reference engine's on every deal. What the movers saw is compared field by field
through ``Recorder`` (it wraps each strategy, passes its choices through unchanged, and logs each
decision's observation row and action under its round id) on the first ``SAMPLED`` deals of each
span, on every deal of an engine without a trace, and on any deal where the actions differ, so a
divergence is named by its first differing field. The reference engine asks its strategies one
deal at a time on the recorded sample, as the programs do; elsewhere it plays the span's deals side
by side (``sim.play.play_together``), asking a strategy with a compiled policy once for all the
deals waiting for it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import strategies as strategy_registry
from sim import games
from sim.api import Strategy
from sim.lockstep import strategy_name
from sim.play import play_out, play_together
from sim.workers import in_order

CHUNK_SIZE = 4096  # deals compared per fast-engine call
SAMPLED = 128  # deals at the start of each span whose observations are compared field by field


class NoFastEngine(ValueError):
    """The game has only its reference engine, so there is nothing to cross-check it against."""


@dataclass(frozen=True)
class Divergence:
    """Where the engines first disagree: at decision ``step`` of the deal (its action or, with
    ``field``, what the mover saw), or (step None) in the points (``field`` says which)."""

    deal: int
    step: int | None
    reference: str
    fast: str
    field: str = "action"


@dataclass(frozen=True)
class CrosscheckReport:
    """How many rounds and actions the engines agreed on, and their first disagreement if any."""

    game: str
    seed: int
    strategies: tuple[str, ...]
    rounds: int
    actions: int
    divergence: Divergence | None = None

    @property
    def ok(self) -> bool:
        return self.divergence is None

    def format(self) -> str:
        """One line for people: what was compared and whether the engines agreed."""
        setting = f"{self.game}, seed {self.seed}, {' / '.join(self.strategies)}"
        agreed = f"{self.rounds:,} rounds and {self.actions:,} actions identical"
        if self.divergence is None:
            return f"crosscheck OK ({setting}): {agreed} in the reference and fast engines"
        where = self.divergence
        if where.step is None:
            what = f"{where.field} differ: reference {where.reference}, fast {where.fast}"
        else:
            what = f"decision {where.step} differs in {where.field}: reference {where.reference}, fast {where.fast}"
        return f"crosscheck FAILED ({setting}): deal {where.deal}, {what} (after {agreed})"

    __str__ = format


@dataclass
class Call:
    """One logged call of a strategy: when it came, the observation's fields and the actions chosen."""

    time: int
    fields: dict[str, np.ndarray]
    actions: np.ndarray


class Recorder:
    """A strategy that answers as ``strategy`` does and logs every call into ``log``."""

    # Asked in Python even when ``strategy`` has a compiled policy, so its every observation is logged;
    # the compiled policy playing inside the kernel is checked by its points (``_check_span``).
    compiled = None

    def __init__(self, strategy: Strategy, log: list[Call]) -> None:
        self.strategy = strategy
        self.log = log

    def __getattr__(self, name: str) -> Any:
        return getattr(self.strategy, name)  # e.g. a lookahead's bind(truth)

    @property
    def name(self) -> str:
        """The recorded strategy's name, which faults report."""
        return strategy_name(self.strategy)

    def choose(self, observation: Any) -> np.ndarray:
        chosen = np.asarray(self.strategy.choose(observation))
        # Copies: a fast engine may hand out views of its own state, which the next step changes.
        fields = {name: np.array(value) for name, value in observation.arrays().items()}
        self.log.append(Call(len(self.log), fields, chosen.copy()))
        return chosen


def recorders(players: Sequence[Strategy], log: list[Call]) -> list[Recorder]:
    """One recorder per distinct strategy object (seats that share a strategy share its recorder),
    all writing to ``log``."""
    by_object: dict[int, Recorder] = {}
    return [by_object.setdefault(id(player), Recorder(player, log)) for player in players]


@dataclass(frozen=True)
class Decisions:
    """Every logged decision of some rounds, round by round and in play order within a round."""

    round_ids: np.ndarray
    actions: np.ndarray
    fields: dict[str, np.ndarray]

    @classmethod
    def of(cls, log: list[Call]) -> Decisions:
        fields = {name: np.concatenate([call.fields[name] for call in log]) for name in log[0].fields}
        actions = np.concatenate([call.actions for call in log])
        times = np.concatenate([np.full(len(call.actions), call.time) for call in log])
        # A round appears at most once per call, so call time orders a round's decisions.
        order = np.lexsort((times, fields["round_id"]))
        return cls(fields["round_id"][order], actions[order], {name: value[order] for name, value in fields.items()})

    def spans(self, round_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The first row and one past the last row of each of ``round_ids`` (sorted)."""
        return np.searchsorted(self.round_ids, round_ids), np.searchsorted(self.round_ids, round_ids, side="right")

    def only(self, round_id: int) -> Decisions:
        """The decisions of round ``round_id`` alone."""
        (start,), (stop,) = self.spans(np.array([round_id]))
        rows = slice(int(start), int(stop))
        return Decisions(
            self.round_ids[rows], self.actions[rows], {name: value[rows] for name, value in self.fields.items()}
        )


def crosscheck(
    game: str = games.DEFAULT_GAME,
    rounds: int = 10_000,
    seed: int = 0,
    strategies: Sequence[str | Strategy] = ("first-legal",) * 4,
    start: int = 0,
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
    rules: str = "",
) -> CrosscheckReport:
    """Play the same deals in both engines of ``game`` with the same strategies and compare every decision.

    ``strategies`` are specs (``"mc:samples=64"``) or strategy objects, one per seat; equal specs
    share one object. ``progress``, if given, is called with the number of rounds done so far.
    With ``jobs`` other than 1 (-1: every core), joblib workers check spans of ``CHUNK_SIZE`` deals
    and the report is the one a single process gives: the first divergence in deal order, and what
    agreed before it. A run of one span is checked in this process.
    ``rules`` names rule variants to play under (``games.load``). Raises ``NoFastEngine`` for a game
    with one engine.
    """
    record = games.load(game, rules)
    if "fast" not in record.play_rounds:
        raise NoFastEngine(f"{game} has one engine (reference) until it has a fast one: nothing to cross-check")
    players = _build(game, strategies)
    spans = [(first, min(CHUNK_SIZE, start + rounds - first)) for first in range(start, start + rounds, CHUNK_SIZE)]
    checked: Iterator[tuple[int, int, Divergence | None]]
    if jobs == 1 or len(spans) == 1:  # one span: no worker to start
        checked = (_check_span(game, rules, seed, players, first, count, SAMPLED) for first, count in spans)
    else:
        from joblib import delayed

        # In span order, so the first divergence met is the first in deal order.
        checked = in_order(
            jobs, (delayed(_check_span)(game, rules, seed, players, first, count, SAMPLED) for first, count in spans)
        )
    names = tuple(_describe(strategy) for strategy in strategies)
    label = f"{game} ({record.rules})" if record.rules else game
    compared_rounds = compared_actions = 0
    for span_rounds, span_actions, divergence in checked:
        compared_rounds += span_rounds
        compared_actions += span_actions
        if divergence is not None:
            return CrosscheckReport(label, seed, names, compared_rounds, compared_actions, divergence)
        if progress is not None:
            progress(compared_rounds)
    return CrosscheckReport(label, seed, names, compared_rounds, compared_actions)


def _check_span(
    game: str, rules: str, seed: int, players: Sequence[Strategy], first: int, count: int, sampled: int
) -> tuple[int, int, Divergence | None]:
    """(rounds, actions agreed, the first divergence or None) of deals ``first .. first + count - 1``.

    The fast engine plays every deal with the strategies' compiled policies in its kernel, and with
    a trace (``traces``) its every action is compared with the reference engine's. The first
    ``sampled`` deals (at least one; every deal, for an engine without a trace) are played in both engines through
    recorders too, so what the mover saw is compared field by field; the reference asks its
    strategies one deal at a time there, and elsewhere a strategy with a compiled policy once for
    all the deals waiting for it (``play_together``)."""
    record = games.load(game, rules)
    deals = record.deals(seed, first, count)
    deal_ids = np.arange(first, first + count, dtype=np.int64)
    play_fast: Callable[..., Any] = record.play_rounds["fast"]  # with a trace, it takes trace=True
    traced = traces(play_fast)
    alone = min(max(sampled, 1), count)  # deals the reference plays one decision at a time, recorded
    recorded = alone if traced else count  # deals whose every observation field is compared

    fast_log: list[Call] = []
    fast_points = play_fast(deals[:recorded], recorders(players, fast_log), deal_ids[:recorded]).points
    reference_log: list[Call] = []
    reference_players = recorders(players, reference_log)
    states = [record.new_state(deal, int(deal_id)) for deal, deal_id in zip(deals, deal_ids)]
    for state in states[:alone]:
        play_out(state, reference_players)
    rest = play_together(states[alone:], players if traced else reference_players, _asked_together)
    reference_points = np.array([state.points() for state in states], dtype=np.int64).reshape(count, -1)
    reference, fast = Decisions.of(reference_log), Decisions.of(fast_log)
    starts, stops = reference.spans(deal_ids[:alone])
    actions = [reference.actions[start:stop].tolist() for start, stop in zip(starts, stops)] + rest
    bad = _first_bad_deal(reference, fast, deal_ids[:recorded], reference_points[:recorded], fast_points)
    bad = len(deal_ids) if bad is None else bad
    recorded_bad = bad

    # Compiled policies play inside the kernel, unseen by the recorders: their actions and points must agree too.
    kernel = (
        play_fast(deals, list(players), deal_ids, trace=True) if traced else play_fast(deals, list(players), deal_ids)
    )
    kernel_actions = _traced_actions(kernel.actions) if traced else None
    differ = (kernel.points != reference_points).any(axis=1)
    if kernel_actions is not None:
        differ |= np.array([taken != done for taken, done in zip(kernel_actions, actions)])
    if differ.any():
        bad = min(bad, int(np.argmax(differ)))
    agreed = sum(len(done) for done in actions[:bad])
    if bad == len(deal_ids):
        return count, agreed, None

    deal_id = int(deal_ids[bad])
    seen: Divergence | None = None  # the first difference between the recorded plays of the deal
    if recorded_bad == bad:
        seen = _first_difference_of(record, deal_id, reference, fast, reference_points[bad], fast_points[bad])
    elif bad >= recorded:
        # An unsampled deal: play it recorded in both engines (the fast engine with its whole span, so
        # a strategy asked in Python sees the batches the kernel showed it) to name what was seen.
        fast_log, reference_log = [], []
        fast_points = play_fast(deals, recorders(players, fast_log), deal_ids).points
        one = play_out(record.new_state(deals[bad], deal_id), recorders(players, reference_log))
        reference, fast = Decisions.of(reference_log), Decisions.of(fast_log).only(deal_id)
        one_points = np.array([one.points()], dtype=np.int64)
        if (
            _first_bad_deal(reference, fast, deal_ids[bad : bad + 1], one_points, fast_points[bad : bad + 1])
            is not None
        ):
            seen = _first_difference_of(record, deal_id, reference, fast, np.array(one.points()), fast_points[bad])
    in_kernel = None if kernel_actions is None else _first_step_apart(actions[bad], kernel_actions[bad])
    if seen is not None and seen.step is not None and (in_kernel is None or seen.step <= in_kernel):
        return bad, agreed, seen
    if in_kernel is not None:
        done, taken = actions[bad], kernel_actions[bad] if kernel_actions is not None else []
        reference_text, kernel_text = (
            record.action_name(side[in_kernel]) if in_kernel < len(side) else f"end after {len(side)} decisions"
            for side in (done, taken)
        )
        return bad, agreed, Divergence(deal_id, in_kernel, reference_text, kernel_text, "action in the kernel")
    if seen is not None:
        return bad, agreed, seen
    reference_text, kernel_text = (str(tuple(side[bad].tolist())) for side in (reference_points, kernel.points))
    return bad, agreed, Divergence(deal_id, None, reference_text, kernel_text, "points in the kernel")


def traces(play_rounds: Callable[..., Any]) -> bool:
    """Whether a fast ``play_rounds`` records every action in its kernel (``trace=True``: a result with
    ``actions`` (B, steps), negative where no action was taken)."""
    try:
        return "trace" in inspect.signature(play_rounds).parameters
    except (TypeError, ValueError):
        return False


def _traced_actions(trace: np.ndarray) -> list[list[int]]:
    """Each round's actions in the order taken, from a kernel's trace (negative: no action there)."""
    return [row[row >= 0].tolist() for row in np.asarray(trace, dtype=np.int64)]


def _first_step_apart(actions: list[int], other: list[int]) -> int | None:
    """The first step at which two action sequences differ (one ending first included), or None."""
    for step, (one, two) in enumerate(zip(actions, other)):
        if one != two:
            return step
    return None if len(actions) == len(other) else min(len(actions), len(other))


def _asked_together(strategy: Strategy) -> bool:
    """Whether the reference may ask ``strategy`` once for several deals: a strategy with a compiled
    policy, whose ``choose`` runs that policy row by row. Any other is asked one deal at a time."""
    inner = strategy.strategy if isinstance(strategy, Recorder) else strategy
    return getattr(inner, "compiled", None) is not None


def _first_difference_of(
    record: games.Game, deal_id: int, reference: Decisions, fast: Decisions, points: np.ndarray, fast_points: np.ndarray
) -> Divergence:
    """``_first_difference`` of deal ``deal_id``, both engines' decisions of it found in their logs."""
    (start, stop), (fast_start, fast_stop) = (side.spans(np.array([deal_id])) for side in (reference, fast))
    return _first_difference(
        record,
        deal_id,
        reference,
        slice(int(start[0]), int(stop[0])),
        fast,
        slice(int(fast_start[0]), int(fast_stop[0])),
        points,
        fast_points,
    )


def _first_bad_deal(
    reference: Decisions, fast: Decisions, deal_ids: np.ndarray, reference_points: np.ndarray, fast_points: np.ndarray
) -> int | None:
    """The index of the first deal on which the engines differ in any way, or None."""
    reference_starts, reference_stops = reference.spans(deal_ids)
    fast_starts, fast_stops = fast.spans(deal_ids)
    candidates = [len(deal_ids)]
    counts_differ = np.flatnonzero(reference_stops - reference_starts != fast_stops - fast_starts)
    candidates += counts_differ[:1].tolist()
    aligned = reference_starts[counts_differ[0]] if counts_differ.size else len(reference.actions)
    rows_differ = reference.actions[:aligned] != fast.actions[:aligned]
    for name, seen in reference.fields.items():
        same = seen[:aligned] == fast.fields[name][:aligned]
        rows_differ |= ~same.reshape(aligned, -1).all(axis=1)
    if rows_differ.any():
        candidates.append(int(np.searchsorted(reference_stops, np.argmax(rows_differ), side="right")))
    candidates += np.flatnonzero((reference_points != fast_points).any(axis=1))[:1].tolist()
    first = min(candidates)
    return None if first == len(deal_ids) else first


def _first_difference(
    record: games.Game,
    deal_id: int,
    reference: Decisions,
    rows: slice,
    fast: Decisions,
    fast_rows: slice,
    points: np.ndarray,
    fast_points: np.ndarray,
) -> Divergence:
    """The first decision of one deal where the engines differ (its action first, then what the mover
    saw), else the difference in the number of decisions or in the points."""
    actions, fast_actions = reference.actions[rows].tolist(), fast.actions[fast_rows].tolist()
    for step, (expected, got) in enumerate(zip(actions, fast_actions)):
        if expected != got:
            return Divergence(deal_id, step, record.action_name(expected), record.action_name(got))
        for name, seen in reference.fields.items():
            mine, theirs = seen[rows][step], fast.fields[name][fast_rows][step]
            if not np.array_equal(mine, theirs):
                return Divergence(deal_id, step, _text(mine), _text(theirs), name)
    if len(actions) != len(fast_actions):
        return Divergence(
            deal_id,
            min(len(actions), len(fast_actions)),
            f"end after {len(actions)} decisions",
            f"end after {len(fast_actions)} decisions",
        )
    return Divergence(deal_id, None, str(tuple(points.tolist())), str(tuple(fast_points.tolist())), "points")


def _text(value: np.ndarray) -> str:
    return np.array2string(np.asarray(value), max_line_width=10_000, threshold=100)


def _build(game: str, specs: Sequence[str | Strategy]) -> list[Strategy]:
    """One strategy object per seat; seats with the same spec share an object."""
    built: dict[str, Strategy] = {}
    for spec in specs:
        if isinstance(spec, str) and spec not in built:
            built[spec] = strategy_registry.get_fair(game, spec, "cross-checks")
    return [built[spec] if isinstance(spec, str) else spec for spec in specs]


def _describe(strategy: str | Strategy) -> str:
    return strategy if isinstance(strategy, str) else strategy_name(strategy)
