"""``ginrummy [--seed N] [--vs NAME]``: the CS 340 program — you against the computer, by default the
spec's computer player (``cs340``); ``--vs`` seats any registered Gin Rummy strategy instead.

Three command sets, one letter each (case-insensitive, the first non-blank character of a line;
the words after the first are its arguments): between hands ``Q H P S D``, drawing
``Q H P C E O A S T``, discarding ``Q H P C E O A D K``. The prompt names the current set. Bad
input gets one line saying what was wrong and the prompt again; end of input ends the program
quietly with status 0, Ctrl-C with one line and status 130 (``sim.console``). docs/ginrummy.md
describes the text.
"""

from __future__ import annotations

import argparse
import random
import string
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO

import strategies
from sim.cards import card_name, cards_in, format_cards
from sim.console import EndOfInput, input_lines, next_input, run_program, seed_argument
from sim.ginrummy import rules
from sim.ginrummy.engine import (
    Arranger,
    Drew,
    Event,
    Game,
    Hand,
    best_melds,
)
from sim.ginrummy.observation import DRAW_DISCARD, DRAW_STOCK, NONE, Phase, knock
from sim.ginrummy.words import (
    COMPUTER,
    YOU,
    deal_line,
    drew_line,
    event_lines,
    seat_name,
)
from sim.play import choose_one
from strategies import Strategy
from strategies.ginrummy.cs340 import CS340

SPEC_COMPUTER = "cs340"  # the spec's computer player: the transcripts are its games
SEED_RANGE = (-(2**63), 2**63 - 1)  # any 64-bit seed; Python's random takes more, but a seed is a number a person typed
LETTERS = string.ascii_lowercase
DEFAULT_SET = "a"  # the spec: until the user arranges them, all cards are in set a
BETWEEN, DRAWING, DISCARDING = "between-hands", "drawing", "discarding"
COMMAND_SETS = {BETWEEN: "QHPSD", DRAWING: "QHPCEOAST", DISCARDING: "QHPCEOADK"}
HELP = """Gin Rummy against the computer (CS 340 rules; game to 100). Commands are one letter, in either case.
  Any time:       Q quit   H this help   P points
  Between hands:  S start a new game   D deal a new hand
  During a hand:  C list your cards   E peek at the computer's cards   O organize your cards
                  A <n> <letter>  put card n of the last listing into set <letter> (a to z)
  Drawing:        S draw from the stock   T take the top card of the discard pile
  Discarding:     D <n>  discard card n   K <n>  knock, discarding card n (unmatched cards 10 or less)"""


class Quit(Exception):
    """The user quit."""


class BadCommand(Exception):
    """A command that cannot be carried out; the message is the one line shown."""


