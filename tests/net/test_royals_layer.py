"""Royals & Riots on the one LAN layer: the dealer-free part
(game.royals.lan.match.FAIR) is the game's registered ``lan`` entry, so ``rose-king host/join --game
royals-riots`` run it through game/commands/layer.py with the table's options (``--seats``,
``--computer``, ``--teams``), a beacon naming the game, and resume after kill -9 of any peer,
the host included. The known attacks on Royals & Riots replayed on it over 127.0.0.1: blame goes
to the seat that owes the step, the deadlines fire for a connected peer, and a decision is taken
only on a view that applied everything owed to it. Every wait is bounded."""

from __future__ import annotations

import dataclasses
import json
import signal
import socket
import subprocess
import sys
import threading
import time
from argparse import Namespace

import pytest

import game.royals.lan.match as fair
import game.royals.lan.verdicts as fair_verdicts
from game.royals.plugin import GAME
from net.headless import Stopped, play_match
from game.royals.lan import messages as fm
from game.royals.lan.match import FAIR, FairMatch
from net.session import Dropped, Ended, Session, Started

from .fair_table import Net
from .test_royals_fair_attacks import EarlyAuditor
from .test_cli import Proc

LIMIT = 120.0


def _check(path) -> str:
    return GAME.check(json.loads(path.read_text()))


# --------------------------------------------------------------------------- the registry entry
def test_the_games_lan_entry_is_the_dealer_free_part_with_its_lobby_options():
    part = GAME.lan
    assert (part.key, part.version, tuple(part.seats), part.auto_start) == ("royals-riots", 5, (2, 3, 4), False)
    assert part.new_match is FAIR.new_match and part.schemas is FAIR.schemas
    assert part.host_options(Namespace(teams=True, seats=4)) == {"teams": True}
    assert part.host_options(Namespace(teams=False, seats=3)) == {}
    for seats in (3, None):
        with pytest.raises(ValueError, match="4 seats"):
            part.host_options(Namespace(teams=True, seats=seats))


def test_a_joiner_learns_the_game_from_a_royals_hosts_hello():
    from net.session import probe_host
    host = Session(GAME.lan, "host", "Ann", port=0, kinds=("host", "person", "person"))
    try:
        key, sock, data = probe_host("127.0.0.1", host.port)
        sock.close()
        assert key == "royals-riots" and data
    finally:
        host.close(1.0)


# --------------------------------------------------------------------------- the commands
def _host(tmp_path, *extra: str, name: str = "h.json") -> Proc:
    return Proc("host", "--game", "royals-riots", "--port", "0", "--loopback", "--name", "Ann", "--headless",
                "--ai", "random", "--record", str(tmp_path / name), "--timeout", str(LIMIT), *extra)


def _join(tmp_path, port: int, who: str, *extra: str) -> Proc:
    return Proc("join", f"127.0.0.1:{port}", "--name", who, "--headless", "--ai", "random", "--record",
                str(tmp_path / f"{who}.json"), "--timeout", str(LIMIT), *extra)


def test_host_and_join_play_a_3_seat_table_with_a_computer_seat(tmp_path):
    """``--seats 3 --computer random``: the computer takes seat 2, the joiner seat 1; both peers
    show the same match code, exit 0 and keep the same record, which `rose-king check` accepts."""
    host = _host(tmp_path, "--seats", "3", "--computer", "random")
    procs = [host]
    try:
        port = int(host.expect("listening on port").rsplit(" ", 1)[1])
        bo = _join(tmp_path, port, "Bo")
        procs.append(bo)
        codes = {p.expect("match code ").split("match code ", 1)[1].split(":")[0] for p in procs}
        for p in procs:
            assert p.finish() == 0, p.lines
        assert len(codes) == 1
        assert any("new match: Ann, Bo, Computer (random); you are seat 2 (Bo)" in x for x in bo.lines), bo.lines
        assert (tmp_path / "h.json").read_text() == (tmp_path / "Bo.json").read_text()
        assert _check(tmp_path / "h.json").startswith("ok finished")
        assert json.loads((tmp_path / "h.json").read_text())["lan"]["code"] == codes.pop()
    finally:
        for p in procs:
            p.kill()


