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
    m.turn(); m.waiting_for(); m.state (the true match: never shown); m.over; m.computers

Joiner (one :class:`JoinerMatch` per joiner, seats 2..4)::

    j = JoinerMatch(game_id, seat, names, date=host_date, now=t)
    events = j.start(t)                         # its part of round 1's first coin
    events = j.receive(msg_dict, t)             # the host's commits/act/you/hidden/proxy/round/ack/error
    msgs = j.outgoing()                         # frames for the host (drained)
    j.play(action, t)                           # its decision (IllegalMoveError)
    j.my_turn()                                 # its Observation when it must decide, else None
    j.view                                      # its SeatView: .state (a full State), .observation()
    j.received                                  # host messages held: the ``ply`` of a resume hello
    j.resumed(t)                                # after a reconnection: re-send what may be lost
    j.journal() / JoinerMatch.from_journal(d)   # its promises, for a restart
    j.tick(t); j.record(); j.over
    m.fingerprint / j.fingerprint              # the match fingerprint (bytes): show record["lan"]["fingerprint"]
                                                # at the end so players can compare (fold_fingerprint)

Rate limits for the transport: ``net.limits.ROYALS_RATES``. Events (both): :class:`Applied`, :class:`Turn` (a seat must decide, with its Observation),
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

from game.royals.engine import (CARDS, DEAL, EXECUTE, KEEP, PILE, PLAY, START, STEAL, Action, ChanceEvent,
                                IllegalMoveError, InvalidMoveError, Observation, Record, SeatView, State,
                                ViewError)

