"""Batched environments on the compiled engines: ``VecEnv(game, num_envs, opponents=..., seed=...)``
plays ``num_envs`` tables at once, the learners' seats taking an action array, every other seat played
inside the kernel (or, for a strategy written in numpy, asked a batch at a time, as tournaments ask it).

It follows Gymnasium's vector API with same-step autoreset (``metadata["autoreset_mode"]``):
``reset(seed=None)`` returns ``(obs, infos)`` and ``step(actions)`` returns ``(obs, rewards,
terminations, truncations, infos)``. ``obs`` is ``{"observation": float32 (N, observation_size),
"action_mask": int8 (N, num_actions)}``, a learner to move at every table, encoded as ``sim.envs``
encodes it (``Game.encode``). Conventions, as ``sim.envs`` has them where the two meet:

- **Episodes** are one round (hand). Episode ``k`` of seed ``s`` is deal ``k`` of ``s``, numbered round
  ``k``, as tournaments deal it: ``reset`` gives table ``i`` episode ``i``, and each table whose episode
  ends takes the next episode not yet dealt (tables ending in the same step in table order), so a run
  depends on the seed and the learners' actions alone. ``infos["episode"]`` is each table's episode.
- **Rewards** are zero until a table's episode ends; then ``rewards[i]`` is the reward (``reward=
  "points"`` or ``"win"``, ``sim.envs.round_rewards``) of the learner seat that moved last there, and
  ``infos["final_rewards"]`` (N, seats) every seat's (zeros for tables still playing). The table is
  dealt its next episode in the same step: ``obs`` is its first decision. Rounds never truncate.
- **Several learner seats:** ``infos["seat"]`` says whose turn each table is.
- **Bad actions** (not an (N,) array of whole numbers, out of range, or illegal at its table) raise
  ``ValueError`` naming the table before any table moves.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

import strategies as strategy_registry
from sim import games, lockstep
from sim.api import Strategy
from sim.envs import REWARDS, Opponents, checked_seed, observation_space, round_rewards, seat_specs

MAX_ENVS = 1 << 20  # tables at once: far more than a step's arrays want on this machine's memory


class Tables(Protocol):
    """A game's fast engine as batched environments drive it (``Game.tables``): rounds side by side,
    each played by the kernel until it ends or a seat played in Python is to move. Tables that keep
    every action taken also offer ``actions_taken(rows)`` (``VecEnv.true_records``)."""

    def restart(self, rows: np.ndarray, deals: np.ndarray, round_ids: np.ndarray) -> None:
        """Deal ``deals`` afresh to ``rows``."""

    def advance(self, rows: np.ndarray) -> np.ndarray:
        """Play ``rows`` on; returns those that paused for a seat played in Python (the others ended)."""

    def mover(self, rows: np.ndarray) -> np.ndarray:
        """The seat to move in each of ``rows``."""

    def observe(self, rows: np.ndarray) -> Any:
        """The movers' observations of ``rows`` (the game's observation record)."""

    def take(self, rows: np.ndarray, actions: np.ndarray) -> None:
        """The movers of ``rows`` take ``actions`` when the rows next advance."""

    def points(self, rows: np.ndarray) -> np.ndarray:
        """(n, seats) each seat's points in the finished ``rows``."""

    def scored(self, rows: np.ndarray) -> np.ndarray:
        """(n, seats) the points each seat has scored so far in ``rows`` still playing (zeros in a
        game that scores only at the end of a round)."""

    def encoded(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The movers' observations of ``rows`` as ``Game.encode`` encodes them, float32 (n, size), and
        their legal actions, int8 (n, num_actions)."""


class Learner:
    """The strategy of a learner's seat as the engine sees it: played in Python, never asked by it."""

    name = "learner"

    def choose(self, observation: Any) -> np.ndarray:
        raise AssertionError("a learner's seat is played by VecEnv.step, never asked")  # pragma: no cover


class VecEnv:
    """``num_envs`` tables of ``game`` played at once (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self, game: str, num_envs: int, *, opponents: Opponents = None, seed: int = 0, reward: str = "points"
    ) -> None:
        """``opponents``: each seat's strategy spec, None for a learner's seat, as ``sim.envs`` takes
        them; ``seed`` deals the episodes until ``reset`` names another."""
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs must be a whole number from 1 to {MAX_ENVS}")
        self.game = games.load(game)
        if self.game.tables is None:
            raise ValueError(f"{self.game.name} has no batched tables yet; sim.envs plays it on the reference engine")
        self.make_tables = self.game.tables
        self.num_envs, self.reward = int(num_envs), reward
        specs = seat_specs(self.game, opponents)
        self.strategies: list[Strategy] = [
            Learner() if spec is None else strategy_registry.get(self.game.name, spec) for spec in specs
        ]
        self.learner_seats = np.array([spec is None for spec in specs])
        self.opponents_in_python = [
            (strategy, seats)
            for strategy, seats in lockstep.Players(self.strategies).seats_of
            if not isinstance(strategy, Learner) and getattr(strategy, "compiled", None) is None
        ]
        self.single_observation_space = observation_space(self.game)
        self.single_action_space = spaces.Discrete(self.game.num_actions)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (self.num_envs, self.game.observation_size), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_envs, self.game.num_actions), np.int8),
            }
        )
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, self.game.num_actions))
        self.seed, self.next_episode = checked_seed(seed), 0
        self.tables: Tables | None = None
        self.episode = np.zeros(self.num_envs, dtype=np.int64)
        self.action_mask = np.zeros((self.num_envs, self.game.num_actions), dtype=np.int8)

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict[str, np.ndarray], dict]:
        """Deal episodes 0 .. N-1 of ``seed`` (else of the seed before) and play to each table's first
        learner decision; ``options`` are unused."""
        if seed is not None:
            self.seed = checked_seed(seed)
        every = np.arange(self.num_envs)
        self.tables = self.make_tables(self.strategies, self._deals(every), every)
        self.episode[:] = every
        self.next_episode = self.num_envs
        rewards = np.zeros((self.num_envs, self.game.num_seats), dtype=np.float32)
        ended = self._play_to_learners(every, rewards)
        while ended.size:  # a round no learner moves in (possible in some games): deal on
            ended = self._deal_next(ended, rewards)
        return self._observe(), self._infos(np.zeros((self.num_envs, self.game.num_seats), dtype=np.float32))

    def step(
        self, actions: np.ndarray
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """Every table's learner takes its action of ``actions`` (N,); the other seats play until a
        learner is to move again, a table whose episode ended being dealt its next."""
        if self.tables is None:
            raise RuntimeError("call reset() before step()")
        chosen = self._checked(actions)
        acted = self.tables.mover(np.arange(self.num_envs))
        every = np.arange(self.num_envs)
        self.tables.take(every, chosen)
        final = np.zeros((self.num_envs, self.game.num_seats), dtype=np.float32)
        ended = self._play_to_learners(every, final)
        terminations = np.zeros(self.num_envs, dtype=bool)
        terminations[ended] = True
        while ended.size:
            ended = self._deal_next(ended, final)
        rewards = final[every, acted]
        truncations = np.zeros(self.num_envs, dtype=bool)
        return self._observe(), rewards, terminations, truncations, self._infos(final)

    def observations(self, rows: np.ndarray | None = None) -> Any:
        """The learners' observations at the tables ``rows`` (None: every table) as strategies see
        them (the game's observation record, a batch): what a teacher strategy is asked, to label the
        learners' decisions."""
        if self.tables is None:
            raise RuntimeError("call reset() before observations()")
        return self.tables.observe(np.arange(self.num_envs) if rows is None else rows)

    def true_records(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every table's episode as it truly stands, hidden cards included: its deal, its episode
        number (N,) and the action taken at each of its steps (N, steps), negative where none was
        (yet), as the game's ``Tables.actions_taken`` numbers steps. What an oracle labelling a
        learner's positions is bound to (``cardsim train --labels oracle-mc``); ``ValueError`` for a
        game whose tables keep no such record."""
        if self.tables is None:
            raise RuntimeError("call reset() before true_records()")
        actions_taken = getattr(self.tables, "actions_taken", None)
        if actions_taken is None:
            raise ValueError(f"{self.game.name}'s tables keep no record of the actions taken")
        return self._deals(self.episode), self.episode.copy(), actions_taken(np.arange(self.num_envs))

    def scored(self) -> np.ndarray:
        """(N, seats) float32 what each seat has scored so far in every table's episode, as rewards
        count it (``reward="points"``: negated where fewer points win); zeros in a game that scores
        only at the end of a round."""
        if self.tables is None:
            raise RuntimeError("call reset() before scored()")
        return round_rewards(self.tables.scored(np.arange(self.num_envs)), self.game.lower_is_better, "points")

    def close(self) -> None:
        """Nothing to release: the tables are arrays."""

    def _deals(self, episodes: np.ndarray) -> np.ndarray:
        return self.game.deals_at(self.seed, episodes)

    def _checked(self, actions: Any) -> np.ndarray:
        """``actions`` as (N,) int64, each legal at its table; else ``ValueError`` naming the first bad table."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            shown = f"{chosen.dtype} of shape {chosen.shape}"
            raise ValueError(f"actions must be {self.num_envs} whole numbers, one a table, not {shown}")
        chosen = chosen.astype(np.int64)
        outside = (chosen < 0) | (chosen >= self.game.num_actions)
        if outside.any():
            table = int(np.argmax(outside))
            raise ValueError(f"table {table}: action {chosen[table]} is not an action (0..{self.game.num_actions - 1})")
        illegal = self.action_mask[np.arange(self.num_envs), chosen] == 0
        if illegal.any():
            table = int(np.argmax(illegal))
            legal = ", ".join(self.game.action_name(int(a)) for a in np.flatnonzero(self.action_mask[table]))
            action = self.game.action_name(int(chosen[table]))
            raise ValueError(f"table {table}: action {chosen[table]} ({action}) is not legal there (legal: {legal})")
        return chosen

    def _play_to_learners(self, rows: np.ndarray, final: np.ndarray) -> np.ndarray:
        """Play ``rows`` until a learner is to move at each or its episode ends, asking the opponents
        played in Python; returns the rows that ended, with every seat's reward in ``final``."""
        assert self.tables is not None
        tables = self.tables
        ended = []
        while rows.size:
            paused = tables.advance(rows)
            ended.append(np.setdiff1d(rows, paused, assume_unique=True))
            mover = tables.mover(paused)
            opponents = ~self.learner_seats[mover]
            rows, mover = paused[opponents], mover[opponents]
            for strategy, seats in self.opponents_in_python:
                mine = rows[seats[mover]]
                if mine.size:
                    observation = tables.observe(mine)
                    legal = np.asarray(observation.legal_mask)
                    tables.take(mine, lockstep.choose_checked(strategy, observation, legal, None, tables.mover(mine)))
        finished = np.concatenate(ended)
        if finished.size:
            final[finished] = round_rewards(tables.points(finished), self.game.lower_is_better, self.reward)
        return finished

    def _deal_next(self, rows: np.ndarray, final: np.ndarray) -> np.ndarray:
        """Deal the next episodes to ``rows`` (in table order) and play to their learners' first
        decisions; returns the rows whose new episode ended with no learner moving (``final`` keeps
        the rewards of the episodes that ended first)."""
        assert self.tables is not None
        rows = np.sort(rows)
        episodes = self.next_episode + np.arange(len(rows))
        self.next_episode += len(rows)
        self.episode[rows] = episodes
        self.tables.restart(rows, self._deals(episodes), episodes)
        return self._play_to_learners(rows, np.zeros_like(final))

    def _observe(self) -> dict[str, np.ndarray]:
        assert self.tables is not None
        encoded, self.action_mask = self.tables.encoded(np.arange(self.num_envs))
        return {"observation": encoded, "action_mask": self.action_mask.copy()}

    def _infos(self, final: np.ndarray) -> dict[str, np.ndarray]:
        assert self.tables is not None
        seat = self.tables.mover(np.arange(self.num_envs)).astype(np.int64)  # every game's the same type
        return {"seat": seat, "episode": self.episode.copy(), "final_rewards": final}
