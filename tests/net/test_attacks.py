"""Issue 14: a cheating peer cannot bend LAN play. Each attack is played by a modified peer
against an honest pure state machine (no sockets: the byte streams are tampered with in
between); tests/net/test_attacks_loopback.py plays one attack per class over 127.0.0.1.

Classes (issue 14, "What must hold afterwards"): 1 coins, 2 re-rolls, 3 catch-up, 4 sync,
5 seats, 6 resignation and results, 7 limits (8, the docs, in test_protocol_docs.py).
"""

import pytest

from game.records import RecordError
from game.roseking.ai import make_player
from game.roseking.engine import DRAW, Move, Record
from net.coin import commitment
from net.framing import FrameDecoder, encode_frame
from net.journal import Journal
from net.loopback import Pair
from net.protocol import (FORFEIT_TIMEOUT, HANDSHAKE_TIMEOUT, REVEAL_TIMEOUT, TIMEOUT, Closed, Connection,
                          GameOver, GameStarted, Role, forfeit_due)

from .helpers import mid_game, until_mover_can_draw


def frames(data: bytes) -> list[dict]:
    return FrameDecoder().feed(data)


def until_mover_has_a_play(p: Pair) -> None:
    rnd = make_player("random", 4)
    while not any(m.kind is not DRAW for m in p.host.game.state.legal_moves()):
        m = p.mover()
        m.play(rnd.choose(m.game.state))
        p.pump()


def check_line(record: Record) -> str:
    from game.roseking.plugin import GAME
    return GAME.check(record.to_dict())


def kept(conn: Connection, ply: int, digest: bytes) -> bool:
    g = conn.game
    return g.state.ply == ply and g.hashes[-1] == digest


# =========================================================================== 1. coins
def test_1_a_peer_cannot_announce_its_own_draw_card():
    """The mover sends `draw` (and `move`) messages with the card it likes, with made-up
    secrets: there is no message by which one side announces a draw result."""
    for kind in ("draw", "move"):
        p = mid_game(6)
        until_mover_can_draw(p)
        cheat, honest = p.sides()
        g = honest.game
        ply, digest = g.state.ply, g.hashes[-1]
        best = g.state.chance_outcomes()[-1]
        state = g.state.copy()
        state.push(Move(cheat.color, DRAW, best))
        msg = {"t": kind, "ply": ply + 1, "m": str(Move(cheat.color, DRAW, best)),
               "hash": bytes.fromhex(state.state_hash())}
        if kind == "draw":
            msg["s"] = [b"\x01" * 32, b"\x02" * 32]
        ev = honest.receive_data(encode_frame(msg))
        over = next(e for e in ev if isinstance(e, GameOver))
        assert over.kind == "illegal" and "only from a coin" in over.reason
        assert honest.game.state.ply == ply and honest.game.hashes[ply] == digest  # nothing taken on


def test_1_nobody_reveals_before_holding_the_other_commitment():
    p = mid_game(6)
    until_mover_can_draw(p)
    mover, other = p.sides()
    mover.play(Move(mover.color, DRAW, None))
    assert [m["t"] for m in frames(mover.data_to_send())] == ["commit"]  # no secret yet
    fresh = Pair(2)
    fresh.host.data_to_send()
    fresh.host.receive_data(fresh.join.data_to_send())  # the set-up: the host has the joiner's hello only
    assert [m["t"] for m in frames(fresh.host.data_to_send())] == ["commit"]


def test_1_a_peer_that_changes_its_secret_after_seeing_ours_forfeits():
    """The peer commits, sees our reveal, then 'reveals' a secret that gives a better card."""
    p = mid_game(6)
    until_mover_can_draw(p)
    cheat, honest = p.sides()
    cheat.play(Move(cheat.color, DRAW, None))
    honest.receive_data(cheat.data_to_send())  # our commitment and our reveal go out
    assert [m["t"] for m in frames(honest.data_to_send())] == ["commit", "reveal"]
    ev = honest.receive_data(encode_frame({"t": "reveal", "for": honest.game.state.ply, "s": b"\x07" * 32}))
    over = next(e for e in ev if isinstance(e, GameOver))
    assert over.kind == "forfeit" and over.winner == honest.color
    assert ev[-1].code == "forfeit" and ev[-1].fatal
    rec = honest.game.record()
    assert rec.termination == {"kind": "forfeit", "loser": str(cheat.color)}
    assert "termination=forfeit" in check_line(rec) and f"winner={honest.color}" in check_line(rec)


