"""Rose King over the one LAN layer on 127.0.0.1: a host that vanishes owing a step, a host
slow to commit, strangers at the host's address, and a socket the selector refuses. Each is played
against honest peers (tests/net/rk_wire.py: an honest headless joiner or host, and an evil host
or raw sockets whose every byte the test controls); every wait is bounded and driven by events
or by what arrives, never by sleeps. Long deadlines are shortened by the tests' parameters."""

from __future__ import annotations

import socket
import threading
import time

import pytest

import game.roseking.lan.match as rkm
from game.registry import game_by_key
from game.roseking.engine import DRAW, Move
from net.lobby import hello
from net.session import Dropped, Refused, Status

from .rk_wire import LIMIT, EvilHost, Host, Mallory, frame

check = game_by_key("rose-king").check


def draw_first(state) -> Move:
    """A draw whenever one is legal, else the first legal move."""
    moves = state.legal_moves()
    return next((m for m in moves if m.kind is DRAW), moves[0])


@pytest.fixture
def closing():
    """``add(x)``: closed at the end of the test (evil hosts, Mallories, sessions)."""
    made: list = []
    yield made.append
    for x in reversed(made):
        x.close()


def started(h) -> bool:
    return h.machine is not None and h.machine.state is not None


def resign(h: EvilHost) -> None:
    """The evil host, honest again, resigns at its turn (a short way to the end of a match)."""
    if h.machine.over is None:
        h.out(h.machine.act(rkm.RESIGN, time.monotonic()))
        h.send({"t": "over", "kind": "resigned", "seat": 0, "ply": h.machine.ply})


# =========================================================================== a host that vanishes owing a step
def test_a_host_that_vanishes_owing_its_reveal_forfeits_at_the_total_deadline(tmp_path, closing, monkeypatch):
    """The host draws, gets the joiner's commitment and reveal (it knows its card), drops and
    stays away. The joiner does not give up after ``host_grace`` (``left``, no winner): it keeps
    reconnecting while the host owes it that reveal, and at the reveal's total deadline (60 s;
    1.5 s here) records the host's forfeit, as the host records a joiner that vanishes owing
    its reveal (test_rk_attacks_loopback's test_33_4 and test_2_dropping_...)."""
    monkeypatch.setattr(rkm, "FORFEIT_S", 1.5)
    h = EvilHost()
    closing(h)
    bob = Host(tmp_path, role="join", port=h.port, host_grace=0.2)
    closing(bob)
    h.accept()
    ply = h.draw_and_see_the_card()
    revealed_at = bob.view(lambda m: m.coins[ply].revealed_at)
    h.leave()
    gone = time.monotonic()
    with socket.create_server(("127.0.0.1", h.port)) as server:  # well after host_grace: still knocking
        server.settimeout(LIMIT)
        while True:
            sock, _ = server.accept()
            sock.close()
            if time.monotonic() - gone > 3 * 0.2:
                break
    assert bob.session.verdict is None
    v = bob.verdict()
    assert time.monotonic() >= revealed_at + 1.5
    assert (v.kind, v.seat, v.winners) == ("forfeit", 0, (1,)) and "withheld its reveal" in v.detail
    rec = bob.file()
    assert rec["termination"] == {"kind": "forfeit", "loser": str(h.machine.color_of(0))}
    assert rec["lan"]["forfeit"] == str(h.machine.color_of(0)) and "stopped" not in rec["lan"]
    assert len(rec["moves"]) == ply and check(rec).startswith("ok finished")
    assert bob.result.kind == "forfeit"


def test_a_host_that_vanishes_owing_nothing_still_leaves_after_host_grace(tmp_path, closing):
    """The control: mid-game, nothing owed by the host: the joiner ends the match ``left`` (the
    host at fault) once ``host_grace`` passed."""
    h = EvilHost()
    closing(h)
    bob = Host(tmp_path, role="join", port=h.port, host_grace=0.3)
    closing(bob)
    h.accept()
    h.until(lambda: started(h) and h.machine.ply >= 2 and h.my_turn() and h.machine.open_coin() is None,
            "two plies")
    h.leave()
    v = bob.verdict()
    assert (v.kind, v.seat) == ("left", 0) and bob.file()["lan"]["stopped"] == "left"


