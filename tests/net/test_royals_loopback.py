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
from game.royals.engine import CARD_NAMES, PLAY, Action, IllegalMoveError, Record
from game.royals.plugin import GAME
from net.framing import FrameDecoder, encode_frame
from net.headless import HeadlessError, play_royals_headless
from net.royals import card_names_in
from net.royals_session import (Failed, RoyalsSession, SeatInfo, StatusChanged, _schemas, detect_game,
                                probe_host)
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
    """Wait (on the session's events) until ``predicate()`` holds; events go to ``seen``.

    The session thread emits an event before the status change it causes (a ``Failed``, then
    status "failed"), so the predicate may hold while that event is still queued: the queue
    is drained once more at the end."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out (status {session.status}: {session.status_text})")
        events = session.wait(0.1)
        if seen is not None:
            seen.extend(events)
    if seen is not None:
        seen.extend(session.poll())
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
    from net.roseking.match import LAN
    from net.session import Session
    host = sessions("host", "Ann", seats=2, port=0)
    assert detect_game("127.0.0.1", host.port) == "royals-riots"
    rk = Session(LAN, "host", "Rita", port=0)
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


def _layer_schemas():
    from net.lobby import schemas_for
    return schemas_for({})


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
    from net.lobby import hello
    from net.roseking.match import KEY, VERSION
    rick = encode_frame(hello(KEY, VERSION, "Rick", "join", b"r" * 16, b"n" * 16, b"k" * 32), _layer_schemas())
    assert b"version" in _stranger(host.port, rick)
    # silence: closed after the handshake deadline (2 s here)
    t0 = time.monotonic()
    assert b"no handshake" in _stranger(host.port, b"")
    assert time.monotonic() - t0 < 10
    seen: list = []
    wait_until(host, lambda: sum(isinstance(e, Refused) for e in seen) >= 5, seen=seen)
    assert host.lobby[1] == SeatInfo(2, "person", "Bo", True) and bo.status == "lobby"


# --------------------------------------------------------------------------- whole matches
def seat_joiners(sessions, host: RoyalsSession, names, tmp_path=None, **kw) -> dict[str, RoyalsSession]:
    """Joiners taking seats 2, 3 ... in order (each waits for its seat before the next connects)."""
    out = {}
    for n, name in enumerate(names, 2):
        extra = dict(kw.get(name, {}))
        if tmp_path is not None:
            extra.setdefault("record", tmp_path / f"{name}.json")
        j = sessions("join", name, "127.0.0.1", host.port, **extra)
        wait_until(j, lambda: j.my_seat == n)
        out[name] = j
    wait_until(host, lambda: host.can_start)
    return out


def test_four_peers_play_a_whole_match_with_identical_records_and_no_leaked_cards(sessions, tmp_path):
    host = sessions("host", "Ann", seats=4, port=0, record=tmp_path / "Ann.json", seed=3)
    taps = {name: Tap() for name in ("Bo", "Cy", "Di")}
    joiners = seat_joiners(sessions, host, ("Bo", "Cy", "Di"), tmp_path, **{n: {"on_bytes": t} for n, t in taps.items()})
    results = run_all({"Ann": (host, "easy"), "Bo": (joiners["Bo"], "random"), "Cy": (joiners["Cy"], "easy"),
                       "Di": (joiners["Di"], "random")})
    assert results == {k: "ok" for k in ("Ann", "Bo", "Cy", "Di")}, results
    rec = host.record
    assert rec is not None and rec.result is not None
    assert GAME.check(rec.to_dict()).startswith("ok finished")
    for name, j in joiners.items():
        assert j.status == "over" and j.record.to_dict() == rec.to_dict(), name
        assert (tmp_path / f"{name}.json").read_text() == (tmp_path / "Ann.json").read_text()
    assert rec.players == ["Ann", "Bo", "Cy", "Di"]
    for seat, name in enumerate(("Bo", "Cy", "Di"), 2):
        messages = taps[name].messages()
        assert sum(m["t"] == "round" for m in messages) == 3
        assert leaked_cards(messages, rec, seat) == [], name


def test_the_leak_scan_finds_a_leak():
    """The scan above can fail: a message naming another seat's unplayed card is caught."""
    rec = Record.from_dict(json.loads(json.dumps(GAME_SAMPLE_FINISHED())))
    other = rec.rounds[0].deal[2][0].name  # seat 3's first dealt card
    msgs = [{"t": "you", "ply": 5, "cards": other}]
    assert leaked_cards(msgs, rec, 2) == [(0, "you", {other})]
    assert leaked_cards([{"t": "act", "ply": 40, "a": f"3 play {other}"}, *msgs], rec, 2) == []


