"""The one LAN layer (net.lobby, net.session, net.match) with a game defined in the tests only
(tests/net/nim_game.py), over 127.0.0.1: a whole match, a resume, and the known attacks
that the layer itself refuses (false forfeit claims, escaping a forfeit by a stop, seat
squatting, a trickled hello). Every wait is bounded and driven by events."""

from __future__ import annotations

import socket
import time

import pytest

from net.coin import commitment
from net.framing import encode_frame
from net.link import Link
from net.lobby import LAN_VERSION, JoinLobby, LSend, LStarted, schemas_for
from net.match import ALL, Owed, Verdict, deadline_verdict, forfeit_claim_ok, judge_stop, overdue, stop_verdict
from net.session import Dropped, Ended, Session, Started

from .nim_game import NIM, NimMatch

LIMIT = 10.0
SCHEMAS = schemas_for(dict(NIM.schemas))


_BACKLOG: dict = {}  # events read past the one a wait_for was looking for, per session


def wait_for(session: Session, pred, what: str, timeout: float = LIMIT, seen: list | None = None):
    end = time.monotonic() + timeout
    seen = seen if seen is not None else []
    backlog = _BACKLOG.setdefault(id(session), [])
    while True:
        while backlog:
            e = backlog.pop(0)
            seen.append(e)
            if pred(e):
                return e
        if time.monotonic() >= end:
            break
        backlog += session.wait(0.05)
    raise AssertionError(f"no {what} within {timeout} s; saw {seen[-8:]}")


def play_out(host: Session, join: Session, timeout: float = LIMIT) -> tuple[Ended, Ended]:
    """Both take stones (the lower seat takes 1, the other 2) until each side saw the end."""
    ends: dict = {}
    end = time.monotonic() + timeout
    while len(ends) < 2 and time.monotonic() < end:
        for s in (host, join):
            if s in ends:
                continue
            for e in _BACKLOG.pop(id(s), []) + s.poll():
                if isinstance(e, Ended):
                    ends[s] = e
            m = s.view(lambda m: (m.over, m.pile, m.to_move(), m.seat, m.stones()))
            if m and m[0] is None and m[1] is not None and m[2] == m[3]:
                try:
                    s.act(min(1 + m[3], m[4]))
                except ValueError:
                    pass  # raced the other side's move: try again
        time.sleep(0.005)
    assert len(ends) == 2, f"the match did not end on both sides: {ends}"
    return ends[host], ends[join]


@pytest.fixture
def sessions():
    made: list[Session] = []

    def make(role: str, name: str, **kw) -> Session:
        if role == "join":
            kw.setdefault("reconnect_delay", 0.05)
        s = Session(NIM, role, name, **kw)
        made.append(s)
        return s
    yield make
    for s in made:
        s.close(1.0)
        _BACKLOG.pop(id(s), None)


# =========================================================================== the pure rules
def ks(v: Verdict) -> tuple[str, int]:
    return v.kind, v.seat


