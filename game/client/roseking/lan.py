"""Rose King over the LAN in the window (issue 7), on the one LAN layer (issue 33): the network
table and its end panels, the host's colour choice on the waiting screen, and Rose King's
:class:`game.client.lan.LanClient` (``LAN_CLIENT``).

The waiting screens, the join screen, discovery and ``rose-king host/join`` with a window are the
shell's (:mod:`game.client.lan`); the match is :mod:`game.roseking.lan.match`'s machine run by a
:class:`net.session.Session`, whose thread does every socket operation. Everything here reads
the session's events once per update (``poll``) and its machine under its lock (``view``),
never waiting on the network. :class:`LanMatch` is a :class:`Match` whose moves all come from
the session's ``Noticed("move")`` events, the local player's own moves included (they are
handed to ``session.act`` and come back once the machine has made them), so the game view
animates them exactly like a local game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

import pygame

from game.fsutil import os_error_text
from game.i18n import N_, _
from game.roseking.engine import Color, Move, Record, State
from game.roseking.phrases import stop_text
from game.roseking.saves import GameMeta
from game.saves import BackgroundAutosaver, SaveStore
from net.match import Verdict
from game.roseking.lan.match import RESIGN
from net.session import Dropped, Ended, Noticed, Started, Status, WriteFailed

from .art import COLOR_UI, CREAM, GOLD, art_of
from ..dialogs import ConfirmDialog, PauseMenu, dim
from ..lan import LanClient, NetMatch
from ..lan.lobby import ENDED, LayerJoinScene, host_table, status_line
from .game_scene import BOARD_RECT, GameScene, color_name
from .layout import DISCARD_RECT, DRAW_PILE_RECT
from .match import Match
from .result import ResultPanel, headline
from ..widgets import Button, ButtonScene, elide, panel

if TYPE_CHECKING:
    from ..app import App

KEY = "rose-king"
#: What leaving a network game mid-game asks (the pause menu's Main menu and Quit, the window's close).
LEAVE_QUESTION = N_("Leave the network game? The other player cannot go on without you; "
                    "the game so far stays in Saved games, to watch.")
#: Seconds the game view waits at most for its save to reach the disk (the game's end, a stop, leaving).
SAVE_WAIT = 5.0


@dataclass(frozen=True)
class Result:
    """How the network game ended, in the window's terms: ``kind`` (a :data:`net.match.END_KINDS`),
    ``winner`` (None: a draw or a stopped game), ``at_fault`` (the colour the verdict names, or
    None), ``move``: the move where a stopped game stopped as the move log numbers it (0: unknown)."""

    kind: str
    winner: Color | None
    at_fault: Color | None
    move: int = 0


class NetworkController:
    """One colour of a LAN game: the local player (``local_human``: clicks go to
    ``session.act``) or the peer (moves arrive from the network). ``label``: the name shown."""

    def __init__(self, label: str, local_human: bool) -> None:
        self.label = label
        self.local_human = local_human

    def begin_turn(self, state: State) -> None:
        pass

    def poll(self, state: State, dt: float) -> Move | None:
        return None  # moves arrive through LanMatch.pump, never from a poll

    def close(self) -> None:
        pass


class _NoChance:
    """A LAN draw's card comes from the joint coin, inside the match machine: never from here."""

    def outcome(self, state: State) -> None:
        return None


def _snapshot(m: Any) -> tuple:
    """(position copy, our colour, the host's colour, game id) of a dealt match machine."""
    return m.state.copy(), m.color_of(m.seat), m.host_color, m.table.game_id


