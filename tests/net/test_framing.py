"""Frames and schemas (net.framing): chunking, limits, hostile bytes."""

import struct

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.framing import (MAX_FRAME, MAX_PLY, SHARED_SCHEMAS, FrameDecoder, FrameError, binary, check_message,
                         decode_payload, encode_frame, integer, player_name, string)
from net.lobby import schemas_for

#: A game's schema table for these tests: the shared skeleton plus messages shaped like a game's.
SCHEMAS = {**SHARED_SCHEMAS, "ack": {"ply": integer(0, MAX_PLY), "hash": binary(32)},
           "move": {"ply": integer(1, MAX_PLY), "m": string(6, 24), "hash": binary(32)},
           "named": {"red": player_name, "white": player_name}}
PING = {"t": "ping"}
ACK = {"t": "ack", "ply": 3, "hash": b"h" * 32}


def raw(obj) -> bytes:
    """A frame around any msgpack payload, bypassing our schema (for hostile input)."""
    payload = obj if isinstance(obj, bytes) else msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


def test_one_byte_at_a_time_and_many_frames_in_one_read():
    stream = encode_frame(PING, SCHEMAS) + encode_frame(ACK, SCHEMAS) + encode_frame(PING, SCHEMAS)
    d = FrameDecoder(SCHEMAS)
    got = []
    for i in range(len(stream)):
        got += d.feed(stream[i:i + 1])
    assert got == [PING, ACK, PING]
    assert FrameDecoder(SCHEMAS).feed(stream * 50) == [PING, ACK, PING] * 50


def test_split_header_keeps_the_partial_frame_pending():
    f = encode_frame(ACK, SCHEMAS)
    d = FrameDecoder(SCHEMAS)
    assert d.feed(f[:2]) == [] and d.pending == 2
    assert d.feed(f[2:3]) == [] and d.feed(f[3:10]) == []
    assert d.pending == 10
    assert d.feed(f[10:]) == [ACK] and d.pending == 0


def test_length_zero_is_refused():
    with pytest.raises(FrameError, match="length 0"):
        FrameDecoder(SCHEMAS).feed(b"\0\0\0\0")


@pytest.mark.parametrize("n", [MAX_FRAME + 1, 0xFFFFFFFF])
def test_oversized_or_huge_declared_length_is_refused_before_buffering(n):
    d = FrameDecoder(SCHEMAS)
    with pytest.raises(FrameError, match="exceeds the limit"):
        d.feed(struct.pack(">I", n))
    assert d.pending == 0


def test_largest_frame_is_accepted():
    # a frame of exactly MAX_FRAME bytes passes the length gate (and then fails the schema)
    filler = {"t": "error", "code": "x", "reason": "y" * 10}
    payload = msgpack.packb(filler)
    payload += b"\xc0" * (MAX_FRAME - len(payload))
    with pytest.raises(FrameError, match="extra bytes"):
        FrameDecoder(SCHEMAS).feed(struct.pack(">I", MAX_FRAME) + payload)


