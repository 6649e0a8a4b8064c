"""The search of ``hard`` and ``medium``: the single-observer ISMCTS of the baseline
``hard-2025`` (:mod:`.baselines`) made faster; the hand at set-up is the greedy's.

- **Speed.** The search's own randomness (determinizations, playouts, a Thief's pick inside an
  iteration) comes from a C-speed ``random.Random`` seeded from the player's :class:`~game.rng.Rng`
  (still reproducible from the seed; nothing here must agree between machines). An
  iteration never builds a ``State``: the determinization gives the hidden cards as raw
  fields (:meth:`.search.Determinizer.deal` with ``fast``: float shuffles of only the places
  a hand or a pile gets), and the tree descent (:func:`descend`) and the playout
  (:func:`rollout`) step those ints and lists with the kernel's steps on raw fields
  (:mod:`game.royals.engine.kernel`: ``keys_at``, ``put``, ``full_trick``, ``take_trick`` ...;
  ``State`` is stepped by the same ``put``, ``full_trick`` and ``keys_at``); the clocks are
  read once per 8 iterations.
- **Inference** from the others' hand choices (``hand_bias``, :class:`.search.Determinizer`).
- **Exact determinizations**: uniform among the deals that keep every void shown
  (``Determinizer(..., exact=True)``, by rejection), where ``hard-2025``'s sequential take
  gave a seat with 3 or 4 players cards its void rules out.
- Play decisions: the ISMCTS of :mod:`.baselines` (the determinizations of :mod:`.determinize`, one tree with
  availability counts, UCB1 c = 0.7, playouts to the round's end, the same rewards).

The variants screened and not kept (the hand choice by search, the playout's low lead and
rule-based Thief and Executioner, the greedy's prior at the root, the rank reward) are
measurement, not product: they live in ``bench/royals_variants.py`` (a subclass of
:class:`ISMCTS`), which ``bench/royals_screen.py`` plays (docs/royals-ai.md).

The search never sees a hidden card: it is handed only the observation.
"""

from __future__ import annotations

import math
import random
import time
from typing import Callable, Sequence

from game.rng import Rng

from ..engine import kernel as K
from ..engine.cards import BEGGAR, RANK_OF, RANKED_MASK
from ..engine.state import ROUNDS, Observation, Phase, State, key_action
from .players import decide_keep
from .determinize import Determinizer, SearchResult, reward_values

#: A reward at a round's end: ``f(match totals per seat, teams, final) -> reward per seat``.
Reward = Callable[[Sequence[int], bool, bool], list[float]]

_PLAY, _STEAL, _EXECUTE = Phase.PLAY, Phase.STEAL, Phase.EXECUTE
#: Iterations between two reads of the clocks.
_BATCH = 8


class _Rand(random.Random):
    """``random.Random`` with the :class:`~game.rng.Rng` method the determinizer calls."""

    def randbelow(self, n: int) -> int:
        return int(self.random() * n)


