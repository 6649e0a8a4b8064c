"""One peer at the dealer-free table: its secrets, its passes, its keys and what it has
opened (docs/mental-poker.md, "A peer's secrets", "Opening", "Journal").

A :class:`DeckPeer` holds one 32-byte **seed** drawn from ``secrets`` (or given back from its
journal) and derives every secret of a shuffle from it with keyed BLAKE2b (``key`` = the seed,
``person`` = a label, ``data`` = the shuffle id and position):

- deck-wide scalar ``a``: ``reduce(BLAKE2b-512(key=seed, person=b"rk-deck-scalar", sid))``;
- per-position key ``b_j``: ``reduce(BLAKE2b-512(key=seed, person=b"rk-deck-key", sid || j (2)))``;
- permutation: positions sorted by ``BLAKE2b-256(key=seed, person=b"rk-deck-perm", sid || j (2))``.

So a restarted peer whose journal kept the seed makes exactly the same passes, commitments and
keys: nothing it sent can change, and a peer that resumes with a fresh seed (to re-roll a deal)
contradicts its own signed pass or commitments and is named (:meth:`Shuffle.accept`,
:meth:`Shuffle.accept_share`). The derived values are revealed at the audit; the seed never is.
How a peer draws its secrets is its own affair: other peers check only what it sends.

The peer is pure: the caller moves its messages (signed, :mod:`net.signed`) and decides who
is owed which key (the game's rules). It learns a card only from a complete set of keys, and
never holds a complete set for a position that was not opened to it (the others' shares of a
position dealt to another seat are public; that seat's own key is not).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Sequence

import msgpack

from .group import DeckError, key_commitment, scalar_from_wide
from .shuffle import (SHUFFLE, KeyShare, Pass, Reveal, Shuffle, decode,
                      rekey_elements, shuffle_pass)

SEED_BYTES = 32
JOURNAL_FORMAT = "rose-king-deck-peer"
JOURNAL_VERSION = 1
MAX_JOURNAL_BYTES = 1 << 22


def _prf(seed: bytes, person: bytes, data: bytes, size: int) -> bytes:
    return hashlib.blake2b(data, digest_size=size, key=seed, person=person).digest()


class DeckPeer:
    """The deck part of seat ``seat``'s state (see the module docstring).

    ``shuffles`` (sid -> :class:`Shuffle`) is the public state, the same at every peer;
    ``known`` ((sid, position) -> card number) is what this peer has opened."""

    def __init__(self, seat: int, seed: bytes | None = None) -> None:
        if seed is None:
            seed = secrets.token_bytes(SEED_BYTES)
        if type(seed) is not bytes or len(seed) != SEED_BYTES or not 0 <= seat < 256:
            raise ValueError("a deck peer needs a seat 0..255 and a 32-byte seed")
        self.seat = seat
        self._seed = seed
        self.shuffles: dict[bytes, Shuffle] = {}
        self.known: dict[tuple[bytes, int], int] = {}

    # -- secrets (derived, never stored apart from the seed) ---------------------------------

    def scalar(self, sid: bytes) -> bytes:
        """This peer's deck-wide scalar of shuffle ``sid``."""
        return scalar_from_wide(_prf(self._seed, b"rk-deck-scalar", sid, 64))

    def perm(self, sid: bytes, n: int) -> tuple[int, ...]:
        """This peer's permutation of ``0..n-1`` for shuffle ``sid``."""
        return tuple(sorted(range(n), key=lambda j: _prf(self._seed, b"rk-deck-perm", sid + j.to_bytes(2, "big"), 32)))

    def key(self, sid: bytes, position: int) -> bytes:
        """This peer's key for ``position`` of shuffle ``sid``."""
        return scalar_from_wide(_prf(self._seed, b"rk-deck-key", sid + position.to_bytes(2, "big"), 64))

    # -- the shuffle ---------------------------------------------------------------------------

    def add(self, shuffle: Shuffle) -> Shuffle:
        """Start following ``shuffle`` (same set-up at every peer; ValueError if its sid is
        taken by a different one, or its parent is unknown)."""
        old = self.shuffles.get(shuffle.sid)
        if old is not None:
            if (old.inputs, old.origins, old.shufflers, old.keyers, old.parent) != \
                    (shuffle.inputs, shuffle.origins, shuffle.shufflers, shuffle.keyers, shuffle.parent):
                raise ValueError("another shuffle with this id")
            return old
        if shuffle.parent is not None and shuffle.parent not in self.shuffles:
            raise ValueError("unknown parent shuffle")
        self.shuffles[shuffle.sid] = shuffle
        return shuffle

    def step(self, sid: bytes) -> Pass | None:
        """This peer's pass for shuffle ``sid`` if it is its turn (applied here too, to send
        to every other peer), else None."""
        sh = self.shuffles[sid]
        nxt = sh.expect()
        if nxt is None or nxt[1] != self.seat:
            return None
        kind, t = nxt[0], len(sh.passes)
        deck = sh.deck(t)
        if kind == SHUFFLE:
            p = shuffle_pass(sid, t, self.seat, deck, self.scalar(sid), self.perm(sid, sh.n))
        else:
            keys = [self.key(sid, j) for j in range(sh.n)]
            scalar = self.scalar(sid) if self.seat in sh.shufflers else None
            p = Pass(sid, t, self.seat, rekey_elements(deck, scalar, keys),
                     tuple(key_commitment(sid, self.seat, j, k) for j, k in enumerate(keys)))
        sh.accept(p)
        return p

    def receive(self, data: bytes, sender: int) -> Pass | KeyShare | Reveal:
        """Apply a pass or key share that ``sender`` sent (its canonical bytes); a reveal is
        returned for the audit without being applied. Raises :class:`DeckError` naming
        ``sender``; nothing changes on an error."""
        msg = decode(data, sender)
        sh = self.shuffles.get(msg.sid)
        if sh is None:
            raise DeckError(sender, "message for an unknown shuffle")
        if isinstance(msg, Pass):
            sh.accept(msg)
        elif isinstance(msg, KeyShare):
            sh.accept_share(msg)
        return msg

    # -- opening -------------------------------------------------------------------------------

    def share(self, sid: bytes, position: int) -> KeyShare:
        """This peer's key for ``position`` (to send when the rules say it is owed: to open the
        position to its owner or to all). ValueError if this peer is no keyer of it."""
        sh = self.shuffles[sid]
        if self.seat not in sh.keyers or not 0 <= position < sh.n or sh.final is None:
            raise ValueError("no key of ours for that position")
        return KeyShare(sid, self.seat, position, self.key(sid, position))

    def can_open(self, sid: bytes, position: int) -> bool:
        """Whether this peer holds every key :meth:`open` needs (through parents too)."""
        if (sid, position) in self.known:
            return True
        sh = self.shuffles[sid]
        if sh.final is None or sh.keys_known(position, self._own(sh, position)) is None:
            return False
        parent = self.locate(sid, position)
        return parent is None or self.can_open(*parent)

    def _own(self, sh: Shuffle, position: int) -> dict[int, bytes]:
        return {self.seat: self.key(sh.sid, position)} if self.seat in sh.keyers else {}

    def _keys(self, sh: Shuffle, position: int) -> dict[int, bytes]:
        keys = sh.keys_known(position, self._own(sh, position)) if sh.final is not None else None
        if keys is None:
            raise KeyError(f"keys missing for position {position} of {sh.sid.hex()}")
        return keys

    def open(self, sid: bytes, position: int) -> int:
        """The card number at ``position`` of shuffle ``sid``, from this peer's own key and the
        shares received (for a sub-deck, through its parent positions). Raises KeyError while a
        share is missing (nothing is learnt), :class:`BrokenDeck` when the keys open to no card
        (run the audit)."""
        if (sid, position) in self.known:
            return self.known[(sid, position)]
        sh = self.shuffles[sid]
        if sh.parent is not None:
            parent = self.locate(sid, position)
            if parent is None:
                raise KeyError((sid, position))  # (a sub-deck position always has a parent)
            card = self.open(*parent)
        else:
            card = sh.origins[sh.peel(position, self._keys(sh, position))]
        self.known[(sid, position)] = card
        return card

    def locate(self, sid: bytes, position: int) -> tuple[bytes, int] | None:
        """The parent ``(sid, position)`` that ``position`` of sub-deck ``sid`` stands for, once
        every keyer's key of it is here; None for a round's deck. To open a sub-deck card to
        all, its keys are sent first, then every keyer of the parent sends its key for the
        parent position this names. Raises KeyError while a key is missing."""
        sh = self.shuffles[sid]
        if sh.parent is None:
            return None
        return sh.parent, sh.origins[sh.peel(position, self._keys(sh, position))]

    def reveal(self, sid: bytes) -> Reveal:
        """This peer's secrets of shuffle ``sid`` for the round-end audit (after it, every card
        of that shuffle is known to all)."""
        sh = self.shuffles[sid]
        shuffled = self.seat in sh.shufflers
        keys = tuple(self.key(sid, j) for j in range(sh.n)) if self.seat in sh.keyers else ()
        return Reveal(sid, self.seat, self.scalar(sid) if shuffled else b"",
                      self.perm(sid, sh.n) if shuffled else (), keys)

    # -- journal -------------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The whole state (seed, every shuffle's set-up, passes and shares, what was opened)
        as bytes for this peer's private journal. Write it before sending a pass or share."""
        shuffles = [[sh.sid, list(sh.inputs), list(sh.origins), list(sh.shufflers), list(sh.keyers),
                     sh.parent, [p.to_bytes() for p in sh.passes],
                     [[s, pos, k] for (s, pos), k in sorted(sh.shares.items())]]
                    for sh in self.shuffles.values()]
        known = [[sid, pos, card] for (sid, pos), card in sorted(self.known.items())]
        data: bytes = msgpack.packb([JOURNAL_FORMAT, JOURNAL_VERSION, self.seat, self._seed, shuffles, known],
                                    use_bin_type=True)
        return data

    @classmethod
    def from_bytes(cls, data: bytes) -> "DeckPeer":
        """A peer back from :meth:`to_bytes`; every pass and share is checked again. Raises
        ValueError (DeckError included) for a damaged or foreign journal."""
        if len(data) > MAX_JOURNAL_BYTES:
            raise ValueError("deck journal too large")
        try:
            fmt, version, seat, seed, shuffles, known = msgpack.unpackb(
                data, raw=False, strict_map_key=True)
            if (fmt, version) != (JOURNAL_FORMAT, JOURNAL_VERSION):
                raise ValueError("not a deck journal of this version")
            peer = cls(seat, seed)
            for sid, inputs, origins, shufflers, keyers, parent, passes, shares in shuffles:
                sh = peer.add(Shuffle(sid, inputs, origins, shufflers, keyers, parent))
                for i, raw in enumerate(passes):
                    msg = decode(raw, sh.steps[i][1])
                    if not isinstance(msg, Pass):
                        raise ValueError("journal holds a non-pass as a pass")
                    sh.accept(msg)
                for s, pos, k in shares:
                    sh.accept_share(KeyShare(sid, s, pos, k))
            for sid, pos, card in known:
                if sid not in peer.shuffles or type(pos) is not int or type(card) is not int:
                    raise ValueError("journal holds an opened card of no shuffle")
                peer.known[(sid, pos)] = card
        except (TypeError, KeyError, IndexError, msgpack.UnpackException, msgpack.ExtraData) as e:
            raise ValueError(f"damaged deck journal: {e}") from None
        return peer


def subdeck(parent: Shuffle, sid: bytes, positions: Sequence[int], shufflers: Sequence[int],
            keyers: Sequence[int]) -> Shuffle:
    """A re-shuffle of ``positions`` of the final deck of ``parent`` (ascending) by
    ``shufflers`` and keyed by ``keyers`` (docs/mental-poker.md, "Sub-decks"): for a player's
    draw pile, the shufflers are the other players and the keyers everyone, the owner included,
    so the owner knows the pile's cards but not their order and nobody else can link a drawn
    position back to the parent deck."""
    final = parent.final
    if final is None:
        raise ValueError("the parent shuffle is not final")
    pos = sorted(positions)
    if len(set(pos)) != len(pos) or not all(0 <= p < parent.n for p in pos):
        raise ValueError("positions must be distinct positions of the parent")
    return Shuffle(sid, [final[p] for p in pos], pos, shufflers, keyers, parent.sid)

