"""Commit-reveal coins and seat proofs, shared by every game's LAN protocol (docs/protocol.md,
"The joint coin" and "Seats").

All hashes are SHA-256 over our own byte layouts (never over msgpack output, which is not
canonical). Integers are big-endian; ``purpose`` is a 4-byte signed integer (-1 for a
game's set-up coin, else the ply of the draw); ``seat`` is one byte (0 the host, 1.. the
joiners in seat order).

- commitment  = SHA-256(b"rose-king-lan commit" || game id (16) || purpose (4) || seat (1) || secret (32))
- coin digest = SHA-256(b"rose-king-lan coin"   || game id (16) || purpose (4) || secret of seat 0 || secret of seat 1 ...)
- seat proof  = HMAC-SHA256(key = the seat's resume secret (32),
                            msg = b"rose-king-lan seat" || game id (16) || seat (1) || the verifier's nonce (16))
- game id     = first 16 bytes of SHA-256(b"rose-king-lan game" || host nonce (16) || joiner nonce (16))

The chance outcome of a coin is drawn from :class:`game.rng.Rng` seeded with the first 8
bytes of the digest read as a big-endian unsigned integer: every peer derives the same
card, deal or colour from the same secrets, and no peer can steer it alone.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Sequence

from game.rng import Rng

COMMIT_LABEL = b"rose-king-lan commit"
COIN_LABEL = b"rose-king-lan coin"
SEAT_LABEL = b"rose-king-lan seat"
GAME_LABEL = b"rose-king-lan game"
SECRET_BYTES = 32
NONCE_BYTES = 16
GAME_ID_BYTES = 16


def _purpose(purpose: int) -> bytes:
    return purpose.to_bytes(4, "big", signed=True)


def commitment(game_id: bytes, purpose: int, seat: int, secret: bytes) -> bytes:
    """The 32-byte commitment of ``seat`` (0..255) to its 32-byte ``secret`` for coin
    ``purpose`` of game ``game_id`` (16 bytes). Binding the game, the coin and the seat
    makes a commitment useless anywhere else (an echoed or replayed one cannot be opened)."""
    return hashlib.sha256(COMMIT_LABEL + game_id + _purpose(purpose) + bytes((seat,)) + secret).digest()


def coin_digest(game_id: bytes, purpose: int, secrets_by_seat: Sequence[bytes]) -> bytes:
    """The joint coin's 32-byte digest from every seat's revealed secret, in seat order."""
    return hashlib.sha256(COIN_LABEL + game_id + _purpose(purpose) + b"".join(secrets_by_seat)).digest()


def coin_rng(digest: bytes) -> Rng:
    """The project's PCG32 generator seeded with the first 8 bytes of ``digest`` (big-endian)."""
    return Rng(int.from_bytes(digest[:8], "big"))


def seat_proof(key: bytes, game_id: bytes, seat: int, nonce: bytes) -> bytes:
    """Proof (32 bytes) that the sender holds ``seat``'s resume secret ``key``, bound to the
    verifier's fresh connection ``nonce`` so a recorded proof cannot be replayed."""
    return hmac.new(key, SEAT_LABEL + game_id + bytes((seat,)) + nonce, hashlib.sha256).digest()


def proof_ok(key: bytes, game_id: bytes, seat: int, nonce: bytes, proof: bytes) -> bool:
    """Constant-time check of a :func:`seat_proof`."""
    return hmac.compare_digest(seat_proof(key, game_id, seat, nonce), proof)


def game_id_from(nonces_by_seat: Sequence[bytes]) -> bytes:
    """A new game's 16-byte id from the first connection's hello nonces, in seat order."""
    return hashlib.sha256(GAME_LABEL + b"".join(nonces_by_seat)).digest()[:GAME_ID_BYTES]


@dataclass
class CoinEntry:
    """One coin as this peer's journal keeps it (two seats: ours and the peer's).

    ``my_secret``/``my_commit`` are written to the journal before the commitment is sent,
    ``their_commit`` before our reveal is sent: from then on the coin is fixed. ``revealed_at``
    (monotonic seconds, not persisted) starts the forfeit clock of a withheld reveal.
    """

    purpose: int
    my_secret: bytes
    my_commit: bytes
    their_commit: bytes | None = None
    their_secret: bytes | None = None
    revealed_at: float | None = None

    @property
    def done(self) -> bool:
        return self.their_secret is not None

    def to_json(self) -> dict[str, Any]:
        return {"for": self.purpose, "my_secret": self.my_secret.hex(), "my_commit": self.my_commit.hex(),
                "their_commit": None if self.their_commit is None else self.their_commit.hex(),
                "their_secret": None if self.their_secret is None else self.their_secret.hex()}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "CoinEntry":
        """Raises ValueError/TypeError/KeyError for a malformed entry."""
        def b(v: str | None, n: int) -> bytes | None:
            if v is None:
                return None
            x = bytes.fromhex(v)
            if len(x) != n:
                raise ValueError("bad length")
            return x
        purpose = d["for"]
        if type(purpose) is not int or not -1 <= purpose <= 100_000:
            raise ValueError("bad coin purpose")
        my_secret, my_commit = b(d["my_secret"], 32), b(d["my_commit"], 32)
        if my_secret is None or my_commit is None:
            raise ValueError("a coin entry needs our secret and commitment")
        return cls(purpose, my_secret, my_commit, b(d.get("their_commit"), 32), b(d.get("their_secret"), 32))
