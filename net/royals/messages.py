"""Royals & Riots LAN messages (docs/protocol.md, "Royals & Riots"): the schemas, the joint coin of
2-4 peers, what each joiner is told (:func:`messages_for`), the deadlines, the events both match
machines return and the match fingerprint. Pure."""

from __future__ import annotations

import hashlib
import re
import secrets as _secrets
from dataclasses import dataclass
from typing import Sequence

from game.royals.engine import (
    DEAL, EXECUTE, KEEP, PILE, PLAY, START, STEAL, Action, ChanceEvent, Observation, Record, State)

from ..coin import coin_digest, coin_rng, commitment
from ..framing import MAX_PLY, SHARED_SCHEMAS, _bin, _bool, _int, _list, _str
from ..limits import ROYALS_MAX_PER_PLY

MAX_SEATS = 4
_ACTION = _str(5, 200)          # an action text of docs/royals-record-format.md (a deal is the longest)
_CARDS = _str(0, 120)           # card names separated by ","

#: Royals & Riots messages (docs/protocol.md, "Royals & Riots"): the shared ones plus these.
SCHEMAS = {
    **SHARED_SCHEMAS,
    "commits": {"for": _int(0, MAX_PLY), "c": _list(_bin(32), 2, MAX_SEATS)},
    "act": {"ply": _int(0, MAX_PLY), "a": _ACTION},
    "you": {"ply": _int(0, MAX_PLY), "cards": _CARDS},
    "hidden": {"ply": _int(0, MAX_PLY), "seat": _int(1, MAX_SEATS)},
    "round": {"round": _int(1, 3), "first": _int(0, MAX_PLY), "actions": _list(_ACTION, 1, MAX_PLY),
              "secrets": _list(_bin(32), 2, MAX_PLY)},
    "proxy": {"ply": _int(0, MAX_PLY), "seat": _int(2, MAX_SEATS), "on": _bool},
}

ROUND_HASH_LABEL = b"royals-lan round"



class PlayError(ValueError):
    """A failed check: ``seat`` (1..4) the seat at fault (a lying reveal, or a decision put in
    a joiner's mouth, names the host, seat 1), ``ply`` (engine ply), ``action`` (its text) and
    the reason. ``code`` is the error code to send: ``illegal``, ``coin`` or ``order``."""

    def __init__(self, seat: int, ply: int, action: str, reason: str, code: str = "illegal") -> None:
        super().__init__(f"seat {seat}, ply {ply} ({action}): {reason}")
        self.seat, self.ply, self.action, self.reason, self.code = seat, ply, action, reason, code


# --------------------------------------------------------------------------- the joint coin
def peer_of(game_seat: int) -> int:
    """The coin's seat byte of a game seat: seat 1 (the host) is 0, seats 2..4 are 1..3."""
    return game_seat - 1


def open_coin(game_id: bytes, purpose: int, game_seat: int) -> tuple[bytes, bytes]:
    """A fresh (secret, commitment) for ``game_seat``'s part of coin ``purpose`` (the ply of
    the chance event). The caller journals both before sending the commitment."""
    s = _secrets.token_bytes(32)
    return s, commitment(game_id, purpose, peer_of(game_seat), s)


def coin_outcome(event: ChanceEvent, game_id: bytes, purpose: int, secrets_by_seat: Sequence[bytes]) -> Action:
    """The outcome of chance ``event`` from every peer's secret in seat order:
    ``event.sample(coin_rng(coin_digest(game_id, purpose, secrets)))`` (START: the
    ``randbelow``-th seat; DEAL: the 36 cards in canonical order shuffled, then cut into the
    hands and the cards aside; PILE: the pile's cards shuffled, top first; STOLEN: the
    ``randbelow``-th card of the robbed hand in canonical order)."""
    return event.sample(coin_rng(coin_digest(game_id, purpose, secrets_by_seat)))


def round_hash(actions: Sequence[str]) -> bytes:
    """SHA-256("royals-lan round" || the round's action texts, each followed by "\\n")."""
    return hashlib.sha256(ROUND_HASH_LABEL + b"".join(a.encode() + b"\n" for a in actions)).digest()


