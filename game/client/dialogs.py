"""Overlay scenes over a game: the pause menu and the yes/no confirmation."""

from __future__ import annotations

from typing import Callable

import pygame

from game.i18n import N_, _

from .theme import CANVAS, GOLD
from .scene import AppLike
from .widgets import Button, ButtonScene, panel, wrapped_to_fit

_dim_cache: list[pygame.Surface] = []


def dim(surface: pygame.Surface, alpha: int = 140) -> None:
    """Darken the whole canvas (behind a modal panel)."""
    if not _dim_cache or _dim_cache[0].get_size() != surface.get_size():
        _dim_cache[:] = [pygame.Surface(surface.get_size())]
    veil = _dim_cache[0]
    veil.set_alpha(alpha)
    surface.blit(veil, (0, 0))


class ConfirmDialog(ButtonScene):
    """"Are you sure?" over whatever is below. ``on_yes`` runs after the dialog pops itself.

    Esc or "No" just closes it.
    """

    opaque = False

    def __init__(self, app: "AppLike", question: str, on_yes: Callable[[], object], yes: str = N_("Yes"), no: str = N_("No")) -> None:
        super().__init__(app)
        self.question = question
        self.still = True
        self.on_yes = on_yes
        self.rect = pygame.Rect(0, 0, 560, 230)
        self.rect.center = (CANVAS[0] // 2, CANVAS[1] // 2)
        bw = 200
        self.buttons = [
            Button((self.rect.centerx - bw - 15, self.rect.bottom - 80, bw, 52), yes, self._yes, key=pygame.K_y),
            Button((self.rect.centerx + 15, self.rect.bottom - 80, bw, 52), no, self._no, key=pygame.K_n),
        ]

    def _yes(self) -> None:
        self.app.pop()
        self.on_yes()

    def _no(self) -> None:
        self.app.pop()

    on_escape = _no

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        dim(surface)
        surface.blit(panel(self.rect.size), self.rect)
        text = self.question_image()
        surface.blit(text, text.get_rect(midtop=(self.rect.centerx, self.rect.y + 36)))
        self.draw_buttons(surface)

    def question_image(self) -> pygame.Surface:
        """The question in the current language, wrapped to the panel: at 32 px, or smaller (down to
        20 px) when it would run into the buttons (a long question in German or French)."""
        room = self.buttons[0].rect.y - 12 - (self.rect.y + 36)
        return wrapped_to_fit(self.app.art, _(self.question), (32, 28, 24, 22, 20), room, self.rect.w - 60)


class PauseMenu(ButtonScene):
    """Esc during a game: resume, animation speed, main menu, quit (the last two ask first)."""

    opaque = False

    def __init__(self, app: "AppLike", on_main_menu: Callable[[], object], game_running: Callable[[], bool],
                 title: str = N_("Paused"), on_update: Callable[[float], None] | None = None,
                 question: str | None = None) -> None:
        super().__init__(app)
        self.title = title  # "Paused", or "Menu" where the game goes on meanwhile (LAN)
        # what leaving or quitting a running game asks (an English source text, translated when shown);
        # None: that the game will be lost (a network game says what leaving does instead)
        self.question = question
        self.still = True
        self.on_update = on_update  # keeps what runs below alive (a network game's connection)
        self.on_main_menu = on_main_menu
        self.game_running = game_running
        self.rect = pygame.Rect(0, 0, 420, 500)
        self.rect.center = (CANVAS[0] // 2, CANVAS[1] // 2)
        x, w = self.rect.x + 50, self.rect.w - 100
        y = self.rect.y + 100
        opts = app.options
        self.buttons = [
            Button((x, y, w, 54), N_("Resume"), self.resume, key=pygame.K_r),
            Button((x, y + 70, w, 54), lambda: _("Animations: {speed}").format(speed=_(opts.speed_label())),
                   self.next_speed, size=28),
            Button((x, y + 210, w, 54), N_("Main menu"), self.main_menu, key=pygame.K_m),
            Button((x, y + 280, w, 54), N_("Quit"), self.quit, key=pygame.K_q),
            Button((x, y + 140, w, 54), N_("Settings"), self.settings, key=pygame.K_s),
        ]

    def resume(self) -> None:
        self.app.pop()

    def next_speed(self) -> None:
        self.app.options.next_speed()
        self.app.prefs.remember_options()

    def settings(self) -> None:
        from .settings_scene import SettingsScene
        self.app.push(SettingsScene(self.app))

    def main_menu(self) -> None:
        if self.game_running():
            self.app.push(ConfirmDialog(self.app, self.question or N_("Leave this game? It will be lost."),
                                        self.on_main_menu,
                                        yes=N_("Leave"), no=N_("Stay")))
        else:
            self.on_main_menu()

    def quit(self) -> None:
        if self.game_running():
            self.app.push(ConfirmDialog(self.app, self.question or N_("Quit and discard the game in progress?"),
                                        self.app.quit,
                                        yes=N_("Quit"), no=N_("Stay")))
        else:
            self.app.quit()

    on_escape = resume

    def update(self, dt: float) -> None:
        if self.on_update is not None:
            self.on_update(dt)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        dim(surface)
        surface.blit(panel(self.rect.size), self.rect)
        title = self.app.art.text(_(self.title), 52, GOLD, shadow=True)
        surface.blit(title, title.get_rect(center=(self.rect.centerx, self.rect.y + 55)))
        self.draw_buttons(surface)