# =========================================================================== a seat that never decides
def test_a_host_that_never_decides_on_its_turn_is_cut_off_and_then_has_left(tmp_path, closing, monkeypatch):
    """The host stays connected but never plays on its turn. The joiner waits the decision's
    deadline (10 minutes; 0.8 s here) on its own clock, cuts the host off (``withheld``: a
    decision forfeits nothing) and, the host still away, records it ``left`` -- never its own
    fault, never a forfeit."""
    monkeypatch.setattr(rkm, "DECIDE_S", 0.8)
    h = EvilHost()
    closing(h)
    bob = Host(tmp_path, role="join", port=h.port, host_grace=30.0)
    closing(bob)
    h.accept()
    h.until(lambda: started(h) and h.my_turn() and h.machine.open_coin() is None, "the host's turn")
    since = time.monotonic()
    v = bob.verdict()
    assert time.monotonic() - since >= 0.8 * 0.9
    assert (v.kind, v.seat) == ("left", 0) and "act" in v.detail
    assert any(isinstance(e, Dropped) and e.code == "withheld" and not e.by_peer for e in bob.events)
    assert bob.file()["lan"]["stopped"] == "left"


def test_the_decision_owed_is_the_other_seats_on_its_turn_only():
    """In memory: the seat to move owes its decision to the other from the tick its turn came
    (a draw's coin has its own steps); the seat itself owes nothing to itself."""
    from net.match import overdue
    from .rk_wire import Pair
    pair = Pair()
    pair.deliver()
    mover = next(s for s in (0, 1) if pair.m[s].to_move() == s)
    waiting = pair.m[1 - mover]
    waiting.tick(100.0)
    acts = [o for o in waiting.owed() if o.step == "act"]
    assert [(o.seat, o.to, o.ref, o.since, o.forfeits) for o in acts] == [(mover, 1 - mover, waiting.ply, 100.0, False)]
    pair.m[mover].tick(100.0)
    assert not [o for o in pair.m[mover].owed() if o.step == "act"]
    waiting.tick(150.0)  # the same turn: the clock does not restart
    assert overdue(waiting.owed(), 100.0 + rkm.DECIDE_S - 1) is None
    assert overdue(waiting.owed(), 100.0 + rkm.DECIDE_S).step == "act"


# =========================================================================== a host slow to commit
def test_after_withheld_a_resume_whose_catch_up_carries_the_commitment_plays_on(tmp_path, closing, monkeypatch):
    """The joiner draws; the host keeps its commitment back past the commitment's deadline (6 s;
    0.5 s here): the joiner cuts the connection (``withheld``, nothing forfeited). Its next
    connection is not cut again while its handshake is under way: the host proves the match, its
    catch-up carries the commitment and reveal, the draw is made and the game goes on to its end,
    the records equal."""
    monkeypatch.setattr(rkm, "COMMIT_S", 0.5)
    h = EvilHost()
    closing(h)
    bob = Host(tmp_path, role="join", port=h.port, player=draw_first)
    closing(bob)
    h.accept()
    h.until(lambda: started(h), "the deal", play=False)
    bobs = lambda: h.machine.state.turn == h.machine.color_of(1)  # noqa: E731
    h.hold_if = lambda msg: msg["t"] in ("commit", "reveal") and msg["for"] >= 0 and bobs()
    h.until(lambda: any(m.get("t") == "commit" for m in h.held), "Bob's draw, its answer held")
    ply = h.held[0]["for"]
    assert h.closed_with("the cut")[0] == "withheld"
    bob.wait(lambda e: isinstance(e, Dropped) and e.code == "withheld" and not e.by_peer, "the cut")
    h.hold_if = None
    h.accept_again()
    h.until(lambda: h.resumed, "the resume", play=False)
    h.until(lambda: h.machine.ply >= ply + 3 and h.my_turn() or h.machine.over is not None, "the game going on")
    resign(h)
    v = bob.verdict()
    assert v.kind in ("finished", "resigned") and bob.view(lambda m: m.ply) >= ply + 3
    assert bob.file() == h.machine.record() and check(bob.file()).startswith("ok finished")
    cuts = [e for e in bob.events if isinstance(e, Dropped) and e.code == "withheld"]
    assert len(cuts) == 1  # the resumed connection was never cut


