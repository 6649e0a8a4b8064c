"""The known attacks on Rose King's match machine over the one LAN layer, on 127.0.0.1: Mallory
(tests/net/rk_wire.py, a joiner whose every byte the test controls, speaking the version-3 wire
of docs/protocol.md) against an honest headless host (a Session whose computer plays in a thread).
Each attack is refused: the verdict names the cheat, the record says so, nothing acknowledged is
taken back. Every wait is bounded and driven by events or by what arrives, never by sleeps.

Classes: 1 coins, 2 re-rolls and withheld reveals, 3 catch-up, 4 copies, 5 seats,
6 resignation and claims, 7 limits; then 1a/1b false forfeit claims, 2 escaping a forfeit
by a stop, 3 seat squatting, 4 liveness."""

from __future__ import annotations

import json
import socket
import stat
import struct

import msgpack
import pytest

import game.roseking.lan.match as rkm
from game.commands.layer import PLAYED
from game.registry import game_by_key
from game.roseking.engine import DRAW, Move
from net.coin import commitment
from net.journal import seat_path
from net.lobby import SeatMemo
from net.session import Dropped, Noticed, Refused, Session, Started

from .rk_wire import LIMIT, EvilHost, Host, Mallory, frame

check = game_by_key("rose-king").check


def draw_first(state) -> Move:
    """The host's player here: a draw whenever one is legal, else the first legal move."""
    moves = state.legal_moves()
    return next((m for m in moves if m.kind is DRAW), moves[0])


@pytest.fixture
def host(tmp_path):
    h = Host(tmp_path)
    yield h
    h.close()


@pytest.fixture
def closing():
    """``add(x)``: closed at the end of the test (Mallories, sessions)."""
    made: list = []
    yield made.append
    for x in made:
        x.close()


def started(m: Mallory) -> bool:
    return m.machine is not None and m.machine.state is not None


def at_my_turn(m: Mallory, plies: int) -> None:
    """Play on until ``plies`` are played and it is Mallory's turn with its own last move
    acknowledged (nothing in flight: the host waits for Mallory)."""
    def ready() -> bool:
        if not (started(m) and m.machine.ply >= plies and m.my_turn()
                and any(x.kind is not DRAW for x in m.machine.state.legal_moves())):
            return False
        mine = m.machine.color_of(1)
        last = max((i for i, x in enumerate(m.machine.state.move_stack, 1) if x.player == mine), default=0)
        return m.machine.acked >= last
    m.until(ready, f"its turn after {plies} plies", play=True)


def raw_frame(obj: dict) -> bytes:
    payload = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


# =========================================================================== 1. coins
@pytest.mark.parametrize("kind", ["move", "draw"])
def test_1_a_draw_card_announced_by_one_side_is_refused(host, closing, kind):
    """No message announces a draw's card: a ``move`` saying "draw" is illegal (the match stops,
    naming Mallory); a version-2 ``draw`` message is no message of this protocol (``schema``: that
    connection is closed, the match goes on). Either way the card is not taken on."""
    m = Mallory(host.port)
    closing(m)
    m.until(m.can_draw, "a turn where it can draw")
    st = m.machine.state
    best = Move(st.turn, DRAW, st.chance_outcomes()[-1])
    after = st.copy()
    after.push(best)
    msg = {"t": kind, "ply": st.ply + 1, "m": str(best), "hash": bytes.fromhex(after.state_hash())}
    if kind == "move":
        m.send(msg)
        v = host.verdict()
        assert (v.kind, v.seat) == ("illegal", 1) and "may not play" in v.detail
    else:
        m.raw(raw_frame({**msg, "s": [b"\x01" * 32, b"\x02" * 32]}))
        assert m.closed_with()[0] == "schema"
        host.wait(lambda e: isinstance(e, Dropped) and e.code == "schema", "the refusal")
        assert host.session.verdict is None
    assert host.view(lambda hm: hm.ply) == st.ply  # the card was not taken on


