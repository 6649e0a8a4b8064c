"""The round-end audit of the dealer-free deck (docs/mental-poker.md, "The audit").

When a round ends (or an opening gave no card, :class:`~net.deck.group.BrokenDeck`), every
peer sends its :class:`~net.deck.shuffle.Reveal` of each shuffle of the round, and every peer
replays every step from the public passes: a shuffler's pass must be its revealed scalar times
the previous deck in its revealed permutation, a keyer's revealed keys must open its
commitments and its re-key pass must be those keys times its scalar's inverse times the
previous deck. Each step is checked on its author's own output and reveal alone, so the first
step that fails names its author, whatever the others did: a substituted card, a duplicated or
dropped one (the permutation is then no permutation, or the pass is not reproduced), a
mis-keyed position. A peer that sends no reveal is named by :class:`Withheld`.

The result is the card at every position of every shuffle, which the game then checks every
dealt, drawn and played card against (:func:`check_claims`).
"""

from __future__ import annotations

from typing import Iterable, Mapping

from .group import DeckError, check_scalar, commitment_ok, mul
from .shuffle import SHUFFLE, Reveal, Shuffle, rekey_elements


class Withheld(DeckError):
    """``seat`` owes a reveal for the audit and did not send it (the game's forfeit rule)."""

    def __init__(self, seat: int, sid: bytes) -> None:
        super().__init__(seat, f"withheld its reveal of shuffle {sid.hex()}")


def audit(shuffle: Shuffle, reveals: Mapping[int, Reveal]) -> tuple[int, ...]:
    """The origin (card number, or parent position for a sub-deck) at each position of the
    final deck of ``shuffle``, replayed from ``reveals`` (seat -> its reveal). Raises
    :class:`Withheld` or :class:`DeckError` naming the author of the first false step;
    ValueError if the shuffle is not final. Cost: one scalar multiplication per card per step
    (a 36-card 4-peer shuffle: 288)."""
    if shuffle.final is None:
        raise ValueError("the shuffle is not final")
    n, sid = shuffle.n, shuffle.sid
    where = list(range(n))
    scalars: dict[int, bytes] = {}
    for t, (kind, seat) in enumerate(shuffle.steps):
        r = reveals.get(seat)
        if r is None:
            raise Withheld(seat, sid)
        if r.sid != sid or r.seat != seat:
            raise DeckError(seat, "reveal for another shuffle or seat")
        deck, out = shuffle.deck(t), shuffle.passes[t].elements
        if kind == SHUFFLE:
            a = check_scalar(r.scalar, seat, "revealed deck-wide scalar")
            if sorted(r.perm) != list(range(n)):
                raise DeckError(seat, "revealed permutation is not a permutation (duplicated or dropped card)")
            for j in range(n):
                if mul(a, deck[r.perm[j]]) != out[j]:
                    raise DeckError(seat, f"shuffle pass position {j} does not follow from its revealed secrets (substituted card)")
            where = [where[r.perm[j]] for j in range(n)]
            scalars[seat] = a
            continue
        if seat not in shuffle.shufflers and (r.scalar or r.perm):
            raise DeckError(seat, "reveals a shuffle secret of a shuffle it did not shuffle")
        if len(r.keys) != n:
            raise DeckError(seat, f"reveals {len(r.keys)} keys for {n} positions")
        commitments = shuffle.passes[t].commitments
        for j, k in enumerate(r.keys):
            check_scalar(k, seat, f"revealed key for position {j}")
            if not commitment_ok(commitments[j], sid, seat, j, k):
                raise DeckError(seat, f"revealed key for position {j} does not open its commitment")
        expected = rekey_elements(deck, scalars.get(seat), r.keys)
        for j in range(n):
            if expected[j] != out[j]:
                raise DeckError(seat, f"re-key pass position {j} does not follow from its revealed keys (mis-keyed card)")
    for (seat, pos), k in shuffle.shares.items():
        if reveals[seat].keys[pos] != k:
            raise DeckError(seat, f"sent a key for position {pos} other than the one it reveals")
    return tuple(shuffle.origins[i] for i in where)


def audit_round(shuffles: Iterable[Shuffle], reveals: Mapping[bytes, Mapping[int, Reveal]]) -> dict[tuple[bytes, int], int]:
    """The card number at every position of every shuffle of a round (sub-decks through their
    parents), ``reveals`` by sid then seat. Parents must come before their sub-decks. Raises as
    :func:`audit`."""
    cards: dict[tuple[bytes, int], int] = {}
    for sh in shuffles:
        origins = audit(sh, reveals.get(sh.sid, {}))
        for pos, o in enumerate(origins):
            cards[(sh.sid, pos)] = o if sh.parent is None else cards[(sh.parent, o)]
    return cards


def check_claims(cards: Mapping[tuple[bytes, int], int], claims: Iterable[tuple[int, bytes, int, int]]) -> None:
    """Check each claim ``(seat, sid, position, card)`` (a card a seat said it dealt, drew or
    played from that position) against the audited ``cards``; DeckError naming the claimant of
    the first false one."""
    for seat, sid, pos, card in claims:
        true = cards.get((sid, pos))
        if true != card:
            raise DeckError(seat, f"claimed card {card} at position {pos} of {sid.hex()}, the deck holds {true}")
