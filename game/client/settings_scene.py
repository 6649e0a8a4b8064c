"""The settings screen, opened from the main menu and the pause menu.

The app-wide rows first (language, each in its own name; animation speed; sound; volume; full
screen), then, under the game's title, the rows of one game's section, built from that game's
``settings_schema`` (:class:`game.settings.Field`: a name field, a choice of buttons, an on/off
switch; a ``"reset"`` field is a button at the bottom, such as Rose King's "Show the tutorial
again"). Opened from a game's tab or table it shows that game's names and levels only. Every
click goes straight to ``store.update`` / ``store.update_game`` through ``app.prefs``: it is
validated, saved atomically and applied at once (a language switch re-renders this screen and
every screen under it).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

import pygame

from game import i18n
from game.i18n import N_, _
from game.registry import game_by_key
from game.settings import ANIMATION_SPEEDS, APP_ROWS, FIELD_LABELS, MAX_NAME_LENGTH, Field, schema_of
from game.schema import on_off_text, speed_text, volume_text

from .audio import effects
from .theme import CANVAS, CREAM, GOLD
from .textinput import TextInput
from .scene import AppLike
from .widgets import Button, ButtonScene, fit_size, panel

#: Volume changes by this much per click of "−"/"+".
VOLUME_STEP = 0.05
PANEL = pygame.Rect(80, 24, CANVAS[0] - 160, CANVAS[1] - 48)
LABEL_X, CONTROL_X, CONTROL_W = PANEL.x + 40, PANEL.x + 440, PANEL.right - 40 - (PANEL.x + 440)
ROW_Y0, ROW_H = PANEL.y + 92, 58
#: The height of the game's heading between the app-wide rows and the game's.
HEADING_H = 40
#: The text size of a row of radio buttons, and the smallest a crowded row's text may take.
ROW_TEXT, MIN_ROW_TEXT = 28, 20


class SettingsScene(ButtonScene):
    """Change the settings; Back or Esc returns to where it was opened.

    ``game``: whose section to show (a key of :data:`game.registry.GAMES`); None: the game of the
    nearest scene below that belongs to a game (the pause menu over a table), else the main menu's
    tab chosen last (the ``game`` setting). Raises ValueError for an unknown game.
    """

    def __init__(self, app: "AppLike", game: str | None = None) -> None:
        super().__init__(app)
        self.prefs = app.prefs
        if game is None:
            found = getattr(app, "game_of_scene", lambda scene: None)
            game = next((k for k in map(found, reversed(getattr(app, "scenes", []))) if k), None)
        self.game = game if game is not None else self.prefs.settings.game
        self.schema = schema_of(self.game)
        self.title = game_by_key(self.game).title
        #: The fields of the game's section shown as rows, in the schema's order.
        self.game_rows = [name for name, f in self.schema.items() if f.control in ("text", "choice", "switch")]
        self.names: dict[str, TextInput] = {}
        self.rows: list[list[Button]] = []  # the rows of radio buttons (laid out again on a language change)
        self._language = i18n.language()
        self._row("language", [(partial(i18n.LANGUAGE_NAMES.__getitem__, code), code) for code in i18n.LANGUAGES])
        self._row("animation_speed", [(partial(speed_text, s), s) for s in ANIMATION_SPEEDS])
        self._switch("sound")
        y = self._y("volume")
        self.buttons += [
            Button((CONTROL_X, y, 64, 48), lambda: "−", lambda: self._volume(-VOLUME_STEP), size=34),
            Button((CONTROL_X + 370, y, 64, 48), lambda: "+", lambda: self._volume(VOLUME_STEP), size=34),
        ]
        self._switch("fullscreen")
        for name in self.game_rows:
            self._game_row(name, self.schema[name])
        bottom = PANEL.bottom - 76
        resets = [name for name, f in self.schema.items() if f.control == "reset"]
        for i, name in enumerate(resets):
            self.buttons.append(Button((LABEL_X + i * 420, bottom, 400, 54), self.schema[name].label,
                                       self._resetter(name), size=28, enabled=self._differs(name)))
        self.buttons.append(Button((PANEL.right - 40 - 260, bottom, 260, 54), N_("Back"), self.back, size=30))

    # ------------------------------------------------------------------ building rows
    def _y(self, field: str) -> int:
        """The top of the row of an app-wide field or of one of the game's."""
        if field in APP_ROWS:
            return ROW_Y0 + APP_ROWS.index(field) * ROW_H
        return ROW_Y0 + len(APP_ROWS) * ROW_H + HEADING_H + self.game_rows.index(field) * ROW_H

    def _get(self, field: str) -> Any:
        if field in APP_ROWS:
            return getattr(self.prefs.settings, field)
        return self.prefs.settings.of(self.game)[field]

    def _is(self, field: str, value: Any) -> bool:
        """Whether ``field`` is set to ``value`` (a radio button's state)."""
        return bool(self._get(field) == value)

    def _set(self, field: str, value: Any) -> None:
        if field in APP_ROWS:
            self.prefs.update(**{field: value})
        else:
            self.prefs.update_game(self.game, **{field: value})

    def _row(self, field: str, options: list[tuple[Callable[[], str], Any]]) -> None:
        """Radio buttons setting ``field`` to one of ``options`` (label callable, value), laid out
        by :meth:`fit_row` for the current language."""
        row = [Button((CONTROL_X, self._y(field), 10, 48), label, partial(self._set, field, value),
                      size=ROW_TEXT, selected=partial(self._is, field, value))
               for label, value in options]
        self.buttons += row
        self.rows.append(row)
        self.fit_row(row)

    def fit_row(self, row: list[Button]) -> None:
        """Place a row of radio buttons across the control column: equal widths when every label
        fits its button at :data:`ROW_TEXT` px; else ("Einsteiger", "Gemiddeld" in six
        level buttons shrank and wrapped while their neighbours did not) one text size for the whole
        row, the largest at which every label fits on one line, each button as wide as its label
        needs plus an equal share of the room left. Run again when the language changes."""
        art = self.app.art
        gap, pad = 10, 24
        room = CONTROL_W - (len(row) - 1) * gap
        texts = [b.text() for b in row]
        equal = room // len(row)
        size = ROW_TEXT
        if any(art.font(ROW_TEXT).size(t)[0] > equal - 20 for t in texts):
            size = next((px for px in range(ROW_TEXT, MIN_ROW_TEXT - 1, -1)
                         if sum(art.font(px).size(t)[0] + pad for t in texts) <= room), MIN_ROW_TEXT)
            needs = [art.font(size).size(t)[0] + pad for t in texts]
            share = max(0, room - sum(needs)) // len(row)
            widths = [n + share for n in needs]
        else:
            widths = [equal] * len(row)
        x = CONTROL_X
        for b, w in zip(row, widths):
            b.rect.x, b.rect.w, b.size = x, w, size
            x += w + gap

    def _switch(self, field: str) -> None:
        """An on/off button for a boolean ``field``."""
        self.buttons.append(Button(
            (CONTROL_X, self._y(field), 160, 48), lambda: on_off_text(self._get(field)),
            lambda: self._set(field, not self._get(field)), size=28, selected=lambda: self._get(field)))

    def _game_row(self, name: str, f: Field) -> None:
        if f.control == "switch":
            self._switch(name)
        elif f.control == "choice":
            text = f.option_text or str
            self._row(name, [(partial(text, value), value) for value in f.options])
        else:  # "text"
            self.names[name] = TextInput(
                (CONTROL_X, self._y(name), 420, 48), self._get(name), self._namer(name),
                max_len=MAX_NAME_LENGTH, size=28, placeholder=f.placeholder or (lambda: ""))

    def _resetter(self, name: str) -> Callable[[], None]:
        return lambda: self._set(name, self.schema[name].initial())

    def _differs(self, name: str) -> Callable[[], bool]:
        return lambda: self._get(name) != self.schema[name].initial()

    def _namer(self, field: str) -> Callable[[str], None]:
        def commit(text: str) -> None:
            self.prefs.store.update_game(self.game, **{field: text})  # ValueError: the field shows the old name again
        return commit

    def _volume(self, delta: float) -> None:
        volume = round(min(1.0, max(0.0, self.prefs.settings.volume + delta)), 2)
        self.prefs.update(volume=volume)
        for name in effects(self.game)[:1]:  # hear the new level: the game's first effect
            self.prefs.play(name)

    # ------------------------------------------------------------------ scene
    def back(self) -> None:
        for field in self.names.values():
            field.blur()
        self.app.pop()

    def editing(self) -> TextInput | None:
        return next((f for f in self.names.values() if f.focused), None)

    def uses_key(self, key: int) -> bool:
        return self.editing() is not None or super().uses_key(key)

    def close(self) -> None:
        for field in self.names.values():  # leaving by any way ends the typing (M mutes again)
            field.blur()

    def at_rest(self) -> bool:
        return self.editing() is None  # a caret blinks while a name is typed

    def on_escape(self) -> None:
        self.back()

    def handle_event(self, event: pygame.event.Event) -> None:
        for field in self.names.values():
            if field.handle_event(event):
                return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB and self.names:
            next(iter(self.names.values())).focus()
            return
        super().handle_event(event)

    def update(self, dt: float) -> None:
        for field_name, field in self.names.items():
            field.update(dt)
            field.set_text(self._get(field_name))

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        if self._language != i18n.language():  # the labels changed: place the rows anew
            self._language = i18n.language()
            for row in self.rows:
                self.fit_row(row)
        surface.blit(art.table, (0, 0))
        surface.blit(panel(PANEL.size, 235), PANEL)
        title = art.text(_("Settings"), 56, GOLD, shadow=True)
        surface.blit(title, title.get_rect(midtop=(PANEL.centerx, PANEL.y + 18)))
        labels = [(_(FIELD_LABELS[f]), self._y(f)) for f in APP_ROWS]
        labels += [(_(self.schema[f].label), self._y(f)) for f in self.game_rows]
        for label, y in labels:
            size = fit_size(art, label, 28, CONTROL_X - LABEL_X - 20)
            s = art.text(label, size, CREAM, shadow=True)
            surface.blit(s, s.get_rect(midleft=(LABEL_X, y + 24)))
        self._draw_heading(surface)
        self._draw_volume(surface)
        self.draw_buttons(surface)
        for field in self.names.values():
            field.draw(surface, art)
        hint = art.text(_("Changes apply at once. M: sound on/off"), 20, (220, 200, 160), wrap=340)
        surface.blit(hint, hint.get_rect(center=(LABEL_X + 590, PANEL.bottom - 49)))

    def _draw_heading(self, surface: pygame.Surface) -> None:
        """The game's title over its own rows, on a thin rule across the panel."""
        art = self.app.art
        y = ROW_Y0 + len(APP_ROWS) * ROW_H + HEADING_H // 2 - 6
        text = art.text(_(self.title), 26, GOLD, shadow=True)
        box = text.get_rect(midleft=(LABEL_X, y))
        pygame.draw.line(surface, (150, 104, 30), (box.right + 16, y), (PANEL.right - 40, y), 2)
        surface.blit(text, box)

    def _draw_volume(self, surface: pygame.Surface) -> None:
        """A bar between "−" and "+" showing the volume, with its percentage."""
        s = self.prefs.settings
        bar = pygame.Rect(CONTROL_X + 76, self._y("volume") + 14, 282, 20)
        pygame.draw.rect(surface, (30, 18, 10), bar, border_radius=10)
        fill = bar.copy()
        fill.w = round(bar.w * s.volume)
        if fill.w:
            pygame.draw.rect(surface, GOLD if s.sound else (120, 110, 100), fill, border_radius=10)
        pygame.draw.rect(surface, (150, 104, 30), bar, 2, border_radius=10)
        text = self.app.art.text(volume_text(s.volume), 28, CREAM, shadow=True)
        surface.blit(text, text.get_rect(midleft=(CONTROL_X + 452, bar.centery)))