class LanMatch(Match):
    """A :class:`Match` fed by the session of ``net`` (a :class:`game.client.lan.NetMatch` of a
    dealt game: the set-up coin is resolved). :meth:`pump` (call once per update) applies every
    ``Noticed("move")`` to :attr:`state` through the ``on_move`` hooks and returns the other
    events; :meth:`submit` hands a local move to ``session.act``. When our copy can no longer
    follow move by move (a resignation took back moves that crossed it on the wire, a resume),
    :attr:`state` is rebuilt from the machine and the ``on_reset`` hooks run."""

    def __init__(self, net: NetMatch, pending: list | None = None) -> None:
        self.net = net
        self.session = net.session
        self._pending_events = list(pending or [])
        self.on_reset: list[Callable[[], None]] = []
        self.over: Result | None = None
        self.link = "up"  # the peer's connection: "up", "interrupted" (may come back) or "closed" (for good)
        self.stop_code = ""  # the closing code that stopped the game for good (a joiner's host left...)
        state, self.color, host_color, self.game_id = self.session.view(_snapshot)
        names = net.names
        self.names = {c: names[0] if c is host_color else names[1] for c in (Color.RED, Color.WHITE)}
        me = self.color
        self.controllers = tuple(
            NetworkController(_("{name} (you)").format(name=self.names[c]) if c is me else self.names[c], c is me)
            for c in (Color.RED, Color.WHITE))  # type: ignore[assignment]
        self._can_move = False
        super().__init__(state, self.controllers, _NoChance())
        if self.session.verdict is not None:  # a match already judged (a resumed journal)
            self._set_over(self.session.verdict)

    @property
    def started(self) -> Started:
        return self.net.started

    def _reset(self, state: State) -> None:
        self.state = state
        self._pending_draw = None
        self._turn_begun_at = -1
        for hook in list(self.on_reset):
            hook()

    def _set_over(self, v: Verdict) -> None:
        def colour(seat: int) -> Color | None:
            return None if seat < 0 else self.color if seat == self.net.seat else self.color.other
        winner = colour(v.winners[0]) if len(v.winners) == 1 else None
        fault = colour(v.seat)
        if winner is None and v.kind in ("resigned", "forfeit", "left") and fault is not None:
            winner = fault.other
        move = v.ply + 1 if v.kind == "illegal" else v.ply if v.kind == "desync" else 0
        self.over = Result(v.kind, winner, fault, move)

    # ------------------------------------------------------------------ network -> match
    def pump(self) -> list:
        """Apply what the session reports; returns the events other than moves. Never blocks."""
        out = []
        events, self._pending_events = self._pending_events + self.session.poll(), []
        for e in events:
            if isinstance(e, Noticed):
                if e.code == "move":
                    self._apply(int(e.data["ply"]), Move.from_str(str(e.data["move"])))
                continue
            if isinstance(e, Ended):
                self._set_over(e.verdict)
                self._catch_up()
            elif isinstance(e, Started):
                self.link = "up"
                self._catch_up()
            elif isinstance(e, Dropped) and e.by_peer:
                # a joiner that left may come back with its journal: for the host only a verdict is
                # for good; a joiner stops for good on its host's fatal code (bye, a refusal)
                joiner_gone = self.session.role == "join" and e.fatal
                self.link = "closed" if joiner_gone else "interrupted"
                if joiner_gone:
                    self.stop_code = e.code
            elif isinstance(e, Status) and e.code == "interrupted":
                self.link = "interrupted"
            elif isinstance(e, Status) and e.code == "playing":
                self.link = "up"
            out.append(e)
        ply = self.state.ply
        self._can_move = bool(self.session.view(lambda m: m.ply == ply and m.to_move() == m.seat)) \
            and not self.session.catching_up
        return out

    def _apply(self, ply: int, move: Move) -> None:
        if ply <= self.state.ply:
            return  # already in the position (it was rebuilt from the machine)
        if ply == self.state.ply + 1 and self.reason(move) is None:
            self._take(move)
        else:
            self._catch_up()

    def _catch_up(self) -> None:
        """Rebuild from the machine's position when ours can no longer follow it move by move."""
        state = self.session.view(lambda m: None if m.state is None else m.state.copy())
        if state is not None and state.move_stack != self.state.move_stack:
            self._reset(state)

    def record_dict(self) -> dict | None:
        """The match's record as the machine holds it (identical on both seats), or None before the deal."""
        return self.session.view(lambda m: m.record() if m.state is not None else None)

    def connection(self) -> str:
        """The peer's connection as the screens may show it: "up", "interrupted" (the session waits
        for it or reconnects) or "closed" (the session failed or closed, or the peer left for good)."""
        if self.session.status in ENDED:
            return "closed"
        if self.over is None and self.session.status in ("connecting", "interrupted", "listening"):
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
            self.session.act(move)
        except ValueError:  # the match moved on since this view last looked (checked just above)
            return _("Wait: the other player's move or the connection comes first.")
        self._can_move = False
        return None

    def update(self, dt: float) -> None:
        """Nothing to poll here: the scene calls :meth:`pump` every update, overlays or not."""

    def close(self) -> None:
        """Leave the game: tell the peer, stop the session and the beacon."""
        self.net.close()


