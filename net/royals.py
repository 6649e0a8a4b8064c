"""Royals & Riots over the LAN: the pure protocol layer (docs/protocol.md, "Royals & Riots").

API (issue 13; stable — changes are announced in commit messages)
=================================================================
No sockets, no threads, no clock: time comes in as ``now`` (seconds, monotonic). The
transport (net/transport.py) does the handshake (shared ``hello``/``auth``), decodes frames
with ``FrameDecoder(SCHEMAS)`` and hands every *match* message to these machines:

Host (seat 1; one :class:`HostMatch` per match)::

    m = HostMatch(game_id, ["Ann", "Bo", "Cy"], computers={3}, date=iso, now=t)
    events = m.start(t)                         # opens round 1's first coin
    events = m.receive(seat, msg_dict, t)       # a joiner's commit/reveal/act/ack/error
    for seat, msgs in m.outgoing().items(): ... # frames to send, per joiner seat (drained)
    m.play(action, t)                           # seat 1's person decides (IllegalMoveError)
    m.decide(seat, action, t)                   # a computer seat decides (from Turn.observation)
    m.tick(t)                                   # deadlines: withheld commits, forfeits
    m.disconnected(seat, t) / m.connected(seat, t) / m.resume(seat, have, t)
    m.set_computer(seat, True|False, t)         # hand an away seat to a computer (and back)
    m.abandon(reason)                           # the host leaves: the match ends for all
    m.record()                                  # the match record (dict), identical on every peer

Joiner (one :class:`JoinerMatch` per joiner, seats 2..4)::

    j = JoinerMatch(game_id, seat, names, date=host_date, now=t)
    events = j.start(t)                         # its part of round 1's first coin
    events = j.receive(msg_dict, t)             # the host's commits/act/you/hidden/proxy/round/error
    msgs = j.outgoing()                         # frames for the host (drained)
    j.play(action, t)                           # its decision (IllegalMoveError)
    j.my_turn()                                 # its Observation when it must decide, else None
    j.view                                      # its SeatView: .state (a full State), .observation()
    j.received                                  # host messages held: the ``ply`` of a resume hello
    j.resumed(t)                                # after a reconnection: re-send what may be lost
    j.journal() / JoinerMatch.from_journal(d)   # its promises, for a restart
    j.tick(t); j.record(); j.over

Events (both): :class:`Applied`, :class:`Turn` (a seat must decide, with its Observation),
:class:`CoinOpened`, :class:`RoundChecked`, :class:`SeatProxy`, :class:`Refused` (a message
refused: close that connection, the match goes on), :class:`MatchOver` (the match ended for
all; ``kind`` finished/illegal/coin/forfeit/left).

Building blocks (the first step of issue 13):

- :data:`SCHEMAS`: the shared messages plus Royals' own (``commits``, ``act``, ``you``,
  ``hidden``, ``round``), for :func:`net.framing.encode_frame`/``FrameDecoder(schemas=SCHEMAS)``.
- The joint coin of 2-4 peers: :func:`peer_of` (game seat -> coin seat byte),
  :func:`open_coin`, :func:`coin_outcome` (a chance event's outcome from every peer's secret).
- :func:`messages_for`: what one joiner is sent for one action (public ``act``, its own
  ``you``, or a ``hidden`` notice), so no joiner is told another seat's unplayed cards.
- :func:`check_round`: the round-end check every peer runs on the host's ``round`` reveal
  (coins open their commitments, every chance outcome follows from its coin, every decision
  is legal, what this peer was told during the round matches); raises :class:`PlayError`
  naming the seat and the play.

"""

from __future__ import annotations

import hashlib
import re
import secrets as _secrets
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from game.royals.engine import (DEAL, KEEP, PILE, PLAY, START, STEAL, Action, ChanceEvent,
                                IllegalMoveError, InvalidMoveError, Observation, State)

from .coin import coin_digest, coin_rng, commitment
from .framing import MAX_PLY, SHARED_SCHEMAS, _bin, _bool, _int, _list, _str

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


