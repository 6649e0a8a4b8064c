"""Verdicts only with evidence at the dealer-free Royals & Riots table: a verdict goes
into a record only with signed envelopes every peer can check; a host (or any peer) that ends
the match with a verdict its evidence does not show -- or with none -- is named itself; the
deadlines of the round's end (a false round end, withheld logs and round ends) name the seat
that owes the step. In memory, through :mod:`tests.net.fair_table`."""

from __future__ import annotations

import pytest

from net.deck import DeckError
from net.match import Verdict
from game.royals.lan import messages as fm
from game.royals.lan.match import FairMatch
from net.signed import parse_round_end, round_end

from .fair_table import Net


def _verdict_env(m: FairMatch, signer: int):
    """The signed ``verdict`` body of ``signer`` that ``m`` holds, decoded."""
    for e in m.envs:
        if e.sender == signer and e.body[:1] == bytes((fm.VERDICT,)):
            return e, fm.decode(e.body, signer)
    return None, None


class Framer(FairMatch):
    """A host that ends the match at a chosen moment with a verdict ``kind`` against seat
    ``victim``, its 'evidence' an honest envelope of the victim (its first)."""

    kind, victim, when = "illegal", 2, "final"

    def _run(self, now):
        out = super()._run(now)
        # "final": the deck is final; else: the victim revealed its part of the starter coin and
        # owes nothing that forfeits until the deck is final
        ready = self._deck_final() if self.when == "final" else (
            self.round == 1 and self.victim in self.coins[-1]["secrets"] and not self._deck_final())
        if self._over is None and ready:
            out += self._announce(self.kind, self.victim, [self.inbox.log[self.victim][0]])
            self._over = Verdict(self.kind, self.victim, (), 0, "framed")
        return out


def _host_named(net: Net, seats, evidence=True) -> None:
    for s in seats:
        m = net.machines[s]
        assert m.over is not None and m.over.kind == "illegal" and m.over.seat == 0, (s, m.over)
        if evidence:
            env, b = _verdict_env(m, 0)
            assert m.evidence[0] == env and env.verifies(m.keys[0]) and b.named == net.machines[0].claimed
        assert m.record()["lan"]["seat"] == 0


def test_a_host_framing_an_honest_joiner_with_a_false_illegal_verdict_is_named():
    net = Net(3, classes={0: Framer})
    net.machines[0].claimed = 2
    net.start().run(limit=20_000)
    for s in (1, 2):                       # then the host's over{illegal, 2} arrives: too late
        assert net.stop(s, 0, "illegal", 2).seat == 0
    _host_named(net, (1, 2))
    assert "its evidence does not show" in net.machines[1].over.detail


def test_a_false_forfeit_verdict_against_a_seat_that_owes_nothing_names_the_host():
    cls = type("F", (Framer,), {"kind": "forfeit", "when": "revealed"})
    net = Net(3, classes={0: cls})
    net.machines[0].claimed = 2
    net.start().run(limit=20_000)
    _host_named(net, (1, 2))
    assert all("cannot accept" in net.machines[s].over.detail for s in (1, 2))


def test_a_bare_verdict_without_evidence_names_its_sender():
    net = Net(2).start()
    while net.machines[1].inbox is None:       # the keys are in; nothing forfeits yet
        net.deliver()
    assert net.machines[1].over is None
    v = net.stop(1, 0, "illegal", 1)      # the host's over{illegal, 1}: no signed verdict before it
    assert v.kind == "illegal" and v.seat == 0 and "refutes" in v.detail, v
    assert net.machines[1].record()["lan"]["seat"] == 0
    net = Net(3).start().run(limit=300)
    v = net.stop(1, 0, "coin", 2)   # a third seat: seat 1 cannot check it, nor blame either alone
    # (unless the host stopped while owing seat 1 a key: then its own forfeit)
    assert v.kind == "disputed" and v.between == (0, 2) or (v.kind, v.seat) == ("forfeit", 0), v
    v = net.stop(2, 0, "coin", 2)   # the joiner itself: its own state refutes it (or, while its own
    assert v is None and net.machines[2]._blocked(2) or (v.kind, v.seat) in (("illegal", 0), ("forfeit", 0)), v
    # coin part still waits to be applied here, the claim ends nothing: the part goes)
    # a verdict naming its own sender stands as the layer says
    assert Net(3).start().run(limit=300).stop(1, 0, "left", 0).kind in ("left", "forfeit")