def lan_save(session: Any, record: dict | None = None) -> tuple[str, Record] | None:
    """Our copy of the session's game as a save: ``(game id, record)``, the record (identical on
    both peers, docs/record-format.md "LAN games") with the saved-game keys ``game_id`` (the LAN
    game id in hex, so both sides' saves of one game carry the same id, and a resumed game
    replaces its earlier save) and ``kind: "lan"`` (the saved-games list shows it as a network
    game that is watched, never played on, here). None before the deal. ``record``: the
    machine's record if the caller has it already."""
    if record is None:
        record = session.view(lambda m: m.record() if m.state is not None else None)
    if record is None:
        return None
    rec = Record.from_dict(record)
    game_id = str(record["lan"]["game"])
    meta = GameMeta(game_id=game_id, kind="lan", red=rec.red, white=rec.white, date=rec.date)
    rec.extra.update(meta.extra())
    return meta.game_id, rec


def keep_record(session: Any, store: SaveStore | None = None) -> str | None:
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
        self.rematch_sent = False  # "play again" chosen: this view is being replaced by the lobby
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
        self.announce(match.net.started)
        if match.state.ply:  # moves made before this view (a resume, or a quick first move): kept at once
            self.keep(wait=False)
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
        status = (self.match.session.status, self.match.link)
        if status != getattr(self, "_last_status", None):
            self._last_status = status
            self.changed_at = self.clock  # the connection or the rematch changed: draw it
        for e in self.match.pump():
            if isinstance(e, Started) and e.resumed:
                self.announce(e)
            elif isinstance(e, Ended):
                self.saved = self.keep(wait=True)
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
        save = lan_save(self.match.session, self.match.record_dict())
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

    def announce(self, started: Started) -> None:
        """The banner at the start of a game: who the opponent is and our colour, or a resume."""
        name, colour = self.peer_name(), self.match.color
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
        return self.match.connection() == "interrupted" and self.match.over is None

    # ------------------------------------------------------------------ actions
    def ask_resign(self) -> None:
        if self.match.over is None:
            self.app.push(ConfirmDialog(self.app, N_("Resign this game?"), self.resign,
                                        yes=N_("Resign"), no=N_("Play on")))

    def resign(self) -> None:
        if self.match.over is None:
            try:
                self.match.session.act(RESIGN)
            except ValueError:  # our draw's card is not known yet: resign once it is
                self.say(lambda: _("Wait: the other player's move or the connection comes first."))

    def offer_rematch(self) -> None:
        """Play again: this match's session closes and the same table opens again (the host
        listens on the same port, a joiner joins the same address); the other player chooses it too."""
        again = self.match.net.again
        if self.rematch_sent or again is None or self.match.over is None:
            return
        self.rematch_sent = True
        self.keep(wait=True)
        app = self.app
        app.go_home()  # closes this view (and its session) first: the port is free again
        again()

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
        code = self.match.stop_code
        line = stop_text(code) if code and status in ENDED else status_line(self.match.session, self.peer_name(),
                                                                          self.match.connection() == "interrupted")
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
    if scene.rematch_sent:
        return _("Rematch offered…")
    return _("Offer a rematch")