def test_1_nobody_reveals_before_holding_the_others_commitment(host, closing, monkeypatch):
    """Mallory never commits to the set-up coin: the host shows its commitment, never its secret,
    and after the commitment's deadline (6 s; 0.5 s here) only cuts the connection (``withheld``):
    nothing was seen, so nothing is forfeited and the seat is free again."""
    monkeypatch.setattr(rkm, "COMMIT_S", 0.5)
    m = Mallory(host.port, hold=("commit", "reveal"))
    closing(m)
    code, reason = m.closed_with("the cut")
    assert code == "withheld" and "commit" in reason
    assert [x["t"] for x in m.got if x["t"] in ("commit", "reveal")] == ["commit"]
    assert host.session.verdict is None
    bob = Session(rkm.LAN, "join", "Bob", port=host.port, reconnect_delay=0.05)
    closing(bob)
    host.wait(lambda e: isinstance(e, Started) and e.table.names == ("Alice", "Bob"), "the next player seated")


def test_1_a_peer_that_changes_its_secret_after_seeing_ours_forfeits(host, closing):
    m = Mallory(host.port)
    closing(m)
    ply = m.draw_and_see_the_card()
    m.send({"t": "reveal", "for": ply, "s": b"\x07" * 32})  # a secret that gives a better card
    v = host.verdict()
    assert (v.kind, v.seat) == ("forfeit", 1) and "does not open" in v.detail
    rec = host.view(lambda hm: hm.record())
    loser = str(m.machine.color_of(1))
    assert rec["termination"] == {"kind": "forfeit", "loser": loser} and len(rec["moves"]) == ply
    assert check(rec).startswith("ok finished") and "termination=forfeit" in check(rec)
    over = m.closed_with()
    assert over[0] == "forfeit" and any(x["t"] == "over" and x["kind"] == "forfeit" for x in m.got)


def test_1_an_echoed_commitment_is_a_coin_fault_and_our_secret_stays_unseen(host, closing):
    m = Mallory(host.port, hold=("commit", "reveal"))
    closing(m)
    m.until(lambda: any(x["t"] == "commit" for x in m.got), "the host's commitment", play=False)
    theirs = next(x for x in m.got if x["t"] == "commit")
    m.send({"t": "commit", "for": -1, "c": theirs["c"]})
    v = host.verdict()
    assert (v.kind, v.seat) == ("coin", 1) and "echoed" in v.detail
    m.closed_with()
    assert not any(x["t"] == "reveal" for x in m.got)  # the host's secret never left
    rec = host.file()
    assert rec["format"] == "rose-king-lan-undealt" and rec["lan"]["stopped"] == "coin"


# =========================================================================== 2. no re-rolls
def test_2_a_withheld_reveal_forfeits_at_the_deadline_and_the_record_says_so(host, closing, monkeypatch):
    """Mallory knows its card and keeps its reveal, staying connected (its pings flow): after
    the reveal's deadline (10 s connected; 0.5 s here) it forfeits."""
    monkeypatch.setattr(rkm, "REVEAL_S", 0.5)
    m = Mallory(host.port)
    closing(m)
    ply = m.draw_and_see_the_card()
    m.until(lambda: m.link.closed is not None or m.eof, "the verdict", play=False)
    v = host.verdict()
    assert (v.kind, v.seat) == ("forfeit", 1) and "withheld its reveal" in v.detail
    rec = host.file()
    assert rec["termination"] == {"kind": "forfeit", "loser": str(m.machine.color_of(1))}
    assert len(rec["moves"]) == ply and check(rec).startswith("ok finished")
    assert rec["lan"]["forfeit"] == str(m.machine.color_of(1))


def test_2_dropping_the_connection_does_not_escape_the_forfeit(host, closing, monkeypatch):
    """Mallory knows its card and drops the connection: the reveal's total deadline (60 s; 1 s
    here) runs on while it is away; coming back with its seat proof, it hears the verdict, even
    though its re-sent outbox and a ping reach the host only after the host closed (the host
    lingers: a reset would lose the verdict)."""
    monkeypatch.setattr(rkm, "FORFEIT_S", 1.0)
    m = Mallory(host.port)
    ply = m.draw_and_see_the_card()
    memo, payload = m.lobby.memo, m.machine.payload()
    m.close()
    host.wait(lambda e: isinstance(e, Dropped) and e.code == "eof", "the drop")
    v = host.verdict()
    assert (v.kind, v.seat) == ("forfeit", 1) and host.view(lambda hm: hm.ply) == ply
    back = Mallory(host.port, memo=memo, payload=payload, hold=("reveal",))
    closing(back)
    back.until(lambda: back.resumed, "its seat back", play=False)  # its outbox is on its way
    host.wait(lambda e: isinstance(e, Dropped) and e.code == "forfeit" and not e.by_peer, "the verdict sent")
    back.send({"t": "ping"})  # bytes after the host closed: a reset, unless the host lingers
    assert back.closed_with("the verdict")[0] == "forfeit"
    assert any(x["t"] == "over" and (x["kind"], x["seat"]) == ("forfeit", 1) for x in back.got)