# --------------------------------------------------------------------------- the round-end check
@dataclass
class Heard:
    """What one joiner was told and did during a round, for :func:`check_round`.

    ``commits``: coin purpose -> the commitments of every peer in seat order (from ``commits``);
    ``my_secrets``: purpose -> our own secret; ``acts``: ply -> public action text;
    ``yous``: ply -> list of card-name strings told to us alone; ``hidden``: ply -> seat;
    ``own``: ply -> the action text we sent.
    """

    seat: int
    commits: dict[int, list[bytes]] = field(default_factory=dict)
    my_secrets: dict[int, bytes] = field(default_factory=dict)
    acts: dict[int, str] = field(default_factory=dict)
    yous: dict[int, list[str]] = field(default_factory=dict)
    hidden: dict[int, int] = field(default_factory=dict)
    own: dict[int, str] = field(default_factory=dict)

    def hear(self, msg: dict) -> None:
        """Record one decoded message from the host (``commits``, ``act``, ``you``, ``hidden``)."""
        t = msg["t"]
        if t == "commits":
            self.commits[msg["for"]] = list(msg["c"])
        elif t == "act":
            self.acts[msg["ply"]] = msg["a"]
        elif t == "you":
            self.yous.setdefault(msg["ply"], []).append(msg["cards"])
        elif t == "hidden":
            self.hidden[msg["ply"]] = msg["seat"]


def check_round(state: State, game_id: bytes, reveal: dict, heard: Heard | None = None) -> list[Action]:
    """Check the host's ``round{round, first, actions, secrets}`` reveal against ``state`` (this
    peer's copy of the match at the start of the round, at ply ``first``; it is advanced through
    the round on success) and, for a joiner, against what it ``heard``.

    ``secrets`` holds, for each chance event of the round in order, the secret of every seat
    (seat 1 first; the host supplies those of computer seats). Checked, in order, per action:
    a chance event's coin exists, every secret opens the commitment this peer holds (a
    joiner's own secret must be the one it kept) and the action equals :func:`coin_outcome`;
    a decision is legal (:meth:`State.push_checked`); a joiner's own decisions are the ones it
    sent; the public text, the hidden seat or the cards it was told at that ply match. Returns
    the actions. Raises :class:`PlayError` (``coin`` for a lying reveal, naming seat 1, the
    host; ``illegal`` for a play, naming its seat)."""
    first = reveal["first"]
    if first != state.ply or state.round != reveal["round"] or state.is_over():
        raise PlayError(1, first, "round", f"round {reveal['round']} from ply {first} is not next: we are at "
                        f"round {state.round}, ply {state.ply}", "order")
    flat, n = reveal["secrets"], state.players
    if len(flat) % n:
        raise PlayError(1, first, "round", f"the secrets do not come in groups of {n}", "coin")
    groups = [flat[i:i + n] for i in range(0, len(flat), n)]
    done: list[Action] = []
    for text in reveal["actions"]:
        ply = state.ply
        try:
            a = Action.from_str(text)
        except (InvalidMoveError, ValueError) as e:
            raise PlayError(1, ply, text[:40], f"unreadable action: {e}", "coin") from None
        event = state.chance()
        if event is not None:
            if not groups:
                raise PlayError(1, ply, text, "no coin secrets left for this chance event", "coin")
            sec = groups.pop(0)
            for s, secret in enumerate(sec, 1):
                if heard is not None and s == heard.seat and heard.my_secrets.get(ply) != secret:
                    raise PlayError(1, ply, text, f"the reveal changes seat {s}'s own secret", "coin")
                held = heard.commits.get(ply) if heard is not None else None
                if heard is not None and (held is None or len(held) != len(sec)):
                    raise PlayError(1, ply, text, "a coin whose commitments we were never sent", "coin")
                if held is not None and commitment(game_id, ply, peer_of(s), secret) != held[s - 1]:
                    raise PlayError(s, ply, text, f"seat {s}'s secret does not open its commitment", "coin")
            expected = coin_outcome(event, game_id, ply, sec)
            if str(expected) != text:
                raise PlayError(1, ply, text, f"the coin gives {str(expected)[:80]}, not this", "coin")
            state.push(a)
        else:
            try:
                state.push_checked(a)
            except IllegalMoveError as e:
                raise PlayError(a.seat or 1, ply, text, str(e)) from None
            if heard is not None and a.seat == heard.seat and a.kind is not START and heard.own.get(ply) != text:
                raise PlayError(1, ply, text, f"a decision of seat {a.seat} (ours) that we did not make")
        done.append(a)
        if heard is not None:
            _match_heard(heard, ply, a, text)
        if state.round != reveal["round"] or state.is_over():
            break
    if groups:
        raise PlayError(1, state.ply, "round", "more coin secrets than chance events", "coin")
    if len(done) != len(reveal["actions"]):
        raise PlayError(1, state.ply, "round", "actions after the end of the round", "coin")
    if state.round == reveal["round"] and not state.is_over():
        raise PlayError(1, state.ply, "round", "the revealed round does not end", "coin")
    return done


