"""``rose-king host`` / ``rose-king join`` playing Rose King on the one LAN layer as real
subprocesses on 127.0.0.1 (Rose King's part under the test key ``rose-king-layer``,
tests/net/rk_wire.py's ``PEER``): a whole game with strangers knocking, option errors, and
SIGTERM/SIGINT leaving as a closed window does (docs/protocol.md: ``error{bye}``; 128 + the
signal). Bounded by timeouts; synchronised on printed lines and session events, never sleeps."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading

import msgpack
import pytest

from game.registry import game_by_key
from net.lobby import hello
from net.roseking.match import KEY, LAN, VERSION
from net.session import Dropped, Session, Started

from .rk_wire import PEER, frame
from .test_cli import Proc

LIMIT = 60.0  # seconds: the processes' own --timeout
BOUND = 10.0  # seconds: a goodbye must be heard well within this
check = game_by_key("rose-king").check


class Peer(Proc):
    """``rose-king ARGS`` with Rose King on the layer, its stdout lines read by a thread."""

    def __init__(self, *args: str) -> None:
        self.p = subprocess.Popen([sys.executable, "-c", PEER, *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1,
                                  env={**os.environ, "ROSE_KING_LAN_LOOPBACK": "1"})
        self.lines: list[str] = []
        self._q: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()


@pytest.fixture
def peers():
    made: list[Peer] = []

    def make(*args: str) -> Peer:
        p = Peer(*args)
        made.append(p)
        return p
    yield make
    for p in made:
        p.kill()


def host_peer(peers, tmp_path, *extra: str) -> tuple[Peer, int]:
    host = peers("host", "--game", "rose-king-layer", "--port", "0", "--bind", "127.0.0.1", "--name", "Alice",
                 "--headless", "--ai", "greedy", "--record", str(tmp_path / "h.json"), "--timeout", str(LIMIT), *extra)
    return host, int(host.expect("listening on port").rsplit(" ", 1)[1])


def knock(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=LIMIT) as s:
        s.sendall(data)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    return got


def test_headless_peers_play_a_game_and_strangers_never_end_the_host(peers, tmp_path):
    """Issue 14 #5 on the layer: junk, an older version and a bare hello for the full table,
    before and during the game; the host plays the real joiner's game to the end, both records
    equal, the host's ``--colour`` honoured."""
    host, port = host_peer(peers, tmp_path, "--colour", "white", "--move-delay", "0.01")
    assert b"frame" in knock(port, b"GET / HTTP/1.1\r\n\r\n")
    assert b"frame" in knock(port, b"\x00\x00\x00\x01\xc1")
    join = peers("join", f"127.0.0.1:{port}", "--game", "rose-king-layer", "--name", "Bob", "--headless", "--ai",
                 "random", "--record", str(tmp_path / "j.json"), "--timeout", str(LIMIT), "--verbose",
                 "--move-delay", "0.01")
    join.expect(": move {")
    eve = hello(KEY, VERSION, "Eve", "join", b"e" * 16, b"n" * 16, b"k" * 32)
    assert b"the table is full" in knock(port, frame(eve))
    old = msgpack.packb({"t": "hello", "proto": "rose-king-lan", "pv": 2, "name": "Eve"})
    assert b"needs a newer version" in knock(port, len(old).to_bytes(4, "big") + old)
    assert join.finish() == 0 and host.finish() == 0, host.lines + join.lines
    h, j = (json.loads((tmp_path / f).read_text()) for f in ("h.json", "j.json"))
    assert h == j and check(h).startswith("ok finished") and h["lan"]["host"] == "white"
    # the record file's exact bytes (docs/protocol.md, "The session"): the same on both seats
    assert (tmp_path / "h.json").read_bytes() == (tmp_path / "j.json").read_bytes() == \
        (json.dumps(h, indent=1) + "\n").encode("ascii")
    assert list(h) == ["format", "version", "red", "white", "date", "deal", "moves", "result", "lan"]
    assert sum("refused a connection" in x for x in host.lines) >= 4, host.lines
    assert [x.split("match over:")[1] for x in host.lines if "match over:" in x] == \
        [x.split("match over:")[1] for x in join.lines if "match over:" in x]


