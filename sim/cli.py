"""``cardsim``: tournaments, leagues, matches, reports, strategy listings, cross-checks, benchmarks, the web table.

Every subcommand reports bad arguments, unknown names, unreadable files and unwritable folders in one
line on stderr with exit status 2, never a traceback; Ctrl-C ends it with one line saying what was
kept (status 130), and a reader that goes away (``cardsim strategies | head``) ends it quietly.
"""

from __future__ import annotations

from sim import launch

if __name__ == "__main__":  # python -m sim.cli (the console script goes through sim.launch)
    launch.quiet_while_loading("cardsim")

import argparse
import dataclasses
import sys
import tomllib
from pathlib import Path
from typing import Any

import strategies
from sim import cluster, games
from sim import replay as sim_replay
from sim.api import StrategyFault
from sim.bench import BenchRequestError, benchmark
from sim.bench import add_arguments as add_benchmark_arguments
from sim.console import (
    FAILED_STATUS,
    INTERRUPTED_STATUS,
    bounded_float_argument,
    bounded_int_argument,
    output_gone,
    progress_bar,
    say_error,
)
from sim.dealing import MAX_SEED
from sim.files import UnreadableFile, UnwritableFolder, read_bounded, writable_folder
from sim.numbers import NumberError, amount, clipped, parse_float
from sim.plans import PLAN_FIELDS, TEXT, Field, PlanError, checked_settings, whole_field
from sim.results import ResultsError, RunStore
from sim.web.bots import THINK_SECONDS  # no web stack: that loads with the serve command
from sim.workers import usable_cores, worker_count

DEFAULT_RESULTS = Path("results")
PLAN_KEYS = ("game", "players", "rounds", "seed", "duplicate", "games", "engine", "keep_rounds", "chunk_size")
RUN_KEYS = ("jobs", "backend", "scheduler", "out")
BACKENDS = ("loky", "dask")


class UsageError(Exception):
    """A problem with what the user asked for, reported in one line."""


MAX_COUNT = 10**15  # rounds, deals, chunk sizes: years of play at millions a second
MAX_SETTING_BYTES = 1 << 20  # an experiment file is a few lines

_positive_int = bounded_int_argument(1, MAX_COUNT)
_count = bounded_int_argument(0, MAX_COUNT)
_seed = bounded_int_argument(0, MAX_SEED, "seed")
_jobs_argument = bounded_int_argument(-MAX_COUNT, MAX_COUNT, "number of workers")
# What an experiment file may set: a plan's fields, how to run it, and words about it.
EXPERIMENT_FIELDS = {
    **{key: PLAN_FIELDS[key] for key in PLAN_KEYS},
    "jobs": whole_field(-MAX_COUNT, MAX_COUNT),
    "backend": Field(" or ".join(map(repr, BACKENDS)), lambda value: value in BACKENDS),
    "scheduler": TEXT,
    "out": TEXT,
    "description": TEXT,
}


_probability = bounded_float_argument(1e-9, 0.5, "probability")
_margin = bounded_float_argument(1e-9, 1e9, "margin")


def _widths(text: str) -> tuple[int, ...]:
    """Hidden layers' widths, "256,128"; "0": no hidden layer (a linear policy)."""
    widths = tuple(bounded_int_argument(0, 1 << 14, "width")(part) for part in text.split(",")) if text else ()
    if widths == (0,):
        return ()
    if not widths or 0 in widths or len(widths) > 16:
        raise argparse.ArgumentTypeError(f"invalid widths: {clipped(text)!r}: 1 to 16 widths from 1 to 16384, or 0")
    return widths


