"""Rose King over the LAN in the window: only what is Rose King's own. The seats, banner, resign,
end panel, rematch, saving and joining are the shell's (:mod:`game.client.lan`); here are the
board fed by the session (:class:`LanMatch`), the host's colour on the waiting screen, the short
wait for the deal, and the hooks (:data:`LAN_CLIENT`). The viewer's colour plays from the bottom.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, TypeVar, cast

import pygame

from game.i18n import N_, _
from game.roseking.engine import Color, Move, State
from game.roseking.lan.record import save_text
from game.roseking.phrases import stop_text
from game.roseking.lan.match import RESIGN

from ..lan import LanClient, NetMatch
from ..lan.banner import Banner, draw_seats
from ..lan.endpanel import play_again, rematch_button
from ..lan.scene import LanScene
from ..lan.table import LanTable
from ..widgets import Button
from .game_scene import BOARD_RECT, GameScene, color_name
from .layout import DISCARD_RECT, DRAW_PILE_RECT
from game.roseking.match import Match
from .result import ResultPanel

if TYPE_CHECKING:
    from game.roseking.lan.match import RoseKingMatch
    from net.session import Session

    from ..app import App

T = TypeVar("T")

WAIT = N_("Wait: the other player's move or the connection comes first.")


def _view(session: "Session", fn: "Callable[[RoseKingMatch], T]") -> T | None:
    """``fn`` of the session's match machine under its lock (:meth:`net.session.Session.view`),
    or None before there is one: a Rose King table's session runs Rose King's machine."""
    return session.view(lambda m: fn(cast("RoseKingMatch", m)))


class _Seat:
    """One colour's controller: moves arrive from the session, never from a poll."""

    def __init__(self, label: str, local_human: bool) -> None:
        self.label, self.local_human = label, local_human

    def begin_turn(self, state: State) -> None: ...
    def poll(self, state: State, dt: float) -> None: return None
    def close(self) -> None: ...


class _NoChance:
    """A network draw's card comes from the joint coin, inside the match machine: never from here."""

    def outcome(self, state: State) -> None:
        return None


class LanMatch(Match):
    """A :class:`Match` whose moves, ours included, come back from the session's
    ``Noticed("move")`` (:meth:`feed`); a position that can no longer follow move by move (a
    resignation crossed a move, a resume) is rebuilt from the machine and ``on_reset`` runs."""

    def __init__(self, net: NetMatch) -> None:
        self.session = net.session
        self.on_reset: list[Callable[[], None]] = []

        def dealt(m: "RoseKingMatch") -> tuple[State, Color, Color, bytes]:
            color, host = m.color_of(m.seat), m.host_color
            assert m.state is not None and color is not None and host is not None, "the table opens once dealt"
            return m.state.copy(), color, host, m.table.game_id
        seen = _view(self.session, dealt)
        assert seen is not None, "the table opens on the session's match"
        state, self.color, host, self.game_id = seen
        self.names = {c: net.names[0] if c is host else net.names[1] for c in (Color.RED, Color.WHITE)}
        me = self.color
        red, white = (_Seat(_("{name} (you)").format(name=self.names[c]) if c is me else self.names[c], c is me)
                      for c in (Color.RED, Color.WHITE))
        self._can_move = False
        super().__init__(state, (red, white), _NoChance())

    def feed(self, events: list, over: bool) -> None:
        from net.session import Ended, Noticed, Started
        for e in events:
            if isinstance(e, Noticed) and e.code == "move":
                ply, move = int(e.data["ply"]), Move.from_str(str(e.data["move"]))
                if ply == self.state.ply + 1 and self.reason(move) is None:
                    self._take(move)
                elif ply > self.state.ply:
                    self._catch_up()
            elif isinstance(e, (Ended, Started)):
                self._catch_up()
        ply = self.state.ply
        self._can_move = not over and not self.session.catching_up and bool(
            _view(self.session, lambda m: m.ply == ply and m.to_move() == m.seat))

    def _catch_up(self) -> None:
        state = _view(self.session, lambda m: None if m.state is None else m.state.copy())
        if state is not None and state.move_stack != self.state.move_stack:
            self.state, self._pending_draw, self._turn_begun_at = state, None, -1
            for hook in list(self.on_reset):
                hook()

    def human_to_move(self) -> bool:
        return self._can_move and not self.state.is_game_over()

    def submit(self, move: Move) -> str | None:
        """Hand our move to the session; it is applied when it comes back."""
        if not self.human_to_move():
            return _(WAIT)
        reason = self.reason(move)
        if reason is None:
            try:
                self.session.act(move)
                self._can_move = False
            except ValueError:
                return _(WAIT)
        return reason

    def update(self, dt: float) -> None: ...
    def close(self) -> None: ...