from .coin import coin_digest, coin_rng, commitment
from .framing import MAX_PLY, SHARED_SCHEMAS, _bin, _bool, _int, _list, _str
from .limits import ROYALS_MAX_PER_PLY

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
    ``own``: ply -> the action text we sent; ``proxy``: ``[from ply, to ply or None]``
    spans in which the host's computer played our seat (its decisions and coin parts are
    then the host's, not ours).
    """

    seat: int
    commits: dict[int, list[bytes]] = field(default_factory=dict)
    my_secrets: dict[int, bytes] = field(default_factory=dict)
    acts: dict[int, str] = field(default_factory=dict)
    yous: dict[int, list[str]] = field(default_factory=dict)
    hidden: dict[int, int] = field(default_factory=dict)
    own: dict[int, str] = field(default_factory=dict)
    proxy: list[list] = field(default_factory=list)

    def proxied(self, ply: int) -> bool:
        """Whether the host's computer held our seat at ``ply``."""
        return any(a <= ply and (b is None or ply < b) for a, b in self.proxy)

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
                if heard is not None and s == heard.seat and heard.my_secrets.get(ply) != secret \
                        and not heard.proxied(ply):
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
            decider = state.to_act if a.kind is START else a.seat
            pile = state.piles[a.seat - 1] if a.kind is PLAY and 1 <= a.seat <= state.players else []
            drawn = CARDS[pile[-1]].name if pile else None
            try:
                state.push_checked(a)
            except IllegalMoveError as e:
                raise PlayError(decider or 1, ply, text, str(e)) from None
            if heard is not None and decider == heard.seat and heard.own.get(ply) != text \
                    and not heard.proxied(ply):
                raise PlayError(1, ply, text, f"a decision of seat {decider} (ours) that we did not make")
            if heard is not None and a.kind is PLAY and a.seat == heard.seat \
                    and [x for x in heard.yous.get(ply, [])] != ([drawn] if drawn else []):
                raise PlayError(1, ply, text, f"we were told we drew {heard.yous.get(ply)}, the revealed pile "
                                f"gives {drawn}", "coin")
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
    """The reveal must agree with what the joiner was told at ``ply`` (else the host lied:
    ``coin``, naming seat 1)."""
    me = heard.seat
    public = heard.acts.get(ply)
    if a.kind in (START, PLAY, STEAL, EXECUTE) and public != text:
        told = "nothing" if public is None else repr(public)
        raise PlayError(1, ply, text, f"we were told {told} for this ply", "coin")
    if a.kind is DEAL:
        told = heard.yous.get(ply, [None])[0]
        if told != _names(a.groups[me - 1]):
            raise PlayError(1, ply, "deal", "the deal differs from the cards we were dealt", "coin")
    if a.kind in (KEEP, PILE):
        if a.seat != me and heard.hidden.get(ply) != a.seat:
            raise PlayError(1, ply, text, "a hidden action we were not told of", "coin")
        if a.seat == me:
            mine = a.cards if a.kind is KEEP else sorted(a.cards, key=lambda c: c.index)
            if heard.yous.get(ply) != [_names(mine)]:
                raise PlayError(1, ply, text, "we were told other cards for our own hand or pile", "coin")


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

    Attributes: ``state`` (the true match; never show other seats' cards from it),
    ``checked`` (the match as of the last checked round: the record's source), ``over``
    (:class:`MatchOver` or None), ``computers`` (seats the computer plays now), ``people``
    (joiner seats with a person: they have an outbox).
    """

    def __init__(self, game_id: bytes, names: Sequence[str], computers: Iterable[int] = (), *, teams: bool = False,
                 date: str = "", now: float = 0.0, token_bytes: Callable[[int], bytes] = _secrets.token_bytes) -> None:
        n = len(names)
        if n not in (2, 3, 4):
            raise ValueError(f"Royals & Riots takes 2 to 4 seats, not {n}")
        if not isinstance(game_id, bytes) or len(game_id) != 16:
            raise ValueError("the game id must be 16 bytes")
        comp = set(computers)
        if not comp <= set(range(2, n + 1)):
            raise ValueError(f"computer seats must be among 2..{n}, got {sorted(comp)}")
        self.game_id, self.names, self.players, self.teams, self.date = game_id, list(names), n, bool(teams), date
        self.state = State(n, teams)
        self.checked = State(n, teams)
        self.confirmed = State(n, teams)
        self.fingerprint = first_fingerprint(game_id)
        self.computers: set[int] = comp
        self.people = [s for s in range(2, n + 1) if s not in comp]
        self.over: MatchOver | None = None
        self._token = token_bytes
        self._queue: dict[int, list[dict]] = {s: [] for s in self.people}
        self._outbox: dict[int, list[dict]] = {s: [] for s in self.people}
        self._connected: dict[int, float | None] = {s: None for s in self.people}
        self._coin: dict | None = None
        self._coins: dict[int, dict] = {}          # every coin: {"commits": {seat: c}, "secrets": {seat: s}}
        self._round_first = 0
        self._round_actions: list[str] = []
        self._round_secrets: list[bytes] = []
        self._round_hashes: dict[int, bytes] = {}  # ply after a round -> its hash
        self._acks: dict[int, bytes] | None = None  # seat -> hash, while a round check is awaited
        self._ack_since = now
        self._acked: dict[int, set[int]] = {s: set() for s in self.people}
        self._held: list[tuple[int, dict]] = []    # early messages of the next round, while acks are awaited
        self._prompted = -1
        self._off_pending: set[int] = set()
        self._events: list[Event] = []
        self._started = False
        self._per_ply: dict[tuple[int, int], int] = {}

    # ------------------------------------------------------------------ output
    def outgoing(self) -> dict[int, list[dict]]:
        """The messages queued per joiner seat since the last call (drained). The transport
        sends them to seats that are connected and drops the others' (they stay in the outbox
        for :meth:`resume`)."""
        out = {s: q for s, q in self._queue.items() if q}
        self._queue = {s: [] for s in self.people}
        return out

    def outbox(self, seat: int) -> list[dict]:
        """Every match message ever queued for joiner ``seat`` (a copy)."""
        return list(self._outbox[seat])

    def _send(self, seat: int, msg: dict, keep: bool = True) -> None:
        self._queue[seat].append(msg)
        if keep:
            self._outbox[seat].append(msg)

    def _send_all(self, msg: dict) -> None:
        for s in self.people:
            self._send(s, msg)

    def _take(self) -> list[Event]:
        ev, self._events = self._events, []
        return ev

    # ------------------------------------------------------------------ queries
    def turn(self) -> Turn | None:
        """Who must decide now (seat 1 or a computer seat, with its observation), or None
        (a joiner's turn, a coin, acks awaited, or the match over)."""
        st = self.state
        if self.over is not None or self._acks is not None or st.is_over() or st.is_chance() or not self._started:
            return None
        seat = st.to_act
        if seat == 1 or seat in self.computers:
            return Turn(seat, st.ply, st.observation(seat), seat != 1)
        return None

    def waiting_for(self) -> dict[str, list[int]]:
        """What the match waits for: ``{"decision": [seat]}``, ``{"commit": seats}``,
        ``{"reveal": seats}``, ``{"ack": seats}`` or ``{}`` when over."""
        if self.over is not None or self.state.is_over() and self._acks is None:
            return {}
        if self._acks is not None:
            return {"ack": [s for s in self.people if s not in self._acks and s not in self.computers]}
        c = self._coin
        if c is not None:
            if len(c["commits"]) < self.players:
                return {"commit": [s for s in range(1, self.players + 1) if s not in c["commits"]]}
            return {"reveal": [s for s in range(1, self.players + 1) if s not in c["secrets"]]}
        return {"decision": [self.state.to_act]}

    def connected(self, seat: int, now: float) -> list[Event]:
        """Joiner ``seat``'s connection is seated (a new one or a resumed one); the count of
        its messages per ply (MAX_PER_PLY) starts again."""
        self._seat(seat)
        self._connected[seat] = now
        self._per_ply = {k: v for k, v in self._per_ply.items() if k[0] != seat}  # a new connection, a new count
        return self._take()

    def disconnected(self, seat: int, now: float) -> list[Event]:
        """Joiner ``seat``'s connection is gone; its seat waits (or see :meth:`set_computer`)."""
        self._seat(seat)
        self._connected[seat] = None
        return self._take()

    def _seat(self, seat: int) -> None:
        if seat not in self._outbox:
            raise ValueError(f"seat {seat!r} is not a joiner seat of this match")

    # ------------------------------------------------------------------ the flow
    def start(self, now: float) -> list[Event]:
        """Open round 1's first coin (its START chance event). Call once."""
        if self._started:
            raise ValueError("the match has already started")
        self._started = True
        self._advance(now)
        return self._take()

    def _advance(self, now: float) -> None:
        """Go on while the host can: round reveals, coins of the host and computer seats,
        turn prompts. Stops where a joiner must answer or a decision of ours is due."""
        while self.over is None:
            st = self.state
            if self._acks is not None:
                if any(s not in self._acks and s not in self.computers for s in self.people):
                    return
                self._finish_round_check()
                continue
            if st.history and (st.round != self.checked.round or st.is_over()) and len(self._round_actions):
                self._reveal_round(now)
                continue
            if st.is_over():
                self._end("finished", 0, "the match is over: " + _result_text(st))
                return
            for s in sorted(self._off_pending):
                if self._coin is None:
                    self._off_pending.discard(s)
                    self._proxy(s, False)
            event = st.chance()
            if event is not None:
                if self._coin is None:
                    self._open_coin(event, now)
                if self._release_held(now):
                    continue
                c = self._coin
                if c is not None and len(c["secrets"]) == self.players:
                    self._finish_coin(event)
                    continue
                return
            if self._release_held(now):
                continue
            seat = st.to_act
            if (seat == 1 or seat in self.computers) and self._prompted != st.ply:
                self._prompted = st.ply
                self._events.append(Turn(seat, st.ply, st.observation(seat), seat != 1))
            return

    def _open_coin(self, event: ChanceEvent, now: float) -> None:
        p = self.state.ply
        c = {"ply": p, "kind": event.kind.value, "commits": {}, "secrets": {}, "opened": now, "broadcast": None}
        self._coin = c
        self._coins[p] = c
        for s in [1] + sorted(self.computers):
            self._host_part(c, s)
        self._events.append(CoinOpened(p, event.kind.value))
        self._maybe_broadcast(now)

    def _host_part(self, c: dict, seat: int) -> None:
        secret = self._token(32)
        c["own"] = {**c.get("own", {}), seat: secret}
        c["commits"][seat] = commitment(self.game_id, c["ply"], peer_of(seat), secret)

    def _maybe_broadcast(self, now: float) -> None:
        c = self._coin
        if c is None or c["broadcast"] is not None or len(c["commits"]) < self.players:
            return
        c["broadcast"] = now
        self._send_all({"t": "commits", "for": c["ply"], "c": [c["commits"][s] for s in range(1, self.players + 1)]})
        # the host's own parts (seat 1, computers) are revealed to itself at once
        for s, secret in c.get("own", {}).items():
            c["secrets"][s] = secret

    def _finish_coin(self, event: ChanceEvent) -> None:
        c = self._coin
        assert c is not None
        secrets = [c["secrets"][s] for s in range(1, self.players + 1)]
        self._coin = None
        self._round_secrets += secrets
        self._apply(coin_outcome(event, self.game_id, c["ply"], secrets))

    def _apply(self, a: Action) -> None:
        before = self.state.copy(stack=False)
        ply = self.state.ply
        seat = _actor(before, a)
        self.state.push_checked(a)
        before.history = self.state.history[:ply]  # messages_for reads the ply from it
        text = str(a)
        self._round_actions.append(text)
        for s in self.people:
            for m in messages_for(before, a, self.state, s):
                self._send(s, m)
        self._events.append(Applied(ply, text, seat))

    def _reveal_round(self, now: float) -> None:
        rnd = self.checked.round
        reveal = {"t": "round", "round": rnd, "first": self._round_first, "actions": list(self._round_actions),
                  "secrets": list(self._round_secrets)}
        checked = self.checked.copy()
        try:  # the host checks its own copy the same way (a self-check: it cannot fail unless the host is broken)
            check_round(checked, self.game_id, reveal)
        except PlayError as e:
            self._end(e.code, e.seat, str(e))
            return
        self.checked = checked
        h = round_hash(self._round_actions)
        self._round_hashes[self.checked.ply] = h
        self._send_all(reveal)
        self._round_first, self._round_actions, self._round_secrets = self.state.ply, [], []
        self._acks = {}
        self._ack_since = now
        self._ack_round = (rnd, self.checked.ply, h)
        coins = [self._coins[p]["commits"] for p in sorted(self._coins) if reveal["first"] <= p < self.checked.ply]
        self._next_fingerprint = fold_fingerprint(
            self.fingerprint, h, [[c[s] for s in range(1, self.players + 1)] for c in coins])

    def _finish_round_check(self) -> None:
        rnd, ply, h = self._ack_round
        self._acks = None
        self.confirmed = self.checked.copy()
        self.fingerprint = self._next_fingerprint
        self._send_all({"t": "ack", "ply": ply, "hash": h})  # every seat holds this round: it is in the records
        self._events.append(RoundChecked(rnd, ply, h))

    def _release_held(self, now: float) -> bool:
        """Handle the early messages held during the round check; whether there were any."""
        held, self._held = self._held, []
        for seat, msg in held:
            if self.over is None:
                self._handle(seat, msg, now)
        return bool(held)

    def _end(self, kind: str, seat: int, reason: str) -> None:
        if self.over is not None:
            return
        self.over = MatchOver(kind, seat, reason)
        self._coin = None
        if kind != "finished":
            self._send_all({"t": "error", "code": kind, "reason": reason[:500]})
        self._events.append(self.over)

    # ------------------------------------------------------------------ local decisions
    def play(self, action: Action, now: float) -> list[Event]:
        """Seat 1's person decides ``action``. Raises IllegalMoveError (not its turn, or the rules)."""
        return self._local(1, action, now)

    def decide(self, seat: int, action: Action, now: float) -> list[Event]:
        """Computer seat ``seat`` decides ``action`` (chosen from its :class:`Turn` observation).
        Raises IllegalMoveError, ValueError if ``seat`` is not a computer seat."""
        if seat not in self.computers:
            raise ValueError(f"seat {seat} is not played by the computer")
        return self._local(seat, action, now)

    def _local(self, seat: int, action: Action, now: float) -> list[Event]:
        t = self.turn()
        if t is None or t.seat != seat:
            raise IllegalMoveError(f"not seat {seat}'s decision now")
        if not _is_decision(action) or _decider(self.state, action) != seat:
            raise IllegalMoveError(f"not a decision of seat {seat}: {action}")
        if self.state.illegal_reason(action) is not None:
            raise IllegalMoveError(self.state.illegal_reason(action))
        self._apply(action)
        self._advance(now)
        return self._take()

    # ------------------------------------------------------------------ input
    def receive(self, seat: int, msg: dict, now: float) -> list[Event]:
        """Handle one decoded message (schema-checked with :data:`SCHEMAS`) from joiner ``seat``."""
        self._seat(seat)
        if self.over is not None:
            return []
        self._handle(seat, msg, now)
        self._advance(now)
        return self._take()

    def _refuse(self, seat: int, code: str, reason: str) -> None:
        self._send(seat, {"t": "error", "code": code, "reason": reason[:500]}, keep=False)
        self._events.append(Refused(seat, code, reason))

    def _handle(self, seat: int, msg: dict, now: float) -> None:
        t = msg.get("t")
        if t == "error":
            code, reason = msg["code"], msg["reason"]
            if code in MATCH_FATAL:
                self._end(code, _fault_seat(reason), f"seat {seat} stopped the match: {reason}")
            else:
                self._connected[seat] = None
            return
        if t == "ping":
            return
        handler = {"commit": self._on_commit, "reveal": self._on_reveal, "act": self._on_act,
                   "ack": self._on_ack}.get(t)
        if handler is not None:
            key = (seat, msg["for"] if "for" in msg else msg["ply"])
            self._per_ply[key] = self._per_ply.get(key, 0) + 1
            if self._per_ply[key] > MAX_PER_PLY:
                self._refuse(seat, "flood", f"seat {seat}: more than {MAX_PER_PLY} messages about ply {key[1]}")
                return
        if handler is None:
            self._refuse(seat, "order", f"seat {seat}: a {t!r} message is not for the host of a Royals & Riots match")
            return
        handler(seat, msg, now)

    def _hold(self, seat: int, msg: dict) -> None:
        """An early message of the next round while the round check is awaited (one per type and seat)."""
        if any(s == seat and m["t"] == msg["t"] for s, m in self._held):
            self._refuse(seat, "order", f"seat {seat}: a second early {msg['t']} before the round check")
            return
        self._held.append((seat, msg))

    def _on_commit(self, seat: int, msg: dict, now: float) -> None:
        p, c = msg["for"], msg["c"]
        old = self._coins.get(p)
        if old is not None and old["commits"].get(seat) == c:
            return  # an identical repeat (a resumed joiner): nothing to do
        if self._acks is not None and p == self.state.ply:
            self._hold(seat, msg)
            return
        coin = self._coin
        if coin is None or coin["ply"] != p:
            self._refuse(seat, "order", f"seat {seat}: a commitment for coin {p}, but "
                         + (f"the open coin is {coin['ply']}" if coin else "no coin is open"))
            return
        if seat in coin.get("own", {}) or (seat in self.computers and seat not in coin["commits"]):
            self._refuse(seat, "order", f"seat {seat}: the computer holds this seat's part of coin {p}")
            return
        if seat in coin["commits"]:
            self._end("forfeit", seat, f"seat {seat}, ply {p} ({coin['kind']} coin): a second, different "
                      "commitment (a re-roll)")
            return
        coin["commits"][seat] = c
        self._maybe_broadcast(now)

    def _on_reveal(self, seat: int, msg: dict, now: float) -> None:
        p, secret = msg["for"], msg["s"]
        old = self._coins.get(p)
        if old is not None and old["secrets"].get(seat) == secret:
            return  # an identical repeat
        coin = self._coin
        if coin is None or coin["ply"] != p or coin["broadcast"] is None or seat not in coin["commits"]:
            self._refuse(seat, "order", f"seat {seat}: a reveal for coin {p} before its commitments were all sent"
                         if coin is not None and coin["ply"] == p else f"seat {seat}: a reveal for coin {p}, "
                         "which is not open")
            return
        if seat in coin["secrets"]:
            self._end("forfeit", seat, f"seat {seat}, ply {p} ({coin['kind']} coin): a second, different reveal")
            return
        if commitment(self.game_id, p, peer_of(seat), secret) != coin["commits"][seat]:
            self._end("forfeit", seat, f"seat {seat}, ply {p} ({coin['kind']} coin): its secret does not open "
                      "its commitment")
            return
        coin["secrets"][seat] = secret

    def _on_act(self, seat: int, msg: dict, now: float) -> None:
        st, p, text = self.state, msg["ply"], msg["a"]
        try:
            a = Action.from_str(text)
        except InvalidMoveError as e:
            self._refuse(seat, "schema", f"seat {seat}, ply {p}: unreadable action {text[:40]!r}: {e}")
            return
        if p < st.ply:
            if str(st.history[p]) == text and self._decided_by(p) == seat:
                return  # an identical repeat of a decision already applied
            self._refuse(seat, "order", f"seat {seat}, ply {p} ({text}): ply {p} is past (we are at ply {st.ply})")
            return
        if p > st.ply:
            self._refuse(seat, "order", f"seat {seat}, ply {p} ({text}): a gap in plies (we are at ply {st.ply})")
            return
        if self._acks is not None:
            self._hold(seat, msg)
            return
        if not _is_decision(a):
            self._end("illegal", seat, f"seat {seat}, ply {p} ({text}): a chance outcome is not a seat's decision")
            return
        if st.is_chance():
            self._end("illegal", seat, f"seat {seat}, ply {p} ({text}): a coin is being tossed, no decision is due")
            return
        decider = _decider(st, a) if a.kind is not START else seat
        if decider != seat:
            self._end("illegal", seat, f"seat {seat}, ply {p} ({text}): a decision for seat {a.seat}")
            return
        if st.to_act != seat:
            self._end("illegal", seat, f"seat {seat}, ply {p} ({text}): not its turn (seat {st.to_act} is to act)")
            return
        if seat in self.computers:
            self._refuse(seat, "order", f"seat {seat}, ply {p} ({text}): the computer plays this seat now")
            return
        reason = st.illegal_reason(a)
        if reason is not None:
            self._end("illegal", seat, f"seat {seat}, ply {p} ({text}): {reason}")
            return
        self._apply(a)

    def _decided_by(self, ply: int) -> int:
        """The seat whose decision the action at ``ply`` was (0 for a chance outcome)."""
        a = self.state.history[ply]
        if not _is_decision(a):
            return 0
        if a.kind is START:
            replay = State(self.players, self.teams)
            replay.track = False
            for x in self.state.history[:ply]:
                replay.push(x)
            return replay.to_act
        return a.seat

    def _on_ack(self, seat: int, msg: dict, now: float) -> None:
        ply, h = msg["ply"], msg["hash"]
        want = self._round_hashes.get(ply)
        if want is None:
            self._refuse(seat, "order", f"seat {seat}: an ack of ply {ply}, which ends no round we revealed")
            return
        if h != want:
            self._end("desync", seat, f"seat {seat}, ply {ply} (round check): it holds another round than the one "
                      "we revealed")
            return
        self._acked[seat].add(ply)
        if self._acks is not None and ply == self._ack_round[1]:
            self._acks[seat] = h

    # ------------------------------------------------------------------ time, seats, resume
    def tick(self, now: float) -> list[Event]:
        """Deadlines: a connected joiner that has not committed to an open coin within
        COMMIT_TIMEOUT, or not acknowledged a round check within ACK_TIMEOUT:
        ``Refused(withheld)`` (its connection is closed; the seat waits); a joiner whose
        commitment is still missing FORFEIT_TIMEOUT after the coin opened (connected or not;
        unless its seat was handed to the computer meanwhile), or whose reveal is missing
        REVEAL_TIMEOUT (connected) or FORFEIT_TIMEOUT (in all) after ``commits``: it
        forfeits, the match ends for all (MatchOver)."""
        c = self._coin
        if self.over is None and c is not None:
            for s in self.people:
                since = self._connected[s]
                if c["broadcast"] is None:
                    if s in c["commits"]:
                        continue
                    if now - c["opened"] > FORFEIT_TIMEOUT:
                        self._end("forfeit", s, f"seat {s}, ply {c['ply']} ({c['kind']} coin): it withheld its "
                                  f"commitment for {FORFEIT_TIMEOUT:g} s")
                        break
                    if since is not None and now - max(since, c["opened"]) > COMMIT_TIMEOUT:
                        self._connected[s] = None
                        self._refuse(s, "withheld", f"seat {s}: no commitment for coin {c['ply']} within "
                                     f"{COMMIT_TIMEOUT:g} s")
                elif s not in c["secrets"]:
                    late = now - c["broadcast"] > FORFEIT_TIMEOUT or (
                        since is not None and now - max(since, c["broadcast"]) > REVEAL_TIMEOUT)
                    if late:
                        self._end("forfeit", s, f"seat {s}, ply {c['ply']} ({c['kind']} coin): it withheld its "
                                  "reveal")
                        break
        if self.over is None and self._acks is not None:
            for s in self.people:
                since = self._connected[s]
                if s not in self._acks and s not in self.computers and since is not None \
                        and now - max(since, self._ack_since) > ACK_TIMEOUT:
                    self._connected[s] = None
                    self._refuse(s, "withheld", f"seat {s}: no ack of round {self._ack_round[0]} within "
                                 f"{ACK_TIMEOUT:g} s")
        return self._take()

    def resume(self, seat: int, have: int, now: float) -> list[Event]:
        """Catch-up for a joiner that proved its seat: queue ``outbox(seat)[have:]`` again
        (``have``: the ``ply`` of its resume hello, the messages it holds). Raises ValueError
        if ``have`` exceeds the outbox (the transport refuses with ``order``)."""
        self._seat(seat)
        box = self._outbox[seat]
        if not 0 <= have <= len(box):
            raise ValueError(f"seat {seat} claims {have} messages, we sent it {len(box)}")
        self._queue[seat] = list(box[have:])
        self._connected[seat] = now
        self._per_ply = {k: v for k, v in self._per_ply.items() if k[0] != seat}
        return self._take()

    def set_computer(self, seat: int, on: bool, now: float) -> list[Event]:
        """Hand joiner ``seat`` to the host's computer (``on``) while its person is away, or
        give it back; announced to every joiner as ``proxy{ply, seat, on}``. Handing over
        takes effect at once (the computer commits for the seat to an open coin it has not
        committed to; a commitment it made itself must still be revealed by the person);
        giving back waits until no coin is open."""
        self._seat(seat)
        if self.over is not None:
            return []
        if on and seat not in self.computers:
            self._off_pending.discard(seat)
            self._proxy(seat, True)
            c = self._coin
            if c is not None and seat not in c["commits"]:
                self._host_part(c, seat)
                if c["broadcast"] is not None:  # cannot happen: broadcast needs every commitment
                    c["secrets"][seat] = c["own"][seat]
                self._maybe_broadcast(now)
        elif not on and seat in self.computers:
            self._off_pending.add(seat)
        self._advance(now)
        return self._take()

    def _proxy(self, seat: int, on: bool) -> None:
        (self.computers.add if on else self.computers.discard)(seat)
        self._send_all({"t": "proxy", "ply": self.state.ply, "seat": seat, "on": on})
        self._events.append(SeatProxy(seat, self.state.ply, on))

    def abandon(self, reason: str = "the host left") -> list[Event]:
        """The host leaves: ``error{left}`` to every joiner, MatchOver(left, seat 1)."""
        self._end("left", 1, f"seat 1 (the host) left: {reason}")
        return self._take()

    def record(self) -> dict:
        """The match record (docs/royals-record-format.md) of the checked rounds, with the
        ``lan`` key (game id, how it ended, the seat at fault); identical on every peer;
        ``rose-king check`` accepts it."""
        return _record(self.confirmed, self.names, self.date, self.game_id, self.over, self.fingerprint)


def _result_text(st: State) -> str:
    o = st.outcome()
    return "" if o is None else f"scores {','.join(map(str, o.scores))}, winners {','.join(map(str, o.winners))}"


class JoinerMatch:
    """A joiner's side of one match (seat 2..4): its :class:`~game.royals.engine.SeatView`,
    its coin secrets, what it heard (:class:`Heard`) and the round check.

    ``game_id`` (16 bytes), ``seat``, ``names`` (seat 1 first), ``teams``, ``date`` (the
    host's, for the record), ``now``. Raises ValueError for a bad seat.

    Attributes: ``view`` (what we know; ``view.state`` for the window, ``view.observation()``
    for a computer: our own computer chooses from it, never from anything of the host's),
    ``checked`` (the true match as of the last checked round), ``heard``, ``received`` (host
    messages held), ``over``.
    """

    def __init__(self, game_id: bytes, seat: int, names: Sequence[str], *, teams: bool = False, date: str = "",
                 now: float = 0.0, token_bytes: Callable[[int], bytes] = _secrets.token_bytes) -> None:
        n = len(names)
        if n not in (2, 3, 4) or not 2 <= seat <= n:
            raise ValueError(f"seat {seat!r} is not a joiner seat of a {n}-seat match")
        if not isinstance(game_id, bytes) or len(game_id) != 16:
            raise ValueError("the game id must be 16 bytes")
        self.game_id, self.seat, self.names, self.players, self.teams, self.date = \
            game_id, seat, list(names), n, bool(teams), date
        self.view = SeatView(seat, n, teams)
        self.checked = State(n, teams)
        self.confirmed = State(n, teams)
        self.fingerprint = first_fingerprint(game_id)
        self.heard = Heard(seat)
        self.received = 0
        self.over: MatchOver | None = None
        self._token = token_bytes
        self._queue: list[dict] = []
        self._events: list[Event] = []
        self._my_commits: dict[int, bytes] = {}
        self._revealed_at: tuple[int, float] | None = None
        #: the ply of our own PLAY whose drawn card (``you``) has not come yet: no decision until it
        #: has (issue 33, attack 5: a view that has not applied everything owed to it decides nothing)
        self._draw_owed: int | None = None
        self._prompted = -1
        self._last_ack: dict | None = None
        self._started = False

    # ------------------------------------------------------------------ journal
    def journal(self) -> dict:
        """Our promises as JSON-able data: game, seat, names, date, our coin secrets and
        commitments, our decisions; write it before sending (the transport does)."""
        return {"format": "royals-lan-journal", "version": 1, "game": self.game_id.hex(), "seat": self.seat,
                "names": list(self.names), "teams": self.teams, "date": self.date,
                "coins": {str(p): [self.heard.my_secrets[p].hex(), c.hex()] for p, c in self._my_commits.items()},
                "own": {str(p): t for p, t in self.heard.own.items()}}

    @classmethod
    def from_journal(cls, data: dict, now: float = 0.0,
                     token_bytes: Callable[[int], bytes] = _secrets.token_bytes) -> "JoinerMatch":
        """A joiner restarted from :meth:`journal` data (``received`` 0: resume from the start).
        Raises ValueError for malformed data."""
        try:
            if data["format"] != "royals-lan-journal" or data["version"] != 1:
                raise ValueError("not a Royals & Riots LAN journal")
            j = cls(bytes.fromhex(data["game"]), int(data["seat"]), [str(x) for x in data["names"]],
                    teams=bool(data["teams"]), date=str(data["date"]), now=now, token_bytes=token_bytes)
            for p, (sec, com) in data["coins"].items():
                secret, c = bytes.fromhex(sec), bytes.fromhex(com)
                if len(secret) != 32 or commitment(j.game_id, int(p), peer_of(j.seat), secret) != c:
                    raise ValueError(f"coin {p}: the secret does not open the commitment")
                j.heard.my_secrets[int(p)], j._my_commits[int(p)] = secret, c
            j.heard.own = {int(p): str(t) for p, t in data["own"].items()}
        except (KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"malformed journal: {e!r}"[:200]) from None
        return j

    # ------------------------------------------------------------------ output and queries
    def outgoing(self) -> list[dict]:
        """The messages queued for the host since the last call (drained). A commitment,
        reveal or decision queued for a ply the match has left meanwhile (a catch-up) is dropped."""
        out = []
        for m in self._queue:
            t = m["t"]
            if t in ("commit", "reveal") and (m["for"] != self.view.ply or self.view.state.chance() is None):
                continue
            if t == "act" and m["ply"] != self.view.ply:
                continue
            out.append(m)
        self._queue = []
        return out

    def _send(self, msg: dict) -> None:
        self._queue.append(msg)

    def _take(self) -> list[Event]:
        ev, self._events = self._events, []
        return ev

    def _in_step(self) -> bool:
        """Whether the view's round is the one after the last checked round (not waiting for a reveal)."""
        st = self.view.state
        return st.round == self.checked.round and not st.is_over()

    def my_turn(self) -> Observation | None:
        """Our observation when we must decide (and have not yet), else None."""
        st = self.view.state
        if self.over is not None or not self._in_step() or st.is_chance() or st.to_act != self.seat \
                or st.ply in self.heard.own or self.heard.proxied(st.ply) or self._draw_owed is not None:
            return None
        return self.view.observation()

    # ------------------------------------------------------------------ the flow
    def start(self, now: float) -> list[Event]:
        """Commit to round 1's first coin."""
        if self._started:
            raise ValueError("the match has already started")
        self._started = True
        self._advance(now)
        return self._take()

    def _advance(self, now: float) -> None:
        if self.over is not None or not self._in_step():
            return
        st = self.view.state
        p = st.ply
        event = st.chance()
        if event is not None:
            if self.heard.proxied(p):
                return
            if p not in self._my_commits:
                secret, c = self._open(p)
                self.heard.my_secrets[p], self._my_commits[p] = secret, c
                self._events.append(CoinOpened(p, event.kind.value))
            self._send({"t": "commit", "for": p, "c": self._my_commits[p]})
            return
        if st.to_act == self.seat and not self.heard.proxied(p):
            if p in self.heard.own:
                self._send({"t": "act", "ply": p, "a": self.heard.own[p]})
            elif self._prompted != p and self._draw_owed is None:
                self._prompted = p
                self._events.append(Turn(self.seat, p, self.view.observation()))

    def _open(self, p: int) -> tuple[bytes, bytes]:
        secret = self._token(32)
        return secret, commitment(self.game_id, p, peer_of(self.seat), secret)

    def play(self, action: Action, now: float) -> list[Event]:
        """Our decision. Raises IllegalMoveError (not our turn, or the rules, from our view)."""
        if self.my_turn() is None:
            raise IllegalMoveError(f"not seat {self.seat}'s decision now")
        st = self.view.state
        if not _is_decision(action) or _decider(st, action) != self.seat:
            raise IllegalMoveError(f"not a decision of seat {self.seat}: {action}")
        reason = self.view.check(action)
        if reason is not None:
            raise IllegalMoveError(reason)
        if action.kind is KEEP:
            action = Action.keep(action.seat, action.cards)
        self.heard.own[st.ply] = str(action)  # into the journal before it is sent
        self._send({"t": "act", "ply": st.ply, "a": str(action)})
        return self._take()

    def resumed(self, now: float) -> list[Event]:
        """A new connection is seated (after the host's catch-up was queued): re-send our
        unfinished commit/reveal, our unanswered decision and our last ack (identical repeats
        are ignored by the host)."""
        if self._last_ack is not None:
            self._send(dict(self._last_ack))
        p = self.view.ply
        held = self.heard.commits.get(p)
        if held is not None and held[self.seat - 1] == self._my_commits.get(p):
            self._send({"t": "reveal", "for": p, "s": self.heard.my_secrets[p]})
        elif held is None:
            self._advance(now)
        return self._take()

    def tick(self, now: float) -> list[Event]:
        """Deadline: the host withholding a coin's outcome OUTCOME_TIMEOUT after our reveal
        (the host saw the outcome first; stalling is treated as the host leaving)."""
        r = self._revealed_at
        if self.over is None and r is not None and r[0] == self.view.ply and now - r[1] > OUTCOME_TIMEOUT:
            self._end("left", 1, f"seat 1 (the host), ply {r[0]}: it withheld the coin's outcome for "
                      f"{OUTCOME_TIMEOUT:g} s after our reveal", send=True)
        return self._take()

    def _end(self, kind: str, seat: int, reason: str, send: bool = True) -> None:
        if self.over is not None:
            return
        self.over = MatchOver(kind, seat, reason)
        if send:
            self._send({"t": "error", "code": kind, "reason": reason[:500]})
        self._events.append(self.over)

    # ------------------------------------------------------------------ input
    def receive(self, msg: dict, now: float) -> list[Event]:
        """Handle one decoded message from the host."""
        if self.over is not None:
            return []
        t = msg.get("t")
        if t == "ping":
            return []
        if t == "error":
            code, reason = msg["code"], msg["reason"]
            if code in MATCH_FATAL:
                self.received += 1
                disputed = self._disputed(code, reason)
                if disputed:
                    self._end("coin", 1, disputed)
                else:
                    self._end(code, _fault_seat(reason), reason, send=False)
            else:
                self._events.append(Refused(self.seat, code, reason))
            return self._take()
        handler = {"commits": self._on_commits, "act": self._on_view, "you": self._on_view,
                   "hidden": self._on_view, "proxy": self._on_proxy, "round": self._on_round,
                   "ack": self._on_ack}.get(t)
        if handler is None:
            self._refuse(f"seat 1 (the host): a {t!r} message is not for a joiner")
            return self._take()
        try:
            handler(msg, now)
        except PlayError as e:
            if e.code in MATCH_FATAL:
                self.received += 1
                self._end(e.code, e.seat, str(e))
            else:  # not fatal (a wrong ply, an unreadable text): refused, nothing applied; resume later
                self._send({"t": "error", "code": e.code, "reason": str(e)[:500]})
                self._events.append(Refused(1, e.code, str(e)))
            return self._take()
        self.received += 1
        self._advance(now)
        return self._take()

    def _refuse(self, reason: str) -> None:
        self._send({"t": "error", "code": "order", "reason": reason[:500]})
        self._events.append(Refused(1, "order", reason))

    def _disputed(self, code: str, reason: str) -> str | None:
        """The host's ``illegal`` verdict against our own decision, which our view (built
        only from what the host told us of our cards) held legal: then the host told us
        false cards (a lying deal, keep or draw) and the verdict is the host's fault."""
        m = re.match(r"seat (\d), ply (\d+) \((.*?)\): ", reason)
        if code != "illegal" or m is None or int(m.group(1)) != self.seat:
            return None
        ply, text = int(m.group(2)), m.group(3)
        if self.heard.own.get(ply) != text or self.view.ply != ply:
            return None
        return (f"seat 1 (the host), ply {ply} ({text}): it refused our decision ({reason[m.end():][:120]}), which "
                "the cards it told us allow: it told us false cards")

    def _on_commits(self, msg: dict, now: float) -> None:
        p, c = msg["for"], list(msg["c"])
        held = self.heard.commits.get(p)
        if held is not None:
            if held != c:
                raise PlayError(1, p, "commits", "a second, different list of commitments for this coin", "coin")
            return  # an identical repeat (catch-up)
        st = self.view.state
        if p != st.ply or st.chance() is None or not self._in_step() or self.confirmed.ply != self.checked.ply:
            raise PlayError(1, p, "commits", f"commitments for coin {p}, but no coin is open at ply {st.ply}", "order")
        if len(c) != self.players:
            raise PlayError(1, p, "commits", f"{len(c)} commitments for {self.players} seats", "coin")
        mine = self._my_commits.get(p)
        if not self.heard.proxied(p):
            if mine is None:
                raise PlayError(1, p, "commits", "commitments before ours", "coin")
            if c[self.seat - 1] != mine:
                raise PlayError(1, p, "commits", f"our commitment (seat {self.seat}) was changed", "coin")
        if len(set(c)) != len(c):
            raise PlayError(1, p, "commits", "two seats with the same commitment (an echo)", "coin")
        self.heard.hear(msg)  # into the journal before our reveal is sent
        if mine is not None and c[self.seat - 1] == mine:  # (else the host's computer holds our part)
            self._send({"t": "reveal", "for": p, "s": self.heard.my_secrets[p]})
            self._revealed_at = (p, now)

    def _on_view(self, msg: dict, now: float) -> None:
        st = self.view.state
        t, ply = msg["t"], msg["ply"]
        text = msg.get("a", "")
        if not self._in_step() or self.confirmed.ply != self.checked.ply:
            raise PlayError(1, ply, text or t, "a message of the next round before the round check is complete",
                            "order")
        last = st.history[-1] if st.history else None
        own_draw = t == "you" and ply == st.ply - 1 and last is not None and last.kind is PLAY \
            and last.seat == self.seat
        if ply != st.ply and not own_draw:
            raise PlayError(1, ply, text or t, f"a message for ply {ply}, we are at ply {st.ply}", "order")
        chance = st.chance()
        if chance is not None and not own_draw:
            told = self.heard.commits.get(ply)
            if told is None:
                raise PlayError(1, ply, text or t, "a chance outcome before its coin's commitments", "coin")
        actor = (0 if st.phase.value == "deal" else self.seat) if t == "you" else msg.get("seat", 0)
        if t == "act":
            try:
                a = Action.from_str(text)
            except InvalidMoveError as e:
                raise PlayError(1, ply, text[:40], f"unreadable action: {e}", "schema") from None
            decider = _decider(st, a) if chance is None else 0
            if decider == self.seat and not self.heard.proxied(ply) and self.heard.own.get(ply) != text:
                raise PlayError(1, ply, text, f"a decision of seat {self.seat} (ours) that we did not make")
            why = self.view.check(a)
            if why is not None:
                raise PlayError(decider or 1, ply, text, why, "illegal" if decider else "coin")
            actor = _actor(st, a)
        draws = (t == "act" and chance is None and decider == self.seat and a.kind is PLAY
                 and len(st.piles[self.seat - 1]) > 0)
        try:
            self.view.hear(msg)
        except (ViewError, InvalidMoveError, ValueError) as e:
            if t == "act" and chance is None and decider:
                raise PlayError(decider, ply, text, getattr(e, "reason", str(e))) from None
            raise PlayError(1, ply, text or t, str(e), "coin") from None
        self.heard.hear(msg)
        if draws:
            self._draw_owed = ply
        elif own_draw:
            self._draw_owed = None
        if self._revealed_at is not None and self._revealed_at[0] < self.view.ply:
            self._revealed_at = None
        if not own_draw:
            self._events.append(Applied(ply, text, actor))

    def _on_proxy(self, msg: dict, now: float) -> None:
        ply, seat, on = msg["ply"], msg["seat"], msg["on"]
        if ply != self.view.ply:
            raise PlayError(1, ply, "proxy", f"a seat handed over at ply {ply}, we are at ply {self.view.ply}", "order")
        if seat == self.seat:
            spans = self.heard.proxy
            if on and not (spans and spans[-1][1] is None):
                spans.append([ply, None])
            elif not on and spans and spans[-1][1] is None:
                spans[-1][1] = ply
        self._events.append(SeatProxy(seat, ply, on))

    def _on_round(self, msg: dict, now: float) -> None:
        vs = self.view.state
        if self._in_step() or msg["first"] != self.checked.ply:
            raise PlayError(1, msg["first"], "round", "a round reveal before the round's end", "order")
        if len(msg["actions"]) != vs.ply - self.checked.ply:
            raise PlayError(1, msg["first"], "round", f"{len(msg['actions'])} actions revealed, we followed "
                            f"{vs.ply - self.checked.ply}", "coin")
        checked = self.checked.copy()
        check_round(checked, self.game_id, msg, self.heard)  # on a copy: a failed check leaves ours as it was
        self.checked = checked
        h = round_hash(msg["actions"])
        self._next_fingerprint = fold_fingerprint(self.fingerprint, h, [
            self.heard.commits[p] for p in sorted(self.heard.commits) if msg["first"] <= p < checked.ply])
        self.view.reset(self.checked)
        self._last_ack = {"t": "ack", "ply": self.checked.ply, "hash": h}
        self._send(dict(self._last_ack))
        self._events.append(RoundChecked(msg["round"], self.checked.ply, h))

    def _on_ack(self, msg: dict, now: float) -> None:
        """The host's ``ack``: every seat acknowledged the round we acknowledged last."""
        last = self._last_ack
        if last is None or msg["ply"] != last["ply"] or self.confirmed.ply == last["ply"]:
            raise PlayError(1, msg["ply"], "ack", "an acknowledgement of a round we did not just check", "order")
        if msg["hash"] != last["hash"]:
            raise PlayError(1, msg["ply"], "ack", "the host confirms another round than the one we checked",
                            "desync")
        self.confirmed = self.checked.copy()
        self.fingerprint = self._next_fingerprint
        if self.checked.is_over():
            self._end("finished", 0, "the match is over: " + _result_text(self.checked), send=False)

    def record(self) -> dict:
        """The match record of the rounds every seat checked (confirmed by the host's ``ack``;
        identical to the host's)."""
        return _record(self.confirmed, self.names, self.date, self.game_id, self.over, self.fingerprint)
