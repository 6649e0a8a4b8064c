"""The UDP beacon and its listener, on loopback only."""

import socket

import msgpack
import pytest

from net import discovery
from net.discovery import (MAX_FOUND, Beacon, BeaconListener, beacon_datagram, broadcast_targets, listen_address,
                           loopback_only, parse_beacon)


@pytest.fixture
def listener():
    lst = BeaconListener(bind="127.0.0.1", port=0)
    yield lst
    lst.stop()


def send(port: int, data: bytes) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(data, ("127.0.0.1", port))


def test_the_test_suite_runs_loopback_only():
    assert loopback_only()
    assert broadcast_targets() == ["127.0.0.1"] and listen_address() == "127.0.0.1"
    with pytest.raises(ValueError, match="loopback only"):
        Beacon("Alice", 47123, address="192.0.2.255", sock=FakeSocket())  # never sent, not even built


class FakeSocket:
    """Records what a beacon would send; sends nothing."""

    def __init__(self):
        self.sent = []

    def setsockopt(self, *a):
        self.opts = a

    def sendto(self, data, dest):
        self.sent.append(dest)

    def close(self):
        pass


def test_the_product_configuration_targets_the_lan_broadcast_addresses(monkeypatch):
    """Without loopback-only, a beacon goes to each interface's broadcast address and to
    255.255.255.255, and the listener binds all interfaces. Inspected with a fake socket:
    nothing leaves this machine."""
    fake_ifaces = lambda: ["192.168.1.255", "10.0.0.255", "192.168.1.255", "127.255.255.255"]  # noqa: E731
    assert broadcast_targets(loopback=False, interfaces=fake_ifaces) == [
        "192.168.1.255", "10.0.0.255", "255.255.255.255"]
    assert broadcast_targets(loopback=False, interfaces=lambda: []) == ["255.255.255.255"]
    assert listen_address(loopback=False) == ""
    monkeypatch.delenv("ROSE_KING_LAN_LOOPBACK")
    monkeypatch.setattr(discovery, "interface_broadcasts", fake_ifaces)
    monkeypatch.setattr(discovery.broadcast_targets, "__defaults__", (None, fake_ifaces))
    sock = FakeSocket()
    beacon = Beacon("Alice", 47123, sock=sock, interval=60)
    beacon.stop()
    assert beacon.targets == ["192.168.1.255", "10.0.0.255", "255.255.255.255"]
    assert sock.sent[:3] == [(t, 47124) for t in beacon.targets]
    assert sock.opts[1:] == (discovery.socket.SO_BROADCAST, 1)


def test_interface_broadcasts_reads_without_sending():
    found = discovery.interface_broadcasts()  # ioctls only
    assert all(isinstance(a, str) and not a.startswith("127.") for a in found)


def test_the_discovery_list_is_bounded(listener):
    for i in range(MAX_FOUND + 20):
        send(listener.port, beacon_datagram(f"H{i}", 40000 + i, bytes([i % 256]) * 16))
    for _ in range(200):
        if len(listener.games()) + listener.dropped >= MAX_FOUND + 20:
            break
        listener.wait_heard(0.5)
    assert len(listener.games()) == MAX_FOUND and listener.dropped == 20


def test_a_beacon_is_heard_and_listed(listener):
    beacon = Beacon("Alice", 47123, address="127.0.0.1", dest_port=listener.port, interval=0.05)
    try:
        for _ in range(50):
            if listener.games():
                break
            listener.wait_heard(0.5)
        (game,) = listener.games()
    finally:
        beacon.stop()
    assert (game.name, game.address, game.port, game.compatible) == ("Alice", "127.0.0.1", 47123, True)
    assert beacon.sent >= 1


def test_own_and_malformed_beacons_are_ignored(listener):
    own = b"\x01" * 16
    listener.ignore.add(own)
    junk = [b"", b"\xc1", b"GET / HTTP/1.1\r\n", msgpack.packb({"t": "beacon", "name": "x"}),
            msgpack.packb({"t": "ping"}), beacon_datagram("Eve", 1, b"\x02" * 16) + b"\x00", b"\x91" * 600]
    for data in junk:
        send(listener.port, data)
    send(listener.port, beacon_datagram("Me", 47123, own))
    send(listener.port, beacon_datagram("Bob", 47200, b"\x03" * 16))
    for _ in range(100):
        if listener.games():
            break
        listener.wait_heard(0.5)
    assert [g.name for g in listener.games()] == ["Bob"]
    assert listener.malformed == len(junk)


