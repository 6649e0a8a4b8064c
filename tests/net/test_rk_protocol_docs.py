"""docs/protocol.md's "Rose King on the layer" is complete enough to write a peer from (issue 33,
item 6): its test vectors are recomputed here from the documented byte layouts alone (plain
hashlib/hmac, the documented generator), and every message, key, rate, deadline, journal and
record key it names is the code's."""

from __future__ import annotations

import hashlib
import hmac
import inspect
import os
import re
from pathlib import Path

from game.rng import Rng
from game.roseking.engine import CARDS, Move, State
from net.link import HEARTBEAT, SILENCE
from net.limits import HANDSHAKE_TIMEOUT
from net.match import END_KINDS, Table
from net.roseking import match as rkm
from net.roseking.messages import RATES, SCHEMAS
from net.session import FATAL_CODES, Session

from .rk_wire import Pair, chooser

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
LAYER = DOC[:DOC.index("## Rose King on the layer")]
RK = DOC[DOC.index("## Rose King on the layer"):DOC.index("# The Rose King LAN protocol")]


def vector(label: str) -> str:
    m = re.search(rf"^rk3 {re.escape(label)}\s+(.+)$", RK, re.M)
    assert m, label
    return m.group(1).strip()


def sha(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def be4(p: int) -> bytes:
    return p.to_bytes(4, "big", signed=True)


def test_every_rose_king_vector_follows_from_the_documented_layouts():
    hn, jn = bytes(range(16)), bytes(range(16, 32))
    table_id = sha(b"rose-king-lan game", hn, jn)[:16]
    assert vector("game id (2 seats)") == table_id.hex()
    joiner = hmac.new(b"\x03" * 32, b"rose-king-lan seat" + table_id + b"\x01" + hn, hashlib.sha256).hexdigest()
    host = hmac.new(b"\x04" * 32, b"rose-king-lan seat" + table_id + b"\x00" + jn, hashlib.sha256).hexdigest()
    assert (vector("joiner's proof"), vector("host's proof")) == (joiner, host)
    gid, hs, js = bytes(range(16)), b"\x01" * 32, b"\x02" * 32
    assert vector("host commitment (-1)") == sha(b"rose-king-lan commit", gid, be4(-1), b"\x00", hs).hex()
    assert vector("joiner commitment (-1)") == sha(b"rose-king-lan commit", gid, be4(-1), b"\x01", js).hex()
    d = sha(b"rose-king-lan coin", gid, be4(-1), hs, js)
    assert vector("set-up digest") == d.hex()
    seed = int.from_bytes(d[:8], "big")
    assert vector("seed") == str(seed)
    rng = Rng(seed)
    colour = "red" if rng.randbelow(2) == 0 else "white"
    deck = list(CARDS)  # the canonical card order, shuffled Fisher-Yates with the same generator
    rng.shuffle(deck)
    assert vector("host colour") == colour
    assert vector("red's hand") == " ".join(c.name for c in deck[:5])
    assert vector("white's hand") == " ".join(c.name for c in deck[5:10])
    state = State(deck[:5], deck[5:10])
    assert vector("canonical bytes") == state.canonical_bytes().hex()
    assert vector("state hash at ply 0") == hashlib.sha256(bytes.fromhex(vector("canonical bytes"))).hexdigest()
    state.push_checked(Move.from_str("red play N2"))
    assert vector("hash after red play N2") == state.state_hash()
    state.pop()
    d0 = sha(b"rose-king-lan coin", gid, be4(0), hs, js)
    assert vector("coin digest for 0") == d0.hex()
    pile = state.chance_outcomes()  # the draw pile in card order
    card = pile[Rng(int.from_bytes(d0[:8], "big")).randbelow(len(pile))]
    assert vector("a draw at ply 0 brings") == (f"{card.name} (of the {len(pile)} cards of the draw pile "
                                                 + " ".join(c.name for c in pile) + ")")


def test_two_machines_with_the_vectors_secrets_deal_the_documented_game():
    t = Table(bytes(range(16)), ("Ann", "Bob"), "")
    secrets = (b"\x01" * 32, b"\x02" * 32)
    p = Pair.__new__(Pair)
    p.m = [rkm.RoseKingMatch(s, t, lambda n, s=s: secrets[s]) for s in (0, 1)]
    p.wire, p.verdicts, p.saves = [], {}, [0, 0]
    for s in (0, 1):
        p.out(s, p.m[s].start(0.0))
    p.deliver()
    assert str(p.m[0].host_color) == vector("host colour") and p.m[1].state.state_hash() == vector("state hash at ply 0")


def test_every_match_message_key_and_rate_is_documented():
    for t, keys in SCHEMAS.items():
        row = re.search(rf"^\| `{t}` \|(.+)$", RK, re.M)
        assert row, f"message {t} is not documented"
        assert set(re.findall(r"`(\w+)`", row.group(1).split("|")[0])) == set(keys), t
    rates = re.search(r"Rates \(burst, per second\): (.+?)\.\n", RK, re.S).group(1)
    documented = {}
    for part in rates.split(";"):
        names, burst, rate = re.fullmatch(r"\s*(.+?) (\d+), (\d+)\s*", part).groups()
        for name in re.findall(r"`(\w+)`", names):
            documented[name] = (float(burst), float(rate))
    assert documented == {k: (float(b), float(r)) for k, (b, r) in RATES.items()}


def test_the_deadlines_limits_and_the_verdicts_are_documented():
    owes = RK[RK.index("**Who owes what**"):]
    assert f"{rkm.COMMIT_S:g} s\nconnected, {rkm.FORFEIT_S:g} s in all" in owes or \
        f"{rkm.COMMIT_S:g} s connected, {rkm.FORFEIT_S:g} s in all" in owes.replace("\n", " ")
    assert f"{rkm.REVEAL_S:g} s connected, {rkm.FORFEIT_S:g} s in all" in owes.replace("\n", " ")
    assert f"within {HANDSHAKE_TIMEOUT:g} s of the `start`" in LAYER.replace("\n", " ")
    limits = DOC[DOC.index("## Heartbeat, timeouts and limits"):DOC.index("## Errors")]
    assert f"| {HEARTBEAT:g} s |" in limits and f"| {SILENCE:g} s |" in limits
    assert f"| {HANDSHAKE_TIMEOUT:g} s of connecting |" in limits
    kw = inspect.signature(Session).parameters
    flat = LAYER.replace("\n", " ")
    assert f"every `reconnect_delay` ({kw['reconnect_delay'].default:g} s)" in flat
    assert f"`host_grace` ({kw['host_grace'].default:g} s" in flat
    over = re.search(r"^\| `over` \|(.+)$", LAYER, re.M).group(1)
    assert set(re.findall(r"`(\w+)`", over.split("|")[0])) >= set(END_KINDS)
    for code in FATAL_CODES:
        assert f"`{code}`" in DOC, code


def test_the_journal_payload_and_the_records_lan_key_are_the_documented_ones(tmp_path):
    p = Pair()
    p.play([chooser(1), chooser(2)], plies=12)
    flat = RK.replace("\n", " ")
    payload = re.search(r'payload is `\{(.+?)\}`; a restored', flat).group(1)
    assert all(f'"{k}"' in payload for k in p.m[0].payload()), payload
    lan = re.search(r'a `"lan"` key: `(\{.+?\})`', flat).group(1)
    assert set(re.findall(r'"(\w+)":', lan)) == set(p.m[0].record()["lan"])
    assert '`"stopped":\nkind`' in RK or '`"stopped": kind`' in flat
    session = LAYER.replace("\n", " ")
    memo = re.search(r'"memo": \{(.+?)\}', session).group(1)
    from net.lobby import SeatMemo
    assert set(re.findall(r'"(\w+)"', memo)) == set(SeatMemo(p.m[0].table, 0, {}, {}).to_json())
    assert os.path.basename(__file__) in RK
