"""docs/protocol.md's "Rose King on the layer" is complete enough to write a peer from (
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
from net.coin import game_id_from, seat_proof
from net.link import HEARTBEAT, SILENCE
from net.limits import HANDSHAKE_TIMEOUT
from net.match import END_KINDS, Table
from game.roseking.lan import match as rkm
from game.roseking.lan.messages import RATES, SCHEMAS
from net.session import FATAL_CODES, Session

from .rk_wire import Pair, chooser

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
LAYER = DOC[:DOC.index("## Rose King on the layer")]
RK = DOC[DOC.index("## Rose King on the layer"):DOC.index("# The version-2 LAN protocol")]


def vector(label: str) -> str:
    m = re.search(rf"^rk3 {re.escape(label)}\s+(.+)$", RK, re.M)
    assert m, label
    return m.group(1).strip()


def sha(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def be4(p: int) -> bytes:
    return p.to_bytes(4, "big", signed=True)


def test_every_rose_king_vector_follows_from_the_documented_layouts():
    fresh, hn, jn = bytes(range(0xF0, 0x100)), bytes(range(16)), bytes(range(16, 32))
    table_id = sha(b"rose-king-lan game", fresh, jn)[:16]  # the host's fresh nonce, never its hello's
    assert vector("game id (2 seats)") == table_id.hex() == game_id_from([fresh, jn]).hex()
    assert table_id != sha(b"rose-king-lan game", hn, jn)[:16]
    joiner = hmac.new(b"\x03" * 32, b"rose-king-lan seat" + table_id + b"\x01" + hn, hashlib.sha256).hexdigest()
    host = hmac.new(b"\x04" * 32, b"rose-king-lan seat" + table_id + b"\x00" + jn, hashlib.sha256).hexdigest()
    assert (vector("joiner's proof"), vector("host's proof")) == (joiner, host)
    assert (joiner, host) == (seat_proof(b"\x03" * 32, table_id, 1, hn).hex(), seat_proof(b"\x04" * 32, table_id, 0, jn).hex())
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


def test_the_layers_error_table_says_which_codes_are_fatal():
    """"Errors on the layer": every code a peer of the layer sends or sees, each row's fatal
    column the session's (``FATAL_CODES``: a joiner stops reconnecting)."""
    table = LAYER[LAYER.index("**Errors on the layer**"):LAYER.index("**A game's part**")]
    seen: dict[str, str] = {}
    for row in re.findall(r"^\| (`.+?) \| .+? \| (.+?) \|$", table, re.M):
        for code in re.findall(r"`(\w+)`", row[0]):
            seen[code] = row[1]
    assert set(seen) >= (FATAL_CODES - {"sync"}) | {"frame", "schema", "order", "flood", "timeout", "eof", "busy",
                                                     "withheld", "reopen"} | set(END_KINDS)
    for code, fatal in seen.items():
        assert fatal.startswith("yes") == (code in FATAL_CODES), code


def test_the_lobby_row_and_a_rose_king_start_carry_what_the_text_says():
    """``lobby`` rows (kind, name, connected; ``open`` with an empty name) and Rose King's
    ``opt``/``sk`` as "Rose King on the layer" says, from a real host lobby."""
    from net.lobby import LSend, HostLobby, hello
    lobby = HostLobby(rkm.KEY, rkm.VERSION, "Ann", ("host", "person"), options={"colour": "red"})
    lobby.open(1, 0.0)
    assert lobby.table_rows() == [["host", "Ann", True], ["open", "", False]]
    out = lobby.receive(1, hello(rkm.KEY, rkm.VERSION, "Bob", "join", b"\x01" * 16, b"\x02" * 16, b"\x03" * 32,
                                 sk=b"\x09" * 32), 0.0)  # a key for a game that signs nothing: ignored
    row = next(o.msg for o in out if isinstance(o, LSend))
    assert row == {"t": "lobby", "seats": [["host", "Ann", True], ["person", "Bob", True]], "you": 1,
                   "opt": {"colour": "red"}}
    start = next(o.msg for o in lobby.start(0.0) if isinstance(o, LSend))
    assert start["sk"] == [] and start["opt"] == {"colour": "red"}
    assert '`{}` or `{"colour": "red"|"white"}`' in RK and "`start`'s `sk` is `[]`" in RK