def _pick(mask: int, r: float) -> int:
    """The card of ``mask`` at rank ``int(r * popcount)`` in index order (``r`` in [0, 1))."""
    k = int(r * mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def playout(d: State, rand: _Rand, noise: float = 0.25, log: list[int] | None = None,
            reward: Reward = reward_values) -> list[float]:
    """Play ``d`` (a disposable determinization in PLAY, STEAL or EXECUTE) to its round's end
    and return each seat's reward (:func:`.search.reward_values`) by :func:`rollout` on its
    fields. ``d`` is left mid-way (read nothing from it after). ``log``: if a list, the
    decisions taken are appended as the kernel's keys (a steal followed by the card taken), so
    a test can replay them through ``State``. ``reward``: a reward of :func:`make_reward`."""
    loot = d.loot
    rollout(d.players, d.teams, d.hands, d.piles, loot, d.trick, d.led, d.revolution, d.to_act, d.leader,
            d.phase, rand.random, noise, log)
    return _rewards(_base_totals(d.round_scores, d.players), loot, d.teams, d.round >= ROUNDS, reward)


def _base_totals(round_scores: Sequence[Sequence[int]], n: int) -> list[int]:
    """Each seat's points over the finished rounds ``round_scores``."""
    tot = [0] * n
    for rs in round_scores:
        for i, v in enumerate(rs):
            tot[i] += v
    return tot


def _rewards(base: list[int], loot: list[int], teams: bool, final: bool, reward: Reward = reward_values) -> list[float]:
    """Each seat's reward (``reward``: :func:`.search.reward_values` or one of :func:`make_reward`)
    at the round's end: the totals of the finished rounds ``base`` plus the points of this
    round's ``loot`` masks."""
    points = K.points
    return reward([b + points(m) for b, m in zip(base, loot)], teams, final)


def make_reward(kind: str = "best", scale: float = 10.0, win: float = 0.7) -> Reward:
    """The reward of the search at a round's end, ``f(tot, teams, final) -> list[float]`` (per
    seat, 0..1; ``tot``: the match totals per seat, ``final``: after the match's last round).

    ``kind``: ``"best"``: :func:`.search.reward_values` (the margin ``d`` of the seat's (team's)
    total over the best other's as ``0.5 + 0.5 tanh(d / scale)``; after the last round
    ``win x (1 win, 0.5 tie, 0 loss) + (1 - win) x`` that); ``"mean"``: the same with ``d`` the
    margin over the *mean* of the others (with 2 players or teams the same as ``"best"``: one
    other side). Raises ValueError for another ``kind``."""
    if kind == "best":
        return lambda tot, teams, final: reward_values(tot, teams, final, scale)
    if kind != "mean":
        raise ValueError(f"unknown reward {kind!r} (choose from best, mean)")
    tanh = math.tanh
    lose = 1.0 - win

    def reward(tot: Sequence[int], teams: bool, final: bool) -> list[float]:
        n = len(tot)
        if teams or n == 2:
            return reward_values(tot, teams, final, scale)
        total = sum(tot)
        out = []
        for i in range(n):
            t = tot[i]
            margin = 0.5 + 0.5 * tanh((t - (total - t) / (n - 1)) / scale)
            if final:
                best = max(tot[j] for j in range(n) if j != i)
                margin = win * (1.0 if t > best else 0.5 if t == best else 0.0) + lose * margin
            out.append(margin)
        return out
    return reward


def rollout(n: int, teams: bool, hands: list[int], piles: list[list[int]], loot: list[int],
            trick: list[tuple[int, int]], led: int, rev: bool, seat: int, leader: int, phase: Phase | None,
            random_: Callable[[], float], noise: float = 0.25, log: list[int] | None = None) -> None:
    """Play a round to its end on raw fields (the kernel's: hand and loot masks, piles as card
    lists with the top last, the trick as ``(seat, card)``; ``phase`` PLAY, STEAL or EXECUTE with
    ``seat`` to decide), changing ``hands``, ``piles``, ``loot`` and ``trick`` in place; the
    loots then hold the round's points. The policy: a follower wins the trick with its weakest
    card that takes it, else dumps the Beggar on an opponent, else throws its weakest card (the
    weakest too when its side already wins); a lead, and ``noise`` of all plays, at random; a
    Thief's or an Executioner's decision at random, the stolen card too (the policy of
    :mod:`.baselines`). ``random_``: floats in [0, 1).

    Speed: no ``State`` and nothing no playout reads (voids, known cards, trick
    numbers); every rule comes from the kernel: :func:`~game.royals.engine.kernel.playable`,
    ``takers`` and ``trick_winner`` for the policy, ``put`` (ruling 5), ``full_trick`` and
    ``executioner`` (ruling 7 (1)-(2)), ``steal_targets``, ``thief_takes``, ``victims``,
    ``take_out`` (ruling 7 (1)-(2)), ``take_trick`` (ruling 7 (3)-(5)).
    ``log``: if a list, the decisions taken are appended as the kernel's keys (a steal
    followed by the card taken)."""
    playable, takers, winner = K.playable, K.takers, K.trick_winner
    put, full_trick, executioner, take_trick = K.put, K.full_trick, K.executioner, K.take_trick
    rank_of = RANK_OF
    ranked_mask = RANKED_MASK
    # the weakest card of a mask m in the order in force, inline below: the highest index in the
    # normal order, the lowest in a revolution: (m & -m).bit_length() - 1 if rev else m.bit_length() - 1
    while True:
        if phase is _PLAY:
            legal = playable(hands[seat - 1], led, True)  # led is -1 until the trick's first card
            if legal & (legal - 1) == 0:
                c = legal.bit_length() - 1
            elif random_() < noise:
                c = _pick(legal, random_())
            elif not trick:
                c = _pick(legal, random_())
            else:
                ranked = legal & ranked_mask
                if not ranked:
                    c = (legal & -legal).bit_length() - 1
                else:
                    # the seat to play has no card in the trick, so only a partner can be winning it
                    w = winner(trick, led, rev) if teams else -1
                    if teams and w and (w - seat) % 2 == 0:  # its side wins: throw the weakest
                        c = (ranked & -ranked).bit_length() - 1 if rev else ranked.bit_length() - 1
                    else:
                        taking = takers(trick, led, rev, ranked)
                        if taking:
                            c = (taking & -taking).bit_length() - 1 if rev else taking.bit_length() - 1
                        elif (legal >> BEGGAR) & 1 and (w if w >= 0 else winner(trick, led, rev)):
                            c = BEGGAR
                        else:
                            c = (ranked & -ranked).bit_length() - 1 if rev else ranked.bit_length() - 1
            if log is not None:
                log.append(c)
            if not trick:
                led = rank_of[c]
            nxt = put(hands, piles, trick, n, seat, c)
            if nxt:
                seat = nxt
                continue
            cards, phase, seat = full_trick(hands, trick)
        else:
            cards = -1
        if phase is _STEAL:  # the Thief's decision (seat): none, or a seat holding a card, then the card
            targets = K.steal_targets(seat, hands)
            k = int(random_() * (len(targets) + 1))
            if k:
                target = targets[k - 1]
                c = _pick(hands[target - 1], random_())
                if log is not None:
                    log += (K.STEAL + target, c)
                K.thief_takes(hands, loot, trick, seat, target, c)
            elif log is not None:
                log.append(K.STEAL_NONE)
            phase, seat = executioner(trick)
            cards = -1
        if phase is _EXECUTE:  # ruling 7 (2): the Executioner takes another card out of the trick
            victims = K.victims(trick)
            v = victims[int(random_() * len(victims))]
            if log is not None:
                log.append(K.EXECUTE + v)
            K.take_out(trick, v)
            cards = -1
        # ruling 7 (3)-(5): the winner takes the trick and leads; ruling 8: the round ends with the hands
        rev, w = take_trick(trick, led, rev, loot, cards)
        if w:
            leader = w
        seat = leader
        led = -1
        phase = _PLAY
        if not any(hands):
            return


class Node:
    """A node of the tree (:class:`.search.Node`) with its ``mean`` reward (``total / visits``,
    kept by the backup) for UCB1."""

    __slots__ = ("children", "visits", "total", "avail", "mean")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.mean = 0.0


_LOGS = [0.0]


def _logs(n: int) -> list[float]:
    """``[0.0, math.log(1), ..., math.log(n - 1)]`` (at least; the first entry unused), cached."""
    global _LOGS
    if len(_LOGS) < n:
        _LOGS = [0.0] + [math.log(a) for a in range(1, n)]
    return _LOGS


def descend(root: Node, n: int, hands: list[int], piles: list[list[int]], loot: list[int],
            trick: list[tuple[int, int]], phase: Phase | None, seat: int, led: int, rev: bool, leader: int, cexp: float,
            random_: Callable[[], float], logs: list[float],
            lists: dict[int, list[int]]) -> tuple[list[tuple[Node, int]], Phase | None, int, int, bool, int]:
    """Selection and expansion of one ISMCTS iteration on a determinization's raw fields (see
    :func:`rollout`; changed in place): from ``root`` down the decisions legal here (the
    kernel's :func:`~game.royals.engine.kernel.keys_at`; UCB1 with availability counts,
    exploration ``cexp``; ``logs[a]`` is ``math.log(a)`` for every count ``a`` reached, a table
    :func:`_logs` keeps long enough; ``lists``: the PLAY keys by mask of playable cards, filled
    as met) until a decision never tried here is added (chosen uniformly by
    ``random_()``) or the round ends; a steal's card is drawn by ``random_()`` too. The same
    walk as :func:`.search.descend` on a ``State``, the same draws. Returns (the path as
    (child, seat that chose it), then the phase (None once the round is over), the seat to
    decide, the led rank, the revolution and the leader after it)."""
    keys_at, put, full_trick, executioner, take_trick = K.keys_at, K.put, K.full_trick, K.executioner, K.take_trick
    playable = K.playable
    sqrt = math.sqrt
    node: Node | None  # None once a new child ends the walk
    node = root
    path: list[tuple[Node, int]] = []
    while True:
        if phase is _PLAY:  # keys_at's PLAY case, its key lists kept per card mask
            m = playable(hands[seat - 1], led, True)
            keys = lists.get(m)
            if keys is None:
                keys = lists[m] = keys_at(phase, hands, seat, led, trick)
        else:
            keys = keys_at(phase, hands, seat, led, trick)
        get = node.children.get
        untried = None
        best = -1.0
        # one pass: every child present gets its availability; while none is missing, UCB1
        # (the first best in key order)
        for key in keys:
            ch = get(key)
            if ch is None:
                if untried is None:
                    untried = [key]
                else:
                    untried.append(key)
                continue
            a = ch.avail = ch.avail + 1
            if untried is None:
                v = ch.mean + cexp * sqrt(logs[a] / ch.visits)
                if v > best:
                    best, k, chosen = v, key, ch
        if untried is not None:
            k = untried[int(random_() * len(untried))]
            ch = Node()
            ch.avail = 1
            node.children[k] = ch
            path.append((ch, seat))
            node = None  # a new child ends the walk
        else:
            node = chosen
            path.append((node, seat))
        # apply decision k
        cards = 0  # 0: the trick goes on; else its card set (-1: not known) once it is to be taken
        if k < 36:
            if not trick:
                led = RANK_OF[k]
            nxt = put(hands, piles, trick, n, seat, k)
            if nxt:
                seat = nxt
            else:
                cards, phase, seat = full_trick(hands, trick)
                if phase is not None:
                    cards = 0
        elif k < K.EXECUTE:
            if k != K.STEAL_NONE:
                target = k - K.STEAL
                K.thief_takes(hands, loot, trick, seat, target, _pick(hands[target - 1], random_()))
            phase, seat = executioner(trick)
            if phase is None:
                cards = -1
        else:
            K.take_out(trick, k - K.EXECUTE)
            cards = -1
        if cards:  # ruling 7 (3)-(5): the winner takes the trick and leads; ruling 8: the round ends with the hands
            rev, w = take_trick(trick, led, rev, loot, cards)
            if w:
                leader = w
            seat = leader
            led = -1
            phase = _PLAY if any(hands) else None
        if node is None or phase is None:
            return path, phase, seat, led, rev, leader


class ISMCTS:
    """ISMCTS for the play decisions (see :mod:`.baselines`); the hand at set-up is the greedy's.

    ``seconds``: CPU budget per decision (wall clock capped at ``max(seconds, WALL_CAP)``);
    ``iterations``: a cap (iterations of the tree search); at least one must be set.
    ``hand_bias``: the determinizations' inference from the others' hand choices
    (:class:`.determinize.Determinizer`); ``reward``: the kind of :func:`make_reward`.
    ``rng``: the player's generator; each decision seeds its own ``random.Random`` from it.
    ``c`` (UCB1's exploration) and ``noise`` (the playouts' share of random plays) are the
    values every level uses (class attributes).
    """

    WALL_CAP = 1.0
    c = 0.7
    noise = 0.25

    def __init__(self, rng: Rng, seconds: float | None = 1.0, iterations: int | None = None,
                 hand_bias: float = 0.0, reward: str = "best") -> None:
        if seconds is None and iterations is None:
            raise ValueError("a search needs a time or an iteration budget")
        self.rng = rng
        self.seconds = seconds
        self.iterations = iterations
        self.hand_bias = hand_bias
        self.reward = make_reward(reward)

    def _deadlines(self, t0: float, c0: float) -> tuple[float, float, float]:
        """(the CPU clock's deadline, the CPU budget's end, the wall clock's deadline) of a
        decision begun at ``t0`` (wall) and ``c0`` (CPU); infinite without ``seconds``."""
        if self.seconds is None:
            return math.inf, math.inf, math.inf
        return c0 + self.seconds * 0.97, c0 + self.seconds, t0 + max(self.seconds, self.WALL_CAP) * 0.97

    def search(self, obs: Observation) -> SearchResult:
        """Choose for ``obs`` (its seat to act in KEEP, PLAY, STEAL or EXECUTE)."""
        if obs.phase is Phase.KEEP:
            return self.choose_keep(obs)
        t0, c0 = time.perf_counter(), time.thread_time()
        legal = obs.legal_actions()
        if len(legal) == 1:
            return SearchResult(legal[0], 0, time.perf_counter() - t0, time.thread_time() - c0, {})
        rand = _Rand(self.rng.next_u32())
        random_ = rand.random
        timed = self.seconds is not None
        deadline, cpu_end, wall_deadline = self._deadlines(t0, c0)
        clock, wall = time.thread_time, time.perf_counter
        limit = self.iterations
        root = Node()
        # each iteration: the hidden cards dealt (Determinizer.deal), the position's public
        # fields copied, the tree descended and the round played out on these ints (no State)
        draw = Determinizer(obs, self.hand_bias, exact=True)
        deal = draw.deal
        n, teams = obs.players, obs.teams
        loot0, trick0, led0, rev0 = draw.loot, draw.trick, draw.led, obs.revolution
        phase0, seat0, leader0 = obs.phase, obs.to_act, obs.leader
        base, final = _base_totals(obs.round_scores, n), obs.round >= ROUNDS
        cexp = self.c
        noise, reward = self.noise, self.reward
        longest = 0.0
        last = c0
        it = 0
        logs = _logs(4096)
        lists: dict[int, list[int]] = {}
        while True:
            if limit is not None and it >= limit:
                break
            if timed and it % _BATCH == 0 and it:
                # the clocks are read once per batch of iterations (a CPU clock read costs about
                # 1 us); stop before a batch as long as the longest so far would cross the budget
                now = clock()
                longest = max(longest, now - last)
                last = now
                if now >= deadline or now + longest > cpu_end or wall() >= wall_deadline:
                    break
            it += 1
            if it >= len(logs):  # an availability count is at most the iterations run
                logs = _logs(2 * it)
            hands, piles, _ = deal(rand, True)
            loot, trick = loot0[:], trick0[:]
            path, phase, seat, led, rev, leader = descend(root, n, hands, piles, loot, trick, phase0, seat0, led0,
                                                          rev0, leader0, cexp, random_, logs, lists)
            if phase is not None:
                rollout(n, teams, hands, piles, loot, trick, led, rev, seat, leader, phase, random_, noise)
            r = _rewards(base, loot, teams, final, reward)
            for ch, s in path:
                v = ch.visits = ch.visits + 1
                t = ch.total = ch.total + r[s - 1]
                ch.mean = t / v
        seat = obs.seat
        best_k = max(root.children, key=lambda k: (root.children[k].visits, root.children[k].total))
        visits = {str(key_action(seat, k)): ch.visits for k, ch in root.children.items()}
        return SearchResult(key_action(seat, best_k), it, time.perf_counter() - t0, time.thread_time() - c0, visits)

    def choose_keep(self, obs: Observation) -> SearchResult:
        """The hand to keep at set-up: the greedy's (:func:`.players.decide_keep`; a hand chosen by
        search did not win more, docs/royals-ai.md)."""
        t0, c0 = time.perf_counter(), time.thread_time()
        return SearchResult(decide_keep(obs), 0, time.perf_counter() - t0, time.thread_time() - c0, {})


__all__ = ["ISMCTS", "playout", "rollout", "make_reward"]
