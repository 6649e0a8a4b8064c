"""The pure protocol state machine (net.protocol): whole games, the coin, resume, and every
fault the issue lists that does not need a socket. No sockets, no threads, no sleeping."""

import struct

import msgpack
import pytest

from game.roseking.engine import DRAW, Color, Move, Record
from net.framing import FrameDecoder, encode_frame
from net.coin import commitment
from net.journal import Journal
from net.protocol import (COMMIT_TIMEOUT, HEARTBEAT, PING_FLOOD, TIMEOUT, Acked, Closed, Connection, Desync,
                          DrawStarted, GameOver, GameStarted, LanGame, MoveMade, Phase, RematchOffered, Role)

from net.loopback import Pair, det_tokens

from .helpers import mid_game, until_mover_can_draw


def raw(obj) -> bytes:
    payload = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


def sent(conn) -> list[dict]:
    """Decode what ``conn`` queued for its peer."""
    return FrameDecoder().feed(conn.data_to_send())


def last_error(conn) -> dict:
    errors = [m for m in sent(conn) if m["t"] == "error"]
    assert errors, "no error frame was sent"
    return errors[-1]


def assert_kept(game: LanGame, ply: int, digest: bytes) -> None:
    """The game survives the closed connection unchanged."""
    assert game.state.ply == ply and game.hashes[-1] == digest and game.aborted is None


# ----------------------------------------------------------------------- whole games
@pytest.mark.parametrize("seed, levels", [(1, ("greedy", "random")), (2, ("random", "greedy")),
                                          (3, ("random", "random")), (4, ("greedy", "greedy"))])
def test_complete_games_end_with_identical_records_and_hashes(seed, levels):
    p = Pair(seed)
    p.play_out(levels, seed=seed)
    h, j = p.host.game, p.join.game
    assert h.state.is_game_over() and p.host.closed is None and p.join.closed is None
    assert h.hashes == j.hashes
    assert h.record().to_json() == j.record().to_json()
    assert Record.from_json(h.record().to_json()).replay().state_hash() == h.state.state_hash()
    assert p.host.color != p.join.color
    assert {h.red_name, h.white_name} == {"Alice", "Bob"}
    assert any(m.kind is DRAW for m in h.state.move_stack)  # draws went through the coin
    assert isinstance(p.game_over(p.host), GameOver) and p.game_over(p.host).kind == "finished"


def test_bytes_delivered_one_at_a_time_give_the_same_game():
    a, b = Pair(9), Pair(9)
    a.play_out(seed=9)

    def trickle(pair: Pair) -> None:
        while True:
            x, y = pair.host.data_to_send(), pair.join.data_to_send()
            if not x and not y:
                return
            for i in range(len(x)):
                pair.events[pair.join] += pair.join.receive_data(x[i:i + 1])
            for i in range(len(y)):
                pair.events[pair.host] += pair.host.receive_data(y[i:i + 1])

    b.pump = trickle.__get__(b)  # type: ignore[method-assign]
    b.play_out(seed=9)
    assert a.host.game.record().to_json() == b.join.game.record().to_json()


def test_the_coin_decides_colours_and_deal_fairly_over_many_games():
    host_colors, deals = set(), set()
    for seed in range(40):
        p = Pair(seed)
        p.pump()
        assert p.host.game.game_id == p.join.game.game_id
        assert p.host.game.state.deal == p.join.game.state.deal
        host_colors.add(p.host.color)
        deals.add(p.host.game.state.deal)
    assert host_colors == {Color.RED, Color.WHITE}
    assert len(deals) == 40


def test_a_draw_is_decided_by_a_fresh_commit_reveal_on_both_sides(pair):
    p = pair
    g = p.host.game
    # play until the mover can draw
    from game.roseking.ai import make_player
    rnd = make_player("random", 3)
    while Move(g.state.turn, DRAW, None) not in g.state.legal_moves():
        m = p.mover()
        m.play(rnd.choose(m.game.state))
        p.pump()
    mover = p.mover()
    events = mover.play(Move(mover.color, DRAW, None))
    assert [type(e) for e in events] == [DrawStarted]
    commits = [m for m in FrameDecoder().feed(mover._out) if m["t"] == "commit"]
    assert len(commits) == 1 and commits[0]["for"] == g.state.ply
    p.pump()
    made = [e for e in p.events[p.host] + p.events[p.join] if isinstance(e, MoveMade) and e.move.kind is DRAW]
    assert made[-1].move.card is not None
    assert p.host.game.hashes == p.join.game.hashes


