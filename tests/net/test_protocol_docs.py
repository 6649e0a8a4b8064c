"""docs/protocol.md is complete enough to interoperate (issue 14 #8): its test vectors are
recomputed here from the documented byte layouts alone (plain hashlib/hmac, not net.coin),
and checked against the implementation."""

import hashlib
import hmac
import re
from pathlib import Path

from game.rng import Rng
from game.roseking.engine import CARDS, State
from net.coin import coin_digest, commitment, game_id_from, seat_proof
from net.limits import RATES
from net.roseking import (COMMIT_TIMEOUT, FATAL_CODES, FORFEIT_TIMEOUT, HANDSHAKE_TIMEOUT, HEARTBEAT,
                          REVEAL_TIMEOUT, TIMEOUT, draw_from_coin, setup_from_coin)
from net.framing import SCHEMAS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def vector(label: str) -> str:
    m = re.search(rf"^{re.escape(label)}\s+(.+)$", DOC, re.M)
    assert m, label
    return m.group(1).strip()


def test_the_documented_vectors_follow_from_the_documented_layouts():
    hn, jn = bytes(range(16)), bytes(range(16, 32))
    hs, js = b"\x01" * 32, b"\x02" * 32
    gid = hashlib.sha256(b"rose-king-lan game" + hn + jn).digest()[:16]
    assert gid.hex() == vector("game id") == game_id_from([hn, jn]).hex()
    p = (-1).to_bytes(4, "big", signed=True)
    hc = hashlib.sha256(b"rose-king-lan commit" + gid + p + b"\x00" + hs).digest()
    jc = hashlib.sha256(b"rose-king-lan commit" + gid + p + b"\x01" + js).digest()
    assert hc.hex() == vector("host commitment (-1)") == commitment(gid, -1, 0, hs).hex()
    assert jc.hex() == vector("joiner commitment (-1)") == commitment(gid, -1, 1, js).hex()
    d = hashlib.sha256(b"rose-king-lan coin" + gid + p + hs + js).digest()
    assert d.hex() == vector("set-up digest") == coin_digest(gid, -1, [hs, js]).hex()
    assert str(int.from_bytes(d[:8], "big")) == vector("seed")
    rng = Rng(int.from_bytes(d[:8], "big"))
    host_colour = "red" if rng.randbelow(2) == 0 else "white"
    deck = list(CARDS)
    rng.shuffle(deck)
    assert host_colour == vector("host colour")
    assert " ".join(c.name for c in deck[:5]) == vector("red's hand")
    assert " ".join(c.name for c in deck[5:10]) == vector("white's hand")
    colour, red, white = setup_from_coin(d)
    assert (str(colour), red, white) == (host_colour, tuple(deck[:5]), tuple(deck[5:10]))
    state = State(red, white)
    assert state.canonical_bytes().hex() == vector("canonical bytes")
    assert hashlib.sha256(state.canonical_bytes()).hexdigest() == vector("state hash at ply 0")
    d0 = hashlib.sha256(b"rose-king-lan coin" + gid + (0).to_bytes(4, "big", signed=True) + hs + js).digest()
    assert d0.hex() == vector("coin digest for 0")
    pile = state.chance_outcomes()
    card = pile[Rng(int.from_bytes(d0[:8], "big")).randbelow(len(pile))]
    assert card == draw_from_coin(d0, state)
    assert vector("a draw at ply 0 brings").startswith(f"{card.name} (of the {len(pile)} cards "
                                                         + " ".join(c.name for c in pile))
    proof = hmac.new(b"\x03" * 32, b"rose-king-lan seat" + gid + b"\x01" + hn, hashlib.sha256).hexdigest()
    assert proof == seat_proof(b"\x03" * 32, gid, 1, hn).hex() and proof in DOC


def test_every_lobby_message_of_the_lan_layer_is_documented():
    from net.lobby import LAN_VERSION, LOBBY_SCHEMAS
    layer = DOC[DOC.index("# The LAN layer"):DOC.index("# The Rose King LAN protocol")]
    assert f"`pv` = {LAN_VERSION}" in layer
    for t, keys in LOBBY_SCHEMAS.items():
        if t in ("ping", "error"):
            continue
        row = re.search(rf"^\| `{t}` \|(.+)$", layer, re.M)
        assert row, f"lobby message {t} is not documented"
        for key in keys:
            assert f"`{key}`" in row.group(1), f"{t}: key {key} missing from its row"


def test_every_message_error_code_timeout_and_rate_is_documented():
    rose_king = DOC[DOC.index("# The Rose King LAN protocol"):]
    for t, keys in SCHEMAS.items():
        row = re.search(rf"^\| `{t}` \|(.+)$", rose_king, re.M)
        assert row, f"message {t} is not documented"
        for key in keys:
            assert f"`{key}`" in row.group(1), f"{t}: key {key} missing from its row"
    for code in FATAL_CODES | {"frame", "schema", "order", "flood", "withheld", "timeout", "eof", "bye"}:
        assert f"| `{code}`" in DOC or f"`{code}`" in DOC, code
    for seconds in (HEARTBEAT, TIMEOUT, HANDSHAKE_TIMEOUT, COMMIT_TIMEOUT, REVEAL_TIMEOUT, FORFEIT_TIMEOUT):
        assert f"{seconds:g} s" in DOC
    for kind, (burst, rate) in RATES.items():
        if kind != "*":
            assert f"`{kind}`" in DOC and f"({burst:g}, {rate:g})" in DOC, kind
