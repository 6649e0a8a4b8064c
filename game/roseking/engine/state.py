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
from typing import Iterable, Sequence

from .cards import (
    ALL_CARDS_MASK, CARDS, CENTER, NUM_CARDS, NUM_SQUARES, SIZE, TARGET, Card,
    iter_bits, square_name,
)
from .moves import DRAW, HERO, PLAY, Color, IllegalMoveError, Kind, Move
from game.rng import Rng

TOTAL_STONES = 52
HAND_LIMIT = 5
HEROES_PER_PLAYER = 4

FULL_BOARD = (1 << NUM_SQUARES) - 1
_NOT_FILE_A = sum(1 << sq for sq in range(NUM_SQUARES) if sq % SIZE != 0)
_NOT_FILE_I = sum(1 << sq for sq in range(NUM_SQUARES) if sq % SIZE != SIZE - 1)
#: ``TARGET_BIT[sq * 24 + card]`` is ``1 << target`` or 0 if the card leaves the board.
TARGET_BIT: tuple[int, ...] = tuple(0 if t < 0 else 1 << t for t in TARGET)

_KIND_CODE = {PLAY: 0, HERO: 1, DRAW: 2}
_CODE_KIND = (PLAY, HERO, DRAW)
_COLORS = (Color.RED, Color.WHITE)


class Termination(Enum):
    """Why the game ended (ruling 7)."""

    STONES = "all 52 stones are on the board"
    BLOCKED = "neither player can move"


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

    def result(self) -> dict:
        """The record's ``result`` object: ``{"red": 140, "white": 42, "winner": "red"}``."""
        return {"red": self.red_score, "white": self.white_score,
                "winner": "draw" if self.winner is None else str(self.winner)}


def _spread(m: int) -> int:
    return m | ((m << 1) & _NOT_FILE_A) | ((m >> 1) & _NOT_FILE_I) | ((m << SIZE) & FULL_BOARD) | (m >> SIZE)


def territories(stones: int) -> list[int]:
    """Edge-connected groups of a stone bitmask (ruling 8), largest first.

    ``stones``: an int whose bit ``sq`` is set for each stone. Returns bitmasks.
    """
    groups = []
    while stones:
        comp = stones & -stones
        while True:
            grown = _spread(comp) & stones
            if grown == comp:
                break
            comp = grown
        groups.append(comp)
        stones ^= comp
    groups.sort(key=lambda g: -g.bit_count())
    return groups


def score_of(stones: int) -> int:
    """Sum over territories of size squared (ruling 8). ``stones``: a bitmask."""
    total = 0
    while stones:
        comp = stones & -stones
        while True:
            grown = _spread(comp) & stones
            if grown == comp:
                break
            comp = grown
        total += comp.bit_count() ** 2
        stones ^= comp
    return total


def decide(red: int, white: int) -> tuple[Color | None, str]:
    """Winner and deciding rule for two stone bitmasks (ruling 8's order of tie-breaks)."""
    rs, ws = score_of(red), score_of(white)
    if rs != ws:
        return (Color.RED if rs > ws else Color.WHITE), "score"
    rt, wt = territories(red), territories(white)
    rl = rt[0].bit_count() if rt else 0
    wl = wt[0].bit_count() if wt else 0
    if rl != wl:
        return (Color.RED if rl > wl else Color.WHITE), "largest territory"
    rn, wn = red.bit_count(), white.bit_count()
    if rn != wn:
        return (Color.RED if rn > wn else Color.WHITE), "stones"
    return None, "draw"


