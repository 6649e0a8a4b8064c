"""The end of a network match, the same panel for every game: who won by name (never by colour),
who resigned or left, why a match stopped (the game's words), where the record was kept, the match
code, and the rematch -- offered only while the others can take it (:mod:`game.client.lan.table`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import pygame

from game.i18n import N_, _

from ..dialogs import dim
from ..theme import CREAM, GOLD
from ..widgets import Button, ButtonScene, panel
from .table import LanTable, code_lines

if TYPE_CHECKING:
    from ..app import App


def rematch_button(table: LanTable, rect: pygame.Rect | tuple, action: Callable[[], None], size: int = 26) -> Button:
    """The rematch button of ``table``: its words and whether it may be pressed follow
    :meth:`LanTable.rematch_label` (a game's own result panel uses it too)."""
    return Button(rect, lambda: table.rematch_label()[0], action, size=size, enabled=lambda: table.rematch_label()[1])


def play_again(app: "App", table: LanTable) -> None:
    """The rematch: this table is left (its session closes, freeing the port) and the lobby's
    ``again`` opens the same table again (the host) or joins it (a joiner)."""
    again = table.net.again
    if again is None or not table.rematch():
        return
    app.go_home()
    again()


class EndPanel(ButtonScene):
    """Over the game's table once its match has a verdict. ``table``: the :class:`LanTable`;
    ``on_update(dt)``: the game scene's network step (it keeps polling: the host's next table);
    ``on_main_menu``: leave; ``center``: where the panel sits (over the game's board)."""

    opaque = False

    def __init__(self, app: "App", table: LanTable, on_update: Callable[[float], None],
                 on_main_menu: Callable[[], None], center: tuple[int, int]) -> None:
        super().__init__(app)
        self.table, self.on_update = table, on_update
        self.rect = pygame.Rect(0, 0, 660, 400)
        self.rect.center = center
        bw, by = (self.rect.w - 60) // 2, self.rect.bottom - 74
        self.buttons = [rematch_button(table, (self.rect.x + 20, by, bw, 52), lambda: play_again(app, table)),
                        Button((self.rect.right - 20 - bw, by, bw, 52), N_("Main menu"), on_main_menu,
                               key=pygame.K_m, size=26)]

    def update(self, dt: float) -> None:
        self.on_update(dt)

    def at_rest(self) -> bool:
        look = (self.table.look(), self.table.rematch_label())
        if look != getattr(self, "_look", None):
            self._look = look
            return False
        return True

    def texts(self) -> tuple[str, list[str]]:
        """The title and the lines, in the player's language."""
        title, lines = self.table.end_texts()
        if self.table.saved:
            lines = lines + [_("The record is kept in the saved games.")]
        return title, lines

    def layout(self) -> list[tuple[str, pygame.Surface, pygame.Rect]]:
        art, r = self.app.art, self.rect
        title, lines = self.texts()
        t = art.text(title, 40, GOLD, shadow=True, wrap=r.w - 40, center=True)
        out = [(title, t, t.get_rect(midtop=(r.centerx, r.y + 22)))]
        y = out[0][2].bottom + 14
        for line in lines:
            s = art.text(line, 24, CREAM, shadow=True, wrap=r.w - 60, center=True)
            out.append((line, s, s.get_rect(midtop=(r.centerx, y))))
            y += s.get_height() + 8
        for i, line in enumerate(code_lines(self.table.code)):
            s = art.text(line, 20 if i == 0 else 17, GOLD if i == 0 else CREAM, shadow=True, wrap=r.w - 60,
                         center=True)
            out.append((line, s, s.get_rect(midtop=(r.centerx, y))))
            y += s.get_height() + 4
        return out

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        dim(surface, 90)
        surface.blit(panel(self.rect.size, 250), self.rect)
        for _text, image, rect in self.layout():
            surface.blit(image, rect)
        self.draw_buttons(surface)


__all__ = ["EndPanel", "play_again", "rematch_button"]
