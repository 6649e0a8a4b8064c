"""The replay viewer of a Royals & Riots record: the whole match animated again, with
play/pause, step forward and back, a seek bar and the speed.

Privacy: a finished match shows every hand face up. A match that has not ended can still be
continued, so its replay shows no hand but the one person's of a match against computers (a
match of several people at one screen, or on the LAN, shows none): reading the others' hands
here would be a cheat once play goes on. It stops at the last action saved.

Seeking rebuilds the position by pushing the record's actions from the start (a match holds
a few hundred actions; rebuilding takes about a millisecond).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import pygame

from game.i18n import N_, _
from game.royals.engine import Phase, State

from ..theme import CANVAS, CREAM, GOLD
from ..widgets import Button, handle_buttons
from .anims import View
from .analysis_view import analysis_button, open_analysis  # post-match analysis
from .scene import RoyalsTableScene
from game.royals.match import Beat, TableMatch

if TYPE_CHECKING:
    from ..app import App

SPEEDS = (1.0, 2.0, 4.0, 0.5)
BAR = pygame.Rect(CANVAS[0] - 210, 690, 190, 14)


class RoyalsReplayScene(RoyalsTableScene):
    """Watch ``match`` (a replayed record) from its start; ``on_back`` leaves."""

    def __init__(self, app: "App", match: TableMatch, on_back: Callable[[], None]) -> None:
        self.actions = list(match.state.history)
        fresh = TableMatch(match.config)
        fresh.state = State(match.state.players, match.state.teams)
        super().__init__(app, fresh, on_new_game=on_back, on_main_menu=on_back, min_delay=0, advance=False)
        self.on_back = on_back
        self.finished = match.state.is_over()
        self.reveal_all = self.finished  # an unfinished match: its hands stay private (see the module)
        people = match.config.humans()
        self.owner = people[0] if not self.finished and len(people) == 1 else 0
        self.humans = []
        self.revealed = 0
        self.pos = 0          # actions pushed so far
        self.playing = True
        self.rate = 1.0
        self.wait = 0.0
        x = CANVAS[0] - 210
        self.buttons = [
            Button((x, 448, 92, 44), lambda: _("Pause") if self.playing else _("Play"), self.toggle, key=pygame.K_SPACE,
                   size=22),
            Button((x + 98, 448, 92, 44), lambda: f"×{self.rate:g}", self.next_rate, size=22),
            Button((x, 500, 92, 44), "<", self.back_step, key=pygame.K_LEFT, size=22),
            Button((x + 98, 500, 92, 44), ">", self.step_forward, key=pygame.K_RIGHT, size=22),
            Button((x, 552, 190, 44), N_("Last trick"), self.toggle_last, key=pygame.K_l, size=24,
                   enabled=lambda: self.match.last_trick is not None),
            Button((x, 604, 190, 44), N_("Back"), on_back, size=24),
        ]
        if self.finished:  # the whole match's analysis, at any point of the replay (as Rose King's replay)
            self.buttons.insert(0, Button((x, 396, 190, 44), N_("Analyse"), self.analyse, key=pygame.K_a, size=24))
        self.final = match.state

    def speed(self) -> float:
        base = self.app.options.anim_speed
        return base * self.rate if base > 0 else 0.0

    def toggle(self) -> None:
        self.playing = not self.playing

    def next_rate(self) -> None:
        self.rate = SPEEDS[(SPEEDS.index(self.rate) + 1) % len(SPEEDS)] if self.rate in SPEEDS else 1.0

    def _push_next(self) -> None:
        """Push the next action of the record (with the chance outcomes right after it)."""
        if self.pos >= len(self.actions):
            return
        self.queue.extend(self.match._push(self.actions[self.pos]))
        self.pos += 1
        while self.pos < len(self.actions) and self.match.state.is_chance():
            self.queue.extend(self.match._push(self.actions[self.pos]))
            self.pos += 1

    def step_forward(self) -> None:
        self._finish_anims()
        self.modal = ""
        self._push_next()

    def back_step(self) -> None:
        target = self.pos - 1
        while target > 0 and self._is_chance_at(target - 1):
            target -= 1
        self.seek(max(0, target - 1) if target > 0 else 0)

    def _is_chance_at(self, i: int) -> bool:
        a = self.actions[i]
        return a.is_chance or a.kind.value == "start" or (a.kind.value == "steal" and a.card is not None)

    def analyse(self) -> None:
        """The analysis of the whole finished match (whatever position the replay shows)."""
        self.playing = False
        open_analysis(self.app, self.final, self.match.name)

    def prompt_text(self) -> str:
        """Nobody decides in a replay: no prompt (not "Ada is thinking…")."""
        return ""

    def seek(self, ply: int) -> None:
        """Jump to the position after ``ply`` actions (no animation); at the end of a finished
        match, its result."""
        ply = max(0, min(len(self.actions), ply))
        s = State(self.match.state.players, self.match.state.teams)
        for a in self.actions[:ply]:
            s.push(a)
        self.match.state = s
        self.match.last_trick = None
        self.pos = ply
        self.queue.clear()
        self.anim = None
        self.modal = ""
        self.view = View.of(s)
        if ply == len(self.actions) and self.finished:
            self.round_loot = [list(cards) for cards in self.view.loot]  # round 3's scoring cards
            self.open_modal("over", None)

    def _finish_anims(self) -> None:
        while self.anim is not None or self.queue:
            if not self._play_beats(10.0):
                if self.modal:
                    self.modal = ""
                    continue
        self.view = View.of(self.match.state)

    def close_modal(self) -> None:
        self.modal = ""
        self.modal_buttons = []

    def look(self) -> tuple:
        return super().look() + (self.pos,)

    def open_modal(self, kind: str, beat: Beat | None) -> None:
        super().open_modal(kind, beat)
        self.modal_buttons = self.layout.modal_button_row(
            [(N_("Back"), self.on_back, None), analysis_button(self.app, self.match)]) if kind == "over" else \
            self.layout.modal_button_row([(N_("Next round"), self.close_modal, pygame.K_RETURN)])

    def update(self, dt: float) -> None:
        self.clock += dt
        if self.modal:
            self.modal_time += dt
            if self.playing and self.modal == "round" and self.modal_time > 2.0:
                self.close_modal()
            return
        if not self._play_beats(dt):
            return
        if self.playing and self.pos < len(self.actions):
            self.wait += dt
            if self.wait >= 0.25 / max(0.25, self.rate):
                self.wait = 0.0
                self._push_next()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.on_back()
            return
        if self.show_last:
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
                self.show_last = False
            return
        if self.modal:
            handle_buttons(self.modal_buttons, event)
            return
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and BAR.inflate(0, 20).collidepoint(event.pos):
            frac = (event.pos[0] - BAR.x) / BAR.w
            self.seek(round(frac * len(self.actions)))
            return
        handle_buttons(self.buttons, event)

    def my_turn(self) -> int:
        return 0

    def viewer(self) -> int:
        """The seat at the bottom: the one person of an unfinished match against computers, else seat 1."""
        return self.owner or 1

    def face_up_seat(self) -> int:
        """Besides :attr:`reveal_all` (a finished match): the one person's own hand, or none."""
        return self.owner

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        super().draw(surface, alpha)
        art = self.app.art
        pygame.draw.rect(surface, (40, 24, 14), BAR, border_radius=8)
        if self.actions:
            w = int(BAR.w * self.pos / len(self.actions))
            pygame.draw.rect(surface, GOLD, (BAR.x, BAR.y, w, BAR.h), border_radius=8)
        label = art.text(_("Replay · {n} / {total}").format(n=self.pos, total=len(self.actions)), 20, CREAM,
                         shadow=True)
        surface.blit(label, label.get_rect(midbottom=(BAR.centerx, BAR.y - 6)))
        if not self.finished:
            note = art.text(_("Unfinished match: the hands stay hidden."), 18, CREAM, shadow=True, wrap=BAR.w)
            surface.blit(note, note.get_rect(midbottom=(BAR.centerx, 440)))

    def unsaved_game(self) -> bool:
        return False

    def quit_question(self) -> str | None:
        return None

    def close(self) -> None:
        self.thinker.close()


__all__ = ["RoyalsReplayScene", "Phase"]
