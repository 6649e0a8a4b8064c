"""Royals & Riots over the LAN with no trusted dealer: one match machine for every seat
(docs/mental-poker.md, "A Royals & Riots round on the deck"; issue 34). Pure: no sockets,
threads or clock; it implements :class:`net.match.MatchMachine`.

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

Processing: envelopes are accepted in each sender's sequence (:class:`net.signed.Inbox`), then
queued. Deck passes, key shares, audit reveals, round ends and logs are applied as soon as their
shuffle or round exists; the decisions and coins (keep, play, action, commit, reveal, open) are
applied strictly in arrival order, each once every local view has applied what is owed to it
(its deal, its pile, the card it drew). The host's relay keeps the causal order, so an honest
message is always applicable when its turn comes; one that is not is the sender's fault.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Sequence

from game.royals.engine import (CARDS, EXECUTE, KEEP, PLAY, START, STEAL, Action, IllegalMoveError,
                                InvalidMoveError, Record, SeatView, State, ViewError)
from game.royals.engine.state import SETUP, Phase

from ..coin import commitment
from ..deck import (BrokenDeck, DeckError, DeckPeer, KeyShare, Pass, Reveal, Shuffle, audit_round, card_points,
                    subdeck)
from ..deck import decode as deck_decode
from ..deck.choice import joint_choice
from ..framing import _bin, _blob, _int
from ..match import ALL, LanPart, Notice, Over, Owed, Refusal, Save, Send, Table, Verdict
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from ..signed import (HEADER_BYTES, SIG_BYTES, BadSignature, Envelope, Equivocation, Inbox, Refused, Signer,
                      find_equivocation, match_code, parse_round_end, public_key, round_end)
from . import fair_messages as fm

VERSION = 5          #: the Royals & Riots LAN protocol version of this machine (the hello's ``gv``)
N_CARDS = 36
START_COIN = -1      #: the purpose of round 1's starter coin; a theft's coin is its engine ply
STEP_S, STEP_TOTAL = 10.0, 60.0       #: deadlines of an owed pass, key, reveal (connected / in all)
RELAY_S = 10.0                         #: a joiner waits this much longer than the owing seat's deadline
                                       #: for the host to relay a third seat's step (or its verdict)
DECIDE_S = 600.0                       #: a person's decision (keep, play, ...): cut off, never forfeit
MAX_ENVELOPE = 60_000                  #: the longest envelope (wire bytes) in one ``env`` frame: the
                                       #: part's ``max_bin``, within the layer's 64 KiB frame
LOG_CHUNK = 40_000                     #: bytes of envelopes per LOG body


class Fault(Exception):
    """A verdict found while processing: ``kind`` (illegal, coin, forfeit), ``seat`` at fault,
    ``detail`` and the signed ``evidence`` (the envelopes that show it, any peer replays them)."""

    def __init__(self, kind: str, seat: int, detail: str, evidence: Sequence[Envelope] = ()) -> None:
        super().__init__(detail)
        self.kind, self.seat, self.detail, self.evidence = kind, seat, detail, tuple(evidence)


RELAY_LABEL = b"rose-king-lan relay\x00"
RELAY_TAG = b"rk-relay"                #: the first bytes of a relay attestation in a verdict's evidence


class Relayed:
    """The host's countersignature on an envelope it relayed (docs/protocol.md, "A host's relay
    is provable"): ``raw``, the bytes it passed on (another seat's envelope, unaltered if the
    host is honest), ``index``, its own relay sequence number (the position in the host's
    relay log, the same for every joiner), ``signature``: Ed25519 with the host's match key over
    ``"rose-king-lan relay" 00 ‖ match id (16) ‖ index (4) ‖ SHA-256(raw)``. A joiner can show
    any seat exactly what the host sent it: an altered envelope under a valid countersignature
    is a verdict against the host that every peer checks. In a verdict's evidence it is
    ``"rk-relay" ‖ index (4) ‖ signature (64) ‖ raw``; ``sender`` (0) and ``seq`` (``index``)
    place it in the canonical order."""

    sender = 0

    def __init__(self, match_id: bytes, raw: bytes, index: int, signature: bytes) -> None:
        self.match_id, self.raw, self.index, self.signature = match_id, raw, index, signature

    @property
    def seq(self) -> int:
        return self.index

    @staticmethod
    def signed_bytes(match_id: bytes, raw: bytes, index: int) -> bytes:
        return RELAY_LABEL + match_id + index.to_bytes(4, "big") + hashlib.sha256(raw).digest()

    def verifies(self, key: bytes) -> bool:
        """Whether the host's ``key`` signed this relay."""
        try:
            VerifyKey(key).verify(self.signed_bytes(self.match_id, self.raw, self.index), self.signature)
            return True
        except (BadSignatureError, ValueError, TypeError):
            return False

    def to_bytes(self) -> bytes:
        return RELAY_TAG + self.index.to_bytes(4, "big") + self.signature + self.raw

    @classmethod
    def from_bytes(cls, match_id: bytes, data: bytes) -> "Relayed":
        """Back from :meth:`to_bytes`; ValueError when ``data`` is not one."""
        if data[:8] != RELAY_TAG or len(data) < 8 + 4 + SIG_BYTES:
            raise ValueError("not a relay attestation")
        return cls(match_id, data[76:], int.from_bytes(data[8:12], "big"), data[12:76])

    def message(self) -> dict:
        """The wire message carrying it (``rel{e, i, s}``)."""
        return {"t": "rel", "e": self.raw, "i": self.index, "s": self.signature}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Relayed) and self.to_bytes() == other.to_bytes()

    def __hash__(self) -> int:
        return hash(self.to_bytes())


def canonical(evidence) -> list[Envelope]:
    """Evidence in the order every peer writes it: each envelope once, by seat, then sequence
    number, then wire bytes (two envelopes of one sequence number: the two stories)."""
    seen = {e.to_bytes(): e for e in evidence if e is not None}
    return [seen[k] for k in sorted(seen, key=lambda k: (seen[k].sender, seen[k].seq, k))]


def env_msg(raw: bytes) -> dict:
    """The wire message carrying one envelope's wire bytes ``raw`` (``env{e}``: one binary of at
    most :data:`MAX_ENVELOPE` bytes). Raises ValueError for a longer one (a bug: never sent)."""
    if len(raw) > MAX_ENVELOPE:
        raise ValueError(f"an envelope of {len(raw)} bytes exceeds {MAX_ENVELOPE}")
    return {"t": "env", "e": raw}


def _sid(game_id: bytes, round_no: int, no: int) -> bytes:
    return game_id + round_no.to_bytes(2, "big") + no.to_bytes(2, "big")