def test_the_forfeit_rules_read_who_owes_what():
    owed = [Owed(1, "reveal", -1, 0, 0.0, 10.0, 60.0, True), Owed(2, "commit", 5, 0, 1.0, 6.0, 60.0, False)]
    assert stop_verdict(owed, 1, "illegal", 3).seat == 1            # a stop while owing a reveal forfeits
    assert stop_verdict(owed, 2, "bye", 3) is None                  # nothing seen yet: only away
    assert forfeit_claim_ok(owed, 1, 0) and not forfeit_claim_ok(owed, 0, 1)
    assert judge_stop(owed, 0, 1, "forfeit", 0, 3) == Verdict("forfeit", 1, (), 3, judge_stop(owed, 0, 1, "forfeit", 0, 3).detail)
    assert judge_stop([], 0, 1, "forfeit", 0, 3).kind == "illegal"  # a false claim: the claimant at fault
    assert judge_stop([], 0, 1, "forfeit", 0, 3).seat == 1
    assert judge_stop([], 0, 1, "bye", -1, 3) is None
    # a peer cannot end a match it did not end: "finished" mid-match, or another seat's resignation
    assert ks(judge_stop([], 0, 1, "finished", -1, 3)) == ("illegal", 1)
    assert ks(judge_stop([], 0, 1, "resigned", 0, 3)) == ("illegal", 1)
    assert ks(judge_stop([], 0, 1, "resigned", 1, 3)) == ("resigned", 1)
    # what a peer says of another seat stands only where this peer can check it: a joiner cannot
    # check a third seat (it sees it only through the host), the host sees every seat itself
    v = judge_stop([], 2, 0, "illegal", 1, 3)
    assert ks(v) == ("disputed", -1) and v.between == (0, 1)
    assert ks(judge_stop([], 0, 2, "illegal", 1, 3)) == ("illegal", 2)
    assert ks(judge_stop([], 0, 2, "forfeit", 1, 3)) == ("illegal", 2)
    assert judge_stop([], 2, 0, "forfeit", 1, 3).between == (0, 1)
    # a claim against this seat never stands: a step it still owes is sent, the claimant is away
    mine = [Owed(0, "reveal", 4, 1, 0.0, 10.0, 60.0, True)]
    assert forfeit_claim_ok(mine, 0, 1) and judge_stop(mine, 0, 1, "forfeit", 0, 3) is None
    assert ks(judge_stop(mine, 0, 1, "illegal", 0, 3)) == ("illegal", 1)
    assert ks(judge_stop([], 1, 0, "forfeit", -1, 3)) == ("illegal", 0)   # -1: "you"
    # nor against a computer seat this host plays
    assert judge_stop([Owed(2, "key", 4, ALL, 0.0, 10.0, 60.0, True)], 0, 1, "forfeit", 2, 3, local=(2,)) is None
    assert ks(judge_stop([], 0, 1, "illegal", 2, 3, local=(2,))) == ("illegal", 1)
    # a seat's word about itself stands; "disputed" ends only the sender's own match
    assert ks(judge_stop([], 0, 1, "forfeit", 1, 3)) == ("forfeit", 1)
    assert ks(judge_stop([], 0, 1, "desync", -1, 3)) == ("desync", -1)
    assert judge_stop([], 0, 1, "disputed", -1, 3) is None
    assert judge_stop(owed, 0, 1, "disputed", -1, 3) is None   # even owing: its deadline names it
    # rule 1: the step whose deadline passed first names its owner, connected or not
    assert overdue(owed, 6.9) is None
    assert overdue(owed, 7.0).seat == 2
    assert overdue(owed, 10.0, lambda s: s != 2).seat == 1           # seat 2 away: its 60 s run
    assert overdue([Owed(0, "outcome", 1, ALL, 0.0, 62.0, 62.0, True),
                    Owed(3, "reveal", 1, 0, 0.0, 60.0, 60.0, True)], 62.0).seat == 3
    # a seat back from a drop gets its connected time again, but a forfeiting step's
    # total deadline runs from when it became owed, whatever reconnects happen
    reveal, commit = Owed(1, "reveal", 4, 0, 100.0, 10.0, 60.0, True), Owed(1, "commit", 4, 0, 100.0, 6.0, 60.0, False)
    assert reveal.deadline(True, 95.0) == 110.0 and reveal.deadline(True, 130.0) == 140.0
    assert reveal.deadline(True, 155.0) == 160.0 and reveal.deadline(False, 155.0) == 160.0
    assert commit.deadline(True, 157.0) == 163.0  # only cut off: it may come back, and gets its time
    assert overdue([reveal], 159.9, back=lambda s: 155.0) is None
    assert overdue([reveal], 160.0, back=lambda s: 159.0) == reveal
    # the verdict of an overdue step: a forfeit, a departure, a cut, or (through the host) a dispute
    assert ks(deadline_verdict(reveal, True, 7)) == ("forfeit", 1)
    assert ks(deadline_verdict(commit, False, 7)) == ("left", 1)
    assert deadline_verdict(commit, True, 7) is None
    relayed = Owed(2, "key", 4, 1, 100.0, 10.0, 70.0, True, via=0)
    assert relayed.deadline(True, 150.0) == 170.0 and overdue([relayed], 169.9) is None
    v = deadline_verdict(relayed, True, 7)
    assert ks(v) == ("disputed", -1) and v.between == (0, 2)
    assert stop_verdict([relayed], 2, "bye", 3) is None and stop_verdict([relayed], 0, "bye", 3) is None


