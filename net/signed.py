"""Signed messages with per-sender sequence numbers, round transcripts and equivocation
evidence (docs/mental-poker.md, "Signed messages"). Pure: no sockets, no threads.

Every peer makes an Ed25519 signing key per match (PyNaCl ``SigningKey``, its 32-byte seed
from ``secrets``) and announces the public key in its hello; the keys of a match are pinned
from then on, and :func:`match_code` turns them into a short code players can compare.

An **envelope** carries one message ``body`` (the game's own canonical bytes, never msgpack
output) from ``sender`` with sequence number ``seq`` (0, 1, 2 ... per sender per match):

- signed bytes = ``b"rose-king-lan signed" || 00 || match id (16) || sender (1) || seq (4) ||
  len(body) (4) || body`` (integers big-endian);
- wire bytes   = ``match id (16) || sender (1) || seq (4) || len(body) (4) || body ||
  signature (64)``.

An :class:`Inbox` accepts each sender's envelopes strictly in sequence: a bad signature is
refused naming the peer it came through (a relay cannot alter or invent another peer's
message), a gap or a message from the past is refused (:class:`Refused`), an exact repeat is
ignored, and a *different* envelope for a (sender, seq) already accepted is
:class:`Equivocation` with both signed envelopes as :class:`Evidence` anyone can check.

Each sender's accepted envelopes form a **chain**: ``head_0 = 32 zero bytes``,
``head_{k+1} = SHA-256(head_k || SHA-256(wire bytes of envelope k))``. At a round's end every
peer signs a :func:`round_end` body: the round, the number of envelopes it counts from each
seat, and the **transcript hash** ``SHA-256(b"rose-king-lan transcript" || 00 || match id ||
round (2) || for each seat: count (4) || head_count)``. A peer that receives another's round
end recomputes the hash over the same counts (:meth:`Inbox.check_round_end`); a difference
means the two saw different messages, which comparing the two logs turns into evidence
(:func:`find_equivocation`). Two different signed round ends of one sender for one round are
evidence by themselves.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass
from typing import Iterable, Sequence

import msgpack
from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

SIGN_LABEL = b"rose-king-lan signed\x00"
TRANSCRIPT_LABEL = b"rose-king-lan transcript\x00"
CODE_LABEL = b"rose-king-lan code\x00"
ROUND_END_TAG = b"round-end\x00"
MATCH_ID_BYTES = 16
SEED_BYTES = 32
KEY_BYTES = 32
SIG_BYTES = 64
HEADER_BYTES = MATCH_ID_BYTES + 1 + 4 + 4
MAX_BODY = 1 << 20
ZERO_HEAD = bytes(32)


class SignedError(ValueError):
    """A refused envelope; ``seat`` is the peer named (the sender, or for a bad signature the
    peer it came through), ``reason`` says why."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"seat {seat}: {reason}")
        self.seat = seat
        self.reason = reason


class BadSignature(SignedError):
    """The signature does not verify with the claimed sender's pinned key: whoever delivered
    the envelope altered or invented it (or the sender lost its key: a re-roll)."""


class Refused(SignedError):
    """Not applied: another match, an unknown sender, or a sequence gap (a reorder)."""


@dataclass(frozen=True)
class Envelope:
    """One signed message (see the module docstring for the byte layouts)."""

    match_id: bytes
    sender: int
    seq: int
    body: bytes
    signature: bytes

    def signed_bytes(self) -> bytes:
        return SIGN_LABEL + self._header() + self.body

    def _header(self) -> bytes:
        return (self.match_id + bytes((self.sender,)) + self.seq.to_bytes(4, "big")
                + len(self.body).to_bytes(4, "big"))

    def to_bytes(self) -> bytes:
        return self._header() + self.body + self.signature

    @classmethod
    def from_bytes(cls, data: bytes) -> "Envelope":
        """Parse wire bytes; ValueError for a bad length (the signature is not checked here)."""
        if type(data) is not bytes or len(data) < HEADER_BYTES + SIG_BYTES:
            raise ValueError("envelope too short")
        n = int.from_bytes(data[21:25], "big")
        if n > MAX_BODY or len(data) != HEADER_BYTES + n + SIG_BYTES:
            raise ValueError("envelope length does not match its body length")
        return cls(data[:16], data[16], int.from_bytes(data[17:21], "big"),
                   data[HEADER_BYTES:HEADER_BYTES + n], data[HEADER_BYTES + n:])

    def verifies(self, key: bytes) -> bool:
        """Whether the signature verifies with the 32-byte public ``key``."""
        try:
            VerifyKey(key).verify(self.signed_bytes(), self.signature)
            return True
        except (BadSignatureError, ValueError, TypeError):
            return False

    def digest(self) -> bytes:
        return hashlib.sha256(self.to_bytes()).digest()