# --------------------------------------------------------------------------- what a joiner is told
def _names(cards) -> str:
    return ",".join(c.name for c in cards)


def messages_for(before: State, action: Action, after: State, seat: int) -> list[dict]:
    """The messages the host sends joiner ``seat`` (2..4) for ``action`` pushed at ply
    ``before.ply`` (``before``/``after``: the host's state around it; only read).

    - START, PLAY, EXECUTE, STEAL (the decision ``1 steal 2`` or ``1 steal none``, and the
      chance outcome ``1 steal 2 K4``: the stolen card goes face up to the Thief's loot,
      ruling 7): public, ``act{ply, a}``; a play also brings the player the top of its pile:
      ``you{ply, cards}`` to that seat alone.
    - DEAL: ``you{ply, cards}`` with this seat's dealt cards.
    - KEEP, PILE: ``you`` to the seat itself (its kept cards; its pile's cards, never their
      order), ``hidden{ply, seat}`` to the others.
    """
    ply, k = before.ply, action.kind
    if k is DEAL:
        return [{"t": "you", "ply": ply, "cards": _names(action.groups[seat - 1])}]
    if k in (KEEP, PILE):
        if action.seat == seat:
            cards = action.cards if k is KEEP else sorted(action.cards, key=lambda c: c.index)
            return [{"t": "you", "ply": ply, "cards": _names(cards)}]
        return [{"t": "hidden", "ply": ply, "seat": action.seat}]
    out = [{"t": "act", "ply": ply, "a": str(action)}]
    if k is PLAY and action.seat == seat and before.piles[seat - 1]:
        drawn = before.piles[seat - 1][-1]
        out.append({"t": "you", "ply": ply, "cards": _names([c for c in after.hand(seat) if c.index == drawn])})
    return out


_WORD = re.compile(r"[A-Z]+[0-9]*")


def card_names_in(text: str) -> set[str]:
    """The card names (``K4``, ``THIEF``, ``P10`` ...) appearing as whole words in ``text``."""
    return set(_WORD.findall(text))


# --------------------------------------------------------------------------- the match state machines
REVEAL_TIMEOUT = 10.0   #: s from the ``commits`` broadcast to a connected joiner's reveal (then it forfeits)
FORFEIT_TIMEOUT = 60.0  #: s from the ``commits`` broadcast to a reveal, connected or not (then it forfeits)
COMMIT_TIMEOUT = 6.0    #: s a connected joiner may take to commit to an open coin (then ``withheld``)
#: s a joiner waits, after its reveal, for the host to apply the coin's outcome: longer than the
#: host's FORFEIT_TIMEOUT for another seat's reveal (counted from the ``commits`` broadcast, before
#: our reveal) plus a margin for that verdict to reach us, so a withholding seat is the one named,
#: never the host waiting for it (issue 33, attack 5; docs/protocol.md, rule 1 of the LAN layer)
OUTCOME_TIMEOUT = 70.0
ACK_TIMEOUT = 10.0      #: s a connected joiner may take to acknowledge a round check (then ``withheld``)
MAX_PER_PLY = ROYALS_MAX_PER_PLY  #: messages a joiner may send about one ply (net/limits.py), then ``flood``

#: Closing codes that end the match for everyone (the others close one connection only).
MATCH_FATAL = frozenset({"illegal", "coin", "forfeit", "desync", "left"})


@dataclass(frozen=True)
class Applied:
    """An action was applied at engine ply ``ply``: ``text`` its action text (``""`` for a
    joiner's view of another seat's hidden KEEP/PILE), ``seat`` the acting seat (0 for a
    START/DEAL chance outcome)."""

    ply: int
    text: str
    seat: int


@dataclass(frozen=True)
class Turn:
    """Seat ``seat`` must decide at ply ``ply`` from ``observation`` (its information state).
    Host: seat 1 (``computer`` False, its person: call ``play``) or a computer seat
    (``computer`` True: the host's program calls ``decide(seat, ai.choose(observation))``).
    Joiner: its own seat (its person or its own computer calls ``play``)."""

    seat: int
    ply: int
    observation: Observation
    computer: bool = False


