"""Any bytes from the other seat -> a clear error, nothing lost (docs/protocol.md, "Frames" and
"Rose King on the layer"): random well-formed and ill-formed Rose King messages, framed or raw,
fed through the layer's Link into a mid-game match machine. The link closes with a code, or the
machine refuses (``Refusal``: that connection closes) or ends the match with a verdict; never
another exception, and the game it keeps stays consistent: every ply acknowledged stays, the
hashes follow the moves, the record checks and the journal payload restores to the same machine."""

from __future__ import annotations

import os

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.registry import game_by_key
from game.roseking.engine import CARD_NAMES
from net.framing import FrameError
from net.link import Link
from net.match import Over, Refusal
from game.roseking.lan.match import RoseKingMatch

from .rk_wire import SCHEMAS, Pair, chooser, det_tokens, frame, table

b16, b32 = st.binary(min_size=16, max_size=16), st.binary(min_size=32, max_size=32)
ply = st.integers(-2, 14)
move_text = st.builds(lambda c, k, n: f"{c} {k} {n}", st.sampled_from(["red", "white"]),
                      st.sampled_from(["play", "hero", "draw"]), st.sampled_from(CARD_NAMES))
messages = st.one_of(
    st.fixed_dictionaries({"t": st.just("move"), "ply": ply, "m": move_text, "hash": b32}),
    st.fixed_dictionaries({"t": st.just("commit"), "for": ply, "c": b32}),
    st.fixed_dictionaries({"t": st.just("reveal"), "for": ply, "s": b32}),
    st.fixed_dictionaries({"t": st.just("ack"), "ply": ply, "hash": b32}),
    st.fixed_dictionaries({"t": st.just("over"), "kind": st.sampled_from(["forfeit", "illegal", "resigned", "left"]),
                           "seat": st.integers(-1, 2), "ply": ply}),
    st.fixed_dictionaries({"t": st.sampled_from(["ping", "caught", "hello", "start", "ready"])}),
    st.fixed_dictionaries({"t": st.just("draw"), "ply": ply, "m": move_text, "hash": b32,
                           "s": st.lists(b32, min_size=2, max_size=2)}),
    st.dictionaries(st.text(max_size=4), st.integers(-2**63, 2**64 - 1) | st.text(max_size=4) | b16, max_size=3),
)


def as_bytes(msg: dict) -> bytes:
    try:
        return frame(msg)
    except (FrameError, ValueError):  # fails the schema: send it raw anyway
        payload = msgpack.packb(msg, use_bin_type=True)
        return len(payload).to_bytes(4, "big") + payload


def mid_game() -> Pair:
    p = Pair("", (det_tokens(3), det_tokens(4)))
    p.play([chooser(3), chooser(4)], plies=8)
    p.deliver()
    return p


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(messages | st.binary(max_size=40), min_size=1, max_size=6), st.sampled_from([0, 1]),
       st.integers(1, 64))
def test_any_bytes_from_the_other_seat_give_a_clear_error_and_lose_nothing(items, seat, chunk):
    p = mid_game()
    m = p.m[seat]
    before_ply, acked = m.ply, m.acked
    held = m.hashes[:acked + 1]
    data = b"".join(as_bytes(x) if isinstance(x, dict) else x for x in items)
    link = Link(SCHEMAS, rates={"*": (1e9, 1e9)})
    outcome = None
    for i in range(0, len(data), chunk):
        for msg in link.feed(data[i:i + chunk], 0.0):
            if msg["t"] not in ("move", "commit", "reveal", "ack"):
                continue  # the session's and lobby's messages: tests/net/test_rk_attacks_loopback.py
            try:
                out = m.receive(1 - seat, msg, 0.0)
            except Refusal as e:
                link.close(e.code, str(e))  # what the session does: that connection closes
                break
            for o in out:
                if isinstance(o, Over) and outcome is None:
                    outcome = o.verdict
                    m.end(o.verdict, 0.0)
        if link.closed is not None or outcome is not None:
            break
    if link.closed is not None:
        assert link.closed.code in ("frame", "schema", "version", "order", "flood") and link.closed.reason
    if outcome is not None:
        assert outcome.kind in ("illegal", "desync", "forfeit", "coin") and outcome.detail
    # nothing lost: the plies both held stay, the hashes follow the moves, the record checks
    assert m.hashes[:acked + 1] == held and m.ply >= acked
    assert len(m.hashes) == m.ply + 1 and m.hashes[-1] == bytes.fromhex(m.state.state_hash())
    rec = m.record()
    assert game_by_key("rose-king").check(rec).startswith("ok ")
    again = RoseKingMatch(seat, table(), os.urandom, m.payload())
    assert again.payload() == m.payload() and again.hashes == m.hashes
    assert m.ply >= before_ply or m.over is not None
