"""The evaluations of Rose King's computer players, in score points for the player to move.

- :func:`fitted_value` (:data:`EVAL_WEIGHTS`, :data:`LEVEL_CONFIG`): a margin evaluation fitted to
  the final score margin, on the features of :func:`eval_features` (territory structure,
  heroes, tempo, growth); the implicit minimax values of the MCTS of ``medium``, ``hard`` and
  ``expert`` (:mod:`game.roseking.ai.mcts`), with :func:`fitted_draw_values` for a draw's
  chance outcomes and :func:`win_chance` turning points into a winning chance;
- :func:`evaluate`: the plain one (margin, heroes, half the tempo term) of the ``expectimax``
  baseline; :func:`terminal_value`: a finished game, ``±WIN`` plus the final margin.

The searches that use them as leaf values: :mod:`game.roseking.ai.mcts` and the baselines'
expectimax (:mod:`game.roseking.ai.baselines.expectimax`). Measurements: ``docs/ai.md``.
"""

from __future__ import annotations

import math
from typing import Any

from game.roseking.engine import decide, score_of, territories
from game.roseking.engine.cards import NUM_CARDS
from game.roseking.engine.kernel import HAND_LIMIT, TARGET_BIT, TOTAL_STONES
from game.roseking.engine.kernel import spread as _spread

import game.roseking.ai.kernel as K
from game.roseking.ai.kernel import _GROUP_CACHE, group_stats  # the territory memo of the MCTS's evaluation

#: A finished game is worth this plus the final score margin (:func:`terminal_value`).
WIN = 100_000.0


#: Weights of :func:`eval_features` per phase (stones on the board below 20, 36, 53): a ridge
#: least-squares model of the final score margin, fitted by ``bench/ai_fit_margin.py`` on
#: positions of 240 self-play games (3,000 nodes a move, 5% random actions), the score margin's
#: weight held at 1 (``--fix-score 1``: the value stays monotone in the score); see ``docs/ai.md``.
EVAL_WEIGHTS: tuple[tuple[float, ...], ...] = (
    (1.0, 30.356, 0.0, 0.970, 0.272, 4.034, 4.463, -22.238, -7.137),
    (1.0, 38.773, 83.208, 0.743, -0.134, 4.228, 5.133, 3.749, -7.247),
    (1.0, 42.025, 17.571, 0.548, -0.108, 1.920, 5.300, 3.479, -2.814),
)

#: The search of the ``expectimax-fit`` baseline: :class:`~game.roseking.ai.baselines.expectimax.ExpectimaxConfig`
#: fields besides the budget; its evaluation is the one the MCTS's implicit values use.
LEVEL_CONFIG: dict[str, Any] = {"eval_weights": EVAL_WEIGHTS, "phase_limits": (20, 36, 53)}

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
    v: float = a - b
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
    best: float = 0
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
            g: float = sm - own_score
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