def _match_heard(heard: Heard, ply: int, a: Action, text: str) -> None:
    """The reveal must agree with what the joiner was told at ``ply``."""
    me = heard.seat
    public = heard.acts.get(ply)
    if public is not None and public != text:
        raise PlayError(a.seat or 1, ply, text, f"we were told {public!r} for this ply")
    if a.kind is DEAL:
        told = heard.yous.get(ply, [None])[0]
        if told != _names(a.groups[me - 1]):
            raise PlayError(1, ply, "deal", "the deal differs from the cards we were dealt", "coin")
    if a.kind in (KEEP, PILE) and a.seat != me and heard.hidden.get(ply) != a.seat:
        raise PlayError(1, ply, text, "a hidden action we were not told of", "coin")
    if a.kind is STEAL and a.card is not None and public is None:
        raise PlayError(1, ply, text, "a theft we were not told of", "coin")


_WORD = re.compile(r"[A-Z]+[0-9]*")


def card_names_in(text: str) -> set[str]:
    """The card names (``K4``, ``THIEF``, ``P10`` ...) appearing as whole words in ``text``."""
    return set(_WORD.findall(text))


# --------------------------------------------------------------------------- the match state machines
REVEAL_TIMEOUT = 10.0   #: s from the ``commits`` broadcast to a connected joiner's reveal (then it forfeits)
FORFEIT_TIMEOUT = 60.0  #: s from the ``commits`` broadcast to a reveal, connected or not (then it forfeits)
COMMIT_TIMEOUT = 6.0    #: s a connected joiner may take to commit to an open coin (then ``withheld``)
OUTCOME_TIMEOUT = 60.0  #: s a joiner waits, after its reveal, for the host to apply the coin's outcome

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


class HostMatch:
    """The host's side of one match (seat 1): the true engine, the coins in progress, the
    per-seat outbox of everything each joiner was told, the acks, the deadlines.

    ``game_id`` (16 bytes); ``names``: 2-4 player names, seat 1 first; ``computers``: the
    seats (2..n) played by the host's computer from the start (their coin secrets come from
    ``token_bytes``); ``teams`` (4 seats); ``date``: the record's date (ISO), sent to the
    joiners by the transport; ``now``: the clock. Raises ValueError for a bad seat count,
    game id or computer seat.

    Joiner seats send ``commit``, ``reveal``, ``act``, ``ack``, ``error``; anything else is
    ``order``. Every check names the seat and the play (docs/protocol.md, "Royals & Riots").
    """

    def __init__(self, game_id: bytes, names: Sequence[str], computers: Iterable[int] = (), *, teams: bool = False,
                 date: str = "", now: float = 0.0, token_bytes: Callable[[int], bytes] = _secrets.token_bytes) -> None:
        raise NotImplementedError

    def start(self, now: float) -> list[Event]:
        """Open round 1's first coin (its START chance event). Call once."""
        raise NotImplementedError

    def receive(self, seat: int, msg: dict, now: float) -> list[Event]:
        """Handle one decoded message (schema-checked with :data:`SCHEMAS`) from joiner ``seat``."""
        raise NotImplementedError

    def outgoing(self) -> dict[int, list[dict]]:
        """The messages queued per joiner seat since the last call (drained). The transport
        sends them to seats that are connected and drops the others' (they stay in the outbox
        for :meth:`resume`)."""
        raise NotImplementedError

    def outbox(self, seat: int) -> list[dict]:
        """Every match message ever queued for joiner ``seat`` (a copy)."""
        raise NotImplementedError

    def play(self, action: Action, now: float) -> list[Event]:
        """Seat 1's person decides ``action``. Raises IllegalMoveError (not its turn, or the rules)."""
        raise NotImplementedError

    def decide(self, seat: int, action: Action, now: float) -> list[Event]:
        """Computer seat ``seat`` decides ``action`` (chosen from its :class:`Turn` observation).
        Raises IllegalMoveError, ValueError if ``seat`` is not a computer seat."""
        raise NotImplementedError

    def turn(self) -> Turn | None:
        """Who must decide now (seat 1 or a computer seat, with its observation), or None
        (a joiner's turn, a coin, acks awaited, or the match over)."""
        raise NotImplementedError

    def waiting_for(self) -> dict[str, list[int]]:
        """What the match waits for: ``{"decision": [seat]}``, ``{"commit": seats}``,
        ``{"reveal": seats}``, ``{"ack": seats}`` or ``{}`` when over."""
        raise NotImplementedError

    def tick(self, now: float) -> list[Event]:
        """Deadlines: a connected joiner that has not committed to an open coin within
        COMMIT_TIMEOUT: ``Refused(withheld)``; a joiner whose reveal is missing REVEAL_TIMEOUT
        (connected) or FORFEIT_TIMEOUT (in all) after ``commits``: it forfeits (MatchOver)."""
        raise NotImplementedError

    def connected(self, seat: int, now: float) -> list[Event]:
        """Joiner ``seat``'s connection is seated (a new one or a resumed one)."""
        raise NotImplementedError

    def disconnected(self, seat: int, now: float) -> list[Event]:
        """Joiner ``seat``'s connection is gone; its seat waits (or see :meth:`set_computer`)."""
        raise NotImplementedError

    def resume(self, seat: int, have: int, now: float) -> list[Event]:
        """Catch-up for a joiner that proved its seat: queue ``outbox(seat)[have:]`` again
        (``have``: the ``ply`` of its resume hello, the messages it holds). Raises ValueError
        if ``have`` exceeds the outbox (the transport refuses with ``order``)."""
        raise NotImplementedError

    def set_computer(self, seat: int, on: bool, now: float) -> list[Event]:
        """Hand joiner ``seat`` to the host's computer (``on``) while its person is away, or
        give it back; announced to every joiner as ``proxy{ply, seat, on}``."""
        raise NotImplementedError

    def abandon(self, reason: str = "the host left") -> list[Event]:
        """The host leaves: ``error{left}`` to every joiner, MatchOver(left, seat 1)."""
        raise NotImplementedError

    def record(self) -> dict:
        """The match record (docs/royals-record-format.md) of the checked rounds, with the
        ``lan`` key; identical on every peer; ``rose-king check`` accepts it."""
        raise NotImplementedError


