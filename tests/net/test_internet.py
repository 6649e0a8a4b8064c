"""Over the internet (net/internet.py, docs/protocol.md "Over the internet"): the real
magic-wormhole path, relay included, with the rendezvous server and the transit relay from PyPI
started on 127.0.0.1 (net/internet_servers.py in a subprocess). Nothing contacts another
address: ROSE_KING_LAN_LOOPBACK=1 (tests/conftest.py) makes the library listen on 127.0.0.1
only and makes net.internet.Servers refuse any server off this machine. Every wait is bounded
and driven by events or printed lines."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("wormhole_mailbox_server")

from net import internet  # noqa: E402
from net.connections import read_hello  # noqa: E402
from net.internet import CodeDialer, InternetError, Invites, Servers  # noqa: E402
from net.session import Dropped, Ended, Session  # noqa: E402

from .nim_game import NIM  # noqa: E402
from .test_cli import Proc  # noqa: E402
from .test_lan_layer import play_out, wait_for  # noqa: E402

LIMIT = 60.0


@pytest.fixture(scope="module")
def servers():
    """``(mailbox, relay)`` of a rendezvous server and a transit relay on 127.0.0.1. The relay sets
    ``TCP_NODELAY`` (``--nodelay``): a relayed match then takes no Nagle delay on every small
    frame, so a whole one fits the suite's time; upstream's relay as it is, with those delays,
    is measured by ``bench/net.py --internet-moves``."""
    p = subprocess.Popen([sys.executable, "-m", "net.internet_servers", "--nodelay"], stdout=subprocess.PIPE, text=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    try:
        line = p.stdout.readline().split()  # one line once both listen (or EOF if it failed)
        assert line[:1] == ["mailbox"] and line[2:3] == ["relay"], line
        yield line[1], line[3]
    finally:
        p.kill()
        p.wait(10)


@pytest.fixture
def env(servers, monkeypatch):
    monkeypatch.setenv("ROSE_KING_MAILBOX", servers[0])
    monkeypatch.setenv("ROSE_KING_RELAY", servers[1])
    return servers


def _code(inv: Invites, slot: int, timeout: float = 10.0) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if inv.code(slot) is not None:
            return inv.code(slot)  # type: ignore[return-value]
        inv.wait(0.1)
    raise AssertionError("no invitation code")


def _pair(servers, direct: bool, **join_kw):
    sv = Servers.resolve(*servers, direct=direct)
    host = Session(NIM, "host", "Ann", address="127.0.0.1", port=0)
    inv = Invites(host.adopt, sv)
    d = CodeDialer(_code(inv, inv.invite()), sv)
    sock = d.first(LIMIT)
    game, data = read_hello(sock, "the host")
    assert game == NIM.key
    join = Session(NIM, "join", "Bo", connected=(sock, data), dial=d.dial, reconnect_delay=0.05, **join_kw)
    return host, join, inv, d


# --------------------------------------------------------------------------- units
def test_a_code_is_told_from_an_address_by_its_shape():
    assert internet.is_code("7-guitarist-revenge") and internet.is_code(" 12-Foo-bar ")
    assert not internet.is_code("192.168.1.5") and not internet.is_code("host:47123") and not internet.is_code("7-x")
    assert internet.check_code("7 Guitarist revenge") == "7-guitarist-revenge"
    with pytest.raises(InternetError) as e:
        internet.check_code("7-guitarist")
    assert e.value.code == "shape" and "number and two words" in str(e.value)


def test_servers_come_from_the_option_then_the_environment_and_never_leave_loopback_in_tests(monkeypatch):
    monkeypatch.setenv("ROSE_KING_MAILBOX", "ws://127.0.0.1:1/v1")
    monkeypatch.setenv("ROSE_KING_RELAY", "tcp:127.0.0.1:2")
    assert Servers.resolve() == Servers("ws://127.0.0.1:1/v1", "tcp:127.0.0.1:2")
    assert Servers.resolve("ws://localhost:3/v1", direct=False).mailbox == "ws://localhost:3/v1"
    monkeypatch.delenv("ROSE_KING_MAILBOX")
    with pytest.raises(ValueError, match="must be on this machine"):  # the public default, refused here
        Servers.resolve()
    with pytest.raises(ValueError, match="tcp:HOST:PORT"):
        Servers.resolve("ws://127.0.0.1:1/v1", "127.0.0.1:2")


# --------------------------------------------------------------------------- in process (the tests' Nim)
@pytest.mark.parametrize("direct", [True, False], ids=["direct", "relayed"])
def test_a_match_over_the_transport_direct_and_through_the_relay(servers, direct):
    host, join, inv, d = _pair(servers, direct)
    try:
        a, b = play_out(host, join, LIMIT)
        assert a.verdict == b.verdict and a.verdict.kind == "finished"
        assert d.route == inv.route(0) == ("direct" if direct else "relayed")
        end = time.monotonic() + 10  # Dilation's ping, every 2 s from the connection: the round trip
        while (d.rtt is None or inv.rtt(0) is None) and time.monotonic() < end:
            d.wait(0.1)
        assert d.rtt is not None and inv.rtt(0) is not None, "no round trip measured"
        assert 0 < d.rtt < 0.5 and 0 < inv.rtt(0) < 0.5, (d.rtt, inv.rtt(0))  # (loopback)
    finally:
        for x in (host, join):
            x.close(1.0)
        inv.close()
        d.close()


def test_a_dropped_connection_comes_back_over_the_same_dilation_to_the_same_seat(servers):
    host, join, inv, d = _pair(servers, True)
    try:
        # the deal's coin settled: the match is bound (a drop before that calls it off)
        wait_for(join, lambda e: getattr(e, "code", None) == "dealt", "the deal")
        peer = next(iter(join.conns.peers.values()))
        peer.sock.shutdown(socket.SHUT_RDWR)  # the session's end of the bridge breaks
        wait_for(join, lambda e: isinstance(e, Dropped), "the drop")
        wait_for(join, lambda e: getattr(e, "resumed", False), "the resume")
        a, b = play_out(host, join, LIMIT)
        assert a.verdict == b.verdict and a.verdict.kind == "finished"
    finally:
        for x in (host, join):
            x.close(1.0)
        inv.close()
        d.close()


def test_a_host_that_vanishes_is_judged_left_after_the_grace(servers):
    host, join, inv, d = _pair(servers, True, host_grace=1.0)
    try:
        # the deal's coin settled: the match is bound (a drop before that calls it off)
        wait_for(join, lambda e: getattr(e, "code", None) == "dealt", "the deal")
        inv.close()  # every wormhole of the host goes (no code to meet at again) ...
        for p in list(host.conns.peers.values()):  # ... and its end of every bridge: no goodbye
            p.sock.shutdown(socket.SHUT_RDWR)
        e = wait_for(join, lambda e: isinstance(e, Ended), "the verdict", timeout=30.0)
        assert e.verdict.kind == "left" and e.verdict.seat == 0 and "gone" in e.verdict.detail
    finally:
        for x in (host, join):
            x.close(1.0)
        d.close()


# --------------------------------------------------------------------------- errors
def test_a_mistyped_code_is_a_wrong_code_and_the_host_gets_a_fresh_one(env):
    sv = Servers.resolve()
    inv = Invites(lambda s: s.close(), sv)
    try:
        code = _code(inv, inv.invite())
        n = code.split("-")[0]
        d = CodeDialer(f"{n}-wrong-words", sv)
        with pytest.raises(InternetError) as e:
            d.first(20.0)
        assert e.value.code == "wrong" and "typo" in str(e.value)
        end = time.monotonic() + 10
        while inv.code(0) == code and time.monotonic() < end:
            inv.wait(0.1)
        assert inv.code(0) not in (None, code)  # a burnt code is replaced
    finally:
        inv.close()


def test_a_used_code_and_an_unreachable_rendezvous_are_plain_sentences(env, monkeypatch):
    monkeypatch.setitem(internet.STAGE_TIMEOUTS, "peer", 1.5)
    monkeypatch.setitem(internet.STAGE_TIMEOUTS, "rendezvous", 1.5)
    host, join, inv, d = _pair(env, True)
    try:
        late = CodeDialer(inv.code(0), Servers.resolve())  # the code was used by Bo already
        with pytest.raises(InternetError) as e:
            late.first(10.0)
        assert e.value.code in ("nobody", "used") and "used" in str(e.value)
    finally:
        for x in (host, join):
            x.close(1.0)
        inv.close()
        d.close()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, never listening: nothing answers there
        nowhere = CodeDialer("7-guitarist-revenge", Servers.resolve(f"ws://127.0.0.1:{port}/v1"))
        with pytest.raises(InternetError) as e:
            nowhere.first(10.0)
    assert e.value.code == "rendezvous" and "cannot reach the rendezvous server" in str(e.value)


# --------------------------------------------------------------------------- the commands
def _host(tmp_path, *extra: str) -> Proc:
    return Proc("host", "--internet", "--port", "0", "--loopback", "--name", "Ann", "--headless",
                "--record", str(tmp_path / "h.json"), "--timeout", str(LIMIT), *extra)


def _join(tmp_path, code: str, who: str, *extra: str) -> Proc:
    return Proc("join", code, "--name", who, "--headless", "--record", str(tmp_path / f"{who}.json"),
                "--timeout", str(LIMIT), *extra)


def _codes(host: Proc, n: int) -> list[str]:
    host.expect("give each code below to one friend")
    return [host.expect(f"invitation {i + 1} of {n}: ").rsplit(" ", 1)[1] for i in range(n)]


def test_rose_king_by_code_from_the_command_line_with_identical_records(env, tmp_path):
    host = _host(tmp_path, "--ai", "random")
    procs = [host]
    try:
        (code,) = _codes(host, 1)
        bo = _join(tmp_path, code, "Bo", "--ai", "random")
        procs.append(bo)
        assert bo.expect("connected by code (").endswith("(direct)")
        assert bo.finish() == 0 and host.finish() == 0, host.lines + bo.lines
        assert (tmp_path / "h.json").read_bytes() == (tmp_path / "Bo.json").read_bytes()
        assert json.loads((tmp_path / "h.json").read_text())["result"]
    finally:
        for p in procs:
            p.kill()


def test_royals_three_seats_two_by_code_through_the_relay(env, tmp_path):
    host = _host(tmp_path, "--game", "royals-riots", "--seats", "3", "--ai", "random", "--relay-only")
    procs = [host]
    try:
        codes = _codes(host, 2)
        for who, code in zip(("Bo", "Cy"), codes):
            procs.append(_join(tmp_path, code, who, "--ai", "random", "--relay-only"))
        for p in procs[1:]:
            assert p.expect("connected by code (").endswith("(relayed)")
        for p in procs:
            assert p.finish() == 0, p.lines
        assert (tmp_path / "h.json").read_text() == (tmp_path / "Bo.json").read_text() == \
            (tmp_path / "Cy.json").read_text()
    finally:
        for p in procs:
            p.kill()


def test_a_joiner_killed_mid_match_comes_back_at_the_derived_code_to_its_seat(env, tmp_path):
    slow = ("--move-delay", "0.02", "--verbose")
    host = _host(tmp_path, "--ai", "greedy", *slow)
    procs = [host]
    try:
        (code,) = _codes(host, 1)
        bo = _join(tmp_path, code, "Bo", "--ai", "random", *slow)
        procs.append(bo)
        bo.expect("'ply': 12,")
        bo.kill()
        assert (tmp_path / "Bo.json.internet").exists()
        again = _join(tmp_path, code, "Bo", "--ai", "random", *slow)  # the same command again
        procs.append(again)
        again.expect("meeting the host again at the code both programs derived")
        assert again.expect("resumed:").endswith("you are seat 2 (Bo)")
        assert again.finish() == 0 and host.finish() == 0, host.lines + again.lines
        assert (tmp_path / "h.json").read_text() == (tmp_path / "Bo.json").read_text()
    finally:
        for p in procs:
            p.kill()


def test_command_line_errors_are_plain_sentences(env, tmp_path):
    typo = Proc("join", "7-guitarist", "--headless", "--ai", "random")
    assert typo.finish() == 2 and any("is not an invitation code" in x for x in typo.lines), typo.lines
    host = _host(tmp_path, "--ai", "random")
    try:
        (code,) = _codes(host, 1)
        wrong = _join(tmp_path, code.split("-")[0] + "-wrong-words", "Bo", "--ai", "random")
        assert wrong.finish() == 1 and any("the code is wrong" in x for x in wrong.lines), wrong.lines
    finally:
        host.kill()
