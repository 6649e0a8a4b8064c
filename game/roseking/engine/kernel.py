"""The Rose King rules kernel: every rule once, on raw ints.

Both the engine's :class:`~game.roseking.engine.State` (checked and unchecked pushes,
legal moves, records, hashes) and the computer players' searches and playouts
(:mod:`game.roseking.ai.kernel`) run these functions; nothing else in the project
encodes rulings 4-8.

**Position.** A plain list of 11 ints, indexed by the constants below:

- ``S0``, ``S1``: Red's and White's stones as 81-bit square masks (bit ``rank * 9 + file``)
- ``CROWN``: the crown's square 0..80
- ``H0``, ``H1``: the hands as 24-bit card sets (bit = card index, ruling 2's order)
- ``HE0``, ``HE1``: hero cards left, 0..4
- ``PILE``: the draw pile as a card *set* (its order does not exist here; ruling 5)
- ``DISCARD``: the discard pile as a card set
- ``TURN``: the colour to move, 0 Red, 1 White (meaningless once over)
- ``OVER``: 0 while the game goes on, 1 once it has ended (ruling 7); why it ended
  follows from the stones (:func:`termination`)

Copy a position with ``st[:]``; ``tuple(st)`` is a transposition key. The hot functions
(:func:`can_move`, :func:`legal_actions`, :func:`apply`, :func:`replay`) write the indices
and the constants 5 (hand limit), 24 (cards), 48 (draw), 52 (stones) as literals, with the
name in a comment: a module constant costs a global look-up per use (about a tenth of
``apply``'s time); ``tests/roseking/engine/test_kernel.py`` pins the layout.

**Action.** An int: ``card`` for a play (kind 0), ``24 + card`` for a hero action
(kind 1), :data:`DRAW_ACTION` (48) for the decision to draw. The card a draw brings
is a chance outcome (``drawn``), uniform over the draw pile set.

No objects are created on the hot path (no Move, no Card, no enum), and nothing here
imports the engine's value types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from game.errors import Reason

if TYPE_CHECKING:
    from game.rng import Rng

from .cards import CARD_NAMES, NUM_CARDS, NUM_SQUARES, SIZE, TARGET, square_name

S0, S1, CROWN, H0, H1, HE0, HE1, PILE, DISCARD, TURN, OVER = range(11)
#: Length of a raw position.
FIELDS = 11
DRAW_ACTION = 48
#: Action kinds (``action // 24`` for plays and heroes): 0 play, 1 hero, 2 draw.
PLAY_KIND, HERO_KIND, DRAW_KIND = 0, 1, 2

TOTAL_STONES = 52
HAND_LIMIT = 5
HEROES_PER_PLAYER = 4
ALL_CARDS_MASK = (1 << NUM_CARDS) - 1
CENTER = 4 * SIZE + 4

FULL_BOARD = (1 << NUM_SQUARES) - 1
_NOT_FILE_A = sum(1 << sq for sq in range(NUM_SQUARES) if sq % SIZE != 0)
_NOT_FILE_I = sum(1 << sq for sq in range(NUM_SQUARES) if sq % SIZE != SIZE - 1)

#: ``TARGET_BIT[sq * 24 + card]`` is ``1 << target`` or 0 if the card leaves the board.
TARGET_BIT: tuple[int, ...] = tuple(0 if t < 0 else 1 << t for t in TARGET)
#: ``TARGET_ROW[sq][card]``: the same per crown square (one index less on the hot path).
TARGET_ROW: tuple[tuple[int, ...], ...] = tuple(TARGET[sq * NUM_CARDS:(sq + 1) * NUM_CARDS]
                                                for sq in range(NUM_SQUARES))
TARGET_BIT_ROW: tuple[tuple[int, ...], ...] = tuple(TARGET_BIT[sq * NUM_CARDS:(sq + 1) * NUM_CARDS]
                                                    for sq in range(NUM_SQUARES))


# ---------------------------------------------------------------- set-up
def new_position(red_hand: int, white_hand: int) -> list[int]:
    """The opening position for two dealt hands (24-bit card sets, 5 cards each; ruling 3).

    Not checked: :class:`~game.roseking.engine.State` checks a deal before calling this.
    """
    return [0, 0, CENTER, red_hand, white_hand, HEROES_PER_PLAYER, HEROES_PER_PLAYER,
            ALL_CARDS_MASK & ~(red_hand | white_hand), 0, 0, 0]


def cards_in(mask: int) -> list[int]:
    """Indices of the set bits of ``mask`` (cards or squares), ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def nth_bit(mask: int, k: int) -> int:
    """Index of the ``k``-th (0-based, ascending) set bit of ``mask``."""
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


