"""Royals & Riots' side of the window: what the shell's main menu, saved-games list and
``rose-king host/join`` need of it (see :mod:`game.client.games`)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable

import pygame

from game.i18n import N_

from ..widgets import Button
from .scene import SOUNDS
from .setup import RoyalsSetup, draw_title

if TYPE_CHECKING:
    from ..app import App
    from ..lan import LanClient
    from ..scene import Scene


class RoyalsClient:
    """The :class:`game.client.games.ClientGame` of Royals & Riots."""

    key = "royals-riots"
    #: its sound effects (the shell's :mod:`game.client.audio` loads them)
    sounds = SOUNDS
    title = N_("Royals & Riots")
    credit = N_("Royals & Riots: De Spelmakerij and The Gamefantry.")

    def draw_badge(self, surface: pygame.Surface, app: "App", rect: pygame.Rect) -> None:
        """The King and the Rebels, fanned."""
        from game.royals.engine import Card

        from .art import CARD_H, royals_art
        ra = royals_art(app)
        scale = (rect.h - 10) / CARD_H
        for i, name in enumerate(("KING", "P7")):
            img = ra.face(Card.from_name(name), round(scale, 2))
            surface.blit(img, img.get_rect(center=(rect.x + 12 + img.get_width() // 2 + i * (img.get_width() * 2 // 3),
                                                   rect.centery)))

    def menu_buttons(self, app: "App", x: int, w: int) -> list[Button]:
        """A new match (people and computers at this screen), and hosting or joining a table on the LAN."""
        from ..lan.host import menu_buttons
        return [Button((x, 0, w, 64), N_("Play Royals & Riots"), lambda: app.push(RoyalsSetup(app)),
                       key=pygame.K_3, size=32), *menu_buttons(app, self.key, x, w, (pygame.K_4, pygame.K_5))]

    def draw_title(self, surface: pygame.Surface, app: "App", clock: float, y: int = 150) -> None:
        draw_title(surface, app, clock, y)

    def how_to_play(self, app: "App") -> "Scene":
        from .howto import RoyalsHowTo
        return RoyalsHowTo(app)

    def resume(self, app: "App", path: str | os.PathLike[str]) -> None:
        """Play on the saved match at ``path``. Raises SaveError / ValueError for a bad file."""
        from .setup import resume
        resume(app, path)

    def open_replay(self, app: "App", path: str | os.PathLike[str],
                    on_back: Callable[[], None] | None = None) -> str | None:
        from .saving import open_replay
        return open_replay(app, path, on_back)

    @property
    def lan(self) -> "LanClient":
        """Its window on the one LAN layer (:data:`game.client.royals.lan.LAN`): the network
        table, the waiting screen's lines, the teams switch on the shell's "Host a game"."""
        from .lan import LAN
        return LAN


CLIENT = RoyalsClient()
