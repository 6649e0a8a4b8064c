"""The verdicts of the dealer-free Royals & Riots table over real sockets (127.0.0.1 only),
mirroring the in-memory cases of ``test_royals_fair_verdicts.py``, ``test_royals_fair_attacks.py``
and ``test_adversary.py``: no honest peer records itself, or a seat it cannot prove at fault, on
someone else's word; a joiner that cannot decide between the host and another joiner records
``disputed`` naming both (docs/protocol.md, "Who owes what, and the verdicts", "Verdicts and
their evidence", "Timeout verdicts"). Each test checks every honest peer's record (its END kind,
the seat at fault or the two between, the evidence where the docs say there is some) and that
the deviating peer opened no card of an honest seat.

The step deadlines are shortened (10 s / 60 s -> 0.5 s / 2 s, the relay's 10 s -> 1 s) by
patching :mod:`game.royals.lan.verdicts`, where they are read; every wait is bounded."""

from __future__ import annotations

import json
import threading
import time

import pytest

import game.royals.lan.verdicts as fair_verdicts
from game.royals.engine.state import Phase
from net.headless import play_match
from net.journal import seat_path
from net.match import Notice, Over, Save, Verdict
from game.royals.lan import messages as fm
from game.royals.lan.match import FAIR, FairMatch
from net.session import Session

from .test_royals_layer import AlteringHost, _part, _table

WAIT = 30.0          #: seconds: the bound of every wait here (each match ends in a few seconds)
ATTESTATION = b"rk-relay".hex()


@pytest.fixture(autouse=True)
def short_deadlines(monkeypatch):
    monkeypatch.setattr(fair_verdicts, "STEP_S", 0.5)
    monkeypatch.setattr(fair_verdicts, "STEP_TOTAL", 2.0)
    monkeypatch.setattr(fair_verdicts, "RELAY_S", 1.0)


def _play(sessions: dict[int, Session]) -> dict:
    """Every given seat played by the random player until its match has a verdict (or WAIT):
    seat -> its verdict (or the exception)."""
    out: dict = {}

    def run(seat, s):
        try:
            out[seat] = play_match(s, FAIR.player("random", seat + 1), timeout=WAIT)
        except Exception as e:  # noqa: BLE001 (the test reads it)
            out[seat] = e
    threads = [threading.Thread(target=run, args=(seat, s), daemon=True) for seat, s in sessions.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT + 5)
    return out


def _lan(s: Session) -> dict:
    """The ``lan`` key of the record this peer keeps."""
    return s.view(lambda m: m.record()["lan"])


def _kill(s: Session) -> None:
    """The peer's program dies: no word to anyone (its journal stays as last written)."""
    s._stopping = True
    s._command("noop")
    s.join(5)


def _opened_early(s: Session, dev: int) -> list:
    """Positions of this round that seat ``dev``'s machine opened although they are another
    seat's (or set aside) and were never opened to all."""
    def leaks(m) -> list:
        out = []
        for (sid, pos) in m.decks[dev].known:
            no = next((k for k, x in m.sids.items() if x == sid), None)
            if no is None or (no, pos) in m.opened:
                continue
            if m._owner(sid, pos) != dev:
                out.append((no, pos))
        return out
    return s.view(leaks) or []


def _closing(sessions) -> None:
    for s in sessions:
        s.close(1.0)


# --------------------------------------------------------------------------- (a) a false claim
class Claimant(FairMatch):
    """A joiner that, once it holds its deal (every key of it came, the host's too), ends the
    match saying the host never sent its key: ``over{forfeit, 0}`` with no signed verdict."""

    def _run(self, now):
        out = super()._run(now)
        if self._over is None and self._deck_final() and self.view.state.phase is not Phase.DEAL:
            self._over = Verdict("forfeit", 0, (), self.view.ply, "the host never sent its key")
            out += [Save(), Notice("record"), Over(self._over)]
        return out


