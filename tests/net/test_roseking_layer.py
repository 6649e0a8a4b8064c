"""Rose King's match machine on the one LAN layer (game/roseking/lan/match.py): whole games in memory
and over 127.0.0.1, resume after a kill of either side, a computer seat, and the known attacks
1 and 2 played by a cheating peer (a Session whose machine cheats) against an honest one.
Every wait is bounded and driven by events."""

from __future__ import annotations

import dataclasses
import os
import threading
import time

import pytest

from game.registry import game_by_key
from game.rng import Rng
from game.roseking.engine import DRAW, Move
from net.coin import commitment
from net.match import Send, Table, Verdict, judge_stop, overdue
from game.roseking.lan.match import LAN, RESIGN, SETUP, RoseKingMatch
import game.roseking.lan.match as rkm
from net.session import Session, Started

from .rk_wire import GID, Pair, chooser, drawn_by, run_both, table

LIMIT = 20.0


def check(rec: dict) -> str:
    return game_by_key("rose-king").check(rec)


# =========================================================================== in memory
def test_a_whole_game_in_memory_gives_both_seats_the_same_valid_record():
    p = Pair()
    p.play([chooser(1), chooser(2)])
    assert p.verdicts[0].kind == p.verdicts[1].kind == "finished"
    assert p.verdicts[0].winners == p.verdicts[1].winners
    rec = [p.m[0].record(), p.m[1].record()]
    assert rec[0] == rec[1] and check(rec[0]).startswith("ok finished")
    assert rec[0]["red"] in ("Ann", "Bob") and rec[0]["lan"]["game"] == GID.hex()
    assert any(" draw " in m for m in rec[0]["moves"]), "the game drew cards through the coin"


@pytest.mark.parametrize("colour", ["red", "white"])
def test_the_hosts_chosen_colour_is_its_colour(colour):
    p = Pair(colour)
    p.deliver()
    assert str(p.m[0].host_color) == colour and p.m[1].host_color == p.m[0].host_color


@pytest.mark.parametrize("code", ["forfeit", "illegal", "desync", "bye"])
def test_1a_2_a_drawer_that_knows_its_card_and_stops_forfeits_whatever_it_says(code):
    p = Pair()
    drawn_by(p, 1)
    honest = p.m[0]
    ply = honest.ply
    v = judge_stop(honest.owed(), 0, 1, code, -1 if code != "forfeit" else 0, ply)
    assert (v.kind, v.seat) == ("forfeit", 1)
    honest.end(v, 0.0)
    rec = honest.record()
    assert rec["termination"] == {"kind": "forfeit", "loser": rec["lan"]["forfeit"]}
    assert len(rec["moves"]) == ply and check(rec).startswith("ok finished")


def test_1b_a_claim_against_an_acknowledged_draw_is_false_and_takes_nothing_back():
    p = Pair()
    drawn_by(p, 0)
    p.deliver()  # reveals and acks cross: the joiner acknowledged the host's draw
    host = p.m[0]
    assert host.acked == host.ply and host.state.move_stack[-1].kind is DRAW
    v = judge_stop(host.owed(), 0, 1, "forfeit", 0, host.ply)
    assert (v.kind, v.seat) == ("illegal", 1)
    host.end(v, 0.0)
    assert host.record()["moves"][-1].split()[1] == "draw" and host.record()["lan"]["stopped"] == "illegal"


def test_a_claim_that_our_reveal_never_came_never_stands_and_takes_nothing_back():
    """The host drew and sent its reveal; the joiner claims the host's forfeit (the reveal "never
    came"). What the host sent is never taken back: the joiner owes the acknowledgement (it may
    hold the card), so its stop is its own forfeit, and the host's draw stays."""
    p = Pair()
    drawn_by(p, 0)
    assert [(to, m["t"]) for to, m in p.wire] == [(0, "commit"), (0, "reveal")]
    for _, msg in p.wire[:]:
        p.out(0, p.m[0].receive(1, msg, 0.0))  # the host sees its card, its reveal is on the wire
    ply = p.m[0].ply
    owed = p.m[0].owed()
    assert [(o.seat, o.step, o.forfeits) for o in owed] == [(1, "ack", True)]
    judged = judge_stop(owed, 0, 1, "forfeit", 0, p.m[1].ply)
    assert (judged.kind, judged.seat) == ("forfeit", 1)
    p.m[0].end(judged, 0.0)
    assert p.m[0].ply == ply and p.m[0].record()["lan"]["forfeit"] != p.m[0].record()["lan"]["host"]


