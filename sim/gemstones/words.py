"""How Gemstones is said: the ``gemstones`` program's text for each engine event and its table at the
start of a turn (docs/gemstones.md), and the web table's words for people ("North chains a Ruby from
the offer."), which the program, the transcript (``sim.gemstones.transcript``) and the table view
(``sim.gemstones.view``) share.

The people's words name stones in full, conjugate for the person (``YOU``), and print none of the
program's table printouts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sim.gemstones import rules
from sim.gemstones.engine import (
    DEFAULT_VARIANTS,
    NUM_PLAYERS,
    BoughtThirdChain,
    Chained,
    Discarded,
    Drew,
    Event,
    GameEnded,
    Sold,
    State,
    TradeAreaFilled,
    TurnStarted,
)
from sim.numbers import amount
from sim.people import YOU, verb

MAX_NAME_LENGTH = 20
"""The longest name a player goes by (one word): the program asks for no longer, and a save file keeps no longer."""
SOURCE_NAMES = {"offer": "the offer", "hand": "the hand", "trade": "the trade area"}

TITLE = "Gemstones"
BLURB = "Two players chain gemstone cards from hand and trade area, and sell the chains for coins."


def computer_name(seat: int, kinds: list[str]) -> str:
    """A computer is called by its strategy; the same strategy twice gets seat numbers."""
    name = kinds[seat].split(":")[0][: MAX_NAME_LENGTH - 1]
    return f"{name}{seat + 1}" if kinds.count(kinds[seat]) > 1 else name


def player_line(name: str, coins: int) -> str:
    """The spec's player line: the name in 9 characters, a space, then the coins."""
    return f"{name:<9} {coins} coins"


def table_lines(state: State, names: list[str], show_hand: bool) -> list[str]:
    """The table at the start of a turn: both players and their chains, the discard pile's top card,
    the trade area, the deck size, and the mover's hand when a human is to move."""
    lines = ["", f"Turn {state.turn}: {names[state.current_player]} to play"]
    for seat in range(NUM_PLAYERS):
        lines.append(player_line(names[seat], state.coins[seat]))
        lines += [rules.format_chain(chain) for chain in state.slots[seat] if chain is not None]
    lines.append(f"Discard pile: {rules.LETTERS[state.discard[-1]] if state.discard else 'empty'}")
    lines.append(f"Trade area: {rules.format_cards(state.trade_area) or 'empty'}")
    lines.append(f"Deck: {len(state.deck)} cards")
    if show_hand:
        lines.append(f"Hand: {rules.format_cards(state.hands[state.current_player]) or 'empty'}")
    return lines


def event_lines(event: Event, names: list[str]) -> list[str]:
    """The text of one engine event (the table itself is printed separately)."""
    match event:
        case TurnStarted():
            return []
        case BoughtThirdChain(seat=seat, cost=cost):
            return [f"{names[seat]} buys a third chain for {cost} coins."]
        case Drew(seat=seat, stones=stones):
            return [f"{names[seat]} draws {len(stones)} card{'s' * (len(stones) != 1)} into the hand."]
        case Chained(seat=seat, stone=stone, source=source):
            return [f"{names[seat]} chains {rules.LETTERS[stone]} from {SOURCE_NAMES[source]}."]
        case Sold(seat=seat, stone=stone, length=length, coins=coins):
            return [f"{names[seat]} sells the {rules.STONES[stone]} chain of {length} for {amount(coins, 'coin')}."]
        case Discarded(seat=seat, stones=stones, source="offer"):
            return [f"{names[seat]} discards the rest of the offer: {rules.format_cards(stones)}."]
        case Discarded(seat=seat, stones=stones):
            return [f"{names[seat]} discards {rules.format_cards(stones)} from the hand."]
        case TradeAreaFilled(seat=seat, drawn=drawn, pulled=pulled):
            line = f"{names[seat]} draws {rules.format_cards(drawn) or 'nothing'} into the trade area"
            return [line + (f" and pulls {rules.format_cards(pulled)} from the discard pile." if pulled else ".")]
        case GameEnded(coins=coins, winner=winner):
            lines = ["", "The deck is empty: the game is over."]
            lines += [player_line(names[seat], coins[seat]) for seat in range(NUM_PLAYERS)]
            return lines + ["It's a draw." if winner is None else f"{names[winner]} wins!"]
    raise TypeError(f"unknown event {event!r}")


# --------------------------------------------------------------------------- the web table's words

PEOPLE_SOURCES = {"offer": "the offer", "hand": "their hand", "trade": "the trade area"}


def stones_text(stones: Iterable[int]) -> str:
    """Stones in full: ``Ruby, Quartz``."""
    return ", ".join(rules.STONES[stone] for stone in stones)


def a_stone(stone: int) -> str:
    """A stone with its article: "a Ruby", "an Emerald"."""
    name = rules.STONES[stone]
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


def their(name: str) -> str:
    return "your" if name == YOU else "their"


def turn_line(turn: int, name: str) -> str:
    return f"Turn {turn}: {'your' if name == YOU else name + chr(39) + 's'} turn."


