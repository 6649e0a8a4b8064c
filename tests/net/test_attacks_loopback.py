"""Issue 14 over real sockets on 127.0.0.1: a hostile peer ("Mallory", a modified client
driving its own protocol object through a raw socket so it can send any bytes, lie, replay
or withhold) against an honest LanSession host whose computer player plays in a thread.
One attack per class; every wait is bounded and driven by events, never by sleeps."""

import select
import socket
import threading
import time

import pytest

import net.roseking as roseking
from game.commands.check import check_file
from game.roseking.ai import make_player
from game.roseking.engine import DRAW, Move, Record
from net.framing import encode_frame
from net.headless import HeadlessError, play_headless
from net.journal import Journal
from net.roseking import Closed, Connection, GameOver, GameStarted, Role
from net.transport import LanSession, Refused

LIMIT = 30.0


class Host:
    """An honest headless host: its computer player plays in a thread; every event it sees
    is kept, and ``wait(pred)`` blocks (bounded) until one matches."""

    def __init__(self, tmp_path, **kw) -> None:
        self.record = tmp_path / "host.json"
        self.session = LanSession.host("Alice", port=0, journal=self.record, **kw)
        self.events: list = []
        self._cv = threading.Condition()
        self.result: str | None = None
        self.thread = threading.Thread(target=self._play, daemon=True)
        self.thread.start()

    def _on_event(self, e) -> None:
        with self._cv:
            self.events.append(e)
            self._cv.notify_all()

    def _play(self) -> None:
        try:
            play_headless(self.session, make_player("random", 3), timeout=LIMIT, on_event=self._on_event)
            self.result = "ok"
        except HeadlessError as e:
            self.result = str(e)
        with self._cv:
            self._cv.notify_all()

    def wait(self, pred, what: str, timeout: float = LIMIT):
        end = time.monotonic() + timeout
        with self._cv:
            while True:
                found = next((e for e in self.events if pred(e)), None)
                if found is not None:
                    return found
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"host: no {what} within {timeout} s; status {self.session.status}")
                self._cv.wait(min(left, 0.2))

    def close(self) -> None:
        self.session.close()
        self.thread.join(LIMIT)


class Mallory:
    """A joiner whose bytes the test controls: by default it plays honestly through its own
    protocol object; ``auto=False`` stops it answering (to withhold), ``raw()`` sends anything."""

    def __init__(self, port: int, journal: Journal | None = None, name: str = "Mallory", hello: bool = True) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=LIMIT)
        self.journal = journal if journal is not None else Journal()
        self.conn = Connection(Role.JOIN, name, journal=self.journal)
        self.events: list = []
        self.auto = True
        self.eof = False
        if hello:
            self.raw(self.conn.data_to_send())

    def raw(self, data: bytes) -> None:
        if data:
            self.sock.sendall(data)

    def pump(self, timeout: float = 0.05) -> None:
        r, _, _ = select.select([self.sock], [], [], timeout)
        if not r:
            return
        try:
            data = self.sock.recv(65536)
        except OSError:
            data = b""
        self.eof = not data
        self.events += self.conn.receive_data(data)
        out = self.conn.data_to_send()
        if self.auto:
            self.raw(out)

    def until(self, cond, what: str, play: bool = True, timeout: float = LIMIT) -> None:
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise AssertionError(f"mallory: no {what} within {timeout} s")
            if self.eof:
                raise AssertionError(f"mallory: the connection closed before {what}: {self.events[-3:]}")
            self.pump()
            if cond():
                return
            g = self.conn.game
            if (play and self.auto and g is not None and not g.over and not self.conn.coin_pending
                    and self.conn.phase.value == "playing" and g.state.turn == self.conn.color):
                moves = [m for m in g.state.legal_moves() if m.kind is not DRAW]
                if moves:
                    self.events += self.conn.play(moves[0])
                else:
                    self.events += self.conn.play(Move(self.conn.color, DRAW, None))
                self.raw(self.conn.data_to_send())

    def can_draw(self) -> bool:
        g = self.conn.game
        return (g is not None and g.state.turn == self.conn.color and not self.conn.coin_pending
                and Move(self.conn.color, DRAW, None) in g.state.legal_moves())

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def host(tmp_path):
    h = Host(tmp_path, forfeit_timeout=1.0)
    yield h
    h.close()


def started(mallory: Mallory) -> bool:
    return any(isinstance(e, GameStarted) for e in mallory.events)


# --------------------------------------------------------------------------- 1. coins
def test_1_loopback_a_draw_card_announced_by_one_side_is_refused(host):
    m = Mallory(host.session.port)
    m.until(lambda: m.can_draw(), "a turn where it can draw")
    g = m.conn.game
    ply = g.state.ply
    best = g.state.chance_outcomes()[-1]
    state = g.state.copy()
    state.push(Move(m.conn.color, DRAW, best))
    m.raw(encode_frame({"t": "draw", "ply": ply + 1, "m": str(Move(m.conn.color, DRAW, best)),
                        "hash": bytes.fromhex(state.state_hash()), "s": [b"\x01" * 32, b"\x02" * 32]}))
    over = host.wait(lambda e: isinstance(e, GameOver), "game over")
    assert over.kind == "illegal" and "only from a coin" in over.reason
    assert host.session.state.ply == ply  # the card was not taken on