# =========================================================================== a whole match
def test_a_whole_match_of_a_game_defined_in_the_tests(sessions, tmp_path):
    host = sessions("host", "Alice", port=0, record=tmp_path / "h.json")
    join = sessions("join", "Bob", port=host.port, record=tmp_path / "j.json")
    for s in (host, join):
        wait_for(s, lambda e: isinstance(e, Started), "start")
    h, j = play_out(host, join)
    assert h.verdict.kind == j.verdict.kind == "finished"
    assert h.verdict.winners == j.verdict.winners
    rec = [host.view(lambda m: m.record()), join.view(lambda m: m.record())]
    assert rec[0] == rec[1] and rec[0]["result"]["kind"] == "finished"
    assert 10 <= rec[0]["pile"] <= 20 and sum(rec[0]["takes"]) == rec[0]["pile"]
    import json
    assert json.loads((tmp_path / "h.json").read_text())["takes"] == rec[0]["takes"]
    assert (tmp_path / "j.json.journal").stat().st_mode & 0o077 == 0


def test_a_joiner_killed_mid_match_resumes_from_its_journal(sessions, tmp_path):
    host = sessions("host", "Alice", port=0)
    join = sessions("join", "Bob", port=host.port, record=tmp_path / "j.json")
    wait_for(join, lambda e: isinstance(e, Started), "start")
    wait_for(host, lambda e: getattr(e, "code", "") == "dealt", "the deal")
    join._stopping = True  # the program dies: no bye, its thread just stops
    join._command("noop")
    join.join(LIMIT)
    again = sessions("join", "Bob", port=host.port, record=tmp_path / "j.json")
    e = wait_for(again, lambda e: isinstance(e, Started), "resume")
    assert e.resumed
    h, j = play_out(host, again)
    assert h.verdict.kind == j.verdict.kind == "finished" and h.verdict.winners == j.verdict.winners


# =========================================================================== Mallory
class Mallory:
    """A joiner whose every byte the test controls: its own lobby and Nim machine, a raw socket."""

    def __init__(self, port: int, name: str = "Mallory", ready: bool = True) -> None:
        self.ready = ready
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=LIMIT)
        self.link = Link(SCHEMAS, rates={"*": (1000, 1000)})
        self.lobby = JoinLobby(NIM.key, NIM.version, name)
        self.machine: NimMatch | None = None
        self.inbox: list[dict] = []
        for o in self.lobby.open(0.0):
            self.send(o.msg)

    def send(self, msg: dict) -> None:
        self.sock.sendall(encode_frame(msg, SCHEMAS))

    def read_until(self, pred, what: str) -> dict:
        end = time.monotonic() + LIMIT
        while time.monotonic() < end:
            for msg in list(self.inbox):
                self.inbox.remove(msg)
                if msg["t"] in ("hello", "lobby", "start"):
                    for o in self.lobby.receive(msg, 0.0):
                        if isinstance(o, LStarted):
                            self.machine = NimMatch(o.seat, o.table, __import__("os").urandom)
                        elif isinstance(o, LSend) and (self.ready or o.msg["t"] != "ready"):
                            self.send(o.msg)
                if pred(msg):
                    return msg
            self.sock.settimeout(0.2)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            self.inbox += self.link.feed(data, time.monotonic())
            if self.link.closed is not None and pred({"t": "error", "code": self.link.closed.code}):
                return {"t": "error", "code": self.link.closed.code}
            if not data:
                break
        raise AssertionError(f"Mallory: no {what}")


def seated_mallory(host: Session) -> Mallory:
    m = Mallory(host.port)
    m.read_until(lambda msg: msg["t"] == "start", "start")
    return m


