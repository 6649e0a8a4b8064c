"""The game-LAN protocol: what a game brings to the one LAN layer (docs/protocol.md, "The LAN layer").

The layer, bottom up (each pure except the session):

- :mod:`net.link`: one framed connection (length prefix, msgpack limits, rate limits, heartbeat).
- :mod:`net.lobby`: the hello (game key and versions), seats, seat proofs, resume secrets and
  the handshake deadline, written once for every game.
- a game's **match machine** (this module's :class:`MatchMachine`): the game's messages and
  rules, for one seat of one match; the host's machine relays (star topology).
- :mod:`net.session`: threads and sockets around the three, a mailbox for the window or a
  headless peer, the journal file (:mod:`net.journal`).

A game registers its LAN part (a :class:`LanPart`, e.g. a :class:`LanSpec`) on its plugin
(``GAME.lan``), the way it registers its rules; the shell never asks which game it is.

Seats are numbered 0..n-1, the host is seat 0 (a game may number its seats for people as it
likes, e.g. seat *s* + 1). Every machine is built the way h11 is: it consumes
events (:meth:`MatchMachine.receive`, :meth:`~MatchMachine.act`, :meth:`~MatchMachine.tick`,
:meth:`~MatchMachine.connected`) and returns a list of outputs (:class:`Send`, :class:`Save`,
:class:`Notice`, :class:`Over`); time (``now``, seconds, monotonic) and randomness
(``token_bytes``) come in as arguments, so a test can drive every peer of a whole match in
memory.

**Who owes what** (:class:`Owed`) is the ground of every forfeit: a machine lists, at any
moment, the steps some seat owes (a commitment, a reveal, a key, an acknowledgement, a
decision), each with the seat it is owed to and its deadlines. The rules that follow from
that list are pure and the same for every game (:func:`overdue`, :func:`deadline_verdict`,
:func:`stop_verdict`, :func:`judge_stop`); their one principle is that **no peer records
itself, or a seat it cannot prove at fault, on someone else's word** (docs/protocol.md, "Who
owes what, and the verdicts"):

1. a step past its deadline, as this peer's own clock saw it, names the seat that owes it
   (never the seat waiting for it); a step that reaches a joiner only through the host
   (:attr:`Owed.via`) names nobody: the joiner cannot tell the seat that withheld it from a
   host that did not relay it, and its record says ``disputed``, naming both;
2. a peer that stops (any ``error`` code, ``bye``, an ``over``) while it owes this peer a
   *forfeiting* step (a reveal, a key, an acknowledgement after it saw what could make it
   want to back out) forfeits;
3. what a peer says about another seat stands only where this peer can check it: a claim
   against a seat played here never stands (what this seat already sent is never taken
   back; what it still owes it sends, and the claimant then owes what follows), a claim this
   peer's own state refutes is the claimant's ``illegal``, and a claim about a third seat is
   the claimant's ``illegal`` on the host (which sees every seat's messages itself) and
   ``disputed`` on a joiner.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence, runtime_checkable

ALL = -1  #: :attr:`Send.to` for "every other seat" (the host sends it to each joiner)

#: Verdict kinds that end a match for every seat (docs/protocol.md, "The LAN layer").
END_KINDS = ("finished", "resigned", "forfeit", "illegal", "coin", "desync", "left", "disputed")
#: ``disputed``: this peer cannot tell which of two other seats is at fault (:attr:`Verdict.between`);
#: it ends this peer's match and names nobody.


# --------------------------------------------------------------------------- outputs
@dataclass(frozen=True)
class Send:
    """Queue ``msg`` (a map checked against the game's schemas) for seat ``to`` (:data:`ALL`:
    every seat but the sender; a joiner's machine always sends to seat 0, the host)."""

    to: int
    msg: dict[str, Any]


@dataclass(frozen=True)
class Save:
    """Make the journal durable now (:meth:`MatchMachine.payload` is written): every
    :class:`Send` after it in the same list leaves only once it is written (a promise is
    journaled before it is sent)."""


@dataclass(frozen=True)
class Notice:
    """Something for the player to see, as a code and plain data (never words: the window
    translates, the headless peer prints). ``code`` is the game's (``"move"``, ``"turn"``,
    ``"coin"``, ...); ``data`` holds ints, strings and tuples only."""

    code: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    """How a match ended. ``kind`` is one of :data:`END_KINDS`; ``seat``: the seat at fault (the
    resigner, the forfeiter, the seat of an illegal play), -1 for none; ``winners``: the seats
    that won (empty for a draw or a stopped match); ``ply``: the ply it ended at; ``detail``:
    English, for logs and records only."""

    kind: str
    seat: int = -1
    winners: tuple[int, ...] = ()
    ply: int = 0
    detail: str = ""
    #: for ``disputed``: the two seats one of which is at fault (ascending), else ()
    between: tuple[int, ...] = ()


@dataclass(frozen=True)
class Over:
    """The match is over for every seat with this :class:`Verdict` (the session tells every
    peer it can still reach with ``error{kind}`` unless the machine already sent it)."""

    verdict: Verdict


Output = Send | Save | Notice | Over


# --------------------------------------------------------------------------- owed steps
@dataclass(frozen=True)
class Owed:
    """A step seat ``seat`` owes seat ``to`` (:data:`ALL`: every seat) since ``since`` (s).

    ``step``: ``"commit"``, ``"reveal"``, ``"key"``, ``"ack"``, ``"act"`` (a game may add its
    own); ``ref``: the coin or ply it is about; ``since``: when it became owed (a reconnect
    does not move it). ``connected``/``total``: seconds by which it must come while the owing
    seat is connected (from ``since``, or from its latest seating if later) / in all, from
    ``since`` (a drop or a reconnect does not stop or restart that clock; see
    :meth:`deadline`). ``forfeits``: missing it (or stopping while it is owed) forfeits the
    match -- True only once the owing seat has seen what could make it want to back out (the
    others' commitments, its card); else the seat is only cut off (``withheld``) and may come
    back (with its connected time again).
    """

    seat: int
    step: str
    ref: int
    to: int
    since: float
    connected: float
    total: float
    forfeits: bool
    #: the seat this step reaches this peer through (a joiner's view of a third seat's step,
    #: relayed by the host, seat 0), -1 when it comes from ``seat`` itself. Such a step is
    #: judged at ``since + total`` only, and then names nobody (:func:`deadline_verdict`).
    via: int = -1

    def deadline(self, is_connected: bool, back: float = -math.inf) -> float:
        """The time (s, the machine's clock) the step is overdue at. Away: ``since + total``.
        Connected since ``back`` (s, the owing seat's latest seating, -inf: from the start):
        ``connected`` seconds from ``since`` or ``back``, whichever is later -- a seat that
        comes back has time to catch up --, but a forfeiting step never later than its total
        deadline, which runs from ``since`` whatever reconnects happen (else a withholder
        that reconnects before each connected deadline would never be named)."""
        if not is_connected or self.via >= 0:
            return self.since + self.total
        t = max(self.since, back) + self.connected
        return min(t, self.since + self.total) if self.forfeits else t


def overdue(owed: Iterable[Owed], now: float, is_connected: Callable[[int], bool] = lambda s: True,
            back: Callable[[int], float] = lambda s: -math.inf) -> Owed | None:
    """Rule 1: the owed step whose deadline passed first, or None if none has passed.

    ``is_connected(seat)`` says whether the owing seat is connected now (its connected
    deadline applies, else its total one); ``back(seat)``: when its current connection was
    seated (s, the machine's clock; see :meth:`Owed.deadline`). Ties go to the lower seat,
    then the step's order in ``owed``; the seat named is always the one that owes the step."""
    late = [(o.deadline(is_connected(o.seat), back(o.seat)), o.seat, i, o) for i, o in enumerate(owed)]
    late = [x for x in late if x[0] <= now]
    return min(late, key=lambda x: x[:3])[3] if late else None


def stop_verdict(owed: Iterable[Owed], sender: int, code: str, ply: int) -> Verdict | None:
    """Rule 2: the verdict when ``sender`` stops (``code``: its ``error`` code, ``"bye"``, or
    ``"eof"`` once its grace is over) while it owes a forfeiting step, else None (the stop is
    taken for what it says). ``ply``: the ply the match stands at."""
    for o in owed:
        if o.seat == sender and o.forfeits and o.via < 0:
            return Verdict("forfeit", sender, (), ply,
                           f"seat {sender} stopped ({code}) while it owed its {o.step} for {o.ref}")
    return None


def forfeit_claim_ok(owed: Iterable[Owed], me: int, claimant: int) -> bool:
    """Whether seat ``me`` still owes ``claimant`` (or every seat) a forfeiting step, as its own
    machine sees it (``owed``). A claim about such a step is answered by sending it (it goes as
    soon as it can), never by recording ``me``'s forfeit: ``me`` may have sent it already on a
    connection that broke. Anything ``me`` sent or acknowledged owes nothing."""
    return any(o.seat == me and o.forfeits and o.to in (claimant, ALL) and o.via < 0 for o in owed)


def deadline_verdict(late: Owed, is_connected: bool, ply: int) -> Verdict | None:
    """Rule 1's verdict on ``late``, the step :func:`overdue` found past its deadline (seen by this
    peer's own clock); ``is_connected``: whether its seat is connected now; ``ply``: where the
    match stands. None: the seat is only cut off (``withheld``: a step that forfeits nothing,
    missed while connected), and may come back.

    - a step that reached this peer only through the host (:attr:`Owed.via`): ``disputed``
      between the host and the owing seat (either withheld it);
    - a forfeiting step: the owing seat's ``forfeit``;
    - any other step missed while the seat is away past its total deadline: the seat ``left``
      (the same verdict whichever seat it is, host or joiner)."""
    if late.via >= 0:
        pair = tuple(sorted((late.via, late.seat)))
        return Verdict("disputed", -1, (), ply, f"seat {late.seat}'s {late.step} for {late.ref} never came "
                       f"through seat {late.via}", between=pair)
    if late.forfeits:
        return Verdict("forfeit", late.seat, (), ply, f"seat {late.seat} withheld its {late.step} for {late.ref}")
    if not is_connected:
        return Verdict("left", late.seat, (), ply, f"seat {late.seat} stayed away owing its {late.step} "
                       f"for {late.ref}")
    return None


def judge_stop(owed: Sequence[Owed], me: int, sender: int, code: str, named: int, ply: int,
               local: Iterable[int] = ()) -> Verdict | None:
    """The verdict when seat ``sender`` stops the match with ``code`` (its ``over{kind, seat}``
    naming seat ``named``, or an ``error{code}`` naming nobody: ``named`` -1), seen by seat
    ``me`` (0: the host) whose machine lists ``owed``; ``local``: other seats played here (the
    host's computers). None when the stop ends nothing (``bye``, ``eof``, ``timeout``,
    ``disputed``, a claim answered by sending what was owed: the sender is only away and its
    deadlines run on). In order:

    1. ``disputed``: the sender ended its own match undecided; it is only away (a step it owes
       still forfeits at its deadline: a seat kept waiting by another may owe one);
    2. the sender owes this peer a forfeiting step: **its** forfeit, whatever it says (rule 2);
    3. anything naming the sender itself, and ``resigned``, ``left``, ``illegal``, ``coin``,
       ``desync`` naming nobody: the sender says it of itself (or of nobody), it stands;
    4. ``finished``: false -- this seat's machine would be over already (the last move comes
       before the sender's verdict on the same stream): the sender's ``illegal``;
    5. anything naming a seat played here (a ``forfeit`` naming nobody names ``me``): never
       stands. A forfeit claim about a step this seat still owes the sender: None (it is sent;
       the claimant owes what follows); anything else this peer's own state refutes: the
       sender's ``illegal``;
    6. anything naming a third seat: on the host, which sees every seat's messages itself and
       would have found the fault, the sender's ``illegal``; on a joiner, which sees a third
       seat only through the host, ``disputed`` between the two."""
    third = named >= 0 and named != sender and named != me and named not in set(local)
    if me != 0 and third and code in END_KINDS and code not in ("disputed", "finished"):
        # a joiner cannot check a third seat, nor tell a false claim from a true one made while
        # the claimant still owed it something (an honest host ending the match on a fault it
        # found): rule 2 would blame a seat on a word it cannot weigh
        return Verdict("disputed", -1, (), ply, f"seat {sender} claimed {code} of seat {named}, which this "
                       "seat cannot check", between=tuple(sorted((sender, named))))
    if code == "disputed":   # it could not decide and left: only away; a step it owes still
        return None          # forfeits at its deadline (a seat kept waiting may owe one)
    v = stop_verdict(owed, sender, code, ply)
    if v is not None:
        return v
    if code not in END_KINDS:
        return None
    if named == sender or named == -1 and code in ("resigned", "left", "illegal", "coin", "desync"):
        return Verdict(code, sender if code in ("resigned", "left") else named, (), ply,
                       f"seat {sender} ended the match: {code}")
    if code == "finished":
        return Verdict("illegal", sender, (), ply, f"seat {sender} claimed the match finished; it was not")
    accused = me if named < 0 else named
    if accused == me or accused in set(local):
        if code == "forfeit" and forfeit_claim_ok(owed, accused, sender):
            return None
        return Verdict("illegal", sender, (), ply, f"seat {sender} claimed {code} of seat {accused}, "
                                                    "which this seat's own state refutes")
    if me == 0:
        return Verdict("illegal", sender, (), ply, f"seat {sender} claimed {code} of seat {accused} "
                                                    "without evidence")
    return Verdict("disputed", -1, (), ply, f"seat {sender} claimed {code} of seat {accused}, which this "
                   "seat cannot check", between=tuple(sorted((sender, accused))))


# --------------------------------------------------------------------------- a match
@dataclass(frozen=True)
class Table:
    """What every seat of a match agrees on before its first message (sent in ``start``):
    ``game_id`` (16 bytes, from the hellos' nonces, :func:`net.coin.game_id_from`), ``names``
    (one per seat, seat 0 first), ``date`` (the host's ISO date, the record's), ``options``
    (the game's lobby choices: plain data, e.g. the host's colour, teams),
    ``computers`` (the seats the host's program plays), ``sign_keys`` (for a game whose
    messages are signed, every seat's 32-byte signing public key, from the hellos; else empty)."""

    game_id: bytes
    names: tuple[str, ...]
    date: str
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the seats the host's program plays (their coin parts and decisions are the host's)
    computers: tuple[int, ...] = ()
    #: every seat's signing public key (a game that signs; :attr:`LanPart.signing`), else ()
    sign_keys: tuple[bytes, ...] = ()

    @property
    def seats(self) -> int:
        return len(self.names)


