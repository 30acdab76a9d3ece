"""The vectorized Gin Rummy engine: the same moves, observations and points as the reference engine,
whole games alike, and the rules' invariants at every decision it shows."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from sim import games
from sim.api import StrategyFault
from sim.cards import NUM_CARDS, mask_of
from sim.crosscheck import crosscheck
from sim.ginrummy import fast, melds, rules
from sim.ginrummy.engine import best_melds, layout
from sim.ginrummy.game import GAME
from sim.ginrummy.melds import knock_points
from sim.ginrummy.observation import DRAW_DISCARD, KNOCK, NONE, Phase
from tests.keeper import Keeper


class Hashed:
    """Legal actions that look random but are a function of the observation alone, so both engines,
    shown the same observation, choose the same: it takes from the pile, knocks with any throw the
    rules allow and lets stocks run down to a void hand, which the deterministic strategies rarely do.
    Like the heuristic, it never takes back from the pile a card it threw this hand."""

    name = "hashed"

    def choose(self, observation):
        key = (
            observation.round_id * 1_000_003
            + observation.hand % 65_521 * 7919
            + observation.discard_pile % 65_519 * 104_729
            + observation.stock_size * 31
            + observation.phase * 13
        ) % (1 << 31)
        masks = observation.legal_mask.copy()
        # Never the card it threw back from the pile: two players could pass cards to and fro forever.
        top = observation.top_discard
        masks[:, DRAW_DISCARD] &= (top < 0) | ((observation.threw >> np.maximum(top, 0)) & 1 == 0)
        return np.array([np.flatnonzero(mask)[int(k) % int(mask.sum())] for mask, k in zip(masks, key)])


@pytest.mark.parametrize("lineup", [("heuristic", "simple"), ("cs340", "heuristic")])
def test_both_engines_make_the_same_moves_see_the_same_and_score_the_same(lineup):
    # Every deterministic strategy, in both seats, dealing and opening (the dealer follows the hand id).
    report = crosscheck("ginrummy", rounds=5_000, seed=21, strategies=lineup, jobs=2)
    assert report.ok, report.format()
    assert report.actions > 20 * report.rounds


def test_random_play_agrees_move_for_move():
    report = crosscheck("ginrummy", rounds=1_000, seed=22, strategies=[Hashed()] * 2)
    assert report.ok, report.format()


@pytest.mark.parametrize("lineup", [("simple", "simple"), ("heuristic", "cs340"), ("hashed", "simple")])
def test_whole_games_agree_with_the_reference_engine(lineup):
    players = [Hashed() if name == "hashed" else strategies.get("ginrummy", name) for name in lineup]
    deal_source = games.game_deal_source(GAME, 23)
    ids = np.arange(40)
    fast_games = GAME.play_games["fast"](ids, deal_source, players)
    reference = GAME.play_games["reference"](ids, deal_source, players)
    assert np.array_equal(fast_games.scores, reference.scores)
    assert np.array_equal(fast_games.rounds, reference.rounds)
    assert np.array_equal(fast_games.winners, reference.winners)
    assert (fast_games.winners.sum(axis=1) == 1).all()


def test_tournaments_default_to_the_fast_engine():
    assert games.default_engine(GAME) == "fast" and games.default_engine(GAME, whole_games=True) == "fast"


class Auditor:
    """Plays ``strategy`` and checks, at every decision it is shown, what the rules say must hold."""

    name = "auditor"

    def __init__(self, strategy):
        self.strategy = strategy
        self.decisions = 0

    def choose(self, o):
        drawing = o.phase == Phase.DRAW
        held = np.bitwise_count(o.hand)
        assert (held == np.where(drawing, rules.HAND_SIZE, rules.HAND_SIZE + 1)).all()
        # 52 cards conserved: the mover's, the opponent's ten, the pile and the stock.
        pile = np.bitwise_count(o.discard_pile)
        assert (held + rules.HAND_SIZE + pile + o.stock_size == NUM_CARDS).all()
        assert (o.hand & o.discard_pile == 0).all()
        assert (o.opponent_took & (o.hand | o.discard_pile) == 0).all()
        assert (o.took & ~o.hand == 0).all()
        # A seat draws from a stock of three or more; after its draw the stock may be down to two.
        assert (o.stock_size > rules.VOID_STOCK_SIZE - 1 + drawing).all()
        top_held = (o.discard_pile >> np.maximum(o.top_discard, 0)) & 1
        assert ((o.top_discard == NONE) == (o.discard_pile == 0)).all() and (top_held | (o.top_discard == NONE)).all()
        assert (o.legal_mask[drawing].sum(axis=1) == 2).all()
        taken = np.where(o.taken >= 0, np.int64(1) << np.maximum(o.taken, 0), 0)
        throwable = np.array([mask_of(np.flatnonzero(row[:NUM_CARDS])) for row in o.legal_mask[~drawing]])
        assert (throwable == o.hand[~drawing] & ~taken[~drawing]).all()
        knocks = np.array([mask_of(np.flatnonzero(row[KNOCK:])) for row in o.legal_mask[~drawing]])
        # melds.knocking_discards is rules.knocking_discards, as test_fast_deadwood checks.
        assert (knocks == melds.knocking_discards(o.hand[~drawing]) & ~taken[~drawing]).all()
        self.decisions += len(o)
        return self.strategy.choose(o)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lineup=st.sampled_from(["hashed", "simple", "heuristic"]))
def test_every_decision_keeps_the_rules(seed, lineup):
    player = Auditor(Hashed() if lineup == "hashed" else strategies.get("ginrummy", lineup))
    points = fast.play_rounds(GAME.deals(seed, 0, 64), [player, player]).points
    assert player.decisions > 64 * 10
    assert ((points > 0).sum(axis=1) <= 1).all()  # one seat scores a hand, or none when it is void
    assert (points >= 0).all()


def near(cards):
    """The cards of the same rank as one of ``cards`` or within two ranks of one in its suit."""
    return {
        other
        for card in cards
        for other in range(NUM_CARDS)
        if other % 13 == card % 13 or (other // 13 == card // 13 and abs(other - card) <= 2)
    }


@settings(max_examples=300, deadline=None)
@given(
    pack=st.permutations(range(NUM_CARDS)),
    melds=st.lists(st.tuples(st.booleans(), st.integers(0, 10), st.integers(0, 3)), max_size=3),
    defender_near=st.booleans(),
)
def test_a_knocked_hand_scores_as_the_rules_lay_it_down(pack, melds, defender_near):
    """Two ten-card hands, the knocker's built from runs and sets (to reach knocks, gin and lay-offs),
    the defender's, if ``defender_near``, from cards next to the knocker's: scored by the engine and
    by the rules' layouts, lay-offs and scoring."""
    knocker_cards = set()
    for is_run, low, suit in melds:
        meld = (
            {suit * 13 + low + step for step in range(3)} if is_run else {low + 13 * s for s in range(4) if s != suit}
        )
        if not meld & knocker_cards:
            knocker_cards |= meld
    knocker_cards |= set([card for card in pack if card not in knocker_cards][: 10 - len(knocker_cards)])
    rest = [card for card in pack if card not in knocker_cards]
    if defender_near:
        close = near(knocker_cards)
        rest.sort(key=lambda card: card not in close)
    knocker, defender = mask_of(knocker_cards), mask_of(rest[:10])
    knocker_layout, defender_layout = layout(knocker, best_melds(knocker)), layout(defender, best_melds(defender))
    knocker_deadwood = rules.cards_value(knocker_layout.unmatched)
    left = list(defender_layout.unmatched)
    if knocker_deadwood > 0:
        left = rules.lay_off(left, knocker_layout.melds)[1]
    score = rules.score_knock(0, knocker_deadwood, rules.cards_value(left))
    expected = [score.points if seat == score.winner else 0 for seat in range(2)]
    assert list(knock_points(knocker, defender)) == expected


