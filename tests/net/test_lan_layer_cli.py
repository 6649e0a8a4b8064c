"""`rose-king host/join` play a game defined in the tests only (tests/net/nim_game.py) over the
one LAN layer, once the game is in the registry: no line of the commands names it (
"Done when"). Both peers run in threads of this process, each bounded in time."""

from __future__ import annotations

import json
import socket
import threading

import pytest

import game.registry
from game.cli import main

from .nim_game import GAME

LIMIT = 30.0


@pytest.fixture
def nim_registered(monkeypatch):
    monkeypatch.setattr(game.registry, "GAMES", game.registry.GAMES + (GAME,))
    monkeypatch.setenv("ROSE_KING_LAN_LOOPBACK", "1")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_host_and_join_play_the_test_game_with_the_unchanged_commands(nim_registered, tmp_path, capsys):
    port = free_port()
    results: dict = {}

    def run(key, argv):
        results[key] = main(argv)
    host = threading.Thread(target=run, args=("host", ["host", "--game", "nim-test", "--headless", "--ai", "random",
                                                       "--port", str(port), "--loopback", "--name", "Ann",
                                                       "--record", str(tmp_path / "h.json"),
                                                       "--timeout", str(LIMIT)]))
    host.start()
    join = threading.Thread(target=run, args=("join", ["join", f"127.0.0.1:{port}", "--headless", "--ai", "perfect",
                                                       "--name", "Bo", "--record", str(tmp_path / "j.json"),
                                                       "--timeout", str(LIMIT)]))
    join.start()
    host.join(LIMIT + 5)
    join.join(LIMIT + 5)
    captured = capsys.readouterr()
    out = captured.out
    assert results == {"host": 0, "join": 0}, out + captured.err
    h, j = (json.loads((tmp_path / f).read_text()) for f in ("h.json", "j.json"))
    assert h == j and h["format"] == "nim-test" and h["result"]["kind"] == "finished"
    assert sum(h["takes"]) == h["pile"] and h["names"] == ["Ann", "Bo"]
    assert "match over: finished" in out


def test_a_joiner_of_the_test_game_learns_the_game_from_the_hosts_hello(nim_registered):
    from net.session import probe_host
    from net.session import Session
    from .nim_game import NIM
    host = Session(NIM, "host", "Ann", port=0)
    try:
        key, sock, data = probe_host("127.0.0.1", host.port)
        sock.close()
        assert key == "nim-test" and data
    finally:
        host.close(1.0)


@pytest.mark.parametrize("pv", [2, 3])
def test_a_joiner_reading_an_older_hosts_hello_says_the_host_needs_a_newer_version(pv):
    """``probe_host`` against a host of LAN version 2 or 3 (docs/protocol.md, "An older program"):
    a clear ValueError naming the side to update, before the joiner sends anything."""
    import msgpack

    from net.framing import HEADER
    from net.session import JoinError, probe_host
    server = socket.create_server(("127.0.0.1", 0))
    got: list[bytes] = []

    def old_host() -> None:
        conn, _ = server.accept()
        with conn:
            hello = msgpack.packb({"t": "hello", "proto": "rose-king-lan", "pv": pv, "role": "host", "name": "Old"},
                                  use_bin_type=True)
            conn.sendall(HEADER.pack(len(hello)) + hello)
            conn.settimeout(LIMIT)
            got.append(conn.recv(4096))  # b"": the joiner closed without a word

    t = threading.Thread(target=old_host, daemon=True)
    t.start()
    try:
        with pytest.raises(JoinError, match="the host needs a newer version") as e:
            probe_host("127.0.0.1", server.getsockname()[1], timeout=LIMIT)
        assert e.value.code == "version"
        t.join(LIMIT)
        assert got == [b""]
    finally:
        server.close()
