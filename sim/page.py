"""``report.html``: one page a browser opens from the disk with the command, the settings, every table
and every plot of a run or of a league.

The page shows the tables through the same ``Column``s as the terminal (``sim.report``); every cell
names the CSV file, row and columns its numbers come from (``data-csv``, ``data-row``,
``data-columns``), so a test can check each number against its file. Like the report, the page
takes tables and plain descriptions of what was played, never the objects that produced them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from sim import plots
from sim.files import atomic_write_bytes
from sim.plots import LeagueShape, RunShape
from sim.report import (
    Column,
    _units,
    cells,
    interval,
    matrix_columns,
    outcome_summary_columns,
    paired_outcome_columns,
    paired_points_columns,
    partners,
    percent,
    rating_columns,
    run_headline,
    summary_columns,
    timing_columns,
    training_columns,
)

REPORT = "report.html"

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #1b1b1b; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ccc; }
.lead { color: #555; margin-top: 0; }
pre { background: #f4f4f4; padding: 0.7em 1em; overflow-x: auto; white-space: pre-wrap; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #e2e2e2; text-align: right; white-space: nowrap; }
th { background: #f4f4f4; } th.name, td.name { text-align: left; }
td.name { white-space: normal; overflow-wrap: anywhere; max-width: 24em; }
.scroll { overflow-x: auto; }
dl.columns { font-size: 0.9em; color: #444; display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; }
dl.columns dt { font-weight: 600; } dl.columns dd { margin: 0; }
dl.settings { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1.2em; }
dl.settings dt { color: #555; } dl.settings dd { margin: 0; }
figure { margin: 1.2em 0; } figure img { max-width: 100%; border: 1px solid #e2e2e2; }
figcaption { color: #555; font-size: 0.9em; }
.note { color: #555; }
"""


def _escape(text: object) -> str:
    return html.escape(str(text), quote=True)


def html_table(table: pd.DataFrame, columns: Sequence[Column], csv: str, explained: bool = True) -> str:
    """``table`` (as the file ``csv`` holds it, relative to the page) through ``columns``, each cell
    naming its row and columns of ``csv``, with the columns explained under it (unless not
    ``explained``: a table like one explained above)."""
    head = "".join(
        f'<th class="{"name" if column.name else "number"}">{_escape(column.header)}</th>' for column in columns
    )
    body = []
    for index, texts in enumerate(cells(table, columns)):
        row = "".join(
            f'<td class="{"name" if column.name else "number"}" data-row="{index}" '
            f'data-columns="{" ".join(column.sources)}">{_escape(text)}</td>'
            for text, column in zip(texts, columns)
        )
        body.append(f"<tr>{row}</tr>")
    legend = "".join(f"<dt>{_escape(column.header)}</dt><dd>{_escape(column.explain)}</dd>" for column in columns)
    return (
        f'<div class="scroll"><table data-csv="{_escape(csv)}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>" + (f'<dl class="columns">{legend}</dl>' if explained else "")
    )


def _settings_list(settings: Sequence[tuple[str, str]]) -> str:
    items = "".join(f"<dt>{_escape(key)}</dt><dd>{_escape(value)}</dd>" for key, value in settings)
    return f'<dl class="settings">{items}</dl>'


def _figures(folder: Path, captions: Sequence[tuple[str, str]]) -> str:
    """The plots that exist in ``folder``, by file name (relative: the page opens from the folder)."""
    shown = [
        f'<figure><img src="{_escape(name)}" alt="{_escape(caption)}"><figcaption>{_escape(caption)} '
        f'(<a href="{_escape(name)}">{_escape(name)}</a>)</figcaption></figure>'
        for name, caption in captions
        if (folder / name).is_file()
    ]
    return "".join(shown)


def _page(title: str, lead: str, sections: Sequence[tuple[str, str]]) -> str:
    parts = "".join(f"<h2>{_escape(heading)}</h2>{body}" for heading, body in sections)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{_escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><h1>{_escape(title)}</h1>"
        f'<p class="lead">{_escape(lead)}</p>{parts}</body></html>\n'
    )


