"""In-memory wiring of one HostMatch and its JoinerMatches for the Royals & Riots LAN tests:
every message goes through real frames (encode_frame / FrameDecoder(SCHEMAS)), every
computer chooses from its own seat's observation (the host's computers from the host's
Turn events, a joiner's computer from its own SeatView), and the bytes each joiner
receives are kept for the leak scan."""

from __future__ import annotations

import hashlib

from game.royals.ai.levels import make_player
from net.framing import FrameDecoder, encode_frame
from net.royals import SCHEMAS, HostMatch, JoinerMatch, MatchOver, Turn

GAME_ID = bytes(range(16))
NAMES = ["Ann", "Bo", "Cy", "Di"]
DATE = "2026-11-23T21:00:00Z"


def tokens(label: str):
    """A deterministic stand-in for secrets.token_bytes (the tests replay the same coins)."""
    counter = [0]

    def token_bytes(n: int) -> bytes:
        counter[0] += 1
        return hashlib.sha256(f"{label}/{counter[0]}".encode()).digest()[:n]
    return token_bytes


class Wire:
    """Host + joiners in memory. ``levels``: AI level per seat (seat 1 first). ``computers``:
    seats the host's computer plays. ``tamper``: (seat, msg) -> msg or None, applied to host ->
    joiner messages (a lying host). ``joiner_tamper``: (seat, msg) -> msg or None, joiner -> host."""

    def __init__(self, players=4, levels=("random",) * 4, computers=(), seed=1, teams=False):
        self.players, self.now = players, 0.0
        names = NAMES[:players]
        self.host = HostMatch(GAME_ID, names, computers, teams=teams, date=DATE, token_bytes=tokens(f"{seed}/1"))
        self.joiners = {s: JoinerMatch(GAME_ID, s, names, teams=teams, date=DATE, token_bytes=tokens(f"{seed}/{s}"))
                        for s in range(2, players + 1) if s not in computers}
        self.ais = {s: make_player(levels[s - 1], seed * 10 + s) for s in range(1, players + 1)}
        self.received = {s: bytearray() for s in self.joiners}
        self.decoders = {s: FrameDecoder(SCHEMAS) for s in self.joiners}
        self.to_host = {s: FrameDecoder(SCHEMAS) for s in self.joiners}
        self.events = {s: [] for s in [1, *self.joiners]}
        self.host_turns: list[Turn] = []
        self.tamper = None
        self.joiner_tamper = None
        self.offline: set[int] = set()
        self.joiner_ai = set(self.joiners)  # joiners whose own computer plays

    # ---------------------------------------------------------------- plumbing
    def _host_events(self, evs):
        self.events[1] += evs
        self.host_turns += [e for e in evs if isinstance(e, Turn)]

    def pump(self, limit=100000):
        """Deliver messages and decisions until nothing moves."""
        for _ in range(limit):
            if not self.pump_once():
                return
        raise AssertionError("no end")

    def pump_once(self, decide: bool = True) -> bool:
        """One round of deliveries (host -> joiners, joiners -> host) and at most one decision."""
        if True:
            moved = False
            for seat, msgs in self.host.outgoing().items():
                if seat in self.offline:
                    continue
                for m in msgs:
                    if self.tamper is not None:
                        m = self.tamper(seat, m)
                        if m is None:
                            continue
                    data = encode_frame(m, SCHEMAS)
                    self.received[seat] += data
                    for d in self.decoders[seat].feed(data):
                        self.events[seat] += self.joiners[seat].receive(d, self.now)
                    moved = True
            for seat, j in self.joiners.items():
                if seat in self.offline:
                    continue
                for m in j.outgoing():
                    if self.joiner_tamper is not None:
                        m = self.joiner_tamper(seat, m)
                        if m is None:
                            continue
                    for d in self.to_host[seat].feed(encode_frame(m, SCHEMAS)):
                        self._host_events(self.host.receive(seat, d, self.now))
                    moved = True
            if decide and not moved and self.decide():
                moved = True
            return moved

    def decide(self) -> bool:
        t = self.host.turn()
        if t is not None and self.host.over is None:
            a = self.ais[t.seat].choose(t.observation)
            evs = self.host.play(a, self.now) if t.seat == 1 else self.host.decide(t.seat, a, self.now)
            self._host_events(evs)
            return True
        for seat, j in self.joiners.items():
            if seat in self.offline or seat not in self.joiner_ai:
                continue
            obs = j.my_turn()
            if obs is not None:
                self.events[seat] += j.play(self.ais[seat].choose(obs), self.now)
                return True
        return False

    def start(self):
        self._host_events(self.host.start(self.now))
        for s, j in self.joiners.items():
            self.events[s] += j.start(self.now)

    def run(self):
        self.start()
        self.pump()
        return self

    def overs(self):
        """Every peer's MatchOver (host first)."""
        out = {1: self.host.over}
        out.update({s: j.over for s, j in self.joiners.items()})
        return out


def is_over(e) -> bool:
    return isinstance(e, MatchOver)