def test_the_last_ply_is_acknowledged_and_nothing_after_a_verdict_counts():
    """"Moves": the receiver of a last move acknowledges it (both seats a last draw); an ``ack``
    (or any match message) reaching a seat after its verdict changes nothing. ``have``: a
    joiner has handled every match message the host sent, and a catch-up from there is empty."""
    from game.roseking.engine import DRAW
    from net.match import Send
    endings = set()
    for seed in range(40):     # the deals are random: play on until both endings were seen
        if endings == {True, False}:
            break
        p = Pair()
        sent: list = []
        out = p.out

        def spy(s, outputs, out=out, sent=sent):
            sent += [(s, o.msg) for o in outputs if isinstance(o, Send)]
            out(s, outputs)
        p.out = spy
        p.play([chooser(seed, draw_first=seed % 2 == 0), chooser(seed + 50, draw_first=True)])
        assert [p.verdicts[s].kind for s in (0, 1)] == ["finished", "finished"]
        n = p.m[0].ply
        last = p.m[0].state.move_stack[-1]
        ackers = sorted(s for s, m in sent if m["t"] == "ack" and m["ply"] == n)
        if last.kind is DRAW:
            assert ackers == [0, 1]
        else:
            assert ackers == [1 - p.m[0].seat_of(last.player)]
        endings.add(last.kind is DRAW)
        late = {"t": "ack", "ply": n, "hash": p.m[1]._hash()}
        assert p.m[0].receive(1, late, 1.0) == [] and p.m[0].over.kind == "finished"
        assert p.m[1].received() == len(p.m[0].outbox) and p.m[0].catch_up(1, p.m[1].received(), 0.0) == []
    assert False in endings


def test_a_repeated_identical_commitment_or_reveal_is_ignored_a_different_one_is_not():
    p = Pair()
    p.deliver()  # the set-up coin is tossed
    commit = next(m for m in p.m[1].outbox if m["t"] == "commit")
    reveal = next(m for m in p.m[1].outbox if m["t"] == "reveal")
    assert p.m[0].receive(1, commit, 0.0) == [] and p.m[0].receive(1, reveal, 0.0) == []
    out = p.m[0].receive(1, {**commit, "c": b"\x05" * 32}, 0.0)
    assert out[-1].verdict.kind == "coin" and out[-1].verdict.seat == 1  # a re-roll of the set-up


def test_stray_lobby_messages_to_a_joiner_that_holds_its_match_are_order():
    from net.coin import seat_proof as proof
    from net.lobby import JoinLobby, LDrop, LSeated, SeatMemo, hello
    table = Table(b"\x01" * 16, ("Ann", "Bob"), "")
    memo = SeatMemo(table, 1, {0: b"\x02" * 32}, {0: b"\x03" * 32})
    j = JoinLobby(rkm.KEY, rkm.VERSION, "Bob", memo=memo)
    j.open(0.0, 5)
    assert j.receive({"t": "lobby", "seats": [], "you": 1, "opt": {}}, 0.0)[0].code == "order"  # before the hello
    host = hello(rkm.KEY, rkm.VERSION, "Ann", "host", b"\x07" * 16, b"\x08" * 16, b"\x09" * 32, table.game_id)
    assert j.receive(host, 0.0)[0].msg["t"] == "auth"
    assert j.receive({"t": "auth", "proof": proof(b"\x03" * 32, table.game_id, 0, j.nonce)}, 0.0) == []
    start = {"t": "start", "game": table.game_id, "you": 1, "names": ["Ann", "Bob"], "date": "", "opt": {},
             "comp": [], "sk": []}
    assert isinstance(j.receive(start, 0.0)[0], LSeated)
    for stray in (start, {"t": "lobby", "seats": [], "you": 1, "opt": {}}, {"t": "auth", "proof": b"\x00" * 32},
                  host):
        out = j.receive(stray, 0.0)
        assert len(out) == 1 and isinstance(out[0], LDrop) and out[0].code == "order", stray["t"]