def test_1a_a_drawer_that_saw_the_outcome_and_claims_a_forfeit_forfeits_itself(sessions):
    host = sessions("host", "Alice", port=0)
    m = seated_mallory(host)
    host_commit = m.read_until(lambda msg: msg["t"] == "commit", "host's commitment")
    m.send({"t": "commit", "for": -1, "c": m.machine.commit})
    reveal = m.read_until(lambda msg: msg["t"] == "reveal", "host's reveal")
    assert commitment(m.machine.table.game_id, -1, 0, reveal["s"]) == host_commit["c"]  # Mallory knows the outcome
    m.send({"t": "error", "code": "forfeit", "reason": "you withheld your reveal"})
    e = wait_for(host, lambda e: isinstance(e, Ended), "verdict")
    assert (e.verdict.kind, e.verdict.seat) == ("forfeit", 1)
    assert host.view(lambda m: m.record())["result"] == {"kind": "forfeit", "seat": 1, "winners": []}


@pytest.mark.parametrize("kind,seat", [("forfeit", 0), ("finished", -1), ("resigned", 0)])
def test_1b_a_false_claim_after_everything_was_acknowledged_is_the_claimants_fault(sessions, kind, seat):
    host = sessions("host", "Alice", port=0)
    m = seated_mallory(host)
    m.read_until(lambda msg: msg["t"] == "commit", "host's commitment")
    m.send({"t": "commit", "for": -1, "c": m.machine.commit})
    m.read_until(lambda msg: msg["t"] == "reveal", "host's reveal")
    m.send({"t": "reveal", "for": -1, "s": m.machine.secret})
    wait_for(host, lambda e: getattr(e, "code", "") == "dealt", "the deal")
    m.send({"t": "over", "kind": kind, "seat": seat, "ply": 0})
    e = wait_for(host, lambda e: isinstance(e, Ended), "verdict")
    assert (e.verdict.kind, e.verdict.seat) == ("illegal", 1)  # never the honest host's loss


@pytest.mark.parametrize("code", ["illegal", "desync", "bye"])
def test_2_a_stop_while_owing_a_reveal_is_the_senders_forfeit(sessions, code):
    host = sessions("host", "Alice", port=0)
    m = seated_mallory(host)
    m.read_until(lambda msg: msg["t"] == "commit", "host's commitment")
    m.send({"t": "commit", "for": -1, "c": m.machine.commit})
    m.read_until(lambda msg: msg["t"] == "reveal", "host's reveal")
    m.send({"t": "error", "code": code, "reason": "I do not like my card"})
    e = wait_for(host, lambda e: isinstance(e, Ended), "verdict")
    assert (e.verdict.kind, e.verdict.seat) == ("forfeit", 1)


@pytest.mark.parametrize("ready", [False, True])
def test_3_an_unconfirmed_hello_holds_no_seat(sessions, ready):
    """A stranger says hello (and even confirms the start), then leaves before committing
    to anything: nothing is bound, so the real player gets the seat at once."""
    host = sessions("host", "Alice", port=0)
    squatter = Mallory(host.port, "Squatter", ready=ready)
    squatter.read_until(lambda msg: msg["t"] == "start", "start")
    if ready:
        wait_for(host, lambda e: isinstance(e, Started), "the squatter's match")
    squatter.sock.close()
    join = sessions("join", "Bob", port=host.port)
    e = wait_for(join, lambda e: isinstance(e, Started), "start for the real player", timeout=LIMIT)
    assert e.table.names == ("Alice", "Bob")


def test_3_a_silent_squatter_is_cut_at_the_handshake_deadline(sessions):
    host = sessions("host", "Alice", port=0)
    host.lobby.handshake = 0.5
    squatter = Mallory(host.port, "Squatter", ready=False)
    msg = squatter.read_until(lambda msg: msg["t"] == "error", "the deadline's error")
    assert msg["code"] == "timeout"
    join = sessions("join", "Bob", port=host.port)
    assert wait_for(join, lambda e: isinstance(e, Started), "start").table.names == ("Alice", "Bob")


