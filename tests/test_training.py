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
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

import strategies
from sim import games
from sim.training import checkpoint, imitation, network
from strategies.policy import load_policy

PLAN = imitation.Plan(
    "straights", positions=15000, envs=100, hidden=(32,), batch=128, updates=120, evaluate_every=40, held_out_rounds=200
)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    folder = tmp_path_factory.mktemp("run")
    return folder, imitation.train(PLAN, folder, progress=False)


def test_a_tiny_run_learns_and_writes_a_policy_the_registry_seats(finished: tuple[Path, list[dict]]) -> None:
    folder, curve = finished
    assert [row["update"] for row in curve] == [40, 80, 120]
    assert curve[-1]["held_out_loss"] < curve[0]["held_out_loss"]
    assert curve[-1]["agreement"] > 0.5  # the heuristic's choices, learned well beyond chance
    for name in (imitation.POLICY_FILE, imitation.CURVE_CSV, imitation.CURVE_PNG, checkpoint.LATEST):
        assert (folder / name).is_file()
    game = games.load("straights")
    seats = [strategies.get("straights", f"policy:path={folder / imitation.POLICY_FILE}")]
    seats += [strategies.get("straights", "heuristic")] * 3
    played = game.play_rounds["fast"](game.deals(3, 0, 50), seats, np.arange(50))
    assert played.points.shape == (50, 4) and played.points.sum(axis=1).min() > 0


def test_exported_weights_score_as_the_network_does(finished: tuple[Path, list[dict]]) -> None:
    folder, _ = finished
    saved = checkpoint.load(folder / checkpoint.LATEST, _template(), PLAN.config())
    params = saved.arrays[0]
    exported = load_policy("straights", str(folder / imitation.POLICY_FILE))
    encoded = np.random.default_rng(0).random((64, games.load("straights").observation_size), dtype=np.float32)
    expected = np.asarray(network.scores(params, jnp.asarray(encoded)))
    np.testing.assert_allclose(exported.scores(encoded), expected, rtol=1e-5, atol=1e-5)


def test_an_interrupted_run_resumes_to_the_same_curve(
    finished: tuple[Path, list[dict]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, expected = finished
    chunks, measurements = [0], [0]
    real_positions, real_keep = imitation._positions, imitation.keep

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

    monkeypatch.setattr(imitation, "_positions", positions_then_stop)
    with pytest.raises(KeyboardInterrupt):
        imitation.train(PLAN, tmp_path, progress=False)
    monkeypatch.setattr(imitation, "_positions", real_positions)
    monkeypatch.setattr(imitation, "keep", keep_then_stop)
    with pytest.raises(KeyboardInterrupt):
        imitation.train(PLAN, tmp_path, progress=False)
    monkeypatch.setattr(imitation, "keep", real_keep)
    assert imitation.train(PLAN, tmp_path, progress=False) == expected


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
    curve = imitation.train(PLAN, tmp_path, progress=False, warn=said.append)
    assert len(said) == 1 and str(tmp_path / checkpoint.LATEST) in said[0] and "\n" not in said[0]
    assert curve == expected  # the one before held 80 updates; the last 40 are made again, the same


def test_another_plans_folder_is_refused(finished: tuple[Path, list[dict]]) -> None:
    folder, _ = finished
    with pytest.raises(imitation.OtherPlan, match="another plan"):
        imitation.train(replace(PLAN, teacher="first-legal"), folder, progress=False)


def test_cardsim_train_says_bad_input_in_one_line(tmp_path: Path) -> None:
    """One line each (after argparse's usage, for a bad argument), status 2, nothing trained."""
    (tmp_path / "plan.json").write_text(json.dumps({"game": "straights"}))
    for arguments, said in [
        (["--hidden", "3,,4"], "invalid width"),
        (["--teacher", "nope"], "unknown straights strategy 'nope'"),
        (["--positions", "9" * 5000], "invalid number"),
        (["--out", str(tmp_path)], "holds a run of another plan"),
    ]:
        run = subprocess.run(
            [sys.executable, "-m", "sim.cli", "train", *arguments], capture_output=True, text=True, timeout=120
        )
        assert run.returncode == 2, run.stderr
        lines = [line for line in run.stderr.splitlines() if not line.startswith(("usage:", " "))]
        assert run.stdout == "" and len(lines) == 1 and said in lines[0] and "Traceback" not in run.stderr, run.stderr


def _template():
    import optax

    params = network.initial(__import__("jax").random.PRNGKey(0), [games.load("straights").observation_size, 32, 52])
    return params, optax.adam(PLAN.learning_rate).init(params)
