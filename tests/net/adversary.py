"""A model checker for the LAN match machines: one seat deviates, at every step of a short match,
in every way from a list, and the honest peers must still be right.

In memory, over the pure machines (:class:`game.roseking.lan.match.RoseKingMatch`,
:class:`game.royals.lan.match.FairMatch`), with what :class:`net.session.Session` does around them
mirrored here (:class:`World`): a star of links through the host, each FIFO, frames encoded and
checked against the part's schemas as the layer does; a Save writes the journal (the machine's
payload at that moment); a :class:`~net.match.Refusal` closes that connection, whose other end
hears ``error{code}``; a peer's ``over{kind, seat}`` and ``error{code}`` are judged with
:func:`net.match.judge_stop` and then the machine's ``check_verdict``; deadlines with
:func:`net.match.overdue` and :func:`net.match.deadline_verdict` at the session's tick, a
non-forfeiting step missed while connected cutting the owing seat's connection (``withheld``);
a joiner reconnects after ``reconnect_delay`` and resumes (``catch_up`` both ways, its ``have``
the machine's ``received()``), gives up after ``host_grace`` unless the host owes it a
forfeiting step, and stops on a fatal code; a peer that ends tells every peer it holds
(``over`` then ``error{kind}``), and the host tells a joiner that comes back to a judged match;
a seat that drops while the host's machine is ``abortable()`` calls the match off. A seat
killed with kill -9 comes back from its journal (:meth:`World.crash`).

A run (:func:`run`) plays a scripted match (deterministic secrets and players, so every run
repeats exactly) up to the deviator's ``k``-th send (every message it sends, and for the host
every relay, to each joiner apart), deviates there (:data:`DEVIATIONS`), lets every other peer
run to quiescence, advances the clock past every deadline, and checks (:func:`check`):

- no honest peer names an honest seat (``disputed`` may name an honest seat only beside the
  deviator);
- honest records are equal byte for byte, but where docs/protocol.md, "When two honest records
  differ" allows it: a joiner's ``disputed`` beside the host's verdict on the third seat, and
  joiners that a deviating host kept apart;
- every honest peer ends within the game's longest chain of documented deadlines, or the match
  goes on (somebody honest may decide when the script stops; in Rose King a move has no
  deadline, so a peer waiting for the deviator's move may wait);
- Royals & Riots: no honest seat sent its round ``audit`` before the round ended in its own
  view, and the deviator, with its own secrets and every key the honest seats sent, opens no
  hand, pile or set-aside position that was not opened to all.

:func:`sweep` runs every (seat, step, deviation) of a table from deep copies of one scripted
match (a copy before each step, so the prefix is played once); :func:`kill_run` is the kill
test's run (every seat honest). ``python -m tests.net.adversary TABLE`` sweeps a table
(``rose-king``, ``royals-2``, ``royals-3``, ``royals-4``) and prints its failures;
``python -m tests.net.adversary TABLE SEAT STEP DEVIATION`` replays one run with its trace.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import sys
import time
import zlib
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Callable

from net.framing import HEADER, decode_payload, encode_frame
from net.match import ALL, Over, Refusal, Save, Send, Verdict, deadline_verdict, judge_stop, overdue
from net.session import FATAL_CODES

RECONNECT_S = 0.5      #: a joiner's ``reconnect_delay``
HOST_GRACE_S = 10.0    #: a joiner's ``host_grace``
TICK_S = 0.001         #: the clock's advance per message or decision (messages take about a millisecond)

#: every run made, by table (``rose-king``, ``royals-2`` ...), for the lead's count
RUNS: Counter = Counter()
SECONDS: Counter = Counter()


# =========================================================================== determinism
class Tokens:
    """A deterministic, deep-copyable ``token_bytes``: SHAKE-256 of a salt and a counter."""

    def __init__(self, salt: str) -> None:
        self.salt, self.n = salt, 0

    def __call__(self, k: int) -> bytes:
        self.n += 1
        return hashlib.shake_256(f"{self.salt}:{self.n}".encode()).digest(k)


# =========================================================================== the games
class RoseKing:
    """Rose King: two seats, the set-up coin and the first ``decisions`` plies (a draw whenever
    the player's coin says so, so both seats draw early)."""

    name = "rose-king"
    n = 2
    max_end = 60.0 + HOST_GRACE_S + 5.0   #: the longest documented chain of deadlines (s)

    def __init__(self, seed: int = 3, decisions: int = 10) -> None:
        from game.roseking.lan.match import LAN, RoseKingMatch
        from .rk_wire import SCHEMAS, table
        self.seed, self.horizon = seed, decisions
        self.table = table()
        self.schemas = SCHEMAS
        self._lan, self._cls = LAN, RoseKingMatch

    def __deepcopy__(self, memo):
        return self   # the game's set-up is shared by every copy of a world

    def machine(self, seat: int, tokens) -> Any:
        return self._cls(seat, self.table, tokens)

    def restore(self, seat: int, payload: dict, tokens) -> Any:
        return self._cls(seat, self.table, tokens, payload)

    def local(self, m) -> tuple[int, ...]:
        return (m.seat,)

    def turn(self, m, seat: int):
        return self._lan.turn(m, seat)

    def player(self, seat: int):
        return DrawingPlayer(self.seed * 10 + seat)

    def choose(self, player, obs):
        return player(obs)

    # ---------------------------------------------------------------- deviations
    def variant(self, w: "World", d: int, msg: dict) -> dict | None:
        """Another message for the same coin or ply (the second of two stories)."""
        m = dict(msg)
        if msg["t"] == "commit":
            m["c"] = hashlib.sha256(msg["c"]).digest()
        elif msg["t"] == "reveal":
            m["s"] = hashlib.sha256(msg["s"]).digest()
        elif msg["t"] in ("move", "ack"):
            m["hash"] = msg["hash"][:-1] + bytes((msg["hash"][-1] ^ 1,))
        else:
            return None
        return m

    def altered(self, w: "World", d: int, msg: dict) -> dict | None:
        """One byte of the message changed on its way (Rose King relays nothing: the host's own)."""
        return self.variant(w, d, msg)

    def out_of_turn(self, w: "World", d: int) -> list[dict]:
        """A draw's commitment for the ply the deviator holds, whoever's turn it is."""
        m = w.m[d]
        return [{"t": "commit", "for": m.ply, "c": hashlib.sha256(b"out of turn %d" % m.ply).digest()}]

    def early_audit(self, w, d):
        return None

    def awaits_decision(self, m, d: int | None) -> bool:
        """Whether honest machine ``m`` waits for the deviator's decision, which has no deadline
        in Rose King (a player may think as long as it likes; docs/protocol.md lists no move
        among the owed steps)."""
        return d is not None and m.over is None and m.to_move() == d and not m.owed()

    def false_verdict(self, w, d, kind, named):
        return None

    def leaks(self, w: "World") -> list[str]:
        return []


class DrawingPlayer:
    """Rose King's quick player: a draw when one is legal and its coin says so, else a random
    legal move (deep-copyable: its generator is plain data)."""

    def __init__(self, seed: int) -> None:
        from game.rng import Rng
        self.rng = Rng(seed)

    def __call__(self, state):
        from game.roseking.engine import DRAW
        moves = state.legal_moves()
        draws = [m for m in moves if m.kind is DRAW]
        if draws and self.rng.randbelow(2) == 0:
            return draws[0]
        others = [m for m in moves if m.kind is not DRAW] or moves
        return others[self.rng.randbelow(len(others))]


class Royals:
    """Royals & Riots with no trusted dealer, ``n`` seats: the key announcements, the deck's
    shuffle and keys, the keeps, the piles, the starter coin and the first ``decisions``
    decisions in all (keeps included)."""

    max_end = 600.0 + 600.0 + 10.0 + 60.0 + 5.0   #: a decision (600 s), through the host, and a step

    def __init__(self, n: int, seed: int | None = None, decisions: int | None = None) -> None:
        from game.royals.lan import messages as fm
        from game.royals.lan.match import FairMatch, _restore
        from .fair_table import SCHEMAS, table
        self.n, self.seed = n, seed if seed is not None else {2: 2}.get(n, 1)   # seat 2's: a theft early
        self.name = f"royals-{n}"
        self.horizon = decisions if decisions is not None else {2: 7, 3: 7, 4: 8}[n]
        self.table = table(n)
        self.schemas = SCHEMAS
        self.fm, self._cls, self._restore = fm, FairMatch, _restore

    def __deepcopy__(self, memo):
        return self   # the game's set-up is shared by every copy of a world

    def machine(self, seat: int, tokens) -> Any:
        return self._cls(seat, self.table, tokens)

    def restore(self, seat: int, payload: dict, tokens) -> Any:
        return self._restore(seat, self.table, payload, tokens)

    def local(self, m) -> tuple[int, ...]:
        return m.local

    def turn(self, m, seat: int):
        return m.turn_for(seat)

    def player(self, seat: int):
        from game.royals.ai.players import RandomPlayer
        return RandomPlayer(self.seed * 10 + seat)

    def choose(self, player, obs):
        return player.choose(obs)

    # ---------------------------------------------------------------- deviations
    def _sign(self, w: "World", d: int, body: bytes, seq: int | None = None):
        """``body`` signed by the deviator (its next sequence number, or ``seq``); a new one is
        kept in its own inbox too, so what it sends next follows on."""
        from net.signed import Signer
        m = w.m[d]
        if m.inbox is None:
            return None
        if seq is not None:
            signer = Signer(m.gid, d, m._seeds[d][:32], next_seq=seq)
            return signer.sign(body)
        env = m.signers[d].sign(body)
        m.inbox.accept(env, None)
        return env

    def _env(self, env) -> dict:
        from game.royals.lan.match import env_msg
        return env_msg(env.to_bytes())

    def variant(self, w: "World", d: int, msg: dict) -> dict | None:
        """The deviator's own envelope with another body, signed with the same sequence number;
        for the host's countersigned relay (``rel``), another envelope it relayed before (the
        previous to any joiner) countersigned with this relay's index."""
        from net.signed import Envelope
        if msg["t"] == "rel":
            from game.royals.lan.match import Relayed
            old = next((m for m in reversed(w.m[d].wire) if m["t"] == "rel" and m["e"] != msg["e"]), None)
            if old is None:
                return None
            sig = w.m[d].signers[d]._key.sign(Relayed.signed_bytes(w.m[d].gid, old["e"], msg["i"])).signature
            return {"t": "rel", "e": old["e"], "i": msg["i"], "s": sig}
        if msg["t"] != "env":
            return None
        env = Envelope.from_bytes(msg["e"])
        if env.sender != d:
            return None
        body = env.body[:-1] + bytes((env.body[-1] ^ 1,))
        return self._env(self._sign(w, d, body, env.seq))

    def altered(self, w: "World", d: int, msg: dict) -> dict | None:
        """One byte of the envelope (or announced key) flipped on its way; a relay the host
        countersigns (``rel``) is countersigned again over the altered bytes, as a host that
        alters it would."""
        m = dict(msg)
        if msg["t"] in ("env", "rel"):
            e = msg["e"]
            i = 25 + (len(e) - 25 - 64) // 2     # inside the body
            m["e"] = e[:i] + bytes((e[i] ^ 0x40,)) + e[i + 1:]
            if msg["t"] == "rel":
                from game.royals.lan.match import Relayed
                key = w.m[d].signers[d]._key
                m["s"] = key.sign(Relayed.signed_bytes(w.m[d].gid, m["e"], msg["i"])).signature
        else:
            m["k"] = msg["k"][:-1] + bytes((msg["k"][-1] ^ 1,))
        return m

    def out_of_turn(self, w: "World", d: int) -> list[dict]:
        """A play signed at the ply the deviator holds, of its first dealt position, whoever's turn."""
        m = w.m[d]
        if m.inbox is None:
            return []
        body = self.fm.play(d, m.view.state.ply, 0, d * m.d, 0, [])
        env = self._sign(w, d, body)
        return [self._env(env)] if env is not None else []

    def early_audit(self, w: "World", d: int) -> list[dict]:
        """The deviator's round ``audit`` (every secret of its finished shuffles) mid-round."""
        m = w.m[d]
        if m.inbox is None:
            return []
        dk = m.decks[d]
        body = self.fm.audit(d, m.round, [dk.reveal(sh.sid).to_bytes() for sh in m._shuffles()
                                          if sh.final is not None])
        env = self._sign(w, d, body)
        return [self._env(env)] if env is not None else []

    def false_verdict(self, w: "World", d: int, kind: str, named: int) -> list[dict]:
        """A signed ``verdict`` body of ``kind`` against ``named``, its 'evidence' that seat's
        first envelope (if the deviator holds one)."""
        m = w.m[d]
        if m.inbox is None:
            return []
        ev = [m.inbox.log[named][0].to_bytes()] if 0 <= named < self.n and m.inbox.log[named] else []
        env = self._sign(w, d, self.fm.verdict(d, kind, named, ev))
        return [self._env(env)] if env is not None else []

    # ---------------------------------------------------------------- keys
    def awaits_decision(self, m, d: int | None) -> bool:
        return False   # a decision is owed (600 s), so its deadline ends the wait

    def leaks(self, w: "World") -> list[str]:
        """What the deviator could open with its own secrets and every key an honest seat sent:
        any position of an honest seat's hand or pile (or the set-aside) not opened to all is a
        leak; and an honest ``audit`` sent before the round ended in its sender's view."""
        out = list(w.early_audits)
        if not w.audits_sent or w.dev is None or w.dev_seed is None:
            return out
        import msgpack

        from net.deck import DeckPeer, KeyShare, Reveal
        from net.deck import decode as deck_decode
        from game.royals.lan.match import N_CARDS
        fm = self.fm
        d = w.dev
        honest = [s for s in range(self.n) if s != d and w.m.get(s) is not None]
        if not honest:
            return out
        base = max(honest, key=lambda s: len(w.m[s].decks[s].shuffles))
        hm = w.m[base]
        raw = msgpack.unpackb(hm.decks[base].to_bytes(), raw=False, strict_map_key=True)
        raw[2], raw[3], raw[5] = d, w.dev_seed, []
        peer = DeckPeer.from_bytes(msgpack.packb(raw, use_bin_type=True))
        public: set[tuple[bytes, int]] = set()
        for s in honest:
            m = w.m[s]
            for ref in m.opened:
                sid = m.sids.get(ref[0])
                if sid is not None:
                    public.add((sid, ref[1]))

        def share(x: bytes, seat: int) -> None:
            try:
                msg = deck_decode(x, seat)
                sh = peer.shuffles.get(msg.sid)
                if sh is None or sh.final is None:
                    return
                if isinstance(msg, KeyShare):
                    sh.accept_share(msg)
                elif isinstance(msg, Reveal):
                    for pos, k in enumerate(msg.keys):
                        try:
                            sh.accept_share(KeyShare(msg.sid, msg.seat, pos, k))
                        except Exception:
                            pass
            except Exception:
                pass
        for seat, body in w.honest_bodies:
            try:
                b = fm.decode(body, seat)
            except Exception:
                continue
            if b.kind in (fm.SHARES, fm.PLAY, fm.OPEN, fm.AUDIT):
                for x in b.items:
                    share(x, seat)
            if b.kind == fm.PLAY:
                sid = hm.sids.get(b.no)
                if sid is not None:
                    public.add((sid, b.pos))
        opened = []
        dd = hm.d
        for sid, sh in peer.shuffles.items():
            no = int.from_bytes(sid[18:20], "big")
            for pos in range(sh.n):
                if no == 0:
                    owner = pos // dd if pos < self.n * dd else -1
                else:
                    owner = no - 1
                if owner == d or (sid, pos) in public:
                    continue
                try:
                    ok = peer.can_open(sid, pos)
                except Exception:
                    ok = False
                if ok:
                    opened.append(f"{'deck' if no == 0 else f'pile {no - 1}'}:{pos}"
                                  f"({'seat %d' % owner if owner >= 0 else 'set aside'})")
        if opened:
            out.append(f"the deviator (seat {d}) can open {len(opened)} position(s) not opened to all: "
                       f"{', '.join(opened[:8])}{' ...' if len(opened) > 8 else ''} (of {N_CARDS})")
        return out


# =========================================================================== the world
class World:
    """Every seat's machine and the session's rules around them (see the module docstring).

    ``honest``: the seats whose verdicts and records are checked (every seat but the deviator).
    The deviator is armed with :meth:`arm`; its ``mode`` is ``honest`` until it deviates, then
    ``honest`` again (it goes on as an honest session), ``silent`` (connected, it sends and
    decides nothing) or ``gone``."""

    def __init__(self, game, trace: bool = False) -> None:
        self.g = game
        self.n = game.n
        self.m: dict[int, Any] = {s: game.machine(s, Tokens(f"{game.name}:{game.seed}:{s}")) for s in range(self.n)}
        self.players = {s: game.player(s) for s in range(self.n)}
        self.joiners = list(range(1, self.n))
        self.q: deque = deque()                       # (frm, to, epoch, kind, data)
        self.up = {j: True for j in self.joiners}
        self.closing: dict[int, int | None] = {j: None for j in self.joiners}
        self.epoch = {j: 0 for j in self.joiners}
        self.back = {j: 0.0 for j in self.joiners}
        self.now = 0.0
        self.verdict: dict[int, Verdict] = {}
        self.ended_at: dict[int, float] = {}
        self.fatal: set[int] = set()
        self.lost_at: dict[int, float] = {}
        self.reconnect: dict[int, float] = {}
        self.journal: dict[int, dict] = {}
        self.sends = [0] * self.n
        self.prev: dict[tuple[int, int], dict] = {}   # (seat, to) -> its last message to that peer
        self.decisions = 0
        self.cap = game.horizon
        self.capped = False
        self.mode = {s: "honest" for s in range(self.n)}
        self.dev: int | None = None
        self.dev_seed: bytes | None = None
        self.armed: tuple[int, str] | None = None
        self.t_dev: float | None = None
        self.step_desc = ""
        self.called_off = False
        self.na = False             # the armed deviation does not apply at that step
        self.deferred: list[tuple[int, str]] = []   # messages the deviator sends once this step is done
        self.errors: list[str] = []
        self.last_tick = {s: -math.inf for s in range(self.n)}
        self.tick_sig: dict[int, tuple] = {}
        self.honest_bodies: list[tuple[int, bytes]] = []
        self.audits_sent = False
        self.early_audits: list[str] = []
        self.tracing = trace
        self.trace: list[str] = []
        self.sendlog: list | None = None   # (seat, its send number, to, what) of every send, when a list
        for s in range(self.n):
            self._carry(s, self._call(s, lambda m: m.start(0.0)))

    # ------------------------------------------------------------------ helpers
    def _t(self, text: str) -> None:
        if self.tracing:
            self.trace.append(f"{self.now:9.3f} {text}")

    def honest(self) -> list[int]:
        return [s for s in range(self.n) if s != self.dev]

    def _link(self, a: int, b: int) -> int:
        return b if a == 0 else a

    def _links_of(self, s: int) -> list[int]:
        return list(self.joiners) if s == 0 else [s]

    def _call(self, s: int, fn) -> list:
        """A call into seat ``s``'s machine; an exception other than a refusal is a bug of an
        honest machine (kept in :attr:`errors`); the deviator's goes silent."""
        try:
            return fn(self.m[s])
        except Refusal:
            raise
        except Exception as e:  # noqa: BLE001 -- reported
            if s == self.dev:
                self.mode[s] = "silent"
                return []
            import traceback
            self.errors.append(f"seat {s}'s machine raised {type(e).__name__}: {e}\n"
                               + "".join(traceback.format_exc(limit=6)))
            self.mode[s] = "gone"
            return []

    def is_connected(self, s: int, seat: int) -> bool:
        if seat == s:
            return True
        j = seat if s == 0 else s
        return j in self.up and self.up[j] and self.closing[j] is None

    def back_of(self, s: int, seat: int) -> float:
        if seat == s:
            return -math.inf
        j = seat if s == 0 else s
        return self.back[j] if self.is_connected(s, seat) else -math.inf

    # ------------------------------------------------------------------ outputs
    def _carry(self, s: int, outputs: list) -> None:
        m = self.m.get(s)
        for o in outputs:
            if self.m.get(s) is not m or self.mode[s] == "gone":
                return          # killed while carrying them out
            if isinstance(o, Send):
                targets = [0] if s != 0 else (self.joiners if o.to == ALL else [o.to])
                for t in targets:
                    if self.m.get(s) is not m or self.mode[s] == "gone":
                        return
                    self._send(s, t, o.msg)
            elif isinstance(o, Save):
                self.journal[s] = self.m[s].payload()
            elif isinstance(o, Over):
                self.end(s, o.verdict)

    def _send(self, s: int, t: int, msg: dict, count: bool = True) -> None:
        if count:
            self.sends[s] += 1
            if self.sendlog is not None:
                self.sendlog.append((s, self.sends[s], t, _describe(msg)))
            if self.armed is not None and s == self.dev and self.sends[s] == self.armed[0]:
                if not self._deviate(s, t, msg):
                    return
            if self.mode[s] != "honest":
                return
            self.prev[(s, t)] = msg
        self._put(s, t, msg)

    def _put(self, s: int, t: int, msg: dict) -> None:
        j = self._link(s, t)
        if not self.up[j] or self.closing[j] is not None:
            return
        data = encode_frame(msg, self.g.schemas)[HEADER.size:]   # the layer's limits and schemas
        if s != self.dev and msg["t"] in ("env", "rel"):
            self._note_honest(s, msg)
        self._t(f"{s} -> {t} {_describe(msg)}")
        self.q.append((s, t, self.epoch[j], "m", data))

    def _note_honest(self, s: int, msg: dict) -> None:
        from net.signed import Envelope
        try:
            env = Envelope.from_bytes(msg["e"])
        except ValueError:
            return
        if env.sender == self.dev:
            return          # the keys that matter are the honest seats'
        self.honest_bodies.append((env.sender, env.body))
        fm = getattr(self.g, "fm", None)
        if fm is not None and env.body[:1] == bytes((fm.AUDIT,)) and env.sender == s:
            self.audits_sent = True
            m = self.m[s]
            st = m.view.state
            if st.round <= env.body[2] and not st.is_over():
                early = getattr(m, "early", None)
                why = ("the round stopped for an audit started by seat %d" % early if early is not None else
                       "it saw a broken deck itself" if getattr(m, "saw_broken", False) else
                       "its view is in the audit stage" if m.stage == "audit" else "mid-round")
                self.early_audits.append(f"honest seat {s} sent its audit of round {env.body[2]} before the round "
                                         f"ended in its view ({why})")

    def _over_to(self, s: int, j: int, v: Verdict) -> None:
        other = 0 if s != 0 else j
        if not self.up[j] or self.closing[j] is not None:
            return
        self._t(f"{s} -> {other} over{{{v.kind}, {v.seat}}}")
        self.q.append((s, other, self.epoch[j], "over", (v.kind, v.seat, min(v.ply, 1 << 20))))

    # ------------------------------------------------------------------ links
    def close_link(self, closer: int, j: int, code: str) -> None:
        """``closer`` closes its connection on link ``j`` with ``error{code}`` (``eof``: it
        vanished); what the other end sent meanwhile is lost."""
        if not self.up[j] or self.closing[j] is not None:
            return
        other = 0 if closer != 0 else j
        self.q = deque(it for it in self.q if not (self._link(it[0], it[1]) == j and it[1] == closer))
        self._t(f"{closer} closes link {j} ({code})")
        self.q.append((closer, other, self.epoch[j], "close", code))
        self.closing[j] = closer
        if self.mode[closer] == "honest" and self.m.get(closer) is not None:
            self._link_closed(closer, j, code, by_peer=False)

    def _link_closed(self, s: int, j: int, code: str, by_peer: bool) -> None:
        """Seat ``s``'s session: its connection on link ``j`` closed (``by_peer``: it heard
        ``error{code}`` or the end of stream)."""
        other = j if s == 0 else 0
        if s == 0 and s not in self.verdict and self.m[0].abortable():
            self._t("the host calls the match off (nothing bound)")
            self.called_off = True
            self.q.clear()
            return
        if s not in self.verdict:
            if by_peer and code != "eof":
                self._stop(s, other, code, -1)
            if s not in self.verdict:
                self._carry(s, self._call(s, lambda m: m.disconnected(other, self.now)))
        if s != 0:
            if s in self.verdict or (by_peer and code in FATAL_CODES):
                self.fatal.add(s)
            else:
                self.lost_at.setdefault(s, self.now)
                self.reconnect[s] = self.now + RECONNECT_S

    # ------------------------------------------------------------------ events
    def deliver(self) -> bool:
        if not self.q or self.called_off:
            return False
        frm, to, ep, kind, data = self.q.popleft()
        j = self._link(frm, to)
        self.now += TICK_S
        if ep != self.epoch[j]:
            return True
        if kind == "close":
            self.epoch[j] += 1
            self.up[j], self.closing[j] = False, None
            self._t(f"{to} hears link {j} closed ({data})")
            if self.mode[to] == "honest" and self.m.get(to) is not None:
                self._link_closed(to, j, data, by_peer=True)
            return True
        if (self.closing[j] is not None and frm != self.closing[j]) or self.mode[to] != "honest" \
                or self.m.get(to) is None:
            return True     # (what the closer sent before its close still arrives)
        if kind == "over":
            if to not in self.verdict:
                self._stop(to, frm, *data)
            return True
        msg = decode_payload(data, self.g.schemas)
        if to in self.verdict:
            return True
        sender = frm if to == 0 else 0
        try:
            outs = self._call(to, lambda m: m.receive(sender, msg, self.now))
        except Refusal as r:
            self._t(f"{to} refuses {_describe(msg)} from {frm}: {r.code} {r}")
            self.close_link(to, j, r.code)
            return True
        self._carry(to, outs)
        return True

    def decide(self) -> bool:
        if self.called_off:
            return False
        for s in range(self.n):
            if self.mode[s] != "honest" or s in self.verdict or self.m.get(s) is None:
                continue
            m = self.m[s]
            for seat in self.g.local(m):
                obs = self.g.turn(m, seat)
                if obs is None:
                    continue
                if self.decisions >= self.cap:
                    self.capped = True
                    return False
                a = self.g.choose(self.players[seat], obs)
                self.decisions += 1
                self.now += TICK_S
                self._t(f"{s} decides {a} for seat {seat}")
                try:
                    outs = self._call(s, lambda m: m.act(a, self.now, seat))
                except Refusal as r:  # never: act raises ValueError
                    self.errors.append(f"act refused: {r}")
                    return False
                self._carry(s, outs)
                return True
        return False

    def step(self) -> bool:
        """One event of the scripted match: a delivery, else a decision."""
        done = self.deliver() or self.decide()
        while self.deferred:
            d, arg = self.deferred.pop(0)
            if self.mode[d] != "honest" or self.m.get(d) is None:
                continue
            extras = (self.g.out_of_turn(self, d) if arg == "turn" else self.g.early_audit(self, d)) or []
            self.na = self.na or not extras
            self._t(f"seat {d} sends, out of turn: {[_describe(x) for x in extras]}")
            for extra in extras:
                self._bcast(d, 0, extra)
        return done

    # ------------------------------------------------------------------ the session's judging
    def _stop(self, to: int, sender: int, code: str, named: int, ply: int | None = None) -> None:
        m = self.m[to]
        owed = m.owed()
        at = m.received() if ply is None else ply
        v = judge_stop(owed, m.seat, sender, code, named, at, ())
        check = getattr(m, "check_verdict", None)
        if v is not None and check is not None:
            v = check(v, sender)
        self._t(f"{to} judges seat {sender}'s stop {code} naming {named}: {_v(v)}")
        if v is not None:
            self.end(to, v)

    def end(self, s: int, v: Verdict) -> None:
        """Seat ``s``'s session ends the match: the machine records it, every peer it holds
        hears ``over`` then ``error{kind}``."""
        if s in self.verdict or self.m.get(s) is None:
            return
        self.verdict[s] = v
        outs = self._call(s, lambda m: m.end(v, self.now))
        v = self.m[s].over or v
        self.verdict[s] = v
        self.ended_at[s] = self.now
        self._t(f"{s} ENDS: {_v(v)}")
        if self.mode[s] != "honest":
            return
        self._carry(s, [o for o in outs if not isinstance(o, Over)])
        for j in self._links_of(s):
            if self.up[j] and self.closing[j] is None:
                self._over_to(s, j, v)
                self.close_link(s, j, v.kind)
        if s != 0:
            self.fatal.add(s)

    def tick(self, s: int) -> None:
        """Seat ``s``'s session tick at :attr:`now`."""
        m = self.m[s]
        outs = self._call(s, lambda m: m.tick(self.now))
        owed = m.owed()
        late = overdue(owed, self.now, lambda q: self.is_connected(s, q), lambda q: self.back_of(s, q))
        host_owes = s != 0 and any(o.seat == 0 and o.to in (s, ALL) and o.forfeits and math.isfinite(o.since + o.total)
                                   for o in owed)
        self._carry(s, outs)
        self.last_tick[s] = self.now
        self.tick_sig[s] = self._sig(s, [(o, o.deadline(self.is_connected(s, o.seat), self.back_of(s, o.seat)))
                                         for o in owed])
        if late is not None and s not in self.verdict:
            v = deadline_verdict(late, self.is_connected(s, late.seat), m.received())
            self._t(f"{s} tick: {late.seat} owes {late.step} {late.ref} (to {late.to}): {_v(v)}")
            if v is not None:
                self.end(s, v)
            else:
                j = late.seat if s == 0 else (s if late.seat == 0 else None)
                if j is not None and j in self.up and self.up[j] and self.closing[j] is None:
                    self.close_link(s, j, "withheld")
        if (s != 0 and s in self.lost_at and s not in self.fatal and s not in self.verdict and not host_owes
                and self.now - self.lost_at[s] >= HOST_GRACE_S):
            self.end(s, Verdict("left", 0, (), 0, f"the host was gone for {HOST_GRACE_S:g} seconds"))

    def _sig(self, s: int, dls) -> tuple:
        """What seat ``s``'s next tick would judge: a tick again only when it changed."""
        return tuple(dls), s in self.verdict, tuple(sorted(self.up.items())), tuple(sorted(self.closing.items()))

    def _reachable_host(self) -> bool:
        return self.mode[0] == "honest" and self.m.get(0) is not None and not self.called_off

    def _resume(self, j: int) -> None:
        """Joiner ``j`` connects again and proves its seat: both catch up."""
        if (self.mode[j] != "honest" or j in self.fatal or j in self.verdict or self.up[j]
                or self.closing[j] is not None):
            self.reconnect.pop(j, None)
            return
        if not self._reachable_host():
            self.reconnect[j] = math.inf      # it knocks on; host_grace decides
            return
        self.reconnect.pop(j, None)
        self.up[j] = True
        self.back[j] = self.now
        self.lost_at.pop(j, None)
        self._t(f"{j} resumes (have {self.m[j].received()})")
        h, mj = self.m[0], self.m[j]
        try:
            outs = self._call(0, lambda m: m.catch_up(j, mj.received(), self.now) + m.connected(j, self.now))
        except Refusal as r:
            self._t(f"0 refuses {j}'s resume: {r}")
            self.close_link(0, j, r.code)
            return
        self._carry(0, outs)
        if 0 in self.verdict and self.up[j] and self.closing[j] is None:
            self._over_to(0, j, self.verdict[0])
            self.close_link(0, j, self.verdict[0].kind)
            return
        if self.up[j] and self.closing[j] is None and j not in self.verdict:
            self._carry(j, self._call(j, lambda m: m.catch_up(0, 0, self.now) + m.connected(0, self.now)))

    def crash(self, s: int) -> None:
        """Kill -9 of seat ``s``: what is in flight to or from it is lost, its peers see the end
        of stream; it comes back from its journal (through JSON, as the session writes it)."""
        payload = json.loads(json.dumps(self.journal[s]))
        self._t(f"{s} is killed and restarts from its journal")
        for j in self._links_of(s):
            self.q = deque(it for it in self.q if self._link(it[0], it[1]) != j)
            if self.up[j] or self.closing[j] is not None:
                self.epoch[j] += 1
                self.up[j], self.closing[j] = False, None
                other = 0 if s != 0 else j
                if self.mode[other] == "honest" and self.m.get(other) is not None:
                    self._link_closed(other, j, "eof", by_peer=True)
        if self.called_off:
            return
        self.m[s] = self.g.restore(s, payload, Tokens(f"{self.g.name}:{self.g.seed}:{s}:again{self.now}"))
        self.m[s].tick(self.now)
        self.last_tick[s] = -math.inf
        if self.m[s].over is not None and s not in self.verdict:
            self.verdict[s] = self.m[s].over
            self.ended_at[s] = self.now
        if s == 0:
            for j in self.joiners:
                if not self.up[j] and j not in self.fatal:
                    self.reconnect[j] = self.now + RECONNECT_S
        else:
            self.fatal.discard(s)
            self.lost_at[s] = self.now
            self.reconnect[s] = self.now + RECONNECT_S

    def vanish(self, s: int) -> None:
        """Seat ``s`` drops for good: what it sent arrives, then the end of stream."""
        self.mode[s] = "gone"
        for j in self._links_of(s):
            if self.up[j] and self.closing[j] is None:
                other = 0 if s != 0 else j
                self.q = deque(it for it in self.q if not (self._link(it[0], it[1]) == j and it[1] == s))
                self.q.append((s, other, self.epoch[j], "close", "eof"))
                self.closing[j] = s

    # ------------------------------------------------------------------ time
    def next_time(self) -> float | None:
        times = [t for t in self.reconnect.values() if math.isfinite(t)]
        for s in range(self.n):
            if self.mode[s] != "honest" or s in self.verdict or self.m.get(s) is None:
                continue
            dls = [(o, o.deadline(self.is_connected(s, o.seat), self.back_of(s, o.seat))) for o in self.m[s].owed()]
            for o, t in dls:
                if math.isfinite(t) and t > self.last_tick[s]:
                    times.append(max(t, self.now))
            if any(t <= self.last_tick[s] for _, t in dls) and self._sig(s, dls) != self.tick_sig.get(s):
                times.append(max(self.last_tick[s] + 0.05, self.now))   # the session's next tick
            if s in self.lost_at and s not in self.fatal:
                t = self.lost_at[s] + HOST_GRACE_S
                if t > self.last_tick[s]:
                    times.append(max(t, self.now))
        return min(times) if times else None

    def settle(self, max_rounds: int = 400) -> str:
        """Run to quiescence, then jump the clock to each next deadline (or reconnect), until
        nothing is left: ``live`` (somebody may decide but the script stopped), ``quiet``,
        ``called-off``, ``error`` or ``stuck`` (too many rounds)."""
        lifted = False
        for _ in range(max_rounds):
            n = 0
            while self.step():
                n += 1
                if n > 200_000:
                    return "stuck"
            if self.called_off:
                return "called-off"
            if self.errors:
                return "error"
            if self.capped:
                ended = [s for s in self.honest() if s in self.verdict]
                if not ended or len(ended) == len(self.honest()):
                    return "live"
                if not lifted:       # a verdict on one side: let the others see it through
                    lifted, self.capped = True, False
                    self.cap += 40
                    continue
                return "live"
            t = self.next_time()
            if t is None:
                return "quiet"
            self.now = max(self.now, t)
            for j, at in sorted(self.reconnect.items()):
                if at <= self.now:
                    self._resume(j)
            for s in range(self.n):
                if self.mode[s] == "honest" and s not in self.verdict and self.m.get(s) is not None \
                        and not self.called_off:
                    self.tick(s)
        return "stuck"

    # ------------------------------------------------------------------ deviating
    def arm(self, dev: int, k: int, deviation: str) -> None:
        """Seat ``dev`` deviates with ``deviation`` at its ``k``-th send (counted from the start)."""
        self.dev, self.armed = dev, (k, deviation)
        seeds = getattr(self.m[dev], "_seeds", None)
        self.dev_seed = seeds[dev][32:64] if seeds else None

    def _deviate(self, d: int, t: int, msg: dict) -> bool:
        """Apply the armed deviation at the deviator's send of ``msg`` to ``t``; whether the
        message still goes."""
        _, dv = self.armed  # type: ignore[misc]
        self.armed = None
        self.t_dev = self.now
        self.step_desc = f"its send #{self.sends[d]}: {_describe(msg)} to seat {t}"
        self._t(f"DEVIATION seat {d} {dv} at {self.step_desc}")
        name, _, arg = dv.partition(":")
        g = self.g
        self.cap = self.g.horizon + 60          # a deviator that stops: the rest may play on a while
        if name == "withhold":
            self.mode[d] = "silent"
            return False
        if name == "vanish":
            self.vanish(d)
            return False
        if name == "return":
            self.cap = self.g.horizon
            self.crash(d)
            return False
        if name in ("claim", "over"):
            kind = "forfeit" if name == "claim" else "illegal"
            self._stop_with(d, kind, int(arg))
            return False
        if name == "verdict":
            kind, _, x = arg.partition(":")
            extras = g.false_verdict(self, d, kind, int(x)) or []
            if not extras:
                self.na = True
                return True
            for extra in extras:
                self._bcast(d, t, extra)
            self._stop_with(d, kind, int(x))
            return False
        self.cap = self.g.horizon
        if name == "alter":
            bad = g.altered(self, d, msg)
            if bad is None:
                self.na = True
                return True
            self._put(d, t, bad)
            return False
        if name == "twice":
            other = g.variant(self, d, msg)
            if other is None:
                self.na = True
                return True
            if d == 0 and self.n > 2:
                self._put(d, t, other)         # this joiner hears another story than the rest
                return False
            self._put(d, t, msg)
            self._put(d, t, other)
            return False
        if name == "early":   # once the messages of this step are out: in sequence, out of turn
            self.deferred.append((d, arg))
            return True
        if name == "replay":
            old = self.prev.get((d, t))
            self.na = old is None
            if old is not None:
                self._put(d, t, old)
            return True
        raise ValueError(f"no deviation {dv!r}")

    def _bcast(self, d: int, t: int, msg: dict) -> None:
        for to in (self.joiners if d == 0 else [0]):
            self._put(d, to, msg)

    def _stop_with(self, d: int, kind: str, named: int) -> None:
        """The deviator's session says ``over{kind, named}`` and ``error{kind}`` on every
        connection it holds, and is gone."""
        ply = self.m[d].received()
        for j in self._links_of(d):
            if self.up[j] and self.closing[j] is None:
                other = 0 if d != 0 else j
                self.q.append((d, other, self.epoch[j], "over", (kind, named, ply)))
                self.q = deque(it for it in self.q if not (self._link(it[0], it[1]) == j and it[1] == d))
                self.q.append((d, other, self.epoch[j], "close", kind))
                self.closing[j] = d
        self.mode[d] = "gone"


def _describe(msg: dict) -> str:
    t = msg["t"]
    if t in ("env", "rel"):
        from net.signed import Envelope
        try:
            e = Envelope.from_bytes(msg["e"])
        except ValueError:
            return "env(?)"
        from game.royals.lan import messages as fm
        from net.signed import parse_round_end
        kind = "round-end" if parse_round_end(e.body) is not None else fm.KIND_NAMES.get(e.body[0], "?")
        return f"{t}[{e.sender}#{e.seq} {kind}]"
    if t == "fkey":
        return f"fkey[{msg['s']}]"
    if t in ("commit", "reveal"):
        return f"{t}[{msg['for']}]"
    if t in ("move", "ack"):
        return f"{t}[{msg['ply']}{' ' + msg['m'] if t == 'move' else ''}]"
    return t


def _v(v: Verdict | None) -> str:
    if v is None:
        return "none"
    extra = f" between {list(v.between)}" if v.between else ""
    return f"{v.kind} seat {v.seat}{extra} ({v.detail[:90]})"


# =========================================================================== the checks
@dataclass
class Result:
    """One run: where it deviated, how it ended, what went wrong (``problems``; empty: passed)."""

    game: str
    dev: int
    k: int
    deviation: str
    step: str = ""
    status: str = ""
    verdicts: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)
    allowed: list = field(default_factory=list)
    trace: list = field(default_factory=list)

    def key(self) -> str:
        return f"{self.game} seat {self.dev} step {self.k} {self.deviation}"

    def __str__(self) -> str:
        vs = "; ".join(f"seat {s}: {_v(v)}" for s, v in sorted(self.verdicts.items()))
        return (f"{self.key()} [{self.step}] -> {self.status}\n    verdicts: {vs or 'none'}\n    "
                + "\n    ".join(self.problems))