class MatchMachine(Protocol):
    """One seat's side of one match of a game (pure; no sockets, threads or clock).

    ``seat``: this machine's seat (0 = host); ``table``: the :class:`Table`. On the host,
    ``receive`` gets every joiner's messages and sends relays as :class:`Send` to each seat;
    on a joiner, it gets the host's messages (``sender`` is 0) and sends only to seat 0.
    """

    seat: int
    table: Table

    def start(self, now: float) -> list[Output]:
        """The match begins (all seats confirmed): the first coin's commitment, and so on."""
        ...

    def receive(self, sender: int, msg: dict[str, Any], now: float) -> list[Output]:
        """A message of the game's schemas from seat ``sender``, already checked by its frame
        and schema. A message that breaks the game's rules returns :class:`Over` (illegal,
        coin, desync: the match ends) or raises :class:`Refusal` (only that connection is
        closed with its code; the match goes on and the seat may resume)."""
        ...

    def act(self, action: Any, now: float, seat: int | None = None) -> list[Output]:
        """This seat's own decision (the game's action type), or, on the host, the decision of
        ``seat``, a computer seat the host's program plays (``kinds`` ``"computer"``; its coin
        parts are the host machine's too). Raises ValueError (the game's IllegalMoveError is
        one) with the reason, changing nothing, when it is not legal now."""
        ...

    def tick(self, now: float) -> list[Output]:
        """Time passes: the game's deadlines (normally ``overdue(self.owed(), now, ...)``)."""
        ...

    def owed(self) -> list[Owed]:
        """Every step some seat owes now, as far as this seat can tell (the forfeit rules above
        read it): its own and the others', including steps owed to the host by third seats (a
        joiner lists every seat's reveal of a coin whose commitments it saw until the coin's
        outcome comes), so that a verdict the host relays about a third seat can be judged."""
        ...

    def connected(self, seat: int, now: float) -> list[Output]:
        """Seat ``seat``'s connection is up (host side) or the host is (joiner side)."""
        ...

    def disconnected(self, seat: int, now: float) -> list[Output]:
        """Seat ``seat``'s connection dropped; its deadlines run on (:attr:`Owed.total`)."""
        ...

    def end(self, verdict: Verdict, now: float) -> list[Output]:
        """The match ends with ``verdict``, judged by the session (:func:`judge_stop`,
        :func:`overdue`) or received from a peer and checked there; the machine records it
        (its record's termination) and changes nothing else. Anything acknowledged stays."""
        ...

    def set_computer(self, seat: int, on: bool, now: float) -> list[Output]:
        """Host: hand joiner ``seat`` (away) to the host's computer (``on``), or give it back to
        its person, who proved the seat again; the game tells the others (its own message) and
        accepts the host's decisions for that seat meanwhile. Raises ValueError when the seat
        cannot be handed over now (it owes a forfeiting step: the forfeit rules decide)."""
        ...

    def abortable(self) -> bool:
        """Host: nothing of the match is bound yet (no seat saw another's secret or a chance
        outcome, no decision was made), so a seat that drops now may be given to someone else:
        the match is called off and the lobby reopens (attack 3: a hello, even a
        confirmed one, holds no seat while nothing is at stake)."""
        ...

    def catch_up(self, seat: int, have: int, now: float) -> list[Output]:
        """Host: seat ``seat`` resumed holding ``have`` of the match messages sent to it; send it
        the rest (its own view only). Raises :class:`Refusal` ("order") for a ``have`` beyond
        them. Joiner (``seat`` 0): the host took us back; re-send what may have been lost."""
        ...

    def received(self) -> int:
        """Joiner: how many of the host's match messages it has handled (its resume hello's
        ``have``); host: its ply."""
        ...

    def check_verdict(self, verdict: Verdict, sender: int) -> Verdict | None:
        """The layer's verdict (:func:`judge_stop`) on seat ``sender``'s stop, as this machine
        takes it: ``verdict`` itself for a game with no evidence of its own (Rose King), or one
        checked against what it holds (Royals & Riots' signed envelopes); None: the stop ends
        nothing."""
        ...

    def waiting_for(self) -> tuple[int, ...]:
        """The seats (0-based, ascending) whose decision the match waits for now, as this seat
        sees it: none while chance is being settled, before the deal or once it is over. The
        window shows them as "thinking"; nothing is judged by it (see :meth:`owed`)."""
        ...

    def payload(self) -> dict[str, Any]:
        """This seat's journal payload (JSON data: its secrets, commitments and own decisions),
        written before each promise leaves (:class:`Save`)."""
        ...

    def record(self) -> dict[str, Any]:
        """The match's record so far, the game's own format (identical on every peer)."""
        ...

    @property
    def over(self) -> Verdict | None:
        """The verdict once the match is over, else None."""
        ...


