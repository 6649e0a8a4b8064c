"""Issue 13: the Royals & Riots match machines (net.royals.HostMatch / JoinerMatch) wired in
memory through real frames (tests/net/royals_wire.py): whole matches of 2-4 seats agree and
pass `rose-king check`; every joiner's computer chooses from its own SeatView; no joiner is
sent another seat's unplayed cards; and every attack is refused naming the seat and the play."""

from __future__ import annotations

import pytest

from game.royals.engine import CARDS, PLAY, Action, Phase, State
from game.royals.plugin import GAME
from net.framing import FrameDecoder
from net.royals import (COMMIT_TIMEOUT, FORFEIT_TIMEOUT, OUTCOME_TIMEOUT, REVEAL_TIMEOUT, SCHEMAS, JoinerMatch,
                        HostMatch, MatchOver, Refused, RoundChecked, SeatProxy, card_names_in)

from .royals_wire import DATE, GAME_ID, NAMES, Wire


def records(w: Wire) -> list[dict]:
    return [w.host.record()] + [j.record() for j in w.joiners.values()]


def assert_same_records(w: Wire, status: str) -> dict:
    recs = records(w)
    assert all(r == recs[0] for r in recs)
    assert GAME.check(recs[0]).startswith(status), GAME.check(recs[0])
    return recs[0]


# ---------------------------------------------------------------------------- whole matches
@pytest.mark.parametrize("players,levels,computers,teams", [
    (2, ("easy", "random"), (), False),
    (3, ("random", "easy", "random"), (3,), False),
    (4, ("easy", "random", "easy", "random"), (), False),
    (4, ("random", "easy", "random", "easy"), (4,), True),
])
def test_whole_matches_end_alike_on_every_peer(players, levels, computers, teams):
    w = Wire(players, levels, computers, seed=players, teams=teams).run()
    overs = w.overs()
    assert all(o is not None and o.kind == "finished" for o in overs.values()), overs
    rec = assert_same_records(w, "ok finished")
    assert rec["lan"] == {"game": GAME_ID.hex(), "end": "finished", "seat": 0,
                          "fingerprint": w.host.fingerprint.hex()[:16]}
    assert rec["players"] == NAMES[:players] and rec["date"] == DATE and rec.get("teams", False) == teams
    assert Wire is not None and w.host.checked == w.host.state  # the host's own check followed the match
    for s, j in w.joiners.items():
        checks = [e for e in w.events[s] if isinstance(e, RoundChecked)]
        assert [c.round for c in checks] == [1, 2, 3]
        assert j.checked.history == w.host.state.history


def test_a_joiners_computer_chooses_from_its_own_view(monkeypatch):
    """Every Observation a joiner's computer is handed is its SeatView's, and equal to the
    true one (the view knows exactly what the seat may know); the host is never asked."""
    w = Wire(3, ("random",) * 3, seed=9)
    seen = []
    orig = JoinerMatch.my_turn

    def spy(self):
        obs = orig(self)
        if obs is not None:
            assert obs == self.view.observation() == w.host.state.observation(self.seat)
            seen.append(self.seat)
        return obs
    monkeypatch.setattr(JoinerMatch, "my_turn", spy)
    w.run()
    assert w.host.over.kind == "finished" and seen.count(2) > 20 and seen.count(3) > 20


def test_no_joiner_is_sent_another_seats_unplayed_cards():
    """Scan every frame each joiner receives, at the moment it is sent: no string names a card
    that lies, unplayed, in another seat's hand or pile or aside (cards everyone saw go back
    into a hand excepted); binaries are only 32-byte commitments and secrets."""
    w = Wire(4, ("random",) * 4, seed=5)
    scanned = {s: 0 for s in w.joiners}

    def scan(seat, msg):
        st = w.host.state
        hidden = {c.name for c in CARDS if (st.aside >> c.index) & 1}
        for other in range(1, 5):
            if other != seat:
                hidden |= {c.name for c in st.hand(other)} | {c.name for c in st.pile(other)}
                hidden -= {c.name for c in st.observation(seat).known[other - 1]}
        for d in FrameDecoder(SCHEMAS).feed(__import__("net.framing").framing.encode_frame(msg, SCHEMAS)):
            for key, v in d.items():
                for x in v if isinstance(v, list) else [v]:
                    if isinstance(x, bytes):
                        assert len(x) == 32 and key in ("c", "secrets", "s", "hash"), (key, x)
                    elif isinstance(x, str):
                        assert not card_names_in(x) & hidden, (seat, msg, card_names_in(x) & hidden)
        scanned[seat] += 1
        return msg
    w.tamper = scan
    w.run()
    assert w.host.over.kind == "finished" and all(n > 150 for n in scanned.values()), scanned


