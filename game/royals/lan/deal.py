"""The deck of a dealer-free Royals & Riots round: who shuffles, keys and opens what, and the
round's end (docs/mental-poker.md, "A Royals & Riots round on this deck"; docs/protocol.md,
"Order of a round" steps 2, 3, 5, 6 and 8, "No secret before the round ends", "A false round
end"). Pure.

- The round's shuffles (:data:`N_CARDS` positions, shuffle no 0; after seat ``s``'s keep its
  draw pile, shuffle no ``1 + s``, re-shuffled by the other seats) and the passes each local
  seat owes (:meth:`DealSteps._pass_due`).
- Key shares: every seat's keys of the positions dealt to the others, of each drawn card, and
  the keys a seat owes to open a card it plays (:meth:`DealSteps._open_shares`) or a position
  of its own that opened to no card (a broken deck, opened to all first).
- The seat views fed only what their seat may know (their deal, their pile, the cards they
  draw: :meth:`DealSteps._catch_up_views`).
- The round's end: every seat's ``audit`` (its secrets; never before the round is over in this
  peer's view or it saw a broken deck itself), the audit and the replay of the round with the
  cards now known (:meth:`DealSteps._audit`), the signed round ends and, when they disagree,
  the ``log``s (:meth:`DealSteps._round_end_step`).

:class:`DealSteps` is a part of :class:`game.royals.lan.match.FairMatch`: it keeps the round's deck
state (``decks``, ``sids``, the reveals, the round ends) that the match flow reads.
"""

from __future__ import annotations

from typing import Callable

from game.royals.engine import CARDS, START, Action, IllegalMoveError
from game.royals.engine.state import SETUP, Phase

from net.deck import BrokenDeck, DeckError, KeyShare, Pass, Reveal, Shuffle, audit_round, subdeck
from net.deck import decode as deck_decode
from net.match import Verdict
from net.signed import Envelope, find_equivocation, round_end
from . import messages as fm
from .shared import FairState, Fault, RoundEnd

N_CARDS = 36
LOG_CHUNK = 40_000                     #: bytes of envelopes per LOG body


def sid(game_id: bytes, round_no: int, no: int) -> bytes:
    """A shuffle's id: ``game id ‖ round (2) ‖ shuffle no (2)`` (0 the round's deck, ``1 + s``
    seat ``s``'s draw pile)."""
    return game_id + round_no.to_bytes(2, "big") + no.to_bytes(2, "big")