# ---------------------------------------------------------------- rulings 4 and 6
def can_move(st: list[int], p: int) -> bool:
    """Whether player ``p`` (0 Red, 1 White) has a legal action in ``st`` (rulings 4, 6).

    A player with fewer than 5 cards can always draw; otherwise some card must move the
    crown onto an empty square, or onto an opponent's stone while a hero card is left.
    """
    hand = st[3 + p]  # H0 + p
    if hand.bit_count() < 5:  # HAND_LIMIT
        return True
    occ = st[0] | st[1]
    opp = st[1 - p] if st[5 + p] else 0  # S1 - p, HE0 + p
    row = TARGET_BIT_ROW[st[2]]  # CROWN
    while hand:
        low = hand & -hand
        hand ^= low
        bit = row[low.bit_length() - 1]
        if bit and (not occ & bit or opp & bit):
            return True
    return False


def legal_actions(st: list[int]) -> list[int]:
    """The mover's legal actions: plays and heroes in card order, then :data:`DRAW_ACTION`
    if the hand holds fewer than 5 cards (ruling 4). ``[]`` once the game is over."""
    if st[10]:  # OVER
        return []
    p = st[9]  # TURN
    occ = st[0] | st[1]
    opp = st[1 - p] if st[5 + p] else 0
    row = TARGET_BIT_ROW[st[2]]
    hand = st[3 + p]
    out = []
    h = hand
    while h:
        low = h & -h
        h ^= low
        c = low.bit_length() - 1
        bit = row[c]
        if not bit:
            continue
        if not occ & bit:
            out.append(c)
        elif opp & bit:
            out.append(24 + c)
    if hand.bit_count() < 5:
        out.append(48)  # DRAW_ACTION
    return out


def illegal_reason(st: list[int], p: int, kind: int, card: int) -> Reason | None:
    """Why ``p``'s action of ``kind`` (0 play, 1 hero, 2 draw) with ``card`` breaks a rule, or None.

    ``card`` is -1 for a draw whose chance outcome is not given (always a reason) or a
    play/hero without a card. Messages name the rule (ruling 4, 5, 7) and are the
    engine's ``IllegalMoveError`` texts, as :class:`game.errors.Reason` values whose ``code``
    (``over``, ``wrong_player``, ``hand_full``, ``draw_needs_card``, ``not_in_pile``,
    ``needs_card``, ``not_in_hand``, ``off_board``, ``occupied``, ``hero_needs_stone``,
    ``no_heroes``) :func:`game.roseking.phrases.illegal_text` keys on.
    """
    if st[OVER]:
        return Reason("over", "game already over")
    if p != st[TURN]:
        return Reason("wrong_player", f"wrong player to move: it is {('red', 'white')[st[TURN]]}'s turn", turn=st[TURN])
    if kind == DRAW_KIND:
        if st[H0 + p].bit_count() >= HAND_LIMIT:
            return Reason("hand_full", "hand full: a player may draw only with fewer than 5 cards")
        if card < 0:
            return Reason("draw_needs_card", "a draw needs its card (the chance outcome)")
        if not (st[PILE] >> card) & 1:
            return Reason("not_in_pile", f"card not in the draw pile: {CARD_NAMES[card]}", card=CARD_NAMES[card])
        return None
    what = "play" if kind == PLAY_KIND else "hero"
    if card < 0:
        return Reason("needs_card", f"{what} needs a card", kind=what)
    if not (st[H0 + p] >> card) & 1:
        return Reason("not_in_hand", f"not in hand: {CARD_NAMES[card]}", card=CARD_NAMES[card])
    t = TARGET_ROW[st[CROWN]][card]
    if t < 0:
        return Reason("off_board", f"off the board: {CARD_NAMES[card]} from {square_name(st[CROWN])} leaves the board",
                      card=CARD_NAMES[card], square=square_name(st[CROWN]))
    bit = 1 << t
    occ = st[S0] | st[S1]
    if kind == PLAY_KIND:
        return Reason("occupied", f"square occupied: {square_name(t)} holds a stone", square=square_name(t)) \
            if occ & bit else None
    if not st[S1 - p] & bit:
        where = "is empty" if not occ & bit else "holds the mover's own stone"
        return Reason("hero_needs_stone", f"hero needs an opponent's stone: {square_name(t)} {where}", square=square_name(t),
                      empty=int(not occ & bit))
    if not st[HE0 + p]:
        return Reason("no_heroes", "no hero cards left")
    return None


