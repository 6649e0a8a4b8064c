"""What both games' post-game analysis screens share: the job running in a
worker, leaving (Back / Cancel / Esc ends the job), the progress bar, and the head of the list
of marked moves. Each game's screen (``roseking.analysis_view``, ``royals.analysis_view``)
draws its own graph and rows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

import pygame

from game.i18n import N_, _
from game.marks import LABELS

from .jobs import WorkerJob
from .theme import CANVAS, CREAM, GOLD, GOLD_DARK
from .widgets import Button, ButtonScene

if TYPE_CHECKING:
    from .app import App

MARK_COLOURS = {"inaccuracy": (240, 210, 90), "mistake": (245, 150, 60), "blunder": (230, 60, 50)}
LABEL_TEXTS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}


class AnalysisScreen(ButtonScene):
    """A screen showing a :class:`WorkerJob`'s analysis: ``job``; ``on_back`` (default: pop) after
    the job is cancelled; ``top`` (the list's first row shown) and ``selected`` for the subclass."""

    def __init__(self, app: "App", job: WorkerJob, on_back: Callable[[], None] | None = None) -> None:
        super().__init__(app)
        self.job = job
        self.on_back = on_back or app.pop
        self.top = 0
        self.selected: int | None = None
        self.buttons = [Button((CANVAS[0] - 70 - 220, 722, 220, 54), lambda: _("Back") if self.job.done
                               else _("Cancel"), self.back, size=28)]

    def back(self) -> None:
        self.job.cancel()
        self.on_back()

    on_escape = back

    def close(self) -> None:
        self.job.cancel()

    def at_rest(self) -> bool:
        return self.job.done

    def draw_progress(self, surface: pygame.Surface, bar: pygame.Rect, done: str, running: str,
                      progress: float) -> None:
        """The line over the graph: ``running`` in a progress bar filled to ``progress`` (0..1)
        while the job runs, then ``done`` (or why the analysis failed)."""
        art = self.app.art
        job = self.job
        text = _("The analysis failed: {reason}").format(reason=job.error) if job.error else \
            done if job.done else running
        s = art.text(text, 22, CREAM, shadow=True)
        if job.done:
            surface.blit(s, s.get_rect(midleft=(bar.x, bar.centery)))
            return
        pygame.draw.rect(surface, (30, 18, 10), bar, border_radius=13)
        fill = bar.copy()
        fill.w = int(bar.w * progress)
        if fill.w > 0:
            pygame.draw.rect(surface, GOLD_DARK, fill, border_radius=13)
        pygame.draw.rect(surface, GOLD, bar, 2, border_radius=13)
        surface.blit(s, s.get_rect(center=bar.center))

    def draw_list_head(self, surface: pygame.Surface, r: pygame.Rect, labels: Sequence[str], rows: int,
                       none_found: str) -> None:
        """The list's head in ``r``: how many of each mark (``labels``: one per marked move), "scroll
        for more" when more than ``rows`` are marked, ``none_found`` once the job found none."""
        art = self.app.art
        counts = {label: sum(1 for m in labels if m == label) for label in LABELS}
        head = _("Inaccuracies: {i}   Mistakes: {m}   Blunders: {b}").format(
            i=counts["inaccuracy"], m=counts["mistake"], b=counts["blunder"])
        surface.blit(art.text(head, 22, GOLD, shadow=True), (r.x + 16, r.y + 12))
        if self.job.done and not labels and not self.job.error:
            surface.blit(art.text(none_found, 22, CREAM), (r.x + 16, r.y + 50))
        if len(labels) > rows:  # more than fit: say so (the wheel or a click on the graph scrolls)
            more = art.text(_("{first}–{last} of {count}: scroll for more").format(
                first=self.top + 1, last=min(len(labels), self.top + rows), count=len(labels)), 18, CREAM)
            surface.blit(more, more.get_rect(topright=(r.right - 16, r.y + 16)))


__all__ = ["AnalysisScreen", "LABEL_TEXTS", "MARK_COLOURS"]