# --------------------------------------------------------------------------- 2. re-rolls, withheld reveal
def test_2_loopback_withholding_the_reveal_and_dropping_forfeits_and_the_record_says_so(host, tmp_path):
    m = Mallory(host.session.port)
    m.until(lambda: m.can_draw(), "a turn where it can draw")
    ply = m.conn.game.state.ply
    m.auto = False
    m.events += m.conn.play(Move(m.conn.color, DRAW, None))
    m.raw(m.conn.data_to_send())  # our commitment only
    m.until(lambda: m.conn.game.state.ply == ply + 1, "the honest reveal", play=False)  # Mallory knows the card
    m.close()  # ... does not like it, and drops the connection instead of revealing
    over = host.wait(lambda e: isinstance(e, GameOver), "the forfeit")
    assert over.kind == "forfeit" and over.winner == host.session.color
    end = time.monotonic() + LIMIT
    while time.monotonic() < end and "termination" not in host.record.read_text():
        host.wait(lambda e: isinstance(e, Closed) or isinstance(e, GameOver), "write", timeout=0.2)
    rec = Record.load(host.record)
    assert rec.termination == {"kind": "forfeit", "loser": str(m.conn.color)} and len(rec.moves) == ply
    ok, line = check_file(str(host.record))
    assert ok and "ok finished" in line and "termination=forfeit" in line
    # coming back with a fresh commitment changes nothing: the game is over, by forfeit
    again = Mallory(host.session.port, journal=m.journal)
    again.until(lambda: any(isinstance(e, Closed) for e in again.events), "the verdict", play=False)
    assert next(e for e in again.events if isinstance(e, Closed)).code == "forfeit"


# --------------------------------------------------------------------------- 3. catch-up
def test_3_loopback_catch_up_with_a_move_the_host_never_made_is_refused(host):
    m = Mallory(host.session.port)
    m.until(lambda: m.conn.game is not None and m.conn.game.state.ply >= 4
            and m.conn.game.state.turn != m.conn.color, "four plies")
    m.close()
    host.wait(lambda e: isinstance(e, Closed), "the drop")
    g = m.journal.game
    ply = g.state.ply
    # a move in the host's colour; where the host may only draw (how far the game got depends on
    # timing), a draw with a card the host never drew
    legal = g.state.legal_moves()
    fake = next((x for x in legal if x.kind is not DRAW), None)
    if fake is None:
        fake = legal[0].with_outcome(g.state.chance_outcomes()[0])
    g.push(fake)
    back = Mallory(host.session.port, journal=m.journal)
    back.until(lambda: any(isinstance(e, Closed) for e in back.events), "the refusal", play=False)
    assert next(e for e in back.events if isinstance(e, Closed)).code == "illegal"
    over = host.wait(lambda e: isinstance(e, GameOver), "the refusal")
    # a made-up placement is a move the host never made; a made-up draw is refused one step
    # earlier, since no draw exists without a coin both sides took part in
    why = "a coin both sides took part in" if fake.kind is DRAW else "that we did not make"
    assert over.kind == "illegal" and why in over.reason, over.reason
    assert host.session.state.ply == ply
    back.close()


# --------------------------------------------------------------------------- the end of a game
class ByeAtOnce(Mallory):
    """A joiner that, the moment the host's move ends the game, sends its ``ack`` of that
    move and its goodbye in one ``sendall``, so the host reads both in one batch."""

    def pump(self, timeout: float = 0.05) -> None:
        r, _, _ = select.select([self.sock], [], [], timeout)
        if not r:
            return
        data = self.sock.recv(65536)
        self.eof = not data
        self.events += self.conn.receive_data(data)
        out = self.conn.data_to_send()
        g = self.conn.game
        if g is not None and g.over and not any(isinstance(e, Closed) for e in self.events):
            self.events += self.conn.close("good game")
            out += self.conn.data_to_send()
        self.raw(out)


def test_the_last_ack_and_the_goodbye_in_one_read_end_the_hosts_game(tmp_path):
    """The host's move ends the game; the joiner's ack of it and its goodbye arrive together.
    The host must count the ack (its record is complete on both sides) and finish at once; it
    once dropped the connection first, lost the ack and waited out its whole timeout."""
    for attempt in range(16):  # until a game ends on the host's move (about every other game)
        h = Host(tmp_path / str(attempt))
        try:
            m = ByeAtOnce(h.session.port)
            m.until(lambda: m.conn.game is not None and m.conn.game.over, "the end of the game")
            last = m.conn.game.state.move_stack[-1]
            h.thread.join(LIMIT / 3)
            assert h.result == "ok", (h.result, h.session.status)
            m.close()
            if last.player != m.conn.color:
                assert h.session.acked_all() and h.session.status == "over"
                return
        finally:
            h.close()
    pytest.fail("no game of 16 ended on the host's move")


