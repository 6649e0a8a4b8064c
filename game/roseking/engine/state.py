"""The Rose King position, its legal moves, and pushing/popping moves.

``State`` follows python-chess: :meth:`State.push` is the fast unchecked entry
point (for search), :meth:`State.push_checked` and :meth:`State.push_str` raise
:class:`IllegalMoveError` saying which rule a move breaks, :meth:`State.pop`
takes a move back, and :attr:`State.move_stack` *is* the game record.

Chance is explicit, as in OpenSpiel: the engine never holds the draw pile's
order, only the *set* of cards in it. A draw's card is a chance outcome supplied
by the caller (a local :class:`~game.rng.Rng`, the network's joint coin,
or a saved record) from :meth:`State.chance_outcomes`.

Because hands are open and every played card is seen, the state *is* each
player's information state: nothing in it is hidden from either player.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable, Sequence

import game.roseking.engine.kernel as K
from .cards import CARDS, NUM_CARDS, SIZE, TARGET, Card, iter_bits, square_name
from .kernel import (  # noqa: F401  (TARGET_BIT, _spread: old names the AI modules import from here)
    ALL_CARDS_MASK, HAND_LIMIT, HEROES_PER_PLAYER, TARGET_BIT, TOTAL_STONES, score_of,
    spread as _spread, territories,
)
from .moves import _PARSED, DRAW, HERO, PLAY, Color, Move
from game.errors import IllegalMoveError, Reason
from game.rng import Rng

_KIND_CODE = {PLAY: K.PLAY_KIND, HERO: K.HERO_KIND, DRAW: K.DRAW_KIND}
_COLORS = (Color.RED, Color.WHITE)
_S0, _S1, _CROWN, _H0, _H1, _HE0, _HE1, _PILE, _DISCARD, _TURN, _OVER = range(K.FIELDS)
_DRAW_ACTION = K.DRAW_ACTION


class Termination(Enum):
    """Why the game ended (ruling 7)."""

    STONES = "all 52 stones are on the board"
    BLOCKED = "neither player can move"


_TERMINATIONS = (None, Termination.STONES, Termination.BLOCKED)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game (rulings 7 and 8).

    ``decided_by`` is ``"score"``, ``"largest territory"``, ``"stones"`` or
    ``"draw"``; ``winner`` is None for a draw.
    """

    termination: Termination
    winner: Color | None
    red_score: int
    white_score: int
    decided_by: str

    def result(self) -> dict[str, Any]:
        """The record's ``result`` object: ``{"red": 140, "white": 42, "winner": "red"}``."""
        return {"red": self.red_score, "white": self.white_score,
                "winner": "draw" if self.winner is None else str(self.winner)}


def decide(red: int, white: int) -> tuple[Color | None, str]:
    """Winner and deciding rule for two stone bitmasks (ruling 8's order of tie-breaks;
    :func:`game.roseking.engine.kernel.decide` with the winner as a :class:`Color`)."""
    w, by = K.decide(red, white)
    return (None if w is None else _COLORS[w]), by


#: Record text -> ``(player, kernel action, card index)`` for every complete move text
#: (a draw without its card is left out: it is never a pushable move).
_TEXT_ACTIONS: dict[str, tuple[int, int, int]] = {
    text: (int(m.player), K.DRAW_ACTION if m.kind is DRAW else _KIND_CODE[m.kind] * NUM_CARDS + m.card.index,
           m.card.index)
    for text, m in _PARSED.items() if m.card is not None
}


