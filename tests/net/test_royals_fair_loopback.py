"""The dealer-free Royals & Riots machine (game.royals.lan.match.FAIR) over the one LAN layer on
127.0.0.1: a whole 3-seat match (host, a joiner, a computer seat the host runs) through
net.session, each peer played by net.headless.play_match; identical records `rose-king check`
accepts. The part is used directly here (the game registers it as GAME.lan)."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from game.royals.plugin import GAME
from net.headless import play_match
from game.royals.lan.match import FAIR
from net.session import Session

LIMIT = 120.0


def test_a_whole_match_over_loopback_with_a_computer_seat():
    host = Session(FAIR, "host", "Ann", port=0, kinds=("host", "person", "computer"), computers={2: "random"},
                   date="2026-11-27T09:00:00")
    join = Session(FAIR, "join", "Bo", port=host.port, reconnect_delay=0.05)
    try:
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                host.start()
                break
            except ValueError:
                host.wait(0.05)
        verdicts: dict = {}

        def run(name, s, seed):
            verdicts[name] = play_match(s, FAIR.player("random", seed), timeout=LIMIT)
        threads = [threading.Thread(target=run, args=("host", host, 1)),
                   threading.Thread(target=run, args=("join", join, 2))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(LIMIT + 5)
        assert verdicts["host"].kind == "finished" and verdicts["join"].kind == "finished", verdicts
        rh, rj = host.view(lambda m: m.record()), join.view(lambda m: m.record())
        assert rh == rj and GAME.check(rh).startswith("ok finished")
        assert rh["lan"]["code"] == host.view(lambda m: m.code())
        # every seat's signing key came in the lobby's hellos and start: pinned before any match message
        keys = host.view(lambda m: m.table.sign_keys)
        assert len(keys) == 3 and keys == join.view(lambda m: m.table.sign_keys)
        assert host.view(lambda m: [m.keys[s] for s in range(3)]) == list(keys)
        assert not any(m.get("t") == "fkey" for m in host.view(lambda m: m.wire))
    finally:
        host.close(1.0)
        join.close(1.0)


def _kill(s: Session) -> None:
    """The program dies: no word to anyone, its thread just stops (tests/net/test_lan_layer.py)."""
    s._stopping = True
    s._command("noop")
    s.join(10)


def _play(s: Session, seed: int, out: dict, key: str, stop=None) -> threading.Thread:
    from net.headless import Stopped

    def run():
        try:
            out[key] = play_match(s, FAIR.player("random", seed), timeout=LIMIT, stop=stop)
        except Stopped:
            out[key] = "stopped"
    t = threading.Thread(target=run)
    t.start()
    return t


def _started(s: Session) -> None:
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            s.start()
            return
        except ValueError:
            s.wait(0.05)
    raise AssertionError("the joiner never took its seat")


def _until(s: Session, pred, what: str) -> None:
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if s.view(lambda m: pred(m)):
            return
        time.sleep(0.01)
    raise AssertionError(f"no {what}")


def test_the_host_killed_mid_match_resumes_from_its_journal(tmp_path):
    host = Session(FAIR, "host", "Ann", port=0, record=tmp_path / "h.json", date="2026-11-27T09:00:00")
    port = host.port
    join = Session(FAIR, "join", "Bo", port=port, record=tmp_path / "j.json", host_grace=60.0,
                   reconnect_delay=0.05)
    again = None
    try:
        _started(host)
        out: dict = {}
        killed = threading.Event()
        th = _play(host, 1, out, "host", stop=killed.is_set)
        tj = _play(join, 2, out, "join")
        _until(host, lambda m: m.round == 1 and m.view.ply >= 20, "play in round 1")
        killed.set()
        th.join(10)
        _kill(host)
        again = Session(FAIR, "host", "Ann", port=port, record=tmp_path / "h.json", date="2026-11-27T09:00:00")
        th = _play(again, 1, out, "again")
        th.join(LIMIT + 5)
        tj.join(LIMIT + 5)
        assert out["again"].kind == out["join"].kind == "finished", out
        ra, rj = again.view(lambda m: m.record()), join.view(lambda m: m.record())
        assert ra == rj and GAME.check(ra).startswith("ok finished")
    finally:
        for s in (host, join, again):
            if s is not None:
                s.close(1.0)


def test_a_joiner_killed_mid_match_resumes_from_its_journal(tmp_path):
    host = Session(FAIR, "host", "Ann", port=0, date="2026-11-27T09:00:00")
    join = Session(FAIR, "join", "Bo", port=host.port, record=tmp_path / "j.json", reconnect_delay=0.05)
    again = None
    try:
        _started(host)
        out: dict = {}
        killed = threading.Event()
        th = _play(host, 1, out, "host")
        tj = _play(join, 2, out, "join", stop=killed.is_set)
        _until(join, lambda m: m.round == 2, "round 2")
        killed.set()
        tj.join(10)
        _kill(join)
        again = Session(FAIR, "join", "Bo", port=host.port, record=tmp_path / "j.json", reconnect_delay=0.05)
        tj = _play(again, 2, out, "again")
        th.join(LIMIT + 5)
        tj.join(LIMIT + 5)
        assert out["again"].kind == out["host"].kind == "finished", out
        ra, rh = again.view(lambda m: m.record()), host.view(lambda m: m.record())
        assert ra == rh and GAME.check(ra).startswith("ok finished")
    finally:
        for s in (host, join, again):
            if s is not None:
                s.close(1.0)


class _FramingHost:
    """Makes host machines that end the match once the deck is final with ``illegal`` naming seat
    1, an honest joiner: with a signed verdict whose 'evidence' is that joiner's first envelope
    (``signed``), or with the layer's bare ``over`` only."""

    def __init__(self, signed: bool) -> None:
        self.signed = signed

    def __call__(self, seat, table, tb, seeds=None):
        from net.match import Over, Verdict
        from game.royals.lan.match import FairMatch
        signed = self.signed

        class Framer(FairMatch):
            def _run(self, now):
                out = super()._run(now)
                if self._over is None and self._deck_final():
                    if signed:
                        out += self._announce("illegal", 1, [self.inbox.log[1][0]])
                    self._over = Verdict("illegal", 1, (), 0, "framed")
                    out.append(Over(self._over))
                return out
        return Framer(seat, table, tb, sign_seeds=seeds)


