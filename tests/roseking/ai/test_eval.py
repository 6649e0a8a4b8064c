"""The fitted evaluation of the ``hard`` search: its features, its weights, its win chance."""

from __future__ import annotations

from random import Random

import pytest

from game.roseking.ai import kernel as K
from game.roseking.ai.baselines.expectimax import Expectimax, ExpectimaxConfig
from game.roseking.ai.evaluation import EVAL_WEIGHTS, FEATURE_NAMES, LEVEL_CONFIG, WIN, eval_features, growth, win_chance
from game.roseking.engine import Rng, State, score_of
from game.roseking.engine.cards import parse_square


def _mask(squares: str) -> int:
    return sum(1 << parse_square(q) for q in squares.split())


def test_growth_counts_a_merge_threat():
    # Red: a1 b1 (2) and d1 e1 f1 (3); c1 touches both: (2 + 3 + 1)**2 - 4 - 9 = 23.
    red = _mask("a1 b1 d1 e1 f1")
    best, total = growth(red, red)
    assert best == 23
    # The other frontier squares (a2 b2: 2**2 -> 3**2 = +5; d2 e2 f2 g1: 3**2 -> 4**2 = +7) and c1.
    assert total == 23 + 2 * 5 + 4 * 7
    # White on c1 blocks the merge: it is no longer an empty square.
    best2, total2 = growth(red, red | _mask("c1"))
    assert best2 == 7 and total2 == 2 * 5 + 4 * 7
    # The figures are exact: one more stone there scores that much more.
    assert score_of(red | _mask("c1")) - score_of(red) == 23


def _positions(games: int, seed: int):
    r = Random(seed)
    for g in range(games):
        st = K.from_state(State.random(Rng(seed + g)))
        while not st[K.OVER]:
            yield st[:]
            K.playout(st, r, max_plies=1)


def test_features_are_the_same_for_either_player_with_the_sign_changed():
    for st in list(_positions(3, 5))[::4]:
        red, white = eval_features(st, 0), eval_features(st, 1)
        assert len(red) == len(FEATURE_NAMES)
        assert red == tuple(-x for x in white)


def test_fitted_weights_cover_every_phase_and_feature():
    assert len(EVAL_WEIGHTS) == len(LEVEL_CONFIG["phase_limits"])
    assert all(len(row) == len(FEATURE_NAMES) for row in EVAL_WEIGHTS)
    assert all(row[0] > 0 for row in EVAL_WEIGHTS)  # a point of score margin is worth something in every phase


def test_fitted_evaluation_is_zero_sum():
    search = Expectimax(ExpectimaxConfig(seconds=None, max_depth=1, **LEVEL_CONFIG), salt=1)
    for st in list(_positions(2, 9))[::5]:
        if not st[K.OVER]:
            assert search._eval(st, 0) == pytest.approx(-search._eval(st, 1))


def test_win_chance_is_a_monotone_probability():
    values = [-WIN - 50, -40.0, -5.0, 0.0, 5.0, 40.0, WIN + 50]
    chances = [win_chance(v) for v in values]
    assert chances[0] == 0.0 and chances[-1] == 1.0 and chances[3] == 0.5
    assert chances == sorted(chances) and len(set(chances)) == len(chances)


def test_one_pass_value_is_the_weighted_sum_of_the_features():
    from game.roseking.ai.evaluation import fitted_value
    limits = LEVEL_CONFIG["phase_limits"]
    for st in list(_positions(3, 13))[::3]:
        if st[K.OVER]:
            continue
        placed = (st[K.S0] | st[K.S1]).bit_count()
        row = next((w for lim, w in zip(limits, EVAL_WEIGHTS) if placed < lim), EVAL_WEIGHTS[-1])
        for p in (0, 1):
            expected = sum(w * x for w, x in zip(row, eval_features(st, p)))
            assert fitted_value(st, p, EVAL_WEIGHTS, limits) == pytest.approx(expected, abs=1e-9)


def test_the_fitted_expectimax_is_a_baseline_and_hard_stays_the_mcts():
    """Measured (docs/ai.md): the fitted expectimax beats alphabeta but not today's MCTS, so the
    levels keep the MCTS and the fitted search is a baseline for measuring."""
    from game.roseking.ai import BASELINES, LEVELS, make_player
    from game.roseking.ai.baselines import FittedExpectimaxPlayer, MctsBaselinePlayer
    from game.roseking.ai.players import ExpertPlayer, HardPlayer
    from game.roseking.ai.process import make_thinker
    fit = make_player("expectimax-fit", 1, seconds=None, iterations=2000)
    assert isinstance(fit, FittedExpectimaxPlayer) and fit.config.eval_weights == EVAL_WEIGHTS
    assert fit.config.max_nodes == 2000
    assert "expectimax-fit" in BASELINES and "expectimax-fit" not in LEVELS
    assert "mcts-2025" in BASELINES and "mcts-2025" not in LEVELS
    old = make_player("mcts-2025@0.5", 1)
    assert isinstance(old, MctsBaselinePlayer) and old.config.seconds == 0.5
    assert isinstance(make_player("hard", 1), HardPlayer) and isinstance(make_player("expert", 1), ExpertPlayer)
    for level in ("mcts-2025", "expectimax-fit"):  # searches: a worker process each
        with make_thinker(level, seed=1, seconds=None, iterations=5) as thinker:
            assert type(thinker).__name__ == "ProcessThinker"


def test_the_fitted_expectimax_reports_a_winning_chance_the_analysis_can_read():
    from game.roseking.analysis import evaluate
    from game.roseking.ai import make_player
    from game.roseking.engine import Color
    player = make_player("expectimax-fit", 3, seconds=None, iterations=3000)
    s = State.random(Rng(4))
    move, red = evaluate(s, player)
    assert move in s.legal_moves() and red is not None and 0.0 < red < 1.0
    assert player.last.iterations > 0 and player.last.depth >= 1
    assert player.last.value == pytest.approx(win_chance(player.last.points))
    assert s.turn is Color.RED and red == player.last.value


def test_a_search_whose_children_all_end_the_game_still_counts_as_a_search():
    """The post-game analysis takes a search without nodes for a forced move (no winning chance):
    the root's children count, so a last stone chosen by searching reports its winning chance."""
    from game.roseking.ai import make_player
    from game.roseking.engine import DRAW
    for seed in range(200):
        rng = Rng(seed)
        s = State.random(rng)
        while not s.is_game_over() and s.stones_placed < 51:
            m = rng.choice(s.legal_moves())
            s.push(m.with_outcome(rng.choice(s.chance_outcomes())) if m.kind is DRAW else m)
        plays = [m for m in s.legal_moves() if m.kind is not DRAW] if not s.is_game_over() else []
        if len(plays) >= 2 and len(s.legal_moves()) == len(plays):
            break
    else:
        raise AssertionError("no position with a choice of the last stone")
    player = make_player("expectimax-fit", 1, seconds=None, iterations=50)
    player.choose(s)
    assert player.last.iterations >= len(plays) and player.last.value in (0.0, 0.5, 1.0)