def GAME_SAMPLE_FINISHED() -> dict:
    from game.rng import Rng
    from game.royals.engine import State
    s, rng = State(3), Rng(5)
    while not s.is_over():
        e = s.chance()
        s.push(e.sample(rng) if e is not None else rng.choice(s.legal_actions()))
    return Record.from_state(s, ["Ann", "Bo", "Cy"]).to_dict()


def test_rose_king_check_accepts_the_records_of_a_cli_match(tmp_path):
    """The real commands: a headless host and three headless joiners (4 peers, 4 processes)."""
    import subprocess
    import sys
    from tests.net.test_cli import Proc
    host = Proc("host", "--game", "royals-riots", "--seats", "4", "--port", "0", "--bind",
                "127.0.0.1", "--name", "Ann", "--headless", "--ai", "easy", "--record", str(tmp_path / "h.json"),
                "--timeout", str(LIMIT))
    procs = [host]
    try:
        port = int(host.expect("listening on port").rsplit(" ", 1)[1])
        for name in ("Bo", "Cy", "Di"):
            p = Proc("join", f"127.0.0.1:{port}", "--name", name, "--headless", "--ai", "random", "--record",
                     str(tmp_path / f"{name}.json"), "--timeout", str(LIMIT))
            procs.append(p)
            p.expect("Seated")
        for p in procs:
            assert p.finish() == 0, p.lines
        files = ("h.json", "Bo.json", "Cy.json", "Di.json")
        texts = {(tmp_path / f).read_text() for f in files}
        assert len(texts) == 1
        out = subprocess.run([sys.executable, "-m", "game.cli", "check", *(str(tmp_path / f) for f in files)],
                             capture_output=True, text=True, timeout=LIMIT)
        assert out.returncode == 0 and out.stdout.count("ok finished") == 4, out.stdout + out.stderr
        assert json.loads(texts.pop())["players"] == ["Ann", "Bo", "Cy", "Di"]
        final = [x for x in host.lines if "match over" in x]
        assert final and "winners=" in final[0]
    finally:
        for p in procs:
            p.kill()


def test_a_joiner_killed_mid_round_rejoins_and_the_match_ends_with_identical_records(tmp_path):
    """Three peers (the real commands); the joiner of seat 3 is SIGKILLed mid-round 1 and
    restarted with the same --record: it proves its seat, catches up and plays on."""
    from tests.net.test_cli import Proc
    host = Proc("host", "--game", "royals-riots", "--seats", "3", "--port", "0", "--bind", "127.0.0.1", "--name",
                "Ann", "--headless", "--ai", "random", "--record", str(tmp_path / "h.json"), "--timeout", str(LIMIT),
                "--move-delay", "0.02")
    procs = [host]
    try:
        port = int(host.expect("listening on port").rsplit(" ", 1)[1])
        bo = Proc("join", f"127.0.0.1:{port}", "--name", "Bo", "--headless", "--ai", "random", "--record",
                  str(tmp_path / "Bo.json"), "--timeout", str(LIMIT), "--move-delay", "0.02")
        procs.append(bo)
        bo.expect("Seated")
        cy_args = ("join", f"127.0.0.1:{port}", "--name", "Cy", "--headless", "--ai", "random", "--record",
                   str(tmp_path / "Cy.json"), "--timeout", str(LIMIT), "--verbose", "--move-delay", "0.02")
        cy = Proc(*cy_args)
        procs.append(cy)
        line = cy.expect(" play ")  # a trick of round 1 is under way
        cy.kill()  # SIGKILL: no goodbye
        host.expect("away")  # the host's lobby shows seat 3 away; its seat waits
        assert "round 1 checked" not in "\n".join(host.lines), line
        journal = json.loads((tmp_path / "Cy.json.journal").read_text())
        assert journal["seat"] == 3 and journal["game"]
        again = Proc(*cy_args)
        procs.append(again)
        for p in (host, bo, again):
            assert p.finish() == 0, p.lines
        texts = [(tmp_path / f).read_text() for f in ("h.json", "Bo.json", "Cy.json")]
        assert texts[0] == texts[1] == texts[2]
        assert GAME.check(json.loads(texts[0])).startswith("ok finished")
    finally:
        for p in procs:
            p.kill()


