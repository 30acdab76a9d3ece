"""``euchre PACK_FILENAME [shuffle|noshuffle] POINTS_TO_WIN NAME1 TYPE1 ... NAME4 TYPE4``.

The EECS 280 Euchre program, printing byte for byte what the spec's Appendices A and B print, on
the reference engine. Beyond the spec (docs/euchre.md lists every reading): a Human's bad input
gets one line saying why and the prompt again, end of input ends the program quietly with exit
status 0, and a pack file that is not exactly the 24 distinct cards gets a clear error.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TextIO

import numpy as np

import strategies
from sim.cards import SUIT_NAMES, suit_of
from sim.console import EndOfInput, input_lines, next_input, run_program
from sim.euchre import rules
from sim.euchre.engine import Event, Game, SpecPack
from sim.euchre.observation import PASS, Phase, order_up
from sim.euchre.words import TABLE_NAMES, event_lines
from sim.files import CannotOpen, UnreadableFile, read_bounded
from sim.numbers import NumberError, parse_int
from sim.play import choose_one

USAGE = (
    "Usage: euchre.exe PACK_FILENAME [shuffle|noshuffle] POINTS_TO_WIN NAME1 TYPE1 NAME2 TYPE2 NAME3 TYPE3 NAME4 TYPE4"
)
PROGRAM_NAME = "euchre"
SHUFFLE_WORDS = {"shuffle": True, "noshuffle": False}
POINTS_RANGE = (1, 100)
# The spec's player types, each with the registered strategy that plays it (None: read stdin).
PLAYER_TYPES = {"Simple": "simple", "Human": None}
UPCARD_CHOICE = -1
MAX_PACK_BYTES = 1 << 16  # 24 lines of "Rank of Suit", with room for any spacing


class UsageError(Exception):
    """The command line is not what the spec accepts."""


class PackError(Exception):
    """The pack file cannot be opened or does not hold the 24 cards; the message is the output line."""


@dataclass(frozen=True)
class Settings:
    """The checked command line."""

    pack_filename: str
    shuffle: bool
    points_to_win: int
    names: tuple[str, ...]
    types: tuple[str, ...]


def parse_arguments(argv: list[str]) -> Settings:
    """The settings of a command line (without the program name), or ``UsageError``."""
    if len(argv) != 3 + 2 * rules.NUM_PLAYERS:
        raise UsageError
    pack_filename, shuffle_word, points_text, *players = argv
    names, types = tuple(players[0::2]), tuple(players[1::2])
    if shuffle_word not in SHUFFLE_WORDS or not all(kind in PLAYER_TYPES for kind in types):
        raise UsageError
    if not points_text.isascii() or not points_text.isdigit():
        raise UsageError
    try:
        points_to_win = parse_int(points_text, *POINTS_RANGE)
    except NumberError:
        raise UsageError from None
    return Settings(pack_filename, SHUFFLE_WORDS[shuffle_word], points_to_win, names, types)


def read_pack(filename: str) -> tuple[int, ...]:
    """The 24 cards of a pack file, read as the official ``Pack(istream&)`` does: ``Rank of Suit`` words."""
    try:
        text = read_bounded(filename, MAX_PACK_BYTES, "pack file").decode("utf-8")
    except CannotOpen:
        raise PackError(f"Error opening {filename}") from None
    except UnreadableFile as error:
        raise PackError(f"Error reading {filename}: {error}") from None
    except UnicodeDecodeError:
        raise PackError(f"Error reading {filename}: it is not a text file of cards") from None
    words = text.split()
    if len(words) != 3 * rules.PACK_SIZE:
        raise PackError(f"Error reading {filename}: expected 24 cards like 'Nine of Spades', one per line")
    try:
        cards = tuple(rules.parse_long_name(" ".join(words[i : i + 3])) for i in range(0, len(words), 3))
    except ValueError as error:
        raise PackError(f"Error reading {filename}: {error}") from None
    if sorted(cards) != sorted(rules.NEW_PACK):
        raise PackError(f"Error reading {filename}: a pack holds each card from Nine to Ace of every suit once")
    return cards


class Program:
    """One run of the game over text streams, with Human players reading ``stdin``."""

    def __init__(
        self, settings: Settings, pack: tuple[int, ...], stdin: TextIO, stdout: TextIO, computer: str | None = None
    ) -> None:
        """``computer`` names a registered strategy to play every non-Human seat instead of its type's."""
        self.settings = settings
        self.names = settings.names
        self.game = Game(SpecPack(pack, settings.shuffle), settings.points_to_win)
        self.bots: dict[int, strategies.Strategy] = {}
        for seat, kind in enumerate(settings.types):
            strategy_name = PLAYER_TYPES[kind]
            if strategy_name is not None:  # not a Human
                self.bots[seat] = strategies.get_fair("euchre", computer or strategy_name, "tables")
        self.out = stdout
        self.words = self._input_words(stdin)

    @staticmethod
    def _input_words(stdin: TextIO) -> Iterator[str]:
        # A Human's answers are read word by word, as ``cin >> word`` reads them.
        for line in input_lines(stdin):
            yield from line.split()

    def write_lines(self, lines: list[str]) -> None:
        self.out.write("".join(line + "\n" for line in lines))

    def read(self) -> str:
        return next_input(self.words, self.out)

    def report(self, events: list[Event]) -> None:
        for event in events:
            self.write_lines(event_lines(event, self.names))

    def run(self) -> None:
        self.report(self.game.start())
        while not self.game.is_over:
            seat = self.game.current_player
            if seat in self.bots:
                action = choose_one(self.bots[seat], self.game)
            else:
                action = self.human_action(seat)
            self.report(self.game.apply(action))

    def human_action(self, seat: int) -> int:
        """Show the Human's hand, prompt, and read until the answer is a legal action."""
        hand = self.game.live_hand()
        if hand.phase == Phase.MAKING:
            return self.ask(
                seat, rules.sorted_hand(hand.hands[seat]), 'please enter a suit, or "pass"', self.making_choice
            )
        if hand.phase == Phase.DISCARD:
            before_pickup = rules.sorted_hand(card for card in hand.hands[seat] if card != hand.upcard)
            return self.ask(
                seat,
                before_pickup,
                "please select a card to discard",
                self.discard_choice,
                extra_line=f"Discard upcard: [{UPCARD_CHOICE}]",
            )
        return self.ask(seat, rules.sorted_hand(hand.hands[seat]), "please select a card", self.play_choice)

    def ask(
        self,
        seat: int,
        shown: list[int],
        question: str,
        interpret: Callable[[str, list[int]], int | str],
        extra_line: str | None = None,
    ) -> int:
        """Print ``shown`` as the Human's hand and the prompt; ``interpret(answer, shown)`` returns
        an action or a line saying why the answer is refused."""
        name = self.names[seat]
        lines = [f"Human player {name}'s hand: [{i}] {rules.card_long_name(card)}" for i, card in enumerate(shown)]
        prompt = f"Human player {name}, {question}:"
        self.write_lines(lines + ([extra_line] if extra_line else []) + [prompt])
        while isinstance(choice := interpret(self.read(), shown), str):
            self.write_lines([choice, prompt])
        return choice

    def making_choice(self, answer: str, shown: list[int]) -> int | str:
        hand = self.game.live_hand()
        legal = hand.legal_actions()
        rejected = SUIT_NAMES[suit_of(hand.upcard)]
        if answer == "pass":
            return PASS if PASS in legal else "As dealer in round two you must order up a suit (screw the dealer)."
        if answer not in SUIT_NAMES:
            return f'"{answer}" is not a suit: enter Spades, Hearts, Clubs, Diamonds or "pass".'
        if order_up(SUIT_NAMES.index(answer)) in legal:
            return order_up(SUIT_NAMES.index(answer))
        if hand.making_round == 1:
            return f'In round one you may only order up {rejected}, the upcard\'s suit, or "pass".'
        return f"{rejected} was rejected in round one: order up another suit" + (
            "." if PASS not in legal else ', or "pass".'
        )

    def discard_choice(self, answer: str, shown: list[int]) -> int | str:
        index = parse_index(answer, UPCARD_CHOICE, len(shown) - 1)
        if index is None:
            return f"Enter {UPCARD_CHOICE} to discard the upcard or a card number from 0 to {len(shown) - 1}."
        return self.game.live_hand().upcard if index == UPCARD_CHOICE else shown[index]

    def play_choice(self, answer: str, shown: list[int]) -> int | str:
        index = parse_index(answer, 0, len(shown) - 1)
        if index is None:
            return f"Enter a card number from 0 to {len(shown) - 1}."
        hand = self.game.live_hand()
        if shown[index] not in hand.legal_actions():
            led_suit = rules.effective_suit(hand.trick[0], hand.trump)
            return f"You must follow suit: play a {SUIT_NAMES[led_suit]} card (the left bower counts as trump)."
        return shown[index]


