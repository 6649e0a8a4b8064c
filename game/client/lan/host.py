""""Host a game" for every game on the one LAN layer: the player's name (remembered in the
settings, as the join screen's), the table's seats (the game's seat counts; each other seat open
for a person or a computer of one of the game's levels) and the game's own switches (e.g. teams),
then the shell's waiting screen (:func:`game.client.lan.lobby.host_table`). No game is named here.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable

import pygame

from game.i18n import N_, _
from game.settings import MAX_NAME_LENGTH

from ..lan_common import remember_name, settings_name
from ..textinput import TextInput
from ..theme import CANVAS, CREAM
from ..widgets import Button, ButtonScene, panel
from . import CLIENTS

if TYPE_CHECKING:
    from ..app import App

ERROR_INK = (255, 180, 160)
#: The error line's distance (px) from the buttons above and below it (more than a button's shadow).
ERROR_GAP = 16


class HostSetup(ButtonScene):
    """The host's table of game ``key`` before it opens: name, seats, switches, "Open the table".
    ``opener``: what opens it (default :func:`~game.client.lan.lobby.host_table`, which tests may
    replace); the other keywords go to it (port, bind, store...)."""

    app: "App"

    def __init__(self, app: "App", key: str, opener: Callable[..., Any] | None = None, **table: Any) -> None:
        from game.registry import game_by_key

        from .lobby import layer_client
        super().__init__(app)
        self.key, self.opener, self.table_kw = key, opener, table
        found = layer_client(key)
        if found is None:
            raise KeyError(key)  # the menu offers "Host a game" only for a game on the layer
        self.part, self.hooks = found
        self.levels = tuple(game_by_key(key).levels) if self.part.player else ()
        counts = tuple(self.part.seats)
        self.count = max(counts) if len(counts) == 1 else sorted(counts)[len(counts) // 2]
        self.kinds: list[str | None] = [None] * max(counts)  # None: open for a person, else a level
        self.options: dict[str, bool] = {}
        self.error, self.clock = "", 0.0
        self.still = False
        self.rect = pygame.Rect(CANVAS[0] // 2 - 400, 222, 800, 560)
        r = self.rect
        self.field = TextInput((r.x + 300, r.y + 40, 440, 46), settings_name(app, ""), max_len=MAX_NAME_LENGTH,
                               size=26, placeholder=N_("Your name"))
        self.buttons = [Button((r.x + 300 + i * 90, r.y + 110, 80, 46), str(n), partial(self.set_count, n),
                               selected=partial(self.counts, n), size=28) for i, n in enumerate(counts)
                        if len(counts) > 1]
        self.seat_buttons = [Button((r.x + 300, r.y + 170 + 54 * (i - 1), 440, 44), partial(self.kind_label, i),
                                    partial(self.cycle, i), size=24, enabled=partial(self.seated, i))
                             for i in range(1, max(counts))]
        self.buttons += self.seat_buttons
        y = r.y + 170 + 54 * (max(counts) - 1) + 10
        for option, label, when in self.hooks.host_switches:
            self.buttons.append(Button((r.x + 300, y, 440, 44), label, partial(self.toggle, option), size=24,
                                       enabled=partial(self.applies, when),
                                       selected=partial(self.switched, option, when)))
            y += 54
        self.buttons += [Button((r.x + 40, r.bottom - 74, 240, 54), N_("Back"), self.back, size=28),
                         Button((r.right - 320, r.bottom - 74, 280, 54), N_("Open the table"), self.open_table,
                                key=pygame.K_RETURN, size=28)]

    def kind_label(self, i: int) -> str:
        level = self.kinds[i]
        if level is None:
            return _("Open: a player joins")
        from game.lan import computer_name
        return computer_name(level)

    def counts(self, n: int) -> bool:
        """Whether the table is for ``n`` players now (its button is selected)."""
        return self.count == n

    def seated(self, i: int) -> bool:
        """Whether seat ``i`` is at the table of the count chosen."""
        return i < self.count

    def applies(self, when: Callable[[int], bool]) -> bool:
        """Whether a switch that applies ``when(count)`` applies to the count chosen."""
        return when(self.count)

    def switched(self, option: str, when: Callable[[int], bool]) -> bool:
        """Whether the switch of ``option`` is on (and applies to the count chosen)."""
        return self.options.get(option, False) and when(self.count)

    def set_count(self, n: int) -> None:
        self.count = n

    def cycle(self, i: int) -> None:
        order: list[str | None] = [None, *self.levels]
        self.kinds[i] = order[(order.index(self.kinds[i]) + 1) % len(order)]

    def toggle(self, option: str) -> None:
        self.options[option] = not self.options.get(option, False)

    def table(self) -> tuple[tuple[str, ...], dict[int, str], dict]:
        """The table chosen: (``kinds``, computer seat -> level, lobby options) for the session."""
        comp = {i: k for i, k in enumerate(self.kinds[:self.count]) if i and k is not None}
        kinds = ("host",) + tuple("computer" if s in comp else "person" for s in range(1, self.count))
        return kinds, comp, {o: True for o, _label, when in self.hooks.host_switches
                             if self.options.get(o) and when(self.count)}

    def back(self) -> None:
        self.app.pop()

    on_escape = back

    def handle_event(self, event: pygame.event.Event) -> None:
        f = self.field
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and f.rect.collidepoint(event.pos):
            f.focus()
            return
        if f.focused and f.handle_event(event):
            return
        if event.type == pygame.MOUSEBUTTONDOWN and f.focused:
            f.blur()
        super().handle_event(event)

    def close(self) -> None:
        self.field.blur(keep=False)

    def open_table(self) -> None:
        """Remember the name, listen, send the beacon and show the waiting screen."""
        from game.lan import computer_name

        from .lobby import host_table
        self.field.blur()
        name = self.field.text.strip() or _("Host")
        remember_name(self.app, name)
        kinds, computers, options = self.table()
        app = self.app
        app.pop()  # the waiting screen takes this screen's place
        try:
            (self.opener or host_table)(app, self.key, kinds=kinds, computers=computers, options=options, name=name,
                                        computer_names={s: computer_name(v) for s, v in computers.items()},
                                        **self.table_kw)
        except (OSError, ValueError) as e:
            from game.lan import join_error_text
            app.push(self)
            self.error = join_error_text(e, "")

    def update(self, dt: float) -> None:
        self.clock += dt
        self.field.update(dt)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        client = CLIENTS.get(self.key)
        if client is not None:
            client.draw_title(surface, self.app, self.clock, 110)
        r = self.rect
        surface.blit(panel(r.size), r)
        rows = [(_("Your name"), r.y + 52)] + ([(_("Players"), r.y + 120)] if len(self.part.seats) > 1 else [])
        rows += [(_("Seat {n}").format(n=i + 1), b.rect.y + 10) for i, b in enumerate(self.seat_buttons, 1)
                 if b.enabled()]
        for text, y in rows:
            surface.blit(art.text(text, 24, CREAM, shadow=True), (r.x + 40, y))
        self.field.draw(surface, art)
        for b in self.buttons:
            if b not in self.seat_buttons or b.enabled():
                b.draw(surface, art)
        shown = self.error_layout()
        if shown is not None:
            surface.blit(*shown)

    def error_room(self) -> pygame.Rect:
        """Where the error line may go: :data:`ERROR_GAP` px under the last seat or switch and
        above the bottom buttons, inside the panel's margins (canvas px)."""
        top = max(b.rect.bottom for b in self.buttons[:-2]) + ERROR_GAP
        bottom = min(b.rect.top for b in self.buttons[-2:]) - ERROR_GAP
        return pygame.Rect(self.rect.x + 40, top, self.rect.w - 80, bottom - top)

    def error_layout(self) -> tuple[pygame.Surface, pygame.Rect] | None:
        """The error's image and place in :meth:`error_room`: at 22 px, else 20 px, else cut
        with "…" at 20 px. None without an error."""
        if not self.error:
            return None
        room, art, text = self.error_room(), self.app.art, self.error
        for size in (22, 20):
            img = art.text(text, size, ERROR_INK, shadow=True, wrap=room.w)
            if img.get_height() <= room.h:
                return img, img.get_rect(topleft=room.topleft)
        while len(text) > 1:  # the longest prefix that fits with the ellipsis
            text = text[:max(1, len(text) * 9 // 10)].rstrip()
            img = art.text(text + "…", 20, ERROR_INK, shadow=True, wrap=room.w)
            if img.get_height() <= room.h:
                break
        return img, img.get_rect(topleft=room.topleft)


__all__ = ["HostSetup", "menu_buttons"]


def menu_buttons(app: "App", key: str, x: int, w: int, keys: tuple[int, int]) -> list[Button]:
    """The main menu's "Host a game" (:class:`HostSetup`) and "Join a game" (the one join
    screen) for game ``key``, 64 px high, placed by the menu; ``keys``: their shortcut keys."""
    from .lobby import LayerJoinScene
    return [Button((x, 0, w, 64), N_("Host a game"), lambda: app.push(HostSetup(app, key)), key=keys[0], size=32),
            Button((x, 0, w, 64), N_("Join a game"), lambda: app.push(LayerJoinScene(app, key)), key=keys[1], size=32)]
