"""Internet play in the window (game/client/lan/internet.py): the host's waiting screen invites by
code, a friend joins with the code through the join screen's code path, and the match begins
and is played out, with the seat shown "by code · …"; a malformed code gives its sentence and
opens nothing. The rendezvous server and the relay run on 127.0.0.1 (the fixture of
tests/net/test_internet.py); ROSE_KING_LAN_LOOPBACK=1 keeps everything on loopback. Every wait is
bounded and ends on a condition."""

from __future__ import annotations

import re
import threading
import time

import pygame
import pytest

pytest.importorskip("wormhole_mailbox_server")

from game.client.app import STEP  # noqa: E402
from game.client.lan.internet import CodeJoin, CodeJoinScene, route_words  # noqa: E402
from game.client.lan.table import LanTable  # noqa: E402
from game.client.lan.lobby import LayerJoinScene, LobbyScene, host_table  # noqa: E402
from net.headless import play_match  # noqa: E402
from net.internet import Invites, Servers  # noqa: E402
from net.session import Session  # noqa: E402

from ..net.nim_game import GAME, NIM  # noqa: E402
from ..net.test_internet import servers  # noqa: E402,F401  (the module's fixture)
from .test_lan_layer_window import NimTable, nim, play_host_to_the_end, run_until, table_of  # noqa: E402,F401

LIMIT = 20.0


@pytest.fixture
def env(servers, monkeypatch):  # noqa: F811
    monkeypatch.setenv("ROSE_KING_MAILBOX", servers[0])
    monkeypatch.setenv("ROSE_KING_RELAY", servers[1])
    return servers


def test_the_hosts_waiting_screen_invites_by_code_and_a_friend_with_the_code_plays(app, nim, env, monkeypatch):
    resolve = Servers.resolve  # both programs through the relay only: the seat says "relayed"
    monkeypatch.setattr(Servers, "resolve", classmethod(lambda cls, *a, **kw: resolve(*a, **{**kw, "direct": False})))
    lobby = host_table(app, GAME.key, name="Ann", port=0, bind="127.0.0.1", beacon=False)
    run_until(app, lambda: lobby.rows, "the lobby's seats")
    invite = lobby.internet.button
    assert invite.shown() and invite.text() == "Invite over the internet"
    invite.action()
    assert not invite.shown()
    run_until(app, lambda: lobby.internet._shown, "a code on the open seat")
    app.redraw()
    code = lobby.internet.invites.code(lobby.internet._shown[1])
    assert code and lobby.internet.copy_buttons[0].shown()
    attempt = CodeJoin(code)  # the join screen's code path, window-less
    join = None
    try:
        end = time.monotonic() + LIMIT
        while attempt.result() is None and time.monotonic() < end:
            app.step(STEP)  # the host's screen polls its invitations meanwhile
        kind, found = attempt.result()
        assert kind == "found" and found[0] == GAME.key
        join = Session(NIM, "join", "Bo", connected=(found[1], found[2]), dial=attempt.dialer.dial,
                       reconnect_delay=0.05)
        run_until(app, lambda: table_of(app) is not None, "the table")
        table = table_of(app)
        assert table.net.names == ("Ann", "Bo") and table.net.internet is not None
        # the seat's route, then (Dilation's ping) its round trip: "by code · relayed · 3 ms"
        run_until(app, lambda: re.fullmatch(r"by code · relayed · \d+ ms", table.net.internet.seat_words(1)),
                  "seat 2 by code, with its round trip")
        assert table.net.internet.seat_words(0) == "" and route_words("relayed") == "by code · relayed"
        assert route_words("relayed", 0.0452) == "by code · relayed · 45 ms"
        lan = LanTable(app, table.net, nim.lan)  # the shared table's seat rows say it
        assert re.fullmatch(r"by code · relayed · \d+ ms|thinking… · relayed", lan.seat_line(1)[1])
        assert lan.seat_line(0)[1] in ("", "your turn")
        verdict: list = []
        t = threading.Thread(target=lambda: verdict.append(play_match(join, NIM.player("random", 2), timeout=LIMIT)))
        t.start()
        run_until(app, lambda: table.verdict is not None, "the end of the match")
        t.join(LIMIT)
        assert verdict and verdict[0].kind == table.verdict.kind == "finished"
    finally:
        if join is not None:
            join.close(1.0)
        attempt.dialer.close()
        while app.scenes:
            app.pop()


