"""The UDP beacon and its listener, on loopback only."""

import socket

import msgpack
import pytest

from net.discovery import (DEFAULT_BEACON_ADDRESS, Beacon, BeaconListener, beacon_datagram, parse_beacon)


@pytest.fixture
def listener():
    lst = BeaconListener(bind="127.0.0.1", port=0)
    yield lst
    lst.stop()


def send(port: int, data: bytes) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(data, ("127.0.0.1", port))


def test_the_default_destination_is_loopback():
    assert DEFAULT_BEACON_ADDRESS.startswith("127.")


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
