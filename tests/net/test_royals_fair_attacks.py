"""Each cheat at the dealer-free Royals & Riots table is caught and names the cheater
("Tests"): a substituted, duplicated or dropped card in a shuffle; a wrong key; a
played card that is not the one dealt; a host that alters a relayed message; a host that
tells two joiners two stories; a seat that withholds its round keys; a reconnect with fresh
secrets. In memory, through :mod:`tests.net.fair_table` (every message as msgpack bytes
through the host)."""

from __future__ import annotations

import json
import secrets

from net.deck import Pass, card_points
from net.deck.shuffle import SHUFFLE
from game.royals.lan import messages as fm
from game.royals.lan.match import FairMatch, Relayed, _restore, env_msg
from net.signed import Envelope

from .adversary import Tokens
from .fair_table import GID, Net


def _named(net: Net, cheater: int, honest=None, kind: str | None = None) -> list:
    """Every honest machine ended with a verdict naming ``cheater``; returns the verdicts."""
    honest = [s for s in net.machines if s != cheater] if honest is None else honest
    out = []
    for s in honest:
        v = net.machines[s].over
        assert v is not None, f"seat {s} did not end the match"
        assert v.seat == cheater, (s, v)
        if kind is not None:
            assert v.kind == kind, (s, v)
        out.append(v)
    return out


def _resigned(host: FairMatch, env: Envelope, body: bytes) -> Envelope:
    """The host's envelope ``env`` with another ``body``, signed by the host with the same
    sequence number (a second story)."""
    e = Envelope(env.match_id, 0, env.seq, body, b"")
    return Envelope(env.match_id, 0, env.seq, body, host.signers[0]._key.sign(e.signed_bytes()).signature)


class BadPass(FairMatch):
    """Tampers with its shuffle pass of round 1's deck: ``how`` is ``substitute``, ``duplicate``
    or ``drop`` (its own deck keeps the tampered pass, so it stays consistent with it)."""

    how = "substitute"

    def duties(self):
        out = super().duties()
        if out and out[0][1][0] == fm.PASS and self.round == 1:
            seat, body = out[0]
            dk = self.decks[seat]
            sh = dk.shuffles[self.sids[0]]
            p = sh.passes[-1]
            if p.sid == self.sids[0] and sh.steps[p.step][0] == SHUFFLE:
                el = list(p.elements)
                if self.how == "substitute":
                    el[3] = card_points(b"another match", 1)[0]
                elif self.how == "duplicate":
                    el[3] = el[4]
                else:
                    el = el[:-1]
                bad = Pass(p.sid, p.step, p.seat, tuple(el))
                sh.passes[-1] = bad
                out = [(seat, bad.to_bytes())]
        return out


def test_a_substituted_card_is_named_by_the_audit():
    net = Net(3, classes={1: BadPass}).start().run(limit=20_000)
    vs = _named(net, 1, honest=[0, 2], kind="illegal")
    assert all("substituted" in v.detail or "does not follow" in v.detail for v in vs), vs


def test_a_duplicated_card_is_refused_on_receipt():
    cls = type("Dup", (BadPass,), {"how": "duplicate"})
    net = Net(3, classes={2: cls}).start().run(limit=20_000)
    vs = _named(net, 2, honest=[0, 1], kind="illegal")
    assert all("duplicated" in v.detail for v in vs)


def test_a_dropped_card_is_refused_on_receipt():
    cls = type("Drop", (BadPass,), {"how": "drop"})
    net = Net(4, classes={3: cls}).start().run(limit=20_000)
    vs = _named(net, 3, honest=[0, 1, 2], kind="illegal")
    assert all("dropped or added" in v.detail for v in vs)


class WrongKey(FairMatch):
    """Its deal keys carry one wrong key (another position's)."""

    def duties(self):
        out = []
        for seat, body in super().duties():
            if body[0] == fm.SHARES and self.stage == "round":
                items = list(fm.decode(body, seat).items)
                if len(items) > 1:
                    a, b = items[0], items[1]
                    items[0] = a[:-32] + b[-32:]
                    body = fm.shares(seat, items)
            if (seat, body) not in self.done:
                out.append((seat, body))
        return out


