"""Determinizations for the searches of Royals & Riots (single-observer ISMCTS, Cowling, Powley &
Whitehouse 2012), and what the searches share.

A *determinization* is a full :class:`~game.royals.engine.State` consistent with one seat's
:class:`~game.royals.engine.Observation`: the unseen cards dealt at random into the other
hands, the piles and the aside, respecting the voids shown by not following, with every pile
order shuffled, the seat's own included (:class:`Determinizer`, :func:`determinize`). The
search never sees a hidden card: it is handed only the observation. Also here: the kernel key
of a decision (:func:`action_key`), the rewards at a round's end (:func:`reward_values`) and a
search's :class:`SearchResult`. The searches: :mod:`.ismcts` (``medium``, ``hard``) and the
baseline's (:mod:`.baselines`).
"""

from __future__ import annotations

import math
import random
from typing import Callable, Iterable, Protocol, Sequence
from dataclasses import dataclass

from game.rng import Rng

from ..engine import kernel as K
from ..engine.actions import PLAY, STEAL, Action
from ..engine.cards import ALL_CARDS_MASK, CARDS, RANK_OF, Card
from ..engine.state import Observation, Phase, State

_trick_winner = K.trick_winner
_STEAL_NONE, _STEAL, _EXEC = K.STEAL_NONE, K.STEAL, K.EXECUTE
_DECISIONS = (Phase.PLAY, Phase.STEAL, Phase.EXECUTE)


