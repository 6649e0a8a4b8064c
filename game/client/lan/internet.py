"""Internet play in the window: the host's invitations by code on its waiting screen, "Join with
a code", and the words "by code · direct/relayed · N ms" for such a seat (docs/protocol.md, "Over the
internet"; the transport is :mod:`net.internet`). No game is named here.

- :class:`HostInvites`: a host's waiting screen (:class:`~game.client.lan.lobby.LobbyScene`)
  holds one; its button "Invite over the internet" starts a :class:`net.internet.Invites` for the
  session (one code per open seat), polled once per frame, never waited on. Each open seat shows
  its code and a "Copy" button; a seat taken by code says so and its route.
- :class:`DialerLink`: a joiner's :class:`net.internet.CodeDialer`, kept for its route.
- :class:`CodeJoinScene`: "Join with a code": a field, the code's shape checked at once, then a
  helper thread waits for the first connection and reads the host's hello (its game); the join
  screen's ``open_session`` opens that game's waiting screen on it, with ``dial=`` the dialer's.

Both links are handed to the table as ``NetMatch.internet`` (closed with it) and answer
``seat_words(seat)``: "by code · relayed · 45 ms" for a seat connected by code (its route and
round trip), else "".

The rendezvous server and the relay come from :meth:`net.internet.Servers.resolve` with no
option: the environment (``ROSE_KING_MAILBOX``, ``ROSE_KING_RELAY``), else the library's public
servers.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any, Callable

import pygame

from game.i18n import N_, _, pgettext

from ..textinput import TextInput
from ..theme import CANVAS, CREAM, GOLD
from ..widgets import Button, ButtonScene, panel

if TYPE_CHECKING:
    from net.internet import CodeDialer, Invites
    from net.session import Session

    from ..app import App

ERROR_INK = (255, 180, 160)
#: Seconds the "Copied" label stays on a copy button.
COPIED_SECONDS = 2.0
#: Seconds the helper thread waits for the host's hello once connected.
HELLO_SECONDS = 10.0
CODE_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ- "


def failure_text(code: str, host: bool = False) -> str:
    """A failure code of :mod:`net.internet` (``InternetError.code``, an ``InviteEvent`` ``failed``
    detail, or ``servers`` for a bad server setting) as a plain sentence in the player's
    language; ``host``: the inviting side's wording."""
    if host and code in ("wrong", "used"):
        return _("Someone typed a wrong code. That seat has a new code now.")
    words = {
        "shape": _("That is not a code. A code is a number and two words, like 7-guitarist-revenge."),
        "rendezvous": _("The meeting server cannot be reached. Is this computer on the internet?"),
        "wrong": _("The code does not match (a typo?). Check it with your friend."),
        "used": _("This code was used already. Ask your friend for a new one."),
        "nobody": _("Nobody is waiting with this code: it was used, it expired, or it was mistyped."),
        "route": _("Your friend was found, but no connection could be made, neither direct nor relayed."),
        "servers": _("The internet servers are set wrongly (ROSE_KING_MAILBOX, ROSE_KING_RELAY)."),
        "hello": _("The other program does not answer like a game host."),
    }
    return words.get(code, _("The connection by code closed."))


def route_words(route: str, rtt: float | None = None) -> str:
    """What a seat connected by code shows: "by code · direct", "by code · relayed", or "by code";
    with ``rtt`` (the round trip, s, while connected) its milliseconds: "by code · relayed · 45 ms"."""
    if route == "direct":
        words = _("by code · direct")
    elif route == "relayed":
        words = _("by code · relayed")
    else:
        return _("by code")
    ms = _ms(rtt)
    return words if ms is None else f"{words} · " + pgettext("round trip", "{ms} ms").format(ms=ms)


def _ms(rtt: float | None) -> int | None:
    """The round trip as shown (whole ms, at least 1): a change of it is a change of the screen."""
    return None if rtt is None else max(1, round(rtt * 1000))


def route_short(route: str) -> str:
    """The route alone, for a seat row that says something else first: "direct", "relayed", or ""."""
    return {"direct": pgettext("connection", "direct"), "relayed": pgettext("connection", "relayed")}.get(route, "")


