"""LAN play in the window (issue 7): the network match, the game view's extras, the host
and join screens, and ``rose-king host/join`` with a window (:func:`run_lan`).

The network core (``net/``, docs/protocol.md "usage for the client") runs the protocol
in a background thread; everything here only calls :meth:`LanSession.poll` once per
update and never waits on the network. :class:`LanMatch` is a :class:`Match` whose
moves all come from the session's ``MoveMade`` events, the local player's own moves
included (they are handed to ``session.play`` and come back once the network thread
has applied them), so the game view animates them exactly like a local game.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from typing import TYPE_CHECKING, Callable

import pygame

from game.roseking.engine import Color, IllegalMoveError, Move, Record, State, now_iso
from game.fsutil import os_error_text
from game.i18n import N_, _
from game.lan import join_error_text, ply_of
from game.roseking.phrases import refused_text, stop_text
from game.roseking.saves import GameMeta
from game.saves import BackgroundAutosaver, SaveStore
from net import DEFAULT_PORT
from net.discovery import Beacon, BeaconListener
from net.protocol import Closed, GameOver, GameStarted, Handshake, MoveMade, RematchOffered
from net.transport import LanSession, Refused, WriteFailed

from .art import COLOR_UI, CREAM, GOLD, art_of
from ..dialogs import ConfirmDialog, PauseMenu, dim
from .game_scene import BOARD_RECT, GameScene, color_name
from .layout import DISCARD_RECT, DRAW_PILE_RECT
from ..theme import CANVAS
from .match import Match
from .result import ResultPanel, headline
from ..lan_common import JoinScene as SharedJoinScene
from ..lan_common import LobbyExit
from ..lan_common import (MENU_BIND, NOBODY_SECONDS, local_addresses, own_beacons, settings_name,  # noqa: F401
                          start_beacon)
from ..widgets import Button, ButtonScene, chooser, elide, panel

if TYPE_CHECKING:
    from ..app import App

#: Session statuses during which the game waits for the connection (the banner shows).
WAITING = ("connecting", "handshake", "interrupted", "listening")
#: Session statuses after which nothing comes back: the game cannot go on, no rematch.
ENDED = ("failed", "closed")
#: What leaving a network game mid-game asks (the pause menu's Main menu and Quit, the window's close).
LEAVE_QUESTION = N_("Leave the network game? The other player cannot go on without you; "
                    "the game so far stays in Saved games, to watch.")
#: Seconds the game view waits at most for its save to reach the disk (the game's end, a stop, leaving).
SAVE_WAIT = 5.0


class NetworkController:
    """One colour of a LAN game: the local player (``local_human``: clicks go to
    ``session.play``) or the peer (moves arrive from the network). ``label``: the name shown."""

    def __init__(self, label: str, local_human: bool) -> None:
        self.label = label
        self.local_human = local_human

    def begin_turn(self, state: State) -> None:
        pass

    def poll(self, state: State, dt: float) -> Move | None:
        return None  # moves arrive through LanMatch.pump, never from a poll

    def close(self) -> None:
        pass


class LanMatch(Match):
    """A :class:`Match` fed by a :class:`LanSession`.

    ``started``: the session's :class:`GameStarted` event. :meth:`pump` (call once per
    update) applies every ``MoveMade`` to :attr:`state` through the ``on_move`` hooks and
    returns the other events; :meth:`submit` hands a local move to ``session.play``.
    When the session's game is replaced (a rematch) or taken back (a resignation voids
    moves that crossed it on the wire), :attr:`state` is rebuilt from the session and the
    ``on_reset`` hooks run. ``beacon``: stopped with the match.
    """

    def __init__(self, session: LanSession, started: GameStarted, beacon: Beacon | None = None,
                 pending: list | None = None) -> None:
        self.session = session
        self._pending_events = list(pending or [])
        self.beacon = beacon
        self.on_reset: list[Callable[[], None]] = []
        self.over: GameOver | None = None
        self.rematch_offered = False  # by the peer
        self.rematch_sent = False
        self.link = "up"  # the peer's connection: "up", "interrupted" (may come back) or "closed" (for good)
        self._set_game(started)
        super().__init__(started.game.state.copy(), self.controllers, _NoChance())

    def _set_game(self, started: GameStarted) -> None:
        self.started = started
        g = started.game
        self.game_id = g.game_id
        self.color = started.color
        self.names = {Color.RED: g.red_name, Color.WHITE: g.white_name}
        me = self.color
        self.controllers = tuple(
            NetworkController(_("{name} (you)").format(name=self.names[c]) if c is me else self.names[c], c is me)
            for c in (Color.RED, Color.WHITE))  # type: ignore[assignment]
        self.over = None
        self.rematch_offered = self.rematch_sent = False
        self._can_move = False

    def _reset(self, state: State) -> None:
        self.state = state
        self._pending_draw = None
        self._turn_begun_at = -1
        for hook in list(self.on_reset):
            hook()

    # ------------------------------------------------------------------ network -> match
    def pump(self) -> list:
        """Apply what the session reports; returns the events other than moves. Never blocks."""
        out = []
        events, self._pending_events = self._pending_events + self.session.poll(), []
        for e in events:
            if isinstance(e, MoveMade):
                self._apply(e)
            elif isinstance(e, GameStarted):
                self.link = "up"
                self._set_game(e)
                self._reset(e.game.state.copy())
                out.append(e)
            else:
                if isinstance(e, GameOver):
                    self.over = e
                    self._catch_up()
                elif isinstance(e, RematchOffered):
                    self.rematch_offered = True
                elif isinstance(e, Handshake):
                    self.link = "up"
                elif isinstance(e, Closed):  # the peer left on purpose or it cannot help: for good
                    self.link = "closed" if e.fatal or (e.by_peer and e.code == "bye") else "interrupted"
                out.append(e)
        snap = self.session.state
        self._can_move = (snap is not None and snap.ply == self.state.ply and self.session.my_turn())
        return out

    def _apply(self, e: MoveMade) -> None:
        if e.ply <= self.state.ply:
            return  # already in the position (it was rebuilt from the session)
        if e.ply == self.state.ply + 1 and self.reason(e.move) is None:
            self._take(e.move)
        else:
            self._catch_up()

    def _catch_up(self) -> None:
        """Rebuild from the session's position when ours can no longer follow it move by move."""
        game = self.session.game
        if game is None or game.game_id != self.game_id:
            return
        if game.state.move_stack != self.state.move_stack:
            self._reset(game.state)

    def connection(self) -> str:
        """The peer's connection as the screens may show it: "up", "interrupted" (the session waits
        for it or reconnects) or "closed" (the session has failed or closed, or the peer left on
        purpose or was turned away for good: nothing of it will come back). After a game's end the
        session's status stays "over" whatever happens to the connection, so this also follows the
        session's :class:`Handshake`/:class:`GameStarted` (up) and :class:`Closed` events."""
        if self.session.status in ENDED:
            return "closed"
        if self.session.status in WAITING:
            return "interrupted"
        return self.link

    # ------------------------------------------------------------------ match API
    def human_to_move(self) -> bool:
        return self._can_move and not self.state.is_game_over() and self.over is None

    def submit(self, move: Move) -> str | None:
        """Hand the local player's move to the network; it is applied when it comes back."""
        if not self.human_to_move():
            return _("Wait: the other player's move or the connection comes first.")
        reason = self.reason(move)
        if reason is not None:
            return reason
        try:
            self.session.play(move)
        except IllegalMoveError as e:
            return refused_text("play", str(e))
        self._can_move = False
        return None

    def update(self, dt: float) -> None:
        """Nothing to poll here: the scene calls :meth:`pump` every update, overlays or not."""

    def close(self) -> None:
        """Leave the game: tell the peer, stop the session and the beacon."""
        if self.beacon is not None:
            self.beacon.stop()
            self.beacon = None
        self.session.close()


