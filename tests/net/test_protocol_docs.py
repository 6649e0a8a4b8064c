"""docs/protocol.md is complete enough to interoperate: the LAN layer's
lobby and vectors, and Royals & Riots' details, recomputed here from the documented text and
checked against the implementation (Rose King's part: tests/net/test_rk_protocol_docs.py)."""

import hashlib
import hmac
import re
from pathlib import Path

from game.rng import Rng
from net.coin import game_id_from
from net.limits import RATES
from net.lobby import LAN_VERSION
from net.session import FATAL_CODES

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def vector(label: str) -> str:
    m = re.search(rf"^{re.escape(label)}\s+(.+)$", DOC, re.M)
    assert m, label
    return m.group(1).strip()


def test_every_lobby_message_of_the_lan_layer_is_documented():
    from net.lobby import LAN_VERSION, LOBBY_SCHEMAS
    layer = DOC[DOC.index("# The LAN layer"):DOC.index("# The version-2 LAN protocol")]
    assert f"`pv` = {LAN_VERSION}" in layer
    for t, keys in LOBBY_SCHEMAS.items():
        row = re.search(rf"^\| `{t}` \|(.+)$", layer, re.M)
        assert row, f"lobby message {t} is not documented"
        for key in keys:
            assert f"`{key}`" in row.group(1), f"{t}: key {key} missing from its row"


def test_every_error_code_and_rate_is_documented():
    for code in FATAL_CODES | {"frame", "schema", "order", "flood", "withheld", "timeout", "eof", "bye"}:
        assert f"| `{code}`" in DOC or f"`{code}`" in DOC, code
    for kind, (burst, rate) in RATES.items():
        if kind != "*":
            assert f"`{kind}`" in DOC and f"({burst:g}, {rate:g})" in DOC, kind


# --------------------------------------------------------------------------- an independent peer's details
def test_royals_card_names_and_the_keep_order_follow_from_the_text():
    from game.royals.engine import CARD_NAMES, Action
    assert vector("royals card names").split() == list(CARD_NAMES)
    names = vector("royals card names").split()
    assert str(Action.keep(3, ["M6", "R1", "M4", "R6", "M5"])) == "3 keep " + ",".join(
        sorted(["M6", "R1", "M4", "R6", "M5"], key=names.index))


def test_the_documented_royals_ply_sequence_is_the_engines():
    from game.royals.engine import START, State as RState
    rng = Rng(11)
    for players, teams in ((2, False), (3, False), (4, True)):
        s = RState(players, teams)
        starts = []
        while not s.is_over():
            ev = s.chance()
            if ev is not None:
                s.push(ev.sample(rng))
                continue
            if s.phase.value == "start":
                starts.append((s.round, s.to_act, set(s.starting_team_members())))
            la = s.legal_actions()
            s.push(la[rng.randbelow(len(la))])
        kinds = " ".join("start" if a.kind is START else str(a).split()[0] if str(a).startswith("deal")
                         else str(a).split()[1] for a in s.history)
        one = rf"deal( keep){{{players}}}( pile){{{players}}}( (play|steal|execute))+"
        later = rf"( start)? {one}" if teams else rf" {one}"
        assert re.fullmatch(rf"start {one}{later}{later}", kinds), kinds[:200]
        assert kinds.count("start") == (3 if teams else 1)
        for rnd, to_act, members in starts:  # a team round's start: decided by to_act, of the starting team
            assert rnd > 1 and to_act in members
    assert "With teams**, rounds 2 and 3 begin with `start S`, a **decision**" in DOC


def test_the_lan_layers_vectors_follow_from_the_text_and_the_lobby():
    from net.lobby import HostLobby, JoinLobby, LSend, LStarted, SeatMemo
    from net.match import Table
    hn, n1, n2 = bytes(range(16)), bytes(range(16, 32)), bytes(range(32, 48))
    gid = hashlib.sha256(b"rose-king-lan game" + hn + n1 + n2).digest()[:16]
    assert vector("layer game id (3 seats)") == gid.hex() == game_id_from([hn, n1, n2]).hex()
    p2 = hmac.new(b"\x03" * 32, b"rose-king-lan seat" + gid + bytes([2]) + hn, hashlib.sha256).hexdigest()
    p0 = hmac.new(b"\x04" * 32, b"rose-king-lan seat" + gid + bytes([0]) + n2, hashlib.sha256).hexdigest()
    assert vector("layer proof of seat 2 (host nonce)") == p2
    assert vector("layer proof of the host to seat 2") == p0
    # the lobby machines send exactly these proofs
    table = Table(gid, ("Ann", "Bo", "Cy"), "")
    joiner = JoinLobby("g", 1, "Cy", memo=SeatMemo(table, 2, {0: b"\x03" * 32}, {0: b"\x04" * 32}),
                       token_bytes=lambda n: n2 if n == 16 else b"\x09" * n)
    joiner.open(0.0, 5)
    host_hello = {"t": "hello", "proto": "rose-king-lan", "pv": LAN_VERSION, "g": "g", "gv": 1, "app": "x", "name": "Ann",
                  "peer": b"p" * 16, "role": "host", "nonce": hn, "key": b"k" * 32, "game": gid, "have": 0}
    (auth,) = joiner.receive(host_hello, 0.0)
    assert isinstance(auth, LSend) and auth.msg == {"t": "auth", "proof": bytes.fromhex(p2)}
    host = HostLobby("g", 1, "Ann", ("host", "person", "person"), memo=SeatMemo(
        table, 0, {1: b"\x05" * 32, 2: b"\x04" * 32}, {1: b"\x06" * 32, 2: b"\x03" * 32}),
        token_bytes=lambda n: hn if n == 16 else b"\x08" * n)
    host.open(7, 0.0)
    host.receive(7, {**host_hello, "role": "join", "name": "Cy", "nonce": n2, "peer": b"q" * 16}, 0.0)
    out = host.receive(7, auth.msg, 0.0)
    assert {"t": "auth", "proof": bytes.fromhex(p0)} in [o.msg for o in out if isinstance(o, LSend)]
    assert not any(isinstance(o, LStarted) for o in out)
