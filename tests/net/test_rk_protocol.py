"""Rose King's match machine on the one LAN layer, pure (game/roseking/lan/match.py with net/link.py
and net/lobby.py): whole games, the coin, every fault that needs no socket, resume from the
outbox and the journal payload, resignation, and the host's colour choice. No sockets, threads
or sleeping; docs/protocol.md, "Rose King on the layer". The same attacks over 127.0.0.1 are in
tests/net/test_rk_attacks_loopback.py."""

from __future__ import annotations

import os
import struct

import msgpack
import pytest

from game.registry import game_by_key
from game.roseking.engine import DRAW, Color, IllegalMoveError, Move, State
from net.coin import coin_digest, commitment
from net.framing import FrameDecoder, FrameError
from net.link import HEARTBEAT, SILENCE, Link
from net.lobby import HostLobby, JoinLobby, LDrop, LSend, hello
from net.match import Over, Refusal, Save, Send, Verdict, judge_stop, overdue
from game.roseking.lan.match import (COMMIT_S, KEY, LAN, RESIGN, SETUP, VERSION, RoseKingMatch, draw_from_coin,
                                setup_from_coin)

from .rk_wire import GID, SCHEMAS, Pair, chooser, det_tokens, drawn_by, frame, table

check = game_by_key("rose-king").check


def mid_game(plies: int, seed: int = 1, colour: str = "") -> Pair:
    """A pair that played ``plies`` plies (random players), everything delivered."""
    p = Pair(colour, (det_tokens(seed), det_tokens(seed + 1000)))
    players = [chooser(seed), chooser(seed + 1)]
    p.deliver()
    while p.m[0].ply < plies:
        s = next(s for s in (0, 1) if LAN.turn(p.m[s], s) is not None)
        p.out(s, p.m[s].act(players[s](LAN.turn(p.m[s], s)), 0.0))
        p.deliver()
    return p


def sides(p: Pair) -> tuple[int, int]:
    """(the seat to move, the other)."""
    s = next(s for s in (0, 1) if LAN.turn(p.m[s], s) is not None)
    return s, 1 - s


def until_mover_has_a_play(p: Pair) -> None:
    while not any(m.kind is not DRAW for m in p.m[0].state.legal_moves()):
        s, _ = sides(p)
        p.out(s, p.m[s].act(p.m[s].state.legal_moves()[0], 0.0))
        p.deliver()


def until_mover_can_draw(p: Pair) -> tuple[int, int]:
    """Play moves that are not draws until the seat to move may draw; (that seat, the other)."""
    s, o = sides(p)
    while Move(p.m[s].state.turn, DRAW, None) not in p.m[s].state.legal_moves():
        p.out(s, p.m[s].act(next(x for x in p.m[s].state.legal_moves() if x.kind is not DRAW), 0.0))
        p.deliver()
        s, o = sides(p)
    return s, o


def sends(outputs: list) -> list[str]:
    return [o.msg["t"] for o in outputs if isinstance(o, Send)]


def verdict(outputs: list) -> Verdict:
    return next(o.verdict for o in outputs if isinstance(o, Over))


def kept(m: RoseKingMatch, ply: int, digest: str) -> bool:
    return m.ply == ply and m.state.state_hash() == digest and m.over is None


# =========================================================================== whole games
@pytest.mark.parametrize("seed, levels", [(1, ("greedy", "random")), (2, ("random", "greedy")), (3, ("random", "random"))])
def test_complete_games_end_with_identical_records_and_hashes(seed, levels):
    p = Pair("", (det_tokens(seed), det_tokens(seed + 50)))
    p.play([LAN.player(levels[0], seed), LAN.player(levels[1], seed + 1)])
    assert p.verdicts[0].kind == p.verdicts[1].kind == "finished" and p.verdicts[0].winners == p.verdicts[1].winners
    assert p.m[0].hashes == p.m[1].hashes and p.m[0].record() == p.m[1].record()
    rec = p.m[0].record()
    assert check(rec).startswith("ok finished") and {rec["red"], rec["white"]} == {"Ann", "Bob"}
    assert any(" draw " in m for m in rec["moves"])  # draws went through the coin
    assert p.m[0].host_color == p.m[1].host_color and p.m[0].color_of(0) != p.m[0].color_of(1)


