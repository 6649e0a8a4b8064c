"""The alpha-beta baseline plays exactly as specified; the expectimax search keeps to its budget."""

from __future__ import annotations

import gc
import time
from random import Random

import pytest

from game.roseking.ai import kernel as K
from game.roseking.ai import make_player, parse_level
from game.roseking.ai.baselines import ExpectimaxPlayer
from game.roseking.ai.baselines.alphabeta import WIN, AlphaBetaPlayer, DrawSampler, best_action, leaf_value
from game.roseking.ai.baselines.expectimax import Expectimax, ExpectimaxConfig
from game.roseking.ai.evaluation import terminal_value
from game.roseking.ai.players import ExpertPlayer, HardPlayer
from game.roseking.engine import DRAW, Rng, State, score_of


def _positions(n_games: int, seed: int, every: int = 5):
    """Positions of random games, every ``every`` plies (copies, without stacks)."""
    rng = Rng(seed)
    for _ in range(n_games):
        s = State.random(rng)
        while not s.is_game_over():
            if s.ply % every == 0 and len(s.legal_moves()) > 1:
                yield s.copy(stack=False)
            m = rng.choice(s.legal_moves())
            if m.kind is DRAW:
                m = m.with_outcome(rng.choice(s.chance_outcomes()))
            s.push(m)


def _minimax(st: list[int], depth: int, me: int, sample) -> float:
    """Brute-force minimax, no pruning: the specification of the ``alphabeta`` level."""
    if st[K.OVER]:
        return leaf_value(st, me)
    if depth == 0:
        return (score_of(st[K.S0 + me]) - score_of(st[K.S1 - me])) + 30 * (st[K.HE0 + me] - st[K.HE1 - me])
    values = []
    for a in K.legal_actions(st):
        child = st[:]
        K.apply(child, a, sample(child) if a == K.DRAW_ACTION else -1)
        values.append(_minimax(child, depth - 1, me, sample))
    return max(values) if st[K.TURN] == me else min(values)


def test_alphabeta_chooses_what_brute_force_minimax_chooses():
    checked = 0
    for i, s in enumerate(_positions(4, seed=31, every=6)):
        st = K.from_state(s)
        sample = DrawSampler(1000 + i)
        depth = 3 if i % 2 else 4
        values = []
        for a in K.legal_actions(st):
            child = st[:]
            K.apply(child, a, sample(child) if a == K.DRAW_ACTION else -1)
            values.append((a, _minimax(child, depth - 1, st[K.TURN], sample)))
        top = max(v for _, v in values)
        first_best = next(a for a, v in values if v == top)  # no move ordering: the first best in kernel order
        assert best_action(st, depth, sample) == (first_best, top)
        checked += 1
    assert checked > 30


def test_alphabeta_values_a_decided_game_and_material():
    st = K.from_state(State.random(Rng(3)))
    K.playout(st, Random(3))
    v = leaf_value(st, 0)
    assert v in (WIN, -WIN, 0) and leaf_value(st, 1) == -v
    s = State.from_position(red=["a1", "a2"], white=["i9"], crown="a2", red_hand=["N1"], white_hand=["S1"],
                            heroes=(3, 4))
    assert leaf_value(K.from_state(s), 0) == (4 - 1) + 30 * (3 - 4)


def test_alphabeta_levels_by_name():
    assert parse_level("alphabeta") == ("alphabeta", {}, None)
    assert parse_level("alphabeta7") == ("alphabeta", {"depth": 7}, None)
    assert parse_level("alphabeta:7@2") == ("alphabeta", {"depth": 7}, 2.0)
    assert make_player("alphabeta", 1).depth == 5
    assert make_player("alphabeta:7", 1).depth == 7
    for bad in ("alphabeta:0", "alphabeta:x", "hard@", "hard@-1", "beta"):
        with pytest.raises(ValueError):
            parse_level(bad)


def test_expert_hard_and_expectimax_through_make_player():
    hard, expert = make_player("hard", 1, seconds=0.5), make_player("expert", 1, seconds=0.5)
    assert isinstance(hard, HardPlayer) and isinstance(expert, ExpertPlayer)
    assert hard.config.seconds == 0.5 and expert.config.seconds == 1.5
    assert make_player("hard@0.25", 1, seconds=1.0).config.seconds == 0.25
    assert make_player("expert", 1, seconds=None, iterations=10).config.iterations == 30
    assert isinstance(make_player("expectimax@0.3", 1), ExpectimaxPlayer)


