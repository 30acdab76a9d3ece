"""The one reference loop: states of any game played out by strategies, one decision at a time.

Every game's reference engine is driven the same way (``sim.api``): ask the strategy of the seat to
move with the state's observation (a batch of one) and apply its answer, until the state is over.
``rounds_player`` and ``games_player`` turn a game's ``new_state`` and ``new_game`` into the
``play_rounds``/``play_games`` functions the tournament pipeline calls; ``reference_state`` is the state
a tournament plays for a deal (or whole game) of its seed, for replays and environments.
``play_together`` plays many states side by side, asking a strategy once for all the states waiting
for it (cross-checks use it: a batch of one per decision costs a compiled strategy most of its time).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from sim.api import IllegalAction, NewGame, NewState, State, Strategy, legal_mask_of
from sim.games import DealSource, Game, GamesResult, PlayGames, PlayRounds, RoundsResult, game_deal_source
from sim.lockstep import choose_checked, fault

S = TypeVar("S", bound=State)


def ignore_events(events: list[Any]) -> None:
    """What ``play_out`` does with each action's events unless told otherwise: nothing."""


def play_out(state: S, strategies: Sequence[Strategy], witness: Callable[[list[Any]], None] = ignore_events) -> S:
    """Play ``state`` to its end, ``strategies[seat]`` choosing for each seat; returns it.

    ``witness`` is handed the events of every action as it is taken (``sim.replay`` tells them). A
    strategy that misbehaves raises ``StrategyFault`` (``choose_one``)."""
    current_round, step = None, 0
    while not state.is_over:
        observation = state.observe()
        # Steps count a round's decisions, as the fast engines do; a whole game starts each round at 0.
        step = step + 1 if observation.round_id[0] == current_round else 0
        current_round = observation.round_id[0]
        witness(state.apply(_chosen(strategies[state.current_player], state, observation, step)))
    return state


def play_together(
    states: Sequence[S], strategies: Sequence[Strategy], together: Callable[[Strategy], bool]
) -> list[list[int]]:
    """Play every one of ``states`` to its end, as ``play_out`` plays each, side by side; returns the
    actions each took, in order.

    Each turn every state not yet over takes one decision. A strategy for which ``together(strategy)``
    holds is asked once for all the states waiting for it, their observations stacked into one batch
    (``stacked``); any other is asked with each state as a batch of one, as ``play_out`` asks. Faults
    are ``play_out``'s, naming the state's round id, step and seat."""
    actions: list[list[int]] = [[] for _ in states]
    steps = [0] * len(states)
    rounds: list[Any] = [None] * len(states)
    live = [index for index, state in enumerate(states) if not state.is_over]
    while live:
        observations = {index: states[index].observe() for index in live}
        seat_of: dict[int, int] = {}
        waiting: dict[int, list[int]] = {}
        for index in live:
            # Steps count a round's decisions, as in ``play_out``.
            round_id = observations[index].round_id[0]
            steps[index] = steps[index] + 1 if round_id == rounds[index] else 0
            rounds[index] = round_id
            seat_of[index] = states[index].current_player
            waiting.setdefault(seat_of[index], []).append(index)
        by_strategy: dict[int, list[int]] = {}
        for seat, indexes in waiting.items():
            by_strategy.setdefault(id(strategies[seat]), []).extend(indexes)
        for indexes in by_strategy.values():
            strategy = strategies[seat_of[indexes[0]]]
            if together(strategy) and len(indexes) > 1:
                chosen = _chosen_together(
                    strategy,
                    [observations[i] for i in indexes],
                    [steps[i] for i in indexes],
                    [seat_of[i] for i in indexes],
                )
            else:
                chosen = [_chosen(strategy, states[i], observations[i], steps[i]) for i in indexes]
            for index, action in zip(indexes, chosen):
                try:
                    states[index].apply(action)
                except IllegalAction:  # a batch's legality is left to the state: it refuses, unchanged
                    what = f"chose action {action}, which is not legal there"
                    raise fault(strategy, what, observations[index].round_id, steps[index], seat_of[index]) from None
                actions[index].append(action)
        live = [index for index in live if not states[index].is_over]
    return actions


def _chosen_together(
    strategy: Strategy, observations: Sequence[Any], steps: Sequence[int], seats: Sequence[int]
) -> list[int]:
    """The actions ``strategy`` chooses, asked once with ``observations`` stacked: each one of the
    game's actions, else a fault naming its round id, step and seat. Whether each is legal is left
    to its state (``play_together``)."""
    num_actions = observations[0].legal_mask.shape[1]
    return choose_checked(strategy, stacked(observations), num_actions, np.array(steps), np.array(seats)).tolist()