def test_bytes_delivered_one_at_a_time_through_the_links_give_the_same_game():
    """Every message goes through a frame and the receiver's Link, byte by byte: the same
    secrets give the same game as direct delivery."""
    def game(trickle: bool) -> dict:
        p = Pair("", (det_tokens(9), det_tokens(90)))
        links = [Link(SCHEMAS, rates={"*": (1e9, 1e9)}) for _ in (0, 1)]

        def through_links() -> None:
            while p.wire:
                to, msg = p.wire.pop(0)
                data = frame(msg)
                got = [m for i in range(len(data)) for m in links[to].feed(data[i:i + 1], 0.0)] if trickle \
                    else links[to].feed(data, 0.0)
                assert got == [msg]
                p.out(to, p.m[to].receive(1 - to, got[0], 0.0))
        p.deliver = through_links  # type: ignore[method-assign]
        p.play([chooser(9), chooser(10)])
        return p.m[1].record()
    assert game(True) == game(False) and check(game(True)).startswith("ok finished")


def test_the_coin_decides_colours_and_deal_fairly_over_many_games():
    colours, deals = set(), set()
    for seed in range(40):
        p = Pair("", (det_tokens(seed), det_tokens(seed + 500)))
        p.deliver()
        assert p.m[0].state.state_hash() == p.m[1].state.state_hash()
        colours.add(p.m[0].host_color)
        deals.add(p.m[0].state.state_hash())
    assert colours == {Color.RED, Color.WHITE} and len(deals) == 40


def test_a_draw_is_decided_by_a_fresh_commit_reveal_on_both_sides():
    p = mid_game(6)
    until_mover_has_a_play(p)
    s, o = until_mover_can_draw(p)
    ply = p.m[s].ply
    out = p.m[s].act(Move(p.m[s].state.turn, DRAW, None), 0.0)
    assert isinstance(out[0], Save) and sends(out) == ["commit"]  # no secret yet, journaled first
    p.out(s, out)
    to, commit = p.wire.pop(0)
    answer = p.m[o].receive(s, commit, 0.0)
    assert sends(answer) == ["commit", "reveal"] and isinstance(answer[0], Save)
    p.out(o, answer)
    before = p.m[s].state.copy()
    p.deliver()
    c = p.m[s].coins[ply]
    both = (c.secret, c.their_secret) if s == 0 else (c.their_secret, c.secret)
    card = draw_from_coin(coin_digest(GID, ply, both), before)
    assert p.m[s].state.move_stack[-1] == Move(before.turn, DRAW, card) == p.m[o].state.move_stack[-1]
    assert p.m[0].hashes == p.m[1].hashes


# =========================================================================== the lobby's handshake
def rk_hello(**kw) -> dict:
    return {**hello(KEY, VERSION, "Eve", "join", b"e" * 16, b"n" * 16, b"k" * 32), **kw}


@pytest.mark.parametrize("change, code, words", [
    ({"gv": VERSION + 1}, "version", "this table needs a newer version"),
    ({"gv": VERSION - 1}, "version", "the peer needs a newer version"),
    ({"g": "royals-riots"}, "game", "this table plays rose-king"),
    ({"role": "host"}, "role", "both sides are hosts"),
    ({"game": b"\x01" * 16}, "game", "does not hold"),
])
def test_the_hosts_lobby_refuses_a_hello_it_cannot_seat(change, code, words):
    host = HostLobby(KEY, VERSION, "Alice", ("host", "person"))
    host.open(1, 0.0)
    drop = next(o for o in host.receive(1, rk_hello(**change), 0.0) if isinstance(o, LDrop))
    assert drop.code == code and words in drop.reason and host.seats == {}


