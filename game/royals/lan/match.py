"""Royals & Riots over the LAN with no trusted dealer: one match machine for every seat
(docs/mental-poker.md, "A Royals & Riots round on this deck"; docs/protocol.md, "Royals & Riots
with no trusted dealer"). Pure: no sockets, threads or clock; it implements
:class:`net.match.MatchMachine`.

Every seat runs the same :class:`FairMatch`. The host (seat 0) relays every envelope unaltered
to every other joiner and plays its computer seats (their secrets are the host's: a computer
seat adds no protection). Nobody deals: the round's deck is shuffled and keyed by every seat
(:mod:`net.deck`), a card goes to its owner when every other seat sends its key for that
position, the draw piles are re-shuffled by the other seats after the keep (their order is
unknown to everyone, their owner included), the two-player set-aside positions are never
opened during the round, and the Thief's take is a joint coin over the victim's hand
positions, opened to all. Every message is signed (:mod:`net.signed`) with a per-match
Ed25519 key each seat announces in its first match message (``fkey``); :func:`net.signed.match_code`
of the keys is shown (Notice ``code``) so players can compare it aloud.

Every seat's engine is a :class:`game.royals.engine.SeatView` fed only what its seat may know;
every public action is checked by it when it arrives, and at the round's end every seat reveals
its secrets, every peer runs the audit (:func:`net.deck.audit_round`), rebuilds the round's true
:class:`~game.royals.engine.State` with ``push_checked`` (so every action is checked by the
rules with the cards now known), signs the round's transcript hash and checks everyone else's:
a host that told two joiners two stories is named with two envelopes it signed.

The machine is in four parts, each readable alone:

- this module: the match flow (docs/protocol.md, "Processing", "Order of a round" steps 1, 4, 6
  and 7): the wire messages received, envelopes accepted and queued, the decisions and coins
  applied in arrival order (:data:`ORDERED`, one handler per body kind), the seat views'
  public actions, whose turn it is, the journal and the record;
- :mod:`.deal`: the deck steps of each round (passes, key shares, the piles, opening a card
  to all, a broken deck) and the round's end (audit, round ends, logs);
- :mod:`.verdicts`: who owes what and the deadlines, faults, verdicts and their evidence,
  a peer's verdict checked;
- :mod:`.relay`: the host's countersigned relay and resend, and a joiner's checks of it.

Processing: envelopes are accepted in each sender's sequence (:class:`net.signed.Inbox`), then
queued. Deck passes, key shares, audit reveals, round ends, logs and verdicts are applied as soon
as their shuffle or round exists (:data:`FREE`); the decisions and coins (keep, play, action,
commit, reveal, open) are applied strictly in arrival order, each once every local view has
applied what is owed to it (its deal, its pile, the card it drew). The host's relay keeps the
causal order, so an honest message is always applicable when its turn comes; one that is not is
the sender's fault.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, TypeGuard

from game.royals.engine import (CARDS, EXECUTE, KEEP, PLAY, START, STEAL, Action, IllegalMoveError,
                                InvalidMoveError, Observation, Record, SeatView, State, ViewError)
from game.royals.engine.state import SETUP, Phase

from net.coin import commitment
from net.deck import DeckError, DeckPeer, card_points
from net.deck.choice import joint_choice
from net.match import LanSpec, MatchMachine, Notice, Output, Over, Refusal, Save, Send, Table, Verdict
from net.signed import BadSignature, Envelope, Equivocation, Inbox, Refused, Signer, match_code, parse_round_end, \
    public_key
from . import messages as fm
from .deal import LOG_CHUNK, N_CARDS, DealSteps
from .messages import MAX_ENVELOPE
from .relay import (RELAY_LABEL, RELAY_TAG, SCHEMAS, HostRelay, Relayed, RelayChecks, env_msg,
                         wire_from_json, wire_json)
from .shared import Fault, Queued
from .verdicts import DECIDE_S, RELAY_S, STEP_S, STEP_TOTAL, Verdicts, canonical

__all__ = ["DECIDE_S", "FAIR", "LOG_CHUNK", "MAX_ENVELOPE", "N_CARDS", "RELAY_LABEL", "RELAY_S", "RELAY_TAG",
           "SCHEMAS", "START_COIN", "STEP_S", "STEP_TOTAL", "VERSION", "FairMatch", "Fault", "Relayed",
           "canonical", "env_msg"]

VERSION = 5          #: the Royals & Riots LAN protocol version of this machine (the hello's ``gv``)
START_COIN = -1      #: the purpose of round 1's starter coin; a theft's coin is its engine ply

#: the bodies applied as soon as their shuffle or round exists: kind -> handler (returns False to
#: hold the body until later); a round end (not an ``fm`` body) goes to ``_round_end_msg``
FREE = {fm.PASS: "_pass_msg", fm.SHARES: "_shares_msg", fm.AUDIT: "_audit_msg", fm.LOG: "_log_msg",
        fm.VERDICT: "_verdict_msg"}
#: the decisions and coin parts, applied strictly in arrival order: kind -> handler
ORDERED = {fm.KEEP: "_keep", fm.ACTION: "_action", fm.PLAY: "_play", fm.COMMIT: "_commit",
           fm.REVEAL: "_reveal", fm.OPEN: "_open"}


def _bad(env: Envelope, why: str, kind: str = "illegal") -> Fault:
    """A decision or coin part the rules refuse: its sender's fault, its envelope the evidence."""
    return Fault(kind, env.sender, why, [env])