# --------------------------------------------------------------------------- hostile joiners
def _off_suit(holder: list):
    """A tamper hook: the first play that follows the led rank is rewritten into an off-suit
    play of a card the cheater holds (its match journaled the honest play)."""
    done = []

    def tamper(msg: dict) -> dict:
        if done or msg["t"] != "act":
            return msg
        a = Action.from_str(msg["a"])
        if a.kind is not PLAY:
            return msg
        state = holder[0]._match.view.state  # the cheater's own view (network thread, where tamper runs)
        for c in state.hand(a.seat):
            reason = state.illegal_reason(Action.play(a.seat, c))
            if reason and "follow" in reason:
                done.append(c)
                return {**msg, "a": f"{a.seat} play {c.name}"}
        return msg
    return tamper, done


def _lying_reveal(msg: dict) -> dict:
    return {**msg, "s": bytes(32)} if msg["t"] == "reveal" else msg


@pytest.mark.parametrize("attack", ["off-suit", "lying reveal"])
def test_a_cheating_joiner_is_caught_by_every_honest_peer(sessions, attack):
    host = sessions("host", "Ann", seats=4, computers={4: "random"}, port=0, seed=5)
    holder: list = []
    if attack == "off-suit":
        tamper, done = _off_suit(holder)
    else:
        tamper, done = _lying_reveal, [1]
    joiners = seat_joiners(sessions, host, ("Bo", "Cy"), Cy={"tamper": tamper})
    holder.append(joiners["Cy"])
    results = run_all({"Ann": (host, "random"), "Bo": (joiners["Bo"], "random"), "Cy": (joiners["Cy"], "random")})
    assert done, "the cheat never had its chance"
    for name in ("Ann", "Bo"):  # the honest peers stop with the seat and the play named
        assert "seat 3" in results[name], results
        assert results[name] != "ok"
    if attack == "off-suit":
        assert "follow" in results["Ann"] and f"3 play {done[0].name}" in results["Ann"], results
    else:
        assert "commitment" in results["Ann"] or "open" in results["Ann"], results
    assert host.status == "failed" and joiners["Bo"].status == "failed"


def test_a_second_connection_for_a_taken_seat_and_a_late_stranger_are_refused(sessions):
    from net.royals_session import _hello
    host = sessions("host", "Ann", seats=3, computers={3: "random"}, port=0, seed=2)
    bo = seat_joiners(sessions, host, ("Bo",))["Bo"]
    host.start()
    wait_until(bo, lambda: bo.status == "playing" and bo._journal is not None)
    game = bytes.fromhex(bo._journal["game"])
    schemas = _schemas()
    # a late stranger: no seat left once the match started
    late = _hello("Eve", "join", b"e" * 16, b"n" * 16, b"k" * 32)
    assert b"the match has started" in _stranger(host.port, encode_frame(late, schemas))
    # a connection naming the match with a wrong seat proof: refused, Bo's seat untouched
    claim = _hello("Bo", "join", b"f" * 16, b"m" * 16, b"k" * 32, game)
    got = _stranger(host.port, encode_frame(claim, schemas) + encode_frame({"t": "auth", "proof": bytes(32)}, schemas))
    assert b"wrong resume secret" in got
    other = _hello("Bo", "join", b"g" * 16, b"o" * 16, b"k" * 32, bytes(16))  # a seat in another match
    assert b"another match" in _stranger(host.port, encode_frame(other, schemas))
    assert host.lobby[1] == SeatInfo(2, "person", "Bo", True)
    results = run_all({"Ann": (host, "random"), "Bo": (bo, "random")})
    assert results == {"Ann": "ok", "Bo": "ok"}, results
    assert host.record.to_dict() == bo.record.to_dict()


def test_play_refuses_out_of_turn_at_once(sessions):
    host = sessions("host", "Ann", seats=2, port=0, seed=4)
    bo = seat_joiners(sessions, host, ("Bo",))["Bo"]
    host.start()
    wait_until(bo, lambda: bo.status == "playing")
    for s in (host, bo):
        if not s.my_turn:
            with pytest.raises(IllegalMoveError):
                s.play(Action.from_str(f"{s.my_seat} play K4"))