def test_2_a_new_commitment_after_reconnecting_is_a_re_roll_and_forfeits(host, closing):
    """Mallory drops, comes back with its seat proof and, instead of its journaled coin, a fresh
    commitment for the same draw (a modified client, or a journal edited by hand)."""
    m = Mallory(host.port)
    ply = m.draw_and_see_the_card()
    memo, payload = m.lobby.memo, m.machine.payload()
    m.close()
    host.wait(lambda e: isinstance(e, Dropped), "the drop")
    back = Mallory(host.port, memo=memo, payload=payload, hold=("commit", "reveal", "move", "ack"))
    closing(back)
    back.until(lambda: back.resumed, "its seat back", play=False)
    back.send({"t": "commit", "for": ply, "c": commitment(memo.table.game_id, ply, 1, b"\x09" * 32)})
    v = host.verdict()
    assert (v.kind, v.seat) == ("forfeit", 1) and "re-roll" in v.detail
    assert host.view(lambda hm: hm.ply) == ply


def test_2_after_a_drop_the_same_coin_is_finished_not_tossed_anew_and_the_game_ends(host, closing):
    m = Mallory(host.port)
    ply = m.draw_and_see_the_card()
    secret = host.view(lambda hm: hm.coins[ply].secret)
    memo, payload = m.lobby.memo, m.machine.payload()
    m.close()  # its reveal never left
    host.wait(lambda e: isinstance(e, Dropped), "the drop")
    back = Mallory(host.port, memo=memo, payload=payload)  # honest again: re-sends its outbox
    closing(back)
    back.until(lambda: back.machine.over is not None, "the end of the game")
    v = host.verdict()
    assert v.kind == back.machine.over.kind == "finished"
    assert host.view(lambda hm: hm.coins[ply].secret) == secret  # the same coin, finished
    assert host.view(lambda hm: hm.record()) == back.machine.record()


def unhex(msg: dict) -> dict:
    """A message of the journal's outbox as it travels (its binaries are hex in the journal)."""
    return {k: bytes.fromhex(x) if k in ("c", "s", "hash") else x for k, x in msg.items()}


def test_2_promises_are_journaled_before_they_are_sent(host, closing):
    """Whenever a commitment, reveal or move of the host's arrives, the host's journal already
    holds it (docs/protocol.md, "The session": a Save is written before the sends after it)."""
    journal = seat_path(host.record)
    m = Mallory(host.port)
    closing(m)
    seen = 0
    while seen < 30:
        m.until(lambda: len(m.got) > seen, "more from the host")
        for msg in m.got[seen:]:
            if msg["t"] not in ("commit", "reveal", "move"):
                continue
            p = json.loads(journal.read_text())["match"]
            if msg["t"] == "move":
                assert len(p["moves"]) >= msg["ply"], msg
            else:
                coin = next((c for c in p["coins"] if c[0] == msg["for"]), None)
                assert coin is not None and (msg["t"] == "commit" or coin[4]), (msg, coin)
            assert any(unhex(o) == msg for o in p["outbox"]), msg  # the message itself was journaled
        seen = len(m.got)


