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


# --------------------------------------------------------------------------- issue 33, item 6
def documented_record_text(d: dict) -> str:
    """The record's bytes built from the words of "The record's exact bytes" alone."""
    import json
    head = '{"format": "rose-king-record", "version": 1'
    for key in ("red", "white", "date", "deal", "termination", "lan"):
        if key in d:
            head += f", {json.dumps(key)}: {json.dumps(d[key], ensure_ascii=False)}"
    moves = d["moves"]
    text = head + ',\n "moves": ['
    if moves:
        text += "\n" + ",\n".join("  " + json.dumps(m) for m in moves) + "\n\n ]"
    else:
        text += "]"
    if "result" in d:
        text += ',\n "result": ' + json.dumps(d["result"])
    return text + "}\n"


def test_the_records_exact_bytes_follow_from_the_text():
    from net.loopback import Pair
    p = Pair(seed=3)
    p.pump()
    import json
    empty = p.host.game.record().to_json()
    assert documented_record_text(json.loads(empty)) == empty
    p.play_out()
    for conn in (p.host, p.join):
        text = conn.game.record().to_json()
        assert documented_record_text(json.loads(text)) == text
    assert p.host.game.record().to_json() == p.join.game.record().to_json()
    assert p.join.game.date == p.host.date  # the host's hello date


def test_royals_card_names_and_the_keep_order_follow_from_the_text():
    from game.royals.engine import CARD_NAMES, Action
    assert vector("royals card names").split() == list(CARD_NAMES)
    names = vector("royals card names").split()
    assert str(Action.keep(3, ["M6", "R1", "M4", "R6", "M5"])) == "3 keep " + ",".join(
        sorted(["M6", "R1", "M4", "R6", "M5"], key=names.index))


def test_a_repeated_identical_commitment_is_refused_with_order():
    from game.roseking.engine import DRAW, Move
    from net.framing import encode_frame as ef
    from .helpers import mid_game, until_mover_can_draw
    p = mid_game(4)
    until_mover_can_draw(p)
    mover, other = p.sides()
    mover.play(Move(mover.color, DRAW, None))
    data = mover.data_to_send()
    other.receive_data(data)
    commit = next(m for m in __import__("net.framing", fromlist=["FrameDecoder"]).FrameDecoder().feed(data)
                  if m["t"] == "commit")
    events = other.receive_data(ef(commit))
    assert events[-1].code == "order" and "twice" in events[-1].reason
    assert "answered with `error{order}`" in DOC


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
    host_hello = {"t": "hello", "proto": "rose-king-lan", "pv": 3, "g": "g", "gv": 1, "app": "x", "name": "Ann",
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