class FramingJoiner(FairMatch):
    """A joiner that accuses seat 2 once the deck is final."""

    def _run(self, now):
        out = super()._run(now)
        if self._over is None and self._deck_final():
            out += self._announce("illegal", 2, [self.inbox.log[2][0]])
            self._over = Verdict("illegal", 2, (), 0, "framed")
        return out


def test_a_joiners_false_verdict_relayed_by_the_host_names_the_joiner_everywhere():
    net = Net(3, classes={1: FramingJoiner}).start().run(limit=20_000)
    for s in (0, 2):
        m = net.machines[s]
        assert m.over is not None and m.over.kind == "illegal" and m.over.seat == 1, (s, m.over)
        env, b = _verdict_env(m, 1)
        assert env is not None and b.named == 2 and m.evidence[0] == env


def test_a_verdict_with_forged_evidence_names_its_signer():
    class Forger(Framer):
        def _announce(self, kind, seat, evidence):
            e = evidence[0]
            forged = type(e)(e.match_id, e.sender, e.seq, e.body, bytes(64))
            return super()._announce(kind, seat, [forged])
    net = Net(3, classes={0: Forger})
    net.machines[0].claimed = 2
    net.start().run(limit=20_000)
    for s in (1, 2):
        m = net.machines[s]
        assert m.over is not None and m.over.seat == 0 and m.over.kind == "illegal", m.over


def test_a_verdict_body_is_refused_when_malformed():
    body = fm.verdict(1, "forfeit", 2, [b"x" * 100])
    assert fm.decode(body, 1).named == 2 and fm.decode(body, 1).text == "forfeit"
    assert fm.decode(fm.verdict(1, "illegal", -1, []), 1).named == -1
    for bad in (body[:3] + bytes((9,)) + body[4:], body[:2] + bytes((8,)) + body[3:], body + b"\x00", body[:-1]):
        with pytest.raises(DeckError):
            fm.decode(bad, 1)
    with pytest.raises(ValueError):
        fm.verdict(1, "won", 2, [])


# ---------------------------------------------------------------------------- the round's end
class FalseEnd(FairMatch):
    """Signs round ends with a transcript hash no log gives (``withhold_log``: and never sends
    its log)."""

    withhold_log = False

    def duties(self):
        out = []
        for seat, body in super().duties():
            re = parse_round_end(body)
            if re is not None:
                body = round_end(re[0], re[1], bytes(32))
            if self.withhold_log and body[0] == fm.LOG:
                continue
            if (seat, body) not in self.done:
                out.append((seat, body))
        return out


def test_a_false_round_end_whose_signer_withholds_its_log_is_named_by_the_host():
    cls = type("NoLog", (FalseEnd,), {"withhold_log": True})
    net = Net(3, classes={2: cls}).start().run(limit=60_000)
    for s in (0, 1):
        m = net.machines[s]
        assert m.over is None and m.stage == "audit" and 2 in m.mismatch
    late = net.late(0)
    assert late.seat == 2 and late.step == "log" and late.forfeits
    assert net.late(1).seat == 2 and net.late(1).via == 0    # the joiner waits for it via the host
    net.expire(0)
    net.run()
    assert (net.machines[0].over.kind, net.machines[0].over.seat) == ("forfeit", 2)
    assert (net.machines[1].over.kind, net.machines[1].over.between) == ("disputed", (0, 2))
    assert any(parse_round_end(e.body) is not None and e.sender == 2 for e in net.machines[0].evidence)
    assert [e.body[0] for e in net.machines[1].evidence] == [fm.VERDICT]   # the host's signed word


def test_a_false_round_end_with_its_log_is_named_when_the_logs_show_no_two_stories():
    net = Net(3, classes={2: FalseEnd}).start().run(limit=60_000)
    for s in (0, 1):
        m = net.machines[s]
        assert m.over is not None and m.over.kind == "illegal" and m.over.seat == 2, m.over
        assert "no log supports" in m.over.detail and m.evidence[0].sender == 2