# =========================================================================== 3. catch-up and positions
@pytest.mark.parametrize("lie", ["hosts-colour", "held-ply", "hash", "ack"])
def test_3_moves_and_positions_the_host_never_held_are_refused(host, closing, lie):
    """At Mallory's turn (nothing in flight): a move in the host's colour (a move "we made" that
    we did not), another move for a ply both hold, a move whose hash differs, an ack of another
    position. Nothing of it is kept."""
    m = Mallory(host.port)
    closing(m)
    at_my_turn(m, 6)
    n = m.machine.ply
    st = m.machine.state
    ours = m.machine.color_of(0)
    if lie == "hosts-colour":
        some = next(x for x in st.legal_moves() if x.kind is not DRAW)
        m.send({"t": "move", "ply": n + 1, "m": str(Move(ours, some.kind, some.card)), "hash": b"\x00" * 32})
        want = ("illegal", 1)
    elif lie == "held-ply":
        old = st.move_stack[n - 1]
        text = "red play N1" if str(old) != "red play N1" else "red play N2"
        m.send({"t": "move", "ply": n, "m": text, "hash": b"\x00" * 32})
        want = ("desync", -1)
    elif lie == "hash":
        m.send({"t": "move", "ply": n + 1, "m": str(next(x for x in st.legal_moves() if x.kind is not DRAW)),
                "hash": b"\x00" * 32})
        want = ("desync", -1)
    else:
        m.send({"t": "ack", "ply": n, "hash": b"\x00" * 32})
        want = ("desync", -1)
    v = host.verdict()
    assert (v.kind, v.seat) == want
    assert host.view(lambda hm: (hm.ply, hm.state.state_hash())) == (n, st.state_hash())
    assert host.file()["lan"]["stopped"] == want[0]


@pytest.mark.parametrize("what", ["sync", "gap", "reveal-first"])
def test_4_messages_out_of_order_close_only_that_connection_and_the_seat_resumes(host, closing, what):
    """A version-2 ``sync`` copy nobody asked for (no message of this protocol: ``schema``), a
    move beyond the next ply, a reveal for a coin never committed (``order``): the connection is
    closed, the game kept, and the player takes its seat back with its proof."""
    m = Mallory(host.port)
    at_my_turn(m, 4)
    n = m.machine.ply
    if what == "sync":
        m.raw(raw_frame({"t": "sync", "game": m.machine.table.game_id, "moves": [], "hash": b"\x00" * 32}))
    elif what == "gap":
        m.send({"t": "move", "ply": n + 3, "m": "red play N1", "hash": b"\x00" * 32})
    else:
        m.send({"t": "reveal", "for": n + 5, "s": b"\x05" * 32})
    code, _ = m.closed_with()
    assert code == ("schema" if what == "sync" else "order")
    assert host.session.verdict is None and host.view(lambda hm: hm.ply) == n
    m.close()
    back = Mallory(host.port, memo=m.lobby.memo, payload=m.machine.payload())
    closing(back)
    back.until(lambda: back.resumed, "its seat back", play=False)
    host.wait(lambda e: isinstance(e, Started) and e.resumed, "the resume")


# =========================================================================== 5. seats
def test_5_strangers_cannot_take_the_seat_and_the_game_goes_on_to_its_end(host, closing):
    """While Mallory plays: a stranger with a fresh hello ("the table is full"), one that knows
    the game id but not the resume secret, and one replaying a proof recorded on the wire (bound to
    another nonce) are refused on their own connection; the game is untouched and ends."""
    m = Mallory(host.port)
    closing(m)
    at_my_turn(m, 4)
    memo = m.lobby.memo
    m.close()  # Mallory comes back; its hello and proof are "recorded" by Eve
    host.wait(lambda e: isinstance(e, Dropped), "the drop")
    sent: list[bytes] = []
    back = Mallory(host.port, memo=memo, payload=m.machine.payload(), hello=False)
    closing(back)
    back.raw = lambda data, raw=back.raw: (sent.append(data), raw(data))  # type: ignore[method-assign]
    for o in back.lobby.open(0.0, back.machine.received()):
        back.send(o.msg)
    back.until(lambda: back.resumed, "its seat back", play=False)
    n = host.view(lambda hm: hm.ply)

    def refused(data: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT) as s:
            s.sendall(data)
            got = b""
            while chunk := s.recv(65536):
                got += chunk
        return got
    fresh = Mallory(host.port, "Eve", hello=False)
    hello = fresh.lobby.open(0.0)[0].msg
    fresh.close()
    assert b"the table is full" in refused(frame(hello))
    eve = SeatMemo(memo.table, 1, {0: b"\x01" * 32}, {0: b"\x02" * 32})
    ev = Mallory(host.port, "Eve", memo=eve, hello=False)
    hello = ev.lobby.open(0.0)[0].msg
    ev.close()
    assert b"wrong resume secret" in refused(frame(hello) + frame({"t": "auth", "proof": b"\x03" * 32}))
    assert b"wrong resume secret" in refused(b"".join(sent[:2]))  # the recorded hello and proof
    assert host.session.verdict is None and host.view(lambda hm: hm.ply) == n
    back.until(lambda: back.machine.over is not None, "the end of the game")
    assert host.verdict().kind == "finished"
    assert host.view(lambda hm: hm.record()) == back.machine.record()
    refusals = [e for e in host.events if isinstance(e, Refused)]
    assert {e.code for e in refusals} >= {"seat"}