class LanResultPanel(ResultPanel):
    """The local result panel (territories, totals, tie-break) with "offer a rematch"
    instead of "new game", and where the record was kept."""

    def __init__(self, app: "App", game: LanGameScene) -> None:
        super().__init__(app, game)
        self.buttons[0].label = lambda: _rematch_label(game)
        self.buttons[0].enabled = lambda: game.match.net.again is not None and not game.rematch_sent

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
        can_rematch = game.match.over is not None and game.match.over.kind in ("resigned", "forfeit", "left")
        self.buttons = [Button((self.rect.x + 20, by, bw, 52), lambda: _rematch_label(game), game.offer_rematch,
                               size=26, enabled=lambda: can_rematch and not game.rematch_sent
                               and game.match.net.again is not None),
                        Button((self.rect.right - 20 - bw, by, bw, 52), N_("Main menu"), game.on_main_menu,
                               key=pygame.K_m, size=26)]

    def update(self, dt: float) -> None:
        self.game.tick(dt)

    def at_rest(self) -> bool:
        return self.game.at_rest()

    def texts(self) -> tuple[str, tuple[int, int, int], list[str]]:
        """The panel's title, its colour and its lines, in the player's language: the move where it
        stopped numbered as the move log numbers it (:attr:`Result.move`; the English detail of
        the verdict is in the record only)."""
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
            lines = [stop_text("desync", move=over.move)]
        else:
            title, color = (_("Illegal move") if over.kind == "illegal" else _("The game was stopped")), GOLD
            who = self.game.match.names[over.winner.other] if over.kind == "forfeit" and over.winner is not None \
                else ""
            lines = [stop_text(over.kind, who, over.move)]
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


# --------------------------------------------------------------------------- before the deal
class DealScene(ButtonScene):
    """Between the match's start and the deal (the set-up coin's round trip, or a resumed host
    waiting for its joiner): the title, the status, Cancel. Once the machine holds the deal, the
    :class:`LanGameScene` takes the session over; a verdict or a failed session before it is
    said here."""

    def __init__(self, app: "App", net: NetMatch) -> None:
        super().__init__(app)
        self.net: NetMatch | None = net
        self.pending: list = list(net.pending)
        self.clock = 0.0
        self.still = False
        self.error = ""
        self.rect = pygame.Rect(0, 0, 760, 300)
        self.rect.center = BOARD_RECT.center
        self.buttons = [Button((self.rect.centerx - 140, self.rect.bottom - 84, 280, 56), N_("Cancel"), self.cancel,
                               size=30)]

    def cancel(self) -> None:
        if self.net is not None:
            self.net.close()
            self.net = None
        self.app.go_home()

    on_escape = cancel

    def close(self) -> None:
        if self.net is not None:
            self.net.close()
            self.net = None

    def update(self, dt: float) -> None:
        self.clock += dt
        net = self.net
        if net is None:
            return
        self.pending += net.session.poll()
        for e in self.pending:
            if isinstance(e, Ended) and not self.error:
                self.error = stop_text(e.verdict.kind)
            elif isinstance(e, Dropped) and e.fatal and e.by_peer and not self.error:
                self.error = stop_text(e.code)
        if net.session.view(lambda m: m.state is not None):
            net.pending, self.pending = self.pending, []
            self.net = None  # handed over
            self.app.replace(LanGameScene(self.app, LanMatch(net, net.pending), on_main_menu=net.on_main_menu,
                                          store=net.store))

    def at_rest(self) -> bool:
        look = (int(self.clock * 2), self.error, None if self.net is None else self.net.session.status)
        if look != getattr(self, "_look", None):
            self._look = look
            return False
        return super().at_rest()

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        from .setup import draw_title
        art = art_of(self.app)
        draw_title(surface, self.app, self.clock, y=130)
        surface.blit(panel(self.rect.size), self.rect)
        net = self.net
        names = " · ".join(net.names) if net is not None else ""
        t = art.text(names, 36, GOLD, shadow=True)
        surface.blit(t, t.get_rect(midtop=(self.rect.centerx, self.rect.y + 24)))
        if self.error:
            line = _("The game cannot start: {reason}").format(reason=self.error)
        elif net is not None:
            line = status_line(net.session) if net.session.status != "playing" else \
                _("Connected, agreeing on the game…")
        else:
            line = ""
        s = art.text(line, 26, CREAM, shadow=True, wrap=self.rect.w - 60)
        surface.blit(s, s.get_rect(midtop=(self.rect.centerx, self.rect.y + 100)))
        self.draw_buttons(surface)