def test_messages_before_the_handshake_a_second_handshake_and_ourselves_are_refused():
    host = HostLobby(KEY, VERSION, "Alice", ("host", "person"))
    (mine,) = host.open(1, 0.0)
    drop = next(o for o in host.receive(1, {"t": "ready", "game": GID}, 0.0) if isinstance(o, LDrop))
    assert drop.code == "order" and "before the handshake" in drop.reason
    host.open(2, 0.0)
    host.receive(2, rk_hello(), 0.0)
    drop = next(o for o in host.receive(2, rk_hello(), 0.0) if isinstance(o, LDrop))
    assert drop.code == "order" and "second handshake" in drop.reason
    host.open(3, 0.0)
    drop = next(o for o in host.receive(3, {**mine.msg, "role": "join"}, 0.0) if isinstance(o, LDrop))
    assert drop.code == "self"
    joiner = JoinLobby(KEY, VERSION, "Bob")
    joiner.open(0.0)
    drop = next(o for o in joiner.receive({**mine.msg, "gv": VERSION + 1}, 0.0) if isinstance(o, LDrop))
    assert drop.code == "version" and "this table needs a newer version" in drop.reason  # the joiner is older


@pytest.mark.parametrize("bad", ["", "x" * 33, "bell\a", "rtl\u202e", "zero\u200bwidth", "   "])
def test_a_bad_player_name_is_refused_locally(bad):
    from net.session import Session
    with pytest.raises(ValueError, match="player name"):
        Session(LAN, "host", bad, port=0)
    with pytest.raises(FrameError):
        frame(hello(KEY, VERSION, bad, "host", b"p" * 16, b"n" * 16, b"k" * 32))


# =========================================================================== coin faults
def fresh() -> tuple[RoseKingMatch, dict]:
    """The host's machine at the start: its set-up commitment sent, nothing heard."""
    m = RoseKingMatch(0, table(), det_tokens(1))
    out = m.start(0.0)
    return m, next(o.msg for o in out if isinstance(o, Send))


def test_a_reveal_before_the_commitment_is_refused_and_the_coin_kept():
    m, _ = fresh()
    with pytest.raises(Refusal) as e:
        m.receive(1, {"t": "reveal", "for": SETUP, "s": b"s" * 32}, 0.0)
    assert e.value.code == "order" and "before the commitment" in str(e.value) and m.state is None


def test_an_echoed_commitment_stops_the_set_up_and_our_secret_is_never_shown():
    m, commit = fresh()
    out = m.receive(1, {"t": "commit", "for": SETUP, "c": commit["c"]}, 0.0)
    v = verdict(out)
    assert (v.kind, v.seat) == ("coin", 1) and "echoed" in v.detail and "reveal" not in sends(out)


def test_a_reveal_that_does_not_open_its_commitment_stops_the_set_up():
    m, _ = fresh()
    m.receive(1, {"t": "commit", "for": SETUP, "c": commitment(GID, SETUP, 1, b"s" * 32)}, 0.0)
    v = verdict(m.receive(1, {"t": "reveal", "for": SETUP, "s": b"t" * 32}, 0.0))
    assert (v.kind, v.seat) == ("coin", 1) and "does not open" in v.detail and m.state is None


def test_an_honest_commitment_and_reveal_made_by_hand_deal_the_game():
    m, _ = fresh()
    m.receive(1, {"t": "commit", "for": SETUP, "c": commitment(GID, SETUP, 1, b"s" * 32)}, 0.0)
    out = m.receive(1, {"t": "reveal", "for": SETUP, "s": b"s" * 32}, 0.0)
    assert any(getattr(o, "code", "") == "dealt" for o in out)
    colour, red, white = setup_from_coin(coin_digest(GID, SETUP, (m.coins[SETUP].secret, b"s" * 32)))
    assert m.host_color == colour and m.state.state_hash() == State(red, white).state_hash()


def test_a_repeated_identical_commitment_is_ignored_and_a_different_one_is_a_re_roll():
    """After a resume the joiner re-sends its whole outbox: a repeat is recognised and ignored;
    a different commitment for a coin already fixed is the sender's forfeit (a draw's) or
    ``coin`` (the set-up's)."""
    p = Pair()
    drawn_by(p, 1)
    honest = p.m[0]
    ply = honest.ply
    their = honest.coins[ply].their_commit
    assert honest.receive(1, {"t": "commit", "for": ply, "c": their}, 0.0) == []
    v = verdict(honest.receive(1, {"t": "commit", "for": ply, "c": b"\x09" * 32}, 0.0))
    assert (v.kind, v.seat) == ("forfeit", 1) and "re-roll" in v.detail