PLOT_CAPTIONS = {
    plots.MEAN_POINTS: "Each strategy's mean points with its 95% interval, best first.",
    plots.POINTS_DISTRIBUTION: "How each strategy's points are spread.",
    plots.WIN_RATE: "Each strategy's share of games won, beside the fair share of a game.",
    plots.PAIRED_DIFFERENCES: "The paired differences, deal by deal, with their 95% intervals.",
    plots.RATINGS: "The rating list, best on top.",
    plots.MATRIX: "Head to head: the row's score against the column, with its 95% Wilson interval.",
}


def write_run_report(
    folder: Path,
    shape: RunShape,
    command: str,
    settings: Sequence[tuple[str, str]],
    summary: pd.DataFrame,
    paired: pd.DataFrame,
    timing: pd.DataFrame,
) -> Path:
    """Write ``report.html`` into the run's ``folder``, beside the CSV files and plots it shows: the
    command that plays the run, its settings, the summary, paired and timing tables (as the folder's
    ``summary.csv``, ``paired.csv`` and ``timing.csv`` hold them) and every plot. Returns its path."""
    unit, one = _units(shape)
    sections = [
        (
            "Command",
            f"<pre><code>{_escape(command)}</code></pre>"
            '<p class="note">The run id is a hash of these settings: run again, the command shows this run '
            "(or resumes it, if it was interrupted).</p>",
        ),
        ("Settings", _settings_list(settings)),
        ("Summary", html_table(summary, summary_columns(shape), "summary.csv")),
    ]
    if shape.whole_games:
        sections.append(("Whole games", html_table(summary, outcome_summary_columns(shape), "summary.csv")))
    notes = [
        f"{a} and {b} are partners in every seating: they share their points, so are not compared."
        for a, b in partners(shape)
    ]
    if shape.game.has_partnerships:
        notes.insert(0, f"Partners share their points: each {one} counts once per partnership.")
    if notes:
        sections.append(("Partners", "".join(f'<p class="note">{_escape(note)}</p>' for note in notes)))
    if shape.duplicate and len(paired):
        sections += [
            (f"Paired differences, {one} by {one}", html_table(paired, paired_points_columns(shape), "paired.csv")),
            (
                f"{unit.capitalize()} won, drawn and lost, a against b",
                html_table(paired, paired_outcome_columns(shape), "paired.csv"),
            ),
        ]
    sections.append(("Plots", _figures(folder, [(name, PLOT_CAPTIONS[name]) for name in plots.PLOTS])))
    sections.append(("Decision time", html_table(timing, timing_columns(), "timing.csv")))
    sections.append(
        (
            "Files",
            _files_note(
                folder, ("config.json", "summary.csv", "paired.csv", "timing.csv", "aggregates.json", "chunks/")
            ),
        )
    )
    page = _page(f"cardsim · {shape.size}", run_headline(shape), sections)
    path = folder / REPORT
    atomic_write_bytes(path, page.encode())
    return path


def write_training_report(
    folder: Path, command: str, settings: Sequence[tuple[str, str]], curve: pd.DataFrame, learn: str, title: str
) -> Path:
    """Write ``report.html`` into a training run's ``folder``: the command that makes (or resumes) the
    run, its plan, the learning curve (as ``curve.csv`` holds it) and its plot. Returns its path."""
    network = "policy.npz" if learn == "policy" else "value.npz"
    sections = [
        (
            "Command",
            f"<pre><code>{_escape(command)}</code></pre>"
            '<p class="note">Run again, it resumes from the last checkpoint (or shows the finished run).</p>',
        ),
        ("Plan", _settings_list(settings)),
        ("Learning curve", html_table(curve, training_columns(learn), "curve.csv")),
        ("Plot", _figures(folder, [("curve.png", "The losses and the held-out measures, update by update.")])),
        ("Files", _files_note(folder, ("plan.json", "curve.csv", network, "checkpoint.npz", "positions/"))),
    ]
    page = _page(f"cardsim train · {title}", f"A {learn} network trained on the compiled engine.", sections)
    path = folder / REPORT
    atomic_write_bytes(path, page.encode())
    return path