def test_option_errors_are_clear():
    def run(*args: str) -> tuple[int, str]:
        p = subprocess.run([sys.executable, "-m", "game.cli", *args], capture_output=True, text=True, timeout=LIMIT)
        return p.returncode, p.stdout + p.stderr
    base = ("host", "--game", "royals-riots", "--headless", "--ai", "easy", "--port", "0", "--loopback")
    rc, out = run(*base, "--seats", "2", "--computer", "easy", "--computer", "easy")
    assert rc == 2 and "do not fit a table of 2" in out
    rc, out = run(*base, "--seats", "3", "--computer", "expert")
    assert rc == 2 and "levels are" in out and "expert" in out
    rc, out = run("host", "--game", "royals-riots", "--headless", "--ai", "expert", "--port", "0")
    assert rc == 2 and "--ai" in out
    rc, out = run(*base, "--seats", "3", "--teams")
    assert rc == 2 and "teams" in out
    rc, out = run("host", "--game", "royals-riots", "--headless", "--ai", "easy", "--seats", "9")
    assert rc == 2 and "--seats" in out


def _plays(journal) -> int:
    """How many plays (signed PLAY envelopes) a peer's journal holds (0 before it exists)."""
    from net.signed import Envelope
    try:
        envs = json.loads(journal.read_text())["match"]["envs"]
    except (OSError, ValueError, KeyError):
        return 0
    return sum(Envelope.from_bytes(bytes.fromhex(e)).body[0] == fm.PLAY for e in envs)


@pytest.mark.parametrize("victim", ["join", "host"])
def test_kill_9_of_any_peer_and_a_restart_with_its_record_resumes_the_match(tmp_path, victim):
    """Real processes, 3 seats (the host, a computer seat it runs, a joiner): the victim is
    killed with SIGKILL mid-match (no goodbye) and started again with the same command line; it
    resumes from its journal, both exit 0 with identical records `rose-king check` accepts."""
    slow = ("--move-delay", "0.01")
    host_args = ("--seats", "3", "--computer", "random", *slow)
    host = _host(tmp_path, *host_args)
    procs = [host]
    try:
        port = int(host.expect("listening on port").rsplit(" ", 1)[1])
        bo = _join(tmp_path, port, "Bo", *slow)
        procs.append(bo)
        first = {"host": host, "join": bo}[victim]
        journal = tmp_path / ("h.json.journal" if victim == "host" else "Bo.json.journal")
        end = time.monotonic() + LIMIT
        while _plays(journal) < 20:  # mid round 1 (36 cards are played in a 3-seat round)
            assert time.monotonic() < end and first.p.poll() is None, first.lines
            time.sleep(0.05)
        first.p.send_signal(signal.SIGKILL)
        first.p.wait(10)
        if victim == "host":
            again = Proc("host", "--game", "royals-riots", "--port", str(port), "--loopback", "--name", "Ann",
                         "--headless", "--ai", "random", "--record", str(tmp_path / "h.json"),
                         "--timeout", str(LIMIT), *host_args)
        else:
            again = _join(tmp_path, port, "Bo", *slow)
        procs.append(again)
        again.expect("resumed")
        survivors = [bo, again] if victim == "host" else [host, again]
        for p in survivors:
            assert p.finish() == 0, p.lines
        assert (tmp_path / "h.json").read_text() == (tmp_path / "Bo.json").read_text()
        assert _check(tmp_path / "h.json").startswith("ok finished")
    finally:
        for p in procs:
            p.kill()


