"""Issue 33, attacks 1 and 2 on Rose King over 127.0.0.1: a forfeit is judged from who owes
a reveal, never from who says so (docs/protocol.md, "The forfeit rule"). Mallory (a joiner
driving its own protocol object through a raw socket) against an honest headless host."""

import time

import pytest

from game.commands.check import check_file
from game.roseking.engine import DRAW, Move, Record
from net.framing import encode_frame
from net.roseking import Acked, GameOver

from .test_attacks_loopback import LIMIT, Host, Mallory


@pytest.fixture
def host(tmp_path):
    h = Host(tmp_path)
    yield h
    h.close()


def draw_and_see_the_card(m: Mallory) -> int:
    """Mallory starts a draw, gets the host's commitment and reveal (so it knows its card) and
    keeps its own reveal. Returns the ply before the draw."""
    m.until(lambda: m.can_draw(), "a turn where it can draw")
    ply = m.conn.game.state.ply
    m.auto = False
    m.events += m.conn.play(Move(m.conn.color, DRAW, None))
    m.raw(m.conn.data_to_send())  # our commitment only
    m.until(lambda: m.conn.game.state.ply == ply + 1, "the honest reveal", play=False)
    return ply


def wait_record(host: Host, key: str) -> Record:
    end = time.monotonic() + LIMIT
    while time.monotonic() < end and key not in host.record.read_text():
        time.sleep(0.02)
    return Record.load(host.record)


@pytest.mark.parametrize("code", ["forfeit", "illegal", "desync", "bye"])
def test_1a_2_a_drawer_that_knows_its_card_and_stops_forfeits_whatever_it_says(host, code):
    """1a: `error{forfeit}` instead of its reveal; 2: `error{illegal|desync}` or `bye`: each is a
    stop while it owes its reveal, so it is the drawer's forfeit in the honest host's record."""
    m = Mallory(host.session.port)
    ply = draw_and_see_the_card(m)
    m.raw(encode_frame({"t": "error", "code": code, "reason": "you withheld your reveal"}))
    over = host.wait(lambda e: isinstance(e, GameOver), "the verdict")
    assert over.kind == "forfeit" and over.winner == host.session.color, over
    rec = wait_record(host, "termination")
    assert rec.termination == {"kind": "forfeit", "loser": str(m.conn.color)} and len(rec.moves) == ply
    ok, line = check_file(str(host.record))
    assert ok and "termination=forfeit" in line
    m.close()


def test_1b_a_forfeit_claim_about_an_acknowledged_draw_is_false_and_takes_nothing_back(host):
    """The host drew; Mallory acknowledged that draw, then claims the host withheld its
    reveal: the draw stays, the host is not recorded as the loser, the claim stops the game."""
    m = Mallory(host.session.port)

    def host_drew() -> bool:
        g = m.conn.game
        return (g is not None and g.state.ply > 0 and g.state.move_stack[-1].kind is DRAW
                and g.state.move_stack[-1].player != m.conn.color)
    m.until(host_drew, "a draw of the host's", timeout=LIMIT)
    n = m.conn.game.state.ply
    host.wait(lambda e: isinstance(e, Acked) and e.ply >= n, "Mallory's ack of the draw")
    m.raw(encode_frame({"t": "error", "code": "forfeit", "reason": "you withheld your reveal"}))
    over = host.wait(lambda e: isinstance(e, GameOver), "the verdict")
    assert over.kind == "illegal" and "owed it no reveal" in over.reason
    assert host.session.game.forfeited is None and host.session.state.ply >= n
    assert host.session.state.move_stack[n - 1].kind is DRAW
    m.close()


class NoAcks(Mallory):
    """Mallory that never sends an `ack` (it drops them from its output)."""

    withheld = "ack"

    def raw(self, data: bytes) -> None:
        from net.framing import FrameDecoder
        kept = b"".join(encode_frame(m) for m in FrameDecoder().feed(data) if m["t"] != self.withheld) if data else b""
        super().raw(kept)


class NoReveals(NoAcks):
    withheld = "reveal"


def test_4_a_peer_withholding_acks_then_resigning_lets_the_headless_host_finish_at_once(host):
    m = NoAcks(host.session.port)
    m.until(lambda: m.conn.game is not None and m.conn.game.state.ply >= 6, "six plies")
    m.until(lambda: m.conn.game.state.turn == m.conn.color and not m.conn.coin_pending, "its turn", play=False)
    m.events += m.conn.resign()
    m.raw(m.conn.data_to_send())
    host.thread.join(LIMIT / 2)  # the honest host has everything it needs: it must not wait for acks
    assert not host.thread.is_alive() and host.result == "ok", host.result
    rec = wait_record(host, "termination")
    assert rec.termination == {"kind": "resigned", "loser": str(m.conn.color)}
    m.close()


