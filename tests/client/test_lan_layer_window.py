"""The window's one path onto the LAN layer (game/client/lan/), played with a game defined in the
tests only (tests/net/nim_game.py) and a client hook written here: the host's waiting screen and
the one join screen open its table on the session, with no line of the shell naming it. Every
wait is bounded and ends on a condition."""

from __future__ import annotations

import time

import pygame
import pytest

import game.registry
from game.client.app import STEP
from game.client.lan import CLIENTS, LanClient, NetMatch
from game.client.lan.lobby import LayerJoinScene, LobbyScene, host_table
from game.client.scene import Scene
from game.client.widgets import Button
from net.headless import play_match
from net.session import Ended, Session

from ..net.nim_game import GAME, NIM

LIMIT = 20.0


class NimTable(Scene):
    """The test game's network table: it keeps what the lobby handed over and plays our seat."""

    def __init__(self, app, net: NetMatch) -> None:
        super().__init__(app)
        self.net = net
        self.events = list(net.pending)
        self.verdict = None

    def update(self, dt: float) -> None:
        self.events += self.net.session.poll()
        for e in self.events:
            if isinstance(e, Ended):
                self.verdict = e.verdict
        obs = self.net.session.view(lambda m: NIM.turn(m, m.seat))
        if obs is not None and self.verdict is None:
            try:
                self.net.session.act(1)
            except ValueError:
                pass

    def draw(self, surface, alpha: float = 1.0) -> None:
        surface.fill((0, 0, 0))

    def close(self) -> None:
        self.net.close()


class NimClient:
    key = GAME.key
    title = GAME.title

    def __init__(self) -> None:
        self.chosen: list = []

        def buttons(lobby, rect):
            def choose() -> None:
                lobby.session.set_options({"pile": "big"})
                self.chosen.append(lobby.choices_open())
            return [Button((rect.x, rect.y, 200, rect.h), "Big pile", choose, enabled=lobby.choices_open)]
        self.lan = LanClient(table=NimTable, lobby_buttons=buttons, lobby_lines=lambda lobby: ["a line of the game"])

    def draw_title(self, surface, app, clock, y=150) -> None:
        surface.fill((10, 40, 20))


@pytest.fixture
def nim(monkeypatch):
    monkeypatch.setattr(game.registry, "GAMES", game.registry.GAMES + (GAME,))
    monkeypatch.setenv("ROSE_KING_LAN_LOOPBACK", "1")
    client = NimClient()
    monkeypatch.setitem(CLIENTS, GAME.key, client)
    return client


def run_until(app, cond, what: str) -> None:
    end = time.monotonic() + LIMIT
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        app.step(STEP)


def play_host_to_the_end(app, host, table, level: str = "perfect", seat: int = 1) -> None:
    """The headless peer ``host`` (or a joiner: its ``level`` and engine ``seat``) plays the match
    out while the window (``table``) plays its seat; both end with the same verdict."""
    import threading
    verdict: list = []
    t = threading.Thread(target=lambda: verdict.append(play_match(host, NIM.player(level, seat), timeout=LIMIT)))
    t.start()
    run_until(app, lambda: table.verdict is not None, "the end of the match")
    t.join(LIMIT)
    assert verdict and verdict[0] == table.verdict


def table_of(app) -> NimTable | None:
    return next((s for s in app.scenes if isinstance(s, NimTable)), None)


def test_a_windowed_host_waits_in_the_lobby_sets_its_option_and_hands_the_session_to_the_games_table(app, nim):
    lobby = host_table(app, GAME.key, name="Ann", port=0, bind="127.0.0.1", beacon=False)
    assert app.top is lobby and lobby.hosting and lobby.rows == ()
    run_until(app, lambda: lobby.rows, "the lobby's seats")
    assert [r[0] for r in lobby.rows] == ["host", "open"]
    assert "Waiting for a player on port" in lobby.status_text()
    extra = next(b for b in lobby.buttons if b.text() == "Big pile")
    extra.action()
    assert nim.chosen == [True]
    run_until(app, lambda: lobby.session.options == {"pile": "big"}, "the option on the session thread")
    app.redraw()
    join = Session(NIM, "join", "Bo", port=lobby.session.port, reconnect_delay=0.05)
    try:
        run_until(app, lambda: table_of(app) is not None, "the table")
        table = table_of(app)
        assert table.net.seat == 0 and table.net.names == ("Ann", "Bo")
        assert table.net.started.table.options == {"pile": "big"}
        assert lobby.session is None  # handed over: leaving the lobby can no longer close it
        verdict: list = []
        import threading
        t = threading.Thread(target=lambda: verdict.append(play_match(join, NIM.player("random", 2), timeout=LIMIT)))
        t.start()
        run_until(app, lambda: table.verdict is not None, "the end of the match")
        t.join(LIMIT)
        assert verdict and verdict[0].kind == table.verdict.kind == "finished"
        assert table.net.again is not None
    finally:
        join.close()
        while app.scenes:
            app.pop()


def test_the_one_join_screen_reads_the_hosts_hello_and_opens_that_games_lobby(app, nim):
    host = Session(NIM, "host", "Ann", port=0)
    try:
        screen = LayerJoinScene(app, key=GAME.key, name="Bo", listen=False)
        app.reset(screen)
        screen.join("127.0.0.1", host.port)
        run_until(app, lambda: isinstance(app.top, (LobbyScene, NimTable)), "the game's waiting screen")
        run_until(app, lambda: table_of(app) is not None, "the table")
        table = table_of(app)
        assert table.net.seat == 1 and table.net.names == ("Ann", "Bo")
        play_host_to_the_end(app, host, table)
    finally:
        host.close(1.0)
        while app.scenes:
            app.pop()


