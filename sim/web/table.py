"""A person's game at the web table: one whole game of the reference engine, the person in one seat
and a registered strategy in every other, with the log and pauses a person needs.

``Table`` knows no HTTP; ``sim.web.app`` serves it. Each call that moves the game returns *steps*,
one per action taken (the person's, then each bot's), each with the lines the game's program would
print for it and the table as the person sees it afterwards, so a page can show the bots' moves one
by one. At the end of every round (hand) but the last the table pauses until the person continues.
"""

from __future__ import annotations

import importlib
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import strategies
from sim.api import GameState, Strategy, TableView
from sim.games import Game
from sim.play import reference_state

CONTINUE = "continue"  # the one action that is not the game's: go on past a round's end
LOG_LINES = 200  # the log a page shows after a reload


class NotYourTurn(ValueError):
    """An action sent when the person has none to take (a bot's turn, a pause, the game over)."""


@dataclass(frozen=True)
class Step:
    """One action taken: the program's lines for it and the table as the person sees it after."""

    lines: list[str]
    snapshot: dict[str, Any]


class Table:
    """A whole game of ``game`` for a person in ``seat`` against ``opponent`` (a strategy spec) in
    the other seats, dealt as whole game 0 of ``seed`` is dealt in tournaments."""

    def __init__(self, game: Game, opponent: str, seed: int, seat: int = 0) -> None:
        """``StrategyError`` when ``opponent`` is not a fair strategy of the game."""
        self.game, self.opponent, self.seed, self.seat = game, opponent, seed, seat
        bot = strategies.get_fair(game.name, opponent, "the web table")
        self.players: list[Strategy | None] = [None if other == seat else bot for other in range(game.num_seats)]
        self.view = importlib.import_module(game.view)
        self.transcript = importlib.import_module(game.transcript)
        specs = ["human" if other == seat else opponent for other in range(game.num_seats)]
        self.names: list[str] = list(self.transcript.seat_names(specs))
        self.shown_names = [
            f"{name} (you)" if other == seat and name.lower() != "you" else name
            for other, name in enumerate(self.names)
        ]
        self.state: GameState = reference_state(game, seed, 0, whole_game=True)  # type: ignore[assignment]
        self.log: deque[str] = deque(self.transcript.dealt(self.state, self.names, seat), maxlen=LOG_LINES)
        self.round_over: list[str] | None = None  # the lines of a finished round, until the person goes on
        self.lock = threading.Lock()  # one request at a time moves a table

    def start(self) -> list[Step]:
        """The bots' moves before the person's first decision."""
        with self.lock:
            return self._play_bots()

    def act(self, action: int | str) -> list[Step]:
        """Take the person's ``action`` (a legal action, or ``CONTINUE`` at a pause), then the bots'
        until the person is to decide again, the round ends or the game is over.

        ``NotYourTurn`` when the person has nothing to decide; the engine's ``IllegalAction`` for an
        action that is not legal; the table is unchanged by either."""
        with self.lock:
            if action == CONTINUE:
                if self.round_over is None:
                    raise NotYourTurn("there is no finished round to continue from")
                self.round_over = None
                return [self._step([]), *self._play_bots()]
            if not self._persons_turn():
                raise NotYourTurn(self._waiting_for())
            step = self._apply(int(action))
            return [step, *self._play_bots()]

    def snapshot(self) -> dict[str, Any]:
        """Everything a page shows: the table view, the moves the person may make, the round's end
        or the game's, and the recent log."""
        table: TableView = self.view.table(self.state, self.seat, self.shown_names)
        return {
            "game": self.game.name,
            "opponent": self.opponent,
            "seed": self.seed,
            "table": table,
            "status": self._status(),
            "actions": self._moves(),
            "round_over": self.round_over,
            "game_over": self._game_over(),
            "log": list(self.log),
        }

    def _persons_turn(self) -> bool:
        return self.round_over is None and not self.state.is_over and self.state.current_player == self.seat

    def _waiting_for(self) -> str:
        if self.state.is_over:
            return "the game is over"
        if self.round_over is not None:
            return "the round is over: continue first"
        return f"it is {self.names[self.state.current_player]}'s turn"

    def _status(self) -> str:
        if self.state.is_over:
            return "The game is over."
        if self.round_over is not None:
            return "The round is over."
        if self._persons_turn():
            return "Your turn."
        return f"{self.names[self.state.current_player]} is thinking."

    def _moves(self) -> list[dict[str, Any]]:
        """The person's legal moves, each with its name and, for a card, its face."""
        if self.round_over is not None:
            return [{"action": CONTINUE, "label": "Next round", "face": None}]
        if not self._persons_turn():
            return []
        return [
            {"action": action, "label": self.game.action_name(action), "face": self.view.action_face(action)}
            for action in self.state.legal_actions()
        ]

    def _game_over(self) -> dict[str, Any] | None:
        if not self.state.is_over:
            return None
        winners = self.state.winning_seats()
        teams = {self.game.teams[seat] for seat in winners}
        you_won = self.game.teams[self.seat] in teams
        result = "a draw" if len(teams) > 1 else ("you win" if you_won else "you lose")
        return {"result": result, "winners": [self.shown_names[seat] for seat in winners]}

    def _play_bots(self) -> list[Step]:
        """The bots' actions until the person is to decide, a round ends or the game is over."""
        steps: list[Step] = []
        while self.round_over is None and not self.state.is_over and not self._persons_turn():
            bot = self.players[self.state.current_player]
            assert bot is not None  # every seat but the person's has a strategy
            steps.append(self._apply(int(bot.choose(self.state.observe())[0])))
        return steps

    def _apply(self, action: int) -> Step:
        """Apply ``action`` for the seat to move, logging the program's lines; a finished round that
        is not the game's end pauses the table."""
        rounds_before = self.state.rounds_played
        events = self.state.apply(action)
        lines = list(self.transcript.told(self.state, events, self.names, self.seat))
        if self.state.rounds_played > rounds_before and not self.state.is_over:
            self.round_over = lines
        return self._step(lines)

    def _step(self, lines: Sequence[str]) -> Step:
        self.log.extend(lines)
        return Step(list(lines), self.snapshot())