def test_a_withheld_commitment_only_cuts_the_connection_and_keeps_the_game():
    p = mid_game(6)
    until_mover_has_a_play(p)
    s, o = until_mover_can_draw(p)
    digest = p.m[s].state.state_hash()
    p.m[s].act(Move(p.m[s].state.turn, DRAW, None), 100.0)  # its commitment; the answer never comes
    late = overdue(p.m[s].owed(), 100.0 + COMMIT_S)
    assert (late.seat, late.step, late.forfeits) == (o, "commit", False)
    assert overdue(p.m[s].owed(), 100.0 + COMMIT_S - 0.01) is None
    assert p.m[s].ply == p.m[o].ply and p.m[s].state.state_hash() == digest and p.m[s].over is None


# =========================================================================== move faults
def move_msg(m: RoseKingMatch, move: Move, ply: int | None = None, digest: bytes | None = None) -> dict:
    st = m.state.copy()
    st.push(move)
    return {"t": "move", "ply": ply or st.ply, "m": str(move), "hash": digest or bytes.fromhex(st.state_hash())}


def test_a_move_out_of_turn_or_against_the_rules_stops_the_game_with_the_engines_reason():
    p = mid_game(4)
    until_mover_has_a_play(p)
    s, o = sides(p)
    mover = p.m[s]
    some = next(x for x in mover.state.legal_moves() if x.kind is not DRAW)
    digest = mover.state.state_hash()
    v = verdict(mover.receive(o, move_msg(mover, Move(mover.color_of(o), some.kind, some.card)), 0.0))
    assert (v.kind, v.seat) == ("illegal", o) and v.ply == 4 and kept(mover, 4, digest)
    p = mid_game(4)
    until_mover_has_a_play(p)
    s, o = sides(p)
    waiter = p.m[o]
    not_in_hand = waiter.state.draw_pile_cards()[0]
    bad = Move(waiter.color_of(s), Move.from_str("red play N1").kind, not_in_hand)
    v = verdict(waiter.receive(s, {"t": "move", "ply": 5, "m": str(bad), "hash": b"h" * 32}, 0.0))
    assert (v.kind, v.seat) == ("illegal", s) and "not in hand" in v.detail and waiter.ply == 4


def test_a_draw_outside_the_coin_is_refused():
    p = mid_game(4)
    s, o = sides(p)
    card = p.m[o].state.chance_outcomes()[0]
    v = verdict(p.m[o].receive(s, {"t": "move", "ply": 5, "m": str(Move(p.m[o].color_of(s), DRAW, card)),
                                   "hash": b"h" * 32}, 0.0))
    assert (v.kind, v.seat) == ("illegal", s) and p.m[o].ply == 4


def test_a_repeated_ply_is_ignored_if_identical_and_a_desync_if_not():
    p = mid_game(6)
    m = p.m[0]
    last = m.state.move_stack[-1]
    if last.kind is DRAW or last.player == m.color_of(0):
        m = p.m[1]
    if m.state.move_stack[-1].kind is not DRAW and m.state.move_stack[-1].player != m.color_of(m.seat):
        assert m.receive(1 - m.seat, {"t": "move", "ply": 6, "m": str(m.state.move_stack[-1]),
                                      "hash": m.hashes[6]}, 0.0) == []
        assert m.ply == 6 and m.over is None
    v = verdict(p.m[0].receive(1, {"t": "move", "ply": 3, "m": "red play N1", "hash": b"x" * 32}, 0.0))
    assert v.kind == "desync" and v.ply == 3


def test_a_gap_in_plies_or_an_ack_of_a_ply_never_made_is_refused_and_keeps_the_game():
    p = mid_game(6)
    digest = p.m[0].state.state_hash()
    for msg in ({"t": "move", "ply": 9, "m": "red play N1", "hash": b"x" * 32},
                {"t": "ack", "ply": 40, "hash": b"a" * 32}):
        with pytest.raises(Refusal) as e:
            p.m[0].receive(1, msg, 0.0)
        assert e.value.code == "order" and kept(p.m[0], 6, digest)