def test_a_wrong_key_is_refused_naming_its_sender():
    net = Net(3, classes={2: WrongKey}).start().run(limit=20_000)
    vs = _named(net, 2, honest=[0, 1], kind="illegal")
    assert all("wrong key" in v.detail for v in vs)


class FalsePlay(FairMatch):
    """Says it plays another card than the one at the position it opens."""

    def _emit(self, seat, body):
        if body[0] == fm.PLAY:
            b = bytearray(body)
            b[6] = (b[6] + 1) % 36
            body = bytes(b)
        return super()._emit(seat, body)


def test_a_played_card_not_the_one_dealt_is_named():
    net = Net(3, classes={1: FalsePlay}).start().run(limit=20_000)
    vs = _named(net, 1, honest=[0, 2], kind="illegal")
    assert all("not the one dealt" in v.detail for v in vs)


def _alter_relay(net: Net, countersign: bool) -> list:
    """The host flips one byte of seat 1's envelope on its way to seat 2, countersigning the
    altered bytes (``countersign``) or passing its old countersignature on."""
    done = []
    host = net.machines[0]

    def tamper(frm, to, msg):
        if frm == 0 and to == 2 and msg["t"] == "rel" and not done and msg["e"][16] == 1:
            raw = bytearray(msg["e"])
            raw[30] ^= 1
            sig = msg["s"]
            if countersign:
                sig = host.signers[0]._key.sign(Relayed.signed_bytes(GID, bytes(raw), msg["i"])).signature
            done.append(1)
            return {"t": "rel", "e": bytes(raw), "i": msg["i"], "s": sig}
        return msg
    net.tamper = tamper
    return done


def test_a_host_altering_a_relayed_message_is_named_with_its_own_countersignature():
    """The altered bytes under the host's countersignature: seat 2 names the host with that
    attestation as evidence, and seat 1, the sender, checks it and names the host too (never
    the honest receiver)."""
    net = Net(3).start()
    done = _alter_relay(net, countersign=True)
    net.run(limit=20_000)
    assert done
    for s in (1, 2):
        v = net.machines[s].over
        assert v is not None and (v.kind, v.seat) == ("illegal", 0) and "altered" in v.detail, (s, v)
        ev = net.machines[s].evidence
        assert len(ev) == 1 and isinstance(ev[0], Relayed) and ev[0].verifies(net.machines[s].keys[0])
    assert net.machines[1].record()["lan"] == net.machines[2].record()["lan"]


def test_a_relay_without_a_valid_countersignature_names_the_host_and_frames_nobody():
    """Junk on the host's own connection proves nothing to a third seat: seat 2 names the host,
    seat 1 cannot tell which of the two lies and records ``disputed``, never seat 2 alone."""
    net = Net(3).start()
    done = _alter_relay(net, countersign=False)
    net.run(limit=20_000)
    v = net.machines[2].over
    assert done and v is not None and (v.kind, v.seat) == ("illegal", 0) and "countersignature" in v.detail
    v = net.machines[1].over
    assert v is not None and v.kind == "disputed" and v.between == (0, 2), v


def test_a_host_telling_two_joiners_two_stories_is_named_with_two_envelopes_it_signed():
    net = Net(3).start()
    host = net.machines[0]
    done = []

    def tamper(frm, to, msg):
        if frm == 0 and to == 2 and msg["t"] in ("env", "rel") and not done:
            env = Envelope.from_bytes(msg["e"])
            if env.sender == 0 and env.body[0] == fm.SHARES and len(fm.decode(env.body, 0).items) > 1:
                other = fm.shares(0, list(reversed(fm.decode(env.body, 0).items)))   # same keys, another story
                e2 = _resigned(host, env, other)
                done.append(e2)
                return env_msg(e2.to_bytes())
        return msg
    net.tamper = tamper
    net.run(limit=40_000)
    assert done
    vs = _named(net, 0, honest=[1, 2], kind="illegal")
    assert all("two different stories" in v.detail for v in vs), vs
    from net.signed import Evidence
    first, second = net.machines[1].evidence
    ev = Evidence(0, first, second)
    assert ev.check(GID, [net.machines[1].keys[s] for s in range(3)])