def network_table(app: "App", net: NetMatch) -> "ButtonScene | LanGameScene":
    """Rose King's network table for a begun match (the hook :attr:`game.client.lan.LanClient.table`):
    the game view once the deal is known, else the short wait for it."""
    if net.session.view(lambda m: m.state is not None):
        return LanGameScene(app, LanMatch(net, net.pending), on_main_menu=net.on_main_menu, store=net.store)
    return DealScene(app, net)


def colour_buttons(lobby: Any, rect: pygame.Rect) -> list[Button]:
    """The host's colour in a new game on its waiting screen (Red / White / Random, default
    Random): the table's option ``colour`` (:func:`game.roseking.lan.match.setup_from_coin`), open
    while nobody has taken the seat (:meth:`game.client.lan.lobby.LobbyScene.choices_open`)."""
    bw, gap = 200, 12
    x0 = rect.centerx - (3 * bw + 2 * gap) // 2
    out = []
    for i, (value, label) in enumerate((("red", N_("Red")), ("white", N_("White")), ("", N_("Random")))):
        def choose(value: str = value) -> None:
            if lobby.choices_open():
                lobby.session.set_options({"colour": value} if value else {})
                lobby.colour = value

        def chosen(value: str = value) -> bool:
            return getattr(lobby, "colour", lobby.session.options.get("colour", "") if lobby.session else "") == value
        out.append(Button((x0 + i * (bw + gap), rect.y, bw, rect.h), label, choose, enabled=lobby.choices_open,
                          selected=chosen, size=28))
    return out


def colour_lines(lobby: Any) -> list[str]:
    """"Your colour:" over the host's colour buttons."""
    return [_("Your colour:")] if lobby.hosting and lobby.session is not None else []


#: Rose King's window on the one LAN layer (``CLIENT.lan``).
LAN_CLIENT = LanClient(table=network_table, lobby_buttons=colour_buttons, lobby_lines=colour_lines)


def host_game(app: "App", name: str | None = None, port: int | None = None, bind: str | None = None,
              beacon_address: str | None = None, store: SaveStore | None = None):
    """"Host a game" from the menu: the shell's waiting screen for a Rose King table
    (:func:`game.client.lan.lobby.host_table`). Raises OSError if no port can be opened."""
    from net import DEFAULT_PORT
    return host_table(app, KEY, name=name, port=DEFAULT_PORT if port is None else port, bind=bind,
                      beacon_address=beacon_address, store=store)


def lan_menu_buttons(app: "App", x: int, w: int, y: int) -> list[Button]:
    """The main menu's "Host a game" and "Join a game" buttons (64 px high, 84 apart from ``y``)."""
    import sys

    def host() -> None:
        try:
            host_game(app)
        except OSError as e:
            print(_("rose-king: cannot host a game: {error}").format(error=e), file=sys.stderr)

    return [Button((x, y, w, 64), N_("Host a game"), host, key=pygame.K_3, size=32),
            Button((x, y + 84, w, 64), N_("Join a game"), lambda: app.push(LayerJoinScene(app, key=KEY)),
                   key=pygame.K_4, size=32)]