# ---------------------------------------------------------------------------- attacks by a joiner
def until(w: Wire, pred, limit=5000):
    """Run the wire step by step until ``pred(w)`` holds (before the next decision)."""
    w.start()
    for _ in range(limit):
        while w.pump_once(decide=False):
            pass
        if pred(w):
            return
        if not w.decide():
            break
    raise AssertionError("never reached")


def joiner_turn(seat, need=None):
    def pred(w):
        st = w.host.state
        return (not st.is_chance() and st.to_act == seat and w.host._acks is None
                and w.joiners[seat].my_turn() is not None and (need is None or need(st)))
    return pred


def holds_led_rank_and_another(st: State) -> bool:
    return st.phase is Phase.PLAY and bool(st.trick_plays) and st.legal_plays() != st.hands[st.to_act - 1]


def send_as(w: Wire, seat: int, msg: dict):
    return w.host.receive(seat, msg, w.now)


def assert_match_over_for_all(w: Wire, kind: str, seat: int, *words: str):
    """The host's verdict names the seat; every joiner got it as an error and ended too."""
    over = w.host.over
    assert isinstance(over, MatchOver) and over.kind == kind and over.seat == seat, over
    for word in words:
        assert word in over.reason, (word, over.reason)
    w.pump()
    for s, j in w.joiners.items():
        assert j.over is not None and j.over.kind == kind and j.over.seat == seat, (s, j.over)
    recs = records(w)
    assert all(r == recs[0] for r in recs) and recs[0]["lan"]["end"] == kind and recs[0]["lan"]["seat"] == seat
    assert GAME.check(recs[0]).startswith("ok ")


def test_a_joiner_playing_off_suit_while_holding_the_led_rank_is_refused():
    w = Wire(3, seed=7)
    until(w, joiner_turn(2, holds_led_rank_and_another))
    st = w.host.state
    bad = next(c for c in st.hand(2) if not (st.legal_plays() >> c.index) & 1)
    ply = st.ply
    send_as(w, 2, {"t": "act", "ply": ply, "a": f"2 play {bad}"})
    assert_match_over_for_all(w, "illegal", 2, f"seat 2, ply {ply} (2 play {bad})", "must follow")
    assert w.host.state.ply == ply  # nothing applied


def test_a_play_out_of_turn_is_refused():
    w = Wire(3, seed=8)
    until(w, joiner_turn(3, lambda st: st.phase is Phase.PLAY))
    card = w.host.state.hand(2)[0]
    send_as(w, 2, {"t": "act", "ply": w.host.state.ply, "a": f"2 play {card}"})
    assert_match_over_for_all(w, "illegal", 2, f"(2 play {card})", "not its turn (seat 3 is to act)")


def test_a_card_not_in_hand_is_refused():
    w = Wire(4, seed=2)
    until(w, joiner_turn(3, lambda st: st.phase is Phase.PLAY))
    card = w.host.state.hand(4)[0]
    send_as(w, 3, {"t": "act", "ply": w.host.state.ply, "a": f"3 play {card}"})
    assert_match_over_for_all(w, "illegal", 3, f"(3 play {card})", "not in hand")


def test_a_decision_for_another_seat_is_refused():
    w = Wire(4, seed=3)
    until(w, joiner_turn(3, lambda st: st.phase is Phase.PLAY))
    card = w.host.state.hand(3)[0]
    send_as(w, 2, {"t": "act", "ply": w.host.state.ply, "a": f"3 play {card}"})
    assert_match_over_for_all(w, "illegal", 2, f"seat 2, ply {w.host.state.ply} (3 play {card})",
                              "a decision for seat 3")


def test_a_joiner_cannot_send_a_chance_outcome():
    w = Wire(3, seed=4)
    until(w, joiner_turn(2, lambda st: st.phase is Phase.PLAY))
    send_as(w, 2, {"t": "act", "ply": w.host.state.ply, "a": "2 pile P1,P2"})
    assert_match_over_for_all(w, "illegal", 2, "a chance outcome is not a seat's decision")


def coin_open_for(seat):
    def pred(w):
        c = w.host._coin
        return c is not None and seat in w.joiners and w.joiners[seat]._my_commits.get(c["ply"]) is not None \
            and c["broadcast"] is not None and seat not in c["secrets"]
    return pred


def test_a_lying_reveal_forfeits_the_match_for_that_seat():
    w = Wire(4, seed=6)
    w.joiner_tamper = lambda seat, m: {**m, "s": bytes(32)} if (m["t"] == "reveal" and seat == 3) else m
    w.run()
    assert_match_over_for_all(w, "forfeit", 3, "seat 3, ply 0 (start coin)", "does not open its commitment")