def test_1_an_echoed_or_foreign_commitment_cannot_be_opened():
    p = Pair(3)
    host_hello = p.host.data_to_send()
    join_hello = p.join.data_to_send()
    p.host.receive_data(join_hello)
    p.join.receive_data(host_hello)
    (host_commit,) = frames(p.host.data_to_send())
    ev = p.host.receive_data(encode_frame(host_commit))  # the joiner echoes the host's commitment
    assert ev[-1].code == "coin" and "echoed" in ev[-1].reason
    # a commitment made for another game, coin or seat does not open here
    gid = p.join.journal.game_id
    assert commitment(gid, -1, 1, b"s" * 32) != commitment(gid, -1, 0, b"s" * 32) != commitment(gid, 0, 1, b"s" * 32)


# =========================================================================== 2. no re-rolls
def withheld_draw(seed: int = 1):
    """The cheater starts a draw, receives the honest side's commitment and reveal (so it
    knows the card) and withholds its own reveal. Returns (pair, cheater, honest)."""
    p = mid_game(6, seed)
    until_mover_can_draw(p)
    cheat, honest = p.sides()
    cheat.play(Move(cheat.color, DRAW, None))
    honest.receive_data(cheat.data_to_send())
    cheat.receive_data(honest.data_to_send())  # the cheater now knows the card ...
    cheat.data_to_send()  # ... and its reveal never leaves
    return p, cheat, honest


def test_2_a_withheld_reveal_forfeits_after_the_timeout_and_the_record_says_so():
    p, cheat, honest = withheld_draw()
    ply = honest.game.state.ply
    for _ in range(int(REVEAL_TIMEOUT / 1.0) + 1):
        p.now += 1.0
        p.events[honest] += honest.tick(p.now)
        honest.receive_data(encode_frame({"t": "ping"}))  # the cheater stays connected
        if honest.closed:
            break
    over = p.game_over(honest)
    assert over.kind == "forfeit" and over.winner == honest.color
    assert honest.closed.code == "forfeit"
    assert honest.game.forfeited == cheat.color and honest.game.state.ply == ply
    rec = Record.from_json(honest.game.record().to_json())
    assert rec.termination == {"kind": "forfeit", "loser": str(cheat.color)}
    assert check_line(rec).startswith("ok finished") and "termination=forfeit" in check_line(rec)


def test_2_dropping_the_connection_does_not_escape_the_forfeit():
    p, cheat, honest = withheld_draw()
    honest.receive_data(b"")  # the cheater drops the connection
    assert forfeit_due(honest.journal, p.now + 1.0) is None
    assert "withheld its reveal" in forfeit_due(honest.journal, p.now + FORFEIT_TIMEOUT)


def test_2_a_new_connection_with_a_new_commitment_is_a_reroll_and_forfeits():
    p, cheat, honest = withheld_draw()
    purpose = honest.game.state.ply
    # the cheater throws away its coin (a modified client, or a journal edited by hand) and reconnects
    cheat_journal = p.host_journal if cheat is p.host else p.join_journal
    entry = cheat_journal.coins[purpose]
    entry.my_secret = b"\x09" * 32
    entry.my_commit = commitment(cheat_journal.game_id, purpose, cheat.seat, entry.my_secret)
    entry.their_secret = None
    cheat_journal.game.pop()  # forget the card it did not like
    cheat_journal.game.coins.pop(purpose, None)
    q = p.reconnect()
    honest2 = q.host if honest is p.host else q.join
    over = q.game_over(honest2)
    assert over is not None and over.kind == "forfeit" and over.winner == honest2.color
    assert "re-roll" in over.reason
    assert honest2.game.forfeited is not None and honest2.game.state.ply == purpose