def test_a_team_table_with_two_computer_seats_and_a_beacon_naming_the_game(tmp_path, monkeypatch):
    """``--seats 4 --teams --computer random --computer random --beacon-address 127.0.0.1``: the
    beacon names the game's key, the joiner takes seat 1, and the team match ends alike."""
    import socket

    import net.discovery
    from game.cli import main
    from net.discovery import BeaconListener
    monkeypatch.setenv("ROSE_KING_LAN_LOOPBACK", "1")
    listener = BeaconListener(bind="127.0.0.1", port=0)
    real = net.discovery.Beacon
    monkeypatch.setattr(net.discovery, "Beacon", lambda *a, **kw: real(*a, **kw, dest_port=listener.port,
                                                                        interval=0.05))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    results: dict = {}

    def run(key, argv):
        results[key] = main(argv)
    common = ["--headless", "--ai", "random", "--timeout", str(LIMIT)]
    host = threading.Thread(target=run, args=("host", ["host", "--game", "royals-riots", "--port", str(port),
                                                       "--loopback", "--name", "Ann", "--seats", "4", "--teams",
                                                       "--computer", "random", "--computer", "random",
                                                       "--beacon-address", "127.0.0.1",
                                                       "--record", str(tmp_path / "h.json"), *common]))
    host.start()
    try:
        end = time.monotonic() + 20
        while time.monotonic() < end and not listener.games():
            listener.wait_heard(0.5)
        found = listener.games()
        assert [(g.game, g.name, g.port) for g in found] == [("royals-riots", "Ann", port)]
    finally:
        listener.stop()
        join = threading.Thread(target=run, args=("join", ["join", f"127.0.0.1:{port}", "--name", "Bo",
                                                           "--record", str(tmp_path / "j.json"), *common]))
        join.start()
        host.join(LIMIT + 5)
        join.join(LIMIT + 5)
    assert results == {"host": 0, "join": 0}
    h = json.loads((tmp_path / "h.json").read_text())
    assert h == json.loads((tmp_path / "j.json").read_text())
    assert h["teams"] is True and h["players"] == ["Ann", "Bo", "Computer (random)", "Computer (random)"]
    assert GAME.check(h).startswith("ok finished")


# --------------------------------------------------------------------------- the known attacks
def _part(classes: dict):
    """FAIR whose machine of seat s is ``classes[s]`` (an attacker), else the honest one."""
    return dataclasses.replace(FAIR, new_match=lambda seat, table, tb, seeds=None: classes.get(seat, FairMatch)(
        seat, table, tb, sign_seeds=seeds))


def _start(host: Session) -> None:
    """The host starts the match as soon as every person seat is taken (within 10 s)."""
    end = time.monotonic() + 10
    while True:
        try:
            host.start()
            return
        except ValueError:
            assert time.monotonic() < end, "the joiners never took their seats"
            host.wait(0.05)


def _table(host_part, kinds, joiners: dict, tmp_path=None):
    """A host and its joiners on 127.0.0.1, every person seat taken, the match started."""
    host = Session(host_part, "host", "Ann", port=0, kinds=kinds, date="2026-11-27T10:00:00",
                   computers={s: "random" for s, k in enumerate(kinds) if k == "computer"})
    made = [host]
    for seat, part in joiners.items():
        made.append(Session(part, "join", f"P{seat}", port=host.port, reconnect_delay=0.05))
        end = time.monotonic() + 10
        while not any(r[0] == "person" and r[1] == f"P{seat}" for r in host._rows()):
            assert time.monotonic() < end, "the joiner never took its seat"
            host.wait(0.05)
    _start(host)
    return made