def test_blocks_of_any_size_play_alike():
    players = [strategies.get("ginrummy", "simple")] * 2
    deals = GAME.deals(7, 0, 1_300)
    ids = np.arange(len(deals)) + 3
    whole = fast.play_rounds(deals, players, ids).points
    parts = [
        fast.play_rounds(deals[start : start + 97], players, ids[start : start + 97]).points
        for start in range(0, len(deals), 97)
    ]
    assert np.array_equal(whole, np.concatenate(parts))


def test_an_illegal_choice_names_the_strategy_and_is_never_a_result():
    class TakesBack:
        name = "takes-back"

        def choose(self, observation):
            draw = np.full(len(observation), DRAW_DISCARD)
            return np.where(observation.phase == Phase.DRAW, draw, observation.taken)

    with pytest.raises(StrategyFault, match=r"'takes-back' chose action -1, which is not an action of this game"):
        fast.play_rounds(GAME.deals(1, 0, 5), [TakesBack()] * 2)

    class Wild:
        name = "wild"

        def choose(self, observation):
            return np.full(len(observation), 999)

    with pytest.raises(StrategyFault, match="'wild' chose action 999"):
        fast.play_rounds(GAME.deals(1, 0, 5), [Wild()] * 2)


@pytest.mark.parametrize("strategies_apart", [False, True])
def test_observations_are_read_only_and_stay_as_shown(strategies_apart):
    players = [Keeper("ginrummy"), Keeper("ginrummy")] if strategies_apart else [Keeper("ginrummy")] * 2
    fast.play_rounds(GAME.deals(5, 0, 200), players)
    for player in players:
        assert len(player.kept) > 20
        for observation, shown in player.kept:
            for name, values in observation.arrays().items():
                if not strategies_apart:  # apart, each is shown its rows: fresh arrays of its own
                    assert not values.flags.writeable, name
                assert np.array_equal(values, shown[name]), name