def _lan(rec: dict) -> dict:
    return rec.get("lan", {})


def check(w: World, status: str, honest: list[int] | None = None) -> tuple[list[str], list[str]]:
    """The invariants of the module docstring on ``w`` after :meth:`World.settle`; returns
    (problems, allowed differences)."""
    d = w.dev
    honest = w.honest() if honest is None else honest
    problems: list[str] = list(w.errors)
    allowed: list[str] = []
    if status == "called-off":
        return problems, ["called off before anything was bound"]
    if status == "stuck":
        problems.append("the run did not settle (a loop of reconnects or deadlines)")
    for h in honest:
        v = w.verdict.get(h)
        if v is None:
            continue
        if v.kind == "disputed":
            pair = set(v.between)
            if pair & set(honest) and (d is None or d not in pair):
                problems.append(f"honest seat {h} records disputed between honest seats {sorted(pair)}: {v.detail}")
        elif v.seat in honest and v.kind != "finished":
            problems.append(f"honest seat {h} names honest seat {v.seat}: {v.kind} ({v.detail})")
        if w.t_dev is not None and w.ended_at.get(h, 0.0) - w.t_dev > w.g.max_end:
            problems.append(f"honest seat {h} ended {w.ended_at[h] - w.t_dev:.0f} s after the deviation "
                            f"(longest documented chain {w.g.max_end:.0f} s)")
    ended = [h for h in honest if h in w.verdict]
    going = [h for h in honest if h not in w.verdict and w.m.get(h) is not None]
    if status == "live":
        if ended and going:
            problems.append(f"honest seats split: {ended} ended, {going} play on")
    elif going and all(w.g.awaits_decision(w.m[h], d) for h in going):
        allowed.append(f"(wait) honest seat(s) {going} wait for the deviator's move, which has no deadline")
    elif going:
        owed = {h: [f"{o.seat}:{o.step}:{o.ref}{'(via)' if o.via >= 0 else ''}" for o in w.m[h].owed()] for h in going}
        problems.append(f"honest seat(s) {going} never end (status {status}; owed {owed})")
    # records
    recs = {h: json.dumps(w.m[h].record()) for h in honest if w.m.get(h) is not None}
    if len(set(recs.values())) > 1:
        hs = sorted(recs)
        for i, a in enumerate(hs):
            for b in hs[i + 1:]:
                if recs[a] == recs[b]:
                    continue
                why = _allowed(w, a, b, d, json.loads(recs[a]), json.loads(recs[b]))
                if why:
                    allowed.append(why)
                else:
                    la, lb = _lan(json.loads(recs[a])), _lan(json.loads(recs[b]))
                    problems.append(f"records of honest seats {a} and {b} differ: "
                                    f"{_lan_brief(la)} vs {_lan_brief(lb)}"
                                    + ("" if _same_but_lan(recs[a], recs[b]) else " (and beyond lan)"))
    problems += w.g.leaks(w)
    return problems, allowed


