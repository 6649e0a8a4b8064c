"""Signed messages (net/signed.py, docs/mental-poker.md "Signed messages"): a relay cannot
alter, invent, replay or reorder a peer's message; a peer that tells two stories is named with
evidence anyone can check, at the round's end at the latest."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from net.signed import (BadSignature, Envelope, Equivocation, Evidence, Inbox, Refused, Signer,
                        find_equivocation, match_code, parse_round_end, round_end)

MATCH = bytes(range(16))


def table(n: int = 3):
    signers = [Signer(MATCH, s) for s in range(n)]
    keys = [s.public_key for s in signers]
    return signers, keys, [Inbox(MATCH, keys) for _ in range(n)]


def test_messages_are_accepted_in_sequence_and_repeats_are_not_applied():
    signers, keys, inboxes = table()
    a = signers[1].sign(b"hello")
    b = signers[1].sign(b"play R3")
    assert (a.seq, b.seq) == (0, 1)
    assert inboxes[0].accept(a, via=0) and inboxes[0].accept(b, via=0)
    assert inboxes[0].accept(a, via=0) is False      # a replay: refused, not applied again
    assert inboxes[0].counts() == (0, 2, 0)
    assert Envelope.from_bytes(b.to_bytes()) == b


def test_a_relay_that_alters_or_invents_a_message_is_named():
    signers, keys, inboxes = table()
    env = signers[1].sign(b"play R3")
    altered = Envelope(env.match_id, 1, 0, b"play R4", env.signature)
    with pytest.raises(BadSignature) as e:
        inboxes[2].accept(altered, via=0)
    assert e.value.seat == 0                          # the host that relayed it
    invented = signers[0].sign(b"resign")            # signed with the host's own key
    with pytest.raises(BadSignature):
        inboxes[2].accept(Envelope(MATCH, 1, 0, invented.body, invented.signature), via=0)
    assert inboxes[2].counts() == (0, 0, 0)
    assert inboxes[2].accept(env, via=0)


def test_reordered_and_foreign_messages_are_refused():
    signers, keys, inboxes = table()
    first, second = signers[2].sign(b"1"), signers[2].sign(b"2")
    with pytest.raises(Refused) as e:
        inboxes[0].accept(second)
    assert e.value.seat == 2 and "reordered" in e.value.reason
    other = Signer(bytes(16), 2, signers[2]._seed).sign(b"1")   # same key, another match
    with pytest.raises(Refused):
        inboxes[0].accept(other)
    with pytest.raises(Refused):
        inboxes[0].accept(Envelope(MATCH, 7, 0, b"", bytes(64)), via=1)
    assert inboxes[0].accept(first) and inboxes[0].accept(second)


def test_two_different_messages_with_one_sequence_number_are_evidence():
    signers, keys, inboxes = table()
    a = signers[0].sign(b"deal A")
    twin = Signer(MATCH, 0, signers[0]._seed)                  # restarted without its journal
    b = twin.sign(b"deal B")
    inboxes[1].accept(a)
    with pytest.raises(Equivocation) as e:
        inboxes[1].accept(b)
    ev = e.value.evidence
    assert e.value.seat == 0 and ev.check(MATCH, keys)
    assert Evidence.from_bytes(ev.to_bytes()) == ev
    assert not ev.check(MATCH, keys[1:] + keys[:1])            # wrong keys: no proof
    assert not Evidence(0, a, a).check(MATCH, keys)            # the same message twice: no proof
    forged = Envelope(MATCH, 0, 0, b"deal C", bytes(64))
    assert not Evidence(0, a, forged).check(MATCH, keys)       # an unsigned twin: no proof


def test_a_host_that_tells_two_joiners_two_stories_is_caught_at_the_round_end():
    signers, keys, inboxes = table()
    host, j1, j2 = signers
    story1 = host.sign(b"thief takes from seat 1")
    story2 = Signer(MATCH, 0, host._seed).sign(b"thief takes from seat 2")   # same seq, other story
    inboxes[0].accept(story1)
    inboxes[1].accept(story1, via=0)
    inboxes[2].accept(story2, via=0)
    for i, s in ((1, j1), (2, j2)):
        env = s.sign(round_end(1, inboxes[i].counts(), inboxes[i].transcript(1)))
        for k in range(3):
            inboxes[k].accept(env, via=None if k == i else 0)
    end1, end2 = inboxes[2].log[1][-1], inboxes[1].log[2][-1]
    assert inboxes[2].check_round_end(end1) is False and inboxes[1].check_round_end(end2) is False
    ev = find_equivocation(inboxes[1].envelopes(), inboxes[2].envelopes())
    assert ev is not None and ev.sender == 0 and ev.check(MATCH, keys)


def test_honest_round_ends_agree():
    signers, keys, inboxes = table()
    for s in signers:
        env = s.sign(b"move " + bytes((s.seat,)))
        for ib in inboxes:
            ib.accept(env)
    ends = []
    for i, s in enumerate(signers):
        ends.append(s.sign(round_end(1, inboxes[i].counts(), inboxes[i].transcript(1))))
    for env in ends:
        for ib in inboxes:
            ib.accept(env)
    assert all(ib.check_round_end(e) for ib in inboxes for e in ends)
    assert find_equivocation(inboxes[0].envelopes(), inboxes[2].envelopes()) is None
    assert parse_round_end(ends[0].body)[:2] == (1, (1, 1, 1))
    with pytest.raises(ValueError):   # counts beyond what this peer received: wait
        inboxes[0].transcript(1, (5, 0, 0))


def test_two_round_ends_for_one_round_are_evidence():
    signers, keys, inboxes = table()
    x = signers[2].sign(round_end(1, (0, 0, 0), bytes(32)))
    y = signers[2].sign(round_end(1, (0, 0, 0), b"\x01" * 32))
    inboxes[0].accept(x)
    with pytest.raises(Equivocation) as e:
        inboxes[0].accept(y)
    assert e.value.seat == 2 and e.value.evidence.check(MATCH, keys)
    assert inboxes[0].counts() == (0, 0, 1)


def test_a_reconnect_with_a_fresh_key_is_refused_and_the_journaled_signer_goes_on():
    signers, keys, inboxes = table()
    inboxes[0].accept(signers[1].sign(b"a"))
    fresh = Signer(MATCH, 1, next_seq=1)
    with pytest.raises(BadSignature):
        inboxes[0].accept(fresh.sign(b"b"))
    back = Signer.from_bytes(signers[1].to_bytes())
    assert back.public_key == keys[1] and inboxes[0].accept(back.sign(b"b"))


def test_match_code():
    signers, keys, _ = table(4)
    code = match_code(MATCH, keys)
    assert len(code) == 9 and code[4] == "-" and code == match_code(MATCH, list(keys))
    assert match_code(MATCH, keys[:3] + [Signer(MATCH, 3).public_key]) != code
    assert match_code(bytes(16), keys) != code


def test_inbox_journal_round_trip_and_damage():
    signers, keys, inboxes = table()
    for s in signers:
        inboxes[0].accept(s.sign(b"x"))
    data = inboxes[0].to_bytes()
    back = Inbox.from_bytes(data)
    assert back.counts() == inboxes[0].counts() and back.transcript(2) == inboxes[0].transcript(2)
    flipped = bytearray(data)
    flipped[-3] ^= 1
    for bad in (data[:-4], bytes(flipped)):
        with pytest.raises(ValueError):
            Inbox.from_bytes(bad)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=160))
def test_envelope_parse_refuses_any_bytes_with_a_value_error(data):
    try:
        env = Envelope.from_bytes(data)
    except ValueError:
        return
    assert env.to_bytes() == data


@settings(max_examples=60, deadline=None)
@given(body=st.binary(max_size=40), at=st.integers(0, 10_000), bit=st.integers(0, 7))
def test_any_flipped_bit_is_refused(body, at, bit):
    signers, keys, inboxes = table(2)
    raw = bytearray(signers[0].sign(body).to_bytes())
    raw[at % len(raw)] ^= 1 << bit
    try:
        env = Envelope.from_bytes(bytes(raw))
        inboxes[1].accept(env, via=1)
    except (ValueError, BadSignature, Refused):
        assert inboxes[1].counts() == (0, 0)
    else:
        raise AssertionError("a changed envelope was accepted")


@settings(max_examples=40, deadline=None)
@given(order=st.lists(st.integers(0, 11), min_size=12, max_size=30))
def test_any_delivery_order_ends_in_the_same_transcript(order):
    """Envelopes of three senders delivered in any order, with repeats: out-of-order ones are
    refused and delivered again later, repeats are ignored; the end state is the in-order one."""
    signers, keys, inboxes = table()
    envs = [signers[i % 3].sign(bytes([i])) for i in range(12)]
    ref = Inbox(MATCH, keys)
    for e in envs:
        ref.accept(e)
    inbox, waiting = inboxes[0], []
    for i in order + list(range(12)):
        waiting.append(envs[i])
        progress = True
        while progress:
            progress = False
            for e in list(waiting):
                try:
                    inbox.accept(e, via=1)
                except Refused:
                    continue
                waiting.remove(e)
                progress = True
    assert inbox.counts() == (4, 4, 4) and inbox.transcript(3) == ref.transcript(3)


def test_a_peer_that_crashed_after_signing_resends_the_same_bytes():
    """Ed25519 is deterministic: a peer back from a journal written before it signed (same seed,
    same sequence number) signs the same body into the same envelope, which the others ignore
    as a repeat; a different body there is equivocation."""
    signers, keys, inboxes = table(2)
    journal = signers[0].to_bytes()
    sent = signers[0].sign(b"pass 0")
    inboxes[1].accept(sent)
    back = Signer.from_bytes(journal)
    assert back.sign(b"pass 0") == sent and inboxes[1].accept(sent) is False
    with pytest.raises(Equivocation):
        inboxes[1].accept(Signer.from_bytes(journal).sign(b"pass 0, re-rolled"))