def test_join_with_a_code_opens_the_hosts_game_and_a_malformed_code_opens_nothing(app, nim, env):
    host = Session(NIM, "host", "Ann", address="127.0.0.1", port=0)
    inv = Invites(host.adopt, Servers.resolve())
    try:
        slot = inv.invite()
        screen = LayerJoinScene(app, key=GAME.key, name="Bo", listen=False)
        app.reset(screen)
        screen.name_field.text = "Cy"  # the name typed on the join screen is the one joined with by code
        button = next(b for b in screen.buttons if b.text() == "Join with a code")
        button.action()
        dialog = app.top
        assert isinstance(dialog, CodeJoinScene)
        app.step(STEP)
        dialog.field.text = "7-guitarist"
        dialog.join()
        assert dialog.attempt is None and "number and two words" in dialog.error
        app.step(STEP)
        assert app.top is dialog
        end = time.monotonic() + LIMIT
        while inv.code(slot) is None and time.monotonic() < end:
            inv.wait(0.1)
        dialog.field.text = inv.code(slot).replace("-", " ").upper()  # spaces and capitals are forgiven
        dialog.join()
        assert dialog.attempt is not None and not dialog.error
        run_until(app, lambda: isinstance(app.top, (LobbyScene, NimTable)), "the game's waiting screen")
        run_until(app, lambda: table_of(app) is not None, "the table")
        table = table_of(app)
        assert table.net.seat == 1 and table.net.again is None and table.net.names[1] == "Cy"
        # (the joiner offers direct routes)
        run_until(app, lambda: table.net.internet.seat_words(0).startswith((route_words("direct"), route_words("relayed"))),
                  "the route by code")
        play_host_to_the_end(app, host, table)
    finally:
        host.close(1.0)
        inv.close()
        while app.scenes:
            app.pop()


def test_a_malformed_code_on_the_code_screen_says_so_at_once(app, nim):
    screen = LayerJoinScene(app, key=GAME.key, name="Bo", listen=False)
    app.reset(screen)
    app.push(CodeJoinScene(app, screen))
    dialog = app.top
    app.step(STEP)
    for ch in "12-x":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    app.step(STEP)
    assert dialog.field.text == "12-x" and dialog.attempt is None
    assert dialog.error.startswith("That is not a code.")
    app.redraw()
    assert app.top is dialog


def test_a_wrong_guess_at_a_code_gives_the_seat_a_fresh_code_and_says_so(app, nim, env):
    from net.internet import CodeDialer
    lobby = host_table(app, GAME.key, name="Ann", port=0, bind="127.0.0.1", beacon=False)
    run_until(app, lambda: lobby.rows, "the lobby's seats")
    lobby.internet.start()
    run_until(app, lambda: lobby.internet._shown, "a code on the open seat")
    first = lobby.internet.invites.code(lobby.internet._shown[1])
    guess = CodeDialer(first.split("-")[0] + "-wrong-guess", Servers.resolve())
    try:
        run_until(app, lambda: lobby.internet.error, "the host's sentence")
        assert lobby.internet.error == "Someone typed a wrong code. That seat has a new code now."
        run_until(app, lambda: lobby.internet._shown and lobby.internet.invites.code(lobby.internet._shown[1]) != first,
                  "a fresh code")
        app.redraw()
        assert lobby.internet.error  # the sentence stays beside the fresh code
    finally:
        guess.close()
        while app.scenes:
            app.pop()


def test_the_command_lines_open_the_window_by_code_host_inviting_and_friend_joining(app, env, tmp_path, monkeypatch):
    """``rose-king host --internet`` opens the waiting screen with the invitations started (the
    button pressed for the host); ``rose-king join CODE`` meets the host in the terminal, then
    opens the window on that connection, the host's seat showing its route. The window is the
    tests' one (SDL's dummy driver opens one per process), its real-time loop replaced by
    frames until it shows what is checked."""
    from game import cli
    from game.client import main as window
    from game.client.app import App
    from game.client.lan.internet import HostInvites
    from game.roseking.lan.match import LAN

    seen: dict = {}
    monkeypatch.setattr(window, "open_window", lambda *a, **kw: app)

    def host_run(self) -> int:  # `rose-king host --internet`: a code on the open seat, at once
        lobby = self.top
        assert isinstance(lobby, LobbyScene) and isinstance(lobby.internet, HostInvites)
        assert lobby.internet.invites is not None and not lobby.internet.button.shown()
        run_until(self, lambda: lobby.internet._shown, "a code on the open seat")
        seen["code"] = lobby.internet.invites.code(lobby.internet._shown[1])
        while self.scenes:
            self.pop()
        return 0

    monkeypatch.setattr(App, "run", host_run)
    assert cli.main(["host", "--game", "rose-king", "--internet", "--port", "0", "--bind", "127.0.0.1",
                     "--name", "Ann", "--log-dir", str(tmp_path)]) == 0
    assert seen["code"]

    host = Session(LAN, "host", "Ann", address="127.0.0.1", port=0)
    inv = Invites(host.adopt, Servers.resolve())
    try:
        slot = inv.invite()
        end = time.monotonic() + LIMIT
        while inv.code(slot) is None and time.monotonic() < end:
            inv.wait(0.1)

        def join_run(self) -> int:  # `rose-king join CODE`: the waiting screen on the connection by code
            run_until(self, lambda: isinstance(self.top, LobbyScene) and self.top.internet is not None
                      and self.top.internet.seat_words(0).startswith(route_words("direct")), "the route by code")
            seen["join"] = self.top.session.lobby.name
            while self.scenes:
                self.pop()
            return 0

        monkeypatch.setattr(App, "run", join_run)
        assert cli.main(["join", inv.code(slot), "--name", "Bo", "--log-dir", str(tmp_path)]) == 0
        assert seen["join"] == "Bo"
    finally:
        host.close(1.0)
        inv.close()
