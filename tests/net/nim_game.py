"""A small game defined only in the tests, played over the one LAN layer ("Done when").

:data:`GAME` is its registry entry (a :class:`game.registry.Game` with ``lan``), which a test
puts in ``game.registry.GAMES`` to play it with ``rose-king host/join`` unchanged.

Nim with one chance event: a joint commit-reveal coin of both seats (net.coin's layouts) sets
the pile (10..20 stones) and who moves first; then the players take 1..3 stones in turn and
whoever takes the last stone wins. Its LAN part (:data:`NIM`) is a :class:`net.match.LanPart`
like any game's, written as a class of its own (not a :class:`net.match.LanSpec`): the
session, lobby, link and journal know nothing else about it.

This file is the third game of docs/architecture.md, "What a third game implements": every
member of :class:`game.registry.Game` and :class:`net.match.LanPart`, none left out, checked by
the type checker (``--strict``, ``[tool.mypy] files``) through the typed assignments at the end,
and at run time by ``tests/net/test_lan_layer.py``.

Messages: ``commit{for, c}``, ``reveal{for, s}`` (the shared coin messages, ``for`` = -1) and
``take{ply, n}`` (the mover's take, ``ply`` the ply it makes). Every message a seat sends the
other is kept in its outbox; ``catch_up`` re-sends what the other lacks (the host: from the
joiner's ``have``; the joiner: everything, repeats being ignored).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Callable, Mapping

from net.coin import coin_digest, coin_rng, commitment
from net.framing import SHARED_SCHEMAS, boolean, integer
from net.match import MatchMachine, Notice, Output, Over, Owed, Refusal, Save, Send, Table, Verdict, outbox_catch_up

if TYPE_CHECKING:
    from game.registry import Game
    from game.savefile import Summary
    from game.schema import Schema
    from net.match import LanPart

COMMIT_S, REVEAL_S, FORFEIT_S = 6.0, 10.0, 60.0


class NimMatch:
    """One seat of a Nim match (pure). ``seat`` 0 is the host, 1 the joiner."""

    def __init__(self, seat: int, table: Table, token_bytes: Callable[[int], bytes],
                 payload: dict[str, Any] | None = None) -> None:
        self.seat, self.table = seat, table
        self.peer = 1 - seat
        p: dict[str, Any] = payload or {}
        self.secret = bytes.fromhex(p["secret"]) if p else token_bytes(32)
        self.their_commit: bytes | None = bytes.fromhex(p["their_commit"]) if p.get("their_commit") else None
        self.their_secret: bytes | None = bytes.fromhex(p["their_secret"]) if p.get("their_secret") else None
        self.revealed = bool(p.get("revealed", False))
        self.takes: list[int] = list(p.get("takes", []))
        self.outbox: list[dict[str, Any]] = list(p.get("outbox", []))
        self.handled = int(p.get("handled", 0))
        v = p.get("over")
        self._over = Verdict(v[0], v[1], tuple(v[2]), v[3], v[4]) if v else None
        self.pile: int | None = None
        self.first: int | None = None
        self.since = 0.0
        self.revealed_at: float | None = None
        #: the host plays the other seat itself (a computer seat, or a seat handed to its computer)
        self.handed = bool(p.get("handed", False))
        self.computer = seat == 0 and (self.peer in table.computers or self.handed)
        #: joiner: the host's computer plays our seat meanwhile (``proxy``)
        self.proxied = bool(p.get("proxied", False))
        if seat == 0 and self.peer in table.computers and not p:
            self.their_secret = token_bytes(32)
            self.their_commit = commitment(table.game_id, -1, self.peer, self.their_secret)
            self.revealed = True
        if self.their_secret is not None:
            self._outcome()

    # ------------------------------------------------------------------ helpers
    @property
    def commit(self) -> bytes:
        return commitment(self.table.game_id, -1, self.seat, self.secret)

    def _send(self, msg: dict[str, Any]) -> Send:
        self.outbox.append(msg)
        return Send(self.peer, msg)

    def _outcome(self) -> None:
        assert self.their_secret is not None
        secrets_ = (self.secret, self.their_secret) if self.seat == 0 else (self.their_secret, self.secret)
        rng = coin_rng(coin_digest(self.table.game_id, -1, secrets_))
        self.pile, self.first = 10 + rng.randbelow(11), rng.randbelow(2)

    def stones(self) -> int:
        return (self.pile or 0) - sum(self.takes)

    def to_move(self) -> int:
        return (self.first + len(self.takes)) % 2 if self.first is not None else -1

    def check_verdict(self, verdict: Verdict, sender: int) -> Verdict | None:
        """The layer's verdict on a stop, as it is: this game holds no evidence of its own."""
        return verdict

    def waiting_for(self) -> tuple[int, ...]:
        seat = self.to_move()
        return (seat,) if seat >= 0 and self._over is None else ()

    def _after_take(self, by: int) -> list[Output]:
        out: list[Output] = [Notice("move", {"seat": by, "n": self.takes[-1], "left": self.stones()}), Notice("record")]
        if self.stones() == 0:
            self._over = Verdict("finished", -1, (by,), len(self.takes), f"seat {by} took the last stone")
            out.append(Over(self._over))
        return out

    # ------------------------------------------------------------------ MatchMachine
    @property
    def over(self) -> Verdict | None:
        return self._over

    def start(self, now: float) -> list[Output]:
        self.since = now
        if self.computer:  # both parts are ours: the outcome is known at once
            return [Save(), Notice("dealt", {"pile": self.pile, "first": self.first}), Notice("record")]
        return [Save(), self._send({"t": "commit", "for": -1, "c": self.commit})]

    def receive(self, sender: int, msg: dict[str, Any], now: float) -> list[Output]:
        self.handled += 1
        t = msg["t"]
        if t == "commit":
            if self.their_commit is not None:
                if msg["c"] == self.their_commit:
                    return []  # a repeat after resuming
                return [Over(Verdict("coin", sender, (), 0, "a second, different commitment (a re-roll)"))]
            if msg["c"] == self.commit:
                return [Over(Verdict("coin", sender, (), 0, "the peer echoed our commitment"))]
            self.their_commit = msg["c"]
            self.revealed, self.revealed_at = True, now
            return [Save(), self._send({"t": "reveal", "for": -1, "s": self.secret})]
        if t == "reveal":
            if self.their_commit is None:
                raise Refusal("order", "reveal before commit")
            if self.their_secret is not None:
                return [] if msg["s"] == self.their_secret else [Over(Verdict("coin", sender, (), 0, "two reveals"))]
            if commitment(self.table.game_id, -1, sender, msg["s"]) != self.their_commit:
                return [Over(Verdict("forfeit", sender, (), 0, "its reveal does not open its commitment"))]
            self.their_secret = msg["s"]
            self._outcome()
            return [Save(), Notice("dealt", {"pile": self.pile, "first": self.first}), Notice("record")]
        if t == "proxy":
            if self.seat == 0:
                raise Refusal("order", "a proxy message from a joiner")
            self.proxied = msg["on"]
            return [Save()]
        if t == "take":
            ply = msg["ply"]
            if ply <= len(self.takes):
                return []  # a repeat after resuming
            if self.pile is None or ply != len(self.takes) + 1:
                raise Refusal("order", f"take for ply {ply} at ply {len(self.takes)}")
            mover = self.seat if (self.proxied and sender == 0 and self.to_move() == self.seat) else sender
            if self.to_move() != mover or not 1 <= msg["n"] <= min(3, self.stones()):
                return [Over(Verdict("illegal", sender, (), ply, f"seat {sender} took {msg['n']} at ply {ply}"))]
            self.takes.append(msg["n"])
            return self._after_take(mover)
        raise Refusal("order", f"unexpected {t!r}")

    def act(self, n: Any, now: float, seat: int | None = None) -> list[Output]:
        seat = self.seat if seat is None else seat
        if seat != self.seat and not (self.computer and seat == self.peer) or seat == self.seat and self.proxied:
            raise ValueError(f"seat {seat} is not played here now")
        if self._over is not None or self.pile is None or self.to_move() != seat:
            raise ValueError("not your turn")
        if not 1 <= n <= min(3, self.stones()):
            raise ValueError(f"take 1..{min(3, self.stones())} stones, not {n}")
        self.takes.append(n)
        if self.peer in self.table.computers:  # nobody else to tell
            return [Save(), *self._after_take(seat)]
        return [Save(), self._send({"t": "take", "ply": len(self.takes), "n": n}), *self._after_take(seat)]

    def set_computer(self, seat: int, on: bool, now: float) -> list[Output]:
        """Host: hand the joiner's seat to the computer (``on``) or give it back. Raises
        ValueError while the set-up coin is open (the seat owes its part: no hand-over then)."""
        if self.seat != 0 or seat != self.peer:
            raise ValueError(f"seat {seat} cannot be handed over here")
        if on and self.pile is None:
            raise ValueError("the set-up coin is open: the seat owes its part")
        if on == self.handed:
            return []
        self.handed, self.computer = on, on
        return [Save(), self._send({"t": "proxy", "ply": len(self.takes), "on": on})]

    def tick(self, now: float) -> list[Output]:
        return []

    def owed(self) -> list[Owed]:
        out: list[Owed] = []
        if self._over is not None:
            return out
        if self.their_commit is None:
            out.append(Owed(self.peer, "commit", -1, self.seat, self.since, COMMIT_S, FORFEIT_S, False))
        elif self.their_secret is None and self.revealed_at is not None:
            out.append(Owed(self.peer, "reveal", -1, self.seat, self.revealed_at, REVEAL_S, FORFEIT_S, True))
        if self.their_commit is not None and not self.revealed:
            out.append(Owed(self.seat, "reveal", -1, self.peer, self.since, REVEAL_S, FORFEIT_S, True))
        return out

    def connected(self, seat: int, now: float) -> list[Output]:
        if self.their_commit is None:
            self.since = now  # a fresh chance to commit after reconnecting
        return []

    def disconnected(self, seat: int, now: float) -> list[Output]:
        return []

    def end(self, verdict: Verdict, now: float) -> list[Output]:
        self._over = verdict
        return [Save(), Notice("record")]

    def abortable(self) -> bool:
        return self.their_commit is None and not self.revealed and not self.takes

    def catch_up(self, seat: int, have: int, now: float) -> list[Output]:
        return [*outbox_catch_up(self.seat, seat, self.outbox, have)]

    def received(self) -> int:
        return self.handled

    def payload(self) -> dict[str, Any]:
        v = self._over
        return {"secret": self.secret.hex(), "handed": self.handed, "proxied": self.proxied, "their_commit": self.their_commit.hex() if self.their_commit else None,
                "their_secret": self.their_secret.hex() if self.their_secret else None, "revealed": self.revealed,
                "takes": self.takes, "outbox": [_jsonable(m) for m in self.outbox], "handled": self.handled,
                "over": [v.kind, v.seat, list(v.winners), v.ply, v.detail] if v else None}

    def record(self) -> dict[str, Any]:
        v = self._over
        return {"format": "nim-test", "names": list(self.table.names), "pile": self.pile, "first": self.first,
                "takes": self.takes, "result": None if v is None else {"kind": v.kind, "seat": v.seat,
                                                                        "winners": list(v.winners)}}