class Signer:
    """This peer's signing key and next sequence number for one match.

    ``seed`` (32 bytes) is drawn from ``secrets`` unless given back from the journal; journal
    :meth:`to_bytes` before sending what :meth:`sign` returns, so a restarted peer never signs
    a second, different message with a used sequence number (that would be equivocation)."""

    def __init__(self, match_id: bytes, seat: int, seed: bytes | None = None, next_seq: int = 0) -> None:
        if len(match_id) != MATCH_ID_BYTES or not 0 <= seat < 256 or next_seq < 0:
            raise ValueError("a signer needs a 16-byte match id, a seat 0..255, a sequence >= 0")
        self.match_id, self.seat, self.next_seq = match_id, seat, next_seq
        self._seed = secrets.token_bytes(SEED_BYTES) if seed is None else seed
        self._key = SigningKey(self._seed)

    @property
    def public_key(self) -> bytes:
        """The 32-byte Ed25519 public key to announce in the hello."""
        return bytes(self._key.verify_key)

    def sign(self, body: bytes) -> Envelope:
        """The envelope of ``body`` with the next sequence number (which is then used up)."""
        if len(body) > MAX_BODY:
            raise ValueError("body too large")
        env = Envelope(self.match_id, self.seat, self.next_seq, body, b"")
        sig = self._key.sign(env.signed_bytes()).signature
        self.next_seq += 1
        return Envelope(self.match_id, self.seat, env.seq, body, sig)

    def to_bytes(self) -> bytes:
        """Journal bytes: match id, seat, seed, next sequence number."""
        return self.match_id + bytes((self.seat,)) + self._seed + self.next_seq.to_bytes(4, "big")

    @classmethod
    def from_bytes(cls, data: bytes) -> "Signer":
        """Back from :meth:`to_bytes`; ValueError for a wrong length."""
        if len(data) != MATCH_ID_BYTES + 1 + SEED_BYTES + 4:
            raise ValueError("bad signer journal")
        return cls(data[:16], data[16], data[17:49], int.from_bytes(data[49:], "big"))


def public_key(seed: bytes) -> bytes:
    """The 32-byte Ed25519 public key of a 32-byte signing ``seed`` (what a hello announces).
    Raises ValueError for another length."""
    if type(seed) is not bytes or len(seed) != SEED_BYTES:
        raise ValueError("a signing seed is 32 bytes")
    return bytes(SigningKey(seed).verify_key)


@dataclass(frozen=True)
class Evidence:
    """Proof that ``sender`` signed two conflicting envelopes: the same sequence number with
    different bytes, or two different round ends for the same round. Anyone holding the
    match's pinned keys checks it with :meth:`check`."""

    sender: int
    first: Envelope
    second: Envelope

    def check(self, match_id: bytes, keys: Sequence[bytes]) -> bool:
        """True when both envelopes are ``sender``'s, of ``match_id``, verify, and conflict."""
        a, b = self.first, self.second
        if a == b or {a.sender, b.sender} != {self.sender} or {a.match_id, b.match_id} != {match_id}:
            return False
        if not 0 <= self.sender < len(keys) or not (a.verifies(keys[self.sender]) and b.verifies(keys[self.sender])):
            return False
        if a.seq == b.seq:
            return a.to_bytes() != b.to_bytes()
        ra, rb = parse_round_end(a.body), parse_round_end(b.body)
        return ra is not None and rb is not None and ra[0] == rb[0] and ra != rb

    def to_bytes(self) -> bytes:
        x, y = self.first.to_bytes(), self.second.to_bytes()
        return bytes((self.sender,)) + len(x).to_bytes(4, "big") + x + y

    @classmethod
    def from_bytes(cls, data: bytes) -> "Evidence":
        """Back from :meth:`to_bytes`; ValueError if malformed."""
        if len(data) < 5:
            raise ValueError("evidence too short")
        n = int.from_bytes(data[1:5], "big")
        return cls(data[0], Envelope.from_bytes(data[5:5 + n]), Envelope.from_bytes(data[5 + n:]))