class Chance(Protocol):
    """A source of chance for a determinization: :class:`~game.rng.Rng` or any ``random.Random``."""

    def random(self) -> float: ...

    def shuffle(self, x: list[int]) -> None: ...


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _mask(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def determinize(obs: Observation, rng: Rng, hand_bias: float = 0.0) -> State:
    """A full state drawn at random among those consistent with ``obs`` (see the module docstring).

    Void constraints: a seat that did not follow rank L in trick k held no L card then, so
    its hand now holds at most as many unseen L cards as it has drawn since. If the sampler
    cannot meet every constraint it relaxes them (never fails). Only for PLAY, STEAL, STOLEN
    and EXECUTE phases (the set-up has nothing to search).

    ``hand_bias`` > 0 infers from the other seats' hand choices: a seat chose which of its
    dealt cards to keep in hand, and a player keeps the strong and special ones, so its draw
    pile (what it did not keep) more likely holds weak cards. The aside is drawn uniformly
    first; the cards of the other hands (together) are then drawn from the rest with weights
    ``exp(hand_bias * keep_score)`` (Efraimidis and Spirakis' weighted sampling without
    replacement) and dealt among those hands in a uniform order, the others among the piles.
    A search draws many from one observation: :class:`Determinizer` reads it once.
    """
    return Determinizer(obs, hand_bias)(rng)


class Determinizer:
    """:func:`determinize` for one observation: what it reads from ``obs`` is read once, each
    call draws a new state with ``rng`` (the same draws as :func:`determinize`).

    ``exact`` (today's search of ``hard``): every deal is uniform among those that
    keep every void (weighted by ``hand_bias``'s likelihood if set), by rejection: the hands
    are dealt from the shuffled pool in turn and the whole draw is repeated while a seat
    would hold more cards of a rank than its void allows, at most :data:`EXACT_TRIES` times,
    then relaxed as without ``exact``. Without it (``hard-2025``), each seat with a void takes
    the first cards of the pool it may hold, in turn: exact with one other seat whose voids
    allow none of their rank, but with 3 or 4 players a seat drawn early can take the cards a
    later one needed (the later seat then holds a card its void rules out), and a void that
    allows some cards of its rank deals them too often."""

    def __init__(self, obs: Observation, hand_bias: float = 0.0, exact: bool = False) -> None:
        n = obs.players
        self.obs, self.n, self.me = obs, n, obs.seat - 1
        self.hand_bias = hand_bias
        self.trick = [(seat, c.index) for seat, c in obs.trick]
        self.trick_plays = [(seat, c.index) for seat, c in obs.trick_plays]
        self.led = -1 if obs.led is None else int(obs.led)
        self.known = [_mask(k) for k in obs.known]
        self.voids = [(seat, int(r), t, p) for seat, r, t, p in obs.voids]
        self.loot = [_mask(lt) for lt in obs.loot]
        self.removed = _mask(obs.removed)
        self.own_hand, self.own_pile = _mask(obs.hand), _mask(obs.pile)
        self.own_pile_cards = _bits(self.own_pile)
        self.dealt_me = _mask(obs.dealt)
        placed = self.own_hand | self.own_pile | self.removed
        for m in self.loot:
            placed |= m
        for m in self.known:
            placed |= m
        for _, c in self.trick:
            placed |= 1 << c
        self.pool = _bits(ALL_CARDS_MASK & ~placed)
        me = self.me
        self.need = [obs.hand_sizes[i] - self.known[i].bit_count() if i != me else 0 for i in range(n)]
        self.hand_need = sum(self.need)
        # void caps: seat -> rank -> unseen cards of that rank it may hold now (the draws since the void)
        caps: list[dict[int, int]] = [{} for _ in range(n)]
        for seat, r, _t, pile_then in self.voids:
            i = seat - 1
            if i != me:
                caps[i][r] = max(0, pile_then - obs.pile_sizes[i])  # a later void of the rank overwrites
        self.caps = caps
        self.order = sorted((i for i in range(n) if i != me), key=lambda i: -len(caps[i]))
        self.weight = _hand_weights(hand_bias) if hand_bias > 0 else None
        self.inv_weight = [1.0 / w for w in self.weight] if self.weight is not None else None
        # two or more other seats hold unseen cards: the hands' part of a weighted deal is shuffled
        self.shared = sum(1 for i in range(n) if i != me and self.need[i]) > 1
        # exact: redraw a deal that breaks a void (rejection sampling), at most EXACT_TRIES times
        self.tries = EXACT_TRIES if exact and any(caps[i] for i in self.order) else 1
        # for the check of a deal: per other seat in turn, its slice of the pool and its voids
        # as (mask of the rank's cards, cap)
        slices, k = [], 0
        for i in self.order:
            if caps[i]:
                limits = [(sum(1 << c for c in self.pool if RANK_OF[c] == r), cap) for r, cap in caps[i].items()]
                slices.append((k, k + self.need[i], limits))
            k += self.need[i]
        self.slices = slices
        self.takes = [(i, self.need[i]) for i in self.order]
        self.pile_sizes = [(i, -1 if i == me else obs.pile_sizes[i]) for i in range(n)]
        self.fallbacks = 0  # draws that ran out of tries and relaxed their constraints (a diagnostic)

    def __call__(self, rng: Rng, fast: bool = False) -> State:
        """A new determinization drawn with ``rng`` (a :class:`~game.rng.Rng`, or with ``fast``
        any ``random.Random``). ``fast`` (today's search of ``hard``): shuffles by
        ``rng.random()`` floats, only the places that matter (:meth:`_fast_pool`), and only this
        seat's own pile is shuffled again (the deal put the others in random order); the same
        distribution as without, other draws."""
        obs, n, me = self.obs, self.n, self.me
        hands, piles, pool = self.deal(rng, fast)
        s = State.__new__(State)
        s.players, s.teams = n, obs.teams
        s.round, s.phase, s.to_act = obs.round, obs.phase, obs.to_act
        s.starter, s.leader, s.trick_no = obs.starter, obs.leader, obs.trick_no
        s.trick = self.trick[:]
        s.trick_plays = self.trick_plays[:]
        s.led = self.led
        s.revolution = obs.revolution
        s.pending = obs.steal_target
        s.known = self.known[:]
        s.voids = self.voids[:]
        s.round_scores = list(obs.round_scores)
        s.loot = self.loot[:]
        s.removed = self.removed
        s.history, s._undo, s.track = [], [], False
        s.hands = hands
        s.piles = piles
        aside = 0
        for c in pool:
            aside |= 1 << c
        s.aside = aside
        dealt = []
        for h, p in zip(hands, piles):
            for c in p:
                h |= 1 << c
            dealt.append(h)
        dealt[me] = self.dealt_me
        s.dealt = dealt
        s.kept = hands[:]
        return s

    def deal(self, rng: Chance, fast: bool = False) -> tuple[list[int], list[list[int]], list[int]]:
        """The hidden part of a new determinization drawn with ``rng`` (see :meth:`__call__`):
        (the hand masks per seat, the draw piles per seat as card lists with the top last, the
        cards set aside). The search of ``hard`` (:mod:`.ismcts`) plays on these directly."""
        if fast:
            return self._fast_deal(rng.random)
        obs = self.obs
        tries = self.tries
        shuffle = rng.shuffle
        while True:
            pool = self.pool[:]
            shuffle(pool)
            held_aside: list[int] = []
            if self.weight is not None:
                if obs.aside:
                    held_aside, pool = pool[-obs.aside:], pool[:-obs.aside]
                weight = self.weight
                rand = rng.random
                pool.sort(key=lambda c: rand() ** (1.0 / weight[c]), reverse=True)
                # the weighted order tells which cards lie in the hands (all hands together), not in
                # whose: the first part goes to the hands, the rest to the piles, each in a uniform
                # order (else, with 3 or 4 players, the first seat drawn would get the strongest cards)
                held, rest = pool[:self.hand_need], pool[self.hand_need:]
                shuffle(held)
                shuffle(rest)
                pool = held + rest
            tries -= 1
            if tries <= 0 or self._keeps_voids(pool):
                break
        if self.tries > 1 and tries <= 0 and not self._keeps_voids(pool):
            self.fallbacks += 1
        hands, pool = self._take(pool)
        piles: list[list[int]] = []
        for i in range(self.n):
            if i == self.me:
                pile = self.own_pile_cards[:]
            else:
                k = obs.pile_sizes[i]
                pile, pool = pool[:k], pool[k:]
            shuffle(pile)
            piles.append(pile)
        return hands, piles, pool + held_aside

    def _take(self, pool: list[int]) -> tuple[list[int], list[int]]:
        """The other hands dealt from the front of ``pool`` in turn (``self.order``), each seat
        with a void taking the first cards it may hold (relaxed if too few): (the hand masks
        per seat, this seat's own included; the cards left, in order)."""
        need, caps = self.need, self.caps
        hands = self.known[:]
        hands[self.me] = self.own_hand
        for i in self.order:
            if not caps[i]:  # no void: the next cards of the shuffled pool
                for c in pool[:need[i]]:
                    hands[i] |= 1 << c
                pool = pool[need[i]:]
                continue
            cap = dict(caps[i])
            take: list[int] = []
            rest: list[int] = []
            for c in pool:
                r = RANK_OF[c]
                if len(take) < need[i] and cap.get(r, 99) > 0:
                    take.append(c)
                    if r in cap:
                        cap[r] -= 1
                else:
                    rest.append(c)
            if len(take) < need[i]:  # constraints cannot all hold: relax them
                missing = need[i] - len(take)
                take += rest[:missing]
                rest = rest[missing:]
            for c in take:
                hands[i] |= 1 << c
            pool = rest
        return hands, pool

    def _fast_deal(self, random_: Callable[[], float]) -> tuple[list[int], list[list[int]], list[int]]:
        """:meth:`deal` with ``fast``: the pool of :meth:`_fast_pool`; when its front keeps
        every void (always unless the draws ran out) each other hand takes its slice of it in
        turn (what :meth:`_take` would take), else :meth:`_take` relaxes; the other piles take
        the next slices as they lie (already in random order), this seat's pile is shuffled."""
        pool, held_aside, kept = self._fast_pool(random_)
        if kept:
            bit = _BIT.__getitem__
            hands = self.known[:]
            hands[self.me] = self.own_hand
            k = 0
            for i, cnt in self.takes:
                hands[i] |= sum(map(bit, pool[k:k + cnt]))  # distinct cards: the sum of their bits is their mask
                k += cnt
        else:
            if self.tries > 1:
                self.fallbacks += 1
            hands, pool = self._take(pool)
            k = 0
        piles: list[list[int]] = []
        for i, size in self.pile_sizes:
            if size < 0:  # this seat's own pile, in an order it does not know
                pile = self.own_pile_cards[:]
                _shuffle(pile, random_)
            else:
                pile = pool[k:k + size]
                k += size
            piles.append(pile)
        return hands, piles, pool[k:] + held_aside

    def _fast_pool(self, random_: Callable[[], float]) -> tuple[list[int], list[int], bool]:
        """The unseen cards in the order :meth:`deal` hands them out with ``fast`` (hands in
        turn, then the piles; the cards set aside not ordered): the draw is
        repeated while it breaks a void (``exact``). Uniform, by a Fisher-Yates shuffle of only
        the places dealt to a hand or a pile; with ``hand_bias`` the aside first (a partial
        shuffle of the last places), then the weighted order of the rest, then a uniform order of
        the hands' part when two or more other seats share it and of the piles' part. Returns
        (that order, the cards set aside first with ``hand_bias``, whether it keeps every void)."""
        src = self.pool
        size = len(src)
        aside = self.obs.aside
        tries = self.tries
        inv = self.inv_weight
        hand_need = self.hand_need
        slices = self.slices
        while True:
            pool = src[:]
            held_aside: list[int] = []
            if inv is None:
                for i in range(min(size - aside, size - 1)):
                    j = i + int(random_() * (size - i))
                    pool[i], pool[j] = pool[j], pool[i]
            else:
                if aside:
                    for i in range(size - 1, size - 1 - aside, -1):
                        j = int(random_() * (i + 1))
                        pool[i], pool[j] = pool[j], pool[i]
                    held_aside, pool = pool[-aside:], pool[:-aside]
                # the weighted order (the keys of the slow path's sort, drawn in the same order)
                keys = {c: random_() ** inv[c] for c in pool}
                pool.sort(key=keys.__getitem__, reverse=True)
                held, rest = pool[:hand_need], pool[hand_need:]
                if self.shared:
                    _shuffle(held, random_)
                _shuffle(rest, random_)
                pool = held + rest
            tries -= 1
            if not slices:
                return pool, held_aside, True
            kept = self._keeps_voids(pool)
            if kept or tries <= 0:
                return pool, held_aside, kept

    def _keeps_voids(self, pool: list[int]) -> bool:
        """Whether dealing ``pool``'s front to the other hands in turn (``self.order``, ``need``
        cards each) gives no seat more unseen cards of a rank than its void allows."""
        bit = _BIT.__getitem__
        for a, b, limits in self.slices:
            m = sum(map(bit, pool[a:b]))  # distinct cards: the sum of their bits is their mask
            for rank_mask, cap in limits:
                if (m & rank_mask).bit_count() > cap:
                    return False
        return True


_BIT = tuple(1 << c for c in range(len(CARDS)))


def _shuffle(x: list[int], random_: Callable[[], float]) -> None:
    """Fisher-Yates shuffle of ``x`` in place by ``random_()`` floats in [0, 1)."""
    for i in range(len(x) - 1, 0, -1):
        j = int(random_() * (i + 1))
        x[i], x[j] = x[j], x[i]


#: How many deals an exact :class:`Determinizer` draws before it relaxes the voids.
EXACT_TRIES = 64

_WEIGHTS: dict[float, list[float]] = {}


def _hand_weights(bias: float) -> list[float]:
    """``exp(bias * keep_score)`` per card (how likely a player kept it in hand), cached."""
    w = _WEIGHTS.get(bias)
    if w is None:
        from .players import keep_score
        w = _WEIGHTS[bias] = [math.exp(bias * keep_score(CARDS[c])) for c in range(len(CARDS))]
    return w


def action_key(a: Action) -> int:
    """The kernel's key of a decision :class:`Action` (a steal's card is ignored)."""
    kind, card = a.kind, a.card
    if kind is STEAL:
        return _STEAL_NONE if a.target is None else _STEAL + a.target
    assert card is not None  # (a play names its card, an execution its victim)
    return card.index if kind is PLAY else _EXEC + card.index


def reward_values(tot: Sequence[int], teams: bool, final: bool, scale: float = 10.0) -> list[float]:
    """Each seat's reward in 0..1 from the match totals ``tot`` (per seat) at a round's end:
    its (team's) margin ``d`` over the best other seat (team) as ``0.5 + 0.5 tanh(d / scale)``;
    after the last round (``final``) ``0.7 x win (1, 0.5 on a tie, 0) + 0.3 x`` that."""
    n = len(tot)
    out = []
    tanh = math.tanh
    for i in range(n):
        if teams:
            mine = tot[i] + tot[(i + 2) % 4]
            other = tot[(i + 1) % 4] + tot[(i + 3) % 4]
        else:
            mine = tot[i]
            other = max(tot[j] for j in range(n) if j != i)
        d = mine - other
        margin = 0.5 + 0.5 * tanh(d / scale)
        if final:
            win = 1.0 if d > 0 else 0.5 if d == 0 else 0.0
            out.append(0.7 * win + 0.3 * margin)
        else:
            out.append(margin)
    return out


@dataclass
class SearchResult:
    """The chosen action, iterations run, seconds taken (wall and CPU), and root visits per action."""

    action: Action
    iterations: int
    wall: float
    cpu: float
    visits: dict[str, int]


__all__ = ["Determinizer", "SearchResult", "action_key", "determinize", "reward_values"]