def _lan_brief(lan: dict) -> str:
    return (f"end={lan.get('end', lan.get('stopped', lan.get('forfeit', '')))!r} seat={lan.get('seat')} "
            f"between={lan.get('between')} evidence={len(lan.get('evidence', []))}")


def _same_but_lan(a: str, b: str) -> bool:
    ra, rb = json.loads(a), json.loads(b)
    ra.pop("lan", None)
    rb.pop("lan", None)
    return ra == rb


def _allowed(w: World, a: int, b: int, d: int | None, ra: dict, rb: dict) -> str:
    """Why the records of honest seats ``a`` and ``b`` may differ (docs/protocol.md, "When two
    honest records differ"), or ``""``."""
    va, vb = w.verdict.get(a), w.verdict.get(b)
    if va is None or vb is None or d is None:
        return ""
    for h, j, vh, vj in ((a, b, va, vb), (b, a, vb, va)):
        if h == 0 and j != 0 and vj.kind == "disputed" and set(vj.between) == {0, d} and vh.seat == d:
            if _same_but_lan(json.dumps(ra), json.dumps(rb)):
                return f"(i) joiner {j} disputed between the host and seat {d}; the host names seat {d} ({vh.kind})"
    for x, y, vx, vy in ((a, b, va, vb), (b, a, vb, va)):
        if 0 not in (x, y) and vx.seat == d and vy.kind == "disputed" and d in vy.between:
            return (f"(iii) joiner {x} checked the verdict against seat {d}; joiner {y} could not apply "
                    "its evidence before the match ended")
    if d == 0 and 0 not in (a, b):
        inv = [v.seat == 0 or 0 in v.between for v in (va, vb)]
        if all(inv):
            return f"(ii) the deviating host kept joiners {a} and {b} apart: {_v(va)} / {_v(vb)}"
    return ""