def test_a_joiner_claiming_the_host_withheld_a_key_it_sent_never_names_the_host():
    """The host sent its key: its own state refutes the claim, so it names the claimant (its
    ``illegal``, or its ``forfeit`` if it stopped owing a key itself), never itself; the other
    joiner sees the claimant only through the host and records ``disputed`` between the two."""
    honest = _part({})
    made = _table(honest, ("host", "person", "person"), {1: _part({1: Claimant}), 2: honest})
    try:
        host, claimant, other = made
        t0 = time.monotonic()
        out = _play({0: host, 1: claimant, 2: other})
        assert time.monotonic() - t0 < WAIT, out
        v = out[0]
        assert not isinstance(v, Exception), out
        assert v.seat == 1 and v.kind in ("illegal", "forfeit"), v
        assert _lan(host)["end"] == v.kind and _lan(host)["seat"] == 1
        v = out[2]
        assert not isinstance(v, Exception), out
        assert (v.kind, v.seat, v.between) == ("disputed", -1, (0, 1)), v
        assert _lan(other)["end"] == "disputed" and _lan(other)["between"] == [0, 1]
        assert _opened_early(claimant, 1) == []
    finally:
        _closing(made)


# --------------------------------------------------------------------------- (b) a seat vanishes
class Vanisher(FairMatch):
    """Commits to the starter coin, sends its first deck pass, then never sends again; says so
    (:attr:`gone`, set per test)."""

    gone = threading.Event()
    passes = 0

    def duties(self):
        if self.passes >= 1:
            return []
        out = super().duties()
        self.passes += sum(1 for _, body in out if body[0] == fm.PASS)
        if self.passes:
            self.gone.set()
        return out


def test_a_joiner_that_vanishes_after_its_first_pass_is_left_on_the_host_and_disputed_elsewhere(monkeypatch):
    """Seat 2 sends its first pass and its program dies. The host, which sees seat 2 itself, names
    it ``left`` at the total deadline of the pass it owes (it forfeits nothing: the deck is not
    final), with the pass before it as evidence; the other joiner, which sees seat 2 only through
    the host, records ``disputed`` between the two. Nobody names the host."""
    monkeypatch.setattr(Vanisher, "gone", threading.Event())
    honest = _part({})
    made = _table(honest, ("host", "person", "person"), {1: honest, 2: _part({2: Vanisher})})
    try:
        host, one, two = made
        result: dict = {}
        runner = threading.Thread(target=lambda: result.update(_play({0: host, 1: one})), daemon=True)
        runner.start()
        assert Vanisher.gone.wait(WAIT), "seat 2 never sent its pass"
        _kill(two)
        runner.join(WAIT + 10)
        v = result.get(0)
        assert not isinstance(v, Exception) and v is not None, result
        assert (v.kind, v.seat) == ("left", 2), v
        lan = _lan(host)
        assert (lan["end"], lan["seat"]) == ("left", 2) and lan["evidence"], lan
        v = result.get(1)
        assert not isinstance(v, Exception) and v is not None, result
        assert (v.kind, v.between) == ("disputed", (0, 2)), v
        assert _lan(one)["between"] == [0, 2]
        assert _opened_early(two, 2) == []
    finally:
        _closing(made)


# --------------------------------------------------------------------------- (c) an altered relay
def test_a_host_altering_a_relayed_envelope_is_named_by_every_joiner_with_its_countersignature():
    """The host flips a byte of seat 1's first pass on its way to seat 2 under its own
    countersignature: both joiners name the host (seat 2 from the relay, seat 1 from seat 2's
    signed verdict), each with the relay attestation as evidence."""
    honest = _part({})
    made = _table(_part({0: AlteringHost}), ("host", "person", "person"), {1: honest, 2: honest})
    try:
        host = made[0]
        out = _play(dict(enumerate(made)))
        for s in (1, 2):
            v = out[s]
            assert not isinstance(v, Exception), out
            assert (v.kind, v.seat) == ("illegal", 0), (s, v)
            lan = _lan(made[s])
            assert (lan["end"], lan["seat"]) == ("illegal", 0)
            assert any(e.startswith(ATTESTATION) for e in lan["evidence"]), (s, lan)
        assert _opened_early(host, 0) == []
    finally:
        _closing(made)


# --------------------------------------------------------------------------- (d) two accusations
class Accuser(FairMatch):
    """A joiner that, once the deck is final, signs a false ``illegal`` verdict against the host
    (its 'evidence' the host's first envelope) and ends the match."""

    def _run(self, now):
        out = super()._run(now)
        if self._over is None and self._deck_final():
            out += self._announce("illegal", 0, [self.inbox.log[0][0]])
            self._over = Verdict("illegal", 0, (), self.view.ply, "framed")
            out += [Save(), Notice("record"), Over(self._over)]
        return out