# --------------------------------------------------------------------------- one connection's layer (pure)
def test_link_deadlines_heartbeat_flood_and_peer_error():
    from net.link import Link
    schemas = _schemas()
    a = Link(schemas, now=0.0, heartbeat=1.0, silence=3.0, handshake=2.0)
    a.tick(1.5)
    assert FrameDecoder(schemas).feed(a.data_to_send()) == [{"t": "ping"}]  # heartbeat after 1 s idle
    a.tick(2.0)
    assert a.closed is not None and a.closed.code == "timeout" and "no handshake" in a.closed.reason
    assert FrameDecoder(schemas).feed(a.data_to_send())[0]["code"] == "timeout"
    b = Link(schemas, now=0.0, silence=3.0)
    b.settled = True
    b.tick(3.0)
    assert b.closed.code == "timeout" and "no word" in b.closed.reason and b.data_to_send() == b""
    c = Link(schemas, now=0.0)
    ping = encode_frame({"t": "ping"}, schemas)
    assert c.feed(ping * 30, 0.0) == [] and c.closed is None  # the burst is allowed, pings swallowed
    assert c.feed(ping * 5, 0.0) == [] and c.closed.code == "flood"
    d = Link(schemas, now=0.0)
    got = d.feed(encode_frame({"t": "ack", "ply": 3, "hash": bytes(32)}, schemas)
                 + encode_frame({"t": "error", "code": "illegal", "reason": "seat 3, ply 9 (3 play P4): x"}, schemas)
                 + encode_frame({"t": "ack", "ply": 4, "hash": bytes(32)}, schemas), 1.0)
    assert got == [{"t": "ack", "ply": 3, "hash": bytes(32)}]  # nothing after the peer's error
    assert d.closed.code == "illegal" and d.closed.by_peer
    e = Link(schemas, now=0.0)
    assert e.feed(b"\x00\x00\x00\x00", 0.0) == [] and e.closed.code == "frame"
    f = Link(schemas, now=0.0)
    assert f.feed(b"\x00\x00", 0.0) == [] and f.feed(b"", 0.1) == []
    assert f.closed.code == "eof" and "middle of a frame" in f.closed.reason


def test_cli_royals_option_errors_are_clear():
    import subprocess
    import sys

    def run(*args: str) -> tuple[int, str]:
        p = subprocess.run([sys.executable, "-m", "game.cli", *args], capture_output=True, text=True, timeout=LIMIT)
        return p.returncode, p.stdout + p.stderr
    rc, out = run("host", "--game", "royals-riots", "--seats", "2", "--computer", "easy", "--computer", "easy",
                  "--headless", "--ai", "easy", "--port", "0", "--bind", "127.0.0.1")
    assert rc == 2 and "do not fit a table of 2" in out
    rc, out = run("host", "--game", "royals-riots", "--seats", "3", "--computer", "expert", "--headless", "--ai",
                  "easy", "--port", "0")
    assert rc == 2 and "Royals & Riots levels are" in out
    rc, out = run("host", "--game", "royals-riots", "--headless", "--ai", "expert", "--port", "0")
    assert rc == 2 and "--ai expert" in out
    rc, out = run("host", "--game", "royals-riots", "--seats", "3", "--teams", "--headless", "--ai", "easy",
                  "--port", "0")
    assert rc == 2 and "teams" in out
    rc, out = run("host", "--headless", "--ai", "hard", "--seats", "9")
    assert rc == 2 and "--seats" in out


# --------------------------------------------------------------------------- faults
def _drive(session: RoyalsSession, until, seed: int = 1, timeout: float = LIMIT, seen: list | None = None) -> None:
    """Play ``session``'s seat (random) in this thread until ``until(events so far)`` holds
    (then the events still queued are collected too: see :func:`wait_until`)."""
    player = make_player("random", seed)
    events: list = [] if seen is None else seen
    end = time.monotonic() + timeout
    while not until(events):
        if time.monotonic() > end:
            raise AssertionError(f"timed out (status {session.status}: {session.status_text})")
        events += session.wait(0.05)
        if session.status == "lobby" and session.role == "host" and session.can_start:
            session.start()
        if session.my_turn:
            try:
                session.play(player.choose(session.view.observation()))
            except ValueError:
                pass
    events += session.poll()