class State:
    """A Rose King position with its move stack.

    Public attributes (read them, do not assign them; use push/pop):

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

    __slots__ = ("stones", "crown", "hands", "heroes", "draw_pile", "discard_pile",
                 "discard_top", "turn", "termination", "deal", "move_stack", "_undo")

    def __init__(self, red_hand: Iterable[Card], white_hand: Iterable[Card]) -> None:
        """Set up a new game from a deal (ruling 3).

        Raises ValueError if a hand does not hold exactly 5 distinct power cards
        or the hands share a card.
        """
        red_cards, white_cards = tuple(red_hand), tuple(white_hand)
        for name, hand in (("red", red_cards), ("white", white_cards)):
            if len(hand) != HAND_LIMIT or not all(isinstance(c, Card) for c in hand):
                raise ValueError(f"bad deal: {name} must be dealt exactly 5 power cards")
            if len({c.index for c in hand}) != HAND_LIMIT:
                raise ValueError(f"bad deal: {name} is dealt the same card twice")
        rm, wm = _mask(red_cards), _mask(white_cards)
        if rm & wm:
            raise ValueError("bad deal: both hands hold " + ", ".join(c.name for c in red_cards if (wm >> c.index) & 1))
        self.stones = [0, 0]
        self.crown = CENTER
        self.hands = [rm, wm]
        self.heroes = [HEROES_PER_PLAYER, HEROES_PER_PLAYER]
        self.draw_pile = ALL_CARDS_MASK & ~(rm | wm)
        self.discard_pile = 0
        self.discard_top = -1
        self.turn = Color.RED
        self.termination: Termination | None = None
        self.deal = (red_cards, white_cards)
        self.move_stack: list[Move] = []
        self._undo: list[tuple] = []

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
        s = cls.__new__(cls)
        s.stones = [sum(1 << q for q in rs), sum(1 << q for q in ws)]
        if (s.stones[0] | s.stones[1]) and not ((s.stones[0] | s.stones[1]) >> c) & 1:
            raise ValueError("the crown must stand on a stone once stones are on the board")
        s.crown = c
        s.hands = [_mask(hands[0]), _mask(hands[1])]
        s.heroes = list(heroes)
        s.discard_pile = _mask(disc)
        s.discard_top = disc[-1].index if disc else -1
        s.draw_pile = ALL_CARDS_MASK & ~(s.hands[0] | s.hands[1] | s.discard_pile)
        s.turn = Color(turn)
        s.termination = None
        s.deal = (tuple(hands[0]), tuple(hands[1]))
        s.move_stack = []
        s._undo = []
        if s.stones_placed == TOTAL_STONES:
            s.termination = Termination.STONES
        elif not s._can_move(s.turn):
            if s._can_move(1 - s.turn):
                s.turn = _COLORS[1 - s.turn]
            else:
                s.termination = Termination.BLOCKED
        return s

    def copy(self, stack: bool = True) -> "State":
        """An independent copy; ``stack=False`` drops the move and undo stacks (for search)."""
        s = State.__new__(State)
        s.stones = self.stones[:]
        s.crown = self.crown
        s.hands = self.hands[:]
        s.heroes = self.heroes[:]
        s.draw_pile = self.draw_pile
        s.discard_pile = self.discard_pile
        s.discard_top = self.discard_top
        s.turn = self.turn
        s.termination = self.termination
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
        return (self.stones[0] | self.stones[1]).bit_count()

    @property
    def stones_left(self) -> int:
        """Stones in the shared supply, 52..0."""
        return TOTAL_STONES - self.stones_placed

    def is_game_over(self) -> bool:
        return self.termination is not None

    def hand(self, color: Color) -> list[Card]:
        """``color``'s power cards in canonical order."""
        return [CARDS[i] for i in iter_bits(self.hands[color])]

    def draw_pile_cards(self) -> list[Card]:
        return [CARDS[i] for i in iter_bits(self.draw_pile)]

    def discard_pile_cards(self) -> list[Card]:
        return [CARDS[i] for i in iter_bits(self.discard_pile)]

    def owner(self, sq: int) -> Color | None:
        """Colour of the stone on ``sq``, or None if it is empty."""
        if (self.stones[0] >> sq) & 1:
            return Color.RED
        if (self.stones[1] >> sq) & 1:
            return Color.WHITE
        return None

    def target(self, card: Card) -> int | None:
        """Square ``card`` would move the crown to, or None if off the board."""
        t = TARGET[self.crown * NUM_CARDS + card.index]
        return None if t < 0 else t

    def _can_move(self, p: int) -> bool:
        hand = self.hands[p]
        if hand.bit_count() < HAND_LIMIT:
            return True
        occ = self.stones[0] | self.stones[1]
        opp = self.stones[1 - p] if self.heroes[p] else 0
        base = self.crown * NUM_CARDS
        while hand:
            low = hand & -hand
            hand ^= low
            bit = TARGET_BIT[base + low.bit_length() - 1]
            if bit and (not occ & bit or opp & bit):
                return True
        return False

    def has_legal_move(self, color: Color) -> bool:
        """Whether ``color`` could act if it were their turn (ruling 6)."""
        return self.termination is None and self._can_move(color)

    def legal_moves(self) -> list[Move]:
        """The mover's legal moves: plays and heroes in card order, then a draw.

        The draw appears once, as ``Move(player, DRAW, None)``: its card is a
        chance outcome (see :meth:`chance_outcomes`). Empty once the game is over.
        """
        if self.termination is not None:
            return []
        p = self.turn
        player = _COLORS[p]
        occ = self.stones[0] | self.stones[1]
        opp = self.stones[1 - p] if self.heroes[p] else 0
        base = self.crown * NUM_CARDS
        hand = self.hands[p]
        moves = []
        for i in iter_bits(hand):
            bit = TARGET_BIT[base + i]
            if not bit:
                continue
            if not occ & bit:
                moves.append(Move(player, PLAY, CARDS[i]))
            elif opp & bit:
                moves.append(Move(player, HERO, CARDS[i]))
        if hand.bit_count() < HAND_LIMIT:
            moves.append(Move(player, DRAW, None))
        return moves

    def chance_outcomes(self) -> list[Card]:
        """Cards a draw can bring now, in canonical order; each has probability 1/n.

        This is the sorted set that the network's joint coin indexes into. After the
        eager reshuffle (ruling 5) it is exactly the old discard pile.
        """
        return [CARDS[i] for i in iter_bits(self.draw_pile)]

    def illegal_reason(self, move: Move) -> str | None:
        """Why ``move`` is illegal here (naming the rule), or None if it is legal.

        A draw must carry its card (the chance outcome).
        """
        if self.termination is not None:
            return "game already over"
        if move.player != self.turn:
            return f"wrong player to move: it is {self.turn}'s turn"
        return self._reason(self.turn, move.kind, None if move.card is None else move.card.index)

    def _reason(self, p: int, kind: Kind, c: int | None) -> str | None:
        if kind is DRAW:
            if self.hands[p].bit_count() >= HAND_LIMIT:
                return "hand full: a player may draw only with fewer than 5 cards"
            if c is None:
                return "a draw needs its card (the chance outcome)"
            if not (self.draw_pile >> c) & 1:
                return f"card not in the draw pile: {CARDS[c]}"
            return None
        if c is None:
            return f"{kind.value} needs a card"
        if not (self.hands[p] >> c) & 1:
            return f"not in hand: {CARDS[c]}"
        t = TARGET[self.crown * NUM_CARDS + c]
        if t < 0:
            return f"off the board: {CARDS[c]} from {square_name(self.crown)} leaves the board"
        bit = 1 << t
        occ = self.stones[0] | self.stones[1]
        if kind is PLAY:
            if occ & bit:
                return f"square occupied: {square_name(t)} holds a stone"
            return None
        # HERO
        if not self.stones[1 - p] & bit:
            what = "is empty" if not occ & bit else "holds the mover's own stone"
            return f"hero needs an opponent's stone: {square_name(t)} {what}"
        if not self.heroes[p]:
            return "no hero cards left"
        return None

    def is_legal(self, move: Move) -> bool:
        return self.illegal_reason(move) is None

    def passed(self) -> bool:
        """Whether the opponent of the last mover had to pass after the last move (ruling 6)."""
        return (self.termination is None and bool(self.move_stack)
                and self.move_stack[-1].player == self.turn)

    def observation(self, player: Color) -> dict:
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

        return {
            "player": str(Color(player)), "to_move": None if self.termination else str(Color(self.turn)),
            "crown": square_name(self.crown), "red": squares(self.stones[0]), "white": squares(self.stones[1]),
            "hands": {"red": [c.name for c in self.hand(Color.RED)], "white": [c.name for c in self.hand(Color.WHITE)]},
            "heroes": {"red": self.heroes[0], "white": self.heroes[1]},
            "draw_pile": [c.name for c in self.draw_pile_cards()], "draw_pile_count": self.draw_pile.bit_count(),
            "discard_pile": [c.name for c in self.discard_pile_cards()],
            "discard_top": None if self.discard_top < 0 else CARDS[self.discard_top].name,
            "stones_left": self.stones_left, "ply": self.ply, "over": self.termination is not None,
        }

    # ------------------------------------------------------------------ outcome
    def scores(self) -> tuple[int, int]:
        """(red, white) sums of territory sizes squared (ruling 8)."""
        return score_of(self.stones[0]), score_of(self.stones[1])

    def territories(self, color: Color) -> list[int]:
        """``color``'s territories as square bitmasks, largest first."""
        return territories(self.stones[color])

    def outcome(self) -> Outcome | None:
        """The result once the game is over (ruling 7 and 8), else None."""
        if self.termination is None:
            return None
        rs, ws = self.scores()
        if rs != ws:
            winner, by = (Color.RED if rs > ws else Color.WHITE), "score"
        else:
            winner, by = decide(self.stones[0], self.stones[1])
        return Outcome(self.termination, winner, rs, ws, by)

    # ------------------------------------------------------------------ push / pop
    def push(self, move: Move) -> None:
        """Apply ``move`` **without checking it is legal** (fast; for search).

        Pushing an illegal move corrupts the state. Use :meth:`push_checked` for
        moves from people, files or the network.
        """
        self._push(_KIND_CODE[move.kind], move.card.index)  # type: ignore[union-attr]
        self.move_stack.append(move)

    def push_checked(self, move: Move) -> None:
        """Apply ``move`` after checking it; raises :class:`IllegalMoveError` saying why.

        On an error nothing changes.
        """
        reason = self.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(f"{move}: {reason}")
        self.push(move)

    def push_str(self, text: str) -> Move:
        """Parse record notation and push it checked; returns the move.

        Raises InvalidMoveError (bad text) or IllegalMoveError (breaks a rule).
        """
        move = Move.from_str(text)
        self.push_checked(move)
        return move

    def _push(self, kind: int, c: int) -> None:
        """The unchecked core of push: ``kind`` 0 play, 1 hero, 2 draw; ``c`` a card index."""
        stones = self.stones
        p = self.turn
        self._undo.append((stones[0], stones[1], self.crown, self.hands[0], self.hands[1],
                           self.heroes[p], self.draw_pile, self.discard_pile, self.discard_top, p))
        bit = 1 << c
        if kind == 2:
            self.hands[p] |= bit
            pile = self.draw_pile & ~bit
            if not pile:  # ruling 5: eager reshuffle
                pile = self.discard_pile
                self.discard_pile = 0
                self.discard_top = -1
            self.draw_pile = pile
        else:
            t = TARGET[self.crown * NUM_CARDS + c]
            tb = 1 << t
            self.hands[p] &= ~bit
            self.discard_pile |= bit
            self.discard_top = c
            self.crown = t
            if kind == 1:
                self.heroes[p] -= 1
                stones[1 - p] &= ~tb
            stones[p] |= tb
            if kind == 0 and (stones[0] | stones[1]).bit_count() == TOTAL_STONES:
                self.termination = Termination.STONES
                return
        o = 1 - p
        if self._can_move(o):
            self.turn = _COLORS[o]
        elif not self._can_move(p):
            self.termination = Termination.BLOCKED

    def pop(self) -> Move:
        """Take back the last move and return it. Raises IndexError if there is none."""
        move = self.move_stack.pop()
        (self.stones[0], self.stones[1], self.crown, self.hands[0], self.hands[1], heroes,
         self.draw_pile, self.discard_pile, self.discard_top, p) = self._undo.pop()
        self.heroes[p] = heroes
        self.turn = _COLORS[p]
        self.termination = None
        return move

    # ------------------------------------------------------------------ identity
    def canonical_bytes(self) -> bytes:
        """The position as canonical bytes (42 bytes), independent of Python's ``hash()``.

        Layout: b"RK1", turn, termination (0 none, 1 stones, 2 blocked), crown,
        heroes red, heroes white, red stones (11 bytes LE), white stones (11),
        red hand (3), white hand (3), draw pile (3), discard pile (3).
        """
        term = 0 if self.termination is None else (1 if self.termination is Termination.STONES else 2)
        return b"".join((
            b"RK1", bytes((int(self.turn), term, self.crown, self.heroes[0], self.heroes[1])),
            self.stones[0].to_bytes(11, "little"), self.stones[1].to_bytes(11, "little"),
            self.hands[0].to_bytes(3, "little"), self.hands[1].to_bytes(3, "little"),
            self.draw_pile.to_bytes(3, "little"), self.discard_pile.to_bytes(3, "little"),
        ))

    def state_hash(self) -> str:
        """SHA-256 of :meth:`canonical_bytes`, as 64 hex digits; stable across processes."""
        return hashlib.sha256(self.canonical_bytes()).hexdigest()

    def __eq__(self, other: object) -> bool:
        """Same position and same move stack."""
        if not isinstance(other, State):
            return NotImplemented
        return (self.canonical_bytes() == other.canonical_bytes() and self.move_stack == other.move_stack
                and self.deal == other.deal)

    __hash__ = None  # type: ignore[assignment]  # mutable

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