def test_4_a_trickled_hello_does_not_hold_a_joiner_past_the_handshake_deadline(sessions):
    """A host that sends its hello a byte at a time: the joiner closes at its handshake
    deadline (here 1 s; 5 s in play), because only whole messages count."""
    srv = socket.create_server(("127.0.0.1", 0))
    join = sessions("join", "Bob", port=srv.getsockname()[1])
    join.lobby.handshake = 1.0
    conn, _ = srv.accept()
    frame = encode_frame({"t": "ping"}, SCHEMAS) * 50
    conn.settimeout(0.2)
    t0, got = time.monotonic(), b""
    try:
        for i in range(len(frame)):
            conn.sendall(frame[i:i + 1])
            try:
                chunk = conn.recv(4096)
            except socket.timeout:
                continue
            got += chunk
            if not chunk or b"timeout" in got:
                break
    except OSError:
        pass  # reset by the joiner: closed too
    took = time.monotonic() - t0
    conn.close()
    srv.close()
    assert b"no handshake" in got and took < 4.0, (took, got[-80:])


@pytest.mark.parametrize("pv", [2, 3])
def test_an_older_peer_gets_a_clear_version_error_at_once(sessions, pv):
    """A version-2 hello (per game) and a version-3 hello (the layer before signing keys: no
    ``sk``) both get ``error{version}`` naming the side to update, not a schema error."""
    import msgpack

    from net import PROTOCOL_NAME
    from net.framing import HEADER
    host = sessions("host", "Alice", port=0)
    sock = socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT)
    if pv == 2:
        old = {"t": "hello", "proto": PROTOCOL_NAME, "pv": 2, "app": "0", "rec": 1, "name": "Old", "peer": b"p" * 16,
               "role": "join", "date": "", "nonce": b"n" * 16, "key": b"k" * 32, "game": b"", "ply": 0,
               "hash": b"", "over": False, "colour": ""}
    else:
        old = {"t": "hello", "proto": PROTOCOL_NAME, "pv": 3, "g": NIM.key, "gv": NIM.version, "app": "0",
               "name": "Old", "peer": b"p" * 16, "role": "join", "nonce": b"n" * 16, "key": b"k" * 32,
               "game": b"", "have": 0}
    payload = msgpack.packb(old, use_bin_type=True)
    sock.sendall(HEADER.pack(len(payload)) + payload)
    got = b""
    sock.settimeout(LIMIT)
    while b"needs a newer version" not in got:
        chunk = sock.recv(4096)
        if not chunk:
            break
        got += chunk
    assert b"version" in got and b"needs a newer version" in got
    assert LAN_VERSION == 4


def test_a_host_killed_mid_match_resumes_from_its_journal_and_the_joiner_rejoins(sessions, tmp_path):
    host = sessions("host", "Alice", port=0, record=tmp_path / "h.json")
    port = host.port
    join = sessions("join", "Bob", port=port, record=tmp_path / "j.json", host_grace=30.0)
    wait_for(join, lambda e: isinstance(e, Started), "start")
    wait_for(host, lambda e: getattr(e, "code", "") == "dealt", "the deal")
    host._stopping = True  # killed: no word to the joiner, its thread just stops
    host._command("noop")
    host.join(LIMIT)
    again = sessions("host", "Alice", port=port, record=tmp_path / "h.json")
    e = wait_for(again, lambda e: isinstance(e, Started), "the joiner back")
    assert e.resumed and e.table.names == ("Alice", "Bob")
    h, j = play_out(again, join)
    assert h.verdict.kind == j.verdict.kind == "finished" and h.verdict.winners == j.verdict.winners
    assert again.view(lambda m: m.record()) == join.view(lambda m: m.record())


