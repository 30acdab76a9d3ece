"""What a ``cardsim train`` run is: its plan, the settings that name the run and resume it."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

LEARNS = ("policy", "value")
NETWORK_FILES = {"policy": "policy.npz", "value": "value.npz"}


@dataclass(frozen=True)
class Plan:
    """What a run trains: the game, what it learns of whose play, against whom, on how much, and how."""

    game: str
    learn: str = "policy"
    teacher: str = "heuristic"
    opponents: str = "heuristic"
    positions: int = 400_000  # learner decisions to collect (rounded up to whole steps of every table)
    envs: int = 512
    hidden: tuple[int, ...] = (256, 256)
    batch: int = 512
    updates: int = 4000
    learning_rate: float = 1e-3
    evaluate_every: int = 500
    held_out_rounds: int = 2000
    explore: float = 0.0
    labels: str = ""
    seed: int = 0
    player: str = ""  # who moves the learner's seat (empty: the teacher)
    auxiliary: str = ""  # a value run's second labeller, fitted by a second output not written
    auxiliary_weight: float = 1.0  # the second output's share of the loss (each target at unit spread)

    def __post_init__(self) -> None:
        if self.learn not in LEARNS:
            raise ValueError(f"learn must be one of {', '.join(LEARNS)}, not {self.learn!r}")
        if not 0.0 <= self.explore <= 1.0:
            raise ValueError(f"explore must be a probability, from 0 to 1, not {self.explore}")

    def config(self) -> dict:
        """The plan as JSON values: what a checkpoint must have been made by to be resumed. ``player``
        and ``auxiliary`` only when set, as runs made before they existed record them."""
        settings = dataclasses.asdict(self)
        for later in ("player", "auxiliary"):
            if not settings[later]:
                del settings[later]
        if not self.auxiliary:
            del settings["auxiliary_weight"]
        return json.loads(json.dumps(settings))

    @property
    def steps(self) -> int:
        """Environment steps of collection: enough for ``positions`` learner decisions."""
        return -(-self.positions // self.envs)

    @property
    def network_file(self) -> str:
        return NETWORK_FILES[self.learn]

    def lineup(self, seats: int) -> list[str | None]:
        """The seats of its tables, as ``VecEnv`` takes them: the learner first, the opponents after."""
        return [None] + [self.opponents] * (seats - 1)
