"""Royals & Riots over the LAN in the window, only what is its own (the rest is the shell's,
:mod:`game.client.lan`): the table fed by our seat's view in the session's machine (only our cards
face up, our decisions to :meth:`net.session.Session.act`) and the hooks (:data:`LAN`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import pygame

from game.errors import Reason
from game.i18n import N_, _
from game.royals.engine import Action, Card, IllegalMoveError, Phase, State
from game.royals.lan.record import save_text
from game.royals.phrases import stop_text

from ..lan import LanClient, NetMatch
from ..lan.banner import Banner, draw_seats
from ..lan.endpanel import play_again, rematch_button
from ..lan.scene import LanScene
from ..lan.table import LanTable, code_lines, record_file
from ..theme import CANVAS
from .anims import Anim, View
from .art import royals_art
from .controls import TableControls
from .drawing import PainterScene, TablePainter
from .layout import TableLayout
from .scene import LEVEL_WORDS, RoyalsTableScene
from game.royals.match import Beat, Seat, TableConfig, TableMatch

if TYPE_CHECKING:
    from net.match import MatchMachine

    from game.royals.lan.match import FairMatch

    from ..app import App

FAIR_NOTICE = N_("Nobody deals: every machine shuffles the cards in turn, so no program sees a card its "
                 "player could not see. A computer seat is played by the host's program, which sees its cards.")
#: Actions animated between two views at most (at the first look: fewer), beats waiting beyond which
#: they play instantly, seconds the round's score table stays up.
MAX_ANIMATED, FIRST_ANIMATED, CATCH_UP_BEATS, ROUND_TABLE_SECONDS = 40, 8, 12, 12.0
#: The plates' word for the other seats (a computer's name says it is one: no word then).
LEVEL_WORDS.update({"lan-host": N_("Host"), "lan-person": N_("Network"), "lan-computer": ""})
#: Where the banner and the end panel sit (over the trick), and the seats box (under the scores).
TRICK_BOX = pygame.Rect(CANVAS[0] // 2 - 40 - 360, 200, 720, 250)


class LanTableMatch(TableMatch):
    """Our seat's view in the session's machine (:meth:`refresh`); decisions go to the session (:meth:`apply`)."""

    _turn: bool  # our decision is awaited in the view last read
    _probe: tuple | None  # what the last refresh found changed, None: read anew

    def __init__(self, net: NetMatch) -> None:
        self.session, table, self.seat = net.session, net.started.table, net.seat + 1
        seats = [Seat(name or _("Player {n}").format(n=s + 1), None if s == net.seat else "lan-computer"
                      if s in table.computers else "lan-host" if s == 0 else "lan-person")
                 for s, name in enumerate(table.names)]
        teams = bool((table.options or {}).get("teams", False))
        super().__init__(TableConfig(seats, teams=teams))
        self.state, self.chance_seed = State(len(seats), teams), 0  # chance comes from the joint shuffle
        self.forget()

    def refresh(self) -> State | None:
        """The seat's view (a copy) when it changed since the last call, else None."""
        s = self.session

        def probe(machine: "MatchMachine") -> tuple:
            m = _fair(machine)
            return (m.view.ply, m.accepted, m.round, m.over is not None, s.catching_up,
                    m.turn_for(m.seat) is None)  # (our turn may come with no new action: a draw)

        def look(machine: "MatchMachine") -> tuple[State, bool]:
            m = _fair(machine)
            return m.view.state.copy(), m.turn_for(m.seat) is not None and not s.catching_up

        p = s.view(probe)
        if p is None or p == self._probe:
            return None
        self._probe = p
        got = s.view(look)
        if got is None:
            return None
        state, self._turn = got
        return state

    def forget(self) -> None:
        """Read the machine anew at the next :meth:`refresh`."""
        self._turn, self._probe = False, None

    def human_to_act(self) -> int:
        return self.seat if self._turn and self.state.to_act == self.seat else 0

    def computer_to_act(self) -> int:  # (no computer here, no undo, no chance: all from the network)
        return 0

    undo_seat = computer_to_act
    advance = list

    def apply(self, action: Action) -> list[Beat]:
        """Our decision to the session (no beats: it comes back in our view). Raises IllegalMoveError."""
        try:
            self.session.act(action)
        except IllegalMoveError:
            raise
        except ValueError:  # (a catch-up, the end: nothing was sent)
            raise IllegalMoveError(Reason("", "not now")) from None
        self.forget()
        return []


def _fair(machine: "MatchMachine") -> "FairMatch":
    """A Royals & Riots session's machine: its :class:`game.royals.lan.match.FairMatch` (the
    session names only the protocol every game's machine follows)."""
    return cast("FairMatch", machine)


class LanTablePainter(TablePainter):
    """The network table's picture: while other seats choose their hands, our dealt cards show."""

    def __init__(self, table: PainterScene, layout: TableLayout, controls: TableControls, seat: int) -> None:
        super().__init__(table, layout, controls)
        self.seat = seat  # ours

    def draw_bottom_hand(self, surface: pygame.Surface, seat: int, hand: list[Card]) -> None:
        """While other seats choose their hands, our dealt cards show (ours to see)."""
        state = self.table.state
        mine = seat == self.seat and not hand and state.phase is Phase.KEEP and not self.table.my_turn()
        dealt = list(state.observation(seat).dealt) if mine else []
        if dealt:
            self.drawn_face_up.add(seat)
            for card, r in zip(dealt, self.layout.keep_slots(len(dealt))):
                surface.blit(royals_art(self.table.app).face(card), r)
            return
        super().draw_bottom_hand(surface, seat, hand)


