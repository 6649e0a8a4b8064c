"""The shell's side of a network table, the same for every game (docs/architecture.md, "One LAN
table in the shell").

A game's table scene owns one :class:`LanTable` (composition: the scene stays the game's) and
calls :meth:`LanTable.pump` once per update; it gets back every event of the session, for its own
moves and notices. The table then knows, for every game alike:

- each seat's name and state (:meth:`LanTable.seat_state`: connected, thinking -- whose turn,
  from the match machine's ``waiting_for`` --, reconnecting, left, a computer), drawn by
  :func:`game.client.lan.banner.draw_seats` with the match code and what it is for;
- the connection (:meth:`LanTable.connection`), and why a match stopped for good;
- the verdict (:attr:`LanTable.verdict`), its words (:meth:`LanTable.end_texts`: the winner's
  name, who resigned or left), resign (the game's ``resign`` action) and leave;
- saving: the game's pure ``save`` hook turns the machine's record into a saved game, kept by a
  :class:`game.saves.BackgroundAutosaver` after each ``record`` notice, at the end, when the match
  stops for good and when the player leaves -- every LAN match is in the saved games;
- the rematch (:meth:`LanTable.rematch_label`): the host offers it unless a player has left; a
  joiner joins again only when its host's table answers at its address (probed in the
  background), and else reads plainly that the host has gone.

Nothing here names a game. The scene never reads the match machine's fields: the game's hooks do.
"""

from __future__ import annotations

import threading
import time
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

from game.i18n import _

from . import LanClient, NetMatch

if TYPE_CHECKING:
    from ..app import App

#: Session statuses after which nothing more comes, and those while the match waits for a connection.
ENDED = ("failed", "closed")
WAITING = ("connecting", "interrupted")
#: Seconds the table waits at most for a save to reach the disk (the end, a stop, leaving).
SAVE_WAIT = 5.0
#: Seconds between two looks at a joiner's host after the end (is its table still there?).
PROBE_EVERY = 2.0


