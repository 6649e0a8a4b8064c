"""The host's relay in the dealer-free Royals & Riots match, and a joiner's checks of it
(docs/protocol.md, "A host's relay is provable"; "Resume and catch-up" for the resend). Pure.

- :class:`Relayed`: the host's countersignature on an envelope it relayed (``rel{e, i, s}`` on
  the wire, ``"rk-relay" ‖ i ‖ s ‖ e`` in a verdict's evidence).
- :class:`HostRelay`: the host's side. Its log of everything it sent or relayed (``wire``: the
  relay numbers are positions in it, the same for every joiner) and, per joiner, which of those
  it sent (``sent``), so a joiner back from a drop gets exactly what it lacks (:meth:`resend`).
- :class:`RelayChecks`: a joiner's side. Every countersigned relay it received, by digest and
  by number (``relays``, ``relay_at``), and the checks that name the host with its own
  countersignatures as evidence: an altered or damaged envelope, a seat's own envelope relayed
  back to it, one envelope under two numbers or two envelopes under one number (with those a
  peer's verdict shows).

Also the wire messages of the match (``fkey``, ``env``, ``rel``) and their journal form.
"""

from __future__ import annotations

import hashlib
from typing import Any, Sequence

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from net.framing import Check, binary, blob, integer
from net.match import Output, Send
from net.signed import HEADER_BYTES, SIG_BYTES, Envelope, Signer
from .messages import MAX_ENVELOPE
from .shared import Fault

RELAY_LABEL = b"rose-king-lan relay\x00"
RELAY_TAG = b"rk-relay"                #: the first bytes of a relay attestation in a verdict's evidence


class Relayed:
    """The host's countersignature on an envelope it relayed (docs/protocol.md, "A host's relay
    is provable"): ``raw``, the bytes it passed on (another seat's envelope, unaltered if the
    host is honest), ``index``, its own relay sequence number (the position in the host's
    relay log, the same for every joiner), ``signature``: Ed25519 with the host's match key over
    ``"rose-king-lan relay" 00 ‖ match id (16) ‖ index (4) ‖ SHA-256(raw)``. A joiner can show
    any seat exactly what the host sent it: an altered envelope under a valid countersignature
    is a verdict against the host that every peer checks. In a verdict's evidence it is
    ``"rk-relay" ‖ index (4) ‖ signature (64) ‖ raw``; ``sender`` (0) and ``seq`` (``index``)
    place it in the canonical order."""

    sender = 0

    def __init__(self, match_id: bytes, raw: bytes, index: int, signature: bytes) -> None:
        self.match_id, self.raw, self.index, self.signature = match_id, raw, index, signature

    @property
    def seq(self) -> int:
        return self.index

    @staticmethod
    def signed_bytes(match_id: bytes, raw: bytes, index: int) -> bytes:
        return RELAY_LABEL + match_id + index.to_bytes(4, "big") + hashlib.sha256(raw).digest()

    def verifies(self, key: bytes) -> bool:
        """Whether the host's ``key`` signed this relay."""
        try:
            VerifyKey(key).verify(self.signed_bytes(self.match_id, self.raw, self.index), self.signature)
            return True
        except (BadSignatureError, ValueError, TypeError):
            return False

    def to_bytes(self) -> bytes:
        return RELAY_TAG + self.index.to_bytes(4, "big") + self.signature + self.raw

    @classmethod
    def from_bytes(cls, match_id: bytes, data: bytes) -> "Relayed":
        """Back from :meth:`to_bytes`; ValueError when ``data`` is not one."""
        if data[:8] != RELAY_TAG or len(data) < 8 + 4 + SIG_BYTES:
            raise ValueError("not a relay attestation")
        return cls(match_id, data[76:], int.from_bytes(data[8:12], "big"), data[12:76])

    def message(self) -> dict[str, Any]:
        """The wire message carrying it (``rel{e, i, s}``)."""
        return {"t": "rel", "e": self.raw, "i": self.index, "s": self.signature}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Relayed) and self.to_bytes() == other.to_bytes()

    def __hash__(self) -> int:
        return hash(self.to_bytes())