def test_a_second_different_commitment_is_a_re_roll():
    w = Wire(3, seed=6)
    w.joiner_tamper = lambda seat, m: None if (m["t"] == "reveal" and seat == 2) else m
    w.run()  # stalls: seat 2 withholds its reveal of coin 0
    assert w.host.waiting_for() == {"reveal": [2]}
    send_as(w, 2, {"t": "commit", "for": 0, "c": bytes(32)})
    assert_match_over_for_all(w, "forfeit", 2, "a second, different commitment (a re-roll)")


def test_a_withheld_reveal_forfeits_after_the_deadline_and_a_withheld_commit_is_only_refused():
    w = Wire(4, seed=12)
    w.joiner_tamper = lambda seat, m: None if (m["t"] == "commit" and seat == 4) else m
    w.run()
    assert w.host.waiting_for() == {"commit": [4]}
    w.host.connected(4, 0.0)
    assert w.host.tick(COMMIT_TIMEOUT - 0.5) == []
    evs = w.host.tick(COMMIT_TIMEOUT + 0.5)
    assert evs == [Refused(4, "withheld", "seat 4: no commitment for coin 0 within 6 s")]
    assert w.host.over is None and w.host.outgoing()[4][-1]["code"] == "withheld"
    # the seat commits, then withholds its reveal: while connected it forfeits after REVEAL_TIMEOUT
    w.joiner_tamper = lambda seat, m: None if (m["t"] == "reveal" and seat == 4) else m
    w.joiners[4]._queue.append({"t": "commit", "for": 0, "c": w.joiners[4]._my_commits[0]})
    w.now = 20.0
    w.pump()
    assert w.host.waiting_for() == {"reveal": [4]}
    w.host.connected(4, 20.0)
    assert w.host.tick(20.0 + REVEAL_TIMEOUT - 1) == [] and w.host.over is None
    w.host.tick(20.0 + REVEAL_TIMEOUT + 1)
    assert_match_over_for_all(w, "forfeit", 4, "seat 4, ply 0 (start coin): it withheld its reveal")


def test_a_commitment_withheld_for_a_minute_forfeits_unless_the_seat_is_handed_over():
    w = Wire(3, seed=28)
    w.joiner_tamper = lambda seat, m: None if (m["t"] == "commit" and seat == 2) else m
    w.run()
    w.host.disconnected(2, 1.0)
    assert w.host.tick(FORFEIT_TIMEOUT - 1) == [] and w.host.over is None
    w.host.tick(FORFEIT_TIMEOUT + 1)
    assert_match_over_for_all(w, "forfeit", 2, "seat 2, ply 0 (start coin): it withheld its commitment for 60 s")
    w = Wire(3, seed=28)
    w.joiner_tamper = lambda seat, m: None if (m["t"] == "commit" and seat == 2) else m
    w.run()
    w.offline.add(2)
    w.host.disconnected(2, 1.0)
    w.host.set_computer(2, True, 30.0)  # the host's computer commits for the away seat: no forfeit
    w.joiner_tamper = None
    w.pump()  # the computer plays seat 2 to the end; seat 3 checks every round
    assert w.host.over.kind == "finished" and w.joiners[3].over.kind == "finished"
    assert w.host.record() == w.joiners[3].record()


def test_a_withheld_reveal_forfeits_even_when_the_seat_drops():
    w = Wire(3, seed=13)
    w.joiner_tamper = lambda seat, m: None if (m["t"] == "reveal" and seat == 3) else m
    w.run()
    w.host.disconnected(3, 1.0)
    assert w.host.tick(FORFEIT_TIMEOUT - 1) == []
    w.host.tick(FORFEIT_TIMEOUT + 1)
    assert_match_over_for_all(w, "forfeit", 3, "withheld its reveal")


def test_replayed_duplicated_and_wrong_ply_frames_are_refused_or_ignored():
    w = Wire(3, seed=14)
    until(w, joiner_turn(2, lambda st: st.phase is Phase.PLAY and st.trick_no > 2))
    st = w.host.state
    ply = st.ply
    past = next(p for p in range(ply - 1, 0, -1) if st.history[p].kind is PLAY and st.history[p].seat == 2)
    text = str(st.history[past])
    box = {s: len(w.host.outbox(s)) for s in w.joiners}
    assert send_as(w, 2, {"t": "act", "ply": past, "a": text}) == []  # an identical repeat: ignored
    assert w.host.state.ply == ply and {s: len(w.host.outbox(s)) for s in w.joiners} == box
    other = next(c for c in st.hand(2))
    evs = send_as(w, 2, {"t": "act", "ply": past, "a": f"2 play {other}"})
    assert evs == [Refused(2, "order", f"seat 2, ply {past} (2 play {other}): ply {past} is past (we are at ply {ply})")]
    evs = send_as(w, 2, {"t": "act", "ply": ply + 1, "a": f"2 play {other}"})
    assert evs[0].code == "order" and "a gap in plies" in evs[0].reason
    assert send_as(w, 2, {"t": "reveal", "for": 0, "s": w.joiners[2].heard.my_secrets[0]}) == []  # repeat
    evs = send_as(w, 2, {"t": "reveal", "for": 0, "s": bytes(32)})
    assert evs[0].code == "order"
    evs = send_as(w, 2, {"t": "round", "round": 1, "first": 0, "actions": ["start 1"], "secrets": [bytes(32)] * 3})
    assert evs[0].code == "order" and "not for the host" in evs[0].reason
    assert w.host.over is None and w.host.state.ply == ply
    # the host's duplicated frame to a joiner: refused there (wrong ply), the joiner's match goes on
    j = w.joiners[3]
    dup = next(m for m in reversed(w.host.outbox(3)) if m["t"] == "act")
    evs = j.receive(dup, w.now)
    assert evs[0] == Refused(1, "order", evs[0].reason) and "we are at ply" in evs[0].reason and j.over is None
    w.pump()
    assert w.host.over.kind == "finished"
    assert_same_records(w, "ok finished")