def test_the_host_leaving_ends_the_match_for_all_and_every_autosave_stays(sessions, tmp_path):
    from net.royals_session import RoundChecked
    host = sessions("host", "Ann", seats=3, port=0, record=tmp_path / "Ann.json", seed=6)
    joiners = seat_joiners(sessions, host, ("Bo", "Cy"), tmp_path)
    results: dict = {}
    threads = [threading.Thread(target=lambda n=n, j=j: results.__setitem__(n, run_all({n: (j, "random")})[n]),
                                daemon=True) for n, j in joiners.items()]
    for t in threads:
        t.start()
    _drive(host, lambda ev: any(isinstance(e, RoundChecked) for e in ev))  # round 1 checked on the host
    host.close()  # mid-round 2: the match ends for all
    for t in threads:
        t.join(LIMIT)
    for name in ("Bo", "Cy"):
        assert "host left" in results[name], results
        rec = json.loads((tmp_path / f"{name}.json").read_text())
        assert len(rec["rounds"]) >= 1 and GAME.check(rec).startswith("ok in-progress")
        assert (tmp_path / f"{name}.json.journal").exists()
    assert json.loads((tmp_path / "Ann.json").read_text())["rounds"] == rec["rounds"]


def test_a_dropped_joiner_is_held_and_its_seat_can_be_handed_to_a_computer(sessions):
    host = sessions("host", "Ann", seats=3, port=0, seed=7)
    joiners = seat_joiners(sessions, host, ("Bo", "Cy"))
    bo, cy = joiners["Bo"], joiners["Cy"]
    results: dict = {}
    threads = [threading.Thread(target=lambda k=k, s=s: results.__setitem__(k, run_all({k: (s, "random")})[k]),
                                daemon=True) for k, s in (("Ann", host), ("Bo", bo))]
    for t in threads:
        t.start()
    _drive(cy, lambda ev: cy.view is not None and cy.view.state.ply > 12, seed=3)
    cy.close()  # Cy leaves mid-round 1: its seat waits
    wait_until(host, lambda: host.lobby[2] == SeatInfo(3, "person", "Cy", False))
    assert host.status_text == "Connection interrupted, waiting for Cy to come back…"
    from game import i18n
    i18n.set_language("de")  # the line is worded when read: a language change shows at once
    try:
        assert host.status_text == "Verbindung unterbrochen, warte auf die Rückkehr von Cy …"
    finally:
        i18n.set_language("en")
    with pytest.raises(ValueError):
        host.hand_to_computer(2, "random")  # Bo is connected: not handed over
    host.hand_to_computer(3, "random")
    wait_until(host, lambda: host.lobby[2].kind == "computer")
    for t in threads:
        t.join(LIMIT)
    assert results == {"Ann": "ok", "Bo": "ok"}, results
    assert host.record.to_dict() == bo.record.to_dict()
    assert GAME.check(host.record.to_dict()).startswith("ok finished")


def test_a_joiner_whose_connection_breaks_reconnects_and_catches_up(sessions):
    host = sessions("host", "Ann", seats=3, computers={3: "easy"}, port=0, seed=8)
    bo = seat_joiners(sessions, host, ("Bo",))["Bo"]
    seen: list = []
    results: dict = {}
    t = threading.Thread(target=lambda: results.__setitem__("Ann", run_all({"Ann": (host, "random")})["Ann"]),
                         daemon=True)
    t.start()
    _drive(bo, lambda ev: bo.view is not None and bo.view.state.ply > 15, seed=4, seen=seen)
    bo._sock.shutdown(socket.SHUT_RDWR)  # the network fails under the joiner (no goodbye either way)
    _drive(bo, lambda ev: bo.status in ("over", "failed"), seed=4, seen=seen)
    t.join(LIMIT)
    statuses = [e.status for e in seen if isinstance(e, StatusChanged)]
    assert "interrupted" in statuses and statuses[-1] == "over", statuses
    assert results == {"Ann": "ok"} and host.record.to_dict() == bo.record.to_dict()


def test_a_joiner_back_after_its_seat_went_to_a_computer_takes_it_back(sessions, tmp_path):
    host = sessions("host", "Ann", seats=3, port=0, seed=9)
    joiners = seat_joiners(sessions, host, ("Bo", "Cy"), tmp_path)
    bo, cy = joiners["Bo"], joiners["Cy"]
    results: dict = {}
    threads = [threading.Thread(target=lambda k=k, s=s: results.__setitem__(k, run_all({k: (s, "random")})[k]),
                                daemon=True) for k, s in (("Ann", host), ("Bo", bo))]
    for t in threads:
        t.start()
    _drive(cy, lambda ev: cy.view is not None and cy.view.state.ply > 12, seed=3)
    cy.close()
    wait_until(host, lambda: not host.lobby[2].connected)
    host.hand_to_computer(3, "random")
    wait_until(host, lambda: host.lobby[2].kind == "computer")
    again = sessions("join", "Cy", "127.0.0.1", host.port, record=tmp_path / "Cy.json")  # restarted
    wait_until(host, lambda: host.lobby[2] == SeatInfo(3, "person", "Cy", True))
    results["Cy"] = run_all({"Cy": (again, "random")})["Cy"]
    for t in threads:
        t.join(LIMIT)
    assert results == {"Ann": "ok", "Bo": "ok", "Cy": "ok"}, results
    texts = {(tmp_path / f"{n}.json").read_text() for n in ("Bo", "Cy")}
    assert len(texts) == 1 and json.loads(texts.pop()) == host.record.to_dict()