class _NoChance:
    """A LAN draw's card comes from the joint coin, inside the session: never from here."""

    def outcome(self, state: State) -> None:
        return None


def lan_save(session: LanSession) -> tuple[str, Record] | None:
    """Our copy of the session's current game as a save: ``(game id, record)``, the record
    (identical on both peers, docs/record-format.md "LAN games") with the saved-game keys
    ``game_id`` (the LAN game id in hex, so both sides' saves of one game carry the same id,
    and a resumed game replaces its earlier save) and ``kind: "lan"`` (the saved-games list
    shows it as a network game that is watched, never played on, here). None before a game."""
    record = session.record()
    game = session.game
    if record is None or game is None:
        return None
    meta = GameMeta(game_id=game.game_id.hex(), kind="lan", red=record.red, white=record.white, date=record.date)
    record.extra.update(meta.extra())
    return meta.game_id, record


def keep_record(session: LanSession, store: SaveStore | None = None) -> str | None:
    """Write :func:`lan_save` of the session's game into the saved-games folder now. Returns the
    path, or None when there is no game or the disk refuses (the game itself is unaffected)."""
    save = lan_save(session)
    if save is None:
        return None
    try:
        return str((store or SaveStore()).write(save[0], save[1].to_json()))
    except OSError:
        return None


