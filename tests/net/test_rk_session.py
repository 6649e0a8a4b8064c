"""Rose King over the one LAN layer's Session on 127.0.0.1 (what the window and the headless
peers use): refusals at once, a reset mid-frame, a dropped connection, a resignation (also one
made while the connection is down), another version. Every wait is bounded and driven by
events, never by sleeps."""

from __future__ import annotations

import json
import socket
import struct
import threading
import time

import pytest

from game.registry import game_by_key
from game.roseking.engine import DRAW, IllegalMoveError, Move
from net.framing import FrameDecoder
from net.headless import play_match
from net.journal import seat_path
from net.lobby import hello
from game.roseking.lan.match import KEY, RESIGN, VERSION
from net.session import Dropped, Ended, Refused, Session, Started, Status

from .rk_wire import LIMIT, SCHEMAS, Host, Mallory, chooser, frame, run_both
from .test_roseking_layer import sessions  # noqa: F401  (the fixture)

check = game_by_key("rose-king").check


def wait_for(s: Session, pred, what: str, seen: list | None = None, timeout: float = LIMIT):
    """The first event of ``s`` matching ``pred`` (``seen``: every event read, kept across calls)."""
    seen = seen if seen is not None else []
    end = time.monotonic() + timeout
    i = 0
    while True:
        while i < len(seen):
            if pred(seen[i]):
                return seen[i]
            i += 1
        if time.monotonic() > end:
            raise AssertionError(f"no {what} within {timeout} s (status {s.status}); saw {seen[-8:]}")
        seen += s.wait(0.05)


def test_act_refuses_at_once_what_cannot_be_played(sessions):
    host = sessions("host", "Alice", port=0)
    with pytest.raises(ValueError, match="no match"):
        host.act(Move.from_str("red play N1"))
    join = sessions("join", "Bob", port=host.port)
    seen = {host: [], join: []}
    for s in (host, join):
        wait_for(s, lambda e: getattr(e, "code", "") == "dealt", "the deal", seen[s])
    mover = host if host.view(lambda m: m.to_move()) == 0 else join
    waiter = join if mover is host else host
    move = mover.view(lambda m: next(x for x in m.state.legal_moves() if x.kind is not DRAW))
    with pytest.raises(IllegalMoveError, match="not your turn"):
        waiter.act(Move(waiter.view(lambda m: m.color_of(m.seat)), move.kind, move.card))
    with pytest.raises(IllegalMoveError, match="you play"):
        mover.act(Move(move.player.other, move.kind, move.card))
    assert host.view(lambda m: m.ply) == join.view(lambda m: m.ply) == 0


def test_a_reset_mid_frame_keeps_the_game_and_a_real_joiner_resumes_the_seat(sessions, tmp_path):
    """Mallory (a raw peer) plays a few plies, sends half a frame and resets the connection
    (SO_LINGER 0, as a crashed machine's stack may). The host keeps the game; a Session started
    with a journal of Mallory's seat takes it back and both finish the game."""
    h = Host(tmp_path, player=chooser(31))
    host = h.session
    m = Mallory(host.port, name="Bob")
    m.until(lambda: m.machine is not None and m.machine.ply >= 4 and m.my_turn()
            and host.view(lambda hm: hm.ply) == m.machine.ply, "four plies, all on the host")  # nothing in flight
    m.raw(frame({"t": "ack", "ply": 1, "hash": m.machine.hashes[1]})[:9])
    m.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    m.close()
    closed = h.wait(lambda e: isinstance(e, Dropped), "the drop")
    assert closed.code == "eof" and not closed.fatal
    assert host.verdict is None and host.view(lambda hm: hm.ply) >= 4
    rec = tmp_path / "j.json"
    seat_path(rec).write_text(json.dumps(m.journal()))
    join = sessions("join", "Bob", port=host.port, record=rec)
    try:
        assert wait_for(join, lambda e: isinstance(e, Started), "the seat back").resumed
        assert play_match(join, chooser(32), timeout=LIMIT).kind == h.verdict().kind == "finished"
        assert host.view(lambda hm: hm.record()) == join.view(lambda jm: jm.record())
    finally:
        h.close()


def test_a_joiner_reconnects_after_the_host_drops_it_and_the_game_ends(sessions):
    host = sessions("host", "Alice", port=0)
    join = sessions("join", "Bob", port=host.port)
    seen: list = []
    wait_for(join, lambda e: getattr(e, "code", "") == "dealt", "the deal", seen)
    peer = next(p for p in list(host.conns.peers.values()) if p.seat == 1)
    peer.sock.shutdown(socket.SHUT_RDWR)  # a network drop under both
    assert wait_for(join, lambda e: isinstance(e, Started) and e.resumed, "the resume", seen).resumed
    out = run_both(host, join, [chooser(20), chooser(21)])
    assert out[0].kind == out[1].kind == "finished", out
    assert host.view(lambda hm: hm.record()) == join.view(lambda jm: jm.record())


