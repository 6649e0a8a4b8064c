"""The computer-player interface and the six levels.

A player chooses an *action*; it never chooses a draw's card. For a draw it
returns ``Move(color, DRAW, None)`` and whoever runs the game supplies the card
as a chance outcome (local :class:`~game.roseking.engine.Rng`, the network's joint coin,
or a record). Players therefore reason only over what a player can see.

Levels (:data:`LEVELS`, friendlier names in :data:`LEVEL_LABELS`):

- ``random``: a uniformly random legal action.
- ``greedy``: the best immediate score difference.
- ``easy``: looks one action ahead with the heuristic evaluation (a draw is
  averaged over its chance outcomes) and picks among the good actions with some
  randomness, like a casual player; it never picks an action far worse than its best.
- ``medium``: MCTS with chance nodes and short smart playouts valued by a fitted evaluation
  (:mod:`game.roseking.ai.mcts`), at a hundredth of the budget (0.01 s per move by default).
- ``hard``: that MCTS with tree reuse and implicit minimax backups of the fitted margin
  evaluation (:data:`LEVEL_MCTS`), at the budget (1 s per move by default).
- ``expert``: the MCTS of ``hard`` with playouts to the end of the game (:data:`EXPERT_MCTS`),
  at three times the budget (3 s per move by default).

Baselines for measuring (``rose-king match``, benches), never offered in the window, are in
:mod:`game.roseking.ai.baselines`; :func:`~game.roseking.ai.levels.make_player` makes any of
them by name (with a budget suffix ``@SECONDS``: ``hard@0.25``).
The measurements behind these choices are in ``docs/ai.md``.
"""

from __future__ import annotations

import math
import threading
import time
from random import Random
from typing import Any, Callable, Protocol

from game.roseking.engine import DRAW, Move, Rng, State, score_of

import game.roseking.ai.kernel as K
from .evaluation import EVAL_WEIGHTS
from .mcts import MCTS, SearchConfig, SearchResult, _Node, find_subtree

#: Default thinking time of the search levels, seconds per move.
DEFAULT_SECONDS = 1.0


class Player(Protocol):
    """Anything with ``choose(state) -> Move`` returning one of ``state.legal_moves()``."""

    name: str

    def choose(self, state: State) -> Move: ...


class RandomPlayer:
    """Uniformly random legal action (a draw counts as one action)."""

    name = "random"

    def __init__(self, seed: int | None = None, **_budget: object) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State) -> Move:
        return self.rng.choice(state.legal_moves())