class HostRelay:
    """The host's relay log: ``wire``, every message it sent or relayed, in order (a relay's
    number is its index here); ``sent``: joiner -> the indices of ``wire`` sent to it. ``signer``
    countersigns (the host's match key; None on a joiner, which relays nothing)."""

    def __init__(self, match_id: bytes, signer: Signer | None, joiners: Sequence[int]) -> None:
        self.match_id, self.signer, self.joiners = match_id, signer, tuple(joiners)
        self.wire: list[dict[str, Any]] = []
        self.sent: dict[int, list[int]] = {j: [] for j in self.joiners}

    def relay(self, msg: dict[str, Any], exclude: int | None) -> list[Output]:
        """Log ``msg`` and send it to every joiner but ``exclude``; a joiner's envelope
        (``env`` from ``exclude``) goes countersigned, as ``rel`` under its log index."""
        i = len(self.wire)
        if msg["t"] == "env" and exclude is not None:
            assert self.signer is not None
            sig = self.signer._key.sign(Relayed.signed_bytes(self.match_id, msg["e"], i)).signature
            msg = Relayed(self.match_id, msg["e"], i, sig).message()
        self.wire.append(msg)
        out: list[Output] = []
        for j in self.joiners:
            if j != exclude:
                self.sent[j].append(i)
                out.append(Send(j, msg))
        return out

    def resend(self, seat: int, have: int) -> list[Output]:
        """What joiner ``seat``, holding ``have`` of the messages sent to it, lacks: the same
        messages again, under the same relay numbers. A joiner that holds more than this log knows
        it sent (a host journal lost in a crash) gets everything again (what it holds is a repeat)."""
        sent = self.sent.get(seat, [])
        if have > len(sent):
            have = 0
        return [Send(seat, self.wire[i]) for i in sent[have:]]

    def payload(self) -> dict[str, Any]:
        return {"wire": [wire_json(m) for m in self.wire], "sent": {str(k): v for k, v in self.sent.items()}}

    def restore(self, p: dict[str, Any]) -> None:
        for m in p.get("wire", []):
            self.wire.append(wire_from_json(m))
        self.sent = {int(k): list(v) for k, v in p.get("sent", {}).items()}