def test_2_after_a_drop_the_same_coin_is_finished_not_tossed_anew():
    p, cheat, honest = withheld_draw()
    purpose = honest.game.state.ply
    before = dict(honest.journal.coins[purpose].__dict__)
    q = p.reconnect()  # the cheater's program is honest again (or the drop was a real one)
    assert q.host.game.hashes == q.join.game.hashes and q.host.game.state.ply == purpose + 1
    after = honest.journal.coins[purpose]
    assert after.my_secret == before["my_secret"] and after.their_commit == before["their_commit"]


def test_2_promises_are_journaled_before_they_are_sent():
    p = mid_game(6)
    until_mover_can_draw(p)
    mover, _other = p.sides()
    queued_at_save = []
    mover.journal.sink = lambda j: queued_at_save.append(frames(bytes(mover._out)))
    mover.play(Move(mover.color, DRAW, None))
    assert queued_at_save and all(m["t"] != "commit" for m in queued_at_save[0])
    assert [m["t"] for m in frames(mover.data_to_send())] == ["commit"]


# =========================================================================== 3. catch-up
def test_3_catch_up_refuses_a_move_in_our_colour_that_we_did_not_make():
    p = mid_game(6)
    until_mover_has_a_play(p)
    mover, waiter = p.sides()
    # the waiter pretends, after a reconnection, that the mover played a move it never made
    forged = waiter.game
    bad = next(m for m in forged.state.legal_moves() if m.kind is not DRAW)
    forged.push(bad)
    q = p.reconnect()
    honest = q.host if mover is p.host else q.join
    over = q.game_over(honest)
    assert over.kind == "illegal" and "that we did not make" in over.reason
    assert honest.game.state.ply == forged.state.ply - 1


def test_3_catch_up_refuses_a_draw_without_its_coin_or_with_forged_secrets():
    for forge in ("plain", "secrets"):
        p = mid_game(6)
        until_mover_can_draw(p)
        mover, other = p.sides()
        g = other.game
        ply = g.state.ply
        card = g.state.chance_outcomes()[0]
        # the mover claims, on reconnecting, a draw the other never took part in
        mover.game.push(Move(mover.color, DRAW, card))
        if forge == "secrets":
            mover.game.coins[ply] = (b"a" * 32, b"b" * 32, b"c" * 32, b"d" * 32)
        q = p.reconnect()
        honest = q.host if other is p.host else q.join
        over = q.game_over(honest)
        assert over is not None and over.kind == "illegal"
        assert honest.game.state.ply == ply


def test_3_a_claimed_hash_that_differs_is_a_desync_not_an_adoption():
    p = mid_game(6)
    liar = p.join.game
    liar.hashes[-1] = b"\x00" * 32  # claims another position at the same ply
    q = p.reconnect()
    assert q.closed(q.host).code == "desync" and q.host.game.aborted
    assert not any(isinstance(e, GameStarted) and e.adopted for e in q.events[q.host])


# =========================================================================== 4. sync
def test_4_a_sync_nobody_asked_for_is_refused():
    p = mid_game(4)
    g = p.host.game
    ply, digest = g.state.ply, g.hashes[-1]
    msg = {"t": "sync", "game": g.game_id, "host": str(g.host_color), "red": "R", "white": "W", "date": "",
           "moves": [], "coins": [[-1, *g.coins[-1]]], "hash": g.hashes[0], "resigned": str(p.host.color),
           "forfeit": ""}
    ev = p.host.receive_data(encode_frame(msg))
    assert ev[-1].code == "order" and "did not ask" in ev[-1].reason
    assert kept(p.host, ply, digest) and p.host.game.resigned is None


def test_4_a_peer_with_no_journal_gets_no_copy():
    p = mid_game(6)
    q = Pair(8, p.host_journal, Journal())  # the joiner's program lost everything: a stranger now
    q.pump()
    assert q.closed(q.host).code == "seat" and q.closed(q.join).code == "seat"
    assert q.join.game is None and p.host.game.state.ply == 6


