"""One joint shuffle as every peer sees it: its messages and its public state machine
(docs/mental-poker.md, "The shuffle", "Messages").

A shuffle ``sid`` starts from ``n`` distinct **inputs** (the card points ``M_i`` for a
round's deck; for a re-shuffled sub-deck, the final elements of some positions of a parent
shuffle) and runs its **steps** in a fixed order, each a :class:`Pass` from one peer:

1. a *shuffle pass* by each shuffler ``s`` in order: with a deck-wide secret scalar ``a_s``
   and a secret permutation ``perm_s`` of ``0..n-1``, ``out[j] = a_s * in[perm_s[j]]``;
2. a *re-key pass* by each keyer ``q`` in order (every shuffler is a keyer): with a fresh
   secret key ``b_{q,j}`` per position, ``out[j] = (b_{q,j} * a_q^-1) * in[j]`` (a keyer that
   did not shuffle uses ``a_q = 1``), sent with the commitments ``key_commitment(sid, q, j,
   b_{q,j})`` of all its keys.

The last re-key pass is the **final deck** ``F``: ``F[j] = (prod_q b_{q,j}) * inputs[sigma(j)]``
with ``sigma`` the composed permutation nobody knows. A position is opened by the keys of all
keyers (:class:`KeyShare`, each checked against its commitment when received), then
``(prod_q b_{q,j})^-1 * F[j]`` is one of the inputs.

:class:`Shuffle` is pure (no I/O, no secrets): it checks each pass and share when received and
raises :class:`DeckError` naming the sender (wrong turn, a dropped or added card, an invalid or
duplicated element, a second different pass for a step, a key that does not open its
commitment). What a pass cannot show (a substituted card, a false re-key) the audit
(:mod:`net.deck.audit`) finds from the reveals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from .group import (MAX_CARDS, BrokenDeck, DeckError, ELEMENT_BYTES, check_element, check_scalar,
                    commitment_ok, mul, scalar_inv, scalar_product)

SHUFFLE, REKEY = "shuffle", "rekey"
KIND_PASS, KIND_SHARE, KIND_REVEAL = 1, 2, 3
MAX_SID = 64
MAX_SEATS = 8


class _Reader:
    """Strict reader of our message layouts; any fault is a DeckError naming ``seat``."""

    def __init__(self, data: bytes, seat: int) -> None:
        if type(data) is not bytes:
            raise DeckError(seat, "message is not bytes")
        self.data, self.at, self.seat = data, 0, seat

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise DeckError(self.seat, "message too short")
        out = self.data[self.at:self.at + n]
        self.at += n
        return out

    def u8(self) -> int:
        return self.take(1)[0]

    def u16(self) -> int:
        return int.from_bytes(self.take(2), "big")

    def sid(self) -> bytes:
        n = self.u8()
        if not 0 < n <= MAX_SID:
            raise DeckError(self.seat, "bad shuffle id length")
        return self.take(n)

    def blobs(self, size: int) -> tuple[bytes, ...]:
        n = self.u16()
        return tuple(self.take(size) for _ in range(n))

    def end(self) -> None:
        if self.at != len(self.data):
            raise DeckError(self.seat, "trailing bytes in message")


def _head(kind: int, sid: bytes, seat: int) -> bytes:
    return bytes((kind, len(sid))) + sid + bytes((seat,))


def _blobs(items: Sequence[bytes]) -> bytes:
    return len(items).to_bytes(2, "big") + b"".join(items)


@dataclass(frozen=True)
class Pass:
    """One step of shuffle ``sid``: ``step`` (0-based index in :meth:`Shuffle.steps`), the
    ``seat`` that made it, the ``elements`` (n x 32 bytes) and, for a re-key pass, the
    ``commitments`` (n x 32 bytes; empty for a shuffle pass).

    Bytes: ``01 | len(sid) | sid | seat | step | n (2) | elements | m (2) | commitments``."""

    sid: bytes
    step: int
    seat: int
    elements: tuple[bytes, ...]
    commitments: tuple[bytes, ...] = ()

    def to_bytes(self) -> bytes:
        return (_head(KIND_PASS, self.sid, self.seat) + bytes((self.step,))
                + _blobs(self.elements) + _blobs(self.commitments))


@dataclass(frozen=True)
class KeyShare:
    """``seat``'s key for ``position`` of shuffle ``sid``.
    Bytes: ``02 | len(sid) | sid | seat | position (2) | key (32)``."""

    sid: bytes
    seat: int
    position: int
    key: bytes

    def to_bytes(self) -> bytes:
        return _head(KIND_SHARE, self.sid, self.seat) + self.position.to_bytes(2, "big") + self.key


@dataclass(frozen=True)
class Reveal:
    """``seat``'s secrets of shuffle ``sid``, sent for the audit: its deck-wide ``scalar`` and
    ``perm`` (``b""`` and ``()`` for a keyer that did not shuffle) and its per-position ``keys``.
    Bytes: ``03 | len(sid) | sid | seat | has scalar (1) | scalar (32 if so) | n (2) | perm
    (n x 2) | n (2) | keys (n x 32)``."""

    sid: bytes
    seat: int
    scalar: bytes
    perm: tuple[int, ...]
    keys: tuple[bytes, ...]

    def to_bytes(self) -> bytes:
        head = _head(KIND_REVEAL, self.sid, self.seat)
        scalar = b"\x01" + self.scalar if self.scalar else b"\x00"
        perm = _blobs([p.to_bytes(2, "big") for p in self.perm])
        return head + scalar + perm + _blobs(self.keys)


def decode(data: bytes, sender: int) -> Pass | KeyShare | Reveal:
    """The message in ``data`` (one of the layouts above), which the signed envelope says
    ``sender`` sent. Raises :class:`DeckError` naming ``sender`` for a malformed message or
    one that claims another seat. Elements and scalars are checked where they are used
    (:meth:`Shuffle.accept`, :meth:`Shuffle.accept_share`, the audit)."""
    r = _Reader(data, sender)
    kind, sid, seat = r.u8(), r.sid(), r.u8()
    if seat != sender:
        raise DeckError(sender, "message claims another seat")
    msg: Pass | KeyShare | Reveal
    if kind == KIND_PASS:
        step = r.u8()
        msg = Pass(sid, step, seat, r.blobs(ELEMENT_BYTES), r.blobs(32))
    elif kind == KIND_SHARE:
        msg = KeyShare(sid, seat, r.u16(), r.take(32))
    elif kind == KIND_REVEAL:
        has = r.u8()
        if has not in (0, 1):
            raise DeckError(sender, "bad reveal flag")
        scalar = r.take(32) if has else b""
        perm = tuple(int.from_bytes(p, "big") for p in r.blobs(2))
        msg = Reveal(sid, seat, scalar, perm, r.blobs(32))
    else:
        raise DeckError(sender, "unknown deck message kind")
    r.end()
    return msg


class Shuffle:
    """The public state of one joint shuffle (see the module docstring).

    ``inputs``: n distinct elements; ``origins``: what each input stands for (card numbers
    for a round's deck; for a sub-deck the parent's positions); ``shufflers`` and ``keyers``:
    seats in step order (every shuffler must be a keyer); ``parent``: the sid of the parent
    shuffle of a sub-deck, else None. Raises ValueError for an inconsistent set-up."""

    def __init__(self, sid: bytes, inputs: Sequence[bytes], origins: Sequence[int],
                 shufflers: Sequence[int], keyers: Sequence[int], parent: bytes | None = None) -> None:
        if not 0 < len(sid) <= MAX_SID or len(inputs) > MAX_CARDS:
            raise ValueError("shuffle id must be 1..64 bytes, at most 65536 inputs")
        if len(set(inputs)) != len(inputs) or len(origins) != len(inputs) or not inputs:
            raise ValueError("inputs must be distinct, non-empty, one origin each")
        if len(set(shufflers)) != len(shufflers) or len(set(keyers)) != len(keyers):
            raise ValueError("a seat may shuffle and key at most once")
        if not shufflers or not set(shufflers) <= set(keyers) or len(keyers) > MAX_SEATS:
            raise ValueError("every shuffler must be a keyer; at least one shuffler")
        self.sid, self.parent = sid, parent
        self.inputs, self.origins = tuple(inputs), tuple(origins)
        self.shufflers, self.keyers = tuple(shufflers), tuple(keyers)
        self.steps: tuple[tuple[str, int], ...] = (tuple((SHUFFLE, s) for s in shufflers)
                                                   + tuple((REKEY, q) for q in keyers))
        self.passes: list[Pass] = []
        self.shares: dict[tuple[int, int], bytes] = {}
        self._index = {e: i for i, e in enumerate(self.inputs)}

    @property
    def n(self) -> int:
        return len(self.inputs)

    def deck(self, step: int) -> tuple[bytes, ...]:
        """The deck a step starts from (``step`` 0: the inputs)."""
        return self.inputs if step == 0 else self.passes[step - 1].elements

    @property
    def final(self) -> tuple[bytes, ...] | None:
        """The final deck ``F``, or None while passes are missing."""
        return self.passes[-1].elements if len(self.passes) == len(self.steps) else None

    def expect(self) -> tuple[str, int] | None:
        """``(kind, seat)`` of the next pass, None when the shuffle is done."""
        return self.steps[len(self.passes)] if len(self.passes) < len(self.steps) else None

    def commitments(self, seat: int) -> tuple[bytes, ...]:
        """``seat``'s key commitments (KeyError before its re-key pass)."""
        for (kind, s), p in zip(self.steps, self.passes):
            if kind == REKEY and s == seat:
                return p.commitments
        raise KeyError(seat)

    def accept(self, p: Pass) -> bool:
        """Check and apply pass ``p``; False for an exact repeat of an accepted pass (a resent
        message). Raises :class:`DeckError` naming ``p.seat``: not its turn, a different pass
        for a step it already made (a re-roll), a dropped or added card, an invalid or
        repeated element, missing or extra commitments. Nothing changes on an error."""
        if p.sid != self.sid:
            raise DeckError(p.seat, "pass for another shuffle")
        if not 0 <= p.step < len(self.steps) or self.steps[p.step][1] != p.seat:
            raise DeckError(p.seat, f"pass for step {p.step} out of turn: not its step")
        if p.step < len(self.passes):
            if self.passes[p.step] == p:
                return False
            raise DeckError(p.seat, f"a second, different pass for step {p.step}")
        if p.step > len(self.passes):
            raise DeckError(p.seat, f"pass for step {p.step} out of turn: step {len(self.passes)} comes first")
        kind = self.steps[p.step][0]
        if len(p.elements) != self.n:
            raise DeckError(p.seat, f"pass has {len(p.elements)} elements, the deck has {self.n} (dropped or added card)")
        for j, e in enumerate(p.elements):
            check_element(e, p.seat, f"element {j}")
        if len(set(p.elements)) != self.n:
            raise DeckError(p.seat, "pass repeats an element (duplicated card)")
        if kind == SHUFFLE and p.commitments:
            raise DeckError(p.seat, "a shuffle pass carries no commitments")
        if kind == REKEY and (len(p.commitments) != self.n or any(len(c) != 32 for c in p.commitments)):
            raise DeckError(p.seat, "a re-key pass needs one 32-byte commitment per position")
        self.passes.append(p)
        return True

    def accept_share(self, share: KeyShare) -> bool:
        """Check and keep a key share; False for a repeat. Raises :class:`DeckError` naming
        ``share.seat`` if the shuffle is not final, the seat is not a keyer, the position is out
        of range, or the key is not a scalar opening the seat's commitment for that position."""
        seat, pos = share.seat, share.position
        if share.sid != self.sid or self.final is None:
            raise DeckError(seat, "key for a shuffle that is not final here")
        if seat not in self.keyers or not 0 <= pos < self.n:
            raise DeckError(seat, f"key for position {pos} it holds no key of")
        check_scalar(share.key, seat, f"key for position {pos}")
        if not commitment_ok(self.commitments(seat)[pos], self.sid, seat, pos, share.key):
            raise DeckError(seat, f"key for position {pos} does not open its commitment (wrong key)")
        if (seat, pos) in self.shares:
            return False
        self.shares[(seat, pos)] = share.key
        return True

    def keys_known(self, position: int, extra: Mapping[int, bytes] | None = None) -> dict[int, bytes] | None:
        """Every keyer's key for ``position`` from the shares received plus ``extra`` (a peer's
        own key), or None while one is missing."""
        out, extra = {}, extra or {}
        for q in self.keyers:
            k = extra.get(q, self.shares.get((q, position)))
            if k is None:
                return None
            out[q] = k
        return out

    def peel(self, position: int, keys: Mapping[int, bytes]) -> int:
        """The input index at ``position`` of the final deck, given every keyer's key for it.
        Raises :class:`BrokenDeck` when the unmasked element is no input."""
        final = self.final
        if final is None:
            raise ValueError("shuffle not final")
        total = scalar_product([keys[q] for q in self.keyers])
        e = mul(scalar_inv(total), final[position])
        try:
            return self._index[e]
        except KeyError:
            raise BrokenDeck(f"position {position} of shuffle {self.sid.hex()} opens to no input") from None


def shuffle_pass(sid: bytes, step: int, seat: int, deck: Sequence[bytes], scalar: bytes,
                 perm: Sequence[int]) -> Pass:
    """The shuffle pass ``out[j] = scalar * deck[perm[j]]`` (docs/mental-poker.md, step 1)."""
    return Pass(sid, step, seat, tuple(mul(scalar, deck[perm[j]]) for j in range(len(deck))))


def rekey_elements(deck: Sequence[bytes], scalar: bytes | None, keys: Sequence[bytes]) -> tuple[bytes, ...]:
    """``out[j] = (keys[j] * scalar^-1) * deck[j]`` (docs/mental-poker.md, step 2; ``scalar``
    None for a keyer that did not shuffle)."""
    inv = scalar_inv(scalar) if scalar is not None else None
    return tuple(mul(k if inv is None else scalar_product((k, inv)), e) for k, e in zip(keys, deck))
