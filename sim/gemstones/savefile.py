"""Saved Gemstones games: a small, versioned plain-text file, written atomically, checked on load.

One ``key value ...`` line per field, cards as stone letters (top of the deck and of the discard pile
last), a chain slot as its letters or ``-`` when empty. Every field is required and appears once::

    cardsim-gemstones-save 1
    variants third_chain_cost=3 draw_at_turn_start=no finish_round=no sold_cards=removed bean_protection=no final_sale=no
    game_id 44
    turn 3
    step 9
    to_move 1
    phase PLAY_FIRST
    pending -
    resume -
    deck Q H O ... E
    trade_area
    discard T
    removed
    player1 Jane human
    coins1 0
    chains1 RR QQ
    hand1 R T T Q H O
    player2 Tom heuristic
    coins2 1
    chains2 - HHH
    hand2 T O O E A

The whole state is saved, not a replay, so a hand-edited file must itself describe a possible game:
the load checks the letters, that the 104 cards are all there, one chain per stone, the number of
slots, the coins and the phase against the cards.
"""  # noqa: E501 -- the example's variants line is one line of the file

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

import strategies
from sim.dealing import MAX_SEED
from sim.files import UnreadableFile, atomic_write_bytes, check_replaceable, read_bounded
from sim.gemstones import rules
from sim.gemstones.engine import NUM_PLAYERS, State, Variants
from sim.gemstones.observation import Phase
from sim.gemstones.words import MAX_NAME_LENGTH
from sim.numbers import NumberError, parse_int

HEADER = "cardsim-gemstones-save"
VERSION = 1
MAX_FILE_BYTES = 1 << 16
MAX_COUNT = 10**9  # turns, steps, coins: far beyond any real game, small enough to print
GAME_ID_RANGE = (0, MAX_SEED)
HUMAN = "human"
RESUMABLE = (Phase.OFFER, Phase.PLAY_FIRST, Phase.PLAY_SECOND, Phase.TRADE)
NAME_PATTERN = re.compile(rf"[^\s]{{1,{MAX_NAME_LENGTH}}}")


class SaveFileError(ValueError):
    """A save file that cannot be read or does not describe a possible game."""


@dataclass
class SavedGame:
    """Everything the console game needs to carry on: the players and the game state."""

    names: list[str]
    kinds: list[str]  # "human" or a registered gemstones strategy spec
    state: State


def _chain_word(chain: rules.Chain | None) -> str:
    return "-" if chain is None else rules.LETTERS[chain[0]] * chain[1]


def to_text(saved: SavedGame) -> str:
    """The save file's text for a game waiting for a decision."""
    state = saved.state
    variants = " ".join(state.variants.words())
    lines = [
        f"{HEADER} {VERSION}",
        f"variants {variants}",
        f"game_id {state.game_id}",
        f"turn {state.turn}",
        f"step {state.step}",
        f"to_move {state.current_player + 1}",
        f"phase {state.phase.name}",
        f"pending {'-' if state.pending is None else rules.LETTERS[state.pending]}",
        f"resume {'-' if state.resume is None else state.resume.name}",
        f"deck {rules.format_cards(state.deck)}",
        f"trade_area {rules.format_cards(state.trade_area)}",
        f"discard {rules.format_cards(state.discard)}",
        f"removed {rules.format_cards(state.removed)}",
    ]
    for seat in range(NUM_PLAYERS):
        number = seat + 1
        lines += [
            f"player{number} {saved.names[seat]} {saved.kinds[seat]}",
            f"coins{number} {state.coins[seat]}",
            f"chains{number} {' '.join(_chain_word(chain) for chain in state.slots[seat])}",
            f"hand{number} {rules.format_cards(state.hands[seat])}",
        ]
    return "".join(line.rstrip() + "\n" for line in lines)


def save(path: str | os.PathLike[str], saved: SavedGame) -> None:
    """Write the game to ``path`` atomically: a reader never sees a half-written file. An existing
    file is replaced only if it is a Gemstones saved game (``FileExistsError``, an ``OSError``, if not)."""
    check_replaceable(path, MAX_FILE_BYTES, is_save, "Gemstones saved game")
    atomic_write_bytes(path, to_text(saved).encode())


