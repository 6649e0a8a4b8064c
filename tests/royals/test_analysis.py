"""Royals & Riots' post-match analysis judges each decision from that seat's
information only, prices what it cost in points, and marks a careless player's decisions."""

from __future__ import annotations

from game.royals import analysis
from game.royals.ai.levels import make_player
from game.royals.ai.match import play_match
from game.royals.engine import PILE, Action, Observation, Rng, State


def play(levels: list[str], seed: int, iterations: int = 150) -> State:
    players = [make_player(level, seed + i, seconds=None, iterations=iterations) for i, level in enumerate(levels)]
    return play_match(players, Rng(seed))[0]


def test_labels_follow_the_cost():
    assert [analysis.label_for(x) for x in (0.0, 0.9, 1.0, 2.5, 5.0, 20.0)] == \
        ["", "", "inaccuracy", "mistake", "blunder", "blunder"]


def test_a_decision_is_judged_from_the_seats_observation_only():
    """Two matches that differ only in a card order seat 1 cannot see (seat 2's draw pile) give
    seat 1's first decision the same verdict; the search is handed observations, never a state."""
    final = play(["random", "random", "random"], 4)
    actions = list(final.history)
    first = next(i for i, _s in analysis.decisions(actions, 3, False) if actions[i].seat == 1)
    pile = next(i for i, a in enumerate(actions) if a.kind is PILE and a.seat == 2)
    other = list(actions)
    order = list(actions[pile].cards)
    other[pile] = Action.pile(2, order[::-1])
    assert other[pile] != actions[pile] and pile < first
    seen: list[object] = []

    def best_of(obs):
        seen.append(obs)
        return make_player("hard", 1, seconds=None, iterations=100).choose(obs)

    verdicts = []
    for record in (actions, other):
        out = list(analysis.analyse(record[:first + 1], 3, False, best_of, playouts=8))
        verdicts.append(next(v for v in out if v.index == first))
    assert verdicts[0] == verdicts[1]
    assert seen and all(isinstance(o, Observation) for o in seen)


def test_a_careless_player_is_marked_and_costs_more_than_the_search():
    """Seat 1 plays at random, seats 2 and 3 are the hard level: seat 1's decisions are marked and
    cost more points in all than the other two's together; the search's own choice costs nothing."""
    final = play(["random", "hard", "hard"], 7, iterations=300)
    hard = make_player("hard", 1, seconds=None, iterations=300)
    verdicts = list(analysis.analyse(final.history, 3, False, hard.choose, playouts=12))
    assert len(verdicts) == analysis.count(final.history, 3, False) > 60
    careless = [v for v in verdicts if v.seat == 1]
    strong = [v for v in verdicts if v.seat != 1]
    assert sum(1 for v in careless if v.label) >= 2, [(v.index, round(v.cost, 1)) for v in verdicts if v.cost]
    assert sum(v.cost for v in careless) > sum(v.cost for v in strong), (sum(v.cost for v in careless), sum(v.cost for v in strong))
    assert all(v.cost == 0.0 for v in verdicts if v.played == v.best)
    assert all(v.scores == analysis.scores_now(_at(final, v.index)) for v in verdicts[:5])


def _at(final: State, index: int) -> State:
    s = State(final.players, final.teams)
    for a in final.history[:index]:
        s.push(a)
    return s