# =========================================================================== 6. resignation and claims
def test_6_a_resignation_cannot_take_back_acknowledged_moves(host, closing):
    m = Mallory(host.port)
    closing(m)
    at_my_turn(m, 6)
    n = m.machine.ply
    m.send({"t": "over", "kind": "resigned", "seat": 1, "ply": 0})  # "I resigned long ago"
    v = host.verdict()
    assert (v.kind, v.seat, v.winners) == ("resigned", 1, (0,))
    rec = host.file()
    assert len(rec["moves"]) == n and rec["termination"] == {"kind": "resigned", "loser": str(m.machine.color_of(1))}
    line = check(rec)
    assert line.startswith("ok finished") and "termination=resigned" in line


@pytest.mark.parametrize("msg", [
    {"t": "error", "code": "forfeit", "reason": "you withheld your reveal"},
    {"t": "over", "kind": "forfeit", "seat": 0, "ply": 0},
    {"t": "over", "kind": "resigned", "seat": 0, "ply": 0},
    {"t": "over", "kind": "finished", "seat": -1, "ply": 0},
    {"t": "over", "kind": "left", "seat": 0, "ply": 0},
], ids=["error-forfeit", "over-forfeit", "host-resigned", "finished", "host-left"])
def test_6_false_claims_while_nothing_is_owed_are_the_claimants_fault(host, closing, msg):
    """Mid-game, the host owes nothing: a forfeit claim against it, its "resignation", its
    "leaving", or a "finished" game its own machine does not see all stop the match with
    Mallory at fault (``illegal``); nothing is taken back and the host is never the loser."""
    m = Mallory(host.port)
    closing(m)
    at_my_turn(m, 5)
    n = m.machine.ply
    m.send(msg)
    v = host.verdict()
    assert (v.kind, v.seat) == ("illegal", 1)
    rec = host.file()
    assert rec["lan"]["stopped"] == "illegal" and rec["lan"]["forfeit"] == rec["lan"]["resigned"] == ""
    assert len(rec["moves"]) == n and "termination" not in rec


# =========================================================================== forfeits
@pytest.mark.parametrize("msg", [
    {"t": "error", "code": "forfeit", "reason": "you withheld your reveal"},
    {"t": "error", "code": "illegal", "reason": "your last move broke a rule"},
    {"t": "error", "code": "desync", "reason": "our positions differ"},
    {"t": "error", "code": "bye", "reason": "good night"},
    {"t": "over", "kind": "illegal", "seat": 0, "ply": 0},
    {"t": "over", "kind": "coin", "seat": 0, "ply": 0},
    {"t": "over", "kind": "resigned", "seat": 1, "ply": 0},
    {"t": "over", "kind": "left", "seat": 1, "ply": 0},
], ids=lambda m: f"{m['t']}-{m.get('code') or m.get('kind')}")
def test_33_1a_2_a_drawer_that_knows_its_card_and_stops_forfeits_whatever_it_says(host, closing, msg):
    """1a: a forfeit claim instead of its reveal; 2: any other stop (``illegal``, ``desync``,
    ``bye``, a verdict, even its own resignation) while it owes its reveal: its forfeit."""
    m = Mallory(host.port)
    closing(m)
    ply = m.draw_and_see_the_card()
    m.send(msg)
    v = host.verdict()
    assert (v.kind, v.seat, v.winners) == ("forfeit", 1, (0,)), v
    rec = host.file()
    assert rec["termination"] == {"kind": "forfeit", "loser": str(m.machine.color_of(1))}
    assert len(rec["moves"]) == ply and check(rec).startswith("ok finished")