def _bound_pair(text: str) -> tuple[float, float]:
    """Two numbers ``low,high`` (SPRT bounds)."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise NumberError(f"expected two numbers LOW,HIGH, got {text!r}")
        low, high = (parse_float(part.strip(), -1e9, 1e9) for part in parts)
    except NumberError as error:
        raise argparse.ArgumentTypeError(f"invalid bounds: {error}") from None
    if not low < high:
        raise argparse.ArgumentTypeError(f"invalid bounds: {text!r} must be increasing")
    return low, high


def _players(text: str) -> list[str]:
    """Strategy specs separated by commas; a part that is a ``key=value`` setting belongs to the spec
    before it, so ``mc:samples=16,horizon=2,heuristic`` is two players (commas in parentheses, a
    nested spec's, split nothing)."""
    players: list[str] = []
    try:
        parts = strategies.split_top_level(text)
    except strategies.StrategyError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    for part in parts:
        if not part:
            continue
        is_setting = "=" in part.partition(":")[0]
        if is_setting and players and ":" in players[-1]:
            players[-1] += "," + part
        else:
            players.append(part)
    return players


def _jobs(value: int, available: int | None = None) -> int:
    """How many worker processes: joblib's convention, where -1 means every core, and never more
    than ``available`` (default: this machine's usable cores); a lowered request is said on stderr."""
    if value < 1 and value != -1:
        raise UsageError(f"--jobs must be -1 (every core) or at least 1, not {value}")
    jobs, note = worker_count(value, usable_cores() if available is None else available)
    if note:
        print(f"cardsim: {note}", file=sys.stderr)
    return jobs


# --------------------------------------------------------------------------- tournament


def read_experiment(path: str) -> dict[str, Any]:
    """The settings of an experiment TOML file (plan keys plus jobs/backend/scheduler/out), each
    checked against its field (``EXPERIMENT_FIELDS``)."""
    try:
        settings = tomllib.loads(read_bounded(path, MAX_SETTING_BYTES, "TOML experiment file").decode("utf-8"))
    except UnreadableFile as error:
        raise UsageError(f"cannot read {path}: {error}") from None
    except RecursionError:
        raise UsageError(f"{path} is not an experiment file: its values nest too deeply") from None
    except ValueError as error:  # not UTF-8, not TOML, or an integer too long to read
        raise UsageError(f"{path} is not valid TOML: {clipped(str(error))}") from None
    if isinstance(settings.get("players"), str):
        try:
            settings["players"] = _players(settings["players"])
        except argparse.ArgumentTypeError as error:
            raise UsageError(f"{path}: players: {error}") from None
    return checked_settings(settings, EXPERIMENT_FIELDS, path)


def tournament_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The experiment file's settings overridden by whatever was given on the command line."""
    settings = read_experiment(args.config) if args.config else {}
    for key in PLAN_KEYS + RUN_KEYS:
        value = getattr(args, key, None)
        if value is not None:
            settings[key] = value
    missing = [key for key in ("game", "players", "rounds") if key not in settings]
    if missing:
        raise UsageError(f"tournament needs {', '.join('--' + key for key in missing)} (or --config FILE)")
    return settings


def command_tournament(args: argparse.Namespace) -> int:
    from sim import tournament
    from sim.report import format_summary

    settings = tournament_settings(args)
    plan = tournament.Plan(**{key: settings[key] for key in PLAN_KEYS if key in settings})  # each checked
    plan.validate()
    out = Path(settings.get("out") or DEFAULT_RESULTS / plan.run_id)
    writable_folder(out)
    backend = settings.get("backend", "loky")

    def kept() -> str:
        played = len(RunStore(out).finished_chunks())
        return f"the {played} of {plan.num_chunks} chunks played so far are kept in {out}/"

    with cluster.workers(backend, settings.get("scheduler"), args.imports, kept) as client:
        jobs = _run_jobs(settings.get("jobs"), client)
        store = RunStore(out)
        store.prepare(tournament.plan_config(plan))
        args.interrupted = (
            f"interrupted; the chunks played so far are kept in {out}/: run the same command again to resume"
        )
        _say_resumption(plan, store, out)
        result = tournament.run(plan, store, jobs=jobs, backend=backend, progress=not args.quiet)
    print(format_summary(plan.shape(), result.summary, result.paired, result.timing))
    print(f"\nResults in {out}/ (summary.csv, paired.csv, timing.csv, *.png; per-round rows under chunks/)")
    print(f"Report: {result.report}")
    return 0


def _say_resumption(plan, store: RunStore, out: Path) -> None:
    """Tell the user when this command carries on an earlier run instead of starting afresh."""
    from sim.chunks import check_chunks

    played = len(check_chunks(plan, store, rows=False).sound)  # run() checks their rows, and says what is damaged
    if played == plan.num_chunks:
        print(
            f"cardsim tournament: {out}/ already holds this finished run; showing its results "
            "(delete the folder, or choose another --out or --seed, to play it again)",
            file=sys.stderr,
        )
    elif played:
        print(
            f"cardsim tournament: resuming the run in {out}/: {played} of {plan.num_chunks} chunks were played before",
            file=sys.stderr,
        )


def _run_jobs(requested: int | None, client) -> int:
    """The workers a run uses: ``--jobs`` as asked (at most the cores there are); without it, every
    worker thread of the Dask cluster ``client`` is connected to, or one local process."""
    if client is None:
        return _jobs(1 if requested is None else requested)
    cores = cluster.cores(client)
    return cores if requested is None else _jobs(requested, cores)


def command_report(args: argparse.Namespace) -> int:
    from sim import tournament
    from sim.chunks import check_chunks
    from sim.plans import stored_plan
    from sim.report import format_summary

    if (Path(args.run_dir) / "league.json").exists():
        return _report_league(Path(args.run_dir))
    store = RunStore(args.run_dir)
    plan = stored_plan(store)
    stored = check_chunks(plan, store)
    if stored.damaged:
        more = len(stored.damaged) - 1
        also = f" (and {amount(more, 'more damaged chunk')})" if more else ""
        raise ResultsError(f"{stored.damaged[0].message}{also}; run the tournament again to play it again")
    missing = plan.num_chunks - len(stored.sound)
    if missing:
        partial, played = tournament.interim(plan, store, stored.sound)
        unit = ("games" if plan.games else "deals") + (", each in every seating" if plan.duplicate else "")
        print(
            f"Unfinished: {len(stored.sound)} of {plan.num_chunks} chunks stored ({played:,} of "
            f"{plan.rounds:,} {unit}); interim figures below, no tables or plots written. Run the "
            "tournament again to resume it.\n"
        )
        print(format_summary(plan.shape(), partial.summary, partial.paired, partial.timing))
        return 0
    result = tournament.finish(plan, store)
    print(format_summary(plan.shape(), result.summary, result.paired, result.timing))
    print(f"\nTables and plots rewritten in {args.run_dir}/")
    print(f"Report: {result.report}")
    return 0


def _report_league(folder: Path) -> int:
    """``cardsim report`` of a league folder: its tables, plots and report.html written again."""
    from sim import league as leagues

    league = leagues.read_league(folder)
    anchor = leagues.stored_anchor(league, folder)
    result = leagues.finish(league, folder, anchor)
    print(leagues.format_league(result, anchor))
    print(f"\nTables and plots rewritten in {folder}/")
    print(f"Report: {result.report}")
    return 0


# --------------------------------------------------------------------------- league


def command_league(args: argparse.Namespace) -> int:
    from sim import league as leagues

    league = leagues.League(
        args.game,
        tuple(args.players),
        args.rounds,
        args.seed,
        games=args.games,
        engine=args.engine or "",
        keep_rounds=args.keep_rounds,
    )
    league.validate()
    anchor = args.anchor or league.players[0]
    if anchor not in league.players:
        raise UsageError(f"--anchor {anchor} is not one of the league's strategies")
    out = Path(args.out or DEFAULT_RESULTS / league.league_id)
    writable_folder(out)
    kept = f"the pairings played so far are kept in {out}/"
    with cluster.workers(args.backend, args.scheduler, args.imports, lambda: kept) as client:
        jobs = _run_jobs(args.jobs, client)
        args.interrupted = (
            f"interrupted; the pairings played so far are kept in {out}/: run the same command again to resume"
        )
        result = leagues.run(league, out, anchor, jobs=jobs, backend=args.backend, progress=not args.quiet)
    print(leagues.format_league(result, anchor))
    print(f"\nResults in {out}/ (ratings.csv, matrix.csv, *.png; each pairing's run under pairings/)")
    print(f"Report: {result.report}")
    return 0


# --------------------------------------------------------------------------- runs


def command_runs(args: argparse.Namespace) -> int:
    from sim.runs import list_runs

    if not Path(args.results).is_dir():
        raise UsageError(f"{args.results} is not a folder")
    runs = list_runs(args.results)
    if runs.empty:
        print(f"no cardsim runs or leagues under {args.results}/")
        return 0
    print(runs.drop(columns=["path", "games"]).to_string(index=False))
    return 0


# --------------------------------------------------------------------------- match


def match_bounds(args: argparse.Namespace):
    """The SPRT's bounds from --elo, --points or --margin (default: ±0.25 points per round)."""
    from sim.match import Bounds

    if args.elo is not None:
        return Bounds("elo", *args.elo)
    if args.points is not None:
        return Bounds("points", *args.points)
    margin = 0.25 if args.margin is None else args.margin
    return Bounds("points", -margin, margin)


def command_match(args: argparse.Namespace) -> int:
    from sim.match import format_verdict, sequential_match

    bounds = match_bounds(args)
    jobs = _jobs(args.jobs)
    args.interrupted = "interrupted; a match keeps nothing, so it starts again from its first deal"
    outcome = sequential_match(
        args.game,
        args.a,
        args.b,
        bounds,
        seed=args.seed,
        alpha=args.alpha,
        beta=args.beta,
        min_deals=args.min_deals,
        max_deals=args.max_deals,
        engine=args.engine,
        jobs=jobs,
        progress=not args.quiet,
    )
    print(format_verdict(outcome))
    return 0


# --------------------------------------------------------------------------- strategies, crosscheck, bench


def command_strategies(args: argparse.Namespace) -> int:
    game_names = [args.game] if args.game else games.names()
    if args.fields:
        from sim import observations

        print("\n\n".join(observations.reference(name) for name in game_names))
        return 0
    for name, (listed, aliases) in strategies.listings(game_names).items():
        print(f"{name}:")
        for info in listed:
            settings = ", ".join(
                [*(f"{key}=(required)" for key in info.required)]
                + [f"{key}={value}" for key, value in info.parameters.items()]
            )
            marks = [f"alias: {alias}" for alias, target in aliases.items() if target == info.name]
            suffix = f"  [{'; '.join(marks)}]" if marks else ""
            print(f"  {info.name:<14} {info.description}{suffix}")
            if settings:
                print(f"  {'':<14} settings: {settings}")
    return 0


def command_crosscheck(args: argparse.Namespace) -> int:
    from sim.crosscheck import NoFastEngine, crosscheck

    try:
        game = games.load(args.game, args.rules)
    except games.UnknownRules as error:
        raise UsageError(str(error)) from None
    if "fast" not in game.play_rounds:
        raise UsageError(
            str(NoFastEngine(f"{args.game} has one engine (reference) until it has a fast one: nothing to cross-check"))
        )
    specs = args.strategies or [args.baseline or game.baseline]
    if len(specs) == 1:
        specs *= game.num_seats
    if len(specs) != game.num_seats:
        raise UsageError(
            f"--strategies takes one spec per seat ({game.num_seats}) or one for every seat, not {len(specs)}"
        )
    jobs = _jobs(args.jobs)
    args.interrupted = "interrupted; a cross-check keeps nothing, so it starts again from its first deal"
    with progress_bar(args.rounds, "round", f"{args.game} crosscheck", not args.quiet) as bar:
        report = crosscheck(
            game=args.game,
            rounds=args.rounds,
            seed=args.seed,
            strategies=specs,
            jobs=jobs,
            progress=lambda done: bar.update(done - bar.n),
            rules=args.rules,
        )
    print(report.format())
    return 0 if report.ok else 1


def command_play(args: argparse.Namespace) -> int:
    import importlib

    strategies.get_fair(args.game, args.vs, "tables")  # a bad spec fails before the program starts
    return importlib.import_module(games.load(args.game).program).play(args.vs, args.seed)


def command_serve(args: argparse.Namespace) -> int:
    from sim.web import server  # the web stack loads only for this command

    args.interrupted = "stopped"
    policies = Path(args.policies).resolve() if args.policies else None
    if policies is not None and not policies.is_dir():
        raise UsageError(f"--policies {clipped(args.policies)} is not a folder")
    try:
        server.serve(args.host, args.port, args.think_seconds, policies)
    except server.ServeError as error:
        raise UsageError(str(error)) from None
    except KeyboardInterrupt:
        say_error("cardsim serve", args.interrupted)
        server.end_process(INTERRUPTED_STATUS)
    return 0


def command_train(args: argparse.Namespace) -> int:
    try:
        from sim.training import supervised  # JAX and optax: the train extra
    except ImportError as error:
        raise UsageError(f"training needs the train extra (pip install -e '.[train]'): {error}") from None
    from sim.training.asking import CannotLabel, deciders_of
    from sim.training.checkpoint import BadCheckpoint
    from sim.training.plan import Plan

    if games.load(args.game).tables is None:
        raise UsageError(f"{args.game} has no batched tables yet, so it cannot be trained on the compiled engine")
    options = [field.name for field in dataclasses.fields(Plan) if field.name != "game"]
    given = {name: getattr(args, name) for name in options if getattr(args, name) is not None}
    plan = Plan(args.game, **given)
    strategies.get_fair(plan.game, plan.opponents, "training")  # bad specs fail before any work
    try:
        deciders_of(plan)
    except CannotLabel as error:
        raise UsageError(str(error)) from None
    jobs = _jobs(args.jobs)
    out = Path(args.out or DEFAULT_RESULTS / f"train-{plan.game}-{plan.learn}-seed{plan.seed}")
    writable_folder(out)
    args.interrupted = f"interrupted; what was done is kept in {out}/: run the same command again to resume"
    try:
        curve = supervised.train(
            plan, out, progress=not args.quiet, warn=lambda line: say_error("cardsim train", line), jobs=jobs
        )
    except (BadCheckpoint, supervised.OtherPlan, supervised.TooFewEpisodes, CannotLabel) as error:
        raise UsageError(str(error)) from None
    last, written = curve[-1], out / plan.network_file
    if plan.learn == "policy":
        print(
            f"{plan.game}: a policy network imitating {plan.teacher} after {last['update']:,} updates: held-out "
            f"loss {last['held_out_loss']:.3f}, agreement {last['agreement']:.1%}; playing greedily in seat 0 "
            f"against {plan.opponents} on {plan.held_out_rounds:,} held-out deals it scored best in "
            f"{last['win_rate']:.1%} (mean reward {last['mean_reward']:+.2f}); {plan.teacher} in its place, "
            f"{last['teacher_win_rate']:.1%} ({last['teacher_mean_reward']:+.2f})"
        )
        print(f"Policy: {written} (seat it as policy:path={written})")
    else:
        print(
            f"{plan.game}: a value network of {plan.teacher}'s margin against {plan.opponents} after "
            f"{last['update']:,} updates: held-out error {last['held_out_error']:.2f} points, "
            f"{last['explained']:.1%} of the margins' variance explained"
        )
        print(f"Value: {written} (mc reads it as leaves={written})")
    print(f"Learning curve: {out / supervised.CURVE_CSV}, {out / supervised.CURVE_PNG}")
    return 0


def command_bench(args: argparse.Namespace) -> int:
    if args.json:
        writable_folder(Path(args.json).parent)  # refused before a measurement, not after it
    try:
        benchmark([args.game], args.sizes, args.cores, args.json)
    except BenchRequestError as error:
        raise UsageError(str(error)) from None
    return 0


# --------------------------------------------------------------------------- parser


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardsim", description="Card-game strategy research and tournaments.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # What every command that seats strategies takes: a researcher's own, without packaging them.
    seats_strategies = argparse.ArgumentParser(add_help=False)
    strategies.add_import_option(seats_strategies)

    run = commands.add_parser("tournament", parents=[seats_strategies], help="play a tournament and summarise it")
    run.add_argument("--config", metavar="FILE", help="experiment TOML file (command-line options override it)")
    run.add_argument("--game", choices=games.names())
    run.add_argument("--players", type=_players, metavar="A,B,C,D", help="one strategy spec per seat")
    run.add_argument("--rounds", type=_positive_int, metavar="N", help="deals to play (games with --games)")
    run.add_argument("--seed", type=_seed)
    run.add_argument(
        "--jobs",
        type=_jobs_argument,
        metavar="J",
        help="worker processes (-1: all cores; default: 1, on Dask all its workers)",
    )
    run.add_argument("--duplicate", action="store_const", const=True, help="play every deal in every seating")
    run.add_argument("--games", action="store_const", const=True, help="play whole games and count wins")
    run.add_argument(
        "--engine",
        choices=("fast", "reference"),
        help="default: the game's fast engine if it has one, else its reference engine",
    )
    run.add_argument("--out", metavar="DIR", help="results directory (default results/<run-id>)")
    run.add_argument(
        "--no-rounds",
        dest="keep_rounds",
        action="store_const",
        const=False,
        help="keep only per-chunk aggregates, not per-round rows",
    )
    run.add_argument("--chunk-size", dest="chunk_size", type=_positive_int, metavar="N")
    run.add_argument("--backend", choices=("loky", "dask"))
    run.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address for --backend dask")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(handler=command_tournament)

    league = commands.add_parser(
        "league", parents=[seats_strategies], help="every pairing of several strategies: a matrix and ratings"
    )
    league.add_argument("--game", choices=games.names(), default=games.DEFAULT_GAME)
    league.add_argument("--players", type=_players, required=True, metavar="A,B,C,...", help="the strategies")
    league.add_argument("--rounds", type=_positive_int, default=1000, metavar="N", help="deals (games) per pairing")
    league.add_argument("--seed", type=_seed, default=0)
    league.add_argument("--games", action="store_true", help="play whole games: a game id is a comparison")
    league.add_argument("--engine", choices=("fast", "reference"), help="default: the game's fast engine")
    league.add_argument("--anchor", metavar="NAME", help="the strategy rated 0 (default: the first)")
    league.add_argument("--out", metavar="DIR", help="league folder (default results/league-<game>-<id>)")
    league.add_argument("--no-rounds", dest="keep_rounds", action="store_false", help="keep no per-round rows")
    league.add_argument(
        "--jobs",
        type=_jobs_argument,
        metavar="J",
        help="worker processes (-1: all cores; default: 1, on Dask all its workers)",
    )
    league.add_argument("--backend", choices=("loky", "dask"), default="loky")
    league.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address for --backend dask")
    league.add_argument("--quiet", action="store_true", help="no progress bars")
    league.set_defaults(handler=command_league)

    match = commands.add_parser("match", parents=[seats_strategies], help="A against B until a sequential test decides")
    match.add_argument("a")
    match.add_argument("b")
    match.add_argument("--game", choices=games.names(), default=games.DEFAULT_GAME)
    match.add_argument("--seed", type=_seed, default=0)
    hypotheses = match.add_mutually_exclusive_group()
    hypotheses.add_argument(
        "--margin", type=_margin, help="H0/H1: A worse/better by this many points per round (default 0.25)"
    )
    hypotheses.add_argument(
        "--points", type=_bound_pair, metavar="P0,P1", help="H0: A's advantage <= P0, H1: >= P1 points per round"
    )
    hypotheses.add_argument(
        "--elo", type=_bound_pair, metavar="E0,E1", help="H0: A's Elo over the deals <= E0, H1: >= E1 (e.g. 0,10)"
    )
    match.add_argument("--alpha", type=_probability, default=0.05)
    match.add_argument("--beta", type=_probability, default=0.05)
    match.add_argument("--min-deals", dest="min_deals", type=_count, default=0, help="no verdict before this")
    match.add_argument("--max-deals", dest="max_deals", type=_positive_int, default=1_000_000)
    match.add_argument("--jobs", type=_jobs_argument, default=1, metavar="J", help="worker processes (-1: all cores)")
    match.add_argument(
        "--engine",
        choices=("fast", "reference"),
        default="",
        help="default: the game's fast engine if it has one, else its reference engine",
    )
    match.add_argument("--quiet", action="store_true")
    match.set_defaults(handler=command_match)

    replay = commands.add_parser(
        "replay", parents=[seats_strategies], help="one deal of a finished run, or a web table's record, move by move"
    )
    sim_replay.add_arguments(replay)
    replay.set_defaults(handler=sim_replay.command)

    runs = commands.add_parser("runs", help="list the runs and leagues under a results folder")
    runs.add_argument("results", nargs="?", default=str(DEFAULT_RESULTS), metavar="RESULTS_DIR")
    runs.set_defaults(handler=command_runs)

    report = commands.add_parser("report", help="reprint a run's summary, redraw its plots, rewrite report.html")
    report.add_argument("run_dir", metavar="RUN_DIR")
    report.set_defaults(handler=command_report)

    listing = commands.add_parser(
        "strategies", parents=[seats_strategies], help="list registered strategies and their settings"
    )
    listing.add_argument("--game", choices=games.names())
    listing.add_argument(
        "--fields", action="store_true", help="the fields of the game's observation, for writing a strategy"
    )
    listing.set_defaults(handler=command_strategies)

    check = commands.add_parser(
        "crosscheck", parents=[seats_strategies], help="reference vs fast engine on the same deals"
    )
    check.add_argument("--game", choices=games.names(), default=games.DEFAULT_GAME)
    check.add_argument("--rounds", type=_positive_int, default=10_000)
    check.add_argument("--seed", type=_seed, default=0)
    check.add_argument(
        "--strategies", type=_players, metavar="A,B,C,D", help="one spec per seat, or one for every seat"
    )
    check.add_argument(
        "--baseline", default="", help="the strategy of every seat without --strategies (default: the game's baseline)"
    )
    check.add_argument(
        "--jobs", type=_jobs_argument, default=-1, metavar="J", help="worker processes (default -1: every core)"
    )
    check.add_argument(
        "--rules", default="", metavar="NAME=VALUE,...", help="rule variants to play under (docs/gemstones.md)"
    )
    check.add_argument("--quiet", action="store_true", help="no progress bar")
    check.set_defaults(handler=command_crosscheck)

    play = commands.add_parser(
        "play", parents=[seats_strategies], help="play a game yourself against registered strategies"
    )
    play.add_argument("game", choices=games.names())
    play.add_argument("--vs", default="best", metavar="NAME", help="strategy of the computer seats (default: best)")
    play.add_argument("--seed", type=_seed)
    play.set_defaults(handler=command_play)

    serve = commands.add_parser(
        "serve", parents=[seats_strategies], help="play in the browser: a local web table for every game"
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: this machine only)")
    serve.add_argument("--port", type=bounded_int_argument(0, 65535, "port"), default=8000, help="0: any free port")
    serve.add_argument(
        "--think-seconds",
        type=bounded_float_argument(0.1, 3600, "time"),
        default=THINK_SECONDS,
        metavar="S",
        help=f"a bot's time for one decision; past it the table ends with a message (default: {THINK_SECONDS:g})",
    )
    serve.add_argument(
        "--policies", metavar="FOLDER", help="the folder policy:path= may name files in (default: no policy seated)"
    )
    serve.set_defaults(handler=command_serve)

    train = commands.add_parser(
        "train",
        parents=[seats_strategies],
        help="train a policy or value network on the compiled engine (the train extra)",
    )
    train.add_argument("--game", choices=games.names(), default=games.DEFAULT_GAME)
    train.add_argument(
        "--learn",
        choices=("policy", "value"),
        help="the teacher's choices, or the margin its play reaches (default: policy)",
    )
    train.add_argument("--teacher", metavar="SPEC", help="the strategy whose play it learns (default: heuristic)")
    train.add_argument("--opponents", metavar="SPEC", help="the other seats' strategy (default: heuristic)")
    train.add_argument(
        "--player", metavar="SPEC",
        help="who moves the learner's seat while the teacher is asked (default: the teacher; a policy: DAgger)",
    )  # fmt: skip
    count = bounded_int_argument(1, 10**9)
    train.add_argument("--positions", type=count, metavar="N", help="learner decisions to learn from (default 400000)")
    tables = bounded_int_argument(1, 1 << 16)
    train.add_argument("--envs", type=tables, metavar="N", help="tables at once (default 512)")
    train.add_argument("--hidden", type=_widths, metavar="W,W", help="hidden layers' widths (default 256,256; 0: none)")
    train.add_argument("--batch", type=bounded_int_argument(1, 1 << 16), metavar="N", help="minibatch (default 512)")
    train.add_argument("--updates", type=count, metavar="N", help="Adam steps (default 4000)")
    train.add_argument("--learning-rate", type=bounded_float_argument(1e-7, 1.0, "rate"), metavar="R")
    train.add_argument("--evaluate-every", type=count, metavar="N", help="updates between measurements (default 500)")
    train.add_argument("--held-out-rounds", type=count, metavar="N", help="deals played per measurement (default 2000)")
    train.add_argument(
        "--explore", type=bounded_float_argument(0.0, 1.0, "share"), metavar="P",
        help="the share of the learner's moves drawn at random instead of the teacher's (default 0)",
    )  # fmt: skip
    train.add_argument(
        "--labels",
        metavar="SPEC",
        help="a value run: label positions with this lookahead's margins (e.g. mc; oracle-mc: in the true world)",
    )
    train.add_argument(
        "--auxiliary", metavar="SPEC",
        help="a value run: a second output learns this lookahead's margins beside them (e.g. oracle-mc); not written",
    )  # fmt: skip
    train.add_argument(
        "--auxiliary-weight", type=bounded_float_argument(0.0, 100.0, "weight"), metavar="W",
        help="the auxiliary target's share of the loss, each target at unit spread (default 1)",
    )  # fmt: skip
    train.add_argument("--seed", type=_seed, help="positions from this seed, measured on the next (default 0)")
    train.add_argument("--out", metavar="DIR", help="folder of the run (default: results/train-GAME-seedS)")
    train.add_argument(
        "--jobs", type=_jobs_argument, default=1, metavar="J",
        help="worker processes asking the teacher and labellers (-1: all cores; the same run whatever the number)",
    )  # fmt: skip
    train.add_argument("--quiet", action="store_true", help="no progress bars")
    train.set_defaults(handler=command_train)

    bench = commands.add_parser("bench", help="measure engine speed")
    bench.add_argument("--game", choices=games.names(), default=games.DEFAULT_GAME)
    add_benchmark_arguments(bench)
    bench.set_defaults(handler=command_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = argument_parser().parse_args(argv)
    except KeyboardInterrupt:
        say_error("cardsim", "interrupted")
        return INTERRUPTED_STATUS
    args.interrupted = "interrupted"  # a command that keeps its work says so here when it starts
    try:
        for source in getattr(args, "imports", []):
            strategies.import_strategies(source)
        return args.handler(args)
    except (
        UsageError,
        cluster.SchedulerError,
        ResultsError,
        PlanError,
        strategies.StrategyError,
        games.UnknownGame,
        UnwritableFolder,
        sim_replay.ReplayError,
    ) as error:
        print(f"cardsim {args.command}: {error}", file=sys.stderr)
        return 2
    except (StrategyFault, cluster.ClusterLost) as error:  # StrategyFault: here or in a worker (joblib, Dask)
        print(f"cardsim {args.command}: {error}", file=sys.stderr)
        return FAILED_STATUS
    except KeyboardInterrupt:
        say_error(f"cardsim {args.command}", args.interrupted)
        return INTERRUPTED_STATUS
    except BrokenPipeError:
        return output_gone()
    except OSError as error:  # a disk that fills up or a folder removed mid-run: the system's reason
        where = f"{error.filename}: " if error.filename else ""
        print(f"cardsim {args.command}: {where}{error.strerror or error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    launch.loaded()
    sys.exit(main())