def test_a_withheld_ack_of_our_draw_is_the_other_seat_forfeit_at_its_deadline():
    """The attacker holds both secrets of our draw and just stays silent: our own clock names it."""
    p = Pair()
    drawn_by(p, 0)
    for _, msg in p.wire[:]:
        p.out(0, p.m[0].receive(1, msg, 100.0))
    late = overdue(p.m[0].owed(), 100.0 + rkm.REVEAL_S)
    assert late is not None and (late.seat, late.step) == (1, "ack")
    assert overdue(p.m[0].owed(), 100.0 + rkm.REVEAL_S - 0.01) is None


def test_no_resignation_while_our_own_draw_is_decided():
    """Else the other seat, having revealed, would judge it our forfeit (we owe the reveal) while
    we recorded a resignation: the card comes first, then the resignation is a resignation."""
    p = Pair()
    drawn_by(p, 1)
    with pytest.raises(ValueError, match="draw is being decided"):
        p.m[1].act(RESIGN, 0.0)
    p.deliver()  # the card is known on both seats
    p.out(1, p.m[1].act(RESIGN, 0.0))
    p.end(0, judge_stop(p.m[0].owed(), 0, 1, "resigned", 1, p.verdicts[1].ply))
    assert p.verdicts[0].kind == "resigned" and p.m[0].record() == p.m[1].record()


def test_a_resignation_crossing_a_move_ends_where_both_hold_the_game():
    p = Pair()
    players = [chooser(5), chooser(6)]
    p.play(players, plies=12)
    p.deliver()
    s = next(s for s in (0, 1) if LAN.turn(p.m[s], s) is not None)
    p.out(s, p.m[s].act(players[s](LAN.turn(p.m[s], s)), 0.0))  # a move on the wire...
    p.out(1 - s, p.m[1 - s].act(RESIGN, 0.0))  # ... while the other resigns
    v = p.verdicts[1 - s]
    p.wire = [(to, m) for to, m in p.wire if to == s]  # the resigner ignores the move (it is over)
    p.end(s, judge_stop(p.m[s].owed(), s, 1 - s, "resigned", 1 - s, v.ply))
    assert p.m[0].record() == p.m[1].record()
    assert p.m[0].record()["termination"]["kind"] == "resigned"


def test_cheats_with_the_coin_and_moves_are_refused():
    p = Pair()
    p.deliver()
    m = p.m[0]
    commit = {"t": "commit", "for": SETUP, "c": b"x" * 32}
    out = m.receive(1, commit, 0.0)  # a second, different set-up commitment: a re-roll
    assert out[-1].verdict.kind == "coin"
    p = Pair()
    p.deliver()
    m = p.m[0]
    out = m.receive(1, {"t": "move", "ply": 1, "m": f"{m.color_of(0)} play N1", "hash": b"h" * 32}, 0.0)
    assert (out[-1].verdict.kind, out[-1].verdict.seat) == ("illegal", 1)  # the joiner plays the host's colour
    assert m.ply == 0 and m.payload()["moves"] == []  # nothing of it was kept
    m = p.m[1]  # the host opens a draw at the deal: out of turn or with a full hand, never legal
    out = m.receive(0, {"t": "commit", "for": 0, "c": b"c" * 32}, 0.0)
    assert (out[-1].verdict.kind, out[-1].verdict.seat) == ("illegal", 0) and 0 not in m.coins
    with pytest.raises(Exception) as e:
        m.receive(1, {"t": "move", "ply": 5, "m": "red play NE1", "hash": b"h" * 32}, 0.0)
    assert getattr(e.value, "code", "") == "order"
    with pytest.raises(ValueError):
        RoseKingMatch(0, table(), os.urandom, {"coins": [[-1, "zz", None, None, False]], "moves": [],
                                               "acked": 0, "handled": 0, "outbox": [], "over": None})


