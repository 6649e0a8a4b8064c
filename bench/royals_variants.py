"""Variants of ``hard``'s search (Royals & Riots) that were screened and not kept: measurement,
not product. :class:`VariantISMCTS` is :class:`game.royals.ai.ismcts.ISMCTS` with the options
``bench/royals_screen.py`` plays (docs/royals-ai.md, "Measuring"); with every option at its
default it searches exactly as ``hard``'s search (tests/royals/test_variants_bench.py).

- ``keep_search``: the hand at set-up chosen by search (:meth:`VariantISMCTS.choose_keep`)
  instead of the greedy's. The candidates are the greedy's hand
  (:func:`~game.royals.ai.players.decide_keep`) and every hand one exchange away from it between
  its ``SWAP`` weakest kept cards and the ``SWAP`` strongest cards it would lay on its pile.
  Each simulated round deals the cards this seat has not seen at random to the other seats (and
  the aside), lets them keep by the greedy's rules, shuffles every pile and plays the round out
  with the playout policy, once with the greedy's hand and once per surviving candidate on the
  same deal and pile orders (common random numbers: each candidate gets a paired gain over the
  greedy's hand); every 8 rounds the worse half of the candidates is dropped (successive
  halving) until the budget is spent. A candidate replaces the greedy's hand only when its
  paired gain is clearly positive (t statistic above ``T_KEEP``). Not kept: it did not win
  more than the greedy's hand in the screening of the ISMCTS rewrite.
- ``low_lead``: the playout leads its weakest plain card instead of a random one
  (:func:`variant_rollout`). Not kept.
- ``specials``: the playout's Thief robs the seat whose card wins the trick if an opponent's,
  else a random opponent, and its Executioner takes the winning opponent's card, else the
  Beggar, else a random card (but for ``noise`` of them; the greedy's rules, cheaply). Not kept.
- ``prior``: the greedy's prior at the root (:func:`add_prior`, ``prior_scale`` its reward per
  point). Not kept.
- ``reward="rank"`` (:func:`variant_reward`), ``scale``, ``win``: the reward's kind and shape.
  ``hard`` uses ``"best"`` with 2 players or teams and ``"mean"`` with 3 or 4 (``MULTI``).
- ``c``, ``noise``, ``hand_bias``: the product's own knobs, set to other values.

The search loop with ``low_lead``, ``specials`` or ``prior`` is a copy of the product's
(:meth:`VariantISMCTS._variant_search`); without them :class:`VariantISMCTS` runs the product's.
"""

from __future__ import annotations

import math
import os
import sys
import time
from typing import Callable, Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.rng import Rng  # noqa: E402
from game.royals.ai.determinize import Determinizer, SearchResult, action_key, reward_values  # noqa: E402
from game.royals.ai.ismcts import (  # noqa: E402
    _BATCH, ISMCTS, Node, Reward, _base_totals, _logs, _pick, _Rand, _rewards, descend, make_reward, playout)
from game.royals.ai.players import action_values, decide_keep, keep_score  # noqa: E402
from game.royals.engine import kernel as K  # noqa: E402
from game.royals.engine.actions import Action  # noqa: E402
from game.royals.engine.cards import (  # noqa: E402
    BEGGAR, CARDS, GUILDMASTER, NUM_CARDS, PRINCES, RANK_OF, RANKED_MASK, REBELS)
from game.royals.engine.state import ROUNDS, SETUP, Observation, Phase, State, key_action  # noqa: E402

_PLAY, _STEAL, _EXECUTE = Phase.PLAY, Phase.STEAL, Phase.EXECUTE
#: Kept cards (weakest by the greedy's score) and pile cards (strongest) exchanged to make candidates.
SWAP = 4
#: A candidate hand replaces the greedy's only when its paired gain has a t statistic above this.
T_KEEP = 2.0
#: Ranked cards without a function (not a Guildmaster, Prince or the Rebels): what a low lead throws.
PLAIN_MASK = RANKED_MASK & ~sum(1 << c for c in (*PRINCES, REBELS, *(g for g in GUILDMASTER if g >= 0)))


def variant_reward(kind: str = "best", scale: float = 10.0, win: float = 0.7) -> Reward:
    """:func:`~game.royals.ai.ismcts.make_reward`, and ``"rank"``: the seat's share of the others
    it leads (1 ahead of all, 0.5 per tie, as the match's ranking), after the last round ``win x
    (1 ahead of all) + (1 - win) x`` that share, before it half and half with ``"mean"``'s margin
    (with 2 players or teams the same as ``"best"``). Raises ValueError for an unknown ``kind``."""
    if kind != "rank":
        if kind not in ("best", "mean"):
            raise ValueError(f"unknown reward {kind!r} (choose from best, mean, rank)")
        return make_reward(kind, scale, win)
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
            ahead = sum(1.0 if t > u else 0.5 if t == u else 0.0 for u in tot) - 0.5
            share = ahead / (n - 1)
            out.append(win * (share == 1.0) + lose * share if final else 0.5 * share + 0.5 * margin)
        return out
    return reward


