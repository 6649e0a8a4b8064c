"""A plain depth-limited alpha-beta searcher: the ``alphabeta`` sparring level.

It reproduces a public Rose King AI, so that our levels can be measured against it
in ``rose-king match`` (``alphabeta``, ``alphabeta7`` or ``alphabeta:7``); it is a
baseline, not a level offered in the window. Exactly as that searcher:

- minimax with alpha-beta pruning to a fixed depth (default 5 plies; a ply is one
  action, and a pass of ruling 6 lets the same player move again, so the node's
  side is read from the position, not from the ply's parity);
- a draw is expanded as **one** card sampled from the draw pile's *set* (not a
  chance node over every card; the pile's order does not exist in the engine);
- the leaves are valued from the searching player's view as
  ``(own score - opponent's score) + 30 * (own hero cards left - opponent's)``,
  and a finished game as +1,000,000 (won), -1,000,000 (lost), 0 (drawn), with
  every tie-break of ruling 8;
- no move ordering (the kernel's action order: plays and heroes by card, then
  the draw; the first of equal values wins), no transposition table, no
  iterative deepening.

The sampled card of a draw is a pure function of the position and a salt drawn
once per choice from the player's seed (:class:`DrawSampler`), so a brute-force
minimax given the same sampler values the same tree (the tests check that the
pruning changes nothing).
"""

from __future__ import annotations

from typing import Callable

from game.roseking.engine import Move, Rng, State, decide, score_of

import game.roseking.ai.kernel as K

WIN = 1_000_000
HERO_WEIGHT = 30
DEFAULT_DEPTH = 5


class DrawSampler:
    """The single card a draw brings inside the alpha-beta tree: uniform over the draw pile set.

    ``salt``: a 64-bit int (drawn from the player's seed once per choice). The card is
    ``nth_bit(pile, h % n)`` with ``h`` a hash of the raw position and the salt, so it
    depends only on what both players see, never on an order of the pile.
    """

    __slots__ = ("salt",)

    def __init__(self, salt: int) -> None:
        self.salt = salt

    def __call__(self, st: list[int]) -> int:
        pile = st[K.PILE]
        h = hash((self.salt, st[K.S0], st[K.S1], st[K.CROWN], st[K.H0], st[K.H1], st[K.TURN], pile))
        return K.nth_bit(pile, (h & 0xFFFFFFFF) % pile.bit_count())


def leaf_value(st: list[int], me: int) -> int:
    """The baseline's evaluation of ``st`` for player ``me`` (0 red, 1 white); see the module docstring."""
    if st[K.OVER]:
        w, _ = decide(st[K.S0], st[K.S1])
        if w is None:
            return 0
        return WIN if int(w) == me else -WIN
    return (score_of(st[K.S0 + me]) - score_of(st[K.S1 - me])
            + HERO_WEIGHT * (st[K.HE0 + me] - st[K.HE1 - me]))


def alphabeta(st: list[int], depth: int, alpha: float, beta: float, me: int,
              sample: Callable[[list[int]], int], counter: list[int] | None = None) -> float:
    """Minimax value of ``st`` for ``me`` to ``depth`` plies, with alpha-beta pruning.

    ``st``: a raw kernel position (not modified); ``sample``: the card a draw brings
    (see :class:`DrawSampler`); ``counter``: if given, ``counter[0]`` counts the nodes visited.
    """
    if counter is not None:
        counter[0] += 1
    if depth == 0 or st[K.OVER]:
        return leaf_value(st, me)
    maximize = st[K.TURN] == me
    for a in K.legal_actions(st):
        child = st[:]
        K.apply(child, a, sample(child) if a == K.DRAW_ACTION else -1)
        v = alphabeta(child, depth - 1, alpha, beta, me, sample, counter)
        if maximize:
            if v > alpha:
                alpha = v
        elif v < beta:
            beta = v
        if alpha >= beta:
            break
    return alpha if maximize else beta


def best_action(st: list[int], depth: int, sample: Callable[[list[int]], int],
                counter: list[int] | None = None) -> tuple[int, float]:
    """The root decision: ``(action, value)`` of the first action with the best minimax value.

    Raises ValueError if the game is over.
    """
    acts = K.legal_actions(st)
    if not acts:
        raise ValueError("no legal action: the game is over")
    me = st[K.TURN]
    best_a, best_v = acts[0], -float("inf")
    alpha = -float("inf")
    for a in acts:
        child = st[:]
        K.apply(child, a, sample(child) if a == K.DRAW_ACTION else -1)
        v = alphabeta(child, depth - 1, alpha, float("inf"), me, sample, counter)
        if v > best_v:
            best_a, best_v = a, v
            alpha = v
    return best_a, best_v


class AlphaBetaPlayer:
    """The ``alphabeta`` baseline level: fixed-depth alpha-beta (see the module docstring).

    ``depth``: plies searched (default 5). Budget arguments are accepted and ignored: it
    takes whatever time its depth needs (in this engine about a millisecond per move at depth 5
    or 7 on the positions of ``bench/ai.py``: its coarse evaluation ties often, so it prunes a lot).
    ``last_nodes`` holds the nodes visited by the last choice.
    """

    def __init__(self, seed: int | None = None, depth: int = DEFAULT_DEPTH, **_budget: object) -> None:
        if depth < 1:
            raise ValueError(f"alpha-beta depth must be at least 1, got {depth}")
        self.depth = depth
        self.name = "alphabeta" if depth == DEFAULT_DEPTH else f"alphabeta{depth}"
        self.rng = Rng(seed)
        self.last_nodes = 0

    def choose(self, state: State) -> Move:
        st = K.from_state(state)
        sample = DrawSampler((self.rng.next_u32() << 32) | self.rng.next_u32())
        counter = [0]
        a, _ = best_action(st, self.depth, sample, counter)
        self.last_nodes = counter[0]
        return K.to_move(st[K.TURN], a)