@dataclass(frozen=True)
class CoinOpened:
    """The joint coin for the chance event at ply ``ply`` (``kind``: start, deal, pile, stolen) began."""

    ply: int
    kind: str


@dataclass(frozen=True)
class RoundChecked:
    """Round ``round`` passed the round-end check; ``ply`` the ply after it, ``hash`` :func:`round_hash`.
    On the host: every joiner acknowledged the same hash."""

    round: int
    ply: int
    hash: bytes


@dataclass(frozen=True)
class SeatProxy:
    """From ply ``ply`` seat ``seat`` is played by the host's computer (``on``) or by its person again."""

    seat: int
    ply: int
    on: bool


@dataclass(frozen=True)
class Refused:
    """A message from ``seat`` (joiner: 1, the host) was refused with ``code`` (docs/protocol.md,
    "Errors"): an ``error`` was queued for that seat; the transport closes that connection.
    The match goes on (it can resume)."""

    seat: int
    code: str
    reason: str


@dataclass(frozen=True)
class MatchOver:
    """The match ended for every peer. ``kind``: ``finished`` (by the rules), ``illegal`` (a
    play broke the rules), ``coin`` (a lying reveal or deal), ``forfeit`` (a withheld reveal),
    ``left`` (a peer left or abandoned). ``seat``: the seat at fault (0 for none); ``reason``
    names the seat, the ply and the play."""

    kind: str
    seat: int
    reason: str


Event = Applied | Turn | CoinOpened | RoundChecked | SeatProxy | Refused | MatchOver


def _decider(state: State, a: Action) -> int:
    """The seat whose decision ``a`` is (a team's START: the seat to act, not the chosen starter)."""
    return state.to_act if a.kind is START else a.seat


def _actor(before: State, a: Action) -> int:
    """The seat an action at ``before`` belongs to: the decider, the pile's or the Thief's
    seat for those chance outcomes, 0 for round 1's starter and the deal."""
    if before.is_chance():
        return 0 if a.kind in (START, DEAL) else a.seat
    return _decider(before, a)


def _is_decision(a: Action) -> bool:
    return a.kind in (START, KEEP, PLAY, EXECUTE) or (a.kind is STEAL and a.card is None)


def _fault_seat(reason: str) -> int:
    """The seat at fault named at the start of a verdict (``seat 3, ply 57 …``), looking
    through a relay (``seat 2 stopped the match: seat 1, ply 9 …``); 0 if none."""
    m = re.match(r"seat [1-4] stopped the match: (.*)", reason, re.S)
    if m:
        return _fault_seat(m.group(1))
    m = re.match(r"seat ([1-4])\b", reason)
    return int(m.group(1)) if m else 0


FINGERPRINT_LABEL = b"royals-lan fingerprint"


def first_fingerprint(game_id: bytes) -> bytes:
    """SHA-256("royals-lan fingerprint" || game id): the fingerprint before any round."""
    return hashlib.sha256(FINGERPRINT_LABEL + game_id).digest()


def fold_fingerprint(fp: bytes, rhash: bytes, commits: Sequence[Sequence[bytes]]) -> bytes:
    """The match fingerprint after one more confirmed round: SHA-256("royals-lan
    fingerprint" || previous (32) || the round's hash (32) || every commitment of every coin
    of the round, in ply order, seat 1 first (32 each)). Two peers told the same story hold
    the same fingerprint; players can compare its first 16 hex digits by eye (the star gives
    joiners no other way to see that the host told them all the same commitments)."""
    return hashlib.sha256(FINGERPRINT_LABEL + fp + rhash + b"".join(c for cs in commits for c in cs)).digest()


def _record(state: State, names: Sequence[str], date: str, game_id: bytes, over: MatchOver | None,
            fingerprint: bytes = b"") -> dict:
    rec = Record.from_state(state, list(names), date=date or None).to_dict()
    rec["lan"] = {"game": game_id.hex(), "end": "" if over is None else over.kind,
                  "seat": 0 if over is None else over.seat, "fingerprint": fingerprint.hex()[:16]}
    return rec


def _result_text(st: State) -> str:
    o = st.outcome()
    return "" if o is None else f"scores {','.join(map(str, o.scores))}, winners {','.join(map(str, o.winners))}"
