"""Royals & Riots over real TCP on 127.0.0.1 (issue 13): RoyalsSession's lobby, whole matches of
2-4 peers, hostile joiners, strangers, a joiner killed and restarted, and what each joiner's raw
bytes carry. Every wait is bounded and driven by the sessions' events, never by sleeps; the
computers play at levels 'random'/'easy' and the deadlines are tiny."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from game.royals.ai.levels import make_player
from game.royals.engine import CARD_NAMES, Action, IllegalMoveError, Record
from game.royals.plugin import GAME
from net.framing import FrameDecoder, encode_frame
from net.headless import HeadlessError, play_royals_headless
from net.royals import card_names_in
from net.royals_session import (LOBBY_SCHEMAS, Failed, LobbyChanged, MatchOver, RoyalsSession, SeatInfo,
                                StatusChanged, _schemas, detect_game, probe_host)
from net.transport import Refused

LIMIT = 60.0  # seconds: no test here should come near it
FAST = dict(heartbeat=0.2, silence=3.0, handshake=2.0, reconnect_delay=0.05)


@pytest.fixture
def sessions():
    made: list[RoyalsSession] = []

    def make(kind: str, *args, **kw) -> RoyalsSession:
        s = getattr(RoyalsSession, kind)(*args, **{**FAST, **kw})
        made.append(s)
        return s
    yield make
    for s in made:
        s.close()


def wait_until(session: RoyalsSession, predicate, timeout: float = LIMIT, seen: list | None = None):
    """Wait (on the session's events) until ``predicate()`` holds; events go to ``seen``."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out (status {session.status}: {session.status_text})")
        events = session.wait(0.1)
        if seen is not None:
            seen.extend(events)
    return True


def run_all(peers: dict[str, tuple[RoyalsSession, str]], timeout: float = LIMIT) -> dict[str, str]:
    """Play every session headless in its own thread (level per peer); 'ok' or the error per peer."""
    results: dict[str, str] = {}

    def run(key: str, session: RoyalsSession, level: str) -> None:
        try:
            play_royals_headless(session, make_player(level, hash(key) % 1000), timeout=timeout)
            results[key] = "ok"
        except HeadlessError as e:
            results[key] = str(e)

    threads = [threading.Thread(target=run, args=(k, s, lvl), daemon=True) for k, (s, lvl) in peers.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout + 10)
    return results


class Tap:
    """The raw bytes one joiner received, for the leak scan."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.lock = threading.Lock()

    def __call__(self, chunk: bytes) -> None:
        with self.lock:
            self.data += chunk

    def messages(self) -> list[dict]:
        return FrameDecoder(_schemas()).feed(bytes(self.data))


def _strings(msg: dict) -> list[str]:
    out = []
    for v in msg.values():
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            out += [x for x in v if isinstance(x, str)]
            out += [y for x in v if isinstance(x, list) for y in x if isinstance(y, str)]
    return out


def leaked_cards(messages: list[dict], record: Record, seat: int) -> list[tuple[int, str, set]]:
    """Scan what joiner ``seat`` received: before each round's ``round`` reveal, no message may
    name a card of another seat's deal (or of the cards set aside) that has not been played
    publicly yet. Returns the offending (message index, type, cards)."""
    cards = set(CARD_NAMES)
    bad = []
    r = 0
    public: set[str] = set()
    for i, msg in enumerate(messages):
        t = msg["t"]
        if t == "round":
            r, public = r + 1, set()
            continue
        if r >= len(record.rounds):
            continue
        rnd = record.rounds[r]
        names = set().union(*(card_names_in(s) for s in _strings(msg))) & cards if _strings(msg) else set()
        if t == "act":
            public |= names  # a public action shows its card to everyone (a play, an execution, a theft)
            continue
        others = {c.name for s, hand in enumerate(rnd.deal, 1) if s != seat for c in hand}
        others |= {c.name for c in rnd.aside}
        leak = (names & others) - public
        if leak:
            bad.append((i, t, leak))
    return bad


# --------------------------------------------------------------------------- the lobby
def test_lobby_seats_people_in_order_and_start_needs_every_person_seat(sessions):
    host = sessions("host", "Ann", seats=4, computers={4: "easy"}, port=0)
    assert [i.kind for i in host.lobby] == ["host", "open", "open", "computer"]
    assert not host.can_start
    with pytest.raises(ValueError):
        host.start()
    bo = sessions("join", "Bo", "127.0.0.1", host.port)
    wait_until(bo, lambda: bo.status == "lobby" and bo.my_seat == 2)
    assert not host.can_start
    cy = sessions("join", "Cy", "127.0.0.1", host.port)
    wait_until(cy, lambda: cy.my_seat == 3 and len(cy.lobby) == 4)
    wait_until(host, lambda: host.can_start)
    assert host.lobby == [SeatInfo(1, "host", "Ann", True), SeatInfo(2, "person", "Bo", True),
                          SeatInfo(3, "person", "Cy", True), SeatInfo(4, "computer", "Computer (easy)", True)]
    wait_until(bo, lambda: [i.name for i in bo.lobby] == ["Ann", "Bo", "Cy", "Computer (easy)"])
    # a fifth person finds the table full; nothing changes for the others
    eve = sessions("join", "Eve", "127.0.0.1", host.port)
    seen: list = []
    wait_until(eve, lambda: eve.status == "failed", seen=seen)
    assert any(isinstance(e, Failed) and "the table is full" in e.reason for e in seen)
    assert host.can_start and host.lobby[1].name == "Bo"
    # a joiner that leaves in the lobby frees its seat
    cy.close()
    wait_until(host, lambda: host.lobby[2].kind == "open")
    assert not host.can_start


def test_detect_game_and_probe_tell_the_games_apart(sessions):
    from net.transport import LanSession
    host = sessions("host", "Ann", seats=2, port=0)
    assert detect_game("127.0.0.1", host.port) == "royals-riots"
    rk = LanSession.host("Rita", port=0)
    try:
        game, sock, data = probe_host("127.0.0.1", rk.port)
        sock.close()
        assert game == "rose-king" and data
    finally:
        rk.close()
    events = host.poll()
    assert not any(isinstance(e, Refused) for e in events)  # the probe is not a stranger


def test_bad_options_are_refused_at_once():
    with pytest.raises(ValueError, match="2..4 seats"):
        RoyalsSession.host("Ann", seats=5, port=0)
    with pytest.raises(ValueError, match="unknown computer level"):
        RoyalsSession.host("Ann", seats=3, computers={3: "genius"}, port=0)
    with pytest.raises(ValueError, match="seats 2..3"):
        RoyalsSession.host("Ann", seats=3, computers={1: "easy"}, port=0)
    with pytest.raises(ValueError, match="teams"):
        RoyalsSession.host("Ann", seats=3, teams=True, port=0)
    with pytest.raises(ValueError, match="player name"):
        RoyalsSession.join("\u202eEve", "127.0.0.1", 1)


def _stranger(port: int, data: bytes, timeout: float = LIMIT) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
        return got


def test_strangers_are_refused_and_the_lobby_is_untouched(sessions):
    import msgpack
    host = sessions("host", "Ann", seats=3, port=0)
    bo = sessions("join", "Bo", "127.0.0.1", host.port)
    wait_until(bo, lambda: bo.status == "lobby")
    assert b"frame" in _stranger(host.port, b"GET / HTTP/1.1\r\n\r\n")
    assert b"order" in _stranger(host.port, encode_frame({"t": "ping"}) + encode_frame({"t": "auth", "proof": bytes(32)},
                                                                                      _schemas()))
    future = msgpack.packb({"t": "hello", "proto": "rose-king-lan", "pv": 99, "name": "Eve"})
    assert b"incompatible versions" in _stranger(host.port, len(future).to_bytes(4, "big") + future)
    # a Rose King joiner is told plainly
    from net.protocol import Connection, Role
    assert b"schema" in _stranger(host.port, Connection(Role.JOIN, "Rick").data_to_send())
    # silence: closed after the handshake deadline (2 s here)
    t0 = time.monotonic()
    assert b"no handshake" in _stranger(host.port, b"")
    assert time.monotonic() - t0 < 10
    seen: list = []
    wait_until(host, lambda: sum(isinstance(e, Refused) for e in seen) >= 5, seen=seen)
    assert host.lobby[1] == SeatInfo(2, "person", "Bo", True) and bo.status == "lobby"