def test_too_many_messages_for_one_ply_are_a_flood():
    w = Wire(3, seed=15)
    until(w, joiner_turn(2, lambda st: st.phase is Phase.PLAY and st.trick_no > 2))
    st = w.host.state
    past = next(p for p in range(st.ply - 1, 0, -1) if st.history[p].kind is PLAY and st.history[p].seat == 2)
    codes = [[e.code for e in send_as(w, 2, {"t": "act", "ply": past, "a": str(st.history[past])})]
             for i in range(20)]
    assert codes[:10] == [[]] * 10 and codes[-1] == ["flood"] and w.host.over is None  # repeats, then too many
    w.host.resume(2, w.joiners[2].received, w.now)  # a new connection counts anew
    assert send_as(w, 2, {"t": "act", "ply": past, "a": str(st.history[past])}) == []


# ---------------------------------------------------------------------------- a lying or colluding host
def test_a_host_changing_a_joiners_commitment_is_caught_at_once():
    w = Wire(3, seed=16)
    w.tamper = lambda seat, m: {**m, "c": [m["c"][0], bytes(32), m["c"][2]]} if (m["t"] == "commits" and seat == 2) else m
    w.run()
    j = w.joiners[2]
    assert j.over.kind == "coin" and j.over.seat == 1 and "our commitment (seat 2) was changed" in j.over.reason
    assert w.host.over.kind == "coin"  # the joiner's error ends the match for all
    assert w.joiners[3].over.kind == "coin"


def test_a_host_changing_another_seats_commitment_is_caught_at_the_round_end():
    w = Wire(3, seed=17)
    w.tamper = lambda seat, m: {**m, "c": [m["c"][0], m["c"][1], bytes(32)]} \
        if (m["t"] == "commits" and seat == 2 and m["for"] == 1) else m
    w.run()
    j = w.joiners[2]
    assert j.over.kind == "coin" and j.over.seat == 3 and "seat 3's secret does not open its commitment" in j.over.reason


def swap_deal(seat_target):
    def tamper(seat, m):
        if m["t"] == "round" and seat == seat_target:
            acts = list(m["actions"])
            i = next(k for k, a in enumerate(acts) if a.startswith("deal "))
            groups = [g.split(",") for g in acts[i][5:].split("/")]
            groups[0][0], groups[2][0] = groups[2][0], groups[0][0]
            acts[i] = "deal " + "/".join(",".join(g) for g in groups)
            return {**m, "actions": acts}
        return m
    return tamper


def test_a_host_lying_about_the_deal_at_the_round_end_is_caught():
    w = Wire(3, seed=18)
    w.tamper = swap_deal(2)
    w.run()
    j = w.joiners[2]
    assert j.over.kind == "coin" and j.over.seat == 1 and "the coin gives" in j.over.reason
    assert w.host.over.kind == "coin" and "seat 2 stopped the match" in w.host.over.reason
    assert all(o.kind == "coin" and o.seat == 1 for o in w.overs().values()), w.overs()
    recs = records(w)
    assert all(r == recs[0] for r in recs) and recs[0]["lan"]["end"] == "coin" and len(recs[0]["rounds"]) == 0


def test_a_host_lying_about_a_play_at_the_round_end_is_caught():
    def tamper(seat, m):
        if m["t"] == "round" and seat == 3:
            acts = list(m["actions"])
            i = max(k for k, a in enumerate(acts) if " play " in a and a.startswith("1 "))
            acts[i] = "1 play " + ("P1" if not acts[i].endswith("P1") else "P2")
            return {**m, "actions": acts}
        return m
    w = Wire(3, seed=19)
    w.tamper = tamper
    w.run()
    j = w.joiners[3]
    assert j.over.kind in ("coin", "illegal") and j.over.seat == 1, j.over  # seat 1 played it, or the host lied
    assert "1 play P" in j.over.reason and w.host.over.kind == j.over.kind