# =========================================================================== strangers at the host's address
def stranger(port: int, gid: bytes, answer: str) -> threading.Thread:
    """A process at the host's address (the host is away): it answers the joiner's next
    connection with a host hello naming the match and then ``answer``: a forged seat proof, an
    ``error{seat}``, an ``error{forfeit}``, a verdict, a match message; then it closes."""
    server = socket.create_server(("127.0.0.1", port))
    server.settimeout(LIMIT)

    def run() -> None:
        try:
            sock, _ = server.accept()
        finally:
            server.close()
        with sock:
            sock.settimeout(LIMIT)
            sock.sendall(frame(hello(rkm.KEY, rkm.VERSION, "Alice", "host", b"\x11" * 16, b"\x22" * 16,
                                     b"\x33" * 32, gid)))
            msgs = {"auth": {"t": "auth", "proof": b"\x44" * 32},
                    "error-seat": {"t": "error", "code": "seat", "reason": "wrong resume secret"},
                    "error-forfeit": {"t": "error", "code": "forfeit", "reason": "you withheld your reveal"},
                    "over": {"t": "over", "kind": "forfeit", "seat": 1, "ply": 0},
                    "reopen": {"t": "error", "code": "reopen", "reason": "called off"},
                    "move": {"t": "ack", "ply": 0, "hash": b"\x00" * 32}}
            sock.sendall(frame(msgs[answer]))
            try:
                while sock.recv(65536):
                    pass
            except OSError:
                pass
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize("answer", ["auth", "error-seat", "error-forfeit", "over", "reopen", "move"])
def test_a_stranger_at_the_hosts_address_costs_the_paused_joiner_only_that_connection(tmp_path, closing, answer):
    """The host drops; a stranger (or a stale process) at its address answers the joiner with
    the match id and a forged seat proof, a fatal code, a verdict, a call-off or a match message
    before any proof: that connection alone is refused, the joiner keeps trying (nothing of the
    match is lost or forgotten), and when the real host is back the match resumes and ends."""
    h = EvilHost()
    closing(h)
    bob = Host(tmp_path, role="join", port=h.port, host_grace=LIMIT)
    closing(bob)
    h.accept()
    h.until(lambda: started(h) and h.machine.ply >= 3 and h.my_turn() and h.machine.open_coin() is None,
            "three plies")
    n = h.machine.ply
    h.leave()
    bob.wait(lambda e: isinstance(e, Dropped) and e.code == "eof", "the drop")
    t = stranger(h.port, h.machine.table.game_id, answer)
    t.join(LIMIT)
    assert not t.is_alive()
    drop = bob.wait(lambda e: isinstance(e, Dropped) and e.code != "eof", "the stranger refused")
    assert not drop.fatal and bob.session.verdict is None
    assert bob.view(lambda m: (m.ply, m.table.game_id)) == (n, h.machine.table.game_id)
    h.accept_again(listen=True)
    h.until(lambda: h.resumed, "the resume", play=False)
    h.until(lambda: h.machine.ply >= n + 2 and h.my_turn() or h.machine.over is not None, "the game going on")
    resign(h)
    v = bob.verdict()
    assert v.kind in ("finished", "resigned") and bob.file() == h.machine.record()
    assert not any(isinstance(e, Status) and e.code == "failed" for e in bob.events)


def test_a_stranger_at_the_hosts_address_and_no_host_ends_the_match_left_after_host_grace(tmp_path, closing):
    h = EvilHost()
    closing(h)
    bob = Host(tmp_path, role="join", port=h.port, host_grace=1.0)
    closing(bob)
    h.accept()
    h.until(lambda: started(h) and h.machine.ply >= 2 and h.my_turn() and h.machine.open_coin() is None,
            "two plies")
    h.leave()
    stranger(h.port, h.machine.table.game_id, "auth").join(LIMIT)
    v = bob.verdict()
    assert (v.kind, v.seat) == ("left", 0)
    assert not any(isinstance(e, Status) and e.code == "failed" for e in bob.events)


# =========================================================================== a socket the selector refuses
def test_a_closed_connection_the_selector_refuses_to_watch_is_closed_and_the_session_lives_on(tmp_path, closing,
                                                                                               monkeypatch):
    import net.connections as nc
    h = Host(tmp_path)
    closing(h)
    sel = h.session.conns.sel
    real = sel.register

    def register(fileobj, events, data=None):
        if data is nc._LINGER:
            raise ValueError("this selector watches no more")
        return real(fileobj, events, data)
    monkeypatch.setattr(sel, "register", register)
    with socket.create_connection(("127.0.0.1", h.port), timeout=LIMIT) as s:
        s.sendall(b"GET / HTTP/1.1\r\n\r\n")
        got = b""
        while chunk := s.recv(65536):  # the host's words, then the close (never a hang)
            got += chunk
    assert b"frame" in got
    h.wait(lambda e: isinstance(e, Refused) and e.code == "frame", "the refusal")
    assert h.session.running and not h.session.conns.lingering
    m = Mallory(h.port)
    closing(m)
    m.until(lambda: started(m), "a game")