class RelayChecks:
    """A joiner's record of the host's countersignatures: ``relays`` (SHA-256 of each relayed
    envelope -> its relay) and ``relay_at`` (relay number -> the relay received under it), and
    the checks that name the host (``illegal`` with the attestations as evidence)."""

    def __init__(self, match_id: bytes, seat: int, n: int) -> None:
        self.match_id, self.seat, self.n = match_id, seat, n
        self.relays: dict[bytes, Relayed] = {}
        self.relay_at: dict[int, Relayed] = {}

    def unwrap(self, msg: dict[str, Any], keys: dict[int, bytes]) -> Envelope:
        """Check the host's countersigned relay ``rel{e, i, s}`` and return its envelope: a relay
        the host did not sign is the host's ``illegal`` with no evidence (it came on the host's
        own connection); an envelope under a valid countersignature that does not parse or verify,
        or this seat's own, is the host's ``illegal`` with the attestation as its evidence, which
        every peer checks."""
        r = Relayed(self.match_id, msg["e"], msg["i"], msg["s"])
        if not r.verifies(keys[0]):
            raise Fault("illegal", 0, f"the host's relay {r.index} carries no valid countersignature")
        self.check(r, [])
        self.relays[hashlib.sha256(r.raw).digest()] = r
        self.relay_at[r.index] = r
        try:
            env = Envelope.from_bytes(r.raw)
        except ValueError:
            raise Fault("illegal", 0, f"the host relayed a damaged envelope (relay {r.index})", [r]) from None
        if env.sender == 0 or not 0 <= env.sender < self.n or not env.verifies(keys[env.sender]):
            raise Fault("illegal", 0, f"the host relayed seat {env.sender}'s message {env.seq} altered "
                                      f"(relay {r.index})", [r])
        if env.sender == self.seat:   # an honest host never relays a seat's own envelope back to it
            raise Fault("illegal", 0, f"the host relayed this seat's own message {env.seq} back to it as "
                                      f"relay {r.index}", [r])
        return env

    def check(self, r: Relayed, shown: Sequence[Relayed]) -> None:
        """Two countersignatures of the host that cannot both be honest: one envelope relayed under
        two numbers, or two envelopes under one number (with those this seat received, and the
        others ``shown`` with it): the host's ``illegal``, the two attestations its evidence."""
        digest = hashlib.sha256(r.raw).digest()
        for old in [*(x for x in shown if x is not r), self.relays.get(digest), self.relay_at.get(r.index)]:
            if old is None or old == r:
                continue
            if old.raw == r.raw and old.index != r.index:
                raise Fault("illegal", 0, f"the host relayed one envelope as relay {old.index} and as relay "
                                          f"{r.index}", [old, r])
            if old.index == r.index and old.raw != r.raw:
                raise Fault("illegal", 0, f"the host relayed two envelopes as relay {r.index}", [old, r])

    def shown(self, verdict: Envelope, item: bytes, keys: dict[int, bytes], shown: dict[bytes, Relayed]) -> bytes:
        """An ``item`` of the evidence of seat ``verdict.sender``'s verdict as an envelope's wire
        bytes: itself, or for a relay attestation (the others of that verdict so far in ``shown``,
        digest -> relay, which this adds to) the relayed envelope's bytes. A forged countersignature names the verdict's signer; a valid
        one over an envelope its sender never signed names the host, as do two countersignatures
        that cannot both be honest (:meth:`check`)."""
        if item[:8] != RELAY_TAG:
            return item
        r = Relayed.from_bytes(self.match_id, item)
        if not r.verifies(keys[0]):
            raise Fault("illegal", verdict.sender, "a verdict with a forged relay countersignature", [verdict])
        self.check(r, list(shown.values()))
        shown[hashlib.sha256(r.raw).digest()] = r
        try:
            inner = Envelope.from_bytes(r.raw)
            good = 0 < inner.sender < self.n and inner.verifies(keys[inner.sender])
        except ValueError:
            good = False
        if not good:   # the host countersigned what its sender never signed: seen here
            raise Fault("illegal", 0, f"the host relayed an altered envelope (relay {r.index}, "
                                      f"shown by seat {verdict.sender})", [r])
        return r.raw


# --------------------------------------------------------------------------- the wire messages
def env_msg(raw: bytes) -> dict[str, Any]:
    """The wire message carrying one envelope's wire bytes ``raw`` (``env{e}``: one binary of at
    most :data:`MAX_ENVELOPE` bytes). Raises ValueError for a longer one (a bug: never sent)."""
    if len(raw) > MAX_ENVELOPE:
        raise ValueError(f"an envelope of {len(raw)} bytes exceeds {MAX_ENVELOPE}")
    return {"t": "env", "e": raw}


def wire_json(m: dict[str, Any]) -> dict[str, Any]:
    """A wire message in the journal's JSON form (binaries in hex)."""
    if m["t"] == "fkey":
        return {"t": "fkey", "s": m["s"], "k": m["k"].hex()}
    if m["t"] == "rel":
        return {"t": "rel", "e": m["e"].hex(), "i": m["i"], "s": m["s"].hex()}
    return {"t": "env", "e": m["e"].hex()}


def wire_from_json(m: dict[str, Any]) -> dict[str, Any]:
    """Back from :func:`wire_json`."""
    if m["t"] == "fkey":
        return {"t": "fkey", "s": m["s"], "k": bytes.fromhex(m["k"])}
    if m["t"] == "rel":
        return {"t": "rel", "e": bytes.fromhex(m["e"]), "i": m["i"], "s": bytes.fromhex(m["s"])}
    return env_msg(bytes.fromhex(m["e"]))


SCHEMAS: dict[str, dict[str, Check]] = {
    "fkey": {"s": integer(0, 3), "k": binary(32)},
    "env": {"e": blob(HEADER_BYTES + SIG_BYTES, MAX_ENVELOPE)},
    "rel": {"e": blob(1, MAX_ENVELOPE), "i": integer(0, (1 << 31) - 1), "s": binary(64)},
}
