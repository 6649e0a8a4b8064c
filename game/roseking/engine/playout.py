"""A fast uniform-random playout kernel on raw integers (for benchmarks and search).

It follows exactly the rules of :mod:`game.roseking.engine.state` (a test replays its
traces through the checked engine move by move) but keeps the position in local
ints and lists, seen from the side to move (``mine``/``theirs``, swapped when the
turn passes), and creates no Move objects.

Randomness: the kernel takes 64 bits from the caller's :class:`~game.rng.Rng`
and runs the PCG's underlying 64-bit LCG inline, using its high 32 bits with a
multiply-shift range reduction (bias below 2**-27 for n <= 24). Deterministic for
a given Rng state, on every machine and Python version.
"""

from __future__ import annotations

from .cards import NUM_CARDS, NUM_SQUARES, TARGET
from game.rng import Rng
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
    them with :func:`game.roseking.engine.score_of`. If ``trace`` is a list, the
    ``(kind, card_index)`` pairs played are appended (kind 0 play, 1 hero, 2 draw).
    """
    if state.termination is not None:
        return state.stones[0], state.stones[1], 0
    p = int(state.turn)  # colour of "mine"
    mine, theirs = state.stones[p], state.stones[1 - p]
    my_hand, their_hand = _bits(state.hands[p]), _bits(state.hands[1 - p])
    my_heroes, their_heroes = state.heroes[p], state.heroes[1 - p]
    crown = state.crown
    draw = _bits(state.draw_pile)
    discard = _bits(state.discard_pile)
    placed = (mine | theirs).bit_count()
    x = ((rng.next_u32() << 32) | rng.next_u32()) | 1
    plies = 0
    tbr, tgr = _TB_ROW, _TG_ROW
    mult, inc, mask64 = _MULT, _INC, _MASK64
    limit, total = HAND_LIMIT, TOTAL_STONES
    while True:
        occ = mine | theirs
        opp = theirs if my_heroes else 0
        row = tbr[crown]
        cand = []
        for c in my_hand:
            b = row[c]
            if b and (not occ & b or opp & b):
                cand.append(c)
        n = len(cand)
        x = (x * mult + inc) & mask64
        r = ((x >> 32) * (n + 1 if len(my_hand) < limit else n)) >> 32
        plies += 1
        if r == n:  # draw: the chance outcome is uniform over the draw pile
            x = (x * mult + inc) & mask64
            k = ((x >> 32) * len(draw)) >> 32
            c = draw[k]
            draw[k] = draw[-1]
            draw.pop()
            my_hand.append(c)
            if not draw:  # ruling 5: eager reshuffle
                draw, discard = discard, []
            if trace is not None:
                trace.append((2, c))
        else:
            c = cand[r]
            b = row[c]
            my_hand.remove(c)
            discard.append(c)
            crown = tgr[crown][c]
            if occ & b:
                theirs ^= b
                mine |= b
                my_heroes -= 1
                if trace is not None:
                    trace.append((1, c))
            else:
                mine |= b
                placed += 1
                if trace is not None:
                    trace.append((0, c))
                if placed == total:
                    break
        # rulings 6/7: the opponent moves if they can, else the mover again, else the game ends
        if len(their_hand) < limit:
            can = True
        else:
            occ = mine | theirs
            row = tbr[crown]
            opp = mine if their_heroes else 0
            can = False
            for c in their_hand:
                b = row[c]
                if b and (not occ & b or opp & b):
                    can = True
                    break
        if can:
            p = 1 - p
            mine, theirs = theirs, mine
            my_hand, their_hand = their_hand, my_hand
            my_heroes, their_heroes = their_heroes, my_heroes
            continue
        if len(my_hand) < limit:
            continue
        opp = theirs if my_heroes else 0
        for c in my_hand:
            b = row[c]
            if b and (not occ & b or opp & b):
                break
        else:
            break
    return (mine, theirs, plies) if p == 0 else (theirs, mine, plies)