class Equivocation(SignedError):
    """``evidence.sender`` signed two conflicting envelopes; ``evidence`` proves it."""

    def __init__(self, evidence: Evidence) -> None:
        super().__init__(evidence.sender, "signed two conflicting messages")
        self.evidence = evidence


def round_end(round_no: int, counts: Sequence[int], transcript: bytes) -> bytes:
    """The body of a round-end message: ``b"round-end" || 00 || round (2) || seats (1) || count
    (4) per seat || transcript hash (32)``."""
    return (ROUND_END_TAG + round_no.to_bytes(2, "big") + bytes((len(counts),))
            + b"".join(c.to_bytes(4, "big") for c in counts) + transcript)


def parse_round_end(body: bytes) -> tuple[int, tuple[int, ...], bytes] | None:
    """``(round, counts, transcript hash)`` of a round-end body, None if ``body`` is not one."""
    t = len(ROUND_END_TAG)
    if not body.startswith(ROUND_END_TAG) or len(body) < t + 3:
        return None
    seats = body[t + 2]
    if len(body) != t + 3 + 4 * seats + 32:
        return None
    counts = tuple(int.from_bytes(body[t + 3 + 4 * i:t + 7 + 4 * i], "big") for i in range(seats))
    return int.from_bytes(body[t:t + 2], "big"), counts, body[-32:]


def transcript_hash(match_id: bytes, round_no: int, counts: Sequence[int], heads: Sequence[bytes]) -> bytes:
    """The transcript hash of ``round_no`` over the first ``counts[s]`` envelopes of each seat
    ``s``, whose chain heads there are ``heads[s]`` (module docstring)."""
    h = hashlib.sha256(TRANSCRIPT_LABEL + match_id + round_no.to_bytes(2, "big"))
    for c, head in zip(counts, heads, strict=True):
        h.update(c.to_bytes(4, "big") + head)
    return h.digest()


def match_code(match_id: bytes, keys: Sequence[bytes]) -> str:
    """A short code from every seat's public key in seat order, to compare aloud:
    the first 5 bytes of ``SHA-256(b"rose-king-lan code" || 00 || match id || keys)`` in RFC 4648
    base32, as ``XXXX-XXXX`` (40 bits: a host that replaces keys must find a collision)."""
    code = base64.b32encode(hashlib.sha256(CODE_LABEL + match_id + b"".join(keys)).digest()[:5]).decode()
    return f"{code[:4]}-{code[4:]}"


