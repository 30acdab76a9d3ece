"""Saved Straights games (the spec's testing mode, section 7): a small JSON document.

The authoritative fields are the deck of the current round, the actions taken in it, the game scores
before it, the number of rounds played, and the dealing generator's state, so a loaded game continues
exactly as the original would have. For people reading or hand-writing a file, the current hands,
table, discards and the player to move are written too; on load they are checked against a replay of
the actions, so an edited file cannot describe an impossible game. Example::

    {"format": "cardsim-straights-save", "version": 1,
     "players": ["human", "computer", "computer", "computer"], "computer": "first-legal",
     "seed": 6788, "rng_state": 1043618065, "rounds_played": 0, "scores": [0, 0, 0, 0],
     "deck": "4H 5D 2D ... KD", "actions": "7S AS 7D",
     "to_move": 3, "hands": ["5D 2D ...", ...], "table": "7S 7D", "discards": ["AS", "", "", ""]}
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

import strategies
from sim.cards import NUM_CARDS, CardError, format_cards, parse_card
from sim.cxxrand import MINSTD_MAX, MINSTD_MIN
from sim.files import UnreadableFile, atomic_write_bytes, check_replaceable, read_bounded
from sim.numbers import NumberError, json_int
from sim.straights import rules
from sim.straights.engine import Game, IllegalAction, Round, SpecDeck

FORMAT = "cardsim-straights-save"
VERSION = 1
PLAYER_KINDS = ("human", "computer")
MAX_FILE_BYTES = 1 << 20
MAX_ROUNDS = 10**6


class SaveFileError(ValueError):
    """A save file that cannot be read or does not describe a possible game."""


@dataclass
class SavedGame:
    """Everything the interactive program needs to carry on a game."""

    players: list[str]
    computer: str
    seed: int
    dealer: SpecDeck
    game: Game


def to_document(saved: SavedGame) -> dict[str, Any]:
    """The JSON-ready description of a game in progress."""
    current = saved.game.round
    assert current is not None and not current.is_over
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": list(saved.players),
        "computer": saved.computer,
        "seed": saved.seed,
        "rng_state": saved.dealer.rng.state,
        "rounds_played": saved.game.rounds_played,
        "scores": list(current.scores),
        "deck": format_cards(current.deck),
        "actions": format_cards(current.actions),
        "to_move": current.current_player + 1,
        "hands": [format_cards(hand) for hand in current.hands],
        "table": format_cards(card for card in current.actions if current.table >> card & 1),
        "discards": [format_cards(discards) for discards in current.discards],
    }


def save(path: str | os.PathLike[str], saved: SavedGame) -> None:
    """Write the game to ``path`` atomically: a reader never sees a half-written file. An existing
    file is replaced only if it is a Straights saved game (``FileExistsError``, an ``OSError``, if not)."""
    check_replaceable(path, MAX_FILE_BYTES, is_save, "Straights saved game")
    atomic_write_bytes(path, (json.dumps(to_document(saved), indent=1) + "\n").encode())


def load(path: str | os.PathLike[str]) -> SavedGame:
    """Read and validate a saved game; any problem raises ``SaveFileError`` with one clear line."""
    try:
        raw = read_bounded(path, MAX_FILE_BYTES, "saved game")
    except UnreadableFile as error:
        raise SaveFileError(str(error)) from None
    return from_document(parsed(raw))


def parsed(raw: bytes) -> Any:
    """The JSON document of a file's bytes; ``SaveFileError`` if they are not JSON."""
    try:
        return json.loads(raw.decode("utf-8"), parse_int=json_int)
    except NumberError as error:
        raise SaveFileError(f"a number in the file: {error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise SaveFileError("not a JSON saved game") from None


def is_save(raw: bytes) -> bool:
    """Whether the bytes ``raw`` are a Straights save file (by its format field), whatever game state
    it describes."""
    try:
        document = parsed(raw)
    except SaveFileError:
        return False
    return isinstance(document, dict) and document.get("format") == FORMAT


def _field(document: dict[str, Any], name: str, kind: type) -> Any:
    if name not in document:
        raise SaveFileError(f"missing field {name!r}")
    value = document[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SaveFileError(f"field {name!r} must be a {kind.__name__}")
    return value


def _bounded_int(document: dict[str, Any], name: str, low: int, high: int) -> int:
    value = _field(document, name, int)
    if not low <= value <= high:
        raise SaveFileError(f"field {name!r} must be between {low} and {high}")
    return value


def _cards(text: str, name: str) -> list[int]:
    try:
        return [parse_card(word) for word in text.split()]
    except CardError as error:
        raise SaveFileError(f"field {name!r}: {error}") from None


def _card_lists(document: dict[str, Any], name: str) -> list[list[int]]:
    value = _field(document, name, list)
    if len(value) != rules.NUM_PLAYERS or not all(isinstance(item, str) for item in value):
        raise SaveFileError(f"field {name!r} must list {rules.NUM_PLAYERS} strings of cards")
    return [_cards(item, name) for item in value]


def from_document(document: Any) -> SavedGame:
    """Validate a parsed save document and rebuild the game by replaying its actions."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SaveFileError(f"not a Straights saved game (format must be {FORMAT!r})")
    if document.get("version") != VERSION:
        raise SaveFileError(f"unsupported save version {document.get('version')!r} (expected {VERSION})")
    players = _field(document, "players", list)
    if len(players) != rules.NUM_PLAYERS or any(player not in PLAYER_KINDS for player in players):
        raise SaveFileError("field 'players' must list 4 of 'human' or 'computer'")
    computer = _field(document, "computer", str)
    try:
        strategies.get("straights", computer)
    except strategies.StrategyError as error:
        raise SaveFileError(f"field 'computer': {error}") from None
    seed = _bounded_int(document, "seed", -(2**31), 2**31 - 1)
    rng_state = _bounded_int(document, "rng_state", MINSTD_MIN, MINSTD_MAX)
    rounds_played = _bounded_int(document, "rounds_played", 0, MAX_ROUNDS)
    scores = _field(document, "scores", list)
    if len(scores) != rules.NUM_PLAYERS or not all(
        isinstance(score, int) and not isinstance(score, bool) and 0 <= score < rules.GAME_OVER_SCORE
        for score in scores
    ):
        raise SaveFileError(f"field 'scores' must list 4 whole numbers from 0 to {rules.GAME_OVER_SCORE - 1}")
    deck = _cards(_field(document, "deck", str), "deck")
    if sorted(deck) != list(range(NUM_CARDS)):
        raise SaveFileError("field 'deck' must hold each of the 52 cards exactly once")
    actions = _cards(_field(document, "actions", str), "actions")
    if len(actions) >= rules.ROUND_LENGTH:
        raise SaveFileError("field 'actions' describes a finished round")

    current = Round(tuple(deck), tuple(scores), rounds_played)
    for step, card in enumerate(actions):
        try:
            current.apply(card)
        except IllegalAction as error:
            raise SaveFileError(f"action {step + 1} of field 'actions': {error}") from None
    _check_derived(document, current)

    dealer = SpecDeck(seed, deck)
    dealer.rng.state = rng_state
    game = Game.resume(dealer, current, rounds_played)
    return SavedGame(list(players), computer, seed, dealer, game)


def _check_derived(document: dict[str, Any], current: Round) -> None:
    """The optional human-readable fields must agree with the replayed round."""
    if "to_move" in document and document["to_move"] != current.current_player + 1:
        raise SaveFileError(
            f"field 'to_move' disagrees with the actions (Player{current.current_player + 1} is to move)"
        )
    if "hands" in document and _card_lists(document, "hands") != current.hands:
        raise SaveFileError("field 'hands' disagrees with the deck and actions")
    if "discards" in document and _card_lists(document, "discards") != current.discards:
        raise SaveFileError("field 'discards' disagrees with the deck and actions")
    if "table" in document:
        table = _cards(_field(document, "table", str), "table")
        if sorted(table) != sorted(card for card in current.actions if current.table >> card & 1):
            raise SaveFileError("field 'table' disagrees with the deck and actions")