# =========================================================================== runs and sweeps
#: the deviations, by name (``X``: a seat, filled in per table), at the deviator's k-th send:
#:
#: - ``withhold``: that message and everything after it is kept back; it stays connected (if it
#:   is cut off, it stays away);
#: - ``vanish``: it drops for good (what it sent before arrives);
#: - ``return``: kill -9 just before that message; it comes back from its journal and resumes;
#: - ``claim:X``: instead, ``over{forfeit, X}`` (-1: the receiver) and ``error{forfeit}``, then gone;
#: - ``over:X``: ``over{illegal, X}`` with no verdict, then gone;
#: - ``verdict:KIND:X`` (Royals & Riots): a signed ``verdict`` body against X (its 'evidence' X's
#:   first envelope), then ``over{KIND, X}``, then gone;
#: - ``alter`` (the host): one byte of that message changed on its way;
#: - ``twice``: a second, different message for the same sequence number (Rose King: coin or ply);
#:   the host sends it to this joiner instead of the first (another story than the others');
#: - ``early:turn``: once that step's messages are out, a decision out of turn (Royals & Riots: a
#:   signed play; Rose King: a draw's commitment);
#: - ``early:audit`` (Royals & Riots): likewise, its round ``audit`` mid-round;
#: - ``replay``: its previous message to that peer again, then that one.
#:
#: Every deviator that does not stop goes on as an honest session.
DEVIATIONS = ("withhold", "vanish", "return", "claim:X", "over:X", "verdict:illegal:X", "verdict:forfeit:X",
              "alter", "twice", "early:turn", "early:audit", "replay")