def stacked(observations: Sequence[Any]) -> Any:
    """One observation of every row of ``observations`` (records of one type), in their order.

    A dataclass of arrays (``sim.api.ArrayRecord``) is made again from its fields end to end; any
    other record is made as ``type(size, fields)``, each field joined when first read (Straights'
    lazy record)."""
    first = observations[0]
    kind = type(first)
    if dataclasses.is_dataclass(first):
        names = [item.name for item in dataclasses.fields(first)]
        return kind(**{name: np.concatenate([getattr(seen, name) for seen in observations]) for name in names})
    return kind(len(observations), {name: functools.partial(_joined, observations, name) for name in first.arrays()})


def _joined(observations: Sequence[Any], name: str) -> np.ndarray:
    """Field ``name`` of every one of ``observations``, end to end."""
    return np.concatenate([getattr(seen, name) for seen in observations])


def choose_one(strategy: Strategy, state: State, step: int | None = None) -> int:
    """The action ``strategy`` chooses for the player to move in ``state`` (not over).

    ``StrategyFault`` (one line: the strategy, the round id, ``step`` when given, and the seat) when
    the strategy raises, returns anything but one whole number, or chooses an action that is not
    among ``state.legal_actions()``."""
    return _chosen(strategy, state, state.observe(), step)


def _chosen(strategy: Strategy, state: State, observation: Any, step: int | None) -> int:
    """``choose_one`` given the state's observation."""
    legal = legal_mask_of(state.legal_actions(), observation.legal_mask.shape[1])
    return int(choose_checked(strategy, observation, legal, step, state.current_player)[0])


def reference_state(game: Game, seed: int, index: int, whole_game: bool = False) -> State:
    """The reference state tournaments play for ``index`` of ``seed``: deal ``index`` as round
    ``index``, or whole game ``index`` dealt round after round as ``games_player`` deals it
    (``games.game_deal_source``)."""
    if not whole_game:
        return game.new_state(game.deals(seed, index, 1)[0], index)
    deal_source = game_deal_source(game, seed)
    rounds = itertools.count()

    def next_deal() -> Sequence[int]:
        return deal_source(np.array([index]), next(rounds))[0]

    return game.new_game(next_deal, index)


def rounds_player(new_state: NewState, num_seats: int) -> PlayRounds:
    """``play_rounds(deals, strategies, round ids)`` on the reference engine: each deal played as one
    state made by ``new_state``; returns each seat's points."""

    def play_rounds(deals: np.ndarray, strategies: Sequence[Strategy], round_ids: np.ndarray) -> RoundsResult:
        points = [play_out(new_state(deal, int(rid)), strategies).points() for deal, rid in zip(deals, round_ids)]
        return RoundsResult(np.array(points, dtype=np.int64).reshape(len(deals), num_seats))

    return play_rounds


def games_player(new_game: NewGame, num_seats: int) -> PlayGames:
    """``play_games(game ids, deal source, strategies)`` on the reference engine: whole games made by
    ``new_game``; round ``r`` of game ``g`` is dealt ``deal_source([g], r)``."""

    def play_games(game_ids: np.ndarray, deal_source: DealSource, strategies: Sequence[Strategy]) -> GamesResult:
        game_ids = np.asarray(game_ids, dtype=np.int64)
        rounds_dealt: dict[int, np.ndarray] = {}  # round number -> that round's deal of every game

        def deal(row: int, round_number: int) -> Sequence[int]:
            # Deal a round for the whole batch at once: the block dealer is fastest over neighbours.
            if round_number not in rounds_dealt:
                rounds_dealt[round_number] = deal_source(game_ids, round_number)
            return rounds_dealt[round_number][row]

        def dealer_of(row: int) -> Callable[[], Sequence[int]]:
            """``next_deal`` of the game in ``row``: its rounds 0, 1, 2, ... in turn."""
            rounds_of_game = itertools.count()
            return lambda: deal(row, next(rounds_of_game))

        scores = np.zeros((len(game_ids), num_seats), dtype=np.int64)
        rounds = np.zeros(len(game_ids), dtype=np.int64)
        winners = np.zeros((len(game_ids), num_seats), dtype=bool)
        for row, game_id in enumerate(game_ids.tolist()):
            state = play_out(new_game(dealer_of(row), game_id), strategies)
            scores[row], rounds[row] = state.points(), state.rounds_played
            winners[row, list(state.winning_seats())] = True
        return GamesResult(scores, rounds, winners)

    return play_games