def test_strangers_junk_and_wrong_proofs_are_refused_and_the_match_goes_on(sessions):
    host = sessions("host", "Alice", port=0)
    join = sessions("join", "Bob", port=host.port)
    for s in (host, join):
        wait_for(s, lambda e: isinstance(e, Started), "start")
    wait_for(host, lambda e: getattr(e, "code", "") == "dealt", "the deal")
    gid = host.view(lambda m: m.table.game_id)

    def refused_with(data: bytes) -> bytes:
        sock = socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT)
        sock.sendall(data)
        got = b""
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            got += chunk
        sock.close()
        return got
    assert b"frame" in refused_with(b"GET / HTTP/1.1\r\n\r\n")
    hello = {"t": "hello", "proto": "rose-king-lan", "pv": LAN_VERSION, "g": NIM.key, "gv": NIM.version,
             "app": "x", "name": "Eve", "peer": b"e" * 16, "role": "join", "nonce": b"n" * 16,
             "key": b"k" * 32, "game": b"", "have": 0, "sk": b""}
    assert b"the table is full" in refused_with(encode_frame(hello, SCHEMAS))
    got = refused_with(encode_frame({**hello, "g": "chess"}, SCHEMAS))
    assert b"plays nim-test" in got
    got = refused_with(encode_frame({**hello, "gv": NIM.version + 1}, SCHEMAS))
    assert b"needs a newer version" in got
    got = refused_with(encode_frame({**hello, "game": gid}, SCHEMAS) + encode_frame({"t": "auth", "proof": b"x" * 32},
                                                                                     SCHEMAS))
    assert b"wrong resume secret" in got
    got = refused_with(encode_frame({**hello, "game": gid}, SCHEMAS) + encode_frame({"t": "take", "ply": 1, "n": 1},
                                                                                     SCHEMAS))
    assert b"before the match" in got
    h, j = play_out(host, join)  # undisturbed
    assert h.verdict.kind == j.verdict.kind == "finished"


def test_rule_1_a_connected_joiner_withholding_its_reveal_forfeits_at_the_deadline(sessions, monkeypatch):
    from . import nim_game
    monkeypatch.setattr(nim_game, "REVEAL_S", 0.5)
    host = sessions("host", "Alice", port=0)
    m = seated_mallory(host)
    m.read_until(lambda msg: msg["t"] == "commit", "host's commitment")
    m.send({"t": "commit", "for": -1, "c": m.machine.commit})
    m.read_until(lambda msg: msg["t"] == "reveal", "host's reveal")  # and Mallory stays, silent but for pings
    e = wait_for(host, lambda e: isinstance(e, Ended), "the forfeit", timeout=LIMIT)
    assert (e.verdict.kind, e.verdict.seat) == ("forfeit", 1) and "withheld its reveal" in e.verdict.detail
    msg = m.read_until(lambda msg: msg["t"] == "over", "the verdict")
    assert (msg["kind"], msg["seat"]) == ("forfeit", 1)


def test_rule_1_a_connected_joiner_withholding_its_commitment_is_only_cut_off(sessions, monkeypatch):
    """Nothing was seen yet, so nothing is forfeited: the connection is closed (`withheld`)
    and the seat may come back."""
    from . import nim_game
    monkeypatch.setattr(nim_game, "COMMIT_S", 0.5)
    host = sessions("host", "Alice", port=0)
    host.lobby.handshake = 30.0
    m = Mallory(host.port)
    m.read_until(lambda msg: msg["t"] == "commit", "host's commitment")  # Mallory never commits
    msg = m.read_until(lambda msg: msg["t"] == "error", "the cut")
    assert msg["code"] == "withheld"
    assert host.verdict is None


def test_a_joiner_that_loses_its_host_for_the_grace_ends_the_match_naming_the_host(sessions):
    srv_host = sessions("host", "Alice", port=0)
    join = sessions("join", "Bob", port=srv_host.port, host_grace=0.5)
    wait_for(join, lambda e: isinstance(e, Started), "start")
    srv_host._stopping = True  # the host's program dies without a word
    srv_host._command("noop")
    srv_host.join(LIMIT)
    e = wait_for(join, lambda e: isinstance(e, Ended), "the verdict", timeout=LIMIT)
    assert (e.verdict.kind, e.verdict.seat) == ("left", 0)


