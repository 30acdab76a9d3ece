"""PettingZoo environments over every registered game: learning agents play cardsim's reference engines.

``env(game)`` is an AEC environment (PettingZoo's agent-environment cycle) built from the game's
``Game`` record alone, so a game registered tomorrow has one too. Agents are ``player_0`` ..
``player_{n-1}``, one per seat; with ``opponents`` some seats are played by registered strategies
inside the environment and only the learners' seats are agents. docs/environments.md has the
conventions; in short:

- **Episodes.** One round (hand) of the game, or with ``whole_game=True`` a whole game. ``reset(seed=s)``
  deals deal 0 of seed ``s`` (``game.deals(s, 0, 1)``), numbered round 0, as a tournament of seed ``s``
  deals its first deal; each later ``reset()`` without a seed deals the next one (deal 1, 2, ... of the
  same seed; whole games 1, 2, ..., dealt by ``games.game_deal_source``). Before any seed: seed 0.
- **Observations.** ``{"observation": game.encode(...) (float32), "action_mask": int8 over the actions}``.
  The agent to move sees its current observation and its legal actions. An engine state observes for
  the seat to move only, so another agent sees the encoding of the last observation it had as mover
  (zeros before its first move) and an all-zero mask, as PettingZoo's classic games give an agent that
  is not to move.
- **Rewards.** Zero until the episode ends; then ``reward="points"`` (the default) gives each seat its
  points (``State.points()``: a round's, or a whole game's final scores), negated where fewer points
  win, so more is always better; ``reward="win"`` gives +1 to each winner and -1 to the others (0 to all
  when every seat shares the win): a whole game's ``winning_seats()``, or a round's seats with the best
  points.
- **Illegal actions** end the episode for everyone with ``illegal_reward`` (-1) for the offender and 0
  for the others: PettingZoo's ``TerminateIllegalWrapper``, as its classic games do. ``raw_env`` (no
  wrappers) lets the engine's ``IllegalAction`` through.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import strategies as strategy_registry
from sim import games
from sim.api import GameState, Strategy, legal_mask_of
from sim.dealing import MAX_SEED
from sim.games import Game
from sim.play import choose_one, reference_state

REWARDS = ("points", "win")
RENDER_MODES = ("ansi", "human")
# Each seat's strategy spec or None for a learner: seat → spec, or one entry per seat.
Opponents = Mapping[int, str] | Sequence[str | None] | None


def env(game: str, *, illegal_reward: float = -1.0, **options: Any) -> AECEnv:
    """The environment of ``game`` (a registered name) with PettingZoo's classic wrappers: an illegal
    action ends the episode with ``illegal_reward`` for the offender, actions out of range fail, and
    the calls must come in order. ``options`` are ``raw_env``'s: ``whole_game``, ``opponents``,
    ``reward``, ``render_mode``."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(game, **options), illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def agent_name(seat: int) -> str:
    """The agent of ``seat``."""
    return f"player_{seat}"


def seat_specs(game: Game, opponents: Opponents) -> list[str | None]:
    """Each seat's strategy spec, None where a learner sits; ``ValueError`` for a seat the game does
    not have, a list of the wrong length, or no learner at all."""
    seats = game.num_seats
    if opponents is None:
        return [None] * seats
    if isinstance(opponents, Mapping):
        strange = sorted(set(opponents) - set(range(seats)))
        if strange:
            raise ValueError(f"opponents name seats {strange}; {game.name} has seats 0 to {seats - 1}")
        specs = [opponents.get(seat) for seat in range(seats)]
    else:
        specs = [None] * seats if isinstance(opponents, str) else list(opponents)
        if isinstance(opponents, str) or len(specs) != seats:
            raise ValueError(f"opponents lists one strategy (or None for a learner) per seat: {seats} for {game.name}")
    if None not in specs:
        raise ValueError("opponents fill every seat: leave at least one seat (None) for a learner")
    return specs


def checked_seed(seed: object) -> int:
    """``seed`` as a deal seed: ``TypeError`` unless it is a whole number (a bool is not one),
    ``ValueError`` unless it is from 0 to ``MAX_SEED``."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be a whole number from 0 to {MAX_SEED}, not a {type(seed).__name__}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be from 0 to {MAX_SEED}")
    return int(seed)


def round_rewards(points: np.ndarray, lower_is_better: bool, reward: str) -> np.ndarray:
    """(n, seats) float32: each seat's reward for n finished rounds of ``points`` (n, seats) (the
    module docstring's rewards): its points, negated where fewer win; or +1 for the seats with the
    best points and -1 for the others (0 for all when every seat has the best)."""
    signed = (-points if lower_is_better else points).astype(np.float32)
    if reward == "points":
        return signed
    return win_rewards(signed == signed.max(axis=1, keepdims=True))


def win_rewards(winners: np.ndarray) -> np.ndarray:
    """(n, seats) float32: +1 for each winner of ``winners`` (n, seats) bool and -1 for the others;
    0 for every seat of a row that every seat won."""
    rewards = np.where(winners, 1.0, -1.0).astype(np.float32)
    rewards[winners.all(axis=1)] = 0.0
    return rewards


def observation_space(game: Game) -> spaces.Dict:
    """An agent's observation space: the encoding (non-negative) and the mask over the actions."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, np.inf, (game.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
        }
    )