def test_a_colluding_host_relaying_an_off_suit_play_is_caught_by_every_joiner(monkeypatch):
    """The host plays seat 2 (handed to its computer) off-suit, its engine looking away once:
    the other joiner's round-end check names seat 2 and the play."""
    w = Wire(3, seed=7)
    until(w, joiner_turn(2, holds_led_rank_and_another))
    st = w.host.state
    bad = next(c for c in st.hand(2) if not (st.legal_plays() >> c.index) & 1)
    ply = st.ply
    w.offline.add(2)
    w.host.disconnected(2, w.now)
    w.host.set_computer(2, True, w.now)
    monkeypatch.setattr(State, "illegal_reason", lambda self, a: None)
    monkeypatch.setattr(State, "push_checked", State.push)
    w.host.decide(2, Action(PLAY, 2, card=bad), w.now)
    monkeypatch.undo()
    w.pump()
    j = w.joiners[3]
    assert j.over is not None and j.over.kind == "illegal" and j.over.seat == 2, j.over
    assert f"seat 2, ply {ply} (2 play {bad})" in j.over.reason and "follow" in j.over.reason
    assert w.host.over.kind == "illegal" and w.host.over.seat == 2


def test_a_host_putting_a_decision_in_a_joiners_mouth_is_caught_at_once():
    w = Wire(3, seed=20)
    until(w, joiner_turn(2, lambda st: st.phase is Phase.PLAY))
    st = w.host.state
    card = next(c for c in st.hand(2) if (st.legal_plays() >> c.index) & 1)
    st.push(Action(PLAY, 2, card=card))  # the host plays for seat 2 ...
    w.host.state.pop()
    w.host._apply(Action(PLAY, 2, card=card))
    w.pump()
    j = w.joiners[2]
    assert j.over.kind == "illegal" and j.over.seat == 1 and "seat 2 (ours) that we did not make" in j.over.reason


def test_the_host_withholding_a_coins_outcome_counts_as_leaving():
    w = Wire(3, seed=21)
    w.tamper = lambda seat, m: None if m["t"] in ("act", "you", "hidden") and m["ply"] == 0 else m
    w.run()
    j = w.joiners[2]
    assert j.over is None and j.tick(OUTCOME_TIMEOUT - 1) == []
    evs = j.tick(OUTCOME_TIMEOUT + 1)
    assert evs == [j.over] and j.over.kind == "left" and j.over.seat == 1 and "withheld the coin's outcome" in j.over.reason


def test_the_host_abandoning_ends_the_match_for_all():
    w = Wire(4, seed=22)
    until(w, joiner_turn(3, lambda st: st.phase is Phase.PLAY))
    evs = w.host.abandon("the window was closed")
    assert evs == [w.host.over] and w.host.over.kind == "left"
    assert_match_over_for_all(w, "left", 1, "the window was closed")


# ---------------------------------------------------------------------------- resume and computers
def test_a_joiner_dropped_mid_round_resumes_with_no_action_lost():
    w = Wire(3, seed=23)
    until(w, joiner_turn(3, lambda st: st.phase is Phase.PLAY and st.trick_no == 3))
    w.offline.add(2)          # seat 2's connection is gone: what the host sends it now is lost
    w.host.disconnected(2, w.now)
    w.pump()  # the others play on until the match waits for seat 2
    assert w.host.waiting_for() in ({"decision": [2]}, {"commit": [2]}, {"reveal": [2]}, {"ack": [2]})
    have = w.joiners[2].received
    assert have < len(w.host.outbox(2))
    w.offline.discard(2)
    w.host.resume(2, have, w.now)
    w.joiners[2].resumed(w.now)
    w.pump()
    assert w.host.over.kind == "finished"
    assert_same_records(w, "ok finished")


def test_a_restarted_joiner_rebuilds_from_its_journal_and_the_whole_catch_up():
    w = Wire(3, seed=24)
    until(w, lambda w: w.host.state.round == 2 and w.host.state.phase is Phase.PLAY and w.host.state.trick_no == 2)
    old = w.joiners[3]
    journal = __import__("json").loads(__import__("json").dumps(old.journal()))
    w.joiners[3] = j = JoinerMatch.from_journal(journal, now=w.now)
    w.decoders[3] = FrameDecoder(SCHEMAS)
    with pytest.raises(ValueError):
        w.host.resume(3, len(w.host.outbox(3)) + 1, w.now)
    w.host.resume(3, 0, w.now)
    j.resumed(w.now)
    w.pump()
    assert w.host.over.kind == "finished" and j.over.kind == "finished"
    assert_same_records(w, "ok finished")