# ---------------------------------------------------------------- rulings 4-7: applying an action
def apply(st: list[int], action: int, drawn: int = -1) -> None:
    """Apply ``action`` in place, **unchecked**; ``drawn`` is a draw's chance outcome.

    Ruling 4 (play places a stone, hero flips one, draw takes a card), ruling 5 (the
    discard pile becomes the draw pile as soon as the last card is drawn), ruling 7 (the
    52nd stone ends the game) and ruling 6 (the opponent moves if they can, else the
    mover again, else the game ends: ``OVER`` = 1). An illegal action corrupts ``st``.
    """
    p = st[9]  # TURN
    if action == 48:  # DRAW_ACTION
        bit = 1 << drawn
        st[3 + p] |= bit  # H0 + p
        pile = st[7] & ~bit  # PILE
        if not pile:  # ruling 5: eager reshuffle
            pile = st[8]  # DISCARD
            st[8] = 0
        st[7] = pile
    else:
        c = action % 24
        crown = TARGET_ROW[st[2]][c]  # CROWN
        tb = 1 << crown
        cb = 1 << c
        st[3 + p] ^= cb  # the card leaves the hand ...
        st[8] |= cb  # ... for the discard pile
        st[2] = crown
        st[p] |= tb  # S0 + p
        if action >= 24:  # hero: the opponent's stone turns
            st[5 + p] -= 1  # HE0 + p
            st[1 - p] ^= tb  # S1 - p
        elif (st[0] | st[1]).bit_count() == 52:  # ruling 7: TOTAL_STONES
            st[10] = 1  # OVER
            return
    # ruling 6 (can_move inlined): the opponent moves if they can, else the mover, else the end
    o = 1 - p
    hand = st[3 + o]
    if hand.bit_count() < 5:
        st[9] = o
        return
    occ = st[0] | st[1]
    row = TARGET_BIT_ROW[st[2]]
    opp = st[p] if st[5 + o] else 0
    while hand:
        low = hand & -hand
        hand ^= low
        bit = row[low.bit_length() - 1]
        if bit and (not occ & bit or opp & bit):
            st[9] = o
            return
    hand = st[3 + p]
    if hand.bit_count() < 5:
        return
    opp = st[o] if st[5 + p] else 0
    while hand:
        low = hand & -hand
        hand ^= low
        bit = row[low.bit_length() - 1]
        if bit and (not occ & bit or opp & bit):
            return
    st[10] = 1


def replay(st: list[int], actions: Iterable[tuple[int, int, int] | None],
           undo: list[tuple[int, ...] | None] | None = None) -> int:
    """Check and apply ``(player, action, card)`` triples in order, in place; returns how many
    were applied. The fast path of full-game validation (records, ``rose-king check``).

    ``actions`` is any iterable; a None entry stops the loop like an illegal one (the engine
    maps record texts to triples and an unknown text to None). ``card`` is the card played,
    or for :data:`DRAW_ACTION` the chance outcome. Each entry is checked against ruling 4
    exactly as :func:`illegal_reason` checks it (the property tests hold the two to agreement
    on every kind and card); the loop stops *before* the first illegal entry, so ``st`` is
    then the position in which it is illegal and :func:`illegal_reason` says why. If ``undo``
    is a list, ``tuple(st)`` is appended to it before each action is applied.
    """
    n = 0
    snap = undo.append if undo is not None else None
    row_of = TARGET_BIT_ROW
    for item in actions:
        if item is None:
            return n
        p, action, card = item
        if st[10] or st[9] != p:  # OVER, TURN
            return n
        if action == 48:  # DRAW_ACTION: fewer than 5 cards, and the card is in the draw pile
            if st[3 + p].bit_count() >= 5 or not (st[7] >> card) & 1:
                return n
        elif not (st[3 + p] >> card) & 1:  # the card is in hand ...
            return n
        else:  # ... and moves the crown onto the board: an empty square, or for a hero an opponent's stone
            bit = row_of[st[2]][card]
            if not bit or ((st[0] | st[1]) & bit if action < 24 else not (st[1 - p] & bit and st[5 + p])):
                return n
        if snap is not None:
            snap((*st,))
        apply(st, action, card)
        n += 1
    return n


# ---------------------------------------------------------------- rulings 7 and 8: the end
def termination(st: list[int]) -> int:
    """0 while the game goes on, 1 when it ended with all 52 stones placed, 2 when neither
    player could act (ruling 7)."""
    if not st[OVER]:
        return 0
    return 1 if (st[S0] | st[S1]).bit_count() == TOTAL_STONES else 2


def spread(m: int) -> int:
    """``m`` grown by one step to its edge neighbours (a square mask)."""
    return m | ((m << 1) & _NOT_FILE_A) | ((m >> 1) & _NOT_FILE_I) | ((m << SIZE) & FULL_BOARD) | (m >> SIZE)


def territories(stones: int) -> list[int]:
    """Edge-connected groups of a stone mask (ruling 8) as square masks, largest first."""
    groups = []
    while stones:
        comp = stones & -stones
        while True:
            grown = spread(comp) & stones
            if grown == comp:
                break
            comp = grown
        groups.append(comp)
        stones ^= comp
    groups.sort(key=lambda g: -g.bit_count())
    return groups