class Inbox:
    """Every sender's accepted envelopes of one match, in sequence, at one peer (this peer's
    own included: pass them to :meth:`accept` as they are sent). ``keys``: each seat's pinned
    public key, in seat order."""

    def __init__(self, match_id: bytes, keys: Sequence[bytes]) -> None:
        if len(match_id) != MATCH_ID_BYTES or any(len(k) != KEY_BYTES for k in keys):
            raise ValueError("an inbox needs a 16-byte match id and 32-byte keys")
        self.match_id, self.keys = match_id, tuple(keys)
        self.log: list[list[Envelope]] = [[] for _ in keys]
        self.heads: list[list[bytes]] = [[ZERO_HEAD] for _ in keys]
        self.round_ends: dict[tuple[int, int], Envelope] = {}

    def accept(self, env: Envelope, via: int | None = None) -> bool:
        """Accept ``env`` (delivered through seat ``via``; None: from its sender directly).
        True if new; False for an exact repeat (not applied again). Raises :class:`BadSignature`
        naming ``via`` (or the sender), :class:`Refused` naming the sender for another match, an
        unknown seat or a gap in its sequence, :class:`Equivocation` for a second different
        envelope with a used sequence number or a second different round end for one round.
        Nothing changes on an error."""
        s = env.sender
        if not 0 <= s < len(self.keys):
            raise Refused(s if via is None else via, "unknown sender")
        if not env.verifies(self.keys[s]):
            raise BadSignature(s if via is None else via, f"bad signature on seat {s}'s message {env.seq}")
        if env.match_id != self.match_id:
            raise Refused(s, "message of another match (a replay)")
        log = self.log[s]
        if env.seq < len(log):
            if log[env.seq] == env:
                return False
            raise Equivocation(Evidence(s, log[env.seq], env))
        if env.seq > len(log):
            raise Refused(s, f"message {env.seq} before message {len(log)} (reordered or withheld)")
        re = parse_round_end(env.body)
        if re is not None:
            old = self.round_ends.get((s, re[0]))
            if old is not None and old.body != env.body:
                raise Equivocation(Evidence(s, old, env))
            self.round_ends.setdefault((s, re[0]), env)
        log.append(env)
        self.heads[s].append(hashlib.sha256(self.heads[s][-1] + env.digest()).digest())
        return True

    def counts(self) -> tuple[int, ...]:
        """How many envelopes of each seat are accepted."""
        return tuple(len(x) for x in self.log)

    def transcript(self, round_no: int, counts: Sequence[int] | None = None) -> bytes:
        """The transcript hash of ``round_no`` over ``counts`` (default: all accepted so far).
        ValueError if a count exceeds what was accepted (wait for the missing messages)."""
        counts = self.counts() if counts is None else tuple(counts)
        if len(counts) != len(self.keys) or any(not 0 <= c < len(h) for c, h in zip(counts, self.heads)):
            raise ValueError("transcript over messages not received")
        return transcript_hash(self.match_id, round_no, counts, [h[c] for c, h in zip(counts, self.heads)])

    def check_round_end(self, env: Envelope) -> bool:
        """Whether another seat's accepted round end ``env`` states the transcript this peer
        saw over the same counts. False means the two saw different messages: exchange the
        logs (:func:`find_equivocation`). ValueError if ``env`` is no round end, or while
        messages it counts are missing here."""
        re = parse_round_end(env.body)
        if re is None:
            raise ValueError("not a round end")
        round_no, counts, digest = re
        return self.transcript(round_no, counts) == digest

    def envelopes(self) -> list[Envelope]:
        """Every accepted envelope, by seat then sequence (to send for a log comparison)."""
        return [e for log in self.log for e in log]

    def to_bytes(self) -> bytes:
        """Journal bytes: the match id, the keys and every accepted envelope."""
        data: bytes = msgpack.packb([self.match_id, list(self.keys), [e.to_bytes() for e in self.envelopes()]],
                                    use_bin_type=True)
        return data

    @classmethod
    def from_bytes(cls, data: bytes) -> "Inbox":
        """Back from :meth:`to_bytes`, every envelope checked again; ValueError if damaged."""
        try:
            match_id, keys, envs = msgpack.unpackb(data, raw=False, strict_map_key=True)
            inbox = cls(match_id, keys)
            for raw in envs:
                inbox.accept(Envelope.from_bytes(raw))
        except (TypeError, SignedError, msgpack.UnpackException, msgpack.ExtraData) as e:
            raise ValueError(f"damaged inbox journal: {e}") from None
        return inbox


def find_equivocation(a: Iterable[Envelope], b: Iterable[Envelope]) -> Evidence | None:
    """Evidence from two peers' logs (each already accepted, so signatures verify): the first
    (sender, seq) at which they hold different envelopes, or the first sender with two different
    round ends for one round; None if the logs agree where both have messages."""
    seen: dict[tuple[int, int], Envelope] = {}
    ends: dict[tuple[int, int], Envelope] = {}
    for env in list(a) + list(b):
        old = seen.setdefault((env.sender, env.seq), env)
        if old != env:
            return Evidence(env.sender, old, env)
        re = parse_round_end(env.body)
        if re is not None:
            prev = ends.setdefault((env.sender, re[0]), env)
            if prev.body != env.body:
                return Evidence(env.sender, prev, env)
    return None
