"""The baseline of Royals & Riots' strength figures, ``hard-2025`` (``hard`` before its ISMCTS
rewrite), kept so that the figures of ``docs/royals-ai.md`` stay reproducible; a documented
opponent of ``rose-king match --game royals-riots`` and of the benches, never offered in the
window.

Its search: information-set MCTS (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012)
for one seat. Each iteration samples a determinization (:mod:`.determinize`), then walks one
shared tree of decisions (UCB1 with availability counts), expands one node and plays the round
out at random. The playout stops at the round's end; each seat's reward is its (team's)
margin over the best other seat (team), squashed to 0..1, and in the last round mostly the
match's win/loss. Chance inside an iteration (the Thief's pick, the draws) comes from the
determinization or the search's own :class:`~game.rng.Rng`.
"""

from __future__ import annotations

import math
import time
from typing import Callable

from game.rng import Rng

from ..engine import kernel as K
from ..engine.actions import Action
from ..engine.cards import BEGGAR, THIEF, iter_bits
from ..engine.state import Observation, Phase, State, key_action
from .determinize import Determinizer, SearchResult, reward_values
from .players import DEFAULT_SECONDS, decide_keep, decide_start

_trick_winner = K.trick_winner
_STEAL_NONE, _STEAL, _EXEC = K.STEAL_NONE, K.STEAL, K.EXECUTE
_DECISIONS = (Phase.PLAY, Phase.STEAL, Phase.EXECUTE)


def legal_keys(s: State) -> list[int]:
    """The decisions at ``s`` as the kernel's keys (:func:`game.royals.engine.kernel.decision_keys`):
    a card index to play, 40 (steal none) / 40 + seat (steal), 50 + card (execute)."""
    return K.decision_keys(s)


def apply_key(s: State, key: int, rng: Rng) -> None:
    """Apply a decision key (see :func:`legal_keys`) to an untracked state; a steal's card is
    drawn uniformly from the robbed hand with ``rng`` (the chance outcome)."""
    card = -1
    if _STEAL < key < _EXEC:
        cards = list(iter_bits(s.hands[key - _STEAL - 1]))
        card = cards[rng.randbelow(len(cards))]
    K.apply_key(s, key, card)


def rewards(s: State, scale: float = 10.0) -> list[float]:
    """Each seat's reward in 0..1 at the end of a round (see the module docstring)."""
    return reward_values(s.scores(), s.teams, s.phase is Phase.OVER, scale)


def playout_card(d: State, cards: list[int]) -> int:
    """The playout's rule for a seat that follows (``cards``: its legal cards, at least two):
    win the trick with the weakest card that takes it, else dump the Beggar on an
    opponent, else throw the weakest card; when its side already wins, throw the weakest."""
    seat = d.to_act
    rev = d.revolution
    led = d.led
    w = _trick_winner(d.trick, led, rev)
    teams = d.teams
    friend = w == seat or (teams and w and (w - seat) % 2 == 0)
    ranked = [c for c in cards if c < THIEF]
    if not ranked:
        return cards[0]
    weakest = min(ranked) if rev else max(ranked)
    if friend:
        return weakest
    winning = [c for c in ranked if _trick_winner(d.trick + [(seat, c)], led, rev) == seat]
    if winning:
        return min(winning) if rev else max(winning)
    if BEGGAR in cards and w:
        return BEGGAR
    return weakest


def descend(root: "Node", d: State, rnd: int, cexp: float, randbelow: Callable[[int], int],
            apply: Callable[[State, int], None]) -> list[tuple["Node", int]]:
    """Selection and expansion of one ISMCTS iteration in determinization ``d``: from ``root``
    down the decisions legal in ``d`` (UCB1 with availability counts, exploration ``cexp``)
    until a decision never tried here is added (chosen by ``randbelow(n)``) or round ``rnd``
    ends. ``apply(d, key)`` applies a key. Returns the path: (child, seat that chose it)."""
    node = root
    path: list[tuple[Node, int]] = []
    log, sqrt = math.log, math.sqrt
    while d.round == rnd and d.phase in _DECISIONS:
        keys = K.decision_keys(d)
        seat = d.to_act
        children = node.children
        untried = []
        for k in keys:
            ch = children.get(k)
            if ch is not None:
                ch.avail += 1
            else:
                untried.append(k)
        if untried:
            k = untried[randbelow(len(untried))]
            ch = Node()
            ch.avail = 1
            children[k] = ch
            apply(d, k)
            path.append((ch, seat))
            break
        best, best_k = -1.0, keys[0]
        for k in keys:
            ch = children[k]
            v = ch.total / ch.visits + cexp * sqrt(log(ch.avail) / ch.visits)
            if v > best:
                best, best_k = v, k
        node = children[best_k]
        apply(d, best_k)
        path.append((node, seat))
    return path


