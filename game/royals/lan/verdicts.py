"""Who owes what, and the verdicts with their evidence, in the dealer-free Royals & Riots match
(docs/protocol.md, "Verdicts, each with its evidence in the record", "Verdicts and their
evidence", "Timeout verdicts", "Who owes what"). Pure.

- The deadlines (:data:`STEP_S`, :data:`STEP_TOTAL`, :data:`RELAY_S`, :data:`DECIDE_S`) and the
  steps owed now, each with the signed envelopes that made it owed (:meth:`Verdicts._owed_causes`,
  :meth:`Verdicts.owed`): on a joiner a third seat's step comes through the host
  (:func:`via_host`) and, overdue, names nobody (``disputed``).
- :class:`~game.royals.lan.shared.Fault`: a verdict found while processing, and how it becomes this seat's verdict with
  its evidence in the canonical order (:func:`canonical`; the seat's *story*,
  :meth:`Verdicts._story`, fitted to one ``verdict`` body by :func:`fit`), announced in a signed
  ``verdict`` body (:meth:`Verdicts._announce`).
- A peer's ``verdict``: its evidence applied (:meth:`Verdicts._claim`), then settled
  (:meth:`Verdicts._settle_claim`): nobody is recorded at fault on another's word alone.
- The layer's verdicts checked against what this machine holds (:meth:`Verdicts.end`,
  :meth:`Verdicts.check_verdict`).

:class:`Verdicts` is a part of :class:`game.royals.lan.match.FairMatch` (it reads the round's state
that the match flow and :mod:`.deal` keep, declared in :mod:`.shared`); it owns ``evidence`` and ``claim``.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from net.match import ALL, Notice, Output, Over, Owed, Refusal, Save, Verdict
from net.signed import Envelope
from . import messages as fm
from .messages import MAX_ENVELOPE
from .relay import Relayed, RelayChecks
from .shared import Evidence, FairState, Fault

STEP_S, STEP_TOTAL = 10.0, 60.0       #: deadlines of an owed pass, key, reveal (connected / in all)
RELAY_S = 10.0                         #: a joiner waits this much longer than the owing seat's deadline
                                       #: for the host to relay a third seat's step (or its verdict)
DECIDE_S = 600.0                       #: a person's decision (keep, play, ...): cut off, never forfeit


__all__ = ["DECIDE_S", "RELAY_S", "STEP_S", "STEP_TOTAL", "Fault", "Verdicts", "canonical", "fit", "unblocked",
           "via_host"]


def canonical(evidence: Iterable[Evidence | None]) -> list[Evidence]:
    """Evidence in the order every peer writes it: each envelope once, by seat, then sequence
    number, then wire bytes (two envelopes of one sequence number: the two stories)."""
    seen = {e.to_bytes(): e for e in evidence if e is not None}
    return [seen[k] for k in sorted(seen, key=lambda k: (seen[k].sender, seen[k].seq, k))]


def fit(primary: Sequence[Evidence], extra: Sequence[Evidence]) -> list[Evidence]:
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


def unblocked(owed: list[Owed]) -> list[Owed]:
    """A seat that waits for a forfeiting step owed to it (say its draw key) cannot apply
    what comes after it, so a step of its own that follows may be held up by the other: its
    deadlines are pushed back by :data:`STEP_TOTAL`, so the seat that withheld is named
    first, never the seat it kept waiting."""
    waiting = {o.to for o in owed if o.forfeits and o.to >= 0 and o.seat != o.to}
    return [Owed(o.seat, o.step, o.ref, o.to, o.since, o.connected + STEP_TOTAL, o.total + STEP_TOTAL,
                 o.forfeits, o.via) if o.seat in waiting else o for o in owed]


def via_host(o: Owed, seat: int) -> Owed:
    """On joiner ``seat``, a third seat's step as it reaches it: through the host (``via`` 0),
    due after the host has had every deadline of its own to judge it (the step's total, plus
    for a step that only cuts off its connected time, plus :data:`RELAY_S` to relay its
    verdict); then it names nobody (:func:`net.match.deadline_verdict`: ``disputed``)."""
    if o.seat in (seat, 0):
        return o
    due = o.total + RELAY_S + (0.0 if o.forfeits else o.connected)
    return Owed(o.seat, o.step, o.ref, o.to, o.since, due, due, o.forfeits, via=0)


class Verdicts(FairState):
    """The verdict part of :class:`game.royals.lan.match.FairMatch` (see the module docstring)."""

    checks: RelayChecks     # a joiner's record of the host's relays (the match flow's)

    # ------------------------------------------------------------------ who owes what
    def _owed_causes(self) -> list[tuple[Owed, tuple[Envelope, ...]]]:
        """Every step some seat owes now (as this seat's own envelopes show it), each with the
        signed envelopes that made it owed: what a timeout verdict carries as its evidence
        (docs/protocol.md, "Verdicts and their evidence")."""
        if self._over is not None:
            return []
        out: list[tuple[Owed, tuple[Envelope, ...]]] = []
        t = self.since

        def o(seat: int, step: str, ref: int, forfeits: bool, cause: Iterable[Envelope | None] = (), to: int = ALL,
              conn: float = STEP_S, total: float = STEP_TOTAL) -> None:
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
                    o(s, "reveal", self.round, True, [self.last_env, *audits[:1]])
                elif s not in self.ends and self.audited:
                    o(s, "round end", self.round, True, audits)
            for s in sorted(self.mismatch):
                if s not in self.logs:
                    o(s, "log", self.round, True, [self.ends[s], self.ends.get(self.seat)])
        return out

    def owed(self) -> list[Owed]:
        """Every step some seat owes now (rule 1 of the layer). On a joiner, a third seat's step
        comes through the host (:func:`via_host`): this seat cannot tell a seat that withheld it
        from a host that did not relay it, so such a step, overdue, names nobody (``disputed``)."""
        raw = unblocked([o for o, _ in self._owed_causes()])
        return raw if self.host else [via_host(o, self.seat) for o in raw]

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

    # ------------------------------------------------------------------ the layer's verdicts
    def end(self, verdict: Verdict, now: float) -> list[Output]:
        """The session's verdict (a deadline, a peer's stop judged by the layer's rules and
        :meth:`check_verdict`). A forfeit or a departure of another seat is recorded with the
        signed envelopes that made its step owed, and announced to every peer in a signed
        ``verdict`` body carrying them, so each checks it (docs/protocol.md, "Verdicts and their
        evidence")."""
        if self._over is not None:
            return [Save(), Notice("record")]
        out: list[Output] = []
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

    # ------------------------------------------------------------------ this seat's verdict
    def _announce(self, kind: str, seat: int, evidence: Sequence[Evidence]) -> list[Output]:
        """Sign and send this seat's verdict with its evidence (never twice)."""
        if ("verdict",) in self._bodies or self.inbox is None:
            return []
        self._bodies[("verdict",)] = True
        items = [e.to_bytes() for e in evidence][:fm.MAX_EVIDENCE]
        while items and sum(len(x) + 4 for x in items) > MAX_ENVELOPE - 200:
            items.pop()
        return self._emit(self.seat, fm.verdict(self.seat, kind, seat, items))

    def _fault(self, f: Fault) -> list[Output]:
        """A fault found here: this seat's verdict, its evidence the fault's and the story of the
        seat at fault, announced when that seat is not played here."""
        out: list[Output] = []
        if self._over is None:
            self.evidence = fit(f.evidence, self._story(f.seat, f.evidence))
            self._over = Verdict(f.kind, f.seat, (), self.view.ply, f.detail)
            if f.seat not in self.local:
                out += self._announce(f.kind, f.seat, self.evidence)
        return out + [Save(), Notice("record"), Over(self._over)]

    def _story(self, seat: int, evidence: Sequence[Evidence]) -> list[Envelope]:
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

    # ------------------------------------------------------------------ a peer's verdict
    def _claim(self, env: Envelope, b: fm.Body) -> None:
        """A peer's verdict: its evidence is accepted here like any relayed envelope (a forged one
        names the verdict's signer, two conflicting ones their signer) and applied; the claim is
        then settled by :meth:`_settle_claim` once nothing more moves. A relay attestation in it
        is checked first (:meth:`game.royals.lan.relay.RelayChecks.shown`)."""
        evidence: list[Envelope] = []
        shown: dict[bytes, Relayed] = {}
        for x in b.items:
            x = self.checks.shown(env, x, self.keys, shown)
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

