"""The cross-check's paths: actions from the kernel's trace on every deal, observation fields on a
sample of each span, the reference playing many deals side by side, and what a divergence names."""

import dataclasses

import numpy as np
import pytest

import strategies
from sim import games
from sim.api import StrategyFault
from sim.crosscheck import Recorder, crosscheck, traces
from sim.play import play_out, play_together, stacked
from sim.straights.observation import Observation

SPAN = 256  # deals a span holds in these tests
SAMPLE = 32  # deals at the start of a span whose fields are compared
DEALS = SPAN + 200  # two spans


@pytest.fixture
def small_spans(monkeypatch):
    monkeypatch.setattr("sim.crosscheck.CHUNK_SIZE", SPAN)
    monkeypatch.setattr("sim.crosscheck.SAMPLED", SAMPLE)


class SeenWrong:
    """Passes its observations on to ``inner`` (a recorder), but with field ``name`` one higher (its
    first column) at decision ``step`` of deal ``deal`` (every decision of it: None): what the mover
    saw differs, what it chose does not."""

    compiled = None

    def __init__(self, inner, deal: int, step: int | None, name: str = "scores") -> None:
        self.inner, self.deal, self.step, self.name = inner, deal, step, name

    def choose(self, observation):
        self.calls = getattr(self, "calls", 0) + 1
        rows = observation.round_id == self.deal
        if self.step is not None:
            rows &= observation.step == self.step
        if not rows.any():
            return self.inner.choose(observation)
        changed = getattr(observation, self.name).copy()
        changed.reshape(len(changed), -1)[rows, 0] += 1
        if dataclasses.is_dataclass(observation):
            return self.inner.choose(dataclasses.replace(observation, **{self.name: changed}))
        return self.inner.choose(Observation(len(observation), {**observation.arrays(), self.name: changed}))


def wrong_fast_engine(monkeypatch, game="straights", *, seen=None, action=None, points=None):
    """``game`` with a fast engine that is wrong on purpose: ``seen`` (deal, step) a field the recorders
    see, ``action`` (deal, step) the action its kernel's trace records there, ``points`` (deal) a seat's
    points in the kernel."""
    record = games.load(game)
    fast = record.play_rounds["fast"]

    def play_rounds(deals, seats, round_ids, trace=False):
        if seen is not None:
            seats = [SeenWrong(seat, *seen) if isinstance(seat, Recorder) else seat for seat in seats]
        result = fast(deals, seats, round_ids, trace=True) if trace else fast(deals, seats, round_ids)
        kernel = not any(isinstance(seat, (Recorder, SeenWrong)) for seat in seats)
        if kernel and action is not None and trace:
            row = np.flatnonzero(round_ids == action[0])
            if row.size:
                result.actions[row[0], action[1]] = result.actions[row[0], action[1] + 1]
        if kernel and points is not None:
            row = np.flatnonzero(round_ids == points)
            if row.size:
                result.points[row[0], 1] += 13
        return result

    def play_rounds_untraced(deals, seats, round_ids):  # the signature of an engine without a trace
        return play_rounds(deals, seats, round_ids)

    engine = play_rounds if traces(fast) else play_rounds_untraced
    wrong = dataclasses.replace(record, play_rounds={**record.play_rounds, "fast": engine})
    monkeypatch.setattr("sim.crosscheck.games.load", lambda game, rules="": wrong)


def test_games_with_a_kernel_trace_are_compared_action_by_action_on_every_deal():
    assert traces(games.load("straights").play_rounds["fast"])
    assert traces(games.load("euchre").play_rounds["fast"])
    assert not traces(lambda deals, seats, round_ids: None)


@pytest.mark.parametrize(("game", "field"), [("ginrummy", "scores"), ("gemstones", "third_chain_cost")])
def test_without_a_trace_every_deal_is_compared_field_by_field(game, field, small_spans, monkeypatch):
    if traces(games.load(game).play_rounds["fast"]):
        pytest.skip(f"{game}'s kernel records its actions: its fields are compared on a sample")
    deal = SPAN + SAMPLE + 9
    wrong_fast_engine(monkeypatch, game, seen=(deal, None, field))
    record = games.load(game)
    report = crosscheck(game, rounds=DEALS, seed=2, strategies=[record.baseline] * record.num_seats)
    assert (report.divergence.deal, report.divergence.step, report.divergence.field) == (deal, 0, field)


def test_a_field_seen_differently_on_a_sampled_deal_is_named(small_spans, monkeypatch):
    wrong_fast_engine(monkeypatch, seen=(SPAN + 5, 3))
    report = crosscheck("straights", rounds=DEALS, seed=2)
    assert not report.ok
    assert (report.divergence.deal, report.divergence.step, report.divergence.field) == (SPAN + 5, 3, "scores")
    assert report.rounds == SPAN + 5 and report.actions == (SPAN + 5) * 52
    assert "decision 3 differs in scores" in report.format()


def test_a_field_seen_differently_on_an_unsampled_deal_is_not_compared(small_spans, monkeypatch):
    # The bound of the sample: fields are compared on the first SAMPLED deals of each span only.
    wrong_fast_engine(monkeypatch, seen=(SPAN + SAMPLE + 5, 3))
    assert crosscheck("straights", rounds=DEALS, seed=2).ok