def test_a_host_plays_against_a_computer_seat_it_runs_itself(sessions):
    """A computer seat (`kinds` "computer"): the host's machine supplies its coin part and the
    session's worker thread its takes; a table of the host and a computer starts at once."""
    from net.headless import play_match
    host = sessions("host", "Alice", port=0, kinds=("host", "computer"), computers={1: "perfect"})
    verdict = play_match(host, NIM.player("random", 3), timeout=LIMIT)
    rec = host.view(lambda m: m.record())
    assert verdict.kind == "finished" and rec["names"] == ["Alice", "Computer 1"]
    assert sum(rec["takes"]) == rec["pile"] and len(rec["takes"]) >= 4
    with pytest.raises(ValueError):
        sessions("host", "Bob", port=0, kinds=("host", "computer"))  # a computer seat needs its level


class Idle:
    """A match machine that binds nothing (always abortable): the lobby's rules alone."""

    def __init__(self, seat, table, token_bytes, payload=None):
        self.seat, self.table, self.over = seat, table, None

    def start(self, now): return []
    def receive(self, sender, msg, now): return []
    def act(self, action, now, seat=None): raise ValueError("nothing to play")
    def tick(self, now): return []
    def owed(self): return []
    def connected(self, seat, now): return []
    def disconnected(self, seat, now): return []
    def end(self, verdict, now): return []
    def abortable(self): return True
    def catch_up(self, seat, have, now): return []
    def received(self): return 0
    def check_verdict(self, verdict, sender): return verdict
    def waiting_for(self): return ()
    def payload(self): return {}
    def record(self): return {"names": list(self.table.names)}


def test_3_a_squatter_at_a_three_seat_table_frees_its_seat_and_the_others_join_again(sessions):
    from net.match import LanSpec
    trio = LanSpec(key="trio-test", version=1, seats=(3,), schemas={}, rates={},
                   new_match=lambda seat, table, tb: Idle(seat, table, tb),
                   from_payload=lambda seat, table, payload, tb: Idle(seat, table, tb))
    made = []

    def session(*args, **kw):
        s = Session(trio, *args, **kw)
        made.append(s)
        return s
    try:
        host = session("host", "Alice", port=0, kinds=("host", "person", "person"))
        ann = session("join", "Ann", port=host.port, reconnect_delay=0.05)
        wait_for(ann, lambda e: getattr(e, "rows", None) and len(e.rows) == 3, "a lobby seat")
        squatter = session("join", "Sly", port=host.port, reconnect_delay=0.05)
        wait_for(ann, lambda e: isinstance(e, Started), "the first start")
        squatter.close(1.0)  # leaves before anything was bound
        e = wait_for(ann, lambda e: isinstance(e, Dropped) and e.code == "reopen", "the call-off")
        assert e.by_peer
        bob = session("join", "Bob", port=host.port, reconnect_delay=0.05)
        e = wait_for(ann, lambda e: isinstance(e, Started), "the second start")
        assert sorted(e.table.names) == ["Alice", "Ann", "Bob"] and not e.resumed
        wait_for(bob, lambda e: isinstance(e, Started), "Bob's start")
    finally:
        for s in made:
            s.close(1.0)


def test_3_a_start_called_off_before_every_ready_sends_the_others_to_join_again():
    """Pure: the host's lobby with three seats; one joiner leaves between `start` and `ready`."""
    from net.lobby import HostLobby, LDrop, LSeated
    from net.lobby import hello as mk_hello
    lobby = HostLobby("trio-test", 1, "Alice", ("host", "person", "person"), token_bytes=__import__("os").urandom)
    for cid, name in ((1, "Ann"), (2, "Sly")):
        lobby.open(cid, 0.0)
        out = lobby.receive(cid, mk_hello("trio-test", 1, name, "join", bytes([cid]) * 16, bytes([cid + 8]) * 16,
                                          b"k" * 32), 0.0)
        assert any(isinstance(o, LSeated) for o in out)
    starts = lobby.start(0.1)
    assert [o.msg["t"] for o in starts] == ["start", "start"]
    out = lobby.closed(2, 0.2)  # Sly leaves before its ready
    assert [(o.cid, o.code) for o in out if isinstance(o, LDrop)] == [(1, "reopen")]
    assert lobby.seats == {} and not lobby.starting and lobby.memo is None
    lobby.open(3, 0.3)
    out = lobby.receive(3, mk_hello("trio-test", 1, "Bob", "join", b"b" * 16, b"c" * 16, b"k" * 32), 0.3)
    assert any(isinstance(o, LSeated) and o.seat == 1 for o in out)


