"""LAN parts every game's window shares: this machine's addresses for the host's waiting
screen, the player's name for a network game, the discovery beacon of a hosted game, and the
"Join a game" screen (games heard on the network, or a typed address).

Pure window helpers: no game is named here; each game's network table (in its own client
package) and the shell's LAN screens (:mod:`game.client.lan`) build on them.
"""

from __future__ import annotations

import argparse
import os
import socket
from typing import TYPE_CHECKING, Callable

import pygame

from game.i18n import N_, _, ngettext
from game.settings import MAX_NAME_LENGTH
from net import DEFAULT_PORT
from net.discovery import Beacon, BeaconListener, FoundGame, interface_addresses, loopback_only

from .textinput import TextInput
from .theme import CANVAS, CREAM, GOLD
from .widgets import Button, ButtonScene, panel

if TYPE_CHECKING:
    from net.session import Session

    from .app import App
    from game.saves import SaveStore

#: Where "Host a game" in the menu listens (all interfaces, as ``rose-king host``); a
#: development machine sets ROSE_KING_LAN_BIND=127.0.0.1 to keep everything on loopback.
MENU_BIND = "127.0.0.1" if loopback_only() else os.environ.get("ROSE_KING_LAN_BIND", "0.0.0.0")
#: Seconds a join may knock at an address before the lobby says nobody answers there (it keeps trying).
NOBODY_SECONDS = 2.0
#: Peer ids of the beacons this program sends: the join screen does not list its own game.
own_beacons: set[bytes] = set()
ADDRESS_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:[]_"