def test_option_errors_are_clear(peers):
    p = peers("host", "--game", "rose-king-layer", "--headless")
    assert p.finish() == 2 and any("--ai" in x for x in p.lines), p.lines
    p = peers("host", "--game", "rose-king-layer", "--colour", "blue", "--headless", "--ai", "random")
    assert p.finish() == 2


def events_until(s: Session, pred, timeout: float, seen: list) -> None:
    """Read ``s``'s events into ``seen`` until ``pred()``; fails after ``timeout``."""
    import time
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise AssertionError(f"timed out (status {s.status}); saw {seen[-8:]}")
        seen.extend(s.wait(0.1))


def test_a_host_stopped_by_sigterm_says_bye_and_its_joiner_stops_at_once(peers, tmp_path):
    host, port = host_peer(peers, tmp_path, "--move-delay", "0.02")
    join = Session(LAN, "join", "Bob", port=port, reconnect_delay=0.05, host_grace=LIMIT)
    seen: list = []
    cv = threading.Condition()

    def on_event(e) -> None:
        with cv:
            seen.append(e)
            cv.notify_all()

    def until(pred, timeout: float) -> None:
        import time
        end = time.monotonic() + timeout
        with cv:
            while not pred():
                assert time.monotonic() < end, f"timed out (status {join.status}); saw {seen[-8:]}"
                cv.wait(0.1)
    player = threading.Thread(target=lambda: _quiet(join, on_event), daemon=True)
    player.start()
    try:
        until(lambda: (join.view(lambda m: m.ply) or 0) >= 4, LIMIT)
        host.p.send_signal(signal.SIGTERM)
        until(lambda: any(isinstance(e, Dropped) for e in seen), BOUND)
        dropped = next(e for e in seen if isinstance(e, Dropped))
        assert dropped.code == "bye" and dropped.by_peer and dropped.fatal, dropped
        player.join(BOUND)  # the joiner's headless player stops at once: the session failed
        assert not player.is_alive() and join.status == "failed"
        assert not any(isinstance(e, Started) and e.resumed for e in seen)  # it does not reconnect
        assert host.finish(BOUND) == 143, host.lines
        assert any("SIGTERM: left the match" in x for x in host.lines), host.lines
        rec = json.loads((tmp_path / "h.json").read_text())  # the game so far, unfinished
        assert "result" not in rec and check(rec).startswith("ok in-progress")
    finally:
        join.close()


def _quiet(session: Session, on_event) -> None:
    from net.headless import HeadlessError, play_match
    try:
        play_match(session, LAN.player("random", 5), timeout=LIMIT, on_event=on_event)
    except HeadlessError:
        pass


def test_a_joiner_stopped_by_sigint_says_bye_and_the_host_waits_for_it(peers, tmp_path):
    host = Session(LAN, "host", "Alice", port=0)
    try:
        join = peers("join", f"127.0.0.1:{host.port}", "--game", "rose-king-layer", "--name", "Bob", "--headless",
                     "--ai", "random", "--record", str(tmp_path / "j.json"), "--timeout", str(LIMIT))
        seen: list = []
        events_until(host, lambda: any(isinstance(e, Started) for e in seen), LIMIT, seen)
        join.expect("new match")
        join.p.send_signal(signal.SIGINT)
        events_until(host, lambda: any(isinstance(e, Dropped) for e in seen), BOUND, seen)
        dropped = next(e for e in seen if isinstance(e, Dropped))
        assert dropped.code == "bye" and dropped.by_peer, dropped
        assert join.finish(BOUND) == 130, join.lines
        assert any("SIGINT: left the match" in x for x in join.lines), join.lines
        assert not any("Traceback" in x or "KeyboardInterrupt" in x for x in join.lines), join.lines
        # the host waits for its player (the seat is away, not lost) unless the goodbye came while it
        # owed a reveal (a forfeit by the rules)
        assert host.verdict is None or (host.verdict.kind, host.verdict.seat) == ("forfeit", 1)
    finally:
        host.close()
