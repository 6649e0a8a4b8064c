"""Royals & Riots over the LAN in the window (issue 13): host a table, join one, wait in the
lobby, and play at the table with the other seats at their own machines.

The network side is :class:`net.royals_session.RoyalsSession` (docs/protocol.md, "Royals &
Riots: connections, lobby, resume and faults"); its thread does every socket operation, and
everything here only calls :meth:`~net.royals_session.RoyalsSession.poll` once per update.

- :class:`RoyalsHostSetup`: the host chooses the table (2-4 seats, teams for 4, each other seat
  open for a person or a computer of a level) and opens it.
- :class:`RoyalsLobby`: host and joiners wait; everyone sees who holds which seat (connected or
  not) and the plain notice that the host's program learns every hand; the host gives the
  address and starts the match once every person seat is filled.
- :class:`RoyalsJoinScene`: the shared "Join a game" screen; a join first reads the host's hello
  (:func:`net.royals_session.probe_host`) to learn the host's game, then opens that game's session.
- :class:`LanTableMatch` / :class:`LanTableScene`: the table of
  :mod:`game.client.royals.scene`, where only this machine's seat is face up and played by
  mouse or keys; every action arrives from the session (our own too, once the network thread
  has it), so it animates exactly like a local match. Our decisions go to
  :meth:`~net.royals_session.RoyalsSession.play`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import threading
import uuid
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

import pygame

from game.fsutil import os_error_text
from game.i18n import N_, Worded, _
from game.lan import join_error_text
from game.royals.phrases import refused_text, round_and_trick, stop_text, table_error_text
from game.settings import MAX_NAME_LENGTH
from game.royals.engine import Action, IllegalMoveError, Phase, State, team_of
from net import DEFAULT_PORT

from ..dialogs import PauseMenu
from ..lan_common import (JOIN_OPENERS, MENU_BIND, NOBODY_SECONDS, local_addresses, own_beacons, settings_name,
                          start_beacon)
from ..lan_common import JoinScene as SharedJoinScene
from ..lan_common import LobbyExit
from ..textinput import TextInput
from ..theme import CANVAS, CREAM, GOLD
from ..widgets import Button, ButtonScene, elide, handle_buttons, panel
from .anims import View
from .art import royals_art
from .scene import LEVEL_WORDS, TEAM_COLOURS, RoyalsTableScene
from .setup import COMPUTER_NAMES, TITLE_SETTLE, draw_title
from .table import LEVELS, Beat, Seat, TableConfig, TableMatch

if TYPE_CHECKING:
    from game.saves import SaveStore

    from ..app import App

#: The plain notice every lobby shows (issue 13: the host's program deals, so it learns every hand).
HOST_NOTICE = N_("The host's program deals the cards, so it learns every hand; it never shows them to the "
                 "host's player. Every play is checked by every machine, and each round's deal is checked "
                 "against the joint coin at the round's end.")
#: Steps taken back to rebuild the positions between two views; a longer gap (a resumed match)
#: is shown at once, without animating each action.
MAX_ANIMATED = 40
#: At the table's first look (a match that starts, or one resumed), a longer way into the
#: round (a resumed match) is shown at once rather than replayed action by action.
FIRST_ANIMATED = 8
#: Beats waiting to be shown beyond which the table plays them instantly to catch up.
CATCH_UP_BEATS = 12
#: Seconds the round's score table stays up at a network table before it closes by itself
#: (the other players go on meanwhile).
ROUND_TABLE_SECONDS = 12.0
#: What the seat plates say of the other seats at a network table.
SEAT_WORDS = {"host": N_("Host"), "person": N_("Network"), "computer": N_("Computer"), "open": N_("Open")}
LEVEL_WORDS.update({"lan-host": SEAT_WORDS["host"], "lan-person": SEAT_WORDS["person"],
                    "lan-computer": SEAT_WORDS["computer"]})
#: Seconds the table waits at most for a save of the match to reach the disk (its end, a stop, leaving).
SAVE_WAIT = 5.0
#: Session statuses at which the table waits for the connection.
WAITING = ("connecting", "interrupted")
#: A lobby whose session has failed or closed shows its seats as they were, in these greys.
GREYED = (150, 142, 128)
GREYED_DOT = (120, 118, 112)


def computer_level(info: Any) -> str | None:
    """The level of a computer seat (its session name reads ``Computer (LEVEL)``), else None."""
    m = re.fullmatch(r".*\((\w+)\)", info.name or "") if info.kind == "computer" else None
    return m.group(1) if m else None


def seat_name(info: Any) -> str:
    """The name shown for a seat: a person's own, a computer's the set-up's name for that seat."""
    if info.kind == "computer" and computer_level(info) is not None:  # (a person's seat handed over keeps its name)
        return COMPUTER_NAMES[(info.seat - 1) % len(COMPUTER_NAMES)]
    return info.name or _("Player {n}").format(n=info.seat)


def plate_level(info: Any) -> str:
    """What a seat's plate at the table says of another seat: a computer's level, else
    ``lan-host`` / ``lan-person`` / ``lan-computer`` (keys of :data:`LEVEL_WORDS`)."""
    if info.kind == "computer":
        return computer_level(info) or "lan-computer"
    return f"lan-{info.kind}"


def seat_label(info: Any, closed: bool = False) -> str:
    """One lobby line's state: who holds the seat, translated. ``closed``: the session has failed
    or closed (the host closed the table, the connection broke), so no seat is waited for or
    connected any more: an open seat reads "empty", a person's "connection closed" (the lobby
    keeps the seats as they were, greyed, under the reason)."""
    if closed and info.kind == "open":
        return _("empty")
    if closed and info.kind == "person":
        return _("connection closed")
    if info.kind == "open":
        return _("open: waiting for a player")
    if info.kind == "computer":
        level = computer_level(info)
        return _("Computer · {level}").format(level=_(LEVEL_WORDS.get(level, level))) if level else _("computer")
    if info.kind == "host":
        return _("host")
    return _("connected") if info.connected else _("connection lost")


