"""Royals & Riots over the LAN in the window, on the one LAN layer (issues 33, 34): the host
chooses its table, the shell's waiting screens seat the players, and the network table plays
the match of :class:`game.royals.lan.match.FairMatch` (no trusted dealer: nobody's program sees a card
its player could not see; docs/protocol.md, "Royals & Riots with no trusted dealer").

- :class:`RoyalsHostSetup`: the host chooses the table (2-4 seats, teams for 4, each other seat
  open for a person or a computer of a level) and opens it with
  :func:`game.client.lan.lobby.host_table`; the shell's waiting screen takes it from there.
- :data:`LAN`: the game's :class:`game.client.lan.LanClient` (its network table, and the lines
  its waiting screen shows: the teams, what nobody learns).
- :class:`LanTableMatch` / :class:`LanTableScene`: the table of :mod:`game.client.royals.scene`,
  where only this machine's seat is face up and played by mouse or keys; the table follows our
  seat's view in the session's match machine (read under its lock once something changed),
  so every action animates exactly as in a local match. Our decisions go to
  :meth:`net.session.Session.act`; a refused one is worded from its reason code.
"""

from __future__ import annotations

import argparse
import re
import uuid
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

import pygame

from game.fsutil import os_error_text
from game.i18n import N_, Worded, _
from game.errors import Reason
from game.royals.engine import Action, IllegalMoveError, Phase, State
from game.royals.phrases import stop_text, table_error_text
from game.settings import MAX_NAME_LENGTH
from net import DEFAULT_PORT

from ..dialogs import PauseMenu
from ..lan import LanClient, NetMatch
from ..lan_common import MENU_BIND, settings_name
from ..textinput import TextInput
from ..theme import CANVAS, CREAM, GOLD
from ..widgets import Button, ButtonScene, elide, handle_buttons, panel
from .anims import View
from .art import royals_art
from .scene import LEVEL_WORDS, RoyalsTableScene
from .setup import TITLE_SETTLE, draw_title
from .table import LEVELS, Beat, Seat, TableConfig, TableMatch

if TYPE_CHECKING:
    from game.saves import SaveStore

    from ..app import App

KEY = "royals-riots"
#: What every waiting screen says of the table (issue 34: nobody deals).
FAIR_NOTICE = N_("Nobody deals: every machine shuffles the cards in turn, so no program sees a card its "
                 "player could not see. A computer seat is played by the host's program, which sees its cards.")
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
SEAT_WORDS = {"host": N_("Host"), "person": N_("Network"), "computer": N_("Computer")}
LEVEL_WORDS.update({"lan-host": SEAT_WORDS["host"], "lan-person": SEAT_WORDS["person"],
                    "lan-computer": SEAT_WORDS["computer"]})
#: Seconds the table waits at most for a save of the match to reach the disk (its end, a stop, leaving).
SAVE_WAIT = 5.0
#: Session statuses at which the table waits for the connection.
WAITING = ("connecting", "interrupted")


# --------------------------------------------------------------------------- words
def match_code_text(code: str) -> str:
    # TRANSLATORS: the match code from every player's signing key (docs/protocol.md); players compare it aloud
    return _("Match code {code}: the same on every player's screen.").format(code=code) if code else ""