FAMILIES = ("withhold", "vanish", "return", "claim", "over", "verdict", "alter", "twice", "early:turn",
            "early:audit", "replay")


def family(deviation: str) -> str:
    """The family of a concrete deviation (``claim:2`` -> ``claim``; ``early:audit`` stays)."""
    return deviation if deviation.startswith("early") else deviation.split(":")[0]


def deviations_for(game, d: int) -> list[str]:
    """Every concrete deviation of seat ``d`` at ``game``'s table."""
    out = []
    others = [x for x in range(game.n) if x != d]
    for dv in DEVIATIONS:
        if dv == "alter" and d != 0:
            continue
        if dv.startswith("verdict") and game.name == "rose-king":
            continue
        if dv == "early:audit" and game.name == "rose-king":
            continue
        if dv.endswith(":X"):
            targets = others + ([-1] if dv == "claim:X" else [])
            out += [dv[:-1] + str(x) for x in targets]
        else:
            out.append(dv)
    return out


def baseline(game) -> World:
    """The honest scripted match, played to its horizon (its sends counted per seat)."""
    w = World(game)
    while w.step():
        pass
    return w


def run(game, dev: int, k: int, deviation: str, trace: bool = False, start: World | None = None) -> Result:
    """One run: ``dev`` deviates with ``deviation`` at its ``k``-th send (``start``: a copy of the
    scripted match just before the event that makes that send; else played from the start)."""
    t0 = time.process_time()
    if start is None:
        w = World(game, trace=trace)
        w.arm(dev, k, deviation)
        while w.armed is not None and w.step():
            pass
    else:
        w = copy.deepcopy(start)
        w.tracing = trace
        w.arm(dev, k, deviation)
        while w.armed is not None and w.step():
            pass
    res = Result(game.name, dev, k, deviation)
    if w.armed is not None or w.na:
        res.status = "not reached" if w.armed is not None else "n/a"
        return res
    status = w.settle()
    res.step, res.status = w.step_desc, status
    res.verdicts = dict(w.verdict)
    res.problems, res.allowed = check(w, status)
    res.trace = w.trace
    RUNS[game.name] += 1
    SECONDS[game.name] += time.process_time() - t0
    return res


