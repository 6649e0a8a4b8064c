"""Computer players: legal decisions at every level, sensible greedy choices, the search sees only
the observation (and its determinizations agree with it), the time budget, the match command."""

import re

import pytest

from game.cli import main
from game.royals.ai.levels import LEVEL_NAMES, make_player
from game.royals.ai.match import play_match, summary_line, wilson
from game.royals.ai.players import GreedyPlayer, decide_keep
from game.royals.ai.ismcts import _Rand
from game.royals.ai.baselines import ISMCTS2025 as ISMCTS
from game.royals.ai.determinize import Determinizer, determinize
from game.royals.engine import CARDS as CARDS_BY_INDEX
from game.royals.engine import Card, Phase, Rng, State

from .helpers import budget_runs, random_match
from .test_properties import hidden_from, scrambled


def pos(players, hands, piles=None, **kw):
    return State.from_position(players, {s: h.split() for s, h in hands.items()},
                               {s: p.split() for s, p in (piles or {}).items()}, **kw)


@pytest.mark.parametrize("players,teams", [(2, False), (3, False), (4, True)])
def test_every_level_plays_legal_matches(players, teams):
    levels = ["random", "easy", "greedy", "medium", "hard"]
    chosen = [make_player(levels[(k + players) % 5], k, seconds=None, iterations=20) for k in range(players)]
    state, stats = play_match(chosen, Rng(players), teams)
    assert state.is_over() and sum(st[0] for st in stats) > 30


def test_greedy_dumps_the_beggar_on_a_winning_opponent():
    s = pos(2, {1: "KING M1", 2: "BEGGAR P10"})
    s.push_str("1 play KING")
    assert str(GreedyPlayer(1).choose(s.observation(2))) == "2 play BEGGAR"


def test_greedy_wins_a_trick_with_its_cheapest_winning_card():
    s = pos(2, {1: "K6 M1", 2: "K1 K5"})
    s.push_str("1 play K6")
    assert str(GreedyPlayer(1).choose(s.observation(2))) == "2 play K5"


def test_greedy_robs_the_seat_whose_card_wins_and_executes_well():
    s = pos(3, {1: "THIEF P1", 2: "KING P2", 3: "P9 P3"})
    for t in ("1 play THIEF", "2 play KING", "3 play P9"):
        s.push_str(t)
    assert str(GreedyPlayer(1).choose(s.observation(1))) == "1 steal 2"
    s = pos(3, {1: "EXECUTIONER P1", 2: "KING P2", 3: "P9 P3"})
    for t in ("1 play EXECUTIONER", "2 play KING", "3 play P9"):
        s.push_str(t)
    assert str(GreedyPlayer(1).choose(s.observation(1))) == "1 execute KING"


def test_greedy_keeps_a_sensible_hand():
    s = State(3)
    rng = Rng(4)
    while s.phase is not Phase.KEEP:
        s.push(s.chance().sample(rng))
    o = s.observation(1)
    a = decide_keep(o)
    assert s.is_legal(a)
    if Card.from_name("KING") in o.dealt:
        assert Card.from_name("KING") in a.cards


def test_team_computer_picks_its_lower_scorer():
    s = pos(4, {1: "KING", 2: "P10", 3: "P9", 4: "P8"}, teams=True)
    for t in ("1 play KING", "2 play P10", "3 play P9", "4 play P8"):
        s.push_str(t)
    for level in LEVEL_NAMES:
        if level != "random":
            assert str(make_player(level, 1, seconds=None, iterations=5).choose(s.observation(s.to_act))) == "start 2"


def playing_states(n=12):
    out = []
    for seed in range(200):
        s = random_match(seed, 2 + seed % 3, upto=40 + (seed * 7) % 60)
        if s.phase is Phase.PLAY and s.to_act:
            out.append(s)
        if len(out) >= n:
            return out
    return out


def test_determinizations_agree_with_the_observation():
    rng = Rng(9)
    for s in playing_states():
        seat = s.to_act
        o = s.observation(seat)
        for k in range(6):
            d = determinize(o, rng, hand_bias=0.0 if k % 2 else 1.0)
            assert d.observation(seat) == o
        for k in range(6):  # the draws of hard (fast: float shuffles, fewer pile shuffles)
            d = Determinizer(o, hand_bias=0.0 if k % 2 else 1.5)(_Rand(k), fast=True)
            assert d.observation(seat) == o


