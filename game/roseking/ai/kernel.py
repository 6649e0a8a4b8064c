"""The computer players' view of the rules kernel: actions, playouts, evaluation.

The rules themselves (a raw position as a list of ints, actions as ints, legal actions,
applying an action with passes and the end of the game) are
:mod:`game.roseking.engine.kernel`, the same functions the engine's ``State`` runs; this
module re-exports them under the names the searches use (``K.apply``, ``K.legal_actions``,
``K.S0`` ...) and adds what only a computer player needs: conversion to and from the
engine's ``Move``, the smart default policy and its playouts, and the fitted evaluation.

- an action is ``kind * 24 + card`` for a play (kind 0) or a hero action (kind 1),
  :data:`DRAW_ACTION` (48) for the decision to draw; the card drawn is a chance
  outcome from the draw pile *set* (ruling 5): the kernel never has an order.
"""

from __future__ import annotations

from random import Random
from typing import Callable

from game.roseking.engine import CARDS, DRAW, HERO, PLAY, Color, Move, State, decide, score_of, territories
from game.roseking.engine.cards import NUM_CARDS, NUM_SQUARES, SIZE, TARGET
from game.roseking.engine.kernel import (  # noqa: F401  (re-exported for the searches)
    CROWN, DISCARD, DRAW_ACTION, H0, H1, HAND_LIMIT, HE0, HE1, OVER, PILE, S0, S1, TARGET_BIT, cards_in,
    TARGET_BIT_ROW, TOTAL_STONES, TURN, apply, can_move, legal_actions, nth_bit, score_and_largest, spread as _spread,
)

_TGT = TARGET
_TBIT = TARGET_BIT


def _neighbours(sq: int) -> int:
    f, r = sq % SIZE, sq // SIZE
    m = 0
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= f + df < SIZE and 0 <= r + dr < SIZE:
            m |= 1 << ((r + dr) * SIZE + f + df)
    return m


#: ``NEIGH[sq]``: bitmask of the (up to 4) edge neighbours of ``sq``.
NEIGH: tuple[int, ...] = tuple(_neighbours(sq) for sq in range(NUM_SQUARES))
#: ``NEIGH_BIT[b]`` for ``b = 1 << sq``: the same table keyed by the square's bit.
NEIGH_BIT: dict[int, int] = {1 << sq: NEIGH[sq] for sq in range(NUM_SQUARES)}
#: ``BIT_INDEX[1 << i] == i`` for a square or card bit.
BIT_INDEX: dict[int, int] = {1 << i: i for i in range(NUM_SQUARES)}


def from_state(state: State) -> list[int]:
    """The raw position of an engine ``State`` (a new list; ``state`` is untouched)."""
    return state.raw()


def to_move(state_turn: int, action: int) -> Move:
    """The engine ``Move`` of a kernel action for player ``state_turn`` (a draw has card None)."""
    player = Color(state_turn)
    if action == DRAW_ACTION:
        return Move(player, DRAW, None)
    return Move(player, HERO if action >= NUM_CARDS else PLAY, CARDS[action % NUM_CARDS])


def action_of(move: Move) -> int:
    """The kernel action of an engine move (a draw maps to :data:`DRAW_ACTION`, whatever its card)."""
    if move.kind is DRAW:
        return DRAW_ACTION
    assert move.card is not None
    return (NUM_CARDS if move.kind is HERO else 0) + move.card.index


def sample_draw(st: list[int], rng: Random) -> int:
    """A chance outcome of a draw now: a card index uniform over the draw pile set."""
    pile = st[PILE]
    return nth_bit(pile, rng.randrange(pile.bit_count()))


def final_margin(st: list[int]) -> int:
    """Red's score minus White's score (ruling 8's main criterion)."""
    return score_of(st[S0]) - score_of(st[S1])


def winner_value(st: list[int], p: int) -> float:
    """Result of a finished position for ``p``: 1 win, 0 loss, 0.5 draw (all of ruling 8's tie-breaks)."""
    w, _ = decide(st[S0], st[S1])
    if w is None:
        return 0.5
    return 1.0 if int(w) == p else 0.0