class LanGameScene(LanScene, GameScene):
    """The board of a network game, our colour at the bottom, with the shell's table around it (:attr:`lan`)."""

    def __init__(self, app: "App", net: NetMatch) -> None:
        self.lan = LanTable(app, net, LAN_CLIENT, say=lambda text: self.say(text))
        match = LanMatch(net)
        self.bottom = match.color
        super().__init__(app, match, on_new_game=lambda: None, on_main_menu=net.on_main_menu)
        self.match: LanMatch = match
        match.on_reset.append(self.resync)
        x, w = DRAW_PILE_RECT.x - 10, DISCARD_RECT.right - DRAW_PILE_RECT.x + 20
        self.buttons.append(Button((x, 672, w, 46), N_("Resign"), self.ask_resign, size=26,
                                   enabled=self.lan.can_resign))
        box = pygame.Rect(0, 0, BOARD_RECT.w + 60, 230)
        box.center = BOARD_RECT.center
        self.banner_box = Banner(self.lan, box, self.on_main_menu)
        self.result_shown = True  # the end is ours (see update)
        peer = match.names[match.color.other]
        self.show_banner((lambda: _("Resumed against {name}").format(name=peer)) if net.started.resumed else
                         lambda: _("New game against {name}: you play {colour}").format(
                             name=peer, colour=color_name(match.color)))

    def tick(self, dt: float) -> None:
        super().tick(dt)
        self.match.feed(self.lan.pump(), self.lan.verdict is not None)

    net_step = tick  # (under a menu or the end panel: the network, not the board's animations)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.lan.verdict is None or self.busy():
            return
        if self.lan.verdict.kind == "finished" and self.shown.is_game_over() and not self._end_shown:
            self._end_shown = True  # the territories and totals, with the rematch
            self.app.push(LanResultPanel(self.app, self))
        self.end_panel(BOARD_RECT.center)

    def waiting_line(self, mover: Color) -> str:
        if self.lan.verdict is not None:
            return _("Game over")
        if self.lan.connection() == "closed":
            return _("The game cannot go on")
        if self.lan.blocked():
            return _("Waiting for the connection…")
        return _("Your move is on its way…") if mover is self.match.color else \
            _("Waiting for {name}…").format(name=self.match.names[mover])

    def played(self) -> bool:
        return self.match.state.ply > 0


    def finished(self, state: State | None = None) -> bool:
        return self.lan.verdict is not None or super().finished(state)

    def at_rest(self) -> bool:
        return self.rests() and super().at_rest()

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        blocked, hover = self.lan.blocked(), self.hover_pos
        if blocked:
            self.hover_pos = (-1, -1)  # no hover tips under the banner
        super().draw(surface, alpha)
        self.hover_pos = hover
        draw_seats(surface, self.app, self.lan, (BOARD_RECT.right + 20, 12))
        if blocked:
            self.banner_box.draw(surface, self.app)


class LanResultPanel(ResultPanel):
    """The result of a finished game (territories, totals) naming the winner, with the rematch."""

    game: LanGameScene

    def __init__(self, app: "App", game: LanGameScene) -> None:
        super().__init__(app, game)
        old = self.buttons[0]
        self.buttons[0] = rematch_button(game.lan, old.rect, lambda: play_again(app, game.lan))

    def headline(self) -> str:
        return self.game.lan.end_texts()[0]


LAN_CLIENT = LanClient(table=lambda app, net: LanGameScene(app, net), ready=lambda m: m.state is not None,
                       lobby_choice=("colour", N_("Your colour:"), (("red", N_("Red")), ("white", N_("White")),
                                                                   ("", N_("Random")))),
                       save=lambda record, seat, computers: save_text(record, seat),
                       resign=RESIGN, stop_text=lambda code, who, v: stop_text(
                           code, who, (v.ply + 1 if v.kind == "illegal" else v.ply if v.kind == "desync" else 0)
                           if v is not None else 0))

