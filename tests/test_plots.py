"""Plots a reader can trust: titles naming the game, the run's size and which way is better, strategies
best first, intervals that say what they rest on, a forest plot of the paired differences, win rates
beside the fair share, and points distributions readable at any range."""

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from sim import chunks, games, plots, report, tournament
from sim.results import RunStore

STRAIGHTS_LINEUP = ("heuristic", "first-legal", "heuristic", "first-legal")


def played_tables(plan):
    """The summary and paired tables and the histograms of ``plan``, played without a store."""
    merged = report.merge([chunks.play_chunk(plan, index).aggregates for index in range(plan.num_chunks)])
    merged.pop("timing")
    shape = plan.shape()
    return report.summary_table(shape, merged), report.paired_table(shape, merged), report.histograms(merged)


def shape_of(plan):
    return plan.shape()


def row_labels(figure):
    return [label.get_text() for label in figure.axes[0].get_yticklabels()]


def vertical_lines(figure):
    """The x of every vertical line drawn across the axes, with its label."""
    return {
        float(line.get_xdata()[0]): line.get_label()
        for line in figure.axes[0].get_lines()
        if len(set(line.get_xdata())) == 1 and len(line.get_xdata()) == 2
    }


def hand_made_summary(names, means, **columns):
    """A summary table whose strategies have the given mean points (intervals ± 1, 800 rounds each)."""
    means = np.asarray(means, dtype=float)
    return pd.DataFrame(
        {
            "strategy": names,
            "rounds": 800,
            "mean_points": means,
            "ci95_low": means - 1,
            "ci95_high": means + 1,
            **columns,
        }
    )


def hand_made_aggregates(histograms):
    return {name: list(counts) for name, counts in histograms.items()}


def test_a_duplicate_run_writes_valid_pngs_of_every_plot_it_has(tmp_path):
    plan = tournament.Plan("straights", STRAIGHTS_LINEUP, rounds=64, seed=1, duplicate=True)
    tournament.run(plan, RunStore(tmp_path), jobs=1, progress=False)
    for name in (plots.POINTS_DISTRIBUTION, plots.MEAN_POINTS, plots.PAIRED_DIFFERENCES):
        with Image.open(tmp_path / name) as image:
            assert image.format == "PNG"
            image.verify()
            width, height = image.size
            assert width == plots.WIDTH_INCHES * plots.DPI and 300 <= height <= 1000
    assert not (tmp_path / plots.WIN_RATE).exists()  # deals, not whole games: no one wins
    assert not list(tmp_path.glob(".*png*"))  # saved atomically: no drafts left behind


def test_titles_name_the_game_the_size_and_which_way_is_better():
    plan = tournament.Plan("straights", STRAIGHTS_LINEUP, rounds=64, seed=1, duplicate=True)
    drawn = plots.figures(plan.shape(), *played_tables(plan))
    assert set(drawn) == {plots.POINTS_DISTRIBUTION, plots.MEAN_POINTS, plots.PAIRED_DIFFERENCES}
    for figure in drawn.values():
        title = figure.get_suptitle()
        assert "straights · 64 deals × 4 seatings, fast engine" in title and "lower is better" in title

    games_plan = tournament.Plan("euchre", ("simple", "heuristic") * 2, rounds=4, seed=1, duplicate=True, games=True)
    drawn = plots.figures(games_plan.shape(), *played_tables(games_plan))
    assert set(drawn) == set(plots.PLOTS)
    for figure in drawn.values():
        title = figure.get_suptitle()
        assert "euchre · 4 games × 2 seatings, fast engine" in title and "higher is better" in title
        assert "each game counts once per partnership" in title


def test_fixed_seats_are_named_as_such():
    plan = tournament.Plan("ginrummy", ("simple", "heuristic"), rounds=10_000, engine="reference")
    assert shape_of(plan).size == "ginrummy · 10,000 deals, fixed seats, reference engine"


def test_intervals_say_what_they_rest_on_in_the_runs_own_units():
    euchre_games = tournament.Plan("euchre", ("simple", "heuristic") * 2, rounds=100, duplicate=True, games=True)
    # One seat per partnership: a game counts once per seating, as the summary counts it.
    assert shape_of(euchre_games).sample("simple", 200) == "n = 200 (100 games × 2 seatings)"
    assert shape_of(euchre_games).paired_sample(100) == "n = 100 games, each over its 2 seatings"
    both_sides = tournament.Plan("euchre", ("heuristic", "simple", "simple", "simple"), rounds=100, duplicate=True)
    assert shape_of(both_sides).sample("simple", 400) == "n = 400 (100 deals × 2 seatings × 2 partnerships)"
    straights = tournament.Plan("straights", STRAIGHTS_LINEUP, rounds=64, duplicate=True)
    assert shape_of(straights).sample("first-legal", 512) == "n = 512 (64 deals × 4 seatings × 2 seats)"
    fixed = tournament.Plan("ginrummy", ("simple", "heuristic"), rounds=100, games=True)
    assert shape_of(fixed).sample("simple", 100) == "n = 100 games"
    assert shape_of(fixed).paired_sample(1) == "n = 1 game"
    assert shape_of(fixed).sample("simple", 7) == "n = 7"  # counted otherwise: the bare number, never a wrong story