class LanTableScene(LanScene, RoyalsTableScene):
    """The table of a network match, with the shell's table around it (:attr:`lan`)."""

    match: LanTableMatch

    def __init__(self, app: "App", net: NetMatch) -> None:
        match = LanTableMatch(net)
        self.session, self._followed, self.round_seen = net.session, False, 1
        super().__init__(app, match, on_new_game=lambda: None, on_main_menu=net.on_main_menu, advance=False)
        self.painter = LanTablePainter(self, self.layout, self.controls, match.seat)
        self.lan = LanTable(app, net, LAN, say=self.say)
        self.banner_box = Banner(self.lan, TRICK_BOX, self.on_main_menu)
        self.buttons = [b for b in self.buttons if b.label not in ("Hint", "Undo")]  # no help against people
        for k, b in enumerate(self.buttons):  # Last trick and Menu side by side, the seats box under them
            b.rect, b.size = pygame.Rect(CANVAS[0] - 300 + 147 * k, 500, 137, 44), 22
        seat = match.seat
        self.say(lambda: _("You sit at seat {n}. Good luck!").format(n=seat))

    def follow(self, events: list) -> None:
        """Follow our seat's view after the session's ``events`` (never blocks; any event: read it anew)."""
        if events:
            self.match.forget()
        if (new := self.match.refresh()) is None:
            return
        first, self._followed, idle = not self._followed, True, self.idle()
        if new.round > self.round_seen and not new.is_over():
            self.round_seen = new.round
            checked = new.round - 1
            self.say(lambda: _("Round {r} checked: every card and every play was true.").format(r=checked))
        beats = self.match.follow(new, FIRST_ANIMATED if first else MAX_ANIMATED)
        if beats:
            self._queue_beats(beats)
        elif idle:
            self.view = View.of(self.state, self.view)

    def update(self, dt: float) -> None:
        self.follow(self.lan.pump())
        if self.modal == "round" and self.modal_time > ROUND_TABLE_SECONDS:
            self.close_modal()
        super().update(dt)
        if self.lan.verdict is not None and self.lan.verdict.kind != "finished" and self.idle():
            self.end_panel(TRICK_BOX.center)  # (a finished match: the result, with the rematch)

    def _start_anim(self, a: Anim) -> None:
        """Another seat's cards are placeholders: the card it plays (or loses) comes out of its hand."""
        b = a.beat
        for seat, kind in ((b.seat, "play"), (b.target, "steal")):
            hand = self.view.hands[seat - 1] if b.kind == kind and seat and seat != self.match.seat else []
            if b.card is not None and hand and b.card not in hand:
                hand[-1] = b.card
        super()._start_anim(a)

    def speed(self) -> float:
        return 0.0 if len(self.queue) > CATCH_UP_BEATS else super().speed()  # far behind: show the present

    def act(self, action: Action) -> bool:
        return bool(self.my_turn()) and super().act(action)  # (to the session: see LanTableMatch.apply)

    def open_modal(self, kind: str, beat: Beat | None) -> None:
        super().open_modal(kind, beat)
        if kind == "over":  # the rematch at the shell's table, then the way out
            row = self.layout.modal_button_row([(_("Play again at {name}'s table").format(name=self.lan.name(0)),
                                          lambda: None, None), (N_("Main menu"), self.on_main_menu, pygame.K_m)])
            row[0] = rematch_button(self.lan, row[0].rect, lambda: play_again(self.app, self.lan), size=28)
            self.modal_buttons = row

    def modal_notes(self) -> list[tuple[str, int]]:
        """The result also says where the record is, and the match code with what it is for."""
        notes = super().modal_notes()
        if self.modal == "over":
            kept = _("The record is kept in the saved games.") if self.lan.saved else _("Waiting for the record…")
            notes += [(kept, 22)] + [(line, 20 if i == 0 else 18) for i, line in enumerate(code_lines(self.lan.code))]
        return notes

    def played(self) -> bool:
        return self.state.ply > 0

    def my_turn(self) -> int:
        return 0 if self.lan.blocked() or self.lan.verdict is not None else super().my_turn()

    def look(self) -> tuple:
        return super().look() + self.lan.look() + (self.match.human_to_act(),)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        super().draw(surface, alpha)
        if not self.modal:
            draw_seats(surface, self.app, self.lan, (CANVAS[0] - 300, 556), 284)
        if self.lan.blocked():
            self.banner_box.draw(surface, self.app)

    def prompt_text(self) -> str:  # (our decision's prompt, or whom the table waits for)
        if self.my_turn() or not self.idle() or self.modal or self.lan.thinking in ((), (self.lan.seat,)):
            return super().prompt_text()
        return _("Waiting for {name}…").format(name=self.lan.name(self.lan.thinking[0]))



#: Royals & Riots' window on the one LAN layer (:class:`game.client.lan.LanClient`).
LAN = LanClient(table=LanTableScene, lobby_lines=lambda lobby: [_(FAIR_NOTICE)], save=save_text,
                stop_text=lambda code, who, verdict: stop_text(code, who), record_path=lambda: record_file("royals"),
                host_switches=(("teams", N_("Teams: 1 + 3 against 2 + 4"), lambda count: count == 4),))

__all__ = ["FAIR_NOTICE", "LAN", "LanTableMatch", "LanTableScene"]
