"""Rose King's new-game set-up: who plays which colour, the computer's level, and the title art."""

from __future__ import annotations

import math
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.i18n import N_, _
from game.roseking.ai import LEVELS
from game.roseking.engine import Color

from ..theme import CANVAS, CREAM, GOLD
from ..widgets import Button, ButtonScene, chooser, panel
from .art import art_of
from .levels import default_level, level_blurb, level_name
from .local_game import GameConfig, LocalGame, play

if TYPE_CHECKING:
    from ..app import App


#: Seconds after which the title's stones stop bobbing (a still menu uses no CPU).
TITLE_SETTLE = 4.0


def draw_title(surface: pygame.Surface, app: "App", clock: float, y: int = 150) -> None:
    """The table, the big title and two rose stones that bob gently."""
    art = art_of(app)
    surface.blit(art.table, (0, 0))
    title = art.text(_("Rose King"), 120, GOLD, shadow=True)
    surface.blit(title, title.get_rect(center=(CANVAS[0] // 2, y)))
    sub = art.text(_("Lancaster and York fight for the crown"), 30, CREAM, shadow=True)
    surface.blit(sub, sub.get_rect(center=(CANVAS[0] // 2, y + 80)))
    for i, color in enumerate((Color.RED, Color.WHITE)):
        img = art.scaled(art.stones[color], 2.0, ("stone", int(color)))
        x = CANVAS[0] // 2 + (-1 if i == 0 else 1) * (title.get_width() // 2 + 80)
        bob = 8 * math.sin(clock * 2 + i * math.pi) * max(0.0, 1 - clock / TITLE_SETTLE)  # comes to rest
        surface.blit(img, img.get_rect(center=(x, y + bob)))


def start_game(app: "App", config: GameConfig) -> None:
    """Replace the whole stack by a new game of ``config`` (autosaved, with undo)."""
    scene = play(app, LocalGame.new(config, stats=app.stats), config)
    from .tutorial import maybe_show_tutorial
    maybe_show_tutorial(app, scene)


class ComputerSetup(ButtonScene):
    """Choose your colour and the computer's level (from :data:`game.roseking.ai.LEVELS`), then start."""

    app: "App"

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        self.clock = 0.0
        self.you = Color.RED
        levels = list(LEVELS)
        self.level = default_level(app.prefs.store)
        self.rect = pygame.Rect(CANVAS[0] // 2 - 330, 270, 660, 460)
        x0 = self.rect.x + 40
        for i, color in enumerate((Color.RED, Color.WHITE)):
            label = N_("Red (moves first)") if color is Color.RED else N_("White")
            choose, chosen = chooser(self, "you", color)
            self.buttons.append(Button((x0 + i * 295, self.rect.y + 85, 285, 54), label, choose,
                                       selected=chosen, size=28))
        per_row = 3
        bw = (self.rect.w - 80 - (per_row - 1) * 10) // per_row
        for i, level in enumerate(levels):
            r = (x0 + (i % per_row) * (bw + 10), self.rect.y + 205 + (i // per_row) * 62, bw, 52)
            choose, chosen = chooser(self, "level", level)
            self.buttons.append(Button(r, partial(level_name, level), choose, selected=chosen, size=28))
        self.buttons += [
            Button((x0, self.rect.bottom - 80, 285, 56), N_("Back"), self.back, size=30),
            Button((self.rect.right - 40 - 285, self.rect.bottom - 80, 285, 56), N_("Start"), self.start,
                   key=pygame.K_RETURN, size=30),
        ]

    def back(self) -> None:
        self.app.pop()

    def start(self) -> None:
        self.app.prefs.update_game("rose-king", computer_level=self.level)  # the picker offers it again next time
        start_game(self.app, GameConfig((self.you.other, self.level)))

    def update(self, dt: float) -> None:
        self.clock += dt

    def at_rest(self) -> bool:
        return self.clock >= TITLE_SETTLE

    on_escape = back

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        draw_title(surface, self.app, self.clock, y=130)
        surface.blit(panel(self.rect.size), self.rect)
        for text, y in ((_("Your colour"), 40), (_("Computer level"), 160)):
            s = art.text(text, 30, GOLD, shadow=True)
            surface.blit(s, (self.rect.x + 40, self.rect.y + y))
        blurb = art.text(level_blurb(self.level), 22, CREAM, shadow=True, wrap=self.rect.w - 80)
        surface.blit(blurb, (self.rect.x + 40, self.rect.y + 335))
        self.draw_buttons(surface)


__all__ = ["ComputerSetup", "GameConfig", "draw_title", "start_game"]  # GameConfig: the plug-in builds one
