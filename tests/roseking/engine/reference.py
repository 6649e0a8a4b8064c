"""A naive reference engine for Rose King, written straight from ``docs/rules.md``.

It shares no code with :mod:`game.roseking.engine` (not even the card table): squares
are ``(file, rank)`` tuples, the board is a dict ``square -> "red" | "white"``, hands
are lists of card names, a move is checked against the rules one by one
(:meth:`RefGame.illegal_reason`), whether a player can act is found by enumerating
their moves, and territories are found by a breadth-first flood fill. It is written
to be obvious, not fast, and serves two ends:

- an independent oracle: the property tests check the engine's kernel against it
  move by move over random games (``test_kernel.py``);
- the yardstick of ``bench/engine.py``: the engine's full-game validation is
  measured as a ratio to :func:`validate` run in the same process.

Rulings used (``docs/rules.md``): 1 (board, crown on e5), 2 (24 cards, directions),
3 (deal, 4 heroes, 52 stones, Red first), 4 (play/draw/hero), 5 (reshuffle as soon as
the draw pile is empty), 6 (pass while a player cannot act), 7 (end), 8 (scoring and
tie-breaks).
"""

from __future__ import annotations

from collections import deque

FILES = "abcdefghi"
DIRS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
        "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}
ALL_CARDS = [d + str(n) for d in DIRS for n in (1, 2, 3)]  # N1, N2, N3, NE1 ... NW3 (ruling 2)
COLOURS = ("red", "white")


class RefError(ValueError):
    """A record the reference rules reject (bad deal, illegal move, wrong result)."""


def card_target(square: tuple[int, int], card: str) -> tuple[int, int] | None:
    """Where ``card`` moves a crown standing on ``square``, or None off the board (rulings 1, 2)."""
    df, dr = DIRS[card[:-1]]
    n = int(card[-1])
    f, r = square[0] + df * n, square[1] + dr * n
    return (f, r) if 0 <= f < 9 and 0 <= r < 9 else None


def square_name(square: tuple[int, int]) -> str:
    return FILES[square[0]] + str(square[1] + 1)


def groups(board: dict, colour: str) -> list[int]:
    """Sizes of ``colour``'s territories (edge-connected, ruling 8), largest first."""
    seen = set()
    sizes = []
    for sq, c in board.items():
        if c != colour or sq in seen:
            continue
        size = 0
        todo = deque([sq])
        seen.add(sq)
        while todo:
            f, r = todo.popleft()
            size += 1
            for nb in ((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)):
                if board.get(nb) == colour and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        sizes.append(size)
    return sorted(sizes, reverse=True)


class RefGame:
    """A game in progress: ``board``, ``crown``, ``hands``, ``heroes``, ``draw_pile`` (a set:
    the order does not matter to the rules), ``discard`` (a list), ``turn``, ``over``."""

    def __init__(self, red_hand: list[str], white_hand: list[str]) -> None:
        hands = [list(red_hand), list(white_hand)]
        every = hands[0] + hands[1]
        if any(len(h) != 5 for h in hands) or len(set(every)) != 10 or not set(every) <= set(ALL_CARDS):
            raise RefError("bad deal")
        self.board: dict[tuple[int, int], str] = {}
        self.crown = (4, 4)
        self.hands = {"red": hands[0], "white": hands[1]}
        self.heroes = {"red": 4, "white": 4}
        self.draw_pile = set(ALL_CARDS) - set(every)
        self.discard: list[str] = []
        self.turn = "red"
        self.over = False
        self.plies = 0

    def other(self, colour: str) -> str:
        return "white" if colour == "red" else "red"

    def actions(self, colour: str) -> list[str]:
        """Every legal move text of ``colour`` without the drawn card: ``"red play N1"``,
        ``"red hero E2"``, ``"red draw"`` (ruling 4)."""
        out = []
        for card in self.hands[colour]:
            t = card_target(self.crown, card)
            if t is None:
                continue
            if t not in self.board:
                out.append(f"{colour} play {card}")
            elif self.board[t] != colour and self.heroes[colour] > 0:
                out.append(f"{colour} hero {card}")
        if len(self.hands[colour]) < 5:
            out.append(f"{colour} draw")
        return out

    def legal_texts(self) -> list[str]:
        """The mover's legal moves as record texts, a draw once per card it can bring."""
        if self.over:
            return []
        out = []
        for a in self.actions(self.turn):
            if a.endswith(" draw"):
                out.extend(f"{a} {c}" for c in sorted(self.draw_pile, key=ALL_CARDS.index))
            else:
                out.append(a)
        return out

    def illegal_reason(self, text: str) -> str | None:
        """Why the record move ``text`` breaks a rule here, or None when it is legal (ruling 4)."""
        parts = text.split(" ")
        if len(parts) != 3 or parts[0] not in COLOURS or parts[1] not in ("play", "hero", "draw") \
                or parts[2] not in ALL_CARDS:
            return "not a move"
        colour, kind, card = parts
        if self.over:
            return "game over"
        if colour != self.turn:
            return "not this player's turn"
        if kind == "draw":
            if len(self.hands[colour]) >= 5:
                return "hand full"
            return None if card in self.draw_pile else "card not in the draw pile"
        if card not in self.hands[colour]:
            return "card not in hand"
        t = card_target(self.crown, card)
        if t is None:
            return "off the board"
        if kind == "play":
            return None if t not in self.board else "square occupied"
        if self.board.get(t) != self.other(colour):
            return "no opponent's stone to flip"
        return None if self.heroes[colour] > 0 else "no hero cards left"

    def play(self, text: str) -> None:
        """Apply one record move after checking it is legal; raises RefError otherwise."""
        reason = self.illegal_reason(text)
        if reason is not None:
            raise RefError(f"illegal move: {text}: {reason}")
        colour, kind, card = text.split(" ")
        if kind == "draw":
            self.hands[colour].append(card)
            self.draw_pile.remove(card)
            if not self.draw_pile:  # ruling 5
                self.draw_pile = set(self.discard)
                self.discard = []
        else:
            self.hands[colour].remove(card)
            self.discard.append(card)
            self.crown = card_target(self.crown, card)
            if kind == "hero":
                self.heroes[colour] -= 1
            self.board[self.crown] = colour
        self.plies += 1
        if len(self.board) == 52:  # ruling 7
            self.over = True
        elif self.actions(self.other(colour)):  # ruling 6
            self.turn = self.other(colour)
        elif self.actions(colour):
            self.turn = colour
        else:
            self.over = True

    def result(self) -> dict:
        """The record's ``result`` object (ruling 8's order of tie-breaks)."""
        sizes = {c: groups(self.board, c) for c in COLOURS}
        score = {c: sum(s * s for s in sizes[c]) for c in COLOURS}
        keys = {c: (score[c], sizes[c][0] if sizes[c] else 0, sum(sizes[c])) for c in COLOURS}
        winner = "draw" if keys["red"] == keys["white"] else max(COLOURS, key=keys.get)
        return {"red": score["red"], "white": score["white"], "winner": winner}


def validate(record: dict) -> dict | None:
    """Replay a parsed record (``{"deal": {...}, "moves": [...], "result": ...}``) checking every
    move and the result; returns the result of a finished game, None for one in progress.
    Raises RefError for a bad deal, an illegal move or a result that does not match."""
    game = RefGame(record["deal"]["red"], record["deal"]["white"])
    for text in record["moves"]:
        game.play(text)
    if not game.over:
        if record.get("result") is not None:
            raise RefError("result given for a game in progress")
        return None
    result = game.result()
    if record.get("result") is not None and record["result"] != result:
        raise RefError("result does not match")
    return result