def test_an_action_the_kernel_took_on_an_unsampled_deal_is_named(small_spans, monkeypatch):
    deal = SPAN + SAMPLE + 40
    wrong_fast_engine(monkeypatch, action=(deal, 7))
    report = crosscheck("straights", rounds=DEALS, seed=2)
    assert (report.divergence.deal, report.divergence.step, report.divergence.field) == (
        deal,
        7,
        "action in the kernel",
    )
    assert report.divergence.reference != report.divergence.fast
    assert report.rounds == deal and report.actions == deal * 52


def test_an_unsampled_deal_that_diverges_is_played_again_recorded_so_an_earlier_field_is_named(
    small_spans, monkeypatch
):
    deal = SPAN + SAMPLE + 40
    wrong_fast_engine(monkeypatch, seen=(deal, 2), action=(deal, 7))
    report = crosscheck("straights", rounds=DEALS, seed=2)
    assert (report.divergence.deal, report.divergence.step, report.divergence.field) == (deal, 2, "scores")


def test_points_of_the_kernel_on_an_unsampled_deal_are_compared(small_spans, monkeypatch):
    deal = SAMPLE + 3
    wrong_fast_engine(monkeypatch, points=deal)
    report = crosscheck("straights", rounds=DEALS, seed=2)
    assert (report.divergence.deal, report.divergence.step, report.divergence.field) == (
        deal,
        None,
        "points in the kernel",
    )


def test_a_python_strategy_that_plays_otherwise_in_batches_is_caught_on_an_unsampled_deal(small_spans):
    from tests.straights.test_crosscheck import DeviatesInTheFastEngineOnOneDeal

    deal = SPAN + SAMPLE + 17
    report = crosscheck("straights", rounds=DEALS, seed=5, strategies=[DeviatesInTheFastEngineOnOneDeal(deal)] * 4)
    assert report.divergence.deal == deal and report.rounds == deal
    # Played again through the recorders, the deal names the first decision that differs and what was seen.
    assert report.divergence.field == "action" and report.divergence.step is not None


@pytest.mark.parametrize(
    ("game", "lineup"), [("straights", ("first-legal", "heuristic") * 2), ("euchre", ("simple", "heuristic") * 2)]
)
def test_playing_side_by_side_takes_the_actions_and_points_of_playing_one_at_a_time(game, lineup):
    record = games.load(game)
    players = [strategies.get(game, name) for name in lineup]
    deals = record.deals(4, 0, 120)
    log = []
    apart = [play_out(record.new_state(deal, index), Logged.seats(players, log)) for index, deal in enumerate(deals)]
    taken = [[action for round_id, action in log if round_id == index] for index in range(len(deals))]
    together = [record.new_state(deal, index) for index, deal in enumerate(deals)]
    calls = []
    assert play_together(together, Logged.seats(players, calls), lambda strategy: True) == taken
    assert [state.points() for state in together] == [state.points() for state in apart]
    assert len(calls) == len(log) and min(map(len, taken)) > 0


class Logged:
    """Chooses as ``inner`` does and logs (round id, action) of every row it answers."""

    def __init__(self, inner, log) -> None:
        self.inner, self.log = inner, log

    @classmethod
    def seats(cls, players, log):
        by_object = {}
        return [by_object.setdefault(id(player), cls(player, log)) for player in players]

    def choose(self, observation):
        chosen = np.asarray(self.inner.choose(observation))
        self.log.extend(zip(observation.round_id.tolist(), chosen.tolist()))
        return chosen


@pytest.mark.parametrize("game", ["straights", "euchre", "ginrummy", "gemstones"])
def test_stacked_observations_hold_every_field_of_every_row(game):
    record = games.load(game)
    states = [record.new_state(deal, index) for index, deal in enumerate(record.deals(1, 0, 3))]
    seen = [state.observe() for state in states]
    batch = stacked(seen)
    assert len(batch) == 3 and type(batch) is type(seen[0])
    for name, values in batch.arrays().items():
        assert np.array_equal(values, np.concatenate([one.arrays()[name] for one in seen])), name


class IllegalOnRound:
    """first-legal, but an illegal card (the 7 of spades again) at decision 5 of round ``deal``."""

    compiled = None
    name = "illegal-on-round"

    def __init__(self, deal: int) -> None:
        self.deal = deal
        self.inner = strategies.get("straights", "first-legal")

    def choose(self, observation):
        chosen = np.asarray(self.inner.choose(observation)).copy()
        chosen[(observation.round_id == self.deal) & (observation.step == 5)] = 45
        return chosen


def test_an_illegal_action_asked_side_by_side_is_the_fault_play_out_names():
    record = games.load("straights")
    deals = record.deals(3, 0, 10)
    with pytest.raises(StrategyFault) as alone:
        play_out(record.new_state(deals[6], 6), [IllegalOnRound(6)] * 4)
    with pytest.raises(StrategyFault) as together:
        play_together(
            [record.new_state(deal, index) for index, deal in enumerate(deals)], [IllegalOnRound(6)] * 4, lambda s: True
        )
    assert str(together.value) == str(alone.value)
    assert "round 6, step 5" in str(alone.value)
