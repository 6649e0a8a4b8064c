"""The waiting screens, the join screen and ``rose-king host/join`` with a window, for every game
on the one LAN layer (see :mod:`game.client.lan`). No game is named here.

- :func:`host_table` / :func:`join_table`: open a :class:`net.session.Session` of a game's
  :class:`net.match.LanPart` and push its :class:`LobbyScene`.
- :class:`LobbyScene`: the seats (from the session's ``LobbySeats``), this machine's addresses
  (host), the status line (from ``Status``, worded here), why the session stopped (``Dropped``,
  worded from its code), the host's choices (the game's ``lobby_buttons``) and, for a game the
  host starts by hand, "Start the match"; on ``Started`` the game's table takes the session over.
- :class:`LayerJoinScene`: the one "Join a game" screen: it reads a host's hello in the
  background to learn its game, then opens that game's waiting screen.
- :func:`run_layer_window`: ``rose-king host|join`` with a window for such a game.
"""

from __future__ import annotations

import argparse
import sys
import threading
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

import pygame

from game.i18n import N_, _
from net import DEFAULT_PORT

from ..lan_common import (MENU_BIND, NOBODY_SECONDS, JoinScene, LobbyExit, local_addresses, settings_name,
                          start_beacon)
from ..theme import CANVAS, CREAM, GOLD
from ..widgets import Button, ButtonScene, elide, panel
from . import CLIENTS, LanClient, NetMatch
from .table import tell_table
from .words import seat_state, status_line

if TYPE_CHECKING:
    from net.match import LanPart
    from net.session import Session

    from ..app import App

#: Session statuses while the match waits for a connection (a table shows its banner).
WAITING = ("connecting", "interrupted", "listening")
#: Session statuses after which nothing more comes.
ENDED = ("failed", "closed")
ERROR_INK = (255, 180, 160)
GREYED = (150, 140, 125)


def layer_client(key: str) -> tuple["LanPart", LanClient] | None:
    """``(the game's LanPart, its LanClient)`` for a game that plays over the one LAN layer in
    the window (its registry entry has ``lan`` and its registered client ``lan``), else None."""
    from game.registry import GAMES
    game = next((g for g in GAMES if g.key == key), None)
    client = CLIENTS.get(key)
    if game is None or client is None or game.lan is None or client.lan is None:
        return None
    return game.lan, client.lan