def test_4_a_joiner_that_saw_the_set_up_outcome_and_stays_away_forfeits_at_the_deadline():
    """The host revealed its set-up secret; the joiner, holding both, never
    reveals. Its reveal is a forfeiting step: overdue after 10 s connected or 60 s away."""
    from net.match import overdue
    host = RoseKingMatch(0, table(), os.urandom)
    join = RoseKingMatch(1, table(), os.urandom)
    commit = host.start(3.0)[-1].msg
    join.start(3.0)
    join_commit = {"t": "commit", "for": SETUP, "c": commitment(GID, SETUP, 1, join.coins[SETUP].secret)}
    out = host.receive(1, join_commit, 4.0)
    assert [o.msg["t"] for o in out if isinstance(o, Send)] == ["reveal"]
    join.receive(0, commit, 4.0)  # the joiner could now learn the colours and the deal
    assert overdue(host.owed(), 13.9) is None
    late = overdue(host.owed(), 14.0)
    assert (late.seat, late.step, late.forfeits) == (1, "reveal", True)
    assert overdue(host.owed(), 20.0, lambda seat: False) is None and overdue(host.owed(), 64.0, lambda s: False)
    assert not host.abortable()  # something is bound: the seat is not freed for someone else
    host.end(Verdict("forfeit", 1, (0,), 0, "withheld"), 64.0)
    rec = host.record()
    assert rec["format"] == "rose-king-lan-undealt" and rec["lan"]["forfeit"] == "" and rec["result"]["seat"] == 1


def test_owed_names_the_seat_that_owes_a_reveal_and_never_sets_a_deadline_on_an_unacked_draw():
    p = Pair()
    drawn_by(p, 1)
    p.m[0].tick(5.0)
    owed = p.m[0].owed()
    assert [(o.seat, o.step, o.forfeits) for o in owed] == [(1, "reveal", True)]
    p.deliver()
    mine = [o for o in p.m[1].owed()]
    assert all(o.connected == float("inf") for o in mine)


# =========================================================================== over 127.0.0.1
@pytest.fixture
def sessions():
    made: list[Session] = []

    def make(role: str, name: str, part=LAN, **kw) -> Session:
        if role == "join":
            kw.setdefault("reconnect_delay", 0.05)
        s = Session(part, role, name, **kw)
        made.append(s)
        return s
    yield make
    for s in made:
        s.close(1.0)


def test_a_whole_game_over_loopback_with_records_and_journals(sessions, tmp_path):
    host = sessions("host", "Ann", port=0, record=tmp_path / "h.json", date="2026-11-27T08:00:00Z")
    join = sessions("join", "Bob", port=host.port, record=tmp_path / "j.json")
    out = run_both(host, join, [chooser(7), chooser(8)])
    assert out[0].kind == out[1].kind == "finished", out
    import json
    h, j = (json.loads((tmp_path / f).read_text()) for f in ("h.json", "j.json"))
    assert h == j and check(h).startswith("ok finished") and h["date"] == "2026-11-27T08:00:00Z"
    assert (tmp_path / "j.json.journal").stat().st_mode & 0o077 == 0


def kill(s: Session) -> None:
    """The program dies: no bye, its thread just stops (as kill -9 leaves its files)."""
    s._stopping = True
    s._command("noop")
    s.join(LIMIT)


def wait_ply(s: Session, n: int) -> None:
    end = time.monotonic() + LIMIT
    while time.monotonic() < end and (s.view(lambda m: m.ply) or 0) < n:
        s.wait(0.05)
    assert (s.view(lambda m: m.ply) or 0) >= n


@pytest.mark.parametrize("victim", ["join", "host"])
def test_either_side_killed_mid_game_resumes_from_its_journal(sessions, tmp_path, victim):
    from net.headless import play_match
    host = sessions("host", "Ann", port=0, record=tmp_path / "h.json")
    join = sessions("join", "Bob", port=host.port, record=tmp_path / "j.json", host_grace=30.0)
    players = [chooser(9, draw_first=True), chooser(10, draw_first=True)]
    stop = threading.Event()
    threads = [threading.Thread(target=lambda s=s, i=i: _quiet(play_match, s, players[i], timeout=LIMIT,
                                                                stop=stop.is_set))
               for i, s in enumerate((host, join))]
    for t in threads:
        t.start()
    wait_ply(host, 12)
    stop.set()
    for t in threads:
        t.join(LIMIT)
    dead = host if victim == "host" else join
    kill(dead)
    again = sessions(victim, "Ann" if victim == "host" else "Bob", port=host.port,
                     record=tmp_path / ("h.json" if victim == "host" else "j.json"), host_grace=30.0)
    e = next(e for e in _events(again, lambda e: isinstance(e, Started)) if isinstance(e, Started))
    assert e.resumed
    pair = (again, join) if victim == "host" else (host, again)
    out = run_both(*pair, players)
    assert out[0].kind == out[1].kind == "finished", out
    recs = [s.view(lambda m: m.record()) for s in pair]
    assert recs[0] == recs[1] and check(recs[0]).startswith("ok finished")


