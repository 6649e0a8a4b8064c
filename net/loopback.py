"""Two pure protocol objects wired back to back in memory (no sockets, no threads).

Used by the tests and the benchmark, and handy for trying a screen against a
LAN game without a network. Each side has its own :class:`~net.journal.Journal`
(``pair.journals[side]``), which outlives the connection: :meth:`Pair.reconnect`
opens new connections over the same journals, as after a dropped TCP connection.
"""

from __future__ import annotations

from game.rng import Rng
from game.roseking.ai import make_player
from net.journal import Journal
from net.roseking import Closed, Connection, GameOver, Role


def det_tokens(seed: int):
    """A deterministic stand-in for ``secrets.token_bytes`` so failures reproduce."""
    rng = Rng(seed)
    return lambda n: bytes(rng.randbelow(256) for _ in range(n))


class Pair:
    """A host and a joiner connected in memory. ``pump()`` carries bytes both ways until
    both are quiet and keeps every event per side in ``events[side]``."""

    def __init__(self, seed: int = 1, host_journal: Journal | None = None, join_journal: Journal | None = None,
                 names=("Alice", "Bob"), now: float = 0.0, colour: str = "") -> None:
        self.now = now
        self.seed = seed
        self.host_journal = host_journal if host_journal is not None else Journal()
        self.join_journal = join_journal if join_journal is not None else Journal()
        self.host = Connection(Role.HOST, names[0], journal=self.host_journal, date="2026-11-22T03:00:00Z",
                               token_bytes=det_tokens(seed), now=now, colour=colour)
        self.join = Connection(Role.JOIN, names[1], journal=self.join_journal, date="2026-11-22T04:00:00Z",
                               token_bytes=det_tokens(seed + 1000), now=now)
        self.names = names
        self.events = {self.host: [], self.join: []}

    def reconnect(self, seed: int | None = None, pump: bool = True) -> "Pair":
        """New connections over the same journals (the old ones are dropped without a word),
        pumped until quiet unless ``pump`` is False."""
        q = Pair(self.seed + 77 if seed is None else seed, self.host_journal, self.join_journal, self.names,
                 self.now)
        if pump:
            q.pump()
        return q

    def pump(self, limit: int = 1000) -> None:
        for _ in range(limit):
            a = self.host.data_to_send()
            b = self.join.data_to_send()
            if not a and not b:
                return
            if a:
                self.events[self.join] += self.join.receive_data(a)
            if b:
                self.events[self.host] += self.host.receive_data(b)
        raise AssertionError("the two peers never went quiet")

    def tick(self, dt: float) -> None:
        self.now += dt
        for c in (self.host, self.join):
            self.events[c] += c.tick(self.now)

    def mover(self) -> Connection:
        turn = self.host.game.state.turn
        return self.host if self.host.color == turn else self.join

    def sides(self) -> tuple[Connection, Connection]:
        """(the side to move, the other side)."""
        m = self.mover()
        return m, (self.join if m is self.host else self.host)

    def play_out(self, levels=("greedy", "random"), seed: int = 5, max_plies: int = 400) -> None:
        """Both sides play as the computer until the game ends (or a connection closes)."""
        players = {self.host: make_player(levels[0], seed), self.join: make_player(levels[1], seed + 1)}
        self.pump()
        for _ in range(max_plies):
            if self.host.game.over or self.host.closed or self.join.closed:
                return
            m = self.mover()
            self.events[m] += m.play(players[m].choose(m.game.state))
            self.pump()
        raise AssertionError("game did not end")

    def kinds(self, conn) -> list[str]:
        return [type(e).__name__ for e in self.events[conn]]

    def closed(self, conn) -> Closed | None:
        return next((e for e in self.events[conn] if isinstance(e, Closed)), None)

    def game_over(self, conn) -> GameOver | None:
        return next((e for e in self.events[conn] if isinstance(e, GameOver)), None)