def test_a_host_and_a_joiner_accusing_each_other_are_disputed_by_the_third_seat():
    """Seat 1 names the host with evidence that shows nothing; the host, which checks it
    against its own state, names seat 1 in turn. Seat 2 holds nothing signed that decides
    between them: it records ``disputed`` naming both (the accusation as its evidence), never
    either alone."""
    honest = _part({})
    made = _table(honest, ("host", "person", "person"), {1: _part({1: Accuser}), 2: honest})
    try:
        host, accuser, other = made
        out = _play(dict(enumerate(made)))
        v = out[0]
        assert not isinstance(v, Exception), out
        assert (v.kind, v.seat) == ("illegal", 1), v
        lan = _lan(host)
        assert (lan["end"], lan["seat"]) == ("illegal", 1) and lan["evidence"], lan
        v = out[2]
        assert not isinstance(v, Exception), out
        assert (v.kind, v.seat, v.between) == ("disputed", -1, (0, 1)), v
        lan = _lan(other)
        assert lan["end"] == "disputed" and lan["between"] == [0, 1] and lan["seat"] == -1, lan
        assert _opened_early(accuser, 1) == []
    finally:
        _closing(made)


# --------------------------------------------------------------------------- (e) a re-roll
@pytest.mark.parametrize("fresh", ["deck", "deck and coin"])
def test_a_joiner_back_with_fresh_secrets_is_named_and_opens_nothing(tmp_path, monkeypatch, fresh):
    """Seat 2 sends its first pass, its program dies, and it comes back from its journal with
    the same signing key but fresh deck secrets (to re-roll the deal), or fresh coin secrets
    too: its next pass contradicts its own signed first pass (``illegal``, its envelopes the
    evidence), or its new coin part its own signed commitment (a ``coin`` re-roll, which its own
    machine finds first and says of itself). The host names seat 2; the other joiner names it
    too, with the host's signed verdict checked, or -- where the host only took seat 2's word
    about itself (its second commitment waits behind the deal, which never comes) -- records
    ``disputed`` between the two: never the host alone. Seat 2 opened no card of theirs."""
    monkeypatch.setattr(Vanisher, "gone", threading.Event())
    honest = _part({})
    host = Session(honest, "host", "Ann", port=0, kinds=("host", "person", "person"), date="2026-11-27T10:00:00")
    made = [host]
    try:
        from .test_royals_layer import _start
        for seat, part in ((1, honest), (2, _part({2: Vanisher}))):
            rec = tmp_path / f"P{seat}.json"
            made.append(Session(part, "join", f"P{seat}", port=host.port, reconnect_delay=0.05, record=rec))
            end = time.monotonic() + 10
            while not any(r[0] == "person" and r[1] == f"P{seat}" for r in host._rows()):
                assert time.monotonic() < end, "the joiner never took its seat"
                host.wait(0.05)
        _start(host)
        one, two = made[1], made[2]
        result: dict = {}
        runner = threading.Thread(target=lambda: result.update(_play({0: host, 1: one})), daemon=True)
        runner.start()
        assert Vanisher.gone.wait(WAIT), "seat 2 never sent its pass"
        _kill(two)
        journal = seat_path(tmp_path / "P2.json")
        d = json.loads(journal.read_text())
        seed = bytes.fromhex(d["match"]["seeds"]["2"])
        secrets = bytes(32) + seed[64:] if fresh == "deck" else bytes(64)
        d["match"]["seeds"]["2"] = (seed[:32] + secrets).hex()   # the same signing key
        journal.write_text(json.dumps(d))
        back = Session(honest, "join", "P2", port=host.port, reconnect_delay=0.05, record=tmp_path / "P2.json")
        made.append(back)
        back_out: dict = {}
        tb = threading.Thread(target=lambda: back_out.update(_play({2: back})), daemon=True)
        tb.start()
        runner.join(WAIT + 10)
        tb.join(WAIT + 10)
        for s, sess in ((0, host), (1, one)):
            v = result.get(s)
            assert not isinstance(v, Exception) and v is not None, result
            lan = _lan(sess)
            if s == 1 and fresh != "deck" and v.kind == "disputed":
                assert (v.seat, v.between) == (-1, (0, 2)) and lan["between"] == [0, 2], v
                continue
            assert v.seat == 2 and v.kind in (("illegal",) if fresh == "deck" else ("illegal", "coin")), (s, v)
            assert (lan["end"], lan["seat"]) == (v.kind, 2), (s, lan)
            assert lan["evidence"] or v.detail == "seat 2 ended the match: coin", (s, lan)
        assert _opened_early(back, 2) == []
    finally:
        _closing(made)