def parse_index(answer: str, lowest: int, highest: int) -> int | None:
    """The whole number ``answer`` if it is from ``lowest`` to ``highest``, else None."""
    try:
        return parse_int(answer, lowest, highest)
    except NumberError:
        return None


def play(computer: str, seed: int | None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """``cardsim play euchre``: you against ``computer`` (your partner plays it too), on a seeded pack."""
    strategies.get_fair("euchre", computer, "tables")  # an unknown name fails before anything is printed
    pack = tuple(int(card) for card in np.random.default_rng(seed).permutation(rules.NEW_PACK))
    settings = Settings(
        "(seeded pack)", True, rules.DEFAULT_POINTS_TO_WIN, TABLE_NAMES, ("Human", "Simple", "Simple", "Simple")
    )
    return run_program(
        Program(settings, pack, stdin, stdout, computer=computer).run, stdout, stops=(EndOfInput,), program=PROGRAM_NAME
    )


def main(
    argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, program: str = PROGRAM_NAME
) -> int:
    """Run the program; ``argv`` excludes the program name, which the first output line echoes as ``program``."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        settings = parse_arguments(argv)
        pack = read_pack(settings.pack_filename)
    except UsageError:
        stdout.write(USAGE + "\n")
        return 1
    except PackError as error:
        stdout.write(f"{error}\n")
        return 1
    stdout.write("".join(word + " " for word in [program, *argv]) + "\n")
    return run_program(Program(settings, pack, stdin, stdout).run, stdout, stops=(EndOfInput,), program=program)


if __name__ == "__main__":
    sys.exit(main())