# ---------------------------------------------------------------- default policy
def policy_action(st: list[int], rng_random: Callable[[], float], eps: float = 0.1) -> int:
    """A smart default-policy action for the mover (the playout policy).

    Scores each play by the target square's own neighbours (joining territories,
    weight 3) and opponent neighbours (blocking, weight 1); a hero action only
    pays when the flipped stone touches several stones of either colour; a draw
    is worth more the fewer cards the hand holds. With probability ``eps`` the
    action is uniform instead. ``rng_random`` is a ``random()`` callable.
    Returns -1 if the mover has no action (the caller's state is then over).
    """
    p = st[TURN]
    mine, theirs = st[S0 + p], st[S1 - p]
    occ = mine | theirs
    heroes = st[HE0 + p]
    row = TARGET_BIT_ROW[st[CROWN]]
    neigh = NEIGH_BIT
    hand = st[H0 + p]
    n = hand.bit_count()
    best = -1
    best_v = -1e9
    h = hand
    r = rng_random()
    explore = r < eps
    while h:
        low = h & -h
        h ^= low
        c = low.bit_length() - 1
        bit = row[c]
        if not bit:
            continue
        nb = neigh[bit]
        if not occ & bit:
            v = 3 * (nb & mine).bit_count() + (nb & theirs).bit_count() + 1.0
            a = c
        elif heroes and theirs & bit:
            v = 3 * (nb & mine).bit_count() + 2 * (nb & theirs).bit_count() - 5.0
            a = NUM_CARDS + c
        else:
            continue
        v += rng_random()
        if explore:
            v = rng_random()
        if v > best_v:
            best_v, best = v, a
    if n < HAND_LIMIT:
        v = (HAND_LIMIT - n) * 1.2 - 0.5 + rng_random()
        if explore:
            v = rng_random()
        if v > best_v or best < 0:
            best = DRAW_ACTION
    return best


def playout(st: list[int], rng: Random, eps: float = 0.1, max_plies: int = 400) -> None:
    """Play ``st`` to its end in place with :func:`policy_action`, drawing chance outcomes with ``rng``."""
    rnd = rng.random
    getrandbits = rng.getrandbits
    for _ in range(max_plies):
        if st[OVER]:
            return
        a = policy_action(st, rnd, eps)
        if a < 0:  # cannot happen for a consistent position; stop rather than loop
            st[OVER] = 1
            return
        if a == DRAW_ACTION:
            pile = st[PILE]
            n = pile.bit_count()
            # uniform over range(n) by rejection, as CPython's Random.randrange(n) draws it (the
            # same numbers), without its two Python calls: 10 % of a playout's time went there
            k = n.bit_length()
            i = getrandbits(k)
            while i >= n:
                i = getrandbits(k)
            apply(st, a, nth_bit(pile, i))
        else:
            apply(st, a)


# ---------------------------------------------------------------- evaluation
#: Logistic-regression weights of :func:`features`, one row per phase (stones on the board
#: below 14, 28, 40, 53). Fitted by ``bench/fit_eval.py`` on ~100k positions of
#: default-policy games (outcome: Red wins), so ``sigmoid(logit)`` estimates what a
#: playout would say, without playing it.
PHASE_LIMITS = (14, 28, 40, 53)
WEIGHTS: tuple[tuple[float, ...], ...] = (
    (0.6406, 0.9652, 0.4905, 0.4716, 0.0141, 0.0677, -0.0292, -0.3794, 0.0391, 0.0114, 0.2046, 0.0389),
    (0.8883, 0.8211, 0.6281, 0.5923, -0.0404, 0.1415, -0.0041, -0.0781, 0.0178, -0.0008, -0.2822, 0.0194),
    (1.3168, 0.9402, 0.8347, 0.8072, -0.0382, 0.1202, 0.0295, -0.2256, 0.0323, 0.0825, -0.3973, 0.0583),
    (2.0716, 1.2301, 0.9219, 0.9364, -0.0036, 0.1635, 0.1235, -0.2449, -0.019, 0.2158, -0.2159, 0.0009),
)


def _reach(st: list[int], p: int) -> tuple[int, int, int]:
    """(number of playable cards, best own-neighbour count of a play, best hero gain) for ``p``'s hand."""
    mine, theirs = st[S0 + p], st[S1 - p]
    occ = mine | theirs
    base = st[CROWN] * NUM_CARDS
    h = st[H0 + p]
    playable = 0
    best_play = 0
    best_hero = 0
    heroes = st[HE0 + p]
    while h:
        low = h & -h
        h ^= low
        bit = _TBIT[base + low.bit_length() - 1]
        if not bit:
            continue
        nb = NEIGH_BIT[bit]
        if not occ & bit:
            playable += 1
            k = (nb & mine).bit_count()
            if k > best_play:
                best_play = k
        elif heroes and theirs & bit:
            playable += 1
            k = (nb & mine).bit_count() + (nb & theirs).bit_count()
            if k > best_hero:
                best_hero = k
    return playable, best_play, best_hero


#: ``group_stats`` by stone bitmask: the same stone sets recur all over a search tree (draws
#: and the other side's moves leave them unchanged). Cleared at _GROUP_CACHE_SIZE entries.
_GROUP_CACHE: dict[int, tuple[int, int]] = {}
_GROUP_CACHE_SIZE = 500_000


def group_stats(stones: int) -> tuple[int, int]:
    """``(score, largest territory size)`` of a stone bitmask (ruling 8), memoised."""
    v = _GROUP_CACHE.get(stones)
    if v is None:
        if len(_GROUP_CACHE) >= _GROUP_CACHE_SIZE:
            _GROUP_CACHE.clear()
        v = _GROUP_CACHE[stones] = score_and_largest(stones)
    return v


