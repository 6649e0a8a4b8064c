"""Royals & Riots' side of the window: what the shell's main menu, saved-games list and
``rose-king host/join`` need of it (see :mod:`game.client.games`)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Callable

import pygame

from game.i18n import N_

from ..lan_common import JOIN_OPENERS
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
        from .lan import lan_menu_buttons
        return [Button((x, 0, w, 64), N_("Play Royals & Riots"), lambda: app.push(RoyalsSetup(app)),
                       key=pygame.K_3, size=32), *lan_menu_buttons(app, x, w)]

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

    def join_lan(self, app: "App", name: str, address: str, port: int, connected, store=None) -> None:
        """Another game's join screen found a Royals & Riots host: its waiting screen on that connection."""
        from .lan import open_join
        open_join(app, name, address, port, connected, store)

    def run_lan(self, args: argparse.Namespace, open_window: "Callable[[], App]") -> int:
        """``rose-king host|join --game royals-riots`` with a window: the shell's path on the one
        LAN layer (:func:`game.client.lan.lobby.run_layer_window`)."""
        from .lan import run_lan
        return run_lan(args, open_window)

    @property
    def lan(self) -> "LanClient":
        """Its window on the one LAN layer: the network table and the waiting screen's lines
        (:data:`game.client.royals.lan.LAN`)."""
        from .lan import LAN
        return LAN


CLIENT = RoyalsClient()
JOIN_OPENERS[CLIENT.key] = CLIENT.join_lan  # a join screen of either game reaches this game's hosts