@pytest.mark.parametrize("lie", ["card", "our-move", "resigned", "their-secret"])
def test_4_a_lying_copy_is_refused(lie):
    p = mid_game(10)
    seat = Journal.from_json(p.join.journal.to_json().encode())  # the joiner kept its journal, lost the record
    g = p.host.game
    me = p.join.color
    if lie == "card":  # change the card of a draw
        i = next(i for i, m in enumerate(g.state.move_stack) if m.kind is DRAW)
        old = g.state.move_stack[i]
        other = next(c for c in Record.from_json(g.record().to_json()).replay(i).chance_outcomes() if c != old.card)
        g.state.move_stack[i] = Move(old.player, DRAW, other)
    elif lie == "our-move":  # drop our journal's memory of one of our own moves
        ply = next(i for i, m in enumerate(g.state.move_stack, 1) if m.player == me and m.kind is not DRAW)
        seat.own[ply] = "red play N3" if seat.own[ply] != "red play N3" else "red play N2"
    elif lie == "resigned":
        g.resigned = me
    elif lie == "their-secret":
        p_ = max(g.coins)
        t = g.coins[p_]
        g.coins[p_] = (t[0], t[1], t[2], b"\x05" * 32) if p.host.seat == 0 else t
    q = Pair(9, p.host_journal, seat)
    q.pump()
    closed = q.closed(q.join)
    assert closed is not None and closed.code in ("sync", "desync", "schema", "illegal"), closed
    assert seat.game is None  # nothing adopted


def test_4_an_honest_copy_is_adopted_and_flagged_for_the_window():
    p = mid_game(10)
    seat = Journal.from_json(p.join.journal.to_json().encode())
    q = Pair(9, p.host_journal, seat)
    q.pump()
    started = next(e for e in q.events[q.join] if isinstance(e, GameStarted))
    assert started.adopted and seat.game.hashes == p.host.game.hashes


# =========================================================================== 5. seats
def test_5_a_stranger_cannot_take_the_seat_with_any_hello_and_the_game_is_untouched():
    p = mid_game(6)
    g = p.host.game
    ply, digest = g.state.ply, g.hashes[-1]
    # the stranger knows the game id (from a record it saw) but not the joiner's resume secret
    fake = Journal(game_id=g.game_id, seat=1, key=b"\x01" * 32, peer_key=b"\x02" * 32, game=g.snapshot())
    stranger = Connection(Role.JOIN, "Eve", journal=fake)
    host2 = Connection(Role.HOST, "Alice", journal=p.host_journal)
    host2.allow_new_game = False
    stranger.receive_data(host2.data_to_send())
    ev = host2.receive_data(stranger.data_to_send())
    assert ev[-1].code == "seat" and "resume secret" in ev[-1].reason and not host2.seated
    assert kept(p.host, ply, digest)
    # bare hello (no game): refused as well, the seat is taken
    host3 = Connection(Role.HOST, "Alice", journal=p.host_journal)
    ev = host3.receive_data(Connection(Role.JOIN, "Eve").data_to_send())
    assert ev[-1].code == "seat" and "taken" in ev[-1].reason
    assert p.host_journal.game_id == g.game_id and kept(p.host, ply, digest)
    # and the two players carry on
    p.play_out()
    assert p.host.game.over and p.host.game.record().to_json() == p.join.game.record().to_json()


def test_5_a_recorded_seat_proof_cannot_be_replayed():
    """A stranger who saw the joiner's proof on the wire replays it on its own connection."""
    p = mid_game(4)
    q = p.reconnect(pump=False)
    host_hello = q.host.data_to_send()
    q.join.receive_data(host_hello)
    seen = [m for m in frames(q.join.data_to_send()) if m["t"] in ("hello", "auth")]
    assert [m["t"] for m in seen] == ["hello", "auth"]
    host2 = Connection(Role.HOST, "Alice", journal=p.host_journal)
    host2.allow_new_game = False
    ev = host2.receive_data(b"".join(encode_frame(m) for m in seen))  # the recorded hello + proof
    assert ev[-1].code == "seat" and not host2.seated  # the proof was bound to the other nonce
    assert p.host.game.state.ply == 4


