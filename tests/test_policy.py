"""``policy:path=FILE``: a saved policy seated like any strategy, the same on both engines, and a bad
file refused in one line."""

import hashlib
import importlib
import io
import zipfile
from pathlib import Path

import numpy as np
import pytest
from numpy.lib import format as npy

import strategies
from sim import games, tournament
from sim.crosscheck import crosscheck
from strategies import policy
from strategies.policy import load_value, save_network


def random_policy(game_name: str, path, hidden: int | None = 16, seed: int = 0):
    """A small random network for ``game_name`` saved at ``path`` (one hidden layer, or linear)."""
    game = games.load(game_name)
    rng = np.random.default_rng(seed)
    widths = [game.observation_size] + ([hidden] if hidden else []) + [game.num_actions]
    weights = [rng.normal(size=(a, b)) for a, b in zip(widths, widths[1:])]
    biases = [rng.normal(size=b) for b in widths[1:]]
    save_network(path, game_name, weights, biases)
    return weights, biases


@pytest.mark.parametrize("game_name", games.names())
def test_a_saved_policy_plays_alike_on_both_engines(tmp_path, game_name):
    path = tmp_path / "policy.npz"
    random_policy(game_name, path)
    game = games.load(game_name)
    spec = f"policy:path={path}"
    lineup = [spec if seat % 2 == 0 else game.baseline for seat in range(game.num_seats)]
    report = crosscheck(game_name, rounds=60, seed=3, strategies=lineup)
    assert report.ok, report.format()


def test_the_policy_plays_the_best_scored_legal_action(tmp_path):
    path = tmp_path / "linear.npz"
    weights, biases = random_policy("straights", path, hidden=None)
    game = games.load("straights")
    state = game.new_state(game.deals(5, 0, 1)[0], 0)
    policy = strategies.get("straights", f"policy:path={path}")
    while not state.is_over:
        observation = state.observe()
        scores = game.encode(observation)[0] @ weights[0].astype(np.float32) + biases[0].astype(np.float32)
        legal = np.flatnonzero(observation.legal_mask[0])
        expected = legal[np.argmax(scores[legal])]
        chosen = int(policy.choose(observation)[0])
        assert chosen == expected
        state.apply(chosen)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "cannot read policy"),
        (lambda p: p.mkdir(), "it is a directory"),
        (lambda p: p.write_bytes(b"not a zip"), "is not a policy file"),
        (
            lambda p: np.savez(
                p, game=np.array("straights"), weight_0=np.array([object()], dtype=object), bias_0=np.zeros(1)
            ),
            "is not a policy file",
        ),
        (lambda p: random_policy("euchre", p), "is a policy for euchre, not straights"),
        (lambda p: save_network(p, "straights", [np.zeros((3, 4))], [np.zeros(4)]), "does not fit straights"),
        (
            lambda p: save_network(
                p,
                "straights",
                [np.full((games.load("straights").observation_size, games.load("straights").num_actions), np.nan)],
                [np.zeros(games.load("straights").num_actions)],
            ),
            "not finite",
        ),
    ],
)
def test_a_bad_policy_file_is_refused_in_one_line(tmp_path, make, message):
    path = tmp_path / "bad.npz"
    make(path)
    with pytest.raises(strategies.StrategyError, match=message) as refused:
        strategies.get("straights", f"policy:path={path}")
    assert "\n" not in str(refused.value)
    with pytest.raises(strategies.StrategyError, match=r"policy needs path=\.\.\. \(for example policy:path=\.\.\.\)"):
        strategies.get("straights", "policy")


STRAIGHTS = games.load("straights")
INPUTS, ACTIONS = STRAIGHTS.observation_size, STRAIGHTS.num_actions


def npy_bytes(array) -> bytes:
    """``array`` as a .npy file."""
    buffer = io.BytesIO()
    npy.write_array(buffer, np.asarray(array), allow_pickle=False)
    return buffer.getvalue()


def claimed(shape, descr="<f4", data=b"") -> bytes:
    """A .npy header claiming ``shape`` of ``descr``, followed by only ``data``."""
    buffer = io.BytesIO()
    npy.write_array_header_1_0(buffer, {"descr": descr, "fortran_order": False, "shape": shape})
    return buffer.getvalue() + data


def archive(path, members: dict[str, bytes], compression=zipfile.ZIP_STORED) -> None:
    """A zip archive at ``path`` holding ``members`` (name -> bytes)."""
    with zipfile.ZipFile(path, "w", compression) as zipped:
        for name, data in members.items():
            zipped.writestr(name, data)