# --------------------------------------------------------------------------- the game view
class LanGameScene(GameScene):
    """The game view of a :class:`LanMatch`: plus a resign button, a connection banner with
    "give up", the end panels with a rematch offer, and our copy of the game kept in the saved
    games (kind ``"lan"``, watched there, never played on: :meth:`keep`) after each move, at its
    end, when it stops for good and when the player leaves."""

    def __init__(self, app: "App", match: LanMatch, on_main_menu: Callable[[], None],
                 store: SaveStore | None = None) -> None:
        super().__init__(app, match, on_new_game=self.offer_rematch, on_main_menu=on_main_menu)
        self.match: LanMatch = match
        self.store = store
        self.saved: str | None = None     # where the finished game's record was kept
        self.kept: str | None = None      # where the game that stopped for good (or we left) was kept
        self._saver: BackgroundAutosaver | None = None  # from the first save on
        self._kept_at: tuple | None = None  # (game id, ply, over) at the last save handed over
        self._stop_kept = False  # the game that stopped for good is kept (once)
        match.on_reset.append(self._on_reset)
        x, w = DRAW_PILE_RECT.x - 10, DISCARD_RECT.right - DRAW_PILE_RECT.x + 20
        self.buttons.append(Button((x, 672, w, 46), N_("Resign"), self.ask_resign, size=26,
                                   enabled=lambda: self.match.over is None and self.match.connection() == "up"))
        self.give_up_button = Button((BOARD_RECT.centerx - 120, BOARD_RECT.centery + 40, 240, 54), N_("Give up"),
                                     self.give_up, size=28)
        self.result_shown = True  # the base class's local result panel is replaced by ours (see update)
        self.end_shown = False
        self.announce(match.started)
        if match.session.write_errors:  # (one reported while the lobby waited for the game)
            self.write_failed(match.session.write_errors[-1])

    # ------------------------------------------------------------------ network
    def _on_reset(self) -> None:
        self.shown = self.match.state.copy()
        self.queue.clear()
        self.anim = None
        self.selected = self.armed = None
        self.card_x.clear()

    def tick(self, dt: float) -> None:
        super().tick(dt)
        status = (self.match.session.status, self.match.session.status_text, self.match.rematch_offered)
        if status != getattr(self, "_last_status", None):
            self._last_status = status
            self.changed_at = self.clock  # the connection or the rematch changed: draw it
        for e in self.match.pump():
            if isinstance(e, GameStarted):
                while self.app.top is not self and self in self.app.scenes:
                    self.app.pop()
                self.end_shown = False
                self.saved = self.kept = None
                self._stop_kept = False
                self.announce(e)
            elif isinstance(e, GameOver):
                self.saved = self.keep(wait=True)
            elif isinstance(e, RematchOffered):
                name = self.peer_name()
                self.say(lambda: _("{name} offers a rematch.").format(name=name), ok=True)
            elif isinstance(e, Refused):  # in our language (worded when drawn); the English reason is for logs
                self.say(partial(refused_text, e.action, e.reason, e.code))
            elif isinstance(e, WriteFailed):
                self.write_failed(e)
        m = self.match
        if m.over is None and not self._stop_kept and m.connection() == "closed":
            self._stop_kept = True  # it stopped for good: the game so far, on disk at once
            self.kept = self.keep(wait=True)
        elif m.over is None and self._key() != self._kept_at:
            self.keep(wait=False)  # after each move, off the frame loop

    def _key(self) -> tuple:
        m = self.match
        return m.game_id.hex(), m.state.ply, m.over is not None

    def keep(self, wait: bool = False) -> str | None:
        """Hand our copy of the game (:func:`lan_save`) to this view's autosaver (a worker thread:
        the two fsyncs of a save never stall a frame; saves of one game replace each other in
        order). A game with no move yet and not over is not kept. ``wait``: until it is on disk
        (the moments the game stands still: its end, a stop for good, leaving), at most
        :data:`SAVE_WAIT` seconds. Returns the save's path, or None when there is nothing to keep
        or (``wait``) the disk refused or was too slow."""
        self._kept_at = self._key()
        save = lan_save(self.match.session)
        if save is None:
            return None
        game_id, record = save
        if not record.moves and not record.termination and self.match.over is None:
            return None
        if self._saver is None:
            from game.saves import shared_store
            self._saver = BackgroundAutosaver(self.store or shared_store())
        self._saver.submit_text(game_id, record.to_json())
        if wait and not (self._saver.flush(SAVE_WAIT) and self._saver.error is None):
            return None
        return str(self._saver.store.path_for(game_id))

    def write_failed(self, failure: WriteFailed) -> None:
        """Say that the session could not write its record or seat file (``rose-king host/join
        --record``): the game goes on, but a restart could not resume it. The reason is the
        operating system's (``strerror``), worded in the player's language where it is a usual one."""
        self.say(lambda: _("The record could not be written: {reason}").format(reason=os_error_text(failure.reason)))

    def announce(self, started: GameStarted) -> None:
        """The banner at the start of a game: who the opponent is and our colour, or a resume."""
        name, colour = self.peer_name(), started.color
        self.show_banner((lambda: _("Resumed against {name}").format(name=name)) if started.resumed
                         else lambda: _("New game against {name}: you play {colour}").format(
                             name=name, colour=color_name(colour)))

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.match.over is not None and not self.busy() and not self.end_shown:
            self.end_shown = True
            self.app.push(LanResultPanel(self.app, self) if self.match.over.kind == "finished"
                          else LanEndPanel(self.app, self))

    def waiting_line(self, mover: Color) -> str:
        m = self.match
        if m.over is not None:
            return _("Game over")
        if m.session.status in ENDED:
            return _("The game cannot go on")
        if self.waiting():
            return _("Waiting for the connection…")
        if mover is m.color:
            return _("Your move is on its way…")
        return _("Waiting for {name}…").format(name=m.names[mover])

    def peer_name(self) -> str:
        return self.match.names[self.match.color.other]

    def waiting(self) -> bool:
        """Whether the connection is down (the banner shows and the game waits)."""
        return self.match.session.status in WAITING and self.match.over is None

    # ------------------------------------------------------------------ actions
    def ask_resign(self) -> None:
        if self.match.over is None:
            self.app.push(ConfirmDialog(self.app, N_("Resign this game?"), self.resign,
                                        yes=N_("Resign"), no=N_("Play on")))

    def resign(self) -> None:
        if self.match.over is None:
            self.match.session.resign()

    def offer_rematch(self) -> None:
        if not self.match.rematch_sent:
            self.match.rematch_sent = True
            self.match.session.offer_rematch()

    def give_up(self) -> None:
        """Stop waiting for the other player: leave (the game stays in their journal) and go to the menu."""
        self.on_main_menu()

    def unsaved_game(self) -> bool:
        return self.match.over is None and self.match.state.ply > 0

    def pause(self) -> None:
        """Esc / Menu: nothing pauses in a network game, so the menu says "Menu" and the game goes on below."""
        self.app.push(PauseMenu(self.app, self.on_main_menu, self.unsaved_game, title=N_("Menu"),
                                on_update=self.tick, question=LEAVE_QUESTION))

    def quit_question(self) -> str | None:
        """Closing the window mid-game: that the other player cannot go on, and that the game so
        far stays in the saved games to watch (never that it is lost: :meth:`keep`)."""
        return LEAVE_QUESTION if self.unsaved_game() else None

    def finished(self) -> bool:
        return self.match.over is not None or super().finished()

    def close(self) -> None:
        """Leave: the session says goodbye and stops (:meth:`LanMatch.close`), then our copy of the
        game goes to the saved games and the autosaver stops once it is on disk (menu, window
        closed, SIGTERM: every way of leaving closes the scene)."""
        super().close()
        self.keep(wait=True)
        if self._saver is not None:
            self._saver.close(SAVE_WAIT)

    def at_rest(self) -> bool:
        return super().at_rest() and not self.waiting() and self.match.session.status not in ENDED

    # ------------------------------------------------------------------ input and drawing
    def handle_event(self, event: pygame.event.Event) -> None:
        if self.waiting() or self.match.session.status in ENDED:
            if self.give_up_button.handle_event(event) and event.type != pygame.MOUSEMOTION:
                return
            if event.type == pygame.MOUSEBUTTONDOWN and not any(b.rect.collidepoint(event.pos) for b in self.buttons):
                return  # nothing can be played until the connection is back
        super().handle_event(event)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        status = self.match.session.status
        blocked = self.waiting() or status in ENDED
        hover = self.hover_pos
        if blocked:
            self.hover_pos = (-1, -1)  # no hover tips under the banner
        super().draw(surface, alpha)
        self.hover_pos = hover
        if blocked:
            self._draw_connection_banner(surface, status)

    def _draw_connection_banner(self, surface: pygame.Surface, status: str) -> None:
        box, texts = self.banner_layout(status)
        surface.blit(panel(box.size, 245), box)
        pygame.draw.rect(surface, (210, 70, 60), box, 3, border_radius=14)
        for _text, image, rect in texts:
            surface.blit(image, rect)
        self.give_up_button.draw(surface, art_of(self.app))

    def banner_layout(self, status: str) -> tuple[pygame.Rect, list[tuple[str, pygame.Surface, pygame.Rect]]]:
        """The connection banner over the board (its box, and its texts as ``(text, image, rect)``
        in the current language; the "Give up"/"Main menu" button is placed under them): the title,
        the session's status line and, once the game so far is in the saved games (:attr:`kept`:
        it stopped for good), a note saying so, one line above the button."""
        art = art_of(self.app)
        box = pygame.Rect(0, 0, BOARD_RECT.w + 60, 230)
        box.center = BOARD_RECT.center
        self.give_up_button.label = N_("Give up") if status not in ENDED else N_("Main menu")
        self.give_up_button.rect.midbottom = (box.centerx, box.bottom - 18)
        title = _("Connection interrupted") if status not in ENDED else _("The game cannot go on")
        line = self.match.session.status_text
        t = art.text(title, 36, GOLD, shadow=True)
        s = art.text(line, 24, CREAM, shadow=True, wrap=box.w - 40)
        texts = [(title, t, t.get_rect(midtop=(box.centerx, box.y + 18))),
                 (line, s, s.get_rect(midtop=(box.centerx, box.y + 70)))]
        if self.kept:
            note = elide(art.font(20), _("The record is kept in the saved games."), box.w - 40)
            n = art.text(note, 20, GOLD, shadow=True)
            texts.append((note, n, n.get_rect(midbottom=(box.centerx, self.give_up_button.rect.y - 6))))
        return box, texts