def test_a_game_part_may_allow_longer_binaries_and_others_still_refuse_them():
    """A signed envelope of a shuffled deck is over 1 KiB: a part says its `max_bin`; the
    frame limit and every other game's 64 bytes stay."""
    from net.framing import FrameDecoder, FrameError, blob
    from net.lobby import schemas_for
    envelope = {"t": "env", "b": b"\x01" * 2000}
    big = schemas_for({"env": {"b": blob(1, 60000)}}, max_bin=60000)
    assert FrameDecoder(big).feed(encode_frame(envelope, big)) == [envelope]
    small = schemas_for({"env": {"b": blob(1, 60000)}})
    with pytest.raises(FrameError):
        FrameDecoder(small).feed(encode_frame(envelope, big))
    with pytest.raises(ValueError):
        schemas_for({}, max_bin=1 << 20)


def test_a_seat_whose_player_is_away_can_be_handed_to_the_computer_and_taken_back(sessions, tmp_path):
    """The joiner's program dies after the deal; the host hands its seat to the computer and
    plays on; restarted from its journal, the joiner takes its seat back, catches up on every
    take made for it (checked like any other) and ends with the host's record."""
    host = sessions("host", "Alice", port=0)
    join = sessions("join", "Bob", port=host.port, record=tmp_path / "j.json")
    wait_for(join, lambda e: isinstance(e, Started), "start")
    wait_for(host, lambda e: getattr(e, "code", "") == "dealt", "the deal")
    join._stopping = True  # killed
    join._command("noop")
    join.join(LIMIT)
    wait_for(host, lambda e: isinstance(e, Dropped) and e.seat == 1, "the drop")
    with pytest.raises(ValueError):
        host.hand_to_computer(0, "random")  # not a joiner's seat
    host.hand_to_computer(1, "random")
    played = []

    def host_player(stones: int) -> int:  # the host plays two takes, then lets the joiner come back
        played.append(stones)
        return 1
    end = time.monotonic() + LIMIT
    while len(played) < 2 and time.monotonic() < end and host.verdict is None:
        obs = host.view(lambda m: NIM.turn(m, 0))
        if obs is not None:
            host.act(host_player(obs))
        time.sleep(0.01)
    takes_meanwhile = host.view(lambda m: len(m.takes))
    assert takes_meanwhile >= 2
    again = sessions("join", "Bob", port=host.port, record=tmp_path / "j.json")
    e = wait_for(again, lambda e: isinstance(e, Started), "the seat back")
    assert e.resumed
    h, j = play_out(host, again)
    records = host.view(lambda m: m.record()), again.view(lambda m: m.record())
    assert h.verdict.kind == j.verdict.kind == "finished" and h.verdict.winners == j.verdict.winners, (records[0]["takes"], records[1]["takes"], h, j)
    assert records[0] == records[1]


def test_every_match_machine_says_whose_decision_it_waits_for():
    """The window's "thinking" indicator reads ``waiting_for``: the seat to decide, none while
    chance is settled or after the end (Nim, Rose King and Royals & Riots alike)."""
    import os

    from game.roseking.lan.match import RoseKingMatch
    from net.match import Table
    from .nim_game import NimMatch
    t = Table(bytes(16), ("Ann", "Bo"), "2026-11-28T00:00:00Z")
    for machine in (NimMatch(0, t, os.urandom), RoseKingMatch(0, t, os.urandom)):
        assert machine.waiting_for() == ()  # before the deal's coin is settled
    from .fair_table import Net
    net = Net(3, seed=1).start()
    seen = set()

    def check(n) -> None:
        views = [m.waiting_for() for m in n.machines.values()]
        st = n.machines[1].view.state
        if views[1]:
            assert views[1] == (st.to_act - 1,) and not st.is_chance()
            seen.add(views[1])
    net.run(limit=3000, each=check)
    assert len(seen) >= 2  # more than one seat was waited for