class LanTable:
    """The seats, connection, verdict, saving and rematch of one network match (see the module
    docstring). ``net``: what the lobby handed over; ``hooks``: the game's :class:`LanClient`;
    ``say(text_fn)``: how the scene shows a short note (a callable worded when drawn)."""

    def __init__(self, app: "App", net: NetMatch, hooks: LanClient,
                 say: Callable[[Callable[[], str]], None] = lambda text: None) -> None:
        self.app, self.net, self.hooks, self.say = app, net, hooks, say
        self.session = net.session
        self.seat = net.seat
        self.names: tuple[str, ...] = net.names
        self.computers = tuple(net.started.table.computers)
        self.verdict = self.session.verdict
        self.pending = list(net.pending)
        self.link = "up"          # the host's connection (a joiner) or any seat's (host): up / interrupted / closed
        self.stop_code = ""       # the closing code that stopped the match for good (a joiner's host left...)
        self.away: set[int] = set()   # seats whose connection is down now
        self.left: set[int] = set()   # seats that left for good
        self.thinking: tuple[int, ...] = ()
        self.saved: str | None = None   # where the ended match was kept
        self.kept: str | None = None    # where the match that stopped for good (or was left) was kept
        self._saver: Any = None
        self._stop_kept = False
        self._closed = False
        self.rematch_sent = False
        self._host_there: bool | None = None   # a joiner after the end: does its host's table answer?
        self._probe_at = 0.0
        self._probing = False
        self.code = match_code(net.started.table)
        self._told = ""          # the state the host's beacon says of its table
        self.listener: Any = None  # a joiner after the end: the discovery listener (its host's beacon)
        self._heard = False      # ... which heard its host's table
        self._host_table = ""    # ... and its state then ("open", "over"; "" none heard now)
        if self.verdict is not None:
            self._note_verdict(self.verdict)
        self.keep(wait=False)  # moves made before this table (a resume, a quick first move)
        if self.session.write_errors:  # (one reported while the lobby waited for the match)
            self.say(partial(write_failed_text, self.session.write_errors[-1].reason))

    # ------------------------------------------------------------------ network
    def pump(self) -> list:
        """Take the session's events (never blocks) and return them all, in order, for the game."""
        from net.session import Dropped, Ended, LobbySeats, Noticed, Started, Status, WriteFailed
        events, self.pending = self.pending + self.session.poll(), []
        for e in events:
            if isinstance(e, Ended):
                self._note_verdict(e.verdict)
                self.saved = self.keep(wait=True)
            elif isinstance(e, Noticed) and e.code == "record" and self.verdict is None:
                self.keep(wait=False)
            elif isinstance(e, LobbySeats):
                self._rows(e.rows)
            elif isinstance(e, Started):
                self.link = "up"
                self.away.clear()
            elif isinstance(e, Dropped) and e.by_peer:
                gone = self.session.role == "join" and e.fatal
                if self.session.role == "join" and self.verdict is None:  # (after the end every link closes)
                    self.link = "closed" if gone else "interrupted"
                    (self.left if gone else self.away).add(0)
                    if gone:
                        self.stop_code = e.code
                elif e.seat > 0 and self.verdict is None:
                    self.away.add(e.seat)
            elif isinstance(e, Status) and e.code == "interrupted":
                self.link = "interrupted"
            elif isinstance(e, Status) and e.code == "playing":
                self.link = "up"
                self.away.discard(0)
            elif isinstance(e, WriteFailed):
                self.say(partial(write_failed_text, e.reason))
        self.thinking = tuple(self.session.view(lambda m: m.waiting_for()) or ()) if self.verdict is None else ()
        if self.verdict is None and not self._stop_kept and self.connection() == "closed":
            self._stop_kept = True  # stopped for good: the match so far, on disk at once
            self.kept = self.keep(wait=True)
        if self.verdict is not None and self.session.role == "join" and not self.rematch_sent:
            self._look_for_host()
        self._tell_beacon()
        return events

    def _tell_beacon(self) -> None:
        """Host: its discovery beacon says who plays, and "playing" then "over"."""
        state = "playing" if self.verdict is None else "over"
        if self.net.beacon is not None and state != self._told:
            self._told = state
            tell_table(self.net.beacon, tuple(("person", n, True) for n in self.names), state)

    def _rows(self, rows: tuple) -> None:
        """Host: the lobby's rows (kind, name, connected) during the match: a person seat whose
        connection dropped is waited for, and greeted when it is back."""
        for s, row in enumerate(rows):
            if row[0] != "person" or self.verdict is not None:
                continue
            if not row[2] and s not in self.away:
                self.away.add(s)
                self.say(partial(lost_text, self.name(s)))
            elif row[2] and s in self.away:
                self.away.discard(s)
                self.say(partial(back_text, self.name(s)))

    def _note_verdict(self, v: Any) -> None:
        self.verdict = v
        if v.kind == "left" and 0 <= v.seat < len(self.names):
            self.left.add(v.seat)

    def connection(self) -> str:
        """The match's connection as the screens show it: ``"up"``, ``"interrupted"`` (the session
        waits or reconnects; the game waits) or ``"closed"`` (failed, closed, or stopped for good)."""
        status = self.session.status
        if status in ENDED or self.stop_code:
            return "closed"
        if self.verdict is None and (status in WAITING or self.link == "interrupted"
                                     or self.session.role == "host" and self.away):
            return "interrupted"
        return "up" if self.link != "closed" else "closed"

    def blocked(self) -> bool:
        """Whether the connection banner covers the game (it waits, or it stopped with no verdict)."""
        return self.verdict is None and self.connection() != "up"

    # ------------------------------------------------------------------ seats
    def name(self, seat: int) -> str:
        """Seat ``seat``'s name (0-based), or "Player n" (1-based, as players count) if none."""
        name = self.names[seat] if 0 <= seat < len(self.names) else ""
        return name or _("Player {n}").format(n=seat + 1)

    def seat_state(self, seat: int) -> str:
        """``"you"``, ``"thinking"`` (its decision is awaited), ``"connected"``, ``"away"`` (its
        connection is down: reconnecting), ``"left"`` or ``"computer"``."""
        gone = self._host_there is False if not self._heard else not self._host_table  # (its beacon, else the probe)
        if seat in self.left or seat == 0 and self.seat != 0 and self.verdict is not None and gone:
            return "left"
        if seat in self.thinking:
            return "thinking"
        if seat == self.seat:
            return "you"
        if seat in self.computers:
            return "computer"
        if seat in self.away or self.session.role == "join" and seat == 0 and self.connection() == "interrupted":
            return "away"
        return "connected"

    def seat_line(self, seat: int) -> tuple[str, str]:
        """One seat's row in the player's language: ``(its number and name, its state)``."""
        name = self.name(seat)
        if seat == self.seat:
            name = _("{name} (you)").format(name=name)
        state = self.seat_state(seat)
        words = {"you": "", "thinking": _("your turn") if seat == self.seat else _("thinking…"),
                 "connected": _("connected"), "away": _("reconnecting…"), "left": _("left"),
                 "computer": ""}  # (a computer's name says it is one: "Computer (hard)")
        link = getattr(self.net, "internet", None)  # a seat connected by code says how
        text = words[state] if link is None else link.table_state(seat, state, words[state])
        return _("{n}. {name}").format(n=seat + 1, name=name), text

    # ------------------------------------------------------------------ the end
    def winners(self) -> list[str]:
        v = self.verdict
        return [] if v is None else [self.name(s) for s in v.winners]

    def end_texts(self) -> tuple[str, list[str]]:
        """The end panel's title and lines (the winner by name, never by colour; who resigned or
        left; the game's own words for a stopped match, from its ``stop_text`` hook)."""
        v = self.verdict
        assert v is not None
        won = self.winners()
        if len(won) == 1:
            wins = _("You win!") if v.winners[0] == self.seat else _("{name} wins!").format(name=won[0])
        elif won:
            wins = _("{names} win!").format(names=" + ".join(won))
        else:
            wins = ""
        who = self.name(v.seat) if 0 <= v.seat < len(self.names) else ""
        if v.kind == "finished":
            return (wins or _("A draw")), []
        if v.kind == "resigned":
            title = _("You resigned.") if v.seat == self.seat else _("{name} resigned.").format(name=who)
            return title, [wins] if wins else []
        if v.kind == "left":
            title = _("You left the match.") if v.seat == self.seat else (
                _("{name} left the match.").format(name=who) if who else _("A player left the match."))
            return title, [wins] if wins else []
        lines = [self.stop_words(v.kind, who, v)]
        return _("The game was stopped"), lines + ([wins] if wins else [])

    def stop_words(self, code: str, who: str = "", verdict: Any = None) -> str:
        """Why the match stopped, in the game's words (its ``stop_text`` hook), else the shell's."""
        return self.hooks.stop_words(code, who, verdict)

    def can_resign(self) -> bool:
        return self.hooks.resign is not None and self.verdict is None and self.connection() == "up"

    def resign(self) -> bool:
        """Resign now (the game's ``resign`` action). False when it cannot be done yet (say, a
        card being drawn comes first): nothing was sent then."""
        if not self.can_resign():
            return False
        try:
            self.session.act(self.hooks.resign)
        except ValueError:
            return False
        return True

    # ------------------------------------------------------------------ rematch
    def rematch_label(self) -> tuple[str, bool]:
        """The rematch button's words and whether it may be pressed: the host offers it while no
        player has left; a joiner joins again once its host's table answers, and reads plainly that
        the host has gone when nobody answers there."""
        if self.net.again is None or self.verdict is None:
            return _("No rematch here"), False
        if self.rematch_sent:
            return _("Rematch offered…"), False
        people = [s for s in range(len(self.names)) if s != self.seat and s not in self.computers]
        gone = [s for s in people if s in self.left]
        if self.session.role == "host":
            if gone:
                return _("{name} has left").format(name=self.name(gone[0])), False
            return _("Offer a rematch"), True
        host = self.name(0)
        if self._heard:  # its beacon: open again, still over, or gone quiet
            if self._host_table == "open":
                return _("Play again at {name}'s table").format(name=host), True
            if self._host_table:
                return _("Waiting for {name}…").format(name=host), False
            return _("{name} has left").format(name=host), False
        if gone and self._host_there is None or self._host_there is False:
            return _("{name} has left").format(name=host), False
        if self._host_there:
            return _("Play again at {name}'s table").format(name=host), True
        return _("Looking for {name}'s table…").format(name=host), False

    def rematch(self) -> bool:
        """Play again (the lobby's ``again``: the host opens the same table on the same port, a
        joiner joins it); the caller leaves this table first. False when not offered now."""
        words, ok = self.rematch_label()
        if not ok:
            return False
        self.rematch_sent = True
        return True

    def _look_for_host(self) -> None:
        """A joiner after the end: its host's table as its discovery beacon tells it (open again,
        still over, or silent: gone), from the listener of :meth:`listen`; while no beacon of it is
        heard, every :data:`PROBE_EVERY` seconds, in the background, whether a table answers at
        the host's address."""
        if self.listener is None and not self._closed:
            self.listener = self.listen()
        if self.listener is not None:
            mine = [g for g in self.listener.games() if g.port == self.session.port and g.state
                    and (g.address == self.session.address or self._heard)]
            self._heard = self._heard or bool(mine)
            self._host_table = mine[0].state if mine else ""
            if self._heard:
                return
        now = time.monotonic()
        if self._probing or now < self._probe_at:
            return
        self._probing, self._probe_at = True, now + PROBE_EVERY
        address, port = self.session.address, self.session.port

        def probe() -> None:
            from net.session import probe_host
            try:
                _game, sock, _data = probe_host(address, port, timeout=PROBE_EVERY)
                sock.close()
                self._host_there = True
            except (OSError, ValueError):
                self._host_there = False
            self._probing = False
        threading.Thread(target=probe, name="lan-rematch-probe", daemon=True).start()

    def listen(self) -> Any:
        """The discovery listener a joiner hears its host's table with after the end (None when
        the discovery port cannot be opened: probing alone then)."""
        from net.discovery import BeaconListener

        from ..lan_common import own_beacons
        try:
            return BeaconListener(ignore=own_beacons)
        except OSError:
            return None

    # ------------------------------------------------------------------ saving
    def keep(self, wait: bool = False) -> str | None:
        """Hand the match's record, made a saved game by the game's ``save`` hook, to this table's
        autosaver (a worker thread: a save's fsyncs never stall a frame; saves of one match replace
        each other in order). ``wait``: until it is on disk, at most :data:`SAVE_WAIT` seconds.
        Returns the save's path, or None when there is nothing to keep or (``wait``) the disk
        refused or was too slow."""
        if self.hooks.save is None:
            return None
        record = self.session.view(lambda m: m.record())
        try:
            save = self.hooks.save(record, self.seat, self.computers)
        except ValueError:
            return None
        if save is None:
            return None
        game_id, text = save
        if self._saver is None:
            from game.saves import BackgroundAutosaver, shared_store
            self._saver = BackgroundAutosaver(self.net.store or shared_store())
        self._saver.submit_text(game_id, text)
        if wait and not (self._saver.flush(SAVE_WAIT) and self._saver.error is None):
            return None
        return str(self._saver.store.path_for(game_id))

    def unsaved(self) -> bool:
        """Whether leaving now leaves a match unfinished (the question before leaving)."""
        return self.verdict is None and self.connection() != "closed"

    def close(self) -> None:
        """Leave: the session says goodbye (the others judge the stop by who owes what), the match
        so far goes to the saved games, the autosaver stops once it is on disk. Safe to call twice."""
        self.net.close()
        if self._closed:
            return
        self._closed = True
        if self.listener is not None:
            self.listener.stop()
            self.listener = None
        path = self.keep(wait=True)
        if self.verdict is None and path is not None:
            self.kept = path
        if self._saver is not None:
            self._saver.close(SAVE_WAIT)

    def look(self) -> tuple:
        """A small summary of what the shell draws, for the scene's ``at_rest``."""
        return (self.session.status, self.link, self.stop_code, tuple(sorted(self.away)), tuple(sorted(self.left)),
                self.thinking, self.verdict, self.saved, self.kept, self.rematch_sent, self._host_there, self._heard,
                self._host_table)