def _rematch_label(scene: LanGameScene) -> str:
    """The rematch button's label: the offer's state, or, once the peer's connection is down (a
    rematch cannot reach it), the connection's: "Connection interrupted" / "Connection closed"."""
    m = scene.match
    link = m.connection()
    if link == "closed":
        # TRANSLATORS: on the disabled rematch button once the other player's connection is gone for good
        return _("Connection closed")
    if link == "interrupted":
        return _("Connection interrupted")
    if m.rematch_sent:
        return _("Rematch offered…")
    if m.rematch_offered:
        return _("Accept the rematch")
    return _("Offer a rematch")


class LanResultPanel(ResultPanel):
    """The local result panel (territories, totals, tie-break) with "offer a rematch"
    instead of "new game", and where the record was kept."""

    def __init__(self, app: "App", game: LanGameScene) -> None:
        super().__init__(app, game)
        self.buttons[0].label = lambda: _rematch_label(game)
        self.buttons[0].enabled = lambda: (not game.match.rematch_sent and game.match.session.status == "over"
                                           and game.match.connection() == "up")

    def update(self, dt: float) -> None:
        self.game.tick(dt)  # keeps polling the network: the peer's rematch offer, a new game

    def at_rest(self) -> bool:
        return self.game.at_rest()


class LanEndPanel(ButtonScene):
    """A game that ended without a final position: a resignation, an illegal move or a desync."""

    opaque = False

    def __init__(self, app: "App", game: LanGameScene) -> None:
        super().__init__(app)
        self.game = game
        self.rect = pygame.Rect(0, 0, 620, 330)
        self.rect.center = BOARD_RECT.center
        bw = (self.rect.w - 60) // 2
        by = self.rect.bottom - 74
        can_rematch = game.match.over is not None and game.match.over.kind == "resigned"
        self.buttons = [Button((self.rect.x + 20, by, bw, 52), lambda: _rematch_label(game), game.offer_rematch,
                               size=26, enabled=lambda: can_rematch and not game.match.rematch_sent
                               and game.match.session.status == "over" and game.match.connection() == "up"),
                        Button((self.rect.right - 20 - bw, by, bw, 52), N_("Main menu"), game.on_main_menu,
                               key=pygame.K_m, size=26)]

    def update(self, dt: float) -> None:
        self.game.tick(dt)

    def at_rest(self) -> bool:
        return self.game.at_rest()

    def texts(self) -> tuple[str, tuple[int, int, int], list[str]]:
        """The panel's title, its colour and its lines, in the player's language: the move where it
        stopped numbered as the move log numbers it (``GameOver.ply``; an older event's English
        reason is read for its ply only; its detail is in the record and the reports)."""
        over = self.game.match.over
        assert over is not None
        if over.kind == "resigned" and over.winner is not None:
            loser = over.winner.other
            title = (_("You resigned.") if loser is self.game.match.color else
                     _("{name} resigned.").format(name=self.game.match.names[loser]))
            lines = [headline(over)]
            color = COLOR_UI[over.winner]
        elif over.kind == "desync":
            title, color = _("The two games differ"), GOLD
            lines = [stop_text("desync", move=over.ply or ply_of(over.reason)), _("Both machines wrote a report.")]
        else:
            title, color = (_("Illegal move") if over.kind == "illegal" else _("The game was stopped")), GOLD
            who = self.game.match.names[over.winner.other] if over.kind == "forfeit" and over.winner is not None \
                else ""
            lines = [stop_text(over.kind, who, over.ply or ply_of(over.reason))]
        if self.game.saved:
            lines.append(_("The record is kept in the saved games."))
        return title, color, lines

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = art_of(self.app)
        dim(surface, 90)
        surface.blit(panel(self.rect.size, 250), self.rect)
        title, color, lines = self.texts()
        t = art.text(title, 44, color, shadow=True)
        surface.blit(t, t.get_rect(midtop=(self.rect.centerx, self.rect.y + 24)))
        y = self.rect.y + 90
        for line in lines:
            s = art.text(line, 26, CREAM, shadow=True, wrap=self.rect.w - 60)
            surface.blit(s, s.get_rect(midtop=(self.rect.centerx, y)))
            y += s.get_height() + 10
        self.draw_buttons(surface)