def kill_run(game, seat: int, k: int, after: bool, trace: bool = False, start: World | None = None) -> Result:
    """Seat ``seat`` is killed (kill -9) at its ``k``-th send (``after``: once that message
    arrived; else before it left), comes back from its journal and resumes; every seat is honest."""
    t0 = time.process_time()
    dv = "kill-after" if after else "kill-before"
    w = copy.deepcopy(start) if start is not None else World(game, trace=trace)
    w.tracing = trace
    target = k

    orig = w._send

    def send(s, t, msg, count=True, _w=w):
        if count and s == seat and _w.sends[s] + 1 == target and _w.t_dev is None:
            _w.sends[s] += 1
            _w.t_dev = _w.now
            _w.step_desc = f"its send #{target}: {_describe(msg)} to seat {t}"
            if after:
                _w._put(s, t, msg)
                _w._t(f"KILL seat {s} after {_w.step_desc}")
                item = _w.q[-1] if _w.q else None
                while item is not None and any(x is item for x in _w.q):
                    _w.deliver()
            else:
                _w._t(f"KILL seat {s} before {_w.step_desc}")
            _w.crash(s)
            return
        return orig(s, t, msg, count)
    w._send = send  # type: ignore[method-assign]
    while w.t_dev is None and w.step():
        pass
    res = Result(game.name, seat, k, dv)
    if w.t_dev is None:
        res.status = "not reached"
        return res
    del w._send
    status = w.settle()
    res.step, res.status, res.verdicts = w.step_desc, status, dict(w.verdict)
    problems, res.allowed = check(w, status, honest=list(range(game.n)))
    for s, v in w.verdict.items():
        if v.kind != "finished" and not any(p.startswith(f"honest seat {s} ") for p in problems):
            problems.append(f"seat {s} ended a match of honest seats: {_v(v)}")
    res.problems = problems
    res.trace = w.trace
    RUNS[game.name + " kill"] += 1
    SECONDS[game.name + " kill"] += time.process_time() - t0
    return res


