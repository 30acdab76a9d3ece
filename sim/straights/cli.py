"""``straights [seed]``: the spec's interactive program, byte for byte, on the reference engine.

Output follows the spec's worked example where the spec's prose disagrees with it (docs/straights.md
lists each reading). Beyond the spec: bad input gets one line and the prompt again, end of input
ends the program quietly, ``save FILE`` at a human prompt and ``--load FILE`` give the testing mode,
and ``--computer NAME`` picks the registered strategy that computer players use.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from typing import TextIO

import strategies
from sim.cards import RANKS, SUIT_NAMES, CardError, card_name, cards_in, format_cards, parse_card, suit_of
from sim.console import EndOfInput, input_lines, next_input, run_program, seed_argument
from sim.play import choose_one
from sim.straights import rules, savefile
from sim.straights.engine import Event, Game, SpecDeck
from sim.straights.words import card_list, event_lines, player_name

PROMPT = ">"
COMMANDS_HELP = "play <card>, discard <card>, deck, save <file>, quit, ragequit"
SEED_RANGE = (-(2**31), 2**31 - 1)  # what std::stoi accepts
INTERRUPTED = "interrupted; the game was not saved (at a human's turn, save FILE keeps it for --load FILE)"


class Quit(Exception):
    """The human typed ``quit``."""


def table_lines(game: Game) -> list[str]:
    """The seven lines shown before every turn: the table by suit, the mover's hand and legal plays."""
    current = game.live_round()
    lines = ["Cards on the table:"]
    for suit, suit_name in enumerate(SUIT_NAMES):
        ranks = "".join(" " + RANKS[card % 13] for card in cards_in(current.table) if suit_of(card) == suit)
        lines.append(f"{suit_name}:{ranks}")
    lines.append("Your hand:" + card_list(current.hands[current.current_player]))
    lines.append("Legal plays:" + card_list(current.legal_plays()))
    return lines


class Program:
    """One run of the interactive program over text streams."""

    def __init__(self, saved: savefile.SavedGame, stdin: TextIO, stdout: TextIO) -> None:
        self.saved = saved
        self.computer = strategies.get_fair("straights", saved.computer, "tables")
        self.out = stdout
        self.lines = self._input_lines(stdin)

    @staticmethod
    def _input_lines(stdin: TextIO) -> Iterator[str]:
        for line in input_lines(stdin):
            if line.strip():
                yield line.strip()

    def write(self, text: str) -> None:
        self.out.write(text)

    def read(self) -> str:
        """The next non-blank input line; the prompt has already been written."""
        return next_input(self.lines, self.out)

    def report(self, events: list[Event]) -> None:
        for event in events:
            self.write("".join(line + "\n" for line in event_lines(event)))

    def ask_player_kinds(self) -> None:
        for seat in range(rules.NUM_PLAYERS):
            self.write(f"Is {player_name(seat)} a human (h) or a computer (c)?\n{PROMPT}")
            while (answer := self.read().lower()) not in ("h", "c"):
                self.write(f"Please answer h or c.\n{PROMPT}")
            self.saved.players[seat] = "human" if answer == "h" else "computer"

    def play(self) -> None:
        game = self.saved.game
        while not game.is_over:
            self.write("".join(line + "\n" for line in table_lines(game)) + PROMPT)
            if self.saved.players[game.current_player] == "human":
                self.human_turn()
            else:
                self.computer_turn()

    def computer_turn(self) -> None:
        card = choose_one(self.computer, self.saved.game)
        self.report(self.saved.game.apply(card))

    def human_turn(self) -> None:
        """Read commands until one ends the turn."""
        game = self.saved.game
        seat = game.current_player
        while True:
            command, _, argument = self.read().partition(" ")
            command, argument = command.lower(), argument.strip()
            if command in ("play", "discard"):
                if self.try_card_action(command, argument):
                    return
            elif command == "deck" and not argument:
                deck = game.live_round().deck
                rows = [format_cards(deck[i : i + rules.HAND_SIZE]) for i in range(0, len(deck), rules.HAND_SIZE)]
                self.write("".join(row + "\n" for row in rows))
            elif command == "save" and argument:
                self.save(argument)
            elif command == "quit" and not argument:
                raise Quit
            elif command == "ragequit" and not argument:
                self.saved.players[seat] = "computer"
                self.write(f"{player_name(seat)} ragequits. A computer will now take over.\n")
                self.computer_turn()
                return
            else:
                self.write(f"Unknown command. Commands: {COMMANDS_HELP}.\n")
            self.write(PROMPT)

    def try_card_action(self, command: str, argument: str) -> bool:
        """Carry out ``play``/``discard``; on a refusal print why and return False."""
        current = self.saved.game.live_round()
        if not argument:
            self.write(f"{command.capitalize()} which card? For example: {command} 7S\n")
            return False
        try:
            card = parse_card(argument)
        except CardError as error:
            self.write(f"{str(error)[0].upper()}{str(error)[1:]}.\n")
            return False
        if card not in current.hands[current.current_player]:
            self.write(f"{card_name(card)} is not in your hand.\n")
            return False
        legal = current.legal_plays()
        if command == "play" and card not in legal:
            self.write("This is not a legal play.\n")
            return False
        if command == "discard" and legal:
            self.write("You have a legal play. You may not discard.\n")
            return False
        self.report(self.saved.game.apply(card))
        return True

    def save(self, path: str) -> None:
        try:
            savefile.save(path, self.saved)
        except OSError as error:
            self.write(f"Could not save to {path}: {error.strerror or error}.\n")
        else:
            self.write(f"Game saved to {path}.\n")


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="straights", description="Play Straights as the CS246 spec prints it.")
    parser.add_argument("seed", nargs="?", type=seed_argument(*SEED_RANGE), help="shuffle seed (default: the clock)")
    parser.add_argument(
        "--computer",
        default="first-legal",
        metavar="NAME",
        help="registered strategy for computer players and ragequit replacements",
    )
    strategies.add_import_option(parser)
    parser.add_argument("--load", metavar="FILE", help="resume a game written by the `save FILE` command")
    return parser


def new_game(seed: int | None, computer: str) -> savefile.SavedGame:
    if seed is None:
        seed = time.time_ns() % 2**32 - 2**31  # the clock, as the spec's shuffle.cc seeds from it
    dealer = SpecDeck(seed)
    return savefile.SavedGame(["computer"] * rules.NUM_PLAYERS, computer, seed, dealer, Game(dealer))


def play(computer: str, seed: int | None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """``cardsim play straights``: the spec's program with ``computer`` playing every computer seat."""
    return main(([] if seed is None else [str(seed)]) + ["--computer", computer], stdin, stdout)


def main(argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    parser = argument_parser()
    strategies.import_requested(parser, sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    try:
        strategies.get_fair("straights", args.computer, "tables")
    except strategies.StrategyError as error:
        parser.error(f"--computer: {error}")
    if args.load:
        try:
            saved = savefile.load(args.load)
        except savefile.SaveFileError as error:
            print(f"straights: cannot load {args.load}: {error}", file=sys.stderr)
            return 2
        if args.computer != parser.get_default("computer"):
            saved.computer = args.computer
    else:
        saved = new_game(args.seed, args.computer)
    program = Program(saved, stdin, stdout)

    def run() -> None:
        if not args.load:
            program.ask_player_kinds()
            program.report(saved.game.start())
        program.play()

    return run_program(run, stdout, stops=(EndOfInput, Quit), program="straights", interrupted=INTERRUPTED)


if __name__ == "__main__":
    sys.exit(main())