# --------------------------------------------------------------------------- the match
class LanTableMatch(TableMatch):
    """A :class:`TableMatch` that follows a :class:`~net.royals_session.RoyalsSession`.

    :attr:`state` is this machine's copy of the seat's view (``session.view.state``): only
    :attr:`seat`'s own cards are real. :meth:`sync` takes a newer view and returns the
    :class:`Beat` list of the actions between the two (each position rebuilt by taking
    actions back from the newer view, so the beats of one batch agree with each other).
    Decisions are never pushed here: :meth:`apply` refuses, the scene hands them to the session.
    """

    def __init__(self, session: Any, seats: list[Any] | None = None) -> None:
        view = session.view
        if view is None:
            raise ValueError("the match has not started: the session has no view yet")
        self.session = session
        self.seat = session.my_seat
        state = view.state
        infos = {i.seat: i for i in (seats if seats is not None else session.lobby)}
        table = []
        for s in range(1, state.players + 1):
            info = infos.get(s)
            if info is None:  # (a resumed joiner learns the seats from the host's next lobby message)
                table.append(Seat(_("Player {n}").format(n=s), None if s == self.seat else "lan-person"))
            else:
                table.append(Seat(seat_name(info), None if s == self.seat else plate_level(info)))
        super().__init__(TableConfig(table, teams=state.teams))
        self.state = State(state.players, state.teams)
        self.chance_seed = 0  # chance comes from the joint coin, never from here

    def sync(self, new: State, limit: int = MAX_ANIMATED) -> list[Beat]:
        """Follow the session's newer view ``new``. Returns the beats of the actions since our
        :attr:`state` (none if it was rebuilt at the same ply, e.g. the true state after a
        round's check, or after a gap of more than ``limit`` actions)."""
        old = self.state
        gap = new.ply - old.ply
        if gap <= 0 or gap > limit:
            self.state = new
            return []
        states = [new]
        cur = new.copy()
        try:
            for _i in range(gap):
                cur.pop()
                states.append(cur.copy())
        except IndexError:  # a view without its history: jump
            self.state = new
            return []
        states.reverse()
        beats: list[Beat] = []
        for i in range(gap):
            beats += self._beats(states[i], new.history[old.ply + i], states[i + 1])
        self.state = new
        return beats

    def decider(self) -> int:
        s = self.state
        return 0 if s.is_chance() or s.is_over() else s.to_act

    def human_to_act(self) -> int:
        """Our seat when the session says it is our decision and our copy is the session's position."""
        if not self.session.my_turn:
            return 0
        view = self.session.view  # (events may have come since the last pump: never act on an old position)
        return self.seat if view is not None and view.state.ply == self.state.ply else 0

    def computer_to_act(self) -> int:
        return 0  # other seats' decisions arrive from the network

    def advance(self) -> list[Beat]:
        return []

    def apply(self, action: Action) -> list[Beat]:
        raise IllegalMoveError("a network match takes decisions through its session")

    def undo_seat(self) -> int:
        return 0


def lan_record_path() -> str | None:
    """A new file for a network match's running record (its checked rounds) and the session's
    journal beside it (``<file>.journal``, which a rejoin with ``rose-king join --record FILE``
    resumes): in ``<data folder>/lan/``, apart from the saved games (a match in progress there
    is no local game to continue). None if the folder cannot be made (the match then keeps none)."""
    from game.saves import default_data_dir
    folder = default_data_dir() / "lan"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return str(folder / f"royals-{uuid.uuid4().hex}.json")


def resumable_record(address: str, port: int, folder: "os.PathLike[str] | str | None" = None) -> str | None:
    """The running record (in ``<data folder>/lan/``, or ``folder``) of our unfinished match at the
    host ``address:port``: the newest whose journal names that host and is not over. Its session
    proves our seat and resumes it (docs/protocol.md, resume; a journal of another match is
    refused by the host, and the join then shows why). None if there is none."""
    import json
    from pathlib import Path

    from game.saves import default_data_dir
    base = Path(folder) if folder is not None else default_data_dir() / "lan"
    found: list[tuple[float, str]] = []
    for journal in base.glob("royals-*.json.journal"):
        try:
            j = json.loads(journal.read_bytes()[:1 << 22])
            if j.get("address") == address and j.get("port") == port and not j.get("over"):
                found.append((journal.stat().st_mtime, str(journal)[:-len(".journal")]))
        except (OSError, ValueError, AttributeError):
            continue
    return max(found)[1] if found else None


def save_id(record: Any, seat: int) -> str:
    """The saved-games id of our copy of a network match: its LAN game id (``record.extra["lan"]
    ["game"]``, 32 hex digits) and our seat, so every later write of the same match (stopped,
    then left; rejoined, then finished) replaces the earlier one, and two seats of one match on
    one machine keep a file each. A record without a readable game id gets a fresh id."""
    lan = getattr(record, "extra", {}).get("lan") if record is not None else None
    game = lan.get("game") if isinstance(lan, dict) else None
    if isinstance(game, str) and re.fullmatch(r"[0-9a-f]{32}", game) and 1 <= seat <= 4:
        return f"royals-{game}-{seat}"
    return uuid.uuid4().hex


class LanSave:
    """Our copy of a network match as a save: ``game_id`` (:func:`save_id`) and ``record()``, the
    shape :class:`game.saves.BackgroundAutosaver` takes (``record(state)``; the state is unused:
    the record is the session's)."""

    def __init__(self, game_id: str, record: Any) -> None:
        self.game_id = game_id
        self._record = record

    def record(self, state: Any = None) -> Any:
        return self._record


def lan_save(record: Any, match: LanTableMatch) -> LanSave | None:
    """Our copy of a network match's ``record`` (the rounds every seat checked, docs/protocol.md
    "Records"; finished, or unfinished when the match stopped or we left it) as a save: kind
    ``"lan"`` (the list shows it as a network match that is watched, never played on, here),
    each seat's name and whether it was a computer, under :func:`save_id`
    (docs/royals-record-format.md, "Saved games"). None when there is no record."""
    if record is None:
        return None
    game_id = save_id(record, match.seat)
    levels = [s.level if s.level in LEVELS else None for s in match.config.seats]  # computers' levels
    try:
        names = list(record.players)
        record.extra = {**getattr(record, "extra", {}), "game_id": game_id, "kind": "lan",
                        "seats": [{"name": n, "level": lv} for n, lv in zip(names, levels)]}
    except (TypeError, AttributeError):
        return None
    return LanSave(game_id, record)


def keep_record(record: Any, match: LanTableMatch, store: "SaveStore | None" = None) -> str | None:
    """Write :func:`lan_save` of ``record`` into the saved games now. Returns the path, or None
    when there is no record or the disk refuses (the match itself is unaffected)."""
    from game.saves import shared_store
    save = lan_save(record, match)
    if save is None:
        return None
    try:
        return str((store or shared_store()).write(save.game_id, record.to_json()))
    except (OSError, ValueError):
        return None