def write_league_report(
    folder: Path,
    shape: LeagueShape,
    command: str,
    settings: Sequence[tuple[str, str]],
    ratings: pd.DataFrame,
    matrix: pd.DataFrame,
    prior_draws: float,
    pairings: Sequence[tuple[str, str, str]],
    timings: Sequence[pd.DataFrame],
) -> Path:
    """Write ``report.html`` into a league's ``folder``: the command, the settings, the ratings and
    the matrix (as ``ratings.csv`` and ``matrix.csv`` hold them), their plots, and per pairing
    (``pairings``: the two strategies and the pairing's folder, relative to ``folder``) a link to its
    own report and its decision times (``timings``: each pairing's ``timing.csv``). Returns its path."""
    unit = shape.unit + "s"
    prior = (
        f'<p class="note">Some strategy won or lost every {shape.unit} it played, which no finite rating fits: '
        f"{prior_draws:g} virtual draw per pairing added (BayesElo's prior).</p>"
        if prior_draws
        else ""
    )
    order = list(ratings["strategy"])
    sections = [
        (
            "Command",
            f"<pre><code>{_escape(command)}</code></pre>"
            '<p class="note">Run again, the command shows this league (or resumes it, if it was interrupted).</p>',
        ),
        ("Settings", _settings_list(settings)),
        ("Ratings", html_table(ratings, rating_columns(shape), "ratings.csv") + prior),
        ("Head to head", _score_grid(matrix, order, shape) + html_table(matrix, matrix_columns(shape), "matrix.csv")),
        (
            "Plots",
            _figures(
                folder, [(plots.RATINGS, PLOT_CAPTIONS[plots.RATINGS]), (plots.MATRIX, PLOT_CAPTIONS[plots.MATRIX])]
            ),
        ),
        ("Pairings and decision time", _pairings(pairings, timings)),
    ]
    lead = f"{shape.size}, each {shape.unit} in {shape.seatings} seatings, seed {shape.seed}; {unit} compared as wholes"
    page = _page(f"cardsim league · {shape.size}", lead, sections)
    path = folder / REPORT
    atomic_write_bytes(path, page.encode())
    return path


def _score_grid(matrix: pd.DataFrame, order: list[str], shape: LeagueShape) -> str:
    """The matrix of score rates, row against column, in rating order, each cell naming its row of
    matrix.csv."""
    place = {(row["strategy"], row["opponent"]): index for index, row in matrix.iterrows()}
    head = "<th></th>" + "".join(f'<th class="name">{_escape(name)}</th>' for name in order)
    rows = []
    for name in order:
        texts = []
        for opponent in order:
            index = place.get((name, opponent))
            if index is None:
                texts.append("<td></td>")
                continue
            row = matrix.loc[index]
            shown = f"{percent(row['score_rate'])} {interval(row['score_ci95_low'], row['score_ci95_high'], percent)}"
            texts.append(
                f'<td data-row="{index}" data-columns="score_rate score_ci95_low score_ci95_high">{_escape(shown)}</td>'
            )
        rows.append(f'<tr><th class="name">{_escape(name)}</th>{"".join(texts)}</tr>')
    return (
        f"<p>The row's score against the column ({shape.unit}s won, draws half), with its 95% Wilson interval; "
        f"in rating order.</p>"
        f'<table data-csv="matrix.csv"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def _pairings(pairings: Sequence[tuple[str, str, str]], timings: Sequence[pd.DataFrame]) -> str:
    parts = [
        "<p>Each pairing is a tournament run of its own, with its own report (its summary, paired "
        "comparison and plots), and each strategy's decision times in it.</p>"
    ]
    for index, ((a, b, where), timing) in enumerate(zip(pairings, timings)):
        link = f"{where}/{REPORT}"
        parts.append(
            f'<h3>{_escape(a)} against {_escape(b)}</h3><p><a href="{_escape(link)}">{_escape(link)}</a></p>'
            + html_table(timing, timing_columns(), f"{where}/timing.csv", explained=index == len(timings) - 1)
        )
    return "".join(parts)


def _files_note(folder: Path, names: Sequence[str]) -> str:
    present = [name for name in names if (folder / name.rstrip("/")).exists()]
    links = ", ".join(f'<a href="{_escape(name)}">{_escape(name)}</a>' for name in present)
    return f"<p>Beside this page: {links}.</p>"