class JoinerMatch:
    """A joiner's side of one match (seat 2..4): its :class:`~game.royals.engine.SeatView`,
    its coin secrets, what it heard (:class:`Heard`) and the round check.

    ``game_id`` (16 bytes), ``seat``, ``names`` (seat 1 first), ``teams``, ``date`` (the
    host's, for the record), ``now``. Raises ValueError for a bad seat.
    """

    def __init__(self, game_id: bytes, seat: int, names: Sequence[str], *, teams: bool = False, date: str = "",
                 now: float = 0.0, token_bytes: Callable[[int], bytes] = _secrets.token_bytes) -> None:
        raise NotImplementedError

    def start(self, now: float) -> list[Event]:
        """Commit to round 1's first coin."""
        raise NotImplementedError

    def receive(self, msg: dict, now: float) -> list[Event]:
        """Handle one decoded message from the host."""
        raise NotImplementedError

    def outgoing(self) -> list[dict]:
        """The messages queued for the host since the last call (drained)."""
        raise NotImplementedError

    def play(self, action: Action, now: float) -> list[Event]:
        """Our decision. Raises IllegalMoveError (not our turn, or the rules, from our view)."""
        raise NotImplementedError

    def my_turn(self) -> Observation | None:
        """Our observation when we must decide (and have not yet), else None."""
        raise NotImplementedError

    def tick(self, now: float) -> list[Event]:
        """Deadline: the host withholding a coin's outcome OUTCOME_TIMEOUT after our reveal."""
        raise NotImplementedError

    def resumed(self, now: float) -> list[Event]:
        """A new connection is seated (after the host's catch-up was queued): re-send our
        unfinished commit/reveal, our unanswered decision and our last ack (identical repeats
        are ignored by the host)."""
        raise NotImplementedError

    def journal(self) -> dict:
        """Our promises as JSON-able data: game, seat, names, date, our coin secrets and
        commitments, our decisions; write it before sending (the transport does)."""
        raise NotImplementedError

    @classmethod
    def from_journal(cls, data: dict, now: float = 0.0) -> "JoinerMatch":
        """A joiner restarted from :meth:`journal` data (``received`` 0: resume from the start).
        Raises ValueError for malformed data."""
        raise NotImplementedError

    def record(self) -> dict:
        """The match record of the checked rounds (identical to the host's)."""
        raise NotImplementedError