def outbox_catch_up(me: int, seat: int, outbox: Sequence[dict[str, Any]], have: int) -> list[Output]:
    """:meth:`MatchMachine.catch_up` for a machine that keeps every message it sent in
    ``outbox`` (in order) and ignores repeats: the host (``me`` 0) sends seat ``seat`` the
    messages from ``have`` on; a joiner re-sends the host its whole outbox. Raises
    :class:`Refusal` (``order``) for a ``have`` beyond what was sent."""
    if me != 0:
        return [Send(0, m) for m in outbox]
    if have > len(outbox):
        raise Refusal("order", f"holds {have} messages, only {len(outbox)} were sent")
    return [Send(seat, m) for m in outbox[have:]]


class Refusal(Exception):
    """A message refused with closing ``code`` (``order``, ``schema``, ``flood``,
    ``withheld``): that connection is closed, the match goes on."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code


# --------------------------------------------------------------------------- the registry entry
@runtime_checkable
class LanPart(Protocol):
    """A game's LAN part, registered on its plugin as ``GAME.lan`` (docs/architecture.md, "What a
    third game implements"): every member the session, the lobby and ``rose-king host/join`` read,
    none of them optional (a hook a game lacks is None). :class:`LanSpec` is one made of its
    members as fields; any object with them will do (``tests/net/nim_game.py``'s is a class).

    - ``key``: the game's key, sent in every hello (``g``); a hello for another key is
      refused with code ``game`` ("this table plays another game").
    - ``version``: the game's own protocol version (the hello's ``gv``); another is ``version``.
    - ``seats``: the allowed numbers of seats; ``auto_start``: the host starts the match as
      soon as every seat is taken (a two-player game), else its player starts it (a table of
      2-4 seats that may start short).
    - ``schemas``: the game's match messages (type -> key checks, :mod:`net.framing`), added to
      the lobby's; ``rates``: their token buckets (burst, refill per second); ``max_bin``: the
      longest binary its frames may hold (64 bytes for most games; more for, say, a signed envelope
      of a shuffled deck, up to the 64 KiB frame; ``net.framing.blob`` checks such a key).
    - ``new_match(seat, table, token_bytes)``: a fresh :class:`MatchMachine`;
      ``from_payload(seat, table, payload, token_bytes)``: one restored from a journal
      (raises ValueError for a payload that does not check).
    - ``turn(machine, seat)``: what ``seat``'s player sees when it must decide now (an
      observation the game's players take; cheap: it runs under the session's lock), else
      None — also None while anything owed to that seat has not been applied yet (a card it
      drew, a relayed play): a decision is taken only on a view that has everything owed to it; ``seat`` is the machine's own seat or, on the host, a computer seat it plays;
      ``player(level, seed)``: a computer player, ``observation -> action`` (it may think for
      a while: it runs outside the lock, in a worker thread for the host's computer seats).
      Both None for a game without computer players.
    - ``host_options(args)``: the lobby options (:attr:`Table.options`) a host's command line
      gives (``args``: its parsed options, those its plugin's ``add_host_arguments`` added); None:
      no options.
    - ``signing(seed)``: for a game whose match messages are signed, the public key (32 bytes) of
      a 32-byte signing seed. The session then draws a seed per seat it plays for each match,
      sends the public key in its hello (``sk``; the host sends every seat's in ``start``, so
      every seat pins every key before the first match message) and calls
      ``new_match(seat, table, token_bytes, seeds)`` with ``seeds``: seat -> seed. None: no keys.

    The members are read-only (properties here): a frozen dataclass's fields, a class's
    attributes or methods all satisfy them.
    """

    @property
    def key(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def seats(self) -> Sequence[int]: ...

    @property
    def schemas(self) -> Mapping[str, Mapping[str, Callable[[Any], str | None]]]: ...

    @property
    def rates(self) -> Mapping[str, tuple[float, float]]: ...

    @property
    def new_match(self) -> Callable[..., MatchMachine]:
        """``(seat, table, token_bytes)``, and ``seeds`` too for a game that signs (see above)."""
        ...

    @property
    def from_payload(self) -> Callable[[int, Table, dict[str, Any], Callable[[int], bytes]], MatchMachine]: ...

    @property
    def auto_start(self) -> bool: ...

    @property
    def turn(self) -> Callable[[MatchMachine, int], Any] | None: ...

    @property
    def player(self) -> Callable[[str, int], Callable[[Any], Any]] | None: ...

    @property
    def max_bin(self) -> int: ...

    @property
    def host_options(self) -> Callable[[Any], dict[str, Any]] | None: ...

    @property
    def signing(self) -> Callable[[bytes], bytes] | None: ...


@dataclass(frozen=True)
class LanSpec:
    """A :class:`LanPart` made of its members as fields (Rose King's and Royals & Riots' parts
    are), with the defaults a simple game takes: started as soon as every seat is taken, no
    computer players, 64-byte binaries, no host options, no signing keys."""

    key: str
    version: int
    seats: Sequence[int]
    schemas: Mapping[str, Mapping[str, Callable[[Any], str | None]]]
    rates: Mapping[str, tuple[float, float]]
    #: ``(seat, table, token_bytes)``, or with ``seeds`` for a game that signs (see above)
    new_match: Callable[..., MatchMachine]
    from_payload: Callable[[int, Table, dict[str, Any], Callable[[int], bytes]], MatchMachine]
    auto_start: bool = True
    turn: Callable[[MatchMachine, int], Any] | None = None
    player: Callable[[str, int], Callable[[Any], Any]] | None = None
    max_bin: int = 64
    host_options: Callable[[Any], dict[str, Any]] | None = None
    signing: Callable[[bytes], bytes] | None = None