def _route_address() -> str | None:
    """The address this machine would send from towards a LAN (a UDP "connect" sends nothing)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 9))
            return str(s.getsockname()[0])
    except OSError:
        return None


def local_addresses(bound: str | None = None) -> list[str]:
    """This machine's IPv4 addresses as others may type them: every interface's address (the
    one towards the LAN first), loopback last. Sends nothing. ``bound``: the address the host
    listens on; one other than all interfaces (``0.0.0.0``, ``""``, None), e.g. 127.0.0.1 with
    ``--loopback``, is the only address a player can reach it at, so it alone is returned."""
    if bound not in (None, "", "0.0.0.0"):
        return [str(bound)]
    candidates = [_route_address() or "", *interface_addresses()]
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        infos = []
    candidates += [str(info[4][0]) for info in infos]
    found: list[str] = []
    for addr in candidates:
        if addr and addr not in found and not addr.startswith("127.") and addr != "0.0.0.0":
            found.append(addr)
    return found + ["127.0.0.1"]



def settings_name(app: "App", fallback: str) -> str:
    """The player's name for a network game: the first name set in a game's settings (a name field,
    control ``"text"``: games in registry order, fields in schema order), else ``fallback`` ("Host"/"Guest", translated) — never the login name."""
    from game.registry import GAMES
    for game in GAMES:
        section = app.prefs.settings.of(game.key)
        for field, spec in game.settings_schema.items():
            name = str(getattr(section, field, "") or "").strip() if spec.control == "text" else ""
            if name:
                return name
    return fallback


def remember_name(app: "App", name: str) -> None:
    """Keep ``name`` as the player's name for network games: in the first name field of a game's
    settings (the one :func:`settings_name` reads first), unless it is already the name read."""
    from game.registry import GAMES
    name = name.strip()
    if not name or settings_name(app, "") == name:
        return
    for game in GAMES:
        for field, spec in game.settings_schema.items():
            if spec.control == "text":
                try:
                    app.prefs.update_game(game.key, **{field: name})
                except (ValueError, OSError):
                    pass
                return


def start_beacon(name: str, port: int, address: str | None = None, game: str = "") -> Beacon | None:
    """The discovery beacon of a hosted table of ``game`` (its registry key; None if no UDP
    socket can be made: then players type the address)."""
    try:
        beacon = Beacon(name, port, address=address, game=game)
    except (OSError, ValueError):  # no UDP socket, or a destination off this machine while loopback only
        return None
    own_beacons.add(beacon.peer_id)
    return beacon



def game_title(key: str) -> str:
    """The translated title of the game whose registry key is ``key`` (a beacon's ``g``), or
    ``""`` for an empty or unknown key (a table of a game this program does not hold)."""
    from game.registry import GAMES
    return next((_(g.title) for g in GAMES if g.key == key), "") if key else ""


def table_text(g: FoundGame) -> str:
    """Who sits at a discovered table and whether a seat is free ("Ann, Bo · 1 seat free", "Ann,
    Bo · playing", "... · game over"), from its beacon's table datagram; "" when none came."""
    if not g.state:
        return ""
    if g.state == "open":
        state = ngettext("{n} seat free", "{n} seats free", g.free).format(n=g.free) if g.free > 0 else _("full")
    else:
        state = _("playing") if g.state == "playing" else _("game over")
    return " · ".join(([", ".join(g.players)] if g.players else []) + [state])


class LobbyExit:
    """What both games' lobbies (which hold ``session``, ``beacon`` and ``on_back``) do on
    Cancel / Escape: stop the beacon, close the session (which tells the peers we leave), each
    once, then ``on_back()``."""

    session: "Session | None"
    beacon: "Beacon | None"
    on_back: Callable[[], object]

    def cancel(self) -> None:
        self.close()
        self.on_back()

    on_escape = cancel

    def close(self) -> None:
        if self.beacon is not None:
            self.beacon.stop()
            self.beacon = None
        if self.session is not None:
            self.session.close()
            self.session = None


class JoinScene(ButtonScene):
    """"Join a game", the same screen for every game: the games the beacon listener hears (not
    our own), and a field to type ``host[:port]``. ``listener``: a :class:`BeaconListener` to use
    (tests), else one on the discovery port (none with ``listen=False``, or if that port cannot
    be opened: typing still works). ``name``: the player's name (default: the name set in
    Settings). A game's screen subclasses it and says what :meth:`join` does (which session it
    opens, which waiting screen it shows) and which title :meth:`draw_title` draws."""

    app: "App"

    ROWS = 4

    def __init__(self, app: "App", name: str | None = None, listener: BeaconListener | None = None,
                 store: SaveStore | None = None, listen: bool = True) -> None:
        super().__init__(app)
        self.name = name or settings_name(app, _("Guest"))
        self.store = store
        self.clock = 0.0
        self.still = False  # the caret blinks, the "looking" dots move
        self.error = ""
        self.ready = False  # set by the first update: the key that opened this screen types nothing
        self.listener = listener
        if listener is None and listen:
            try:
                self.listener = self.make_listener()
            except OSError:
                self.listener = None
        self.found: list[FoundGame] = []
        self.rect = pygame.Rect(CANVAS[0] // 2 - 400, 215, 800, 560)
        x0, w = self.rect.x + 40, self.rect.w - 80
        self.rows = [Button((x0, self.rect.y + 80 + i * 58, w, 50), self._row_label(i), self._row_action(i),
                            size=26, enabled=self._row_enabled(i)) for i in range(self.ROWS)]
        fy = self.rect.y + 80 + self.ROWS * 58 + 50
        self.field = TextInput((x0, fy, w - 200, 54), placeholder=N_("host or host:port"), max_len=64,
                               allowed=ADDRESS_CHARS, on_submit=lambda _t: self.join_typed(), focused=True,
                               escape=False, style="light", size=30)
        self.name_field = TextInput((x0 + 240, fy + 70, w - 240, 46), name or settings_name(app, ""),
                                    max_len=MAX_NAME_LENGTH, placeholder=N_("Your name"), escape=False,
                                    on_submit=lambda _t: self.name_field.blur(), style="light", size=26)
        self.buttons = [*self.rows,
                        Button((x0 + w - 180, fy, 180, 54), N_("Join"), self.join_typed, size=30),
                        Button((x0, self.rect.bottom - 70, 200, 52), N_("Back"), self.back, size=28)]

    def _row_label(self, i: int) -> Callable[[], str]:
        def label() -> str:
            if i >= len(self.found):
                return ""
            g = self.found[i]
            text = _("{name} at {address}").format(name=g.name, address=f"{g.address}:{g.port}")
            title = game_title(g.game)
            if title:
                text = _("{table} ({game})").format(table=text, game=title)
            seats = table_text(g)
            if seats:
                text = f"{text} · {seats}"
            return text if g.compatible else _("{game} (another version)").format(game=text)
        return label

    def _row_enabled(self, i: int) -> Callable[[], bool]:
        return lambda: i < len(self.found) and self.found[i].compatible

    def _row_action(self, i: int) -> Callable[[], None]:
        def action() -> None:
            if i < len(self.found):
                self.take_name()
                self.join(self.found[i].address, self.found[i].port)
        return action

    def take_name(self) -> None:
        """The name typed (remembered in the settings for the next table) is the one we join with."""
        name = self.name_field.text.strip()
        if name:
            self.name = name
            remember_name(self.app, name)

    def join_typed(self) -> None:
        from game.lan import parse_address
        self.take_name()
        try:
            host, port = parse_address(self.field.text.strip())
        except argparse.ArgumentTypeError:
            self.error = _("Type the host's address, like 192.168.1.20 or 192.168.1.20:{port}.").format(
                port=DEFAULT_PORT)
            return
        self.join(host, port)

    def make_listener(self) -> BeaconListener:
        """The beacon listener on the discovery port (ignoring this program's own beacons). Raises OSError."""
        return BeaconListener(ignore=own_beacons)

    def join(self, host: str, port: int) -> None:
        """Connect to ``host:port`` (in the background) and show the waiting screen; a problem
        found at once goes into :attr:`error`. Each game's screen says how."""
        raise NotImplementedError

    def draw_title(self, surface: pygame.Surface, clock: float, y: int) -> None:
        """The game's title over the table behind the panel (default: the bare table)."""
        surface.blit(self.app.art.table, (0, 0))

    def back(self) -> None:
        self.app.pop()

    on_escape = back

    def close(self) -> None:
        self.field.blur()
        self.name_field.blur()
        if self.listener is not None:
            self.listener.stop()
            self.listener = None

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.TEXTINPUT and not self.ready:
            return  # not the digit of the menu key that opened this screen
        if event.type == pygame.TEXTINPUT:
            self.error = ""
        if self.name_field.handle_event(event) or self.field.handle_event(event):
            return
        super().handle_event(event)

    def update(self, dt: float) -> None:
        self.ready = True
        self.clock += dt
        self.field.update(dt)
        self.name_field.update(dt)
        if self.listener is not None:
            self.found = self.listener.games()[:self.ROWS]

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        self.draw_title(surface, self.clock, 110)
        surface.blit(panel(self.rect.size), self.rect)
        t = art.text(_("Games on the network"), 34, GOLD, shadow=True)
        surface.blit(t, (self.rect.x + 40, self.rect.y + 26))
        if not self.found:
            dots = "." * (1 + int(self.clock * 2) % 3)
            text = (_("Looking for games") + dots if self.listener is not None
                    else _("Cannot listen for games here; type the address below."))
            s = art.text(text, 26, CREAM, shadow=True)
            surface.blit(s, (self.rect.x + 48, self.rect.y + 92))
        for b in self.rows:
            if b.text():
                b.draw(surface, art)
        s = art.text(_("Or type the host's address:"), 26, CREAM, shadow=True)
        surface.blit(s, (self.field.rect.x, self.field.rect.y - 36))
        self.field.draw(surface, art)
        s = art.text(_("Your name"), 26, CREAM, shadow=True)
        surface.blit(s, s.get_rect(midleft=(self.field.rect.x, self.name_field.rect.centery)))
        self.name_field.draw(surface, art)
        for b in self.buttons[self.ROWS:]:
            b.draw(surface, art)
        if self.error:
            e = art.text(self.error, 22, (255, 180, 160), shadow=True, wrap=self.rect.w - 300)
            surface.blit(e, (self.rect.x + 270, self.rect.bottom - 66))
