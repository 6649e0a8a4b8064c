"""Rose King over the one LAN layer on 127.0.0.1: a storm of idle connections at the host's lobby
(``busy``) never keeps the real player out. Bounded, synchronised by events, never by sleeps."""

from __future__ import annotations

import argparse
import selectors
import socket
import threading

import pytest

import game.roseking.lan.match as rkm
from game.commands.join import _learn_game
from net.lobby import MAX_PENDING, HostLobby, LDrop, LSend, hello
from net.session import HostBusy, Refused, Session, Started, probe_host

from .rk_wire import LIMIT, Host, frame
from .test_rk_layer_faults import closing  # noqa: F401  (the fixture)


# =========================================================================== a lobby storm
def test_when_every_place_is_taken_the_oldest_connection_without_a_hello_makes_room():
    """Pure: :data:`MAX_PENDING` idle connections (no hello) and a new one: the oldest idle one
    is closed with ``busy`` (said, not silent) and the new one gets the host's hello; a
    connection that said hello keeps its place, and when all did, the newcomer is told ``busy``."""
    lobby = HostLobby(rkm.KEY, rkm.VERSION, "Alice", ("host", "person"))
    for cid in range(1, MAX_PENDING + 1):
        assert [type(o) for o in lobby.open(cid, float(cid))] == [LSend]
    joiner = hello(rkm.KEY, rkm.VERSION, "Bob", "join", b"\x05" * 16, b"\x06" * 16, b"\x07" * 32)
    lobby.receive(1, joiner, 5.0)  # seated: no longer settling
    assert lobby.seats == {1: 1}
    out = lobby.open(5, 6.0)  # 2, 3, 4 idle and 5: a place is free
    assert [type(o) for o in out] == [LSend]
    out = lobby.open(6, 7.0)
    assert isinstance(out[0], LDrop) and (out[0].cid, out[0].code, out[0].send) == (2, "busy", True)
    assert isinstance(out[1], LSend) and out[1].cid == 6 and out[1].msg["t"] == "hello"
    assert 2 not in lobby.conns and 6 in lobby.conns


def test_a_connection_that_said_hello_is_never_pushed_out():
    from net.lobby import SeatMemo
    from net.match import Table
    table = Table(b"\x01" * 16, ("Alice", "Bob"), "")
    lobby = HostLobby(rkm.KEY, rkm.VERSION, "Alice", ("host", "person"),
                      memo=SeatMemo(table, 0, {1: b"\x02" * 32}, {1: b"\x03" * 32}))
    for cid in range(1, MAX_PENDING + 1):  # resumes under way: each said hello, its proof to come
        lobby.open(cid, 0.0)
        assert lobby.receive(cid, hello(rkm.KEY, rkm.VERSION, "Bob", "join", bytes([cid]) * 16, bytes([cid]) * 16,
                                        b"\x07" * 32, table.game_id), 0.0) == []
    out = lobby.open(9, 1.0)
    assert [(o.cid, o.code, o.send) for o in out] == [(9, "busy", True)]
    assert set(lobby.conns) == set(range(1, MAX_PENDING + 1))


def test_probe_host_reads_busy_as_try_again():
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]

        def refuse() -> None:
            s, _ = server.accept()
            with s:
                s.sendall(frame({"t": "error", "code": "busy", "reason": "too many connections"}))
        t = threading.Thread(target=refuse, daemon=True)
        t.start()
        with pytest.raises(HostBusy, match="busy"):
            probe_host("127.0.0.1", port, timeout=LIMIT)
        t.join(LIMIT)
    assert issubclass(HostBusy, OSError)  # every caller waits and tries again, as for nobody answering


def test_a_lobby_storm_does_not_keep_the_real_player_out(tmp_path, closing):
    """Five idle connections re-opened as fast as the host drops them (``busy``, or its
    handshake deadline) while the real player joins as ``rose-king join`` does (its probe reads
    the host's hello, its session joins on that connection, both wait and try again on
    ``busy``): the player is seated and the game begins."""
    h = Host(tmp_path)
    closing(h)
    stop = threading.Event()
    opened = [0]

    def storm() -> None:
        socks: list = [None] * 5
        sel = selectors.DefaultSelector()
        try:
            while not stop.is_set():
                for i, s in enumerate(socks):
                    if s is None:
                        try:
                            socks[i] = s = socket.create_connection(("127.0.0.1", h.port), timeout=LIMIT)
                        except OSError:
                            continue
                        opened[0] += 1
                        sel.register(s, selectors.EVENT_READ, i)
                for key, _ in sel.select(0.01):  # the host's hello, its busy, its close
                    try:
                        data = key.fileobj.recv(65536)
                    except OSError:
                        data = b""
                    if not data:
                        sel.unregister(key.fileobj)
                        key.fileobj.close()
                        socks[key.data] = None
        finally:
            for s in socks:
                if s is not None:
                    s.close()
            sel.close()
    t = threading.Thread(target=storm, daemon=True)
    t.start()
    try:
        h.wait(lambda e: isinstance(e, Refused) and e.code == "busy", "the storm filling the places")
        args = argparse.Namespace(address="127.0.0.1", port=h.port, timeout=LIMIT, headless=True)
        assert _learn_game(args) is None and args.game == rkm.KEY
        bob = Session(rkm.LAN, "join", "Bob", port=h.port, connected=args.connected, reconnect_delay=0.05)
        closing(bob)
        e = h.wait(lambda e: isinstance(e, Started) and e.table.names == ("Alice", "Bob"), "the real player seated")
        assert not e.resumed
    finally:
        stop.set()
        t.join(LIMIT)
    assert opened[0] > 5  # the storm was on
