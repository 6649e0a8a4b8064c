"""Royals & Riots over the LAN in the window: only what is its own. The seats box, the banner, the
end panel, the rematch, saving, "Host a game" and joining are the shell's (:mod:`game.client.lan`);
here are the table of :mod:`game.client.royals.scene` fed by our seat's view in the session's
:class:`game.royals.lan.match.FairMatch` (:class:`LanTableMatch`; only our cards are face up),
our decisions handed to :meth:`net.session.Session.act`, and the hooks (:data:`LAN`).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from game.errors import Reason
from game.i18n import N_, _
from game.royals.engine import Action, IllegalMoveError, Phase, State
from game.royals.lan.record import save_text
from game.royals.phrases import stop_text

from ..dialogs import PauseMenu
from ..lan import LanClient, NetMatch
from ..lan.banner import Banner, draw_seats
from ..lan.endpanel import EndPanel, play_again, rematch_button
from ..lan.table import LanTable, code_lines, record_file
from ..theme import CANVAS
from .anims import View
from .art import royals_art
from .scene import LEVEL_WORDS, RoyalsTableScene
from .table import Beat, Seat, TableConfig, TableMatch

if TYPE_CHECKING:
    from ..app import App

KEY = "royals-riots"
FAIR_NOTICE = N_("Nobody deals: every machine shuffles the cards in turn, so no program sees a card its "
                 "player could not see. A computer seat is played by the host's program, which sees its cards.")
#: Actions animated between two views at most (the first look: :data:`FIRST_ANIMATED`); a longer gap is shown at once.
MAX_ANIMATED, FIRST_ANIMATED = 40, 8
#: Beats waiting beyond which they play instantly; seconds the round's score table stays up.
CATCH_UP_BEATS, ROUND_TABLE_SECONDS = 12, 12.0
#: The plates' word for the other seats (a computer's name says it is one: no word then).
LEVEL_WORDS.update({"lan-host": N_("Host"), "lan-person": N_("Network"), "lan-computer": ""})
#: Where the banner and the end panel sit (over the trick), and the seats box (under the scores).
TRICK_BOX = pygame.Rect(CANVAS[0] // 2 - 40 - 360, 200, 720, 250)


class LanTableMatch(TableMatch):
    """A :class:`TableMatch` following our seat's view in the session's machine: :meth:`refresh`
    reads it once something changed (a cheap probe first, under the session's lock) and
    :meth:`sync` turns a newer view into the :class:`Beat` list between the two. Decisions go to
    the session, never through :meth:`apply`."""

    def __init__(self, net: NetMatch) -> None:
        self.session, table, self.seat = net.session, net.started.table, net.seat + 1
        seats = [Seat(name or _("Player {n}").format(n=s + 1), None if s == net.seat else "lan-computer"
                      if s in table.computers else "lan-host" if s == 0 else "lan-person")
                 for s, name in enumerate(table.names)]
        teams = bool((table.options or {}).get("teams", False))
        super().__init__(TableConfig(seats, teams=teams))
        self.state, self.chance_seed = State(len(seats), teams), 0  # chance comes from the joint shuffle
        self._probe: tuple | None = None
        self._turn = False

    def refresh(self) -> State | None:
        """The seat's view (a copy) when it changed since the last call, else None."""
        s = self.session
        p = s.view(lambda m: (m.view.ply, m.received(), m.round, m.over is not None, s.catching_up,
                              m.turn_for(m.seat) is None))  # (our turn may come with no new action: a draw)
        if p is None or p == self._probe:
            return None
        self._probe = p
        got = s.view(lambda m: (m.view.state.copy(), m.turn_for(m.seat) is not None and not s.catching_up))
        if got is None:
            return None
        state, self._turn = got
        return state

    def sync(self, new: State, limit: int = MAX_ANIMATED) -> list[Beat]:
        """Follow ``new``; the beats of the actions since :attr:`state` (none after a rebuild at
        the same ply, e.g. a round's audit, or a gap over ``limit``)."""
        old, gap = self.state, new.ply - self.state.ply
        states, cur = [new], new.copy()
        try:
            for _i in range(gap if 0 < gap <= limit else 0):
                cur.pop()
                states.append(cur.copy())
        except IndexError:  # a view without its history: jump
            states = [new]
        self.state = new
        if len(states) != gap + 1:
            return []
        states.reverse()
        return [b for i in range(gap) for b in self._beats(states[i], new.history[old.ply + i], states[i + 1])]

    def human_to_act(self) -> int:
        return self.seat if self._turn and self.state.to_act == self.seat else 0

    def computer_to_act(self) -> int:
        return 0  # other seats' decisions arrive from the network

    def advance(self) -> list[Beat]:
        return []

    def apply(self, action: Action) -> list[Beat]:
        raise IllegalMoveError(Reason("", "a network match takes decisions through its session"))

    def undo_seat(self) -> int:
        return 0


class LanTableScene(RoyalsTableScene):
    """The table of a network match, with the shell's table around it (:attr:`lan`)."""

    def __init__(self, app: "App", net: NetMatch) -> None:
        match = LanTableMatch(net)
        self.session, self._followed, self.round_seen, self.end_shown = net.session, False, 1, False
        super().__init__(app, match, on_new_game=lambda: None, on_main_menu=net.on_main_menu, advance=False)
        self.match: LanTableMatch = match
        self.lan = LanTable(app, net, LAN, say=lambda text: self.say(text))
        self.banner_box = Banner(self.lan, TRICK_BOX, self.on_main_menu)
        self.buttons = [b for b in self.buttons if b.label not in ("Hint", "Undo")]  # no help against people
        self.say(lambda seat=match.seat: _("You sit at seat {n}. Good luck!").format(n=seat))

    def follow(self, events: list) -> None:
        """Follow our seat's view after the session's ``events`` (never blocks; any event: read it anew)."""
        if events:
            self.match._probe = None
        new = self.match.refresh()
        if new is None:
            return
        first, self._followed, idle = not self._followed, True, self.idle()
        if new.round > self.round_seen and not new.is_over():
            self.round_seen = new.round
            self.say(lambda r=new.round - 1: _("Round {r} checked: every card and every play was true.").format(r=r))
        beats = self.match.sync(new, FIRST_ANIMATED if first else MAX_ANIMATED)
        if beats:
            self._queue_beats(beats)
        elif idle:
            self.view = View.of(self.state, self.view)

    def update(self, dt: float) -> None:
        self.follow(self.lan.pump())
        if self.modal == "round" and self.modal_time > ROUND_TABLE_SECONDS:
            self.close_modal()
        super().update(dt)
        v = self.lan.verdict
        if v is not None and v.kind != "finished" and not self.end_shown and self.idle():
            self.end_shown = True
            self.app.push(EndPanel(self.app, self.lan, lambda dt: self.follow(self.lan.pump()), self.on_main_menu,
                                   TRICK_BOX.center))

    def _start_anim(self, a) -> None:
        """Another seat's cards are placeholders: the card it plays (or loses) comes out of its hand."""
        b = a.beat
        for seat, kind in ((b.seat, "play"), (b.target, "steal")):
            if b.kind == kind and seat and seat != self.match.seat and b.card is not None:
                hand = self.view.hands[seat - 1]
                if b.card not in hand and hand:
                    hand[-1] = b.card
        super()._start_anim(a)

    def speed(self) -> float:
        return 0.0 if len(self.queue) > CATCH_UP_BEATS else super().speed()  # far behind: show the present

    def act(self, action: Action) -> bool:
        """Hand our decision to the session (animated when it comes back); a refusal is worded from its reason."""
        if not self.my_turn():
            return False
        try:
            self.session.act(action)
        except IllegalMoveError as e:
            self.say(partial(self.explain, e.reason))
            return False
        except ValueError:  # the match moved on meanwhile: nothing was sent
            self.say(partial(self.explain, Reason("", "not now")))
            return False
        self.match._turn, self.match._probe = False, None
        self.selected.clear()
        self.steal_target = self.focus = 0
        self.hint_text = ""
        return True

    def open_modal(self, kind: str, beat: Beat) -> None:
        super().open_modal(kind, beat)
        if kind == "over":  # the rematch at the shell's table, then the way out
            row = self.modal_button_row([(_("Play again at {name}'s table").format(name=self.lan.name(0)),
                                          lambda: None, None), (N_("Main menu"), self.on_main_menu, pygame.K_m)])
            row[0] = rematch_button(self.lan, row[0].rect, lambda: play_again(self.app, self.lan), size=28)
            self.modal_buttons = row

    def modal_notes(self) -> list[tuple[str, int]]:
        """The result also says where the record is, and the match code with what it is for."""
        notes = super().modal_notes()
        if self.modal == "over":
            notes.append((_("The record is kept in the saved games.") if self.lan.saved else
                          _("Waiting for the record…"), 22))
            notes += [(line, 20 if i == 0 else 18) for i, line in enumerate(code_lines(self.lan.code))]
        return notes

    def pause(self) -> None:
        self.app.push(PauseMenu(self.app, self.on_main_menu, self.unsaved_game, title=N_("Menu"),
                                on_update=self.update, question=self.quit_question()))

    def unsaved_game(self) -> bool:
        return self.lan.unsaved() and self.state.ply > 0

    def quit_question(self) -> str | None:
        return N_("Leave the network match? The other players cannot go on without you.") \
            if self.unsaved_game() else None

    def my_turn(self) -> int:
        return 0 if self.lan.blocked() or self.lan.verdict is not None else super().my_turn()

    def look(self) -> tuple:
        return super().look() + self.lan.look() + (self.match.human_to_act(),)

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.lan.blocked() and self.banner_box.handle_event(event):
            return
        super().handle_event(event)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        super().draw(surface, alpha)
        if not self.modal:
            draw_seats(surface, self.app, self.lan, (CANVAS[0] - 300, self.buttons[-1].rect.bottom + 12), 284)
        if self.lan.blocked():
            self.banner_box.draw(surface, self.app)

    def prompt_text(self) -> str:
        """Our decision's prompt, or whom the table waits for."""
        if self.my_turn() or not self.idle() or self.modal or not self.lan.thinking:
            return super().prompt_text()
        return _("Waiting for {name}…").format(name=self.lan.name(self.lan.thinking[0]))

    def _draw_bottom_hand(self, surface: pygame.Surface, seat: int, hand: list) -> None:
        """While other seats choose their hands, our dealt cards show (ours to see)."""
        mine = seat == self.match.seat and not hand and self.state.phase is Phase.KEEP and not self.my_turn()
        dealt = list(self.state.observation(seat).dealt) if mine else []
        if dealt:
            self.drawn_face_up.add(seat)
            for card, r in zip(dealt, self.keep_slots(len(dealt))):
                surface.blit(royals_art(self.app).face(card), r)
            return
        super()._draw_bottom_hand(surface, seat, hand)

    def close(self) -> None:
        super().close()
        self.lan.close()


def lobby_lines(lobby: Any) -> list[str]:
    """What the waiting screens say of a table: the teams, and that nobody deals."""
    s = lobby.session
    return ([_("Teams: 1 + 3 against 2 + 4")] if s is not None and s.options.get("teams") else []) + [_(FAIR_NOTICE)]


def _stop(code: str, who: str, verdict: Any) -> str:
    return stop_text(code, who)


#: Royals & Riots' window on the one LAN layer (:class:`game.client.lan.LanClient`).
LAN = LanClient(table=LanTableScene, lobby_lines=lobby_lines, save=save_text, stop_text=_stop,
                record_path=lambda: record_file("royals"),
                host_switches=(("teams", N_("Teams: 1 + 3 against 2 + 4"), lambda count: count == 4),))

__all__ = ["FAIR_NOTICE", "LAN", "LanTableMatch", "LanTableScene", "lobby_lines"]
