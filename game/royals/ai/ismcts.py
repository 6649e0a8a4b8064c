"""The search of ``hard`` and ``medium``: the single-observer ISMCTS of the baseline
``hard-2025`` (:mod:`.baselines`) made faster, and the hand choice at set-up
chosen by search instead of the greedy's rules.

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
- **Hand choice by search** (:func:`choose_keep`). The candidates are the greedy's hand
  (:func:`~.players.decide_keep`) and every hand one exchange away from it between its
  ``SWAP`` weakest kept cards and the ``SWAP`` strongest cards it would lay on its pile. Each
  simulated round deals the cards this seat has not seen at random to the other seats (and
  the aside), lets them keep by the greedy's rules, shuffles every pile and plays the round
  out with the playout policy, once with the greedy's hand and once per surviving candidate
  on the same deal and pile orders (common random numbers: each candidate gets a paired
  gain over the greedy's hand); every 8 rounds the worse half of the candidates is dropped
  (successive halving) until the budget is spent. A candidate replaces the greedy's hand
  only when its paired gain is clearly positive (t statistic above ``T_KEEP``).
- Play decisions: the ISMCTS of :mod:`.baselines` (the determinizations of :mod:`.determinize`, one tree with
  availability counts, UCB1 c = 0.7, playouts to the round's end, the same rewards).

The search never sees a hidden card: it is handed only the observation.
"""

from __future__ import annotations

import math
import random
import time
from typing import Callable, Sequence

from game.rng import Rng

from ..engine import kernel as K
from ..engine.actions import Action
from ..engine.cards import BEGGAR, CARDS, GUILDMASTER, NUM_CARDS, PRINCES, RANK_OF, RANKED_MASK, REBELS
from ..engine.state import ROUNDS, SETUP, Observation, Phase, State, key_action
from .players import action_values, decide_keep, keep_score
from .determinize import Determinizer, SearchResult, reward_values

#: A reward at a round's end: ``f(match totals per seat, teams, final) -> reward per seat``.
Reward = Callable[[Sequence[int], bool, bool], list[float]]

_PLAY, _STEAL, _EXECUTE = Phase.PLAY, Phase.STEAL, Phase.EXECUTE
#: Kept cards (weakest by the greedy's score) and pile cards (strongest) exchanged to make candidates.
SWAP = 4
#: Iterations between two reads of the clocks.
_BATCH = 8
#: A candidate hand replaces the greedy's only when its paired gain has a t statistic above this.
T_KEEP = 2.0


#: Ranked cards without a function (not a Guildmaster, Prince or the Rebels): what a low lead throws.
_PLAIN_MASK = RANKED_MASK & ~sum(1 << c for c in (*PRINCES, REBELS, *(g for g in GUILDMASTER if g >= 0)))


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


