"""Expectimax alpha-beta with chance nodes: the search of two baselines (never a level offered
in the window). With the fitted evaluation (:func:`~game.roseking.ai.evaluation.fitted_value`,
:data:`~game.roseking.ai.evaluation.LEVEL_CONFIG`) it is the ``expectimax-fit`` baseline; with
the plain evaluation (:func:`~game.roseking.ai.evaluation.evaluate`: margin, heroes, half the
tempo term) it is the ``expectimax`` baseline. Measurements: ``docs/ai.md``.

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

import time
from dataclasses import dataclass
from typing import Callable

from game.roseking.engine.cards import NUM_CARDS
from game.roseking.engine.kernel import HAND_LIMIT, TARGET_BIT, TOTAL_STONES

import game.roseking.ai.kernel as K
from game.roseking.ai.evaluation import WIN, evaluate, fitted_value, terminal_value

_INF = float("inf")
_EXACT, _LOWER, _UPPER = 0, 1, 2


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
        self.tt: dict[tuple[int, ...], tuple[int, int, float, int]] = {}  # position -> (depth, flag, value, move)
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
