"""Post-match analysis of Royals & Riots: the hard search goes over every decision of
a finished match from that seat's information only, and estimates what each cost in points.

Pure Python, no pygame. It uses only the public API of the engine and the computer players:
:meth:`State.observation` (one seat's information state), :func:`game.royals.ai.levels.make_player`
(the ``hard`` level's choice from an observation; the ``greedy`` player as the playout policy)
and :func:`game.royals.ai.determinize.determinize` (a full position drawn at random among those
consistent with an observation).

For each decision of the match (a card played, a Thief's target, an Executioner's victim; hand
choices at a round's start are not judged: the computer makes them by fixed rules) at position
``k`` by seat ``s``, with ``obs = state_k.observation(s)`` and nothing else:

1. ``best``: what the ``hard`` level chooses from ``obs``. A decision with one legal action, or
   where the seat played ``best``, cost nothing.
2. Otherwise ``best`` and the move played are priced on the same :data:`PLAYOUTS` determinizations
   of ``obs`` (common random numbers: the same hidden cards and the same chance for both), each
   played out to the round's end by the ``greedy`` player for every seat; a line's value is the
   seat's (its team's) round points minus the best other seat's (team's). The decision cost
   ``mean(best - played)`` less one standard error of that paired difference, never below 0: it
   is marked only where the search and the playouts agree the move was worse, by more than their
   noise. From :data:`INACCURACY`, :data:`MISTAKE` and :data:`BLUNDER` points a decision is marked.

Measured (``bench/royals_analysis.py --games 4``: 3 seats, ``hard`` (1,000 iterations a decision),
``random`` and ``greedy``; judged with ``hard`` at 2,000 iterations and 24 playouts, about 33 s of
CPU a match): the mean cost per decision and the share marked (1 point or more) were 0.10 and 3 %
for ``hard``'s decisions, 0.31 and 9 % for ``greedy``'s, 0.69 and 17 % for ``random``'s (about 6
of its 38 decisions a match, 3 to 5 % of them at 5 points or more). In points lost per match:
``random`` 20 to 40, ``greedy`` 4 to 25, ``hard`` 1 to 5.

A flat Monte-Carlo over every legal action without the search (best = the action the playouts
value most; ``--flat``) marked ``hard``'s own decisions at 19 % and ``random``'s at 26 % (2 matches):
the maximum of noisy means favours some other action everywhere.

Hidden cards never reach the search or the playouts: the only input per decision is ``obs``
(``tests/royals/test_analysis.py`` checks that two matches differing only in cards the seat could
not see give the same verdicts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from game.marks import LABELS, mark, serve
from game.rng import Rng
from game.royals.engine import Action, Observation, Phase, State, team_of

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from game.royals.ai.players import Player

#: Determinizations each judged decision is played out on (the best and the played line on the same ones).
PLAYOUTS = 24
#: The hard level's search per decision, iterations (a fixed count: the verdicts do not depend on
#: the machine's load; about 0.15 s here).
ITERATIONS = 2000
#: Points a decision cost from which it is marked.
INACCURACY, MISTAKE, BLUNDER = 1.0, 2.5, 5.0
THRESHOLDS = (INACCURACY, MISTAKE, BLUNDER)
#: The phases whose decisions are judged.
JUDGED = (Phase.PLAY, Phase.STEAL, Phase.EXECUTE)


def label_for(cost: float) -> str:
    """"blunder", "mistake", "inaccuracy" or "" for a decision that cost ``cost`` points."""
    return mark(cost, THRESHOLDS)


@dataclass(frozen=True)
class Verdict:
    """The judgement of the decision ``history[index]``: ``seat`` played ``played`` in ``round``,
    trick ``trick``; the hard search's ``best``; what it ``cost`` in points (>= 0) and its
    ``label``. ``scores``: every seat's points so far (finished rounds plus the loot of this one)
    before the decision, for the graph."""

    index: int
    seat: int
    round: int
    trick: int
    played: Action
    best: Action
    cost: float
    label: str
    scores: tuple[int, ...]


def margin(state: State, seat: int, scores: Sequence[int]) -> float:
    """``seat``'s (its team's) points in ``scores`` minus the best other seat's (team's)."""
    if state.teams:
        mine = team_of(seat)
        team = [0, 0]
        for s, v in enumerate(scores, 1):
            team[team_of(s)] += v
        return team[mine] - team[1 - mine]
    own = scores[seat - 1]
    return own - max(v for s, v in enumerate(scores, 1) if s != seat)


def playout_value(obs: Observation, first: Action, seed: int, policy: Player) -> float:
    """One determinization of ``obs`` (drawn with ``seed``), ``first`` played in it, then the round
    played out by ``policy`` for every seat with chance from ``seed``: the seat's :func:`margin`
    in the round's points. Reads nothing but ``obs``."""
    from game.royals.ai.determinize import determinize
    d = determinize(obs, Rng(seed))
    chance = Rng(seed ^ 0x5EED)
    seat, rnd = obs.seat, d.round
    d.push(first)
    while not d.is_over() and d.round == rnd:
        event = d.chance()
        if event is not None:
            d.push(event.sample(chance))
        else:
            d.push(policy.choose(d.observation(d.to_act)))
    points = d.round_scores[rnd - 1] if len(d.round_scores) >= rnd else d.round_points()
    return margin(d, seat, points)