# --------------------------------------------------------------------------- the match
class LanTableMatch(TableMatch):
    """A :class:`TableMatch` that follows our seat's view in a :class:`net.session.Session`'s
    :class:`~game.royals.lan.match.FairMatch`.

    :attr:`state` is this table's copy of the seat's view (only :attr:`seat`'s own cards are
    real). :meth:`refresh` reads the machine once something changed (a cheap probe first, under
    the session's lock) and :meth:`sync` turns a newer view into the :class:`Beat` list of the
    actions between the two. Decisions are never pushed here: :meth:`apply` refuses, the scene
    hands them to the session."""

    def __init__(self, net: NetMatch) -> None:
        self.session = net.session
        table = net.started.table
        self.seat = net.seat + 1
        seats = []
        for s, name in enumerate(table.names):
            if s == net.seat:
                level = None
            elif s in table.computers:
                level = "lan-computer"
            else:
                level = "lan-host" if s == 0 else "lan-person"
            seats.append(Seat(name or _("Player {n}").format(n=s + 1), level))
        teams = bool(table.options.get("teams", False)) if table.options else False
        super().__init__(TableConfig(seats, teams=teams))
        self.state = State(len(seats), teams)
        self.chance_seed = 0  # chance comes from the joint shuffle, never from here
        self._probe: tuple | None = None
        self._turn = False
        self.code = ""

    def refresh(self) -> State | None:
        """The seat's view when it changed since the last call (a copy), else None; updates
        whether it is our decision (:meth:`human_to_act`) and the match code."""
        session = self.session

        def probe(m) -> tuple:
            return (m.view.ply, m.accepted, m.round, m.over is not None, session.catching_up)
        p = session.view(probe)
        if p is None or p == self._probe:
            return None
        self._probe = p

        def read(m) -> tuple:
            return (m.view.state.copy(), m.turn_for(m.seat) is not None and not session.catching_up, m.code())
        got = session.view(read)
        if got is None:
            return None
        state, self._turn, self.code = got
        return state

    def sync(self, new: State, limit: int = MAX_ANIMATED) -> list[Beat]:
        """Follow the newer view ``new``. Returns the beats of the actions since our
        :attr:`state` (none if it was rebuilt at the same ply, e.g. the true state after a
        round's audit, or after a gap of more than ``limit`` actions)."""
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
        """Our seat when the machine says we must decide now on a view that applied everything
        owed to us (``turn_for``) and our copy is at that view."""
        return self.seat if self._turn and self.state.to_act == self.seat else 0

    def computer_to_act(self) -> int:
        return 0  # other seats' decisions arrive from the network

    def advance(self) -> list[Beat]:
        return []

    def apply(self, action: Action) -> list[Beat]:
        raise IllegalMoveError(Reason("", "a network match takes decisions through its session"))

    def undo_seat(self) -> int:
        return 0


def lan_record_path() -> str | None:
    """A new file for a network match's running record and the session's journal beside it
    (``<file>.journal``, which ``rose-king host/join --record FILE`` resumes): in ``<data
    folder>/lan/``, apart from the saved games. None if the folder cannot be made (the match
    then keeps none)."""
    from game.saves import default_data_dir
    folder = default_data_dir() / "lan"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return str(folder / f"royals-{uuid.uuid4().hex}.json")


def save_id(record: Any, seat: int) -> str:
    """The saved-games id of our copy of a network match: its LAN game id (``record.extra["lan"]
    ["game"]``, 32 hex digits) and our seat (1-4), so every later write of the same match
    replaces the earlier one, and two seats of one match on one machine keep a file each. A
    record without a readable game id gets a fresh id."""
    lan = getattr(record, "extra", {}).get("lan") if record is not None else None
    game = lan.get("game") if isinstance(lan, dict) else None
    if isinstance(game, str) and re.fullmatch(r"[0-9a-f]{32}", game) and 1 <= seat <= 4:
        return f"royals-{game}-{seat}"
    return uuid.uuid4().hex


class LanSave:
    """Our copy of a network match as a save: ``game_id`` (:func:`save_id`) and ``record()``, the
    shape :class:`game.saves.BackgroundAutosaver` takes (``record(state)``; the state is unused)."""

    def __init__(self, game_id: str, record: Any) -> None:
        self.game_id = game_id
        self._record = record

    def record(self, state: Any = None) -> Any:
        return self._record


def lan_save(record: Any, match: LanTableMatch) -> LanSave | None:
    """Our copy of a network match's ``record`` (a :class:`game.royals.engine.Record` of the
    rounds every seat audited) as a save: kind ``"lan"`` (the list shows it as a network match
    that is watched, never played on, here), each seat's name and whether it was a computer,
    under :func:`save_id` (docs/royals-record-format.md, "Saved games"). None without a record."""
    if record is None:
        return None
    game_id = save_id(record, match.seat)
    levels = [None for _s in match.config.seats]
    try:
        names = list(record.players)
        record.extra = {**getattr(record, "extra", {}), "game_id": game_id, "kind": "lan",
                        "seats": [{"name": n, "level": lv} for n, lv in zip(names, levels)]}
    except (TypeError, AttributeError):
        return None
    return LanSave(game_id, record)


def session_record(session: Any) -> Any:
    """The session's match record as a :class:`game.royals.engine.Record`, or None."""
    from game.royals.engine import Record
    d = session.view(lambda m: m.record())
    if d is None:
        return None
    try:
        return Record.from_dict(d)
    except ValueError:
        return None