class raw_env(AECEnv):  # PettingZoo's name for the environment without its wrappers
    """One game's environment (see the module docstring), without wrappers.

    ``state`` is the reference engine's state being played (``sim.api``)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "cardsim", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        *,
        whole_game: bool = False,
        opponents: Opponents = None,
        reward: str = "points",
        render_mode: str | None = None,
    ) -> None:
        """``opponents``: the strategy spec (``strategies.get``) of each seat a strategy plays, as
        ``{seat: spec}`` or one entry per seat with None for a learner's seat; None: learners everywhere."""
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        self.game = games.load(game)
        self.whole_game, self.reward, self.render_mode = whole_game, reward, render_mode
        self.metadata = {**self.metadata, "name": f"cardsim_{self.game.name}"}
        specs = seat_specs(self.game, opponents)
        self.players: list[Strategy | None] = [
            None if spec is None else strategy_registry.get(self.game.name, spec) for spec in specs
        ]
        self.possible_agents = [agent_name(seat) for seat, spec in enumerate(specs) if spec is None]
        self.seats = {agent_name(seat): seat for seat in range(self.game.num_seats)}
        self.observation_spaces = {agent: observation_space(self.game) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.game.num_actions) for agent in self.possible_agents}
        self.transcript = importlib.import_module(self.game.transcript)
        self.names = self.transcript.seat_names([spec or agent_name(seat) for seat, spec in enumerate(specs)])
        # Render as the one learner saw it (other hands hidden); with several, every seat's cards.
        learners = [self.seats[agent] for agent in self.possible_agents]
        self.viewer = learners[0] if len(learners) == 1 else None
        self.deal_seed, self.next_index = 0, 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal the next deal (whole game): deal 0 of ``seed`` when one is given; ``options`` are unused.
        A seed that is not a whole number from 0 to ``MAX_SEED`` is refused before anything changes."""
        if seed is not None:
            self.deal_seed, self.next_index = checked_seed(seed), 0
        self.state = reference_state(self.game, self.deal_seed, self.next_index, self.whole_game)
        self.next_index += 1
        self.agents = list(self.possible_agents)
        self.agent_selection = self.agents[0]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self.seen = {agent: np.zeros(self.game.observation_size, dtype=np.float32) for agent in self.agents}
        self.told = self.transcript.dealt(self.state, self.names, self.viewer) if self.render_mode else []
        self._play_to_learner()
        self._accumulate_rewards()

    def step(self, action: int | None) -> None:
        """Take the agent to move's action, then the strategies' until a learner is to move or the
        episode ends (with the rewards); a finished agent steps with None, as PettingZoo has it."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: step() needs one of its legal actions, not None")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._apply(int(action))
        self._play_to_learner()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's encoded observation and its legal actions' mask (all zeros unless it is to move)."""
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask = legal_mask_of(self.state.legal_actions(), self.game.num_actions)[0].astype(np.int8)
        return {"observation": self.seen[agent].copy(), "action_mask": mask}

    def render(self) -> str | None:
        """What happened since the last render, in the words of the game's program (``Game.transcript``),
        then who is to move and its legal actions, or the points once the state is over. ``ansi`` returns
        the text, ``human`` prints it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode: env(game, render_mode='ansi' or 'human')")
            return None
        text = "\n".join([*self.told, self.status()])
        self.told = []
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no window or file."""

    def status(self) -> str:
        """Who is to move and its legal actions by name; or each seat's points once the state is over."""
        if self.state.is_over:
            points = ", ".join(f"{name} {value}" for name, value in zip(self.names, self.state.points()))
            return f"Over. Points: {points}"
        seat = self.state.current_player
        legal = ", ".join(self.game.action_name(action) for action in self.state.legal_actions())
        return f"{self.names[seat]} ({agent_name(seat)}) to move; legal actions: {legal}"

    def outcome(self) -> list[float]:
        """Each seat's reward for the finished state (the module docstring's rewards)."""
        points = np.array([self.state.points()], dtype=np.int64)
        if self.whole_game and self.reward == "win":
            winners = np.zeros_like(points, dtype=bool)
            winners[0, list(cast(GameState, self.state).winning_seats())] = True
            return win_rewards(winners)[0].tolist()
        return round_rewards(points, self.game.lower_is_better, self.reward)[0].tolist()

    def _apply(self, action: int) -> None:
        """Apply ``action`` to the state, keeping its transcript lines when rendering."""
        events = self.state.apply(action)
        if self.render_mode:
            self.told += self.transcript.told(self.state, events, self.names, self.viewer)

    def _play_to_learner(self) -> None:
        """Let the strategies move until a learner is to move, whose observation is then encoded; or,
        once the state is over, end the episode with the rewards."""
        while not self.state.is_over:
            player = self.players[self.state.current_player]
            if player is None:
                self.agent_selection = agent_name(self.state.current_player)
                self.seen[self.agent_selection] = self.game.encode(self.state.observe())[0]
                return
            self._apply(choose_one(player, self.state))
        outcome = self.outcome()
        self.rewards = {agent: outcome[self.seats[agent]] for agent in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)