@dataclass
class Sweep:
    """The runs of one table: every result with a problem, and the counts."""

    game: str
    runs: int = 0
    failed: list = field(default_factory=list)
    allowed: Counter = field(default_factory=Counter)
    statuses: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    def add(self, r: Result) -> None:
        if r.status in ("not reached", "n/a"):
            return
        self.runs += 1
        self.statuses[r.status] += 1
        for a in r.allowed:
            self.allowed[a[:a.index(")") + 1] if a.startswith("(") else a] += 1
        if r.problems:
            self.failed.append(r)

    def by_kind(self) -> dict[str, list[Result]]:
        """The failures grouped by the first words of their first problem (a kind of case)."""
        out: dict[str, list[Result]] = {}
        for r in self.failed:
            out.setdefault(_kind(r), []).append(r)
        return out

    def report(self, limit: int = 3) -> str:
        lines = [f"{self.game}: {self.runs} runs, {len(self.failed)} with problems, {self.seconds:.1f} s; "
                 f"ends {dict(self.statuses)}; allowed differences {dict(self.allowed)}"]
        for kind, rs in sorted(self.by_kind().items(), key=lambda x: -len(x[1])):
            lines.append(f"  [{len(rs)}] {kind}")
            for r in sorted(rs, key=lambda r: (r.k, r.dev))[:limit]:
                lines.append("    " + str(r).replace("\n", "\n    "))
        return "\n".join(lines)