# --------------------------------------------------------------------------- the table
class LanTableScene(RoyalsTableScene):
    """The table of a network match: our seat face up at the bottom, the others' actions from
    the session, the connection's state, the match code, a stopped match (the seat at fault
    named) and the record kept in the saved games."""

    def __init__(self, app: "App", net: NetMatch) -> None:
        match = LanTableMatch(net)
        self.net = net
        self.session = net.session
        self.store = net.store
        self._pending = list(net.pending)
        self._followed = False  # the first update follows the view whatever the events
        super().__init__(app, match, on_new_game=lambda: None, on_main_menu=net.on_main_menu,
                         saver=None, advance=False)
        self.match: LanTableMatch = match
        self.buttons = [b for b in self.buttons if b.label not in ("Hint", "Undo")]  # no help against people
        for k, b in enumerate(self.buttons):  # Last trick and Menu where a local table has them
            b.rect.y = 552 + 52 * k
        self.failure = ""
        self.saved: str | None = None     # where the finished match's record was kept
        self.kept: str | None = None      # where the record of a match that stopped (or we left) was kept
        self._saver: Any = None           # a BackgroundAutosaver, from the first save on
        self.record: Any = None
        self.dropped: set[int] = set()
        self.round_seen = 1
        self.overlay_buttons: list[Button] = []
        self._overlay_for: tuple | None = None
        seat = self.match.seat
        self.say(lambda: _("You sit at seat {n}. Good luck!").format(n=seat))

    failure = Worded(
        'Why the match stopped (the seat at fault named), worded now in the current language ("" '
        "while it goes on).")

    # ------------------------------------------------------------------ network -> table
    def pump(self) -> None:
        """Take the session's events and follow our seat's view (never blocks)."""
        from net.session import Dropped, Ended, LobbySeats, Status, WriteFailed
        events, self._pending = self._pending + self.session.poll(), []
        for e in events:
            if isinstance(e, Ended):
                self._ended(e.verdict)
            elif isinstance(e, LobbySeats):
                self._seats_changed(e.rows)
            elif isinstance(e, Dropped):
                if e.fatal and e.by_peer and self.session.verdict is None and not self.failure:
                    self.failure = partial(stop_text, e.code)
            elif isinstance(e, Status):
                if e.code in ("failed", "closed") and not self.failure and self.record is None:
                    self.failure = partial(stop_text, "")
            elif isinstance(e, WriteFailed):  # the system's reason in the player's language, worded when drawn
                self.say(lambda reason=e.reason: _("The record could not be written: {reason}").format(
                    reason=os_error_text(reason)))
        new = self.match.refresh()
        first, self._followed = not self._followed, True
        if new is None and not first:
            return
        if new is not None:
            idle = self.idle()
            if new.round > self.round_seen and not new.is_over():
                self.round_seen = new.round
                self.say(lambda r=new.round - 1: _("Round {r} checked: every card and every play was true.").format(
                    r=r))
                self.keep_unfinished(wait=False)  # the rounds so far, off the frame loop
            beats = self.match.sync(new, FIRST_ANIMATED if first else MAX_ANIMATED)
            if beats:
                self._queue_beats(beats)
            elif idle:
                self.view = View.of(self.state, self.view)

    def _seats_changed(self, rows: tuple) -> None:
        """Host: the lobby's rows (kind, name, connected) during the match: a person seat whose
        connection dropped is waited for (its deadlines run on), and greeted when it is back."""
        if self.record is not None or self.failure:
            return  # leaving after the match's end is no drop
        for s, row in enumerate(rows, 1):
            if row[0] != "person":
                continue
            if not row[2] and s not in self.dropped:
                self.dropped.add(s)
                self.say(lambda name=self.match.name(s): _("{name} lost the connection.").format(name=name))
            elif row[2] and s in self.dropped:
                self.dropped.discard(s)
                self.say(lambda name=self.match.name(s): _("{name} is back.").format(name=name))

    def _ended(self, verdict: Any) -> None:
        if verdict.kind == "finished":
            self.record = session_record(self.session)
            self.saved = self.keep(self.record)
            return
        who = self.match.name(verdict.seat + 1) if 0 <= verdict.seat < self.match.players else ""
        self.failure = partial(stop_text, verdict.kind, who)
        self.keep_unfinished()  # the match so far, in the saved games at once

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
        """Hand our decision to the session; it comes back in our view and is animated then. A
        refusal is worded from its reason code (never from English text)."""
        if not self.my_turn():
            return False
        try:
            self.session.act(action)
        except IllegalMoveError as e:
            self.say(partial(self.explain, e.reason))
            return False
        except ValueError:  # the match moved on meanwhile (a catch-up, the end): nothing was sent
            self.say(partial(self.explain, Reason("", "not now")))
            return False
        self.match._turn = False  # asked again once the machine has it
        self.match._probe = None
        self.selected.clear()
        self.steal_target = 0
        self.focus = 0
        self.hint_text = ""
        return True

    # ------------------------------------------------------------------ panels
    def _layout_overlay(self) -> None:
        kind = self.overlay()
        if kind == self._overlay_for:
            return
        self._overlay_for = kind
        cx, y = CANVAS[0] // 2 - 40, TRICK_BOX.bottom - 70
        self.overlay_buttons = [] if kind is None else [
            Button((cx - 130, y, 260, 52), N_("Main menu"), self.leave, size=26)]

    def overlay(self) -> tuple | None:
        """What covers the table: ``("failed",)``, ``("waiting",)`` (the connection is down), or None."""
        if self.failure and self.record is None:
            return ("failed",)
        if self.session.status in WAITING and self.record is None:
            return ("waiting",)
        return None

    def leave(self) -> None:
        self.on_main_menu()

    # ------------------------------------------------------------------ scene
    def look(self) -> tuple:
        return super().look() + (self.session.status, self.failure, self.saved, self.kept,
                                 tuple(sorted(self.dropped)), self.match.human_to_act(), self.match.code)

    def my_turn(self) -> int:
        """Our seat while we may decide: never under a panel (a stopped match, a lost connection)."""
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
        if self.match.code and not self.modal:  # under the buttons, clear of the hands and the trick
            # TRANSLATORS: the match code from every player's signing key; players compare it aloud
            img = self.app.art.text(_("Match code {code}").format(code=self.match.code), 20, (215, 205, 175),
                                    shadow=True)
            surface.blit(img, img.get_rect(bottomright=(CANVAS[0] - 18, CANVAS[1] - 12)))

    def prompt_text(self) -> str:
        """Our decision's prompt, or whom the table waits for."""
        if self.my_turn() or not self.idle() or self.modal:
            return super().prompt_text()
        d = self.match.decider()
        if not d or d == self.match.seat or self.state.is_over():
            return ""
        name = self.match.name(d)
        level = self.match.config.seats[d - 1].level
        return _("{name} is thinking…").format(name=name) if level == "lan-computer" else \
            _("Waiting for {name}…").format(name=name)

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
        from ..lan.words import status_line
        art = self.app.art
        box = TRICK_BOX
        surface.blit(panel(box.size, 245), box)
        pygame.draw.rect(surface, (210, 70, 60), box, 3, border_radius=14)
        if kind[0] == "failed":
            title, text = _("The match was stopped"), self.failure
        else:
            title, text = _("Connection interrupted"), status_line(self.session)
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
        """The result also says whether the record is kept, and shows the match code (its line is
        kept empty until the record comes, so the buttons under the panel never move)."""
        notes = super().modal_notes()
        if self.modal == "over":
            line = _("The record is kept in the saved games.") if self.saved else (
                _("Waiting for the record…") if self.record is None else _("The record could not be kept."))
            notes += [(line, 22), (match_code_text(self.match.code) if self.record is not None else "", 20)]
        return notes

    def keep(self, record: Any, wait: bool = True) -> str | None:
        """Hand :func:`lan_save` of ``record`` to this table's autosaver (a worker thread: the
        fsyncs of a save never stall the frame loop). ``wait``: until it is on disk. Returns the
        save's path, or None when there is no record or (``wait``) the disk refused."""
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
        """Keep the session's record of a match that has not reached its end in the saved games
        (after each audited round, at once when it stops, and when we leave it). A finished
        match's record, once kept, stays as it is."""
        if self.record is None:
            record = session_record(self.session)
            if record is not None and record.rounds:
                kept = self.keep(record, wait)
                if wait:
                    self.kept = kept

    def close(self) -> None:
        super().close()
        self.net.close()  # its last word sent (bye): the others judge it by who owes what
        self.keep_unfinished()
        if self._saver is not None:
            self._saver.close(SAVE_WAIT)


