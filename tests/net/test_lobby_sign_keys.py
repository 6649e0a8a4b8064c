"""The hello's slot for signing keys (docs/protocol.md, "The LAN layer"): a game whose
messages are signed sends each seat's signing public key in its hello (``sk``); the host sends
every seat's in ``start``, so the match code is known before the first match message. A joiner
refuses a start that does not carry its own key (a host replacing it), the host refuses a
signed table's hello without a key and a resume with a fresh key (a re-roll); a game that does
not sign sends an empty slot and nothing else changes."""

from __future__ import annotations

import os

import pytest

from net.coin import seat_proof
from net.framing import decode_payload, encode_frame
from net.lobby import HostLobby, JoinLobby, LDrop, LSend, LStarted, SeatMemo, schemas_for
from game.royals.lan.match import FAIR
from net.signed import match_code, public_key

K0, K1, KC = public_key(b"\x01" * 32), public_key(b"\x02" * 32), public_key(b"\x03" * 32)


def _pair(host_keys=None, join_key=b""):
    host = HostLobby("g", 1, "Ann", ("host", "person", "computer"), token_bytes=os.urandom, sign_keys=host_keys)
    join = JoinLobby("g", 1, "Bo", token_bytes=os.urandom, sign_key=join_key)
    (h,) = host.open(7, 0.0)
    (j,) = join.open(0.0)
    return host, join, h.msg, j.msg


def _msgs(out):
    return [o.msg for o in out if isinstance(o, LSend)]


def test_every_seats_key_travels_in_the_hellos_and_the_start():
    host, join, hh, jh = _pair({0: K0, 2: KC}, K1)
    assert hh["sk"] == K0 and jh["sk"] == K1
    schemas = schemas_for(dict(FAIR.schemas), FAIR.max_bin)
    assert decode_payload(encode_frame(jh, schemas)[4:], schemas)["sk"] == K1     # within the frame's limits
    join.receive(hh, 0.0)
    host.receive(7, jh, 0.0)
    (start,) = _msgs(host.start(0.0))
    assert start["sk"] == [K0, K1, KC]
    out = join.receive(start, 0.0)
    (started,) = [o for o in out if isinstance(o, LStarted)]
    assert started.table.sign_keys == (K0, K1, KC)
    # the code is known before any match message, the same on both sides
    assert match_code(started.table.game_id, started.table.sign_keys) == match_code(
        host._pending_table.game_id, host._pending_table.sign_keys)
    memo = SeatMemo.from_json(join.memo.to_json())
    assert memo.table.sign_keys == (K0, K1, KC)
    for bad in ([K0.hex(), K1.hex()], [K0.hex(), K1.hex(), KC.hex()[:-2]]):     # a seat short, a short key
        with pytest.raises(ValueError):
            SeatMemo.from_json({**join.memo.to_json(), "sk": bad})


def test_a_joiner_refuses_a_start_that_replaced_its_key():
    host, join, hh, jh = _pair({0: K0, 2: KC}, K1)
    join.receive(hh, 0.0)
    host.receive(7, jh, 0.0)
    (start,) = _msgs(host.start(0.0))
    out = join.receive({**start, "sk": [K0, KC, KC]}, 0.0)
    assert any(isinstance(o, LDrop) and o.code == "seat" and "replaced" in o.reason for o in out)
    assert join.memo is None                                   # nothing of that match is kept


def test_a_signed_table_refuses_a_hello_without_a_key():
    host, join, hh, jh = _pair({0: K0, 2: KC}, b"")
    out = host.receive(7, jh, 0.0)
    assert any(isinstance(o, LDrop) and o.code == "version" for o in out)
    assert not host.seats


def test_a_resume_with_a_fresh_signing_key_is_refused():
    host, join, hh, jh = _pair({0: K0, 2: KC}, K1)
    join.receive(hh, 0.0)
    host.receive(7, jh, 0.0)
    (start,) = _msgs(host.start(0.0))
    join.receive(start, 0.0)
    host.receive(7, {"t": "ready", "game": start["game"]}, 0.0)
    assert host.memo is not None
    host.closed(7, 1.0)
    # the joiner comes back: its hello carries the pinned key; a fresh one is refused
    back = JoinLobby("g", 1, "Bo", token_bytes=os.urandom, memo=join.memo, sign_key=public_key(b"\x09" * 32))
    (bh,) = back.open(2.0, 0)
    assert bh.msg["sk"] == K1
    (h2,) = host.open(8, 2.0)
    (auth,) = _msgs(back.receive(h2.msg, 2.0))
    host.receive(8, bh.msg, 2.0)
    out = host.receive(8, auth, 2.0)
    assert any(o.get("t") == "start" for o in _msgs(out))
    (h3,) = host.open(9, 3.0)          # again, with the right resume secret but a fresh signing key
    host.receive(9, {**bh.msg, "sk": public_key(b"\x09" * 32), "nonce": b"\x07" * 16}, 3.0)
    out = host.receive(9, {"t": "auth", "proof": seat_proof(join.memo.keys[0], start["game"], 1, h3.msg["nonce"])},
                       3.0)
    assert any(isinstance(o, LDrop) and o.code == "seat" and "re-roll" in o.reason for o in out)


def test_a_game_that_does_not_sign_sends_an_empty_slot():
    host, join, hh, jh = _pair()
    assert hh["sk"] == b"" == jh["sk"]
    join.receive(hh, 0.0)
    host.receive(7, jh, 0.0)
    (start,) = _msgs(host.start(0.0))
    assert start["sk"] == []
    (started,) = [o for o in join.receive(start, 0.0) if isinstance(o, LStarted)]
    assert started.table.sign_keys == ()