def test_a_bad_journal_is_refused():
    j = JoinerMatch(GAME_ID, 2, NAMES[:3])
    j.start(0.0)
    data = j.journal()
    data["coins"]["0"][0] = "00" * 32
    with pytest.raises(ValueError, match="does not open"):
        JoinerMatch.from_journal(data)
    with pytest.raises(ValueError, match="malformed"):
        JoinerMatch.from_journal({"format": "royals-lan-journal", "version": 1})


def test_a_seat_handed_to_the_computer_while_away_and_given_back():
    w = Wire(4, seed=25)
    until(w, joiner_turn(2, lambda st: st.phase is Phase.PLAY and st.trick_no == 2))
    w.offline.add(2)
    w.host.disconnected(2, w.now)
    evs = w.host.set_computer(2, True, w.now)
    assert SeatProxy(2, w.host.state.ply, True) in evs
    until_round = w.host.state.round + 1
    for _ in range(3000):
        if w.host.state.round == until_round and w.host.state.phase is Phase.PLAY:
            break
        w.pump_once()
    w.offline.discard(2)
    w.host.resume(2, w.joiners[2].received, w.now)
    w.joiners[2].resumed(w.now)
    w.host.set_computer(2, False, w.now)
    w.pump()
    assert w.host.over.kind == "finished", w.host.over
    assert_same_records(w, "ok finished")
    assert any(isinstance(e, SeatProxy) and e.seat == 2 and not e.on for e in w.events[2])


def test_bad_arguments():
    with pytest.raises(ValueError):
        HostMatch(GAME_ID, ["A"])
    with pytest.raises(ValueError):
        HostMatch(GAME_ID, ["A", "B"], computers={1})
    with pytest.raises(ValueError):
        HostMatch(b"short", ["A", "B"])
    with pytest.raises(ValueError):
        JoinerMatch(GAME_ID, 1, ["A", "B"])
    h = HostMatch(GAME_ID, ["A", "B", "C"], computers={3})
    h.start(0.0)
    with pytest.raises(ValueError):
        h.receive(3, {"t": "ping"}, 0.0)  # a computer seat has no connection
    with pytest.raises(Exception):
        h.play(Action.from_str("1 play K4"), 0.0)


def test_the_rate_limits_let_a_whole_catch_up_through_and_stop_a_flood():
    from net.limits import ROYALS_RATES, RateLimiter
    w = Wire(4, seed=26).run()
    for seat in w.joiners:
        lim = RateLimiter(ROYALS_RATES, 0.0)
        assert all(lim.allow(m["t"], 0.0) for m in w.host.outbox(seat))  # a whole match at once
    lim = RateLimiter(ROYALS_RATES, 0.0)
    assert sum(lim.allow("round", 0.0) for _ in range(50)) == ROYALS_RATES["round"][0]
    assert sum(lim.allow("act", 0.0) for _ in range(1000)) == ROYALS_RATES["act"][0]


def test_a_seat_handed_over_while_its_commitment_was_lost_is_not_a_re_roll():
    """Seat 3 commits, the frame is lost with its connection; the host hands the seat to its
    computer, which commits for it. The person's late commitment is only refused (order), its
    catch-up shows the computer's part in its place, and it does not reveal its own secret."""
    w = Wire(3, seed=27)
    lost = {"done": False}

    def drop_first_commit(seat, m):
        if seat == 3 and m["t"] == "commit" and m["for"] == 1 and not lost["done"]:
            lost["done"] = True
            return None
        return m
    w.joiner_tamper = drop_first_commit
    w.run()
    assert lost["done"] and w.host.waiting_for() == {"commit": [3]}
    w.offline.add(3)
    w.host.disconnected(3, 1.0)
    evs = w.host.set_computer(3, True, 1.0)
    assert any(isinstance(e, SeatProxy) for e in evs)
    evs = send_as(w, 3, {"t": "commit", "for": 1, "c": w.joiners[3]._my_commits[1]})
    assert evs[0].code == "order" and "the computer holds this seat's part of coin 1" in evs[0].reason
    w.offline.discard(3)
    w.host.resume(3, w.joiners[3].received, 2.0)
    w.joiners[3].resumed(2.0)
    w.host.set_computer(3, False, 2.0)
    w.pump()
    assert w.host.over.kind == "finished", w.host.over
    assert_same_records(w, "ok finished")


# ---------------------------------------------------------------------------- hostile input never crashes
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as hs  # noqa: E402

_texts = hs.sampled_from(["2 play K4", "3 play P1", "2 keep K1,K2,K3,K4,K5", "2 steal 3", "2 steal none",
                          "2 execute R3", "start 2", "2 pile P1,P2", "deal K1/K2/", "1 play KING", "2 play JOKER"])