#: Where the connection panels sit: over the trick.
TRICK_BOX = pygame.Rect(CANVAS[0] // 2 - 40 - 360, 200, 720, 250)


# --------------------------------------------------------------------------- the waiting screen's lines
def lobby_lines(lobby: Any) -> list[str]:
    """What the shell's waiting screen says of a Royals & Riots table: the teams, and that nobody deals."""
    s = lobby.session
    lines = []
    if s is not None and s.options.get("teams"):
        lines.append(_("Teams: 1 + 3 against 2 + 4"))
    lines.append(_(FAIR_NOTICE))
    return lines


#: Royals & Riots' window on the one LAN layer (:class:`game.client.lan.LanClient`).
LAN = LanClient(table=LanTableScene, lobby_lines=lobby_lines)


# --------------------------------------------------------------------------- before the match
#: The host set-up's error line: its colour, and its distance (px) from the buttons above and below
#: (more than a button's drop shadow).
ERROR_COLOUR = (255, 180, 160)
ERROR_GAP = 16


class RoyalsHostSetup(ButtonScene):
    """"Host a game" of Royals & Riots: the table's seats (2-4; seat 1 is ours; each other seat
    open for a person at another machine or a computer of a level), teams for 4, then
    "Open the table" opens it (:func:`game.client.lan.lobby.host_table`: listening, the beacon,
    the shell's waiting screen)."""

    def __init__(self, app: "App", name: str | None = None, port: int = DEFAULT_PORT, bind: str | None = None,
                 beacon_address: str | None = None, store: "SaveStore | None" = None,
                 opener: Callable[..., Any] | None = None) -> None:
        super().__init__(app)
        self.name = name or settings_name(app, _("Host"))
        self.port, self.bind = port, MENU_BIND if bind is None else bind
        self.beacon_address = beacon_address
        self.store = store
        self.opener = opener
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
        """Seat (0-based: 0 is ours) -> level of the computer seats chosen."""
        return {i: k for i, k in enumerate(self.kinds[:self.count]) if i and k is not None}

    def table(self) -> tuple[tuple[str, ...], dict[int, str], dict]:
        """The table chosen: (``kinds``, computer seat -> level, lobby options) for the session."""
        comp = self.computers()
        kinds = ("host",) + tuple("computer" if s in comp else "person" for s in range(1, self.count))
        return kinds, comp, ({"teams": True} if self.teams and self.count == 4 else {})

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
        """Listen (any free port if the usual one is taken), send the beacon, show the waiting screen."""
        from game.lan import computer_name

        from ..lan.lobby import host_table
        self.field.blur()
        self.name = self.field.text.strip() or self.name
        kinds, computers, options = self.table()
        opener = self.opener or host_table
        app = self.app
        app.pop()  # the waiting screen takes this screen's place
        try:
            opener(app, KEY, kinds=kinds, computers=computers, options=options, name=self.name, port=self.port,
                   bind=self.bind, beacon_address=self.beacon_address, store=self.store, record=lan_record_path(),
                   computer_names={s: computer_name(level) for s, level in computers.items()})
        except (OSError, ValueError) as e:
            app.push(self)
            self.error = table_error_text(e)

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


def open_join(app: "App", name: str, host: str, port: int, connected: Any, store: Any = None) -> None:
    """Another join screen found a Royals & Riots host: its waiting screen on that connection."""
    from game.lan import join_error_text

    from ..lan.lobby import join_table
    try:
        join_table(app, KEY, host, port, name=name, connected=connected, store=store, record=lan_record_path(),
                   on_back=app.pop)
    except (OSError, ValueError) as e:
        top = app.top
        if top is not None and hasattr(top, "error"):
            top.error = join_error_text(e, f"{host}:{port}")


def lan_menu_buttons(app: "App", x: int, w: int) -> list[Button]:
    """Royals & Riots' "Host a game" and "Join a game" for the main menu."""
    from ..lan.lobby import LayerJoinScene
    return [Button((x, 0, w, 64), N_("Host a game"), lambda: app.push(RoyalsHostSetup(app)), key=pygame.K_4,
                   size=32),
            Button((x, 0, w, 64), N_("Join a game"), lambda: app.push(LayerJoinScene(app, KEY)), key=pygame.K_5,
                   size=32)]


def run_lan(args: argparse.Namespace, open_window: "Callable[[], App]") -> int:
    """``rose-king host|join --game royals-riots`` with a window: the shell's path on the layer."""
    from ..lan.lobby import run_layer_window
    return run_layer_window(args, KEY, open_window)


__all__ = ["LAN", "LanSave", "LanTableMatch", "LanTableScene", "RoyalsHostSetup", "lan_menu_buttons", "lan_save",
           "lobby_lines", "run_lan"]