class Node:
    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


class ISMCTS2025:
    """Single-observer ISMCTS over one seat's observation.

    ``seconds``: the budget per decision in seconds of CPU time on one core (the CPU time
    of the thread that searches, so other threads of the process do not eat it), and never
    more than ``max(seconds, WALL_CAP)`` of wall-clock time, so a loaded machine slows a
    decision but never past 1 s. None: no time
    limit. ``iterations``: a cap on iterations (None: none); at least one of the two must
    be set. ``c``: UCB1's exploration constant; ``noise``: percent of random playout
    decisions. ``rng``: the search's own generator (determinizations, playouts).
    """

    WALL_CAP = 1.0

    def __init__(self, rng: Rng, seconds: float | None = 1.0, iterations: int | None = None,
                 c: float = 0.7, noise: int = 25) -> None:
        if seconds is None and iterations is None:
            raise ValueError("a search needs a time or an iteration budget")
        self.rng = rng
        self.seconds = seconds
        self.iterations = iterations
        self.c = c
        self.noise = noise

    def search(self, obs: Observation) -> SearchResult:
        """Search from ``obs`` (its seat must be to act in PLAY, STEAL or EXECUTE)."""
        t0, c0 = time.perf_counter(), time.thread_time()
        legal = obs.legal_actions()
        if len(legal) == 1:
            return SearchResult(legal[0], 0, time.perf_counter() - t0, time.thread_time() - c0, {})
        root = Node()
        rng = self.rng
        draw = Determinizer(obs)
        deadline = None if self.seconds is None else c0 + self.seconds * 0.97
        wall_deadline = None if self.seconds is None else t0 + max(self.seconds, self.WALL_CAP) * 0.97
        clock, wall = time.thread_time, time.perf_counter
        limit = self.iterations
        it = 0
        rnd = obs.round
        cexp = self.c
        while True:
            if limit is not None and it >= limit:
                break
            if deadline is not None and wall_deadline is not None and it and (clock() >= deadline or wall() >= wall_deadline):
                break
            it += 1
            d = draw(rng)
            path = descend(root, d, rnd, cexp, rng.randbelow, lambda d, k: apply_key(d, k, rng))
            # playout to the round's end: mostly a simple trick rule, sometimes at random
            while d.round == rnd and d.phase in (Phase.PLAY, Phase.STEAL, Phase.EXECUTE):
                if d.phase is Phase.PLAY:
                    cards = list(iter_bits(d.legal_plays()))
                    if len(cards) == 1 or not d.trick or rng.randbelow(100) < self.noise:
                        c = cards[rng.randbelow(len(cards))]
                    else:
                        c = playout_card(d, cards)
                    K.play(d, d.to_act, c)
                else:
                    keys = legal_keys(d)
                    apply_key(d, keys[rng.randbelow(len(keys))], rng)
            r = rewards(d)
            for ch, seat in path:
                ch.visits += 1
                ch.total += r[seat - 1]
        seat = obs.seat
        best_k = max(root.children, key=lambda k: (root.children[k].visits, root.children[k].total))
        visits = {str(key_action(seat, k)): ch.visits for k, ch in root.children.items()}
        return SearchResult(key_action(seat, best_k), it, time.perf_counter() - t0, time.thread_time() - c0, visits)


class Hard2025Player:
    """``hard`` as it was before its ISMCTS rewrite: :class:`ISMCTS2025` for play decisions (the
    same with any number of players), the greedy's rules for the hand and the start; ``seconds``
    per decision (None with ``iterations``)."""

    name = "hard-2025"

    def __init__(self, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS,
                 iterations: int | None = None, **_: object) -> None:
        self.rng = Rng(seed)
        self.search = ISMCTS2025(self.rng, seconds, iterations)
        self.last: SearchResult | None = None

    def choose(self, obs: Observation) -> Action:
        if obs.phase is Phase.START:
            return decide_start(obs)
        if obs.phase is Phase.KEEP:
            return decide_keep(obs)
        self.last = self.search.search(obs)
        return self.last.action
