"""Expectimax alpha-beta with chance nodes, and the fitted margin evaluation.

With the fitted evaluation (:func:`fitted_value`, :data:`EVAL_WEIGHTS`, :data:`LEVEL_CONFIG`) it
is the ``expectimax-fit`` baseline; with the plain evaluation (:func:`evaluate`: margin,
heroes, half the tempo term) it is the ``expectimax`` baseline. The same fitted evaluation
gives the implicit minimax values of the MCTS of ``medium``, ``hard`` and ``expert``
(:mod:`game.roseking.ai.mcts`). Measurements: ``docs/ai.md``.

Rose King is a game of perfect information except the draw pile's order, which
the engine does not even hold: a draw brings a card uniformly from the draw
pile's *set* (ruling 5). The tree therefore has

- decision nodes, searched by negamax with alpha-beta pruning (a pass of ruling 6
  lets the same player move again: the sign flips only when the mover changes);
- chance nodes under each draw action, valued as the mean over the cards the draw
  can bring (1/n each). At the root every card of the set is expanded; deeper in
  the tree ``chance_samples`` cards of the set are (a sample chosen by a hash of
  the position and the player's salt, so it never depends on any order of the pile,
  and the same position always gets the same sample, which keeps the transposition
  table consistent). Child windows at a chance node are open: with values as wide as
  a game's score, Star1 bounds would not prune.

Around it: iterative deepening within the time budget (the deepest completed
iteration answers; a partly searched one counts once its first action, the previous
best, is done), move ordering (transposition-table move, then killer moves, then a
static guess: joins and blocks of the target square, hero flips, the draw last), and
a transposition table keyed by the position's canonical content (the fields of
:meth:`game.roseking.engine.State.canonical_bytes`, as a tuple of ints), kept from
one move to the next (tree reuse).

Values are in score points for the player to move: a finished game is worth
``±WIN`` plus the final score margin (ruling 8's tie-breaks decide the sign); a
leaf at the horizon is valued by :func:`evaluate`.

Chosen by measurement (``alphabeta`` depth 5 as the opponent, 10,000 nodes per move,
the same deals; wins of 30 games unless said): score margin and 30 points a hero
card, one sampled chance outcome 12/20, two 13/20, all of them 20/32; adding half
the mover's best immediate gain (the tempo term) 22/30 and 21/30; then the fitted
logistic evaluation of the MCTS on top 9/16, a full tempo term with it 6/12. So it
uses margin, heroes, half the tempo term and two sampled outcomes.

Timed, on 2 cores shared with other work (load 6-13, so a budget bought about a third of
a core), this search at 1 s won 58 of 89 against ``alphabeta`` (65%; the MCTS won 14 of
24 in that report), 0.75 s won 54 of 86 against 0.25 s (63%), but at 0.25 s it won only
21 of 47 against the MCTS at 1 s, 11 of 31 against the MCTS at equal time (0.25 s), and
57 of 101 against ``medium`` (MCTS at 0.025 s). With the fitted evaluation (second
session) it beat ``alphabeta`` but only drew level with that MCTS; see ``docs/ai.md``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

from game.roseking.engine import decide, score_of, territories
from game.roseking.engine.cards import NUM_CARDS
from game.roseking.engine.state import HAND_LIMIT, TARGET_BIT, TOTAL_STONES, _spread

import game.roseking.ai.kernel as K
from game.roseking.ai.kernel import _GROUP_CACHE, group_stats  # the territory memo of the MCTS's evaluation

WIN = 100_000.0
_INF = float("inf")
_EXACT, _LOWER, _UPPER = 0, 1, 2


#: Weights of :func:`eval_features` per phase (stones on the board below 20, 36, 53): a ridge
#: least-squares model of the final score margin, fitted by ``bench/ai_fit_margin.py`` on
#: positions of 240 self-play games (3,000 nodes a move, 5% random actions), the score margin's
#: weight held at 1 (``--fix-score 1``: the value stays monotone in the score); see ``docs/ai.md``.
EVAL_WEIGHTS: tuple[tuple[float, ...], ...] = (
    (1.0, 30.356, 0.0, 0.970, 0.272, 4.034, 4.463, -22.238, -7.137),
    (1.0, 38.773, 83.208, 0.743, -0.134, 4.228, 5.133, 3.749, -7.247),
    (1.0, 42.025, 17.571, 0.548, -0.108, 1.920, 5.300, 3.479, -2.814),
)

#: The search of the ``expectimax-fit`` baseline: :class:`ExpectimaxConfig` fields besides the budget.
LEVEL_CONFIG: dict = {"eval_weights": EVAL_WEIGHTS, "phase_limits": (20, 36, 53)}

#: Score points per unit of logit in :func:`win_chance` (fitted with :data:`EVAL_WEIGHTS`).
WIN_SCALE = 37.0


def win_chance(points: float) -> float:
    """The mover's winning chance 0..1 of a search value in score points: ``sigmoid(points / WIN_SCALE)``;
    a decided game (``|points| >= WIN / 2``) is 1 or 0."""
    if points >= WIN / 2:
        return 1.0
    if points <= -WIN / 2:
        return 0.0
    x = points / WIN_SCALE
    if x < -60.0:
        return 0.0
    if x > 60.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


class _Timeout(Exception):
    """The deadline passed (or ``stop`` said so) inside an iteration."""


@dataclass
class ExpectimaxConfig:
    """Knobs of :class:`Expectimax`.

    - ``seconds``: wall-clock budget per move (None: no limit); the search stops at
      ``seconds * safety`` so that the whole call stays inside the budget.
    - ``max_depth``: deepest iteration in plies (None: no limit); at least one of the two.
    - ``max_nodes``: node budget (None: no limit); with it and no ``seconds`` a search is
      reproducible on any machine.
    - ``chance_samples``: cards expanded per chance node below the root (None: all).
    - ``hero_weight``: points per hero card left, scaled down over the last ``hero_fade``
      stones of the supply (0: never), see :func:`evaluate`.
    - ``tempo_weight``: share of the mover's best immediate gain counted for the mover (:func:`evaluate`).
    - ``fitted_weight``: points per unit of the fitted logistic evaluation's logit
      (:func:`game.roseking.ai.kernel.evaluate`, the MCTS's leaf value) added to the evaluation (0: not used).
    - ``eval_weights``: one row of weights of :func:`eval_features` per phase (stones on the
      board below each of ``phase_limits``); when set, the evaluation is their weighted sum
      (the fitted model of the final margin, :data:`EVAL_WEIGHTS`) instead of the terms above.
    - ``tt_size``: transposition-table entries (about 400 bytes each) at which the table is cleared;
      a new search starts on a cleared table once it holds half of that.
    """

    seconds: float | None = 1.0
    max_depth: int | None = None
    max_nodes: int | None = None
    chance_samples: int | None = 2
    hero_weight: float = 30.0
    hero_fade: int = 20
    tempo_weight: float = 0.5
    fitted_weight: float = 0.0
    safety: float = 0.95
    tt_size: int = 250_000
    eval_weights: tuple[tuple[float, ...], ...] | None = None
    phase_limits: tuple[int, ...] = (20, 36, 53)


@dataclass
class ExpectimaxResult:
    """What a search found: the action, its value (points, for the mover), the depth
    of the deepest iteration that counted, nodes visited and seconds spent."""

    action: int
    value: float
    depth: int
    nodes: int
    seconds: float


#: score_of by stone bitmask: the same stone sets recur all over a search tree (draws and the other
#: side's moves leave them unchanged). Cleared when it holds _SCORE_CACHE_SIZE entries.
_SCORE_CACHE: dict[int, int] = {}
_SCORE_CACHE_SIZE = 500_000


def cached_score(stones: int) -> int:
    """:func:`game.roseking.engine.score_of` of a stone bitmask, memoised."""
    v = _SCORE_CACHE.get(stones)
    if v is None:
        if len(_SCORE_CACHE) >= _SCORE_CACHE_SIZE:
            _SCORE_CACHE.clear()
        v = _SCORE_CACHE[stones] = score_of(stones)
    return v


def terminal_value(st: list[int], p: int) -> float:
    """Value of a finished position for player ``p``: ``±WIN`` (0 for a draw) plus ``p``'s score margin."""
    margin = score_of(st[K.S0 + p]) - score_of(st[K.S1 - p])
    w, _ = decide(st[K.S0], st[K.S1])
    if w is None:
        return float(margin)
    return (WIN if int(w) == p else -WIN) + margin


def evaluate(st: list[int], p: int, hero_weight: float = 30.0, tempo_weight: float = 0.0,
             hero_fade: int = 20) -> float:
    """Static value of an unfinished position for player ``p``, in score points.

    ``score(p) - score(opponent)`` (territory sizes squared, ruling 8) plus
    ``hero_weight`` per hero card more than the opponent, scaled down over the last
    ``hero_fade`` stones of the supply (a hero card unused at the end is worth nothing), plus
    ``tempo_weight`` times the best immediate gain of the player to move
    (:func:`best_gain`: the join or flip its hand reaches from the crown now; counted
    for ``p`` if ``p`` moves, against ``p`` otherwise). The tempo term removes most of
    the odd/even swing of a score-only evaluation at the search horizon.
    """
    mine, theirs = st[K.S0 + p], st[K.S1 - p]
    cache = _SCORE_CACHE
    a = cache.get(mine)
    if a is None:
        a = cached_score(mine)
    b = cache.get(theirs)
    if b is None:
        b = cached_score(theirs)
    v = a - b
    left = TOTAL_STONES - (mine | theirs).bit_count()
    hero_value = hero_weight * min(1.0, left / hero_fade) if hero_fade else hero_weight
    if hero_weight:
        v += hero_value * (st[K.HE0 + p] - st[K.HE1 - p])
    if tempo_weight:
        mover = st[K.TURN]
        gain = best_gain(st, mover, a if mover == p else b, b if mover == p else a, hero_value)
        v += tempo_weight * gain if mover == p else -tempo_weight * gain
    return v


#: Growth tables by stone bitmask: see :func:`growth`. Cleared at _GROWTH_CACHE_SIZE entries (a table
#: takes a few kilobytes: 500,000 of them grew a worker past 1.5 GB).
_GROWTH_CACHE: dict[int, tuple[int, dict[int, int], int, list[tuple[int, int]]]] = {}
_GROWTH_CACHE_SIZE = 40_000


def _growth_table(stones: int) -> tuple[int, dict[int, int], int, list[tuple[int, int]]]:
    """``(frontier, gain by square bit, total gain, [(gain, bit)] largest first)`` of ``stones``."""
    groups = territories(stones)
    sizes = [g.bit_count() for g in groups]
    frontier = _spread(stones) & ~stones
    gains: dict[int, int] = {}
    free = frontier
    while free:
        low = free & -free
        free ^= low
        nb = K.NEIGH_BIT[low]
        joined = 1
        squares = 0
        for g, n in zip(groups, sizes):
            if g & nb:
                joined += n
                squares += n * n
        gains[low] = joined * joined - squares
    if len(_GROWTH_CACHE) >= _GROWTH_CACHE_SIZE:
        _GROWTH_CACHE.clear()
    v = _GROWTH_CACHE[stones] = (frontier, gains, sum(gains.values()),
                                 sorted(((g, b) for b, g in gains.items()), reverse=True))
    return v


def growth(stones: int, occupied: int) -> tuple[int, int]:
    """``(best, total)`` score gain of one more stone on an empty square next to ``stones``.

    For each square of ``~occupied`` edge-adjacent to the territories of ``stones`` (ruling 8),
    the gain is ``(1 + sum of the adjacent territories' sizes)**2 - sum of their squares``: a
    square touching two territories is a *merge threat* (gain ``2ab + 2a + 2b + 1``).
    ``best`` is the largest gain, ``total`` the sum over all such squares (0, 0 without any).
    ``occupied`` must include ``stones``. The table of ``stones`` is memoised.
    """
    t = _GROWTH_CACHE.get(stones)
    if t is None:
        t = _growth_table(stones)
    frontier, gains, total, ranked = t
    taken = frontier & occupied
    if not taken:
        return (ranked[0][0] if ranked else 0), total
    best = 0
    for g, b in ranked:
        if not b & taken:
            best = g
            break
    while taken:
        low = taken & -taken
        taken ^= low
        total -= gains[low]
    return best, total


#: Names of :func:`eval_features`, in order.
FEATURE_NAMES = ("score", "heroes", "late_heroes", "tempo", "best_growth", "growth/10",
                 "playable", "stuck", "largest")


def eval_features(st: list[int], p: int, hero_fade: int = 20) -> tuple[float, ...]:
    """Features of an unfinished position for player ``p`` (each ``p``'s minus the opponent's).

    In the order of :data:`FEATURE_NAMES`: score margin (ruling 8); hero cards left, scaled
    by ``min(1, stones left / hero_fade)``, and the same by the rest of that factor; the
    tempo (the mover's :func:`best_gain`, + if ``p`` moves, - otherwise); the best and the
    total :func:`growth` (total / 10); playable cards in hand from the crown now; stuck
    (a full hand with nothing playable: a forced pass of ruling 6); the largest territory.
    """
    mine, theirs = st[K.S0 + p], st[K.S1 - p]
    occ = mine | theirs
    a, la = group_stats(mine)
    b, lb = group_stats(theirs)
    left = TOTAL_STONES - occ.bit_count()
    fade = min(1.0, left / hero_fade) if hero_fade else 1.0
    dh = st[K.HE0 + p] - st[K.HE1 - p]
    mover = st[K.TURN]
    gain = best_gain(st, mover, a if mover == p else b, b if mover == p else a, 30.0 * fade)
    gm, tm = growth(mine, occ)
    gt, tt = growth(theirs, occ)
    pm, _, _ = K._reach(st, p)
    po, _, _ = K._reach(st, 1 - p)
    stuck_m = 1.0 if pm == 0 and st[K.H0 + p].bit_count() >= HAND_LIMIT else 0.0
    stuck_o = 1.0 if po == 0 and st[K.H1 - p].bit_count() >= HAND_LIMIT else 0.0
    return (float(a - b), dh * fade, dh * (1.0 - fade), gain if mover == p else -gain,
            float(gm - gt), (tm - tt) / 10.0, float(pm - po), stuck_m - stuck_o, float(la - lb))


def _playable(hand: int, base: int, occ: int, flippable: int) -> int:
    """Power cards of ``hand`` playable from the crown square ``base // NUM_CARDS`` (``flippable``:
    the opponent's stones if a hero card is left, else 0)."""
    n = 0
    while hand:
        low = hand & -hand
        hand ^= low
        bit = TARGET_BIT[base + low.bit_length() - 1]
        if bit and (not occ & bit or flippable & bit):
            n += 1
    return n


def fitted_value(st: list[int], p: int, weights: tuple[tuple[float, ...], ...],
                 limits: tuple[int, ...] = (20, 36, 53), hero_fade: int = 20) -> float:
    """The weighted sum of :func:`eval_features` with the row of the position's phase (stones on
    the board below each of ``limits``), for player ``p``, in score points; computed in one pass
    (equal to ``sum(w * x)`` up to rounding)."""
    r, w = st[K.S0], st[K.S1]
    occ = r | w
    placed = occ.bit_count()
    row = weights[-1]
    for limit, wts in zip(limits, weights):
        if placed < limit:
            row = wts
            break
    gr = _GROUP_CACHE.get(r)
    if gr is None:
        gr = group_stats(r)
    gw = _GROUP_CACHE.get(w)
    if gw is None:
        gw = group_stats(w)
    a, la = gr
    b, lb = gw
    left = TOTAL_STONES - placed
    fade = min(1.0, left / hero_fade) if hero_fade else 1.0
    dh = st[K.HE0] - st[K.HE1]
    mover = st[K.TURN]
    if mover == 0:
        tempo = best_gain(st, 0, a, b, 30.0 * fade)
    else:
        tempo = -best_gain(st, 1, b, a, 30.0 * fade)
    t = _GROWTH_CACHE.get(r)
    gm, tm = growth(r, occ) if t is None or t[0] & occ else (t[3][0][0] if t[3] else 0, t[2])
    t = _GROWTH_CACHE.get(w)
    gt, tt = growth(w, occ) if t is None or t[0] & occ else (t[3][0][0] if t[3] else 0, t[2])
    base = st[K.CROWN] * NUM_CARDS
    hr, hw = st[K.H0], st[K.H1]
    pr = _playable(hr, base, occ, w if st[K.HE0] else 0)
    pw = _playable(hw, base, occ, r if st[K.HE1] else 0)
    stuck = ((1.0 if pr == 0 and hr.bit_count() >= HAND_LIMIT else 0.0)
             - (1.0 if pw == 0 and hw.bit_count() >= HAND_LIMIT else 0.0))
    v = (row[0] * (a - b) + row[1] * dh * fade + row[2] * dh * (1.0 - fade) + row[3] * tempo
         + row[4] * (gm - gt) + row[5] * (tm - tt) / 10.0 + row[6] * (pr - pw) + row[7] * stuck
         + row[8] * (la - lb))
    return v if p == 0 else -v


def fitted_draw_values(st: list[int], weights: tuple[tuple[float, ...], ...],
                       limits: tuple[int, ...] = (20, 36, 53), hero_fade: int = 20) -> dict[int, float] | None:
    """:func:`fitted_value` for the player to move in ``st`` (not modified) after drawing each
    card of the draw pile, by card index, in score points; None when the drawer would move
    again after the draw, or the draw ends the game (then the tempo term depends on the card:
    value the cards one by one).

    One full evaluation, then per card only the two terms a card in the drawer's hand changes
    (playable cards and the full-hand-stuck flag), so it costs about two evaluations however
    large the pile; equal to the evaluations card by card up to rounding.
    """
    drawer = st[K.TURN]
    pile = st[K.PILE]
    first = (pile & -pile).bit_length() - 1
    s1 = st[:]
    K.apply(s1, K.DRAW_ACTION, first)
    if s1[K.OVER] or s1[K.TURN] == drawer:
        return None
    base = fitted_value(s1, drawer, weights, limits, hero_fade)
    occ = st[K.S0] | st[K.S1]
    placed = occ.bit_count()
    row = weights[-1]
    for limit, wts in zip(limits, weights):
        if placed < limit:
            row = wts
            break
    crown_base = st[K.CROWN] * NUM_CARDS
    flippable = st[K.S1 - drawer] if st[K.HE0 + drawer] else 0
    hand = st[K.H0 + drawer]
    before = _playable(hand, crown_base, occ, flippable)
    full = hand.bit_count() + 1 >= HAND_LIMIT

    def terms(card: int) -> float:
        bit = TARGET_BIT[crown_base + card]
        playable = before + (1 if bit and (not occ & bit or flippable & bit) else 0)
        stuck = 1.0 if full and playable == 0 else 0.0
        return row[6] * playable + row[7] * stuck

    ref = terms(first)
    out = {}
    p = pile
    while p:
        low = p & -p
        p ^= low
        card = low.bit_length() - 1
        out[card] = base + (terms(card) - ref)
    return out


def best_gain(st: list[int], q: int, own_score: int, other_score: int, hero_cost: float = 0.0) -> float:
    """The best immediate change of ``q``'s score margin by one play or hero action of ``q``'s hand.

    ``own_score``/``other_score``: the current scores of ``q`` and the opponent; a hero
    action's gain is reduced by ``hero_cost`` (the value of the hero card it spends).
    0 if nothing is playable (or nothing gains).
    """
    mine, theirs = st[K.S0 + q], st[K.S1 - q]
    occ = mine | theirs
    heroes = st[K.HE0 + q]
    base = st[K.CROWN] * NUM_CARDS
    h = st[K.H0 + q]
    best = 0
    cache = _SCORE_CACHE
    while h:
        low = h & -h
        h ^= low
        bit = TARGET_BIT[base + low.bit_length() - 1]
        if not bit:
            continue
        if not occ & bit:
            m = mine | bit
            sm = cache.get(m)
            if sm is None:
                sm = cached_score(m)
            g = sm - own_score
        elif heroes and theirs & bit:
            m, t = mine | bit, theirs & ~bit
            sm = cache.get(m)
            if sm is None:
                sm = cached_score(m)
            stt = cache.get(t)
            if stt is None:
                stt = cached_score(t)
            g = sm - own_score + other_score - stt - hero_cost
        else:
            continue
        if g > best:
            best = g
    return best


def _order_score(st: list[int], a: int) -> int:
    """A cheap guess of an action's worth for the move ordering (higher first)."""
    if a == K.DRAW_ACTION:
        return -1
    p = st[K.TURN]
    mine, theirs = st[K.S0 + p], st[K.S1 - p]
    bit = TARGET_BIT[st[K.CROWN] * NUM_CARDS + a % NUM_CARDS]
    nb = K.NEIGH_BIT[bit]
    if a >= NUM_CARDS:  # hero: flipping a stone that joins ours and splits theirs
        return 4 * (nb & mine).bit_count() + 2 * (nb & theirs).bit_count() + 2
    return 3 * (nb & mine).bit_count() + (nb & theirs).bit_count()


class Expectimax:
    """Iterative-deepening expectimax alpha-beta over the raw kernel (see the module docstring).

    ``salt``: 64-bit int choosing the sampled chance outcomes below the root (draw it
    from the player's seed; it never depends on the pile's order).
    """

    def __init__(self, config: ExpectimaxConfig, salt: int = 0) -> None:
        if config.seconds is None and config.max_depth is None and config.max_nodes is None:
            raise ValueError("a search needs a budget: seconds, max_depth or max_nodes")
        self.cfg = config
        self.salt = salt
        self.tt: dict[tuple, tuple] = {}
        self.nodes = 0
        self._deadline = _INF
        self._max_nodes: float = _INF
        self._check_at: float = 256
        self._stop: Callable[[], bool] | None = None
        self._killers: list[list[int]] = []

    # ---------------------------------------------------------------- pieces
    def _outcomes(self, st: list[int]) -> list[int]:
        pile = st[K.PILE]
        n = pile.bit_count()
        k = self.cfg.chance_samples
        if k is None or k >= n:
            out = []
            while pile:
                low = pile & -pile
                pile ^= low
                out.append(low.bit_length() - 1)
            return out
        h = hash((self.salt, st[K.S0], st[K.S1], st[K.CROWN], st[K.H0], st[K.H1], st[K.TURN], pile))
        start = (h & 0xFFFFFFFF) % n
        step = 1 + ((h >> 32) & 0xFFFF) % n if n > 1 else 1
        while n > 1 and _gcd(step, n) != 1:
            step += 1
        return [K.nth_bit(pile, (start + i * step) % n) for i in range(k)]

    def _eval(self, st: list[int], p: int) -> float:
        cfg = self.cfg
        if cfg.eval_weights is not None:
            return fitted_value(st, p, cfg.eval_weights, cfg.phase_limits, cfg.hero_fade)
        v = evaluate(st, p, cfg.hero_weight, cfg.tempo_weight, cfg.hero_fade)
        if cfg.fitted_weight:
            v += cfg.fitted_weight * K.evaluate(st, p)
        return v

    def _tick(self) -> None:
        """Every 256 nodes (and at the node budget): raise :class:`_Timeout` once the budget is spent."""
        self._check_at = min(self.nodes + 256, self._max_nodes)
        if (self.nodes >= self._max_nodes or time.perf_counter() >= self._deadline
                or (self._stop is not None and self._stop())):
            raise _Timeout

    def _ordered(self, st: list[int], ply: int, tt_move: int) -> list[int]:
        acts = K.legal_actions(st)
        if len(acts) <= 1:
            return acts
        killers = self._killers[ply] if ply < len(self._killers) else ()
        scored = []
        for a in acts:
            if a == tt_move:
                s = 1000
            elif a in killers:
                s = 500
            else:
                s = _order_score(st, a)
            scored.append((s, a))
        scored.sort(reverse=True)
        return [a for _, a in scored]

    # ---------------------------------------------------------------- search
    def _child_value(self, child: list[int], p: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Value for ``p`` of the position after ``p``'s action."""
        if child[K.OVER]:
            return terminal_value(child, p)
        if child[K.TURN] == p:  # the opponent passes (ruling 6)
            return self._negamax(child, depth, alpha, beta, ply)
        return -self._negamax(child, depth, -beta, -alpha, ply)

    def _chance(self, st: list[int], depth: int, ply: int, root: bool = False) -> float:
        p = st[K.TURN]
        if root:
            pile = st[K.PILE]
            cards = [i for i in range(NUM_CARDS) if (pile >> i) & 1]
        else:
            cards = self._outcomes(st)
        total = 0.0
        for c in cards:
            child = st[:]
            K.apply(child, K.DRAW_ACTION, c)
            total += self._child_value(child, p, depth - 1, -_INF, _INF, ply + 1)
        return total / len(cards)

    def _negamax(self, st: list[int], depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if self.nodes >= self._check_at:
            self._tick()
        p = st[K.TURN]
        if depth <= 0:
            return self._eval(st, p)
        key = tuple(st)
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            edepth, flag, val, tt_move = entry
            if edepth >= depth:
                if flag == _EXACT:
                    return val
                if flag == _LOWER:
                    if val >= beta:
                        return val
                elif val <= alpha:
                    return val
        alpha0 = alpha
        best = -_INF
        best_a = -1
        for a in self._ordered(st, ply, tt_move):
            if a == K.DRAW_ACTION:
                v = self._chance(st, depth, ply)
            else:
                child = st[:]
                K.apply(child, a)
                v = self._child_value(child, p, depth - 1, alpha, beta, ply + 1)
            if v > best:
                best, best_a = v, a
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if a != K.DRAW_ACTION:
                            self._killer(ply, a)
                        break
        flag = _UPPER if best <= alpha0 else (_LOWER if best >= beta else _EXACT)
        if len(self.tt) >= self.cfg.tt_size:
            self.tt.clear()
        self.tt[key] = (depth, flag, best, best_a)
        return best

    def _killer(self, ply: int, a: int) -> None:
        while len(self._killers) <= ply:
            self._killers.append([-1, -1])
        k = self._killers[ply]
        if k[0] != a:
            k[1] = k[0]
            k[0] = a

    def search(self, root_state: list[int], stop: Callable[[], bool] | None = None) -> ExpectimaxResult:
        """Search from ``root_state`` (a raw kernel position; not modified).

        ``stop``: optional callable polled every 256 nodes; when it returns True the search
        ends and answers with the deepest iteration done. Raises ValueError if the game is over.
        """
        start = time.perf_counter()
        cfg = self.cfg
        acts = K.legal_actions(root_state)
        if not acts:
            raise ValueError("no legal action: the game is over")
        if len(acts) == 1:
            return ExpectimaxResult(acts[0], 0.0, 0, 0, time.perf_counter() - start)
        self._deadline = _INF if cfg.seconds is None else start + cfg.seconds * cfg.safety
        self._max_nodes = _INF if cfg.max_nodes is None else cfg.max_nodes
        self._stop = stop
        self.nodes = 0
        self._check_at = min(256, self._max_nodes)
        if len(self.tt) >= cfg.tt_size // 2:
            self.tt.clear()
        p = root_state[K.TURN]
        order = sorted(acts, key=lambda a: -_order_score(root_state, a))
        best_a, best_v, done_depth = order[0], 0.0, 0
        depth = 0
        max_depth = cfg.max_depth if cfg.max_depth is not None else 200
        while depth < max_depth:
            depth += 1
            alpha = -_INF
            it_best_a, it_best_v = -1, -_INF
            values: dict[int, float] = {}
            try:
                for a in order:
                    self.nodes += 1  # the root's children count as nodes (a finished child is not searched)
                    if a == K.DRAW_ACTION:
                        v = self._chance(root_state, depth, 0, root=True)
                    else:
                        child = root_state[:]
                        K.apply(child, a)
                        v = self._child_value(child, p, depth - 1, alpha, _INF, 1)
                    values[a] = v
                    if v > it_best_v:
                        it_best_a, it_best_v = a, v
                        if v > alpha:
                            alpha = v
            except _Timeout:
                if it_best_a >= 0 and (it_best_a != best_a or done_depth == 0):
                    best_a, best_v = it_best_a, it_best_v
                    done_depth = depth  # partial iteration: its first action (the previous best) is done
                break
            best_a, best_v, done_depth = it_best_a, it_best_v, depth
            # the best first next time, the others by their values (fail-low values are upper bounds)
            order.sort(key=lambda a: -values.get(a, -_INF))
            if abs(best_v) >= WIN / 2:  # a decided line: deeper search cannot change the outcome
                break
            if self._all_exact_leaves(depth, root_state):
                break
        return ExpectimaxResult(best_a, best_v, done_depth, self.nodes, time.perf_counter() - start)

    def _all_exact_leaves(self, depth: int, st: list[int]) -> bool:
        """Whether ``depth`` plies already reach past any possible end of the game (deeper is useless)."""
        left = TOTAL_STONES - (st[K.S0] | st[K.S1]).bit_count()
        # every action either places a stone or not; the game can last longer than ``left`` plies
        # (draws, hero flips), so only stop when depth is very large
        return depth > 4 * left + 2 * HAND_LIMIT + 16


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a