# --------------------------------------------------------------------------- 4 + 5. strangers, seats, sync
def test_5_loopback_strangers_are_refused_and_the_players_finish_undisturbed(tmp_path):
    host = LanSession.host("Alice", port=0, journal=tmp_path / "h.json")
    join = LanSession.join("Bob", "127.0.0.1", host.port, journal=tmp_path / "j.json")
    results = {}

    def run(session, key):
        try:
            play_headless(session, make_player("random", 5), timeout=LIMIT, delay=0.002)
            results[key] = "ok"
        except HeadlessError as e:  # pragma: no cover
            results[key] = str(e)
    threads = [threading.Thread(target=run, args=(s, k)) for s, k in ((host, "host"), (join, "join"))]
    for t in threads:
        t.start()
    try:
        end = time.monotonic() + LIMIT
        while (host.game is None or host.game.state.ply < 2) and time.monotonic() < end:
            time.sleep(0.01)
        game_id = host.game.game_id
        refusals = []
        # a stranger who knows the game id asks for a copy (no resume secret)
        eve = Mallory(host.port, journal=Journal(game_id=game_id, seat=1, key=b"\x01" * 32, peer_key=b"\x02" * 32),
                      name="Eve")
        eve.until(lambda: any(isinstance(e, Closed) for e in eve.events), "refusal", play=False)
        refusals.append(next(e for e in eve.events if isinstance(e, Closed)))
        assert not any(isinstance(e, GameStarted) for e in eve.events)  # it learnt nothing of the game
        # a stranger with a fresh hello, one with another version, one with junk
        bad_commit = encode_frame({"t": "commit", "for": -1, "c": b"\x00" * 32})
        for data in (Connection(Role.JOIN, "Eve").data_to_send(),
                     Connection(Role.JOIN, "Eve").data_to_send() + bad_commit,
                     bad_commit,
                     encode_frame({"t": "error", "code": "x", "reason": "y"}),
                     b"\x00\x00\x00\x05hello"):
            with socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT) as s:
                s.sendall(data)
                got = b""
                while chunk := s.recv(65536):
                    got += chunk
            assert got  # our hello at least; then the connection is closed on it
        for t in threads:
            t.join(LIMIT + 5)
    finally:
        host.close()
        join.close()
    assert refusals[0].code == "seat" and "resume secret" in refusals[0].reason
    assert results == {"host": "ok", "join": "ok"}
    assert (tmp_path / "h.json").read_text() == (tmp_path / "j.json").read_text()


def test_5_loopback_a_silent_connection_is_dropped_at_the_handshake_deadline(host, monkeypatch):
    monkeypatch.setattr(roseking.v2, "HANDSHAKE_TIMEOUT", 0.3)
    with socket.create_connection(("127.0.0.1", host.session.port), timeout=LIMIT) as s:
        s.sendall(b"\x00\x00")  # two bytes of a header, then nothing
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    assert b"no handshake" in got
    refused = host.wait(lambda e: isinstance(e, Refused), "the refusal")
    assert "no handshake" in refused.reason
    m = Mallory(host.session.port)  # the host is still there for a real player
    m.until(lambda: started(m), "a game")


# --------------------------------------------------------------------------- 6. resignation
def test_6_loopback_a_resignation_cannot_take_back_acknowledged_moves(host):
    m = Mallory(host.session.port)
    m.until(lambda: m.conn.game is not None and m.conn.game.state.ply >= 6
            and m.conn.acked_ply >= 5, "six plies")
    n = m.conn.game.state.ply
    m.raw(encode_frame({"t": "resign", "ply": 0}))
    over = host.wait(lambda e: isinstance(e, GameOver), "the resignation")
    assert over.kind == "resigned" and over.winner == host.session.color
    assert host.session.state.ply >= n - 1


# --------------------------------------------------------------------------- 7. limits
def test_7_loopback_a_flood_is_cut_and_the_host_carries_on(host):
    with socket.create_connection(("127.0.0.1", host.session.port), timeout=LIMIT) as s:
        s.sendall(encode_frame({"t": "ping"}) * 200)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    assert b"flood" in got
    m = Mallory(host.session.port)
    m.until(lambda: started(m), "a game")


def test_the_journal_file_is_private(tmp_path):
    import stat

    from net.transport import seat_path
    host = LanSession.host("Alice", port=0, journal=tmp_path / "h.json")
    m = Mallory(host.port)
    try:
        m.until(lambda: started(m), "a game")
        end = time.monotonic() + LIMIT
        while not seat_path(tmp_path / "h.json").exists() and time.monotonic() < end:
            host.wait(0.1)
        mode = stat.S_IMODE(seat_path(tmp_path / "h.json").stat().st_mode)
        assert mode & 0o077 == 0, oct(mode)
    finally:
        m.close()
        host.close()
