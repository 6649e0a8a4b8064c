"""``bench/royals_variants.py``: the variants of hard's search that were screened and not kept
(the hand choice by search, the playout's low lead and rule-based Thief and Executioner, the
greedy's prior, the rank reward), played by ``bench/royals_screen.py``. With every option at
its default the variant search is hard's, choice for choice, so a screening measures the
variant on top of today's search; the variants keep the rules and the time budget."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

from game.royals.ai.determinize import action_key, reward_values
from game.royals.ai.ismcts import ISMCTS, Node, _Rand
from game.royals.ai.players import action_values, decide_keep
from game.royals.engine import CARDS, SETUP, Action, Phase, Rng
from game.royals.engine import kernel as K
from game.royals.engine.state import key_action

from .helpers import budget_runs, random_match
from .test_ai import keep_state, playing_states
from .test_ai_fourp2 import four_player_positions

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def V():
    """The module ``bench/royals_variants.py`` (the bench folder is not a package)."""
    spec = importlib.util.spec_from_file_location("royals_variants_bench", BENCH / "royals_variants.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _same(a, b):
    return (a.action, a.visits, a.iterations) == (b.action, b.visits, b.iterations)


def test_the_variant_search_with_its_defaults_is_hards(V):
    # the product's loop (VariantISMCTS.search without a loop variant) and the bench's copy of
    # it (_variant_search) choose as hard's search, with the same root statistics
    for k, s in enumerate(playing_states(6)):
        o = s.observation(s.to_act)
        for bias, reward in ((0.0, "best"), (1.5, "mean")):
            want = ISMCTS(Rng(k), None, 60, hand_bias=bias, reward=reward).search(o)
            assert _same(V.VariantISMCTS(Rng(k), None, 60, hand_bias=bias, reward=reward).search(o), want)
            assert _same(V.VariantISMCTS(Rng(k), None, 60, hand_bias=bias, reward=reward)._variant_search(o), want)


def test_the_variant_playout_without_its_options_is_hards(V):
    from game.royals.ai.ismcts import playout
    for seed in range(24):
        s = random_match(seed, 2 + seed % 3, upto=30 + (seed * 11) % 90)
        if s.phase not in (Phase.PLAY, Phase.STEAL, Phase.EXECUTE):
            continue
        a, b = [], []
        assert playout(s.copy(stack=False), _Rand(seed), 0.25, log=a) == \
            V.variant_playout(s.copy(stack=False), _Rand(seed), 0.25, log=b)
        assert a == b


def test_the_variant_playout_keeps_the_rules(V):
    # low_lead and specials, replayed through State with every check: the same rewards
    from game.royals.ai.baselines import rewards
    seen = set()
    for seed in range(120):
        players, teams = ((2, False), (3, False), (4, False), (4, True))[seed % 4]
        s = random_match(seed, players, teams, upto=30 + (seed * 11) % 90)
        if s.phase not in (Phase.PLAY, Phase.STEAL, Phase.EXECUTE):
            continue
        seen.add(s.phase)
        log: list[int] = []
        r = V.variant_playout(s.copy(stack=False), _Rand(seed), 0.25, low_lead=bool(seed % 2), log=log,
                              specials=seed % 3 == 0)
        t, keys = s.copy(), iter(log)
        for key in keys:
            if K.STEAL < key < K.EXECUTE:
                t.push_checked(Action.steal(t.to_act, key - K.STEAL, CARDS[next(keys)]))
            else:
                t.push_checked(key_action(t.to_act, key))
        assert t.round != s.round or t.is_over()
        assert rewards(t) == r
    assert seen == {Phase.PLAY, Phase.STEAL, Phase.EXECUTE}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_hand_choice_by_search_never_reads_hidden_cards(V, players):
    """At set-up, dealing the other seats' cards (and the aside) anew changes nothing: the
    search chooses the same hand, a legal one, one exchange away from the greedy's at most."""
    s = keep_state(players, players)
    seat = 1
    t = s.copy()
    others = [c for i in range(1, players) for c in range(36) if (s.dealt[i] >> c) & 1] + \
        [c for c in range(36) if (s.aside >> c) & 1]
    Rng(8).shuffle(others)
    size = SETUP[players][0]
    for i in range(1, players):
        t.dealt[i] = sum(1 << c for c in others[(i - 1) * size:i * size])
    t.aside = sum(1 << c for c in others[(players - 1) * size:])
    assert t.observation(seat) == s.observation(seat) and t.dealt != s.dealt
    a = V.VariantISMCTS(Rng(3), None, 40, keep_search=True).search(s.observation(seat)).action
    b = V.VariantISMCTS(Rng(3), None, 40, keep_search=True).search(t.observation(seat)).action
    assert a == b and s.is_legal(a)
    greedy = decide_keep(s.observation(seat))
    assert len(set(a.cards) - set(greedy.cards)) <= 1
    # without keep_search: the greedy's hand, as hard's
    assert V.VariantISMCTS(Rng(3), None, 40).search(s.observation(seat)).action == greedy


