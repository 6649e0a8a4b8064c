"""A fast uniform-random playout kernel on raw integers (for benchmarks and search).

It follows exactly the rules of :mod:`game.engine.state` (a test replays its
traces through the checked engine move by move) but keeps the position in local
ints and lists and creates no Move objects.

Randomness: the kernel takes 64 bits from the caller's :class:`~game.engine.rng.Rng`
and runs the PCG's underlying 64-bit LCG inline, using its high 32 bits with a
multiply-shift range reduction (bias below 2**-27 for n <= 24). Deterministic for
a given Rng state, on every machine and Python version.
"""

from __future__ import annotations

from .cards import NUM_CARDS, NUM_SQUARES, TARGET
from .rng import Rng
from .state import HAND_LIMIT, TARGET_BIT, TOTAL_STONES, State

_MULT = 6364136223846793005
_INC = 1442695040888963407
_MASK64 = (1 << 64) - 1
#: Per crown square: tuple of 24 (target bit or 0) and tuple of 24 target squares.
_TB_ROW = tuple(TARGET_BIT[sq * NUM_CARDS:(sq + 1) * NUM_CARDS] for sq in range(NUM_SQUARES))
_TG_ROW = tuple(TARGET[sq * NUM_CARDS:(sq + 1) * NUM_CARDS] for sq in range(NUM_SQUARES))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def random_playout(state: State, rng: Rng, trace: list | None = None) -> tuple[int, int, int]:
    """Play ``state`` (left unchanged) to the end with uniformly random legal actions.

    Each legal action (a play or hero per card, one draw) is equally likely; a
    draw's card is uniform over the draw pile (the chance outcome). Returns
    ``(red_stones_mask, white_stones_mask, plies)`` of the final position; score
    them with :func:`game.engine.score_of`. If ``trace`` is a list, the
    ``(kind, card_index)`` pairs played are appended (kind 0 play, 1 hero, 2 draw).
    """
    if state.termination is not None:
        return state.stones[0], state.stones[1], 0
    st = state.stones[:]
    hands = [_bits(state.hands[0]), _bits(state.hands[1])]
    heroes = state.heroes[:]
    crown = state.crown
    draw = _bits(state.draw_pile)
    discard = _bits(state.discard_pile)
    p = int(state.turn)
    placed = (st[0] | st[1]).bit_count()
    x = ((rng.next_u32() << 32) | rng.next_u32()) | 1
    plies = 0
    tbr = _TB_ROW
    tgr = _TG_ROW
    while True:
        hand = hands[p]
        occ = st[0] | st[1]
        opp = st[1 - p] if heroes[p] else 0
        row = tbr[crown]
        cand = [c for c in hand if (b := row[c]) and (not occ & b or opp & b)]
        n = len(cand)
        options = n + 1 if len(hand) < HAND_LIMIT else n
        x = (x * _MULT + _INC) & _MASK64
        r = ((x >> 32) * options) >> 32
        plies += 1
        if r == n:  # draw: the chance outcome is uniform over the draw pile
            x = (x * _MULT + _INC) & _MASK64
            k = ((x >> 32) * len(draw)) >> 32
            c = draw[k]
            draw[k] = draw[-1]
            draw.pop()
            hand.append(c)
            if not draw:  # ruling 5: eager reshuffle
                draw, discard = discard, []
            if trace is not None:
                trace.append((2, c))
        else:
            c = cand[r]
            b = row[c]
            hand.remove(c)
            discard.append(c)
            crown = tgr[crown][c]
            if occ & b:
                st[1 - p] ^= b
                st[p] |= b
                heroes[p] -= 1
                if trace is not None:
                    trace.append((1, c))
            else:
                st[p] |= b
                placed += 1
                if trace is not None:
                    trace.append((0, c))
                if placed == TOTAL_STONES:
                    return st[0], st[1], plies
        # ruling 6/7: the opponent moves if they can, else the mover again, else the game ends
        o = 1 - p
        if len(hands[o]) < HAND_LIMIT:
            p = o
            continue
        occ = st[0] | st[1]
        row = tbr[crown]
        opp = st[p] if heroes[o] else 0
        if any((b := row[c]) and (not occ & b or opp & b) for c in hands[o]):
            p = o
            continue
        if len(hands[p]) < HAND_LIMIT:
            continue
        opp = st[o] if heroes[p] else 0
        if any((b := row[c]) and (not occ & b or opp & b) for c in hands[p]):
            continue
        return st[0], st[1], plies