def test_a_join_screen_says_when_the_table_plays_a_game_this_program_lacks(app, nim, monkeypatch):
    host = Session(NIM, "host", "Ann", port=0)
    monkeypatch.delitem(CLIENTS, GAME.key)
    try:
        screen = LayerJoinScene(app, name="Bo", listen=False)
        app.reset(screen)
        screen.join("127.0.0.1", host.port)
        run_until(app, lambda: screen.error, "the error")
        assert screen.error == "That host plays another game." and app.top is screen
    finally:
        host.close(1.0)


def test_a_refused_joiner_reads_why_in_the_lobby(app, nim):
    """A second joiner of a full table is refused (``seat``): its lobby says so in words."""
    host = Session(NIM, "host", "Ann", port=0)
    first = Session(NIM, "join", "Bo", port=host.port, reconnect_delay=0.05)
    try:
        end = time.monotonic() + LIMIT
        while host.machine is None:
            assert time.monotonic() < end, "the first joiner's match"
            time.sleep(0.01)
        from game.client.lan.lobby import join_table
        lobby = join_table(app, GAME.key, "127.0.0.1", host.port, name="Cy")
        run_until(app, lambda: lobby.error, "the refusal")
        assert lobby.error == "That game has no place for this player."
        assert lobby.status_text() == ""  # the error says it
        pygame.event.clear()
        app.redraw()
    finally:
        first.close(1.0)
        host.close(1.0)
        while app.scenes:
            app.pop()


class NimShellTable(Scene):
    """The test game's table on the shell's table (LanTable, EndPanel): only the game's own part is
    here (take one stone when it is our turn); seats, verdict, end panel and rematch are the shell's."""

    def __init__(self, app, net: NetMatch) -> None:
        from game.client.lan.table import LanTable
        super().__init__(app)
        self.lan = LanTable(app, net, CLIENTS[GAME.key].lan)

    def update(self, dt: float) -> None:
        from game.client.lan.endpanel import EndPanel
        self.lan.pump()
        if self.lan.verdict is None:
            if self.lan.session.view(lambda m: NIM.turn(m, m.seat)) is not None:
                try:
                    self.lan.session.act(1)
                except ValueError:
                    pass
        elif self.app.top is self:
            self.app.push(EndPanel(self.app, self.lan, self.update, self.app.go_home, (640, 400)))

    def draw(self, surface, alpha: float = 1.0) -> None:
        from game.client.lan.banner import draw_seats
        surface.fill((0, 0, 0))
        draw_seats(surface, self.app, self.lan, (900, 12))

    def close(self) -> None:
        self.lan.close()


@pytest.fixture
def nim_on_the_shell(monkeypatch):
    monkeypatch.setattr(game.registry, "GAMES", game.registry.GAMES + (GAME,))
    client = NimClient()
    client.lan = LanClient(table=NimShellTable)
    monkeypatch.setitem(CLIENTS, GAME.key, client)
    return client


def test_nim_plays_through_the_shells_table_frame_by_frame_to_its_end_panel_and_rematch(app, nim_on_the_shell):
    """Two sessions on 127.0.0.1: the window hosts, the joiner is stepped in the same loop (random
    takes). The shell's table names the seats and whose turn it is, the end panel names the winner,
    and the host's rematch opens the same table again; the shell names no game for it."""
    from game.client.lan.endpanel import EndPanel
    from game.i18n import _
    lobby = host_table(app, GAME.key, name="Ann", port=0, bind="127.0.0.1", beacon=False)
    port = lobby.session.port
    join = Session(NIM, "join", "Bo", port=port, reconnect_delay=0.05)
    take = NIM.player("random", 4)
    seen: set = set()

    def step_joiner() -> None:
        join.poll()
        stones = join.view(lambda m: NIM.turn(m, m.seat))
        if stones is not None:
            try:
                join.act(take(stones))
            except ValueError:
                pass
        table = next((s for s in app.scenes if isinstance(s, NimShellTable)), None)
        if table is not None:
            seen.update(table.lan.seat_line(s)[1] for s in (0, 1))

    def until(cond, what: str) -> None:
        end = time.monotonic() + LIMIT
        while not cond():
            assert time.monotonic() < end, f"timed out waiting for {what}"
            step_joiner()
            app.step(STEP)
    try:
        until(lambda: isinstance(app.top, EndPanel), "the end panel")
        panel = app.top
        lan = panel.table
        assert lan.verdict.kind == "finished" and lan.seat_line(0)[0] == "1. Ann (you)" and lan.seat_line(1)[0] == "2. Bo"
        assert seen & {"thinking…", "your turn"}  # whose turn it was, from the machine's waiting_for
        title, _lines = panel.texts()
        assert title == (_("You win!") if lan.verdict.winners == (0,) else "Bo wins!")
        again = panel.buttons[0]
        assert again.text() == "Offer a rematch" and again.enabled()
        again.action()
        until(lambda: isinstance(app.top, LobbyScene), "the same table again")
        assert app.top.session.port == port and app.top.hosting
    finally:
        join.close()
        while app.scenes:
            app.pop()