class LobbyScene(LobbyExit, ButtonScene):
    """Waiting for a match of the game of ``lan`` (its :class:`LanClient`) on ``session``, on the
    host and on a joiner (see the module docstring). ``draw_title(surface, app, clock, y)``: the
    game's title art; ``again``: how "play again" reopens this table (given to the table);
    "Cancel"/Esc closes the session and calls ``on_back`` (default: the main menu)."""

    app: "App"

    def __init__(self, app: "App", session: "Session", lan: LanClient, *, beacon: Any = None,
                 on_back: Callable[[], object] | None = None, store: Any = None,
                 draw_title: Callable[..., None] | None = None, again: Callable[[], None] | None = None,
                 internet: Any = None) -> None:
        super().__init__(app)
        self.session: "Session | None" = session
        self.lan, self.beacon, self.store = lan, beacon, store
        self.on_back = on_back or app.go_home
        self._draw_title, self.again = draw_title, again
        self.hosting = session.role == "host"
        self.addresses = local_addresses(session.address) if self.hosting else []
        self.rows: tuple = ()
        self.clock = 0.0
        self.still = False  # the status dots move
        self.connecting_for = 0.0
        self.error = ""
        self.rect = pygame.Rect(CANVAS[0] // 2 - 420, 200, 840, 580)
        r = self.rect
        self.buttons = [Button((r.x + 40, r.bottom - 80, 240, 56), N_("Cancel"), self.cancel, size=28)]
        if self.hosting and not session.part.auto_start:
            self.buttons.append(Button((r.right - 320, r.bottom - 80, 280, 56), N_("Start the match"), self.start,
                                       key=pygame.K_RETURN, size=28,
                                       enabled=lambda: self.session is not None and self.session.can_start()))
        self.extras = pygame.Rect(r.x + 40, r.bottom - 156, r.w - 80, 56)  # the host's choices
        if self.hosting and lan.lobby_buttons is not None:
            self.buttons += lan.lobby_buttons(self, self.extras)
        if self.hosting and lan.lobby_choice is not None:
            self.buttons += self.choice_buttons(*lan.lobby_choice)
        from .internet import HostInvites  # internet play: a joiner's link, or the host's invitations
        self.internet = internet if internet is not None or not self.hosting else HostInvites(self)

    def choice_buttons(self, option: str, heading: str, values: tuple) -> list[Button]:
        """The host's one choice (the game's ``lobby_choice``) as a row of buttons in the choices' room."""
        gap = 12
        bw = min(200, (self.extras.w - (len(values) - 1) * gap) // len(values))
        x0 = self.extras.centerx - (len(values) * bw + (len(values) - 1) * gap) // 2

        def choose(value: str) -> None:
            if self.choices_open() and self.session is not None:
                self.session.set_options({**self.session.options, option: value} if value else
                                         {k: v for k, v in self.session.options.items() if k != option})

        def chosen(value: str) -> bool:
            return self.session is not None and self.session.options.get(option, "") == value
        return [Button((x0 + i * (bw + gap), self.extras.y, bw, self.extras.h), label, partial(choose, value),
                       enabled=self.choices_open, selected=partial(chosen, value), size=28)
                for i, (value, label) in enumerate(values)]

    def lines(self) -> list[str]:
        """The lines about the table: the host's switches that are on, then the game's ``lobby_lines``."""
        options = self.session.options if self.session is not None else {}
        on = [_(label) for option, label, _when in self.lan.host_switches if options.get(option)]
        return on + (self.lan.lobby_lines(self) if self.lan.lobby_lines is not None else [])

    def choices_open(self) -> bool:
        """Whether the host's choices may still change: nobody has taken a seat and no match is
        held (a resumed match keeps its table)."""
        s = self.session
        return (s is not None and self.hosting and s.status == "listening" and s.machine is None
                and not any(row[0] == "person" for row in self.rows))

    def close(self) -> None:
        super().close()
        if self.internet is not None:  # not handed to a table: its connections by code go
            self.internet.close()
            self.internet = None

    def start(self) -> None:
        if self.session is not None:
            try:
                self.session.start()
            except ValueError:
                pass  # someone left meanwhile: the button greys again

    def nobody_answers(self) -> str | None:
        """After :data:`NOBODY_SECONDS` of knocking in vain: say so (the session keeps trying)."""
        s = self.session
        if s is None or self.hosting or self.connecting_for < NOBODY_SECONDS or self.internet is not None:
            return None
        return _("Nobody answers at {address}. Is a game hosted there? Still trying ({seconds} s)…").format(
            address=f"{s.address}:{s.port}", seconds=int(self.connecting_for))

    def update(self, dt: float) -> None:
        from game.fsutil import os_error_text
        from net.session import Dropped, LobbySeats, Started, WriteFailed
        self.clock += dt
        s = self.session
        if s is None:
            return
        self.connecting_for = self.connecting_for + dt if s.status == "connecting" else 0.0
        events = s.poll()
        if self.internet is not None:
            self.internet.update()
        for i, e in enumerate(events):
            if isinstance(e, LobbySeats):
                self.rows = e.rows
                tell_table(self.beacon, e.rows, "open")
            elif isinstance(e, Dropped) and e.fatal and e.by_peer:
                self.error = self.lan.stop_words(e.code)
            elif isinstance(e, WriteFailed):  # the journal: no promise of the match can be made without it
                self.error = _("The record could not be written: {reason}").format(reason=os_error_text(e.reason))
            elif isinstance(e, Started):
                self._begin(e, events[i + 1:])
                return

    def _begin(self, started: Any, pending: list) -> None:
        session, beacon = self.session, self.beacon
        self.session = self.beacon = None  # handed over: leaving the lobby must not close them
        assert session is not None
        net = NetMatch(session, started, pending, beacon, self.app.go_home, self.again, self.store)
        net.internet, self.internet = self.internet, None
        if self.lan.ready is not None and not session.view(self.lan.ready):
            from .wait import WaitScene
            self.app.replace(WaitScene(self.app, net, self.lan, session.part.key))
        else:
            self.app.replace(self.lan.table(self.app, net))

    def at_rest(self) -> bool:
        s = self.session
        look = (int(self.clock * 2), self.error, self.rows, None if s is None else (s.status, self.nobody_answers()),
                None if self.internet is None else self.internet.look())
        if look != getattr(self, "_look", None):
            self._look = look
            return False
        return super().at_rest()

    def status_text(self) -> str:
        s = self.session
        if s is None:
            return ""
        nobody = self.nobody_answers()
        if nobody:
            return nobody
        dots = "." * (1 + int(self.clock * 2) % 3)
        if self.hosting and s.status == "lobby" and not s.part.auto_start:
            return _("Ready: start when you like.") if s.can_start() else _("Waiting for players") + dots
        if not self.hosting and s.status == "lobby":
            return _("Seated. Waiting for the host to start the match") + dots
        if s.status in ENDED:
            return "" if self.error else status_line(s)
        return status_line(s) + dots

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        if self._draw_title is not None:
            self._draw_title(surface, self.app, self.clock, 90)
        else:
            surface.blit(art.table, (0, 0))
        r = self.rect
        surface.blit(panel(r.size), r)
        s = self.session
        t = art.text(_("Hosting a game") if self.hosting else _("Joining a game"), 40, GOLD, shadow=True)
        surface.blit(t, t.get_rect(midtop=(r.centerx, r.y + 20)))
        y = r.y + 78
        if s is None:
            return
        line = art.text(_("Your name: {name}").format(name=s.name), 24, CREAM, shadow=True)
        surface.blit(line, line.get_rect(midtop=(r.centerx, y)))
        y += line.get_height() + 8
        if self.hosting:
            line = art.text(_("Players join at this address:") + "  " + "   ".join(
                f"{a}:{s.port}" for a in self.addresses[:2]), 26, GOLD, shadow=True, wrap=r.w - 60)
            surface.blit(line, line.get_rect(midtop=(r.centerx, y)))
            y += line.get_height() + 12
        closed = s.status in ENDED
        ink = GREYED if closed else CREAM
        for seat, row in enumerate(self.rows):
            kind, name, connected = row[0], row[1], bool(row[2])
            box = pygame.Rect(r.x + 60, y, r.w - 120, 46)
            surface.blit(panel(box.size, 150, radius=10), box)
            dot = GREYED if closed else (90, 200, 120) if connected and kind != "open" else (200, 90, 70)
            pygame.draw.circle(surface, dot, (box.x + 24, box.centery), 8)
            label = art.text(_("Seat {n}").format(n=seat + 1), 22, ink)
            surface.blit(label, label.get_rect(midleft=(box.x + 44, box.centery)))
            words = seat_state(kind, connected, closed)
            if self.internet is not None:
                words = self.internet.seat_state(seat, row, words)
            state = art.text(words, 22, ink)
            srect = state.get_rect(midright=(box.right - 18, box.centery))
            surface.blit(state, srect)
            font = art.font(24)
            room = srect.left - 16 - (box.x + 140)
            who = name or "—"
            mine = self.hosting and seat == 0 or not self.hosting and seat == getattr(s.lobby, "seat", -1)
            text = elide(font, _("{name} (you)").format(name=who) if mine else who, room)
            img = art.text(text, 24, GOLD if mine and not closed else ink, shadow=True)
            surface.blit(img, img.get_rect(midleft=(box.x + 140, box.centery)))
            if self.internet is not None:
                self.internet.draw_seat(surface, seat, box)
            y += 52
        if self.internet is not None:
            y = self.internet.draw_below(surface, y)
        lines = self.lines()
        choice = self.lan.lobby_choice
        if self.hosting and choice is not None:  # its heading over the host's choice
            img = art.text(_(choice[1]), 22, CREAM, shadow=True)
            surface.blit(img, img.get_rect(midbottom=(r.centerx, self.extras.y - 8)))
        elif self.hosting and self.lan.lobby_buttons is not None:  # over the host's choices
            bottom = self.extras.y - 8
            for text in reversed(lines):
                img = art.text(text, 22, CREAM, shadow=True, wrap=r.w - 80)
                surface.blit(img, img.get_rect(midbottom=(r.centerx, bottom)))
                bottom -= img.get_height() + 6
            lines = []
        for text in lines:
            img = art.text(text, 22, CREAM, shadow=True, wrap=r.w - 80)
            surface.blit(img, img.get_rect(midtop=(r.centerx, y)))
            y += img.get_height() + 6
        y += 6
        status = self.status_text()
        if status:
            img = art.text(status, 24, CREAM, shadow=True, wrap=r.w - 80)
            surface.blit(img, img.get_rect(midtop=(r.centerx, y)))
            y += img.get_height() + 8
        if self.error:
            img = art.text(_("The game cannot start: {reason}").format(reason=self.error), 22, ERROR_INK,
                           shadow=True, wrap=r.w - 80)
            surface.blit(img, img.get_rect(midtop=(r.centerx, y)))
        self.draw_buttons(surface)


# --------------------------------------------------------------------------- opening a table
def _title_of(key: str) -> Callable[..., None] | None:
    client = CLIENTS.get(key)
    return None if client is None else client.draw_title


def host_table(app: "App", key: str, *, kinds: tuple[str, ...] = ("host", "person"),
               computers: dict[int, str] | None = None, options: dict | None = None, name: str | None = None,
               port: int = DEFAULT_PORT, bind: str | None = None, beacon_address: str | None = None,
               store: Any = None, record: str | None = None, beacon: bool = True,
               any_port: bool = True, computer_names: dict[int, str] | None = None) -> LobbyScene:
    """Host a table of game ``key`` (on the one LAN layer) and push its waiting screen: listen on
    ``port`` (``any_port``: any free port if it is taken), send the discovery beacon. ``kinds``/``computers``/
    ``options``/``computer_names``: the table (:class:`net.session.Session`'s); ``record``: ``--record FILE`` (its
    journal resumes a match). Raises OSError if no port can be opened, ValueError for a bad
    table or journal, KeyError for a game not on the layer."""
    from game.lan import now_iso
    from net.session import Session
    found = layer_client(key)
    if found is None:
        raise KeyError(key)
    part, lan = found
    name = name or settings_name(app, _("Host"))
    bind = MENU_BIND if bind is None else bind
    if record is None and lan.record_path is not None:
        record = lan.record_path()

    def open_session(p: int) -> "Session":
        return Session(part, "host", name, address=bind, port=p, kinds=kinds, computers=computers,
                       options=options, record=record, date=now_iso(), computer_names=computer_names)
    try:
        session = open_session(port)
    except OSError:
        if record is not None or not any_port:
            raise  # a journaled table keeps its address: its joiner comes back to it
        session = open_session(0)
    sent = start_beacon(name, session.port, beacon_address, game=key) if beacon else None
    tell_table(sent, tuple(("host", name, True) if k == "host" else ("computer", (computer_names or {}).get(s, ""), True)
                           if k == "computer" else ("open", "", False) for s, k in enumerate(kinds)), "open")

    def again() -> None:  # the same table again, on the same port once this session closed
        host_table(app, key, kinds=kinds, computers=computers, options=session.options, name=name,
                   port=session.port, bind=bind, beacon_address=beacon_address, store=store, beacon=beacon,
                   computer_names=computer_names)
    lobby = LobbyScene(app, session, lan, beacon=sent, store=store, draw_title=_title_of(key), again=again)
    app.push(lobby)
    return lobby


def join_table(app: "App", key: str, address: str, port: int = DEFAULT_PORT, *, name: str | None = None,
               connected: tuple | None = None, store: Any = None, record: str | None = None,
               on_back: Callable[[], object] | None = None, dial: Callable | None = None,
               internet: Any = None) -> LobbyScene:
    """Join the table of game ``key`` at ``address:port`` (on ``connected``, a connection a probe
    already opened: ``(socket, bytes read)``) and push the waiting screen. ``dial``/``internet``:
    a join by code (the session's dial, and the link kept for the table: no "play again"). Raises OSError /
    ValueError (a bad journal), KeyError for a game not on the layer."""
    from game.lan import now_iso
    from net.session import Session
    found = layer_client(key)
    if found is None:
        raise KeyError(key)
    part, lan = found
    name = name or settings_name(app, _("Guest"))
    if record is None and lan.record_path is not None:
        record = lan.record_path()
    session = Session(part, "join", name, address=address, port=port, record=record, date=now_iso(),
                      connected=connected, dial=dial)

    def again() -> None:
        join_table(app, key, address, port, name=name, store=store)
    lobby = LobbyScene(app, session, lan, store=store, draw_title=_title_of(key), again=None if dial else again,
                       on_back=on_back, internet=internet)
    app.push(lobby)
    return lobby


class LayerJoinScene(JoinScene):
    """"Join a game", the one screen for every game: a table heard on the network or a typed
    address; the host's hello, read in the background, says its game, whose waiting screen then
    opens on that same connection (a game this program lacks, or not on the layer: said so).
    ``key``: the game whose tab opened it (its title art)."""

    def __init__(self, app: "App", key: str = "", **kw: Any) -> None:
        super().__init__(app, **kw)
        self.key = key
        from .internet import code_button
        self.buttons.append(code_button(self))  # "Join with a code"
        self.probing: tuple[str, int] | None = None
        self._probe: dict = {}

    def join(self, host: str, port: int) -> None:
        """Read the host's hello in the background, then open the waiting screen of its game."""
        if self.probing is not None:
            return
        from net.session import probe_host
        self.probing = (host, port)
        result = self._probe = {}

        def probe() -> None:
            try:
                result["found"] = probe_host(host, port, timeout=NOBODY_SECONDS)
            except (OSError, ValueError) as e:
                result["error"] = e
        threading.Thread(target=probe, name="lan-probe", daemon=True).start()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.probing is None or not self._probe:
            return
        from game.lan import join_error_text
        host, port = self.probing
        result, self.probing, self._probe = self._probe, None, {}
        if "found" in result:
            game, sock, data = result["found"]
            self.open_session(game, host, port, (sock, data))
        elif isinstance(result.get("error"), ValueError):  # the host's bytes: worded, never shown raw
            self.error = join_error_text(result["error"], f"{host}:{port}")
        elif layer_client(self.key) is not None:  # nobody answers yet: this tab's game keeps knocking
            self.open_session(self.key, host, port, None)
        else:
            self.error = join_error_text(result["error"], f"{host}:{port}")

    def open_session(self, game: str, host: str, port: int, connected: tuple | None, **by_code: Any) -> None:
        """Open ``game``'s waiting screen for ``host:port`` on the connection already made
        (``by_code``: ``dial``/``internet`` of :func:`join_table`, a join by code)."""
        from game.lan import join_error_text
        if layer_client(game) is not None:
            try:
                join_table(self.app, game, host, port, name=self.name, connected=connected, store=self.store,
                           on_back=self.app.pop, **by_code)
            except (OSError, ValueError) as e:
                if connected is not None:
                    connected[0].close()
                self.error = join_error_text(e, f"{host}:{port}")
            return
        if connected is not None:
            connected[0].close()
        self.error = _("That host plays another game.")

    def draw_title(self, surface: pygame.Surface, clock: float, y: int) -> None:
        title = _title_of(self.key)
        if title is None:
            super().draw_title(surface, clock, y)
        else:
            title(surface, self.app, clock, y)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        super().draw(surface, alpha)
        if self.probing is not None:
            t = self.app.art.text(_("Asking {address} which game it hosts…").format(
                address=f"{self.probing[0]}:{self.probing[1]}"), 24, CREAM, shadow=True)
            surface.blit(t, t.get_rect(midbottom=(CANVAS[0] // 2, self.field.rect.y - 44)))


# --------------------------------------------------------------------------- rose-king host / join
def run_layer_window(args: argparse.Namespace, key: str, open_window: "Callable[[], App]") -> int:
    """``rose-king host|join`` with a window for game ``key`` on the one LAN layer: open the window
    at the waiting screen and play. ``args``: the parsed options of :mod:`game.commands.host` /
    :mod:`game.commands.join` (a join has ``address``/``port``, and ``connected`` when the probe
    read the host's hello); the host's table comes from ``--seats``/``--computer`` and the
    game's ``host_options`` (:func:`game.lan.table_choice`). ``--record FILE``: the record, and
    beside it the journal an unfinished match resumes from. Returns the exit status (1: the
    window or the port cannot be opened, 2: bad options)."""
    from game.lan import check_record_path, computer_name, table_choice
    joining = "target" in vars(args)
    problem = check_record_path(args.record)
    prog = f"rose-king {'join' if joining else 'host'}"
    if problem:
        print(f"{prog}: {problem}", file=sys.stderr)
        return 2
    found = layer_client(key)
    assert found is not None
    part, _lan = found
    if not joining:
        try:
            kinds, computers, options = table_choice(part, args)
        except ValueError as e:
            print(f"{prog}: {e}", file=sys.stderr)
            return 2
    try:
        app = open_window()
    except pygame.error as e:
        print(_("rose-king: cannot open the game window: {error}").format(error=e), file=sys.stderr)
        return 1
    try:
        if joining:
            name = args.name or settings_name(app, _("Guest"))
            dialer = getattr(args, "dialer", None)  # ``join CODE``: met by code (the dialer redials)
            if dialer is not None:
                from .internet import DialerLink
                join_table(app, key, "", 0, name=name, record=args.record, connected=args.connected,
                           dial=dialer.dial, internet=DialerLink(dialer))
            else:
                join_table(app, key, args.address, args.port, name=name, record=args.record,
                           connected=getattr(args, "connected", None))
        else:
            name = args.name or settings_name(app, _("Host"))
            lobby = host_table(app, key, kinds=kinds, computers=computers, options=options, name=name,
                               port=args.port, bind=args.bind, beacon_address=args.beacon_address,
                               record=args.record, any_port=False,
                               computer_names={s: computer_name(level) for s, level in computers.items()})
            if getattr(args, "internet", False):  # ``host --internet``: the button, pressed for them
                from net.internet import Servers

                from .internet import HostInvites
                if isinstance(lobby.internet, HostInvites):
                    lobby.internet.start(Servers.resolve(args.mailbox, args.relay, direct=not args.relay_only))
    except (OSError, ValueError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        pygame.quit()
        return 1
    return app.run()
