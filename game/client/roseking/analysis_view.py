"""The "Analyse" view: the strong computer level goes over every move of a finished
or saved game in the background, with a progress bar; the evaluation is drawn as a graph over
the game and inaccuracies, mistakes and blunders are listed with the best move and how much
winning chance was lost (the judging is :mod:`game.roseking.analysis`, pure Python).

The search runs in a worker process (``spawn``, like the computer's thinking), so the window
keeps its frame rate; "Cancel" stops it at once. Tests pass ``thread=True`` to run it in a
thread with a small iteration budget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import pygame

from game.i18n import N_, _
from game.roseking import analysis
from game.roseking.engine import Color, Move, State

from .art import COLOR_UI, CREAM, GOLD, art_of
from .movelog import move_words, ply_infos
from ..analysis_screen import LABEL_TEXTS, MARK_COLOURS, AnalysisScreen
from ..jobs import WorkerJob
from ..theme import CANVAS
from ..widgets import Button, panel

if TYPE_CHECKING:
    from ..app import App

#: Search budget per position of the analysis (the hard level's search).
SECONDS_PER_POSITION = 0.3
LEVEL = "hard"
#: Keyword arguments of the :class:`AnalysisJob` a scene starts (tests: a thread and a small budget).
JOB_OPTIONS: dict[str, Any] = {}
GRAPH = pygame.Rect(70, 150, CANVAS[0] - 140, 250)
LIST = pygame.Rect(70, 445, CANVAS[0] - 140, 264)
ROW_H = 27


class AnalysisJob(WorkerJob):
    """Evaluates every position of ``final``'s game off the frame loop (a :class:`WorkerJob`
    running :func:`game.roseking.analysis.worker`). ``poll()`` takes what arrived (never blocks);
    ``red``/``best`` grow position by position; ``done``/``error``."""

    def __init__(self, final: State, seconds: float | None = SECONDS_PER_POSITION, iterations: int | None = None,
                 seed: int | None = 1, thread: bool = False) -> None:
        self.final = final.copy()
        self.total = final.ply + 1  # positions, the deal included
        self.red: list[float] = []
        self.best: list[Move | None] = []
        super().__init__(analysis.worker, (self.final, LEVEL, seconds, iterations, seed, 5), thread=thread,
                         thread_target=self._run_thread)

    def _run_thread(self, conn, stop, final, level, seconds, iterations, seed, _nice) -> None:
        from game.roseking.ai import make_player
        player = make_player(level, seed, seconds=seconds, iterations=iterations)
        for k, best, value in analysis.analyse(final, player, stop=stop):
            conn.send(("pos", k, "" if best is None else str(best), value))
        conn.send(("done",))

    @property
    def progress(self) -> float:
        return len(self.red) / max(1, self.total)

    def receive(self, msg: tuple) -> None:
        if msg[0] == "pos":
            self.red.append(float(msg[3]))
            self.best.append(Move.from_str(msg[2]) if msg[2] else None)

    def reviews(self) -> list[analysis.Review]:
        return analysis.reviews(self.final, self.red, self.best)


def loss_text(review: analysis.Review) -> str:
    """What a marked move cost: "about 12 points, −9% winning chance (25% of what was left)" (the
    share of what was left marks it, :mod:`game.roseking.analysis`)."""
    return _("about {points} points, −{percent}% winning chance ({share}% of what was left)").format(
        points=round(review.points), percent=round(100 * review.loss), share=round(100 * review.share))


def side_text(name: str, side: analysis.SideSummary) -> str:
    """One side's line under the graph: "Anna: 8 moves marked, about 164 points lost in 53 moves"."""
    return _("{name}: {marked} marked, about {points} points lost in {moves} moves").format(
        name=name, marked=side.marked, points=round(side.points), moves=side.moves)