def table_state(words: str, route: str, state: str, text: str) -> str:
    """A seat's state on the table (:meth:`~game.client.lan.table.LanTable.seat_line`) for a seat
    connected by code (``words``: :func:`route_words`, ``""`` for another seat): "by code ·
    relayed" while it is simply connected, "thinking… · relayed" while it decides or reconnects."""
    if not words:
        return text
    if state == "connected":
        return words
    short = route_short(route)
    return f"{text} · {short}" if state in ("thinking", "away") and short and text else text


def copy_text(text: str) -> bool:
    """Put ``text`` on the system clipboard (pygame-ce's ``scrap``); False where there is none."""
    try:
        from pygame import scrap
        if hasattr(scrap, "put_text"):
            scrap.put_text(text)
            return True
        if not scrap.get_init():
            scrap.init()
        scrap.put(pygame.SCRAP_TEXT, text.encode())
        return True
    except (pygame.error, AttributeError, NotImplementedError):
        return False


class _Shown(Button):
    """A button that exists only while ``shown()`` (drawn, clicked)."""

    def __init__(self, *a: Any, shown: Callable[[], bool], **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.shown = shown

    def handle_event(self, event: pygame.event.Event) -> bool:
        return self.shown() and super().handle_event(event)

    def draw(self, surface: pygame.Surface, art: Any) -> None:
        if self.shown():
            super().draw(surface, art)


# --------------------------------------------------------------------------- host
class HostInvites:
    """The host's invitations on its waiting screen ``lobby`` (a LobbyScene that hosts). Adds
    its button to ``lobby.buttons``; :meth:`update` each frame; :meth:`draw_seat` /
    :meth:`seat_state` for the seat rows, :meth:`draw_below` under them. ``invites``: the
    :class:`net.internet.Invites` once started (None before)."""

    def __init__(self, lobby: Any) -> None:
        self.lobby = lobby
        self.session: "Session" = lobby.session
        self.invites: "Invites | None" = None
        self.error = ""
        self._adopted: list = []            # sockets handed to the session, in order (reactor thread)
        self._lock = threading.Lock()
        self._slot_socks: dict[int, list] = {}   # slot -> its sockets
        self._seat_slot: dict[int, int] = {}     # seat -> slot, once a connection by code holds it
        self._shown: dict[int, int] = {}         # open seat -> slot whose code it shows (this frame)
        self._copied: dict[int, float] = {}      # slot -> when its code was copied
        r = lobby.rect  # on the bottom row: where "Start the match" is not, else between it and Cancel
        start = any(b.rect.right == r.right - 40 and b.rect.y == r.bottom - 80 for b in lobby.buttons)
        place = (r.x + 295, r.bottom - 80, 210, 56) if start else (r.right - 320, r.bottom - 80, 280, 56)
        self.button = _Shown(place, N_("Invite over the internet"), self.start,
                             size=24, shown=lambda: self.invites is None and self._open_seats() > 0)
        lobby.buttons.append(self.button)
        self.copy_buttons: list[_Shown] = []

    # ------------------------------------------------------------------ state
    def _open_seats(self) -> int:
        return sum(1 for row in self.lobby.rows if row[0] == "open") if self.lobby.session is not None else 0

    def start(self, servers: Any = None) -> None:
        """Start the invitations: one code per open seat (each comes as an event; a seat that
        opens later, or whose row comes later, gets its own in :meth:`update`). ``servers``: a
        :class:`net.internet.Servers` (``rose-king host --internet --mailbox/--relay/--relay-only``),
        else :meth:`~net.internet.Servers.resolve`'s (the environment, else the public ones)."""
        from net.internet import Invites, Servers, state_path
        if self.invites is not None:
            return
        try:
            servers = servers or Servers.resolve()
        except ValueError:
            self.error = failure_text("servers")
            return
        self.invites = Invites(self._adopt, servers, state=state_path(self.session.record_path))
        self._top_up()

    def _top_up(self) -> None:
        """One invitation per open seat: as many new ones as open seats lack a spare one."""
        inv = self.invites
        if inv is None:
            return
        taken = set(self._seat_slot.values())
        spare = sum(1 for s in inv.slots if s not in taken)
        for _i in range(self._open_seats() - spare):
            inv.invite()

    def _adopt(self, sock: Any) -> None:  # the reactor thread: only hand it on
        with self._lock:
            self._adopted.append(sock)
        self.session.adopt(sock)

    def update(self) -> None:
        """Take the invitations' events (never blocks) and note which seat came by which code."""
        inv = self.invites
        if inv is None:
            return
        for e in inv.poll():
            if e.what == "connection":
                with self._lock:
                    sock = self._adopted.pop(0) if self._adopted else None
                if sock is not None:
                    self._slot_socks.setdefault(e.slot, []).append(sock)
            elif e.what == "failed":
                self.error = failure_text(e.detail, host=True)
            elif e.what == "joined":  # (a fresh code after a wrong guess keeps its sentence)
                self.error = ""
        for p in list(self.session.conns.peers.values()):
            seat = p.seat
            if seat is None or seat in self._seat_slot:
                continue
            for slot, socks in self._slot_socks.items():
                if p.sock in socks:
                    self._seat_slot[seat] = slot
        self._top_up()
        taken = set(self._seat_slot.values())
        waiting = [s for s in inv.slots if s not in taken and inv.code(s)]
        open_seats = [i for i, row in enumerate(self.lobby.rows) if row[0] == "open"]
        self._shown = dict(zip(open_seats, waiting))

    def seat_words(self, seat: int) -> str:
        """"by code · relayed" (or direct) for a seat that came by code, else ""."""
        slot = self._seat_slot.get(seat)
        if slot is None or self.invites is None:
            return ""
        return route_words(self.invites.route(slot), self.invites.rtt(slot))

    def table_state(self, seat: int, state: str, text: str) -> str:
        slot = self._seat_slot.get(seat)
        route = "" if slot is None or self.invites is None else self.invites.route(slot)
        return table_state(self.seat_words(seat), route, state, text)

    def seat_state(self, seat: int, row: tuple, state: str) -> str:
        """A seat row's state text: a seat taken by code adds how it came."""
        if row[0] == "open" and seat in self._shown:
            return " "  # its code and Copy say it
        words = self.seat_words(seat) if row[0] == "person" else ""
        return f"{state} · {words}" if words and state else words or state

    def look(self) -> tuple:
        inv = self.invites
        return (self.error, tuple(sorted(self._shown.items())), tuple(sorted(self._seat_slot.items())),
                None if inv is None else tuple((inv.code(s), inv.route(s), _ms(inv.rtt(s))) for s in inv.slots),
                tuple(s for s, t in self._copied.items() if time.monotonic() - t < COPIED_SECONDS))

    # ------------------------------------------------------------------ drawing
    def _copy_button(self, i: int) -> _Shown:
        while len(self.copy_buttons) <= i:
            k = len(self.copy_buttons)

            def copy(k: int = k) -> None:
                slot = self._slot_of_button(k)
                if slot is not None and self.invites is not None and copy_text(self.invites.code(slot) or ""):
                    self._copied[slot] = time.monotonic()

            def label(k: int = k) -> str:
                slot = self._slot_of_button(k)
                fresh = slot is not None and time.monotonic() - self._copied.get(slot, -99.0) < COPIED_SECONDS
                return _("Copied") if fresh else _("Copy")
            def shown(k: int = k) -> bool:
                return self._slot_of_button(k) is not None
            b = _Shown((0, 0, 100, 34), label, copy, size=20, shown=shown)
            self.copy_buttons.append(b)
            self.lobby.buttons.append(b)
        return self.copy_buttons[i]

    def _slot_of_button(self, k: int) -> int | None:
        shown = sorted(self._shown.items())
        return shown[k][1] if k < len(shown) else None

    def draw_seat(self, surface: pygame.Surface, seat: int, box: pygame.Rect) -> None:
        """Over an open seat's row: its code, large, and a Copy button."""
        if self.invites is None:
            return
        shown = sorted(self._shown.items())
        k = next((i for i, (s, _slot) in enumerate(shown) if s == seat), None)
        if k is None:
            return
        code = self.invites.code(shown[k][1]) or ""
        art = self.lobby.app.art
        img = art.text(code, 28, GOLD, shadow=True)
        rect = img.get_rect(midleft=(box.x + 170, box.centery))
        surface.blit(img, rect)
        b = self._copy_button(k)
        b.rect.midleft = (rect.right + 14, box.centery)

    def draw_below(self, surface: pygame.Surface, y: int) -> int:
        """Under the seats: how to use the codes, and a failure; returns the next free y."""
        art, r = self.lobby.app.art, self.lobby.rect
        lines: list[tuple[str, tuple]] = []
        if self.invites is not None and self._shown:
            lines.append((_("Give each code to one friend. They choose Join with a code."), CREAM))
        elif self.invites is not None and any(self.invites.code(s) is None for s in self.invites.slots) \
                and self._open_seats():
            lines.append((_("Asking the meeting server for codes…"), CREAM))
        if self.error:
            lines.append((self.error, ERROR_INK))
        for text, ink in lines:
            img = art.text(text, 22, ink, shadow=True, wrap=r.w - 80)
            surface.blit(img, img.get_rect(midtop=(r.centerx, y)))
            y += img.get_height() + 6
        return y

    def close(self) -> None:
        if self.invites is not None:
            self.invites.close()
            self.invites = None


# --------------------------------------------------------------------------- joiner
class DialerLink:
    """A joiner's connection by code (its :class:`net.internet.CodeDialer`), handed to the
    waiting screen and the table: seat 0 (the host) shows the route."""

    def __init__(self, dialer: "CodeDialer") -> None:
        self.dialer = dialer

    def seat_words(self, seat: int) -> str:
        return route_words(self.dialer.route, self.dialer.rtt) if seat == 0 else ""

    def table_state(self, seat: int, state: str, text: str) -> str:
        return table_state(self.seat_words(seat), self.dialer.route, state, text)

    def seat_state(self, seat: int, row: tuple, state: str) -> str:
        words = self.seat_words(seat)
        return f"{state} · {words}" if words and state else words or state

    def update(self) -> None:
        self.dialer.poll()  # (the route is read from the dialer itself)

    def look(self) -> tuple:
        return (self.dialer.route, _ms(self.dialer.rtt))

    def draw_seat(self, surface: pygame.Surface, seat: int, box: pygame.Rect) -> None:
        pass

    def draw_below(self, surface: pygame.Surface, y: int) -> int:
        return y

    def close(self) -> None:
        self.dialer.close()


STAGES = {"rendezvous": N_("Reaching the meeting server…"), "peer": N_("Finding your friend…"),
          "route": N_("Connecting…"), "open": N_("Connected. Asking which game…")}


class CodeJoin:
    """One attempt to join by ``code`` (already checked): the dialer starts at once, a helper
    thread waits for its first connection and reads the host's hello. :meth:`result` (never
    blocks): None while it runs, then ``("found", (game, sock, data))`` or ``("error", code)``.
    Raises InternetError (``shape``) for a malformed code, ValueError for bad server settings."""

    def __init__(self, code: str) -> None:
        from net.internet import CodeDialer, Servers, check_code
        code = check_code(code)
        self.dialer = CodeDialer(code, Servers.resolve())
        self._result: tuple | None = None
        threading.Thread(target=self._run, name="code-join", daemon=True).start()

    def _run(self) -> None:
        from net.connections import read_hello
        from net.internet import InternetError
        try:
            sock = self.dialer.first()
        except InternetError as e:
            self._result = ("error", e.code)
            return
        try:
            game, data = read_hello(sock, "the host", HELLO_SECONDS)
        except (OSError, ValueError):
            sock.close()
            self._result = ("error", "hello")
            return
        self._result = ("found", (game, sock, data))

    @property
    def stage(self) -> str:
        return self.dialer.stage

    def result(self) -> tuple | None:
        return self._result


class CodeJoinScene(ButtonScene):
    """"Join with a code" over the join screen ``join_screen`` (a LayerJoinScene): type the
    code, "Join"; once the host's hello came, this screen goes and ``join_screen.open_session``
    opens that game's waiting screen on the connection (``dial=`` the dialer's)."""

    def __init__(self, app: "App", join_screen: Any) -> None:
        super().__init__(app)
        self.join_screen = join_screen
        self.clock = 0.0
        self.error = ""
        self.attempt: CodeJoin | None = None
        self.ready = False
        self.rect = pygame.Rect(CANVAS[0] // 2 - 400, 240, 800, 400)
        x0, w = self.rect.x + 40, self.rect.w - 80
        fy = self.rect.y + 150
        self.field = TextInput((x0, fy, w - 200, 54), placeholder=lambda: "7-guitarist-revenge", max_len=60,
                               allowed=CODE_CHARS, on_submit=lambda _t: self.join(), focused=True,
                               escape=False, style="light", size=30)
        self.buttons = [Button((x0 + w - 180, fy, 180, 54), N_("Join"), self.join, size=30,
                               enabled=lambda: self.attempt is None),
                        Button((x0, self.rect.bottom - 70, 200, 52), N_("Back"), self.back, size=28)]

    def join(self) -> None:
        """Check the code's shape at once (a sentence if wrong), then start meeting the host."""
        from net.internet import InternetError
        if self.attempt is not None:
            return
        try:
            self.attempt = CodeJoin(self.field.text)
        except InternetError as e:
            self.error = failure_text(e.code)
        except ValueError:
            self.error = failure_text("servers")
        else:
            self.error = ""

    def back(self) -> None:
        self.app.pop()

    on_escape = back

    def close(self) -> None:
        self.field.blur()
        if self.attempt is not None:  # not handed over: nobody will use it
            self.attempt.dialer.close()
            self.attempt = None

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.TEXTINPUT and not self.ready:
            return
        if event.type in (pygame.TEXTINPUT, pygame.KEYDOWN) and getattr(event, "key", None) != pygame.K_RETURN:
            self.error = ""
        if self.field.handle_event(event):
            return
        super().handle_event(event)

    def update(self, dt: float) -> None:
        self.ready = True
        self.clock += dt
        self.field.update(dt)
        attempt = self.attempt
        result = None if attempt is None else attempt.result()
        if attempt is None or result is None:
            return
        self.attempt = None
        kind, value = result
        if kind == "error":
            attempt.dialer.close()
            self.error = failure_text(value)
            return
        game, sock, data = value
        screen = self.join_screen
        self.app.pop()  # this screen goes (closing nothing: the attempt is handed over)
        screen.error = ""
        screen.open_session(game, "", 0, (sock, data), dial=attempt.dialer.dial, internet=DialerLink(attempt.dialer))
        if screen.error:
            attempt.dialer.close()

    def at_rest(self) -> bool:
        return False  # the caret blinks

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        self.join_screen.draw_title(surface, self.clock, 110)
        surface.blit(panel(self.rect.size), self.rect)
        t = art.text(_("Join with a code"), 34, GOLD, shadow=True)
        surface.blit(t, (self.rect.x + 40, self.rect.y + 26))
        s = art.text(_("Type the code your friend gave you:"), 26, CREAM, shadow=True)
        surface.blit(s, (self.field.rect.x, self.field.rect.y - 40))
        self.field.draw(surface, art)
        self.draw_buttons(surface)
        y = self.field.rect.bottom + 20
        if self.attempt is not None:
            dots = "." * (1 + int(self.clock * 2) % 3)
            line = _(STAGES.get(self.attempt.stage, STAGES["route"])).rstrip("…") + dots
            img = art.text(line, 24, CREAM, shadow=True, wrap=self.rect.w - 80)
            surface.blit(img, (self.rect.x + 40, y))
        if self.error:
            img = art.text(self.error, 22, ERROR_INK, shadow=True, wrap=self.rect.w - 80)
            surface.blit(img, (self.rect.x + 40, y))


def code_button(join_screen: Any) -> Button:
    """The join screen's "Join with a code" (top right of its panel)."""
    r = join_screen.rect
    return Button((r.right - 320, r.y + 20, 280, 48), N_("Join with a code"),
                  lambda: _open_code_join(join_screen), size=24)


def _open_code_join(join_screen: Any) -> None:
    """The name typed on the join screen is the one joined with by code too (and remembered)."""
    take = getattr(join_screen, "take_name", None)
    if take is not None:
        take()
    join_screen.app.push(CodeJoinScene(join_screen.app, join_screen))


__all__ = ["CodeJoin", "CodeJoinScene", "DialerLink", "HostInvites", "code_button", "copy_text", "failure_text",
           "route_short", "route_words", "table_state"]
