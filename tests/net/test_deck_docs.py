"""docs/mental-poker.md's test vectors, recomputed from the text's formulas with libsodium and
hashlib alone (an independent peer), and from net.deck / net.signed."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import nacl.bindings as na
from nacl.signing import SigningKey

from net.deck import Pass, Shuffle, card_points, key_commitment
from net.signed import Inbox, Signer, match_code

DOC = Path(__file__).resolve().parents[2] / "docs" / "mental-poker.md"


def vectors() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8").split("## Test vectors", 1)[1]
    out = {}
    for block in re.findall(r"```\n(.*?)```", text, re.S):
        for line in block.splitlines():
            name, _, value = line.partition(" = ")
            out[name.strip()] = value.strip()
    return out


def sc(n: int) -> bytes:
    return n.to_bytes(32, "little")


def test_deck_vectors_from_the_text():
    v = vectors()
    mid, sid = bytes.fromhex(v["match id"]), bytes.fromhex(v["sid"])
    n = 4
    m = [na.crypto_core_ed25519_from_uniform(hashlib.sha256(
        b"rose-king-lan card" + bytes((len(mid),)) + mid + i.to_bytes(2, "big")).digest()) for i in range(n)]
    assert [x.hex() for x in m] == [v[f"M_{i}"] for i in range(n)]
    a = {s: sc(int(v[f"a_{s}"])) for s in (0, 1)}
    perm = {s: [int(x) for x in v[f"perm_{s}"].split()] for s in (0, 1)}
    b = {s: [sc(int(x)) for x in v[f"b_{s}"].split()] for s in (0, 1)}
    mult = na.crypto_scalarmult_ed25519_noclamp
    d1 = [mult(a[0], m[perm[0][j]]) for j in range(n)]
    d2 = [mult(a[1], d1[perm[1][j]]) for j in range(n)]
    rekey = lambda d, s: [mult(na.crypto_core_ed25519_scalar_mul(b[s][j], na.crypto_core_ed25519_scalar_invert(a[s])), d[j])
                          for j in range(n)]  # noqa: E731
    d3 = rekey(d2, 0)
    d4 = rekey(d3, 1)
    for name, d in (("D1", d1), ("D2", d2), ("D3", d3), ("D4", d4)):
        assert [x.hex() for x in d] == [v[f"{name}[{j}]"] for j in range(n)], name
    commit = {s: [hashlib.sha256(b"rose-king-lan key" + bytes((len(sid),)) + sid + bytes((s,)) + j.to_bytes(2, "big")
                                 + b[s][j]).digest() for j in range(n)] for s in (0, 1)}
    for s in (0, 1):
        assert [c.hex() for c in commit[s]] == [v[f"C_{s}[{j}]"] for j in range(n)]
    cards = []
    for j in range(n):
        total = na.crypto_core_ed25519_scalar_mul(b[0][j], b[1][j])
        cards.append(m.index(mult(na.crypto_core_ed25519_scalar_invert(total), d4[j])))
    assert cards == [int(x) for x in v["cards at F"].split()]
    # the same from net.deck
    assert card_points(mid, n) == m
    assert all(key_commitment(sid, s, j, b[s][j]) == commit[s][j] for s in (0, 1) for j in range(n))
    sh = Shuffle(sid, m, range(n), [0, 1], [0, 1])
    for t, (d, s) in enumerate(((d1, 0), (d2, 1), (d3, 0), (d4, 1))):
        sh.accept(Pass(sid, t, s, tuple(d), tuple(commit[s]) if t >= 2 else ()))
    assert [sh.origins[sh.peel(j, {0: b[0][j], 1: b[1][j]})] for j in range(n)] == cards


def test_signed_vectors_from_the_text():
    v = vectors()
    mid = bytes.fromhex(v["match id"])
    keys = [bytes(SigningKey(bytes([2]) * 32).verify_key), bytes(SigningKey(bytes([1]) * 32).verify_key)]
    assert [k.hex() for k in keys] == [v["public key 0"], v["public key 1"]]
    body = b"hello"
    header = mid + bytes((1,)) + (0).to_bytes(4, "big") + len(body).to_bytes(4, "big")
    sig = SigningKey(bytes([1]) * 32).sign(b"rose-king-lan signed\x00" + header + body).signature
    wire = header + body + sig
    assert wire.hex() == v["envelope"]
    head1 = hashlib.sha256(bytes(32) + hashlib.sha256(wire).digest()).digest()
    t = hashlib.sha256(b"rose-king-lan transcript\x00" + mid + (1).to_bytes(2, "big")
                       + (0).to_bytes(4, "big") + bytes(32) + (1).to_bytes(4, "big") + head1).digest()
    assert t.hex() == v["transcript of round 1 over counts 0 1"]
    code = base64.b32encode(hashlib.sha256(b"rose-king-lan code\x00" + mid + b"".join(keys)).digest()[:5]).decode()
    assert f"{code[:4]}-{code[4:]}" == v["match code"]
    # the same from net.signed
    env = Signer(mid, 1, bytes([1]) * 32).sign(body)
    assert env.to_bytes() == wire
    inbox = Inbox(mid, keys)
    inbox.accept(env)
    assert inbox.transcript(1) == t and match_code(mid, keys) == v["match code"]
    # a verdict body (docs/protocol.md, "Verdicts and their evidence") carrying that envelope
    vb = bytes((0x29, 0, 2, 1)) + (1).to_bytes(2, "big") + len(wire).to_bytes(4, "big") + wire
    h0 = mid + bytes((0,)) + (0).to_bytes(4, "big") + len(vb).to_bytes(4, "big")
    sig0 = SigningKey(bytes([2]) * 32).sign(b"rose-king-lan signed\x00" + h0 + vb).signature
    assert (h0 + vb + sig0).hex() == v["verdict of seat 0"]
    from game.royals.lan import messages as fm
    assert fm.verdict(0, "forfeit", 1, [wire]) == vb and Signer(mid, 0, bytes([2]) * 32).sign(vb).to_bytes() == h0 + vb + sig0
    assert fm.decode(vb, 0).text == "forfeit" and fm.decode(vb, 0).named == 1