def test_33_1b_a_claim_about_an_acknowledged_draw_is_false_and_takes_nothing_back(tmp_path, closing):
    h = Host(tmp_path, player=draw_first)
    closing(h)
    m = Mallory(h.port)
    closing(m)

    def host_drew() -> bool:
        st = m.machine.state if m.machine is not None else None
        return (st is not None and st.ply > 0 and m.machine.open_coin() is None and st.move_stack[-1].kind is DRAW
                and st.move_stack[-1].player == m.machine.color_of(0))
    # Mallory waits (plays nothing) after each draw of the host's until the host holds its ack
    m.until(lambda: host_drew() and h.view(lambda hm: hm.acked) == m.machine.ply, "a draw of the host's, acknowledged",
            play=lambda: not host_drew())
    n = m.machine.ply
    m.send({"t": "error", "code": "forfeit", "reason": "you withheld your reveal"})
    v = h.verdict()
    assert (v.kind, v.seat) == ("illegal", 1) and "refutes" in v.detail
    rec = h.file()
    assert rec["lan"]["forfeit"] == "" and rec["lan"]["stopped"] == "illegal"
    assert len(rec["moves"]) == n and rec["moves"][-1].split()[1] == "draw"


def test_33_4_withholding_acks_then_resigning_lets_the_headless_host_finish_at_once(host, closing):
    m = Mallory(host.port, hold=("ack",))
    closing(m)
    m.until(lambda: started(m) and m.machine.ply >= 6 and m.my_turn(), "six plies")
    m.send({"t": "over", "kind": "resigned", "seat": 1, "ply": m.machine.ply})
    host.thread.join(LIMIT / 2)  # the host has everything it needs: it must not wait for acks
    # a resignation, or, if Mallory holds the card of a draw of the host's it never acknowledged,
    # its forfeit (it stopped owing that acknowledgement)
    kind = host.result.kind
    assert not host.thread.is_alive() and kind in ("resigned", "forfeit") and kind in PLAYED
    assert host.file()["termination"] == {"kind": kind, "loser": str(m.machine.color_of(1))}


def test_33_4_a_victim_of_an_illegal_claim_never_counts_as_played_and_stays_stopped(host, closing, tmp_path):
    """Mallory stops the game with ``error{illegal}`` while it owes nothing: the game is stopped
    (the headless host's exit status is 1, never "played to its end"), the record says so, and a
    restart with the same ``--record`` does not play it on."""
    m = Mallory(host.port)
    closing(m)
    at_my_turn(m, 3)
    m.send({"t": "error", "code": "illegal", "reason": "your last move broke a rule"})
    host.thread.join(LIMIT)
    assert host.result.kind == "illegal" and host.result.kind not in PLAYED
    rec = host.file()
    assert rec["lan"]["stopped"] == "illegal" and check(rec).startswith("ok in-progress")
    host.close()
    again = Session(rkm.LAN, "host", "Alice", port=0, record=host.record)
    closing(again)
    assert again.verdict is not None and again.verdict.kind == "illegal"
    with pytest.raises(ValueError):
        again.act(rkm.RESIGN)


def test_33_4_a_joiner_that_saw_the_set_up_and_stays_away_forfeits_at_the_deadline(host, closing, monkeypatch):
    """Mallory commits, receives the host's set-up reveal (it knows colours and deal), keeps its
    own and leaves: the host has a verdict at the reveal's total deadline (60 s; 1 s here)."""
    monkeypatch.setattr(rkm, "FORFEIT_S", 1.0)
    m = Mallory(host.port, hold=("reveal",))
    m.until(lambda: started(m), "the host's reveal", play=False)
    m.close()
    v = host.verdict()
    assert (v.kind, v.seat) == ("forfeit", 1)
    rec = host.file()
    assert rec["format"] == "rose-king-lan-undealt" and rec["result"] == {"kind": "forfeit", "seat": 1}


