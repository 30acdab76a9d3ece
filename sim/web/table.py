"""A person's game at the web table: one whole game of the reference engine, the person in one seat
and a registered strategy in every other, with the log and pauses a person needs.

``Table`` knows no HTTP; ``sim.web.app`` serves it. The game moves in *steps*, one per action taken
(the person's or a bot's), each with the lines the game's program would print for it and the table as
the person sees it afterwards, numbered so a page can ask for those after the last it showed and
show the bots' moves one by one. At the end of every round (hand) but the last the table pauses
until the person continues.

Bots think on the bot threads (``sim.web.bots``), one decision at a time, outside the table's lock:
the person's move returns at once, and the table answers reads (and refuses moves) while a bot
thinks. A bot that fails (raises, or chooses what it may not: ``sim.play.choose_one``) or takes
longer than ``think_seconds`` ends the table with one line naming it.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import strategies
from sim.api import GameState, State, Strategy, StrategyFault, TableView
from sim.games import Game
from sim.play import choose_one, reference_state
from sim.web.bots import BotThreads

CONTINUE = "continue"  # the one action that is not the game's: go on past a round's end
LOG_LINES = 200  # the log a page shows after a reload
FAILURE_CHARACTERS = 200  # a bot's failure as the page and the log show it
KEPT_STEPS = 16  # steps a page may still fetch: more than the bots take between a person's moves


class NotYourTurn(ValueError):
    """An action sent when the person has none to take (a bot's turn, a pause, the game over)."""


@dataclass(frozen=True)
class Step:
    """One action taken: its number (the first is 1), the program's lines for it and the table as
    the person sees it after."""

    number: int
    lines: list[str]
    snapshot: dict[str, Any]


class Table:
    """A whole game of ``game`` for a person in ``seat`` against ``opponent`` (a strategy spec) in
    the other seats, dealt as whole game 0 of ``seed`` is dealt in tournaments; its bots think on
    ``bots``, each decision within ``think_seconds``."""

    def __init__(
        self, game: Game, opponent: str, seed: int, bots: BotThreads, think_seconds: float, seat: int = 0
    ) -> None:
        """``StrategyError`` when ``opponent`` is not a fair strategy of the game."""
        self.game, self.opponent, self.seed, self.seat = game, opponent, seed, seat
        self.bots, self.think_seconds = bots, think_seconds
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
        self.ended: str | None = None  # why a bot ended the game early
        self.steps: deque[Step] = deque(maxlen=KEPT_STEPS)
        self.steps_taken = 0
        self.decision = 0  # bot decisions asked for: the answer to an abandoned one is dropped
        self.thinking_since: float | None = None  # when the bot to move was asked (time.monotonic)
        self.lock = threading.Lock()  # every read and move of the table; never held while a bot thinks

    def start(self) -> dict[str, Any]:
        """Asks the bots to move before the person's first decision; the table's snapshot."""
        with self.lock:
            self._ask_bot()
            return self._snapshot()

    def act(self, action: int | str) -> list[Step]:
        """Take the person's ``action`` (a legal action, or ``CONTINUE`` at a pause) and ask the bots
        to move; returns the person's step.

        ``NotYourTurn`` when the person has nothing to decide (a bot is thinking, a pause, the game
        over); the engine's ``IllegalAction`` for an action that is not legal; the table is unchanged
        by either."""
        with self.lock:
            self._check_time()
            if action == CONTINUE:
                if self.round_over is None or self.ended is not None:
                    raise NotYourTurn("there is no finished round to continue from")
                self.round_over = None
                step = self._step([])
            elif not self._persons_turn():
                raise NotYourTurn(self._waiting_for())
            else:
                step = self._apply(int(action))
            self._ask_bot()
            return [step]

    def snapshot(self) -> dict[str, Any]:
        """Everything a page shows (``_snapshot``), read under the table's lock."""
        with self.lock:
            self._check_time()
            return self._snapshot()

    def steps_after(self, number: int) -> tuple[list[Step], dict[str, Any]]:
        """The steps after step ``number`` still kept, and the table's snapshot now."""
        with self.lock:
            self._check_time()
            return [step for step in self.steps if step.number > number], self._snapshot()

    def _snapshot(self) -> dict[str, Any]:
        """Everything a page shows: the table view, the moves the person may make, the round's end
        or the game's, whether a bot is thinking, why the game ended early, and the recent log."""
        table: TableView = self.view.table(self.state, self.seat, self.shown_names)
        return {
            "game": self.game.name,
            "opponent": self.opponent,
            "seed": self.seed,
            "step": self.steps_taken,
            "table": table,
            "status": self._status(),
            "actions": self._moves(),
            "thinking": self._bots_turn(),
            "round_over": self.round_over,
            "game_over": self._game_over(),
            "ended": self.ended,
            "log": list(self.log),
        }

    def _playing(self) -> bool:
        return self.ended is None and self.round_over is None and not self.state.is_over

    def _persons_turn(self) -> bool:
        return self._playing() and self.state.current_player == self.seat

    def _bots_turn(self) -> bool:
        return self._playing() and self.state.current_player != self.seat

    def _waiting_for(self) -> str:
        if self.ended is not None:
            return f"the game has ended: {self.ended}"
        if self.state.is_over:
            return "the game is over"
        if self.round_over is not None:
            return "the round is over: continue first"
        return f"{self.names[self.state.current_player]} is thinking: wait for its move"

    def _status(self) -> str:
        if self.ended is not None:
            return self.ended
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

    def _ask_bot(self) -> None:
        """When a bot is to move, has it decide on a bot thread, on a copy of the state."""
        if not self._bots_turn():
            return
        self.decision += 1
        self.thinking_since = time.monotonic()
        decision, state = self.decision, self.state.clone()
        bot = self.players[state.current_player]
        assert bot is not None  # every seat but the person's has a strategy
        self.bots.submit(lambda: self._decide(decision, bot, state))

    def _decide(self, decision: int, bot: Strategy, state: State) -> None:
        """On a bot thread: ``bot``'s action in ``state`` taken at the table, unless the table has
        left this decision behind (it ended: out of time); a failing bot ends the game."""
        seat = state.current_player
        try:
            action: int | None = choose_one(bot, state)
            failure = ""
        except Exception as error:  # a StrategyFault, or whatever the bot made fail: the table ends, not the server
            action, failure = None, one_line(error)
        with self.lock:
            if decision != self.decision:
                return
            self.thinking_since = None
            if action is None:
                self._end(f"{self.names[seat]} ({self.opponent}) failed, so the game cannot go on: {failure}")
            else:
                self._apply(action)
                self._ask_bot()

    def _check_time(self) -> None:
        """Ends the game when the bot to move has thought longer than ``think_seconds``."""
        if self.thinking_since is None or time.monotonic() - self.thinking_since <= self.think_seconds:
            return
        self.decision += 1  # its answer, should it come, is dropped
        self.thinking_since = None
        name = self.names[self.state.current_player]
        self._end(f"{name} ({self.opponent}) did not decide within {self.think_seconds:g} s, so the game cannot go on")

    def _end(self, reason: str) -> None:
        self.ended = reason
        self._step([reason])

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
        self.steps_taken += 1
        step = Step(self.steps_taken, list(lines), self._snapshot())
        self.steps.append(step)
        return step


def one_line(error: Exception) -> str:
    """An exception's message on one line of at most ``FAILURE_CHARACTERS``, led by its kind unless it
    is a ``StrategyFault`` (whose message names the strategy and the decision)."""
    message = " ".join(str(error).split())
    said = message if isinstance(error, StrategyFault) else f"{type(error).__name__}: {message}"
    return said[:FAILURE_CHARACTERS]
