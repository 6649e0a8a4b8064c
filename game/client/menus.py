"""The main menu: each game's ways to start (from :mod:`game.client.games`), then what
serves every game (continue, saved games, how to play, settings, quit)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.i18n import N_, _

from .games import CLIENT_GAMES
from .saved_games import add_save_buttons
from .theme import CANVAS
from .widgets import Button, ButtonScene

if TYPE_CHECKING:
    from .app import App


def layout_main_menu(buttons: list[Button], has_continue: bool, top: int = 290) -> None:
    """Two columns of buttons under the title, in list order, row by row; "Continue"
    (when there is a game to continue) spans the top row."""
    cx = CANVAS[0] // 2
    rows = buttons
    y = top
    if has_continue:
        buttons[0].rect.update(cx - 220, y, 440, 60)
        rows = buttons[1:]
        y += 76
    for i, b in enumerate(rows):
        b.rect.update(cx - 390 if i % 2 == 0 else cx + 10, y + (i // 2) * 76, 380, 60)


class MainMenu(ButtonScene):
    """Start a game, continue or open a saved one, read the rules, change settings, or quit."""

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        self.clock = 0.0
        self.game = CLIENT_GAMES[0]
        w, x = 440, CANVAS[0] // 2 - 220
        for game in CLIENT_GAMES:
            self.buttons += game.menu_buttons(app, x, w)
        self.buttons += [
            Button((x, 0, w, 64), N_("How to play"), self.how_to_play, key=pygame.K_h, size=32),
            Button((x, 0, w, 64), N_("Settings"), self.settings, key=pygame.K_s, size=32),
            Button((x, 0, w, 64), N_("Quit"), app.quit, key=pygame.K_q, size=32),
        ]
        add_save_buttons(self)  # saved games (issue 5): "Continue" on top, "Saved games"
        saved = next(b for b in self.buttons if b.key == pygame.K_l)
        self.buttons.remove(saved)
        self.buttons.insert(len(self.buttons) - 3, saved)  # beside "How to play"
        layout_main_menu(self.buttons, has_continue=self.buttons[0].key == pygame.K_c)

    def how_to_play(self) -> None:
        self.app.push(self.game.how_to_play(self.app))

    def settings(self) -> None:
        from .settings_scene import SettingsScene
        self.app.push(SettingsScene(self.app))

    def update(self, dt: float) -> None:
        self.clock += dt

    def on_escape(self) -> None:
        self.app.quit()

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        self.game.draw_title(surface, self.app, self.clock)
        self.draw_buttons(surface)
        foot = self.app.art.text(_("A game by Dirk Henn. F11: full screen."), 20, (200, 190, 160))
        surface.blit(foot, foot.get_rect(midbottom=(CANVAS[0] // 2, CANVAS[1] - 16)))
