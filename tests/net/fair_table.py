"""An in-memory table of :class:`game.royals.lan.match.FairMatch` machines for the dealer-free tests:
every message travels as a frame through the host (a star, FIFO per link), encoded and
decoded with the layer's limits and the part's schemas exactly as the session does
(``net.framing``: a message the layer would refuse fails here too); decisions come from the engine's random player.

Hooks let a test play an attacker: ``tamper(frm, to, msg) -> msg | None`` changes or drops a
message on a link; ``machines`` may be replaced by subclasses before ``start``."""

from __future__ import annotations

import secrets
from collections import deque

from game.royals.ai.players import RandomPlayer
from net.framing import HEADER, decode_payload, encode_frame
from net.lobby import schemas_for
from net.match import Over, Refusal, Send, Table, Verdict, deadline_verdict, judge_stop, overdue
from game.royals.lan.match import FAIR, FairMatch

SCHEMAS = schemas_for(dict(FAIR.schemas), FAIR.max_bin)

GID = bytes(range(16))


def table(n: int, computers=(), teams: bool = False) -> Table:
    return Table(GID, tuple(f"P{s + 1}" for s in range(n)), "2026-11-27T08:00:00",
                 {"teams": teams} if teams else {}, tuple(computers))


class Net:
    """``n`` seats; seat 0 the host (with ``computers``), the others joiners (one machine each).
    ``token_bytes``: the machines' source of secrets (:class:`tests.net.adversary.Tokens` for a
    deal that repeats)."""

    def __init__(self, n: int, computers=(), teams: bool = False, seed: int = 1, cls=FairMatch,
                 classes: dict | None = None, token_bytes=secrets.token_bytes) -> None:
        self.table = table(n, computers, teams)
        self.n = n
        classes = classes or {}
        self.machines = {}
        for s in range(n):
            if s != 0 and s in computers:
                continue
            self.machines[s] = classes.get(s, cls)(s, self.table, token_bytes)
        self.players = {s: RandomPlayer(seed * 10 + s) for s in range(n)}
        self.links: deque = deque()
        self.received: dict[int, list[bytes]] = {s: [] for s in self.machines}
        self.verdicts: dict[int, object] = {}
        self.tamper = None
        self.steps = 0
        self.refused: list[tuple[int, int, str, str]] = []

    def _out(self, frm: int, outputs) -> None:
        for o in outputs:
            if isinstance(o, Send):
                to = 0 if frm != 0 else o.to
                self.links.append((frm, to, encode_frame(o.msg, SCHEMAS)[HEADER.size:]))
            elif isinstance(o, Over):
                self.verdicts.setdefault(frm, o.verdict)

    def start(self) -> "Net":
        for s, m in self.machines.items():
            self._out(s, m.start(0.0))
        return self

    def deliver(self) -> bool:
        if not self.links:
            return False
        frm, to, data = self.links.popleft()
        msg = decode_payload(data, SCHEMAS)
        if self.tamper is not None:
            msg = self.tamper(frm, to, msg)
            if msg is None:
                return True
            data = encode_frame(msg, SCHEMAS)[HEADER.size:]
        self.received[to].append(data)
        m = self.machines[to]
        if m.over is None:
            try:
                self._out(to, m.receive(frm, msg, float(self.steps)))
            except Refusal as r:          # the session closes that connection; the match goes on
                self.refused.append((to, frm, r.code, str(r)))
                self.links = deque(x for x in self.links if {x[0], x[1]} != {frm, to})
        self.steps += 1
        return True

    def decide(self) -> bool:
        for s, m in self.machines.items():
            if m.over is not None:
                continue
            for seat in m.local:
                obs = m.turn_for(seat)
                if obs is not None:
                    a = self.players[seat].choose(obs)
                    self._out(s, m.act(a, float(self.steps), seat))
                    return True
        return False

    def run(self, limit: int = 200_000, each=None) -> "Net":
        while limit > 0 and (self.deliver() or self.decide()):
            limit -= 1
            if each is not None:
                each(self)
            if self.machines[0].over is not None and not self.links:
                break
        return self

    def late(self, seat: int):
        """The owed step the machine of ``seat`` would judge overdue far in the future."""
        return overdue(self.machines[seat].owed(), 1e9)


    def expire(self, seat: int, now: float = 1e9):
        """Seat ``seat``'s session at time ``now``: the overdue step, if its verdict ends the match
        (:func:`net.match.deadline_verdict`, every seat taken as connected), ends it (as
        :meth:`net.session.Session._tick` does) and the machine's outputs travel on. Returns the
        overdue step."""
        m = self.machines[seat]
        late = overdue(m.owed(), now)
        if late is not None:
            v = deadline_verdict(late, True, m.received())
            if v is not None:
                self._out(seat, m.end(v, now))
        return late

    def stop(self, to: int, frm: int, kind: str, named: int):
        """``frm``'s ``over{kind, named}`` reaches ``to``: judged as the session does (the layer's
        rules, then the machine's evidence check), and the verdict is the machine's end."""
        m = self.machines[to]
        if m.over is not None:
            return m.over
        sender = frm if to == 0 else 0
        local = tuple(s for s in m.local if s != m.seat)
        v = judge_stop(m.owed(), m.seat, sender, kind, named, m.received(), local)
        if v is not None:
            v = m.check_verdict(v, sender)
        if v is not None:
            self._out(to, m.end(v, float(self.steps)))
        return m.over


def crash(net: Net, seat: int) -> None:
    """Kill ``seat``'s machine (kill -9: what is in flight to or from it is lost) and bring it
    back from its journal payload (through JSON, as the session writes it); the other side
    resumes as the layer does (the host sends what the joiner lacks, the joiner re-sends all)."""
    import json

    from game.royals.lan.match import _restore
    payload = json.loads(json.dumps(net.machines[seat].payload()))
    net.links = deque(x for x in net.links if seat not in (x[0], x[1]))
    m = _restore(seat, net.table, payload, secrets.token_bytes)
    net.machines[seat] = m
    now = float(net.steps)
    if seat == 0:
        for j, jm in net.machines.items():
            if j != 0:
                net._out(0, m.catch_up(j, jm.received(), now))
                net._out(j, jm.catch_up(0, 0, now))
    else:
        net._out(0, net.machines[0].catch_up(seat, m.received(), now))
        net._out(seat, m.catch_up(0, 0, now))
