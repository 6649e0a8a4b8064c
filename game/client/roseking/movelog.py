"""The move log: every action of the game in readable words, passes and draws
included, in the player's language, each row clickable to show that position.

The live game view draws it in the left column under the status box; the replay viewer
uses the same words in its move list. Rows come from a state's move stack
(:func:`ply_infos`), so a resumed or undone game shows its whole history.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pygame

from game.i18n import _
from game.roseking.engine import HERO, Color, State, square_name
from game.roseking.phrases import card_label, color_name
from game.roseking.replay import PlyInfo

from .art import COLOR_UI, CREAM, GOLD
from ..widgets import panel

LINE_H = 24
PASS_MARK = (120, 200, 255)


def opening(state: State) -> State:
    """A copy of ``state`` taken back to before its first move (same deal)."""
    s = state.copy()
    while s.move_stack:
        s.pop()
    return s


def state_at(state: State, ply: int) -> State:
    """A copy of ``state`` taken back to ``ply`` moves (clamped)."""
    s = state.copy()
    while s.ply > max(0, ply):
        s.pop()
    return s


def ply_infos(state: State) -> list[PlyInfo]:
    """One :class:`PlyInfo` per move of ``state``'s move stack (crown squares, passes, scores)."""
    s = opening(state)
    infos: list[PlyInfo] = []
    for n, move in enumerate(state.move_stack, 1):
        before = s.crown
        s.push(move)
        infos.append(PlyInfo(n, move, before, s.crown,
                             Color(s.turn).other if s.passed() and not s.is_game_over() else None,
                             s.scores(), s.stones_left))
    return infos


def move_words(info: PlyInfo) -> str:
    """A move in a few words of the current language: "NE II to g7", "hero E II flips f4",
    "draws S I" (compass letters translated: German "NO II")."""
    move = info.move
    card = card_label(move.card) if move.card is not None else "?"
    kind = move.kind.value
    if kind == "draw":
        return _("draws {card}").format(card=card)
    square = square_name(info.crown_to)
    if move.kind is HERO:
        return _("hero {card} flips {square}").format(card=card, square=square)
    return _("{card} to {square}").format(card=card, square=square)


@dataclass(frozen=True)
class Row:
    """One line of the log: a move (``pass_of`` None) or the pass that followed it."""

    info: PlyInfo
    pass_of: Color | None = None


def rows_of(infos: Sequence[PlyInfo]) -> list[Row]:
    rows: list[Row] = []
    for info in infos:
        rows.append(Row(info))
        if info.passed is not None:
            rows.append(Row(info, info.passed))
    return rows


class MoveLog:
    """The log drawn in ``rect``: newest at the bottom, following the game unless scrolled;
    ``current`` (a ply) is highlighted. :meth:`ply_at` says which ply a click picks."""

    def __init__(self, rect: pygame.Rect) -> None:
        self.rect = pygame.Rect(rect)
        self.top = 0  # first row shown
        self.follow = True  # keep the newest row in view
        self._key: tuple | None = None
        self.rows: list[Row] = []
        self.infos: list[PlyInfo] = []

    @property
    def visible(self) -> int:
        return max(1, (self.rect.h - 46) // LINE_H)

    def refresh(self, state: State) -> None:
        """Rebuild the rows if ``state``'s moves changed (a move, an undo, a resume)."""
        key = tuple(state.move_stack)
        if key != self._key:
            self._key = key
            self.infos = ply_infos(state)
            self.rows = rows_of(self.infos)
            if self.follow:
                self.top = max(0, len(self.rows) - self.visible)
            self.top = min(self.top, max(0, len(self.rows) - self.visible))

    def show(self, ply: int) -> None:
        """Scroll so the row of move ``ply`` is in view."""
        index = next((i for i, row in enumerate(self.rows) if row.info.number == ply), None)
        if index is not None and not self.top <= index < self.top + self.visible:
            self.top = max(0, min(index - self.visible // 2, len(self.rows) - self.visible))
            self.follow = False

    def scroll(self, lines: int) -> None:
        self.top = max(0, min(len(self.rows) - self.visible, self.top + lines))
        self.follow = self.top >= len(self.rows) - self.visible

    def row_rect(self, index: int) -> pygame.Rect:
        return pygame.Rect(self.rect.x + 8, self.rect.y + 40 + (index - self.top) * LINE_H, self.rect.w - 16, LINE_H)

    def ply_at(self, pos: tuple[int, int]) -> int | None:
        """The ply whose row is under ``pos`` (the position after that move), or None."""
        if not self.rect.collidepoint(pos):
            return None
        index = self.top + (pos[1] - (self.rect.y + 40)) // LINE_H
        if pos[1] < self.rect.y + 40 or not 0 <= index < min(len(self.rows), self.top + self.visible):
            return None
        return self.rows[index].info.number

    def row_center(self, ply: int) -> tuple[int, int]:
        """Where the row of move ``ply`` is drawn now (tests click here). Raises ValueError if not shown."""
        for i, row in enumerate(self.rows):
            if row.info.number == ply and row.pass_of is None and self.top <= i < self.top + self.visible:
                return self.row_rect(i).center
        raise ValueError(f"ply {ply} is not shown")

    def draw(self, surface: pygame.Surface, art, names: Sequence[str], current: int | None) -> None:
        r = self.rect
        surface.blit(panel(r.size, 235, 10), r)
        title = art.text(_("Moves"), 24, GOLD, shadow=True)
        surface.blit(title, (r.x + 14, r.y + 10))
        if not self.rows:
            s = art.text(_("No moves yet."), 19, (220, 200, 160))
            surface.blit(s, (r.x + 16, r.y + 44))
            return
        if len(self.rows) > 0:
            tip = art.text(_("Click a move to see it"), 16, (220, 200, 160))
            surface.blit(tip, tip.get_rect(topright=(r.right - 14, r.y + 16)))
        for i in range(self.top, min(len(self.rows), self.top + self.visible)):
            row = self.rows[i]
            line = self.row_rect(i)
            info = row.info
            selected = row.pass_of is None and current == info.number
            if selected:
                pygame.draw.rect(surface, (250, 214, 120), line, border_radius=6)
            if row.pass_of is not None:
                text = "      " + _("{name} passes").format(name=names[row.pass_of])
                ink = PASS_MARK
            else:
                text = f"{info.number:>3}. {names[info.player]}: {move_words(info)}"
                ink = (40, 26, 14) if selected else COLOR_UI[info.player]
            s = art.text(text, 19, ink)
            surface.blit(s, (line.x + 6, line.y + 3), pygame.Rect(0, 0, line.w - 10, LINE_H))
        if len(self.rows) > self.visible:  # a thin scroll bar
            bar = pygame.Rect(r.right - 8, r.y + 40, 3, self.visible * LINE_H)
            knob = bar.copy()
            knob.h = max(12, bar.h * self.visible // len(self.rows))
            knob.y = bar.y + (bar.h - knob.h) * self.top // max(1, len(self.rows) - self.visible)
            pygame.draw.rect(surface, (90, 60, 30), bar)
            pygame.draw.rect(surface, CREAM, knob)


__all__ = ["LINE_H", "MoveLog", "Row", "move_words", "opening", "ply_infos", "rows_of", "state_at", "color_name"]
