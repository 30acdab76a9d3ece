"""``gemstones``: the console game for two players, each a human or a registered strategy.

It shows the table at each turn in the spec's formats, asks each choice with the options spelled
out, and before every round (player 1's turn) offers to pause: the whole game goes to a file and the
program ends; ``--load FILE`` or the start-up question resumes it. Bad input gets one line and the
same prompt again; end of input in the middle of a game and Ctrl-C end it with one line saying the
game was not saved (docs/gemstones.md).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from typing import TextIO

import numpy as np

import strategies
from sim.console import EndOfInput, input_lines, next_input, run_program, seed_argument
from sim.gemstones import rules, savefile
from sim.gemstones.engine import (
    NUM_PLAYERS,
    Event,
    State,
    TurnStarted,
)
from sim.gemstones.observation import BUY, CHAIN, DISCARD, PASS, PLAY, SELL, Phase
from sim.gemstones.words import MAX_NAME_LENGTH, computer_name, event_lines, table_lines
from sim.numbers import NumberError, amount, clipped, parse_int
from sim.play import choose_one

PROMPT = "> "
HUMAN = savefile.HUMAN
SEED_RANGE = savefile.GAME_ID_RANGE
YES, NO = ("y", "yes"), ("n", "no")
INTERRUPTED = "interrupted; the game was not saved (answer y when asked to pause before a round to save it)"


def program_deck(seed: int) -> np.ndarray:
    """The shuffled deck of the game ``--seed seed``: the factory order permuted by a generator seeded
    with ``SeedSequence(seed, spawn_key=(0,))``.

    This is the program's own shuffle, not the tournaments' dealer (``sim.dealing``): a seed deals the
    game it has always dealt, so recorded games and transcripts stay valid when tournament deals change.
    """
    generator = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0,)))
    return generator.permutation(np.asarray(rules.FACTORY_ORDER, dtype=np.int8))


class Paused(Exception):
    """The game was saved; the program ends."""


def computers_of(kinds: list[str]) -> dict:
    """The strategy of each seat that is not a person's, by seat."""
    return {seat: strategies.get_fair("gemstones", kind, "tables") for seat, kind in enumerate(kinds) if kind != HUMAN}


