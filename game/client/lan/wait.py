"""Between a match's start and the moment its table can be shown (a game's ``ready`` hook: e.g.
Rose King's set-up coin is tossed), or a resumed host waiting for its joiner: the players' names,
the status, Cancel. A verdict or a failed session before then is said here. No game is named."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.i18n import N_, _

from ..theme import CANVAS, CREAM, GOLD
from ..widgets import Button, ButtonScene, panel
from . import CLIENTS, LanClient, NetMatch

if TYPE_CHECKING:
    from ..app import App


class WaitScene(ButtonScene):
    """Wait until ``hooks.ready(machine)``, then the game's table (``hooks.table``) takes the session over."""

    app: "App"

    def __init__(self, app: "App", net: NetMatch, hooks: LanClient, key: str = "") -> None:
        super().__init__(app)
        self.net: NetMatch | None = net
        self.hooks, self.key = hooks, key
        self.pending: list = list(net.pending)
        self.clock, self.error = 0.0, ""
        self.rect = pygame.Rect(0, 0, 760, 300)
        self.rect.center = (CANVAS[0] // 2, 480)
        self.buttons = [Button((self.rect.centerx - 140, self.rect.bottom - 84, 280, 56), N_("Cancel"), self.cancel,
                               size=30)]

    def cancel(self) -> None:
        self.close()
        self.app.go_home()

    on_escape = cancel

    def close(self) -> None:
        if self.net is not None:
            self.net.close()
            self.net = None

    def update(self, dt: float) -> None:
        from net.session import Dropped, Ended
        from .table import LanTable
        self.clock += dt
        net = self.net
        if net is None:
            return
        self.pending += net.session.poll()
        for e in self.pending:
            if isinstance(e, Ended) and not self.error:
                self.error = LanTable(self.app, net, self.hooks).stop_words(e.verdict.kind)
            elif isinstance(e, Dropped) and e.fatal and e.by_peer and not self.error:
                self.error = LanTable(self.app, net, self.hooks).stop_words(e.code)
        if self.hooks.ready is None or net.session.view(self.hooks.ready):
            net.pending, self.pending, self.net = self.pending, [], None  # handed over
            self.app.replace(self.hooks.table(self.app, net))

    def at_rest(self) -> bool:
        look = (int(self.clock * 2), self.error, None if self.net is None else self.net.session.status)
        if look != getattr(self, "_look", None):
            self._look = look
            return False
        return True

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        from .words import status_line
        art = self.app.art
        client = CLIENTS.get(self.key)
        if client is not None:
            client.draw_title(surface, self.app, self.clock, 130)
        else:
            surface.blit(art.table, (0, 0))
        surface.blit(panel(self.rect.size), self.rect)
        net = self.net
        t = art.text(" · ".join(net.names) if net is not None else "", 36, GOLD, shadow=True)
        surface.blit(t, t.get_rect(midtop=(self.rect.centerx, self.rect.y + 24)))
        if self.error:
            line = _("The game cannot start: {reason}").format(reason=self.error)
        elif net is not None:
            line = status_line(net.session) if net.session.status != "playing" else \
                _("Connected, agreeing on the game…")
        else:
            line = ""
        s = art.text(line, 26, CREAM, shadow=True, wrap=self.rect.w - 60)
        surface.blit(s, s.get_rect(midtop=(self.rect.centerx, self.rect.y + 100)))
        self.draw_buttons(surface)


__all__ = ["WaitScene"]