# --------------------------------------------------------------------------- before the game
def main_menu(app: "App") -> None:
    app.go_home()


class LanLobby(LobbyExit, ButtonScene):
    """Waiting for the game: the host shows this machine's addresses and port and waits for a
    player; the joiner connects. On the session's :class:`GameStarted` it hands the session to
    a :class:`LanGameScene`. "Cancel" (Esc) closes the session and goes back."""

    def __init__(self, app: "App", session: LanSession, beacon: Beacon | None = None,
                 on_back: Callable[[], None] | None = None, store: SaveStore | None = None) -> None:
        super().__init__(app)
        self.session: LanSession | None = session
        self.beacon = beacon
        self.on_back = on_back or (lambda: main_menu(app))
        self.store = store
        self.clock = 0.0
        self.still = False  # the status dots move
        self.connecting_for = 0.0  # seconds a join has been knocking without an answer
        self.error = ""
        self.adopting: tuple[GameStarted, list] | None = None
        self._other_game: dict | None = None  # the probe of a host whose hello is not Rose King's (see update)
        self.addresses = local_addresses(session.address) if session.role.value == "host" else []
        hosting = session.role.value == "host"
        self.rect = pygame.Rect(CANVAS[0] // 2 - 380, 220 if hosting else 250, 760, 520 if hosting else 440)
        self.buttons = [Button((self.rect.centerx - 140, self.rect.bottom - 84, 280, 56), N_("Cancel"), self.cancel,
                               size=30)]
        held = session.game
        self._resuming = held is not None and not held.over  # a resumed game keeps its colours
        if hosting:  # the host's colour in a new game: fixed once a player connects (it goes in the hello)
            bw, gap = 200, 12
            x0 = self.rect.centerx - (3 * bw + 2 * gap) // 2
            for i, (value, label) in enumerate((("red", N_("Red")), ("white", N_("White")),
                                                ("", N_("Random")))):
                choose, chosen = chooser(self, "colour", value)
                self.buttons.append(Button((x0 + i * (bw + gap), self.rect.bottom - 150, bw, 52), label, choose,
                                           enabled=self.colour_open, selected=chosen, size=28))

    @property
    def colour(self) -> str:
        """The host's colour choice for a new game: "red", "white" or "" (random)."""
        return self.session.colour if self.session is not None else ""

    @colour.setter
    def colour(self, value: str) -> None:
        if self.session is not None and self.colour_open():
            self.session.colour = value  # read by the session's thread when a player's connection opens

    def colour_open(self) -> bool:
        """Whether the colour can still be chosen: nobody has connected yet, and the seat holds no game
        (a resumed game keeps its colours)."""
        s = self.session
        return s is not None and s.status == "listening" and not self._resuming

    def nobody_answers(self) -> str | None:
        """After :data:`NOBODY_SECONDS` of knocking in vain: that nobody answers at the address, and
        that the window keeps trying (Cancel goes back); else None."""
        session = self.session
        if session is None or self.addresses or self.connecting_for < NOBODY_SECONDS:
            return None
        return _("Nobody answers at {address}. Is a game hosted there? Still trying ({seconds} s)…").format(
            address=f"{session.address}:{session.port}", seconds=int(self.connecting_for))

    def update(self, dt: float) -> None:
        self.clock += dt
        session = self.session
        if session is None:
            return
        self.connecting_for = self.connecting_for + dt if session.status == "connecting" else 0.0
        if self.adopting is not None:
            return  # (while the player decides about a restored game, events wait in the session)
        events = session.poll()
        if self._other_game is not None and self._other_game:
            self._to_other_game(session)
            return
        for i, e in enumerate(events):
            if isinstance(e, Closed) and e.code == "schema" and not self.addresses and self._other_game is None:
                self._ask_which_game(session)  # a host of another game? (its hello is not ours)
            if isinstance(e, Closed) and e.fatal:  # its code in our language (a taken seat, another game...)
                self.error = stop_text(e.code)
            elif isinstance(e, GameStarted) and e.adopted:
                # This program held its seat but not the moves: the game was rebuilt from the other
                # player's checked copy (docs/protocol.md, "Resume"). Ask before playing on with it.
                self.adopting = (e, events[i + 1:])
                self.buttons.insert(0, Button((self.rect.centerx - 300, self.rect.bottom - 84, 280, 56),
                                              N_("Continue"), self.adopt, size=30))
                self.buttons[-1].rect.x = self.rect.centerx + 20
                self.app.push(ConfirmDialog(
                    self.app, _("Continue the game restored from {name}'s copy, at move {ply}?").format(
                        name=session.peer_name or _("the other player"), ply=e.game.state.ply),
                    self.adopt, yes=N_("Continue"), no=N_("Cancel")))
                return
            elif isinstance(e, GameStarted):
                self._start(session, e, events[i + 1:])
                return

    def _ask_which_game(self, session: LanSession) -> None:
        """Read the host's hello in the background (:func:`net.session.probe_host`)."""
        import threading

        from net.session import probe_host
        found: dict = {}
        self._other_game = found
        address, port = session.address, session.port

        def probe() -> None:
            try:
                found["game"] = probe_host(address, port, timeout=NOBODY_SECONDS)
            except (OSError, ValueError) as e:
                found["error"] = e
        threading.Thread(target=probe, name="rose-king-probe", daemon=True).start()

    def _to_other_game(self, session: LanSession) -> None:
        """The host plays another game: hand the join to that game's waiting screen (this one closes)."""
        from ..lan_common import JOIN_OPENERS
        found = self._other_game or {}
        game = found.get("game")
        if game is None or game[0] == "rose-king" or game[0] not in JOIN_OPENERS:
            if game is not None:
                game[1].close()
            self._other_game = {}  # asked once: Rose King after all, nobody, or a game we lack: keep trying here
            return
        key, sock, data = game
        name, address, port = session.name, session.address, session.port
        self.close()
        app, store = self.app, self.store
        app.pop()
        JOIN_OPENERS[key](app, name, address, port, (sock, data), store)

    def adopt(self) -> None:
        """The player accepted the restored game: play on with it."""
        if self.adopting is not None and self.session is not None:
            e, pending = self.adopting
            self.adopting = None
            self._start(self.session, e, pending + self.session.poll())

    def _start(self, session: LanSession, e: GameStarted, pending: list) -> None:
        match = LanMatch(session, e, self.beacon, pending=pending)
        self.session = self.beacon = None  # handed over: closing the lobby must not close them
        self.app.replace(LanGameScene(self.app, match, on_main_menu=lambda: main_menu(self.app),
                                      store=self.store))

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        from .setup import draw_title
        art = art_of(self.app)
        draw_title(surface, self.app, self.clock, y=130)
        surface.blit(panel(self.rect.size), self.rect)
        session = self.session
        hosting = bool(self.addresses)
        title = _("Hosting a game") if hosting else _("Joining a game")
        t = art.text(title, 40, GOLD, shadow=True)
        surface.blit(t, t.get_rect(midtop=(self.rect.centerx, self.rect.y + 24)))
        lines: list[tuple[str, int, tuple]] = []
        if hosting and session is not None:
            lines.append((_("Your name: {name}").format(name=session.name), 26, CREAM))
            lines.append((_("Players join at this address:"), 26, CREAM))
            for addr in self.addresses[:3]:
                lines.append((f"{addr}:{session.port}", 34, GOLD))
            c = art.text(_("Your colour:"), 26, CREAM, shadow=True)
            surface.blit(c, c.get_rect(midbottom=(self.rect.centerx, self.rect.bottom - 156)))
        elif session is not None:
            lines.append((_("Your name: {name}").format(name=session.name), 26, CREAM))
        nobody = self.nobody_answers()
        if nobody is not None:
            lines.append((nobody, 26, (255, 200, 150)))
        elif session is not None and not (self.error and session.status == "failed"):  # (the error says it)
            dots = "." * (1 + int(self.clock * 2) % 3)
            lines.append((session.status_text + (dots if session.status not in ENDED else ""), 26, CREAM))
        if self.error:
            lines.append((_("The game cannot start: {reason}").format(reason=self.error), 24, (255, 180, 160)))
        y = self.rect.y + 86
        for text, size, col in lines:
            s = art.text(text, size, col, shadow=True, wrap=self.rect.w - 60)
            surface.blit(s, s.get_rect(midtop=(self.rect.centerx, y)))
            y += s.get_height() + 8
        self.draw_buttons(surface)


def host_game(app: "App", name: str | None = None, port: int = DEFAULT_PORT, bind: str | None = None,
              beacon_address: str | None = None, store: SaveStore | None = None) -> LanLobby:
    """"Host a game" from the menu: listen on ``port`` (any free port if it is taken), send
    the beacon, and put the waiting screen up. Raises OSError if no port can be opened."""
    name = name or settings_name(app, _("Host"))
    bind = MENU_BIND if bind is None else bind
    try:
        session = LanSession.host(name, port=port, bind=bind, date=now_iso())
    except OSError:
        session = LanSession.host(name, port=0, bind=bind, date=now_iso())
    lobby = LanLobby(app, session, start_beacon(name, session.port, beacon_address, game="rose-king"), store=store)
    app.push(lobby)
    return lobby


class JoinScene(SharedJoinScene):
    """"Join a game" of Rose King (the shared screen of :mod:`game.client.lan_common`): a join
    opens a :class:`LanSession` and its waiting screen."""

    def make_listener(self) -> BeaconListener:
        return BeaconListener(ignore=own_beacons)

    def join(self, host: str, port: int) -> None:
        """Connect to ``host:port`` (in the background) and show the waiting screen."""
        try:
            session = LanSession.join(self.name, host, port, date=now_iso())
        except (OSError, ValueError) as e:
            self.error = join_error_text(e, f"{host}:{port}")
            return
        self.app.push(LanLobby(self.app, session, on_back=self.app.pop, store=self.store))

    def draw_title(self, surface: pygame.Surface, clock: float, y: int) -> None:
        from .setup import draw_title
        draw_title(surface, self.app, clock, y=y)


def lan_menu_buttons(app: "App", x: int, w: int, y: int) -> list[Button]:
    """The main menu's "Host a game" and "Join a game" buttons (64 px high, 84 apart from ``y``)."""
    def host() -> None:
        try:
            host_game(app)
        except OSError as e:
            print(_("rose-king: cannot host a game: {error}").format(error=e), file=sys.stderr)

    return [Button((x, y, w, 64), N_("Host a game"), host, key=pygame.K_3, size=32),
            Button((x, y + 84, w, 64), N_("Join a game"), lambda: app.push(JoinScene(app)), key=pygame.K_4,
                   size=32)]


# --------------------------------------------------------------------------- rose-king host / join
def run_lan(args: argparse.Namespace, open_window: "Callable[[], App]") -> int:
    """``rose-king host|join`` with a window: open it at the waiting screen and play.

    ``args``: the parsed options of :mod:`game.commands.host` / :mod:`game.commands.join`
    (a join has ``address``/``port`` set from ``HOST[:PORT]``). ``--record FILE`` is the
    journal: rewritten after every move, and an unfinished game in it is resumed.
    ``open_window()`` makes the window (:func:`game.client.main.open_window`).
    Returns the exit status (1 if the window or the port cannot be opened).
    """
    from game.lan import check_record_path, host_colour, load_seat

    joining = "target" in vars(args)
    problem = check_record_path(args.record)
    if problem:
        print(f"rose-king: {problem}", file=sys.stderr)
        return 2
    seat = load_seat(args.record)
    try:
        app = open_window()
    except pygame.error as e:
        print(_("rose-king: cannot open the game window: {error}").format(error=e), file=sys.stderr)
        return 1
    name = args.name or settings_name(app, _("Guest") if joining else _("Host"))
    try:
        if joining:
            session = LanSession.join(name, args.address, args.port, seat=seat, journal=args.record,
                                      log_dir=args.log_dir, date=now_iso(),
                                      connected=getattr(args, "connected", None))  # the probe's connection
        else:
            session = LanSession.host(name, port=args.port, bind=args.bind, seat=seat, journal=args.record,
                                      log_dir=args.log_dir, date=now_iso(), colour=host_colour(args))
    except (OSError, ValueError) as e:
        print(f"rose-king: {e}", file=sys.stderr)
        pygame.quit()
        return 1
    beacon = None if joining else start_beacon(name, session.port, args.beacon_address, game="rose-king")
    app.push(LanLobby(app, session, beacon))
    return app.run()
