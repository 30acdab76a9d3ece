"""``cardsim train`` (``sim.training``): a tiny imitation run on the compiled engine learns (its loss
falls), writes a policy file the registry seats and plays, exports weights that numpy evaluates as
JAX does, resumes after an interruption to the very curve of an uninterrupted run (in its positions
and in its training), refuses another plan's folder, and steps over a damaged checkpoint to the one
before it with one line naming it."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from importlib import metadata
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

import strategies
from sim import cli, games
from sim.training import asking, checkpoint, network, supervised
from sim.training import positions as collection
from sim.training.plan import Plan
from strategies.policy import load_policy, load_value, save_network

PLAN = Plan(
    "straights", positions=15000, envs=100, hidden=(32,), batch=128, updates=120, evaluate_every=40, held_out_rounds=200
)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    folder = tmp_path_factory.mktemp("run")
    return folder, supervised.train(PLAN, folder, progress=False)


def test_a_tiny_run_learns_and_writes_a_policy_the_registry_seats(finished: tuple[Path, list[dict]]) -> None:
    folder, curve = finished
    assert [row["update"] for row in curve] == [40, 80, 120]
    assert curve[-1]["held_out_loss"] < curve[0]["held_out_loss"]
    assert curve[-1]["agreement"] > 0.5  # the heuristic's choices, learned well beyond chance
    for name in (PLAN.network_file, supervised.CURVE_CSV, supervised.CURVE_PNG, checkpoint.LATEST, "report.html"):
        assert (folder / name).is_file()
    game = games.load("straights")
    seats = [strategies.get("straights", f"policy:path={folder / PLAN.network_file}")]
    seats += [strategies.get("straights", "heuristic")] * 3
    played = game.play_rounds["fast"](game.deals(3, 0, 50), seats, np.arange(50))
    assert played.points.shape == (50, 4) and played.points.sum(axis=1).min() > 0


def test_exported_weights_score_as_the_network_does(finished: tuple[Path, list[dict]]) -> None:
    folder, _ = finished
    saved = checkpoint.load(folder / checkpoint.LATEST, _template(), PLAN.config())
    params = saved.arrays[0]
    exported = load_policy("straights", str(folder / PLAN.network_file))
    encoded = np.random.default_rng(0).random((64, games.load("straights").observation_size), dtype=np.float32)
    expected = np.asarray(network.scores(params, jnp.asarray(encoded)))
    np.testing.assert_allclose(exported.scores(encoded), expected, rtol=1e-5, atol=1e-5)


def test_an_interrupted_run_resumes_to_the_same_curve(
    finished: tuple[Path, list[dict]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, expected = finished
    chunks, measurements = [0], [0]
    real_positions, real_keep = collection._positions, supervised.keep

    def positions_then_stop(*args, **kwargs):
        chunks[0] += 1
        if chunks[0] == 2:
            raise KeyboardInterrupt
        return real_positions(*args, **kwargs)

    def keep_then_stop(*args, **kwargs):
        real_keep(*args, **kwargs)
        measurements[0] += 1
        if measurements[0] == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(collection, "_positions", positions_then_stop)
    with pytest.raises(KeyboardInterrupt):
        supervised.train(PLAN, tmp_path, progress=False)
    monkeypatch.setattr(collection, "_positions", real_positions)
    monkeypatch.setattr(supervised, "keep", keep_then_stop)
    with pytest.raises(KeyboardInterrupt):
        supervised.train(PLAN, tmp_path, progress=False)
    monkeypatch.setattr(supervised, "keep", real_keep)
    assert supervised.train(PLAN, tmp_path, progress=False) == expected


def test_a_damaged_checkpoint_is_named_and_the_one_before_resumes(
    finished: tuple[Path, list[dict]], tmp_path: Path
) -> None:
    folder, expected = finished
    for path in folder.iterdir():
        if path.is_file():
            (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "positions").mkdir()
    for path in (folder / "positions").iterdir():
        (tmp_path / "positions" / path.name).write_bytes(path.read_bytes())
    (tmp_path / checkpoint.LATEST).write_bytes(b"PK\x03\x04 not a zip at all")
    said: list[str] = []
    curve = supervised.train(PLAN, tmp_path, progress=False, warn=said.append)
    assert len(said) == 1 and str(tmp_path / checkpoint.LATEST) in said[0] and "\n" not in said[0]
    assert curve == expected  # the one before held 80 updates; the last 40 are made again, the same


def test_another_plans_folder_is_refused(finished: tuple[Path, list[dict]]) -> None:
    folder, _ = finished
    with pytest.raises(supervised.OtherPlan, match="another plan"):
        supervised.train(replace(PLAN, teacher="first-legal"), folder, progress=False)


def test_cardsim_train_says_bad_input_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One line each (after argparse's usage, for a bad argument), status 2, nothing trained. In this
    process, as ``cardsim`` runs it (a fresh process each cost two seconds of imports); the last one
    through the installed program."""
    (tmp_path / "plan.json").write_text(json.dumps({"game": "straights"}))
    for arguments, said in [
        (["--hidden", "3,,4"], "invalid width"),
        (["--teacher", "nope"], "unknown straights strategy 'nope'"),
        (["--player", "policy:path=/nonexistent.npz", "--out", str(tmp_path / "labels")], "/nonexistent.npz"),
        (["--positions", "9" * 5000], "invalid number"),
        (["--out", str(tmp_path)], "holds a run of another plan"),
        (["--labels", "mc", "--out", str(tmp_path / "labels")], "add --learn value"),
        (["--learn", "value", "--labels", "heuristic", "--out", str(tmp_path / "labels")], "takes a lookahead"),
        (["--learn", "value", "--explore", "2"], "out of range"),
        (["--jobs", "0"], "--jobs"),
    ]:
        try:
            status = cli.main(["train", *arguments])
        except SystemExit as refused:  # argparse's way
            status = refused.code
        out, err = capsys.readouterr()
        lines = [line for line in err.splitlines() if not line.startswith(("usage:", " "))]
        assert status == 2 and out == "" and len(lines) == 1 and said in lines[0], err
    assert not (tmp_path / "labels").exists()  # refused before any folder is claimed
    run = subprocess.run(
        [sys.executable, "-m", "sim.cli", "train", "--positions", "9" * 5000],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr, run.stderr
    (line,) = [line for line in run.stderr.splitlines() if not line.startswith(("usage:", " "))]
    assert line.startswith("cardsim train: error: argument --positions: invalid number") and len(line) < 200


VALUE_PLAN = replace(PLAN, learn="value", positions=30000, envs=200, updates=300, evaluate_every=100)


@pytest.fixture(scope="module")
def value_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    folder = tmp_path_factory.mktemp("value")
    return folder, supervised.train(VALUE_PLAN, folder, progress=False)


def test_a_tiny_value_run_explains_the_margins_and_exports_what_jax_computes(value_run) -> None:
    folder, curve = value_run
    assert [row["update"] for row in curve] == [100, 200, 300]
    assert curve[-1]["held_out_loss"] < curve[0]["held_out_loss"]
    assert curve[-1]["explained"] > 0.3  # a round's margin is mostly in the hand dealt and the table seen
    saved = checkpoint.load(folder / checkpoint.LATEST, _template(outputs=1), VALUE_PLAN.config())
    heuristic = asking.Deciders(strategies.get("straights", "heuristic"))
    task = supervised.task_of(VALUE_PLAN, collection.collect(VALUE_PLAN, heuristic, folder / "positions", False))
    encoded = np.random.default_rng(0).random((64, games.load("straights").observation_size), dtype=np.float32)
    expected = np.asarray(network.scores(saved.arrays[0], jnp.asarray(encoded)))[:, 0] * task.scale
    values = load_value("straights", str(folder / VALUE_PLAN.network_file)).values(encoded)
    np.testing.assert_allclose(values, expected, rtol=1e-5, atol=1e-3)  # in points: the fitted scale put back


def test_the_margins_learned_are_the_margins_played(tmp_path: Path) -> None:
    """The first position of each table is its episode's first decision: its margin is that deal's,
    played by heuristic in every seat (the teacher in seat 0, the opponents elsewhere)."""
    plan = replace(VALUE_PLAN, positions=2000, envs=100)  # 20 decisions a table: 13 in the first deal
    heuristic = strategies.get("straights", "heuristic")
    positions = collection.collect(plan, asking.Deciders(heuristic), tmp_path, False)
    game = games.load("straights")
    points = game.play_rounds["fast"](game.deals(plan.seed, 0, 100), [heuristic] * 4, np.arange(100)).points
    expected = points[:, 1:].mean(axis=1) - points[:, 0]  # fewer points win: the others' less ours
    np.testing.assert_allclose(positions.margins[:100], expected, rtol=1e-6)
    assert np.isnan(positions.margins).any() and np.isfinite(positions.margins).sum() > 100


def test_a_value_run_without_a_finished_episode_says_so(tmp_path: Path) -> None:
    with pytest.raises(supervised.TooFewEpisodes, match="more --positions"):
        supervised.train(replace(VALUE_PLAN, positions=1000), tmp_path, progress=False)


@pytest.mark.parametrize("lookahead", ["mc:samples=4", "search:samples=4,oversample=2,leaf_turns=2"])
def test_lookaheads_read_a_value_as_their_leaves_on_both_engines_alike(lookahead: str, value_run) -> None:
    folder, _ = value_run
    spec = f"{lookahead},leaves={folder / VALUE_PLAN.network_file}"
    game = games.load("straights")
    deals, rounds = game.deals(9, 0, 3), np.arange(3)
    played = {
        engine: game.play_rounds[engine](deals, [strategies.get("straights", spec)] * 4, rounds).points
        for engine in ("reference", "fast")
    }
    np.testing.assert_array_equal(played["reference"], played["fast"])


def test_leaves_never_reached_play_as_mc_does(value_run) -> None:
    folder, _ = value_run
    game = games.load("straights")
    deals, rounds = game.deals(10, 0, 20), np.arange(20)
    heuristic = strategies.get("straights", "heuristic")
    points = [
        game.play_rounds["fast"](deals, [strategies.get("straights", spec), heuristic, heuristic, heuristic], rounds)
        for spec in ("mc:samples=8", f"mc:samples=8,leaves={folder / VALUE_PLAN.network_file},leaf_turns=13")
    ]
    np.testing.assert_array_equal(points[0].points, points[1].points)


def test_bad_leaves_are_refused_in_one_line(value_run, tmp_path: Path) -> None:
    folder, _ = value_run
    spec = f"mc:samples=4,leaves={folder / VALUE_PLAN.network_file}"
    game = games.load("straights")
    with pytest.raises(strategies.StrategyError, match="objective must be margin"):
        strategies.get("straights", spec + ",objective=points")
    save_network(tmp_path / "p.npz", "straights", [np.zeros((game.observation_size, 52))], [np.zeros(52)])
    with pytest.raises(strategies.StrategyError, match="does not fit straights as a value"):
        strategies.get("straights", f"mc:leaves={tmp_path / 'p.npz'}")


def _template(outputs: int = 52):
    import optax

    params = network.initial(
        __import__("jax").random.PRNGKey(0), [games.load("straights").observation_size, 32, outputs]
    )
    return params, optax.adam(PLAN.learning_rate).init(params)


def test_exploring_moves_are_legal_drawn_as_often_as_asked_and_reproducible(tmp_path: Path) -> None:
    plan = replace(VALUE_PLAN, positions=2000, envs=100, explore=0.5)
    heuristic = strategies.get("straights", "heuristic")
    first = collection.collect(plan, asking.Deciders(heuristic), tmp_path / "first", False)
    again = collection.collect(plan, asking.Deciders(heuristic), tmp_path / "again", False)
    for one, other in zip(first, again):
        np.testing.assert_array_equal(one, other)
    with np.load(tmp_path / "first" / "chunk-00000.npz") as chunk:
        played, teacher, masks = chunk["played"], chunk["actions"], chunk["masks"]
    assert (masks[np.arange(len(played)), played] == 1).all()
    choices = masks.sum(axis=1) > 1
    changed = (played != teacher)[choices].mean()
    assert 0.25 < changed < 0.5  # half the moves drawn, of which the teacher's own is one of the legal ones


def test_workers_ask_for_the_very_positions_one_process_asks_for(tmp_path: Path) -> None:
    """Two worker processes ask the teacher, the labeller and an oracle (bound to the tables' true
    records) for what one process asks: the same chunks, byte for byte, in blocks across workers."""
    plan = replace(VALUE_PLAN, teacher="mc:samples=4", labels="mc:samples=4", auxiliary="oracle-mc")
    plan = replace(plan, positions=2 * asking.BLOCK_ROWS + 8, envs=2 * asking.BLOCK_ROWS + 8)  # blocks 64, 64, 8
    deciders = asking.deciders_of(plan)
    collection.collect(plan, deciders, tmp_path / "one", False, jobs=1)
    collection.collect(plan, deciders, tmp_path / "two", False, jobs=2)
    with np.load(tmp_path / "one" / "chunk-00000.npz") as one, np.load(tmp_path / "two" / "chunk-00000.npz") as two:
        assert one.files == two.files
        for name in one.files:
            np.testing.assert_array_equal(one[name], two[name], err_msg=name)
        assert np.isfinite(one["labels"]).all() and np.isfinite(one["auxiliary"]).all()
    policy_plan = replace(PLAN, teacher="mc:samples=4", held_out_rounds=2 * asking.BLOCK_ROWS + 8)
    teacher = asking.deciders_of(policy_plan).teacher
    assert supervised.teacher_played(policy_plan, teacher, jobs=2) == supervised.teacher_played(policy_plan, teacher)


def test_a_lookahead_labels_a_position_with_the_mean_margin_of_the_move_it_plays() -> None:
    from sim.straights.observation import take_rows
    from sim.vecenv import VecEnv

    mc = strategies.get("straights", "mc:samples=8")
    env = VecEnv("straights", 20, opponents=[None, "heuristic", "heuristic", "heuristic"], seed=4)
    env.reset()
    for _ in range(3):
        env.step(np.asarray(strategies.get("straights", "heuristic").choose(env.observations())))
    seen = env.observations()
    margins = mc.margins(seen)
    for row in range(len(seen)):
        one = take_rows(seen, np.array([row]))
        played = int(mc.choose(one)[0])
        means = {action: mean for action, mean, _ in mc.candidate_values(one)}
        if means:  # rollouts' margins are the others' points less three times ours
            assert margins[row] == pytest.approx(means[played] / 3)


def test_labels_need_a_value_run_and_a_lookahead(tmp_path: Path) -> None:
    with pytest.raises(asking.CannotLabel, match="--learn value"):
        supervised.train(replace(PLAN, labels="mc"), tmp_path / "policy", progress=False)
    with pytest.raises(asking.CannotLabel, match="takes a lookahead"):
        supervised.train(replace(VALUE_PLAN, labels="heuristic"), tmp_path / "value", progress=False)


@pytest.mark.parametrize(
    "plan",
    [
        PLAN,
        VALUE_PLAN,
        replace(VALUE_PLAN, labels="mc:samples=8", hidden=()),
        replace(VALUE_PLAN, auxiliary="oracle-mc", auxiliary_weight=0.25),
    ],
)
def test_the_report_names_the_command_that_makes_the_run(plan: Plan, tmp_path: Path) -> None:
    """The command on a run's page, parsed as ``cardsim train`` parses it, is the run's plan."""
    import shlex

    from sim.cli import argument_parser

    command = supervised.command_of(plan, tmp_path)
    args = argument_parser().parse_args(shlex.split(command)[1:])
    given = {
        field: getattr(args, field) for field in plan.config() if field != "game" and getattr(args, field) is not None
    }
    assert Plan(args.game, **given) == plan and args.out == str(tmp_path)


def test_a_runs_page_shows_its_curve(finished: tuple[Path, list[dict]]) -> None:
    folder, curve = finished
    page = (folder / "report.html").read_text()
    assert supervised.command_of(PLAN, folder) in page.replace("&#x27;", "'")
    assert 'data-csv="curve.csv"' in page and page.count("<tr>") == len(curve) + 1
    assert f"{curve[-1]['agreement']:.1%}" in page
    jax_version = metadata.version("jax")
    assert f"jax {jax_version}" in page and supervised.library_versions() in page  # what made the network


def test_euchre_mc_reads_a_value_as_its_leaves(tmp_path: Path) -> None:
    """Euchre's mc takes learned leaves too: alike on both engines, and mc itself when never reached."""
    plan = Plan(
        "euchre",
        learn="value",
        positions=4000,
        envs=200,
        hidden=(16,),
        updates=40,
        evaluate_every=40,
        held_out_rounds=50,
    )
    supervised.train(plan, tmp_path, progress=False)
    leaves = tmp_path / plan.network_file
    game = games.load("euchre")
    deals, rounds = game.deals(13, 0, 6), np.arange(6)
    heuristic = strategies.get("euchre", "heuristic")

    def points(spec: str, engine: str = "fast") -> np.ndarray:
        player = strategies.get("euchre", spec)
        return game.play_rounds[engine](deals, [player, heuristic, player, heuristic], rounds).points

    learned = f"mc:samples=8,leaves={leaves}"
    np.testing.assert_array_equal(points(learned, "reference"), points(learned))
    np.testing.assert_array_equal(points(learned + ",leaf_turns=8"), points("mc:samples=8"))


@pytest.mark.parametrize(
    "game_name, lookahead, reaches_the_end",
    [
        ("ginrummy", "mc:samples=4,oversample=2", "leaf_turns=1000"),
        ("gemstones", "mc:samples=4,horizon=0", "leaf_turns=1000"),
    ],
)
def test_mc_labels_and_reads_a_value_as_its_leaves_from_states(
    game_name: str, lookahead: str, reaches_the_end: str, tmp_path: Path
) -> None:
    """Gin Rummy's and Gemstones' rollouts start from sampled states (``Tables.resumed``): mc labels
    their positions, reads the value at its leaves alike on both engines, and plays as mc where no
    leaf is ever reached."""
    plan = Plan(
        game_name, learn="value", labels=lookahead, positions=2000, envs=100, hidden=(16,), updates=40,
        evaluate_every=40, held_out_rounds=50,
    )  # fmt: skip
    curve = supervised.train(plan, tmp_path, progress=False)
    assert np.isfinite(curve[-1]["held_out_error"])
    leaves = tmp_path / plan.network_file
    game = games.load(game_name)
    deals, rounds = game.deals(13, 0, 2), np.arange(2)
    heuristic = strategies.get(game_name, "heuristic")

    def points(spec: str, engine: str = "fast") -> np.ndarray:
        return game.play_rounds[engine](deals, [strategies.get(game_name, spec), heuristic], rounds).points

    learned = f"{lookahead},leaves={leaves},leaf_turns=2"
    np.testing.assert_array_equal(points(learned, "reference"), points(learned))
    np.testing.assert_array_equal(points(f"{learned},{reaches_the_end}"), points(lookahead))


@pytest.mark.parametrize(
    "game_name, lookahead", [("ginrummy", "mc:samples=8,oversample=2"), ("gemstones", "mc:samples=8,horizon=0")]
)
def test_mc_labels_a_position_with_the_mean_margin_of_the_move_it_plays(game_name: str, lookahead: str) -> None:
    from sim.vecenv import VecEnv

    mc = strategies.get(game_name, lookahead)
    heuristic = strategies.get(game_name, "heuristic")
    env = VecEnv(game_name, 12, opponents=[None, "heuristic"], seed=4)
    env.reset()
    for _ in range(5):
        env.step(np.asarray(heuristic.choose(env.observations())))
    seen = env.observations()
    margins = mc.margins(seen)
    for row in range(len(seen)):
        one = seen.take(np.array([row]))
        played = int(mc.choose(one)[0])
        means = {action: mean for action, mean, _ in mc.candidate_values(one)}
        if means:  # the margin is ours less the opponent's
            assert margins[row] == pytest.approx(means[played])


def test_gemstones_mc_labels_only_to_the_games_end() -> None:
    with pytest.raises(strategies.StrategyError, match="horizon=0"):
        strategies.get("gemstones", "mc").margins(None)


def test_a_player_moves_the_learners_seat_while_the_teacher_is_asked(finished, tmp_path: Path) -> None:
    """DAgger: the positions are where the player's own play goes, the actions learned the teacher's."""
    folder, _ = finished
    player_spec = f"policy:path={folder / PLAN.network_file}"
    plan = replace(PLAN, teacher="mc:samples=4", player=player_spec, positions=600, envs=50)
    teacher, player = (strategies.get("straights", spec) for spec in (plan.teacher, player_spec))
    positions = collection.collect(plan, asking.Deciders(teacher, player), tmp_path, False)
    with np.load(tmp_path / "chunk-00000.npz") as chunk:
        played, learned = chunk["played"], chunk["actions"]
    from sim.vecenv import VecEnv

    env = VecEnv("straights", plan.envs, opponents=[None, "heuristic", "heuristic", "heuristic"], seed=plan.seed)
    env.reset()
    for step in range(plan.steps):
        rows = slice(step * plan.envs, (step + 1) * plan.envs)
        seen = env.observations()
        np.testing.assert_array_equal(played[rows], player.choose(seen))
        np.testing.assert_array_equal(learned[rows], teacher.choose(seen))
        env.step(played[rows])
    assert (positions.actions != played).any()  # the player and the teacher differ somewhere
    assert "player" not in replace(PLAN).config()  # runs made before players existed resume


def _tables_replaying(game_name: str, deals: np.ndarray, episodes: np.ndarray, actions: np.ndarray):
    """Fresh tables of learners dealt ``deals`` and scripted with ``actions`` (negative: none taken),
    stopped at the first decision past their script."""
    from sim.vecenv import Learner

    game = games.load(game_name)
    taken = actions >= 0
    length = np.where(taken.any(axis=1), actions.shape[1] - np.argmax(taken[:, ::-1], axis=1), 0)
    tables = game.tables([Learner()] * game.num_seats, deals, episodes, script=actions, script_length=length)
    tables.advance(np.arange(len(deals)))
    return tables


@pytest.mark.parametrize("game_name", ["straights", "euchre"])
def test_the_tables_true_records_replay_to_the_learners_positions(game_name: str) -> None:
    """``VecEnv.true_records`` is each table's true deal and every action taken there, hidden ones
    included: replayed on fresh tables they reach the very positions the learners are at, and the
    oracle bound to them labels each position with its lookahead in that true world."""
    from sim.vecenv import VecEnv

    heuristic = strategies.get(game_name, "heuristic")
    env = VecEnv(game_name, 16, opponents=[None, "heuristic", "heuristic", "heuristic"], seed=4)
    env.reset()
    for _ in range(16):  # far enough that some tables are in their second episode
        env.step(np.asarray(heuristic.choose(env.observations())))
        deals, episodes, actions = env.true_records()
        replayed = _tables_replaying(game_name, deals, episodes, actions).encoded(np.arange(16))
        for mine, theirs in zip(env.tables.encoded(np.arange(16)), replayed):
            np.testing.assert_array_equal(mine, theirs)
    assert (episodes >= 16).any() and (actions >= 0).sum(axis=1).min() > 0
    oracle = strategies.get(game_name, "oracle-mc")
    oracle.bind_records(deals, episodes, actions)
    labels = oracle.margins(env.observations())  # the oracle checks its Truth against what each seat saw
    mc = strategies.get(game_name, "mc:samples=8").margins(env.observations())
    assert np.isfinite(labels).all() and (labels != mc).any()


def test_an_oracle_labels_a_value_run_where_the_tables_keep_every_action(tmp_path: Path) -> None:
    curve = supervised.train(replace(VALUE_PLAN, labels="oracle-mc", updates=100), tmp_path / "oracle", progress=False)
    assert np.isfinite(curve[-1]["held_out_error"]) and curve[-1]["explained"] > 0
    _an_auxiliary_target_is_learned_beside_the_margins_and_not_written(tmp_path)
    with pytest.raises(asking.CannotLabel, match="keep every action"):
        supervised.train(Plan("gemstones", learn="value", labels="oracle-mc"), tmp_path / "gemstones", progress=False)
    with pytest.raises(strategies.StrategyError, match="cheats"):
        supervised.train(replace(VALUE_PLAN, labels="mc:rollout=oracle-mc"), tmp_path / "nested", progress=False)


def _an_auxiliary_target_is_learned_beside_the_margins_and_not_written(tmp_path: Path) -> None:
    """The oracle as an auxiliary target beside the episodes' margins: the positions carry the labels
    the oracle gave as the main target of the same positions (``tmp_path / "oracle"``), the network
    learns both outputs, and the file holds the first alone, in points, as the run's checkpoint
    computes it."""
    plan = replace(VALUE_PLAN, auxiliary="oracle-mc")
    curve = supervised.train(plan, tmp_path / "auxiliary", progress=False)
    heuristic = asking.Deciders(strategies.get("straights", "heuristic"))
    positions = collection.collect(plan, heuristic, tmp_path / "auxiliary" / "positions", False)
    labelled = collection.collect(plan, heuristic, tmp_path / "oracle" / "positions", False)  # the same deals and play
    np.testing.assert_array_equal(positions.auxiliary, labelled.labels)
    assert np.isnan(positions.labels).all() and np.isfinite(positions.auxiliary).all()
    assert curve[-1]["auxiliary_error"] < curve[0]["auxiliary_error"] and curve[-1]["explained"] > 0.3
    saved = checkpoint.load(tmp_path / "auxiliary" / checkpoint.LATEST, _template(outputs=2), plan.config())
    encoded = np.random.default_rng(0).random((64, games.load("straights").observation_size), dtype=np.float32)
    scale = supervised.task_of(plan, positions).scale
    expected = np.asarray(network.scores(saved.arrays[0], jnp.asarray(encoded)))[:, 0] * scale
    written = load_value("straights", str(tmp_path / "auxiliary" / plan.network_file))
    np.testing.assert_allclose(written.values(encoded), expected, rtol=1e-5, atol=1e-3)
    with pytest.raises(asking.CannotLabel, match="--auxiliary label a value run's positions"):
        supervised.train(replace(PLAN, auxiliary="oracle-mc"), tmp_path / "policy", progress=False)


def test_positions_stored_before_auxiliary_labels_are_read_without_them(value_run, tmp_path: Path) -> None:
    """A chunk written before chunks held auxiliary labels resumes as it was, its auxiliary labels NaN."""
    folder, _ = value_run
    heuristic = strategies.get("straights", "heuristic")
    now = collection.collect(VALUE_PLAN, asking.Deciders(heuristic), folder / "positions", False)
    (tmp_path / "positions").mkdir()
    for path in sorted((folder / "positions").iterdir()):
        with np.load(path) as archive:
            older = {name: archive[name] for name in archive.files if name != "auxiliary"}
        np.savez_compressed(tmp_path / "positions" / path.name, **older)
    before = collection.collect(VALUE_PLAN, asking.Deciders(_refusing_teacher()), tmp_path / "positions", False)
    for name in ("encoded", "masks", "actions", "margins", "scored", "labels", "auxiliary"):
        np.testing.assert_array_equal(getattr(before, name), getattr(now, name), err_msg=name)


def _refusing_teacher():
    """A teacher that fails if asked: the positions must all be read back, none collected again."""

    class Refusing:
        def choose(self, observation):
            raise AssertionError("a stored chunk was collected again")

    return Refusing()