def test_a_wrong_hash_is_a_desync_and_the_move_is_not_kept():
    p = mid_game(4)
    until_mover_has_a_play(p)
    s, o = sides(p)
    move = next(x for x in p.m[s].state.legal_moves() if x.kind is not DRAW)
    digest = p.m[o].state.state_hash()
    v = verdict(p.m[o].receive(s, move_msg(p.m[o], move, digest=b"w" * 32), 0.0))
    assert v.kind == "desync" and p.m[o].ply == 4 and p.m[o].state.state_hash() == digest
    v = verdict(p.m[s].receive(o, {"t": "ack", "ply": 4, "hash": b"w" * 32}, 0.0))
    assert v.kind == "desync"


def test_a_local_illegal_move_raises_and_sends_nothing():
    p = mid_game(4)
    until_mover_has_a_play(p)
    s, o = sides(p)
    move = next(x for x in p.m[s].state.legal_moves() if x.kind is not DRAW)
    before = [m.payload() for m in p.m]
    with pytest.raises(IllegalMoveError, match="not your turn"):
        p.m[o].act(Move(p.m[o].color_of(o), move.kind, move.card), 0.0)
    with pytest.raises(IllegalMoveError, match="you play"):
        p.m[s].act(Move(p.m[s].color_of(o), move.kind, move.card), 0.0)
    with pytest.raises(IllegalMoveError):
        p.m[s].act(Move(move.player, move.kind, p.m[s].state.draw_pile_cards()[0]), 0.0)
    with pytest.raises(ValueError):
        p.m[s].act("nonsense", 0.0)
    assert [m.payload() for m in p.m] == before and p.wire == []


# =========================================================================== the link
def test_heartbeat_when_idle_and_the_connection_closes_after_silence():
    link = Link(SCHEMAS, now=0.0)
    link.settled = True
    link.tick(HEARTBEAT - 0.1)
    assert link.data_to_send() == b""
    link.tick(HEARTBEAT)
    assert FrameDecoder(SCHEMAS).feed(link.data_to_send()) == [{"t": "ping"}]
    half = frame({"t": "ack", "ply": 1, "hash": b"h" * 32})
    t = HEARTBEAT
    for i in range(len(half) - 1):  # bytes trickle in, never a whole message: not hearing from the peer
        t += 0.5
        link.feed(half[i:i + 1], t)
        link.tick(t)
        if link.closed:
            break
    assert link.closed.code == "timeout" and t <= SILENCE + 0.5


def test_a_ping_flood_closes_the_link_and_pings_at_a_normal_rate_do_not():
    from net.lobby import rates_for
    link = Link(SCHEMAS, rates=rates_for(dict(LAN.rates)), now=0.0)
    for i in range(100):
        link.feed(frame({"t": "ping"}), i * 1.0)
    assert link.closed is None
    link.feed(frame({"t": "ping"}) * 200, 100.0)
    assert link.closed.code == "flood"


def test_a_truncated_frame_then_the_end_of_the_stream_says_so():
    link = Link(SCHEMAS)
    assert link.feed(frame({"t": "ack", "ply": 1, "hash": b"h" * 32})[:7], 0.0) == []
    link.feed(b"", 0.1)
    assert link.closed.code == "eof" and "middle of a frame" in link.closed.reason


def raw(obj) -> bytes:
    payload = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