# ----------------------------------------------------------------------- handshake faults
def test_message_before_the_handshake_is_refused():
    c = Connection(Role.HOST, "Alice")
    c.data_to_send()
    ev = c.receive_data(encode_frame({"t": "ack", "ply": 0, "hash": b"h" * 32}))
    assert isinstance(ev[-1], Closed) and ev[-1].code == "order" and "before the handshake" in ev[-1].reason
    assert last_error(c)["code"] == "order"


def test_a_second_handshake_is_refused(pair):
    hello = Connection(Role.JOIN, "Eve").data_to_send()
    ply, digest = pair.host.game.state.ply, pair.host.game.hashes[-1]
    ev = pair.host.receive_data(hello)
    assert ev[-1].code == "order" and "second handshake" in ev[-1].reason
    assert_kept(pair.host.game, ply, digest)


def test_wrong_version_is_refused_with_a_clear_message_on_both_sides():
    host = Connection(Role.HOST, "Alice")
    host.data_to_send()
    future = {"t": "hello", "proto": "rose-king-lan", "pv": 3, "name": "Zed", "whatever": [1]}
    ev = host.receive_data(raw(future))
    assert ev[-1].code == "version" and ev[-1].fatal and "incompatible versions" in ev[-1].reason
    # the other side receives the same reason
    joiner = Connection(Role.JOIN, "Bob")
    err = joiner.receive_data(host.data_to_send())
    assert err[-1].by_peer and err[-1].code == "version" and "incompatible versions" in err[-1].reason


def test_talking_to_ourselves_or_two_hosts_is_refused():
    a = Connection(Role.HOST, "A")
    ev = a.receive_data(a.data_to_send())
    assert ev[-1].code == "self"
    b, c = Connection(Role.HOST, "B"), Connection(Role.HOST, "C")
    ev = b.receive_data(c.data_to_send())
    assert ev[-1].code == "role" and "both sides are hosts" in ev[-1].reason


def test_bad_player_name_is_refused_locally():
    for bad in ("", "x" * 33, "bell\a", "rtl\u202e", "zero\u200bwidth"):
        with pytest.raises(ValueError, match="printable"):
            Connection(Role.HOST, bad)


# ----------------------------------------------------------------------- coin faults
def fresh_coin_pair():
    """A host that has the joiner's hello (its set-up coin is open) and has not heard more.
    Returns (host, joiner, the joiner's hello, what the host sent after the hello)."""
    host = Connection(Role.HOST, "Alice", token_bytes=det_tokens(1))
    join = Connection(Role.JOIN, "Bob", token_bytes=det_tokens(2))
    host.data_to_send()  # the host's hello; the joiner never sees it here
    (join_hello,) = FrameDecoder().feed(join.data_to_send())
    host.receive_data(encode_frame(join_hello))
    return host, join, join_hello, FrameDecoder().feed(host.data_to_send())


def test_reveal_before_commit_is_a_protocol_error():
    host, _join, _hello, host_msgs = fresh_coin_pair()
    assert [m["t"] for m in host_msgs] == ["commit"]
    ev = host.receive_data(encode_frame({"t": "reveal", "for": -1, "s": b"s" * 32}))
    assert ev[-1].code == "order" and "reveal before commit" in ev[-1].reason
    assert host.game is None


def test_echoed_commitment_aborts():
    host, _join, _hello, host_msgs = fresh_coin_pair()
    ev = host.receive_data(encode_frame({"t": "commit", "for": -1, "c": host_msgs[0]["c"]}))
    assert ev[-1].code == "coin" and "echoed our commitment" in ev[-1].reason and ev[-1].fatal
    assert not any(m["t"] == "reveal" for m in sent(host))  # our secret was never shown