class Withholder(FairMatch):
    """Never sends its round keys (the audit's reveal)."""

    def duties(self):
        return [(s, b) for s, b in super().duties() if b[0] != fm.AUDIT]


def test_withheld_round_keys_are_named_by_the_host_and_disputed_by_the_joiner():
    net = Net(3, classes={2: Withholder}).start().run(limit=40_000)
    for s in (0, 1):
        m = net.machines[s]
        assert m.over is None and m.stage == "audit"
    late = net.late(0)
    assert late is not None and late.seat == 2 and late.step == "reveal" and late.forfeits
    # the joiner waits for seat 2's reveal through the host, longer than the host does
    jl = net.late(1)
    assert jl.seat == 2 and jl.via == 0 and jl.forfeits and jl.deadline(True) > late.deadline(True)
    # nobody learnt a card of seat 2 it did not see played: its unplayed positions stay closed
    assert net.machines[0].round == 1
    # the host's deadline passes: it names seat 2; the joiner, which sees seat 2 only through the
    # host, cannot tell which of the two withheld the reveal, and says so
    net.expire(0)
    net.run()
    v = net.machines[0].over
    assert v is not None and v.kind == "forfeit" and v.seat == 2, v
    v = net.machines[1].over
    assert v is not None and v.kind == "disputed" and v.seat == -1 and v.between == (0, 2), v
    for s in (0, 1):
        assert net.machines[s].evidence and all(e.verifies(net.machines[s].keys[e.sender])
                                                 for e in net.machines[s].evidence)
    assert any(e.sender == 0 and e.body[0] == fm.VERDICT for e in net.machines[1].evidence)
    assert net.machines[1].record()["lan"]["between"] == [0, 2]
    assert net.machines[0].record()["lan"]["evidence"] == [e.to_bytes().hex() for e in net.machines[0].evidence]


def test_a_reconnect_with_a_fresh_signing_key_is_refused_and_its_seat_owes_on():
    net = Net(3).start().run(limit=400)
    fresh = FairMatch(1, net.table, secrets.token_bytes)
    net.links.clear()
    net.machines[1] = fresh
    net._out(1, fresh.start(0.0))
    net.run(limit=2000)
    assert any(to == 0 and frm == 1 and "second signing key" in why for to, frm, _, why in net.refused)
    assert net.machines[0].over is None and net.machines[2].over is None
    assert net.machines[0].keys[1] != fresh.keys[1]       # the pinned key stays


def test_a_second_key_relayed_by_the_host_names_the_host():
    net = Net(3).start().run(limit=400)
    j = net.machines[2]
    j.receive(0, {"t": "fkey", "s": 1, "k": bytes(31) + b"\x01"}, 0.0)
    assert j.over is not None and j.over.seat == 0 and "second signing key" in j.over.detail


def test_a_reconnect_with_fresh_deck_secrets_is_named():
    net = Net(3).start().run(limit=60)
    m = net.machines[2]
    payload = json.loads(json.dumps(m.payload()))
    seed = bytes.fromhex(payload["seeds"]["2"])
    payload["seeds"]["2"] = (seed[:32] + secrets.token_bytes(64)).hex()   # same signing key, new deck secrets
    net.links.clear()
    net.machines[2] = back = _restore(2, net.table, payload, secrets.token_bytes)
    net._out(0, net.machines[0].catch_up(2, back.received(), 0.0))
    net._out(2, back.catch_up(0, 0, 0.0))
    net.run(limit=20_000)
    vs = _named(net, 2, honest=[0, 1])
    assert all(v.kind == "illegal" for v in vs), vs


def test_a_junk_envelope_is_refused_and_the_match_goes_on():
    from net.match import Refusal
    net = Net(2).start().run(limit=50)
    host = net.machines[0]
    try:
        host.receive(1, {"t": "env", "e": b"\x00" * 100}, 0.0)
    except Refusal as r:
        assert r.code == "schema"
    else:
        raise AssertionError("junk accepted")
    net.run()
    assert host.over is not None and host.over.kind == "finished"