def evaluate(st: list[int], p: int) -> float:
    """Heuristic value of ``st`` for player ``p`` as a logit: ``sigmoid(v)`` is ``p``'s win chance.

    Features (:func:`features`): territory structure (the size-squared
    score, the largest territory, stones, the empty squares where territories
    can grow), the value of unused hero cards, the squares each player's cards
    can reach next (playable cards, the best join or flip they offer, who moves
    first), and the crown's mobility (a full hand with nothing playable means a
    forced pass). Weighted per phase by :data:`WEIGHTS`.

    The MCTS's leaf value, so computed in one pass with memoised territory figures
    (:func:`group_stats`); it equals the dot product of :func:`features` with the phase's
    row summed left to right, bit for bit (``tests/roseking/ai/test_kernel.py``).
    """
    r, w = st[S0], st[S1]
    occ = r | w
    gr = _GROUP_CACHE.get(r)
    if gr is None:
        gr = group_stats(r)
    gw = _GROUP_CACHE.get(w)
    if gw is None:
        gw = group_stats(w)
    rm, rb, rh = _reach(st, 0)
    wm, wb, wh = _reach(st, 1)
    stuck_r = 1.0 if rm == 0 and st[H0].bit_count() >= HAND_LIMIT else 0.0
    stuck_w = 1.0 if wm == 0 and st[H1].bit_count() >= HAND_LIMIT else 0.0
    red_moves = st[TURN] == 0
    tomove = 1.0 if red_moves else -1.0
    placed = occ.bit_count()
    row = WEIGHTS[-1]
    for limit, wts in zip(PHASE_LIMITS, WEIGHTS):
        if placed < limit:
            row = wts
            break
    v = ((gr[0] - gw[0]) / 100.0 * row[0]
         + (gr[1] - gw[1]) / 10.0 * row[1]
         + (r.bit_count() - w.bit_count()) / 10.0 * row[2]
         + float(st[HE0] - st[HE1]) * row[3]
         + float(rm - wm) * row[4]
         + float(rb - wb) * row[5]
         + float(rh - wh) * row[6]
         + (stuck_r - stuck_w) * row[7]
         + tomove * row[8]
         + tomove * (rb if red_moves else wb) * row[9]
         + ((_spread(r) & ~occ).bit_count() - (_spread(w) & ~occ).bit_count()) / 10.0 * row[10]
         + float(st[H0].bit_count() - st[H1].bit_count()) * row[11])
    return v if p == 0 else -v


def frontier(stones: int, occupied: int) -> int:
    """Empty squares edge-adjacent to ``stones`` (where a territory can still grow), as a bitmask."""
    return _spread(stones) & ~occupied


def features(st: list[int]) -> list[float]:
    """Evaluation features of a position, Red minus White (see :func:`evaluate`).

    In order: score difference / 100, largest-territory difference / 10, stone
    difference / 10, hero cards left, playable cards, best own-neighbour count of
    a play, best flip (neighbours of the flipped stone), stuck (full hand, nothing
    playable), side to move (+1 Red), the mover's best join (signed), frontier
    (empty squares next to one's stones) / 10, hand sizes.
    """
    r, w = st[S0], st[S1]
    occ = r | w
    tr, tw = territories(r), territories(w)
    sr = sum(g.bit_count() ** 2 for g in tr)
    sw = sum(g.bit_count() ** 2 for g in tw)
    lr = tr[0].bit_count() if tr else 0
    lw = tw[0].bit_count() if tw else 0
    rm, rb, rh = _reach(st, 0)
    wm, wb, wh = _reach(st, 1)
    stuck_r = 1.0 if rm == 0 and st[H0].bit_count() >= HAND_LIMIT else 0.0
    stuck_w = 1.0 if wm == 0 and st[H1].bit_count() >= HAND_LIMIT else 0.0
    tomove = 1.0 if st[TURN] == 0 else -1.0
    return [
        (sr - sw) / 100.0,
        (lr - lw) / 10.0,
        (r.bit_count() - w.bit_count()) / 10.0,
        float(st[HE0] - st[HE1]),
        float(rm - wm),
        float(rb - wb),
        float(rh - wh),
        stuck_r - stuck_w,
        tomove,
        tomove * (rb if st[TURN] == 0 else wb),
        (frontier(r, occ).bit_count() - frontier(w, occ).bit_count()) / 10.0,
        float(st[H0].bit_count() - st[H1].bit_count()),
    ]

#: What the searches use (the engine kernel's position fields and rules, re-exported, and this
#: module's playout policy and evaluation).
__all__ = ["BIT_INDEX", "CROWN", "DISCARD", "DRAW_ACTION", "H0", "H1", "HAND_LIMIT", "HE0", "HE1", "NEIGH",
           "NEIGH_BIT", "OVER", "PHASE_LIMITS", "PILE", "S0", "S1", "TARGET_BIT", "TARGET_BIT_ROW",
           "TOTAL_STONES", "TURN", "WEIGHTS", "action_of", "apply", "can_move", "cards_in", "evaluate",
           "features", "final_margin", "from_state", "frontier", "group_stats", "legal_actions", "nth_bit",
           "playout", "policy_action", "sample_draw", "score_and_largest", "to_move", "winner_value"]