def variant_rollout(n: int, teams: bool, hands: list[int], piles: list[list[int]], loot: list[int],
                    trick: list[tuple[int, int]], led: int, rev: bool, seat: int, leader: int,
                    phase: Phase | None, random_: Callable[[], float], noise: float = 0.25,
                    low_lead: bool = False, log: list[int] | None = None, specials: bool = False) -> None:
    """:func:`game.royals.ai.ismcts.rollout` with ``low_lead`` and ``specials`` (see the module
    docstring); without them the same plays from the same draws."""
    playable, takers, winner = K.playable, K.takers, K.trick_winner
    put, full_trick, executioner, take_trick, settle = K.put, K.full_trick, K.executioner, K.take_trick, K.settle
    rank_of = RANK_OF
    plain_mask, ranked_mask = PLAIN_MASK, RANKED_MASK
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


def variant_playout(d: State, rand: _Rand, noise: float = 0.25, low_lead: bool = False,
                    log: list[int] | None = None, reward: Reward = reward_values,
                    specials: bool = False) -> list[float]:
    """:func:`game.royals.ai.ismcts.playout` by :func:`variant_rollout`."""
    loot = d.loot
    variant_rollout(d.players, d.teams, d.hands, d.piles, loot, d.trick, d.led, d.revolution, d.to_act,
                    d.leader, d.phase, rand.random, noise, low_lead, log, specials)
    return _rewards(_base_totals(d.round_scores, d.players), loot, d.teams, d.round >= ROUNDS, reward)


def add_prior(root: Node, obs: Observation, weight: int, scale: float) -> None:
    """Progressive bias at the root (Chaslot et al. 2008, as virtual visits): each root
    decision gets ``weight`` visits worth the root's mean reward so far plus ``scale`` x (its
    value by the greedy's judgement, :func:`~game.royals.ai.players.action_values`, in points,
    less the best one's), so decisions the playouts cannot tell apart go the greedy's way and
    the real visits outweigh the prior as they grow. Reads only ``obs``."""
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


class VariantISMCTS(ISMCTS):
    """``hard``'s search with the variants of the module docstring (keyword options; their
    defaults are ``hard``'s search with 2 players)."""

    def __init__(self, rng: Rng, seconds: float | None = 1.0, iterations: int | None = None,
                 c: float = 0.7, noise: float = 0.25, keep_search: bool = False, low_lead: bool = False,
                 hand_bias: float = 0.0, reward: str = "best", scale: float = 10.0, win: float = 0.7,
                 specials: bool = False, prior: int = 0, prior_scale: float = 0.05) -> None:
        super().__init__(rng, seconds, iterations, hand_bias)
        self.reward = variant_reward(reward, scale, win)
        self.c = c
        self.noise = noise
        self.keep_search = keep_search
        self.low_lead = low_lead
        self.specials = specials
        self.prior, self.prior_scale = prior, prior_scale

    def search(self, obs: Observation) -> SearchResult:
        if obs.phase is Phase.KEEP or not (self.low_lead or self.specials or self.prior > 0):
            return super().search(obs)
        return self._variant_search(obs)

    def _variant_search(self, obs: Observation) -> SearchResult:
        """The product's :meth:`~game.royals.ai.ismcts.ISMCTS.search` (a copy) with the playout
        of :func:`variant_rollout` and the prior of :func:`add_prior`."""
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
            if timed and it % _BATCH == 0 and it:
                now = clock()
                longest = max(longest, now - last)
                last = now
                if now >= deadline or now + longest > cpu_end or wall() >= wall_deadline:
                    break
            it += 1
            if it + extra >= len(logs):  # an availability count is at most the iterations run (and the prior)
                logs = _logs(2 * (it + extra))
            hands, piles, _ = deal(rand, True)
            loot, trick = loot0[:], trick0[:]
            path, phase, seat, led, rev, leader = descend(root, n, hands, piles, loot, trick, phase0, seat0, led0,
                                                          rev0, leader0, cexp, random_, logs, lists)
            if phase is not None:
                variant_rollout(n, teams, hands, piles, loot, trick, led, rev, seat, leader, phase, random_, noise,
                                low_lead, None, specials)
            r = _rewards(base, loot, teams, final, reward)
            for ch, s in path:
                v = ch.visits = ch.visits + 1
                t = ch.total = ch.total + r[s - 1]
                ch.mean = t / v
            if it == warm:
                add_prior(root, obs, self.prior, self.prior_scale)
        seat = obs.seat
        best_k = max(root.children, key=lambda k: (root.children[k].visits, root.children[k].total))
        virtual = extra if warm >= 0 and it >= warm else 0  # the prior's visits are not reported
        visits = {str(key_action(seat, k)): ch.visits - virtual for k, ch in root.children.items()}
        return SearchResult(key_action(seat, best_k), it, time.perf_counter() - t0, time.thread_time() - c0, visits)

    # ------------------------------------------------------------------ the hand choice
    def choose_keep(self, obs: Observation) -> SearchResult:
        """With ``keep_search`` the hand to keep at set-up by simulated rounds (see the module
        docstring), else the greedy's."""
        if not self.keep_search:
            return super().choose_keep(obs)
        t0, c0 = time.perf_counter(), time.thread_time()
        greedy = decide_keep(obs)
        cands = keep_candidates(obs, greedy)
        rand = _Rand(self.rng.next_u32())
        timed = self.seconds is not None
        deadline, _, wall_deadline = self._deadlines(t0, c0)
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
            if timed and sims and (clock() >= deadline or wall() >= wall_deadline):
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