class Program:
    """One run of the program over text streams."""

    def __init__(self, rng: random.Random, stdin: TextIO, stdout: TextIO, computer: Strategy | None = None) -> None:
        self.rng = rng
        self.computer = computer or strategies.get("ginrummy", SPEC_COMPUTER)
        self.lines: Iterator[str] = input_lines(stdin)
        self.out = stdout
        self.game: Game | None = None
        self.letters: dict[int, str] = {}  # the user's set letter of each card held
        self.arranged = False  # whether the user has used O or A in this hand
        self.listing: list[int] = []  # the user's cards as last listed: position i + 1 is listing[i]

    # -------------------------------------------------------------- input and output

    def say(self, *lines: str) -> None:
        self.out.write("".join(line + "\n" for line in lines))

    def read_line(self) -> str:
        return next_input(self.lines, self.out)

    @property
    def current_game(self) -> Game:
        """The game being played: ``run`` starts one before it reads the first command."""
        if self.game is None:
            raise RuntimeError("internal error: no game has been started")
        return self.game

    @property
    def current_hand(self) -> Hand:
        """The hand dealt last: the commands that use it are offered only once a hand is dealt."""
        hand = self.current_game.hand
        if hand is None:
            raise RuntimeError("internal error: no hand has been dealt")
        return hand

    @property
    def command_set(self) -> str:
        if self.game is None or not self.game.in_hand:
            return BETWEEN
        return DRAWING if self.current_hand.phase == Phase.DRAW else DISCARDING

    def prompt(self) -> str:
        name = self.command_set
        return f"[{name}: {' '.join(COMMAND_SETS[name])}]> "

    def run(self) -> None:
        self.new_game()
        while True:
            self.out.write(self.prompt())
            line = self.read_line()
            words = line.split()
            if not words:
                continue
            try:
                self.execute(words[0][0].upper(), words[1:])
            except BadCommand as error:
                self.say(str(error))

    def execute(self, command: str, arguments: list[str]) -> None:
        allowed = COMMAND_SETS[self.command_set]
        if command not in allowed:
            others = [name for name, letters in COMMAND_SETS.items() if command in letters]
            elsewhere = f" (it is a {' and '.join(others)} command)" if others else ""
            raise BadCommand(
                f"{command} is not a {self.command_set} command{elsewhere}; "
                f"{self.command_set} commands: {' '.join(allowed)} (H for help)."
            )
        handlers: dict[str, Callable[[list[str]], None]] = {
            "Q": self.quit,
            "H": self.help,
            "P": self.points,
            "C": self.list_cards,
            "E": self.peek,
            "O": self.organize,
            "A": self.arrange,
            "T": self.take_discard,
            "K": self.knock,
        }
        if self.command_set == BETWEEN:
            handlers |= {"S": self.start_game, "D": self.deal}
        else:
            handlers |= {"S": self.draw_stock, "D": self.discard}
        handlers[command](arguments)

    # -------------------------------------------------------------- commands at any time

    def quit(self, arguments: list[str]) -> None:
        no_arguments("Q", arguments)
        if self.game is not None and (self.game.in_hand or (self.game.hands_dealt and not self.game.is_over)):
            what = "hand" if self.game.in_hand else "game"
            self.out.write(f"A {what} is in progress. Quit anyway? (y/n) ")
            if not self.read_line().strip().lower().startswith("y"):
                self.say("Not quitting.")
                return
        raise Quit

    def help(self, arguments: list[str]) -> None:
        no_arguments("H", arguments)
        name = self.command_set
        self.say(HELP, f"Now {name}: the commands are {' '.join(COMMAND_SETS[name])}.")

    def points(self, arguments: list[str]) -> None:
        no_arguments("P", arguments)
        game = self.current_game
        lines = [
            f"Points toward {game.target}: you {game.points_toward_target[YOU]}, "
            f"the computer {game.points_toward_target[COMPUTER]}.",
            f"Hands won (20-point box bonus each, not counted toward {game.target}): "
            f"you {game.hands_won[YOU]}, the computer {game.hands_won[COMPUTER]}.",
        ]
        if game.winner is not None:  # the game is over
            final = rules.final_scores(game.points_toward_target, game.hands_won, game.winner)
            lines.append(
                f"Game won by {seat_name(game.winner)}; totals with bonuses: "
                f"you {final[YOU]}, the computer {final[COMPUTER]}."
            )
        else:
            lines.append(f"The first to {game.target} points wins the game.")
        self.say(*lines)

    # -------------------------------------------------------------- between hands

    def new_game(self) -> None:
        first_dealer = self.rng.randrange(2)
        arrangers = (self.user_melds, computer_arranger(self.computer))
        game = Game(lambda: self.rng.sample(range(52), 52), first_dealer, arrangers=arrangers)
        self.game = game
        self.say(
            f"New game to {game.target} points: {seat_name(first_dealer)} deal{'s' * first_dealer} first."
            " Type D to deal, H for help."
        )

    def start_game(self, arguments: list[str]) -> None:
        no_arguments("S", arguments)
        self.new_game()

    def deal(self, arguments: list[str]) -> None:
        no_arguments("D", arguments)
        self.current_game.deal()
        hand = self.current_hand
        self.letters = dict.fromkeys(cards_in(hand.hands[YOU]), DEFAULT_SET)
        self.arranged = False
        self.say(deal_line(self.current_game.hands_dealt, hand.dealer))
        if hand.current_player == COMPUTER:
            self.say("The computer starts with 11 cards and does not draw.")
            self.computer_discard()
        if self.current_game.in_hand:
            self.your_turn()

    # -------------------------------------------------------------- during a hand

    def your_turn(self) -> None:
        hand = self.current_hand
        top = card_name(hand.top_discard) if hand.top_discard != NONE else "none"
        action = "draw (S stock, T discard pile)" if hand.phase == Phase.DRAW else "discard (D <n>) or knock (K <n>)"
        self.say(f"Your turn to {action}. Stock: {len(hand.stock)} cards. Top of the discard pile: {top}.")
        self.show_yours()

    def show_yours(self) -> None:
        self.listing = self.show("Your cards:", self.letters)
        unmatched = self.unmatched_cards(self.current_hand.hands[YOU])
        self.say(f"Unmatched in your sets: {rules.cards_value(unmatched)} points.")

    def show(self, title: str, letters: dict[int, str]) -> list[int]:
        """List cards by set letter, then suit-major; returns the cards in the order listed."""
        order = sorted(letters, key=lambda card: (letters[card], card))
        self.say(title, *(f"{i:3} {letters[card]} {card_name(card)}" for i, card in enumerate(order, 1)))
        return order

    def list_cards(self, arguments: list[str]) -> None:
        no_arguments("C", arguments)
        self.show_yours()

    def peek(self, arguments: list[str]) -> None:
        no_arguments("E", arguments)
        organization = rules.organize(cards_in(self.current_hand.hands[COMPUTER]))
        self.show("The computer's cards:", letters_of(organization))
        self.say(f"Unmatched: {organization.unmatched_value} points.")

    def organize(self, arguments: list[str]) -> None:
        no_arguments("O", arguments)
        self.letters = letters_of(rules.organize(cards_in(self.current_hand.hands[YOU])))
        self.arranged = True
        self.show_yours()

    def arrange(self, arguments: list[str]) -> None:
        if len(arguments) != 2:
            raise BadCommand("A needs a card number and a set letter, e.g. A 3 b.")
        card = self.listed_card("A", arguments[0])
        letter = arguments[1].lower()
        if len(letter) != 1 or letter not in LETTERS:
            raise BadCommand(f"'{arguments[1]}' is not a set letter: use one letter from a to z.")
        self.letters[card] = letter
        self.arranged = True
        self.say(f"{card_name(card)} is now in set {letter}.")

    def listed_card(self, command: str, text: str) -> int:
        """The card at position ``text`` of the last listing of the user's hand."""
        count = len(self.listing)
        try:
            position = int(text)
        except ValueError:
            raise BadCommand(f"'{text}' is not a card number: {command} needs a number from 1 to {count}.") from None
        if not 1 <= position <= count:
            raise BadCommand(f"There is no card {position}: {command} needs a number from 1 to {count}.")
        return self.listing[position - 1]

    def draw_stock(self, arguments: list[str]) -> None:
        no_arguments("S", arguments)
        self.user_draw(DRAW_STOCK)

    def take_discard(self, arguments: list[str]) -> None:
        no_arguments("T", arguments)
        self.user_draw(DRAW_DISCARD)

    def user_draw(self, action: int) -> None:
        drew = drawn(self.current_game.apply(action))
        # Unarranged, the hand stays the spec's single set a (listed suit-major, organized if the
        # computer knocks). Arranged, the card gets a set of its own: joining one of the user's sets
        # could spoil a meld they built, and listed last it is easy to find.
        self.letters[drew.card] = new_set_letter(self.letters.values()) if self.arranged else DEFAULT_SET
        self.say(drew_line(drew, card_seen=True))
        self.your_turn()

    def chosen_throw(self, command: str, arguments: list[str]) -> int:
        if len(arguments) != 1:
            raise BadCommand(f"{command} needs the number of the card to discard, e.g. {command} 3.")
        card = self.listed_card(command, arguments[0])
        if card == self.current_hand.taken:
            raise BadCommand(f"You may not discard {card_name(card)}: you just took it from the discard pile.")
        return card

    def discard(self, arguments: list[str]) -> None:
        card = self.chosen_throw("D", arguments)
        del self.letters[card]
        self.report(self.current_game.apply(card))
        if self.current_game.in_hand:
            self.computer_turn()

    def knock(self, arguments: list[str]) -> None:
        card = self.chosen_throw("K", arguments)
        left = self.unmatched_cards(self.current_hand.hands[YOU] & ~(1 << card))
        value = rules.cards_value(left)
        if value > rules.KNOCK_LIMIT:
            raise BadCommand(
                f"You cannot knock: your unmatched cards ({format_cards(left)}) count {value} points, "
                f"more than {rules.KNOCK_LIMIT}; arrange your sets with A or O."
            )
        del self.letters[card]
        self.report(self.current_game.apply(knock(card)))

    # -------------------------------------------------------------- sets and the computer

    def user_sets(self, hand: int) -> list[list[int]]:
        sets: dict[str, list[int]] = {}
        for card in cards_in(hand):
            sets.setdefault(self.letters.get(card, DEFAULT_SET), []).append(card)
        return [sets[letter] for letter in sorted(sets)]

    def user_melds(self, hand: int) -> list[list[int]]:
        """The arranger of the user's cards: the sets that are runs or groups. Laid down as the
        defender with a single set, the hand is organized first, as the O command would."""
        sets = self.user_sets(hand)
        if len(sets) == 1 and self.current_hand.ended is None and self.current_hand.current_player == COMPUTER:
            self.letters = letters_of(rules.organize(cards_in(hand)))
            sets = self.user_sets(hand)
        return [cards for cards in sets if rules.is_meld(cards)]

    def unmatched_cards(self, hand: int) -> list[int]:
        return [card for cards in self.user_sets(hand) if not rules.is_meld(cards) for card in cards]

    def computer_turn(self) -> None:
        self.say(drew_line(drawn(self.current_game.apply(self.computer_action())), card_seen=False))
        self.computer_discard()
        if self.current_game.in_hand:
            self.your_turn()

    def computer_discard(self) -> None:
        self.report(self.current_game.apply(self.computer_action()))

    def computer_action(self) -> int:
        """The computer's strategy's action, chosen from its own view of the hand (never the user's cards)."""
        return choose_one(self.computer, self.current_game)

    # -------------------------------------------------------------- results

    def report(self, events: list[Event]) -> None:
        for event in events:
            self.say(*event_lines(event, self.current_game.target))


