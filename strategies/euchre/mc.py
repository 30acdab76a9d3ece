"""Monte-Carlo lookahead for Euchre (``mc``) and its cheating yardstick (``oracle-mc``).

``mc`` deals the cards its seat has not seen many times over, consistently with everything it has
seen, plays every legal action out in each of those worlds on the fast engine
(``strategies.montecarlo``) with a rollout policy (``heuristic``) after it, and keeps the action
that does best on average: the points its team scores in the hand minus the other team's. Every
decision is looked ahead: ordering up or passing, naming a suit in round two, the dealer's discard
and each card played. ``oracle-mc`` runs the same lookahead in the one true world.

**What a seat knows** (``sim.euchre.observation``): its own cards (as dealer, the card it threw
away), the upcard and the bidding, and every card played and by whom (each trick's winner leads the
next). A seat that does not follow the suit led holds none of that suit from then on: it is *void*
in it, as nobody ever picks cards up during the tricks.

**The sampler.** The cards it has not seen fill *slots* (``strategies.montecarlo.draw_slot_cards``):
the cards each other seat still holds (none of its voids), the three undealt cards and, when another
dealer picked up the upcard, the card it threw away. That dealer keeps the upcard (a trump) until
its voids or its empty hand show it has not, in which case the upcard was its discard: a modelling choice
(a dealer throws away its least useful card, rarely the trump it just picked up), always consistent
with what was seen.

**Inference** (``oversample``, 8 by default): draw ``oversample`` times as many worlds, replay each
to the decision (``fast.judge_scripts``) and keep those in which the models of the other seats would
have made the most of their past actions: the other partnership's bids and cards by the rollout
policy, the partner's bids by ``team_rollout`` (its cards are a lookahead's, which neither models,
so they are not judged). A heuristic opponent's cards show in how it bids and plays, a uniform draw
ignores that. The other partnership's actions count first and the partner's bids only break ties:
against heuristic players their model is exact (the true world never contradicts it), while
``team_rollout`` predicts a lookahead partner's bids only roughly (about 87% of them). With 256
worlds kept, inference gains about 0.04 points a hand against heuristic opponents
(docs/euchre-strategies.md); with 32 it gained nothing measurable.

**The rollouts.** The fast engine plays whole hands from a deal. A world becomes a deal (every seat's
five cards at its pack positions, the upcard and the undealt cards) and a *script*: the actions of
the hand so far, in the fast engine's ``SCRIPT_STEPS`` places (``script_step``) with the discard filled
in. The engine plays the script before the decision and the candidate at it, and after it the rollout
policy (``rollout``) for the other partnership and ``team_rollout`` for the seat's own: with compiled
policies, all of a partnership's rollouts in one kernel call. The other partnership is modelled as
heuristic players; the seat's own later decisions and its partner's are a lookahead's, which calls
trump more boldly than heuristic, so by default they are modelled as heuristic ordering up at 6
instead of 7.5 (a small gain, measured in docs/euchre-strategies.md).
Rollout hands are numbered ``4 * index + dealer``, so each keeps its dealer.

**The oracle hook** (``strategies.montecarlo.Truth``): the code running an evaluation makes
``truth_of(deals, round_ids)``, plays every seat with the strategies its ``watch`` returns (a deal
alone does not say which card a dealer threw away) and binds it: ``oracle.bind(truth)``.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from types import ModuleType
from typing import Annotated, Any

import numpy as np

import strategies
from sim import jit
from sim.cards import bits_to_bools
from sim.euchre import rules
from sim.euchre.observation import (
    BIDS,
    DISCARD_STEP,
    FIRST_CARD_STEP,
    NONE,
    NUM_ACTIONS,
    ORDER_UP,
    PASS,
    SCRIPT_STEPS,
    Observation,
    Phase,
)
from strategies import SEED_MAX, Between, DigestOf, NestedSpec, Strategy, register
from strategies.montecarlo import (
    CARD_IDS,
    NOT_YET,
    ActionTruth,
    Cheater,
    Rollouts,
    SlotLookahead,
    card_bits,
    decision_rng,
    draw_slot_cards,
    leaf_margins,
    likeliest_worlds,
    most_constrained_first,
)
from strategies.policy import MAX_POLICY_BYTES

SEATS = rules.NUM_PLAYERS
HAND = rules.HAND_SIZE
CARDS_PLAYED = SEATS * rules.TRICKS_PER_HAND
UNDEALT = rules.PACK_SIZE - rules.UPCARD_POSITION - 1
# Slot columns: the cards each other seat (1, 2, 3 places to the left) may still hold, the discard
# of another dealer who picked up the upcard, the undealt cards.
HELD_COLUMNS = (SEATS - 1) * HAND
DISCARD_COLUMN = HELD_COLUMNS
SLOTS = HELD_COLUMNS + 1 + UNDEALT
# Who a card belongs to in a world, in the order a deal is laid out from: seats 0-3 (dealt cards),
# the upcard, the undealt cards; cards outside the pack sort last.
UPCARD_OWNER, UNDEALT_OWNER, NOT_IN_PACK = SEATS, SEATS + 1, SEATS + 2
SLOT_OWNER_DISCARD = -1  # a slot column's owner before it is known which seat deals: the dealer
MAX_SAMPLES = 100_000
MAX_OVERSAMPLE = 1_000
MAX_LEAF_TURNS = 3 + rules.TRICKS_PER_HAND  # a seat's turns in a hand: two bids, a dealer's discard, a card a trick
# A seat's margin (its team's points less the mean of the three other seats') is two thirds of the
# difference between the teams' points, which the lookahead values.
TEAM_DIFFERENCE_PER_MARGIN = 1.5
# A mismatch of the other partnership outweighs all of the partner's bids (a seat bids once a round).
OTHER_SIDE_MISMATCH = BIDS // SEATS + 1
TEAM_ROLLOUT = "heuristic:threshold=6"  # the lookahead's own later decisions: bolder bids than heuristic's
_PACK = np.int64(rules.PACK_MASK)
_NOT_IN_PACK_OWNER = np.array([0 if card in rules.NEW_PACK else NOT_IN_PACK for card in range(52)], dtype=np.int16)
_EFFECTIVE_SUIT = rules.EFFECTIVE_SUIT.astype(np.int64)
_STRENGTH = rules.STRENGTH.astype(np.int64)
_PLACES = np.arange(SEATS)


def _deal_positions() -> np.ndarray:
    """[dealer] (24,) the pack positions a deal is laid out in: seat 0's five cards, then seats 1 to 3,
    the upcard, the undealt cards."""
    positions = np.empty((SEATS, rules.PACK_SIZE), dtype=np.int64)
    for dealer in range(SEATS):
        by_seat = rules.deal_hands(range(rules.PACK_SIZE), dealer)
        positions[dealer] = [*(p for hand in by_seat for p in hand), *range(rules.UPCARD_POSITION, rules.PACK_SIZE)]
    return positions


DEAL_POSITIONS = _deal_positions()


def script_step(observation: Observation) -> np.ndarray:
    """(n,) int64 the place of each row's decision in its hand's script: bid k at k, the dealer's
    discard at ``DISCARD_STEP``, card j played at ``FIRST_CARD_STEP + j``."""
    bids_made = (observation.bids != NONE).sum(axis=1)
    cards_played = (observation.history != NONE).sum(axis=1)
    phase = observation.phase
    playing = FIRST_CARD_STEP + cards_played
    return np.where(phase == Phase.MAKING, bids_made, np.where(phase == Phase.DISCARD, DISCARD_STEP, playing))


def card_players(history: np.ndarray, trump: np.ndarray, dealer: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, 20) the seat that played each card of ``history`` (-1 for none yet) and (n, 20) the cards
    it showed it holds no more of by playing it (a void: the led suit, when it did not follow)."""
    size = len(history)
    history = history.astype(np.int64)
    trump = np.maximum(trump.astype(np.int64), 0)  # no card is played before trump is made
    leader = (dealer.astype(np.int64) + 1) & 3
    players = np.full((size, CARDS_PLAYED), -1, dtype=np.int64)
    voids = np.zeros((size, CARDS_PLAYED), dtype=np.int64)
    for trick in range(rules.TRICKS_PER_HAND):
        cards = history[:, SEATS * trick : SEATS * (trick + 1)]
        played = cards != NONE
        known = np.maximum(cards, 0)
        players[:, SEATS * trick : SEATS * (trick + 1)] = np.where(played, (leader[:, None] + _PLACES) & 3, -1)
        led = _EFFECTIVE_SUIT[trump, known[:, 0]]
        off_suit = played & (_EFFECTIVE_SUIT[trump[:, None], known] != led[:, None])
        voids[:, SEATS * trick : SEATS * (trick + 1)] = off_suit * rules.SUIT_CARDS[trump, led][:, None]
        complete = played[:, -1]
        winner = np.argmax(_STRENGTH[trump[:, None], led[:, None], known], axis=1)
        leader = np.where(complete, (leader + winner) & 3, leader)
    return players, voids