def load(path: str | os.PathLike[str]) -> SavedGame:
    """Read and check a saved game; any problem raises ``SaveFileError`` with one clear line."""
    try:
        raw = read_bounded(path, MAX_FILE_BYTES, "saved game")
    except UnreadableFile as error:
        raise SaveFileError(str(error)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveFileError("not a text file") from None
    return from_text(text)


def is_save(raw: bytes) -> bool:
    """Whether the bytes ``raw`` are a Gemstones save file (by its first line), whatever game state
    it describes."""
    return raw.startswith(HEADER.encode())


def _fields(text: str) -> dict[str, list[str]]:
    lines = text.splitlines()
    if not lines or not lines[0].startswith(HEADER):
        raise SaveFileError("not a Gemstones saved game")
    if lines[0].split() != [HEADER, str(VERSION)]:
        raise SaveFileError(f"unsupported save version {lines[0][len(HEADER) :].strip()!r} (expected {VERSION})")
    found: dict[str, list[str]] = {}
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        key, *values = line.split()
        if key not in EXPECTED_KEYS:
            raise SaveFileError(f"line {number}: unknown field {key!r}")
        if key in found:
            raise SaveFileError(f"line {number}: field {key!r} appears twice")
        found[key] = values
    missing = [key for key in EXPECTED_KEYS if key not in found]
    if missing:
        raise SaveFileError(f"missing field {missing[0]!r} (is the file truncated?)")
    return found


EXPECTED_KEYS = (
    "variants",
    "game_id",
    "turn",
    "step",
    "to_move",
    "phase",
    "pending",
    "resume",
    "deck",
    "trade_area",
    "discard",
    "removed",
    *(f"{key}{seat + 1}" for seat in range(NUM_PLAYERS) for key in ("player", "coins", "chains", "hand")),
)


def _single(found: dict[str, list[str]], key: str) -> str:
    if len(found[key]) != 1:
        raise SaveFileError(f"field {key!r} must hold one value")
    return found[key][0]


def _integer(found: dict[str, list[str]], key: str, low: int, high: int) -> int:
    try:
        return parse_int(_single(found, key), low, high)
    except NumberError:
        raise SaveFileError(f"field {key!r} must be a whole number from {low} to {high}") from None


def _stone(letter: str, key: str) -> int:
    if len(letter) != 1 or letter not in rules.LETTERS:
        raise SaveFileError(f"field {key!r}: unknown stone letter {letter[:10]!r} (letters: {rules.LETTERS})")
    return rules.LETTERS.index(letter)


def _cards(found: dict[str, list[str]], key: str) -> list[int]:
    if len(found[key]) > rules.NUM_CARDS:
        raise SaveFileError(f"field {key!r} holds more than {rules.NUM_CARDS} cards")
    return [_stone(letter, key) for letter in found[key]]


def _phase(found: dict[str, list[str]], key: str, allowed: Iterable[Phase]) -> Phase:
    text = _single(found, key)
    names = {phase.name: phase for phase in allowed}
    if text not in names:
        raise SaveFileError(f"field {key!r} must be one of {', '.join(names)}")
    return names[text]


def _optional_phase(found: dict[str, list[str]], key: str, allowed: Iterable[Phase]) -> Phase | None:
    """``-`` (None) or one of ``allowed``."""
    return None if _single(found, key) == "-" else _phase(found, key, allowed)


def _variants(words: list[str]) -> Variants:
    try:
        return Variants.parse(words)
    except ValueError as error:
        raise SaveFileError(f"field 'variants': {error}") from None


def _chains(found: dict[str, list[str]], key: str) -> rules.Slots:
    words = found[key]
    if len(words) not in (rules.BASE_SLOTS, rules.MAX_SLOTS):
        raise SaveFileError(f"field {key!r} must list 2 or 3 chain slots ('-' for an empty one)")
    slots: list[rules.Chain | None] = []
    for word in words:
        if word == "-":
            slots.append(None)
            continue
        stone = _stone(word[0], key)
        if word != word[0] * len(word):
            raise SaveFileError(f"field {key!r}: a chain holds one stone only ({word[:20]!r})")
        slots.append((stone, len(word)))
    stones = [chain[0] for chain in slots if chain is not None]
    if len(set(stones)) != len(stones):
        raise SaveFileError(f"field {key!r}: two chains of one stone")
    return tuple(slots)


def _player(found: dict[str, list[str]], key: str) -> tuple[str, str]:
    if len(found[key]) != 2:
        raise SaveFileError(f"field {key!r} must hold a name (one word) and 'human' or a strategy")
    name, kind = found[key]
    if not NAME_PATTERN.fullmatch(name):
        raise SaveFileError(f"field {key!r}: a name is one word of at most {MAX_NAME_LENGTH} characters")
    if kind != HUMAN:
        try:
            strategies.get("gemstones", kind)
        except strategies.StrategyError as error:
            raise SaveFileError(f"field {key!r}: {error}") from None
    return name, kind


def from_text(text: str) -> SavedGame:
    """Check a save file's text and rebuild the game it describes."""
    found = _fields(text)
    names, kinds = zip(*(_player(found, f"player{seat + 1}") for seat in range(NUM_PLAYERS)))
    if len(set(names)) != len(names):
        raise SaveFileError(f"both players are called {names[0]}; a new game refuses that too")
    state = State(
        deck=_cards(found, "deck"),
        variants=_variants(found["variants"]),
        game_id=_integer(found, "game_id", *GAME_ID_RANGE),
        hands=[_cards(found, f"hand{seat + 1}") for seat in range(NUM_PLAYERS)],
        slots=[_chains(found, f"chains{seat + 1}") for seat in range(NUM_PLAYERS)],
        coins=[_integer(found, f"coins{seat + 1}", 0, MAX_COUNT) for seat in range(NUM_PLAYERS)],
        trade_area=_cards(found, "trade_area"),
        discard=_cards(found, "discard"),
        removed=_cards(found, "removed"),
        current_player=_integer(found, "to_move", 1, NUM_PLAYERS) - 1,
        phase=_phase(found, "phase", [phase for phase in Phase if phase != Phase.OVER]),
        pending=None if _single(found, "pending") == "-" else _stone(_single(found, "pending"), "pending"),
        resume=_optional_phase(found, "resume", RESUMABLE),
        turn=_integer(found, "turn", 1, MAX_COUNT),
        step=_integer(found, "step", 0, MAX_COUNT),
    )
    _check_cards(state)
    _check_phase(state)
    return SavedGame(list(names), list(kinds), state)


def _check_cards(state: State) -> None:
    for seat, hand in enumerate(state.hands):
        if len(hand) > rules.HAND_WIDTH:
            raise SaveFileError(f"player {seat + 1} holds {len(hand)} cards; no hand reaches {rules.HAND_WIDTH + 1}")
    counts = rules.stone_counts(state.cards_in_play())
    for stone, (count, expected) in enumerate(zip(counts, rules.CARDS_PER_STONE)):
        if count != expected:
            raise SaveFileError(
                f"the cards do not add up to the game's {rules.NUM_CARDS}: "
                f"{count} {rules.STONES[stone]} instead of {expected}"
            )


def _check_phase(state: State) -> None:
    """The phase must be one the game can be in with these cards."""
    seat = state.current_player
    selling = state.phase == Phase.SELL
    if selling != (state.pending is not None) or selling != (state.resume is not None):
        raise SaveFileError("fields 'pending' and 'resume' are set exactly when the phase is SELL")
    if state.pending is not None and rules.slot_for(state.slots[seat], state.pending) is not None:  # when selling
        raise SaveFileError("field 'pending': that card fits a chain, so no sale is due")
    step = state.resume if selling else state.phase
    if step in (Phase.PLAY_FIRST, Phase.PLAY_SECOND, Phase.DISCARD) and state.trade_area:
        raise SaveFileError(f"the trade area must be empty in phase {step.name}")
    if state.phase in (Phase.PLAY_FIRST, Phase.PLAY_SECOND, Phase.DISCARD) and not state.hands[seat]:
        raise SaveFileError(f"player {seat + 1}'s hand cannot be empty in phase {state.phase.name}")
    if step in (Phase.OFFER, Phase.TRADE) and not state.trade_area and not selling:
        raise SaveFileError(f"the trade area cannot be empty in phase {step.name}")
    if not state.legal_actions():
        raise SaveFileError(f"player {seat + 1} has nothing to do in phase {state.phase.name}")
    if state.phase == Phase.BUY and len(state.slots[seat]) != rules.BASE_SLOTS:
        raise SaveFileError("the third chain is already bought")
    if state.phase == Phase.BUY and state.coins[seat] < state.variants.third_chain_cost:
        raise SaveFileError("not enough coins to be offered the third chain")