def drawn(events: list[Event]) -> Drew:
    """The card drawn: a draw's events are one ``Drew``."""
    match events:
        case [Drew() as drew]:
            return drew
    raise TypeError(f"a draw's events are one Drew event, not {events!r}")


def new_set_letter(in_use: Iterable[str]) -> str:
    """The letter of a new set: the one after the highest in use, so its cards are listed last; past
    z, the first letter not in use (eleven cards never use all 26)."""
    used = set(in_use)
    following = LETTERS.index(max(used)) + 1
    if following < len(LETTERS):
        return LETTERS[following]
    return next(letter for letter in LETTERS if letter not in used)


def organized_melds(hand: int) -> tuple[tuple[int, ...], ...]:
    """The complete sequences and groups the spec's organizing algorithm finds in ``hand``."""
    return rules.organize(cards_in(hand)).complete


def computer_arranger(computer: Strategy) -> Arranger:
    """How the computer lays its cards down: the spec's player its organized melds (it knocks by
    their unmatched value), any other strategy an arrangement with the least deadwood (it knocks by
    that), so a computer's knock never shows more than 10 unmatched points."""
    return organized_melds if isinstance(computer, CS340) else best_melds


def letters_of(organization: rules.Organization) -> dict[int, str]:
    """Set letters a, b, c, ... for the organized sets, in the spec's category order."""
    return {card: LETTERS[i] for i, cards in enumerate(organization.sets()) for card in cards}


