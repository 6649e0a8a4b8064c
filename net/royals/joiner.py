"""A Royals & Riots joiner's match machine (seats 2..4, :class:`JoinerMatch`; docs/protocol.md). Pure."""

from __future__ import annotations

import re
import secrets as _secrets
from typing import Callable, Sequence

from game.royals.engine import (
    KEEP, PLAY, Action, IllegalMoveError, InvalidMoveError, Observation, SeatView, State, ViewError)

from ..coin import commitment
from .messages import (
    _result_text,     Applied, CoinOpened, Event, MATCH_FATAL, MatchOver, OUTCOME_TIMEOUT, PlayError, Refused, RoundChecked,
    SeatProxy, Turn, _actor, _decider, _fault_seat, _is_decision, _record, first_fingerprint,
    fold_fingerprint, peer_of, round_hash)
from .audit import Heard, check_round


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