class FairMatch:
    """One seat's side of a dealer-free Royals & Riots match (see the module docstring).

    ``seat``: 0 = host; ``table``: the layer's :class:`~net.match.Table` (``options["teams"]``
    for a 4-seat team match; ``sign_keys``: every seat's signing key, when the lobby's hellos
    carried them); ``token_bytes``: where the three 32-byte seeds of every local seat come from
    (signing key, deck secrets, coin secrets); ``sign_seeds``: seat -> the signing seed whose key
    this side's hello announced (the session's, :attr:`net.match.LanPart.signing`); ``payload``:
    a journal to resume from. Raises ValueError when a seed does not give the table's key."""

    def __init__(self, seat: int, table: Table, token_bytes: Callable[[int], bytes], payload: dict | None = None,
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
        self.keys: dict[int, bytes] = {s: self.signers[s].public_key for s in self.local}
        if table.sign_keys:   # pinned by the lobby (the hellos and the start) before any match message
            if len(table.sign_keys) != self.n or any(table.sign_keys[s] != self.keys[s] for s in self.local):
                raise ValueError("the table's signing keys are not this side's")
            self.keys = dict(enumerate(table.sign_keys))
        self.inbox: Inbox | None = None
        self.points = card_points(self.gid, N_CARDS)
        self.views = {s: SeatView(s + 1, self.n, self.teams) for s in self.local}
        self.true = State(self.n, self.teams)
        self.envs: list[Envelope] = []          # every accepted envelope, in acceptance order
        self.wire: list[dict] = []              # host: every message it sent or relayed
        self.sent: dict[int, list[int]] = {j: [] for j in self.joiners}   # host: wire indices per joiner
        self.outbox: list[dict] = []            # joiner: what it sent the host
        self.handled = 0
        self.done: set[tuple[int, bytes]] = set()
        self.queue: list[tuple[Envelope, Any]] = []
        self.evidence: list[Envelope] = []      # the signed envelopes behind the verdict
        self.claim: tuple[Envelope, fm.Body, list[Envelope]] | None = None   # a peer's verdict being checked
        self.logs: set[int] = set()             # seats whose log of this round came
        self.ends: dict[int, Envelope] = {}
        self.relays: dict[bytes, Relayed] = {}  # joiner: SHA-256 of each relayed envelope -> its relay
        self.relay_at: dict[int, Relayed] = {}  # joiner: relay number -> the relay received under it
        self._over: Verdict | None = None
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
            for m in p.get("wire", []):
                self.wire.append(_wire_from_json(m))
            self.sent = {int(k): list(v) for k, v in p.get("sent", {}).items()}
            self.outbox = [_wire_from_json(m) for m in p.get("outbox", [])]
            v = p.get("over")
            self._over = Verdict(v[0], v[1], tuple(v[2]), v[3], v[4], tuple(v[5]) if len(v) > 5 else ()) if v else None
            ev = p.get("evidence", [])
            self.evidence = [Envelope.from_bytes(bytes.fromhex(x)) for x in ev] if isinstance(ev, list) else []
            self.since = -1.0

    # ------------------------------------------------------------------ the round's public state
    def _new_round(self, r: int) -> None:
        self.round = r
        self.stage = "round"
        self.d = SETUP[self.n][0]
        self.sids = {0: _sid(self.gid, r, 0)}
        seats = list(range(self.n))
        for dk in self.decks.values():
            dk.add(Shuffle(self.sids[0], self.points, range(N_CARDS), seats, seats))
        self.kept: dict[int, tuple[int, ...]] = {}
        self.hand_refs: dict[int, list[tuple[int, int]]] = {s: [] for s in seats}
        self.pile_n = [0] * self.n
        self.drawn = [0] * self.n
        self.draws: dict[int, tuple[int, int]] = {}     # owner -> pile ref owed to it (public)
        self.trick_refs: list[tuple[int, tuple[int, int]]] = []
        self.opened: dict[tuple[int, int], int] = {}    # ref -> card opened to all
        self.coins: dict[int, dict] = {}
        if r == 1:
            self.coins[START_COIN] = {"commits": {}, "secrets": {}, "envs": {}, "renvs": {}}
        self.steal: tuple[int, int, int] | None = None  # (thief, victim, purpose)
        self.take: tuple[int, int] | None = None        # the victim's ref the coin picked
        self.acts: list[Action] = []
        self.reveals: dict[int, dict[bytes, Reveal]] = {}
        self.audit_seq: dict[int, int] = {}
        self.audited = False
        self.mismatch: set[int] = set()
        self._bodies: dict = {}                         # this round's long bodies, made once
        self.broken: dict[int, tuple[bytes, int]] = {}  # local seat -> its position that opened to no card
        self.saw_broken = False                         # this peer opened a position to all to no card
        # the signed envelopes that make steps owed (a timeout verdict's evidence, _owed_causes)
        self.prev_ends: list[Envelope] = list(getattr(self, "ends", {}).values())
        self.ends = {}
        self.logs = set()
        self.pass_env: dict[bytes, Envelope] = {}      # sid -> its latest pass
        self.keep_env: dict[int, Envelope] = {}
        self.play_env: dict[int, Envelope] = {}        # seat -> its latest play
        self.last_env: Envelope | None = None           # the latest decision or coin part applied

    def positions_of(self, s: int) -> range:
        """The round deck positions dealt to seat ``s`` (ruling 4: seat order, ``d`` each)."""
        return range(s * self.d, (s + 1) * self.d)

    def _shuffles(self) -> list[Shuffle]:
        dk = self.decks[self.seat]
        return [dk.shuffles[self.sids[no]] for no in sorted(self.sids) if self.sids[no] in dk.shuffles]

    def _coin_secret(self, s: int, purpose: int) -> bytes:
        return hashlib.blake2b(purpose.to_bytes(4, "big", signed=True), digest_size=32,
                               key=self._seeds[s][64:96], person=b"rk-royals-coin").digest()

    @property
    def view(self) -> SeatView:
        return self.views[self.seat]

    # ------------------------------------------------------------------ MatchMachine
    @property
    def over(self) -> Verdict | None:
        return self._over

    def start(self, now: float) -> list:
        self.since = now
        out: list = [Save()]
        if self.table.sign_keys:     # every key came with the start: the code is known now
            out.append(Notice("code", {"code": self.code()}))
        else:
            for s in self.local:
                out += self._send_wire({"t": "fkey", "s": s, "k": self.keys[s]}, None)
        return out + self._run(now)

    def receive(self, sender: int, msg: dict, now: float) -> list:
        if self._over is not None:
            return []
        out = self._receive(sender, msg, now)   # a Refusal leaves ``handled`` as it was: a joiner's
        if not self.host:                        # resume counts what it handled, never what it refused
            self.handled += 1
        return out

    def _receive(self, sender: int, msg: dict, now: float) -> list:
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
                out: list = []
                if self.host:   # journaled before it leaves, as every message of every seat
                    out += [Save()] + self._relay(msg, exclude=sender)
                return out + self._run(now)
        except Fault as f:
            return self._fault(f)
        raise Refusal("order", f"unexpected {t!r}")

    def act(self, action: Any, now: float, seat: int | None = None) -> list:
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

    def tick(self, now: float) -> list:
        if self.since < 0:      # back from a journal: deadlines run from the first tick
            self.since = now
        return []

    def _owed_causes(self) -> list[tuple[Owed, tuple[Envelope, ...]]]:
        """Every step some seat owes now (as this seat's own envelopes show it), each with the
        signed envelopes that made it owed: what a timeout verdict carries as its evidence
        (docs/protocol.md, "Verdicts and their evidence")."""
        if self._over is not None:
            return []
        out: list[tuple[Owed, tuple[Envelope, ...]]] = []
        t = self.since

        def o(seat, step, ref, forfeits, cause=(), to=ALL, conn=STEP_S, total=STEP_TOTAL):
            out.append((Owed(seat, step, ref, to, t, conn, total, forfeits), tuple(e for e in cause if e)))
        if self.inbox is None:
            for s in range(self.n):
                if s not in self.keys:
                    o(s, "key", 0, False)
            return out
        bound = self.round > 1 or self._deck_final()
        if self.stage == "round":
            for no, sh in zip(sorted(self.sids), self._shuffles()):
                nxt = sh.expect()
                if nxt is not None:
                    first = self.prev_ends if no == 0 else [self.keep_env.get(no - 1)]
                    o(nxt[1], "pass", self.round, bound, [self.pass_env[sh.sid]] if sh.sid in self.pass_env else first)
            if self._deck_final():
                sh = self._shuffles()[0]
                final = [self.pass_env.get(sh.sid)]
                for s in range(self.n):
                    for q in range(self.n):
                        if q != s and (q, s * self.d) not in sh.shares:
                            o(q, "key", s * self.d, True, final, to=s)
                            break
            for owner, (no, pos) in self.draws.items():
                sh = self.decks[self.seat].shuffles[self.sids[no]]
                for q in range(self.n):
                    if q != owner and (q, pos) not in sh.shares:
                        o(q, "key", pos, True, [self.play_env.get(owner)], to=owner)
            for purpose, coin in self.coins.items():
                if "done" in coin:
                    continue
                for s in range(self.n):
                    if s not in coin["commits"]:
                        o(s, "commit", purpose, False)
                    elif len(coin["commits"]) == self.n and s not in coin["secrets"]:
                        o(s, "reveal", purpose, True, coin["envs"].values())
            if self.take is not None and self.take not in self.opened and self.steal is not None:
                coin = self.coins.get(self.steal[2], {})
                o(self.steal[1], "key", self.steal[2], True, coin.get("renvs", {}).values())
            st = self.view.state
            if not st.is_chance() and st.to_act and not self._pending_local() and self.steal is None:
                o(st.to_act - 1, "act", st.ply, False, conn=DECIDE_S, total=DECIDE_S)
        else:
            audits = [self.inbox.log[s][q] for s, q in sorted(self.audit_seq.items())]
            for s in range(self.n):
                if not self._revealed_all(s):
                    o(s, "reveal", self.round, True, [self.last_env] + audits[:1])
                elif s not in self.ends and self.audited:
                    o(s, "round end", self.round, True, audits)
            for s in sorted(self.mismatch):
                if s not in self.logs:
                    o(s, "log", self.round, True, [self.ends[s], self.ends.get(self.seat)])
        return out

    def owed(self) -> list[Owed]:
        """Every step some seat owes now (rule 1 of the layer). On a joiner, a third seat's step
        comes through the host (:meth:`_via_host`): this seat cannot tell a seat that withheld it
        from a host that did not relay it, so such a step, overdue, names nobody (``disputed``)."""
        raw = self._unblocked([o for o, _ in self._owed_causes()])
        return raw if self.host else [self._via_host(o) for o in raw]

    @staticmethod
    def _unblocked(owed: list[Owed]) -> list[Owed]:
        """A seat that waits for a forfeiting step owed to it (say its draw key) cannot apply
        what comes after it, so a step of its own that follows may be held up by the other: its
        deadlines are pushed back by :data:`STEP_TOTAL`, so the seat that withheld is named
        first, never the seat it kept waiting."""
        waiting = {o.to for o in owed if o.forfeits and o.to >= 0 and o.seat != o.to}
        return [Owed(o.seat, o.step, o.ref, o.to, o.since, o.connected + STEP_TOTAL, o.total + STEP_TOTAL,
                     o.forfeits, o.via) if o.seat in waiting else o for o in owed]

    def _via_host(self, o: Owed) -> Owed:
        """On a joiner, a third seat's step as it reaches this seat: through the host (``via`` 0),
        due after the host has had every deadline of its own to judge it (the step's total, plus
        for a step that only cuts off its connected time, plus :data:`RELAY_S` to relay its
        verdict); then it names nobody (:func:`net.match.deadline_verdict`: ``disputed``)."""
        if o.seat in (self.seat, 0):
            return o
        due = o.total + RELAY_S + (0.0 if o.forfeits else o.connected)
        return Owed(o.seat, o.step, o.ref, o.to, o.since, due, due, o.forfeits, via=0)

    def _owes_forfeit(self, seat: int) -> tuple[Envelope, ...] | None:
        """The evidence that ``seat`` owes a forfeiting step now, or None if it owes none."""
        for o, cause in self._owed_causes():
            if o.seat == seat and o.forfeits:
                return cause
        return None

    def _blocked(self, seat: int) -> bool:
        """Whether local ``seat`` still owes a forfeiting step it has not sent (it waits for
        something first): a claim about it is answered by sending it, never by a forfeit."""
        return seat in self.local and self._owes_forfeit(seat) is not None

    def connected(self, seat: int, now: float) -> list:
        return []

    def disconnected(self, seat: int, now: float) -> list:
        return []

    def end(self, verdict: Verdict, now: float) -> list:
        """The session's verdict (a deadline, a peer's stop judged by the layer's rules and
        :meth:`check_verdict`). A forfeit or a departure of another seat is recorded with the
        signed envelopes that made its step owed, and announced to every peer in a signed
        ``verdict`` body carrying them, so each checks it (docs/protocol.md, "Verdicts and their
        evidence")."""
        if self._over is not None:
            return [Save(), Notice("record")]
        out: list = []
        named = [s for s in (verdict.seat, *verdict.between) if s >= 0 and s not in self.local]
        if verdict.kind in ("forfeit", "left") and named:
            cause = next((c for o, c in self._owed_causes() if o.seat in named), ())
            self.evidence = self.evidence or canonical(cause)
            if verdict.kind == "forfeit" and self.inbox is not None:
                out += self._announce(verdict.kind, verdict.seat, self.evidence)
        self._over = verdict
        return out + [Save(), Notice("record")]

    def check_verdict(self, verdict: Verdict, sender: int) -> Verdict | None:
        """The layer's verdict (:func:`net.match.judge_stop`) on seat ``sender``'s stop, checked
        against the evidence this machine holds: this machine's own verdict if it has one (found
        itself, or a peer's signed ``verdict`` whose evidence it replayed); while a signed
        verdict still waits for its evidence here (behind a step owed to this peer), None on the
        host (this peer's own deadlines decide) and the layer's verdict on a joiner; else the
        layer's verdict. None: the stop ends nothing (the sender is away)."""
        if self._over is not None:
            return self._over
        if self.claim is not None and self.host:
            return None
        return verdict

    def _announce(self, kind: str, seat: int, evidence: Sequence[Envelope]) -> list:
        """Sign and send this seat's verdict with its evidence (never twice)."""
        if ("verdict",) in self._bodies or self.inbox is None:
            return []
        self._bodies[("verdict",)] = True
        items = [e.to_bytes() for e in evidence][:fm.MAX_EVIDENCE]
        while items and sum(len(x) + 4 for x in items) > MAX_ENVELOPE - 200:
            items.pop()
        return self._emit(self.seat, fm.verdict(self.seat, kind, seat, items))

    def abortable(self) -> bool:
        return self.round == 1 and not self._deck_final() and not any(
            c["secrets"] for c in self.coins.values())

    def catch_up(self, seat: int, have: int, now: float) -> list:
        """Resume after a reconnect (docs/protocol.md): the messages ``seat`` lacks. The owed
        steps' clock (:attr:`since`) runs on: a reconnect is no progress (the session gives a
        seat back from a drop its connected time again, see :meth:`net.match.Owed.deadline`)."""
        if self.host:
            sent = self.sent.get(seat, [])
            if have > len(sent):   # it holds more than this journal knows it sent (a journal lost
                have = 0           # in a crash): everything again; what it holds is a repeat
            return [Send(seat, self.wire[i]) for i in sent[have:]] + self._run(now)
        return [Send(0, m) for m in self.outbox] + self._run(now)

    def received(self) -> int:
        return self.handled if not self.host else self.view.ply

    def payload(self) -> dict:
        v = self._over
        return {"v": VERSION, "seeds": {str(s): b.hex() for s, b in self._seeds.items()},
                "keys": {str(s): k.hex() for s, k in self.keys.items()},
                "envs": [e.to_bytes().hex() for e in self.envs], "handled": self.handled,
                "wire": [_wire_json(m) for m in self.wire], "sent": {str(k): v for k, v in self.sent.items()},
                "outbox": [_wire_json(m) for m in self.outbox], "evidence": [e.to_bytes().hex() for e in self.evidence],
                "over": [v.kind, v.seat, list(v.winners), v.ply, v.detail, list(v.between)] if v else None}

    def record(self) -> dict:
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

    def turn_for(self, seat: int):
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
    def _fkey(self, sender: int, msg: dict, now: float) -> list:
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
        out: list = []
        if self.host:
            out += [Save()] + self._relay(msg, exclude=sender)
        self._maybe_inbox()
        if self.inbox is not None:
            out.append(Notice("code", {"code": self.code()}))
        return out + self._run(now)

    def _maybe_inbox(self) -> None:
        if self.inbox is None and len(self.keys) == self.n:
            self.inbox = Inbox(self.gid, [self.keys[s] for s in range(self.n)])

    def _unwrap(self, msg: dict) -> Envelope:
        """A joiner's check of the host's countersigned relay ``rel{e, i, s}``: a relay the host
        did not sign is refused (its connection is the host's own: the host is named); an
        envelope under a valid countersignature that does not parse or verify is a verdict
        against the host with the attestation as its evidence, which every peer checks."""
        if self.host:
            raise Refusal("order", "only the host relays")
        r = Relayed(self.gid, msg["e"], msg["i"], msg["s"])
        if not r.verifies(self.keys[0]):
            raise Fault("illegal", 0, f"the host's relay {r.index} carries no valid countersignature")
        self._check_relay(r, [])
        self.relays[hashlib.sha256(r.raw).digest()] = r
        self.relay_at[r.index] = r
        try:
            env = Envelope.from_bytes(r.raw)
        except ValueError:
            raise Fault("illegal", 0, f"the host relayed a damaged envelope (relay {r.index})", [r]) from None
        if env.sender == 0 or not 0 <= env.sender < self.n or not env.verifies(self.keys[env.sender]):
            raise Fault("illegal", 0, f"the host relayed seat {env.sender}'s message {env.seq} altered "
                                      f"(relay {r.index})", [r])
        if env.sender == self.seat:   # an honest host never relays a seat's own envelope back to it
            raise Fault("illegal", 0, f"the host relayed this seat's own message {env.seq} back to it as "
                                      f"relay {r.index}", [r])
        return env

    def _check_relay(self, r: "Relayed", shown: Sequence["Relayed"]) -> None:
        """Two countersignatures of the host that cannot both be honest: one envelope relayed under
        two numbers, or two envelopes under one number (with those this seat received, and the
        others ``shown`` with it): the host's ``illegal``, the two attestations its evidence."""
        digest = hashlib.sha256(r.raw).digest()
        for old in [*(x for x in shown if x is not r), self.relays.get(digest), self.relay_at.get(r.index)]:
            if old is None or old == r:
                continue
            if old.raw == r.raw and old.index != r.index:
                raise Fault("illegal", 0, f"the host relayed one envelope as relay {old.index} and as relay "
                                          f"{r.index}", [old, r])
            if old.index == r.index and old.raw != r.raw:
                raise Fault("illegal", 0, f"the host relayed two envelopes as relay {r.index}", [old, r])

    def _relay(self, msg: dict, exclude: int | None) -> list:
        i = len(self.wire)
        if msg["t"] == "env" and exclude is not None:   # a joiner's envelope: countersigned
            sig = self.signers[0]._key.sign(Relayed.signed_bytes(self.gid, msg["e"], i)).signature
            msg = Relayed(self.gid, msg["e"], i, sig).message()
        self.wire.append(msg)
        out: list = []
        for j in self.joiners:
            if j != exclude:
                self.sent[j].append(i)
                out.append(Send(j, msg))
        return out

    def _send_wire(self, msg: dict, exclude: int | None) -> list:
        if self.host:
            return self._relay(msg, exclude)
        self.outbox.append(msg)
        return [Send(0, msg)]

    def _emit(self, seat: int, body: bytes) -> list:
        """Sign ``body`` as local ``seat``, accept it here, journal, send."""
        env = self.signers[seat].sign(body)
        self._accept(env, None)
        return [Save()] + self._send_wire(env_msg(env.to_bytes()), None)

    def _accept(self, env: Envelope, via: int | None, relay: dict | None = None) -> bool:
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
            body: Any = ("end",) + re
        else:
            try:
                body = fm.decode(env.body, env.sender)
            except DeckError as e:
                raise Fault("illegal", e.seat, e.reason, [env]) from None
        self.queue.append((env, body))
        return True

    # ------------------------------------------------------------------ processing
    def _run(self, now: float) -> list:
        """Apply what can be applied, then send what the local seats owe, until nothing moves."""
        if self.inbox is None:
            return []
        out: list = []
        try:
            while self._over is None:
                self._pump()
                if self._over is not None:
                    break
                duties = self._duties()
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

    def _fault(self, f: Fault) -> list:
        out: list = []
        if self._over is None:
            self.evidence = self._fit(f.evidence, self._story(f.seat, f.evidence))
            self._over = Verdict(f.kind, f.seat, (), self.view.ply, f.detail)
            if f.seat not in self.local:
                out += self._announce(f.kind, f.seat, self.evidence)
        return out + [Save(), Notice("record"), Over(self._over)]

    def _story(self, seat: int, evidence: Sequence[Envelope]) -> list[Envelope]:
        """Seat ``seat``'s decisions and coin parts of this round up to its latest envelope in
        ``evidence``, as this peer holds them (its keep and public actions first, then its latest
        plays): part of a verdict against it, so a peer that was told another story by the same
        seat finds the two envelopes of one sequence number when it replays the evidence. (Up to
        that envelope only: every honest peer that finds the fault holds the same ones, and
        writes the same evidence.)"""
        kinds = (fm.ACTION, fm.PLAY, fm.KEEP, fm.COMMIT, fm.REVEAL, fm.OPEN)
        mine = [e for e in evidence if isinstance(e, Envelope) and e.sender == seat]
        upto = max((e.seq for e in mine if e.body[:1] and e.body[0] in kinds), default=-1)
        pairs = {(e.sender, e.seq) for e in evidence}
        if self.inbox is None or seat in self.local or upto < 0 or len(pairs) < len(set(evidence)):
            return []   # two stories are shown by their two envelopes alone
        held = [e for e in self.inbox.log[seat][:upto + 1] if e.body[:1] and e.body[0] in kinds]
        first = [e for e in held if e.body[0] != fm.PLAY and e is self.keep_env.get(seat) or e.body[0] == fm.ACTION]
        return first[-4:] + [e for e in held if e not in first][-(fm.MAX_EVIDENCE // 2 - len(first[-4:])):]

    @staticmethod
    def _fit(primary: Sequence[Envelope], extra: Sequence[Envelope]) -> list[Envelope]:
        """``primary`` and as much of ``extra`` (latest first) as fits one ``verdict`` body
        (:data:`fm.MAX_EVIDENCE` envelopes, :data:`MAX_ENVELOPE` bytes), in canonical order."""
        keep = canonical(primary)[:fm.MAX_EVIDENCE]
        size = sum(len(e.to_bytes()) + 4 for e in keep)
        have = {e.to_bytes() for e in keep}
        for e in reversed(list(extra)):
            x = e.to_bytes()
            if x in have or len(keep) >= fm.MAX_EVIDENCE or size + len(x) + 4 > MAX_ENVELOPE - 200:
                continue
            keep.append(e)
            have.add(x)
            size += len(x) + 4
        return canonical(keep)

    @staticmethod
    def _ordered(b) -> bool:
        return not isinstance(b, tuple) and b.kind in (fm.ACTION, fm.PLAY, fm.KEEP, fm.COMMIT, fm.REVEAL, fm.OPEN)

    def _pump(self) -> None:
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

    def _claim(self, env: Envelope, b: fm.Body) -> None:
        """A peer's verdict: its evidence is accepted here like any relayed envelope (a forged one
        names the verdict's signer, two conflicting ones their signer) and applied; the claim is
        then settled by :meth:`_settle_claim` once nothing more moves."""
        evidence = []
        shown: dict[bytes, Relayed] = {}
        for x in b.items:
            if x[:8] == RELAY_TAG:
                r = Relayed.from_bytes(self.gid, x)
                if not r.verifies(self.keys[0]):
                    raise Fault("illegal", env.sender, "a verdict with a forged relay countersignature", [env])
                self._check_relay(r, list(shown.values()))
                shown[hashlib.sha256(r.raw).digest()] = r
                try:
                    inner = Envelope.from_bytes(r.raw)
                    good = 0 < inner.sender < self.n and inner.verifies(self.keys[inner.sender])
                except ValueError:
                    good = False
                if not good:   # the host countersigned what its sender never signed: seen here
                    raise Fault("illegal", 0, f"the host relayed an altered envelope (relay {r.index}, "
                                              f"shown by seat {env.sender})", [r])
                x = r.raw
            try:
                evidence.append(Envelope.from_bytes(x))
            except ValueError:
                raise Fault("illegal", env.sender, "a verdict with malformed evidence", [env]) from None
        self.claim = (env, b, evidence)
        for e in evidence:
            try:
                self._accept(e, env.sender)
            except Refusal:
                pass        # another match's, or beyond what this peer holds of its sender: no use

    def _settle_claim(self) -> None:
        """A peer's signed verdict whose evidence this machine applied without finding the fault
        itself (docs/protocol.md, "Verdicts and their evidence"). A ``forfeit`` (a deadline,
        which signatures cannot show) stands nowhere on its signer's word: naming a seat played
        here, it is false unless that seat still owes a step it has not sent (then the step goes
        and the verdict is ignored); on the host, which sees every seat itself, it is false; on a
        joiner, the host's verdict against a third seat that owes a forfeiting step as this seat
        sees it is ``disputed`` (either withheld it), and a joiner's against the host likewise.
        Any other verdict whose evidence still waits in the queue waits; one its evidence does
        not show is, on a joiner, ``disputed`` when a joiner names the host (junk on the host's
        own connection proves nothing), else the signer's ``illegal``, with its signed verdict
        as the evidence (every other seat's envelopes reach every peer signed, and the host's
        relays countersigned)."""
        assert self.claim is not None
        env, b, evidence = self.claim
        signer = env.sender
        if b.text == "forfeit" and b.named >= 0:
            named = b.named
            if named in self.local and self._blocked(named):
                self.claim = None
                return
            cause = self._owes_forfeit(named)
            if not self.host and named not in self.local and (signer == 0 and cause is not None or named == 0):
                self.claim = None
                self._over = Verdict("disputed", -1, (), self.view.ply,
                                     f"seat {signer} says seat {named} withheld a step; this seat cannot tell",
                                     between=tuple(sorted((signer, named))))
                self.evidence = [env]   # its signed verdict only: what else each held differs by timing
                return
            self.claim = None
            raise Fault("illegal", signer, f"seat {signer} gave a forfeit verdict against seat {named} "
                                           "that this seat cannot accept", [env])
        waiting = {e.digest() for e, _ in self.queue}
        if any(e.digest() in waiting for e in evidence):
            return
        self.claim = None
        if not self.host and b.named == 0 and signer != 0:
            # a joiner's word against the host that its evidence does not show (say, junk on the
            # host's own connection, which nothing signed can prove): this seat cannot tell
            self._over = Verdict("disputed", -1, (), self.view.ply, f"seat {signer} names the host "
                                 f"({b.text}) with no evidence this seat can check", between=(0, signer))
            self.evidence = canonical([env])
            return
        raise Fault("illegal", signer, f"seat {signer} gave a verdict ({b.text}, seat {b.named}) "
                                       "its evidence does not show", [env])

    def _deck_final(self) -> bool:
        sh = self.decks[self.seat].shuffles.get(self.sids[0])
        return sh is not None and sh.final is not None

    def _catch_up_views(self) -> None:
        if self.stage != "round":
            return
        for s in self.local:
            v, dk = self.views[s], self.decks[s]
            st = v.state
            ref: tuple[bytes, int] | None = None
            try:
                if st.phase is Phase.DEAL and self._deck_final() and all(
                        dk.can_open(self.sids[0], p) for p in self.positions_of(s)):
                    cards = []
                    for p in self.positions_of(s):
                        ref = (self.sids[0], p)
                        cards.append(CARDS[dk.open(*ref)])
                    v.dealt(cards)
                while st.phase is Phase.PILE and self._pile_final(st.pending - 1):
                    owner = st.pending - 1
                    if owner == s:
                        v.own_pile([CARDS[dk.known[(self.sids[0], p)]] for p in self.positions_of(s)
                                    if p not in self.kept[s]])
                    else:
                        v.hidden(owner + 1)
                    st = v.state
                d = self.draws.get(s)
                ref = (self.sids[d[0]], d[1]) if d is not None else None
                if ref is not None and dk.can_open(*ref):   # (can_open peels a pile card: it may break)
                    v.drew(CARDS[dk.open(*ref)])
                    del self.draws[s]
            except BrokenDeck:
                # a position only this seat can open opened to no card: it opens it to all
                # first (its own keys, :meth:`_duties`), so every peer sees the broken deck
                # itself before anyone reveals a secret (nobody audits on another's word)
                if ref is not None:
                    self.broken.setdefault(s, ref)
        st = self.view.state
        if st.round > self.round or st.is_over():
            self._to_audit()

    def _revealed_all(self, s: int) -> bool:
        """Whether seat ``s``'s audits of this round reveal every final shuffle it keyed."""
        got = self.reveals.get(s)
        return got is not None and all(sh.sid in got for sh in self._shuffles()
                                       if sh.final is not None and s in sh.keyers)

    def _to_audit(self) -> None:
        self.stage = "audit"

    def _pile_final(self, owner: int) -> bool:
        sid = self.sids.get(1 + owner)
        sh = self.decks[self.seat].shuffles.get(sid) if sid else None
        return sh is not None and sh.final is not None

    def _apply_free(self, env: Envelope, b) -> bool:
        s = env.sender
        if isinstance(b, tuple):   # a round end
            _, rnd, counts, digest = b
            if rnd < self.round:
                return True
            if rnd > self.round:
                return False
            self.ends[s] = env
            return True
        try:
            if b.kind == fm.PASS:
                msg = deck_decode(b.raw, s)
                if not any(msg.sid in dk.shuffles for dk in self.decks.values()):
                    if msg.sid[16:18] < self.round.to_bytes(2, "big"):
                        raise Fault("illegal", s, "a pass for a past round", [env])
                    return False
                sh = self.decks[self.seat].shuffles.get(msg.sid)
                if sh is not None and isinstance(msg, Pass) and msg.step > len(sh.passes):
                    return False   # held until the passes before it come (a host may have withheld one)
                for dk in self.decks.values():
                    dk.receive(b.raw, s)
                self.pass_env[msg.sid] = env
                return True
            if b.kind == fm.SHARES:
                msgs = [deck_decode(x, s) for x in b.items]
                if not all(isinstance(m, KeyShare) for m in msgs):
                    raise Fault("illegal", s, "a shares message holds another message", [env])
                if not all(m.sid in self.decks[self.seat].shuffles and self.decks[self.seat].shuffles[m.sid].final
                           for m in msgs):
                    return False
                for dk in self.decks.values():
                    for x in b.items:
                        dk.receive(x, s)
                for m in msgs:   # a seat's key of its own position: it opens it to all (a broken deck)
                    if self.stage == "round" and self._owner(m.sid, m.position) == s:
                        try:
                            self.decks[self.seat].open(m.sid, m.position)
                        except BrokenDeck:
                            self.saw_broken = True
                            self._to_audit()    # seen broken here, by this peer itself
                        except KeyError:
                            pass
                return True
            if b.kind == fm.AUDIT:
                if b.round > self.round:
                    return False
                if b.round == self.round and self.stage != "audit":
                    # held: this peer reveals its secrets, and takes another's, only once the
                    # round ended in its own view or it saw a deck broken itself (an early audit
                    # opens nothing: the honest peers' keys stay theirs)
                    return False
                if b.round < self.round:
                    return True
                revs = [deck_decode(x, s) for x in b.items]
                if not all(isinstance(r, Reveal) for r in revs):
                    raise Fault("illegal", s, "an audit message holds another message", [env])
                self.reveals.setdefault(s, {}).update((r.sid, r) for r in revs)   # an earlier, partial one too
                self.audit_seq[s] = env.seq
                return True
            if b.kind == fm.LOG:
                envs = [Envelope.from_bytes(x) for x in b.items]
                ev = find_equivocation(self.inbox.envelopes(), envs)
                if ev is not None and ev.check(self.gid, [self.keys[i] for i in range(self.n)]):
                    raise Fault("illegal", ev.sender, "told two peers two different stories", (ev.first, ev.second))
                if self.stage == "audit":
                    self.logs.add(s)
                return True
            if b.kind == fm.VERDICT:
                if s not in self.local:
                    self._claim(env, b)
                return True
        except DeckError as e:
            raise Fault("illegal", e.seat, e.reason, [env]) from None
        except ValueError as e:
            raise Fault("illegal", s, str(e), [env]) from None
        return True

    def _apply_ordered(self, env: Envelope, b: fm.Body) -> None:
        s = env.sender
        self.last_env = env
        st = self.view.state

        def bad(why: str, kind: str = "illegal") -> Fault:
            return Fault(kind, s, why, [env])
        try:
            if b.kind == fm.KEEP:
                if b.round != self.round or st.phase is not Phase.KEEP or st.to_act != s + 1:
                    raise bad("a keep out of turn")
                pos = tuple(sorted(b.items))
                if len(set(pos)) != SETUP[self.n][1] or not set(pos) <= set(self.positions_of(s)):
                    raise bad("kept positions that are not its own")
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
                self.sids[1 + s] = _sid(self.gid, self.round, 1 + s)
                others = [q for q in range(self.n) if q != s]
                for dk in self.decks.values():
                    dk.add(subdeck(dk.shuffles[self.sids[0]], self.sids[1 + s], rest, others, list(range(self.n))))
                return
            if b.kind in (fm.ACTION, fm.PLAY) and b.ply != st.ply:
                raise bad(f"a decision for ply {b.ply} at ply {st.ply}")
            if b.kind == fm.ACTION:
                a = Action.from_str(b.text)
                if a.kind not in (START, STEAL, EXECUTE) or (a.kind is STEAL and a.card is not None):
                    raise bad("not a public decision")
                if st.to_act != s + 1 or (a.kind is not START and a.seat != s + 1):
                    raise bad("a decision out of turn")
                if st.phase is Phase.START and self.round == 1:
                    raise bad("round 1's starter is a coin, not a decision")
                self._public(a, s)
                if a.kind is STEAL and a.target is not None:
                    purpose = self.view.ply
                    self.coins[purpose] = {"commits": {}, "secrets": {}, "envs": {}, "renvs": {}}
                    self.steal = (s, a.target - 1, purpose)
                return
            if b.kind == fm.PLAY:
                if not 0 <= b.card < N_CARDS:
                    raise bad("no such card")
                a = Action.play(s + 1, CARDS[b.card])
                if st.phase is not Phase.PLAY or st.to_act != s + 1:
                    raise bad("a play out of turn")
                ref = (b.no, b.pos)
                if ref not in self.hand_refs[s]:
                    raise bad(f"played position {ref} that is not in its hand")
                card = self._open_all(env, b, ref, s)
                if card is None:
                    return
                if card != b.card:
                    raise bad(f"played {CARDS[b.card]} from a position that holds {CARDS[card]} "
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
                return
            if b.kind == fm.COMMIT:
                coin = self.coins.get(b.purpose)
                if coin is None or "done" in coin:
                    raise bad(f"a commitment for coin {b.purpose}, which is not open", "coin")
                old = coin["commits"].get(s)
                if old is not None:
                    if old != b.blob:
                        raise bad("a second, different commitment (a re-roll)", "coin")
                    return
                coin["commits"][s] = b.blob
                coin["envs"][s] = env
                return
            if b.kind == fm.REVEAL:
                coin = self.coins.get(b.purpose)
                if coin is None or "done" in coin or len(coin["commits"]) < self.n:
                    raise bad("a reveal before every commitment", "coin")
                if s in coin["secrets"]:
                    if coin["secrets"][s] != b.blob:
                        raise bad("two reveals", "coin")
                    return
                if commitment(self.gid, b.purpose, s, b.blob) != coin["commits"][s]:
                    raise bad("its reveal does not open its commitment", "forfeit")
                coin["secrets"][s] = b.blob
                coin["renvs"][s] = env
                if len(coin["secrets"]) == self.n:
                    coin["done"] = True
                    self._coin_done(b.purpose, [coin["secrets"][i] for i in range(self.n)])
                return
            if b.kind == fm.OPEN:
                if self.steal is None or self.take is None or s != self.steal[1] or b.ply != self.steal[2]:
                    raise bad("keys for a take that is not due")
                card = self._open_all(env, b, self.take, s)
                if card is not None:
                    self._complete_take(card)
                return
        except (ViewError, IllegalMoveError, InvalidMoveError) as e:
            raise bad(str(e)) from None
        except DeckError as e:
            raise Fault("illegal", e.seat, e.reason, [env]) from None

    def _open_all(self, env: Envelope, b: fm.Body, ref: tuple[int, int], s: int) -> int | None:
        """Apply the owner's keys in ``b`` and open ``ref`` to all; None after a broken deck."""
        if ref in self.opened:
            return self.opened[ref]
        for x in b.items:
            m = deck_decode(x, s)
            if not isinstance(m, KeyShare):
                raise Fault("illegal", s, "a play's keys hold another message", [env])
        for dk in self.decks.values():
            for x in b.items:
                dk.receive(x, s)
        dk = self.decks[self.seat]
        sid = self.sids.get(ref[0])
        try:
            if sid is None:
                raise KeyError(ref)
            card = dk.open(sid, ref[1])
        except KeyError:
            raise Fault("illegal", s, f"opened position {ref} without every key it owes", [env]) from None
        except BrokenDeck:
            self.saw_broken = True
            self._to_audit()
            return None
        self.opened[ref] = card
        return card

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

    def _open_shares(self, seat: int, ref: tuple[int, int]) -> list[bytes]:
        """The keys ``seat`` owes to open its ``ref`` to all: its key of the position, and for a
        drawn card its key of the parent position too."""
        if ref in self.opened:
            return []
        dk = self.decks[seat]
        sid = self.sids[ref[0]]
        out = [dk.share(sid, ref[1]).to_bytes()]
        parent = dk.locate(sid, ref[1])
        if parent is not None:
            out.append(dk.share(*parent).to_bytes())
        return out

    def _own_keys(self, seat: int, sid: bytes, pos: int) -> list[bytes]:
        """Local ``seat``'s keys that open its own ``pos`` of shuffle ``sid`` to all (for a pile
        position, its key of the parent position too, while that can be located)."""
        dk = self.decks[seat]
        out = [dk.share(sid, pos).to_bytes()]
        try:
            parent = dk.locate(sid, pos)
        except (BrokenDeck, KeyError):
            parent = None
        if parent is not None:
            out.append(dk.share(*parent).to_bytes())
        return out

    def _owner(self, sid: bytes, pos: int) -> int | None:
        """The seat a position is dealt to (a round deck position, or a pile's), else None."""
        if sid == self.sids.get(0):
            return pos // self.d if pos < self.n * self.d else None
        for no, x in self.sids.items():
            if x == sid and no:
                return no - 1
        return None

    # ------------------------------------------------------------------ duties
    def _duties(self) -> list[tuple[int, bytes]]:
        """The messages the local seats owe now and have not sent (deterministic bodies, so a
        seat back from its journal finds them in :attr:`done`)."""
        out: list[tuple[int, bytes]] = []

        def add(seat: int, body: bytes) -> None:
            if (seat, body) not in self.done:
                out.append((seat, body))
        if self.stage == "round":
            for sh in self._shuffles():
                nxt = sh.expect()
                if nxt is not None and nxt[1] in self.local:
                    if (self.decks[nxt[1]].shuffles[sh.sid].expect() or (None, None))[1] == nxt[1]:
                        p = self.decks[nxt[1]].step(sh.sid)
                        assert p is not None
                        return [(nxt[1], p.to_bytes())]
            if self._deck_final():
                for s in self.local:
                    if ("deal", s) not in self._bodies:
                        dk = self.decks[s]
                        self._bodies[("deal", s)] = fm.shares(s, [dk.share(self.sids[0], p).to_bytes()
                                                                  for q in range(self.n) if q != s
                                                                  for p in self.positions_of(q)])
                    add(s, self._bodies[("deal", s)])
            for owner, (no, pos) in self.draws.items():
                for s in self.local:
                    if s != owner and (s, pos) not in self.decks[s].shuffles[self.sids[no]].shares:
                        add(s, fm.shares(s, [self.decks[s].share(self.sids[no], pos).to_bytes()]))
            for purpose, coin in self.coins.items():
                if "done" in coin:
                    continue
                for s in self.local:
                    secret = self._coin_secret(s, purpose)
                    if s not in coin["commits"]:
                        add(s, fm.commit(s, purpose, commitment(self.gid, purpose, s, secret)))
                    if len(coin["commits"]) == self.n:
                        add(s, fm.reveal(s, purpose, secret))
            for s, (sid, pos) in self.broken.items():
                add(s, fm.shares(s, self._own_keys(s, sid, pos)))
            if self.take is not None and self.steal is not None and self.steal[1] in self.local \
                    and self.take not in self.opened:
                v = self.steal[1]
                add(v, fm.open_(v, self.steal[2], self._open_shares(v, self.take)))
        else:
            for s in self.local:
                if ("audit", s) not in self._bodies:
                    dk = self.decks[s]
                    self._bodies[("audit", s)] = fm.audit(s, self.round, [dk.reveal(sh.sid).to_bytes()
                                                                          for sh in self._shuffles()
                                                                          if sh.final is not None])
                add(s, self._bodies[("audit", s)])
            if self.audited and len(self.audit_seq) == self.n:
                counts = [self.audit_seq[s] + 1 for s in range(self.n)]
                body = round_end(self.round, counts, self.inbox.transcript(self.round, counts))
                for s in self.local:
                    add(s, body)
                if self.mismatch:
                    if "log" not in self._bodies:   # once: every envelope held then, logs excluded
                        bodies, part, size = [], [], 0
                        for e in self.inbox.envelopes():
                            if e.body[:1] == bytes((fm.LOG,)):
                                continue
                            x = e.to_bytes()
                            if size + len(x) > LOG_CHUNK and part:
                                bodies.append(fm.log(self.seat, part))
                                part, size = [], 0
                            part.append(x)
                            size += len(x)
                        if part:
                            bodies.append(fm.log(self.seat, part))
                        self._bodies["log"] = bodies
                    for body in self._bodies["log"]:
                        add(self.seat, body)
        return out

    # ------------------------------------------------------------------ the round's end
    def _round_end_step(self) -> bool:
        if not self.audited:
            if not all(self._revealed_all(s) for s in range(self.n)):
                return False
            self._audit()
            self.audited = True
            return True
        if len(self.ends) < self.n or len(self.audit_seq) < self.n:
            return False
        for s, env in self.ends.items():
            try:
                ok = self.inbox.check_round_end(env)
            except ValueError:
                ok = False
            if not ok and s not in self.mismatch:
                self.mismatch.add(s)
                return True
        if self.mismatch:
            # wait for the logs: an equivocator is named by its two envelopes when they come
            # (_apply_free); when every disagreeing seat's log came and holds no such pair, that
            # seat signed a transcript hash no log gives: its round end is false
            if self.mismatch <= self.logs:
                s = min(self.mismatch)
                raise Fault("illegal", s, "signed a round end that no log supports (a false transcript hash)",
                            [self.ends[s]])
            return False
        st = self.true
        for v in self.views.values():
            v.reset(st)
        if st.is_over():
            o = st.outcome()
            assert o is not None
            self._over = Verdict("finished", -1, tuple(w - 1 for w in o.winners), st.ply, "three rounds played")
            return True
        self._new_round(self.round + 1)
        return True

    def _audit(self) -> None:
        shuffles = [sh for sh in self._shuffles() if sh.final is not None]
        reveals: dict[bytes, dict[int, Reveal]] = {}
        for s, rs in self.reveals.items():
            for sid, r in rs.items():
                reveals.setdefault(sid, {})[s] = r
        ev = {s: [self.inbox.log[s][self.audit_seq[s]]] for s in self.audit_seq}
        try:
            cards = audit_round(shuffles, reveals)
        except DeckError as e:
            raise Fault("illegal", e.seat, f"audit: {e.reason}", ev.get(e.seat, [])) from None
        for ref, card in self.opened.items():
            if cards.get((self.sids[ref[0]], ref[1])) != card:
                raise Fault("illegal", -1, "an opened card the audit does not confirm")
        # the round's true state, every action checked by the rules with the cards now known
        st = self.true.copy()
        acts = list(self.acts)
        d0 = self.sids[0]
        try:
            while acts and acts[0].kind is START:
                st.push_checked(acts.pop(0))
            if not all(s in self.kept for s in range(self.n)):
                raise Fault("illegal", -1, "the round stopped for a broken deck the audit does not find")
            groups = [[CARDS[cards[(d0, p)]] for p in self.positions_of(s)] for s in range(self.n)]
            aside = SETUP[self.n][2]
            groups.append([CARDS[cards[(d0, p)]] for p in range(self.n * self.d, self.n * self.d + aside)])
            st.push_checked(Action.deal(groups))
            for s in range(self.n):
                st.push_checked(Action.keep(s + 1, [CARDS[cards[(d0, p)]] for p in self.kept[s]]))
            for s in range(self.n):
                sid = self.sids[1 + s]
                st.push_checked(Action.pile(s + 1, [CARDS[cards[(sid, k)]] for k in range(self.pile_n[s])]))
            for a in acts:
                try:
                    st.push_checked(a)
                except IllegalMoveError as e:
                    actor = (a.seat if a.kind is not START else st.to_act) - 1
                    raise Fault("illegal", actor, f"{a}: {e}") from None
        except IllegalMoveError as e:
            raise Fault("illegal", -1, f"the round does not replay: {e}") from None
        if st.round == self.round and not st.is_over():
            raise Fault("illegal", -1, "the round stopped for a broken deck the audit does not find")
        self.true = st


# --------------------------------------------------------------------------- wire and registry
def _wire_json(m: dict) -> dict:
    if m["t"] == "fkey":
        return {"t": "fkey", "s": m["s"], "k": m["k"].hex()}
    if m["t"] == "rel":
        return {"t": "rel", "e": m["e"].hex(), "i": m["i"], "s": m["s"].hex()}
    return {"t": "env", "e": m["e"].hex()}


def _wire_from_json(m: dict) -> dict:
    if m["t"] == "fkey":
        return {"t": "fkey", "s": m["s"], "k": bytes.fromhex(m["k"])}
    if m["t"] == "rel":
        return {"t": "rel", "e": bytes.fromhex(m["e"]), "i": m["i"], "s": bytes.fromhex(m["s"])}
    return env_msg(bytes.fromhex(m["e"]))


def _restore(seat: int, table: Table, payload: dict, token_bytes) -> FairMatch:
    if not isinstance(payload, dict) or payload.get("v") != VERSION:
        raise ValueError("not a journal of this protocol version")
    try:
        return FairMatch(seat, table, token_bytes, payload)
    except (KeyError, TypeError) as e:
        raise ValueError(f"damaged journal: {e}") from None


def _turn(m: FairMatch, seat: int):
    return m.turn_for(seat)


def _player(level: str, seed: int):
    from game.royals.ai.levels import make_player
    p = make_player(level, seed)
    return p.choose


SCHEMAS = {
    "fkey": {"s": _int(0, 3), "k": _bin(32)},
    "env": {"e": _blob(HEADER_BYTES + SIG_BYTES, MAX_ENVELOPE)},
    "rel": {"e": _blob(1, MAX_ENVELOPE), "i": _int(0, (1 << 31) - 1), "s": _bin(64)},
}

FAIR = LanPart(key="royals-riots", version=VERSION, seats=(2, 3, 4), schemas=SCHEMAS,
               rates={"fkey": (8, 1), "env": (600, 300), "rel": (600, 300)},
               new_match=lambda seat, table, tb, seeds=None: FairMatch(seat, table, tb, sign_seeds=seeds),
               from_payload=_restore, auto_start=False, turn=_turn, player=_player, max_bin=MAX_ENVELOPE,
               signing=public_key)