_ply = hs.integers(0, 200)
_b32 = hs.binary(min_size=32, max_size=32)
_msgs = hs.one_of(
    hs.builds(lambda p, c: {"t": "commit", "for": p, "c": c}, _ply, _b32),
    hs.builds(lambda p, c: {"t": "reveal", "for": p, "s": c}, _ply, _b32),
    hs.builds(lambda p, a: {"t": "act", "ply": p, "a": a}, _ply, _texts),
    hs.builds(lambda p, c: {"t": "ack", "ply": p, "hash": c}, _ply, _b32),
    hs.builds(lambda p, s: {"t": "hidden", "ply": p, "seat": s}, _ply, hs.integers(1, 4)),
    hs.builds(lambda p, c: {"t": "you", "ply": p, "cards": c}, _ply, hs.sampled_from(["", "K4", "K4,M3", "P1"])),
    hs.builds(lambda p, c: {"t": "commits", "for": p, "c": c}, _ply, hs.lists(_b32, min_size=2, max_size=4)),
    hs.builds(lambda p, s, o: {"t": "proxy", "ply": p, "seat": s, "on": o}, _ply, hs.integers(2, 4), hs.booleans()),
    hs.builds(lambda r, f, a, s: {"t": "round", "round": r, "first": f, "actions": a, "secrets": s},
              hs.integers(1, 3), _ply, hs.lists(_texts, min_size=1, max_size=5), hs.lists(_b32, min_size=2, max_size=8)),
    hs.builds(lambda c: {"t": "error", "code": c, "reason": "x"}, hs.sampled_from(["order", "bye", "illegal"])),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(msgs=hs.lists(_msgs, min_size=1, max_size=6), stop=hs.integers(0, 60))
def test_hostile_messages_never_crash_either_side(msgs, stop):
    """Any schema-valid message, at any moment, from a joiner to the host or from the host to
    a joiner, ends in an event (refused, or the match over), never in an exception."""
    w = Wire(3, seed=31)
    until(w, lambda w: w.host.state.ply >= stop or w.host.over is not None)
    for m in msgs:
        w.host.receive(2, m, w.now)
        w.joiners[3].receive(m, w.now)
    w.pump()  # and the honest peers go on or stop cleanly
    for seat, j in w.joiners.items():
        assert j.over is None or j.over.reason


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10**6), seats=hs.sampled_from([(2, (), False), (3, (), False), (3, (2,), False),
                                                         (4, (), False), (4, (3,), False), (4, (), True)]))
def test_any_match_ends_alike_on_every_peer(seed, seats):
    players, computers, teams = seats
    w = Wire(players, ("random",) * players, computers, seed=seed, teams=teams).run()
    assert all(o is not None and o.kind == "finished" for o in w.overs().values()), w.overs()
    assert_same_records(w, "ok finished")


def test_a_joiner_acknowledging_another_round_is_a_desync():
    w = Wire(3, seed=32)
    w.joiner_tamper = lambda seat, m: {**m, "hash": bytes(32)} if (m["t"] == "ack" and seat == 3) else m
    w.run()
    assert w.host.over.kind == "desync" and w.host.over.seat == 3
    assert "another round than the one we revealed" in w.host.over.reason
    recs = records(w)
    assert all(r == recs[0] for r in recs) and recs[0]["rounds"] == []


def test_a_host_echoing_commitments_or_skipping_the_coin_is_caught():
    w = Wire(3, seed=33)  # the host puts seat 2's commitment in seat 3's place too
    w.tamper = lambda seat, m: {**m, "c": [m["c"][0], m["c"][1], m["c"][1]]} if (m["t"] == "commits" and seat == 2) else m
    w.run()
    assert w.joiners[2].over.kind == "coin" and "the same commitment (an echo)" in w.joiners[2].over.reason
    w = Wire(3, seed=34)  # the host tells seat 3 its deal without the coin's commitments
    w.tamper = lambda seat, m: None if (m["t"] == "commits" and seat == 3 and m["for"] == 1) else m
    w.run()
    j = w.joiners[3]
    assert w.host.waiting_for() == {"reveal": [3]} and j.over is None
    j.receive({"t": "you", "ply": 1, "cards": ",".join(c.name for c in CARDS[:12])}, w.now)
    assert j.over.kind == "coin" and j.over.seat == 1 and "before its coin's commitments" in j.over.reason


def test_a_host_dealing_a_joiner_a_wrong_hand_is_caught_at_once():
    w = Wire(3, seed=35)
    w.tamper = lambda seat, m: {**m, "cards": "K1,K2,K3"} if (m["t"] == "you" and m["ply"] == 1 and seat == 2) else m
    w.run()
    j = w.joiners[2]
    assert j.over.kind == "coin" and j.over.seat == 1 and "dealt 3 different cards, not 12" in j.over.reason


