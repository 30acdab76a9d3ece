"""A strategy that misbehaves fails in one line naming it and the decision, on both engines of every
game: raising, returning floats (even whole ones), bools or the wrong shape, or choosing an action
out of range or not legal. Built-in settings that would make a strategy misbehave are refused."""

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import strategies
from sim import cli, games
from sim.api import StrategyFault
from sim.play import choose_one

GAMES = games.names()
ENGINES = ("reference", "fast")
FAULTS = ("raises", "float", "bool", "shape", "out-of-range", "illegal")
FIRST_ROUND = 5  # the round id of the first deal played: faults name it


class Misbehaving:
    """Chooses each row's first legal action, spoilt as ``fault`` says."""

    def __init__(self, fault: str) -> None:
        self.fault = fault

    def choose(self, observation) -> np.ndarray:
        legal = observation.legal_mask
        first = legal.argmax(axis=1)
        spoilt = {
            "float": lambda: first.astype(np.float64),  # legal, but not an action
            "bool": lambda: np.ones(len(first), dtype=bool),
            "shape": lambda: first[:, None],
            "out-of-range": lambda: first + legal.shape[1],
            "illegal": lambda: (~legal).argmax(axis=1),
        }
        if self.fault == "raises":
            raise RuntimeError("the bot broke\nwith a second line")
        return spoilt[self.fault]()


class LateFault:
    """Legal play until its ``decision``-th decision of round ``round_id``, which is out of range."""

    def __init__(self, round_id: int, decision: int) -> None:
        self.round_id, self.decision = round_id, decision
        self.asked: Counter[int] = Counter()

    def choose(self, observation) -> np.ndarray:
        actions = observation.legal_mask.argmax(axis=1)
        for row, round_id in enumerate(observation.round_id.tolist()):
            self.asked[round_id] += 1
            if round_id == self.round_id and self.asked[round_id] == self.decision:
                actions[row] = -1
        return actions


def _fault(game: str, engine: str, strategy: object, rounds: int = 3) -> StrategyFault:
    """The fault of ``strategy`` in every seat playing ``rounds`` deals of ``game`` on ``engine``."""
    record = games.load(game)
    ids = np.arange(FIRST_ROUND, FIRST_ROUND + rounds)
    with pytest.raises(StrategyFault) as caught:
        record.play_rounds[engine](record.deals(0, 0, rounds), [strategy] * record.num_seats, ids)
    return caught.value


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("game", GAMES)
def test_a_misbehaving_strategy_fails_in_one_line_naming_it_and_the_decision(game, engine, fault):
    strategies.register(game, f"bad-{fault}")(Misbehaving)
    strategy = strategies.get(game, f"bad-{fault}:fault={fault}")

    message = str(_fault(game, engine, strategy))

    assert "\n" not in message
    assert message.startswith(f"strategy 'bad-{fault}:fault={fault}' ")
    assert f"(round {FIRST_ROUND}, step 0, seat " in message


@pytest.mark.parametrize("game", GAMES)
def test_both_engines_name_the_same_decision(game):
    # Round 6's ninth decision: the fast engine meets it amid a batch, the reference one by one.
    reference, fast = (str(_fault(game, engine, LateFault(FIRST_ROUND + 1, 9))) for engine in ENGINES)

    assert reference == fast
    assert "chose action -1, which is not an action of this game" in fast
    assert f"(round {FIRST_ROUND + 1}, step 8, seat " in fast


def test_choose_one_names_the_seat_and_lets_an_interrupt_through():
    record = games.load("straights")
    state = record.new_state(record.deals(0, 0, 1)[0], 3)

    with pytest.raises(StrategyFault, match=r"^strategy 'Misbehaving' returned .* \(round 3, step 2, seat \d\)$"):
        choose_one(Misbehaving("float"), state, step=2)

    class Interrupted:
        def choose(self, observation) -> np.ndarray:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        choose_one(Interrupted(), state)


BOT = """
import numpy as np
from strategies import register


@register("straights", "floaty")
class Floaty:
    def choose(self, observation):
        return observation.legal_mask.argmax(axis=1) * 1.0
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_an_imported_bot_that_misbehaves_ends_a_tournament_in_one_line(tmp_path: Path, capsys, engine):
    bot = tmp_path / f"floaty_{engine}.py"
    bot.write_text(BOT)
    argv = ["tournament", "--game", "straights", "--import", str(bot), "--players", "floaty" + ",heuristic" * 3]
    argv += ["--rounds", "8", "--engine", engine, "--quiet", "--out", str(tmp_path / "run")]

    status = cli.main(argv)

    error = capsys.readouterr().err
    assert status != 0
    assert error.count("\n") == 1
    assert error.startswith("cardsim tournament: strategy 'floaty' returned ")
    assert re.search(r"\(round \d+, step \d+, seat \d\)$", error)


def test_crosscheck_seats_one_strategy_in_every_seat(capsys):
    status = cli.main(["crosscheck", "--strategies", "heuristic", "--rounds", "3", "--quiet"])

    assert status == 0
    assert "heuristic / heuristic / heuristic / heuristic" in capsys.readouterr().out


def test_crosscheck_refuses_a_seat_count_the_game_has_not(capsys):
    status = cli.main(["crosscheck", "--strategies", "heuristic,heuristic", "--rounds", "3", "--quiet"])

    assert status == 2
    assert "one spec per seat (4) or one for every seat, not 2" in capsys.readouterr().err


@pytest.mark.parametrize(
    "game, setting",
    [("straights", name) for name in ("own_open", "reach", "gift")]
    + [("ginrummy", name) for name in ("out_weight", "feed_cost", "near_cost", "safe_bonus")],
)
@pytest.mark.parametrize("value", ["1e308", "-1e308"])
def test_heuristic_weights_that_overflow_its_scores_are_refused(game, setting, value):
    # Scores overflowed to infinities made the heuristic choose cards that are not legal.
    with pytest.raises(strategies.StrategyError, match=f"{setting} of heuristic: .* out of range"):
        strategies.get(game, f"heuristic:{setting}={value}")
