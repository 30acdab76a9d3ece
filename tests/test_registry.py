"""The strategy registry: every setting is checked (type and declared range) when a spec is read."""

import pytest

import strategies
from sim import games

ALL = [(game, info) for game in games.names() for info in strategies.available(game)]


@pytest.mark.parametrize("game, info", ALL, ids=[f"{game}-{info.name}" for game, info in ALL])
def test_defaults_lie_within_the_declared_limits(game, info):
    for key, limit in info.limits.items():
        default = info.parameters[key]
        if isinstance(limit, strategies.Between):
            assert limit.low <= default <= limit.high, key
        else:
            assert default in limit.choices, key


@pytest.mark.parametrize("game, info", ALL, ids=[f"{game}-{info.name}" for game, info in ALL])
def test_values_outside_the_limits_are_refused_when_the_spec_is_read(game, info):
    for key, limit in info.limits.items():
        if isinstance(limit, strategies.Between):
            below = limit.low - 1 if isinstance(info.parameters[key], int) else limit.low - 0.5
            bad_values = [str(below), str(limit.high + 1), "9" * 5000]
        else:
            bad_values = ["not-a-choice"]
        for value in bad_values:
            with pytest.raises(strategies.StrategyError, match=f"bad value for {key} of {info.name}") as caught:
                strategies.get(game, f"{info.name}:{key}={value}")
            assert len(str(caught.value)) < 200  # a hostile value is shortened in the message


@pytest.mark.parametrize(
    "spec, message",
    [
        ("random:seed=-1", "'-1' is out of range: it must be from 0 to"),
        ("random:seed=1.5", "'1.5' is not a whole number"),
        ("random:seed=", "'' is not a whole number"),
        ("random:speed=1", "random has no setting 'speed'"),
        ("random:seed", "expected key=value"),
        ("mc:rollout=(heuristic", r"unmatched '\(' in 'mc:rollout=\(heuristic'"),
        ("mc:rollout=heuristic),samples=4", r"unmatched '\)'"),
        ("mc:rollout=(" * 400 + "heuristic" + ")" * 400, "nests more than 16 strategy specs"),
        ("mc:rollout=" * 3000 + "heuristic", "nests more than 16 strategy specs"),
    ],
)
def test_bad_settings_say_what_is_wrong(spec, message):
    with pytest.raises(strategies.StrategyError, match=message):
        strategies.get("gemstones", spec)


def test_a_setting_that_is_a_spec_with_settings_goes_in_parentheses():
    """Commas inside parentheses belong to the nested spec, and the parentheses come off its value."""
    spec = "mc:team_rollout=(heuristic:threshold=6,ace_stands=true),samples=4"
    nested = "heuristic:threshold=6,ace_stands=true"
    assert strategies.parse_spec(spec) == ("mc", {"team_rollout": nested, "samples": "4"})
    lookahead = strategies.get("euchre", spec)
    assert (lookahead.team_policy.threshold, lookahead.team_policy.ace_stands) == (6.0, True)
    assert lookahead.worlds_per_decision == 4 and lookahead.policy.threshold != 6.0
    # Without them the nested spec's second setting would be mc's own, which it does not have.
    with pytest.raises(strategies.StrategyError, match="mc has no setting 'ace_stands'"):
        strategies.get("euchre", "mc:team_rollout=heuristic:threshold=6,ace_stands=true")


def test_number_settings_refuse_values_that_are_not_finite():
    for value in ("nan", "inf", "-inf", "1e999"):
        with pytest.raises(strategies.StrategyError, match="not a finite number"):
            strategies.get("straights", f"heuristic:gift={value}")
    assert strategies.get("straights", "heuristic:gift=2.5").gift == 2.5


class _Player:
    """A stand-in strategy (registered, never asked to play): always the first legal action."""

    def choose(self, observation):
        return observation.legal_mask.argmax(axis=1)


def test_a_name_registered_twice_is_refused_and_the_first_kept():
    existing = strategies.info("straights", "heuristic").factory
    with pytest.raises(strategies.StrategyError, match="'heuristic' is registered twice: by strategies.straights"):
        strategies.register("straights", "heuristic")(_Player)
    assert strategies.info("straights", "heuristic").factory is existing


