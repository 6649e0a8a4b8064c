"""A headless ``rose-king host/join`` stopped by SIGTERM or SIGINT leaves as a window whose player
closes it does: the other peers hear the protocol's goodbye at once (docs/protocol.md: Rose King
``error{bye}``; Royals & Riots' are in tests/net/test_royals_layer.py), stop waiting or reconnecting, and the stopped peer writes its record and exits with
128 + the signal's number. Real subprocesses on 127.0.0.1; each wait is bounded and driven by
printed lines and session events, never by sleeps.

Without the signal handling, SIGTERM kills the process with no word: a joiner only sees the
connection drop and keeps reconnecting (for ``host_grace``, set to far beyond the bound here),
which is what these tests fail on."""

from __future__ import annotations

import json
import signal
import time

import pytest

from game.roseking.engine import Record
from game.roseking.lan.match import LAN
from net.session import Dropped, Session, Started, Status
from tests.net.test_cli import Proc

LIMIT = 60.0  # seconds: the processes' own --timeout and the joiners' host_grace
BOUND = 10.0  # seconds: the goodbye must be heard well within this (a drop would wait LIMIT)


@pytest.fixture
def sessions():
    made: list = []

    def add(session):
        made.append(session)
        return session
    yield add
    for s in made:
        s.close()


def events_until(session, predicate, timeout: float, seen: list) -> None:
    """Collect ``session``'s events into ``seen`` until ``predicate()``; fails after ``timeout``."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out (status {session.status}: {session.status_text}); saw {seen[-8:]}")
        seen.extend(session.wait(0.1))
    seen.extend(session.poll())


def rose_host(procs, tmp_path) -> tuple[Proc, int]:
    host = procs("host", "--port", "0", "--bind", "127.0.0.1", "--name", "Alice", "--headless", "--ai", "greedy",
                 "--record", str(tmp_path / "h.json"), "--timeout", str(LIMIT), "--move-delay", "0.02")
    return host, int(host.expect("listening on port").rsplit(" ", 1)[1])


def test_a_rose_king_host_stopped_by_sigterm_says_bye_and_its_joiner_stops(procs, sessions, tmp_path):
    host, port = rose_host(procs, tmp_path)
    join = sessions(Session(LAN, "join", "Bob", port=port, reconnect_delay=0.05))
    seen: list = []
    events_until(join, lambda: join.view(lambda m: m.state is not None), LIMIT, seen)  # dealt
    host.p.send_signal(signal.SIGTERM)
    events_until(join, lambda: any(isinstance(e, Dropped) for e in seen), BOUND, seen)
    dropped = [e for e in seen if isinstance(e, Dropped)]
    assert dropped[0].code == "bye" and dropped[0].by_peer, dropped
    events_until(join, lambda: join.status == "failed", BOUND, seen)
    statuses = [e.code for e in seen if isinstance(e, Status)]
    assert "interrupted" not in statuses and statuses[-1] == "failed", statuses  # it does not reconnect
    assert host.finish(BOUND) == 143, host.lines
    assert any("SIGTERM: left the match" in x for x in host.lines), host.lines
    assert any("record written to" in x for x in host.lines), host.lines
    rec = Record.load(tmp_path / "h.json")  # the game so far, unfinished
    moves = join.view(lambda m: m.record())["moves"]
    assert rec.result is None and [str(m) for m in rec.moves] == moves[:len(rec.moves)]


def test_a_rose_king_joiner_stopped_by_sigint_says_bye_and_the_host_waits(procs, sessions, tmp_path):
    host = sessions(Session(LAN, "host", "Alice", port=0))
    join = procs("join", f"127.0.0.1:{host.port}", "--name", "Bob", "--headless", "--ai", "random", "--record",
                 str(tmp_path / "j.json"), "--timeout", str(LIMIT))
    seen: list = []
    events_until(host, lambda: any(isinstance(e, Started) for e in seen), LIMIT, seen)
    join.expect("new match")
    join.p.send_signal(signal.SIGINT)
    events_until(host, lambda: any(isinstance(e, Dropped) for e in seen), BOUND, seen)
    dropped = [e for e in seen if isinstance(e, Dropped)]
    assert dropped[0].code == "bye" and dropped[0].by_peer, dropped
    # it waits: the joiner may come back with its journal, unless the goodbye came while the
    # joiner owed a reveal (a forfeit by the rules, docs/protocol.md)
    assert host.verdict is None or (host.verdict.kind, host.verdict.seat) == ("forfeit", 1), host.verdict
    assert join.finish(BOUND) == 130, join.lines
    assert any("SIGINT: left the match" in x for x in join.lines), join.lines
    assert not any("Traceback" in x or "KeyboardInterrupt" in x for x in join.lines), join.lines
    assert json.loads((tmp_path / "j.json").read_text()).get("result") is None


def test_a_headless_joiner_waiting_for_its_host_stops_on_sigterm(procs):
    import socket
    with socket.socket() as s:  # a port that is free now and nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    join = procs("join", f"127.0.0.1:{port}", "--headless", "--ai", "random", "--timeout", str(LIMIT))
    join.expect("trying again")
    join.p.send_signal(signal.SIGTERM)
    assert join.finish(BOUND) == 143, join.lines
    assert any(f"SIGTERM: stopped while waiting for 127.0.0.1:{port}" in x for x in join.lines), join.lines