@dataclass(frozen=True)
class Knowledge:
    """What each deciding seat knows of the hidden cards: who holds the cards it has seen, and slots
    for the cards it has not."""

    seat: np.ndarray
    """(d,) the deciding seat."""
    dealer: np.ndarray
    """(d,) the hand's dealer."""
    card_owner: np.ndarray
    """(d, 52) int16 the owner (seat, ``UPCARD_OWNER``, ``NOT_IN_PACK``) of each known card; 0 for unseen ones."""
    script: np.ndarray
    """(d, SCRIPT_STEPS) int8 the hand's actions so far (the discard, where only the dealer knows it, ``NONE``)."""
    unseen: np.ndarray
    """(d,) int64 card mask of the cards the seat has not seen."""
    slot_owner: np.ndarray
    """(d, SLOTS) the owner of each slot's card, most constrained slot first; ``SLOT_OWNER_DISCARD`` for the
    dealer's discard."""
    slot_void: np.ndarray
    """(d, SLOTS) int64 card mask of the cards a slot cannot take."""
    is_slot: np.ndarray
    """(d, SLOTS) bool which columns are slots (as many per row as unseen cards)."""


def what_is_known(observation: Observation) -> Knowledge:
    """The Knowledge of every row of ``observation``."""
    size = len(observation)
    seat = observation.seat.astype(np.int64)
    dealer = observation.dealer.astype(np.int64)
    history = observation.history.astype(np.int64)
    players, revealed = card_players(history, observation.trump, dealer)
    played = card_bits(history)
    played_by = np.stack([np.bitwise_or.reduce(np.where(players == s, played, 0), axis=1) for s in range(SEATS)], 1)
    count_played = np.stack([(players == s).sum(axis=1) for s in range(SEATS)], axis=1)
    void = np.stack([np.bitwise_or.reduce(np.where(players == s, revealed, 0), axis=1) for s in range(SEATS)], 1)

    upcard = observation.upcard.astype(np.int64)
    upcard_bit = np.left_shift(np.int64(1), upcard)
    picked_up = (observation.making_round == 1) & (observation.phase != Phase.MAKING)
    i_deal = seat == dealer
    rows = np.arange(size)
    own = observation.hand | played_by[rows, seat] | card_bits(observation.discard.astype(np.int64))
    own_dealt = own & ~(upcard_bit * (i_deal & picked_up))
    others_played = np.bitwise_or.reduce(played_by, axis=1) & ~played_by[rows, seat]
    unseen = _PACK & ~own_dealt & ~upcard_bit & ~others_played

    # Another dealer who picked up the upcard keeps it (taking one of its held slots) unless its voids
    # or its empty hand rule it out, when it threw the upcard away; otherwise it threw away a card we
    # have not seen.
    other_dealer_picked_up = picked_up & ~i_deal
    upcard_in_play = other_dealer_picked_up & ((others_played & upcard_bit) == 0)
    dealer_holds_none = count_played[rows, dealer] == HAND
    upcard_thrown = upcard_in_play & (((void[rows, dealer] & upcard_bit) != 0) | dealer_holds_none)
    upcard_kept = upcard_in_play & ~upcard_thrown

    offsets = np.arange(1, SEATS)
    others = (seat[:, None] + offsets) & 3  # (d, 3)
    held = HAND - count_played[rows[:, None], others] - (upcard_kept[:, None] & (others == dealer[:, None]))
    held_slot = (np.arange(HAND) < held[:, :, None]).reshape(size, HELD_COLUMNS)
    is_slot = np.concatenate(
        [held_slot, (other_dealer_picked_up & ~upcard_thrown)[:, None], np.ones((size, UNDEALT), dtype=bool)], axis=1
    )
    slot_owner = np.concatenate(
        [
            np.repeat(others, HAND, axis=1),
            np.full((size, 1), SLOT_OWNER_DISCARD),
            np.full((size, UNDEALT), UNDEALT_OWNER),
        ],
        axis=1,
    )
    slot_void = np.concatenate(
        [np.repeat(void[rows[:, None], others], HAND, axis=1), np.zeros((size, 1 + UNDEALT), dtype=np.int64)], axis=1
    )
    order = most_constrained_first(is_slot, slot_void, unseen, SLOTS)

    card_owner = np.tile(_NOT_IN_PACK_OWNER, (size, 1))
    turns = np.flatnonzero((history >= 0).ravel())
    card_owner[turns // CARDS_PLAYED, history.ravel()[turns]] = players.ravel()[turns]
    own_rows, own_cards = np.nonzero((own_dealt[:, None] >> CARD_IDS) & 1)
    card_owner[own_rows, own_cards] = seat[own_rows]
    card_owner[rows, upcard] = UPCARD_OWNER

    script = np.full((size, SCRIPT_STEPS), NONE, dtype=np.int8)
    script[:, :BIDS] = observation.bids
    script[:, DISCARD_STEP] = np.where(upcard_thrown, upcard, observation.discard)
    script[:, FIRST_CARD_STEP:] = observation.history

    def ordered(values: np.ndarray) -> np.ndarray:
        return np.take_along_axis(values, order, axis=1)

    return Knowledge(
        seat, dealer, card_owner, script, unseen, ordered(slot_owner), ordered(slot_void), ordered(is_slot)
    )


@dataclass(frozen=True)
class Worlds:
    """Full states of the hands being decided, ``w`` per decision."""

    deals: np.ndarray
    """(d, w, 24) int8 the deals, in the order the pack is dealt from."""
    scripts: np.ndarray
    """(d, w, SCRIPT_STEPS) int8 the actions before the decision, the dealer's discard filled in."""


def build_worlds(known: Knowledge, slot_cards: np.ndarray) -> Worlds:
    """The deals and scripts of the worlds whose unseen cards are ``slot_cards`` (d, w, SLOTS)."""
    decisions, samples = slot_cards.shape[:2]
    deals = np.empty((decisions * samples, rules.PACK_SIZE), dtype=np.int8)
    scripts = np.repeat(known.script, samples, axis=0)
    owners = np.ascontiguousarray(known.card_owner, dtype=np.int16)
    slot_owner = np.ascontiguousarray(known.slot_owner, dtype=np.int64)
    cards = np.ascontiguousarray(slot_cards.reshape(decisions * samples, SLOTS), dtype=np.int64)
    _lay_out_worlds(owners, slot_owner, known.dealer.astype(np.int64), cards, samples, deals, scripts)
    return Worlds(deals.reshape(decisions, samples, rules.PACK_SIZE), scripts.reshape(decisions, samples, SCRIPT_STEPS))


_FIRST_LAID = np.array([HAND * owner for owner in range(SEATS)] + [rules.UPCARD_POSITION, rules.UPCARD_POSITION + 1])
"""[owner] where its cards start in a deal laid out by owner: seats 0-3 five each, the upcard, the undealt cards."""


@jit.njit(cache=True, nogil=True)
def _lay_out_worlds(card_owner, slot_owner, dealer, slot_cards, samples, deals, scripts):  # pragma: no cover
    """Each world's deal: every card at its owner's place (the cards of one owner in card-id order),
    dealt in the pack positions of its decision's dealer; a dealer's discard goes to its script."""
    owner = np.empty(CARD_IDS.size, dtype=np.int16)
    next_place = np.empty(_FIRST_LAID.size, dtype=np.int64)
    for world in range(slot_cards.shape[0]):
        decision = world // samples
        owner[:] = card_owner[decision]
        for slot in range(SLOTS):
            card = slot_cards[world, slot]
            if card >= 0:
                if slot_owner[decision, slot] == SLOT_OWNER_DISCARD:
                    owner[card] = dealer[decision]
                    scripts[world, DISCARD_STEP] = card
                else:
                    owner[card] = slot_owner[decision, slot]
        next_place[:] = _FIRST_LAID
        positions = DEAL_POSITIONS[dealer[decision]]
        for card in range(CARD_IDS.size):
            if owner[card] != NOT_IN_PACK:
                deals[world, positions[next_place[owner[card]]]] = card
                next_place[owner[card]] += 1


def fast_engine() -> ModuleType:
    """The fast engine, imported when a lookahead first needs it: the programs that seat mc load this
    module, and loading the engine's kernels takes a fraction of a second they need not wait."""
    from sim.euchre import fast

    return fast


def judge_weights(scripts: np.ndarray, decision_step: np.ndarray, seat: np.ndarray, dealer: np.ndarray) -> np.ndarray:
    """(d, SCRIPT_STEPS) the weight of a mismatch at each script position before each decision: each
    action of the other partnership ``OTHER_SIDE_MISMATCH``, each bid of the partner 1, and nothing
    for the partner's cards (a lookahead's, which neither model predicts), the deciding seat's own
    actions and the dealer's discard (drawn among the cards the seat has not seen). ``scripts`` (d,
    SCRIPT_STEPS) are each decision's actions so far (its worlds' scripts differ in the discard alone)."""
    size = len(scripts)
    scripts = scripts.astype(np.int64)
    before = np.arange(SCRIPT_STEPS) < decision_step[:, None]
    bids = np.where(before[:, :BIDS], scripts[:, :BIDS], NONE)
    ordered = np.where((bids >= ORDER_UP) & (bids != PASS), bids, -1).max(axis=1)
    trump = np.where(ordered >= 0, ordered - ORDER_UP, NONE)
    history = np.where(before[:, FIRST_CARD_STEP:], scripts[:, FIRST_CARD_STEP:], NONE)
    movers = np.empty((size, SCRIPT_STEPS), dtype=np.int64)
    movers[:, :BIDS] = (dealer[:, None] + np.arange(1, BIDS + 1)) & 3
    movers[:, DISCARD_STEP] = seat  # never judged
    movers[:, FIRST_CARD_STEP:] = np.where(history == NONE, seat[:, None], card_players(history, trump, dealer)[0])
    other_side = (movers ^ seat[:, None]) & 1 == 1  # teams are seats of one parity
    partner_bid = (movers != seat[:, None]) & ~other_side & (np.arange(SCRIPT_STEPS) < BIDS)
    return before * (OTHER_SIDE_MISMATCH * other_side + partner_bid)


def lineups(seat: np.ndarray, policy: Strategy, team_policy: Strategy) -> list[tuple[np.ndarray, list[Strategy]]]:
    """The rows of each deciding partnership and its lineup: ``team_policy`` for the deciding seats'
    partnership and ``policy`` for the other."""
    groups = []
    for team in range(rules.NUM_TEAMS):
        rows = np.flatnonzero(seat % rules.NUM_TEAMS == team)  # rules.team_of
        if rows.size:
            groups.append((rows, [team_policy if s % rules.NUM_TEAMS == team else policy for s in range(SEATS)]))
    return groups


def policy_mismatches(
    worlds: Worlds,
    decision_step: np.ndarray,
    seat: np.ndarray,
    dealer: np.ndarray,
    scores: np.ndarray,
    policy: Strategy,
    team_policy: Strategy,
) -> np.ndarray:
    """(d, w) how badly each world fits the other seats' actions before each decision: the weights
    (``judge_weights``) of the actions their models would not have taken in it (0: all fit), the other
    partnership modelled by ``policy`` and the partner by ``team_policy``."""
    decisions, samples = worlds.deals.shape[:2]
    weights = judge_weights(worlds.scripts[:, 0], decision_step, seat, dealer)
    deals = worlds.deals.reshape(decisions * samples, rules.PACK_SIZE)
    scripts = worlds.scripts.reshape(decisions * samples, SCRIPT_STEPS)
    steps, seats, dealers = (np.repeat(values, samples) for values in (decision_step, seat, dealer))
    hand_ids = SEATS * np.arange(len(deals), dtype=np.int64) + dealers
    all_scores, all_weights = np.repeat(scores, samples, axis=0), np.repeat(weights, samples, axis=0)
    mismatches = np.empty(len(deals), dtype=np.int64)
    fast = fast_engine()
    for rows, lineup in lineups(seats, policy, team_policy):
        mismatches[rows] = fast.judge_scripts(
            deals[rows], lineup, hand_ids[rows], all_scores[rows], scripts[rows], steps[rows], all_weights[rows]
        )
    return mismatches.reshape(decisions, samples)


class EuchreLookahead(SlotLookahead):
    """The Euchre side of the lookahead; subclasses say which worlds to play in."""

    def __init__(self, rollout: str, team_rollout: str, leaves: str = "", leaves_sha256: str = "") -> None:
        self.policy = strategies.get("euchre", rollout)
        self.team_policy = self.policy if team_rollout == rollout else strategies.get("euchre", team_rollout)
        self.use_leaves("euchre", leaves, leaves_sha256)

    @abstractmethod
    def worlds(self, observation: Observation) -> Worlds:
        """``worlds_per_decision`` full states for each row of ``observation``."""

    def candidates(self, observation: Observation) -> np.ndarray:
        return bits_to_bools(observation.legal, NUM_ACTIONS)

    def roll_out(self, observation: Observation, deciding: np.ndarray, rollouts: Rollouts) -> np.ndarray:
        deciders = observation.take(deciding)
        return self.played_out(deciders, self.worlds(deciders), rollouts)

    def played_out(self, deciders: Observation, worlds: Worlds, rollouts: Rollouts) -> np.ndarray:
        """(m,) each rollout's value: its world's hand played on from the candidate by the policies."""
        decision, world = rollouts.decision, rollouts.world
        deals = worlds.deals[decision, world]
        scripts = worlds.scripts[decision, world]
        step = script_step(deciders).take(decision)
        seat = deciders.seat.astype(np.int64).take(decision)
        dealer = deciders.dealer.astype(np.int64).take(decision)
        scores = deciders.scores.take(decision, axis=0)
        # Each rollout replays its world's script up to the decision, plays the candidate, and lets the
        # policies play on: on the compiled engine, one kernel call per partnership when they are compiled.
        scripts[np.arange(len(decision)), step] = rollouts.candidate
        hand_ids = SEATS * np.arange(len(decision), dtype=np.int64) + dealer
        if self.leaves is not None:
            return self.valued_at_leaves(deals, scripts, step, seat, scores, hand_ids)
        points = np.empty((len(decision), SEATS), dtype=np.int64)
        fast = fast_engine()
        for rows, lineup in lineups(seat, self.policy, self.team_policy):
            points[rows] = fast.play_rounds(
                deals[rows], lineup, hand_ids[rows], scores[rows], script=scripts[rows], script_length=step[rows] + 1
            ).points
        return self.values(seat, dealer, scores, points)

    def valued_at_leaves(
        self,
        deals: np.ndarray,
        scripts: np.ndarray,
        step: np.ndarray,
        seat: np.ndarray,
        scores: np.ndarray,
        hand_ids: np.ndarray,
    ) -> np.ndarray:
        """(n,) int64 each rollout's value, our team's points minus theirs (in ``value_scale`` units),
        from learned leaves (``strategies.montecarlo.leaf_margins``): its script played, then the
        policies until ``seat`` has been to move ``leaf_turns`` times, valued there by the network."""
        fast = fast_engine()

        def tables(rows: np.ndarray, seated: list) -> Any:
            return fast.Tables(seated, deals[rows], hand_ids[rows], scores[rows], scripts[rows], step[rows] + 1)

        def lineup(decider: int) -> list[Strategy]:
            return [self.team_policy if (s - decider) % 2 == 0 else self.policy for s in range(SEATS)]

        margins = leaf_margins(tables, seat, lineup, self.leaf_turns, self.leaves, False)
        return np.rint(margins * TEAM_DIFFERENCE_PER_MARGIN * self.value_scale).astype(np.int64)

    def margins(self, observation: Observation) -> np.ndarray:
        """(n,) float64 the margin each row's seat can expect by this lookahead (``position_values``
        as a margin), what ``cardsim train --labels`` learns."""
        return self.position_values(observation) / TEAM_DIFFERENCE_PER_MARGIN

    def values(self, seat: np.ndarray, dealer: np.ndarray, scores: np.ndarray, points: np.ndarray) -> np.ndarray:
        """(m,) the deciding seat's value of each rollout from the hand's points (m, 4) by seat, given
        the seat, the hand's dealer and the teams' game scores before it (m, 2): our team's points
        minus theirs."""
        rows = np.arange(len(points))
        return points[rows, seat] - points[rows, (seat + 1) & 3]


@register("euchre", "mc", deterministic=True)
class MonteCarloLookahead(EuchreLookahead):
    """Monte-Carlo lookahead: deal the unseen cards consistently many times, roll out each legal action."""

    def __init__(
        self,
        samples: Annotated[int, Between(2, MAX_SAMPLES)] = 256,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        team_rollout: Annotated[str, NestedSpec()] = TEAM_ROLLOUT,
        seed: Annotated[int, Between(0, SEED_MAX)] = 0,
        confidence: Annotated[float, Between(0.0, 100.0)] = 1.5,
        oversample: Annotated[int, Between(1, MAX_OVERSAMPLE)] = 8,
        leaves: str = "",
        leaves_sha256: Annotated[str, DigestOf("leaves", MAX_POLICY_BYTES, "value file")] = "",
        leaf_turns: Annotated[int, Between(1, MAX_LEAF_TURNS)] = 1,
    ) -> None:
        super().__init__(rollout, team_rollout, leaves, leaves_sha256)
        self.leaf_turns = leaf_turns
        self.worlds_per_decision = samples
        self.seed = seed
        self.confidence = confidence
        self.oversample = oversample

    def worlds(self, observation: Observation) -> Worlds:
        known = what_is_known(observation)
        step = script_step(observation)
        keys = zip(observation.round_id.tolist(), step.tolist(), observation.seat.tolist())
        rngs = [decision_rng(self.seed, *key) for key in keys]
        drawn = self.worlds_per_decision * self.oversample
        worlds = build_worlds(known, draw_slot_cards(known.unseen, known.slot_void, known.is_slot, rngs, drawn))
        if self.oversample == 1:
            return worlds
        seat, dealer = observation.seat.astype(np.int64), observation.dealer.astype(np.int64)
        mismatches = policy_mismatches(worlds, step, seat, dealer, observation.scores, self.policy, self.team_policy)
        kept = self.kept_worlds(mismatches, rngs)
        return Worlds(
            np.take_along_axis(worlds.deals, kept[:, :, None], axis=1),
            np.take_along_axis(worlds.scripts, kept[:, :, None], axis=1),
        )

    def kept_worlds(self, mismatches: np.ndarray, rngs: list[np.random.Generator]) -> np.ndarray:
        """(d, samples) which of each decision's drawn worlds to play in, from how badly each fits the
        other seats' actions (``policy_mismatches``): those that fit best."""
        return likeliest_worlds(mismatches, self.worlds_per_decision)


def truth_of(deals: np.ndarray, round_ids: np.ndarray) -> ActionTruth:
    """The ``Truth`` of Euchre hands: their actions by ``script_step``, the dealer's discard included."""
    return ActionTruth(deals, round_ids, SCRIPT_STEPS, script_step)


@register("euchre", "oracle-mc", deterministic=True, cheating=True)
class OracleLookahead(Cheater, EuchreLookahead):
    """CHEATS: mc's lookahead in the true world (sees every hand); needs bind(truth_of(...)): see its module."""

    worlds_per_decision = 1  # the true world is the only one, and rollouts in it are deterministic
    truth_of = staticmethod(truth_of)

    def __init__(
        self,
        rollout: Annotated[str, NestedSpec()] = "heuristic",
        team_rollout: Annotated[str, NestedSpec()] = TEAM_ROLLOUT,
    ) -> None:
        super().__init__(rollout, team_rollout)

    def worlds(self, observation: Observation) -> Worlds:
        truth: ActionTruth = self.bound_truth()
        rows = truth.rows(observation.round_id.astype(np.int64))
        scripts = truth.actions[rows]
        # Every action this seat has seen must be in the Truth, and the discard of a hand in play.
        unseen_discard = np.full((len(observation), 1), NONE, dtype=np.int8)
        seen = np.concatenate([observation.bids, unseen_discard, observation.history], axis=1)
        in_play = (observation.making_round == 1) & (observation.phase == Phase.PLAYING)
        if ((seen != NONE) & (scripts != seen)).any() or (in_play & (scripts[:, DISCARD_STEP] == NOT_YET)).any():
            raise RuntimeError("oracle-mc's Truth missed actions: play with the strategies Truth.watch returns")
        return Worlds(truth.deals[rows][:, None, :], scripts[:, None, :])