class AnalysisScene(AnalysisScreen):
    """The analysis of ``final``'s game: progress, the graph of Red's winning chance over the
    plies (marks on inaccuracies, mistakes, blunders), and the list of marked moves with the best
    move. ``names``: (red, white) as shown. ``job``: an :class:`AnalysisJob` (default: a new one)."""

    def __init__(self, app: "App", final: State, names: tuple[str, str], job: AnalysisJob | None = None,
                 on_back: Callable[[], None] | None = None, on_show: Callable[[int], None] | None = None) -> None:
        self.final = final.copy()
        self.names = names
        self.infos = ply_infos(self.final)
        self.job: AnalysisJob = job if job is not None else AnalysisJob(self.final, **JOB_OPTIONS)
        super().__init__(app, self.job, on_back)  # ``selected``: the ply picked on the graph or the list
        self.clock = 0.0
        self._reviews: list[analysis.Review] = []
        self.on_show = on_show  # shows the position after a move on the board (the game or the replay)
        if on_show is not None:
            self.buttons.append(Button((70, 722, 380, 54), N_("Show the move on the board"), self.show, key=pygame.K_RETURN,
                                       size=28, enabled=lambda: self.selected is not None))

    def show(self) -> None:
        """Close the analysis and show the position after the selected move (its marks on the board)."""
        if self.selected is not None and self.on_show is not None:
            ply = self.selected
            self.job.cancel()
            self.app.pop()
            self.on_show(ply)

    # ------------------------------------------------------------------ scene
    def update(self, dt: float) -> None:
        self.clock += dt
        if self.job.poll() or len(self._reviews) != min(self.final.ply, max(0, len(self.job.red) - 1)):
            self._reviews = self.job.reviews()

    @property
    def marked(self) -> list[analysis.Review]:
        return [r for r in self._reviews if r.label]

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL and LIST.collidepoint(pygame.mouse.get_pos()):
            self.top = max(0, min(len(self.marked) - 1, self.top - event.y))
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and GRAPH.collidepoint(event.pos):
            n = max(1, self.final.ply)
            selected = self.selected = max(1, min(n, round((event.pos[0] - GRAPH.x) / GRAPH.w * n)))
            marked = self.marked
            near = min(range(len(marked)), key=lambda i: abs(marked[i].ply - selected), default=None)
            if near is not None:  # the list shows the marked move nearest to the click
                rows = (LIST.h - 54) // ROW_H
                if not self.top <= near < self.top + rows:
                    self.top = max(0, min(near - rows // 2, len(marked) - rows))
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and LIST.collidepoint(event.pos):
            row = (event.pos[1] - (LIST.y + 44)) // ROW_H
            marked = self.marked
            if 0 <= row and self.top + row < len(marked):
                self.selected = marked[self.top + row].ply
            return
        super().handle_event(event)

    # ------------------------------------------------------------------ drawing
    def _x(self, ply: int) -> float:
        return GRAPH.x + GRAPH.w * ply / max(1, self.final.ply)

    def _y(self, red: float) -> float:
        return GRAPH.bottom - GRAPH.h * red

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = art_of(self.app)
        surface.blit(art.table, (0, 0))
        title = art.text(_("Analysis"), 52, GOLD, shadow=True)
        surface.blit(title, title.get_rect(midtop=(CANVAS[0] // 2, 20)))
        self._draw_progress(surface, art)
        self._draw_graph(surface, art)
        self._draw_list(surface, art)
        self.draw_buttons(surface)

    def _draw_progress(self, surface: pygame.Surface, art) -> None:
        job = self.job
        self.draw_progress(surface, pygame.Rect(GRAPH.x, 90, GRAPH.w, 26),
                           _("Analysed {n} moves with the strongest computer level.").format(n=self.final.ply),
                           _("Analysing position {k} of {n}…").format(k=len(job.red), n=job.total), job.progress)

    def _draw_graph(self, surface: pygame.Surface, art) -> None:
        r = GRAPH
        surface.blit(panel(r.inflate(24, 40).size, 235, 10), r.inflate(24, 40).move(0, -6))
        half = self._y(0.5)
        pygame.draw.line(surface, (120, 100, 70), (r.x, half), (r.right, half), 1)
        for text, at in ((_("Red winning"), r.y), (_("White winning"), r.bottom - 20)):
            s = art.text(text, 18, (220, 200, 160))
            surface.blit(s, (r.x + 6, at))
        red = self.job.red
        if len(red) > 1:
            top = [(self._x(k), self._y(v)) for k, v in enumerate(red)]
            area = top + [(self._x(len(red) - 1), r.bottom), (r.x, r.bottom)]
            shade = pygame.Surface(r.size, pygame.SRCALPHA)
            pygame.draw.polygon(shade, (*COLOR_UI[Color.RED], 70), [(x - r.x, y - r.y) for x, y in area])
            surface.blit(shade, r)
            pygame.draw.lines(surface, GOLD, False, top, 3)
        for review in self._reviews:
            if review.label:
                x, y = self._x(review.ply), self._y(red[review.ply]) if review.ply < len(red) else half
                pygame.draw.circle(surface, (20, 10, 4), (x, y), 8)
                pygame.draw.circle(surface, MARK_COLOURS[review.label], (x, y), 6)
        if self.selected is not None:
            x = self._x(self.selected)
            pygame.draw.line(surface, CREAM, (x, r.y), (x, r.bottom), 2)

    def _draw_list(self, surface: pygame.Surface, art) -> None:
        r = LIST
        surface.blit(panel(r.size, 235, 10), r)
        marked = self.marked
        rows = (r.h - 54) // ROW_H
        self.draw_list_head(surface, r, [m.label for m in marked], rows,
                            _("No inaccuracies found: well played by both."))
        for _text, img, where in self.side_layout():
            surface.blit(img, where)
        for i, review in enumerate(marked[self.top:self.top + rows]):
            y = r.y + 44 + i * ROW_H
            line = pygame.Rect(r.x + 10, y, r.w - 20, ROW_H - 2)
            if review.ply == self.selected:
                pygame.draw.rect(surface, (90, 60, 30), line, border_radius=6)
            pygame.draw.circle(surface, MARK_COLOURS[review.label], (line.x + 12, line.centery), 6)
            info = self.infos[review.ply - 1]
            best = ""
            if review.best is not None:
                best = _("best: {move}").format(move=self._best_words(review))
            text = "{n}. {name}: {move} — {label} ({loss}); {best}".format(
                n=review.ply, name=self.names[review.player], move=move_words(info),
                label=_(LABEL_TEXTS[review.label]), loss=loss_text(review), best=best)
            s = art.text(text, 20, COLOR_UI[review.player] if review.player is Color.WHITE else (255, 170, 160))
            surface.blit(s, (line.x + 26, line.y + 4), pygame.Rect(0, 0, line.w - 30, ROW_H))

    def side_layout(self) -> list[tuple[str, pygame.Surface, pygame.Rect]]:
        """Each side's points lost (:func:`side_text`) under the graph, Red's left, White's right,
        as (text, image, where); a text too wide for its half takes a smaller size. Empty until a
        move is judged. What a slide of the graph adds up to, even where no move is marked."""
        if not self._reviews:
            return []
        art = art_of(self.app)
        sides = analysis.summary(self._reviews)
        out = []
        half = GRAPH.w // 2 - 10
        for i, color in enumerate((Color.RED, Color.WHITE)):
            text = side_text(self.names[color], sides[color])
            colour = COLOR_UI[color] if color is Color.WHITE else (255, 170, 160)
            for size in (19, 17, 15, 13):
                img = art.text(text, size, colour, shadow=True)
                if img.get_width() <= half:
                    break
            out.append((text, img, img.get_rect(topleft=(GRAPH.x + i * (GRAPH.w // 2), GRAPH.bottom + 19))))
        return out

    def _best_words(self, review: analysis.Review) -> str:
        """The best move in the log's words (from the position before the move)."""
        from game.roseking.replay import PlyInfo
        from .movelog import state_at
        best = review.best
        assert best is not None
        before = state_at(self.final, review.ply - 1)
        if best.card is None:
            return _("draw a card")
        target = before.target(best.card)
        return move_words(PlyInfo(review.ply, best, before.crown, target if target is not None else before.crown,
                                  None, (0, 0), 0))


__all__ = ["AnalysisJob", "AnalysisScene", "LEVEL", "SECONDS_PER_POSITION"]
