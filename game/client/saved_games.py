"""The saved-games screens (issue 5): "Continue" and "Saved games" in the main menu, the list,
and a message panel for files that cannot be opened.

The list shows every file of the :class:`~game.saves.SaveStore`: date, players, result or
"in progress", plies. A file that cannot be read is listed with its clear error (it can
only be deleted) and never breaks the list. Open resumes an unfinished local game,
Replay opens the replay viewer, Delete asks first.
"""

from __future__ import annotations

import os
from datetime import datetime
from typing import TYPE_CHECKING, Callable

import pygame

from game.i18n import N_, _
from game.saves import RESUMABLE_KINDS, SaveEntry, SaveError, SaveStore, read_json_record, shared_store

from .theme import CANVAS, CREAM, GOLD
from .dialogs import ConfirmDialog, dim
from .games import client_for_record
from .widgets import Button, ButtonScene, panel

if TYPE_CHECKING:
    from .app import App

ROW_H = 58
ERROR_RED = (255, 150, 130)


def layout_menu_buttons(buttons: list[Button], top: int = 300, bottom: int = 740) -> None:
    """Stack menu buttons evenly between ``top`` and ``bottom`` (canvas y), centred, at most 64 high."""
    step = min(84, (bottom - top) // max(1, len(buttons)))
    h = min(64, step - 14)
    for i, b in enumerate(buttons):
        b.rect.h = h
        b.rect.y = top + i * step


def add_save_buttons(menu: ButtonScene) -> None:
    """Add "Continue" on top (if an unfinished local game is saved) and "Saved games"
    above the last button (Quit) of a main menu, then re-stack its buttons."""
    app = menu.app
    x, w = CANVAS[0] // 2 - 220, 440
    store = shared_store()
    entry = store.resumable()
    def saved_games() -> None:  # back to a fresh menu: "Continue" may have come or gone
        app.push(SavedGamesScene(app, store, on_back=lambda: app.reset(type(menu)(app))))

    menu.buttons.insert(len(menu.buttons) - 1, Button((x, 0, w, 64), N_("Saved games"), saved_games,
                                                      key=pygame.K_l, size=32))
    if entry is not None:
        menu.buttons.insert(0, Button((x, 0, w, 64), N_("Continue"), lambda: open_game(app, entry),
                                      key=pygame.K_c, size=32))
    layout_menu_buttons(menu.buttons)


def open_game(app: "App", entry: SaveEntry) -> None:
    """Resume ``entry``'s game; a file that went bad meanwhile shows why instead."""
    try:
        client_for_record(read_json_record(entry.path)).resume(app, entry.path)
    except (SaveError, ValueError) as e:  # game.records.RecordError is a ValueError
        app.push(MessageDialog(app, N_("This game cannot be opened"), f"{entry.path.name}: {e}"))


def open_replay(app: "App", path: str | os.PathLike[str], on_back: Callable[[], None] | None = None) -> str | None:
    """Push the replay viewer for the record at ``path``. A bad file pushes a message panel
    instead and its one-line reason is returned (None when the viewer opened)."""
    try:
        client = client_for_record(read_json_record(path))
    except SaveError as e:
        error: str | None = str(e)
    else:
        error = client.open_replay(app, path, on_back)
    if error is not None:
        app.push(MessageDialog(app, N_("This game cannot be opened"), f"{os.path.basename(path)}: {error}"))
    return error


def format_date(entry: SaveEntry) -> str:
    """The game's start in local time, ``2026-11-22 04:57``; the file's time if the record has none."""
    try:
        when = datetime.fromisoformat(entry.date.replace("Z", "+00:00")) if entry.date else None
    except ValueError:
        when = None
    if when is None:
        when = datetime.fromtimestamp(entry.mtime_ns / 1e9).astimezone()
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


class MessageDialog(ButtonScene):
    """A panel with a title, a message and OK (Enter or Esc) over whatever is below."""

    opaque = False

    def __init__(self, app: "App", title: str, message: str) -> None:
        super().__init__(app)
        self.title = title
        self.message = message
        self.rect = pygame.Rect(0, 0, 820, 300)
        self.rect.center = (CANVAS[0] // 2, CANVAS[1] // 2)
        self.buttons = [Button((self.rect.centerx - 100, self.rect.bottom - 76, 200, 52), N_("OK"), self.close_me,
                               key=pygame.K_RETURN)]

    def close_me(self) -> None:
        self.app.pop()

    on_escape = close_me

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        dim(surface)
        surface.blit(panel(self.rect.size, 255), self.rect)
        title = art.text(_(self.title), 36, GOLD, shadow=True)
        surface.blit(title, title.get_rect(midtop=(self.rect.centerx, self.rect.y + 26)))
        text = art.text(self.message, 24, CREAM, shadow=True, wrap=self.rect.w - 60)
        surface.blit(text, text.get_rect(midtop=(self.rect.centerx, self.rect.y + 86)))
        self.draw_buttons(surface)


class SavedGamesScene(ButtonScene):
    """Every saved game: select a row (click, arrows), then Open / Replay / Delete; double-click
    opens an unfinished game or replays a finished one. Esc goes back."""

    def __init__(self, app: "App", store: SaveStore | None = None,
                 on_back: Callable[[], None] | None = None) -> None:
        super().__init__(app)
        self.store = store or shared_store()
        self.on_back = on_back or app.pop
        self.entries: list[SaveEntry] = []
        self.selected = 0
        self.top = 0
        self.rect = pygame.Rect(60, 110, CANVAS[0] - 120, 560)
        self.rows = pygame.Rect(self.rect.x + 16, self.rect.y + 50, self.rect.w - 32, self.rect.h - 66)
        self.visible = self.rows.h // ROW_H
        self._last_click = (-1, -1_000_000)
        y, bw = self.rect.bottom + 30, 230
        xs = [self.rect.x + i * (bw + 26) for i in range(4)]
        self.buttons = [
            Button((xs[0], y, bw, 56), N_("Open"), self.open, key=pygame.K_o, enabled=self._can_open),
            Button((xs[1], y, bw, 56), N_("Replay"), self.replay, key=pygame.K_r, enabled=self._can_replay),
            Button((xs[2], y, bw, 56), N_("Delete"), self.delete, key=pygame.K_DELETE,
                   enabled=lambda: self.entry is not None),
            Button((self.rect.right - bw, y, bw, 56), N_("Back"), self.back, key=pygame.K_b),
        ]
        self.refresh()

    # ------------------------------------------------------------------ data
    def refresh(self) -> None:
        """Reread the folder (only changed files are parsed again)."""
        self.entries = self.store.list()
        self.selected = max(0, min(self.selected, len(self.entries) - 1))
        self._scroll_to_selected()

    @property
    def entry(self) -> SaveEntry | None:
        return self.entries[self.selected] if 0 <= self.selected < len(self.entries) else None

    def _can_open(self) -> bool:
        e = self.entry
        return e is not None and e.ok and e.result is None and e.kind in RESUMABLE_KINDS

    def _can_replay(self) -> bool:
        e = self.entry
        return e is not None and e.ok

    # ------------------------------------------------------------------ actions
    def open(self) -> None:
        if self._can_open():
            open_game(self.app, self.entry)  # type: ignore[arg-type]

    def replay(self) -> None:
        if self._can_replay():
            open_replay(self.app, self.entry.path)  # type: ignore[union-attr]

    def delete(self) -> None:
        entry = self.entry
        if entry is None:
            return

        def really() -> None:
            try:
                self.store.delete(entry)
            except (OSError, ValueError) as e:
                self.app.push(MessageDialog(self.app, N_("The file could not be deleted"), str(e)))
            self.refresh()

        what = entry.path.name if not entry.ok else f"{format_date(entry)}  {entry.players()}"
        self.app.push(ConfirmDialog(self.app, _("Delete this saved game?\n{what}").format(what=what), really,
                                    yes=N_("Delete"), no=N_("Keep")))

    def back(self) -> None:
        self.on_back()

    on_escape = back

    def activate(self) -> None:
        """Enter or a double-click: open an unfinished game, else replay."""
        if self._can_open():
            self.open()
        else:
            self.replay()

    def _scroll_to_selected(self) -> None:
        if self.selected < self.top:
            self.top = self.selected
        elif self.selected >= self.top + self.visible:
            self.top = self.selected - self.visible + 1
        self.top = max(0, min(self.top, max(0, len(self.entries) - self.visible)))

    def row_rect(self, index: int) -> pygame.Rect:
        """Where list row ``index`` is drawn now (it may be scrolled out of view)."""
        return pygame.Rect(self.rows.x, self.rows.y + (index - self.top) * ROW_H, self.rows.w, ROW_H - 4)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_DOWN):
            step = -1 if event.key == pygame.K_UP else 1
            self.selected = max(0, min(len(self.entries) - 1, self.selected + step))
            self._scroll_to_selected()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.activate()
        elif event.type == pygame.MOUSEWHEEL:
            self.top = max(0, min(self.top - event.y, max(0, len(self.entries) - self.visible)))
        elif (event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rows.collidepoint(event.pos)):
            index = self.top + (event.pos[1] - self.rows.y) // ROW_H
            if 0 <= index < len(self.entries):
                now = pygame.time.get_ticks()
                double = self._last_click[0] == index and now - self._last_click[1] < 400
                self.selected, self._last_click = index, (index, now)
                if double:
                    self.activate()
        else:
            super().handle_event(event)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        surface.blit(art.table, (0, 0))
        title = art.text(_("Saved games"), 56, GOLD, shadow=True)
        surface.blit(title, title.get_rect(midtop=(CANVAS[0] // 2, 30)))
        surface.blit(panel(self.rect.size), self.rect)
        cols = (0, 230, 640, 1000)
        for text, x in zip((_("Date"), _("Players"), _("Result"), _("Plies")), cols):
            s = art.text(text, 22, GOLD)
            surface.blit(s, (self.rows.x + 14 + x, self.rect.y + 16))
        if not self.entries:
            s = art.text(_("No saved games yet: every game you play is saved here by itself."), 26, CREAM,
                         wrap=self.rows.w - 40)
            surface.blit(s, s.get_rect(center=self.rows.center))
        for i in range(self.top, min(len(self.entries), self.top + self.visible)):
            self._draw_row(surface, i, cols)
        if len(self.entries) > self.visible:
            more = art.text(_("{first}–{last} of {count}").format(
                first=self.top + 1, last=min(len(self.entries), self.top + self.visible), count=len(self.entries)),
                18, CREAM)
            surface.blit(more, more.get_rect(bottomright=(self.rect.right - 16, self.rect.y + 38)))
        self.draw_buttons(surface)

    def _draw_row(self, surface: pygame.Surface, i: int, cols: tuple[int, ...]) -> None:
        art = self.app.art
        e = self.entries[i]
        r = self.row_rect(i)
        if i == self.selected:
            pygame.draw.rect(surface, (250, 214, 120), r, border_radius=8)
            pygame.draw.rect(surface, GOLD, r, 2, border_radius=8)
        else:
            pygame.draw.rect(surface, (70, 44, 24), r, border_radius=8)
        ink = (40, 26, 14) if i == self.selected else CREAM
        y = r.y + 14
        if not e.ok:
            name = art.text(e.path.name, 22, ink)
            surface.blit(name, (r.x + 14, y))
            err = art.text(_("cannot be opened: {reason}").format(reason=e.error), 19,
                           (150, 30, 20) if i == self.selected else ERROR_RED)
            room = r.w - 14 - cols[1]
            surface.blit(err, (r.x + 14 + cols[1], y + 2), pygame.Rect(0, 0, room, err.get_height()))
            return
        status = e.status_text()
        if e.result is None and e.summary is None:
            status = _("in progress · {colour} to move").format(
                colour=_("Red") if int(e.to_move or 0) == 0 else _("White"))
        for text, x in zip((format_date(e), e.players(), status, str(e.plies)), cols):
            s = art.text(text, 22, ink)
            surface.blit(s, (r.x + 14 + x, y), pygame.Rect(0, 0, 400, s.get_height()))
