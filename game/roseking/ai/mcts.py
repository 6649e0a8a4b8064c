"""Monte Carlo tree search with chance nodes for Rose King (the ``medium``, ``hard`` and ``expert`` levels).

Both hands are open and every played card is seen, so a player's information
state is the whole position except the draw pile's *order*, which the engine
does not even hold. The only hidden thing is chance: a draw brings a card
uniformly from the draw pile set (ruling 5). The tree therefore has

- decision nodes (one per action of the player to move; passes of ruling 6 are
  handled by the kernel, so a player may appear twice in a row), and
- chance nodes under each draw action, whose children are the cards the draw
  can bring, sampled uniformly per iteration (the standard treatment of chance
  in MCTS, e.g. OpenSpiel's ``MCTSBot`` and "expectimax-MCTS").

Selection is UCT (UCB1 on rewards in [0, 1]). A leaf is valued by a short
playout (``cutoff``, default 8 plies) with the kernel's smart default policy,
then by the fitted evaluation :func:`~game.roseking.ai.kernel.evaluate` (a logistic model
of the win chance: territory structure, hero cards, reach, crown mobility); a
game that ends inside the playout is valued by its result: 1 / 0.5 / 0 (win,
draw, loss, with every tie-break of ruling 8) blended with a small bonus for the
score margin, so won (or lost) positions still prefer bigger margins. Measured
at 0.1 s per move, this beat the same tree with full uniform-random playouts
(plain MCTS, as published Rose King AIs use) 54-6 over 60 games. An optional
prior (``prior_visits``) seeds new edges with the evaluation; it did not help
(51-9 against the same baseline with 2 virtual visits) and is off by default.

Two additions make the MCTS of ``hard`` and ``expert`` (``LEVEL_MCTS`` in ``players.py``);
both are off in :class:`SearchConfig` by default, which is the ``mcts-2025`` baseline:

- *tree reuse* (``reuse``): the player keeps the subtree under the action it chose and, at
  its next move, starts from the node of the new position (:func:`find_subtree`);
- *implicit minimax backups* (``implicit``, Lanctot, Winands, Pepels and Sturtevant, 2014):
  every new edge is valued at once by an evaluation (``implicit_weights``: the fitted margin
  evaluation of the expectimax search, as a winning chance), these values are backed up
  the tree by max at decision nodes and by the mean over the cards seen at chance nodes,
  and UCB1 uses ``(1 - implicit) * w / n + implicit * v``. The playouts still say who is
  ahead in the long run; the backed-up values make the tree see short tactics (a flip, a
  merge) the moment it expands them. Measurements: ``docs/ai.md``.

The budget is a wall-clock deadline checked every iteration and/or an exact
iteration count; with the same seed and the same number of iterations the
search makes the same choice.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from random import Random
from typing import Callable

from game.roseking.engine import State

import game.roseking.ai.kernel as K
from game.roseking.ai.evaluation import fitted_draw_values, fitted_value, win_chance


def _sigmoid(x: float) -> float:
    if x < -60.0:
        return 0.0
    if x > 60.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


class _Node:
    """An edge of the tree: the action that led here, its mover, and its statistics.

    ``children`` maps an action (decision node) or a drawn card (chance node) to a node.
    """

    __slots__ = ("mover", "n", "w", "children", "untried", "chance", "v", "total", "outcomes")

    def __init__(self, mover: int, chance: bool = False) -> None:
        self.mover = mover
        self.n = 0.0
        self.w = 0.0
        self.children: dict[int, _Node] = {}
        self.untried: list[int] | None = None
        self.chance = chance
        self.v: float | None = None  # implicit minimax value for ``mover`` (``implicit`` > 0)
        self.total = 0.0  # the sum of the children's ``n`` (UCB1's parent count), kept by the backup
        #: (``expect_draws``) a draw's static value of every card of the pile, for ``mover``
        self.outcomes: dict[int, float] | None = None


@dataclass
class SearchConfig:
    """Knobs of :class:`MCTS`.

    - ``seconds``: wall-clock budget per move (None: no time limit); the search
      stops at ``seconds * safety``, or earlier when the longest iteration so far would
      cross that line, so the whole call stays inside the budget (+10 % at most,
      which at ``medium``'s 10 ms is one long playout).
    - ``iterations``: exact iteration budget (None: no limit); at least one of the two must be set.
    - ``c``: UCT exploration constant (rewards in [0, 1]).
    - ``prior_visits``: virtual visits given to a new edge's heuristic value (0: none).
    - ``cutoff``: stop a playout after this many plies and use the evaluation (None: play to the end).
    - ``eps``: share of uniformly random actions in the default policy.
    - ``margin_weight``: weight of the score-margin bonus in a finished game's reward.
    - ``leaf_weights``: when set, a leaf left unfinished by the playout is valued by the
      fitted margin evaluation of the expectimax search with these weights
      (:func:`~game.roseking.ai.evaluation.fitted_value`, points turned into a winning chance by
      :func:`~game.roseking.ai.evaluation.win_chance`) instead of the logistic evaluation.
    - ``reuse``: a player keeps the subtree of the position it meets next (tree reuse,
      :func:`find_subtree`) instead of starting every search afresh.
    - ``implicit``: weight of the implicit minimax value in selection (0: plain UCT): every
      new edge is valued by the evaluation, those values are backed up the tree by
      max (decision nodes) and mean (chance nodes), and an edge's value in UCB1 is
      ``(1 - implicit) * w / n + implicit * v`` (Lanctot et al., "Monte Carlo tree search with
      heuristic evaluations using implicit minimax backups", 2014).
    - ``implicit_weights``: when set, the implicit values come from the fitted margin evaluation
      with these weights (as ``leaf_weights``) instead of the logistic evaluation.
    - ``expand_all`` (needs ``implicit``): the first time a decision node must choose, all its
      children are made at once, each valued by the evaluation, so the node's implicit value is
      the true maximum over its actions; an unvisited child counts in UCB1 as one visit of its
      implicit value (best-first: weak actions wait until the strong ones disappoint).
    - ``expect_draws`` (needs ``implicit``): a new draw's implicit value is the mean of the
      evaluation over *every* card of the draw pile, not of the one card sampled, and a chance
      node's backed-up value counts each card not yet searched at that static value (an
      expectimax backup over the whole pile instead of the mean over the cards seen).
    - ``draw_widening`` (0: off): double progressive widening at chance nodes (Couëtoux et al.,
      "Continuous upper confidence trees", 2011): an iteration passing a draw that ``n``
      iterations passed before samples a card of the pile (a new one joins the tree) only while
      the draw holds fewer than ``draw_widening * sqrt(n + 1)`` cards, and otherwise one of the
      cards it holds, uniformly (the pile's cards are equally likely), so a draw holds at most
      ``1 + draw_widening * sqrt(n)`` cards and each is searched deeper.
    - ``rollout_mix`` (0: off; needs ``cutoff``): a playout that reaches the cutoff unfinished
      takes the evaluation there and then plays on to the end of the game; the leaf's value is
      ``(1 - rollout_mix) * evaluation + rollout_mix * result``, the mixed leaf value of AlphaGo
      (Silver et al., "Mastering the game of Go with deep neural networks and tree search", 2016,
      mixing parameter lambda): the evaluation's bias and the playout's noise, each tempered by
      the other. 1 values a leaf exactly as ``cutoff`` None does (the same random numbers).
    """

    seconds: float | None = 1.0
    iterations: int | None = None
    c: float = 0.6
    prior_visits: float = 0.0
    cutoff: int | None = 8
    eps: float = 0.1
    margin_weight: float = 0.1
    safety: float = 0.95
    leaf_weights: tuple[tuple[float, ...], ...] | None = None
    reuse: bool = False
    implicit: float = 0.0
    implicit_weights: tuple[tuple[float, ...], ...] | None = None
    expand_all: bool = False
    expect_draws: bool = False
    draw_widening: float = 0.0
    rollout_mix: float = 0.0


@dataclass
class SearchResult:
    """What a search found: the action, and figures for benches and hints."""

    action: int
    iterations: int
    seconds: float
    visits: dict[int, float]
    value: float  # the chosen action's mean reward for the mover, 0..1
    depth: int = 0  # plies of the most visited line (a draw and its card count as one ply)
    reused: float = 0.0  # visits the root brought from an earlier search (tree reuse)


class MCTS:
    """MCTS with chance nodes over the raw kernel (see the module docstring)."""

    def __init__(self, config: SearchConfig, rng: Random) -> None:
        if config.seconds is None and config.iterations is None:
            raise ValueError("a search needs a budget: seconds or iterations")
        self.cfg = config
        self.rng = rng
        self.root: _Node | None = None

    # ---------------------------------------------------------------- values
    def _terminal_value_red(self, st: list[int]) -> float:
        win = K.winner_value(st, 0)
        mw = self.cfg.margin_weight
        return (1.0 - mw) * win + mw * _sigmoid(K.final_margin(st) / 20.0)

    def _value_red(self, st: list[int]) -> float:
        """Reward of a leaf for Red: a playout to the end (or to the cutoff, then the evaluation)."""
        cfg = self.cfg
        if cfg.cutoff is None:
            K.playout(st, self.rng, cfg.eps)
        else:
            K.playout(st, self.rng, cfg.eps, max_plies=cfg.cutoff)
            if not st[K.OVER]:
                if cfg.leaf_weights is not None:
                    value = win_chance(fitted_value(st, 0, cfg.leaf_weights))
                else:
                    value = _sigmoid(K.evaluate(st, 0))
                mix = cfg.rollout_mix
                if not mix:
                    return value
                K.playout(st, self.rng, cfg.eps)  # on to the end: the same random numbers as one playout
                return (1.0 - mix) * value + mix * self._terminal_value_red(st)
        return self._terminal_value_red(st)

    def _prior(self, st: list[int], mover: int) -> float:
        if st[K.OVER]:
            v = self._terminal_value_red(st)
            return v if mover == 0 else 1.0 - v
        return _sigmoid(K.evaluate(st, mover))

    def _implicit_value(self, st: list[int], mover: int) -> float:
        """A new edge's implicit minimax value for ``mover`` (the evaluation, or the result)."""
        wts = self.cfg.implicit_weights
        if wts is None or st[K.OVER]:
            return self._prior(st, mover)
        return win_chance(fitted_value(st, mover, wts))

    def _value_edge(self, child: _Node, st: list[int], mover: int,
                    outcomes: dict[int, float] | None = None) -> None:
        """Give a new edge (made by :func:`_child`; ``st`` the position after it) its implicit
        value; a chance node's one sampled outcome gets the same. ``outcomes``
        (``expect_draws``; from :meth:`_card_values`): a draw is valued by their mean, and its
        sampled card by its own."""
        if outcomes is not None:
            child.outcomes = outcomes
            child.v = sum(outcomes.values()) / len(outcomes)
            card, first = next(iter(child.children.items()))
            first.v = outcomes[card]
            return
        child.v = self._implicit_value(st, mover)
        if child.chance:
            next(iter(child.children.values())).v = child.v

    def _card_values(self, st: list[int], mover: int) -> dict[int, float]:
        """The implicit value for ``mover`` of drawing each card of the draw pile in ``st``
        (the position before the draw; not modified), by card index (``expect_draws``)."""
        wts = self.cfg.implicit_weights
        if wts is not None:
            points = fitted_draw_values(st, wts)
            if points is not None:
                return {card: win_chance(v) for card, v in points.items()}
        out = {}
        for card in K.cards_in(st[K.PILE]):
            s2 = st[:]
            K.apply(s2, K.DRAW_ACTION, card)
            out[card] = self._implicit_value(s2, mover)
        return out

    def _expand_all(self, node: _Node, st: list[int]) -> None:
        """Make every child of the decision node ``node`` (position ``st``, not modified),
        each with its implicit value; a draw gets a chance node with one sampled card."""
        mover = st[K.TURN]
        node.untried = []
        rng = self.rng
        for a in self._expand_order(st):
            s2 = st[:]
            child = _child(s2, a, mover, rng)
            self._value_edge(child, s2, mover)
            node.children[a] = child

    def _expand_order(self, st: list[int]) -> list[int]:
        """Untried actions in a random order (the search's ``rng``), to be popped from the end."""
        acts = K.legal_actions(st)
        self.rng.shuffle(acts)
        return acts

    # ---------------------------------------------------------------- search
    def search(self, root_state: list[int], stop: Callable[[], bool] | None = None,
               root: _Node | None = None, start: float | None = None) -> SearchResult:
        """Search from ``root_state`` (not modified). Raises ValueError if the game is over.

        ``stop``: optional callable polled every 16 iterations; when it returns True the
        search ends early and answers with what it has (used to cancel a thinker).
        ``root``: a tree kept from an earlier search whose root is ``root_state`` (see
        :func:`find_subtree`); its statistics count as if this search had gathered them,
        and the iteration budget counts only the new iterations. The tree searched is in
        ``self.root`` afterwards. ``start``: the ``time.perf_counter()`` at which the budget
        began (default: now), so that work before the search (finding the kept tree) counts.
        """
        if start is None:
            start = time.perf_counter()
        cfg = self.cfg
        acts = K.legal_actions(root_state)
        if not acts:
            raise ValueError("no legal action: the game is over")
        if len(acts) == 1:
            self.root = None
            return SearchResult(acts[0], 0, time.perf_counter() - start, {acts[0]: 0.0}, 0.5)
        deadline = None if cfg.seconds is None else start + cfg.seconds * cfg.safety
        max_iter = cfg.iterations
        if root is None or root.chance:  # (a chance node is never a position: start afresh)
            root = _Node(-1)
        expect = cfg.expect_draws and cfg.implicit > 0
        expand_all = cfg.expand_all and cfg.implicit > 0
        if root.untried is None and not expand_all:
            root.untried = self._expand_order(root_state)
        self.root = root
        reused = sum(ch.n for ch in root.children.values())
        rng = self.rng
        c = cfg.c
        pv = cfg.prior_visits
        alpha = cfg.implicit
        beta = 1.0 - alpha
        it = 0
        perf = time.perf_counter
        # locals for the hot loop (a module attribute costs a look-up per use)
        apply = K.apply
        nth_bit = K.nth_bit
        getrandbits = rng.getrandbits
        log = math.log
        sqrt = math.sqrt
        value_red = self._value_red
        rnd = rng.random
        dw = cfg.draw_widening
        t_prev = perf()
        longest = 0.0  # the longest iteration so far (s): the next one may take as long
        while True:
            if max_iter is not None and it >= max_iter:
                break
            if deadline is not None:
                now = perf()
                if now - t_prev > longest:
                    longest = now - t_prev
                t_prev = now
                if now + longest >= deadline:
                    break
            if stop is not None and not it & 15 and stop():
                break
            it += 1
            st = root_state[:]
            node = root
            path = []
            parents = []  # parents[i]: the node whose child path[i] is
            trail = [root]
            while True:
                if st[10]:  # OVER
                    break
                if node.chance:
                    kids = node.children
                    if dw and len(kids) >= dw * sqrt(node.n + 1.0):  # widened enough: a card held
                        cards = list(kids)
                        card = cards[int(rnd() * len(cards))]
                        child = kids[card]
                    else:
                        # K.sample_draw inlined: the same number by the same rejection as
                        # Random.randrange(n) draws it, without its two Python calls
                        pile = st[7]  # PILE
                        size = pile.bit_count()
                        k = size.bit_length()
                        i = getrandbits(k)
                        while i >= size:
                            i = getrandbits(k)
                        card = nth_bit(pile, i)
                        got = kids.get(card)
                        if got is None:
                            got = kids[card] = _Node(node.mover)
                        child = got
                    apply(st, 48, card)  # DRAW_ACTION
                    node = child
                    trail.append(node)
                    continue
                if node.untried is None:
                    if expand_all:
                        self._expand_all(node, st)
                    else:
                        node.untried = self._expand_order(st)
                mover = st[9]  # TURN
                if node.untried:
                    a = node.untried.pop()
                    outcomes = self._card_values(st, mover) if expect and a == 48 else None  # DRAW_ACTION
                    child = _child(st, a, mover, rng)
                    if alpha:
                        self._value_edge(child, st, mover, outcomes)
                    if pv:
                        child.n = pv
                        child.w = pv * self._prior(st, mover)
                        node.total += pv
                    node.children[a] = child
                    parents.append(node)
                    path.append(child)
                    break
                # UCB1 selection
                log_n = log(node.total + 1.0)
                best = None
                best_u = -1.0
                best_a = -1
                if alpha:
                    for a, ch in node.children.items():
                        n = ch.n
                        v = ch.v
                        assert v is not None  # (implicit: every edge got its value when made)
                        if n:
                            u = beta * ch.w / n + alpha * v + c * sqrt(log_n / n)
                        else:  # (expand_all) not visited yet: one virtual visit of its implicit value
                            u = v + c * sqrt(log_n)
                        if u > best_u:
                            best_u, best, best_a = u, ch, a
                else:
                    for a, ch in node.children.items():
                        u = ch.w / ch.n + c * sqrt(log_n / ch.n)
                        if u > best_u:
                            best_u, best, best_a = u, ch, a
                assert best is not None
                parents.append(node)
                node = best
                path.append(node)
                trail.append(node)
                if node.n == 0:  # (expand_all) made with its siblings, reached for the first time: a leaf
                    if node.chance:  # with the card its implicit value was taken with
                        card, sub = next(iter(node.children.items()))
                        apply(st, 48, card)  # DRAW_ACTION
                        trail.append(sub)
                    else:
                        apply(st, best_a)
                    break
                if not node.chance:
                    apply(st, best_a)
            v_red = value_red(st) if not st[10] else self._terminal_value_red(st)  # OVER
            if alpha:
                _backup_implicit(trail, st, not expand_all)
            for nd in parents:
                nd.total += 1.0
            for nd in path:
                nd.n += 1.0
                nd.w += v_red if nd.mover == 0 else 1.0 - v_red
        visits = {a: ch.n for a, ch in root.children.items()}
        if not visits:  # budget too small for even one iteration: fall back to the prior order
            a = root.untried[-1] if root.untried else acts[0]
            return SearchResult(a, it, time.perf_counter() - start, {}, 0.5)
        best_a = max(root.children, key=lambda a: (root.children[a].n, root.children[a].w))
        ch = root.children[best_a]
        return SearchResult(best_a, it, time.perf_counter() - start, visits, ch.w / ch.n,
                            principal_depth(root), reused)


def _child(st: list[int], a: int, mover: int, rng: Random) -> _Node:
    """A new edge for action ``a`` of ``mover``, applied to ``st`` in place; a draw becomes a
    chance node holding the one card sampled for it (with ``rng``) as its first outcome."""
    if a == K.DRAW_ACTION:
        child = _Node(mover, chance=True)
        card = K.sample_draw(st, rng)
        K.apply(st, a, card)
        child.children[card] = _Node(mover)
        return child
    K.apply(st, a)
    return _Node(mover)


def _backup_implicit(trail: list[_Node], last: list[int], stop_early: bool = True) -> None:
    """Recompute the implicit minimax values along ``trail`` (root first), bottom up.

    A decision node's value for its mover is the best child value for the player to move
    there (turned around when that is the other player); a chance node's is the mean of
    its outcomes'. ``last``: the state reached at the end of the trail (valued if it is a
    finished game that has no value yet).

    ``stop_early``: stop at the first node whose value did not change. Exact when the
    iteration changed the children of the trail's last decision node only (so not with
    ``expand_all``, which makes a node's children while passing it): every earlier
    iteration left its trail holding its children's values, so nothing above can change.
    """
    end = trail[-1]
    if end.v is None and not end.children and last[K.OVER]:
        red = K.winner_value(last, 0)
        end.v = red if end.mover == 0 else 1.0 - red
    for nd in reversed(trail):
        kids = nd.children
        if not kids or nd.mover < 0:
            continue
        old = nd.v
        if nd.outcomes is not None:  # every card: searched ones by their value, the rest statically
            total = 0.0
            for card, static in nd.outcomes.items():
                ch = kids.get(card)
                total += static if ch is None or ch.v is None else ch.v
            nd.v = total / len(nd.outcomes)
        elif nd.chance:
            total = 0.0
            k = 0
            for ch in kids.values():
                if ch.v is not None:
                    total += ch.v
                    k += 1
            if k:
                nd.v = total / k
        else:
            best = -1.0
            to_move = -1
            for ch in kids.values():
                if ch.v is not None and ch.v > best:
                    best = ch.v
                    to_move = ch.mover
            if to_move >= 0:
                nd.v = best if to_move == nd.mover else 1.0 - best
        if stop_early and nd.v == old and old is not None:
            return


def principal_depth(root: _Node) -> int:
    """Plies of the most visited line from ``root`` (a chance node follows its most visited
    outcome; a draw and its card count as one ply)."""
    depth = 0
    node = root
    while node.children:
        if node.chance:
            node = max(node.children.values(), key=lambda ch: sum(k.n for k in ch.children.values()))
            continue
        node = max(node.children.values(), key=lambda ch: ch.n)
        depth += 1
    return depth


def find_subtree(root: _Node, root_state: list[int], target: list[int], max_plies: int = 6) -> _Node | None:
    """The node of the tree ``root`` (searched from ``root_state``) whose position is ``target``.

    Looks at most ``max_plies`` levels deep (a draw and its card are one level each); compares
    whole kernel states, so a pass or a draw between the two positions is followed like any
    action, and follows only nodes whose stones all stand in ``target`` (stones are never
    taken off the board). None if the position is not in the tree (tree reuse then starts
    afresh). Cost: about 0.1 ms a move on average (``bench/ai.py``).
    """
    if root_state == target:
        return root
    outside = ~(target[K.S0] | target[K.S1])  # a stone once placed stays (a hero flips it): prune the rest
    frontier = [(root, root_state)]
    for _ in range(max_plies):
        nxt = []
        for node, st in frontier:
            if node.chance:
                for card, child in node.children.items():
                    s2 = st[:]
                    K.apply(s2, K.DRAW_ACTION, card)
                    if s2 == target:
                        return child
                    nxt.append((child, s2))
                continue
            for a, child in node.children.items():
                if child.chance:
                    nxt.append((child, st))  # the draw's card comes at the next level
                    continue
                s2 = st[:]
                K.apply(s2, a)
                if s2 == target:
                    return child
                if not (s2[K.S0] | s2[K.S1]) & outside:
                    nxt.append((child, s2))
        frontier = nxt
        if not frontier:
            break
    return None


def search_state(state: State, config: SearchConfig, rng: Random) -> SearchResult:
    """Run :class:`MCTS` on an engine ``State`` (convenience for benches and hints)."""
    return MCTS(config, rng).search(K.from_state(state))