def _jsonable(m: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.hex() if isinstance(v, bytes) else v) for k, v in m.items()}


def _from_json(m: dict[str, Any]) -> dict[str, Any]:
    return {k: (bytes.fromhex(v) if k in ("c", "s") else v) for k, v in m.items()}


class NimPart:
    """Nim's :class:`net.match.LanPart`: every member the layer reads, as a class of its own."""

    key = "nim-test"
    version = 1
    seats = (2,)
    auto_start = True  # two seats: the match starts once the joiner sits down
    max_bin = 64
    host_options = None  # no lobby options
    signing = None  # no signed messages
    schemas: Mapping[str, Mapping[str, Callable[[Any], str | None]]] = {
        "commit": SHARED_SCHEMAS["commit"], "reveal": SHARED_SCHEMAS["reveal"],
        "take": {"ply": integer(1, 100), "n": integer(1, 3)}, "proxy": {"ply": integer(0, 100), "on": boolean}}
    rates: Mapping[str, tuple[float, float]] = {"commit": (10, 1), "reveal": (10, 1), "take": (60, 10),
                                               "proxy": (10, 1)}

    def new_match(self, seat: int, table: Table, token_bytes: Callable[[int], bytes]) -> MatchMachine:
        return NimMatch(seat, table, token_bytes)

    def from_payload(self, seat: int, table: Table, payload: dict[str, Any],
                     token_bytes: Callable[[int], bytes]) -> MatchMachine:
        payload = dict(payload)
        payload["outbox"] = [_from_json(m) for m in payload.get("outbox", [])]
        return NimMatch(seat, table, token_bytes, payload)

    def turn(self, m: MatchMachine, seat: int) -> int | None:
        """The stones left when ``seat`` (ours, or the host's computer seat) must take now, else None."""
        assert isinstance(m, NimMatch)
        ours = seat == m.seat and not m.proxied or seat == m.peer and m.computer
        if m.over is None and m.pile is not None and m.to_move() == seat and ours:
            return m.stones()
        return None

    def player(self, level: str, seed: int) -> Callable[[Any], Any]:
        """``random`` takes 1..3 at random (the project's generator); ``perfect`` leaves a multiple of 4."""
        from game.rng import Rng
        rng = Rng(seed)

        def choose(stones: int) -> int:
            if level == "perfect" and stones % 4:
                return stones % 4
            return 1 + rng.randbelow(min(3, stones))
        return choose