def people_lines(event: Event, names: Sequence[str]) -> list[str]:
    """The web table's words for one engine event (cards drawn into a hand counted: ``drew_line``
    names them to the seat that sees them)."""
    match event:
        case TurnStarted(seat=seat, turn=turn):
            return [turn_line(turn, names[seat])]
        case BoughtThirdChain(seat=seat, cost=cost):
            return [f"{verb(names[seat], 'buy', 'buys')} a third chain for {amount(cost, 'coin')}."]
        case Drew(seat=seat, stones=stones):
            return [drew_line(names[seat], stones, seen=False)]
        case Chained(seat=seat, stone=stone, source=source):
            where = f"{their(names[seat])} hand" if source == "hand" else PEOPLE_SOURCES[source]
            return [f"{verb(names[seat], 'chain', 'chains')} {a_stone(stone)} from {where}."]
        case Sold(seat=seat, stone=stone, length=length, coins=coins):
            sold = f"{verb(names[seat], 'sell', 'sells')} the {rules.STONES[stone]} chain of {length}"
            return [f"{sold} for {amount(coins, 'coin')}."]
        case Discarded(seat=seat, stones=stones, source="offer"):
            return [f"{verb(names[seat], 'discard', 'discards')} the rest of the offer: {stones_text(stones)}."]
        case Discarded(seat=seat, stones=stones):
            thrown = ", ".join(map(a_stone, stones))
            return [f"{verb(names[seat], 'discard', 'discards')} {thrown} from {their(names[seat])} hand."]
        case TradeAreaFilled(seat=seat, drawn=drawn, pulled=pulled):
            line = f"{verb(names[seat], 'draw', 'draws')} {stones_text(drawn) or 'nothing'} into the trade area"
            if pulled:
                line += f" and {'pull' if names[seat] == YOU else 'pulls'} {stones_text(pulled)} from the discard pile"
            return [line + "."]
        case GameEnded(coins=coins, winner=winner):
            said = ", ".join(f"{names[seat]} {amount(coins[seat], 'coin')}" for seat in range(NUM_PLAYERS))
            result = "It's a draw." if winner is None else f"{verb(names[winner], 'win', 'wins')}!"
            return [f"The deck is empty: the game is over. {said}. {result}"]
    raise TypeError(f"unknown event {event!r}")


def drew_line(name: str, stones: Sequence[int], seen: bool) -> str:
    """Cards drawn into a hand: named when ``seen``, else counted."""
    drawn = stones_text(stones) if seen and stones else amount(len(stones), "card")
    return f"{verb(name, 'draw', 'draws')} {drawn} into {their(name)} hand."


def hand_line(name: str, stones: Iterable[int]) -> str:
    """A seat's hand, front card first."""
    return f"{'Your' if name == YOU else name + chr(39) + 's'} hand, front first: {stones_text(stones) or 'empty'}."


def chain_value_rows() -> list[str]:
    """The coins each stone's chain sells for, by length, as the rules page's table rows."""
    rows = []
    for stone, name in enumerate(rules.STONES):
        lengths = [
            next(
                (
                    length
                    for length in range(1, rules.CARDS_PER_STONE[stone] + 1)
                    if rules.chain_value(stone, length) == coins
                ),
                None,
            )
            for coins in range(1, rules.MAX_COINS_PER_CHAIN + 1)
        ]
        cells = " | ".join("–" if length is None else str(length) for length in lengths)
        picture = f"![{name}](/cards/{name.lower()}.svg)"
        rows.append(f"| {picture} {name} ({rules.LETTERS[stone]}) | {rules.CARDS_PER_STONE[stone]} | {cells} |")
    return rows


RULES = (
    f"""
## The aim

Two players; {rules.NUM_CARDS} cards of eight gemstones. You put cards on **chains** (each chain holds
one stone), and sell chains for coins. When the deck is empty the game ends, and the most coins win;
chains still on the table then earn nothing. You have {rules.BASE_SLOTS} chain slots, and may buy a third for
{amount(DEFAULT_VARIANTS.third_chain_cost, "coin")} at the start of a turn.

## A turn

1. **The offer.** The cards your opponent left in the trade area: chain the ones you want; the rest
   go on the discard pile.
2. **Play the front card** of your hand onto a chain of its stone. With no such chain and no free
   slot, you must sell a chain to make room.
3. You may **play the next card** too.
4. You may **discard one card** from anywhere in your hand.
5. **The trade area.** Three cards are drawn face up, then cards from the discard pile while its top
   card matches a stone there. Chain the ones you want; the rest stay as your opponent's offer.
6. You draw two cards to the back of your hand. Your hand keeps its order: cards are played from
   the front.

## Selling

A chain sells for coins by its length (the cards needed for 1, 2, 3 and 4 coins); a chain
too short to earn a coin sells for nothing.

| Stone | Cards | 1 coin | 2 coins | 3 coins | 4 coins |
|---|---|---|---|---|---|
"""
    + "\n".join(chain_value_rows())
    + """

## At the web table

Each stone has its own letter and shape as well as its colour. Click your front card to play it,
any raised card to discard it; chaining from the offer or the trade area, passing, buying and
selling are buttons beside your hand.
"""
)