def _new_coin() -> dict[str, Any]:
    return {"commits": {}, "secrets": {}, "envs": {}, "renvs": {}}


class FairMatch(DealSteps, Verdicts):
    """One seat's side of a dealer-free Royals & Riots match (see the module docstring).

    ``seat``: 0 = host; ``table``: the layer's :class:`~net.match.Table` (``options["teams"]``
    for a 4-seat team match; ``sign_keys``: every seat's signing key, when the lobby's hellos
    carried them); ``token_bytes``: where the three 32-byte seeds of every local seat come from
    (signing key, deck secrets, coin secrets); ``sign_seeds``: seat -> the signing seed whose key
    this side's hello announced (the session's, :attr:`net.match.LanPart.signing`); ``payload``:
    a journal to resume from. Raises ValueError when a seed does not give the table's key.

    Its parts: :class:`~game.royals.lan.deal.DealSteps` (the deck and the round's end),
    :class:`~game.royals.lan.verdicts.Verdicts` (who owes what, verdicts), and two objects:
    :attr:`hub` (:class:`~game.royals.lan.relay.HostRelay`, the host's relay log) and
    :attr:`checks` (:class:`~game.royals.lan.relay.RelayChecks`, a joiner's record of it)."""

    def __init__(self, seat: int, table: Table, token_bytes: Callable[[int], bytes],
                 payload: dict[str, Any] | None = None,
                 sign_seeds: dict[int, bytes] | None = None) -> None:
        self.seat, self.table = seat, table
        self.n = table.seats
        if self.n not in SETUP:
            raise ValueError("Royals & Riots needs 2, 3 or 4 seats")
        self.teams = bool(table.options.get("teams", False)) if table.options else False
        self.gid = table.game_id
        self.host = seat == 0
        comps = tuple(sorted(s for s in table.computers if s != 0)) if self.host else ()
        self.local = (seat,) + comps
        self.joiners = tuple(s for s in range(1, self.n) if s not in table.computers) if self.host else ()
        p = payload or {}
        seeds = {int(k): bytes.fromhex(v) for k, v in p.get("seeds", {}).items()}
        for s in self.local:
            if s not in seeds:
                seeds[s] = token_bytes(96)
                if sign_seeds and s in sign_seeds:
                    seeds[s] = sign_seeds[s] + seeds[s][32:]
        self._seeds = seeds
        self.signers = {s: Signer(self.gid, s, seeds[s][:32]) for s in self.local}
        self.keys = {s: self.signers[s].public_key for s in self.local}
        if table.sign_keys:   # pinned by the lobby (the hellos and the start) before any match message
            if len(table.sign_keys) != self.n or any(table.sign_keys[s] != self.keys[s] for s in self.local):
                raise ValueError("the table's signing keys are not this side's")
            self.keys = dict(enumerate(table.sign_keys))
        self.inbox = None
        self.points = card_points(self.gid, N_CARDS)
        self.views = {s: SeatView(s + 1, self.n, self.teams) for s in self.local}
        self.true = State(self.n, self.teams)
        self.envs: list[Envelope] = []          # every accepted envelope, in acceptance order
        self.hub = HostRelay(self.gid, self.signers[0] if self.host else None, self.joiners)
        self.checks = RelayChecks(self.gid, seat, self.n)
        self.outbox: list[dict[str, Any]] = []  # joiner: what it sent the host
        self.handled = 0
        self.done: set[tuple[int, bytes]] = set()
        self.queue = []
        self.evidence = []                      # the signed envelopes behind the verdict
        self.claim = None                       # a peer's verdict being checked (verdicts.py)
        self.ends = {}
        self._over = None
        self.since = 0.0
        self.decks = {s: DeckPeer(s, seeds[s][32:64]) for s in self.local}
        self._new_round(1)
        for k, v in p.get("keys", {}).items():
            self.keys.setdefault(int(k), bytes.fromhex(v))
        self._maybe_inbox()
        if p:
            self.handled = int(p.get("handled", 0))
            envs = p.get("envs", [])
            if envs and self.inbox is None:
                raise ValueError("journal holds messages but not every seat's key")
            try:   # every envelope checked and applied again; nothing is sent while replaying
                for raw in envs:
                    self._accept(Envelope.from_bytes(bytes.fromhex(raw)), None)
                self._pump()
            except (Fault, Refusal) as e:
                if not p.get("over"):     # a match that ended on a fault replays up to it
                    raise ValueError(f"journal does not replay: {e}") from None
            self.hub.restore(p)
            self.outbox = [wire_from_json(m) for m in p.get("outbox", [])]
            v = p.get("over")
            self._over = Verdict(v[0], v[1], tuple(v[2]), v[3], v[4], tuple(v[5]) if len(v) > 5 else ()) if v else None
            ev = p.get("evidence", [])
            self.evidence = [Envelope.from_bytes(bytes.fromhex(x)) for x in ev] if isinstance(ev, list) else []
            self.since = -1.0

    # the relay's state, under the names the rest of the project reads
    @property
    def wire(self) -> list[dict[str, Any]]:
        """Host: every message it sent or relayed (:attr:`HostRelay.wire`)."""
        return self.hub.wire

    @property
    def sent(self) -> dict[int, list[int]]:
        """Host: the indices of :attr:`wire` sent to each joiner."""
        return self.hub.sent

    @property
    def relays(self) -> dict[bytes, Relayed]:
        """Joiner: SHA-256 of each relayed envelope -> its relay (:attr:`RelayChecks.relays`)."""
        return self.checks.relays

    @property
    def relay_at(self) -> dict[int, Relayed]:
        """Joiner: relay number -> the relay received under it."""
        return self.checks.relay_at

    # ------------------------------------------------------------------ the round's public state
    def _new_round(self, r: int) -> None:
        self.round = r
        self.stage = "round"                            # "round", then "audit" (deal.py)
        self._bodies = {}                               # this round's long bodies, made once
        self._new_deal(r)
        seats = list(range(self.n))
        self.kept = {}
        self.hand_refs: dict[int, list[tuple[int, int]]] = {s: [] for s in seats}
        self.pile_n = [0] * self.n
        self.drawn = [0] * self.n
        self.draws = {}                                 # owner -> pile ref owed to it (public)
        self.trick_refs: list[tuple[int, tuple[int, int]]] = []
        self.opened = {}                                # ref -> card opened to all
        self.coins = {}
        if r == 1:
            self.coins[START_COIN] = _new_coin()
        self.steal = None                               # (thief, victim, purpose)
        self.take = None                                # the victim's ref the coin picked
        self.acts = []
        # the signed envelopes that make steps owed (a timeout verdict's evidence, _owed_causes)
        self.keep_env = {}
        self.play_env = {}                              # seat -> its latest play
        self.last_env = None                            # the latest decision or coin part applied

    def _coin_secret(self, s: int, purpose: int) -> bytes:
        return hashlib.blake2b(purpose.to_bytes(4, "big", signed=True), digest_size=32,
                               key=self._seeds[s][64:96], person=b"rk-royals-coin").digest()

    # ------------------------------------------------------------------ MatchMachine
    @property
    def over(self) -> Verdict | None:
        return self._over

    def start(self, now: float) -> list[Output]:
        self.since = now
        out: list[Output] = [Save()]
        if self.table.sign_keys:     # every key came with the start: the code is known now
            out.append(Notice("code", {"code": self.code()}))
        else:
            for s in self.local:
                out += self._send_wire({"t": "fkey", "s": s, "k": self.keys[s]}, None)
        return out + self._run(now)

    def receive(self, sender: int, msg: dict[str, Any], now: float) -> list[Output]:
        if self._over is not None:
            return []
        out = self._receive(sender, msg, now)   # a Refusal leaves ``handled`` as it was: a joiner's
        if not self.host:                        # resume counts what it handled, never what it refused
            self.handled += 1
        return out

    def _receive(self, sender: int, msg: dict[str, Any], now: float) -> list[Output]:
        t = msg["t"]
        try:
            if t == "fkey":
                return self._fkey(sender, msg, now)
            if t in ("env", "rel"):
                if self.inbox is None:
                    raise Refusal("order", "a match message before every key")
                if t == "rel":
                    env = self._unwrap(msg)
                else:
                    try:
                        env = Envelope.from_bytes(msg["e"])
                    except ValueError as e:
                        raise Refusal("schema", str(e)) from None
                    if env.sender != sender and (self.host or env.sender not in (0, *self.table.computers)):
                        raise Refusal("order", "another seat's envelope without the host's countersignature")
                if not self._accept(env, sender, relay=msg if t == "rel" else None):
                    return []
                self.since = now
                out: list[Output] = []
                if self.host:   # journaled before it leaves, as every message of every seat
                    out += [Save()] + self._relay(msg, exclude=sender)
                return out + self._run(now)
        except Fault as f:
            return self._fault(f)
        raise Refusal("order", f"unexpected {t!r}")

    def act(self, action: Any, now: float, seat: int | None = None) -> list[Output]:
        seat = self.seat if seat is None else seat
        if seat not in self.local:
            raise ValueError(f"seat {seat} is not played here")
        if self._over is not None or self.turn_for(seat) is None:
            raise ValueError("not your turn")
        v = self.views[seat]
        if not isinstance(action, Action):
            action = Action.from_str(action)
        why = v.check(action)
        if why is not None:
            raise IllegalMoveError(why)
        ply = v.ply
        if action.kind is KEEP:
            dk = self.decks[seat]
            mine = {dk.known[(self.sids[0], p)]: p for p in self.positions_of(seat)}
            body = fm.keep(seat, self.round, [mine[c.index] for c in action.cards])
        elif action.kind is PLAY:
            ref = self._ref_of(seat, action.card.index)
            body = fm.play(seat, ply, ref[0], ref[1], action.card.index, self._open_shares(seat, ref))
        elif action.kind in (START, STEAL, EXECUTE) and not (action.kind is STEAL and action.card is not None):
            body = fm.action(seat, ply, str(action))
        else:
            raise ValueError(f"not a decision: {action}")
        self.since = now
        try:
            out = self._emit(seat, body)
            return out + self._run(now)
        except Fault as f:
            return self._fault(f)

    def tick(self, now: float) -> list[Output]:
        if self.since < 0:      # back from a journal: deadlines run from the first tick
            self.since = now
        return []

    def connected(self, seat: int, now: float) -> list[Output]:
        return []

    def disconnected(self, seat: int, now: float) -> list[Output]:
        return []

    def set_computer(self, seat: int, on: bool, now: float) -> list[Output]:
        """Handing an away player's seat to the host's computer is not offered for Royals & Riots
        (the seat's secrets are its own: the seat waits for its player, or its deadlines name
        it). Raises ValueError."""
        raise ValueError("Royals & Riots does not hand a player's seat to the computer")

    def abortable(self) -> bool:
        return self.round == 1 and not self._deck_final() and not any(
            c["secrets"] for c in self.coins.values())

    def catch_up(self, seat: int, have: int, now: float) -> list[Output]:
        """Resume after a reconnect (docs/protocol.md): the messages ``seat`` lacks (the host's
        :meth:`HostRelay.resend`; a joiner sends its own again). The owed steps' clock
        (:attr:`since`) runs on: a reconnect is no progress (the session gives a seat back from a
        drop its connected time again, see :meth:`net.match.Owed.deadline`)."""
        if self.host:
            return self.hub.resend(seat, have) + self._run(now)
        return [Send(0, m) for m in self.outbox] + self._run(now)

    def received(self) -> int:
        return self.handled if not self.host else self.view.ply

    @property
    def accepted(self) -> int:
        """How many signed envelopes this seat has accepted so far (every step of the match is
        one: a window reads a change here as "look again")."""
        return len(self.envs)

    def waiting_for(self) -> tuple[int, ...]:
        """The seat whose decision this seat's view waits for (none during a deal or an audit, on a
        chance outcome, or once the match is over)."""
        st = self.view.state
        if self._over is not None or self.stage != "round" or st.is_chance() or st.is_over() or not st.to_act:
            return ()
        return (st.to_act - 1,)

    def payload(self) -> dict[str, Any]:
        v = self._over
        return {"v": VERSION, "seeds": {str(s): b.hex() for s, b in self._seeds.items()},
                "keys": {str(s): k.hex() for s, k in self.keys.items()},
                "envs": [e.to_bytes().hex() for e in self.envs], "handled": self.handled,
                **self.hub.payload(),
                "outbox": [wire_json(m) for m in self.outbox], "evidence": [e.to_bytes().hex() for e in self.evidence],
                "over": [v.kind, v.seat, list(v.winners), v.ply, v.detail, list(v.between)] if v else None}

    def record(self) -> dict[str, Any]:
        rec = Record.from_state(self.true, list(self.table.names), date=self.table.date or None).to_dict()
        v = self._over
        rec["lan"] = {"game": self.gid.hex(), "end": "" if v is None else v.kind,
                      "seat": -1 if v is None else v.seat, "code": self.code(),
                      "evidence": [e.to_bytes().hex() for e in self.evidence]}
        if v is not None and v.between:
            rec["lan"]["between"] = list(v.between)
        return rec

    def code(self) -> str:
        """The match code of every seat's signing key (empty until all are known)."""
        return match_code(self.gid, [self.keys[s] for s in range(self.n)]) if self.inbox else ""

    # ------------------------------------------------------------------ whose turn
    def _pending_local(self) -> bool:
        return any(s in self.draws for s in self.local) or any(
            v.state.phase in (Phase.DEAL, Phase.PILE) for v in self.views.values())

    def turn_for(self, seat: int) -> Observation | None:
        """``seat``'s Observation when it must decide now on a view that applied everything owed
        to it, else None (LanPart.turn)."""
        if self._over is not None or self.stage != "round" or seat not in self.local or self.inbox is None:
            return None
        if self._pending_local() or any(self._ordered(b) for _, b in self.queue):
            return None
        v = self.views[seat]
        st = v.state
        if st.is_chance() or st.to_act != seat + 1 or st.is_over():
            return None
        if st.phase is Phase.START and self.round == 1:
            return None
        return v.observation()

    # ------------------------------------------------------------------ keys and wire
    def _fkey(self, sender: int, msg: dict[str, Any], now: float) -> list[Output]:
        s, k = msg["s"], msg["k"]
        if self.host and s != sender:
            raise Refusal("order", "a joiner announces only its own key")
        if not 0 <= s < self.n:
            raise Refusal("order", "no such seat")
        old = self.keys.get(s)
        if old is not None:
            if old == k:
                return []
            if self.host:   # a joiner back with a fresh key (a re-roll): refused; its deadlines run on
                raise Refusal("order", f"seat {s} announced a second signing key (a re-roll)")
            # an honest host never relays a second key, so a joiner names whoever brought it
            raise Fault("illegal", sender, f"seat {s} announced a second signing key (a re-roll)")
        self.keys[s] = k
        out: list[Output] = []
        if self.host:
            out += [Save()] + self._relay(msg, exclude=sender)
        self._maybe_inbox()
        if self.inbox is not None:
            out.append(Notice("code", {"code": self.code()}))
        return out + self._run(now)

    def _maybe_inbox(self) -> None:
        if self.inbox is None and len(self.keys) == self.n:
            self.inbox = Inbox(self.gid, [self.keys[s] for s in range(self.n)])

    def _unwrap(self, msg: dict[str, Any]) -> Envelope:
        """A joiner's check of the host's countersigned relay (:meth:`RelayChecks.unwrap`)."""
        if self.host:
            raise Refusal("order", "only the host relays")
        return self.checks.unwrap(msg, self.keys)

    def _relay(self, msg: dict[str, Any], exclude: int | None) -> list[Output]:
        """The host relays ``msg`` to every joiner but ``exclude`` (:meth:`HostRelay.relay`)."""
        return self.hub.relay(msg, exclude)

    def _send_wire(self, msg: dict[str, Any], exclude: int | None) -> list[Output]:
        if self.host:
            return self._relay(msg, exclude)
        self.outbox.append(msg)
        return [Send(0, msg)]

    def _emit(self, seat: int, body: bytes) -> list[Output]:
        """Sign ``body`` as local ``seat``, accept it here, journal, send."""
        env = self.signers[seat].sign(body)
        self._accept(env, None)
        return [Save()] + self._send_wire(env_msg(env.to_bytes()), None)

    def _accept(self, env: Envelope, via: int | None, relay: dict[str, Any] | None = None) -> bool:
        assert self.inbox is not None
        try:
            new = self.inbox.accept(env, via)
        except BadSignature as e:
            if relay is not None:   # checked by _unwrap: cannot happen; the host is named with proof
                raise Fault("illegal", 0, e.reason, [Relayed(self.gid, relay["e"], relay["i"], relay["s"])]) from None
            raise Fault("illegal", e.seat, e.reason) from None
        except Equivocation as e:
            raise Fault("illegal", e.evidence.sender, "signed two different messages for one sequence number",
                        (e.evidence.first, e.evidence.second)) from None
        except Refused as e:
            raise Refusal("order", str(e)) from None
        if not new:
            return False
        if env.sender in self.local:
            self.signers[env.sender].next_seq = max(self.signers[env.sender].next_seq, env.seq + 1)
            self.done.add((env.sender, env.body))
        self.envs.append(env)
        re = parse_round_end(env.body)
        if re is not None:
            body: Queued = ("end", *re)
        else:
            try:
                body = fm.decode(env.body, env.sender)
            except DeckError as e:
                raise Fault("illegal", e.seat, e.reason, [env]) from None
        self.queue.append((env, body))
        return True

    # ------------------------------------------------------------------ processing
    def _run(self, now: float) -> list[Output]:
        """Apply what can be applied, then send what the local seats owe, until nothing moves."""
        if self.inbox is None:
            return []
        out: list[Output] = []
        try:
            while self._over is None:
                self._pump()
                if self._over is not None:
                    break
                duties = self.duties()
                if not duties:
                    break
                for seat, body in duties:
                    out += self._emit(seat, body)
                    self.since = now
        except Fault as f:
            return out + self._fault(f)
        if self._over is not None and not any(isinstance(x, Over) for x in out):
            out += [Save(), Notice("record"), Over(self._over)]
        return out

    @staticmethod
    def _ordered(b: Queued) -> TypeGuard[fm.Body]:
        return not isinstance(b, tuple) and b.kind in ORDERED

    def _pump(self) -> None:
        """Apply the queue: the free bodies whenever they can be, the ordered ones strictly in
        arrival order while this seat's views applied what is owed to them; then the round's
        end, one step at a time; then a peer's verdict, once nothing more moves."""
        moved = True
        while moved and self._over is None:
            moved = False
            self._catch_up_views()
            blocked = False
            for i, (env, b) in enumerate(self.queue):
                if self._ordered(b):
                    if blocked:
                        continue
                    if self.stage != "round" or self._pending_local():
                        blocked = True
                        continue
                    del self.queue[i]
                    self._apply_ordered(env, b)
                    moved = True
                    break
                if self._apply_free(env, b):
                    del self.queue[i]
                    moved = True
                    break
            if not moved and self.stage == "audit":
                moved = self._round_end_step()
        if self.claim is not None and self._over is None:
            self._settle_claim()

    def _apply_free(self, env: Envelope, b: Queued) -> bool:
        """A body of :data:`FREE` (or a round end) by its handler: True once applied, False to
        hold it (its shuffle or round is not there yet)."""
        if isinstance(b, tuple):   # a round end
            return self._round_end_msg(env, b)
        try:
            applied: bool = getattr(self, FREE[b.kind])(env, b)
            return applied
        except DeckError as e:
            raise Fault("illegal", e.seat, e.reason, [env]) from None
        except ValueError as e:
            raise Fault("illegal", env.sender, str(e), [env]) from None

    def _verdict_msg(self, env: Envelope, b: fm.Body) -> bool:
        """A peer's signed verdict: checked (:meth:`Verdicts._claim`); this seat's own is a repeat."""
        if env.sender not in self.local:
            self._claim(env, b)
        return True

    def _apply_ordered(self, env: Envelope, b: fm.Body) -> None:
        """A decision or coin part of :data:`ORDERED`, in its turn: the rules (the seat views)
        refusing it are its sender's fault."""
        self.last_env = env
        st = self.view.state
        try:
            if b.kind in (fm.ACTION, fm.PLAY) and b.ply != st.ply:
                raise _bad(env, f"a decision for ply {b.ply} at ply {st.ply}")
            getattr(self, ORDERED[b.kind])(env, b, st)
        except (ViewError, IllegalMoveError, InvalidMoveError) as e:
            raise _bad(env, str(e)) from None
        except DeckError as e:
            raise Fault("illegal", e.seat, e.reason, [env]) from None

    # ------------------------------------------------------------------ the decisions and coins
    def _keep(self, env: Envelope, b: fm.Body, st: State) -> None:
        """Step 4: seat ``s`` keeps positions of its deal; the rest become its draw pile."""
        s = env.sender
        if b.round != self.round or st.phase is not Phase.KEEP or st.to_act != s + 1:
            raise _bad(env, "a keep out of turn")
        pos = tuple(sorted(b.items))
        if len(set(pos)) != SETUP[self.n][1] or not set(pos) <= set(self.positions_of(s)):
            raise _bad(env, "kept positions that are not its own")
        self.kept[s] = pos
        self.keep_env[s] = env
        self.hand_refs[s] = [(0, p) for p in pos]
        for ls, v in self.views.items():
            if ls == s:
                v.kept([CARDS[self.decks[ls].known[(self.sids[0], p)]] for p in pos])
            else:
                v.hidden(s + 1)
        rest = [p for p in self.positions_of(s) if p not in pos]
        self.pile_n[s] = len(rest)
        self._new_pile(s, rest)

    def _action(self, env: Envelope, b: fm.Body, st: State) -> None:
        """A public decision (``start``, ``steal``, ``execute``); a Thief's steal opens a coin."""
        s = env.sender
        a = Action.from_str(b.text)
        if a.kind not in (START, STEAL, EXECUTE) or (a.kind is STEAL and a.card is not None):
            raise _bad(env, "not a public decision")
        if st.to_act != s + 1 or (a.kind is not START and a.seat != s + 1):
            raise _bad(env, "a decision out of turn")
        if st.phase is Phase.START and self.round == 1:
            raise _bad(env, "round 1's starter is a coin, not a decision")
        self._public(a, s)
        if a.kind is STEAL and a.target is not None:
            purpose = self.view.ply
            self.coins[purpose] = _new_coin()
            self.steal = (s, a.target - 1, purpose)

    def _play(self, env: Envelope, b: fm.Body, st: State) -> None:
        """Step 6: a card played, opened to all with its owner's keys; the player's next pile
        position is then owed to it (every other seat's key)."""
        s = env.sender
        if not 0 <= b.card < N_CARDS:
            raise _bad(env, "no such card")
        a = Action.play(s + 1, CARDS[b.card])
        if st.phase is not Phase.PLAY or st.to_act != s + 1:
            raise _bad(env, "a play out of turn")
        ref = (b.no, b.pos)
        if ref not in self.hand_refs[s]:
            raise _bad(env, f"played position {ref} that is not in its hand")
        card = self._open_all(env, b, ref, s)
        if card is None:
            return
        if card != b.card:
            raise _bad(env, f"played {CARDS[b.card]} from a position that holds {CARDS[card]} "
                            "(a played card not the one dealt)")
        self.hand_refs[s].remove(ref)
        self.trick_refs.append((s, ref))
        self._public(a, s)
        if self.drawn[s] < self.pile_n[s]:
            dref = (1 + s, self.drawn[s])
            self.drawn[s] += 1
            self.hand_refs[s].append(dref)
            self.draws[s] = dref
            self.play_env[s] = env

    def _commit(self, env: Envelope, b: fm.Body, st: State) -> None:
        """A coin's commitment (once per seat; a different second one is a re-roll)."""
        s = env.sender
        coin = self.coins.get(b.purpose)
        if coin is None or "done" in coin:
            raise _bad(env, f"a commitment for coin {b.purpose}, which is not open", "coin")
        old = coin["commits"].get(s)
        if old is not None:
            if old != b.blob:
                raise _bad(env, "a second, different commitment (a re-roll)", "coin")
            return
        coin["commits"][s] = b.blob
        coin["envs"][s] = env

    def _reveal(self, env: Envelope, b: fm.Body, st: State) -> None:
        """A coin's reveal, after every commitment; the last one decides the coin."""
        s = env.sender
        coin = self.coins.get(b.purpose)
        if coin is None or "done" in coin or len(coin["commits"]) < self.n:
            raise _bad(env, "a reveal before every commitment", "coin")
        if s in coin["secrets"]:
            if coin["secrets"][s] != b.blob:
                raise _bad(env, "two reveals", "coin")
            return
        if commitment(self.gid, b.purpose, s, b.blob) != coin["commits"][s]:
            raise _bad(env, "its reveal does not open its commitment", "forfeit")
        coin["secrets"][s] = b.blob
        coin["renvs"][s] = env
        if len(coin["secrets"]) == self.n:
            coin["done"] = True
            self._coin_done(b.purpose, [coin["secrets"][i] for i in range(self.n)])

    def _open(self, env: Envelope, b: fm.Body, st: State) -> None:
        """Step 7: the victim's keys opening the Thief's take to all."""
        s = env.sender
        if self.steal is None or self.take is None or s != self.steal[1] or b.ply != self.steal[2]:
            raise _bad(env, "keys for a take that is not due")
        card = self._open_all(env, b, self.take, s)
        if card is not None:
            self._complete_take(card)

    def _public(self, a: Action, s: int) -> None:
        for v in self.views.values():
            v.public(a)
        self.acts.append(a)
        if not self.view.state.trick_plays:
            self.trick_refs = []

    def _coin_done(self, purpose: int, secrets: list[bytes]) -> None:
        if purpose == START_COIN:
            self._public(Action.start(1 + joint_choice(self.gid, purpose, secrets, self.n)), -1)
            return
        assert self.steal is not None
        refs = sorted(self.hand_refs[self.steal[1]])
        self.take = refs[joint_choice(self.gid, purpose, secrets, len(refs))]
        if self.take in self.opened:
            self._complete_take(self.opened[self.take])

    def _complete_take(self, card: int) -> None:
        assert self.steal is not None and self.take is not None
        thief, victim, _ = self.steal
        self.opened[self.take] = card
        self.hand_refs[victim].remove(self.take)
        for i, (ts, tref) in enumerate(self.trick_refs):
            if ts == victim:
                del self.trick_refs[i]
                self.hand_refs[victim].append(tref)
                break
        self.steal = self.take = None
        self._public(Action.steal(thief + 1, victim + 1, CARDS[card]), thief)

    def _ref_of(self, seat: int, card: int) -> tuple[int, int]:
        dk = self.decks[seat]
        for ref in self.hand_refs[seat]:
            sid = self.sids[ref[0]]
            if self.opened.get(ref, dk.known.get((sid, ref[1]))) == card:
                return ref
        raise IllegalMoveError("not in hand")

    # ------------------------------------------------------------------ duties
    def duties(self) -> list[tuple[int, bytes]]:
        """The messages the local seats owe now and have not sent (deterministic bodies, so a
        seat back from its journal finds them in :attr:`done`): during the round a shuffle pass
        (alone), else the deal and draw keys, the coin parts, a broken position's keys and the
        victim's keys of a take; at its end the audit, round end and logs (:mod:`.deal`).

        Public as a test hook: the tests' attackers override it to withhold or alter a step
        (``tests/net/test_royals_fair_attacks.py``); nothing else calls it from outside."""
        out: list[tuple[int, bytes]] = []

        def add(seat: int, body: bytes) -> None:
            if (seat, body) not in self.done:
                out.append((seat, body))
        if self.stage != "round":
            self._end_due(add)
            return out
        p = self._pass_due()
        if p is not None:
            return [p]
        self._keys_due(add)
        for purpose, coin in self.coins.items():
            if "done" in coin:
                continue
            for s in self.local:
                secret = self._coin_secret(s, purpose)
                if s not in coin["commits"]:
                    add(s, fm.commit(s, purpose, commitment(self.gid, purpose, s, secret)))
                if len(coin["commits"]) == self.n:
                    add(s, fm.reveal(s, purpose, secret))
        self._broken_keys_due(add)
        if self.take is not None and self.steal is not None and self.steal[1] in self.local \
                and self.take not in self.opened:
            v = self.steal[1]
            add(v, fm.open_(v, self.steal[2], self._open_shares(v, self.take)))
        return out


