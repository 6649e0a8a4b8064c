"""The settings screen (issue 6), opened from the main menu and the pause menu.

One row per field of :class:`game.settings.Settings`, labelled with
``settings.FIELD_LABELS``: language (each in its own name), animation speed, sound,
volume, full screen, legal targets, the two players' names (text fields), the
default computer level, and "Show the tutorial again". Every click goes straight to
``store.update`` through ``app.prefs``: it is validated, saved atomically and applied
at once (a language switch re-renders this screen and every screen under it).
"""

from __future__ import annotations

from typing import Any, Callable

import pygame

from game import i18n
from game.roseking import phrases
from game.roseking.ai import LEVELS
from game.i18n import N_, _
from game.settings import ANIMATION_SPEEDS, FIELD_LABELS, MAX_NAME_LENGTH

from .theme import CANVAS, CREAM, GOLD
from .textinput import TextInput
from .scene import AppLike
from .widgets import Button, ButtonScene, fit_size, panel

#: Volume changes by this much per click of "−"/"+".
VOLUME_STEP = 0.05
PANEL = pygame.Rect(80, 24, CANVAS[0] - 160, CANVAS[1] - 48)
LABEL_X, CONTROL_X, CONTROL_W = PANEL.x + 40, PANEL.x + 440, PANEL.right - 40 - (PANEL.x + 440)
ROW_Y0, ROW_H = PANEL.y + 96, 60
ROWS = ("language", "animation_speed", "sound", "volume", "fullscreen", "show_legal_targets",
        "red_name", "white_name", "computer_level")


class SettingsScene(ButtonScene):
    """Change the settings; Back or Esc returns to where it was opened."""

    def __init__(self, app: "AppLike") -> None:
        super().__init__(app)
        self.prefs = app.prefs
        self.names: dict[str, TextInput] = {}
        for field in ("red_name", "white_name"):
            y = ROW_Y0 + ROWS.index(field) * ROW_H
            self.names[field] = TextInput(
                (CONTROL_X, y, 420, 48), getattr(self.prefs.settings, field), self._namer(field),
                max_len=MAX_NAME_LENGTH, size=28,
                placeholder=lambda field=field: phrases.player_names()[field == "white_name"])
        self._row("language", [(lambda code=code: i18n.LANGUAGE_NAMES[code], code) for code in i18n.LANGUAGES])
        self._row("animation_speed", [(lambda s=s: phrases.speed_text(s), s) for s in ANIMATION_SPEEDS])
        self._switch("sound")
        y = self._y("volume")
        self.buttons += [
            Button((CONTROL_X, y, 64, 48), lambda: "−", lambda: self._volume(-VOLUME_STEP), size=34),
            Button((CONTROL_X + 370, y, 64, 48), lambda: "+", lambda: self._volume(VOLUME_STEP), size=34),
        ]
        self._switch("fullscreen")
        self._switch("show_legal_targets")
        self._row("computer_level", [(lambda lv=lv: phrases.level_name(lv), lv) for lv in LEVELS])
        bottom = PANEL.bottom - 76
        self.buttons += [
            Button((LABEL_X, bottom, 400, 54), FIELD_LABELS["tutorial_seen"],
                      lambda: self.prefs.update(tutorial_seen=False), size=28,
                      enabled=lambda: self.prefs.settings.tutorial_seen),
            Button((PANEL.right - 40 - 260, bottom, 260, 54), N_("Back"), self.back, size=30),
        ]

    # ------------------------------------------------------------------ building rows
    @staticmethod
    def _y(field: str) -> int:
        return ROW_Y0 + ROWS.index(field) * ROW_H

    def _row(self, field: str, options: list[tuple[Callable[[], str], Any]]) -> None:
        """Radio buttons setting ``field`` to one of ``options`` (label callable, value)."""
        n, gap = len(options), 10
        w = (CONTROL_W - (n - 1) * gap) // n
        for i, (label, value) in enumerate(options):
            self.buttons.append(Button(
                (CONTROL_X + i * (w + gap), self._y(field), w, 48), label,
                lambda value=value: self.prefs.update(**{field: value}), size=28,
                selected=lambda value=value: getattr(self.prefs.settings, field) == value))

    def _switch(self, field: str) -> None:
        """An on/off button for a boolean ``field``."""
        self.buttons.append(Button(
            (CONTROL_X, self._y(field), 160, 48), lambda: phrases.on_off_text(getattr(self.prefs.settings, field)),
            lambda: self.prefs.update(**{field: not getattr(self.prefs.settings, field)}), size=28,
            selected=lambda: getattr(self.prefs.settings, field)))

    def _namer(self, field: str) -> Callable[[str], None]:
        def commit(text: str) -> None:
            self.prefs.store.update(**{field: text})  # ValueError: the field shows the old name again
        return commit

    def _volume(self, delta: float) -> None:
        volume = round(min(1.0, max(0.0, self.prefs.settings.volume + delta)), 2)
        self.prefs.update(volume=volume)
        self.prefs.play("stone_placed")  # hear the new level

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
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB:
            self.names["red_name"].focus()
            return
        super().handle_event(event)

    def update(self, dt: float) -> None:
        for field_name, field in self.names.items():
            field.update(dt)
            field.set_text(getattr(self.prefs.settings, field_name))

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        surface.blit(art.table, (0, 0))
        surface.blit(panel(PANEL.size, 235), PANEL)
        title = art.text(_("Settings"), 56, GOLD, shadow=True)
        surface.blit(title, title.get_rect(midtop=(PANEL.centerx, PANEL.y + 22)))
        for field in ROWS:
            label = _(FIELD_LABELS[field])
            size = fit_size(art, label, 28, CONTROL_X - LABEL_X - 20)
            s = art.text(label, size, CREAM, shadow=True)
            surface.blit(s, s.get_rect(midleft=(LABEL_X, self._y(field) + 24)))
        self._draw_volume(surface)
        self.draw_buttons(surface)
        for field in self.names.values():
            field.draw(surface, art)
        hint = art.text(_("Changes apply at once. M: sound on/off"), 20, (220, 200, 160), wrap=340)
        surface.blit(hint, hint.get_rect(center=(LABEL_X + 590, PANEL.bottom - 49)))

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
        text = self.app.art.text(phrases.volume_text(s.volume), 28, CREAM, shadow=True)
        surface.blit(text, text.get_rect(midleft=(CONTROL_X + 452, bar.centery)))