def test_a_team_match_with_two_computer_seats(sessions):
    host = sessions("host", "Ann", seats=4, teams=True, computers={3: "random", 4: "easy"}, port=0, seed=10)
    bo = seat_joiners(sessions, host, ("Bo",))["Bo"]
    assert [i.kind for i in bo.lobby] == ["host", "person", "computer", "computer"]
    results = run_all({"Ann": (host, "easy"), "Bo": (bo, "random")})
    assert results == {"Ann": "ok", "Bo": "ok"}, results
    rec = host.record.to_dict()
    assert rec == bo.record.to_dict() and rec["teams"] is True
    assert GAME.check(rec).startswith("ok finished")


def test_a_seated_joiner_that_falls_silent_loses_its_lobby_seat(sessions):
    from net.royals_session import _hello
    host = sessions("host", "Ann", seats=3, port=0, silence=1.0)
    with socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT) as s:
        s.sendall(encode_frame(_hello("Sid", "join", b"s" * 16, b"n" * 16, b"k" * 32), _schemas()))
        wait_until(host, lambda: host.lobby[1].name == "Sid")
        got = b""
        while chunk := s.recv(65536):  # Sid never says a word again: dropped after 1 s of silence
            got += chunk
    msgs = FrameDecoder(_schemas()).feed(got)
    assert [m["you"] for m in msgs if m["t"] == "lobby"] == [2]  # it was seated (and told so) before
    wait_until(host, lambda: host.lobby[1].kind == "open")


def test_a_bad_journal_is_refused_with_a_clear_error(tmp_path):
    rec = tmp_path / "j.json"
    (tmp_path / "j.json.journal").write_text('{"format": "royals-lan-journal", "seat": "x"}')
    with pytest.raises(ValueError, match="not a Royals & Riots LAN journal"):
        RoyalsSession.join("Bo", "127.0.0.1", 1, record=rec)
    (tmp_path / "j.json.journal").write_text('{"format": "rose-king-lan-journal"}')  # Rose King's: not ours
    s = RoyalsSession.join("Bo", "127.0.0.1", 1, record=rec, **FAST)
    try:
        assert s.my_seat == 0 and s.status in ("connecting", "interrupted")
    finally:
        s.close()


def test_a_flood_and_too_many_settling_connections_are_refused(sessions):
    host = sessions("host", "Ann", seats=2, port=0, handshake=5.0)
    assert b"flood" in _stranger(host.port, encode_frame({"t": "ping"}) * 200)
    idle = [socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT) for _ in range(4)]
    try:
        for s in idle:  # each got the host's hello: it is one of the 4 connections settling
            assert s.recv(65536)
        with socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT) as fifth:
            assert fifth.recv(65536) == b""  # closed unread, no hello
        bo = sessions("join", "Bo", "127.0.0.1", host.port)  # once they time out, a player gets in
        wait_until(bo, lambda: bo.status == "lobby", timeout=15)
    finally:
        for s in idle:
            s.close()


def test_the_network_thread_serves_others_while_a_hard_computer_thinks(sessions):
    """A 'hard' computer seat thinks about 1 s per decision in a worker thread; meanwhile the
    host's network thread answers a stranger at once."""
    host = sessions("host", "Ann", seats=2, computers={2: "hard"}, port=0, seed=11)
    assert host.can_start
    host.start()
    stop = threading.Event()

    def drive() -> None:
        player = make_player("random", 1)
        while not stop.is_set():
            host.wait(0.05)
            if host.my_turn:
                try:
                    host.play(player.choose(host.view.observation()))
                except ValueError:
                    pass
    t = threading.Thread(target=drive, daemon=True)
    t.start()
    try:
        end = time.monotonic() + LIMIT
        since: dict = {}
        while True:  # until one decision of the computer has been running 0.2 s: a search, not a set-up choice
            assert time.monotonic() < end, host.status_text
            running = [f for f in list(host._thinking.values()) if not f.done()]
            now = time.monotonic()
            if any(now - since.setdefault(id(f), now) >= 0.2 for f in running):
                break
            time.sleep(0.005)
        t0 = time.monotonic()
        assert b"frame" in _stranger(host.port, b"GET / HTTP/1.1\r\n\r\n")
        took = time.monotonic() - t0
        assert took < 0.5 and any(not f.done() for f in list(host._thinking.values())), took
    finally:
        stop.set()
        t.join(5)