class State:
    """A Rose King position with its move stack.

    The position itself is a raw kernel position (:mod:`game.roseking.engine.kernel`);
    these read-only views of it are the public attributes (read them, do not assign them;
    use push/pop):

    - ``stones``: ``[red_bitmask, white_bitmask]``, bit ``sq`` set for a stone on square ``sq``
    - ``crown``: square 0..80 of the crown
    - ``hands``: ``[red, white]`` 24-bit card sets
    - ``heroes``: ``[red, white]`` hero cards left, 0..4
    - ``draw_pile`` / ``discard_pile``: 24-bit card sets (the draw pile's order does not exist here)
    - ``discard_top``: index of the last card discarded, or -1 when the discard pile is empty
    - ``turn``: the colour to move (meaningless once the game is over)
    - ``termination``: None while the game goes on
    - ``deal``: the two opening hands as dealt, ``(red_cards, white_cards)``
    - ``move_stack``: the moves pushed so far, the game record
    """

    __slots__ = ("_st", "_root", "_top0", "deal", "move_stack", "_undo")

    def __init__(self, red_hand: Iterable[Card], white_hand: Iterable[Card]) -> None:
        """Set up a new game from a deal (ruling 3).

        Raises ValueError if a hand does not hold exactly 5 distinct power cards
        or the hands share a card.
        """
        red_cards, white_cards = tuple(red_hand), tuple(white_hand)
        for name, hand in (("red", red_cards), ("white", white_cards)):
            if len(hand) != HAND_LIMIT or (not set(map(type, hand)) <= {Card}
                                           and not all(isinstance(c, Card) for c in hand)):
                raise ValueError(f"bad deal: {name} must be dealt exactly 5 power cards")
        rm, wm = _mask(red_cards), _mask(white_cards)
        for name, m in (("red", rm), ("white", wm)):
            if m.bit_count() != HAND_LIMIT:
                raise ValueError(f"bad deal: {name} is dealt the same card twice")
        if rm & wm:
            raise ValueError("bad deal: both hands hold " + ", ".join(c.name for c in red_cards if (wm >> c.index) & 1))
        self._st = K.new_position(rm, wm)
        self._root = (*self._st,)  # the position before the first move
        self._top0 = -1  # the discard pile's top before the first move (from_position)
        self.deal = (red_cards, white_cards)
        self.move_stack: list[Move] = []
        # The raw position before each move, or None where a batch (push_strs) skipped it;
        # pop rebuilds the Nones from _root when it meets one.
        self._undo: list[tuple[int, ...] | None] = []

    # ------------------------------------------------------------------ views of the raw position
    @property
    def stones(self) -> list[int]:
        """``[red, white]`` stone bitmasks (a new list: changing it changes nothing)."""
        return [self._st[_S0], self._st[_S1]]

    @stones.setter
    def stones(self, value: Sequence[int]) -> None:  # for tests building positions by hand
        self._st[_S0], self._st[_S1] = value
        self._edited()

    @property
    def crown(self) -> int:
        return self._st[_CROWN]

    @crown.setter
    def crown(self, value: int) -> None:
        self._st[_CROWN] = value
        self._edited()

    @property
    def hands(self) -> list[int]:
        """``[red, white]`` hands as 24-bit card sets (a new list)."""
        return [self._st[_H0], self._st[_H1]]

    @hands.setter
    def hands(self, value: Sequence[int]) -> None:
        self._st[_H0], self._st[_H1] = value
        self._edited()

    @property
    def heroes(self) -> list[int]:
        """``[red, white]`` hero cards left (a new list)."""
        return [self._st[_HE0], self._st[_HE1]]

    @heroes.setter
    def heroes(self, value: Sequence[int]) -> None:
        self._st[_HE0], self._st[_HE1] = value
        self._edited()

    @property
    def draw_pile(self) -> int:
        return self._st[_PILE]

    @draw_pile.setter
    def draw_pile(self, value: int) -> None:
        self._st[_PILE] = value
        self._edited()

    @property
    def discard_pile(self) -> int:
        return self._st[_DISCARD]

    @discard_pile.setter
    def discard_pile(self, value: int) -> None:
        self._st[_DISCARD] = value
        self._edited()

    @property
    def discard_top(self) -> int:
        """Index of the last card discarded, -1 when the discard pile is empty: the card of the
        last play or hero move (the pile empties only when it becomes the draw pile, ruling 5)."""
        if not self._st[_DISCARD]:
            return -1
        for m in reversed(self.move_stack):
            if m.kind is not DRAW:
                card = m.card
                assert card is not None  # a play or a hero move names its card
                return card.index
        return self._top0

    @property
    def turn(self) -> Color:
        return _COLORS[self._st[_TURN]]

    @turn.setter
    def turn(self, value: int) -> None:
        self._st[_TURN] = int(value)
        self._edited()

    def _edited(self) -> None:
        """A setter changed the position by hand (tests do, before any move): it is the new start."""
        if not self.move_stack:
            self._root = (*self._st,)

    @property
    def termination(self) -> Termination | None:
        return _TERMINATIONS[K.termination(self._st)]

    def raw(self) -> list[int]:
        """A copy of the raw kernel position (:mod:`game.roseking.engine.kernel`), for search."""
        return self._st[:]

    # ------------------------------------------------------------------ set-up
    @classmethod
    def random(cls, rng: Rng) -> "State":
        """A new game dealt by shuffling the 24 cards with ``rng`` (ruling 3)."""
        red, white = random_deal(rng)
        return cls(red, white)

    @classmethod
    def from_position(cls, *, red: Iterable[str] = (), white: Iterable[str] = (), crown: str = "e5",
                      red_hand: Iterable[str] = (), white_hand: Iterable[str] = (),
                      discard: Iterable[str] = (), heroes: tuple[int, int] = (4, 4),
                      turn: Color = Color.RED) -> "State":
        """A custom mid-game position (for puzzles, tests and tutorials); it has no move stack.

        Squares and cards are given by name; the draw pile is every card in no hand and not
        in ``discard`` (``discard`` lists the discard pile, its last card on top). If ``turn``
        cannot move, the turn passes or the game is over, as after a move (rulings 6, 7).
        Raises ValueError for an impossible position: a card twice, more than 5 cards in a
        hand, an empty draw pile, a square twice, more than 52 stones, heroes outside 0..4,
        or the crown off a stone once stones are down.
        """
        from .cards import parse_square
        rs = [parse_square(x) for x in red]
        ws = [parse_square(x) for x in white]
        if len(set(rs) | set(ws)) != len(rs) + len(ws):
            raise ValueError("a square is listed twice")
        if len(rs) + len(ws) > TOTAL_STONES:
            raise ValueError("more than 52 stones")
        hands = [[Card.from_name(c) for c in red_hand], [Card.from_name(c) for c in white_hand]]
        disc = [Card.from_name(c) for c in discard]
        every = [c.index for c in hands[0] + hands[1] + disc]
        if len(set(every)) != len(every):
            raise ValueError("a card is listed twice")
        if any(len(h) > HAND_LIMIT for h in hands):
            raise ValueError("a hand holds more than 5 cards")
        if len(every) >= NUM_CARDS:
            raise ValueError("the draw pile would be empty (ruling 5 reshuffles it at once)")
        if not all(0 <= h <= HEROES_PER_PLAYER for h in heroes):
            raise ValueError("heroes must be 0..4 each")
        c = parse_square(crown)
        red_mask, white_mask = sum(1 << q for q in rs), sum(1 << q for q in ws)
        if (red_mask | white_mask) and not ((red_mask | white_mask) >> c) & 1:
            raise ValueError("the crown must stand on a stone once stones are on the board")
        hand_masks = [_mask(hands[0]), _mask(hands[1])]
        discard_mask = _mask(disc)
        s = cls.__new__(cls)
        st = [0] * K.FIELDS
        st[_S0], st[_S1], st[_CROWN] = red_mask, white_mask, c
        st[_H0], st[_H1] = hand_masks
        st[_HE0], st[_HE1] = heroes
        st[_PILE] = ALL_CARDS_MASK & ~(hand_masks[0] | hand_masks[1] | discard_mask)
        st[_DISCARD] = discard_mask
        st[_TURN] = int(turn)
        s._st = st
        s._top0 = disc[-1].index if disc else -1
        s.deal = (tuple(hands[0]), tuple(hands[1]))
        s.move_stack = []
        s._undo = []
        if (red_mask | white_mask).bit_count() == TOTAL_STONES:
            st[_OVER] = 1
        elif not K.can_move(st, st[_TURN]):
            if K.can_move(st, 1 - st[_TURN]):
                st[_TURN] = 1 - st[_TURN]
            else:
                st[_OVER] = 1
        s._root = (*st,)
        return s

    def copy(self, stack: bool = True) -> "State":
        """An independent copy; ``stack=False`` drops the move and undo stacks (for search)."""
        s = State.__new__(State)
        s._st = self._st[:]
        s._root = self._root
        s._top0 = self._top0
        s.deal = self.deal
        s.move_stack = self.move_stack[:] if stack else []
        s._undo = self._undo[:] if stack else []
        return s

    # ------------------------------------------------------------------ queries
    @property
    def ply(self) -> int:
        """Number of moves pushed (passes are not moves)."""
        return len(self.move_stack)

    @property
    def stones_placed(self) -> int:
        """Stones on the board, 0..52 (flips do not change it)."""
        return (self._st[_S0] | self._st[_S1]).bit_count()

    @property
    def stones_left(self) -> int:
        """Stones in the shared supply, 52..0."""
        return TOTAL_STONES - self.stones_placed

    def is_game_over(self) -> bool:
        return self._st[_OVER] != 0

    def hand(self, color: Color) -> list[Card]:
        """``color``'s power cards in canonical order."""
        return [CARDS[i] for i in iter_bits(self._st[_H0 + color])]

    def draw_pile_cards(self) -> list[Card]:
        return [CARDS[i] for i in iter_bits(self._st[_PILE])]

    def discard_pile_cards(self) -> list[Card]:
        return [CARDS[i] for i in iter_bits(self._st[_DISCARD])]

    def owner(self, sq: int) -> Color | None:
        """Colour of the stone on ``sq``, or None if it is empty."""
        if (self._st[_S0] >> sq) & 1:
            return Color.RED
        if (self._st[_S1] >> sq) & 1:
            return Color.WHITE
        return None

    def target(self, card: Card) -> int | None:
        """Square ``card`` would move the crown to, or None if off the board."""
        t = TARGET[self._st[_CROWN] * NUM_CARDS + card.index]
        return None if t < 0 else t

    def _can_move(self, p: int) -> bool:
        return K.can_move(self._st, p)

    def has_legal_move(self, color: Color) -> bool:
        """Whether ``color`` could act if it were their turn (ruling 6)."""
        return not self._st[_OVER] and K.can_move(self._st, color)

    def legal_moves(self) -> list[Move]:
        """The mover's legal moves: plays and heroes in card order, then a draw.

        The draw appears once, as ``Move(player, DRAW, None)``: its card is a
        chance outcome (see :meth:`chance_outcomes`). Empty once the game is over.
        """
        st = self._st
        player = _COLORS[st[_TURN]]
        return [_ACTION_MOVES[player][a] for a in K.legal_actions(st)]

    def chance_outcomes(self) -> list[Card]:
        """Cards a draw can bring now, in canonical order; each has probability 1/n.

        This is the sorted set that the network's joint coin indexes into. After the
        eager reshuffle (ruling 5) it is exactly the old discard pile.
        """
        return [CARDS[i] for i in iter_bits(self._st[_PILE])]

    def illegal_reason(self, move: Move) -> Reason | None:
        """Why ``move`` is illegal here (naming the rule), or None if it is legal.

        A draw must carry its card (the chance outcome).
        """
        return K.illegal_reason(self._st, int(move.player), _KIND_CODE[move.kind],
                                -1 if move.card is None else move.card.index)

    def is_legal(self, move: Move) -> bool:
        return self.illegal_reason(move) is None

    def passed(self) -> bool:
        """Whether the opponent of the last mover had to pass after the last move (ruling 6)."""
        return (not self._st[_OVER] and bool(self.move_stack)
                and self.move_stack[-1].player == self._st[_TURN])

    def observation(self, player: Color) -> dict[str, Any]:
        """What ``player`` sees (OpenSpiel's information state), as plain data.

        Everything but the draw pile's order, which does not exist in the engine:
        the *set* of cards in the draw pile is public knowledge (all 24 cards are
        known and hands and the discard pile are open), so both players'
        observations are equal. Shape: ``{"player", "to_move", "crown", "red",
        "white" (square names), "hands" {"red", "white"} (card names), "heroes"
        {"red", "white"}, "draw_pile" (card names, canonical order),
        "draw_pile_count", "discard_pile", "discard_top" (name or None),
        "stones_left", "ply", "over"}``.
        """
        def squares(mask: int) -> list[str]:
            return [square_name(q) for q in iter_bits(mask)]

        st = self._st
        return {
            "player": str(Color(player)), "to_move": None if st[_OVER] else str(self.turn),
            "crown": square_name(st[_CROWN]), "red": squares(st[_S0]), "white": squares(st[_S1]),
            "hands": {"red": [c.name for c in self.hand(Color.RED)], "white": [c.name for c in self.hand(Color.WHITE)]},
            "heroes": {"red": st[_HE0], "white": st[_HE1]},
            "draw_pile": [c.name for c in self.draw_pile_cards()], "draw_pile_count": st[_PILE].bit_count(),
            "discard_pile": [c.name for c in self.discard_pile_cards()],
            "discard_top": None if self.discard_top < 0 else CARDS[self.discard_top].name,
            "stones_left": self.stones_left, "ply": self.ply, "over": st[_OVER] != 0,
        }

    # ------------------------------------------------------------------ outcome
    def scores(self) -> tuple[int, int]:
        """(red, white) sums of territory sizes squared (ruling 8)."""
        return score_of(self._st[_S0]), score_of(self._st[_S1])

    def territories(self, color: Color) -> list[int]:
        """``color``'s territories as square bitmasks, largest first."""
        return territories(self._st[_S0 + color])

    def outcome(self) -> Outcome | None:
        """The result once the game is over (ruling 7 and 8), else None."""
        if not self._st[_OVER]:
            return None
        rs, ws = self.scores()
        winner: Color | None  # None: a draw
        if rs != ws:
            winner, by = (Color.RED if rs > ws else Color.WHITE), "score"
        else:
            winner, by = decide(self._st[_S0], self._st[_S1])
        termination = self.termination
        assert termination is not None  # the game is over
        return Outcome(termination, winner, rs, ws, by)

    # ------------------------------------------------------------------ push / pop
    def push(self, move: Move) -> None:
        """Apply ``move`` **without checking it is legal** (fast; for search).

        Pushing an illegal move corrupts the state. Use :meth:`push_checked` for
        moves from people, files or the network.
        """
        kind = move.kind
        card = move.card
        assert card is not None, "a draw without its card is never pushable"
        c = card.index
        st = self._st
        self._undo.append((*st,))
        K.apply(st, _DRAW_ACTION if kind is DRAW else (c if kind is PLAY else NUM_CARDS + c), c)
        self.move_stack.append(move)

    def push_checked(self, move: Move) -> None:
        """Apply ``move`` after checking it; raises :class:`IllegalMoveError` saying why.

        On an error nothing changes.
        """
        reason = self.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(_prefixed(move, reason))
        self.push(move)

    def push_str(self, text: str) -> Move:
        """Parse record notation and push it checked; returns the move.

        Raises InvalidMoveError (bad text) or IllegalMoveError (breaks a rule); on an
        error nothing changes. One dictionary look-up and the kernel's check and apply
        (:func:`game.roseking.engine.kernel.replay`); a whole record goes faster through
        :meth:`push_strs`.
        """
        code = _TEXT_ACTIONS.get(text) if type(text) is str else None
        if code is None:  # not a complete move text: from_str raises InvalidMoveError, or a bare draw
            move = Move.from_str(text)
            self.push_checked(move)
            return move
        if not K.replay(self._st, [code], self._undo):
            p, action, c = code
            why = K.illegal_reason(self._st, p, action // NUM_CARDS, c)
            assert why is not None  # replay stopped before it: illegal
            raise IllegalMoveError(_prefixed(text, why))
        move = _PARSED[text]
        self.move_stack.append(move)
        return move

    def push_strs(self, texts: Sequence[str]) -> None:
        """:meth:`push_str` each of ``texts`` in order: record validation's loop, one kernel
        call per game (:func:`game.roseking.engine.kernel.replay`).

        Raises like :meth:`push_str` at the first bad text; the moves before it stay pushed,
        so the bad one is ``texts[self.ply - ply_before]``. :meth:`pop` works as after
        :meth:`push_str` (the undo entries are rebuilt on the first pop that needs them).
        """
        if not isinstance(texts, (list, tuple)):
            texts = list(texts)
        if not set(map(type, texts)) <= {str}:  # anything but plain strings: one by one
            for text in texts:
                self.push_str(text)
            return
        n = K.replay(self._st, map(_TEXT_ACTIONS.get, texts))
        parsed = _PARSED
        self.move_stack.extend([parsed[t] for t in texts[:n]] if n < len(texts) else map(parsed.__getitem__, texts))
        self._undo.extend([None] * n)
        if n < len(texts):
            text = texts[n]
            code = _TEXT_ACTIONS.get(text)
            if code is not None:
                p, action, c = code
                why = K.illegal_reason(self._st, p, action // NUM_CARDS, c)
                assert why is not None  # replay stopped before it: illegal
                raise IllegalMoveError(_prefixed(text, why))
            move = Move.from_str(text)  # raises InvalidMoveError, or it is a draw without its card:
            reason = self.illegal_reason(move)
            assert reason is not None, "a draw without its card is never pushable"
            raise IllegalMoveError(_prefixed(move, reason))

    def _rebuild_undo(self) -> None:
        """Fill the undo entries a batch skipped, replaying the move stack from the start."""
        st = list(self._root)
        undo: list[tuple[int, ...] | None] = []
        for m in self.move_stack:
            undo.append((*st,))
            card = m.card
            assert card is not None  # (every pushed move has its card)
            c = card.index
            K.apply(st, _DRAW_ACTION if m.kind is DRAW else (c if m.kind is PLAY else NUM_CARDS + c), c)
        assert st == self._st, "the move stack rebuilds the position"
        self._undo = undo

    def pop(self) -> Move:
        """Take back the last move and return it. Raises IndexError if there is none."""
        if self.move_stack and self._undo[-1] is None:
            self._rebuild_undo()
        move = self.move_stack.pop()
        before = self._undo.pop()
        assert before is not None  # (rebuilt above)
        self._st = list(before)
        return move

    # ------------------------------------------------------------------ identity
    def canonical_bytes(self) -> bytes:
        """The position as canonical bytes (42 bytes), independent of Python's ``hash()``.

        Layout: b"RK1", turn, termination (0 none, 1 stones, 2 blocked), crown,
        heroes red, heroes white, red stones (11 bytes LE), white stones (11),
        red hand (3), white hand (3), draw pile (3), discard pile (3).
        """
        return K.canonical_bytes(self._st)

    def state_hash(self) -> str:
        """SHA-256 of :meth:`canonical_bytes`, as 64 hex digits; stable across processes."""
        return hashlib.sha256(K.canonical_bytes(self._st)).hexdigest()

    def __eq__(self, other: object) -> bool:
        """Same position and same move stack."""
        if not isinstance(other, State):
            return NotImplemented
        return (self._st == other._st and self.move_stack == other.move_stack
                and self.deal == other.deal)

    # unhashable (mutable): a class that defines __eq__ and no __hash__ gets __hash__ = None

    def board_text(self) -> str:
        """A plain-text picture of the board, rank 9 on top: ``R`` red, ``W`` white, ``*`` crown."""
        rows = []
        for r in range(SIZE - 1, -1, -1):
            cells = []
            for f in range(SIZE):
                sq = r * SIZE + f
                o = self.owner(sq)
                ch = "." if o is None else ("R" if o is Color.RED else "W")
                cells.append(("*" if sq == self.crown else " ") + ch)
            rows.append(f"{r + 1} " + "".join(cells))
        rows.append("   " + "  ".join("abcdefghi"))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"<State ply={self.ply} turn={self.turn} stones={self.stones_placed} hash={self.state_hash()[:12]}>"


#: ``_ACTION_MOVES[player][action]``: the shared Move of each kernel action (a draw without its card).
_ACTION_MOVES: dict[Color, tuple[Move, ...]] = {
    pl: tuple([Move(pl, PLAY, c) for c in CARDS] + [Move(pl, HERO, c) for c in CARDS] + [Move(pl, DRAW, None)])
    for pl in _COLORS
}


def _mask(cards: Sequence[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def random_deal(rng: Rng) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Shuffle the 24 cards with ``rng`` and deal 5 to Red, then 5 to White (ruling 3)."""
    deck = list(CARDS)
    rng.shuffle(deck)
    return tuple(deck[:5]), tuple(deck[5:10])


def _prefixed(move: object, reason: Reason) -> Reason:
    """``reason`` with its move in front (``"red play NE2: not in hand: NE2"``), code and params kept."""
    return Reason(reason.code, f"{move}: {reason}", **reason.params)
