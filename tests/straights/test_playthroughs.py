"""Engine playthroughs: a deal and its action list, replayed through the reference engine, must print
exactly the stored text (whose turn, the legal actions and what happened, step by step).

Each file under ``playthroughs/`` starts with ``deck:`` and ``actions:`` lines; everything after is
the canonical text. Regenerate with ``python -m tests.straights.test_playthroughs`` after an intended
change of behaviour, and read the diff.
"""

from pathlib import Path

import strategies
from sim.cards import card_name, format_cards, parse_card
from sim.straights.engine import Round
from sim.straights.game import PACKS
from tests.playthroughs import playthrough_tests, regenerate

PLAYTHROUGHS = Path(__file__).parent / "playthroughs"
# (file name, deal seed, deal index, strategy spec playing every seat) of the stored playthroughs.
CASES = [
    ("first-legal-seed-1.txt", 1, 0, "first-legal"),
    ("heuristic-seed-2.txt", 2, 5, "heuristic"),
    ("mc-seed-3.txt", 3, 7, "mc:samples=8"),
]


def canonical_text(deck: list[int], actions: list[int]) -> str:
    """The step-by-step record of replaying ``actions`` on ``deck``."""
    current = Round(tuple(deck))
    lines = [f"deck: {format_cards(deck)}", f"actions: {format_cards(actions)}", f"leader: Player{current.leader + 1}"]
    for step, card in enumerate(actions):
        seat = current.current_player
        legal = format_cards(current.legal_actions())
        (event,) = current.apply(card)
        lines.append(f"{step:2d} Player{seat + 1} [{legal}] {type(event).__name__.lower()} {card_name(card)}")
    lines.append(f"points: {' '.join(map(str, current.points()))}")
    return "\n".join(lines) + "\n"


def record(seed: int, index: int, spec: str) -> str:
    """Play deal ``index`` of ``seed`` with ``spec`` in every seat and return its playthrough text."""
    deck = [int(card) for card in PACKS.deals(seed, index, 1)[0]]
    strategy = strategies.get("straights", spec)
    current = Round(tuple(deck), round_id=index)
    while not current.is_over:
        current.apply(int(strategy.choose(current.observe())[0]))
    return canonical_text(deck, current.actions)


def replay(stored: str) -> str:
    """The text that replaying a stored playthrough's deck and actions gives."""
    deck_line, actions_line = stored.splitlines()[:2]
    deck = [parse_card(word) for word in deck_line.removeprefix("deck: ").split()]
    actions = [parse_card(word) for word in actions_line.removeprefix("actions: ").split()]
    return canonical_text(deck, actions)


test_replaying_a_playthrough_reproduces_it, test_the_strategy_still_plays_its_playthrough = playthrough_tests(
    PLAYTHROUGHS, CASES, replay, record
)

if __name__ == "__main__":
    regenerate(PLAYTHROUGHS, CASES, record)