def test_a_round_end_withheld_through_the_host_is_disputed_never_the_sender_alone():
    net = Net(3).start()

    def tamper(frm, to, msg):
        if frm == 0 and to == 1 and msg["t"] in ("env", "rel"):
            from net.signed import Envelope
            env = Envelope.from_bytes(msg["e"])
            if env.sender == 2 and parse_round_end(env.body) is not None:
                return None
        return msg
    net.tamper = tamper
    net.run(limit=60_000)
    j = net.machines[1]
    assert j.over is None and j.stage == "audit" and 2 not in j.ends
    late = net.late(1)
    assert late.seat == 2 and late.via == 0 and late.forfeits     # through the host: either withheld it
    assert net.machines[0].round == 2                             # the host went on
    net.expire(1)
    assert j.over.kind == "disputed" and j.over.between == (0, 2)   # never seat 2 alone
    assert j.evidence == []          # a dispute names nobody: every joiner writes it alike


class WithholdAndCheat(FairMatch):
    """Withholds its key of seat 1's next draw, then plays a card other than the one it opens:
    the host sees the false play at once, seat 1 cannot apply it (it waits for its draw)."""

    withheld = False

    def duties(self):
        out = []
        for seat, body in super().duties():
            ref = self.draws.get(1)
            if body[0] == fm.SHARES and ref is not None and ref[0] and len(fm.decode(body, seat).items) == 1:
                self.withheld = True
                continue
            out.append((seat, body))
        return out

    def _emit(self, seat, body):
        if body[0] == fm.PLAY and self.withheld:
            b = bytearray(body)
            b[6] = (b[6] + 1) % 36
            body = bytes(b)
        return super()._emit(seat, body)


def test_a_verdict_waiting_behind_a_withheld_key_is_disputed_on_the_joiner():
    for seed in range(1, 30):
        net = Net(3, classes={2: WithholdAndCheat}, seed=seed).start().run(limit=40_000)
        h = net.machines[0].over
        if h is not None and h.seat == 2 and "not the one dealt" in h.detail and net.machines[1].over is None:
            break
    else:
        raise AssertionError("no match where the cheat came while seat 1 waited for its draw")
    j = net.machines[1]
    assert j.claim is not None and j.claim[1].named == 2        # the host's verdict, its evidence waiting
    v = net.stop(1, 0, "illegal", 2)                            # then the host's over{illegal, 2}
    assert v.kind == "disputed" and v.between == (0, 2), v        # seat 1 sees seat 2 only via the host


def test_a_joiner_framing_a_third_seat_without_a_verdict_never_names_the_host():
    """A joiner sends ``over{illegal, 2}`` with no signed verdict: the host, which sees seat 2
    itself, names the sender; the other honest joiner, which sees both only through the host,
    records ``disputed`` between the host and the sender (before, it named the honest host)."""
    net = Net(3).start().run(limit=400)
    v = net.stop(0, 1, "illegal", 2)   # (its forfeit if it stopped owing the host a key)
    assert v.seat == 1 and v.kind in ("illegal", "forfeit"), v
    net.run()
    v = net.machines[2].over or net.stop(2, 0, v.kind, v.seat)
    assert v.kind == "disputed" and v.between == (0, 1), v
    assert v.seat == -1 and net.machines[2].record()["lan"]["between"] == [0, 1]


class VanishAfterFirstPass(FairMatch):
    """Commits to the starter coin, sends its first deck pass, then never sends again."""

    passes = 0

    def duties(self):
        if self.passes >= 1:
            return []
        out = super().duties()
        self.passes += sum(1 for _, body in out if body[0] == fm.PASS)
        return out


def test_a_joiner_that_vanishes_after_its_first_pass_is_named_by_the_host_and_disputed_elsewhere():
    """The host sees seat 2 away past the total deadline of a step it owes (its next pass, which
    forfeits nothing: the deck is not final): seat 2 ``left``. The other joiner, which cannot
    tell a vanished seat from a host that stopped relaying it, records ``disputed``; neither
    blames the host alone (before, the host waited forever, and the joiner then named it)."""
    from net.match import deadline_verdict, overdue
    net = Net(3, classes={2: VanishAfterFirstPass}).start().run(limit=20_000)
    host = net.machines[0]
    late = overdue(host.owed(), 1e9, lambda s: s != 2)
    assert late is not None and late.seat == 2 and not late.forfeits
    v = deadline_verdict(late, False, host.received())
    assert (v.kind, v.seat) == ("left", 2)
    net._out(0, host.end(v, 1e9))
    net.run()
    j = net.machines[1].over or net.stop(1, 0, "left", 2)
    assert j.kind == "disputed" and j.between == (0, 2), j
    jl = overdue(net.machines[1].owed(), 1e9)
    assert jl is None or jl.via == 0