def test_http_text_is_refused_with_a_hint():
    with pytest.raises(FrameError, match="another protocol"):
        FrameDecoder(SCHEMAS).feed(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")


def test_decoder_refuses_further_input_after_an_error():
    d = FrameDecoder(SCHEMAS)
    with pytest.raises(FrameError):
        d.feed(b"\0\0\0\0")
    with pytest.raises(FrameError):
        d.feed(encode_frame(PING, SCHEMAS))


@pytest.mark.parametrize("payload, match", [
    (b"\x91" * 5000 + b"\xc0", "nesting"),  # deeper than msgpack's own stack
    (msgpack.packb({"t": "ping", "x": [[[[1]]]]}), "nesting"),
    (b"\xdb\xff\xff\xff\xff", "truncated"),  # str32 declaring 4 GiB inside a small frame
    (b"\xdd\x7f\xff\xff\xff", "max_array_len"),  # array32 declaring 2**31 items
    (b"\xc6\x00\x01\x00\x00" + b"x" * 10, "truncated|max_bin_len"),
    (b"\x81\xa1t\xa3\xff\xfe\xfd", "UTF-8"),  # invalid UTF-8 in a string
    (b"\xd4\x01\x00", "extension type 1"),  # fixext 1
    (b"\xc7\x03\x05abc", "extension type 5"),  # ext 8
    (b"\x81\x01\xa4ping", "map key"),  # int map key
    (b"\xc1", "bad msgpack"),  # the never-used byte
    (msgpack.packb(PING) + b"\xc0", "extra bytes"),
    (msgpack.packb([1, 2]), "must be a map"),
    (msgpack.packb({"x": 1}), '"t"'),
    (msgpack.packb({"t": "teleport"}), "unknown message type"),
    (msgpack.packb({"t": "ack", "ply": 3}), "missing key 'hash'"),
    (msgpack.packb({"t": "ack", "ply": 3, "hash": b"h" * 32, "x": 1}, use_bin_type=True), "unexpected key 'x'"),
    (msgpack.packb({"t": "ack", "ply": "3", "hash": b"h" * 32}, use_bin_type=True), "'ply' must be an integer"),
    (msgpack.packb({"t": "ack", "ply": True, "hash": b"h" * 32}, use_bin_type=True), "'ply' must be an integer"),
    (msgpack.packb({"t": "ack", "ply": -1, "hash": b"h" * 32}, use_bin_type=True), "'ply' must be in"),
    (msgpack.packb({"t": "ack", "ply": 1, "hash": b"h" * 31}, use_bin_type=True), "32 bytes"),
    (msgpack.packb({"t": "ack", "ply": 1, "hash": "h" * 32}, use_bin_type=True), "must be binary"),
    (msgpack.packb({"t": "move", "ply": 1, "m": "x" * 100, "hash": b"h" * 32}, use_bin_type=True), "'m'"),
])
def test_hostile_payloads_are_protocol_errors(payload, match):
    with pytest.raises(FrameError, match=match):
        FrameDecoder(SCHEMAS).feed(raw(payload))


def test_hello_of_another_version_is_a_version_error_whatever_its_other_keys():
    with pytest.raises(FrameError, match="incompatible versions") as e:
        decode_payload(msgpack.packb({"t": "hello", "proto": "rose-king-lan", "pv": 3, "future": 1}), schemas_for({}))
    assert e.value.code == "version"
    with pytest.raises(FrameError, match="incompatible versions"):
        decode_payload(msgpack.packb({"t": "hello", "proto": "chess", "pv": 1}), schemas_for({}))


SYNC = {"t": "named", "red": "A", "white": "B"}


@pytest.mark.parametrize("name, why", [
    ("A\x1b[2J", "control characters"),
    ("evil\u202egnp.exe", "control characters"),  # right-to-left override
    ("Al\u200bice", "invisible"),  # zero-width space
    ("Bob\u2066", "control characters"),  # bidi isolate
    ("\ufeffBOM", "invisible"),
    ("   ", "blank"),
    ("x" * 33, "1..32"),
])
def test_names_with_control_bidi_or_zero_width_characters_are_refused(name, why):
    check_message(SYNC, SCHEMAS)
    with pytest.raises(FrameError, match=why):
        check_message({**SYNC, "red": name}, SCHEMAS)


def test_encode_refuses_what_decode_would_refuse():
    with pytest.raises(FrameError, match="missing key"):
        encode_frame({"t": "ack"}, SCHEMAS)
    with pytest.raises(FrameError):
        encode_frame({"t": "error", "code": "x", "reason": "y" * 1000}, SCHEMAS)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.integers(1, 40))
def test_random_bytes_never_crash_the_decoder(data, chunk):
    d = FrameDecoder(SCHEMAS)
    try:
        for i in range(0, len(data), chunk):
            for msg in d.feed(data[i:i + chunk]):
                check_message(msg, SCHEMAS)  # anything that comes out passed the schema
    except FrameError:
        pass