def match_code(table: Any) -> str:
    """The match code of a table whose seats sign their messages (every seat's signing key, from
    the lobby: :func:`net.signed.match_code`), "" for a game that does not sign."""
    keys = tuple(getattr(table, "sign_keys", ()) or ())
    if not keys:
        return ""
    from net.signed import match_code as code_of
    return code_of(table.game_id, keys)


def code_lines(code: str) -> list[str]:
    """The match code and what to do with it, in the player's language (empty without a code)."""
    if not code:
        return []
    # TRANSLATORS: the match code comes from every player's signing key
    return [_("Match code: {code}").format(code=code),
            _("All players see the same code. Compare it aloud or in a chat: if it differs, someone is in the middle.")]


def tell_table(beacon: Any, rows: tuple, state: str) -> None:
    """Keep the discovery beacon's table datagram (:meth:`net.discovery.Beacon.set_table`) saying
    who sits at the table (the lobby's rows: kind, name, connected), how many seats are free and
    ``state`` ("open", "playing", "over"). Nothing without a beacon; names that a datagram cannot
    carry leave the last one as it was."""
    if beacon is None:
        return
    names = [str(r[1]) for r in rows if r[0] != "open" and r[1]]
    try:
        beacon.set_table(names, sum(1 for r in rows if r[0] == "open") if state == "open" else 0, state)
    except (ValueError, AttributeError):
        pass


def record_file(prefix: str) -> str | None:
    """A new file ``<data folder>/lan/<prefix>-<random hex>.json`` for a network match's running
    record, its journal beside it (``<file>.journal``, which ``rose-king host/join --record FILE``
    resumes), apart from the saved games; a game's ``record_path`` hook may return it. None when
    the folder cannot be made (the match then keeps none)."""
    import uuid

    from game.saves import default_data_dir
    folder = default_data_dir() / "lan"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return str(folder / f"{prefix}-{uuid.uuid4().hex}.json")


def lost_text(name: str) -> str:
    """A seat's connection dropped during the match (the host's toast), translated."""
    return _("{name} lost the connection.").format(name=name)


def back_text(name: str) -> str:
    """A seat whose connection dropped is back (the host's toast), translated."""
    return _("{name} is back.").format(name=name)


def write_failed_text(reason: str) -> str:
    from game.fsutil import os_error_text
    return _("The record could not be written: {reason}").format(reason=os_error_text(reason))


__all__ = ["ENDED", "LanTable", "SAVE_WAIT", "WAITING", "code_lines", "match_code", "record_file", "tell_table"]
