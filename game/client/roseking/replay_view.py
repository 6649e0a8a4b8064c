"""The replay viewer: a saved game played back with the game view's own sprites
and animations.

:class:`ReplayScene` *is* a :class:`~game.client.roseking.game_scene.GameScene` whose match
never moves by itself: its controllers are passive and the moves come from a
:class:`~game.roseking.replay.Replay` through a :class:`~game.roseking.replay.Playback` clock. A ply
played forward is queued on the view and animated exactly as in live play (pass
banners and reshuffles included); a jump (step back, timeline, move list, Home/End)
seeks the replay and shows the position at once.

Controls: Play/Pause (space), one ply forward/back (Right/Left), start/end
(Home/End), speed 0.5×–4× (+/-), a timeline to click or drag, a clickable move
list that follows the current ply, a chart of both scores over the plies with
passes marked, Back (Esc).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import pygame

from game.roseking.engine import Card, Color, State
from game.i18n import N_, _
from game.roseking.replay import PlyInfo, Playback, Replay
from game.roseking.saves import GameMeta

from .art import COLOR_UI, Art, CREAM, GOLD, GOLD_DARK, art_of
from .board_draw import BoardDrawing
from .game_scene import GameScene, color_name
from .layout import SIDE_LEFT, SIDE_RIGHT
from game.roseking.match import Match
from .movelog import move_words
from ..widgets import Button, handle_buttons, panel

if TYPE_CHECKING:
    from ..app import App

#: Pause after each move's animation at 1× (seconds).
PAUSE_PER_PLY = 0.45
LIST_RECT = pygame.Rect(SIDE_LEFT.x, SIDE_LEFT.y + 16, SIDE_LEFT.w, SIDE_LEFT.h - 32)  # clear of the hero labels
LINE_H = 24
CHART_RECT = pygame.Rect(SIDE_RIGHT.x, 494, SIDE_RIGHT.w, 96)
TIMELINE_RECT = pygame.Rect(SIDE_RIGHT.x + 10, 604, SIDE_RIGHT.w - 20, 22)
PASS_MARK = (120, 200, 255)


class ReplayController:
    """A side in a replay: never moves by itself (the record does); shows the player's name."""

    local_human = False

    def __init__(self, label: str) -> None:
        self.label = label
        self.level: str | None = None  # a computer's level: its name is worded when drawn

    def begin_turn(self, state: State) -> None:
        pass

    def poll(self, state: State, dt: float) -> None:
        return None

    def close(self) -> None:
        pass


class _NoChance:
    """A replay's draws come with their cards; nothing is ever drawn here."""

    def outcome(self, state: State) -> Card | None:
        return None


class ReplayDrawing(BoardDrawing):
    """The game view's drawing with the replay's move list in the status box's place."""

    def __init__(self, scene: "ReplayScene") -> None:
        super().__init__(scene)
        self.replay_scene = scene

    def draw_status(self, surface: pygame.Surface, art: Art, state: State, idle_human: bool) -> None:
        """The move list takes the place of the status box."""
        scene = self.replay_scene
        r = LIST_RECT
        surface.blit(panel(r.size, 250), r)
        title = art.text(_("Moves"), 28, GOLD, shadow=True)
        surface.blit(title, (r.x + 16, r.y + 12))
        rows = (r.h - 60) // LINE_H
        current = scene.replay.ply
        start = art.text(_("start"), 18, CREAM)
        surface.blit(start, start.get_rect(topright=(r.right - 16, r.y + 20)))
        y = r.y + 48
        for info in scene.replay.moves[scene.list_top:scene.list_top + rows]:
            line = pygame.Rect(r.x + 8, y, r.w - 16, LINE_H)
            if info.number == current:
                pygame.draw.rect(surface, (250, 214, 120), line, border_radius=6)
            ink = (40, 26, 14) if info.number == current else COLOR_UI[info.player]
            text = f"{info.number:>3}. {color_name(info.player)}  {move_words(info)}"
            surface.blit(art.text(text, 19, ink), (line.x + 6, line.y + 2))
            if info.passed is not None:
                note = art.text(_("{colour} passes").format(colour=color_name(info.passed)), 17,
                                (30, 60, 110) if info.number == current else PASS_MARK)
                surface.blit(note, note.get_rect(topright=(line.right - 6, line.y + 3)))
            y += LINE_H
        if current == 0:
            pygame.draw.rect(surface, GOLD, start.get_rect(topright=(r.right - 16, r.y + 20)).inflate(8, 4), 2,
                             border_radius=4)