def _quiet(fn, *a, **kw):
    try:
        fn(*a, **kw)
    except Exception:
        pass


def _events(s: Session, pred) -> list:
    seen: list = []
    end = time.monotonic() + LIMIT
    while time.monotonic() < end:
        seen += s.wait(0.05)
        if any(pred(e) for e in seen):
            return seen
    raise AssertionError(f"not seen; saw {seen[-8:]}")


def test_a_joiner_started_before_its_host_waits_for_it(sessions):
    """Nobody listens yet: the joiner's session keeps trying (its lobby has no connection to
    time out), and the game starts once the host is up."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    join = sessions("join", "Bob", port=port)
    _events(join, lambda e: getattr(e, "code", "") == "connecting")
    time.sleep(0.3)  # a few failed tries, each a tick of the session's thread
    assert join.running
    host = sessions("host", "Ann", port=port)
    for s in (host, join):
        _events(s, lambda e: isinstance(e, Started))


def test_a_host_plays_against_a_computer_seat_it_runs_itself(sessions):
    from net.headless import play_match
    host = sessions("host", "Ann", port=0, kinds=("host", "computer"), computers={1: "random"})
    v = play_match(host, chooser(11), timeout=LIMIT)
    rec = host.view(lambda m: m.record())
    assert v.kind == "finished" and check(rec).startswith("ok finished") and "Computer 1" in (rec["red"], rec["white"])


# --------------------------------------------------------------------------- a cheating peer
class Cheater(RoseKingMatch):
    """The joiner's honest machine, except: it keeps back its reveal of its own draw and, holding
    both secrets (it knows its card), sends ``error{code}`` instead (``on_own_draw``), or, after acknowledging the host's
    draw, sends ``over{forfeit}`` naming the host (``after_ack``)."""

    code = "forfeit"
    mode = "on_own_draw"

    def receive(self, sender, msg, now):
        c = self.coins.get(msg.get("for", -2))
        mine = c is not None and c.purpose >= 0 and self.state is not None and \
            self.state.turn == self.color_of(self.seat)
        if self.mode == "on_own_draw" and msg["t"] == "reveal" and mine:
            return [Send(0, {"t": "error", "code": self.code, "reason": "you withheld your reveal"})]
        out = super().receive(sender, msg, now)
        if self.mode == "on_own_draw" and msg["t"] == "commit" and mine:  # keeps its reveal back
            out = [o for o in out if not (isinstance(o, Send) and o.msg["t"] == "reveal")]
        if self.mode == "after_ack" and msg["t"] == "reveal" and c is not None and c.purpose >= 0 and not mine:
            out.append(Send(0, {"t": "over", "kind": "forfeit", "seat": 0, "ply": self.ply}))
        return out


def cheating_part(code: str, mode: str):
    cls = type("C", (Cheater,), {"code": code, "mode": mode})
    return dataclasses.replace(LAN, new_match=lambda seat, t, tb: cls(seat, t, tb))


@pytest.mark.parametrize("code", ["forfeit", "illegal", "desync", "bye"])
def test_1a_2_loopback_a_drawer_that_saw_its_card_and_stops_forfeits(sessions, code):
    from net.headless import play_match
    host = sessions("host", "Ann", port=0)
    join = sessions("join", "Mallory", part=cheating_part(code, "on_own_draw"), port=host.port)
    t = threading.Thread(target=_quiet, args=(play_match, join, chooser(12, draw_first=True)), kwargs={"timeout": LIMIT})
    t.start()
    v = play_match(host, chooser(13), timeout=LIMIT)
    t.join(LIMIT)
    assert (v.kind, v.seat) == ("forfeit", 1)
    rec = host.view(lambda m: m.record())
    assert rec["termination"]["kind"] == "forfeit" and rec["lan"]["forfeit"] != ""
    assert check(rec).startswith("ok finished")


def test_1b_loopback_a_claim_after_acknowledging_the_hosts_draw_is_the_claimants_fault(sessions):
    from net.headless import play_match
    host = sessions("host", "Ann", port=0)
    join = sessions("join", "Mallory", part=cheating_part("", "after_ack"), port=host.port)
    t = threading.Thread(target=_quiet, args=(play_match, join, chooser(14)), kwargs={"timeout": LIMIT})
    t.start()
    v = play_match(host, chooser(15, draw_first=True), timeout=LIMIT)
    t.join(LIMIT)
    assert (v.kind, v.seat) == ("illegal", 1)
    rec = host.view(lambda m: m.record())
    assert rec["moves"][-1].split()[1] == "draw" and rec["lan"]["stopped"] == "illegal"


def test_4_a_stopped_match_stays_stopped_after_a_restart(sessions, tmp_path):
    from net.headless import play_match
    host = sessions("host", "Ann", port=0, record=tmp_path / "h.json")
    join = sessions("join", "Mallory", part=cheating_part("", "after_ack"), port=host.port)
    t = threading.Thread(target=_quiet, args=(play_match, join, chooser(16)), kwargs={"timeout": LIMIT})
    t.start()
    v = play_match(host, chooser(17, draw_first=True), timeout=LIMIT)
    t.join(LIMIT)
    host.close()
    again = sessions("host", "Ann", port=0, record=tmp_path / "h.json")
    assert again.verdict == Verdict(v.kind, v.seat, v.winners, v.ply, v.detail)
    with pytest.raises(ValueError):
        again.act(RESIGN)


# =========================================================================== the documented vectors
def test_the_documented_rose_king_vectors_follow_from_the_documented_layouts():
    """docs/protocol.md, "Rose King on the layer": recomputed with hashlib from the text's
    layouts, then checked against the machine's own functions."""
    import hashlib
    import re
    from pathlib import Path

    from game.roseking.engine import CARDS, State
    from net.coin import coin_digest, commitment
    from game.roseking.lan.match import draw_from_coin, setup_from_coin
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()

    def vector(label: str) -> str:
        m = re.search(rf"^rk3 {re.escape(label)}\s+(.+)$", doc, re.M)
        assert m, label
        return m.group(1).strip()
    gid, hs, js = bytes(range(16)), b"\x01" * 32, b"\x02" * 32

    def purpose(p: int) -> bytes:
        return p.to_bytes(4, "big", signed=True)
    hc = hashlib.sha256(b"rose-king-lan commit" + gid + purpose(-1) + b"\x00" + hs).hexdigest()
    jc = hashlib.sha256(b"rose-king-lan commit" + gid + purpose(-1) + b"\x01" + js).hexdigest()
    assert hc == vector("host commitment (-1)") == commitment(gid, -1, 0, hs).hex()
    assert jc == vector("joiner commitment (-1)") == commitment(gid, -1, 1, js).hex()
    d = hashlib.sha256(b"rose-king-lan coin" + gid + purpose(-1) + hs + js).digest()
    assert d.hex() == vector("set-up digest") == coin_digest(gid, -1, [hs, js]).hex()
    rng = Rng(int.from_bytes(d[:8], "big"))
    colour = "red" if rng.randbelow(2) == 0 else "white"
    deck = list(CARDS)
    rng.shuffle(deck)
    assert colour == vector("host colour")
    assert " ".join(c.name for c in deck[:5]) == vector("red's hand")
    assert " ".join(c.name for c in deck[5:10]) == vector("white's hand")
    assert setup_from_coin(d) == (setup_from_coin(d)[0], tuple(deck[:5]), tuple(deck[5:10]))
    assert str(setup_from_coin(d)[0]) == colour and setup_from_coin(d, "red")[1:] == setup_from_coin(d)[1:]
    state = State(deck[:5], deck[5:10])
    assert hashlib.sha256(state.canonical_bytes()).hexdigest() == vector("state hash at ply 0") == state.state_hash()
    state.push_checked(Move.from_str("red play N2"))
    assert state.state_hash() == vector("hash after red play N2")
    state.pop()
    d0 = hashlib.sha256(b"rose-king-lan coin" + gid + purpose(0) + hs + js).digest()
    assert d0.hex() == vector("coin digest for 0")
    pile = state.chance_outcomes()
    card = pile[Rng(int.from_bytes(d0[:8], "big")).randbelow(len(pile))]
    assert vector("a draw at ply 0 brings").startswith(f"{card.name} (of the {len(pile)} cards of the draw pile")
    assert card == draw_from_coin(d0, state)
    # the machine tosses the same coin: a joiner at this table with these secrets is dealt this game
    t = Table(gid, ("Ann", "Bob"), "")
    m = [RoseKingMatch(s, t, lambda n, s=s: (hs, js)[s]) for s in (0, 1)]
    p = Pair.__new__(Pair)
    p.m, p.wire, p.verdicts, p.saves = m, [], {}, [0, 0]
    for s in (0, 1):
        p.out(s, m[s].start(0.0))
    p.deliver()
    assert str(m[1].host_color) == colour and m[1].state.state_hash() == vector("state hash at ply 0")