def straights_members(weight=None, bias=None, hidden: int | None = None) -> dict[str, bytes]:
    """A straights policy's members, one layer (or two through ``hidden`` units), with ``weight`` and
    ``bias`` standing in for the first layer's when given."""
    widths = [INPUTS] + ([hidden] if hidden else []) + [ACTIONS]
    members = {"game.npy": npy_bytes(np.array("straights"))}
    for layer, (rows, columns) in enumerate(zip(widths, widths[1:])):
        members[f"weight_{layer}.npy"] = npy_bytes(np.zeros((rows, columns), dtype=np.float32))
        members[f"bias_{layer}.npy"] = npy_bytes(np.zeros(columns, dtype=np.float32))
    if weight is not None:
        members["weight_0.npy"] = weight
    if bias is not None:
        members["bias_0.npy"] = bias
    return members


def saved_bytes(tmp_path) -> bytes:
    random_policy("straights", tmp_path / "good.npz")
    return (tmp_path / "good.npz").read_bytes()


def corrupted(data: bytes) -> bytes:
    """``data`` with one byte in the middle of the first layer's weights changed (a CRC error)."""
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :]


HOSTILE_ARCHIVES = {
    "truncated": (lambda p, good: p.write_bytes(good[: len(good) // 2]), "is not a policy file"),
    "crc error": (lambda p, good: p.write_bytes(corrupted(good)), "is not a policy file: Bad CRC-32"),
    "no central directory": (
        lambda p, good: p.write_bytes(good.replace(b"PK\x01\x02", b"XX\x01\x02")),
        "is not a policy file",
    ),
    "member not .npy": (
        lambda p, good: archive(p, straights_members() | {"notes.txt": b"hello"}),
        "member 'notes.txt' is not a .npy array",
    ),
    "144 TiB claimed": (
        lambda p, good: archive(
            p,
            {
                "game.npy": npy_bytes(np.array("straights")),
                "weight_0.npy": claimed((INPUTS, 10**11)),
                "bias_0.npy": claimed((10**11,)),
                "weight_1.npy": claimed((10**11, ACTIONS)),
                "bias_1.npy": claimed((ACTIONS,)),
            },
        ),
        "its arrays would take 173,600,000,000,244 bytes",
    ),
    "less data than claimed": (
        lambda p, good: archive(p, straights_members(claimed((INPUTS, ACTIONS), data=b"1" * 100))),
        "weight_0 holds 100 bytes of data where its header says 79,248",
    ),
    "not a .npy header": (
        lambda p, good: archive(p, straights_members(b"\x93NUMPY\x01\x00" + b"x" * 50)),
        "is not a policy file",
    ),
    "integers": (
        lambda p, good: archive(p, straights_members(npy_bytes(np.zeros((INPUTS, ACTIONS), dtype=np.int64)))),
        "weight_0 holds int64 values, not floating-point numbers",
    ),
    "1e300 in float64": (
        lambda p, good: archive(p, straights_members(npy_bytes(np.full((INPUTS, ACTIONS), 1e300)))),
        "so large that its scores could overflow",
    ),
    "float32 that add up past float32": (
        lambda p, good: archive(
            p,
            straights_members(
                npy_bytes(np.full((INPUTS, 8), 1e30, dtype=np.float32)),
                npy_bytes(np.zeros(8, dtype=np.float32)),
                hidden=8,
            ),
        ),
        "so large that its scores could overflow",
    ),
}


@pytest.mark.parametrize(("make", "message"), HOSTILE_ARCHIVES.values(), ids=list(HOSTILE_ARCHIVES))
def test_a_damaged_or_hostile_archive_is_refused_in_one_line_before_allocating(tmp_path, make, message):
    path = tmp_path / "bad.npz"
    make(path, saved_bytes(tmp_path))
    with pytest.raises(strategies.StrategyError, match=message) as refused:
        strategies.get("straights", f"policy:path={path}")
    assert "\n" not in str(refused.value)


def test_arrays_too_large_for_a_policy_are_refused_before_they_are_decompressed(tmp_path, monkeypatch):
    """A few kilobytes of compressed zeros would fill memory: the headers' sizes are checked first."""
    path = tmp_path / "bomb.npz"
    archive(path, straights_members(hidden=4000), zipfile.ZIP_DEFLATED)
    assert path.stat().st_size < 1 << 16
    monkeypatch.setattr(policy, "MAX_POLICY_BYTES", 1 << 20)
    with pytest.raises(strategies.StrategyError, match="would take 6,944,244 bytes, more than a policy's 1,048,576"):
        strategies.get("straights", f"policy:path={path}")


def test_policies_saved_otherwise_still_load(tmp_path):
    """float64 and Fortran-ordered arrays of sensible weights, and compressed archives, are policies."""
    path = tmp_path / "other.npz"
    rng = np.random.default_rng(4)
    weight = np.asfortranarray(rng.normal(size=(INPUTS, ACTIONS)))
    np.savez_compressed(path, game=np.array("straights"), weight_0=weight, bias_0=rng.normal(size=ACTIONS))
    loaded = policy.load_policy("straights", str(path))
    assert np.array_equal(loaded.weights[0], weight.astype(np.float32))


def test_a_spec_spelled_out_pins_the_policy_files_contents(tmp_path):
    path = tmp_path / "policy.npz"
    random_policy("straights", path, seed=1)
    first = strategies.resolved("straights", f"policy:path={path}")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert first == f"policy:path={path},sha256={digest}"
    assert strategies.resolved("straights", first) == first
    strategies.get("straights", first)  # the file it pinned

    random_policy("straights", path, seed=2)  # retrained, saved over the same path
    assert strategies.resolved("straights", f"policy:path={path}") != first
    with pytest.raises(strategies.StrategyError, match="has changed since sha256=") as refused:
        strategies.get("straights", first)
    assert "\n" not in str(refused.value)
    with pytest.raises(strategies.StrategyError, match="cannot read policy file") as unreadable:
        strategies.resolved("straights", f"policy:path={tmp_path}")
    assert "directory" in str(unreadable.value)


def test_a_retrained_policy_plays_another_tournament_run(tmp_path):
    path = tmp_path / "policy.npz"
    random_policy("straights", path, seed=1)
    players = (f"policy:path={path}", "first-legal", "first-legal", "first-legal")
    before = tournament.Plan(game="straights", players=players, rounds=10, seed=1).run_id
    random_policy("straights", path, seed=2)
    assert tournament.Plan(game="straights", players=players, rounds=10, seed=1).run_id != before


SHIPPED_LEAVES = {
    "straights": (
        ("heuristic",) * 3,
        (
            "mc:samples=4,leaves={path},leaf_turns=2",
            "search:samples=4,oversample=2,leaves={path}",
            "mc:samples=4,rollout=(policy:path={policy}),leaves={path},leaf_turns=2",
        ),
    ),
    "gemstones": (
        ("heuristic",),
        ("mc:samples=4,leaves={path},leaf_turns=2", "mc:samples=4,leaves={path},leaf_turns=8"),
    ),
    "euchre": (("heuristic",) * 3, ("mc:samples=4,leaves={path},leaf_turns=3",)),
    "ginrummy": (("heuristic",), ("mc:samples=4,leaves={path},leaf_turns=8",)),
}


@pytest.mark.parametrize("game_name", sorted(SHIPPED_LEAVES))
def test_a_shipped_value_is_a_value_its_lookaheads_read_as_leaves(game_name: str) -> None:
    """strategies/<game>/value.npz (make weights) loads as the game's value network, and the
    lookaheads that read it (``SHIPPED_LEAVES``) seat it: legal play on both engines alike. Where
    the game ships a policy (policy.npz) too, it loads as one and rolls out for them."""
    path = Path(strategies.__file__).parent / game_name / "value.npz"
    shipped_policy = path.with_name("policy.npz")
    value = load_value(game_name, str(path))
    assert value.weights[-1].shape[1] == 1
    if shipped_policy.exists():
        assert (
            policy.load_policy(game_name, str(shipped_policy)).weights[-1].shape[1] == games.load(game_name).num_actions
        )
    game = games.load(game_name)
    deals, rounds = game.deals(12, 0, 2), np.arange(2)
    others, lookaheads = SHIPPED_LEAVES[game_name]
    for spec in lookaheads:
        lookahead = strategies.get(game_name, spec.format(path=path, policy=shipped_policy))
        lineup = [lookahead] + [strategies.get(game_name, o) for o in others]
        played = [game.play_rounds[engine](deals, lineup, rounds).points for engine in ("reference", "fast")]
        np.testing.assert_array_equal(played[0], played[1])


@pytest.mark.parametrize(
    ("game_name", "spec", "settings", "deals"),
    [
        ("straights", "learned", "samples=128,leaf_turns=4", 3),
        ("gemstones", "learned:samples=4", "samples=4,leaf_turns=8", 1),  # a whole game: dozens of decisions
    ],
)
def test_learned_is_mc_with_the_shipped_networks(game_name: str, spec: str, settings: str, deals: int) -> None:
    """``learned`` plays as mc rolling out the shipped policy to the shipped value's leaves, on both
    engines alike; it names the networks by digest, so a spec spelled out holds no path, and a digest
    the shipped file does not have is refused."""
    learned = importlib.import_module(f"strategies.{game_name}.learned")
    spelled = f"mc:rollout=(policy:path={learned.POLICY}),leaves={learned.VALUE},{settings}"
    game = games.load(game_name)
    others = [strategies.get(game_name, "heuristic")] * (game.num_seats - 1)

    def points(spec: str, engine: str = "fast") -> np.ndarray:
        lineup = [strategies.get(game_name, spec), *others]
        return game.play_rounds[engine](game.deals(14, 0, deals), lineup, np.arange(deals)).points

    np.testing.assert_array_equal(points(spec), points(spelled))
    np.testing.assert_array_equal(points(spec, "reference"), points(spec))
    assert str(learned.POLICY.parent) not in strategies.resolved(game_name, "learned")
    with pytest.raises(strategies.StrategyError, match="sha256"):
        strategies.get(game_name, f"learned:value_sha256={'0' * 64}")


def test_straights_best_is_learned() -> None:
    assert strategies.info("straights", "best").name == "learned"
