"""``rose-king host`` / ``rose-king join`` playing Rose King (its registry entry's ``lan``, the one
LAN layer) as real subprocesses on 127.0.0.1: a whole game with identical record files, strangers
knocking, option errors, a peer killed with SIGKILL mid-game and restarted from its record
(resume), and a host stopped by SIGTERM leaving as a closed window does (docs/protocol.md:
``error{bye}``; 128 + the signal; SIGINT and the passive cases are in tests/net/test_signals.py).
Bounded by timeouts; synchronised on the lines the commands print and on session events, never
on sleeps."""

from __future__ import annotations

import json
import queue
import signal
import socket
import subprocess
import sys
import threading
import time

import msgpack
import pytest

from game.registry import game_by_key
from game.roseking.engine import Record
from net.lobby import hello
from game.roseking.lan.match import KEY, LAN, VERSION
from net.session import Dropped, Ended, Session, Started

from .rk_wire import frame

LIMIT = 60.0  # seconds: the processes' own --timeout
BOUND = 10.0  # seconds: a goodbye must be heard well within this
check = game_by_key("rose-king").check


class Proc:
    """A ``rose-king`` subprocess whose stdout lines are read by a thread into a queue."""

    def __init__(self, *args: str) -> None:
        self.p = subprocess.Popen([sys.executable, "-m", "game.cli", *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines: list[str] = []
        self._q: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.p.stdout:
            self._q.put(line.rstrip("\n"))
        self._q.put(None)

    def expect(self, text: str, timeout: float = LIMIT) -> str:
        """The first line containing ``text``; fails after ``timeout`` or at end of output."""
        end = time.monotonic() + timeout
        while True:
            try:
                line = self._q.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line with {text!r} within {timeout} s; got {self.lines[-10:]}") from None
            if line is None:
                raise AssertionError(f"process ended without {text!r}; got {self.lines[-10:]}")
            self.lines.append(line)
            if text in line:
                return line

    def finish(self, timeout: float = LIMIT) -> int:
        rc = self.p.wait(timeout)
        while True:
            try:
                line = self._q.get(timeout=5)
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
        return rc

    def kill(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait(10)


def host_args(record, port: int = 0, *extra: str) -> tuple[str, ...]:
    """``rose-king host`` as Alice, a headless greedy computer, on 127.0.0.1:``port`` (0: any free)."""
    return ("host", "--port", str(port), "--bind", "127.0.0.1", "--name", "Alice", "--headless", "--ai", "greedy",
            "--record", str(record), "--timeout", str(LIMIT), *extra)


def start_host(procs, record, *extra: str) -> tuple[Proc, int]:
    host = procs(*host_args(record, 0, *extra))
    return host, int(host.expect("listening on port").rsplit(" ", 1)[1])


def join_args(port: int, record, *extra: str) -> tuple[str, ...]:
    """``rose-king join`` (no ``--game``: it learns the game from the host's hello) as Bob, a
    headless random computer."""
    return ("join", f"127.0.0.1:{port}", "--name", "Bob", "--headless", "--ai", "random", "--record", str(record),
            "--timeout", str(LIMIT), *extra)


def knock(port: int, data: bytes) -> bytes:
    """A stranger connects, sends ``data`` and reads until the host closes: everything it was told."""
    with socket.create_connection(("127.0.0.1", port), timeout=LIMIT) as s:
        s.sendall(data)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    return got


def match_over(lines: list[str]) -> list[str]:
    return [x.split("match over:")[1] for x in lines if "match over:" in x]


def test_headless_host_and_join_play_a_game_with_identical_records(procs, tmp_path):
    """A whole game (the host's ``--colour`` honoured); both record files byte for byte the same
    (docs/protocol.md, "The session"), both peers' checks and verdicts the same."""
    host, port = start_host(procs, tmp_path / "h.json", "--game", "rose-king", "--colour", "white")
    join = procs(*join_args(port, tmp_path / "j.json"))
    assert join.finish() == 0 and host.finish() == 0, "\n".join(host.lines + join.lines)
    h = json.loads((tmp_path / "h.json").read_text())
    assert (tmp_path / "h.json").read_bytes() == (tmp_path / "j.json").read_bytes() == \
        (json.dumps(h, indent=1) + "\n").encode("ascii")
    assert list(h) == ["format", "version", "red", "white", "date", "deal", "moves", "result", "lan"]
    assert check(h).startswith("ok finished")
    assert (h["white"], h["red"]) == ("Alice", "Bob") and h["lan"]["host"] == "white"
    state = Record.from_json(json.dumps(h)).replay()
    assert state.is_game_over()
    final = [line.split("record:")[1] for line in host.lines if "record: ok finished" in line]
    assert final and final == [x.split("record:")[1] for x in join.lines if "record: " in x]
    assert f"plies={state.ply}" in final[0]
    assert match_over(host.lines) == match_over(join.lines) and match_over(host.lines)[0].startswith(" finished")
    # the joiner learnt the game from the host's hello on the connection it then played on: one connection
    assert not any("refused" in line for line in host.lines), host.lines


@pytest.mark.parametrize("victim", ["join", "host"])
def test_kill_9_of_either_peer_and_a_restart_with_its_record_resumes_the_game(procs, tmp_path, victim):
    """One peer is killed with SIGKILL mid-game (no goodbye: the kernel tears the socket down; its
    files as they were) and started again with the same ``--record`` (and the host on its port);
    the game ends on both, records equal."""
    slow = ("--move-delay", "0.02", "--verbose")
    host, port = start_host(procs, tmp_path / "h.json", *slow)
    join = procs(*join_args(port, tmp_path / "j.json", *slow))
    peer = {"host": host, "join": join}
    peer[victim].expect("'ply': 12,")  # every move is printed (--verbose)
    peer[victim].kill()
    journal = Record.load(tmp_path / ("h.json" if victim == "host" else "j.json"))
    assert 1 <= len(journal.moves) and journal.result is None
    if victim == "join":
        host.expect("connection closed")
        again = procs(*join_args(port, tmp_path / "j.json", *slow))
    else:
        again = procs(*host_args(tmp_path / "h.json", port, *slow))
    assert again.expect("resumed:").endswith(f"you are seat {1 if victim == 'host' else 2} ({'Alice' if victim == 'host' else 'Bob'})")
    other = peer["join" if victim == "host" else "host"]
    assert again.finish() == 0 and other.finish() == 0, again.lines + other.lines
    assert (tmp_path / "h.json").read_text() == (tmp_path / "j.json").read_text()
    assert check(json.loads((tmp_path / "h.json").read_text())).startswith("ok finished")


def test_option_errors_are_clear(procs):
    p = procs("join", "127.0.0.1:notaport")
    assert p.finish() == 2 and any("bad port" in x for x in p.lines)
    p = procs("host", "--game", "rose-king", "--headless")
    assert p.finish() == 2 and any("--headless and --ai" in x for x in p.lines), p.lines
    p = procs("host", "--colour", "blue", "--headless", "--ai", "greedy")
    assert p.finish() == 2 and any("invalid choice: 'blue'" in x for x in p.lines), p.lines


def test_join_gives_up_cleanly_when_nobody_hosts(procs, tmp_path):
    with socket.socket() as s:  # a port that is free now and nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = procs("join", f"127.0.0.1:{port}", "--headless", "--ai", "random", "--timeout", "1")
    assert p.finish() == 1
    assert any(f"nobody answered at 127.0.0.1:{port} within 1 seconds" in x for x in p.lines)  # never a guessed game


def test_a_strangers_bad_hello_never_ends_a_headless_host(procs, tmp_path):
    """Strangers: junk, a bad frame, a good hello for the full table, an older and a newer
    version's hello from strangers, before and during the game; each is told why and refused, and
    the host plays the real joiner's game to the end."""
    host, port = start_host(procs, tmp_path / "h.json", "--move-delay", "0.01")
    assert b"frame" in knock(port, b"GET / HTTP/1.1\r\n\r\n")
    assert b"frame" in knock(port, b"\x00\x00\x00\x01\xc1")
    join = procs(*join_args(port, tmp_path / "j.json", "--verbose", "--move-delay", "0.01"))
    join.expect(": move {")
    eve = hello(KEY, VERSION, "Eve", "join", b"e" * 16, b"n" * 16, b"k" * 32)
    assert b"the table is full" in knock(port, frame(eve))
    # an older program's hello (version 2) and a newer one's: each told which side needs a newer version
    old = msgpack.packb({"t": "hello", "proto": "rose-king-lan", "pv": 2, "name": "Eve", "role": "join"})
    assert b"the peer needs a newer version" in knock(port, len(old).to_bytes(4, "big") + old)
    future = msgpack.packb({"t": "hello", "proto": "rose-king-lan", "pv": 99, "name": "Eve"})
    assert b"this table needs a newer version" in knock(port, len(future).to_bytes(4, "big") + future)
    assert join.finish() == 0 and host.finish() == 0, host.lines + join.lines
    assert (tmp_path / "h.json").read_text() == (tmp_path / "j.json").read_text()
    assert check(json.loads((tmp_path / "h.json").read_text())).startswith("ok finished")
    assert sum("refused a connection" in x for x in host.lines) >= 5, host.lines
    assert match_over(host.lines) == match_over(join.lines)


def test_a_host_stopped_by_sigterm_says_bye_and_its_joiner_stops_at_once(procs, tmp_path):
    """Mid-game (a joiner playing, ply 4 or later): the joiner hears ``error{bye}``, its headless
    player stops at once and it does not reconnect; the host exits 143 with its record so far, or
    (SIGTERM while it owed a draw's reveal) forfeits by the rules."""
    host, port = start_host(procs, tmp_path / "h.json", "--move-delay", "0.02")
    join = Session(LAN, "join", "Bob", port=port, reconnect_delay=0.05, host_grace=LIMIT)
    seen: list = []
    cv = threading.Condition()

    def on_event(e) -> None:
        with cv:
            seen.append(e)
            cv.notify_all()

    def until(pred, timeout: float) -> None:
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
        player.join(BOUND)  # the joiner's headless player stops at once
        assert not player.is_alive()
        assert not any(isinstance(e, Started) and e.resumed for e in seen)  # it does not reconnect
        assert host.finish(BOUND) == 143, host.lines
        assert any("SIGTERM: left the match" in x for x in host.lines), host.lines
        rec = json.loads((tmp_path / "h.json").read_text())
        if join.status == "failed":  # the host owed nothing: the game so far, unfinished
            assert "result" not in rec and check(rec).startswith("ok in-progress")
        else:  # SIGTERM came while the host owed its reveal of a draw: leaving then is its forfeit
            (ended,) = [e for e in seen if isinstance(e, Ended)]
            assert join.status == "over" and (ended.verdict.kind, ended.verdict.seat) == ("forfeit", 0), ended
            assert rec["lan"]["forfeit"] == rec["lan"]["host"] and check(rec).startswith("ok")
    finally:
        join.close()


def _quiet(session: Session, on_event) -> None:
    from net.headless import HeadlessError, play_match
    try:
        play_match(session, LAN.player("random", 5), timeout=LIMIT, on_event=on_event)
    except HeadlessError:
        pass


def test_the_headless_peer_counts_seats_from_one_and_names_them():
    from game.commands.layer import seat_text, verdict_text
    from net.match import Verdict
    names = ["Ann", "Bo", "Computer (easy)"]
    assert seat_text(0, names) == "seat 1 (Ann)" and seat_text(5, names) == "seat 6" and seat_text(-1, names) == "nobody"
    assert verdict_text(Verdict("forfeit", 1, (0, 2)), names) == \
        "forfeit by seat 2 (Bo); winners: seat 1 (Ann), seat 3 (Computer (easy))"
    assert verdict_text(Verdict("disputed", between=(0, 1)), names) == "disputed between seat 1 (Ann) and seat 2 (Bo)"
    assert verdict_text(Verdict("finished", winners=(2,)), names) == "finished; winner: seat 3 (Computer (easy))"
