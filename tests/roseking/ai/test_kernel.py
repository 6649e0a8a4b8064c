"""The raw-int kernel agrees with the engine, move for move (it is what the search trusts)."""

from __future__ import annotations

from random import Random

from game.roseking.ai import kernel as K
from game.roseking.engine import DRAW, Rng, State, decide, score_of, territories


def test_kernel_agrees_with_engine_over_random_games():
    rng = Rng(11)
    for _ in range(40):
        s = State.random(rng)
        st = K.from_state(s)
        while not s.is_game_over():
            moves = s.legal_moves()
            assert K.legal_actions(st) == [K.action_of(m) for m in moves]
            assert [K.to_move(st[K.TURN], a) for a in K.legal_actions(st)] == moves
            m = rng.choice(moves)
            if m.kind is DRAW:
                m = m.with_outcome(rng.choice(s.chance_outcomes()))
            s.push(m)
            K.apply(st, K.action_of(m), m.card.index)
            assert st == K.from_state(s)
        assert st[K.OVER] == 1 and K.legal_actions(st) == []


def test_playout_ends_the_game_and_keeps_the_supply_rules():
    r = Random(5)
    for seed in range(20):
        st = K.from_state(State.random(Rng(seed)))
        K.playout(st, r)
        assert st[K.OVER] == 1
        assert not st[K.S0] & st[K.S1]
        assert (st[K.S0] | st[K.S1]).bit_count() <= 52
        assert 0 <= st[K.HE0] <= 4 and 0 <= st[K.HE1] <= 4
        # every card is in exactly one place
        places = [st[K.H0], st[K.H1], st[K.PILE], st[K.DISCARD]]
        assert sum(p.bit_count() for p in places) == 24
        assert places[0] | places[1] | places[2] | places[3] == (1 << 24) - 1


def test_policy_only_returns_legal_actions(forced_hero, after_pass):
    r = Random(1)
    for s in (forced_hero, after_pass, State.random(Rng(2))):
        st = K.from_state(s)
        for _ in range(50):
            assert K.policy_action(st, r.random) in K.legal_actions(st)


def test_evaluate_is_antisymmetric_on_a_finished_game():
    st = K.from_state(State.random(Rng(3)))
    K.playout(st, Random(3))
    assert K.evaluate(st, 0) == -K.evaluate(st, 1)
    w, _ = decide(st[K.S0], st[K.S1])
    assert K.winner_value(st, 0) + K.winner_value(st, 1) == 1.0
    if w is not None:
        assert K.winner_value(st, int(w)) == 1.0


def test_evaluate_values_territory_and_heroes():
    from tests.roseking.ai.conftest import build
    base = build("N1 E1 S1 W1 NE1", "N2 E2 S2 W2 NE2", "e5", red="a1 a2", white="i9 h9")
    joined = build("N1 E1 S1 W1 NE1", "N2 E2 S2 W2 NE2", "e5", red="a1 a2 a3", white="i9 h9")
    assert K.evaluate(K.from_state(joined), 0) > K.evaluate(K.from_state(base), 0)
    fewer = build("N1 E1 S1 W1 NE1", "N2 E2 S2 W2 NE2", "e5", red="a1 a2", white="i9 h9", heroes=(2, 4))
    assert K.evaluate(K.from_state(fewer), 0) < K.evaluate(K.from_state(base), 0)


def _positions_of_playouts(games: int, seed: int) -> list[list[int]]:
    """Unfinished positions along default-policy playouts: openings to endings."""
    r = Random(seed)
    out = []
    for g in range(games):
        st = K.from_state(State.random(Rng(seed * 1000 + g)))
        while not st[K.OVER]:
            out.append(st[:])
            K.playout(st, r, max_plies=r.randrange(1, 6))
    return out


def test_evaluate_is_the_features_dot_product_bit_for_bit():
    """The one-pass evaluation (the MCTS's leaf value) equals ``features`` weighted by the
    phase's row and summed left to right, exactly: the searches' choices depend on it."""
    for st in _positions_of_playouts(30, 7):
        placed = (st[K.S0] | st[K.S1]).bit_count()
        row = next(w for limit, w in zip(K.PHASE_LIMITS, K.WEIGHTS) if placed < limit)
        v = 0.0
        for x, w in zip(K.features(st), row):
            v += x * w
        assert K.evaluate(st, 0) == v
        assert K.evaluate(st, 1) == -v


def test_score_and_largest_agree_with_territories():
    for st in _positions_of_playouts(10, 8):
        for stones in (st[K.S0], st[K.S1], st[K.S0] | st[K.S1]):
            groups = territories(stones)
            want = (score_of(stones), groups[0].bit_count() if groups else 0)
            assert K.score_and_largest(stones) == want
            assert K.group_stats(stones) == want
    assert K.score_and_largest(0) == (0, 0)
