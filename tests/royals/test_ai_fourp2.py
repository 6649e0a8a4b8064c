"""The 4-player option of hard's search (fourth pass): the rewards of :func:`make_reward`. (The
variants screened and not kept, the rank reward among them: tests/royals/test_variants_bench.py.)"""

import math

import pytest

from game.royals.ai.ismcts import ISMCTS, make_reward
from game.royals.ai.determinize import reward_values
from game.royals.engine import Phase, Rng

from .helpers import random_match


@pytest.mark.parametrize("kind", ["best", "mean"])
def test_every_reward_is_todays_with_two_sides(kind):
    # two players, or two teams: the best other side is the mean of the others, so every kind
    # gives today's reward (the 2-player figures stay valid)
    f = make_reward(kind)
    for tot, teams in (((17, 12), False), ((9, 9), False), ((5, 8, 11, 2), True), ((10, 3, 10, 7), True)):
        for final in (False, True):
            assert f(tot, teams, final) == reward_values(tot, teams, final)


def test_the_mean_reward_is_the_margin_over_the_others_mean():
    tot = (20, 14, 8, 2)  # means of the others: 8, 10, 12, 14
    r = make_reward("mean")(tot, False, False)
    assert r == pytest.approx([0.5 + 0.5 * math.tanh(d / 10) for d in (12, 4, -4, -12)])
    # best: the margin over the best other, which every seat but the leader sees far below it
    assert reward_values(tot, False, False)[3] == pytest.approx(0.5 + 0.5 * math.tanh(-18 / 10))
    fin = make_reward("mean", win=0.7)(tot, False, True)
    assert fin[0] == pytest.approx(0.7 + 0.3 * r[0]) and fin[1] == pytest.approx(0.3 * r[1])
    tie = make_reward("mean")((11, 11, 3, 3), False, True)
    assert tie[0] == tie[1] == pytest.approx(0.35 + 0.3 * (0.5 + 0.5 * math.tanh((11 - 17 / 3) / 10)))


def test_an_unknown_reward_is_refused():
    with pytest.raises(ValueError, match="unknown reward 'max'"):
        make_reward("max")
    with pytest.raises(ValueError):
        ISMCTS(Rng(1), None, 10, reward="max")
    with pytest.raises(ValueError):  # screened, not kept: bench/royals_variants.py
        make_reward("rank")


def four_player_positions(count):
    out = []
    for seed in range(200):
        s = random_match(seed, 4, upto=20 + (seed * 7) % 80)
        if s.phase is Phase.PLAY and len(s.observation(s.to_act).legal_actions()) >= 3:
            out.append(s.observation(s.to_act))
            if len(out) == count:
                break
    return out


def test_hard_and_medium_reward_the_margin_over_the_others_mean_with_3_or_4_players():
    from game.royals.ai.levels import MULTI, make_player
    assert MULTI == {"reward": "mean"}
    tot = (20, 14, 8, 2)
    for level in ("hard", "medium"):
        p = make_player(level, 1, seconds=None, iterations=50)
        assert p.search_multi.reward(tot, False, False) == make_reward("mean")(tot, False, False)
        assert p.search.reward(tot, False, False) == reward_values(tot, False, False)  # 2 players, teams
    # the player uses the search of its table: 4 players without teams take search_multi
    o = four_player_positions(1)[0]
    p = make_player("hard", 1, seconds=None, iterations=50)
    p.search = None  # would fail if used
    assert p.choose(o) in o.legal_actions() and p.last.iterations == 50


def test_hard_keeps_to_its_time_budget_with_4_players():
    from .helpers import budget_runs
    budget = 0.2
    runs = budget_runs("from tests.royals.test_ai_fourp2 import four_player_positions\n"
                       "from game.royals.ai.levels import make_player\no = four_player_positions(2)[1]",
                       f"make_player('hard', k, seconds={budget}).choose(o)", runs=2)
    assert all(cpu <= budget * 1.1 for _wall, cpu in runs), runs