class ReplayScene(GameScene):
    """Plays back ``replay``. ``on_back``: what Back/Esc does (e.g. pop to the list or the menu)."""

    def __init__(self, app: "App", replay: Replay, on_back: Callable[[], object]) -> None:
        rec = replay.record
        replay.to_start()
        meta = GameMeta.from_record(rec)
        sides = (ReplayController(rec.red or _("Red")), ReplayController(rec.white or _("White")))
        if meta.kind == "computer" and meta.computer_color is not None:
            sides[meta.computer_color].level = meta.computer_level  # named by its level in the language shown
        match = Match(replay.state, sides, _NoChance())
        super().__init__(app, match, on_new_game=lambda: None, on_main_menu=on_back)
        self.movelog = None  # the replay's own move list takes the left column
        self.replay = replay
        self.playback = Playback(replay, seconds_per_ply=PAUSE_PER_PLY)
        self.on_back = on_back
        self.dragging = False
        self.list_top = 0
        x, y = SIDE_RIGHT.x, 640
        pb = self.playback
        self.buttons = [
            Button((x, y, 52, 46), "|<", self.to_start, key=pygame.K_HOME, size=24),
            Button((x + 57, y, 52, 46), "<", self.step_back, key=pygame.K_LEFT, size=26),
            Button((x + 114, y, 102, 46), lambda: _("Pause") if pb.playing else _("Play"), self.toggle,
                   key=pygame.K_SPACE, size=24, selected=lambda: pb.playing),
            Button((x + 221, y, 52, 46), ">", self.step_forward, key=pygame.K_RIGHT, size=26),
            Button((x + 278, y, 52, 46), ">|", self.to_end, key=pygame.K_END, size=24),
            Button((x, y + 56, 52, 40), "−", self.slower, key=pygame.K_MINUS, size=28),
            Button((x + 278, y + 56, 52, 40), "+", self.faster, key=pygame.K_PLUS, size=28),
            Button((x, 748, SIDE_RIGHT.w // 2 - 5, 44), N_("Back"), self.on_back, size=24),
            Button((x + SIDE_RIGHT.w // 2 + 5, 748, SIDE_RIGHT.w // 2 - 5, 44), N_("Analyse"), self.analyse,
                   key=pygame.K_a, size=24),
        ]

    def analyse(self) -> None:
        """The analysis of the whole saved game."""
        from .analysis_view import AnalysisScene
        self.playback.pause()
        names = GameMeta.from_record(self.replay.record).names()
        self.app.push(AnalysisScene(self.app, self.replay.final_state, names, on_show=self.seek))

    # ------------------------------------------------------------------ moving the cursor
    def _show_cursor(self) -> None:
        """Show the replay's cursor position at once (after a jump)."""
        self.match.state = self.replay.state
        self.resync()
        self._follow()

    def seek(self, ply: int) -> None:
        """Jump to ``ply`` (clamped) without animating; playback keeps playing from there."""
        self.playback.seek(ply)
        self._show_cursor()

    def step_forward(self) -> None:
        """One ply forward, animated (a running animation is finished first); pauses playback."""
        self.playback.pause()
        self.skip()
        info = self.replay.step_forward()
        if info is not None:
            self._animate(info)

    def step_back(self) -> None:
        self.playback.pause()
        if self.replay.step_back() is not None:
            self._show_cursor()

    def to_start(self) -> None:
        self.playback.pause()
        self.seek(0)

    def to_end(self) -> None:
        self.playback.pause()
        self.seek(self.replay.length)

    def toggle(self) -> None:
        if not self.playback.playing and self.replay.at_end():
            self.seek(0)
        self.playback.toggle()

    def faster(self) -> None:
        self.playback.faster()

    def slower(self) -> None:
        self.playback.slower()

    def _animate(self, info: PlyInfo) -> None:
        self.match.state = self.replay.state
        self.queue.append(info.move)
        self._follow()

    def _follow(self) -> None:
        """Scroll the move list so the current ply stays in view."""
        rows = (LIST_RECT.h - 60) // LINE_H
        current = max(0, self.replay.ply - 1)
        if current < self.list_top or current >= self.list_top + rows:
            self.list_top = max(0, current - rows // 2)

    # ------------------------------------------------------------------ scene
    def unsaved_game(self) -> bool:
        return False

    def pause(self) -> None:  # Esc in the game view: here it goes back
        self.on_back()

    def update(self, dt: float) -> None:
        speed = self.playback.speed
        if not self.busy():
            for info in self.playback.update(dt):
                self._animate(info)
        self.animate(dt * speed)

    def ply_at_x(self, rect: pygame.Rect, x: float) -> int:
        """The ply a point ``x`` of a horizontal bar ``rect`` stands for (0..length)."""
        frac = (x - rect.x) / max(1, rect.w)
        return round(max(0.0, min(1.0, frac)) * self.replay.length)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.on_back()
                return
            if event.key in (pygame.K_EQUALS, pygame.K_KP_PLUS):
                self.faster()
                return
            if event.key == pygame.K_KP_MINUS:
                self.slower()
                return
        if event.type == pygame.MOUSEMOTION:
            self.hover_pos = event.pos
            if self.dragging:
                self.seek(self.ply_at_x(TIMELINE_RECT, event.pos[0]))
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.dragging = False
        if handle_buttons(self.buttons, event):
            return
        if event.type == pygame.MOUSEWHEEL and LIST_RECT.collidepoint(pygame.mouse.get_pos()):
            self.list_top = max(0, min(self.replay.length - 1, self.list_top - 3 * event.y))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            pos = event.pos
            if TIMELINE_RECT.inflate(0, 16).collidepoint(pos) or CHART_RECT.collidepoint(pos):
                self.dragging = TIMELINE_RECT.inflate(0, 16).collidepoint(pos)
                self.seek(self.ply_at_x(TIMELINE_RECT if self.dragging else CHART_RECT, pos[0]))
            elif LIST_RECT.collidepoint(pos):
                row = (pos[1] - (LIST_RECT.y + 48)) // LINE_H
                if row >= 0:
                    ply = self.list_top + row + 1
                    if ply <= self.replay.length:
                        self.playback.pause()
                        self.seek(ply)

    def list_row_center(self, ply: int) -> tuple[int, int]:
        """Where the move list shows ``ply`` (1..length) now (tests click here)."""
        row = ply - 1 - self.list_top
        return LIST_RECT.centerx, LIST_RECT.y + 48 + row * LINE_H + LINE_H // 2

    # ------------------------------------------------------------------ drawing
    def _drawing(self) -> ReplayDrawing:
        return ReplayDrawing(self)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        super().draw(surface, alpha)
        art = art_of(self.app)
        rep, pb = self.replay, self.playback
        head = pygame.Rect(SIDE_RIGHT.x, SIDE_RIGHT.y - 4, SIDE_RIGHT.w, 40)
        title = _("Replay · ply {ply} of {total}").format(ply=rep.ply, total=rep.length)
        if rep.at_end() and not self.busy():  # the end: the result (or that it never came) takes the line
            o = rep.outcome
            title = (_("The game was not finished") if o is None else
                     _("Red wins {red}–{white}") if o.winner is Color.RED else
                     _("White wins {red}–{white}") if o.winner is Color.WHITE else
                     _("Draw {red}–{white}")).format(red=o.red_score if o else 0, white=o.white_score if o else 0)
        s = art.text(title, 24 if not rep.at_end() else 28, GOLD, shadow=True)
        surface.blit(s, s.get_rect(midtop=(head.centerx, head.y)))
        self._draw_chart(surface, art)
        self._draw_timeline(surface)
        speed = art.text(_("Speed {speed}×").format(speed=f"{pb.speed:g}"), 24, CREAM, shadow=True)
        surface.blit(speed, speed.get_rect(center=(SIDE_RIGHT.centerx, 640 + 56 + 20)))

    def _x_of(self, rect: pygame.Rect, ply: int) -> float:
        return rect.x + rect.w * ply / max(1, self.replay.length)

    def _draw_chart(self, surface: pygame.Surface, art: Art) -> None:
        """Both scores over the plies, the current ply as a gold line, passes as blue ticks."""
        r = CHART_RECT
        surface.blit(panel(r.size, 235, 8), r)
        inner = r.inflate(-16, -28).move(0, 8)
        label = art.text(_("Score"), 17, CREAM)
        surface.blit(label, (r.x + 8, r.y + 3))
        scores = self.replay.scores
        top = max(1, max(max(s) for s in scores))
        for color in (Color.RED, Color.WHITE):
            points = [(self._x_of(inner, i), inner.bottom - inner.h * s[color] / top) for i, s in enumerate(scores)]
            if len(points) > 1:
                pygame.draw.lines(surface, COLOR_UI[color], False, points, 2)
            value = art.text(str(scores[self.replay.ply][color]), 17, COLOR_UI[color])
            surface.blit(value, value.get_rect(topright=(r.right - 8 - 40 * (1 - int(color)), r.y + 3)))
        for info in self.replay.passes():
            x = self._x_of(inner, info.number)
            pygame.draw.line(surface, PASS_MARK, (x, inner.bottom - 6), (x, inner.bottom + 2), 2)
        x = self._x_of(inner, self.replay.ply)
        pygame.draw.line(surface, GOLD, (x, inner.y), (x, inner.bottom), 2)

    def _draw_timeline(self, surface: pygame.Surface) -> None:
        r = TIMELINE_RECT
        pygame.draw.rect(surface, (30, 18, 10), r, border_radius=11)
        done = r.copy()
        done.w = int(self._x_of(r, self.replay.ply) - r.x)
        if done.w > 0:
            pygame.draw.rect(surface, GOLD_DARK, done, border_radius=11)
        for info in self.replay.passes():
            x = self._x_of(r, info.number)
            pygame.draw.line(surface, PASS_MARK, (x, r.y - 5), (x, r.bottom + 4), 2)
        pygame.draw.rect(surface, GOLD_DARK, r, 2, border_radius=11)
        knob = (round(self._x_of(r, self.replay.ply)), r.centery)
        pygame.draw.circle(surface, (20, 10, 4), (knob[0], knob[1] + 2), 13)
        pygame.draw.circle(surface, GOLD, knob, 12)
        pygame.draw.circle(surface, GOLD_DARK, knob, 12, 2)