# --------------------------------------------------------------------------- the table
class LanTableScene(RoyalsTableScene):
    """The table of a network match: our seat face up at the bottom, the others' actions from
    the session, the connection's state, a dropped player's seat (host: wait, or hand it to a
    computer), a failed check (the seat and the play named) and the record kept at the end."""

    def __init__(self, app: "App", session: Any, on_main_menu: Callable[[], None] | None = None,
                 pending: list | None = None, store: "SaveStore | None" = None, beacon: Any = None) -> None:
        match = LanTableMatch(session)
        self.session = session
        self.store = store
        self.beacon = beacon
        self._pending = list(pending or [])
        self._followed = False  # the first update follows the view whatever the events
        super().__init__(app, match, on_new_game=lambda: None, on_main_menu=on_main_menu or app.go_home,
                         saver=None, advance=False)
        self.match: LanTableMatch = match
        self.buttons = [b for b in self.buttons if b.label not in ("Hint", "Undo")]  # no help against people
        for k, b in enumerate(self.buttons):  # Last trick and Menu where a local table has them
            b.rect.y = 552 + 52 * k
        self.seats: tuple = tuple(session.lobby)
        self.failure = ""  # why the match stopped (a failed check names the seat and the play): see failure
        self.saved: str | None = None     # where the finished match's record was kept
        self.kept: str | None = None      # where the record of a match that stopped (or we left) was kept
        self._saver: Any = None           # a BackgroundAutosaver, from the first save on
        self.record: Any = None
        self.asked: set[int] = set()      # dropped seats the host chose to wait for
        self.dropped: set[int] = set()
        self.level = "easy"
        self.overlay_buttons: list[Button] = []
        self._overlay_for: tuple | None = None
        seat = self.match.seat
        self.say(lambda: _("You sit at seat {n}. Good luck!").format(n=seat))

    # ------------------------------------------------------------------ network -> table
    def pump(self) -> None:
        """Take the session's events (never blocks): follow the actions, the seats, the status."""
        from net.royals_session import Acted, Failed, LobbyChanged, MatchOver, RoundChecked, StatusChanged
        from net.transport import Refused, WriteFailed
        events, self._pending = self._pending + self.session.poll(), []
        acted = False
        for e in events:
            if isinstance(e, Acted):
                acted = True
            elif isinstance(e, LobbyChanged):
                self._seats_changed(tuple(e.seats))
            elif isinstance(e, RoundChecked):
                self.say(lambda r=e.round: _("Round {r} checked: every play was legal.").format(r=r))
                self.keep_unfinished(wait=False)  # the rounds so far, off the frame loop
            elif isinstance(e, MatchOver):
                self.record = e.record
                self.saved = self.keep(e.record)
            elif isinstance(e, Failed):  # the seat at fault by name, where (round, trick), in our language
                who = self.match.name(e.seat) if 1 <= e.seat <= self.match.players else ""
                view = self.session.view
                where = round_and_trick(view.state, e.ply) if view is not None and e.ply else (0, 0)
                self.failure = partial(stop_text, e.code, who, *where)
                self.keep_unfinished()  # the match so far, in the saved games at once
            elif isinstance(e, StatusChanged):
                if e.status in ("failed", "closed") and not self.failure and self.record is None:
                    self.failure = partial(stop_text, "")
            elif isinstance(e, Refused):  # in our language; the English reason is for logs
                self.say(partial(refused_text, e.action, e.reason, e.code, self.match.name))
            elif isinstance(e, WriteFailed):  # the system's reason in the player's language, worded when drawn
                self.say(lambda reason=e.reason: _("The record could not be written: {reason}").format(
                    reason=os_error_text(reason)))
        if not events and self._followed:
            return  # nothing new: no copy of the view this frame
        first, self._followed = not self._followed, True
        view = self.session.view
        if view is not None and (acted or view.state.ply != self.match.state.ply):
            idle = self.idle()
            beats = self.match.sync(view.state, FIRST_ANIMATED if first else MAX_ANIMATED)
            if beats:
                self._queue_beats(beats)
            elif idle:
                self.view = View.of(self.state, self.view)

    def _seats_changed(self, seats: tuple) -> None:
        self.seats = seats
        for info in seats:  # names and kinds (a resumed joiner's table learns them here)
            if 1 <= info.seat <= len(self.match.config.seats) and info.kind != "open":
                level = None if info.seat == self.match.seat else plate_level(info)
                self.match.config.seats[info.seat - 1] = Seat(seat_name(info), level)
        for info in seats:
            if info.kind == "person" and not info.connected:
                if self.record is not None or self.session.status == "over" or self.state.is_over():
                    continue  # leaving after the match's end is no drop
                if info.seat not in self.dropped:
                    self.dropped.add(info.seat)
                    self.say(lambda name=info.name or self.match.name(info.seat):
                             _("{name} lost the connection.").format(name=name))
            elif info.seat in self.dropped:
                self.dropped.discard(info.seat)
                self.asked.discard(info.seat)
                if info.kind == "computer":
                    self.say(lambda name=self.match.name(info.seat): _("A computer plays {name}'s seat now.").format(
                        name=name))
                else:
                    self.say(lambda name=info.name or self.match.name(info.seat): _("{name} is back.").format(
                        name=name))

    def update(self, dt: float) -> None:
        self.pump()
        if self.modal == "round" and self.modal_time > ROUND_TABLE_SECONDS:
            self.close_modal()
        super().update(dt)
        self._layout_overlay()

    def _start_anim(self, a) -> None:
        """Another seat's cards are placeholders: the card it plays (or loses to a Thief) is taken
        from its face-down hand here, whichever placeholder stood for it."""
        b = a.beat
        for seat, kind in ((b.seat, "play"), (b.target, "steal")):
            if b.kind == kind and seat and seat != self.match.seat and b.card is not None:
                hand = self.view.hands[seat - 1]
                if b.card not in hand and hand:
                    hand[-1] = b.card
        super()._start_anim(a)

    def speed(self) -> float:
        """The animation speed, but instant while far behind the session (a resume's catch-up
        arrives as many actions at once): the table shows the present, not a replay."""
        return 0.0 if len(self.queue) > CATCH_UP_BEATS else super().speed()

    # ------------------------------------------------------------------ our decisions
    def act(self, action: Action) -> bool:
        """Hand our decision to the session; it comes back as an action and is animated then."""
        if not self.my_turn():
            return False
        try:
            self.session.play(action)
        except IllegalMoveError as e:
            self.say(partial(self.explain, str(e).split(": ", 1)[-1]))
            return False
        self.selected.clear()
        self.steal_target = 0
        self.focus = 0
        self.hint_text = ""
        return True

    # ------------------------------------------------------------------ the host's choices
    def waiting_for(self) -> list[int]:
        """Dropped seats nobody has decided about yet (the host is asked about the first)."""
        return sorted(s for s in self.dropped if s not in self.asked)

    def wait_for(self, seat: int) -> None:
        self.asked.add(seat)

    def hand_over(self, seat: int) -> None:
        """Host: a computer of :attr:`level` plays the dropped ``seat`` from now on."""
        try:
            self.session.hand_to_computer(seat, self.level)
        except ValueError as e:
            self.say(partial(refused_text, "computer", str(e), name=self.match.name))
            return
        self.asked.add(seat)

    def cycle_level(self) -> None:
        self.level = LEVELS[(LEVELS.index(self.level) + 1) % len(LEVELS)] if self.level in LEVELS else "easy"

    def _layout_overlay(self) -> None:
        """The buttons of what covers the table now: a stopped match, a lost connection, a dropped seat."""
        kind = self.overlay()
        if kind == self._overlay_for:
            return
        self._overlay_for = kind
        cx, y = CANVAS[0] // 2 - 40, TRICK_BOX.bottom - 70
        if kind is None:
            self.overlay_buttons = []
        elif kind[0] in ("failed", "waiting"):
            self.overlay_buttons = [Button((cx - 130, y, 260, 52), N_("Main menu"), self.leave, size=26)]
        elif kind[0] == "dropped":
            seat = kind[1]
            self.overlay_buttons = [
                Button((cx - 330, y, 200, 52), N_("Wait"), lambda: self.wait_for(seat), size=24),
                Button((cx - 120, y, 240, 52), lambda: _("Computer: {level}").format(
                    level=_(LEVEL_WORDS.get(self.level, self.level))), self.cycle_level, size=24),
                Button((cx + 130, y, 200, 52), N_("Hand over"), lambda: self.hand_over(seat), size=24)]
        else:
            self.overlay_buttons = []

    failure = Worded(
        'Why the match stopped (a failed check names the seat and the play), worded now in the '
        'current language ("" while it goes on): the table keeps a function that words it '
        "(``game.i18n.Text``), so the stopped table's panel follows a language change at once.")

    def overlay(self) -> tuple | None:
        """What covers the table: ``("failed",)``, ``("waiting",)`` (the connection is down), ``("dropped",
        seat)`` (host: a player's connection dropped), or None."""
        if self.failure and self.record is None:
            return ("failed",)
        if self.session.status in WAITING and self.record is None:
            return ("waiting",)
        if self.session.my_seat == 1 and self.waiting_for() and self.record is None and not self.modal:
            return ("dropped", self.waiting_for()[0])
        return None

    def leave(self) -> None:
        self.on_main_menu()

    # ------------------------------------------------------------------ scene
    def look(self) -> tuple:
        return super().look() + (self.session.status, self.session.status_text, self.failure, self.saved, self.kept,
                                 tuple(sorted(self.dropped)), tuple(sorted(self.asked)), self.level,
                                 self.match.human_to_act())

    def my_turn(self) -> int:
        """Our seat while we may decide: never under a panel (a stopped match, a lost connection,
        the host's question about a dropped seat)."""
        return 0 if self.overlay() is not None else super().my_turn()

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.overlay_buttons:
            if event.type == pygame.MOUSEMOTION:
                self.mouse = event.pos
            if handle_buttons(self.overlay_buttons, event):
                return
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.pause()
                return
            if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
                return  # the table waits under the panel
        super().handle_event(event)

    def open_modal(self, kind: str, beat: Beat) -> None:
        super().open_modal(kind, beat)
        if kind == "over":  # a network match has no rematch here: the host opens a new table
            self.modal_buttons = self.modal_button_row([(N_("Main menu"), self.leave, pygame.K_m)])

    def pause(self) -> None:
        """Esc / Menu: nothing pauses at a network table; the menu can leave it."""
        self.app.push(PauseMenu(self.app, self.leave, self.unsaved_game, title=N_("Menu"), on_update=self.update,
                                question=self.quit_question()))

    def unsaved_game(self) -> bool:
        return self.record is None and not self.failure and self.state.ply > 0

    def quit_question(self) -> str | None:
        return N_("Leave the network match? The other players cannot go on without you.") \
            if self.unsaved_game() else None

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        super().draw(surface, alpha)
        kind = self.overlay()
        if kind is not None:
            self._draw_overlay(surface, kind)
        elif self.dropped and self.record is None and not self.modal:
            names = ", ".join(self.match.name(s) for s in sorted(self.dropped))
            self.banner(surface, _("Waiting for {names} to come back…").format(names=names))

    def prompt_text(self) -> str:
        """Our decision's prompt, or whom the table waits for."""
        if self.my_turn() or not self.idle() or self.modal:
            return super().prompt_text()
        d = self.match.decider()
        if not d or d == self.match.seat or self.state.is_over():
            return ""
        name = self.match.name(d)
        level = self.match.config.seats[d - 1].level
        return _("{name} is thinking…").format(name=name) if level and not level.startswith("lan-") or \
            level == "lan-computer" else _("Waiting for {name}…").format(name=name)

    def _draw_bottom_hand(self, surface: pygame.Surface, seat: int, hand: list) -> None:
        """As at a local table; while other seats choose their hands, our dealt cards show (ours to see)."""
        if seat == self.match.seat and not hand and self.state.phase is Phase.KEEP and not self.my_turn():
            dealt = list(self.state.observation(seat).dealt)
            if dealt:
                ra = royals_art(self.app)
                self.drawn_face_up.add(seat)
                for card, r in zip(dealt, self.keep_slots(len(dealt))):
                    surface.blit(ra.face(card), r)
                return
        super()._draw_bottom_hand(surface, seat, hand)

    def _draw_overlay(self, surface: pygame.Surface, kind: tuple) -> None:
        art = self.app.art
        box = TRICK_BOX
        surface.blit(panel(box.size, 245), box)
        pygame.draw.rect(surface, (210, 70, 60), box, 3, border_radius=14)
        if kind[0] == "failed":
            title, text = _("The match was stopped"), self.failure
        elif kind[0] == "waiting":
            title, text = _("Connection interrupted"), self.session.status_text
        else:
            name = self.match.name(kind[1])
            title = _("{name} lost the connection").format(name=name)
            text = _("Wait for {name} to come back, or let a computer play the seat from now on.").format(name=name)
        t = art.text(title, 34, GOLD, shadow=True)
        surface.blit(t, t.get_rect(midtop=(box.centerx, box.y + 18)))
        s = art.text(text, 24, CREAM, shadow=True, wrap=box.w - 48)
        surface.blit(s, s.get_rect(midtop=(box.centerx, box.y + 68)))
        if kind[0] == "failed" and self.kept:
            note = art.text(elide(art.font(20), _("The match so far is kept in the saved games."), box.w - 48), 20,
                            GOLD, shadow=True)
            surface.blit(note, note.get_rect(midbottom=(box.centerx, box.bottom - 80)))
        for b in self.overlay_buttons:
            b.draw(surface, art)

    def modal_notes(self) -> list[tuple[str, int]]:
        """The result also says whether the record is kept, and shows the match check code (its line
        is kept empty until the record comes, so the buttons under the panel never move)."""
        notes = super().modal_notes()
        if self.modal == "over":
            line = _("The record is kept in the saved games.") if self.saved else (
                _("Waiting for the record…") if self.record is None else _("The record could not be kept."))
            code = check_code(self.record)
            # TRANSLATORS: the match fingerprint (docs/protocol.md); players compare it by eye
            notes += [(line, 22), (_("Match check code {code}: the same on every player's screen.").format(
                code=code) if code else "", 20)]
        return notes

    def keep(self, record: Any, wait: bool = True) -> str | None:
        """Hand :func:`lan_save` of ``record`` to this table's autosaver (a worker thread: the two
        fsyncs of a save never stall the frame loop; saves of one match replace each other in
        order). ``wait``: until it is on disk (the rare moments the table stands still: the
        match's end or stop, leaving). Returns the save's path, or None when there is no record
        or (``wait``) the disk refused."""
        save = lan_save(record, self.match)
        if save is None:
            return None
        from game.saves import BackgroundAutosaver, shared_store
        if self._saver is None:
            self._saver = BackgroundAutosaver(self.store or shared_store())
        self._saver.submit(None, save)  # type: ignore[arg-type]
        if wait and not (self._saver.flush(SAVE_WAIT) and self._saver.error is None):
            return None
        return str(self._saver.store.path_for(save.game_id))

    def keep_unfinished(self, wait: bool = True) -> None:
        """Keep the session's record of a match that has not reached its end in the saved games,
        to watch up to its last checked round: after each checked round (so a crash loses at
        most the round in play), at once when it stops for all, and when we leave it. A
        finished match's record, once kept, stays as it is."""
        if self.record is None or self.saved is None:
            record = getattr(self.session, "record", None)
            if record is not None:
                kept = self.keep(record, wait)
                if wait:
                    self.kept = kept

    def close(self) -> None:
        super().close()
        if self.beacon is not None:
            self.beacon.stop()
            self.beacon = None
        self.session.close()  # its last word sent: a host's record now ends "left"
        self.keep_unfinished()
        if self._saver is not None:
            self._saver.close(SAVE_WAIT)


