"""LanSession over real TCP sockets on 127.0.0.1: whole games, hostile peers, a reset
mid-frame and a resume. Every wait is bounded and driven by events, not sleeps."""

import socket
import struct
import threading

import pytest

from game.roseking.ai import make_player
from game.roseking.engine import IllegalMoveError, Move
from net.framing import FrameDecoder, encode_frame
from net.headless import HeadlessError, play_headless
from net.protocol import Closed, Connection, GameStarted, Role
from net.transport import LanSession, Refused

LIMIT = 30.0  # seconds: no test here should come near it


def play_both(host: LanSession, join: LanSession, levels=("greedy", "random")) -> dict:
    results = {}

    def run(session, level, key):
        try:
            play_headless(session, make_player(level, 11), timeout=LIMIT)
            results[key] = "ok"
        except HeadlessError as e:  # pragma: no cover - reported by the assert below
            results[key] = str(e)

    threads = [threading.Thread(target=run, args=(host, levels[0], "host")),
               threading.Thread(target=run, args=(join, levels[1], "join"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(LIMIT + 5)
    return results


def wait_for(session: LanSession, kind, predicate=lambda e: True, timeout: float = LIMIT):
    """The first event of type ``kind`` (matching ``predicate``) from the session; fails after ``timeout``."""
    import time
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for e in session.wait(0.2):
            if isinstance(e, kind) and predicate(e):
                return e
    raise AssertionError(f"no {kind.__name__} within {timeout} s (status {session.status})")


@pytest.fixture
def sessions():
    made = []

    def make(kind, *args, **kw):
        s = getattr(LanSession, kind)(*args, **kw)
        made.append(s)
        return s
    yield make
    for s in made:
        s.close()


def test_two_sessions_play_a_complete_game_on_loopback(sessions, tmp_path):
    host = sessions("host", "Alice", port=0, journal=tmp_path / "h.json")
    join = sessions("join", "Bob", "127.0.0.1", host.port, journal=tmp_path / "j.json")
    assert play_both(host, join) == {"host": "ok", "join": "ok"}
    assert host.state.is_game_over()
    assert host.state.state_hash() == join.state.state_hash()
    assert host.record().to_json() == join.record().to_json()
    assert (tmp_path / "h.json").read_text() == (tmp_path / "j.json").read_text() == host.record().to_json()
    assert host.status == join.status == "over"
    assert host.peer_name == "Bob" and join.peer_name == "Alice" and host.color != join.color


def test_play_refuses_at_once_when_it_cannot_be_played(sessions):
    host = sessions("host", "Alice", port=0)
    with pytest.raises(IllegalMoveError, match="not connected"):
        host.play(Move.from_str("red play N1"))
    join = sessions("join", "Bob", "127.0.0.1", host.port)
    wait_for(host, GameStarted)
    wait_for(join, GameStarted)
    waiter = host if host.color != host.state.turn else join
    theirs = waiter.state.legal_moves()[0]  # a move of the side to move, who is not us
    with pytest.raises(IllegalMoveError, match="you play"):
        waiter.play(theirs)


class RawPeer:
    """A joiner speaking the protocol through a plain socket, so a test can misbehave."""

    def __init__(self, port: int, journal=None, name: str = "Mallory") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=LIMIT)
        self.conn = Connection(Role.JOIN, name, journal=journal)
        self.sock.sendall(self.conn.data_to_send())

    def until(self, kind):
        while True:
            data = self.sock.recv(65536)
            for e in self.conn.receive_data(data):
                self.sock.sendall(self.conn.data_to_send())
                if isinstance(e, kind):
                    return e
            self.sock.sendall(self.conn.data_to_send())

    def reset(self) -> None:
        """Close with a TCP reset (SO_LINGER 0), as a crashed machine's stack may."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


def test_http_text_gets_a_reason_and_the_host_keeps_listening(sessions):
    host = sessions("host", "Alice", port=0)
    with socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    msgs = FrameDecoder().feed(data)
    assert msgs[0]["t"] == "hello" and msgs[-1] == {"t": "error", "code": "frame", "reason": msgs[-1]["reason"]}
    assert "another protocol" in msgs[-1]["reason"]
    refused = wait_for(host, Refused)
    assert refused.action == "connect" and "another protocol" in refused.reason
    assert host.status == "listening"
    join = sessions("join", "Bob", "127.0.0.1", host.port)
    assert play_both(host, join) == {"host": "ok", "join": "ok"}


def test_reset_mid_frame_keeps_the_game_and_the_peer_resumes(sessions):
    host = sessions("host", "Alice", port=0)
    peer = RawPeer(host.port)
    started = peer.until(GameStarted)
    wait_for(host, GameStarted)
    half = encode_frame({"t": "ack", "ply": 0, "hash": started.game.hashes[0]})[:9]
    peer.sock.sendall(half)
    peer.reset()
    closed = wait_for(host, Closed)
    assert closed.code == "eof" and not closed.fatal
    assert host.status == "interrupted" and host.game.game_id == started.game.game_id
    # the same player comes back with its copy of the game and they finish it
    join = sessions("join", "Mallory", "127.0.0.1", host.port, seat=peer.conn.journal)
    resumed = wait_for(join, GameStarted)
    assert resumed.resumed and resumed.game.game_id == started.game.game_id
    assert play_both(host, join) == {"host": "ok", "join": "ok"}
    assert host.record().to_json() == join.record().to_json()


def test_joiner_reconnects_after_the_host_drops_it(sessions):
    host = sessions("host", "Alice", port=0)
    join = sessions("join", "Bob", "127.0.0.1", host.port, reconnect_delay=0.05)
    wait_for(host, GameStarted)
    wait_for(join, GameStarted)
    mover = host if host.color == host.state.turn else join
    mover.play(next(m for m in mover.state.legal_moves() if m.kind.value != "draw"))
    # cut the TCP connection under both (as a network drop would)
    host._sock.shutdown(socket.SHUT_RDWR)
    resumed = wait_for(join, GameStarted, lambda e: e.resumed)
    assert resumed.game.state.ply >= 0
    assert play_both(host, join) == {"host": "ok", "join": "ok"}
    assert host.record().to_json() == join.record().to_json()


def test_resign_and_rematch_over_sockets(sessions):
    from net.protocol import GameOver, RematchOffered
    host = sessions("host", "Alice", port=0)
    join = sessions("join", "Bob", "127.0.0.1", host.port)
    first = wait_for(join, GameStarted).game.game_id
    wait_for(host, GameStarted)
    join.resign()
    over = wait_for(host, GameOver)
    assert over.kind == "resigned" and over.winner == host.color
    assert host.status == "over" and host.record().extra["lan"]["resigned"] == str(join.color)
    host.offer_rematch()
    wait_for(join, RematchOffered)
    join.offer_rematch()
    again = wait_for(join, GameStarted)
    assert again.game.game_id != first and not again.resumed
    wait_for(host, GameStarted, lambda e: e.game.game_id == again.game.game_id)
    assert play_both(host, join) == {"host": "ok", "join": "ok"}
    assert host.record().to_json() == join.record().to_json()


def test_version_mismatch_over_a_socket_is_shown_on_both_sides(sessions):
    import msgpack
    host = sessions("host", "Alice", port=0)
    newer = {"t": "hello", "proto": "rose-king-lan", "pv": 3, "name": "Bob", "features": ["x"]}
    payload = msgpack.packb(newer)
    with socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT) as s:
        s.sendall(struct.pack(">I", len(payload)) + payload)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    ours = wait_for(host, Refused)
    assert "incompatible versions" in ours.reason
    # what the newer program receives: the same reason, which it shows
    theirs = FrameDecoder().feed(data)[-1]
    assert theirs["t"] == "error" and theirs["code"] == "version" and theirs["reason"] in ours.reason
    assert "rose-king-lan 2" in ours.reason and "rose-king-lan 3" in ours.reason
    assert host.status == "listening"  # a stranger's wrong version never ends a host
