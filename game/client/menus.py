"""The main menu and the set-up of a game against the computer."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

import pygame

from game.roseking.ai import LEVELS, make_player
from game.roseking.engine import Color
from game.i18n import N_, _

from .roseking.art import CREAM, GOLD
from .roseking.hint import Hint
from .roseking.layout import CANVAS
from .roseking.levels import default_level, level_blurb, level_name
from .roseking.local_game import LocalGame, play
from .roseking.match import ComputerController, Controller, HumanController
from .saved_games import add_save_buttons
from .roseking.thinking import computer_thinker
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
    ``seconds``/``iterations``: the computer's budget per move (see :func:`game.roseking.ai.make_player`);
    the search levels think in a worker process (:func:`~game.client.roseking.thinking.computer_thinker`).
    ``hint``: whether the game offers the hint key and button (a factory of :class:`Hint`; None: no hints).
    """

    def __init__(self, computer: tuple[Color, str] | None = None, seed: int | None = None,
                 min_delay: float = 0.35, seconds: float | None = 1.0, iterations: int | None = None,
                 hint: Callable[[], Hint] | None = Hint) -> None:
        self.computer = computer
        self.seed = seed
        self.min_delay = min_delay
        self.seconds = seconds
        self.iterations = iterations
        self.hint = hint

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
            red, white = HumanController(N_("Player 1")), HumanController(N_("Player 2"))
        else:
            color, level = self.computer
            player = make_player(level, self.seed)
            thinker = computer_thinker(level, self.seed, self.seconds, self.iterations)
            cpu = ComputerController(player, _("Computer · {level}").format(level=level_name(level)), self.min_delay,
                                     thinker=thinker)
            human = HumanController(N_("You"))
            red, white = (cpu, human) if color is Color.RED else (human, cpu)
        return red, white


def start_game(app: "App", config: GameConfig) -> None:
    """Replace the whole stack by a new game of ``config`` (autosaved, with undo)."""
    play(app, LocalGame.new(config), config)
    from .roseking.tutorial import maybe_show_tutorial
    maybe_show_tutorial(app, app.top)  # type: ignore[arg-type]


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
    """Play a friend on this machine, play the computer, or quit."""

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        self.clock = 0.0
        w, x = 440, CANVAS[0] // 2 - 220
        self.buttons = [
            Button((x, 330, w, 64), N_("Play a friend (same screen)"), self.friend, key=pygame.K_1, size=32),
            Button((x, 414, w, 64), N_("Play the computer"), self.computer, key=pygame.K_2, size=32),
            Button((x, 498, w, 64), N_("How to play"), self.how_to_play, key=pygame.K_h, size=32),
            Button((x, 582, w, 64), N_("Settings"), self.settings, key=pygame.K_s, size=32),
            Button((x, 666, w, 64), N_("Quit"), app.quit, key=pygame.K_q, size=32),
        ]
        from .roseking.lan import lan_menu_buttons  # LAN play (issue 7): "Host a game", "Join a game"
        self.buttons[2:2] = lan_menu_buttons(app, x, w, 498)
        add_save_buttons(self)  # saved games (issue 5): "Continue" on top, "Saved games"
        saved = next(b for b in self.buttons if b.key == pygame.K_l)
        self.buttons.remove(saved)
        self.buttons.insert(len(self.buttons) - 3, saved)  # beside "How to play"
        layout_main_menu(self.buttons, has_continue=self.buttons[0].key == pygame.K_c)

    def friend(self) -> None:
        start_game(self.app, GameConfig(None))

    def computer(self) -> None:
        self.app.push(ComputerSetup(self.app))

    def how_to_play(self) -> None:
        from .roseking.howto import HowToPlay
        self.app.push(HowToPlay(self.app))

    def settings(self) -> None:
        from .settings_scene import SettingsScene
        self.app.push(SettingsScene(self.app))

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
    """Choose your colour and the computer's level (from :data:`game.roseking.ai.LEVELS`), then start."""

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        self.clock = 0.0
        self.you = Color.RED
        levels = list(LEVELS)
        self.level = default_level(app.prefs.store)
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
            choose, chosen = chooser(self, "level", level)
            self.buttons.append(Button(r, lambda lv=level: level_name(lv), choose, selected=chosen, size=28))
        self.buttons += [
            Button((x0, self.rect.bottom - 80, 285, 56), N_("Back"), self.back, size=30),
            Button((self.rect.right - 40 - 285, self.rect.bottom - 80, 285, 56), N_("Start"), self.start,
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
        blurb = art.text(level_blurb(self.level), 22, CREAM, shadow=True, wrap=self.rect.w - 80)
        surface.blit(blurb, (self.rect.x + 40, self.rect.y + 335))
        self.draw_buttons(surface)