def playout(d: State, rand: _Rand, noise: float = 0.25, low_lead: bool = False,
            log: list[int] | None = None, reward: Reward = reward_values, specials: bool = False) -> list[float]:
    """Play ``d`` (a disposable determinization in PLAY, STEAL or EXECUTE) to its round's end
    and return each seat's reward (:func:`.search.reward_values`) by :func:`rollout` on its
    fields. ``d`` is left mid-way (read nothing from it after). ``log``: if a list, the
    decisions taken are appended as the kernel's keys (a steal followed by the card taken), so
    a test can replay them through ``State``. ``reward``: a reward of :func:`make_reward`;
    ``specials``: :func:`rollout`'s."""
    loot = d.loot
    rollout(d.players, d.teams, d.hands, d.piles, loot, d.trick, d.led, d.revolution, d.to_act, d.leader,
            d.phase, rand.random, noise, low_lead, log, specials)
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
    other side); ``"rank"``: the seat's share of the others it leads (1 ahead of all, 0.5 per
    tie, as the match's ranking), half and half with ``"mean"``'s margin before the last round.
    Raises ValueError for another ``kind``."""
    if kind == "best":
        return lambda tot, teams, final: reward_values(tot, teams, final, scale)
    if kind not in ("mean", "rank"):
        raise ValueError(f"unknown reward {kind!r} (choose from best, mean, rank)")
    rank = kind == "rank"
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
            if rank:
                ahead = sum(1.0 if t > u else 0.5 if t == u else 0.0 for u in tot) - 0.5
                share = ahead / (n - 1)
                out.append(win * (share == 1.0) + lose * share if final else 0.5 * share + 0.5 * margin)
                continue
            if final:
                best = max(tot[j] for j in range(n) if j != i)
                margin = win * (1.0 if t > best else 0.5 if t == best else 0.0) + lose * margin
            out.append(margin)
        return out
    return reward


def rollout(n: int, teams: bool, hands: list[int], piles: list[list[int]], loot: list[int],
            trick: list[tuple[int, int]], led: int, rev: bool, seat: int, leader: int, phase: Phase | None,
            random_: Callable[[], float], noise: float = 0.25, low_lead: bool = False,
            log: list[int] | None = None, specials: bool = False) -> None:
    """Play a round to its end on raw fields (the kernel's: hand and loot masks, piles as card
    lists with the top last, the trick as ``(seat, card)``; ``phase`` PLAY, STEAL or EXECUTE with
    ``seat`` to decide), changing ``hands``, ``piles``, ``loot`` and ``trick`` in place; the
    loots then hold the round's points. The policy: a follower wins the trick with its weakest
    card that takes it, else dumps the Beggar on an opponent, else throws its weakest card (the
    weakest too when its side already wins); a lead (the weakest plain card with ``low_lead``),
    and ``noise`` of all plays, at random; a Thief's or an Executioner's decision at random, the
    stolen card too (the policy of :mod:`.baselines`); with ``specials`` (but for ``noise`` of them)
    the Thief robs the seat whose card wins the trick if an opponent's, else a random opponent,
    and the Executioner takes the winning opponent's card, else the Beggar, else a random card
    (the greedy's rules, cheaply). ``random_``: floats in [0, 1).

    Speed: no ``State`` and nothing no playout reads (voids, known cards, trick
    numbers); every rule comes from the kernel: :func:`~game.royals.engine.kernel.playable`,
    ``takers`` and ``trick_winner`` for the policy, ``put`` (ruling 5), ``full_trick`` and
    ``executioner`` (ruling 7 (1)-(2)), ``steal_targets``, ``thief_takes``, ``victims``,
    ``take_out`` (ruling 7 (1)-(2)), ``take_trick`` (ruling 7 (3)-(5)).
    ``log``: if a list, the decisions taken are appended as the kernel's keys (a steal
    followed by the card taken)."""
    playable, takers, winner = K.playable, K.takers, K.trick_winner
    put, full_trick, executioner, take_trick, settle = K.put, K.full_trick, K.executioner, K.take_trick, K.settle
    rank_of = RANK_OF
    plain_mask, ranked_mask = _PLAIN_MASK, RANKED_MASK
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
                plain = legal & plain_mask
                if low_lead and plain:  # the weakest plain card leads
                    c = (plain & -plain).bit_length() - 1 if rev else plain.bit_length() - 1
                else:
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
            if specials and random_() >= noise:  # rob the winning opponent, else any opponent
                w = settle(trick, led, rev)[2]
                foes = [t for t in targets if not (teams and (t - seat) % 2 == 0)]
                k = (targets.index(w) + 1 if w in foes else
                     targets.index(foes[int(random_() * len(foes))]) + 1 if foes else 0)
            else:
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
            if specials and random_() >= noise:  # the winning opponent's card, else the Beggar
                w = settle(trick, led, rev)[2]
                if w and w != seat and not (teams and (w - seat) % 2 == 0):
                    v = next(tc for ts, tc in trick if ts == w)
                elif BEGGAR in victims:
                    v = BEGGAR
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
    node = root
    path: list[tuple[Node, int]] = []
    while True:
        if phase is _PLAY:  # keys_at's PLAY case, its key lists kept per card mask
            m = playable(hands[seat - 1], led, True)
            keys = lists.get(m)
            if keys is None:
                keys = lists[m] = keys_at(phase, hands, seat, led, trick)
        else:
            keys = keys_at(phase, hands, seat, led, trick)  # type: ignore[arg-type]  # (None ends the walk below)
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
            node = None  # type: ignore[assignment]  # a new child ends the walk
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
    """ISMCTS for the play decisions (see :mod:`.baselines`) plus the hand choice by search.

    ``seconds``: CPU budget per decision (wall clock capped at ``max(seconds, WALL_CAP)``);
    ``iterations``: a cap (iterations of the tree search; for the hand choice, simulated rounds
    per candidate); at least one must be set. ``keep_search``: choose the hand by search (else
    the greedy's rules). ``rng``: the player's generator; each decision seeds its own
    ``random.Random`` from it.
    """

    WALL_CAP = 1.0

    def __init__(self, rng: Rng, seconds: float | None = 1.0, iterations: int | None = None,
                 c: float = 0.7, noise: float = 0.25, keep_search: bool = True, low_lead: bool = False,
                 hand_bias: float = 0.0, reward: str = "best", scale: float = 10.0, win: float = 0.7,
                 specials: bool = False, prior: int = 0, prior_scale: float = 0.05) -> None:
        if seconds is None and iterations is None:
            raise ValueError("a search needs a time or an iteration budget")
        self.rng = rng
        self.seconds = seconds
        self.iterations = iterations
        self.c = c
        self.noise = noise
        self.keep_search = keep_search
        self.low_lead = low_lead
        self.hand_bias = hand_bias
        self.reward = make_reward(reward, scale, win)
        self.specials = specials
        self.prior, self.prior_scale = prior, prior_scale

    def _deadlines(self, t0: float, c0: float) -> tuple[float | None, float | None]:
        if self.seconds is None:
            return None, None
        return c0 + self.seconds * 0.97, t0 + max(self.seconds, self.WALL_CAP) * 0.97

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
        deadline, wall_deadline = self._deadlines(t0, c0)
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
        noise, low_lead, specials, reward = self.noise, self.low_lead, self.specials, self.reward
        longest = 0.0
        last = c0
        it = 0
        # the greedy's prior enters once every root decision has been tried (about twice)
        warm = 2 * len(legal) if self.prior > 0 else -1
        extra = int(self.prior)
        logs = _logs(4096)
        lists: dict[int, list[int]] = {}
        while True:
            if limit is not None and it >= limit:
                break
            if deadline is not None and it % _BATCH == 0 and it:
                # the clocks are read once per batch of iterations (a CPU clock read costs about
                # 1 us); stop before a batch as long as the longest so far would cross the budget
                now = clock()
                longest = max(longest, now - last)
                last = now
                if now >= deadline or now + longest > c0 + self.seconds or wall() >= wall_deadline:  # type: ignore[operator]
                    break
            it += 1
            if it + extra >= len(logs):  # an availability count is at most the iterations run (and the prior)
                logs = _logs(2 * (it + extra))
            hands, piles, _ = deal(rand, True)
            loot, trick = loot0[:], trick0[:]
            path, phase, seat, led, rev, leader = descend(root, n, hands, piles, loot, trick, phase0, seat0, led0,
                                                          rev0, leader0, cexp, random_, logs, lists)
            if phase is not None:
                rollout(n, teams, hands, piles, loot, trick, led, rev, seat, leader, phase, random_, noise, low_lead,
                        None, specials)
            r = _rewards(base, loot, teams, final, reward)
            for ch, s in path:
                v = ch.visits = ch.visits + 1
                t = ch.total = ch.total + r[s - 1]
                ch.mean = t / v
            if it == warm:
                _add_prior(root, obs, self.prior, self.prior_scale)
        seat = obs.seat
        best_k = max(root.children, key=lambda k: (root.children[k].visits, root.children[k].total))
        virtual = extra if warm >= 0 and it >= warm else 0  # the prior's visits are not reported
        visits = {str(key_action(seat, k)): ch.visits - virtual for k, ch in root.children.items()}
        return SearchResult(key_action(seat, best_k), it, time.perf_counter() - t0, time.thread_time() - c0, visits)

    # ------------------------------------------------------------------ the hand choice
    def choose_keep(self, obs: Observation) -> SearchResult:
        """The hand to keep at set-up, by simulated rounds (see the module docstring)."""
        t0, c0 = time.perf_counter(), time.thread_time()
        greedy = decide_keep(obs)
        if not self.keep_search:
            return SearchResult(greedy, 0, time.perf_counter() - t0, time.thread_time() - c0, {})
        cands = keep_candidates(obs, greedy)
        rand = _Rand(self.rng.next_u32())
        deadline, wall_deadline = self._deadlines(t0, c0)
        clock, wall = time.thread_time, time.perf_counter
        m = len(cands)
        diff = [0.0] * m   # sums of (candidate - greedy's hand) on the same simulated rounds
        diff2 = [0.0] * m
        count = [0] * m
        alive = list(range(1, m))
        sims = 0
        cap = self.iterations
        while alive:
            if cap is not None and sims >= cap:
                break
            if deadline is not None and sims and (clock() >= deadline or wall() >= wall_deadline):  # type: ignore[operator]
                break
            deal = _sample_deal(obs, rand)
            seed = rand.random()
            base = _simulate(obs, deal, greedy, seed)
            for i in alive:
                x = _simulate(obs, deal, cands[i], seed) - base
                diff[i] += x
                diff2[i] += x * x
                count[i] += 1
            sims += 1
            if sims % 8 == 0 and len(alive) > 2:  # successive halving: drop the worse half
                alive.sort(key=lambda i: (-diff[i] / count[i], i))
                alive = alive[:max(2, len(alive) // 2)]
        best, best_t = 0, T_KEEP
        for i in range(1, m):
            if count[i] > 1:
                mean = diff[i] / count[i]
                var = max(diff2[i] / count[i] - mean * mean, 1e-12)
                t_stat = mean / math.sqrt(var / count[i])
                if t_stat > best_t:
                    best, best_t = i, t_stat
        visits = {str(cands[i]): count[i] for i in range(1, m)}
        return SearchResult(cands[best], sims, time.perf_counter() - t0, time.thread_time() - c0, visits)


def _add_prior(root: Node, obs: Observation, weight: int, scale: float) -> None:
    """Progressive bias at the root (Chaslot et al. 2008, as virtual visits): each root
    decision gets ``weight`` visits worth the root's mean reward so far plus ``scale`` x (its
    value by the greedy's judgement, :func:`.players.action_values`, in points, less the best
    one's), so decisions the playouts cannot tell apart go the greedy's way and the real
    visits outweigh the prior as they grow. Reads only ``obs``."""
    from .determinize import action_key
    kids = root.children
    visits = sum(ch.visits for ch in kids.values())
    if not visits:
        return
    m = sum(ch.total for ch in kids.values()) / visits
    values = [(v, action_key(a)) for v, a in action_values(obs)]
    top = max(v for v, _ in values)
    for v, k in values:
        ch = kids.get(k)
        if ch is None:
            continue
        ch.visits += weight
        ch.avail += weight
        ch.total += weight * (m + scale * (v - top))
        ch.mean = ch.total / ch.visits


def keep_candidates(obs: Observation, greedy: Action) -> list[Action]:
    """The greedy's hand first, then each hand one exchange away (see the module docstring)."""
    kept = sorted(greedy.cards, key=lambda c: (keep_score(c), -c.index))
    rest = sorted((c for c in obs.dealt if c not in greedy.cards), key=lambda c: (-keep_score(c), c.index))
    out = [greedy]
    for a in kept[:SWAP]:
        for b in rest[:SWAP]:
            out.append(Action.keep(obs.seat, [c for c in greedy.cards if c != a] + [b]))
    return out


def _sample_deal(obs: Observation, rand: _Rand) -> tuple[list[int], list[int]]:
    """The unseen cards dealt at random: (per other seat in seat order, its dealt cards; the aside)."""
    mine = 0
    for c in obs.dealt:
        mine |= 1 << c.index
    pool = [c for c in range(NUM_CARDS) if not (mine >> c) & 1]
    rand.shuffle(pool)
    dealt = SETUP[obs.players][0]
    return pool, [dealt]


def _simulate(obs: Observation, deal: tuple[list[int], list[int]], keep: Action, seed: float) -> float:
    """This seat's reward for one round played out from set-up with ``keep`` as its hand."""
    pool, (size,) = deal
    n, me = obs.players, obs.seat
    rand = _Rand(seed)
    s = State(n, obs.teams)
    s.track = False
    s.round = obs.round
    s.round_scores = list(obs.round_scores)
    s.starter = s.leader = obs.starter
    kept_size = SETUP[n][1]
    groups: list[int] = []
    k = 0
    for seat in range(1, n + 1):
        if seat == me:
            groups.append(sum(1 << c.index for c in obs.dealt))
        else:
            groups.append(sum(1 << c for c in pool[k:k + size]))
            k += size
    hands = []
    for seat in range(1, n + 1):
        if seat == me:
            hands.append(sum(1 << c.index for c in keep.cards))
        else:
            ranked = sorted((c for c in range(NUM_CARDS) if (groups[seat - 1] >> c) & 1),
                            key=lambda c: (-_KEEP_SCORE[c], c))
            hands.append(sum(1 << c for c in ranked[:kept_size]))
    s.dealt = groups
    s.kept = hands[:]
    s.hands = hands
    piles = []
    for seat in range(n):
        pile = [c for c in range(NUM_CARDS) if (groups[seat] >> c) & 1 and not (hands[seat] >> c) & 1]
        rand.shuffle(pile)
        piles.append(pile)
    s.piles = piles
    s.phase = Phase.PLAY
    s.to_act = obs.starter
    return playout(s, rand)[me - 1]


_KEEP_SCORE = tuple(keep_score(CARDS[c]) for c in range(NUM_CARDS))

__all__ = ["ISMCTS", "playout", "keep_candidates", "SWAP"]