def no_arguments(command: str, arguments: list[str]) -> None:
    if arguments:
        raise BadCommand(f"{command} takes nothing after it (got '{' '.join(arguments)}').")


def parse_arguments(argv: list[str]) -> tuple[argparse.Namespace, Strategy]:
    """The options and the computer's strategy; bad ones end the program with argparse's message."""
    parser = argparse.ArgumentParser(prog="ginrummy", description="Gin Rummy against the computer (CS 340 rules).")
    parser.add_argument(
        "--seed", type=seed_argument(*SEED_RANGE), help="seed the shuffles and the first dealer (repeatable games)"
    )
    parser.add_argument(
        "--vs",
        default=SPEC_COMPUTER,
        metavar="NAME",
        help=f"the computer's strategy (default: {SPEC_COMPUTER}, the spec's computer player)",
    )
    strategies.add_import_option(parser)
    strategies.import_requested(parser, argv)
    arguments = parser.parse_args(argv)
    try:
        computer = strategies.get_fair("ginrummy", arguments.vs, "tables")
    except strategies.StrategyError as error:
        parser.error(str(error))
    return arguments, computer


def play(computer: str, seed: int | None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """``cardsim play ginrummy``: you against ``computer``."""
    return main(["--vs", computer] + ([] if seed is None else ["--seed", str(seed)]), stdin, stdout)


def main(argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Run the program; ``argv`` excludes the program name."""
    arguments, computer = parse_arguments(sys.argv[1:] if argv is None else argv)
    program = Program(random.Random(arguments.seed), stdin, stdout, computer)

    def run() -> None:
        try:
            program.run()
        except EndOfInput:
            stdout.write("\n")  # end the last prompt's line
        except Quit:
            stdout.write("Goodbye.\n")

    return run_program(run, stdout, stops=(), program="ginrummy")


if __name__ == "__main__":
    sys.exit(main())
