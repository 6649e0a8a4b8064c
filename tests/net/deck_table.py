"""An in-memory table of :class:`net.deck.DeckPeer` objects for the deck tests: every message
goes as bytes to every other peer (as the host's relay would), nothing else is shared."""

from __future__ import annotations

from typing import Callable, Sequence

from net.deck import DeckPeer, Shuffle, card_points, subdeck

MATCH = bytes(range(16))


def sid_of(round_no: int, no: int) -> bytes:
    return MATCH + round_no.to_bytes(2, "big") + no.to_bytes(2, "big")


class Table:
    """``n_seats`` peers (or the given ones) and a broadcast of bytes between them."""

    def __init__(self, n_seats: int = 0, peers: Sequence[DeckPeer] | None = None) -> None:
        self.peers = list(peers) if peers is not None else [DeckPeer(s) for s in range(n_seats)]
        self.sent: list[tuple[int, bytes]] = []

    def broadcast(self, sender: int, data: bytes) -> None:
        self.sent.append((sender, data))
        for p in self.peers:
            if p.seat != sender:
                p.receive(data, sender)

    def start(self, make: Callable[[], Shuffle]) -> bytes:
        """Every peer adds its own copy of the same shuffle; returns its sid."""
        sid = b""
        for p in self.peers:
            sid = p.add(make()).sid
        return sid

    def run(self, sid: bytes) -> None:
        """Every pass in turn, made by its peer and sent to all."""
        while (nxt := self.peers[0].shuffles[sid].expect()) is not None:
            msg = self.peers[nxt[1]].step(sid)
            assert msg is not None
            self.broadcast(nxt[1], msg.to_bytes())

    def deck(self, n_cards: int, round_no: int = 1) -> bytes:
        """A round's deck of ``n_cards`` shuffled by all seats, keyed by all."""
        seats = [p.seat for p in self.peers]
        pts = card_points(MATCH, n_cards)
        sid = self.start(lambda: Shuffle(sid_of(round_no, 0), pts, range(n_cards), seats, seats))
        self.run(sid)
        return sid

    def give(self, sid: bytes, position: int, owner: int | None) -> int | None:
        """Every keyer but ``owner`` (None: every keyer) sends its key for ``position``; the
        owner (None: every peer) opens it. Returns the owner's card (None for an open to all)."""
        for p in self.peers:
            if p.seat != owner and p.seat in p.shuffles[sid].keyers:
                self.broadcast(p.seat, p.share(sid, position).to_bytes())
        if owner is None:
            parent = self.peers[0].locate(sid, position)
            if parent is not None:   # a sub-deck card: then its parent position, to all
                self.give(parent[0], parent[1], None)
            cards = {p.open(sid, position) for p in self.peers}
            assert len(cards) == 1
            return None
        return self.peers[owner].open(sid, position)

    def pile(self, parent: bytes, owner: int, positions: Sequence[int], no: int) -> bytes:
        """``owner``'s draw pile from ``positions`` of ``parent``, re-shuffled by the others and
        keyed by everyone."""
        seats = [p.seat for p in self.peers]
        others = [s for s in seats if s != owner]
        sid = self.start(lambda: subdeck(self.peers[0].shuffles[parent], parent[:18] + no.to_bytes(2, "big"),
                                         positions, others, seats))
        self.run(sid)
        return sid

    def reveals(self, sid: bytes) -> dict:
        return {p.seat: p.reveal(sid) for p in self.peers if p.seat in p.shuffles[sid].keyers}