def test_determinizations_respect_voids():
    # Seat 2 did not follow Knights and has no pile to draw from: it holds no Knight.
    s = pos(2, {1: "K5 K6 P1 P2", 2: "M1 M2 M3 M4"})
    s.push_str("1 play K5")
    s.push_str("2 play M1")
    assert s.voids == [(2, 3, 1, 0)]
    o = s.observation(1)
    rng = Rng(3)
    for _ in range(50):
        d = determinize(o, rng)
        assert d.observation(1) == o
        assert not any(c.rank is not None and c.rank.name == "KNIGHTS" for c in d.hand(2))


def test_the_search_never_reads_hidden_cards():
    # Two states that differ only in what the seat cannot see give the same decision.
    rng = Rng(5)
    for s in playing_states(6):
        seat = s.to_act
        t = scrambled(s, seat, rng)
        assert hidden_from(t, seat) == hidden_from(s, seat)
        a = make_player("hard", 11, seconds=None, iterations=60).choose(s.observation(seat))
        b = make_player("hard", 11, seconds=None, iterations=60).choose(t.observation(seat))
        assert a == b and s.is_legal(a)


def test_hard_keeps_to_its_time_budget():
    # The budget is CPU time on one core (+10% at most); the wall clock never passes 1 s (+10%).
    budget = 0.3
    runs = budget_runs("from tests.royals.test_ai import playing_states\n"
                       "from game.royals.ai.levels import make_player\n"
                       "s = playing_states(1)[0]; o = s.observation(s.to_act)",
                       f"make_player('hard', k, seconds={budget}).choose(o)")
    walls, cpus = [w for w, _c in runs], [c for _w, c in runs]
    assert max(cpus) <= budget * 1.1, runs
    assert max(walls) <= 1.0 * 1.1, runs
    assert min(walls) >= budget * 0.9 or max(cpus) >= budget * 0.9, runs


def test_search_result_reports_iterations_and_visits():
    s = playing_states(1)[0]
    r = ISMCTS(Rng(1), seconds=None, iterations=50).search(s.observation(s.to_act))
    assert r.iterations == 50 and sum(r.visits.values()) == 50 and str(r.action) in r.visits


def test_wilson_and_summary_line():
    lo, hi = wilson(7, 10)
    assert 0.39 < lo < 0.40 and 0.89 < hi < 0.90
    assert summary_line(["hard", "greedy", "random"], 10, [7, 2, 0], 1) == \
        "hard vs greedy vs random: 10 matches, hard won 7, greedy won 2, random won 0, shared 1; " \
        "hard win rate 70.0% (95% CI 39.7%-89.2%)"