def test_mismatching_reveal_aborts():
    host, _join, hello, _msgs = fresh_coin_pair()
    secret = b"s" * 32
    gid = host.journal.game_id
    host.receive_data(encode_frame({"t": "commit", "for": -1, "c": commitment(gid, -1, 1, secret)}))
    ev = host.receive_data(encode_frame({"t": "reveal", "for": -1, "s": b"t" * 32}))
    assert ev[-1].code == "coin" and "does not open its commitment" in ev[-1].reason
    assert host.game is None


def test_honest_commit_and_reveal_by_hand_start_the_game():
    host, _join, hello, _msgs = fresh_coin_pair()
    secret = b"s" * 32
    host.receive_data(encode_frame({"t": "commit", "for": -1, "c": commitment(host.journal.game_id, -1, 1, secret)}))
    ev = host.receive_data(encode_frame({"t": "reveal", "for": -1, "s": secret}))
    assert isinstance(ev[-1], GameStarted) and not ev[-1].resumed


def test_withheld_commitment_counts_as_disconnected_and_keeps_the_game():
    p = mid_game(6)
    g = p.host.game
    until_mover_can_draw(p)
    mover, other = p.sides()
    ply, digest = g.state.ply, g.hashes[-1]
    mover.play(Move(mover.color, DRAW, None))
    other.receive_data(mover.data_to_send())  # the other side commits and reveals ...
    msgs = sent(other)  # ... but we drop its frames: the mover never sees them
    assert [m["t"] for m in msgs] == ["commit", "reveal"]
    p.tick(HEARTBEAT)
    p.pump()  # heartbeats still flow
    assert mover.closed is None
    p.tick(COMMIT_TIMEOUT - HEARTBEAT + 0.01)
    closed = p.closed(mover)
    assert closed is not None and closed.code == "withheld" and not closed.fatal
    assert "withheld its commitment" in closed.reason
    assert_kept(mover.game, ply, digest)


# ----------------------------------------------------------------------- move faults
def peer_move_frame(p: Pair, sender, move: Move, ply: int | None = None, digest: bytes | None = None) -> bytes:
    state = sender.game.state.copy()
    state.push(move)
    return encode_frame({"t": "move", "ply": ply or state.ply, "m": str(move),
                         "hash": digest or bytes.fromhex(state.state_hash())})


def test_out_of_turn_move_is_refused_and_ends_the_game():
    p = mid_game(4)
    mover, waiter = p.sides()
    move = next(m for m in mover.game.state.legal_moves() if m.kind is not DRAW)
    fake = Move(waiter.color, move.kind, move.card)  # the waiting side plays in the mover's turn
    ev = mover.receive_data(peer_move_frame(p, waiter, fake))
    over = next(e for e in ev if isinstance(e, GameOver))
    assert over.kind == "illegal" and "wrong player to move" in over.reason
    assert ev[-1].code == "illegal" and ev[-1].fatal
    assert mover.game.aborted and mover.game.state.ply == 4
    # the sender learns why
    back = waiter.receive_data(mover.data_to_send())
    assert any(isinstance(e, GameOver) and e.kind == "illegal" for e in back)


def test_illegal_move_is_refused_with_the_engines_reason():
    p = mid_game(4)
    mover, waiter = p.sides()
    state = mover.game.state
    not_in_hand = next(c for c in state.draw_pile_cards())
    bad = Move(mover.color, Move.from_str("red play N1").kind, not_in_hand)
    frame = encode_frame({"t": "move", "ply": 5, "m": str(bad), "hash": b"h" * 32})
    ev = waiter.receive_data(frame)
    over = next(e for e in ev if isinstance(e, GameOver))
    assert "not in hand" in over.reason and waiter.game.state.ply == 4


def test_a_draw_outside_the_coin_is_refused():
    p = mid_game(4)
    mover, waiter = p.sides()
    card = mover.game.state.chance_outcomes()[0]
    ev = waiter.receive_data(encode_frame({"t": "move", "ply": 5, "m": str(Move(mover.color, DRAW, card)),
                                           "hash": b"h" * 32}))
    assert any(isinstance(e, GameOver) and "only from a coin" in e.reason for e in ev)