def test_a_league_pairing_counts_seats_over_its_seatings(tmp_path):
    """A league pairing seats a strategy more often in some seatings than in others."""
    from sim.league import League

    plan = next(iter(League("straights", ("heuristic", "first-legal"), rounds=64).pairing_plans().values()))
    summary, paired, merged = played_tables(plan)
    shape = shape_of(plan)
    seatings = len(plan.seatings(shape.game))
    for name, n in zip(summary["strategy"], summary["rounds"]):
        assert shape.sample(name, n) == f"n = {n:,} (64 deals × {n // 64} seats over {seatings} seatings)"
    plots.draw_plots(tmp_path, plan.shape(), summary, paired, merged)
    assert {path.name for path in tmp_path.glob("*.png")} == {
        plots.POINTS_DISTRIBUTION,
        plots.MEAN_POINTS,
        plots.PAIRED_DIFFERENCES,
    }


def test_mean_points_label_game_mode_as_points_per_round_over_whole_games():
    plan = tournament.Plan("euchre", ("simple", "heuristic") * 2, rounds=100, duplicate=True, games=True)
    summary = hand_made_summary(["simple", "heuristic"], [0.3, 1.3], games=200)
    figure = plots.mean_points_figure(shape_of(plan), summary)
    assert figure.axes[0].get_xlabel() == "mean points per round, over whole games (95% CI)"
    assert row_labels(figure) == [
        "heuristic\nn = 200 (100 games × 2 seatings)",
        "simple\nn = 200 (100 games × 2 seatings)",
    ]


@pytest.mark.parametrize("game, best_first", [("straights", ["c", "a", "b"]), ("gemstones", ["b", "a", "c"])])
def test_strategies_come_best_first(game, best_first):
    """Straights: fewest points first; Gemstones: most points first."""
    num_seats = games.load(game).num_seats
    plan = tournament.Plan(game, ("a", "b", "c", "a")[:num_seats], rounds=100, duplicate=True)
    summary = hand_made_summary(["a", "b", "c"], [10.0, 12.0, 8.0])
    histograms = {"a": [1, 2], "b": [2, 1], "c": [3, 0]}
    figure = plots.mean_points_figure(shape_of(plan), summary)
    assert [label.split("\n")[0] for label in row_labels(figure)] == best_first
    distribution = plots.points_distribution_figure(shape_of(plan), summary, hand_made_aggregates(histograms))
    legend = [text.get_text().split(", n = ")[0] for text in distribution.axes[0].get_legend().get_texts()]
    assert legend == best_first


def test_the_forest_plot_has_one_row_per_pair_and_a_zero_line():
    plan = tournament.Plan("straights", ("first-legal", "heuristic", "heuristic:gift=1", "first-legal"), rounds=64)
    summary, paired, merged = played_tables(plan)
    figure = plots.figures(plan.shape(), summary, paired, merged)[plots.PAIRED_DIFFERENCES]
    pairs = [f"{a} − {b}" for a, b in zip(paired["strategy_a"], paired["strategy_b"])]
    assert len(pairs) == 3
    assert [label.split("\n")[0] for label in row_labels(figure)] == pairs
    assert all(label.endswith("n = 64 deals") for label in row_labels(figure))
    assert 0.0 in vertical_lines(figure)
    assert "← a better (fewer points)" in figure.axes[0].get_xlabel()
    assert "Paired differences, deal by deal" in figure.get_suptitle()


def test_a_run_of_one_strategy_has_no_forest_plot():
    plan = tournament.Plan("gemstones", ("greedy", "greedy"), rounds=64, duplicate=True)
    assert plots.PAIRED_DIFFERENCES not in plots.figures(plan.shape(), *played_tables(plan))