def test_the_hand_choice_keeps_to_its_time_budget(V):
    s = keep_state(2, 5)
    o = s.observation(1)
    budget = 0.2
    ((_wall, cpu),) = budget_runs("import sys\nsys.path.insert(0, 'bench')\n"
                                  "from royals_variants import VariantISMCTS\n"
                                  "from tests.royals.test_ai import keep_state\nfrom game.royals.engine import Rng\n"
                                  "o = keep_state(2, 5).observation(1)",
                                  f"VariantISMCTS(Rng(1), {budget}, keep_search=True).search(o)", runs=1)
    assert cpu <= budget * 1.1
    r = V.VariantISMCTS(Rng(1), None, 40, keep_search=True).search(o)
    assert r.iterations == 40 and s.is_legal(r.action)


def test_every_reward_is_todays_with_two_sides(V):
    f = V.variant_reward("rank")
    for tot, teams in (((17, 12), False), ((9, 9), False), ((5, 8, 11, 2), True), ((10, 3, 10, 7), True)):
        for final in (False, True):
            assert f(tot, teams, final) == reward_values(tot, teams, final)
    tot = (20, 14, 8, 2)
    from game.royals.ai.ismcts import make_reward
    assert V.variant_reward("mean")(tot, False, False) == make_reward("mean")(tot, False, False)
    with pytest.raises(ValueError, match="unknown reward 'max'"):
        V.variant_reward("max")


def test_the_rank_reward_orders_the_seats(V):
    r = V.variant_reward("rank")((20, 14, 14, 2), False, True)
    assert r[0] == pytest.approx(1.0)  # ahead of all: 0.7 x win + 0.3 x share 1
    assert r[1] == r[2] == pytest.approx(0.3 * 0.5)  # ahead of one, tied with one: share 1.5 / 3
    assert r[3] == 0.0
    mid = V.variant_reward("rank")((20, 14, 14, 2), False, False)
    assert mid == sorted(mid, reverse=True) and mid[1] == mid[2]
    assert mid[0] == pytest.approx(0.5 * 1.0 + 0.5 * (0.5 + 0.5 * math.tanh((20 - 10) / 10)))


def test_the_prior_leans_towards_the_greedys_choice_and_fades(V):
    o = four_player_positions(1)[0]
    values = action_values(o)
    keys = [action_key(a) for _, a in values]
    root = Node()
    for k in keys:  # the playouts could not tell the decisions apart: the same mean everywhere
        ch = root.children[k] = Node()
        ch.visits = ch.avail = 4
        ch.total, ch.mean = 2.0, 0.5
    V.add_prior(root, o, 100, 0.05)
    best = max(values, key=lambda va: va[0])
    means = {k: root.children[k].mean for k in keys}
    assert max(means, key=means.get) == action_key(best[1])
    for (v, _), k in zip(values, keys):
        ch = root.children[k]
        assert ch.visits == ch.avail == 104
        assert ch.mean == pytest.approx(0.5 + 0.05 * (v - best[0]) * 100 / 104)
    # the search with the prior still chooses among the legal decisions and runs its budget
    r = V.VariantISMCTS(Rng(3), None, 400, prior=100, reward="mean", specials=True).search(o)
    assert r.action in o.legal_actions() and r.iterations == 400
    assert sum(r.visits.values()) == 400  # the real visits only


def test_the_screening_script_takes_the_variants():
    spec = importlib.util.spec_from_file_location("royals_screen_bench", BENCH / "royals_screen.py")
    screen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(screen)
    assert screen.parse_options("keep=1,low_lead=1,reward=rank,prior=50") == \
        {"keep_search": True, "low_lead": True, "reward": "rank", "prior": 50}
    player = screen.factory("hard@30:keep=1,specials=1", 1)
    assert player.search.keep_search and player.search_multi.reward((20, 14, 8, 2), False, False) == \
        pytest.approx([0.5 + 0.5 * math.tanh(d / 10) for d in (12, 4, -4, -12)])
    o = keep_state(3, 2).observation(1)
    assert o.phase is Phase.KEEP and player.choose(o).kind.value == "keep"
    with pytest.raises(ValueError):
        screen.parse_options("prior_visits=3")


def test_the_hand_choice_by_search_is_the_one_hard_had(V):
    # the digest tests/royals/engine/test_golden.py pinned for hard's search while the hand
    # search was in the product (its default then: keep_search=True)
    from .engine.test_golden import _digest_choices
    digest = _digest_choices(range(2), lambda rng, s, i: V.VariantISMCTS(rng, s, i, keep_search=True), 40, keep=True)
    assert digest == "fae71695709b6e1396d4b71d1204c3f0aaf012e98ec80adf50f51d4d5b6761a6"