class NimGame:
    """The registry entry of the test game: every member of :class:`game.registry.Game` (the
    LAN commands ask only a few; the rest answer as a game without them would)."""

    key = "nim-test"
    title = "Nim (tests)"
    record_format = "nim-test"
    record_version = 1
    other_formats = ()
    seats = (2,)
    levels = ("random", "perfect")
    level_words: Mapping[str, str] = {}  # no names of the window's for its levels
    settings_schema: "Schema" = {}  # no settings of its own (no name field: the player's name is another game's)
    match_seconds = 1.0
    lan = NimPart()

    def add_host_arguments(self, group: argparse._ArgumentGroup) -> None:
        """No lobby options."""

    def add_match_arguments(self, group: argparse._ArgumentGroup) -> None:
        """No ``rose-king match`` options."""

    def check(self, record: Mapping[str, Any]) -> str:
        return f"ok finished takes={len(record['takes'])}"

    def plies(self, record: Mapping[str, Any]) -> int:
        return len(record["takes"])

    def replay_text(self, record: Mapping[str, Any]) -> list[str]:
        return [str(t) for t in record["takes"]]

    def summarize(self, record: dict[str, Any], fallback_id: str) -> "Summary":
        from game.savefile import SaveError
        raise SaveError("a Nim record is not a saved game")

    def run_match(self, args: argparse.Namespace) -> int:
        return 2


#: The typed assignments the type checker holds to the contract (``[tool.mypy] files``).
NIM: "LanPart" = NimGame.lan
GAME: "Game" = NimGame()