@pytest.mark.parametrize("junk, code", [
    (b"\0\0\0\0", "frame"),
    (b"\xff\xff\xff\xff" + b"x" * 100, "frame"),
    (b"GET / HTTP/1.1\r\n\r\n", "frame"),
    (raw({"t": "ack", "ply": 1}), "schema"),
    (raw({"t": "ack", "ply": "1", "hash": b"h" * 32}), "schema"),
    (raw({"t": "move", "ply": 5, "m": "red play N1", "hash": b"h" * 32, "x": 1}), "schema"),
    (raw({"t": "draw", "ply": 5, "m": "red draw N1", "hash": b"h" * 32}), "schema"),
    (raw({"t": "resign", "ply": 5}), "schema"),
    (raw({"t": "commit", "for": -2, "c": b"c" * 32}), "schema"),
    (raw({"t": "move", "ply": 5, "m": "red jump N1", "hash": b"h" * 32}), "schema"),
])
def test_junk_closes_the_link_with_a_reason_and_the_game_is_kept(junk, code):
    """What the frame, the schema or the machine refuses closes the link (the session closes it
    with the machine's :class:`Refusal`) and the game is kept as it was."""
    p = mid_game(4)
    digest = p.m[0].state.state_hash()
    link = Link(SCHEMAS)
    for msg in link.feed(junk, 0.0):
        try:
            p.m[0].receive(1, msg, 0.0)
        except Refusal as e:
            link.close(e.code, str(e))
    assert link.closed is not None and link.closed.code == code and kept(p.m[0], 4, digest)
    err = FrameDecoder(SCHEMAS).feed(link.data_to_send())[-1]
    assert err["t"] == "error" and err["reason"] == link.closed.reason


def test_a_move_text_that_is_no_move_is_refused_with_schema():
    p = mid_game(4)
    with pytest.raises(Refusal) as e:
        p.m[0].receive(1, {"t": "move", "ply": 5, "m": "red jump N1", "hash": b"h" * 32}, 0.0)
    assert e.value.code == "schema" and p.m[0].ply == 4


# =========================================================================== resume
def reconnect(p: Pair, lost: bool = True) -> None:
    """The connection drops (``lost``: whatever was on the wire is lost); the joiner comes back
    holding ``have`` of the host's messages; the host sends the rest, the joiner re-sends its outbox."""
    if lost:
        p.wire.clear()
    p.out(0, p.m[0].catch_up(1, p.m[1].received(), 0.0))
    p.out(1, p.m[1].catch_up(0, 0, 0.0))
    p.deliver()


def test_resume_after_a_drop_sends_the_missing_move_and_the_game_finishes():
    p = mid_game(8)
    until_mover_has_a_play(p)
    s, _ = sides(p)
    ply = p.m[s].ply
    p.out(s, p.m[s].act(next(x for x in p.m[s].state.legal_moves() if x.kind is not DRAW), 0.0))
    reconnect(p)  # the move was lost on the wire
    assert p.m[0].ply == p.m[1].ply == ply + 1 and p.m[0].hashes == p.m[1].hashes
    p.play([chooser(1), chooser(2)])
    assert p.m[0].record() == p.m[1].record() and check(p.m[0].record()).startswith("ok finished")


def test_resume_after_a_draw_interrupted_mid_coin():
    p = Pair()
    drawn_by(p, 0)  # the host knows its card; its reveal is lost with the connection
    p.out(0, [o for o in p.m[0].receive(1, p.wire.pop(0)[1], 0.0)])  # the joiner's commitment ...
    p.out(0, p.m[0].receive(1, p.wire.pop(0)[1], 0.0))  # ... and reveal
    assert p.m[0].ply == p.m[1].ply + 1
    reconnect(p)
    assert p.m[0].hashes == p.m[1].hashes
    p.play([chooser(1), chooser(2)])
    assert p.m[0].record() == p.m[1].record()


@pytest.mark.parametrize("seat", [0, 1])
def test_a_peer_restarted_from_its_journal_payload_resumes_and_finishes(seat):
    p = mid_game(10)
    restored = RoseKingMatch(seat, table(), os.urandom, p.m[seat].payload())
    assert restored.hashes == p.m[seat].hashes and restored.payload() == p.m[seat].payload()
    p.m[seat] = restored
    reconnect(p, lost=False)
    p.play([chooser(5), chooser(6)])
    assert p.m[0].record() == p.m[1].record() and p.verdicts[0].kind == "finished"


@pytest.mark.parametrize("lie", ["card", "moves-without-deal", "bad-secret"])
def test_a_journal_payload_that_does_not_check_is_refused(lie):
    p = mid_game(10)
    payload = p.m[1].payload()
    if lie == "card":  # a draw whose card does not follow from its coin
        i = next(i for i, m in enumerate(payload["moves"]) if " draw " in m)
        old = Move.from_str(payload["moves"][i])
        replay = RoseKingMatch(1, table(), os.urandom, {**payload, "moves": payload["moves"][:i]})
        other = next(c for c in replay.state.chance_outcomes() if c != old.card)
        payload["moves"][i] = str(Move(old.player, DRAW, other))
    elif lie == "moves-without-deal":
        payload["coins"] = []
    else:
        payload["coins"][0][1] = "zz"
    with pytest.raises(ValueError, match="Rose King LAN journal"):
        RoseKingMatch(1, table(), os.urandom, payload)