def test_a_resignation_ends_the_game_for_both_with_equal_records(sessions, tmp_path):
    host = sessions("host", "Alice", port=0, record=tmp_path / "h.json")
    join = sessions("join", "Bob", port=host.port, record=tmp_path / "j.json")
    seen = {host: [], join: []}
    wait_for(join, lambda e: getattr(e, "code", "") == "dealt", "the deal", seen[join])
    join.act(RESIGN)
    v = wait_for(host, lambda e: isinstance(e, Ended), "the verdict", seen[host]).verdict
    assert (v.kind, v.seat) == ("resigned", 1)
    wait_for(join, lambda e: isinstance(e, Ended), "its own verdict", seen[join])
    wait_for(host, lambda e: isinstance(e, Status) and e.code == "over", "over", seen[host])
    h, j = (json.loads((tmp_path / f).read_text()) for f in ("h.json", "j.json"))
    assert h == j and h["lan"]["resigned"] == join.view(lambda m: str(m.color_of(1)))
    assert check(h).startswith("ok finished")


def test_a_resignation_made_while_the_connection_is_down_reaches_the_host(sessions):
    """The joiner resigns while its connection to the host is down: it comes back to deliver the
    verdict (its seat proof, then ``over``), so the host does not wait for a player who left."""
    host = sessions("host", "Alice", port=0)
    join = sessions("join", "Bob", port=host.port, reconnect_delay=0.3)
    seen = {host: [], join: []}
    wait_for(join, lambda e: getattr(e, "code", "") == "dealt", "the deal", seen[join])
    with host._mlock:  # hold the host's machine so the drop and the resignation meet
        peer = next(p for p in list(host.conns.peers.values()) if p.seat == 1)
        peer.sock.shutdown(socket.SHUT_RDWR)
        wait_for(join, lambda e: isinstance(e, Dropped), "the drop", seen[join])
        join.act(RESIGN)
    v = wait_for(host, lambda e: isinstance(e, Ended), "the verdict", seen[host]).verdict
    assert (v.kind, v.seat) == ("resigned", 1)
    assert host.view(lambda m: m.record()) == join.view(lambda m: m.record())


@pytest.mark.parametrize("change, words", [
    ({"gv": VERSION + 1}, b"this table needs a newer version"),
    ({"gv": VERSION - 1}, b"the peer needs a newer version"),
    ({"g": "royals-riots"}, b"this table plays rose-king"),
])
def test_another_version_or_game_is_told_on_both_sides_and_the_host_waits_on(sessions, change, words):
    host = sessions("host", "Alice", port=0)
    msg = {**hello(KEY, VERSION, "Zed", "join", b"z" * 16, b"n" * 16, b"k" * 32), **change}
    with socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT) as s:
        s.sendall(frame(msg))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    theirs = FrameDecoder(SCHEMAS).feed(data)[-1]
    assert theirs["t"] == "error" and words in theirs["reason"].encode()
    refused = wait_for(host, lambda e: isinstance(e, Refused), "the refusal")
    assert refused.reason == theirs["reason"] and host.status == "listening"
    join = sessions("join", "Bob", port=host.port)
    assert wait_for(join, lambda e: isinstance(e, Started), "a game for the next player").table.names == ("Alice",
                                                                                                         "Bob")


def test_a_host_trickling_its_hello_holds_a_joiner_no_longer_than_the_handshake_deadline(sessions):
    """A "host" sends its hello a byte at a time; only whole messages count,
    so the joiner closes at its handshake deadline (5 s; 1 s here) and says why."""
    srv = socket.create_server(("127.0.0.1", 0))
    try:
        join = sessions("join", "Bob", port=srv.getsockname()[1], reconnect_delay=30.0)
        join.lobby.handshake = 1.0
        conn, _ = srv.accept()
        data = frame(hello(KEY, VERSION, "Slow", "host", b"s" * 16, b"n" * 16, b"k" * 32))
        conn.settimeout(0.25)
        t0, got = time.monotonic(), b""
        for i in range(len(data) - 1):
            try:
                conn.sendall(data[i:i + 1])
                chunk = conn.recv(4096)
            except socket.timeout:
                continue
            except OSError:
                break
            got += chunk
            if not chunk or b"no handshake" in got:
                break
        took = time.monotonic() - t0
        conn.close()
        assert b"no handshake" in got and took < 3.0, (took, got[-80:])
        assert join.verdict is None and join.view(lambda m: m) is None
    finally:
        srv.close()
