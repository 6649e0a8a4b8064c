"""Rose King's match machine on the one LAN layer (docs/protocol.md, "Rose King").

One :class:`RoseKingMatch` is one seat's side of one game (seat 0 the host, 1 the joiner);
pure, in the manner of h11: it consumes the other seat's messages, its own player's moves and
the clock (passed in), and returns :mod:`net.match` outputs. :data:`LAN` is Rose King's
:class:`~net.match.LanPart`, registered on its plugin as ``GAME.lan``.

Chance is a joint commit-reveal coin of both seats (:mod:`net.coin`): coin -1 sets the colours
and the deal (:func:`setup_from_coin`), coin ``p`` the card of the draw made at ply ``p``
(:func:`draw_from_coin`). The drawer opens a draw's coin with its ``commit``; the other seat
answers with its ``commit`` and ``reveal`` at once; the drawer, holding both secrets, knows
its card and owes its ``reveal`` (a *forfeiting* step: withholding it, or stopping the match
while it is owed, is its forfeit, whatever it says). The set-up coin is tossed the same way by
both seats at the start.

Who owes what (:meth:`RoseKingMatch.owed`), the ground of the layer's three forfeit rules:

- the other seat's commitment of an open coin (cut off after 6 s connected; away 60 s in all:
  it left);
- the other seat's reveal once this seat revealed (10 s connected, 60 s in all: its forfeit);
- this seat's own reveal once it holds the other's commitment (it reveals at once: transient);
- the other seat's ``ack`` of this seat's last draw once this seat's reveal went (10 s
  connected, 60 s in all: its forfeit -- it may hold the card). What this seat sent is never
  taken back: a claim that the reveal never came is answered by the catch-up, which sends it
  again, and the claimant still owes the ack;
- the other seat's decision (a move, a draw or a resignation) once its turn came, as this seat
  saw it (:data:`DECIDE_S`, 10 minutes, connected or not: a seat still silent is cut off, and
  one that stays away then has left; never a forfeit: it saw nothing it could back out of).

Every message this seat sends is kept in its outbox (journaled before it leaves, with the
promise it carries); a resumed joiner is sent the host's messages from its ``have`` on, and
re-sends its whole outbox (repeats are recognised and ignored, a different repeat is a desync
or, for a coin, a re-roll).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from game.roseking.engine import DRAW, Card, Color, IllegalMoveError, InvalidMoveError, Move, Record, State
from game.roseking.engine.state import random_deal

from net.coin import coin_digest, coin_rng, commitment
from net.match import (LanSpec, MatchMachine, Notice, Output, Over, Owed, Refusal, Save, Send, Table, Verdict,
                       outbox_catch_up)
from .messages import RATES, SCHEMAS

COMMIT_S = 6.0  #: seconds, connected, a coin waits for the other seat's commitment (then: cut off)
REVEAL_S = 10.0  #: seconds, connected, from our reveal to the other's (then: its forfeit)
FORFEIT_S = 60.0  #: seconds in all, connected or not, before a withheld step is overdue
DECIDE_S = 600.0  #: seconds a player's decision may take (then: cut off; away: it left)
SETUP = -1  #: the set-up coin's purpose (colours and deal)
RESIGN = "resign"  #: the action that resigns (:meth:`RoseKingMatch.act`)
NEVER = float("inf")
KEY = "rose-king"
VERSION = 3  #: Rose King's protocol version on the layer (the hello's ``gv``)


def setup_from_coin(digest: bytes, choice: str = "") -> tuple[Color, tuple[Card, ...], tuple[Card, ...]]:
    """(host's colour, red's hand, white's hand) from the set-up coin's 32-byte digest.

    With ``rng = coin_rng(digest)``: the host plays red when ``rng.randbelow(2) == 0``; then
    :func:`~game.roseking.engine.state.random_deal` shuffles the 24 cards (Fisher-Yates with the
    same ``rng``) and deals 5 to red, then 5 to white (ruling 3). ``choice``: the colour the host
    chose (``"red"``/``"white"``, the table's option ``colour``) or ``""`` (random); the draw of
    ``randbelow(2)`` is made either way, so the deal does not depend on the choice."""
    rng = coin_rng(digest)
    host_color = Color.RED if rng.randbelow(2) == 0 else Color.WHITE
    if choice:
        host_color = Color.from_name(choice)
    red, white = random_deal(rng)
    return host_color, red, white


def draw_from_coin(digest: bytes, state: State) -> Card:
    """The card a draw brings: ``state.chance_outcomes()[coin_rng(digest).randbelow(n)]``, the
    n cards of the draw pile in card-index order."""
    outcomes = state.chance_outcomes()
    return outcomes[coin_rng(digest).randbelow(len(outcomes))]


@dataclass
class Coin:
    """This seat's side of one coin: its ``secret``, the other seat's commitment and secret as
    they came, whether this seat revealed. ``opened``/``revealed_at``: clock times (s) the
    deadlines run from; None after a restart until the next tick (the clock of another run)."""

    purpose: int
    secret: bytes
    their_commit: bytes | None = None
    their_secret: bytes | None = None
    revealed: bool = False
    opened: float | None = None
    revealed_at: float | None = None

    @property
    def done(self) -> bool:
        return self.their_secret is not None

    def to_json(self) -> list[Any]:
        return [self.purpose, self.secret.hex(), _hex(self.their_commit), _hex(self.their_secret), self.revealed]

    @classmethod
    def from_json(cls, v: Any) -> "Coin":
        p, s, c, t, r = v
        if type(p) is not int or type(r) is not bool:
            raise ValueError("a coin is [purpose, secret, their commitment, their secret, revealed]")
        return cls(p, _unhex(s, 32), _unhex(c, 32) if c is not None else None,
                   _unhex(t, 32) if t is not None else None, r)


def _hex(b: bytes | None) -> str | None:
    return None if b is None else b.hex()


def _unhex(v: Any, n: int) -> bytes:
    b = bytes.fromhex(v) if isinstance(v, str) else b""
    if len(b) != n:
        raise ValueError(f"expected {n} bytes in hex")
    return b


class RoseKingMatch:
    """One seat of a Rose King match (a :class:`net.match.MatchMachine`). ``seat``: 0 host, 1
    joiner; ``table``: the lobby's :class:`~net.match.Table` (option ``colour``: the host's
    choice, ``"red"``, ``"white"`` or ``""``); ``token_bytes``: the source of secrets.
    ``payload``: a journal's (:meth:`payload`) to restore; raises ValueError if it does not check.
    On the host, a joiner seat listed in ``table.computers`` is played here: its coin parts are
    this machine's and no message is sent."""

    def __init__(self, seat: int, table: Table, token_bytes: Callable[[int], bytes],
                 payload: dict[str, Any] | None = None) -> None:
        if seat not in (0, 1) or table.seats != 2:
            raise ValueError("Rose King is played by two seats")
        self.seat, self.table, self.peer = seat, table, 1 - seat
        self._token = token_bytes
        choice = table.options.get("colour", "")
        self.choice = choice if choice in ("", "red", "white") else ""
        #: the host plays the other seat itself (a computer seat): no messages
        self.solo = seat == 0 and self.peer in table.computers
        self.coins: dict[int, Coin] = {}
        self.state: State | None = None
        self._hashes: list[bytes] = []  #: the state hash after each ply (0: the deal)
        self.host_color: Color | None = None
        self.acked = 0  #: the highest ply the other seat acknowledged
        self.outbox: list[dict[str, Any]] = []
        self.handled = 0
        self._over: Verdict | None = None
        #: (ply, seat to move) and the time (s) that seat's turn came, as :meth:`tick` saw it
        self._turn: tuple[int, int] = (-1, -1)
        self._turn_since: float | None = None
        if payload is not None:
            self._restore(payload)

    # ------------------------------------------------------------------ queries
    @property
    def over(self) -> Verdict | None:
        return self._over

    def color_of(self, seat: int) -> Color | None:
        if self.host_color is None:
            return None
        return self.host_color if seat == 0 else self.host_color.other

    def seat_of(self, color: Color) -> int:
        return 0 if color == self.host_color else 1

    @property
    def ply(self) -> int:
        return 0 if self.state is None else self.state.ply

    def open_coin(self) -> Coin | None:
        """The coin being tossed now (the set-up, or the draw at the current ply), or None."""
        purpose = SETUP if self.state is None else self.state.ply
        c = self.coins.get(purpose)
        return c if c is not None and not c.done else None

    def to_move(self) -> int:
        """The seat to decide now, -1 when nobody may (a coin is open, no game, or it is over)."""
        if self._over is not None or self.state is None or self.state.is_game_over() or self.open_coin():
            return -1
        return self.seat_of(self.state.turn)

    # ------------------------------------------------------------------ helpers
    def _send(self, msg: dict[str, Any]) -> list[Output]:
        if self.solo:
            return []
        self.outbox.append(msg)
        return [Send(self.peer, msg)]

    def _hash(self) -> bytes:
        """The state hash after the last ply (32 bytes)."""
        return self._hashes[-1]

    @property
    def hashes(self) -> tuple[bytes, ...]:
        """The state hash after each ply (index 0: after the deal), as the two peers compare
        them in ``move``/``ack`` (docs/protocol.md); 32 bytes each."""
        return tuple(self._hashes)

    def _open(self, purpose: int, now: float, their_commit: bytes | None = None) -> Coin:
        c = Coin(purpose, self._token(32), their_commit, opened=now)
        if self.solo:  # the computer's part is ours too
            c.their_secret = self._token(32)
            c.their_commit = commitment(self.table.game_id, purpose, self.peer, c.their_secret)
            c.revealed = True
        self.coins[purpose] = c
        return c

    def _commit_msg(self, c: Coin) -> dict[str, Any]:
        return {"t": "commit", "for": c.purpose, "c": commitment(self.table.game_id, c.purpose, self.seat, c.secret)}

    def _reveal(self, c: Coin, now: float) -> list[Output]:
        c.revealed, c.revealed_at = True, now
        return self._send({"t": "reveal", "for": c.purpose, "s": c.secret})

    def _digest(self, c: Coin) -> bytes:
        assert c.their_secret is not None
        both = (c.secret, c.their_secret) if self.seat == 0 else (c.their_secret, c.secret)
        return coin_digest(self.table.game_id, c.purpose, both)

    def _resolve(self, c: Coin) -> list[Output]:
        """Coin ``c`` has both secrets: the game starts (set-up) or the draw is made."""
        if c.purpose == SETUP:
            self.host_color, red, white = setup_from_coin(self._digest(c), self.choice)
            self.state = State(red, white)
            self._hashes = [bytes.fromhex(self.state.state_hash())]
            return [Notice("dealt", {"host": str(self.host_color)}), Notice("record")]
        assert self.state is not None
        move = Move(self.state.turn, DRAW, draw_from_coin(self._digest(c), self.state))
        return self._push(move)

    def _push(self, move: Move) -> list[Output]:
        assert self.state is not None
        self.state.push_checked(move)
        self._hashes.append(bytes.fromhex(self.state.state_hash()))
        out: list[Output] = [Notice("move", {"ply": self.state.ply, "move": str(move),
                                     "seat": self.seat_of(move.player)}), Notice("record")]
        outcome = self.state.outcome()
        if outcome is not None:
            winners = () if outcome.winner is None else (self.seat_of(outcome.winner),)
            self._over = Verdict("finished", -1, winners, self.state.ply,
                                 f"{outcome.termination.name.lower()}: red {outcome.red_score}, "
                                 f"white {outcome.white_score}")
            out.append(Over(self._over))
        return out

    def _pop(self) -> None:
        assert self.state is not None
        self.state.pop()
        self._hashes.pop()

    def _stop(self, kind: str, seat: int, why: str) -> list[Output]:
        return [Over(Verdict(kind, seat, (1 - seat,) if kind == "forfeit" else (), self.ply, why))]

    # ------------------------------------------------------------------ MatchMachine
    def start(self, now: float) -> list[Output]:
        """Toss the set-up coin: our commitment, journaled before it leaves."""
        if SETUP in self.coins:
            return []
        c = self._open(SETUP, now)
        if self.solo:
            return [Save()] + self._resolve(c)
        return [Save()] + self._send(self._commit_msg(c))

    def receive(self, sender: int, msg: dict[str, Any], now: float) -> list[Output]:
        """The other seat's ``commit``/``reveal``/``move``/``ack`` (module docstring). Breaking
        the rules ends the match (illegal, coin, desync, or the sender's forfeit for a coin it
        cheated after seeing ours); out of order raises :class:`Refusal`."""
        self.handled += 1
        if sender != self.peer or self.solo:
            raise Refusal("order", f"a message from seat {sender}")
        if self._over is not None:
            return []  # crossed the end of the match on the wire
        handler = {"commit": self._on_commit, "reveal": self._on_reveal, "move": self._on_move,
                   "ack": self._on_ack}.get(msg["t"])
        if handler is None:
            raise Refusal("order", f"unexpected {msg['t']!r}")
        return _last_over(handler(msg, now))

    def _on_commit(self, msg: dict[str, Any], now: float) -> list[Output]:
        p, their = msg["for"], msg["c"]
        c = self.coins.get(p)
        if c is not None and c.their_commit is not None:
            if their == c.their_commit:
                return []  # a repeat after resuming
            return self._cheat(p, f"a second, different commitment for coin {p} (a re-roll)")
        if p != (SETUP if self.state is None else self.state.ply):
            raise Refusal("order", f"a commitment for coin {p} at ply {self.ply}")
        out: list[Output] = []
        if c is None:
            if p == SETUP:
                raise Refusal("order", "a set-up commitment before the start")
            assert self.state is not None  # the other seat starts its draw
            peer_color = self.color_of(self.peer)
            if self.state.is_game_over() or self.state.turn != peer_color or \
                    Move(peer_color, DRAW, None) not in self.state.legal_moves():
                return self._stop("illegal", self.peer, f"seat {self.peer} may not draw at ply {p}")
            c = self._open(p, now)
            out.append(Notice("drawing", {"seat": self.peer, "ply": p}))
            send_commit = True
        else:
            send_commit = False  # ours went first
        if their == commitment(self.table.game_id, p, self.seat, c.secret):
            return self._stop("coin", self.peer, f"seat {self.peer} echoed our commitment for coin {p}")
        c.their_commit = their
        sends = (self._send(self._commit_msg(c)) if send_commit else []) + self._reveal(c, now)
        return [Save()] + sends + out  # their commitment is fixed before our secret leaves

    def _on_reveal(self, msg: dict[str, Any], now: float) -> list[Output]:
        p, secret = msg["for"], msg["s"]
        c = self.coins.get(p)
        if c is None or c.their_commit is None:
            raise Refusal("order", f"a reveal before the commitment (coin {p})")
        if c.done:
            if secret == c.their_secret:
                return []  # a repeat after resuming
            return self._cheat(p, f"a second, different reveal for coin {p}")
        if commitment(self.table.game_id, p, self.peer, secret) != c.their_commit:
            return self._cheat(p, f"seat {self.peer}'s reveal does not open its commitment for coin {p}")
        c.their_secret = secret
        out: list[Output] = [Save()]
        if not c.revealed:
            out += self._reveal(c, now)
        out += self._resolve(c)
        if p != SETUP:
            out += self._send({"t": "ack", "ply": self.ply, "hash": self._hash()})
        return out

    def _cheat(self, p: int, why: str) -> list[Output]:
        """A coin cheat by the other seat: a draw's is its forfeit (it saw our part), the set-up's
        stops the match (``coin``)."""
        return self._stop("forfeit" if p != SETUP else "coin", self.peer, why)

    def _on_move(self, msg: dict[str, Any], now: float) -> list[Output]:
        ply, text, their_hash = msg["ply"], msg["m"], msg["hash"]
        if self.state is None:
            raise Refusal("order", "a move before the deal")
        n = self.state.ply
        if ply <= n:
            if str(self.state.move_stack[ply - 1]) != text or self._hashes[ply] != their_hash:
                return [Over(Verdict("desync", -1, (), ply, f"ply {ply} differs: we hold "
                                     f"{self.state.move_stack[ply - 1]}, seat {self.peer} sent {text[:24]}"))]
            return []  # a repeat after resuming
        if ply > n + 1 or self.open_coin() is not None:
            raise Refusal("order", f"a move for ply {ply} at ply {n}" + (" during a draw" if self.open_coin() else ""))
        try:
            move = Move.from_str(text)
        except InvalidMoveError as e:
            raise Refusal("schema", f"move: {e}") from None
        if move.player != self.color_of(self.peer) or move.kind is DRAW:
            return self._stop("illegal", self.peer, f"seat {self.peer} may not play {move} at ply {ply}")
        try:
            out = self._push(move)
        except IllegalMoveError as e:
            return self._stop("illegal", self.peer, f"refused seat {self.peer}'s move: {e}")
        if self._hashes[ply] != their_hash:
            self._over = None
            self._pop()
            return [Over(Verdict("desync", -1, (), ply, f"the state hashes differ after {move} at ply {ply}"))]
        return [Save()] + self._send({"t": "ack", "ply": ply, "hash": their_hash}) + out

    def _on_ack(self, msg: dict[str, Any], now: float) -> list[Output]:
        ply = msg["ply"]
        if self.state is None or ply > self.state.ply:
            raise Refusal("order", f"an acknowledgement of ply {ply}, which was never made")
        if self._hashes[ply] != msg["hash"]:
            return [Over(Verdict("desync", -1, (), ply, f"seat {self.peer}'s position after ply {ply} differs"))]
        if ply <= self.acked:
            return []
        draw = self._my_unacked_draw() is not None and ply == self.state.ply
        self.acked = ply
        # an acknowledged draw of ours is never taken back, even after a restart: journaled (other
        # acks come again with the catch-up of a resume)
        out: list[Output] = [Save()] if draw else []
        return out + [Notice("acked", {"ply": ply})]

    def act(self, action: Any, now: float, seat: int | None = None) -> list[Output]:
        """Play ``action`` for ``seat`` (ours; on the host also a computer seat): a
        :class:`~game.roseking.engine.Move` (a draw as ``Move(colour, DRAW, None)``: its coin
        opens, the card comes with the other seat's reveal) or :data:`RESIGN` (not while our own
        draw is being decided). Raises ValueError (IllegalMoveError, the engine's reason) when it
        is not legal now; nothing changes then."""
        seat = self.seat if seat is None else seat
        if seat != self.seat and not (self.solo and seat == self.peer):
            raise ValueError(f"seat {seat} is not played here")
        if self._over is not None or self.state is None:
            raise ValueError("no game is being played")
        if action == RESIGN:
            c = self.open_coin()
            if c is not None and c.purpose != SETUP and self.state.turn == self.color_of(seat):
                # the other seat may have revealed already: its verdict would be our forfeit, ours a
                # resignation; the card comes first (the records of both seats stay equal)
                raise ValueError("a draw is being decided: resign once its card is known")
            self._over = Verdict("resigned", seat, (1 - seat,), self.state.ply, f"seat {seat} resigned")
            return [Save(), Notice("record"), Over(self._over)]
        if not isinstance(action, Move):
            raise ValueError(f"not a move: {action!r:.40}")
        if self.to_move() != seat:
            raise IllegalMoveError(f"{action}: not your turn" if self.open_coin() is None
                                   else f"{action}: a draw is being decided")
        if action.player != self.state.turn:
            raise IllegalMoveError(f"{action}: you play {self.state.turn}")
        if action.kind is DRAW:
            if Move(action.player, DRAW, None) not in self.state.legal_moves():
                raise IllegalMoveError(f"{action}: {self.state.illegal_reason(action) or 'cannot draw now'}")
            c = self._open(self.state.ply, now)
            if self.solo:
                return _last_over([Save()] + self._resolve(c))
            return [Save()] + self._send(self._commit_msg(c)) + [Notice("drawing", {"seat": seat, "ply": c.purpose})]
        reason = self.state.illegal_reason(action)
        if reason:
            raise IllegalMoveError(f"{action}: {reason}")
        out = self._push(action)
        msg = {"t": "move", "ply": self.state.ply, "m": str(action), "hash": self._hash()}
        return _last_over([Save()] + self._send(msg) + out)

    def tick(self, now: float) -> list[Output]:
        for c in self.coins.values():  # restored: the deadlines run from the first tick of this run
            if c.opened is None:
                c.opened = now
            if c.revealed and c.revealed_at is None:
                c.revealed_at = now
        turn = (self.ply, self.to_move())
        if turn != self._turn:  # a turn came (or a restart): its decision is owed from now
            self._turn, self._turn_since = turn, now
        return []

    def owed(self) -> list[Owed]:
        """Every step a seat owes now (see the module docstring)."""
        if self._over is not None:
            return []
        out: list[Owed] = []
        c = self.open_coin()
        if c is not None and not self.solo:
            if c.their_commit is None and c.opened is not None:
                out.append(Owed(self.peer, "commit", c.purpose, self.seat, c.opened, COMMIT_S, FORFEIT_S, False))
            if c.their_commit is not None and c.revealed and c.revealed_at is not None:
                out.append(Owed(self.peer, "reveal", c.purpose, self.seat, c.revealed_at, REVEAL_S, FORFEIT_S, True))
            if c.their_commit is not None and not c.revealed:
                out.append(Owed(self.seat, "reveal", c.purpose, self.peer, c.opened or 0.0, NEVER, NEVER, True))
        last = self._my_unacked_draw()
        if last is not None:  # our reveal went: the other seat holds the card and owes its ack
            c = self.coins.get(last)
            since = c.revealed_at if c is not None and c.revealed_at is not None else None
            if since is not None:
                out.append(Owed(self.peer, "ack", last + 1, self.seat, since, REVEAL_S, FORFEIT_S, True))
        if not self.solo and self._turn == (self.ply, self.peer) and self._turn_since is not None:
            out.append(Owed(self.peer, "act", self.ply, self.seat, self._turn_since, DECIDE_S, DECIDE_S, False))
        return out

    def _my_unacked_draw(self) -> int | None:
        """The coin of this seat's last draw if it is the last ply and unacknowledged, else None."""
        if self.state is None or self.solo or not self.state.ply or self.acked >= self.state.ply:
            return None
        last = self.state.move_stack[-1]
        return self.state.ply - 1 if last.kind is DRAW and last.player == self.color_of(self.seat) else None

    def connected(self, seat: int, now: float) -> list[Output]:
        c = self.open_coin()
        if c is not None and c.their_commit is None:
            c.opened = now  # a fresh chance to commit after reconnecting
        return []

    def disconnected(self, seat: int, now: float) -> list[Output]:
        return []

    def end(self, verdict: Verdict, now: float) -> list[Output]:
        """Record ``verdict`` (judged by the session). The other seat's resignation ends the game
        at a ply both hold (its ``ply``, or later: never before a move of the resigner's or one of
        ours it acknowledged; only our unacknowledged moves after it are void). Nothing acknowledged
        or already sent is taken back: a draw whose reveal we sent stays. A resignation or forfeit judged by the
        session names no winners: the other seat is the winner (:attr:`over`)."""
        if self.state is not None and verdict.kind == "resigned" and verdict.seat == self.peer:
            resigner = self.color_of(self.peer)
            theirs = [i for i, m in enumerate(self.state.move_stack, 1) if m.player == resigner]
            end = max(min(verdict.ply, self.state.ply), self.acked, *theirs, 0)
            while self.state.ply > end:
                self._pop()
        if verdict.kind in ("forfeit", "resigned") and not verdict.winners and verdict.seat in (0, 1):
            verdict = replace(verdict, winners=(1 - verdict.seat,))  # judged by the layer, which knows no winners
        self._over = verdict
        return [Save(), Notice("record")]

    def set_computer(self, seat: int, on: bool, now: float) -> list[Output]:
        """Handing an away player's seat to the computer is not offered for Rose King (the seat
        waits for its player, or its deadlines name it). Raises ValueError."""
        raise ValueError("Rose King does not hand a player's seat to the computer")

    def abortable(self) -> bool:
        """Nothing bound yet: the set-up coin has neither the other's commitment nor our reveal."""
        c = self.coins.get(SETUP)
        return self.state is None and (c is None or (c.their_commit is None and not c.revealed))

    def catch_up(self, seat: int, have: int, now: float) -> list[Output]:
        return outbox_catch_up(self.seat, seat, self.outbox, have)

    def received(self) -> int:
        return self.handled if self.seat else self.ply

    def check_verdict(self, verdict: Verdict, sender: int) -> Verdict | None:
        """The layer's verdict on a stop, as it is: this game holds no evidence of its own."""
        return verdict

    def waiting_for(self) -> tuple[int, ...]:
        """The seat to move, if any (none while a draw's coin is open, before the deal, at the end)."""
        seat = self.to_move()
        return (seat,) if seat >= 0 else ()

    # ------------------------------------------------------------------ files
    def payload(self) -> dict[str, Any]:
        v = self._over
        return {"coins": [c.to_json() for c in self.coins.values()],
                "moves": [] if self.state is None else [str(m) for m in self.state.move_stack],
                "acked": self.acked, "handled": self.handled,
                "outbox": [{k: (x.hex() if isinstance(x, bytes) else x) for k, x in m.items()} for m in self.outbox],
                "over": [v.kind, v.seat, list(v.winners), v.ply, v.detail] if v else None}

    def _restore(self, p: dict[str, Any]) -> None:
        try:
            for v in p["coins"]:
                c = Coin.from_json(v)
                self.coins[c.purpose] = c
            self.outbox = [{k: (bytes.fromhex(x) if k in ("c", "s", "hash") else x) for k, x in m.items()}
                           for m in p["outbox"]]
            self.acked, self.handled = int(p["acked"]), int(p["handled"])
            setup = self.coins.get(SETUP)
            if setup is not None and setup.done:
                self._resolve(setup)
                state = self.state
                assert state is not None  # (dealt by the set-up coin)
                for text in p["moves"]:
                    move = Move.from_str(text)
                    if move.kind is DRAW:  # the card must follow from the journaled coin
                        coin = self.coins.get(self.ply)
                        if coin is None or not coin.done or draw_from_coin(self._digest(coin), state) != move.card:
                            raise ValueError(f"the draw at ply {self.ply + 1} does not follow from its coin")
                    self._push(move)
            elif p["moves"]:
                raise ValueError("moves without a deal")
            v = p["over"]
            self._over = Verdict(v[0], v[1], tuple(v[2]), v[3], v[4]) if v else None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise ValueError(f"not a Rose King LAN journal: {e}") from None

    def record(self) -> dict[str, Any]:
        """The game record (docs/record-format.md) with a ``"lan"`` key (the game id in hex, the
        host's colour, who resigned or forfeited, ``stopped`` for a match stopped as illegal,
        coin, desync or left); identical on both seats. Before the deal: the ``"lan"`` key only
        (no game was dealt), with ``format`` ``rose-king-lan-undealt``."""
        v = self._over
        lan: dict[str, Any] = {"game": self.table.game_id.hex(), "host": "" if self.host_color is None else str(self.host_color),
                     "resigned": "", "forfeit": ""}
        if v is not None and v.kind in ("resigned", "forfeit") and self.host_color is not None:
            lan[v.kind] = str(self.color_of(v.seat))
        elif v is not None and v.kind != "finished":
            lan["stopped"] = v.kind
        if self.state is None:
            return {"format": UNDEALT, "names": list(self.table.names), "date": self.table.date,
                    "lan": lan, "result": None if v is None else {"kind": v.kind, "seat": v.seat}}
        red, white = self.table.names if self.host_color == Color.RED else self.table.names[::-1]
        rec = Record.from_state(self.state, red=red, white=white, date=self.table.date or None)
        if v is not None and v.kind in ("resigned", "forfeit") and not self.state.is_game_over():
            loser = self.color_of(v.seat)
            assert loser is not None  # (dealt: the colours are known)
            rec.set_termination(v.kind, loser, self.state)
        rec.extra["lan"] = lan
        return rec.to_dict()


UNDEALT = "rose-king-lan-undealt"  #: the ``format`` of the record of a match that ended before its deal


def check_undealt(record: Any) -> str:
    """``rose-king check``'s line for the record of a match that ended before its deal
    (:meth:`RoseKingMatch.record`): ``ok undealt result=KIND seat=N`` (``result=none`` while
    the match is not over). Raises :class:`game.roseking.engine.RecordError` saying what is wrong
    with any other shape (exactly the keys ``format``, ``names``, ``date``, ``lan``, ``result``)."""
    from game.roseking.engine import RecordError
    from net.match import END_KINDS
    if not isinstance(record, dict) or record.get("format") != UNDEALT:
        raise RecordError(f"not a record: format must be {UNDEALT!r}")
    if set(record) != {"format", "names", "date", "lan", "result"}:
        raise RecordError('bad undealt record: its keys are "format", "names", "date", "lan", "result"')
    names, date, lan, result = record["names"], record["date"], record["lan"], record["result"]
    if not (isinstance(names, list) and len(names) == 2 and all(isinstance(n, str) and 1 <= len(n) <= 32
                                                                for n in names)):
        raise RecordError('bad "names": two names of 1..32 characters')
    if not isinstance(date, str) or len(date) > 32:
        raise RecordError('bad "date": a string of up to 32 characters')
    game = lan.get("game") if isinstance(lan, dict) else None
    if (not isinstance(lan, dict) or set(lan) - {"stopped"} != {"game", "host", "resigned", "forfeit"}
            or not isinstance(game, str) or len(game) != 32 or game.strip("0123456789abcdef")
            or (lan["host"], lan["resigned"], lan["forfeit"]) != ("", "", "")
            or "stopped" in lan and lan["stopped"] not in END_KINDS):
        raise RecordError('bad "lan": {"game": 32 hex digits, "host": "", "resigned": "", "forfeit": ""} '
                          '(and "stopped": a verdict kind)')
    if result is None:
        if "stopped" in lan:
            raise RecordError('"lan" "stopped" and "result" "kind" disagree')
        return "ok undealt result=none"
    if (not isinstance(result, dict) or set(result) != {"kind", "seat"} or result["kind"] not in END_KINDS
            or type(result["seat"]) is not int or not -1 <= result["seat"] <= 1):
        raise RecordError('bad "result": {"kind": a verdict kind, "seat": -1, 0 or 1} or null')
    if lan.get("stopped", "finished") != result["kind"]:  # (before the deal every end but finished stops it)
        raise RecordError('"lan" "stopped" and "result" "kind" disagree')
    return f"ok undealt result={result['kind']} seat={result['seat']}"


def _last_over(out: list[Output]) -> list[Output]:
    """``out`` with its :class:`Over` last: every send of the same step leaves before the verdict."""
    return [o for o in out if not isinstance(o, Over)] + [o for o in out if isinstance(o, Over)]


def _turn(m: MatchMachine, seat: int) -> State | None:
    """A copy of the position when ``seat`` (ours, or the host's computer seat) must move now
    (``m``: a machine of this part, :data:`LAN`)."""
    assert isinstance(m, RoseKingMatch)
    ours = seat == m.seat or (m.solo and seat == m.peer)
    if not ours or m.state is None or m.to_move() != seat:
        return None
    return m.state.copy()


def _host_options(args: Any) -> dict[str, Any]:
    """``--colour red|white`` of ``rose-king host`` as the table's option ``colour`` (random: none)."""
    colour = getattr(args, "colour", "random") or "random"
    return {"colour": colour} if colour in ("red", "white") else {}


def _player(level: str, seed: int) -> Callable[[State], Move]:
    from game.roseking.ai import make_player
    return make_player(level, seed).choose


#: Rose King's LAN part (``GAME.lan``; docs/protocol.md, "Rose King").
LAN = LanSpec(key=KEY, version=VERSION, seats=(2,), schemas=SCHEMAS, rates=RATES,
              new_match=lambda seat, table, tb: RoseKingMatch(seat, table, tb),
              from_payload=lambda seat, table, payload, tb: RoseKingMatch(seat, table, tb, payload),
              turn=_turn, player=_player, host_options=_host_options)