def check_code(record: Any) -> str | None:
    """The match fingerprint of a finished network match's record (``record.extra["lan"]
    ["fingerprint"]``, 16 hex digits; docs/protocol.md, "Royals & Riots") in groups of four, or
    None. Every honest peer shows the same code: a host that told two joiners two stories is
    caught when the players compare it."""
    lan = getattr(record, "extra", {}).get("lan") if record is not None else None
    fp = lan.get("fingerprint") if isinstance(lan, dict) else None
    if not isinstance(fp, str) or not fp:
        return None
    return " ".join(fp[i:i + 4] for i in range(0, len(fp), 4))


#: Where the connection and seat panels sit: over the trick.
TRICK_BOX = pygame.Rect(CANVAS[0] // 2 - 40 - 360, 200, 720, 250)


# --------------------------------------------------------------------------- before the match
#: The host set-up's error line: its colour, and its distance (px) from the buttons above and below
#: (more than a button's drop shadow).
ERROR_COLOUR = (255, 180, 160)
ERROR_GAP = 16


class RoyalsHostSetup(ButtonScene):
    """"Host a game" of Royals & Riots: the table's seats (2-4; seat 1 is ours; each other seat
    open for a person at another machine or a computer of a level), teams for 4, then
    "Open the table" starts listening and shows the :class:`RoyalsLobby`."""

    def __init__(self, app: "App", name: str | None = None, port: int = DEFAULT_PORT, bind: str | None = None,
                 beacon_address: str | None = None, store: "SaveStore | None" = None,
                 session_factory: Callable[..., Any] | None = None) -> None:
        super().__init__(app)
        self.name = name or settings_name(app, _("Host"))
        self.port, self.bind = port, MENU_BIND if bind is None else bind
        self.beacon_address = beacon_address
        self.store = store
        self.session_factory = session_factory
        self.clock = 0.0
        self.count = 3
        self.kinds: list[str | None] = [None, None, None, None]  # None: open for a person, else a level
        self.teams = False
        self.error = ""
        self.rect = pygame.Rect(CANVAS[0] // 2 - 400, 222, 800, 560)  # as the local set-up's
        r = self.rect
        self.buttons = [Button((r.x + 170 + i * 90, r.y + 40, 80, 48), str(n), lambda n=n: self.set_count(n),
                               key=getattr(pygame, f"K_{n}"), selected=lambda n=n: self.count == n, size=28)
                        for i, n in enumerate((2, 3, 4))]
        self.seat_buttons = [Button((r.x + 340, r.y + 120 + 56 * i, 420, 44), lambda i=i: self.kind_label(i),
                                    lambda i=i: self.cycle(i), size=24, enabled=lambda i=i: 0 < i < self.count)
                             for i in range(4)]
        self.buttons += self.seat_buttons[1:]
        self.field = TextInput((r.x + 340, r.y + 120, 420, 44), self.name, max_len=MAX_NAME_LENGTH, size=24)
        y = r.y + 120 + 56 * 4 + 14
        self.teams_button = Button((r.x + 170, y, 300, 46), lambda: _("Teams: 1 + 3 against 2 + 4") if self.teams
                                   else _("Teams: off"), self.toggle_teams, size=24, enabled=lambda: self.count == 4,
                                   selected=lambda: self.teams and self.count == 4)
        self.buttons.append(self.teams_button)
        self.buttons += [Button((r.x + 40, r.bottom - 74, 240, 54), N_("Back"), self.back, size=28),
                         Button((r.right - 320, r.bottom - 74, 280, 54), N_("Open the table"), self.open_table,
                                key=pygame.K_RETURN, size=28)]

    def kind_label(self, i: int) -> str:
        k = self.kinds[i]
        return _("Open: a player joins") if k is None else _("Computer · {level}").format(level=_(LEVEL_WORDS[k]))

    def set_count(self, n: int) -> None:
        self.count = n
        if n != 4:
            self.teams = False

    def cycle(self, i: int) -> None:
        order: list[str | None] = [None, *LEVELS]
        self.kinds[i] = order[(order.index(self.kinds[i]) + 1) % len(order)]

    def toggle_teams(self) -> None:
        self.teams = not self.teams and self.count == 4

    def computers(self) -> dict[int, str]:
        """Seat -> level of the computer seats chosen."""
        return {i + 1: k for i, k in enumerate(self.kinds[:self.count]) if i and k is not None}

    def back(self) -> None:
        self.app.pop()

    on_escape = back

    def handle_event(self, event: pygame.event.Event) -> None:
        f = self.field
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and f.rect.collidepoint(event.pos):
            f.focus()
            return
        if f.focused and f.handle_event(event):
            return
        if event.type == pygame.MOUSEBUTTONDOWN and f.focused:
            f.blur()
        super().handle_event(event)

    def close(self) -> None:
        self.field.blur(keep=False)

    def open_table(self) -> None:
        """Listen (any free port if the usual one is taken), send the beacon, show the lobby."""
        self.field.blur()
        self.name = self.field.text.strip() or self.name
        factory = self.session_factory
        if factory is None:
            from net.royals_session import RoyalsSession
            factory = RoyalsSession.host
        kw = dict(seats=self.count, computers=self.computers(), bind=self.bind, teams=self.teams and self.count == 4,
                  record=lan_record_path())
        try:
            try:
                session = factory(self.name, port=self.port, **kw)
            except OSError:
                session = factory(self.name, port=0, **kw)
        except (OSError, ValueError) as e:  # (the English detail is not for the screen)
            self.error = table_error_text(e)
            return
        beacon = start_beacon(self.name, session.port, self.beacon_address, game="royals-riots")
        self.app.replace(RoyalsLobby(self.app, session, beacon, store=self.store))

    def update(self, dt: float) -> None:
        self.clock += dt
        self.field.update(dt)

    def at_rest(self) -> bool:
        return self.clock >= TITLE_SETTLE and not self.field.focused  # (a focused field's caret blinks)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        draw_title(surface, self.app, self.clock, y=110)
        r = self.rect
        surface.blit(panel(r.size), r)
        surface.blit(art.text(_("Seats"), 28, GOLD, shadow=True), (r.x + 40, r.y + 50))
        for i in range(self.count):
            label = _("Seat {n}").format(n=i + 1)
            surface.blit(art.text(label, 24, CREAM, shadow=True), (r.x + 40, r.y + 130 + 56 * i))
            if i == 0:
                self.field.draw(surface, art)
                you = art.text(_("(you, the host)"), 20, GOLD, shadow=True)
                surface.blit(you, you.get_rect(midleft=(r.x + 130, r.y + 142)))
        y = r.y + 120 + 56 * 4 + 14
        surface.blit(art.text(_("Teams"), 24, CREAM, shadow=True), (r.x + 40, y + 12))
        for b in self.buttons:
            if b not in self.seat_buttons or b.enabled():
                b.draw(surface, art)
        shown = self.error_layout()
        if shown is not None:
            surface.blit(*shown)

    def error_room(self) -> pygame.Rect:
        """Where the error line may go: under the Teams button and its shadow, above the bottom
        buttons, :data:`ERROR_GAP` px clear of both, inside the panel's margins (canvas px)."""
        r = self.rect
        top = self.teams_button.rect.bottom + ERROR_GAP
        bottom = min(b.rect.top for b in self.buttons[-2:]) - ERROR_GAP
        return pygame.Rect(r.x + 40, top, r.w - 80, bottom - top)

    def error_layout(self) -> tuple[pygame.Surface, pygame.Rect] | None:
        """The error's image and place in :meth:`error_room`: at 22 px, else 20 px (the smallest
        text that stays legible in the smallest window), else cut at the end with "…"."""
        if not self.error:
            return None
        room, art = self.error_room(), self.app.art
        text = self.error
        for size in (22, 20):
            img = art.text(text, size, ERROR_COLOUR, shadow=True, wrap=room.w)
            if img.get_height() <= room.h:
                return img, img.get_rect(topleft=room.topleft)
        lo, hi = 0, len(text)  # the longest prefix that fits with the ellipsis: binary search
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if art.text(text[:mid].rstrip() + "…", 20, ERROR_COLOUR, shadow=True, wrap=room.w).get_height() <= room.h:
                lo = mid
            else:
                hi = mid - 1
        img = art.text(text[:lo].rstrip() + "…", 20, ERROR_COLOUR, shadow=True, wrap=room.w)
        return img, img.get_rect(topleft=room.topleft)


class RoyalsLobby(LobbyExit, ButtonScene):
    """Waiting for the match, on the host and on each joiner: the seats (who holds each,
    connected or not), the notice that the host's program learns every hand, the host's
    address; the host's "Start" is enabled once every person seat is filled. When the session
    starts playing, the :class:`LanTableScene` takes the session over."""

    def __init__(self, app: "App", session: Any, beacon: Any = None, on_back: Callable[[], None] | None = None,
                 store: "SaveStore | None" = None, retry: Callable[[], Any] | None = None) -> None:
        super().__init__(app)
        self.session: Any = session
        self.retry = retry  # a resumed join the host refuses: a new session for a new match (once)
        self.beacon = beacon
        self.on_back = on_back or app.go_home
        self.store = store
        self.clock = 0.0
        self.still = False
        self.error = ""
        self.connecting_for = 0.0
        self.notice = ""
        self.hosting = session.my_seat == 1 or getattr(session, "role", "") == "host"
        self.addresses = local_addresses(getattr(session, "address", None)) if self.hosting else []
        self.rect = pygame.Rect(CANVAS[0] // 2 - 420, 40, 840, 720)
        r = self.rect
        self.buttons = [Button((r.x + 40, r.bottom - 80, 240, 56), N_("Cancel") if self.hosting else N_("Leave"),
                               self.cancel, size=28)]
        if self.hosting:
            self.buttons.append(Button((r.right - 320, r.bottom - 80, 280, 56), N_("Start the match"), self.start,
                                       key=pygame.K_RETURN, size=28, enabled=lambda: self.session is not None
                                       and self.session.can_start))

    def start(self) -> None:
        if self.session is not None and self.session.can_start:
            try:
                self.session.start()
            except ValueError as e:
                self.error = partial(refused_text, "start", str(e))

    error = Worded(
        'Why the match cannot start, worded now in the current language ("" for none): kept as a '
        'function that words it (``game.i18n.Text``), so the lobby follows a language change at once.')

    notice = Worded(
        'The lobby\'s notice before the status line, in the current language ("" for none).')

    def update(self, dt: float) -> None:
        from net.royals_session import Failed, StatusChanged
        self.clock += dt
        session = self.session
        if session is None:
            return
        self.connecting_for = self.connecting_for + dt if session.status == "connecting" else 0.0
        events = session.poll()
        if self.retry is not None and any(isinstance(e, Failed) for e in events) and session.view is None:
            retry, self.retry = self.retry, None
            session.close()
            try:
                self.session = retry()
            except (OSError, ValueError) as e:
                self.session, self.error = None, partial(join_error_text, e, f"{session.address}:{session.port}")
                return
            self.notice = lambda: _("Your earlier match at this host is over: joining its new table.")
            return
        for i, e in enumerate(events):
            if isinstance(e, Failed):  # its code in our language (a full table, another match...)
                self.error = partial(stop_text, e.code)
            elif isinstance(e, StatusChanged) and e.status in ("failed", "closed") and not self.error:
                # (a failed status follows its Failed event, which set the error; "closed" says no more)
                self.error = (lambda: _("Disconnected")) if e.status == "closed" else e.reason
            if (isinstance(e, StatusChanged) and e.status == "playing") or (
                    session.status == "playing" and session.view is not None and i == len(events) - 1):
                self._start(events[i + 1:])
                return
        if session.status == "playing" and session.view is not None:
            self._start([])

    def _start(self, pending: list) -> None:
        session, beacon = self.session, self.beacon
        self.session = self.beacon = None  # handed over: leaving the lobby must not close them
        self.app.replace(LanTableScene(self.app, session, pending=pending, store=self.store, beacon=beacon))

    def row_texts(self, info: Any, row: pygame.Rect, me: int) -> list[tuple[str, pygame.Surface, pygame.Rect]]:
        """One seat's line in ``row`` as (text, image, where), canvas px: "Seat N", who sits there
        (" (you)" for ``me``; a long name, up to the protocol's 32 characters, cut with "…" so that it
        never runs into the state) and the seat's state at the right."""
        art = self.app.art
        closed = self.closed()
        ink = GREYED if closed else CREAM
        items: list[tuple[str, pygame.Surface, pygame.Rect]] = []
        label = _("Seat {n}").format(n=info.seat)
        img = art.text(label, 22, ink)
        items.append((label, img, img.get_rect(topleft=(row.x + 48, row.y + 14))))
        state = seat_label(info, closed)
        img = art.text(elide(art.font(22), state, row.w // 3), 22, ink)
        items.append((state, img, img.get_rect(midright=(row.right - 20, row.centery))))
        room = items[-1][2].left - 16 - (row.x + 150) - 3  # (the shadow)
        font = art.font(26)
        name = seat_name(info) if info.kind != "open" else "—"
        text = _("{name} (you)").format(name=name) if info.seat == me else name
        if font.size(text)[0] > room:  # cut the name, keep " (you)"
            cut = elide(font, name, room - (font.size(text)[0] - font.size(name)[0]))
            text = _("{name} (you)").format(name=cut) if info.seat == me else cut
        img = art.text(text, 26, ink if closed else GOLD if info.seat == me else CREAM, shadow=True)
        items.append((text, img, img.get_rect(topleft=(row.x + 150, row.y + 11))))
        return items

    def closed(self) -> bool:
        """The session has failed or closed: the seats are shown as they were, greyed, and none
        reads as connected or waited for (the error line says why)."""
        return self.session is not None and self.session.status in ("failed", "closed")

    def seat_dot(self, info: Any) -> tuple[int, int, int]:
        """The colour of a seat's dot: green for a connected seat, red for an open or lost one,
        grey for every seat once the session has failed or closed."""
        if self.closed():
            return GREYED_DOT
        return (90, 200, 120) if info.connected and info.kind != "open" else (200, 90, 70)

    def nobody_answers(self) -> str | None:
        """After :data:`NOBODY_SECONDS` of knocking in vain: say so (the session keeps trying)."""
        s = self.session
        if s is None or self.hosting or self.connecting_for < NOBODY_SECONDS:
            return None
        return _("Nobody answers at {address}. Is a game hosted there? Still trying ({seconds} s)…").format(
            address=f"{getattr(s, 'address', '?')}:{getattr(s, 'port', '?')}", seconds=int(self.connecting_for))

    def at_rest(self) -> bool:
        """Still between changes: the seats, the status, the error, and the waiting dots' step
        (twice a second) are compared with the last frame's (the network is polled every update)."""
        s = self.session
        look = (int(self.clock * 2), self.error, self.notice, None if s is None else (
            tuple(s.lobby), s.status, s.status_text, s.can_start, self.nobody_answers()))
        if look != getattr(self, "_look", None):
            self._look = look
            return False
        return True

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        surface.blit(art.table, (0, 0))
        r = self.rect
        surface.blit(panel(r.size), r)
        s = self.session
        title = _("Hosting Royals & Riots") if self.hosting else _("Joining Royals & Riots")
        t = art.text(title, 40, GOLD, shadow=True)
        surface.blit(t, t.get_rect(midtop=(r.centerx, r.y + 20)))
        y = r.y + 80
        if s is None:
            return
        if self.hosting:
            line = art.text(_("Players join at this address:") + "  " + "   ".join(
                f"{a}:{s.port}" for a in self.addresses[:2]), 26, GOLD, shadow=True, wrap=r.w - 60)
            surface.blit(line, line.get_rect(midtop=(r.centerx, y)))
            y += line.get_height() + 14
        me = s.my_seat
        teams = bool(getattr(s, "teams", False)) and len(s.lobby) == 4
        if teams:
            line = art.text(_("Teams: 1 + 3 against 2 + 4"), 24, CREAM, shadow=True)
            surface.blit(line, line.get_rect(midtop=(r.centerx, y)))
            y += line.get_height() + 10
        for info in s.lobby:
            row = pygame.Rect(r.x + 60, y, r.w - 120, 52)
            surface.blit(panel(row.size, 150, radius=10), row)
            pygame.draw.circle(surface, self.seat_dot(info), (row.x + 26, row.centery), 9)
            if teams:
                pygame.draw.rect(surface, TEAM_COLOURS[team_of(info.seat)], row.inflate(-4, -4), 3, border_radius=10)
            for _text, img, where in self.row_texts(info, row, me):
                surface.blit(img, where)
            y += 60
        y += 8
        nobody = self.nobody_answers()
        dots = "." * (1 + int(self.clock * 2) % 3)
        if nobody:
            status = nobody
        elif self.hosting and s.status == "lobby":
            status = _("Ready: start when you like.") if s.can_start else _("Waiting for players") + dots
        elif s.status == "lobby":
            status = _("Seated. Waiting for the host to start the match") + dots
        elif s.status == "failed" and self.error:
            status = ""  # the error below says why
        else:
            status = s.status_text + (dots if s.status not in ("failed", "closed") else "")
        if self.notice:
            status = f"{self.notice} {status}"
        if status:
            st = art.text(status, 26, CREAM, shadow=True, wrap=r.w - 80)
            surface.blit(st, st.get_rect(midtop=(r.centerx, y)))
            y += st.get_height() + 12
        if self.error:
            e = art.text(_("The match cannot start: {reason}").format(reason=self.error), 24, (255, 180, 160),
                         shadow=True, wrap=r.w - 80)
            surface.blit(e, e.get_rect(midtop=(r.centerx, y)))
        notice = art.text(_(HOST_NOTICE), 21, (215, 205, 175), shadow=True, wrap=r.w - 100)
        surface.blit(notice, notice.get_rect(midbottom=(r.centerx, r.bottom - 96)))
        self.draw_buttons(surface)


class RoyalsJoinScene(SharedJoinScene):
    """"Join a game" from Royals & Riots' tab: the host's hello says which game it hosts
    (read in the background by :func:`net.royals_session.probe_host`); a Royals & Riots host
    gets a :class:`RoyalsLobby`, a Rose King host Rose King's waiting screen (through its
    :class:`~game.client.games.ClientGame`). Nobody there yet: the Royals session keeps trying."""

    def __init__(self, app: "App", **kw: Any) -> None:
        super().__init__(app, **kw)
        self.probing: tuple[str, int] | None = None
        self._probe: dict = {}

    def make_listener(self):
        from net.discovery import BeaconListener
        return BeaconListener(ignore=own_beacons)

    def join(self, host: str, port: int) -> None:
        """Read the host's hello in the background, then open the session of its game."""
        if self.probing is not None:
            return
        from net.royals_session import probe_host
        self.probing = (host, port)
        result = self._probe = {}

        def probe() -> None:
            try:
                result["found"] = probe_host(host, port, timeout=NOBODY_SECONDS)
            except (OSError, ValueError) as e:
                result["error"] = e

        threading.Thread(target=probe, name="royals-probe", daemon=True).start()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.probing is None or not self._probe:
            return
        host, port = self.probing
        result, self.probing, self._probe = self._probe, None, {}
        if "found" in result:
            game, sock, data = result["found"]
            self.open_session(game, host, port, (sock, data))
        elif isinstance(result.get("error"), ValueError):  # the host's bytes: worded, never shown
            self.error = join_error_text(result["error"], f"{host}:{port}")
        else:  # nobody answers yet: the Royals session keeps knocking and its lobby says so
            self.open_session("royals-riots", host, port, None)

    def open_session(self, game: str, host: str, port: int, connected: tuple | None) -> None:
        """Open ``game``'s session to ``host:port`` on the connection already made, and its waiting screen."""
        if game != "royals-riots":
            opener = JOIN_OPENERS.get(game)
            if opener is None:
                self.error = _("That host plays another game.")
                return
            opener(self.app, self.name, host, port, connected, self.store)
            return
        open_royals_join(self.app, self.name, host, port, connected, self.store)

    def draw_title(self, surface: pygame.Surface, clock: float, y: int) -> None:
        draw_title(surface, self.app, clock, y=y)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        super().draw(surface, alpha)
        if self.probing is not None:
            t = self.app.art.text(_("Asking {address} which game it hosts…").format(
                address=f"{self.probing[0]}:{self.probing[1]}"), 24, CREAM, shadow=True)
            surface.blit(t, t.get_rect(midbottom=(CANVAS[0] // 2, self.field.rect.y - 44)))


def open_royals_join(app: "App", name: str, host: str, port: int, connected: Any, store: Any = None) -> None:
    """Join the Royals & Riots host at ``host:port`` (on the connection ``connected`` a probe
    opened, or a new one) and push the lobby. An unfinished match of ours at that host (its
    journal in ``<data>/lan/``) is resumed; if the host no longer holds it (a new match there),
    that journal is moved aside and the join starts afresh. A problem shows on the top
    screen's ``error``."""
    from net.royals_session import RoyalsSession
    resumed = resumable_record(host, port)

    def fresh() -> Any:
        if resumed is not None:
            try:
                os.replace(resumed + ".journal", resumed + ".journal.old")
            except OSError:
                pass
        return RoyalsSession.join(name, host, port, record=lan_record_path())
    try:
        session = RoyalsSession.join(name, host, port, connected=connected, record=resumed or lan_record_path())
    except (OSError, ValueError) as e:
        top = app.top
        if top is not None and hasattr(top, "error"):
            top.error = join_error_text(e, f"{host}:{port}")
        return
    app.push(RoyalsLobby(app, session, on_back=app.pop, store=store, retry=fresh if resumed else None))


def lan_menu_buttons(app: "App", x: int, w: int) -> list[Button]:
    """Royals & Riots' "Host a game" and "Join a game" for the main menu."""
    return [Button((x, 0, w, 64), N_("Host a game"), lambda: app.push(RoyalsHostSetup(app)), key=pygame.K_4,
                   size=32),
            Button((x, 0, w, 64), N_("Join a game"), lambda: app.push(RoyalsJoinScene(app)), key=pygame.K_5,
                   size=32)]


# --------------------------------------------------------------------------- rose-king host / join
def computer_seats(seats: int, levels: list[str]) -> dict[int, str]:
    """``--computer LEVEL`` options to seats: each takes the highest free seat (as the command line's)."""
    return {seats - i: level for i, level in enumerate(levels[:seats - 1])}


def run_lan(args: argparse.Namespace, open_window: "Callable[[], App]") -> int:
    """``rose-king host|join --game royals-riots`` with a window: open it at the lobby and play.

    ``args``: :mod:`game.commands.host` / :mod:`game.commands.join` options (``name``, ``port``;
    host: ``seats``, ``computer``, ``teams``, ``bind``; join: ``address``, ``connected``, the
    connection the command's probe opened). ``--record FILE`` is the session's record and journal.
    Returns the exit status (1 if the window or the port cannot be opened)."""
    from net.royals_session import RoyalsSession
    joining = "target" in vars(args)
    try:
        app = open_window()
    except pygame.error as e:
        print(_("rose-king: cannot open the game window: {error}").format(error=e), file=sys.stderr)
        return 1
    name = args.name or settings_name(app, _("Guest") if joining else _("Host"))
    try:
        if joining:
            session = RoyalsSession.join(name, args.address, args.port, record=args.record,
                                         connected=getattr(args, "connected", None))
        else:
            seats = args.seats or 4
            session = RoyalsSession.host(name, seats=seats, computers=computer_seats(seats, args.computer or []),
                                         port=args.port, bind=args.bind, record=args.record,
                                         teams=bool(args.teams))
    except (OSError, ValueError) as e:
        print(f"rose-king: {e}", file=sys.stderr)
        pygame.quit()
        return 1
    beacon = None if joining else start_beacon(name, session.port, getattr(args, "beacon_address", None),
                                                game="royals-riots")
    app.push(RoyalsLobby(app, session, beacon))
    return app.run()


__all__ = ["LanSave", "LanTableMatch", "LanTableScene", "RoyalsHostSetup", "RoyalsLobby", "RoyalsJoinScene", "keep_record",
           "lan_menu_buttons", "lan_save", "run_lan"]