def test_parse_beacon_reads_versions_and_expires():
    data = beacon_datagram("Alice", 47123, b"\x04" * 16, addr="127.0.0.1")
    found = parse_beacon(data, "127.0.0.5", now=10.0)
    assert found.address == "127.0.0.5" and found.port == 47123 and found.last_seen == 10.0
    other = msgpack.packb({"t": "beacon", "proto": "rose-king-lan", "pv": 9, "app": "9.0", "name": "Z",
                           "addr": "", "port": 1, "peer": b"\x05" * 16}, use_bin_type=True)
    assert parse_beacon(other, "127.0.0.6", 0.0).compatible is False
    assert parse_beacon(b"\x81\xa1t\xa6beacon", "127.0.0.7", 0.0) is None


def test_a_beacon_says_which_game_its_table_plays():
    for key in ("rose-king", "royals-riots"):
        found = parse_beacon(beacon_datagram("Alice", 47123, b"\x04" * 16, game=key), "127.0.0.5", 0.0)
        assert found.game == key and found.compatible
    # an older program's beacon (no "g") is listed, its game unknown; a bad "g" is malformed
    old = msgpack.packb({"t": "beacon", "proto": "rose-king-lan", "pv": 2, "app": "0.9", "name": "Old",
                         "addr": "", "port": 5, "peer": b"\x05" * 16}, use_bin_type=True)
    assert parse_beacon(old, "127.0.0.6", 0.0).game == ""
    bad = msgpack.packb({"t": "beacon", "proto": "rose-king-lan", "pv": 2, "app": "0.9", "g": "x" * 33,
                         "name": "Bad", "addr": "", "port": 5, "peer": b"\x05" * 16}, use_bin_type=True)
    assert parse_beacon(bad, "127.0.0.6", 0.0) is None
    with pytest.raises(ValueError):
        beacon_datagram("Alice", 47123, b"\x04" * 16, game="x" * 33)


def test_a_table_says_who_sits_there_and_how_many_seats_are_free(listener):
    """The table datagram beside the beacon: its players, free seats and state reach the list,
    follow a change (a seat taken, the match over), and bad ones change nothing."""
    beacon = Beacon("Alice", 47123, address="127.0.0.1", dest_port=listener.port, interval=0.05, game="royals-riots")

    def heard(cond):
        for _ in range(100):
            games = listener.games()
            if games and cond(games[0]):
                return games[0]
            listener.wait_heard(0.5)
        raise AssertionError(f"not heard: {listener.games()}")
    try:
        assert heard(lambda g: True).free == -1  # no table said yet
        beacon.set_table(["Alice", "Computer (easy)"], 1, "open")
        g = heard(lambda g: g.free == 1)
        assert (g.players, g.state, g.game) == (("Alice", "Computer (easy)"), "open", "royals-riots")
        beacon.set_table(["Alice", "Computer (easy)", "Bo"], 0, "playing")
        assert heard(lambda g: g.state == "playing").players[-1] == "Bo"
        before = listener.malformed
        for bad in (msgpack.packb({"t": "table", "peer": beacon.peer_id, "players": ["x"], "free": 9,
                                   "state": "open"}, use_bin_type=True),
                    msgpack.packb({"t": "table", "peer": beacon.peer_id, "players": ["\u202ex"], "free": 1,
                                   "state": "open"}, use_bin_type=True)):
            send(listener.port, bad)
        heard(lambda g: listener.malformed >= before + 2)
        assert heard(lambda g: True).state == "playing"  # the bad ones changed nothing
    finally:
        beacon.stop()
    for players, free, state in ((["x"] * 9, 0, "open"), (["A"], 9, "open"), (["A"], 0, "gone"), ([""], 1, "open")):
        with pytest.raises(ValueError):
            beacon.set_table(players, free, state)