def test_a_joiner_refuses_at_once_a_relayed_play_of_a_card_it_holds():
    """A host relaying (or inventing) seat 3's play of a card seat 2 holds: seat 2 stops the
    match at once, naming seat 3 and the play."""
    w = Wire(3, seed=36)
    until(w, lambda w: w.host.state.phase is Phase.PLAY and w.host.state.to_act == 3 and w.host._acks is None
          and w.joiners[2].view.ply == w.host.state.ply)
    j, ply = w.joiners[2], w.host.state.ply
    card = j.view.observation().hand[0]
    evs = j.receive({"t": "act", "ply": ply, "a": f"3 play {card}"}, w.now)
    assert evs == [j.over] and j.over.kind == "illegal" and j.over.seat == 3
    assert j.over.reason == f"seat 3, ply {ply} (3 play {card}): not in hand"
    assert j.outgoing()[-1] == {"t": "error", "code": "illegal", "reason": j.over.reason}


def lie_about_a_draw(w: Wire):
    """Tamper: the first card seat 2 draws is told as another card still in its pile."""
    state = {"done": False}

    def tamper(seat, m):
        if seat == 2 and m["t"] == "you" and not state["done"]:
            st = w.host.state
            last = st.history[m["ply"]] if m["ply"] < st.ply else None
            if last is not None and last.kind is PLAY and last.seat == 2 and len(st.piles[1]) >= 1:
                state["done"] = True
                return {**m, "cards": CARDS[st.piles[1][-1]].name}
        return m
    return tamper, state


@pytest.mark.parametrize("seed", [37, 39, 40, 41])
def test_a_host_lying_about_a_drawn_card_is_caught(seed):
    """The host tells seat 2 another card of its own pile than the one it drew. Seat 2 finds
    out at the latest at the round's end (the revealed pile order), or sooner: when the host
    refuses a play its told cards allowed (the verdict is the host's), or when the card
    comes up again."""
    w = Wire(3, seed=seed)
    w.tamper, state = lie_about_a_draw(w)
    w.run()
    assert state["done"]
    j = w.joiners[2]
    assert j.over is not None and j.over.kind == "coin" and j.over.seat == 1, j.over
    assert any(x in j.over.reason for x in ("we were told we drew", "it told us false cards",
                                            "not in the rest of our pile")), j.over.reason


def test_a_second_draw_message_for_one_play_is_refused():
    w = Wire(3, seed=38)
    until(w, lambda w: any(m["t"] == "you" and w.host.state.history[m["ply"]].kind is PLAY
                           and m["ply"] == w.host.state.ply - 1 for m in w.host.outbox(2)[-1:]))
    j = w.joiners[2]
    draw = w.host.outbox(2)[-1]
    assert j.view.ply == draw["ply"] + 1
    other = next(c for c in j.view.observation().pile if c.name != draw["cards"]) if j.view.observation().pile \
        else j.view.observation().hand[0]
    evs = j.receive({**draw, "cards": other.name}, w.now)
    assert evs == [j.over] and j.over.kind == "coin" and j.over.seat == 1
    assert "a second draw for one play" in j.over.reason


def test_a_host_telling_two_joiners_two_stories_shows_in_the_fingerprints():
    """The star's blind spot: the host shows seat 2 a made-up commitment for seat 3 in round
    1's starter coin (and later the made-up secret), ground so the starter is the same. Every
    check of seat 2 passes; only the match fingerprint in the records differs."""
    from game.royals.engine import State
    from net.coin import commitment
    from net.royals import coin_outcome, peer_of
    w = Wire(3, seed=42)
    fake = {}

    def tamper(seat, m):
        if seat == 2 and m["t"] == "commits" and m["for"] == 0:
            real = [w.host._coins[0]["own"][1], w.joiners[2].heard.my_secrets[0], w.joiners[3].heard.my_secrets[0]]
            want = str(coin_outcome(State(3).chance(), GAME_ID, 0, real))
            for i in range(1000):
                x = bytes([i % 256, i // 256]) * 16
                if str(coin_outcome(State(3).chance(), GAME_ID, 0, real[:2] + [x])) == want:
                    fake["x"] = x
                    break
            return {**m, "c": [m["c"][0], m["c"][1], commitment(GAME_ID, 0, peer_of(3), fake["x"])]}
        if seat == 2 and m["t"] == "round" and m["round"] == 1:
            return {**m, "secrets": m["secrets"][:2] + [fake["x"]] + m["secrets"][3:]}
        return m
    w.tamper = tamper
    w.run()
    assert all(o.kind == "finished" for o in w.overs().values())
    host, j2, j3 = records(w)
    assert host == j3 and host["rounds"] == j2["rounds"] and host["result"] == j2["result"]
    assert j2["lan"]["fingerprint"] != host["lan"]["fingerprint"]
