"""The group of the dealer-free deck: the prime-order subgroup of edwards25519, through
libsodium (PyNaCl's ``nacl.bindings``) only (docs/mental-poker.md, "Group and encodings").

- An **element** is 32 bytes, libsodium's canonical compressed edwards25519 point. A received
  element is accepted only if ``crypto_core_ed25519_is_valid_point`` holds: canonical
  encoding, on the curve, in the subgroup of prime order ``L``, not of small order (so never
  the identity). A small-order component would let a peer tag a card and follow it through
  the shuffle; validation removes that channel.
- A **scalar** is 32 bytes little-endian, an integer in ``1 .. L-1`` (canonical: ``< L``).
- A **card point** ``M_i`` (card ``i`` of a match) is
  ``crypto_core_ed25519_from_uniform(SHA-256(b"rose-king-lan card" || len(match id) (1) ||
  match id || i (2, big-endian)))``: Elligator 2 then cofactor clearing, so nobody knows the
  discrete logarithm of one card point to another.
- A **key commitment** is ``SHA-256(b"rose-king-lan key" || len(sid) (1) || sid || seat (1)
  || position (2, big-endian) || key (32))``.

The PyNaCl release we require (1.5) has no ristretto255 bindings, so we use edwards25519
and validate every element we did not compute ourselves.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Sequence

from nacl import bindings as _na

L = 2**252 + 27742317777372353535851937790883648493
"""The order of the prime-order subgroup of edwards25519."""

ELEMENT_BYTES = 32
SCALAR_BYTES = 32
CARD_LABEL = b"rose-king-lan card"
KEY_LABEL = b"rose-king-lan key"
MAX_CARDS = 1 << 16


class DeckError(ValueError):
    """A deck message or reveal broke the protocol. ``seat`` names the peer that sent it
    (the cheater: every check is on that peer's own output), ``reason`` says what was wrong
    (a stable English phrase, for logs and records; the window translates codes)."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"seat {seat}: {reason}")
        self.seat = seat
        self.reason = reason


class BrokenDeck(ValueError):
    """Opening a position gave an element that is neither a card nor a parent deck's element,
    with every key matching its commitment: some peer's shuffle or re-key step was false. Only
    the audit (every peer's reveal) can say whose; run it now."""


def check_element(data: object, seat: int, what: str) -> bytes:
    """``data`` as a valid element (32 bytes, see the module docstring) or :class:`DeckError`
    naming ``seat`` with ``what`` in the reason."""
    if type(data) is not bytes or len(data) != ELEMENT_BYTES:
        raise DeckError(seat, f"{what}: not a 32-byte element")
    if not _na.crypto_core_ed25519_is_valid_point(data):
        raise DeckError(seat, f"{what}: not a valid element of the prime-order group")
    return data


def check_scalar(data: object, seat: int, what: str) -> bytes:
    """``data`` as a canonical non-zero scalar (32 bytes little-endian, ``1 <= s < L``) or
    :class:`DeckError` naming ``seat``."""
    if type(data) is not bytes or len(data) != SCALAR_BYTES:
        raise DeckError(seat, f"{what}: not a 32-byte scalar")
    n = int.from_bytes(data, "little")
    if not 0 < n < L:
        raise DeckError(seat, f"{what}: scalar out of range 1..L-1")
    return data


def scalar_from_wide(wide: bytes) -> bytes:
    """A scalar from 64 uniform bytes (reduced mod ``L``; ValueError in the 2**-252 case
    that it is zero)."""
    if len(wide) != 64:
        raise ValueError("a wide scalar needs 64 bytes")
    s = _na.crypto_core_ed25519_scalar_reduce(wide)
    if not any(s):
        raise ValueError("zero scalar")
    return s


def mul(scalar: bytes, element: bytes) -> bytes:
    """``scalar * element`` (no clamping; both already checked)."""
    return _na.crypto_scalarmult_ed25519_noclamp(scalar, element)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    """``a * b mod L``."""
    return _na.crypto_core_ed25519_scalar_mul(a, b)


def scalar_inv(a: bytes) -> bytes:
    """``a ** -1 mod L`` (``a`` non-zero)."""
    return _na.crypto_core_ed25519_scalar_invert(a)


def scalar_product(scalars: Sequence[bytes]) -> bytes:
    """The product of ``scalars`` mod ``L`` (one, ``1``, for none)."""
    acc = (1).to_bytes(32, "little")
    for s in scalars:
        acc = scalar_mul(acc, s)
    return acc


def card_point(match_id: bytes, card: int) -> bytes:
    """``M_card`` of the match ``match_id`` (1..255 bytes), see the module docstring."""
    if not 0 < len(match_id) < 256 or not 0 <= card < MAX_CARDS:
        raise ValueError("match id must be 1..255 bytes and card 0..65535")
    r = hashlib.sha256(CARD_LABEL + bytes((len(match_id),)) + match_id + card.to_bytes(2, "big")).digest()
    return _na.crypto_core_ed25519_from_uniform(r)


def card_points(match_id: bytes, n: int) -> list[bytes]:
    """``[M_0, ..., M_{n-1}]`` of the match ``match_id``."""
    return [card_point(match_id, i) for i in range(n)]


def key_commitment(sid: bytes, seat: int, position: int, key: bytes) -> bytes:
    """The 32-byte commitment of ``seat`` to its per-position ``key`` of shuffle ``sid``."""
    return hashlib.sha256(KEY_LABEL + bytes((len(sid),)) + sid + bytes((seat,))
                          + position.to_bytes(2, "big") + key).digest()


def commitment_ok(commitment: bytes, sid: bytes, seat: int, position: int, key: bytes) -> bool:
    """Whether ``key`` opens ``commitment`` (constant time)."""
    return hmac.compare_digest(commitment, key_commitment(sid, seat, position, key))