def test_an_alias_cannot_take_a_strategy_name_nor_a_taken_alias():
    with pytest.raises(strategies.StrategyError, match="'first-legal' is taken by strategies.straights"):
        strategies.register_alias("straights", "first-legal", "heuristic")
    target = strategies.aliases("straights")["best"]
    other = next(info.name for info in strategies.available("straights") if info.name != target)
    with pytest.raises(strategies.StrategyError, match=f"'best' is taken by an alias of {target}"):
        strategies.register_alias("straights", "best", other)
    with pytest.raises(strategies.StrategyError, match="registered twice"):
        strategies.register("straights", "best")(_Player)


def test_a_plugin_registering_a_taken_name_fails_in_one_line(tmp_path, monkeypatch):
    plugin = tmp_path / "clashing_plugin.py"
    plugin.write_text(
        "import strategies\n\n@strategies.register('euchre', 'simple')\nclass Clash:\n"
        "    def choose(self, observation):\n        return None\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))

    class EntryPoint:
        def load(self):
            return __import__("clashing_plugin")

    monkeypatch.setattr(strategies, "_plugins_loaded", False)
    monkeypatch.setattr(strategies, "entry_points", lambda group: [EntryPoint()])
    with pytest.raises(strategies.StrategyError, match="'simple' is registered twice: .* and by clashing_plugin.Clash"):
        strategies.available("euchre")


def test_a_resolved_spec_spells_out_every_setting_and_nested_spec():
    # Defaults are read from the registry, so retuning a strategy does not break this test.
    gin_heuristic = strategies.info("ginrummy", "heuristic").parameters
    spelled = ",".join(f"{key}={value}" for key, value in {**gin_heuristic, "take_gain": 3}.items())
    assert strategies.resolved("ginrummy", "heuristic:take_gain=3") == f"heuristic:{spelled}"
    mc = strategies.resolved("ginrummy", "mc:throws=3,samples=7,rollout=(heuristic:take_gain=3)")
    assert mc.startswith(f"mc:samples=7,rollout=(heuristic:{spelled}),") and ",throws=3," in mc
    euchre = strategies.resolved("euchre", "heuristic:ace_stands=yes,threshold=7")
    assert euchre == "heuristic:threshold=7.0,ace_stands=true"  # in the signature's order, typed
    assert strategies.resolved("gemstones", "mc:rollout=greedy,samples=5").startswith("mc:samples=5,rollout=greedy,")
    assert strategies.resolved("straights", "first-legal") == "first-legal"


def test_specs_of_the_same_player_resolve_alike_and_the_resolved_spec_builds_it():
    target = strategies.aliases("euchre")["best"]
    assert strategies.resolved("euchre", "best") == strategies.resolved("euchre", target)
    samples = strategies.info("ginrummy", "mc").parameters["samples"]
    assert strategies.resolved("ginrummy", "mc") == strategies.resolved("ginrummy", f"mc:samples={samples}")
    bolder = strategies.resolved("ginrummy", "mc:rollout=(heuristic:take_gain=2)")
    assert strategies.resolved("ginrummy", "mc") != bolder
    for game in games.names():
        for info in strategies.available(game):
            if info.required:
                continue  # a learned policy needs its file
            spelled = strategies.resolved(game, info.name)
            assert strategies.resolved(game, spelled) == spelled, spelled


@pytest.mark.parametrize("game", ["straights", "euchre", "ginrummy", "gemstones"])
@pytest.mark.parametrize("spec", ["oracle-mc", "mc:rollout=oracle-mc", "mc:rollout=(mc:samples=2,rollout=oracle-mc)"])
def test_a_cheating_strategy_is_refused_at_any_depth_of_a_spec(game, spec):
    with pytest.raises(strategies.StrategyError) as refused:
        strategies.get_fair(game, spec, "tournaments")
    message = str(refused.value)
    assert "\n" not in message and "cheats (it sees hidden cards), so tournaments do not seat it" in message
    assert ("seats oracle-mc, which cheats" in message) == (spec != "oracle-mc")


def test_the_spec_tree_lists_every_strategy_a_spec_builds_outermost_first():
    tree = strategies.spec_tree("straights", "mc:samples=3,rollout=(mc:samples=2,rollout=first-legal)")
    assert [(node.registration.name, node.depth) for node in tree] == [("mc", 0), ("mc", 1), ("first-legal", 2)]
    assert [node.settings["samples"] for node in tree[:2]] == [3, 2]
