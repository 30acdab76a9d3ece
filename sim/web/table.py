"""A person's game at the web table: one whole game of the reference engine, the person in one seat
and a registered strategy in every other, with the log and pauses a person needs.

``Table`` knows no HTTP; ``sim.web.app`` serves it. The game moves in *steps*, one per action taken
(the person's or a bot's), each with the lines the log gains for it and the table as the person sees
it afterwards, numbered so a page can ask for those after the last it showed and show the bots'
moves one by one. At the end of every round (hand) but the last the table pauses until the person
continues.

The seats are called as people around a table would call them (``seat_names``): the person
``"You"``, the others by where they sit (West on your left, North across, East on your right).
The log is in the game's words for people (its transcript ``for_people``: ``sim/<game>/words.py``),
not the console program's, and every seat remembers the line of its last move.

What a page draws is the game view's ``layout`` (each ``sim/<game>/view.py``), a plain JSON object:

- ``seats``: every seat in seat order, each ``{"name", "held"`` (cards in hand), ``"cards"`` (its hand
  as the person sees it: backs, or faces it showed; empty for the person, whose hand is ``hand``),
  ``"score"`` (text), ``"notes"`` (short texts: "dealer"), ``"zones"`` (zones beside the seat: its
  discards, chains, melds laid down)``}``, to which the table adds ``"position"`` (``"you"``,
  ``"left"``, ``"across"``, ``"right"``), ``"you"`` and ``"did"`` (its last move, or "");
- ``middle``: the shared zones, each ``{"title", "style"`` (``"suits"``, ``"trick"``, ``"piles"``),
  ``"rows": [{"label", "cards", "note"?, "seat"?}]}`` (``seat``: the seat a trick's card is laid by);
- ``hand``: the person's hand in groups (a meld, the deadwood), each ``{"label", "cards", "note"?}``;
- ``turn``: the seat to move, or null.

A card is ``{"face"}``, with ``"action"`` when clicking it takes that legal action now; every legal
action is on at most one card, and the page shows the others (bids, passes, knocks, chains) as
buttons. A view without ``layout`` gets one from its table view: its zones in the middle.

The person may ask for a hint (``hint``): the game's ``best`` strategy decides for the person's own
observation on the bot threads, with the explanation a Monte-Carlo lookahead gives
(``candidate_values``: each move's mean value over its worlds, with its interval).

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
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import strategies
from sim.api import GameState, State, Strategy, StrategyFault, TableView
from sim.games import Game
from sim.people import YOU
from sim.play import choose_one, reference_state
from sim.web.bots import BotThreads

CONTINUE = "continue"  # the one action that is not the game's: go on past a round's end
LOG_LINES = 200  # the log a page shows after a reload (the download has every line)
FAILURE_CHARACTERS = 200  # a bot's failure as the page and the log show it
KEPT_STEPS = 16  # steps a page may still fetch: more than the bots take between a person's moves
HINT_STRATEGY = "best"  # the strategy a hint asks
HINT_MOVES = 4  # the moves an explanation names
RECORD_FORMAT = "cardsim-table-record"  # a record's "format"; sim.replay plays it back
RECORD_VERSION = 1
WHERE = "web tables"  # how strategies' refusals name the web table ("... so web tables do not seat it")
# Where each other seat sits, by how many seats after the person's it comes (play goes to the left).
POSITIONS = {2: ("you", "across"), 4: ("you", "left", "across", "right")}
POSITION_NAMES = {"you": YOU, "left": "West", "across": "North", "right": "East"}


class NotYourTurn(ValueError):
    """An action or a hint asked for when the person has none to take (a bot's turn, a pause, the game over)."""


class HintFailed(RuntimeError):
    """The hint's strategy failed; the message is one line."""


@dataclass(frozen=True)
class Step:
    """One action taken: its number (the first is 1), the log's lines for it and the table as the
    person sees it after."""

    number: int
    lines: list[str]
    snapshot: dict[str, Any]


def positions(num_seats: int, seat: int) -> list[str]:
    """Where each seat sits for the person in ``seat``: ``you``, ``left``, ``across``, ``right`` (a game
    of another size: ``seat N``)."""
    around = POSITIONS.get(num_seats, tuple(f"seat {offset + 1}" for offset in range(num_seats)))
    return [around[(other - seat) % num_seats] for other in range(num_seats)]


def seat_names(num_seats: int, seat: int) -> list[str]:
    """The seats' names for the person in ``seat``: "You", and West, North, East where they sit."""
    return [POSITION_NAMES.get(where, where.capitalize()) for where in positions(num_seats, seat)]


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
        bot = strategies.get_fair(game.name, opponent, WHERE)
        self.players: list[Strategy | None] = [None if other == seat else bot for other in range(game.num_seats)]
        self.view = importlib.import_module(game.view)
        self.transcript = importlib.import_module(game.transcript)
        self.names = seat_names(game.num_seats, seat)
        self.positions = positions(game.num_seats, seat)
        self.state: GameState = reference_state(game, seed, 0, whole_game=True)  # type: ignore[assignment]
        dealt = self.transcript.dealt(self.state, self.names, seat, for_people=True)
        self.full_log: list[str] = list(dealt)  # every line, for the download
        self.log: deque[str] = deque(dealt, maxlen=LOG_LINES)
        self.actions: list[int] = []  # every action taken, for the record
        self.did = [""] * game.num_seats  # each seat's last move this round, as the log said it
        self.round_over: list[str] | None = None  # the lines of a finished round, until the person goes on
        self.ended: str | None = None  # why a bot ended the game early
        self.steps: deque[Step] = deque(maxlen=KEPT_STEPS)
        self.steps_taken = 0
        self.decision = 0  # bot decisions asked for: the answer to an abandoned one is dropped
        self.thinking_since: float | None = None  # when the bot to move was asked (time.monotonic)
        self.hinted: tuple[int, Future[dict[str, Any]]] | None = None  # the last hint asked: its step and answer
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

    def hint(self) -> Future[dict[str, Any]]:
        """What the game's ``best`` strategy would do in the person's place, decided on a bot thread
        from the person's own observation: a future of ``{"step", "action", "label", "strategy",
        "why"}`` (``why``: the explanation, or null), failing with ``HintFailed``. Asked twice at one
        decision, the first answer serves both. ``NotYourTurn`` when the person has no move to make."""
        with self.lock:
            self._check_time()
            if not self._persons_turn():
                raise NotYourTurn(self._waiting_for())
            if self.hinted is not None and self.hinted[0] == self.steps_taken:
                return self.hinted[1]
            answer: Future[dict[str, Any]] = Future()
            self.hinted = (self.steps_taken, answer)
            step, state = self.steps_taken, self.state.clone()
        self.bots.submit(lambda: self._think_hint(answer, step, state))
        return answer

    def record(self) -> dict[str, Any]:
        """The game so far as a record ``cardsim replay --record`` plays back: the game, its rules, the
        seed, the opponent, the person's seat, every action taken, and whether it is over with what
        points."""
        with self.lock:
            return {
                "format": RECORD_FORMAT,
                "version": RECORD_VERSION,
                "game": self.game.name,
                "rules": self.game.rules,
                "seed": self.seed,
                "opponent": self.opponent,
                "seat": self.seat,
                "actions": list(self.actions),
                "over": self.state.is_over,
                "points": [int(points) for points in self.state.points()],
            }

    def log_text(self) -> str:
        """The whole log as text, after a line saying which game it is."""
        with self.lock:
            title = getattr(self.view, "TITLE", self.game.name)
            head = f"cardsim · {title} against {self.opponent}, seed {self.seed}"
            return "\n".join([head, "", *self.full_log]) + "\n"

    def _snapshot(self) -> dict[str, Any]:
        """Everything a page shows: the table view and its layout, the moves the person may make, the
        round's end or the game's, whether a bot is thinking, why the game ended early, and the
        recent log."""
        table: TableView = self.view.table(self.state, self.seat, self.names)
        return {
            "game": self.game.name,
            "title": getattr(self.view, "TITLE", self.game.name),
            "opponent": self.opponent,
            "seed": self.seed,
            "step": self.steps_taken,
            "table": table,
            "layout": self._layout(table),
            "status": self._status(),
            "actions": self._moves(),
            "thinking": self._bots_turn(),
            "round_over": self.round_over,
            "game_over": self._game_over(),
            "ended": self.ended,
            "log": list(self.log),
        }

    def _layout(self, table: TableView) -> dict[str, Any]:
        """The view's ``layout``, each seat with where it sits and its last move."""
        make = getattr(self.view, "layout", None)
        if make is None:  # a view drawing no layout: its zones in the middle
            layout: dict[str, Any] = {
                "seats": [
                    {"name": name, "held": None, "cards": [], "score": "", "notes": [], "zones": []}
                    for name in self.names
                ],
                "middle": [
                    {
                        **zone,
                        "style": "rows",
                        "rows": [{**row, "cards": [{"face": face} for face in row["cards"]]} for row in zone["rows"]],
                    }
                    for zone in table["zones"]
                ],
                "hand": [],
                "turn": None if self.state.is_over else self.state.current_player,
            }
        else:
            layout = make(self.state, self.seat, self.names)
        for other, entry in enumerate(layout["seats"]):
            entry.update(position=self.positions[other], you=other == self.seat, did=self.did[other])
        return layout

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

    def _label(self, action: int) -> str:
        label = getattr(self.view, "move_label", None)
        return label(self.state, action) if label is not None else self.game.action_name(action)

    def _moves(self) -> list[dict[str, Any]]:
        """The person's legal moves, each with its name and, for a card, its face."""
        if self.round_over is not None:
            return [{"action": CONTINUE, "label": "Next round", "face": None}]
        if not self._persons_turn():
            return []
        return [
            {"action": action, "label": self._label(action), "face": self.view.action_face(action)}
            for action in self.state.legal_actions()
        ]

    def _game_over(self) -> dict[str, Any] | None:
        if not self.state.is_over:
            return None
        winners = self.state.winning_seats()
        teams = {self.game.teams[seat] for seat in winners}
        you_won = self.game.teams[self.seat] in teams
        result = "a draw" if len(teams) > 1 else ("you win" if you_won else "you lose")
        return {"result": result, "winners": [self.names[seat] for seat in winners]}

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

    def _think_hint(self, answer: Future[dict[str, Any]], step: int, state: State) -> None:
        """On a bot thread: the hint strategy's move in ``state`` (the person's decision at ``step``),
        and why, into ``answer`` (unless it was cancelled before it began)."""
        if not answer.set_running_or_notify_cancel():
            return
        try:
            adviser = strategies.get_fair(self.game.name, HINT_STRATEGY, WHERE)
            action = choose_one(adviser, state)
            label = getattr(self.view, "move_label", None)
            name = (lambda move: label(state, move)) if label is not None else self.game.action_name
            why = explanation(adviser, state, action, name)
            hint = {"step": step, "action": action, "label": name(action), "strategy": HINT_STRATEGY, "why": why}
        except Exception as error:  # whatever the strategy made fail: this hint fails, not the table
            answer.set_exception(HintFailed(f"{HINT_STRATEGY} could not decide: {one_line(error)}"))
        else:
            answer.set_result(hint)

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
        """Apply ``action`` for the seat to move, logging it in the game's words for people; a finished
        round that is not the game's end pauses the table."""
        rounds_before, seat = self.state.rounds_played, self.state.current_player
        events = self.state.apply(action)
        self.actions.append(action)
        lines = list(self.transcript.told(self.state, events, self.names, self.seat, for_people=True))
        if self.state.rounds_played > rounds_before:
            self.did = [""] * self.game.num_seats
            if not self.state.is_over:
                self.round_over = lines
        else:
            self.did[seat] = next((line for line in lines if line.startswith(self.names[seat])), "")
        return self._step(lines)

    def _step(self, lines: Sequence[str]) -> Step:
        self.log.extend(lines)
        self.full_log.extend(lines)
        self.steps_taken += 1
        step = Step(self.steps_taken, list(lines), self._snapshot())
        self.steps.append(step)
        return step


def explanation(strategy: Strategy, state: State, chosen: int, name: Callable[[int], str]) -> str | None:
    """Why ``strategy`` chose ``chosen`` in ``state``, when it can say (a lookahead's
    ``candidate_values``): its best moves by their mean value over the worlds it dealt, with their
    95% intervals."""
    values = getattr(strategy, "candidate_values", None)
    if values is None:
        return None
    rows = values(state.observe())
    if len(rows) < 2:
        return None
    worlds = getattr(strategy, "worlds_per_decision", None)
    shown = "; ".join(f"{name(action)}: {mean:+.1f} ± {width:.1f}" for action, mean, width in rows[:HINT_MOVES])
    more = f"; {len(rows) - HINT_MOVES} more" if len(rows) > HINT_MOVES else ""
    dealt = f" in {worlds} deals it could be" if worlds else ""
    said = f"It played each move out{dealt} (mean value, higher is better, ± 95% interval): {shown}{more}."
    if rows[0][0] != chosen:
        said += " It keeps its rollout policy's move unless another is clearly better."
    return said


def one_line(error: Exception) -> str:
    """An exception's message on one line of at most ``FAILURE_CHARACTERS``, led by its kind unless it
    is a ``StrategyFault`` (whose message names the strategy and the decision)."""
    message = " ".join(str(error).split())
    said = message if isinstance(error, StrategyFault) else f"{type(error).__name__}: {message}"
    return said[:FAILURE_CHARACTERS]