def _kind(r: Result) -> str:
    """A short signature of a failed run: the deviation's name and what went wrong."""
    import re
    p = r.problems[0]
    p = re.sub(r"seat \d+", "seat N", p)
    p = re.sub(r"\d+", "#", p)
    return f"{r.deviation.split(':')[0]}/{'host' if r.dev == 0 else 'joiner'}: {p[:110]}"


def sweep(game, seats=None, deviations=None, stride: int = 1, kill: bool = False,
          steps: Callable[[int, int], bool] | None = None, on_result=None) -> Sweep:
    """Every run of ``game``: each deviator in ``seats`` (all), at each of its sends, with each
    of its deviations (``deviations``: a filter of names), or with ``kill`` each seat killed
    before and after each of its sends. ``stride``: only every ``stride``-th (seat, step,
    deviation), spread evenly over the three, for a quicker pass."""
    t0 = time.process_time()
    w = World(game)
    counts = [list(w.sends)]      # the sends of each seat after each event (the script repeats exactly)
    while w.step():
        counts.append(list(w.sends))
    total = counts[-1]
    seats = list(range(game.n)) if seats is None else list(seats)
    plan: dict[tuple[int, int], list] = {}   # (seat, k) -> what to run there
    for d in seats:
        kinds = ["kill-before", "kill-after"] if kill else [x for x in deviations_for(game, d)
                                                            if deviations is None or deviations(x)]
        for k in range(1, total[d] + 1):
            if steps is not None and not steps(d, k):
                continue
            for dv in kinds:   # a fixed pseudo-random one in ``stride``, the same every time
                if stride == 1 or zlib.crc32(f"{game.name} {d} {k} {dv}".encode()) % stride == 0:
                    plan.setdefault((d, k), []).append(dv)
    out = Sweep(game.name + (" kill" if kill else ""))
    w = World(game)
    for i in range(1, len(counts)):
        made = [(d, k) for (d, k) in plan if counts[i - 1][d] < k <= counts[i][d]]
        for d, k in sorted(made):      # runs made from a copy of the match just before event i
            for dv in plan.pop((d, k)):
                r = kill_run(game, d, k, dv == "kill-after", start=w) if kill else run(game, d, k, dv, start=w)
                out.add(r)
                if on_result is not None:
                    on_result(r)
        if not plan:
            break
        w.step()
    out.seconds = time.process_time() - t0
    return out


def replay(game_name: str, dev: int, k: int, deviation: str) -> Result:
    """One run, traced (for a failure's reproduction)."""
    return run(make_game(game_name), dev, k, deviation, trace=True)


def make_game(name: str):
    if name == "rose-king":
        return RoseKing()
    if name.startswith("royals-"):
        return Royals(int(name.split("-")[1]))
    raise ValueError(f"no game {name!r}")


def main(argv: list[str]) -> int:
    """``python -m tests.net.adversary GAME`` sweeps a table and prints the failures;
    ``GAME SEAT STEP DEVIATION`` replays one run with its trace (``kill-before``/``kill-after``:
    the kill test's run)."""
    if len(argv) == 1:
        s = sweep(make_game(argv[0]))
        print(s.report(limit=5))
        return 0
    name, dev, k, dv = argv[0], int(argv[1]), int(argv[2]), argv[3]
    g = make_game(name)
    r = kill_run(g, dev, k, dv == "kill-after", trace=True) if dv.startswith("kill") else run(g, dev, k, dv, trace=True)
    print("\n".join(r.trace))
    print(r)
    return 1 if r.problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