@pytest.mark.parametrize("level", ["hard", "alphabeta", "expectimax"])
def test_no_peeking_a_different_pile_order_does_not_change_the_choice(level):
    """The players get only the position; what the pile would bring next cannot change their choice.

    Each position is reached twice with chance generators that differ from there on
    (so the draw pile's future order differs); the choices must be equal.
    """
    budget = {"seconds": None, "iterations": 300}
    for s in list(_positions(2, seed=41, every=11))[:8]:
        a = make_player(level, seed=5, **budget)
        b = make_player(level, seed=5, **budget)
        Random(1).random(), Random(2).random()  # any module-level randomness is irrelevant too
        before = s.canonical_bytes()
        twin = State.from_position(
            red=[q for q in _squares(s.stones[0])], white=[q for q in _squares(s.stones[1])],
            crown=_sq(s.crown), red_hand=[c.name for c in s.hand(s.turn.__class__(0))],
            white_hand=[c.name for c in s.hand(s.turn.__class__(1))], discard=_discard_order(s),
            heroes=(s.heroes[0], s.heroes[1]), turn=s.turn)
        assert twin.canonical_bytes() == before
        assert a.choose(s) == b.choose(twin)


def _sq(q: int) -> str:
    from game.roseking.engine import square_name
    return square_name(q)


def _squares(mask: int) -> list[str]:
    return [_sq(q) for q in range(81) if (mask >> q) & 1]


def _discard_order(s: State) -> list[str]:
    """The discard pile with its top card last (the order ``from_position`` keeps)."""
    names = [c.name for c in s.discard_pile_cards()]
    if s.discard_top >= 0:
        from game.roseking.engine import CARDS
        top = CARDS[s.discard_top].name
        names.remove(top)
        names.append(top)
    return names


def test_chance_nodes_sample_from_the_set_only():
    st = K.from_state(State.random(Rng(12)))
    search = Expectimax(ExpectimaxConfig(seconds=None, max_depth=2, chance_samples=3), salt=9)
    outs = search._outcomes(st)
    assert len(outs) == 3 and len(set(outs)) == 3
    assert all((st[K.PILE] >> c) & 1 for c in outs)
    assert search._outcomes(st) == outs  # the same position, the same sample (a consistent table)
    full = Expectimax(ExpectimaxConfig(seconds=None, max_depth=2, chance_samples=None), salt=9)
    assert sorted(full._outcomes(st)) == [c for c in range(24) if (st[K.PILE] >> c) & 1]


def test_expectimax_takes_a_won_ending_and_values_it():
    from tests.roseking.ai.conftest import build
    s = build("E1 N3 S3 W3 NW3", "N2 E2 S2 W2 NE2", "d5", red="a5 b5 c5 d5 f5 g5 h5 i5", white="a1 i9 a9",
              heroes=(4, 0))
    r = Expectimax(ExpectimaxConfig(seconds=None, max_depth=3), salt=1).search(K.from_state(s))
    assert str(K.to_move(0, r.action)) == "red play E1" and r.value > 81 - 3 - 1
    st = K.from_state(State.random(Rng(3)))
    K.playout(st, Random(3))
    assert terminal_value(st, 0) == -terminal_value(st, 1)


@pytest.mark.parametrize("cls, budget", [(ExpectimaxPlayer, 0.2), (ExpertPlayer, 0.06)])
def test_search_budget_holds_cpu_and_wall(cls, budget):
    allowed = budget * (3 if cls is ExpertPlayer else 1) * 1.10
    walls = []
    player = cls(seed=5, seconds=budget)
    for s in list(_positions(1, seed=8, every=17))[:3]:
        gc.collect()  # the worker process that really thinks has a small heap; the suite's heap is not ours to pay for
        t0, c0 = time.perf_counter(), time.thread_time()  # this thread's CPU: other tests may leave threads
        player.choose(s)
        wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
        walls.append(wall)
        assert cpu <= allowed, cpu
        assert player.last is not None
        assert (player.last.depth >= 2) if cls is ExpectimaxPlayer else (player.last.iterations > 10)
    assert min(walls) <= allowed, walls  # a loaded machine may deschedule one run, not all


def test_search_is_reproducible_with_a_node_budget():
    positions = list(_positions(1, seed=51, every=9))[:6]
    a, b = (ExpectimaxPlayer(seed=3, seconds=None, iterations=800), ExpectimaxPlayer(seed=3, seconds=None, iterations=800))
    assert [a.choose(s) for s in positions] == [b.choose(s) for s in positions]


def test_search_needs_a_budget_and_a_live_game():
    with pytest.raises(ValueError, match="budget"):
        Expectimax(ExpectimaxConfig(seconds=None))
    st = K.from_state(State.random(Rng(1)))
    K.playout(st, Random(1))
    with pytest.raises(ValueError, match="game is over"):
        Expectimax(ExpectimaxConfig(seconds=None, max_depth=2)).search(st)


def test_alphabeta_player_takes_no_time_budget():
    p = AlphaBetaPlayer(seed=1, seconds=0.001)
    s = State.random(Rng(4))
    t0 = time.perf_counter()
    assert p.choose(s) in s.legal_moves()
    assert p.last_nodes > 0 and time.perf_counter() - t0 < 2.0