@pytest.mark.parametrize("signed", [True, False])
def test_a_host_framing_the_joiner_with_a_false_verdict_is_named_in_the_joiners_record(tmp_path, signed):
    part = dataclasses.replace(FAIR, new_match=_FramingHost(signed))
    host = Session(part, "host", "Ann", port=0, date="2026-11-27T09:00:00")
    join = Session(FAIR, "join", "Bo", port=host.port, record=tmp_path / "j.json", reconnect_delay=0.05)
    try:
        _started(host)
        out: dict = {}
        th, tj = _play(host, 1, out, "host"), _play(join, 2, out, "join")
        th.join(LIMIT + 5)
        tj.join(LIMIT + 5)
        assert out["host"].kind == "illegal" and out["host"].seat == 1        # what the host says
        v = out["join"]
        assert v.seat == 0, v                                                  # the joiner names the host
        rec = join.view(lambda m: m.record())          # what the session writes to j.json
        assert rec["lan"]["seat"] == 0
        if signed:      # its evidence: the host's own signed verdict
            assert v.kind == "illegal" and "its evidence does not show" in v.detail
            from net.signed import Envelope
            env = Envelope.from_bytes(bytes.fromhex(rec["lan"]["evidence"][0]))
            assert env.sender == 0 and env.verifies(join.view(lambda m: m.keys[0]))
    finally:
        host.close(1.0)
        join.close(1.0)


def test_a_host_that_replaces_a_joiners_signing_key_in_the_start_is_refused_by_that_joiner():
    from net.signed import public_key
    host = Session(FAIR, "host", "Ann", port=0, date="2026-11-27T09:00:00")
    join = Session(FAIR, "join", "Bo", port=host.port, reconnect_delay=0.05)
    try:
        orig = host.lobby._start_msg

        def replaced(c, seat, table):            # the host's start carries a key of its own for seat 1
            out = orig(c, seat, table)
            out.msg["sk"] = [out.msg["sk"][0], public_key(b"\x0e" * 32)]
            return out
        host.lobby._start_msg = replaced
        _started(host)
        from net.session import Dropped
        end, drops = time.monotonic() + 20, []
        while time.monotonic() < end and join.status != "failed":
            drops += [e for e in join.wait(0.05) if isinstance(e, Dropped)]
        assert join.status == "failed" and join.machine is None          # it never played under that key
        assert any(d.code == "seat" and "replaced" in d.reason for d in drops), drops
    finally:
        host.close(1.0)
        join.close(1.0)
