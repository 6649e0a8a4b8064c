"""The Royals & Riots host's match machine (seat 1, :class:`HostMatch`; docs/protocol.md). Pure."""

from __future__ import annotations

import secrets as _secrets
from typing import Callable, Iterable, Sequence

from game.royals.engine import START, Action, ChanceEvent, IllegalMoveError, InvalidMoveError, State

from ..coin import commitment
from ..match import Owed
from .messages import (
    _result_text,     ACK_TIMEOUT, Applied, COMMIT_TIMEOUT, CoinOpened, Event, FORFEIT_TIMEOUT, MATCH_FATAL, MAX_PER_PLY,
    MatchOver, PlayError, REVEAL_TIMEOUT, Refused, RoundChecked, SeatProxy, Turn, _actor, _decider,
    _fault_seat, _is_decision, _record, coin_outcome, first_fingerprint, fold_fingerprint, messages_for,
    peer_of, round_hash)
from .audit import check_round


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
            # (A joiner that stops while it owes its reveal has seen no outcome: the joiners' secrets
            # stay with the host until the round ends, so a stop gains it nothing, and a stop may be
            # its refusal of a false `commits`; the deadlines of tick() judge a withheld reveal.)
            if code == "forfeit":
                # only the host judges withheld steps (it is the one they are owed to): a joiner's
                # forfeit claim is false, and the claimant is at fault (rule 3)
                self._end("illegal", seat, f"seat {seat} claimed a forfeit, which only the host judges: "
                          f"{reason[:300]}")
            elif code in MATCH_FATAL:
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
    def owed(self) -> list[Owed]:
        """Who owes what now (:class:`net.match.Owed`, in game seats 1..4, owed to the host, seat
        1): each person seat's commitment to the open coin (not forfeiting: it saw nothing) and,
        once the commitments are out (``commits``), its reveal (forfeiting past its deadline, as
        :meth:`tick` judges)."""
        c = self._coin
        if self.over is not None or c is None:
            return []
        out = []
        for s in self.people:
            if s in self.computers:
                continue
            if c["broadcast"] is None and s not in c["commits"]:
                out.append(Owed(s, "commit", c["ply"], 1, c["opened"], COMMIT_TIMEOUT, FORFEIT_TIMEOUT, False))
            elif c["broadcast"] is not None and s not in c["secrets"]:
                out.append(Owed(s, "reveal", c["ply"], 1, c["broadcast"], REVEAL_TIMEOUT, FORFEIT_TIMEOUT, True))
        return out

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
