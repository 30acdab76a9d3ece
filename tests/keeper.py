"""A strategy for engine tests that keeps what it is shown."""

import strategies


class Keeper:
    """The game's ``simple``, keeping every observation it is shown with a copy of its arrays taken then."""

    name = "keeper"

    def __init__(self, game):
        self.simple = strategies.get(game, "simple")
        self.kept = []

    def choose(self, observation):
        self.kept.append((observation, {name: values.copy() for name, values in observation.arrays().items()}))
        return self.simple.choose(observation)