def test_match_command(capsys, tmp_path):
    assert main(["match", "--game", "royals-riots", "greedy", "random", "random", "--games", "3",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"greedy vs random vs random: 3 matches, greedy won \d, random won \d, random won \d, "
                        r"shared \d; greedy win rate \d+\.\d% \(95% CI \d+\.\d%-\d+\.\d%\)", out[-1])
    assert out[-2].startswith("mean points per round: greedy ")
    assert len(list(tmp_path.iterdir())) == 3
    assert main(["check", *map(str, sorted(tmp_path.iterdir()))]) == 0
    # seats rotate between matches
    assert "greedy (seat 1)" in out[0] and "greedy (seat 2)" in out[1] and "greedy (seat 3)" in out[2]


def test_match_command_teams_and_bad_arguments(capsys):
    assert main(["match", "--game", "royals-riots", "greedy", "random", "greedy", "random", "--teams",
                 "--games", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("greedy vs random vs greedy vs random: 2 matches")
    with pytest.raises(SystemExit) as e:
        main(["match", "--game", "royals-riots", "greedy", "random", "--teams"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["match", "--game", "royals-riots", "greedy"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["match", "--game", "royals-riots", "greedy", "nobody"])
    assert e.value.code == 2


def keep_state(players: int, seed: int) -> State:
    s, rng = State(players), Rng(seed)
    while s.phase is not Phase.KEEP:
        s.push(s.chance().sample(rng))
    return s


def test_the_search_levels_and_hard_2025_keep_the_greedys_hand():
    s = keep_state(2, 5)
    o = s.observation(1)
    for level in ("hard", "medium", "hard-2025"):
        assert make_player(level, 1, seconds=0.2).choose(o) == decide_keep(o)


def test_the_new_search_sees_only_the_observation_and_hard_2025_is_todays_search():
    rng = Rng(6)
    for s in playing_states(4):
        seat = s.to_act
        t = scrambled(s, seat, rng)
        a = make_player("hard-2025", 4, seconds=None, iterations=60).choose(s.observation(seat))
        b = make_player("hard-2025", 4, seconds=None, iterations=60).choose(t.observation(seat))
        assert a == b == ISMCTS(Rng(4), None, 60).search(s.observation(seat)).action


def test_the_playout_on_ints_keeps_the_rules():
    # The playout plays on raw ints and lists, not through State: its decisions, replayed
    # through State with every check, reach the round's end with the same rewards.
    from game.royals.ai.ismcts import _Rand, playout
    from game.royals.ai.baselines import rewards
    from game.royals.engine import CARDS, Action
    from game.royals.engine import kernel as K
    from game.royals.engine.state import key_action
    seen = set()
    for seed in range(160):
        players, teams = ((2, False), (3, False), (4, False), (4, True))[seed % 4]
        s = random_match(seed, players, teams, upto=30 + (seed * 11) % 90)
        if s.phase not in (Phase.PLAY, Phase.STEAL, Phase.EXECUTE):
            continue
        seen.add(s.phase)
        log: list[int] = []
        r = playout(s.copy(stack=False), _Rand(seed), 0.25, log=log)
        t, keys = s.copy(), iter(log)
        for key in keys:
            if K.STEAL < key < K.EXECUTE:
                t.push_checked(Action.steal(t.to_act, key - K.STEAL, CARDS[next(keys)]))
            else:
                t.push_checked(key_action(t.to_act, key))
        assert t.round != s.round or t.is_over()
        assert rewards(t) == r
    assert seen == {Phase.PLAY, Phase.STEAL, Phase.EXECUTE}


def test_the_iteration_on_ints_walks_as_the_iteration_through_state():
    # hard's iteration (Determinizer.deal, ismcts.descend and rollout on raw ints) against the
    # same iteration through State (the determinization as a State, search.descend applying
    # the kernel's keys to it, ismcts.playout): the same draws, so the same tree, node by node.
    from game.royals.ai import ismcts as I
    from game.royals.ai.baselines import Node
    from game.royals.ai.baselines import descend as state_descend
    from game.royals.ai.baselines import rewards
    from game.royals.engine import kernel as K
    from game.royals.engine.state import ROUNDS

    def tree(node):
        return {k: (ch.visits, round(ch.total, 9), ch.avail, tree(ch)) for k, ch in node.children.items()}

    phases, last_round = set(), 0
    for seed in range(32):
        players, teams = ((2, False), (3, False), (4, False), (4, True))[seed % 4]
        if seed < 16:
            st = random_match(seed, players, teams, upto=25 + (seed * 13) % 80)
        else:  # the match's last tricks, where the descent reaches the end of the match
            length = random_match(seed, players, teams).ply
            st = random_match(seed, players, teams, upto=length - 2 - seed % 5)
        if st.phase not in (Phase.PLAY, Phase.STEAL, Phase.EXECUTE) or len(st.legal_actions()) < 2:
            continue
        phases.add(st.phase)
        last_round += st.round == ROUNDS
        o = st.observation(st.to_act)
        hb = 1.5 if seed % 3 else 0.0
        # through State
        draw, rand = Determinizer(o, hb, exact=True), _Rand(seed)
        root_s = Node()

        def apply(d, key):
            card = I._pick(d.hands[key - K.STEAL - 1], rand.random()) if K.STEAL < key < K.EXECUTE else -1
            K.apply_key(d, key, card)
        for _ in range(150):
            d = draw(rand, True)
            path = state_descend(root_s, d, o.round, 0.7, rand.randbelow, apply)
            # (the playout was called on a finished last round, whose points it then counted twice)
            over = d.round != o.round or d.phase not in (Phase.PLAY, Phase.STEAL, Phase.EXECUTE)
            r = rewards(d) if over else I.playout(d, rand)
            for ch, seat in path:
                ch.visits += 1
                ch.total += r[seat - 1]
        # on ints
        draw, rand = Determinizer(o, hb, exact=True), _Rand(seed)
        root_i = I.Node()
        base = I._base_totals(o.round_scores, players)
        for _ in range(150):
            hands, piles, _ = draw.deal(rand, True)
            loot, trick = draw.loot[:], draw.trick[:]
            path, phase, seat, led, rev, leader = I.descend(
                root_i, players, hands, piles, loot, trick, o.phase, o.to_act, draw.led, o.revolution, o.leader,
                0.7, rand.random, I._logs(200), {})
            if phase is not None:
                I.rollout(players, teams, hands, piles, loot, trick, led, rev, seat, leader, phase, rand.random)
            r = I._rewards(base, loot, teams, o.round >= ROUNDS)
            for ch, seat in path:
                ch.visits += 1
                ch.total += r[seat - 1]
                ch.mean = ch.total / ch.visits
        assert tree(root_i) == tree(root_s), seed
    assert Phase.PLAY in phases and last_round >= 4


def test_fast_determinizations_are_uniform():
    # hard's draws (float shuffles, no second shuffle of the piles the deal ordered) give every
    # unseen card the same chance of each place: the other hand, the top of its pile, the aside.
    s = random_match(3, 2, upto=8)
    while s.phase is not Phase.PLAY:
        s.push(s.chance().sample(Rng(1)))
    o = s.observation(s.to_act)
    other = 2 - s.to_act  # index of the other seat
    draw = Determinizer(o)
    rand = _Rand(17)
    n = 3000
    counts = {"hand": [0] * 36, "top": [0] * 36, "aside": [0] * 36}
    for _ in range(n):
        d = draw(rand, fast=True)
        for c in range(36):
            counts["hand"][c] += (d.hands[other] >> c) & 1
            counts["aside"][c] += (d.aside >> c) & 1
        counts["top"][d.piles[other][-1]] += 1
    unseen = draw.pool
    size = len(unseen)
    want = {"hand": o.hand_sizes[other] / size, "top": 1 / size, "aside": o.aside / size}
    for place, p in want.items():
        sigma = (n * p * (1 - p)) ** 0.5
        for c in unseen:
            assert abs(counts[place][c] - n * p) < 4.5 * sigma, (place, c)


@pytest.mark.parametrize("players", [2, 4])
def test_fast_weighted_determinizations_draw_like_the_slow_ones(players):
    # hard's draws with hand_bias (fast: the aside by a partial shuffle, no shuffle of the hands'
    # part for one other seat, no second shuffle of the piles) against the slow draws of the
    # same Determinizer: every unseen card as often in each other hand, on top of each other
    # pile and aside (a two-sample test per card and place).
    s = random_match(3 + players, players, upto=8)
    while s.phase is not Phase.PLAY:
        s.push(s.chance().sample(Rng(1)))
    me = s.to_act
    o = s.observation(me)
    draw = Determinizer(o, hand_bias=1.5)
    n = 2500

    def tally(d, counts):
        for i in range(players):
            if i != me - 1:
                for c in range(36):
                    counts[("hand", i, c)] = counts.get(("hand", i, c), 0) + ((d.hands[i] >> c) & 1)
                top = ("top", i, d.piles[i][-1])
                counts[top] = counts.get(top, 0) + 1
        for c in range(36):
            counts[("aside", c)] = counts.get(("aside", c), 0) + ((d.aside >> c) & 1)

    fast, slow = {}, {}
    rand, rng = _Rand(23), Rng(23)
    for _ in range(n):
        tally(draw(rand, fast=True), fast)
        tally(draw(rng), slow)
    for key in set(fast) | set(slow):
        a, b = fast.get(key, 0), slow.get(key, 0)
        p = (a + b) / (2 * n)
        sigma = (2 * n * p * (1 - p)) ** 0.5
        assert abs(a - b) <= 4.5 * sigma + 1, (key, a, b)


def test_inference_from_the_hand_choices_favours_no_seat():
    # hand_bias puts the strong cards in the hands rather than the piles, but in no seat's hand
    # more than another's (with 4 players the first seat drawn used to get the strongest).
    from game.royals.ai.players import keep_score
    s = random_match(5, 4, upto=10)  # the first trick: no voids, no known cards yet
    while s.phase is not Phase.PLAY:
        s.push(s.chance().sample(Rng(2)))
    me = s.to_act
    o = s.observation(me)
    assert not o.voids and not any(o.known)
    score = [keep_score(c) for c in CARDS_BY_INDEX]
    draw = Determinizer(o, hand_bias=1.5)
    rand = _Rand(3)
    n = 1500
    hand_sum = [0.0] * 4
    pile_sum = 0.0
    for _ in range(n):
        d = draw(rand, fast=True)
        for i in range(4):
            if i != me - 1:
                hand_sum[i] += sum(score[c] for c in range(36) if (d.hands[i] >> c) & 1) / d.hands[i].bit_count()
                pile_sum += sum(score[c] for c in d.piles[i]) / len(d.piles[i]) / 3
    means = [hand_sum[i] / n for i in range(4) if i != me - 1]
    assert max(means) - min(means) < 0.05 * max(means)
    assert min(means) > pile_sum / n + 0.2
