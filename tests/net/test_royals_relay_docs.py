"""The host's countersigned relay (docs/protocol.md, "A host's relay is provable"): its vectors
recomputed from the text with hashlib and PyNaCl only, and checked against the machine's
:class:`game.royals.lan.match.Relayed`."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from nacl.signing import SigningKey

from game.royals.lan.match import RELAY_LABEL, RELAY_TAG, Relayed

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
V = dict(re.findall(r"^(relay [a-z ]+?) {2,}([0-9a-f]+)$", DOC, re.M))


def test_the_relay_vectors_follow_from_the_text():
    gid, seed, i, e = bytes(range(16)), bytes([7]) * 32, 5, b"royals"
    key = SigningKey(seed)
    assert V["relay host key"] == bytes(key.verify_key).hex()
    signed = b"rose-king-lan relay\x00" + gid + i.to_bytes(4, "big") + hashlib.sha256(e).digest()
    assert V["relay signed bytes"] == signed.hex()
    sig = key.sign(signed).signature
    assert V["relay signature"] == sig.hex()
    assert V["relay attestation"] == (b"rk-relay" + i.to_bytes(4, "big") + sig + e).hex()


def test_the_machine_makes_and_checks_the_documented_bytes():
    gid, key = bytes(range(16)), SigningKey(bytes([7]) * 32)
    r = Relayed(gid, b"royals", 5, bytes.fromhex(V["relay signature"]))
    assert RELAY_LABEL == b"rose-king-lan relay\x00" and RELAY_TAG == b"rk-relay"
    assert Relayed.signed_bytes(gid, b"royals", 5).hex() == V["relay signed bytes"]
    assert r.verifies(bytes(key.verify_key)) and r.to_bytes().hex() == V["relay attestation"]
    assert Relayed.from_bytes(gid, r.to_bytes()) == r
    assert r.message() == {"t": "rel", "e": b"royals", "i": 5, "s": r.signature}
    # another index, other bytes or another match: the countersignature no longer holds
    for other in (Relayed(gid, b"royals", 6, r.signature), Relayed(gid, b"royalz", 5, r.signature),
                  Relayed(bytes(16), b"royals", 5, r.signature)):
        assert not other.verifies(bytes(key.verify_key))