# =========================================================================== 6. resignation and results
def test_6_resign_never_takes_back_moves_the_other_side_acknowledged():
    p = mid_game(6)
    until_mover_has_a_play(p)
    mover, resigner = p.sides()
    mover.play(next(m for m in mover.game.state.legal_moves() if m.kind is not DRAW))
    p.pump()  # acknowledged by the resigner
    n = mover.game.state.ply
    ev = mover.receive_data(encode_frame({"t": "resign", "ply": n - 3}))  # "I resigned long ago"
    over = next(e for e in ev if isinstance(e, GameOver))
    assert over.kind == "resigned" and mover.game.state.ply == n and mover.game.end_ply == n


def test_6_resign_beyond_the_game_and_false_forfeit_claims_are_refused():
    p = mid_game(6)
    ev = p.host.receive_data(encode_frame({"t": "resign", "ply": 40}))
    assert ev[-1].code == "order" and p.host.game.resigned is None
    q = p.reconnect()
    ev = q.host.receive_data(encode_frame({"t": "error", "code": "forfeit", "reason": "you withheld"}))
    over = next(e for e in ev if isinstance(e, GameOver))
    assert over.kind == "illegal" and q.host.game.forfeited is None and "owed it no reveal" in over.reason


def test_6_resigned_records_are_finished_for_check():
    p = mid_game(6)
    p.join.resign()
    p.pump()
    rec = Record.from_json(p.host.game.record().to_json())
    assert rec.to_json() == p.join.game.record().to_json()
    line = check_line(rec)
    assert line.startswith("ok finished") and "termination=resigned" in line and f"winner={p.host.color}" in line
    bad = rec.to_dict()
    bad["result"]["winner"] = str(p.join.color)
    with pytest.raises(RecordError, match="result does not match"):
        check_line(Record.from_dict(bad))


# =========================================================================== 7. limits
def test_7_a_peer_trickling_bytes_is_dropped_at_the_handshake_deadline():
    c = Connection(Role.HOST, "Alice")
    hello = Connection(Role.JOIN, "Eve").data_to_send()
    now = 0.0
    for i in range(len(hello) - 1):  # one byte a second, never a whole frame
        now += 0.25
        c.receive_data(hello[i:i + 1])
        c.tick(now)
        if c.closed:
            break
    assert c.closed.code == "timeout" and "no handshake" in c.closed.reason
    assert now <= HANDSHAKE_TIMEOUT + 0.5


def test_7_mid_game_trickling_bytes_does_not_count_as_hearing_from_the_peer():
    p = mid_game(4)
    frame = encode_frame({"t": "ack", "ply": 1, "hash": p.host.game.hashes[1]})
    t = 0.0
    for i in range(len(frame) - 1):
        t += 0.5
        p.host.receive_data(frame[i:i + 1])
        p.host.tick(t)
        if p.host.closed:
            break
    assert p.host.closed.code == "timeout" and t <= TIMEOUT + 0.5


@pytest.mark.parametrize("t, msg, n", [
    ("ack", lambda g: {"t": "ack", "ply": 1, "hash": g.hashes[1]}, 2000),
    ("ping", lambda g: {"t": "ping"}, 100),
    ("resign", lambda g: {"t": "resign", "ply": 999}, 5),
])
def test_7_every_message_type_is_rate_limited(t, msg, n):
    p = mid_game(4)
    ev = p.host.receive_data(encode_frame(msg(p.host.game)) * n)
    assert isinstance(ev[-1], Closed) and ev[-1].code in ("flood", "order")
    if t != "resign":
        assert ev[-1].code == "flood"
    assert p.host.game.state.ply == 4


def test_7_names_with_bidi_or_zero_width_characters_are_refused_locally():
    for bad in ("Ali\u202ece", "Bo\u200db", "\u2067x"):
        with pytest.raises(ValueError):
            Connection(Role.HOST, bad)