class GreedyPlayer:
    """The action with the best immediate score difference (mover minus opponent).

    A draw keeps the current difference. Ties are broken at random with its own Rng.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, **_budget: object) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State) -> Move:
        moves = state.legal_moves()
        p = state.turn
        best: list[Move] = []
        best_value = None
        base = score_of(state.stones[p]) - score_of(state.stones[1 - p])
        for m in moves:
            if m.kind is DRAW:
                value = base
            else:
                state.push(m)
                value = score_of(state.stones[p]) - score_of(state.stones[1 - p])
                state.pop()
            if best_value is None or value > best_value:
                best, best_value = [m], value
            elif value == best_value:
                best.append(m)
        return self.rng.choice(best)


def action_values(st: list[int]) -> dict[int, float]:
    """One-ply heuristic value of each legal action for the mover, as a logit (see ``kernel.evaluate``).

    A play or hero action is valued by :func:`~game.roseking.ai.kernel.evaluate` of the
    position after it; a draw by the mean over every card the draw can bring
    (its chance outcomes, ruling 5). ``st`` is a raw kernel position; not modified.
    """
    p = st[K.TURN]
    out = {}
    for a in K.legal_actions(st):
        if a == K.DRAW_ACTION:
            pile = st[K.PILE]
            total = 0.0
            n = 0
            while pile:
                low = pile & -pile
                pile ^= low
                s2 = st[:]
                K.apply(s2, a, low.bit_length() - 1)
                total += K.evaluate(s2, p)
                n += 1
            out[a] = total / n
        else:
            s2 = st[:]
            K.apply(s2, a)
            out[a] = K.evaluate(s2, p)
    return out


class EasyPlayer:
    """A casual player: one action of look-ahead with the evaluation, chosen with some randomness.

    Actions whose value (a logit, see :func:`action_values`) is within ``window`` of the best are kept (so it never
    makes an absurd move); one of them is drawn with probability proportional
    to ``exp(value / temperature)``. Budget arguments are accepted and ignored
    (it is instant).
    """

    name = "easy"

    def __init__(self, seed: int | None = None, temperature: float = 0.25, window: float = 0.8,
                 **_budget: object) -> None:
        self.rng = Rng(seed)
        self.temperature = temperature
        self.window = window

    def choose(self, state: State) -> Move:
        st = K.from_state(state)
        values = action_values(st)
        if not values:
            raise ValueError("no legal move: the game is over")
        top = max(values.values())
        keep = sorted((a, v) for a, v in values.items() if v >= top - self.window)
        weights = [math.exp((v - top) / self.temperature) for _, v in keep]
        x = self.rng.random() * sum(weights)
        for (a, _), wgt in zip(keep, weights):
            x -= wgt
            if x < 0:
                break
        return K.to_move(st[K.TURN], a)


class SearchPlayer:
    """A player that runs :class:`~game.roseking.ai.mcts.MCTS` for each choice.

    ``seconds``: wall-clock budget per move (default 1.0; None for none);
    ``iterations``: exact iteration budget (None for none), which makes a choice
    reproducible from ``seed`` regardless of the machine's speed. Each choice
    seeds the search from the player's own :class:`~game.roseking.engine.Rng`, so a player
    built with the same seed makes the same sequence of choices given the same
    positions and the same iteration counts. With ``reuse`` (:data:`LEVEL_MCTS` of ``hard``)
    the player keeps the subtree under its chosen action and starts its next search from the
    node of the position it is then given, if that node is in it (the time spent finding it
    counts in the budget); any other position (an undo, a new game) starts afresh. ``last``
    holds the last :class:`~game.roseking.ai.mcts.SearchResult` (figures for benches and hints).
    """

    name = "search"
    #: :class:`~game.roseking.ai.mcts.SearchConfig` fields of this player besides the budget
    #: (keyword arguments override them).
    level_config: dict[str, Any] = {}

    def __init__(self, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS,
                 iterations: int | None = None, **knobs: Any) -> None:
        self.rng = Rng(seed)
        self.config = SearchConfig(seconds=seconds, iterations=iterations, **{**self.level_config, **knobs})
        self.last: SearchResult | None = None
        #: Optional callable polled during a search; returning True ends it early (see ProcessThinker).
        self.stop: Callable[[], bool] | None = None
        self._tree: tuple[_Node, list[int]] | None = None  # (root node, its kernel state) for reuse

    def choose(self, state: State) -> Move:
        start = time.perf_counter()
        st = K.from_state(state)
        search = MCTS(self.config, Random(self.rng.next_u32()))
        root = None
        if self.config.reuse and self._tree is not None:
            root = find_subtree(self._tree[0], self._tree[1], st)
        self.last = search.search(st, self.stop, root, start)
        if self.config.reuse and search.root is not None:  # (a forced move keeps the last tree)
            # keep only the subtree under the chosen action: the rest can never come back
            chosen = search.root.children.get(self.last.action)
            if chosen is None:
                self._tree = None
            elif chosen.chance:  # its children are the cards the draw may bring, from this state
                self._tree = (chosen, st)
            else:
                after = st[:]
                K.apply(after, self.last.action)
                self._tree = (chosen, after)
        return K.to_move(st[K.TURN], self.last.action)


#: The MCTS of the ``hard`` and ``expert`` levels: :class:`~game.roseking.ai.mcts.SearchConfig`
#: fields besides the budget (the measurements are in ``docs/ai.md``): the tree is kept
#: from one move to the next, and selection mixes in implicit minimax values of the evaluation.
LEVEL_MCTS: dict[str, Any] = {"reuse": True, "implicit": 0.5, "implicit_weights": EVAL_WEIGHTS}

#: The implicit weight of ``hard`` and ``expert`` for a short budget: a search of
#: under :data:`SHORT_SECONDS` per move, or under :data:`SHORT_ITERATIONS` iterations when it has
#: no time limit, leans more on the evaluation, for its tree is too young for the playouts to
#: have the last word. Measured at 0.25 s per move: 0.7 beat 0.5 by 40-25 at equal iterations
#: (against the ``hard`` of before the rules kernel it then scored as 0.5 had, 53.5 % over 200 games);
#: at 1 s, 17-15 (no measurable difference), so 1 s and more keep the measured 0.5 (``docs/ai.md``).
SHORT_IMPLICIT = 0.7
#: The draw widening of ``hard`` and ``expert`` for a short budget (
#: :class:`~game.roseking.ai.mcts.SearchConfig` ``draw_widening``): a young tree searches fewer
#: cards of a draw, each deeper. Measured at 0.25 s per move: 35-25 over the same search without
#: it, and 120-80 over 200 games against the ``hard`` of before the rules kernel at 1 s (107-93 without
#: it; ``docs/ai.md``); at 1 s it showed no effect (25-25 over 50 paired games), so 1 s and more keep none.
SHORT_DRAW_WIDENING = 0.5
#: A budget under this many seconds per move is short (the default budget is not).
SHORT_SECONDS = 1.0
#: An iteration budget under this count is short: about one second of ``hard`` on the reference
#: machine (``bench/ai_calibrate.py``).
SHORT_ITERATIONS = 15000


def level_knobs(seconds: float | None, iterations: int | None) -> dict[str, float]:
    """The :class:`~game.roseking.ai.mcts.SearchConfig` fields of ``hard``/``expert`` that follow
    the budget: for a short one (under :data:`SHORT_SECONDS` seconds, or with no time limit under
    :data:`SHORT_ITERATIONS` iterations) ``implicit`` :data:`SHORT_IMPLICIT` and
    ``draw_widening`` :data:`SHORT_DRAW_WIDENING`, else ``LEVEL_MCTS["implicit"]`` and no
    widening. ``seconds`` per move and ``iterations`` as in :class:`SearchPlayer` (at least one set)."""
    if seconds is not None:
        short = seconds < SHORT_SECONDS
    else:
        short = iterations is not None and iterations < SHORT_ITERATIONS
    if short:
        return {"implicit": SHORT_IMPLICIT, "draw_widening": SHORT_DRAW_WIDENING}
    return {"implicit": LEVEL_MCTS["implicit"], "draw_widening": 0.0}


class HardPlayer(SearchPlayer):
    """The ``hard`` level: the MCTS of :data:`LEVEL_MCTS` at the full budget (default 1 s per
    move), with the implicit weight and draw widening of :func:`level_knobs` for that budget
    unless a knob says otherwise."""

    name = "hard"
    level_config = LEVEL_MCTS

    def __init__(self, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS,
                 iterations: int | None = None, **knobs: Any) -> None:
        knobs = {**level_knobs(seconds, iterations), **knobs}
        super().__init__(seed, seconds, iterations, **knobs)


#: The MCTS of the ``expert`` level: that of ``hard``, but a leaf is
#: valued by a playout to the end of the game (``cutoff`` None) instead of 8 plies and the
#: evaluation: a costlier judgement (about 0.4 times the iterations a second) that ``hard`` cannot
#: afford in its one second. Three seconds of hard's own search chose as ``hard`` in 95 % of sampled
#: positions and won 24 of 46 games against it; this search won its screening, 27 of 40 (20
#: duplicate pairs) at equal time. Its figure against ``hard``: ``docs/ai.md``, "A judgement of its own".
EXPERT_MCTS: dict[str, Any] = {**LEVEL_MCTS, "cutoff": None}


class ExpertPlayer(HardPlayer):
    """The ``expert`` level: the MCTS of :data:`EXPERT_MCTS` (``hard``'s, with playouts to the end
    of the game) at three times the budget (default 3 s per move; an iteration budget is also
    tripled: ``expert#6000`` in ``bench/ai_strength.py``, 18,000 iterations, is the calibrated
    3 s, as ``hard#15000`` is hard's second)."""

    name = "expert"
    level_config = EXPERT_MCTS

    def __init__(self, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS,
                 iterations: int | None = None, **knobs: Any) -> None:
        super().__init__(seed, None if seconds is None else seconds * 3,
                         None if iterations is None else iterations * 3, **knobs)


#: ``medium`` thinks this share of the budget (a hundredth: 0.01 s per move by default).
MEDIUM_SHARE = 100


class MediumPlayer(SearchPlayer):
    """The ``medium`` level: the plain MCTS (that of ``mcts-2025``: no tree reuse, plain UCT) with a
    hundredth of the budget (:data:`MEDIUM_SHARE`; ``iterations`` is divided the same way, at
    least 1). With :data:`LEVEL_MCTS` it played about as well as ``hard`` (the search's extra
    time changes few choices), so it keeps the plainer search. At a tenth of the budget ``hard``
    won only 62 % of 85 games against it, so it thinks a hundredth: a step above ``easy`` and
    one below ``hard`` (``docs/ai.md``)."""

    name = "medium"

    def __init__(self, seed: int | None = None, seconds: float | None = DEFAULT_SECONDS,
                 iterations: int | None = None, **knobs: Any) -> None:
        super().__init__(seed, None if seconds is None else seconds / MEDIUM_SHARE,
                         None if iterations is None else max(1, iterations // MEDIUM_SHARE), **knobs)


#: Level name -> factory(seed, seconds=..., iterations=...).
LEVELS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "easy": EasyPlayer,
    "medium": MediumPlayer,
    "hard": HardPlayer,
    "expert": ExpertPlayer,
}

#: Level name -> English label for menus. Translate at display time: ``_(LEVEL_LABELS[level])``.
LEVEL_LABELS: dict[str, str] = {
    "random": "Random",
    "greedy": "Greedy",
    "easy": "Easy",
    "medium": "Medium",
    "hard": "Hard",
    "expert": "Expert",
}


class Thinker:
    """Runs a player's choice off the caller's thread so a frame loop never waits.

    ``start(state)`` begins thinking on a copy; ``poll()`` returns the move once
    ready (else None); ``cancel()`` forgets a pending result. Errors inside the
    player are re-raised by ``poll``.

    A thread shares the interpreter lock with the frame loop: fine for the
    instant levels, but use :class:`game.roseking.ai.process.ProcessThinker` (or
    :func:`game.roseking.ai.process.make_thinker`) for the search levels.
    """

    def __init__(self, player: Player) -> None:
        self.player = player
        self._lock = threading.Lock()
        self._result: Move | None = None
        self._error: BaseException | None = None
        self._token = 0

    def start(self, state: State) -> None:
        with self._lock:
            self._token += 1
            token = self._token
            self._result = None
            self._error = None
        snapshot = state.copy(stack=False)

        def work() -> None:
            try:
                move = self.player.choose(snapshot)
                err = None
            except BaseException as e:  # handed to poll()
                move, err = None, e
            with self._lock:
                if token == self._token:
                    self._result, self._error = move, err

        threading.Thread(target=work, name="rose-king-thinker", daemon=True).start()

    def poll(self) -> Move | None:
        with self._lock:
            if self._error is not None:
                err, self._error = self._error, None
                raise err
            move, self._result = self._result, None
            return move

    def cancel(self) -> None:
        with self._lock:
            self._token += 1
            self._result = None
            self._error = None

    def close(self) -> None:
        self.cancel()