@pytest.mark.parametrize(
    ("deals", "message"),
    [
        (np.zeros((2, 52), dtype=np.int64), "each of the 52 cards once"),
        (np.zeros((2, 51), dtype=np.int64), r"\(n, 52\) arrays"),
        (np.full((1, 52), 60), "card ids from 0 to 51"),
        (np.zeros((1, 52)), r"\(n, 52\) arrays of card ids"),
    ],
)
def test_deals_that_are_not_packs_are_refused(deals, message):
    with pytest.raises(fast.DealError, match=message):
        fast.play_rounds(deals, [strategies.get("ginrummy", "simple")] * 2)


def test_a_strategy_per_seat_is_asked_only_for_its_own_seat():
    class SeatOnly:
        def __init__(self, seat):
            self.seat, self.simple = seat, strategies.get("ginrummy", "simple")

        def choose(self, observation):
            assert (observation.seat == self.seat).all()
            return self.simple.choose(observation)

    together = fast.play_rounds(GAME.deals(8, 0, 300), [SeatOnly(0), SeatOnly(1)]).points
    alone = fast.play_rounds(GAME.deals(8, 0, 300), [strategies.get("ginrummy", "simple")] * 2).points
    assert np.array_equal(together, alone)


def test_hands_that_never_end_are_an_error_not_a_hang(monkeypatch):
    class AlwaysThePile:
        """Takes the face-up card every turn: the stock never runs down."""

        name = "always-the-pile"

        def choose(self, observation):
            legal = observation.legal_mask
            lowest_throw = np.argmax(legal[:, :NUM_CARDS], axis=1)
            return np.where(observation.phase == Phase.DRAW, DRAW_DISCARD, lowest_throw)

    monkeypatch.setattr(fast, "MAX_TURNS", 60)
    with pytest.raises(fast.EndlessHand, match="went on for 60 turns"):
        fast.play_rounds(GAME.deals(3, 0, 4), [AlwaysThePile()] * 2)


class ThroughChoose:
    """A built-in strategy asked in Python, through its ``choose``, rather than through its compiled
    policy inside the kernel."""

    compiled = None

    def __init__(self, strategy):
        self.strategy = strategy

    def choose(self, observation):
        return self.strategy.choose(observation)


TUNED = "heuristic:take_gain=2,gin_hold=4,patience=12,early_knock=6,late=15"


LINEUPS = [("cs340", "cs340"), ("simple", "simple"), ("heuristic", "heuristic"), (TUNED, "simple")]


@pytest.mark.parametrize("lineup", LINEUPS)
def test_compiled_policies_play_in_the_kernel_as_their_choose_plays(lineup):
    """Seated through their compiled policies (called in the kernel) or through their ``choose`` (the
    kernel pausing for Python), the built-in strategies score alike on every deal, each seat alone
    or both (the crosscheck compares the Python path's actions with the reference engine's)."""
    players = [strategies.get("ginrummy", spec) for spec in lineup]
    deals = GAME.deals(31, 0, 2_000)
    in_kernel = fast.play_rounds(deals, players).points
    for asked_in_python in ([0, 1], [0], [1]):
        seated = [ThroughChoose(player) if seat in asked_in_python else player for seat, player in enumerate(players)]
        assert np.array_equal(fast.play_rounds(deals, seated).points, in_kernel)