def test_a_journal_of_another_match_is_refused_with_a_hint(sessions, tmp_path):
    host = sessions("host", "Ann", seats=2, port=0)
    journal = {"format": "royals-lan-journal", "version": 1, "game": "ab" * 16, "seat": 2, "players": 2,
               "teams": False, "names": ["Old", "Bo"], "date": "", "computers": [], "key": "01" * 32,
               "host_key": "02" * 32, "address": "127.0.0.1", "port": host.port, "match": None}
    (tmp_path / "Bo.json.journal").write_text(json.dumps(journal))
    bo = sessions("join", "Bo", "127.0.0.1", host.port, record=tmp_path / "Bo.json")
    seen: list = []
    wait_until(bo, lambda: bo.status == "failed", seen=seen)
    failed = [e for e in seen if isinstance(e, Failed)]
    assert failed and "another match" in failed[0].reason and "use another --record" in failed[0].reason
    assert host.lobby[1].kind == "open"


def test_a_host_lying_in_its_round_reveal_is_caught_by_every_joiner(sessions):
    """The host's program rewrites round 1's reveal (one secret of seat 1 changed): each joiner's
    round check names the host, and the match stops for all."""
    def lie(msg: dict) -> dict:
        if msg["t"] != "round" or msg["round"] != 1:
            return msg
        secrets = list(msg["secrets"])
        secrets[0] = bytes(32)  # seat 1's secret of the first coin (round 1's starter)
        return {**msg, "secrets": secrets}
    host = sessions("host", "Ann", seats=3, port=0, seed=12, tamper=lie)
    joiners = seat_joiners(sessions, host, ("Bo", "Cy"))
    results = run_all({"Ann": (host, "random"), "Bo": (joiners["Bo"], "random"), "Cy": (joiners["Cy"], "random")})
    for name in ("Bo", "Cy"):  # its own check, or the other joiner's verdict relayed by the host first
        assert "seat 1, ply 0 (start " in results[name], results
        assert "seat 1's secret does not open its commitment" in results[name], results
    assert "stopped the match: seat 1, ply 0" in results["Ann"], results


def test_a_host_killed_without_a_word_ends_the_match_for_its_joiners(sessions, tmp_path):
    """SIGKILL of a real host process mid-match: each joiner tries to get back for host_grace
    (1 s here), then stops with "the host left", its autosave and journal kept."""
    from tests.net.test_cli import Proc
    host = Proc("host", "--game", "royals-riots", "--seats", "3", "--computer", "random", "--port", "0", "--bind",
                "127.0.0.1", "--name", "Ann", "--headless", "--ai", "random", "--timeout", str(LIMIT),
                "--move-delay", "0.05")
    try:
        port = int(host.expect("listening on port").rsplit(" ", 1)[1])
        bo = sessions("join", "Bo", "127.0.0.1", port, record=tmp_path / "Bo.json", host_grace=1.0)
        seen: list = []
        _drive(bo, lambda ev: bo.view is not None and bo.view.state.ply > 10, seed=5, seen=seen)
        host.kill()
        _drive(bo, lambda ev: bo.status == "failed", seed=5, seen=seen)
        failed = [e for e in seen if isinstance(e, Failed)]
        assert failed and "the host left" in failed[-1].reason
        assert "interrupted" in [e.status for e in seen if isinstance(e, StatusChanged)]
        assert (tmp_path / "Bo.json.journal").exists()
    finally:
        host.kill()


def test_a_royals_joiner_at_a_rose_king_host_stops_with_a_clear_reason(sessions):
    from net.roseking.match import LAN
    from net.session import Session
    rk = Session(LAN, "host", "Rita", port=0)
    try:
        bo = sessions("join", "Bo", "127.0.0.1", rk.port)
        seen: list = []
        wait_until(bo, lambda: bo.status == "failed", seen=seen)
        failed = [e for e in seen if isinstance(e, Failed)]
        assert len(failed) == 1 and "does not host Royals & Riots" in failed[0].reason
    finally:
        rk.close()