# --------------------------------------------------------------------------- journal and registry
def _restore(seat: int, table: Table, payload: dict[str, Any], token_bytes: Callable[[int], bytes]) -> FairMatch:
    if not isinstance(payload, dict) or payload.get("v") != VERSION:
        raise ValueError("not a journal of this protocol version")
    try:
        return FairMatch(seat, table, token_bytes, payload)
    except (KeyError, TypeError) as e:
        raise ValueError(f"damaged journal: {e}") from None


def _new(seat: int, table: Table, token_bytes: Callable[[int], bytes],
         seeds: dict[int, bytes] | None = None) -> FairMatch:
    return FairMatch(seat, table, token_bytes, sign_seeds=seeds)


def _turn(m: MatchMachine, seat: int) -> Observation | None:
    """``seat``'s observation when it must decide now (``m``: a machine of this part, :data:`FAIR`)."""
    assert isinstance(m, FairMatch)
    return m.turn_for(seat)


def _player(level: str, seed: int) -> Callable[[Observation], Action]:
    from game.royals.ai.levels import make_player
    p = make_player(level, seed)
    return p.choose


FAIR = LanSpec(key="royals-riots", version=VERSION, seats=(2, 3, 4), schemas=SCHEMAS,
               rates={"fkey": (8, 1), "env": (600, 300), "rel": (600, 300)},
               new_match=_new,
               from_payload=_restore, auto_start=False, turn=_turn, player=_player, max_bin=MAX_ENVELOPE,
               signing=public_key)
