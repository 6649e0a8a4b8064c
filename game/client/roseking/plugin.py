"""Rose King's side of the window: what the shell's main menu, saved-games list and
``rose-king host/join`` need of it (see :mod:`game.client.games`)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable

import pygame

from game.i18n import N_

from ..widgets import Button
from .game_scene import SOUNDS
from .lan import LAN_CLIENT
from .local_game import GameConfig
from .setup import ComputerSetup, draw_title, start_game

if TYPE_CHECKING:
    from ..app import App
    from ..scene import Scene


class RoseKingClient:
    """The :class:`game.client.games.ClientGame` of Rose King."""

    key = "rose-king"
    #: its sound effects (the shell's :mod:`game.client.audio` loads them)
    sounds = SOUNDS
    #: Rose King's window on the one LAN layer (its network table, the host's colour choice)
    lan = LAN_CLIENT
    title = N_("Rose King")
    credit = N_("A game by Dirk Henn.")

    def draw_badge(self, surface: pygame.Surface, app: "App", rect: pygame.Rect) -> None:
        """Two rose stones and the crown."""
        from game.roseking.engine import Color

        from .art import art_of
        art = art_of(app)
        size = rect.h - 16
        for i, color in enumerate((Color.RED, Color.WHITE)):
            img = art.scaled(art.stones[color], size / art.stones[color].get_height(), ("stone", int(color)))
            surface.blit(img, img.get_rect(center=(rect.x + 8 + size // 2 + i * (size // 2), rect.centery)))

    def menu_buttons(self, app: "App", x: int, w: int) -> list[Button]:
        """Play a friend, play the computer, host and join a LAN game (rects are placed by the menu)."""
        from ..lan.host import menu_buttons
        return [Button((x, 0, w, 64), N_("Play a friend (same screen)"), lambda: start_game(app, GameConfig(None)),
                       key=pygame.K_1, size=32),
                Button((x, 0, w, 64), N_("Play the computer"), lambda: app.push(ComputerSetup(app)),
                       key=pygame.K_2, size=32),
                *menu_buttons(app, self.key, x, w, (pygame.K_3, pygame.K_4))]

    def draw_title(self, surface: pygame.Surface, app: "App", clock: float, y: int = 150) -> None:
        """The game's title art over the table."""
        draw_title(surface, app, clock, y)

    def how_to_play(self, app: "App") -> "Scene":
        from .howto import HowToPlay
        return HowToPlay(app)

    def resume(self, app: "App", path: str | os.PathLike[str]) -> None:
        """Play on the saved game at ``path``. Raises SaveError / ValueError for a bad file."""
        from .local_game import resume
        resume(app, path)

    def open_replay(self, app: "App", path: str | os.PathLike[str],
                    on_back: Callable[[], None] | None = None) -> str | None:
        """Push the replay viewer of ``path``; a bad file returns its one-line reason instead (None: opened)."""
        from game.roseking.replay import Replay
        from game.roseking.saves import read_game
        from game.saves import SaveError

        from .replay_view import ReplayScene
        try:
            record, _state = read_game(path)
            replay = Replay(record)
        except SaveError as e:
            return str(e)

        def back() -> None:
            app.pop()
        app.push(ReplayScene(app, replay, on_back=on_back or back))
        return None


CLIENT = RoseKingClient()
