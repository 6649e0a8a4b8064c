"""A joint coin choosing a position (the Thief's take: one of the victim's hand positions),
by the project's commit-reveal coin (:mod:`net.coin`, docs/protocol.md "The joint coin"): every
seat commits to a 32-byte secret, then all reveal; no seat can steer the outcome alone."""

from __future__ import annotations

from typing import Sequence

from net.coin import coin_digest, coin_rng, commitment


def joint_choice(game_id: bytes, purpose: int, secrets_by_seat: Sequence[bytes], n: int) -> int:
    """The index ``0..n-1`` chosen by the coin ``purpose`` of game ``game_id`` (16 bytes) from
    every seat's revealed secret in seat order: ``coin_rng(coin_digest(...)).randbelow(n)``.
    Check each secret against its commitment first (:func:`secret_ok`). ValueError for n < 1."""
    if n < 1:
        raise ValueError("nothing to choose from")
    return coin_rng(coin_digest(game_id, purpose, secrets_by_seat)).randbelow(n)


def secret_ok(game_id: bytes, purpose: int, seat: int, secret: bytes, commit: bytes) -> bool:
    """Whether ``seat``'s revealed ``secret`` opens its commitment ``commit`` for that coin."""
    return len(secret) == 32 and commitment(game_id, purpose, seat, secret) == commit