def test_duplicate_ply_with_identical_content_is_acknowledged_again():
    p = mid_game(6)
    g = p.host.game
    last = g.state.move_stack[-1]
    receiver = p.host if last.player != p.host.color else p.join
    frame = encode_frame({"t": "move", "ply": 6, "m": str(last), "hash": g.hashes[6]})
    ev = receiver.receive_data(frame)
    assert ev == [] and receiver.closed is None
    assert sent(receiver) == [{"t": "ack", "ply": 6, "hash": g.hashes[6]}]
    assert receiver.game.state.ply == 6


def test_duplicate_ply_with_different_content_is_a_desync_with_a_log():
    p = mid_game(6)
    g = p.host.game
    ev = p.host.receive_data(encode_frame({"t": "move", "ply": 3, "m": "red play N1", "hash": b"x" * 32}))
    desync = next(e for e in ev if isinstance(e, Desync))
    assert desync.ply == 3 and "desync" in desync.log.lower() and g.game_id.hex() in desync.log
    assert ev[-1].code == "desync" and ev[-1].fatal
    back = p.join.receive_data(p.host.data_to_send())
    assert any(isinstance(e, Desync) for e in back)  # the other side writes its log too


def test_gap_in_plies_is_a_protocol_error_and_keeps_the_game():
    p = mid_game(6)
    g = p.host.game
    ev = p.host.receive_data(encode_frame({"t": "move", "ply": 9, "m": "red play N1", "hash": b"x" * 32}))
    assert ev[-1].code == "order" and "gap in plies" in ev[-1].reason and not ev[-1].fatal
    assert_kept(g, 6, g.hashes[6])


def test_wrong_hash_is_a_desync_and_the_move_is_not_kept():
    p = mid_game(4)
    mover, waiter = p.sides()
    move = next(m for m in mover.game.state.legal_moves() if m.kind is not DRAW)
    ev = waiter.receive_data(peer_move_frame(p, mover, move, digest=b"w" * 32))
    assert any(isinstance(e, Desync) for e in ev) and ev[-1].code == "desync"
    assert waiter.game.state.ply == 4


def test_ack_of_a_ply_never_made_is_refused():
    p = mid_game(4)
    ev = p.host.receive_data(encode_frame({"t": "ack", "ply": 40, "hash": b"a" * 32}))
    assert ev[-1].code == "order"


def test_local_illegal_move_raises_and_sends_nothing():
    p = mid_game(4)
    mover, waiter = p.sides()
    from game.roseking.engine import IllegalMoveError
    move = next(m for m in mover.game.state.legal_moves() if m.kind is not DRAW)
    with pytest.raises(IllegalMoveError, match="you play"):
        waiter.play(Move(mover.color, move.kind, move.card))
    with pytest.raises(IllegalMoveError):
        mover.play(Move(mover.color, move.kind, mover.game.state.draw_pile_cards()[0]))
    assert mover.data_to_send() == b"" and waiter.data_to_send() == b""


# ----------------------------------------------------------------------- liveness
def test_heartbeat_when_idle_and_interrupted_after_silence():
    p = mid_game(2)
    p.tick(HEARTBEAT - 0.1)
    assert p.host.data_to_send() == b""
    p.tick(0.2)
    assert sent(p.host) == [{"t": "ping"}]
    p.join.data_to_send()
    # the joiner goes silent: the host gives up after TIMEOUT
    for _ in range(int(TIMEOUT / 0.5) + 1):
        p.now += 0.5
        p.events[p.host] += p.host.tick(p.now)
        p.host.data_to_send()
    closed = p.closed(p.host)
    assert closed.code == "timeout" and not closed.fatal
    assert p.host.game.state.ply == 2


def test_ping_flood_closes_the_connection():
    p = mid_game(2)
    ev = p.host.receive_data(encode_frame({"t": "ping"}) * (PING_FLOOD + 5))
    assert ev[-1].code == "flood"
    assert p.host.game.state.ply == 2