@pytest.mark.parametrize("hold", ["commit", "ready"])
def test_33_3_a_stranger_that_says_hello_and_leaves_without_committing_holds_no_seat(host, closing, hold):
    squatter = Mallory(host.port, "Squatter", hold=(hold,))
    squatter.until(lambda: any(x["t"] == "start" for x in squatter.got), "the start", play=False)
    squatter.close()
    bob = Session(rkm.LAN, "join", "Bob", port=host.port, reconnect_delay=0.05)
    closing(bob)
    e = host.wait(lambda e: isinstance(e, Started) and e.table.names == ("Alice", "Bob"), "the real player seated")
    assert not e.resumed


# =========================================================================== 7. limits and strangers
@pytest.mark.parametrize("junk, code, words", [
    (b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", "frame", b"another protocol"),
    (b"\x00\x00\x00\x01\xc1", "frame", b""),
    (b"\x00\x00", "timeout", b"no handshake"),  # two bytes of a header, then nothing
    (raw_frame({"t": "ping"}) * 200, "flood", b"flood"),
    (raw_frame({"t": "commit", "for": -1, "c": b"\x00" * 32}), "order", b"before the match"),
])
def test_7_strangers_junk_is_refused_with_a_reason_and_a_real_player_still_plays(host, closing, junk, code, words):
    host.session.lobby.handshake = 0.5
    with socket.create_connection(("127.0.0.1", host.port), timeout=LIMIT) as s:
        s.sendall(junk)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    assert code.encode() in got and words in got
    host.wait(lambda e: isinstance(e, Refused) and e.code == code, "the refusal")
    m = Mallory(host.port)
    closing(m)
    m.until(lambda: started(m), "a game")


def test_7_a_seated_peer_flooding_acks_is_cut_and_the_game_is_kept(host, closing):
    m = Mallory(host.port)
    at_my_turn(m, 2)
    n = m.machine.ply
    m.raw(frame({"t": "ack", "ply": 1, "hash": m.machine.hashes[1]}) * 2000)
    assert m.closed_with()[0] == "flood"
    assert host.session.verdict is None and host.view(lambda hm: hm.ply) == n
    m.close()


def test_the_last_move_and_a_goodbye_at_once_end_the_game_as_finished(host, closing):
    """Mallory, the moment its machine sees the end, says ``bye``: the game is over on both sides
    as the rules say, and the goodbye after it changes nothing."""
    m = Mallory(host.port)
    closing(m)
    m.until(lambda: m.machine is not None and m.machine.over is not None, "the end of the game")
    m.send({"t": "error", "code": "bye", "reason": "good game"})
    v = host.verdict()
    assert v.kind == "finished" and v == host.result
    assert host.file() == m.machine.record() and check(host.file()).startswith("ok finished")


def test_the_journal_files_are_private(host, closing):
    m = Mallory(host.port)
    closing(m)
    m.until(lambda: started(m), "a game")
    host.wait(lambda e: isinstance(e, Noticed) and e.code == "dealt", "the deal")
    mode = stat.S_IMODE(seat_path(host.record).stat().st_mode)
    assert mode & 0o077 == 0, oct(mode)


# =========================================================================== a hostile host
@pytest.fixture
def evil(tmp_path, closing):
    """(the evil host, the honest headless joiner Bob, playing in a thread)."""
    h = EvilHost()
    closing(h)
    bob = Host(tmp_path, role="join", port=h.port)
    closing(bob)
    h.accept()
    return h, bob


def test_host_1a_2_a_host_that_knows_its_card_and_stops_forfeits(evil):
    """The rules read who owes what whichever seat cheats: the host draws, sees its card, and
    claims the joiner forfeits instead of revealing."""
    h, bob = evil
    ply = h.draw_and_see_the_card()
    h.send({"t": "error", "code": "forfeit", "reason": "you withheld your reveal"})
    v = bob.verdict()
    assert (v.kind, v.seat) == ("forfeit", 0)
    rec = bob.file()
    assert rec["termination"] == {"kind": "forfeit", "loser": str(h.machine.color_of(0))} and len(rec["moves"]) == ply
    assert bob.result.kind == "forfeit"  # the joiner's headless player ends at once


def test_host_1b_a_hosts_claim_about_the_joiners_acknowledged_draw_is_its_own_fault(tmp_path, closing):
    h = EvilHost()
    closing(h)
    bob = Host(tmp_path, role="join", port=h.port, player=draw_first)
    closing(bob)
    h.accept()

    def bob_drew() -> bool:
        st = h.machine.state if h.machine is not None else None
        return (st is not None and st.ply > 0 and h.machine.open_coin() is None and st.move_stack[-1].kind is DRAW
                and st.move_stack[-1].player == h.machine.color_of(1))
    h.until(lambda: bob_drew() and bob.view(lambda m: m.acked) == h.machine.ply, "a draw of Bob's, acknowledged",
            play=lambda: not bob_drew())
    n = h.machine.ply
    h.send({"t": "over", "kind": "forfeit", "seat": 1, "ply": n})
    v = bob.verdict()
    assert (v.kind, v.seat) == ("illegal", 0)
    rec = bob.file()
    assert rec["lan"]["forfeit"] == "" and len(rec["moves"]) == n and rec["moves"][-1].split()[1] == "draw"


def test_host_a_reveal_that_does_not_open_is_the_hosts_forfeit(evil):
    h, bob = evil
    h.hold |= {"reveal"}
    h.until(lambda: h.machine is not None and any(x["t"] == "reveal" for x in h.got), "Bob's set-up reveal",
            play=False)
    h.send({"t": "reveal", "for": -1, "s": b"\x07" * 32})
    v = bob.verdict()
    assert (v.kind, v.seat) == ("coin", 0)  # a set-up cheat stops the match (no game was dealt)
    assert bob.file()["format"] == "rose-king-lan-undealt" and bob.result.kind not in PLAYED


def test_host_withholding_its_set_up_reveal_forfeits_at_the_deadline(evil, monkeypatch):
    """The set-up secret, from the other side: the host saw the joiner's set-up secret (it knows
    colours and deal) and never reveals its own: the joiner has a verdict at the deadline."""
    monkeypatch.setattr(rkm, "REVEAL_S", 0.5)
    h, bob = evil
    h.hold |= {"reveal"}
    h.until(lambda: bob.session.verdict is not None, "Bob's verdict", play=False)
    v = bob.verdict()
    assert (v.kind, v.seat) == ("forfeit", 0) and "withheld its reveal" in v.detail


def test_host_withholding_acks_then_resigning_lets_the_headless_joiner_finish_at_once(evil):
    h, bob = evil
    h.hold |= {"ack"}
    h.until(lambda: h.machine is not None and h.machine.ply >= 6 and h.my_turn(), "six plies")
    h.send({"t": "over", "kind": "resigned", "seat": 0, "ply": h.machine.ply})
    bob.thread.join(LIMIT / 2)
    kind = bob.result.kind   # its forfeit if it held the card of Bob's draw, unacknowledged
    assert not bob.thread.is_alive() and kind in ("resigned", "forfeit")
    assert bob.file()["termination"] == {"kind": kind, "loser": str(h.machine.color_of(0))}


def test_host_a_joiner_stopped_on_a_hosts_illegal_claim_stays_stopped_after_a_restart(evil, closing):
    """The set-up secret on the joiner's side: the host stops the game with ``error{illegal}``;
    the joiner's record says so, its headless player counts it as not played (exit status 1), and
    a restart with the same ``--record`` neither plays on nor reconnects for a new game."""
    h, bob = evil
    h.until(lambda: h.machine is not None and h.machine.ply >= 3 and h.my_turn(), "three plies")
    h.send({"t": "error", "code": "illegal", "reason": "your last move broke a rule"})
    v = bob.verdict()
    assert v.kind == "illegal" and bob.result.kind not in PLAYED
    assert bob.file()["lan"]["stopped"] == "illegal"
    bob.close()
    again = Session(rkm.LAN, "join", "Bob", port=h.port, record=bob.record, reconnect_delay=0.05)
    closing(again)
    assert again.verdict is not None and again.verdict.kind == "illegal"
    with pytest.raises(ValueError):
        again.act(rkm.RESIGN)