def test_4_a_game_stopped_on_an_illegal_move_stays_stopped_after_a_restart(tmp_path):
    """The record keeps `"stopped"`; rebuilt from it the game is over, and `--record` does not
    resume it (load_seat gives no seat to resume)."""
    from net.journal import file_sink
    from net.roseking import LanGame
    from net.transport import load_seat, seat_path
    from .helpers import mid_game
    p = mid_game(5)
    cheat, honest = p.sides()
    some = next(x for x in honest.game.state.legal_moves() if x.kind is not DRAW)
    bad = Move(honest.color, some.kind, some.card)  # a move put in the honest side's mouth
    events = honest.receive_data(encode_frame({"t": "move", "ply": honest.game.state.ply + 1, "m": str(bad),
                                               "hash": b"\x00" * 32}))
    assert any(isinstance(e, GameOver) and e.kind == "illegal" for e in events)
    path = tmp_path / "h.json"
    path.write_text(honest.game.record().to_json())
    rec = Record.load(path)
    assert rec.extra["lan"]["stopped"] == "illegal"
    again = LanGame.from_record(rec)
    assert again.over and again.aborted is not None
    j = honest.journal
    file_sink(seat_path(path))(j)
    assert load_seat(path) is None  # over: nothing to resume
    ok, line = check_file(str(path))
    assert ok and "in-progress" in line


def test_4_a_host_trickling_its_hello_holds_a_joiner_no_longer_than_the_handshake_deadline(monkeypatch):
    """`rose-king join` reads the host's hello first (probe_host): the whole hello must come
    within the handshake deadline (5 s; 1 s here), however the bytes trickle."""
    import socket
    import threading
    import net.limits
    from net.session import probe_host
    monkeypatch.setattr(net.limits, "HANDSHAKE_TIMEOUT", 1.0)
    srv = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()

    def trickle():
        conn, _ = srv.accept()
        frame = encode_frame({"t": "ping"}) * 100
        for i in range(len(frame)):
            if done.wait(0.1):
                break
            try:
                conn.sendall(frame[i:i + 1])
            except OSError:
                break
        conn.close()
    t = threading.Thread(target=trickle, daemon=True)
    t.start()
    t0 = time.monotonic()
    with pytest.raises(OSError):
        probe_host("127.0.0.1", srv.getsockname()[1], timeout=3.0)
    took = time.monotonic() - t0
    done.set()
    t.join(LIMIT)
    srv.close()
    assert took < 2.8, took


def test_4_a_joiner_that_saw_the_set_up_and_stays_away_frees_the_seat(tmp_path):
    """Mallory commits to the set-up coin, gets the host's reveal (so it knows colours and deal)
    and leaves without revealing: after the forfeit timeout (60 s; 1 s here) the host takes the
    next player instead of refusing everyone with "this seat is taken"."""
    from net.roseking import GameStarted
    from net.transport import LanSession, Refused
    h = Host(tmp_path, forfeit_timeout=1.0)
    try:
        m = NoReveals(h.session.port)
        m.until(lambda: m.conn.game is not None, "the host's reveal", play=False)  # Mallory knows the deal
        m.close()
        h.wait(lambda e: isinstance(e, Refused) and e.code == "forfeit", "the seat freed", timeout=LIMIT / 3)
        bob = LanSession.join("Bob", "127.0.0.1", h.session.port, journal=tmp_path / "bob.json")
        try:
            end = time.monotonic() + LIMIT
            while not any(isinstance(e, GameStarted) for e in bob.wait(0.1)):
                assert time.monotonic() < end, bob.status_text
        finally:
            bob.close()
    finally:
        h.close()


def test_3_a_stranger_that_says_hello_and_leaves_without_committing_holds_no_seat(tmp_path):
    """One hello, then gone before committing to the set-up coin: the real player is seated at
    once, not refused with "this seat is taken"."""
    import socket
    from net.roseking import Connection, GameStarted, Role
    from net.transport import LanSession
    host = LanSession.host("Alice", port=0, journal=tmp_path / "h.json")
    try:
        sock = socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT)
        sock.sendall(Connection(Role.JOIN, "Squatter").data_to_send())  # its hello only
        end = time.monotonic() + LIMIT
        while host.status != "handshake" and not any(getattr(e, "status", "") == "playing" for e in host.wait(0.05)):
            assert time.monotonic() < end
            if host.peer_name == "Squatter":
                break
        sock.close()
        bob = LanSession.join("Bob", "127.0.0.1", host.port, journal=tmp_path / "bob.json")
        try:
            end = time.monotonic() + LIMIT
            while True:
                events = bob.wait(0.1)
                if any(isinstance(e, GameStarted) for e in events):
                    break
                assert bob.status != "failed", bob.status_text
                assert time.monotonic() < end, bob.status_text
        finally:
            bob.close()
        assert host.peer_name == "Bob"
    finally:
        host.close()


def test_4_a_victim_of_an_illegal_claim_never_exits_as_played_to_its_end(host):
    """Mallory stops the game with `error{illegal}` while it owes nothing: the game is stopped,
    and the honest headless host reports a failure (exit status 1), never "played to its end"."""
    m = Mallory(host.session.port)
    m.until(lambda: m.conn.game is not None and m.conn.game.state.ply >= 3
            and m.conn.game.state.turn == m.conn.color and not m.conn.coin_pending, "its turn")
    m.raw(encode_frame({"t": "error", "code": "illegal", "reason": "your last move broke a rule"}))
    host.thread.join(LIMIT)
    assert host.result is not None and host.result != "ok", host.result
    rec = wait_record(host, '"stopped"')
    assert rec.extra["lan"]["stopped"] == "illegal"
    m.close()