class Program:
    """One run of the console game over text streams."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.out = stdout
        self.lines = (line.strip() for line in input_lines(stdin) if line.strip())
        self.saved: savefile.SavedGame | None = None
        self.computers: dict[int, strategies.Strategy] = {}

    @property
    def current_game(self) -> savefile.SavedGame:
        """The game being played: ``start`` (or ``main``'s ``--load``) sets it up before play."""
        if self.saved is None:
            raise RuntimeError("internal error: no game has been set up")
        return self.saved

    def write(self, lines: list[str]) -> None:
        self.out.write("".join(line + "\n" for line in lines))

    def ask(self, question: str) -> str:
        """Print the question and the prompt, and return the next non-blank input line."""
        self.out.write(f"{question}\n{PROMPT}")
        return next_input(self.lines, self.out)

    def ask_yes_no(self, question: str) -> bool:
        while (answer := self.ask(question).lower()) not in YES + NO:
            self.write(["Please answer y or n."])
        return answer in YES

    # -- starting ------------------------------------------------------------------------------

    def start(self, load: str | None, kinds: list[str] | None, seed: int) -> list[Event]:
        """Set up the game (loaded or new); returns the events of its start."""
        if load is None and kinds is None:
            while (answer := self.ask("Type n for a new game or l to load a saved game.").lower()) not in ("n", "l"):
                self.write(["Please answer n or l."])
            if answer == "l":
                self.saved = self.ask_save_file()
        if self.saved is None:
            return self.new_game(kinds or [HUMAN, HUMAN], seed)
        self.computers = computers_of(self.saved.kinds)
        return []

    def ask_save_file(self) -> savefile.SavedGame:
        while True:
            path = self.ask("Load which file?")
            try:
                return savefile.load(path)
            except savefile.SaveFileError as error:
                self.write([f"Cannot load {path}: {error}."])

    def new_game(self, kinds: list[str], seed: int) -> list[Event]:
        names: list[str] = []
        for seat, kind in enumerate(kinds):
            names.append(self.ask_name(seat, names) if kind == HUMAN else self.computer_name(seat, kinds))
        state, events = State.new(program_deck(seed), game_id=seed)
        self.saved = savefile.SavedGame(names, list(kinds), state)
        self.computers = computers_of(kinds)
        return events

    def ask_name(self, seat: int, taken: list[str]) -> str:
        while True:
            name = self.ask(f"Name of player {seat + 1}?")
            if not savefile.NAME_PATTERN.fullmatch(name):
                self.write([f"A name is one word of at most {MAX_NAME_LENGTH} characters."])
            elif name in taken:
                self.write([f"{name} is taken; choose another name."])
            else:
                return name

    computer_name = staticmethod(computer_name)

    # -- playing -------------------------------------------------------------------------------

    def play(self, events: list[Event]) -> None:
        saved = self.current_game
        state = saved.state
        self.report(events)
        turn_start = True  # a new or loaded game waits at the start of a turn
        while not state.is_over:
            seat = state.current_player
            if turn_start:
                if seat == 0 and HUMAN in saved.kinds:
                    self.offer_pause()
                self.write(table_lines(state, saved.names, saved.kinds[seat] == HUMAN))
                if saved.kinds[seat] == HUMAN and state.phase == Phase.BUY:
                    self.ask_buy()
            legal = state.legal_actions()
            if seat in self.computers:
                action = choose_one(self.computers[seat], state)
            elif len(legal) == 1:
                action = legal[0]  # nothing to ask: the front card must be played, or the only sale
            else:
                action = self.ask_action()
            events = state.apply(action)
            turn_start = any(isinstance(event, TurnStarted) for event in events)
            self.report(events)

    def report(self, events: list[Event]) -> None:
        for event in events:
            self.write(event_lines(event, self.current_game.names))

    def offer_pause(self) -> None:
        if not self.ask_yes_no("Pause the game here and save it to a file? (y/n)"):
            return
        while True:
            path = self.ask("Save to which file?")
            try:
                savefile.save(path, self.current_game)
            except OSError as error:
                self.write([f"Could not save to {path}: {error.strerror or error}."])
            else:
                self.write([f"Game saved to {path}."])
                raise Paused

    def ask_buy(self) -> None:
        """Offer the third chain, at the start of a human's turn when they can pay for it."""
        state = self.current_game.state
        seat, cost = state.current_player, state.variants.third_chain_cost
        wanted = self.ask_yes_no(f"Buy a third chain for {cost} coins? You have {state.coins[seat]}. (y/n)")
        self.report(state.apply(BUY if wanted else PASS))

    def ask_action(self) -> int:
        """Ask the human to move for the current decision; returns a legal action."""
        state = self.current_game.state
        seat = state.current_player
        phase = state.phase
        if phase == Phase.PLAY_SECOND:
            front = rules.LETTERS[state.hands[seat][0]]
            return PLAY if self.ask_yes_no(f"Play your next card, {front}, too? (y/n)") else PASS
        if phase in (Phase.OFFER, Phase.TRADE):
            return self.ask_chain(phase)
        if phase == Phase.DISCARD:
            return self.ask_discard()
        return self.ask_sale()

    def ask_chain(self, phase: Phase) -> int:
        state = self.current_game.state
        stones = sorted(set(state.trade_area))
        choices = ", ".join(rules.LETTERS[stone] for stone in stones)
        opponent = self.current_game.names[1 - state.current_player]
        where = f"Offer from {opponent}" if phase == Phase.OFFER else "Trade area"
        rest = "discard the rest" if phase == Phase.OFFER else f"leave the rest for {opponent}"
        question = (
            f"{where}: {rules.format_cards(state.trade_area)}. Type a stone to chain ({choices}), or n to {rest}."
        )
        while True:
            answer = self.ask(question)
            if answer.lower() in NO:
                return PASS
            try:
                stone = rules.parse_letter(answer)
            except rules.NotAStone as error:
                self.write([f"{error}."])
                continue
            if stone in stones:
                return CHAIN + stone
            self.write([f"There is no {rules.STONES[stone]} in the trade area."])

    def ask_discard(self) -> int:
        state = self.current_game.state
        hand = state.hands[state.current_player]
        numbered = " ".join(f"{position}:{rules.LETTERS[stone]}" for position, stone in enumerate(hand, 1))
        question = f"Discard a card? Hand: {numbered}. Type its position (1-{len(hand)}), or n to keep them all."
        while True:
            answer = self.ask(question)
            if answer.lower() in NO:
                return PASS
            if not (answer.isascii() and answer.isdigit()):
                self.write([f"Please type a position from 1 to {len(hand)}, or n."])
                continue
            try:
                return DISCARD + parse_int(answer, 1, len(hand)) - 1
            except NumberError:
                self.write([f"Position {clipped(answer)} is out of range (1-{len(hand)})."])

    def ask_sale(self) -> int:
        state = self.current_game.state
        slots = state.slots[state.current_player]
        sellable = [action - SELL for action in state.legal_actions()]
        chains = {slot: rules.chain_at(slots, slot) for slot in sellable}
        options = ", ".join(
            f"{slot + 1}: {rules.STONES[stone]} ({amount(length, 'card')}, "
            f"{amount(rules.chain_value(stone, length), 'coin')})"
            for slot, (stone, length) in chains.items()
        )
        pending, _ = state.waiting_sale()
        question = (
            f"No chain or free slot for {rules.LETTERS[pending]}: a chain must be sold. Type its number ({options})."
        )
        while True:
            answer = self.ask(question)
            with contextlib.suppress(NumberError):
                if (slot := parse_int(answer, 1, rules.MAX_SLOTS) - 1) in sellable:
                    return SELL + slot
            self.write([f"Please type one of {', '.join(str(slot + 1) for slot in sellable)}."])


def parse_players(text: str) -> list[str]:
    """Two comma-separated kinds, each ``human`` or a registered gemstones strategy."""
    kinds = [kind.strip() for kind in text.split(",")]
    if len(kinds) != NUM_PLAYERS:
        raise argparse.ArgumentTypeError(f"expected two players, e.g. human,heuristic (got {text!r})")
    for kind in kinds:
        if kind != HUMAN:
            try:
                strategies.get_fair("gemstones", kind, "tables")
            except strategies.StrategyError as error:
                raise argparse.ArgumentTypeError(str(error)) from None
    return kinds


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gemstones", description="Play Gemstones, the two-player chaining game.")
    parser.add_argument(
        "--players",
        type=parse_players,
        metavar="A,B",
        help="each 'human' or a strategy (e.g. human,heuristic); default: two humans",
    )
    parser.add_argument("--seed", type=seed_argument(*SEED_RANGE), help="deal seed (default: the clock)")
    parser.add_argument("--load", metavar="FILE", help="resume a paused game")
    strategies.add_import_option(parser)
    return parser


def play(computer: str, seed: int | None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """``cardsim play gemstones``: you against ``computer``."""
    return main(["--players", f"human,{computer}"] + ([] if seed is None else ["--seed", str(seed)]), stdin, stdout)


def main(argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    parser = argument_parser()
    strategies.import_requested(parser, sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    if args.load and (args.players or args.seed is not None):
        parser.error("--load resumes a saved game: its players and deal come from the file")
    program = Program(stdin, stdout)
    if args.load:
        try:
            program.saved = savefile.load(args.load)
        except savefile.SaveFileError as error:
            print(f"gemstones: cannot load {args.load}: {error}", file=sys.stderr)
            return 2
    seed = args.seed if args.seed is not None else time.time_ns() % 2**63
    return run_program(
        lambda: program.play(program.start(args.load, args.players, seed)),
        stdout,
        stops=(Paused,),
        program="gemstones",
        interrupted=INTERRUPTED,
        failures={EndOfInput: "the input ended before the game did; the game was not saved"},
    )


if __name__ == "__main__":
    sys.exit(main())
