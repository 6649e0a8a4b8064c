"""The saved-games screens: "Continue" and "Saved games" in the main menu, the list,
and a message panel for files that cannot be opened.

The list shows every file of the :class:`~game.saves.SaveStore`: date, players, the result (the
winners by name) or who is to act, and how far the game went in its own words (each game's
:class:`~game.saves.Summary`: "24 moves · 30 stones left", "round 2 of 3, trick 5"). A file that cannot be read is listed with its clear error (it can
only be deleted) and never breaks the list. Open resumes an unfinished local game,
Replay opens the replay viewer, Delete asks first.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import pygame

from game.fsutil import os_error_text
from game.i18n import N_, _
from game.saves import RESUMABLE_KINDS, SaveEntry, SaveError, SaveStore, read_json_record, shared_store

from .theme import CANVAS, CREAM, GOLD
from .dialogs import ConfirmDialog, dim
from .games import client_for_record
from .widgets import Button, ButtonScene, elide, panel

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


def add_save_buttons(menu: ButtonScene, app: "App", game: str) -> None:
    """Add "Continue" on top (if an unfinished local game of ``game``, a game's key, is saved)
    and "Saved games" above the last button (Quit) of a main menu (in ``app``'s window), then
    re-stack its buttons."""
    x, w = CANVAS[0] // 2 - 220, 440
    store = shared_store()
    entry = store.resumable(game)
    def saved_games() -> None:  # back to a fresh menu: "Continue" may have come or gone
        app.push(SavedGamesScene(app, store, on_back=lambda: app.reset(type(menu)(app))))

    menu.buttons.insert(len(menu.buttons) - 1, Button((x, 0, w, 64), N_("Saved games"), saved_games,
                                                      key=pygame.K_l, size=32))
    if entry is not None:
        menu.buttons.insert(0, Button((x, 0, w, 64), lambda: continue_label(entry), lambda: open_game(app, entry),
                                      key=pygame.K_c, size=32))
    layout_menu_buttons(menu.buttons)


def continue_label(entry: SaveEntry) -> str:
    """"Continue" saying which game: the players and how far it went, in the game's own words."""
    return _("Continue: {players}, {progress}").format(players=entry.players(), progress=entry.progress())


def open_file(app: "App", path: str | os.PathLike[str], on_back: Callable[[], None] | None = None) -> str | None:
    """Open any game file ("Save as…" files, records, saves): an unfinished game that can be
    played on here resumes; a finished one (or a network game) opens in the replay viewer.
    A bad file pushes a message panel and its one-line reason is returned (None when opened)."""
    try:
        record = read_json_record(path)
        client = client_for_record(record)
    except (SaveError, ValueError) as e:  # game.records.RecordError is a ValueError
        error = str(e)
        app.push(MessageDialog(app, N_("This game cannot be opened"), f"{os.path.basename(path)}: {error}"))
        return error
    if record.get("result") is None:
        try:
            client.resume(app, path)
            return None
        except SaveError as e:
            error = str(e)
            app.push(MessageDialog(app, N_("This game cannot be opened"), f"{os.path.basename(path)}: {error}"))
            return error
        except ValueError:  # a network game is played on only with its opponent: watch it instead
            pass
    return open_replay(app, path, on_back)


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


#: The list's columns (x from the row's text start, px): date, game, players, result, progress.
COLUMNS = (0, 146, 300, 590, 850)


def game_title(key: str) -> str:
    """A game's title in the current language ("Royals & Riots"), "" for an unknown key."""
    from .games import client_by_key
    try:
        return _(client_by_key(key).title)
    except (KeyError, LookupError, ValueError):
        return ""


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
        self.still = True
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
        text = art.text(self.message, 24, CREAM, shadow=True, wrap=self.rect.w - 60, center=True)
        surface.blit(text, text.get_rect(midtop=(self.rect.centerx, self.rect.y + 86)))
        self.draw_buttons(surface)


class SavedGamesScene(ButtonScene):
    """Every saved game: select a row (click, arrows), then Open / Replay / Delete; double-click
    opens an unfinished game or replays a finished one. Esc goes back."""

    app: "App"

    def __init__(self, app: "App", store: SaveStore | None = None,
                 on_back: Callable[[], None] | None = None) -> None:
        super().__init__(app)
        self.store = store or shared_store()
        self.still = True
        self.on_back = on_back or app.pop
        self.entries: list[SaveEntry] = []
        self.selected = 0
        self.top = 0
        self.rect = pygame.Rect(60, 110, CANVAS[0] - 120, 560)
        self.rows = pygame.Rect(self.rect.x + 16, self.rect.y + 50, self.rect.w - 32, self.rect.h - 66)
        self.visible = self.rows.h // ROW_H
        self._last_click = (-1, -1_000_000)
        y, bw = self.rect.bottom + 30, 224
        xs = [self.rect.x + i * (bw + 20) for i in range(4)]  # clear of "Back" at the right
        self.buttons = [
            Button((xs[0], y, bw, 56), N_("Open"), self.open, key=pygame.K_o, enabled=self._can_open),
            Button((xs[1], y, bw, 56), N_("Replay"), self.replay, key=pygame.K_r, enabled=self._can_replay),
            Button((xs[2], y, bw, 56), N_("Delete"), self.delete, key=pygame.K_DELETE,
                   enabled=lambda: self.entry is not None),
            Button((xs[3], y, bw, 56), N_("Open a file…"), self.open_file, key=pygame.K_f),
            Button((self.rect.right - 180, y, 180, 56), N_("Back"), self.back, key=pygame.K_b),
        ]
        self.refresh()

    # ------------------------------------------------------------------ data
    def refresh(self) -> None:
        """Reread the folder (only changed files are parsed again)."""
        # newest first, files that cannot be opened after the good ones (they can only be deleted)
        self.entries = sorted(self.store.list(), key=lambda e: not e.ok)
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
        entry = self.entry
        if entry is not None and self._can_open():
            open_game(self.app, entry)

    def replay(self) -> None:
        entry = self.entry
        if entry is not None and self._can_replay():
            open_replay(self.app, entry.path)

    def delete(self) -> None:
        entry = self.entry
        if entry is None:
            return

        def really() -> None:
            try:
                self.store.delete(entry)
            except (OSError, ValueError) as e:
                reason = os_error_text(e) if isinstance(e, OSError) else str(e)
                self.app.push(MessageDialog(self.app, N_("The file could not be deleted"),
                                            reason[:1].upper() + reason[1:]))  # (a phrase, alone here)
            self.refresh()

        what = entry.path.name if not entry.ok else f"{format_date(entry)}  {entry.players()}"
        self.app.push(ConfirmDialog(self.app, _("Delete this saved game?\n{what}").format(what=what), really,
                                    yes=N_("Delete"), no=N_("Keep")))

    def back(self) -> None:
        self.on_back()

    def open_file(self) -> None:
        """Open any game file by its path (a "Save as…" file, a record from elsewhere)."""
        self.app.push(OpenFileDialog(self.app, lambda path: open_file(self.app, path)))

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
        cols = COLUMNS
        for text, x in zip((_("Date"), _("Game"), _("Players"), _("Result"), _("Progress")), cols):
            s = art.text(text, 22, GOLD)
            surface.blit(s, (self.rows.x + 14 + x, self.rect.y + 16))
        if not self.entries:
            s = art.text(_("No saved games yet: every game you play is saved here by itself."), 26, CREAM,
                         wrap=self.rows.w - 40, center=True)
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
        note = e.note()
        if note:
            y = r.y + 5  # two lines: the row's texts, and under them what kind of game it is
            s = art.text(elide(art.font(18), note, r.w - 28 - cols[2]), 18,
                         (110, 70, 30) if i == self.selected else GOLD)
            surface.blit(s, (r.x + 14 + cols[2], r.y + 31))
        font = art.font(22)
        texts = (format_date(e), game_title(e.game), e.players(), status, e.progress())
        for k, (text, x) in enumerate(zip(texts, cols)):
            room = (cols[k + 1] - x - 16) if k + 1 < len(cols) else r.w - 28 - x
            s = art.text(elide(font, text, room), 22, ink)  # never over the next column
            surface.blit(s, (r.x + 14 + x, y))


def default_folder() -> Path:
    """Where "Save as…" puts games: ``<Documents>/Rose King`` (the open-file field starts there)."""
    from platformdirs import user_documents_dir
    return Path(user_documents_dir()) / "Rose King"


class OpenFileDialog(ButtonScene):
    """Open a game file: a path field (typing, Ctrl+V, Tab completes a name) and, under it, the
    game files of the folder typed so far, newest first, to click. Enter or "Open" opens
    the path; a folder lists its files instead. ``on_open(path)`` does the opening."""

    opaque = False
    ROWS = 6

    def __init__(self, app: "App", on_open: Callable[[str], object], folder: Path | None = None) -> None:
        from .textinput import TextInput
        super().__init__(app)
        self.still = False  # the caret blinks
        self.on_open = on_open
        self.rect = pygame.Rect(0, 0, 980, 560)
        self.rect.center = (CANVAS[0] // 2, CANVAS[1] // 2)
        start = folder if folder is not None else default_folder()
        text = str(start) + os.sep if start.is_dir() else str(Path.home()) + os.sep
        self.field = TextInput((self.rect.x + 30, self.rect.y + 84, self.rect.w - 60, 50), text,
                               on_submit=lambda _t: self.accept(), focused=True, escape=False, style="light",
                               size=24)
        self.error: str | None = None
        self.files: list[Path] = []
        self._listed: str | None = None
        bw = 220
        self.rows = [Button((self.rect.x + 30, self.rect.y + 178 + i * 46, self.rect.w - 60, 40),
                            self._row_label(i), self._row_action(i), size=22) for i in range(self.ROWS)]
        self.buttons = [*self.rows,
                        Button((self.rect.centerx - bw - 15, self.rect.bottom - 72, bw, 52), N_("Open"), self.accept),
                        Button((self.rect.centerx + 15, self.rect.bottom - 72, bw, 52), N_("Cancel"), self.cancel)]
        self.ready = False

    def _row_label(self, i: int) -> Callable[[], str]:
        return lambda: self.files[i].name if i < len(self.files) else ""

    def _row_action(self, i: int) -> Callable[[], None]:
        def action() -> None:
            if i < len(self.files):
                self.open(self.files[i])
        return action

    def _folder(self) -> Path:
        text = os.path.expanduser(self.field.text.strip())
        path = Path(text)
        return path if text.endswith(os.sep) or path.is_dir() else path.parent

    def _refresh_files(self) -> None:
        folder = self._folder()
        if str(folder) == self._listed:
            return
        self._listed = str(folder)
        try:
            found = [p for p in folder.iterdir() if p.suffix.lower() == ".json" and p.is_file()]
            found.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        except OSError:
            found = []
        self.files = found[:self.ROWS]

    def accept(self) -> None:
        text = self.field.text.strip()
        if not text:
            self.error = _("Type a file name.")
            return
        path = Path(os.path.expanduser(text))
        if path.is_dir():
            self.field.text = str(path) + os.sep
            self.field.cursor = len(self.field.text)
            return
        if not path.exists():
            self.error = _("There is no file {name}.").format(name=str(path))
            return
        self.open(path)

    def open(self, path: Path) -> None:
        self.field.blur(keep=False)
        self.app.pop()
        self.on_open(str(path))

    def cancel(self) -> None:
        self.field.blur(keep=False)
        self.app.pop()

    on_escape = cancel

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.TEXTINPUT and not self.ready:
            return  # not the letter of the key that opened this dialog
        if event.type == pygame.TEXTINPUT or event.type == pygame.KEYDOWN:
            self.error = None
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB:
            self._complete()
            return
        if event.type != pygame.MOUSEBUTTONDOWN and self.field.handle_event(event):
            return
        super().handle_event(event)

    def _complete(self) -> None:
        """Tab: complete the name being typed from the folder's files (the common start of the matches)."""
        text = os.path.expanduser(self.field.text)
        folder, stem = os.path.split(text)
        try:
            names = [n for n in os.listdir(folder or ".") if n.startswith(stem)]
        except OSError:
            return
        if names:
            common = os.path.commonprefix(names)
            full = os.path.join(folder, common)
            if len(names) == 1 and os.path.isdir(full):
                full += os.sep
            self.field.text = full
            self.field.cursor = len(full)

    def update(self, dt: float) -> None:
        self.ready = True
        self.field.update(dt)
        self._refresh_files()

    def close(self) -> None:
        self.field.blur(keep=False)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        dim(surface)
        surface.blit(panel(self.rect.size, 255), self.rect)
        title = art.text(_("Open a game file"), 34, GOLD, shadow=True)
        surface.blit(title, (self.rect.x + 30, self.rect.y + 26))
        self.field.draw(surface, art)
        below = self.field.rect.bottom + 10
        if self.error:
            msg = art.text(self.error, 22, ERROR_RED, shadow=True, wrap=self.rect.w - 60)
            surface.blit(msg, (self.rect.x + 30, below))
        else:
            hint = art.text(_("Enter: open   Tab: complete the name   Esc: cancel"), 19, CREAM)
            surface.blit(hint, (self.rect.x + 30, below + 2))
        if not self.files:
            none = art.text(_("No game files in this folder."), 22, CREAM)
            surface.blit(none, (self.rect.x + 34, self.rect.y + 186))
        for b in self.buttons:
            if b.text():
                b.draw(surface, art)