def _play_all(sessions) -> dict:
    out: dict = {}

    def run(i, s):
        try:
            out[i] = play_match(s, FAIR.player("random", i + 1), timeout=LIMIT)
        except Exception as e:  # noqa: BLE001 (reported below)
            out[i] = e
    threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate(sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(LIMIT + 5)
    return out


class Withholder(FairMatch):
    """Never sends its round keys (the audit's reveal, owed to every seat once the round ends)."""

    def duties(self):
        return [(s, b) for s, b in super().duties() if b[0] != fm.AUDIT]


def test_a_withheld_step_is_named_by_the_host_and_never_blamed_on_the_host(monkeypatch):
    """3 seats, two joiners: seat 2 withholds its round keys. The host, which sees seat 2
    itself, names it (forfeit); the honest joiner, which sees seat 2 only through the host,
    records ``disputed`` between the two: it never blames the host alone, nor seat 2 on the
    host's word."""
    monkeypatch.setattr(fair_verdicts, "STEP_S", 0.5)
    monkeypatch.setattr(fair_verdicts, "STEP_TOTAL", 2.0)
    honest = _part({})
    made = _table(honest, ("host", "person", "person"), {1: honest, 2: _part({2: Withholder})})
    try:
        verdicts = _play_all(made)
        for i in (0, 1):     # the withholder's own end is its affair
            assert not isinstance(verdicts[i], Exception), verdicts
        assert (verdicts[0].kind, verdicts[0].seat) == ("forfeit", 2), verdicts
        # the honest joiner sees seat 2 only through the host: it cannot tell which withheld
        assert (verdicts[1].kind, verdicts[1].between) == ("disputed", (0, 2)), verdicts
    finally:
        for s in made:
            s.close(1.0)


class Reconnector(FairMatch):
    """Withholds its round keys (as :class:`Withholder`), judges no deadline itself (so it stays
    on the line) and says when it starts withholding (:attr:`withholding`, set per test)."""

    withholding = threading.Event()

    def duties(self):
        duties = super().duties()
        if any(b[0] == fm.AUDIT for _, b in duties):
            self.withholding.set()
        return [(s, b) for s, b in duties if b[0] != fm.AUDIT]

    def owed(self):
        return []


class OwedWatcher(FairMatch):
    """The honest host's machine, which says (:attr:`owing`, set per test) once it sees seat 1
    owe its round keys: from then on the host holds every step seat 1 sent before, so a drop
    can no longer cost the withholder an earlier message (that would leave it owing a decision,
    with its 600-second deadline, instead of the forfeiting reveal under test)."""

    owing = threading.Event()

    def owed(self):
        owed = super().owed()
        if any(o.seat == 1 and o.step == "reveal" and o.forfeits for o in owed):
            self.owing.set()
        return owed


def test_a_withholder_reconnecting_before_each_deadline_forfeits_by_the_total_one(monkeypatch):
    """Seat 1 withholds its round keys (a forfeiting step) and drops and reconnects
    (with its seat proof) each time the host has it seated again, long before its connected
    deadline (10 s; 0.5 s here). The total deadline (60 s; 2 s here) runs from when the step
    became owed, whatever reconnects happen: the host names seat 1, which forfeits (before,
    each reconnect restarted the host's clock in FairMatch.catch_up: no verdict, ever)."""
    monkeypatch.setattr(fair_verdicts, "STEP_S", 0.5)
    monkeypatch.setattr(fair_verdicts, "STEP_TOTAL", 2.0)
    monkeypatch.setattr(Reconnector, "withholding", threading.Event())
    monkeypatch.setattr(OwedWatcher, "owing", threading.Event())
    host, join = made = _table(_part({0: OwedWatcher}), ("host", "person"), {1: _part({1: Reconnector})})
    events: list = []
    cv = threading.Condition()

    def seen(e) -> None:
        with cv:
            events.append(e)
            cv.notify_all()

    def run(s, on_event=None) -> None:
        try:
            play_match(s, FAIR.player("random", 1), timeout=LIMIT, on_event=on_event)
        except Exception:  # noqa: BLE001 (the host's events say what happened)
            pass
    threads = [threading.Thread(target=run, args=(host, seen), daemon=True),
               threading.Thread(target=run, args=(join,), daemon=True)]
    try:
        for t in threads:
            t.start()
        assert Reconnector.withholding.wait(LIMIT), "seat 1 never came to its round keys"
        assert OwedWatcher.owing.wait(LIMIT), "the host never saw seat 1 owe its round keys"
        drops, end = 0, time.monotonic() + 30
        with cv:
            while not any(isinstance(e, Ended) for e in events):
                assert time.monotonic() < end, f"no verdict after {drops} reconnects"
                backs = sum(isinstance(e, Started) and e.resumed for e in events)
                for p in list(join._peers.values()):  # the withholder drops its connection
                    try:
                        p.sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                drops += 1
                cv.wait_for(lambda: any(isinstance(e, Ended) for e in events)
                            or sum(isinstance(e, Started) and e.resumed for e in events) > backs, 5.0)
            v = next(e for e in events if isinstance(e, Ended)).verdict
        assert drops >= 3, drops  # it did reconnect, again and again, while the clock ran
        assert (v.kind, v.seat) == ("forfeit", 1) and "seat 1 withheld its reveal" in v.detail, v
    finally:
        for s in made:
            s.close(1.0)


class Silent(FairMatch):
    """Never sends a shuffle pass of its own, and judges no deadline itself (so it stays on
    the line)."""

    def duties(self):
        return [(s, b) for s, b in super().duties() if b[0] != fm.PASS]

    def owed(self):
        return []


def test_the_step_deadline_fires_for_a_joiner_connected_from_the_start(monkeypatch):
    """A connected joiner that never sends its shuffle pass (nothing seen yet: it cannot want
    to back out) is cut off by the host at the step deadline (``withheld``, 10 s; 0.5 s here),
    naming it; no verdict is given, so it may come back."""
    monkeypatch.setattr(fair_verdicts, "STEP_S", 0.5)
    made = _table(_part({}), ("host", "person"), {1: _part({1: Silent})})
    try:
        host, join = made
        seen: list = []
        end = time.monotonic() + 15

        def cut(e) -> bool:
            return isinstance(e, Dropped) and e.code == "withheld" and not e.by_peer and e.seat == 1
        while not any(cut(e) for e in seen):
            assert time.monotonic() < end, seen
            seen += host.wait(0.1)
        d = next(e for e in seen if cut(e))
        assert "seat 1 withheld its pass" in d.reason
        assert host.verdict is None and not any(isinstance(e, Ended) for e in seen)
    finally:
        for s in made:
            s.close(1.0)


class Seeded(FairMatch):
    """An honest machine whose secrets come from a fixed seed (the same match every run)."""

    def __init__(self, seat, table, token_bytes, payload=None, **kw) -> None:
        import random
        rng = random.Random(1000 + seat)
        super().__init__(seat, table, rng.randbytes, payload, **kw)


def test_a_decision_is_taken_only_on_a_view_that_applied_what_is_owed_to_it():
    """Every envelope of key shares meant for seat 1 (its deal, the card it draws) is held back
    behind the rest of the host's traffic, many times over. Seat 1 is then often the seat to
    act (it won the trick and leads) while the card it drew has not come: it has no decision
    then, never leads a card it has not drawn, and the match ends finished on every peer."""
    net = Net(3, seed=7, cls=Seeded).start()
    bounced: dict = {}
    waited = []

    def deliver() -> bool:
        if not net.links:
            return False
        frm, to, data = net.links[0]
        if to == 1 and frm == 0 and bounced.get(data, 0) < 4 and len(net.links) > 1:
            from net.framing import decode_payload

            from .fair_table import SCHEMAS
            msg = decode_payload(data, SCHEMAS)
            if msg["t"] in ("env", "rel"):
                from net.signed import Envelope
                env = Envelope.from_bytes(msg["e"])
                if env.body[0] == fm.SHARES:
                    net.links.rotate(-1)  # to the back of the queue
                    bounced[data] = bounced.get(data, 0) + 1
                    return True
        return net.deliver()

    m = net.machines[1]
    limit = 400_000
    while limit > 0 and (deliver() or net.decide()):
        limit -= 1
        st = m.view.state
        if 1 in m.draws and not st.is_chance() and st.to_act == 2:
            waited.append(m.turn_for(1))
        if net.machines[0].over is not None and not net.links:
            break
    assert waited, "seat 1 never had to wait for its drawn card"
    assert all(obs is None for obs in waited)
    for s, mm in net.machines.items():
        assert mm.over is not None and mm.over.kind == "finished", (s, mm.over)


# --------------------------------------------------------------------------- SIGTERM / SIGINT
BOUND = 10.0  #: seconds: a goodbye is heard well within this (a drop would wait for host_grace)


def _events_until(session, predicate, timeout: float, seen: list) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"timed out (status {session.status}); saw {seen[-8:]}"
        seen.extend(session.wait(0.1))
    seen.extend(session.poll())


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_host_stopped_by_a_signal_mid_match_says_bye_and_its_joiner_stops_at_once(procs, tmp_path, sig):
    """The host leaves as a closed window does: its joiner hears ``bye`` at once (no reconnecting
    for ``host_grace``) and judges it by who owes what: a host that owed a key forfeits, else it
    is only away. Both keep the same rounds played so far; the host exits with 128 + the signal."""
    host = procs("host", "--game", "royals-riots", "--seats", "2", "--port", "0", "--loopback", "--name", "Ann",
                 "--headless", "--ai", "random", "--record", str(tmp_path / "Ann.json"), "--timeout", str(LIMIT),
                 "--move-delay", "0.02")
    port = int(host.expect("listening on port").rsplit(" ", 1)[1])
    bo = Session(GAME.lan, "join", "Bo", port=port, record=tmp_path / "Bo.json", host_grace=LIMIT,
                 reconnect_delay=0.05)
    seen: list = []
    out: dict = {}
    t = threading.Thread(target=lambda: out.setdefault("r", _catch(play_match, bo, FAIR.player("random", 3),
                                                                   timeout=LIMIT, on_event=seen.append)))
    try:
        t.start()
        end = time.monotonic() + LIMIT
        while not bo.view(lambda m: m.round == 2):
            assert time.monotonic() < end, seen[-8:]
            time.sleep(0.02)
        host.p.send_signal(sig)
        t.join(BOUND)
        assert not t.is_alive(), (out, seen[-10:], bo.status, host.p.poll())
        drops = [e for e in seen if isinstance(e, Dropped)]
        assert drops and drops[0].code == "bye" and drops[0].by_peer, drops
        r = out["r"]  # the host owed a key of a card (rule 2: its forfeit), or nothing (it is only away)
        assert (r.kind, r.seat) == ("forfeit", 0) if bo.verdict is not None else "session failed" in str(r), r
        assert host.finish(BOUND) == 128 + sig, host.lines
        assert any(f"{signal.Signals(sig).name}: left the match" in x for x in host.lines), host.lines
        assert any("record written to" in x for x in host.lines), host.lines
    finally:
        bo.close(1.0)
    ann, mine = (json.loads((tmp_path / f).read_text()) for f in ("Ann.json", "Bo.json"))
    assert ann["rounds"] == mine["rounds"] and len(ann["rounds"]) >= 1
    assert GAME.check(ann).startswith("ok in-progress")


def _catch(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except Exception as e:  # noqa: BLE001 (the test reads it)
        return e


def test_a_host_stopped_in_the_lobby_closes_the_table_for_its_joiner(procs):
    host = procs("host", "--game", "royals-riots", "--seats", "3", "--port", "0", "--loopback", "--name", "Ann",
                 "--headless", "--ai", "random", "--timeout", str(LIMIT))  # seat 2 stays open: no match
    port = int(host.expect("listening on port").rsplit(" ", 1)[1])
    bo = Session(GAME.lan, "join", "Bo", port=port, host_grace=LIMIT, reconnect_delay=0.05)
    try:
        seen: list = []
        from net.session import LobbySeats
        _events_until(bo, lambda: any(isinstance(e, LobbySeats) for e in seen), LIMIT, seen)
        _events_until(bo, lambda: bo.status == "lobby", BOUND, seen)  # seated: no longer "connecting"
        host.p.send_signal(signal.SIGTERM)
        _events_until(bo, lambda: bo.status == "failed", BOUND, seen)
        drops = [e for e in seen if isinstance(e, Dropped)]
        assert [(d.code, d.by_peer) for d in drops] == [("bye", True)], drops
        assert host.finish(BOUND) == 143, host.lines
    finally:
        bo.close(1.0)


def test_a_joiner_stopped_by_sigterm_says_bye_and_takes_its_seat_back_when_restarted(procs, tmp_path):
    """The host hears the joiner's goodbye: a joiner that owed a key then forfeits (rule 2), else
    its seat waits and the joiner restarted with its --record resumes the match."""
    host = procs("host", "--game", "royals-riots", "--seats", "2", "--port", "0", "--loopback", "--name", "Ann",
                 "--headless", "--ai", "random", "--record", str(tmp_path / "Ann.json"), "--timeout", str(LIMIT),
                 "--move-delay", "0.02")
    port = int(host.expect("listening on port").rsplit(" ", 1)[1])
    args = ("join", f"127.0.0.1:{port}", "--name", "Bo", "--headless", "--ai", "random", "--record",
            str(tmp_path / "Bo.json"), "--timeout", str(LIMIT), "--move-delay", "0.02")
    bo = procs(*args)
    bo.expect("new match")
    end = time.monotonic() + LIMIT
    while _plays(tmp_path / "Bo.json.journal") < 6:
        assert time.monotonic() < end, bo.lines
        time.sleep(0.05)
    bo.p.send_signal(signal.SIGTERM)
    assert bo.finish(BOUND) == 143, bo.lines
    assert any("SIGTERM: left the match" in x for x in bo.lines), bo.lines
    host.expect("connection closed (bye)", BOUND)
    again = procs(*args)
    assert host.finish() == 0, host.lines
    if any("match over: forfeit by seat 2" in x for x in host.lines):
        return  # it left while it owed a key of a card (rule 2): its forfeit, nothing to resume
    assert again.finish() == 0, host.lines + again.lines
    assert any("resumed" in x for x in again.lines), again.lines
    assert (tmp_path / "Ann.json").read_text() == (tmp_path / "Bo.json").read_text()


# --------------------------------------------------------------------------- losing the host, learning the game
def test_a_host_killed_without_a_word_ends_the_match_for_its_joiner_after_its_grace(tmp_path, monkeypatch):
    """kill -9 of the host's program mid-match: the joiner tries to get back for ``host_grace``
    (1 s here), then ends the match as left by the host (seat 0) -- or, when the host owed it a
    forfeiting step then (a key, a relay), at that step's total deadline (60 s; 4 s here) as the
    host's forfeit, the layer's rule 1 for every seat -- its record and journal kept."""
    monkeypatch.setattr(fair_verdicts, "STEP_TOTAL", 4.0)
    monkeypatch.setattr(fair_verdicts, "RELAY_S", 1.0)
    host = Session(GAME.lan, "host", "Ann", port=0, kinds=("host", "person", "computer"), computers={2: "random"})
    bo = Session(GAME.lan, "join", "Bo", port=host.port, record=tmp_path / "Bo.json", host_grace=1.0,
                 reconnect_delay=0.05)
    try:
        made = [host, bo]
        _start(host)
        stop = threading.Event()
        out: dict = {}
        th = threading.Thread(target=lambda: out.setdefault("h", _catch(play_match, host, FAIR.player("random", 1),
                                                                         timeout=LIMIT, stop=stop.is_set)))
        tj = threading.Thread(target=lambda: out.setdefault("j", _catch(play_match, bo, FAIR.player("random", 2),
                                                                         timeout=LIMIT)))
        th.start()
        tj.start()
        end = time.monotonic() + LIMIT
        while not bo.view(lambda m: m.view.ply > 20):
            assert time.monotonic() < end
            time.sleep(0.02)
        stop.set()
        th.join(10)
        host._stopping = True  # the program dies: no word to anyone
        host._command("noop")
        host.join(10)
        tj.join(BOUND)
        v = out["j"]
        assert (v.kind, v.seat) in (("left", 0), ("forfeit", 0)), v
        bo.close(2.0)  # its thread ends: every file it writes is written
        rec = json.loads((tmp_path / "Bo.json").read_text())
        assert rec["lan"]["end"] == v.kind and GAME.check(rec).startswith("ok")
        assert (tmp_path / "Bo.json.journal").exists()
    finally:
        for s in made:
            s.close(1.0)


def test_a_joiner_that_leaves_before_any_round_ended_keeps_the_record_of_none(tmp_path):
    host = Session(GAME.lan, "host", "Ann", port=0, kinds=("host", "person"))
    bo = Session(GAME.lan, "join", "Bo", port=host.port, record=tmp_path / "Bo.json", reconnect_delay=0.05)
    try:
        _start(host)
        end = time.monotonic() + 10
        while bo.view(lambda m: m.code()) in (None, ""):
            assert time.monotonic() < end
            bo.wait(0.05)
        bo.close(2.0)
        rec = json.loads((tmp_path / "Bo.json").read_text())
        assert rec["rounds"] == [] and rec["players"] == ["Ann", "Bo"]
        assert GAME.check(rec).startswith("ok in-progress round=1")
    finally:
        host.close(1.0)
        bo.close(1.0)


def test_a_joiner_started_before_its_host_learns_the_game_from_its_hello(tmp_path, procs):
    """``rose-king join`` without ``--game`` while nobody answers: it waits, then plays Royals &
    Riots when a Royals & Riots host comes."""
    import socket
    hold = socket.socket()
    hold.bind(("127.0.0.1", 0))  # bound, not listening: connections are refused until the host comes
    port = hold.getsockname()[1]
    try:
        bo = procs("join", f"127.0.0.1:{port}", "--name", "Bo", "--headless", "--ai", "random", "--record",
                   str(tmp_path / "Bo.json"), "--timeout", str(LIMIT))
        bo.expect("nobody answers")
        hold.close()
        host = procs("host", "--game", "royals-riots", "--seats", "2", "--port", str(port), "--loopback",
                     "--name", "Ann", "--headless", "--ai", "random", "--record", str(tmp_path / "h.json"),
                     "--timeout", str(LIMIT))
        for p in (bo, host):
            assert p.finish() == 0, p.lines
        assert any("match over: finished" in line for line in bo.lines), bo.lines
        assert (tmp_path / "h.json").read_text() == (tmp_path / "Bo.json").read_text()
    finally:
        hold.close()


class AlteringHost(FairMatch):
    """A host that flips one byte of seat 1's first deck pass on its way to seat 2 and
    countersigns the altered bytes (a hostile host holds its own key)."""

    altered = False

    def _relay(self, msg, exclude):
        out = super()._relay(msg, exclude)
        if self.altered or msg.get("t") != "env" or exclude != 1 or msg["e"][16] != 1:
            return out
        self.altered = True
        raw = bytearray(msg["e"])
        raw[40] ^= 1
        i = out[-1].msg["i"] if out else 0
        sig = self.signers[0]._key.sign(fair.Relayed.signed_bytes(self.gid, bytes(raw), i)).signature
        from net.match import Send
        return [o if o.to != 2 else Send(2, fair.Relayed(self.gid, bytes(raw), i, sig).message()) for o in out]


def test_an_altered_relay_over_loopback_is_named_by_both_joiners_never_the_receiver():
    """3 seats on 127.0.0.1, the host alters a relay to seat 2 under its own countersignature:
    seat 2 names the host with the attestation; seat 1, the sender, checks that evidence in seat
    2's relayed verdict and names the host too (before, it named the honest receiver)."""
    honest = _part({})
    made = _table(_part({0: AlteringHost}), ("host", "person", "person"), {1: honest, 2: honest})
    try:
        verdicts = _play_all(made)
        for i in (1, 2):
            v = verdicts[i]
            assert not isinstance(v, Exception), verdicts
            assert (v.kind, v.seat) == ("illegal", 0), (i, v)
    finally:
        for s in made:
            s.close(1.0)


def test_an_early_audit_over_loopback_opens_nothing_and_the_match_plays_on():
    """Seat 1 sends its audit mid-round: nobody answers with keys; the match is played to its end
    and every honest record is the same."""
    honest = _part({})
    made = _table(honest, ("host", "person", "person"), {1: _part({1: EarlyAuditor}), 2: honest})
    try:
        verdicts = _play_all(made)
        for i in (0, 2):
            v = verdicts[i]
            assert not isinstance(v, Exception), verdicts
            assert v.kind == "finished", (i, v)
    finally:
        for s in made:
            s.close(1.0)
