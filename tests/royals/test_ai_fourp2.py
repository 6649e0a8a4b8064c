"""The 4-player options of hard's search (fourth pass): the rewards of
:func:`make_reward`, the rule-based Thief and Executioner in the playouts, the greedy's prior
at the root."""

import math

import pytest

from game.royals.ai.ismcts import ISMCTS, Node, _add_prior, make_reward
from game.royals.ai.players import action_values
from game.royals.ai.determinize import action_key, reward_values
from game.royals.engine import Phase, Rng

from .helpers import random_match


@pytest.mark.parametrize("kind", ["best", "mean", "rank"])
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


def test_the_rank_reward_orders_the_seats():
    r = make_reward("rank")((20, 14, 14, 2), False, True)
    assert r[0] == pytest.approx(1.0)  # ahead of all: 0.7 x win + 0.3 x share 1
    assert r[1] == r[2] == pytest.approx(0.3 * 0.5)  # ahead of one, tied with one: share 1.5 / 3
    assert r[3] == 0.0
    mid = make_reward("rank")((20, 14, 14, 2), False, False)
    assert mid == sorted(mid, reverse=True) and mid[1] == mid[2]


def test_an_unknown_reward_is_refused():
    with pytest.raises(ValueError, match="unknown reward 'max'"):
        make_reward("max")
    with pytest.raises(ValueError):
        ISMCTS(Rng(1), None, 10, reward="max")


def four_player_positions(count):
    out = []
    for seed in range(200):
        s = random_match(seed, 4, upto=20 + (seed * 7) % 80)
        if s.phase is Phase.PLAY and len(s.observation(s.to_act).legal_actions()) >= 3:
            out.append(s.observation(s.to_act))
            if len(out) == count:
                break
    return out


def test_the_prior_leans_towards_the_greedys_choice_and_fades():
    o = four_player_positions(1)[0]
    values = action_values(o)
    keys = [action_key(a) for _, a in values]
    root = Node()
    for k in keys:  # the playouts could not tell the decisions apart: the same mean everywhere
        ch = root.children[k] = Node()
        ch.visits = ch.avail = 4
        ch.total, ch.mean = 2.0, 0.5
    _add_prior(root, o, 100, 0.05)
    best = max(values, key=lambda va: va[0])
    means = {k: root.children[k].mean for k in keys}
    assert max(means, key=means.get) == action_key(best[1])
    for (v, _), k in zip(values, keys):
        ch = root.children[k]
        assert ch.visits == ch.avail == 104
        assert ch.mean == pytest.approx(0.5 + 0.05 * (v - best[0]) * 100 / 104)
    # the search with the prior still chooses among the legal decisions and runs its budget
    r = ISMCTS(Rng(3), None, 400, keep_search=False, prior=100, reward="mean", specials=True).search(o)
    assert r.action in o.legal_actions() and r.iterations == 400
    assert sum(r.visits.values()) == 400  # the real visits only


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
