"""Random well-formed and ill-formed message sequences against a live game: the state
machine must answer with events (or a Closed), never an exception, and never corrupt
the game it keeps."""

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.roseking.engine import CARD_NAMES
from net.framing import encode_frame
from net.loopback import Pair

b16, b32 = st.binary(min_size=16, max_size=16), st.binary(min_size=32, max_size=32)
ply = st.integers(-2, 12)
move_text = st.builds(lambda c, k, n: f"{c} {k} {n}", st.sampled_from(["red", "white"]),
                      st.sampled_from(["play", "hero", "draw"]), st.sampled_from(CARD_NAMES))
messages = st.one_of(
    st.fixed_dictionaries({"t": st.just("move"), "ply": ply, "m": move_text, "hash": b32}),
    st.fixed_dictionaries({"t": st.just("draw"), "ply": ply, "m": move_text, "hash": b32,
                           "s": st.lists(b32, min_size=2, max_size=2)}),
    st.fixed_dictionaries({"t": st.just("commit"), "for": ply, "c": b32}),
    st.fixed_dictionaries({"t": st.just("reveal"), "for": ply, "s": b32}),
    st.fixed_dictionaries({"t": st.just("ack"), "ply": ply, "hash": b32}),
    st.fixed_dictionaries({"t": st.just("resign"), "ply": ply}),
    st.fixed_dictionaries({"t": st.sampled_from(["rematch", "ping"])}),
    st.fixed_dictionaries({"t": st.just("sync"), "game": b16, "host": st.sampled_from(["red", "white"]),
                           "red": st.just("R"), "white": st.just("W"), "date": st.just(""),
                           "deal": st.lists(st.integers(0, 23), min_size=10, max_size=10),
                           "moves": st.lists(move_text, max_size=3), "hash": b32,
                           "resigned": st.just("")}),
    st.dictionaries(st.text(max_size=4), st.integers(-2**63, 2**64 - 1) | st.text(max_size=4), max_size=3),
)


def as_frame(msg: dict) -> bytes:
    try:
        return encode_frame(msg)
    except ValueError:  # fails our own schema: send it raw anyway
        payload = msgpack.packb(msg, use_bin_type=True)
        return len(payload).to_bytes(4, "big") + payload


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(messages, min_size=1, max_size=6), st.booleans())
def test_random_messages_never_crash_or_corrupt(msgs, to_host):
    p = Pair(3)
    p.pump()
    conn = p.host if to_host else p.join
    game = conn.game
    before = game.state.ply
    for msg in msgs:
        conn.receive_data(as_frame(msg))
        conn.data_to_send()
    assert len(game.hashes) == game.state.ply + 1
    assert game.hashes[-1] == bytes.fromhex(game.state.state_hash())
    assert game.state.ply >= before
    replayed = game.record().replay()
    assert replayed.state_hash() == game.state.state_hash()