def judge(obs: Observation, played: Action, best: Action, playouts: int = PLAYOUTS, seed: int = 1) -> float:
    """What ``played`` cost against ``best`` from ``obs``, in points (>= 0; 0 when they are the
    same): see the module docstring. The playouts use seeds ``seed .. seed + playouts - 1``."""
    if played == best or playouts < 2:
        return 0.0
    from game.royals.ai.levels import make_player
    policy = make_player("greedy", seed)
    diffs = [playout_value(obs, best, seed + k, policy) - playout_value(obs, played, seed + k, policy)
             for k in range(playouts)]
    mean = sum(diffs) / playouts
    spread: float = (sum((d - mean) ** 2 for d in diffs) / (playouts - 1)) ** 0.5
    error: float = spread / playouts ** 0.5
    return max(0.0, mean - error)


def decisions(actions: Sequence[Action], players: int, teams: bool) -> Iterator[tuple[int, State]]:
    """``(index, position before it)`` of every judged decision of the match ``actions`` (a record's
    history, chance outcomes included). The position is shared: copy it to keep it."""
    s = State(players, teams)
    for i, a in enumerate(actions):
        if not a.is_chance and s.phase in JUDGED and s.to_act == a.seat:
            yield i, s
        s.push(a)


def scores_now(state: State) -> tuple[int, ...]:
    """Every seat's points so far: finished rounds plus this round's loot."""
    done = [sum(r[s] for r in state.round_scores) for s in range(state.players)]
    if state.phase is Phase.OVER:
        return tuple(done)
    return tuple(d + p for d, p in zip(done, state.round_points()))


def analyse(actions: Sequence[Action], players: int, teams: bool, best_of: Callable[[Observation], Action],
            playouts: int = PLAYOUTS, seed: int = 1, stop: Callable[[], bool] | None = None) -> Iterator[Verdict]:
    """Judge every decision of the match ``actions`` in order; ``best_of(obs)`` is the search's
    choice from the deciding seat's observation (the hard player's ``choose``), the only thing
    either it or the pricing is handed. Ends early once ``stop()`` is true."""
    for i, s in decisions(actions, players, teams):
        if stop is not None and stop():
            return
        played = actions[i]
        obs = s.observation(played.seat)
        best = played if len(obs.legal_actions()) <= 1 else best_of(obs)
        cost = judge(obs, played, best, playouts, seed + 1000 * i)
        yield Verdict(i, played.seat, s.round, s.trick_no, played, best, cost, label_for(cost), scores_now(s))


def count(actions: Sequence[Action], players: int, teams: bool) -> int:
    """How many decisions :func:`analyse` judges (the progress bar's total)."""
    return sum(1 for _ in decisions(actions, players, teams))


def worker(conn: Connection, actions: list[str], players: int, teams: bool, iterations: int, playouts: int, seed: int,
           nice: int = 0) -> None:
    """The analysis in a worker process: sends ``("verdict", index, best text, cost)`` per judged
    decision, then ``("done",)``; ``("error", text)`` if it fails. Stops when the parent closes
    the pipe or ends the process."""
    serve(conn, nice, lambda: run(conn, actions, players, teams, iterations, playouts, seed))


def run(conn: Connection, actions: list[str], players: int, teams: bool, iterations: int, playouts: int, seed: int,
        stop: Callable[[], bool] | None = None) -> None:
    """Judge the match (actions as text) with the hard level at ``iterations`` per decision and
    send each verdict down ``conn`` (see :func:`worker`)."""
    from game.royals.ai.levels import make_player
    hard = make_player("hard", seed, seconds=None, iterations=iterations)
    parsed = [Action.from_str(a) for a in actions]
    for v in analyse(parsed, players, teams, hard.choose, playouts, seed, stop):
        conn.send(("verdict", v.index, str(v.best), v.cost))
    conn.send(("done",))


__all__ = ["BLUNDER", "INACCURACY", "ITERATIONS", "JUDGED", "LABELS", "MISTAKE", "PLAYOUTS", "Verdict", "analyse", "count",
           "decisions", "judge", "label_for", "margin", "playout_value", "run", "scores_now", "worker"]