class DealSteps(FairState):
    """The deck part of :class:`game.royals.lan.match.FairMatch` (see the module docstring)."""

    # ------------------------------------------------------------------ the round's shuffles
    def _new_deal(self, r: int) -> None:
        """Round ``r``'s deck (every seat shuffles and keys it) and an empty round end."""
        self.d = SETUP[self.n][0]
        self.sids = {0: sid(self.gid, r, 0)}
        seats = list(range(self.n))
        for dk in self.decks.values():
            dk.add(Shuffle(self.sids[0], self.points, range(N_CARDS), seats, seats))
        self.reveals: dict[int, dict[bytes, Reveal]] = {}
        self.audit_seq = {}
        self.audited = False
        self.mismatch = set()
        self.broken: dict[int, tuple[bytes, int]] = {}  # local seat -> its position that opened to no card
        self.saw_broken = False                         # this peer opened a position to all to no card
        # the signed envelopes that make steps owed (a timeout verdict's evidence, _owed_causes)
        self.prev_ends = list(getattr(self, "ends", {}).values())
        self.ends = {}
        self.logs = set()                               # seats whose log of this round came
        self.pass_env = {}                              # sid -> its latest pass

    def _new_pile(self, s: int, rest: list[int]) -> None:
        """After seat ``s``'s keep: its other positions ``rest`` are its draw pile, re-shuffled by
        the other seats and keyed by everyone."""
        self.sids[1 + s] = sid(self.gid, self.round, 1 + s)
        others = [q for q in range(self.n) if q != s]
        for dk in self.decks.values():
            dk.add(subdeck(dk.shuffles[self.sids[0]], self.sids[1 + s], rest, others, list(range(self.n))))

    def positions_of(self, s: int) -> range:
        """The round deck positions dealt to seat ``s`` (ruling 4: seat order, ``d`` each)."""
        return range(s * self.d, (s + 1) * self.d)

    def _shuffles(self) -> list[Shuffle]:
        dk = self.decks[self.seat]
        return [dk.shuffles[self.sids[no]] for no in sorted(self.sids) if self.sids[no] in dk.shuffles]

    def _deck_final(self) -> bool:
        sh = self.decks[self.seat].shuffles.get(self.sids[0])
        return sh is not None and sh.final is not None

    def _pile_final(self, owner: int) -> bool:
        sid_ = self.sids.get(1 + owner)
        sh = self.decks[self.seat].shuffles.get(sid_) if sid_ else None
        return sh is not None and sh.final is not None

    def _owner(self, sid_: bytes, pos: int) -> int | None:
        """The seat a position is dealt to (a round deck position, or a pile's), else None."""
        if sid_ == self.sids.get(0):
            return pos // self.d if pos < self.n * self.d else None
        for no, x in self.sids.items():
            if x == sid_ and no:
                return no - 1
        return None

    def _revealed_all(self, s: int) -> bool:
        """Whether seat ``s``'s audits of this round reveal every final shuffle it keyed."""
        got = self.reveals.get(s)
        return got is not None and all(sh.sid in got for sh in self._shuffles()
                                       if sh.final is not None and s in sh.keyers)

    def _to_audit(self) -> None:
        self.stage = "audit"

    # ------------------------------------------------------------------ the views' cards
    def _catch_up_views(self) -> None:
        """Give every local seat's view what it is owed and can now open: its deal once the deck
        is final and keyed, each pile (its own, or hidden), the card it drew; then to the audit
        when the round is over in this seat's view."""
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
                # first (its own keys, :meth:`duties`), so every peer sees the broken deck
                # itself before anyone reveals a secret (nobody audits on another's word)
                if ref is not None:
                    self.broken.setdefault(s, ref)
        st = self.view.state
        if st.round > self.round or st.is_over():
            self._to_audit()

    # ------------------------------------------------------------------ deck bodies, as they come
    def _round_end_msg(self, env: Envelope, b: RoundEnd) -> bool:
        """A seat's signed round end: kept for its round (a later round's waits)."""
        _, rnd, counts, digest = b
        if rnd < self.round:
            return True
        if rnd > self.round:
            return False
        self.ends[env.sender] = env
        return True

    def _pass_msg(self, env: Envelope, b: fm.Body) -> bool:
        """A shuffle pass, applied once its shuffle exists and the passes before it came."""
        s = env.sender
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

    def _shares_msg(self, env: Envelope, b: fm.Body) -> bool:
        """Key shares, applied once their shuffles are final; a seat's key of its own position
        opens that position to all (a broken deck, seen here by this peer itself)."""
        s = env.sender
        decoded = [deck_decode(x, s) for x in b.items]
        msgs = [m for m in decoded if isinstance(m, KeyShare)]
        if len(msgs) != len(decoded):
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

    def _audit_msg(self, env: Envelope, b: fm.Body) -> bool:
        """A seat's audit (its secrets of the round), held until this peer is at the audit."""
        s = env.sender
        if b.round > self.round:
            return False
        if b.round == self.round and self.stage != "audit":
            # held: this peer reveals its secrets, and takes another's, only once the
            # round ended in its own view or it saw a deck broken itself (an early audit
            # opens nothing: the honest peers' keys stay theirs)
            return False
        if b.round < self.round:
            return True
        decoded = [deck_decode(x, s) for x in b.items]
        revs = [r for r in decoded if isinstance(r, Reveal)]
        if len(revs) != len(decoded):
            raise Fault("illegal", s, "an audit message holds another message", [env])
        self.reveals.setdefault(s, {}).update((r.sid, r) for r in revs)   # an earlier, partial one too
        self.audit_seq[s] = env.seq
        return True

    def _log_msg(self, env: Envelope, b: fm.Body) -> bool:
        """A seat's log after round ends disagreed: two envelopes of one sender and sequence in it
        name their signer."""
        envs = [Envelope.from_bytes(x) for x in b.items]
        ev = find_equivocation(self._inbox.envelopes(), envs)
        if ev is not None and ev.check(self.gid, [self.keys[i] for i in range(self.n)]):
            raise Fault("illegal", ev.sender, "told two peers two different stories", (ev.first, ev.second))
        if self.stage == "audit":
            self.logs.add(env.sender)
        return True

    # ------------------------------------------------------------------ opening a card to all
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
        sid_ = self.sids.get(ref[0])
        try:
            if sid_ is None:
                raise KeyError(ref)
            card = dk.open(sid_, ref[1])
        except KeyError:
            raise Fault("illegal", s, f"opened position {ref} without every key it owes", [env]) from None
        except BrokenDeck:
            self.saw_broken = True
            self._to_audit()
            return None
        self.opened[ref] = card
        return card

    def _open_shares(self, seat: int, ref: tuple[int, int]) -> list[bytes]:
        """The keys ``seat`` owes to open its ``ref`` to all: its key of the position, and for a
        drawn card its key of the parent position too."""
        if ref in self.opened:
            return []
        dk = self.decks[seat]
        sid_ = self.sids[ref[0]]
        out = [dk.share(sid_, ref[1]).to_bytes()]
        parent = dk.locate(sid_, ref[1])
        if parent is not None:
            out.append(dk.share(*parent).to_bytes())
        return out

    def _own_keys(self, seat: int, sid_: bytes, pos: int) -> list[bytes]:
        """Local ``seat``'s keys that open its own ``pos`` of shuffle ``sid_`` to all (for a pile
        position, its key of the parent position too, while that can be located)."""
        dk = self.decks[seat]
        out = [dk.share(sid_, pos).to_bytes()]
        try:
            parent = dk.locate(sid_, pos)
        except (BrokenDeck, KeyError):
            parent = None
        if parent is not None:
            out.append(dk.share(*parent).to_bytes())
        return out

    # ------------------------------------------------------------------ what the local seats owe
    def _pass_due(self) -> tuple[int, bytes] | None:
        """The next pass of a shuffle that a local seat owes now (one at a time), else None."""
        for sh in self._shuffles():
            nxt = sh.expect()
            if nxt is not None and nxt[1] in self.local:
                if (self.decks[nxt[1]].shuffles[sh.sid].expect() or (None, None))[1] == nxt[1]:
                    p = self.decks[nxt[1]].step(sh.sid)
                    assert p is not None
                    return nxt[1], p.to_bytes()
        return None

    def _keys_due(self, add: Callable[[int, bytes], None]) -> None:
        """The deal keys (once the round's deck is final) and the drawn cards' keys the local
        seats owe."""
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

    def _broken_keys_due(self, add: Callable[[int, bytes], None]) -> None:
        """A local seat's own keys of its position that opened to no card: opened to all."""
        for s, (sid_, pos) in self.broken.items():
            add(s, fm.shares(s, self._own_keys(s, sid_, pos)))

    def _end_due(self, add: Callable[[int, bytes], None]) -> None:
        """At the round's end: every local seat's audit, then (once audited) its round end and,
        when round ends disagree, this peer's log (every envelope held then, logs excluded)."""
        for s in self.local:
            if ("audit", s) not in self._bodies:
                dk = self.decks[s]
                self._bodies[("audit", s)] = fm.audit(s, self.round, [dk.reveal(sh.sid).to_bytes()
                                                                      for sh in self._shuffles()
                                                                      if sh.final is not None])
            add(s, self._bodies[("audit", s)])
        if self.audited and len(self.audit_seq) == self.n:
            counts = [self.audit_seq[s] + 1 for s in range(self.n)]
            body = round_end(self.round, counts, self._inbox.transcript(self.round, counts))
            for s in self.local:
                add(s, body)
            if self.mismatch:
                if "log" not in self._bodies:   # once: every envelope held then, logs excluded
                    bodies: list[bytes] = []
                    part: list[bytes] = []
                    size = 0
                    for e in self._inbox.envelopes():
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

    # ------------------------------------------------------------------ the round's end
    def _round_end_step(self) -> bool:
        """One step of the round's end: the audit once every seat revealed everything, then the
        round ends checked (a disagreeing one waits for the logs), then the next round or the
        match's end."""
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
                ok = self._inbox.check_round_end(env)
            except ValueError:
                ok = False
            if not ok and s not in self.mismatch:
                self.mismatch.add(s)
                return True
        if self.mismatch:
            # wait for the logs: an equivocator is named by its two envelopes when they come
            # (_log_msg); when every disagreeing seat's log came and holds no such pair, that
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
        """The round's audit (:func:`net.deck.audit_round`): every card opened checked against it,
        and the round's true state rebuilt with every action checked by the rules."""
        shuffles = [sh for sh in self._shuffles() if sh.final is not None]
        reveals: dict[bytes, dict[int, Reveal]] = {}
        for s, rs in self.reveals.items():
            for sid_, r in rs.items():
                reveals.setdefault(sid_, {})[s] = r
        ev = {s: [self._inbox.log[s][self.audit_seq[s]]] for s in self.audit_seq}
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
                sid_ = self.sids[1 + s]
                st.push_checked(Action.pile(s + 1, [CARDS[cards[(sid_, k)]] for k in range(self.pile_n[s])]))
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
