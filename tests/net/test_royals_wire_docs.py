"""docs/royals-wire.md: every Royals & Riots body's test vector recomputed from the text's layouts
with hashlib, PyNaCl and struct alone (an independent peer), then checked against the project's
own encoders (game.royals.lan.messages, net.deck, net.signed, net.coin) and decoders, so the
document and the code cannot drift; and the document's statements about when bodies are sent
(plies, coin purposes, round-end counts, reveals of a keyer that did not shuffle) checked on
in-memory matches."""

from __future__ import annotations

import hashlib
import re
import struct
from pathlib import Path

import nacl.bindings as na
import pytest
from nacl.signing import SigningKey

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "royals-wire.md").read_text(encoding="utf-8")
MP = (ROOT / "docs" / "mental-poker.md").read_text(encoding="utf-8")


def _vectors(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for block in re.findall(r"```\n(.*?)```", text.split("## Test vectors", 1)[1], re.S):
        for line in block.splitlines():
            name, sep, value = line.partition(" = ")
            if sep:
                assert name.strip() not in out, f"vector {name!r} twice"
                out[name.strip()] = value.strip()
    return out


V = _vectors(DOC)
MPV = _vectors(MP)
GID = bytes.fromhex(V["game id"])
SEED = {0: b"\x02" * 32, 1: b"\x01" * 32}          # signing seeds of seats 0 and 1 (the text's inputs)
SECRET = {0: b"\x01" * 32, 1: b"\x02" * 32, 2: b"\x03" * 32}   # coin secrets


# --------------------------------------------------------------------------- the text's layouts
def be(n: int, width: int) -> bytes:
    return n.to_bytes(width, "big")


def sc(n: int) -> bytes:
    """A scalar given as a decimal integer: 32 bytes little-endian."""
    return n.to_bytes(32, "little")


def sid(r: int, no: int) -> bytes:
    return GID + struct.pack(">HH", r, no)


def key_share(s: bytes, seat: int, pos: int, key: int) -> bytes:
    return bytes((0x02, len(s))) + s + bytes((seat,)) + struct.pack(">H", pos) + sc(key)


def deck_reveal(s: bytes, seat: int, scalar: int | None, perm: list[int], keys: list[int]) -> bytes:
    head = bytes((0x03, len(s))) + s + bytes((seat,))
    has = b"\x00" if scalar is None else b"\x01" + sc(scalar)
    return (head + has + struct.pack(">H", len(perm)) + b"".join(struct.pack(">H", p) for p in perm)
            + struct.pack(">H", len(keys)) + b"".join(sc(k) for k in keys))


def items(xs: list[bytes], width: int) -> bytes:
    return b"".join(be(len(x), width) + x for x in xs)


def deck_pass(s: bytes, seat: int, step: int, elements, commitments=()) -> bytes:
    return (bytes((0x01, len(s))) + s + bytes((seat, step)) + struct.pack(">H", len(elements)) + b"".join(elements)
            + struct.pack(">H", len(commitments)) + b"".join(commitments))


def envelope(seat: int, seq: int, body: bytes) -> bytes:
    header = GID + bytes((seat,)) + struct.pack(">II", seq, len(body))
    return header + body + SigningKey(SEED[seat]).sign(b"rose-king-lan signed\x00" + header + body).signature


def coin_commitment(purpose: int, seat: int, secret: bytes) -> bytes:
    return hashlib.sha256(b"rose-king-lan commit" + GID + struct.pack(">i", purpose) + bytes((seat,)) + secret).digest()


def coin_digest(purpose: int, secrets_in_seat_order) -> bytes:
    return hashlib.sha256(b"rose-king-lan coin" + GID + struct.pack(">i", purpose) + b"".join(secrets_in_seat_order)).digest()


class Pcg32:
    """docs/protocol.md, "The joint coin": PCG32 XSH-RR and its randbelow."""

    M64 = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = 0
        self.next()
        self.state = (self.state + seed) & self.M64
        self.next()

    def next(self) -> int:
        old = self.state
        self.state = (old * 6364136223846793005 + 1442695040888963407) & self.M64
        x = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((x >> rot) | (x << ((-rot) & 31))) & 0xFFFFFFFF

    def randbelow(self, n: int) -> int:
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def check(name: str, value: bytes) -> bytes:
    assert value.hex() == V[name], name
    return value


# --------------------------------------------------------------------------- vectors
def test_every_body_kind_is_in_the_table():
    from game.royals.lan import messages as fm
    for kind, name in fm.KIND_NAMES.items():
        assert re.search(rf"^\| `{kind:02x}` \| `{name}` \|", DOC, re.M), name
        assert f"### `{name}` ({kind:02x})" in DOC or name in ("commit", "reveal"), name
    assert "### `commit` (24) and `reveal` (25)" in DOC
    assert V["sid(1, 0)"] == sid(1, 0).hex() and V["sid(1, 2)"] == sid(1, 2).hex()


def test_pass_vectors():
    from net.deck import Pass, decode
    n = 4
    mid = bytes.fromhex(MPV["match id"])
    assert mid == GID and bytes.fromhex(MPV["sid"]) == sid(1, 0)
    m = [na.crypto_core_ed25519_from_uniform(hashlib.sha256(
        b"rose-king-lan card" + bytes((len(GID),)) + GID + struct.pack(">H", i)).digest()) for i in range(n)]
    a0, a1 = sc(int(MPV["a_0"])), sc(int(MPV["a_1"]))
    p0, p1 = ([int(x) for x in MPV[f"perm_{s}"].split()] for s in (0, 1))
    b0 = [sc(int(x)) for x in MPV["b_0"].split()]
    mult = na.crypto_scalarmult_ed25519_noclamp
    d1 = [mult(a0, m[p0[j]]) for j in range(n)]
    d2 = [mult(a1, d1[p1[j]]) for j in range(n)]
    inv = na.crypto_core_ed25519_scalar_invert(a0)
    d3 = [mult(na.crypto_core_ed25519_scalar_mul(b0[j], inv), d2[j]) for j in range(n)]
    c0 = [hashlib.sha256(b"rose-king-lan key" + bytes((len(sid(1, 0)),)) + sid(1, 0) + b"\x00" + struct.pack(">H", j)
                         + b0[j]).digest() for j in range(n)]
    assert [x.hex() for x in d1] == [MPV[f"D1[{j}]"] for j in range(n)]
    shuffle = check("pass (shuffle)", deck_pass(sid(1, 0), 0, 0, d1))
    rekey = check("pass (re-key)", deck_pass(sid(1, 0), 0, 2, d3, c0))
    # the project's encoder and decoder
    assert Pass(sid(1, 0), 0, 0, tuple(d1)).to_bytes() == shuffle
    assert Pass(sid(1, 0), 2, 0, tuple(d3), tuple(c0)).to_bytes() == rekey
    assert decode(rekey, 0) == Pass(sid(1, 0), 2, 0, tuple(d3), tuple(c0))


def test_shares_play_open_vectors():
    from net.deck import KeyShare
    from game.royals.lan import messages as fm
    deal = [key_share(sid(1, 0), 1, 0, 21), key_share(sid(1, 0), 1, 1, 22)]
    assert all(len(x) == 57 for x in deal)
    check("shares (deal)", b"\x20\x01" + be(2, 2) + items(deal, 1))
    draw = [key_share(sid(1, 2), 0, 0, 31)]
    check("shares (draw)", b"\x20\x00" + be(1, 2) + items(draw, 1))
    dealt = [key_share(sid(1, 0), 0, 1, 12)]
    check("play (dealt)", b"\x22\x00" + be(8, 2) + bytes((0, 1, 2, 1)) + items(dealt, 1))
    drawn = [key_share(sid(1, 2), 1, 0, 41), key_share(sid(1, 0), 1, 2, 23)]
    check("play (drawn)", b"\x22\x01" + be(9, 2) + bytes((2, 0, 3, 2)) + items(drawn, 1))
    check("play (open)", b"\x22\x01" + be(31, 2) + bytes((2, 0, 3, 0)))
    taken = [key_share(sid(1, 0), 1, 3, 24)]
    check("open", b"\x26\x01" + be(25, 2) + bytes((1,)) + items(taken, 1))
    # the project's encoders and decoder
    ks = lambda s, seat, pos, k: KeyShare(s, seat, pos, sc(k)).to_bytes()  # noqa: E731
    assert fm.shares(1, [ks(sid(1, 0), 1, 0, 21), ks(sid(1, 0), 1, 1, 22)]).hex() == V["shares (deal)"]
    assert fm.shares(0, [ks(sid(1, 2), 0, 0, 31)]).hex() == V["shares (draw)"]
    assert fm.play(0, 8, 0, 1, 2, [ks(sid(1, 0), 0, 1, 12)]).hex() == V["play (dealt)"]
    assert fm.play(1, 9, 2, 0, 3, [ks(sid(1, 2), 1, 0, 41), ks(sid(1, 0), 1, 2, 23)]).hex() == V["play (drawn)"]
    assert fm.play(1, 31, 2, 0, 3, []).hex() == V["play (open)"]
    assert fm.open_(1, 25, [ks(sid(1, 0), 1, 3, 24)]).hex() == V["open"]
    b = fm.decode(bytes.fromhex(V["play (drawn)"]), 1)
    assert (b.kind, b.seat, b.ply, b.no, b.pos, b.card, b.items) == (fm.PLAY, 1, 9, 2, 0, 3, tuple(drawn))
    b = fm.decode(bytes.fromhex(V["open"]), 1)
    assert (b.kind, b.ply, b.items) == (fm.OPEN, 25, tuple(taken))


def test_the_play_vectors_open_their_cards():
    """With the 4-card example's keys, the played positions open to the documented cards."""
    n = 4
    m = [na.crypto_core_ed25519_from_uniform(hashlib.sha256(
        b"rose-king-lan card" + bytes((len(GID),)) + GID + struct.pack(">H", i)).digest()) for i in range(n)]
    final = [bytes.fromhex(MPV[f"D4[{j}]"]) for j in range(n)]
    for pos, k0, k1, card in ((1, 12, 22, 2), (2, 13, 23, 3)):
        total = na.crypto_core_ed25519_scalar_mul(sc(k0), sc(k1))
        assert m.index(na.crypto_scalarmult_ed25519_noclamp(na.crypto_core_ed25519_scalar_invert(total), final[pos])) == card


def test_action_and_keep_vectors():
    from game.royals.lan import messages as fm
    text = "2 steal 1".encode()
    check("action", b"\x21\x01" + be(24, 2) + bytes((len(text),)) + text)
    check("keep", b"\x23\x01\x01" + bytes((7,)) + bytes(sorted([27, 14, 20, 23, 24, 25, 26])))
    assert fm.action(1, 24, "2 steal 1").hex() == V["action"]
    assert fm.keep(1, 1, [27, 14, 20, 23, 24, 25, 26]).hex() == V["keep"]
    b = fm.decode(bytes.fromhex(V["action"]), 1)
    assert (b.kind, b.ply, b.text) == (fm.ACTION, 24, "2 steal 1")
    assert fm.decode(bytes.fromhex(V["keep"]), 1).items == (14, 20, 23, 24, 25, 26, 27)


def test_commit_reveal_and_coin_vectors():
    from net import coin
    from net.deck.choice import joint_choice
    from game.royals.lan import messages as fm
    for seat in (0, 1):
        c = check(f"commitment of seat {seat}", coin_commitment(-1, seat, SECRET[seat]))
        check(f"commit of seat {seat}", bytes((0x24, seat)) + b"\xff\xff\xff\xff" + c)
        check(f"reveal of seat {seat}", bytes((0x25, seat)) + struct.pack(">i", -1) + SECRET[seat])
        assert coin.commitment(GID, -1, seat, SECRET[seat]) == c
        assert fm.commit(seat, -1, c).hex() == V[f"commit of seat {seat}"]
        assert fm.reveal(seat, -1, SECRET[seat]).hex() == V[f"reveal of seat {seat}"]
        b = fm.decode(bytes.fromhex(V[f"commit of seat {seat}"]), seat)
        assert (b.purpose, b.blob) == (-1, c)
    for name, purpose, seats, k in (("starter", -1, 2, 2), ("theft", 25, 3, 5)):
        secrets_ = [SECRET[s] for s in range(seats)]
        d = check(f"{name} coin digest", coin_digest(purpose, secrets_))
        seed = int.from_bytes(d[:8], "big")
        assert str(seed) == V[f"{name} coin seed"]
        index = Pcg32(seed).randbelow(k)
        assert str(index) == V[f"{name} coin index"]
        assert coin.coin_digest(GID, purpose, secrets_) == d and joint_choice(GID, purpose, secrets_, k) == index
    assert "seat 1 leads round 1 (`start 2`)" in DOC and int(V["starter coin index"]) == 1
    hand = [(0, 14), (0, 20), (0, 23), (2, 0), (2, 1)]
    assert f"the theft takes `{sorted(hand)[int(V['theft coin index'])]}`" in DOC


def test_audit_vectors():
    from net.deck import Reveal, decode
    from game.royals.lan import messages as fm
    deck = check("reveal of the deck", deck_reveal(sid(1, 0), 1, 5, [3, 0, 2, 1], [21, 22, 23, 24]))
    pile = check("reveal of its own pile", deck_reveal(sid(1, 2), 1, None, [], [41, 42]))
    assert pile[23:26] == b"\x00\x00\x00"       # no scalar, an empty permutation
    check("audit", b"\x27\x01\x01\x02" + items([deck, pile], 2))
    r_deck = Reveal(sid(1, 0), 1, sc(5), (3, 0, 2, 1), tuple(sc(k) for k in (21, 22, 23, 24)))
    r_pile = Reveal(sid(1, 2), 1, b"", (), (sc(41), sc(42)))
    assert r_deck.to_bytes() == deck and r_pile.to_bytes() == pile and decode(pile, 1) == r_pile
    assert fm.audit(1, 1, [deck, pile]).hex() == V["audit"]
    b = fm.decode(bytes.fromhex(V["audit"]), 1)
    assert (b.kind, b.round, b.items) == (fm.AUDIT, 1, (deck, pile))


def test_envelope_round_end_log_and_verdict_vectors():
    from game.royals.lan import messages as fm
    from net.signed import Inbox, Signer, parse_round_end, round_end
    e0 = check("envelope 0 of seat 0", envelope(0, 0, bytes.fromhex(V["commit of seat 0"])))
    e1 = check("envelope 0 of seat 1", envelope(1, 0, bytes.fromhex(V["commit of seat 1"])))
    heads = [hashlib.sha256(bytes(32) + hashlib.sha256(e).digest()).digest() for e in (e0, e1)]
    t = check("transcript", hashlib.sha256(b"rose-king-lan transcript\x00" + GID + be(1, 2)
                                           + b"".join(be(1, 4) + h for h in heads)).digest())
    end = check("round end", b"round-end\x00" + be(1, 2) + bytes((2,)) + be(1, 4) + be(1, 4) + t)
    check("log", b"\x28\x01" + be(2, 4) + items([e0, e1], 4))
    check("verdict", b"\x29\x01" + bytes((3, 0)) + be(1, 2) + items([e0], 4))
    check("verdict (none named)", b"\x29\x00" + bytes((3, 0xFF)) + be(0, 2))
    # the project's encoders
    envs = [Signer(GID, s, SEED[s]).sign(bytes.fromhex(V[f"commit of seat {s}"])) for s in (0, 1)]
    assert [e.to_bytes() for e in envs] == [e0, e1]
    inbox = Inbox(GID, [bytes(SigningKey(SEED[s]).verify_key) for s in (0, 1)])
    for e in envs:
        inbox.accept(e)
    assert inbox.transcript(1, [1, 1]) == t and round_end(1, [1, 1], t) == end
    assert parse_round_end(end) == (1, (1, 1), t)
    assert fm.log(1, [e0, e1]).hex() == V["log"]
    assert fm.verdict(1, "illegal", 0, [e0]).hex() == V["verdict"]
    assert fm.verdict(0, "illegal", -1, []).hex() == V["verdict (none named)"]
    b = fm.decode(bytes.fromhex(V["verdict (none named)"]), 0)
    assert (b.text, b.named, b.items) == ("illegal", -1, ())


# --------------------------------------------------------------------------- the stated limits
def test_the_documented_limits_are_the_decoders():
    from net.deck import DeckError
    from net.match import END_KINDS
    from game.royals.lan import match as fair, messages as fm
    share = bytes.fromhex(V["shares (draw)"])[5:]
    assert fm.decode(b"\x20\x00" + be(4096, 2) + items([share] * 4096, 1), 0).kind == fm.SHARES
    refused = [(b"\x20\x00" + be(4097, 2) + items([share] * 4097, 1), "too many items"),
               (b"\x22\x00" + be(8, 2) + bytes((0, 1, 2, 5)) + items([share] * 5, 1), "too many items"),
               (b"\x26\x00" + be(8, 2) + bytes((5,)) + items([share] * 5, 1), "too many items"),
               (b"\x27\x00\x01\x11" + items([b"x"] * 17, 2), "too many items"),
               (b"\x29\x00\x03\x00" + be(17, 2) + items([b"x"] * 17, 4), "too many items"),
               (b"\x29\x00\x03\x08" + be(0, 2), "no known kind or seat"),
               (b"\x29\x00\x08\x00" + be(0, 2), "no known kind or seat"),
               (b"\x23\x00\x01\x02\x05", "too short"),                  # a keep one position short
               (bytes.fromhex(V["keep"])[:1] + b"\x00" + bytes.fromhex(V["keep"])[2:] + b"\x00", "trailing"),
               (b"\x02\x00" + bytes(60), "unknown message kind"),       # a deck share as a body
               (b"\x03\x00" + bytes(60), "unknown message kind"),       # a deck reveal as a body
               (b"round-end\x00\x00\x01\x02" + bytes(8 + 31), "unknown message kind"),   # a round end too short
               (b"\x21\x00" + be(3, 2) + b"\x02\xff\xfe", "not UTF-8")]
    for body, why in refused:
        with pytest.raises(DeckError, match=why):
            fm.decode(body, body[1])
    with pytest.raises(DeckError, match="claims another seat"):
        fm.decode(bytes.fromhex(V["action"]), 0)      # seat 1's body in seat 0's envelope
    assert END_KINDS == ("finished", "resigned", "forfeit", "illegal", "coin", "desync", "left", "disputed")
    assert "`finished` 0, `resigned` 1, `forfeit` 2, `illegal` 3, `coin` 4, `desync`\n  5, `left` 6, `disputed` 7" in DOC
    assert fm.MAX_EVIDENCE == 16 and fair.LOG_CHUNK == 40_000 and fair.MAX_ENVELOPE == 60_000
    assert fair.START_COIN == -1 and "within 59 800 bytes" in DOC


# --------------------------------------------------------------------------- when bodies are sent
def _match(n: int, seed: int, teams: bool = False):
    """A whole match of ``n`` seats (``teams``) in memory, every seat's secrets from ``seed`` (deterministic)."""
    from game.royals.lan.match import FairMatch

    from .fair_table import Net

    def tokens(seat: int):
        count = [0]

        def token_bytes(k: int) -> bytes:
            count[0] += 1
            return hashlib.shake_256(f"{seed}/{seat}/{count[0]}".encode()).digest(k)
        return token_bytes
    net = Net(n, teams=teams, seed=seed)
    net.machines = {s: FairMatch(s, net.table, tokens(s)) for s in range(n)}
    return net.start().run()


def test_the_documented_order_plies_purposes_and_counts_hold_in_matches():
    from game.royals.engine import CARDS, START, STEAL, Action
    from net.deck import decode as deck_decode
    from net.deck.choice import joint_choice
    from game.royals.lan import messages as fm
    from net.signed import parse_round_end
    thefts = opened_again = starts = 0
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        m = _match(n, seed, teams=n == 4).machines[0]
        assert m.over is not None and m.over.kind == "finished", m.over
        hist = m.true.history
        d, keep = {2: (14, 7), 3: (12, 6), 4: (9, 5)}[n]
        envs = [(e, parse_round_end(e.body) or fm.decode(e.body, e.sender)) for e in m.envs]
        bodies = [(e, b) for e, b in envs if not isinstance(b, tuple)]
        own = {s: [b for e, b in bodies if e.sender == s] for s in range(n)}
        # the host's envelope 0 is its shuffle pass of round 1's deck, its envelope 1 its starter commit
        first = deck_decode(own[0][0].raw, 0)
        assert (own[0][0].kind, first.sid, first.step) == (fm.PASS, sid(1, 0), 0)
        assert (own[0][1].kind, own[0][1].purpose) == (fm.COMMIT, -1)
        # the starter coin: every seat's secret in seat order, randbelow(n), engine seat index + 1
        starter = [next(b.blob for b in own[s] if b.kind == fm.REVEAL and b.purpose == -1) for s in range(n)]
        assert str(hist[0]) == f"start {1 + joint_choice(GID, -1, starter, n)}"
        audits: dict[tuple[int, int], int] = {}
        purposes = set()
        for e, b in envs:
            if isinstance(b, tuple):                  # a round end: counts = audit seq + 1, over the match
                rnd, counts, _ = b
                assert counts == tuple(audits[(rnd, s)] + 1 for s in range(n))
                continue
            if b.kind == fm.PLAY:                     # its ply is the engine ply of the play
                assert hist[b.ply] == Action.play(e.sender + 1, CARDS[b.card])
                if b.items:
                    assert len(b.items) == (1 if b.no == 0 else 2)
                opened_again += not b.items
            elif b.kind == fm.ACTION:
                assert str(hist[b.ply]) == b.text
                a = Action.from_str(b.text)
                starts += a.kind is START
                if a.kind is STEAL and a.target is not None:
                    thefts += 1
                    taken = hist[b.ply + 1]           # the STOLEN outcome: the steal's ply + 1
                    assert taken.kind is STEAL and taken.card is not None and taken.target == a.target
                    purposes.add(b.ply + 1)
            elif b.kind in (fm.COMMIT, fm.REVEAL):
                assert b.purpose == -1 or b.purpose in purposes
            elif b.kind == fm.OPEN:                   # the victim's, with the coin's purpose as its ply
                assert b.ply in purposes and e.sender + 1 == hist[b.ply].target and len(b.items) in (1, 2)
            elif b.kind == fm.SHARES and len(b.items) > 1:
                assert len(b.items) == (n - 1) * d    # the deal: every other seat's positions
            elif b.kind == fm.AUDIT:
                audits[(b.round, e.sender)] = e.seq
                for x in b.items:
                    r = deck_decode(x, e.sender)
                    if int.from_bytes(r.sid[18:20], "big") == 1 + e.sender:   # its own pile: keyed only
                        assert r.scalar == b"" and r.perm == () and len(r.keys) == d - keep
                    else:
                        assert len(r.scalar) == 32 and sorted(r.perm) == list(range(len(r.keys)))
        for p in purposes:                            # every seat commits to a theft's coin
            assert {e.sender for e, b in bodies if b.kind == fm.COMMIT and b.purpose == p} == set(range(n))
        lan = m.record()["lan"]
        assert list(lan) == ["game", "end", "seat", "code", "evidence"]
        assert (lan["game"], lan["end"], lan["seat"], lan["evidence"]) == (GID.hex(), "finished", -1, [])
    assert thefts and opened_again and starts   # a theft, a card played again, a team's start


def test_the_record_lan_keys_are_documented():
    table = DOC.split("## The record's `lan` key", 1)[1].split("## Test vectors", 1)[0]
    assert re.findall(r"^\| `(\w+)` \|", table, re.M) == ["game", "end", "seat", "code", "evidence"]