def score_of(stones: int) -> int:
    """Sum over the territories of a stone mask of their size squared (ruling 8)."""
    return score_and_largest(stones)[0]


def score_and_largest(stones: int) -> tuple[int, int]:
    """``(score_of(stones), size of the largest territory)`` in one pass (ruling 8's first two
    criteria; ``(0, 0)`` without stones). Lone stones (no edge neighbour of their colour) are
    counted at once; the other territories are grown from their lowest stone (:func:`spread`
    inlined: this runs at the end of every validated game, and the computer players'
    evaluations memoise it)."""
    na, ni, full = _NOT_FILE_A, _NOT_FILE_I, FULL_BOARD
    lone = stones & ~(((stones << 1) & na) | ((stones >> 1) & ni) | ((stones << SIZE) & full) | (stones >> SIZE))
    total = lone.bit_count()
    largest = 1 if lone else 0
    stones ^= lone
    while stones:
        comp = stones & -stones
        while True:
            grown = (comp | ((comp << 1) & na) | ((comp >> 1) & ni) | ((comp << SIZE) & full)
                     | (comp >> SIZE)) & stones
            if grown == comp:
                break
            comp = grown
        n = comp.bit_count()
        total += n * n
        if n > largest:
            largest = n
        stones ^= comp
    return total, largest


def decide(red: int, white: int) -> tuple[int | None, str]:
    """Winner (0 Red, 1 White, None for a draw) and the deciding rule for two stone masks:
    ``"score"``, ``"largest territory"``, ``"stones"`` or ``"draw"`` (ruling 8's order)."""
    rs, rl = score_and_largest(red)
    ws, wl = score_and_largest(white)
    if rs != ws:
        return (0 if rs > ws else 1), "score"
    if rl != wl:
        return (0 if rl > wl else 1), "largest territory"
    rn, wn = red.bit_count(), white.bit_count()
    if rn != wn:
        return (0 if rn > wn else 1), "stones"
    return None, "draw"


# ---------------------------------------------------------------- identity
def canonical_bytes(st: list[int]) -> bytes:
    """The position as the 42 canonical bytes of ``State.canonical_bytes`` (saved games and
    LAN peers hash them; never change the layout): b"RK1", turn, termination, crown,
    heroes red, heroes white, red stones (11 bytes LE), white stones (11), red hand (3),
    white hand (3), draw pile (3), discard pile (3)."""
    return b"".join((
        b"RK1", bytes((st[TURN], termination(st), st[CROWN], st[HE0], st[HE1])),
        st[S0].to_bytes(11, "little"), st[S1].to_bytes(11, "little"),
        st[H0].to_bytes(3, "little"), st[H1].to_bytes(3, "little"),
        st[PILE].to_bytes(3, "little"), st[DISCARD].to_bytes(3, "little"),
    ))


# ---------------------------------------------------------------- uniform random playouts
_MULT = 6364136223846793005
_INC = 1442695040888963407
_MASK64 = (1 << 64) - 1


def random_playout(st: list[int], rng: Rng, trace: list[tuple[int, int]] | None = None) -> tuple[int, int, int]:
    """Play a copy of ``st`` to the end with uniformly random legal actions (``st`` is unchanged).

    Each legal action (a play or hero per card, one draw) is equally likely; a draw's card
    is uniform over the draw pile (the chance outcome). Randomness: 64 bits from ``rng``
    (a :class:`game.rng.Rng`) seed the PCG's 64-bit LCG, run inline, whose high 32 bits
    pick by multiply-shift (bias below 2**-27 for n <= 24); deterministic on every machine.
    Returns ``(red_stones, white_stones, plies)`` of the final position. If ``trace`` is a
    list, the ``(kind, card)`` pairs played are appended (kind 0 play, 1 hero, 2 draw).
    """
    st = st[:]
    x = ((rng.next_u32() << 32) | rng.next_u32()) | 1
    plies = 0
    mult, inc, mask64 = _MULT, _INC, _MASK64
    actions_of, play = legal_actions, apply
    while not st[OVER]:
        acts = actions_of(st)
        x = (x * mult + inc) & mask64
        a = acts[((x >> 32) * len(acts)) >> 32]
        plies += 1
        if a == DRAW_ACTION:
            pile = st[PILE]
            x = (x * mult + inc) & mask64
            c = nth_bit(pile, ((x >> 32) * pile.bit_count()) >> 32)
            play(st, a, c)
            if trace is not None:
                trace.append((DRAW_KIND, c))
        else:
            play(st, a)
            if trace is not None:
                trace.append((a // NUM_CARDS, a % NUM_CARDS))
    return st[S0], st[S1], plies
