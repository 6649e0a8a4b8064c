"""The bodies of the dealer-free Royals & Riots match (docs/mental-poker.md, "A Royals & Riots
round on the deck"): each is the ``body`` of one signed envelope (:mod:`net.signed`), in our
own canonical bytes (integers big-endian; never msgpack output). Pure.

=========  ===========================================================================================
kind       layout after the kind byte and the sender's seat byte (``seat`` is 0-based, as the layer's)
=========  ===========================================================================================
``01``     a deck pass, exactly :class:`net.deck.Pass` bytes (its own seat byte after the sid)
``20``     SHARES: ``n (2) || n x (len (1) || KeyShare bytes)`` -- keys owed to an owner or to all
``21``     ACTION: ``ply (2) || len (1) || text`` -- a decision with nothing hidden (``start``,
           ``steal``, ``execute``; docs/royals-record-format.md notation)
``22``     PLAY: ``ply (2) || shuffle no (1) || position (1) || card (1) || n (1) || shares`` -- the
           played card's position and the owner's keys that open it to all
``23``     KEEP: ``round (1) || k (1) || k deck positions (1 each)`` -- the positions kept in hand
``24``     COMMIT: ``purpose (4, signed) || commitment (32)`` -- a part of a joint coin (net.coin)
``25``     REVEAL: ``purpose (4, signed) || secret (32)``
``26``     OPEN: ``ply (2) || n (1) || shares`` -- the victim's keys opening the Thief's take to all
``27``     AUDIT: ``round (1) || n (1) || n x (len (2) || Reveal bytes)`` -- every secret of the round
``28``     LOG: ``n (4) || n x (len (4) || envelope wire bytes)`` -- every envelope held, after round
           ends disagree
``29``     VERDICT: ``kind (1) || named (1) || n (2) || n x (len (4) || envelope wire bytes)`` -- the
           sender ends the match: ``kind`` indexes ``net.match.END_KINDS`` (``finished`` 0 ...
           ``left`` 6), ``named`` the seat at fault (255: none), then the signed evidence
=========  ===========================================================================================

A round end is :func:`net.signed.round_end`'s body. ``shuffle no`` is 0 for the round's deck and
``1 + s`` for the draw pile of seat ``s``; every shuffle id is ``game id || round (2) || shuffle no (2)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from net.deck import DeckError
from net.match import END_KINDS

PASS, SHARES, ACTION, PLAY, KEEP, COMMIT, REVEAL, OPEN, AUDIT, LOG, VERDICT = (
    0x01, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29)
KIND_NAMES = {PASS: "pass", SHARES: "shares", ACTION: "action", PLAY: "play", KEEP: "keep", COMMIT: "commit",
              REVEAL: "reveal", OPEN: "open", AUDIT: "audit", LOG: "log", VERDICT: "verdict"}
MAX_EVIDENCE = 16       #: envelopes in one verdict
MAX_ENVELOPE = 60_000   #: the longest envelope (wire bytes) in one ``env`` frame: the part's
                        #: ``max_bin``, within the layer's 64 KiB frame


@dataclass(frozen=True)
class Body:
    """A decoded body: ``kind`` (above), ``seat`` (its sender), and its fields (unused ones 0/empty):
    ``ply``, ``round``, ``purpose``, ``no`` (shuffle no), ``pos``, ``card``, ``text`` (an action,
    or a verdict's kind), ``named`` (a verdict's seat at fault, -1 none), ``blob`` (a commitment or
    secret), ``items`` (shares, reveals or envelopes as bytes; a keep's positions as ints), ``raw``
    (a pass's bytes)."""

    kind: int
    seat: int
    ply: int = 0
    round: int = 0
    purpose: int = 0
    no: int = 0
    pos: int = 0
    card: int = 0
    text: str = ""
    named: int = -1
    blob: bytes = b""
    items: tuple[Any, ...] = ()
    raw: bytes = b""


def _items(items: Iterable[bytes], size: int) -> bytes:
    return b"".join(len(x).to_bytes(size, "big") + x for x in items)


def shares(seat: int, share_bytes: Iterable[bytes]) -> bytes:
    items = list(share_bytes)
    return bytes((SHARES, seat)) + len(items).to_bytes(2, "big") + _items(items, 1)


def action(seat: int, ply: int, text: str) -> bytes:
    t = text.encode()
    return bytes((ACTION, seat)) + ply.to_bytes(2, "big") + bytes((len(t),)) + t


def play(seat: int, ply: int, no: int, pos: int, card: int, share_bytes: Iterable[bytes]) -> bytes:
    items = list(share_bytes)
    return (bytes((PLAY, seat)) + ply.to_bytes(2, "big") + bytes((no, pos, card, len(items)))
            + _items(items, 1))


def keep(seat: int, round_no: int, positions: Iterable[int]) -> bytes:
    kept = sorted(positions)
    return bytes((KEEP, seat, round_no, len(kept))) + bytes(kept)


def commit(seat: int, purpose: int, c: bytes) -> bytes:
    return bytes((COMMIT, seat)) + purpose.to_bytes(4, "big", signed=True) + c


def reveal(seat: int, purpose: int, secret: bytes) -> bytes:
    return bytes((REVEAL, seat)) + purpose.to_bytes(4, "big", signed=True) + secret


def open_(seat: int, ply: int, share_bytes: Iterable[bytes]) -> bytes:
    items = list(share_bytes)
    return bytes((OPEN, seat)) + ply.to_bytes(2, "big") + bytes((len(items),)) + _items(items, 1)


def audit(seat: int, round_no: int, reveal_bytes: Iterable[bytes]) -> bytes:
    items = list(reveal_bytes)
    return bytes((AUDIT, seat, round_no, len(items))) + _items(items, 2)


def log(seat: int, envelopes: Iterable[bytes]) -> bytes:
    items = list(envelopes)
    return bytes((LOG, seat)) + len(items).to_bytes(4, "big") + _items(items, 4)


def verdict(seat: int, kind: str, named: int, envelopes: Iterable[bytes]) -> bytes:
    """A verdict body: ``kind`` one of ``net.match.END_KINDS``, ``named`` the seat at fault (-1:
    none), ``envelopes`` the wire bytes of the signed evidence (at most :data:`MAX_EVIDENCE`).
    Raises ValueError for another kind or too much evidence."""
    items = list(envelopes)
    if kind not in END_KINDS or len(items) > MAX_EVIDENCE:
        raise ValueError(f"not a verdict: {kind!r} with {len(items)} envelopes")
    return (bytes((VERDICT, seat, END_KINDS.index(kind), named & 0xFF)) + len(items).to_bytes(2, "big")
            + _items(items, 4))


class _R:
    def __init__(self, data: bytes, seat: int) -> None:
        self.d, self.at, self.seat = data, 0, seat

    def take(self, n: int) -> bytes:
        if n < 0 or self.at + n > len(self.d):
            raise DeckError(self.seat, "message too short")
        out = self.d[self.at:self.at + n]
        self.at += n
        return out

    def num(self, n: int, signed: bool = False) -> int:
        return int.from_bytes(self.take(n), "big", signed=signed)

    def items(self, count_size: int, len_size: int, limit: int) -> tuple[bytes, ...]:
        n = self.num(count_size)
        if n > limit:
            raise DeckError(self.seat, "too many items")
        return tuple(self.take(self.num(len_size)) for _ in range(n))

    def end(self) -> None:
        if self.at != len(self.d):
            raise DeckError(self.seat, "trailing bytes in message")


def decode(data: bytes, sender: int) -> Body:
    """The body in ``data``, which the envelope says ``sender`` signed. Raises
    :class:`net.deck.DeckError` naming ``sender`` for a malformed body or one naming another seat
    (a round end is told apart by the caller first)."""
    if type(data) is not bytes or len(data) < 2:
        raise DeckError(sender, "message too short")
    kind = data[0]
    if kind == PASS:
        return Body(PASS, sender, raw=data)   # its seat is checked by net.deck.decode
    r = _R(data, sender)
    r.take(1)
    seat = r.num(1)
    if seat != sender:
        raise DeckError(sender, "message claims another seat")
    if kind == SHARES:
        b = Body(SHARES, seat, items=r.items(2, 1, 4096))
    elif kind == ACTION:
        ply = r.num(2)
        try:
            text = r.take(r.num(1)).decode()
        except UnicodeDecodeError:
            raise DeckError(sender, "action text is not UTF-8") from None
        b = Body(ACTION, seat, ply=ply, text=text)
    elif kind == PLAY:
        ply, no, pos, card = r.num(2), r.num(1), r.num(1), r.num(1)
        b = Body(PLAY, seat, ply=ply, no=no, pos=pos, card=card, items=r.items(1, 1, 4))
    elif kind == KEEP:
        rnd, k = r.num(1), r.num(1)
        b = Body(KEEP, seat, round=rnd, items=tuple(r.take(k)))
    elif kind in (COMMIT, REVEAL):
        b = Body(kind, seat, purpose=r.num(4, signed=True), blob=r.take(32))
    elif kind == OPEN:
        ply = r.num(2)
        b = Body(OPEN, seat, ply=ply, items=r.items(1, 1, 4))
    elif kind == AUDIT:
        rnd = r.num(1)
        b = Body(AUDIT, seat, round=rnd, items=r.items(1, 2, 16))
    elif kind == LOG:
        b = Body(LOG, seat, items=r.items(4, 4, 1 << 16))
    elif kind == VERDICT:
        k, named = r.num(1), r.num(1)
        if k >= len(END_KINDS) or named != 255 and named >= 8:
            raise DeckError(sender, "a verdict of no known kind or seat")
        b = Body(VERDICT, seat, text=END_KINDS[k], named=-1 if named == 255 else named,
                 items=r.items(2, 4, MAX_EVIDENCE))
    else:
        raise DeckError(sender, f"unknown message kind {kind}")
    r.end()
    return b