def test_pings_at_a_normal_rate_are_fine():
    p = mid_game(2)
    for _ in range(3 * PING_FLOOD):
        p.tick(0.5)
        p.events[p.host] += p.host.receive_data(encode_frame({"t": "ping"}))
    assert p.host.closed is None


def test_truncated_frame_then_close():
    p = mid_game(2)
    f = encode_frame({"t": "ack", "ply": 1, "hash": b"h" * 32})
    assert p.host.receive_data(f[:7]) == []
    ev = p.host.receive_data(b"")
    assert ev[-1].code == "eof" and "middle of a frame" in ev[-1].reason and not ev[-1].fatal


def test_truncated_frame_then_silence_times_out():
    p = mid_game(2)
    f = encode_frame({"t": "ack", "ply": 1, "hash": b"h" * 32})
    p.host.receive_data(f[:7])
    for _ in range(4):
        p.now += TIMEOUT / 3
        p.events[p.host] += p.host.tick(p.now)
    assert p.closed(p.host).code == "timeout"


def framed(payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + payload


@pytest.mark.parametrize("junk, code", [
    (b"\0\0\0\0", "frame"),  # length 0
    (b"\xff\xff\xff\xff" + b"x" * 100, "frame"),  # huge declared length
    (b"GET / HTTP/1.1\r\n\r\n", "frame"),
    (bytes(range(256)), "frame"),  # random bytes
    (framed(b"\xc1\xc1"), "frame"),
    (framed(b"\x81\xa1t" + b"\x91" * 2000 + b"\xc0"), "frame"),  # deep nesting
    (framed(b"\x81\xa1t\xa4p\xffng"), "frame"),  # invalid UTF-8
    (framed(b"\x81\xa1t\xd4\x07\x00"), "frame"),  # ext type
    (framed(b"\x81\xa1t\xdb\xff\xff\xff\xff"), "frame"),  # a string declaring 4 GiB
    (raw({"t": "ack", "ply": 1}), "schema"),  # missing key
    (raw({"t": "ack", "ply": "1", "hash": b"h" * 32}), "schema"),  # wrong type
    (raw({"t": "ping", "extra": 1}), "schema"),  # unexpected key
    (raw({"t": "launch"}), "schema"),  # unknown message type
    (raw({"t": "move", "ply": 5, "m": "red jump N1", "hash": b"h" * 32}), "schema"),  # bad move text
])
def test_junk_closes_with_a_reason_and_keeps_the_game(junk, code):
    p = mid_game(4)
    g = p.host.game
    ev = p.host.receive_data(junk)
    assert isinstance(ev[-1], Closed) and ev[-1].code == code and not ev[-1].fatal
    assert last_error(p.host)["reason"] == ev[-1].reason
    assert_kept(g, 4, g.hashes[4])
    # the other side shows the same reason, and both can resume the game
    back = p.join.receive_data(b"".join(encode_frame(m) for m in [{"t": "error", "code": code,
                                                                   "reason": ev[-1].reason}]))
    assert back[-1].by_peer and back[-1].reason == ev[-1].reason
    q = p.reconnect()
    assert q.host.game.state.ply == q.join.game.state.ply == 4 and q.host.closed is None


# ----------------------------------------------------------------------- resume, resign, rematch
def until_mover_has_a_play(p: Pair) -> None:
    """Play on (computer moves) until the side to move has a move that is not a draw."""
    from game.roseking.ai import make_player
    rnd = make_player("random", 4)
    while not any(m.kind is not DRAW for m in p.host.game.state.legal_moves()):
        m = p.mover()
        m.play(rnd.choose(m.game.state))
        p.pump()


def test_resume_after_a_drop_sends_the_missing_move_and_finishes():
    p = mid_game(8)
    until_mover_has_a_play(p)
    ply = p.host.game.state.ply
    mover = p.mover()
    move = next(m for m in mover.game.state.legal_moves() if m.kind is not DRAW)
    mover.play(move)
    mover.data_to_send()  # the connection drops before the move leaves
    q = p.reconnect()
    assert q.host.game.state.ply == q.join.game.state.ply == ply + 1
    assert q.host.game.hashes == q.join.game.hashes
    assert any(isinstance(e, GameStarted) and e.resumed for e in q.events[q.host])
    assert any(isinstance(e, MoveMade) and e.by_peer and e.ply == ply + 1
               for e in q.events[q.host] + q.events[q.join])
    q.play_out()
    assert q.host.game.record().to_json() == q.join.game.record().to_json()


def test_resume_of_a_peer_restarted_from_its_journal():
    p = mid_game(10)
    record = Record.from_json(p.join.game.record().to_json())  # what --record FILE holds
    seat = Journal.from_json(p.join.journal.to_json().encode())  # what FILE.journal holds
    restored = LanGame.from_record(record, seat)
    seat.game = restored
    assert restored.hashes == p.join.game.hashes and restored.coins == p.join.game.coins
    q = Pair(9, p.host_journal, seat)
    q.play_out()
    assert q.host.game.record().to_json() == q.join.game.record().to_json()


def test_resume_of_a_peer_restarted_with_its_journal_but_no_record_adopts_the_checked_copy():
    p = mid_game(10)
    seat = Journal.from_json(p.join.journal.to_json().encode())  # the record is lost, the journal kept
    q = Pair(9, p.host_journal, seat)
    q.pump()
    started = next(e for e in q.events[q.join] if isinstance(e, GameStarted))
    assert started.adopted and started.resumed
    assert q.join.game.game_id == p.host.game.game_id and q.join.game.state.ply == 10
    assert q.join.color == p.join.color
    q.play_out()
    assert q.host.game.record().to_json() == q.join.game.record().to_json()


def test_resume_after_a_draw_interrupted_mid_coin():
    p = mid_game(6)
    until_mover_can_draw(p)
    mover, other = p.sides()
    mover.play(Move(mover.color, DRAW, None))
    other.receive_data(mover.data_to_send())
    mover.receive_data(other.data_to_send())  # mover has the draw now, the other side does not
    assert mover.game.state.ply == other.game.state.ply + 1
    mover.data_to_send()  # ...and the connection drops before the mover's reveal arrives
    q = p.reconnect()
    assert q.host.game.hashes == q.join.game.hashes  # the draw travelled with both secrets
    q.play_out()
    assert q.host.game.record().to_json() == q.join.game.record().to_json()


def test_resume_with_a_different_history_is_a_desync():
    p = mid_game(6)
    forged = p.join.game
    last = forged.state.move_stack[-1]
    forged.pop()
    choices = [m for m in forged.state.legal_moves() if m.kind is not DRAW and m != last]
    choices += [Move(last.player, DRAW, c) for c in forged.state.chance_outcomes()
                if Move(last.player, DRAW, None) in forged.state.legal_moves() and c != last.card]
    other = choices[0]
    forged.push(other)  # same ply, another position
    q = p.reconnect()
    q.pump()
    desyncs = [e for e in q.events[q.host] + q.events[q.join] if isinstance(e, Desync)]
    assert len(desyncs) == 2 and "differ" in desyncs[0].log  # both sides write their log
    assert q.closed(q.host).fatal and q.closed(q.join).fatal


def test_two_different_unfinished_games_are_refused():
    a, b = mid_game(4, seed=1), mid_game(4, seed=2)
    q = Pair(5, a.host_journal, b.join_journal)
    q.pump()
    assert q.closed(q.host).code == "game" and q.closed(q.host).fatal


def test_resign_ends_the_game_on_both_sides_and_rematch_starts_a_new_one():
    p = mid_game(4)
    ev = p.join.resign()
    assert ev[0].kind == "resigned" and ev[0].winner == p.host.color
    p.pump()
    over = p.game_over(p.host)
    assert over.kind == "resigned" and over.winner == p.host.color and p.host.game.over
    rec = p.host.game.record()
    assert rec.extra["lan"]["resigned"] == str(p.join.color) and rec.to_json() == p.join.game.record().to_json()
    old_id = p.host.game.game_id
    with pytest.raises(ValueError):
        p.host.resign()
    p.host.offer_rematch()
    p.pump()
    assert any(isinstance(e, RematchOffered) for e in p.events[p.join])
    assert p.host.game.game_id == old_id  # an offer alone starts nothing
    p.join.offer_rematch()
    p.pump()
    assert p.host.game.game_id == p.join.game.game_id != old_id
    assert p.host.phase is Phase.PLAYING and p.host.game.state.ply == 0
    p.play_out()
    assert p.host.game.record().to_json() == p.join.game.record().to_json()


def test_rematch_offer_during_a_game_is_refused():
    p = mid_game(2)
    with pytest.raises(ValueError):
        p.host.offer_rematch()
    ev = p.host.receive_data(encode_frame({"t": "rematch"}))
    assert ev[-1].code == "order"


def test_acks_are_reported(pair):
    p = pair
    mover = p.mover()
    mover.play(next(m for m in mover.game.state.legal_moves() if m.kind is not DRAW))
    p.pump()
    assert Acked(1) in p.events[mover] and mover.acked_ply == 1


def test_a_move_crossing_a_resignation_on_the_wire_is_dropped_quietly():
    p = mid_game(4)
    mover, waiter = p.sides()
    mover.play(next(m for m in mover.game.state.legal_moves() if m.kind is not DRAW))
    waiter.resign()  # before the move arrives
    p.pump()
    for side in (p.host, p.join):
        assert side.closed is None and side.game.aborted is None and side.game.resigned == waiter.color
    assert p.game_over(mover).kind == "resigned"
    assert waiter.game.state.ply == mover.game.state.ply == 4  # the move after the resignation is void
    assert waiter.game.record().to_json() == mover.game.record().to_json()


def test_a_draw_crossing_a_resignation_is_dropped_quietly():
    p = mid_game(6)
    until_mover_can_draw(p)
    mover, waiter = p.sides()
    mover.play(Move(mover.color, DRAW, None))
    waiter.resign()
    p.pump()
    assert p.host.closed is None and p.join.closed is None
    assert p.host.game.aborted is None and p.join.game.aborted is None


def test_a_resignation_lost_in_a_drop_is_resent_and_both_records_agree():
    p = mid_game(6)
    mover, waiter = p.sides()
    waiter.resign()
    waiter.data_to_send()  # lost with the connection
    mover.play(next(m for m in mover.game.state.legal_moves() if m.kind is not DRAW))
    mover.data_to_send()  # lost too
    q = p.reconnect()
    assert q.host.game.resigned == q.join.game.resigned == waiter.color
    assert q.host.game.record().to_json() == q.join.game.record().to_json()
    assert q.host.closed is None and q.join.closed is None


def test_a_stopped_game_names_the_move_as_the_players_count_it():
    """GameOver.ply is the number players see (the move log numbers the moves played 1..ply): a
    refused move is the one after the last move played, on the side that refused it and on the
    sender's side (which played it: the peer's text about it is not believed); a draw out of turn
    likewise, though its coin names the ply before it."""
    p = mid_game(4)
    mover, waiter = p.sides()
    move = next(m for m in mover.game.state.legal_moves() if m.kind is not DRAW)
    fake = Move(waiter.color, move.kind, move.card)  # out of turn
    ev = mover.receive_data(peer_move_frame(p, waiter, fake))
    over = next(e for e in ev if isinstance(e, GameOver))
    assert over.kind == "illegal" and over.ply == 5 == mover.game.state.ply + 1
    p = mid_game(4)
    mover, waiter = p.sides()
    mover.play(next(m for m in mover.game.state.legal_moves() if m.kind is not DRAW))  # move 5, sent ...
    ev = mover.receive_data(encode_frame({"t": "error", "code": "illegal", "reason": "refused at ply 99"}))
    over = next(e for e in ev if isinstance(e, GameOver))  # ... and refused by the peer
    assert over.kind == "illegal" and over.ply == 5 == mover.game.state.ply
    p = mid_game(4)
    mover, waiter = p.sides()
    ev = mover.receive_data(encode_frame({"t": "commit", "for": 4, "c": b"c" * 32}))  # the waiter draws out of turn
    over = next(e for e in ev if isinstance(e, GameOver))
    assert over.kind == "illegal" and "out of turn" in over.reason and over.ply == 5
