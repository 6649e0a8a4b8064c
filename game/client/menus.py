"""The main menu and the set-up of a game against the computer."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from game.ai import LEVELS, make_player
from game.engine import Color
from game.i18n import _

from .art import CREAM, GOLD
from .game_scene import GameScene
from .layout import CANVAS
from .local_game import LocalGame, play
from .match import ComputerController, Controller, HumanController, Match, local_match
from .saved_games import add_save_buttons
from .widgets import Button, ButtonScene, chooser, panel

if TYPE_CHECKING:
    from .app import App


def draw_title(surface: pygame.Surface, app: "App", clock: float, y: int = 150) -> None:
    """The table, the big title and two rose stones that bob gently."""
    art = app.art
    surface.blit(art.table, (0, 0))
    title = art.text(_("Rose King"), 120, GOLD, shadow=True)
    surface.blit(title, title.get_rect(center=(CANVAS[0] // 2, y)))
    sub = art.text(_("Lancaster and York fight for the crown"), 30, CREAM, shadow=True)
    surface.blit(sub, sub.get_rect(center=(CANVAS[0] // 2, y + 80)))
    for i, color in enumerate((Color.RED, Color.WHITE)):
        img = art.scaled(art.stones[color], 2.0, ("stone", int(color)))
        x = CANVAS[0] // 2 + (-1 if i == 0 else 1) * (title.get_width() // 2 + 80)
        bob = 8 * math.sin(clock * 2 + i * math.pi)
        surface.blit(img, img.get_rect(center=(x, y + bob)))


class GameConfig:
    """Who plays which colour; builds fresh matches for "new game" with the same set-up.

    ``computer``: None (two people at this machine) or (computer colour, level name).
    """

    def __init__(self, computer: tuple[Color, str] | None = None, seed: int | None = None,
                 min_delay: float = 0.35) -> None:
        self.computer = computer
        self.seed = seed
        self.min_delay = min_delay

    def new_match(self) -> Match:
        red, white = self.controllers()
        return local_match(red, white, self.next_seed())

    def next_seed(self) -> int | None:
        """The seed of the next deal (None: random); each call moves a set seed on by one,
        so the next "new game" is a different deal, still reproducible."""
        seed = self.seed
        if self.seed is not None:
            self.seed += 1
        return seed

    def controllers(self) -> tuple[Controller, Controller]:
        """Fresh (red, white) controllers for this set-up."""
        if self.computer is None:
            red, white = HumanController(_("Player 1")), HumanController(_("Player 2"))
        else:
            color, level = self.computer
            player = make_player(level, self.seed)
            cpu = ComputerController(player, _("Computer · {level}").format(level=_(level)), self.min_delay)
            human = HumanController(_("You"))
            red, white = (cpu, human) if color is Color.RED else (human, cpu)
        return red, white


def start_game(app: "App", config: GameConfig) -> None:
    """Replace the whole stack by a new game of ``config`` (autosaved, with undo)."""
    play(app, LocalGame.new(config), config)


class MainMenu(ButtonScene):
    """Play a friend on this machine, play the computer, or quit."""

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        self.clock = 0.0
        w, x = 440, CANVAS[0] // 2 - 220
        self.buttons = [
            Button((x, 330, w, 64), "Play a friend (same screen)", self.friend, key=pygame.K_1, size=32),
            Button((x, 414, w, 64), "Play the computer", self.computer, key=pygame.K_2, size=32),
            Button((x, 498, w, 64), "Quit", app.quit, key=pygame.K_q, size=32),
        ]
        add_save_buttons(self)

    def friend(self) -> None:
        start_game(self.app, GameConfig(None))

    def computer(self) -> None:
        self.app.push(ComputerSetup(self.app))

    def update(self, dt: float) -> None:
        self.clock += dt

    def on_escape(self) -> None:
        self.app.quit()

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        draw_title(surface, self.app, self.clock)
        self.draw_buttons(surface)
        foot = self.app.art.text(_("A game by Dirk Henn. F11: full screen."), 20, (200, 190, 160))
        surface.blit(foot, foot.get_rect(midbottom=(CANVAS[0] // 2, CANVAS[1] - 16)))


class ComputerSetup(ButtonScene):
    """Choose your colour and the computer's level (from :data:`game.ai.LEVELS`), then start."""

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        self.clock = 0.0
        self.you = Color.RED
        levels = list(LEVELS)
        self.level = "greedy" if "greedy" in levels else levels[0]
        self.rect = pygame.Rect(CANVAS[0] // 2 - 330, 270, 660, 460)
        x0 = self.rect.x + 40
        for i, color in enumerate((Color.RED, Color.WHITE)):
            label = _("Red (moves first)") if color is Color.RED else _("White")
            choose, chosen = chooser(self, "you", color)
            self.buttons.append(Button((x0 + i * 295, self.rect.y + 85, 285, 54), label, choose,
                                       selected=chosen, size=28))
        per_row = 3
        bw = (self.rect.w - 80 - (per_row - 1) * 10) // per_row
        for i, level in enumerate(levels):
            r = (x0 + (i % per_row) * (bw + 10), self.rect.y + 205 + (i // per_row) * 62, bw, 52)
            label = _(level)
            choose, chosen = chooser(self, "level", level)
            self.buttons.append(Button(r, label[:1].upper() + label[1:], choose, selected=chosen, size=28))
        self.buttons += [
            Button((x0, self.rect.bottom - 80, 285, 56), "Back", self.back, size=30),
            Button((self.rect.right - 40 - 285, self.rect.bottom - 80, 285, 56), "Start", self.start,
                   key=pygame.K_RETURN, size=30),
        ]

    def back(self) -> None:
        self.app.pop()

    def start(self) -> None:
        start_game(self.app, GameConfig((self.you.other, self.level)))

    def update(self, dt: float) -> None:
        self.clock += dt

    on_escape = back

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        draw_title(surface, self.app, self.clock, y=130)
        surface.blit(panel(self.rect.size), self.rect)
        for text, y in ((_("Your colour"), 40), (_("Computer level"), 160)):
            s = art.text(text, 30, GOLD, shadow=True)
            surface.blit(s, (self.rect.x + 40, self.rect.y + y))
        self.draw_buttons(surface)