def test_a_resumed_joiner_holding_more_than_was_sent_is_refused():
    p = mid_game(4)
    with pytest.raises(Refusal) as e:
        p.m[0].catch_up(1, len(p.m[0].outbox) + 1, 0.0)
    assert e.value.code == "order"


def test_a_different_history_after_a_resume_is_a_desync():
    p = mid_game(6)
    forged = RoseKingMatch(1, table(), os.urandom, p.m[1].payload())
    forged.outbox = [dict(m) for m in forged.outbox]
    own = next(i for i, m in enumerate(forged.outbox) if m["t"] == "move")
    forged.outbox[own]["hash"] = b"\x00" * 32  # the joiner "remembers" another position
    p.m[1] = forged
    p.out(1, forged.catch_up(0, 0, 0.0))
    p.deliver()
    assert p.verdicts[0].kind == "desync"


# =========================================================================== resignation
def test_a_resignation_ends_the_game_on_both_sides_with_equal_records():
    p = mid_game(4)
    p.out(1, p.m[1].act(RESIGN, 0.0))
    v = p.verdicts[1]
    assert (v.kind, v.seat) == ("resigned", 1)
    p.end(0, judge_stop(p.m[0].owed(), 0, 1, "resigned", 1, v.ply))
    assert p.m[0].record() == p.m[1].record()
    rec = p.m[0].record()
    assert rec["lan"]["resigned"] == str(p.m[0].color_of(1)) and check(rec).startswith("ok finished")
    with pytest.raises(ValueError):
        p.m[0].act(RESIGN, 0.0)


def test_a_move_crossing_a_resignation_is_void_on_both_sides():
    p = mid_game(4)
    until_mover_has_a_play(p)
    s, o = sides(p)
    p.out(s, p.m[s].act(next(x for x in p.m[s].state.legal_moves() if x.kind is not DRAW), 0.0))
    p.out(o, p.m[o].act(RESIGN, 0.0))  # before the move arrives
    p.end(s, judge_stop(p.m[s].owed(), s, o, "resigned", o, p.verdicts[o].ply))
    p.deliver()  # the resigner's machine is over: the move is dropped quietly
    assert p.m[0].record() == p.m[1].record() and p.m[0].ply == 4


def test_a_draw_crossing_a_resignation_ends_both_records_alike():
    p = Pair()
    drawn_by(p, 0)  # the host opened its draw and got the joiner's answer: the joiner resigns now
    with pytest.raises(ValueError):
        p.m[0].act(RESIGN, 0.0)  # not while its own draw is decided
    p.out(1, p.m[1].act(RESIGN, 0.0))
    p.end(0, judge_stop(p.m[0].owed(), 0, 1, "resigned", 1, p.verdicts[1].ply))
    p.deliver()
    assert p.m[0].record()["termination"]["kind"] == "resigned"
    assert p.m[0].record() == p.m[1].record()


# =========================================================================== the host's colour
@pytest.mark.parametrize("choice", ["red", "white"])
def test_a_chosen_colour_is_the_hosts_on_both_sides_and_the_coin_still_deals(choice):
    for seed in range(1, 9):
        p = Pair(choice, (det_tokens(seed), det_tokens(seed + 70)))
        p.deliver()
        assert str(p.m[0].host_color) == str(p.m[1].host_color) == choice
        c = p.m[0].coins[SETUP]
        _, red, white = setup_from_coin(coin_digest(GID, SETUP, (c.secret, c.their_secret)))
        assert p.m[0].state.state_hash() == State(red, white).state_hash() == p.m[1].state.state_hash()
        rec = p.m[0].record()
        assert (rec["red"], rec["white"]) == (("Ann", "Bob") if choice == "red" else ("Bob", "Ann"))