@pytest.mark.parametrize("game, fair", [("euchre", 0.5), ("straights", 0.25), ("ginrummy", 0.5)])
def test_win_rates_stand_beside_the_fair_share_of_one_team(game, fair):
    num_seats = games.load(game).num_seats
    plan = tournament.Plan(game, ("a", "b") * (num_seats // 2), rounds=100, duplicate=True, games=True)
    summary = hand_made_summary(
        ["a", "b"], [1.0, 2.0], games=200, win_rate=[0.2, 0.7], win_ci95_low=[0.1, 0.6], win_ci95_high=[0.3, 0.8]
    )
    figure = plots.win_rate_figure(shape_of(plan), summary)
    assert "fair share" in vertical_lines(figure)[fair]
    assert [label.split("\n")[0] for label in row_labels(figure)] == ["b", "a"]
    assert "higher is better" in figure.get_suptitle()


def test_few_scores_are_bars_and_many_a_cumulative_share():
    plan = tournament.Plan("straights", ("a", "b", "a", "b"), rounds=100, duplicate=True)
    summary = hand_made_summary(["a", "b"], [1.0, 2.0])

    def distribution(span):
        histograms = {"a": [0, 5] + [1] * (span - 1), "b": [0, 0, 3]}
        return plots.points_distribution_figure(shape_of(plan), summary, hand_made_aggregates(histograms)).axes[0]

    bars = distribution(plots.MAX_BAR_VALUES)
    assert len(bars.patches) == 2 * plots.MAX_BAR_VALUES  # one bar per strategy and score, side by side
    assert list(bars.get_xticks()) == list(range(1, plots.MAX_BAR_VALUES + 1))
    assert bars.get_xlabel() == "points in a round"
    cumulative = distribution(plots.MAX_BAR_VALUES + 1)
    assert not cumulative.patches
    for line in cumulative.get_lines():
        assert line.get_ydata()[-1] == pytest.approx(1.0)  # every curve ends having counted everything
    assert "at most" in cumulative.get_ylabel()


def test_gin_rummy_final_scores_read_as_a_cumulative_share():
    plan = tournament.Plan("ginrummy", ("simple", "heuristic"), rounds=4, seed=2, duplicate=True, games=True)
    axes = plots.figures(plan.shape(), *played_tables(plan))[plots.POINTS_DISTRIBUTION].axes[0]
    assert axes.get_xlabel() == "final score of a game" and not axes.patches and len(axes.get_lines()) == 2


def test_partners_are_never_compared_and_long_specs_get_a_short_label_and_a_key():
    """The README's Euchre lineup: mc with a team rollout and mc are partners in every seating, so the
    forest plot (and the paired table) compares each of them with heuristic only; the long spec is
    drawn as "mc [A]" and spelled out under the plot."""
    long_spec = "mc:team_rollout=(heuristic:threshold=6,ace_stands=true)"
    plan = tournament.Plan("euchre", (long_spec, "heuristic", "mc", "heuristic"), rounds=4, seed=1, duplicate=True)
    summary, paired, histograms = played_tables(plan)
    assert {frozenset(pair) for pair in zip(paired["strategy_a"], paired["strategy_b"])} == {
        frozenset((long_spec, "heuristic")),
        frozenset(("heuristic", "mc")),
    }
    drawn = plots.figures(plan.shape(), summary, paired, histograms)
    rows = [label.split("\n")[0] for label in row_labels(drawn[plots.PAIRED_DIFFERENCES])]
    assert rows == ["mc [A] − heuristic", "heuristic − mc"]
    for figure in drawn.values():
        assert figure._supxlabel.get_text() == f"[A] {long_spec}"
        assert not any(long_spec in label for label in row_labels(figure))
    assert "are partners in every seating" in report.format_summary(plan.shape(), summary, paired)
    # A table of pairs handed in with partners in it: the plot still leaves them out.
    everyone = pd.concat([paired, paired.iloc[:1].assign(strategy_a=long_spec, strategy_b="mc")], ignore_index=True)
    assert len(row_labels(plots.paired_differences_figure(plan.shape(), everyone))) == 2


def test_short_labels_keep_short_specs_and_letter_long_ones():
    specs = ["heuristic", "mc:samples=8,horizon=4,rollout=heuristic", "mc:samples=64,horizon=2,x=1"]
    labels = plots.short_labels(specs)
    assert labels == {
        "heuristic": "heuristic",
        "mc:samples=8,horizon=4,rollout=heuristic": "mc [A]",
        "mc:samples=64,horizon=2,x=1": "mc [B]",
    }


def test_the_matrix_shows_each_cells_wilson_interval_never_zero_wide():
    """A 20-0-0 pairing reads 100% [84%, 100%], not 100% ±0%."""
    names = ["a", "b"]
    rows = [
        {"strategy": "a", "opponent": "b", **report.outcome_columns(20, 0, 0)},
        {"strategy": "b", "opponent": "a", **report.outcome_columns(0, 0, 20)},
    ]
    shape = plots.LeagueShape(games.load("gemstones"), ("a", "b"), 20, seatings=2)
    figure = plots.matrix_figure(shape, pd.DataFrame(rows), names)
    texts = {text.get_text() for text in figure.axes[0].texts}
    assert texts == {"100%\n[84%, 100%]", "0%\n[0%, 16%]"}