def test_an_idle_session_does_no_work_between_ticks(sessions):
    """Waiting for our decision, the host's thread only ticks: no refresh of the caller's copies,
    no Turn built for the computers (it was 8 % of a core before; figures: quiet when idle)."""
    host = sessions("host", "Ann", seats=2, computers={2: "easy"}, port=0, seed=13)
    host.start()
    # our turn, and the host's thread has had its one look at whose turn it is since the last change
    wait_until(host, lambda: host.my_turn and not host._turn_dirty)
    calls = {"refresh": 0, "turn": 0}
    match = host._match
    real_refresh, real_turn = host._refresh, match.turn

    def refresh():
        calls["refresh"] += 1
        real_refresh()

    def turn():
        calls["turn"] += 1
        return real_turn()
    host._refresh, match.turn = refresh, turn
    end = time.monotonic() + 1.0  # five ticks
    while time.monotonic() < end:
        host.wait(0.2)
    assert calls == {"refresh": 0, "turn": 0} and host.my_turn


def test_a_joiner_started_before_a_royals_host_learns_the_game_from_its_hello(tmp_path):
    """``rose-king join`` without ``--game`` while nobody answers yet: it waits for the host and
    plays Royals & Riots when a Royals & Riots host comes (it used to settle on Rose King and
    loop on refused hellos)."""
    import socket
    from tests.net.test_cli import Proc
    hold = socket.socket()
    hold.bind(("127.0.0.1", 0))  # bound, not listening: connections are refused until the host comes
    port = hold.getsockname()[1]
    procs = []
    try:
        bo = Proc("join", f"127.0.0.1:{port}", "--name", "Bo", "--headless", "--ai", "random", "--record",
                  str(tmp_path / "Bo.json"), "--timeout", str(LIMIT))
        procs.append(bo)
        bo.expect("nobody answers")
        hold.close()
        host = Proc("host", "--game", "royals-riots", "--seats", "2", "--port", str(port), "--bind", "127.0.0.1",
                    "--name", "Ann", "--headless", "--ai", "random", "--record", str(tmp_path / "h.json"),
                    "--timeout", str(LIMIT))
        procs.append(host)
        for p in procs:
            assert p.finish() == 0, p.lines
        assert any("match over: ok finished" in line for line in bo.lines), bo.lines
        assert (tmp_path / "h.json").read_text() == (tmp_path / "Bo.json").read_text()
        assert not any("schema" in line or "refused" in line for line in bo.lines + host.lines)
    finally:
        hold.close()
        for p in procs:
            p.kill()


def test_a_headless_joiner_gives_up_after_its_timeout_and_the_window_does_not_wait(capsys):
    import argparse
    import socket
    from game.commands import join
    with socket.socket() as hold:
        hold.bind(("127.0.0.1", 0))
        port = hold.getsockname()[1]
        now = [0.0]
        tries = []

        def sleep(seconds: float) -> None:
            tries.append(seconds)
            now[0] += seconds
        args = argparse.Namespace(address="127.0.0.1", port=port, timeout=2.0, headless=True, game=None,
                                  connected=None)
        assert join._learn_game(args, clock=lambda: now[0], sleep=sleep) == 1
        assert len(tries) == 4 and args.game is None
        out = capsys.readouterr()
        assert out.out.count("nobody answers") == 1 and "nobody answered" in out.err and "within 2 seconds" in out.err
        windowed = argparse.Namespace(address="127.0.0.1", port=port, timeout=2.0, headless=False, game=None,
                                      connected=None)
        assert join._learn_game(windowed, clock=lambda: now[0], sleep=sleep) is None
        assert windowed.game == "rose-king" and len(tries) == 4  # its join screen keeps trying by itself


def test_a_joiner_that_leaves_before_any_round_was_checked_still_has_the_record_of_none(sessions, tmp_path):
    """The window keeps every started network match in its saved games: after close() the
    session's record is there (and in its --record file) even when no round was checked."""
    host = sessions("host", "Ann", seats=2, port=0, seed=3)
    bo = seat_joiners(sessions, host, ("Bo",), tmp_path)["Bo"]
    host.start()
    wait_until(bo, lambda: bo.view is not None)
    assert bo.record is None and not (tmp_path / "Bo.json").exists()  # nothing checked yet
    bo.close()
    assert bo.record is not None and bo.record.rounds == [] and bo.record.players == ["Ann", "Bo"]
    assert GAME.check(bo.record.to_dict()).startswith("ok in-progress round=1")
    assert json.loads((tmp_path / "Bo.json").read_text()) == bo.record.to_dict()