def test_random_is_the_coins_choice_and_a_bad_option_counts_as_random():
    seen = set()
    for seed in range(1, 12):
        for opt in ("", "blue"):
            p = Pair("", (det_tokens(seed), det_tokens(seed + 70)))
            if opt:
                p.m = [RoseKingMatch(s, table(opt), (det_tokens(seed), det_tokens(seed + 70))[s]) for s in (0, 1)]
                p.wire = []
                for s in (0, 1):
                    p.out(s, p.m[s].start(0.0))
            p.deliver()
            c = p.m[0].coins[SETUP]
            assert p.m[0].host_color == setup_from_coin(coin_digest(GID, SETUP, (c.secret, c.their_secret)))[0]
            seen.add(p.m[0].host_color)
    assert seen == {Color.RED, Color.WHITE}


def test_a_choice_survives_a_set_up_coin_interrupted_before_the_reveals():
    p = Pair("white")
    to, commit = p.wire.pop(0)  # the host's commitment reaches the joiner, nothing more
    p.out(to, p.m[to].receive(0, commit, 0.0))
    restored = [RoseKingMatch(s, table("white"), os.urandom, p.m[s].payload()) for s in (0, 1)]
    p.m, p.wire = restored, []
    reconnect(p, lost=False)
    assert str(p.m[0].host_color) == str(p.m[1].host_color) == "white"


def test_only_the_host_chooses():
    """A joiner's hello has no colour (its schema refuses one); the table's option comes in the
    host's ``start`` only."""
    with pytest.raises(FrameError, match="unexpected|keys"):
        frame({**rk_hello(), "colour": "red"})
    link = Link(SCHEMAS)
    link.feed(raw({**rk_hello(), "colour": "red"}), 0.0)
    assert link.closed.code == "schema"
    joiner = JoinLobby(KEY, VERSION, "Bob")
    (h,) = joiner.open(0.0)
    assert isinstance(h, LSend) and "colour" not in h.msg and "opt" not in h.msg


def test_a_joiner_takes_its_seat_back_only_from_the_host_of_its_match():
    """On resume the joiner checks the host's seat proof before anything, and that the repeated
    ``start`` names the same match, names and seat (else ``seat``); a ``start`` before the proof
    is ``order``."""
    from net.coin import seat_proof
    from net.lobby import SeatMemo
    memo = SeatMemo(table(), 1, {0: b"\x03" * 32}, {0: b"\x04" * 32})
    hn = b"h" * 16
    host_hello = {**hello(KEY, VERSION, "Ann", "host", b"p" * 16, hn, b"k" * 32), "game": GID}
    start = {"t": "start", "game": GID, "you": 1, "names": ["Ann", "Bob"], "date": "", "opt": {}, "comp": [], "sk": []}

    def joiner() -> JoinLobby:
        j = JoinLobby(KEY, VERSION, "Bob", memo=memo, token_bytes=det_tokens(7))
        j.open(0.0, 3)
        (auth,) = j.receive(host_hello, 0.0)
        assert auth.msg["proof"] == seat_proof(b"\x03" * 32, GID, 1, hn)
        return j
    j = joiner()
    drop = next(o for o in j.receive(start, 0.0) if isinstance(o, LDrop))
    assert drop.code == "order"
    j = joiner()
    drop = next(o for o in j.receive({"t": "auth", "proof": b"\x00" * 32}, 0.0) if isinstance(o, LDrop))
    assert drop.code == "seat" and "could not prove" in drop.reason
    for lie in ({"names": ["Eve", "Bob"]}, {"game": b"\x01" * 16}, {"comp": [1]}):
        j = joiner()
        j.receive({"t": "auth", "proof": seat_proof(b"\x04" * 32, GID, 0, j.nonce)}, 0.0)
        drop = next(o for o in j.receive({**start, **lie}, 0.0) if isinstance(o, LDrop))
        assert drop.code == "seat", lie
    j = joiner()
    j.receive({"t": "auth", "proof": seat_proof(b"\x04" * 32, GID, 0, j.nonce)}, 0.0)
    assert [type(o).__name__ for o in j.receive(start, 0.0)] == ["LSeated"]