class EarlyAuditor(FairMatch):
    """Sends its round audit (every secret of its own) mid-round, right after its keep, hoping
    the honest seats answer with theirs (with every seat's keys it would open every hand)."""

    sent_early = False

    def duties(self):
        out = super().duties()
        if not self.sent_early and self.stage == "round" and self.seat in self.kept:
            self.sent_early = True
            dk = self.decks[self.seat]
            out.append((self.seat, fm.audit(self.seat, self.round, [dk.reveal(sh.sid).to_bytes()
                                                                    for sh in self._shuffles() if sh.final])))
        return out


def _audits_in_flight(net: Net, honest) -> list:
    """A tamper hook's log: (sender, round over in its own view?) for every honest audit sent."""
    log = []
    inner = net.tamper

    def tamper(frm, to, msg):
        if msg["t"] == "env":
            env = Envelope.from_bytes(msg["e"])
            if env.sender in honest and env.body[0] == fm.AUDIT and env.sender == frm:
                st = net.machines[frm].view.state
                m = net.machines[frm]
                log.append((env.sender, st.round > fm.decode(env.body, env.sender).round or st.is_over()
                            or m.stage == "audit" and m.saw_broken))
        return inner(frm, to, msg) if inner else msg
    net.tamper = tamper
    return log


def test_an_early_audit_opens_no_card_and_the_round_plays_on():
    for n in (2, 3, 4):
        net = Net(n, classes={1: EarlyAuditor}, seed=n)
        honest = [s for s in range(n) if s != 1]
        log = _audits_in_flight(net, honest)
        net.start().run(limit=200_000)
        assert net.machines[1].sent_early
        # every honest audit went only once the round had ended in its sender's own view
        assert log and all(ok for _, ok in log), log
        for s in honest:        # the round was played to its end; nobody was named for it
            v = net.machines[s].over
            assert v is not None and v.kind == "finished", (n, s, v)
        records = {json.dumps(net.machines[s].record()) for s in net.machines}
        assert len(records) == 1


def test_a_position_that_opens_to_no_card_is_opened_to_all_before_anyone_audits():
    """A substituted card lands in some seat's hand: only that seat can open it, so it opens it
    to all first (its own key); every peer sees the broken deck itself, and only then reveals."""
    net = Net(3, classes={1: BadPass})
    log = _audits_in_flight(net, [0, 2])
    net.start().run(limit=20_000)
    _named(net, 1, honest=[0, 2], kind="illegal")
    assert log and all(ok for _, ok in log), log
    assert any(m.broken for m in net.machines.values())           # the owner opened it to all
    assert all(net.machines[s].saw_broken for s in (0, 2))


def test_a_host_telling_two_keeps_is_named_by_both_joiners_never_a_joiner():
    """The host signs two different keeps for one sequence number, one to each joiner; the one
    whose keep its later play contradicts names it at once, with its story (the keep it got) as
    evidence, so the other joiner finds the two envelopes of one sequence number and names the
    host too (before, it named the honest joiner whose verdict it could not check)."""
    caught = 0
    for seed in range(1, 6):  # (seeded secrets: the same five deals every run)
        net = Net(3, seed=seed, token_bytes=Tokens(f"two-keeps:{seed}")).start()
        host = net.machines[0]
        done = []

        def tamper(frm, to, msg):
            if frm == 0 and to == 2 and msg["t"] == "env" and not done:
                env = Envelope.from_bytes(msg["e"])
                if env.sender == 0 and env.body[0] == fm.KEEP:
                    b = fm.decode(env.body, 0)
                    rest = [p for p in host.positions_of(0) if p not in b.items]
                    other = fm.keep(0, b.round, sorted([*b.items[1:], rest[0]]))
                    e2 = _resigned(host, env, other)
                    done.append(e2)
                    return env_msg(e2.to_bytes())
            return msg
        net.tamper = tamper
        net.run(limit=60_000)
        assert done
        if all(net.machines[s].over is not None for s in (1, 2)):
            caught += 1
        for s in (0, 1, 2):    # else the steps it cannot get run out: still never a joiner alone
            net.expire(s)
            net.run(limit=1_000)
        for s in (1, 2):
            v = net.machines[s].over
            assert v is not None and (v.seat == 0 or v.kind == "disputed" and 0 in v.between), (seed, s, v)
    assert caught >= 2, caught
