"""Royals & Riots' post-match analysis screen: the hard search goes over every decision
of a finished match, each from that seat's information only, in a worker process (cancellable),
and the screen draws every seat's score over the match with the costly decisions marked on it,
each seat's points lost, and the list of marked decisions with the better choice (the judging
is :mod:`game.royals.analysis`, pure Python).

Opened from the result of a match (:func:`open_analysis` on the table's "Analyse the match") and
from the replay of a finished match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

import pygame

from game.i18n import N_, _
from game.royals import analysis
from game.royals.engine import EXECUTE, PLAY, STEAL, Action, Card, Phase, State
from game.royals.phrases import card_name

from ..analysis_screen import LABEL_TEXTS, MARK_COLOURS, AnalysisScreen
from ..jobs import WorkerJob
from ..theme import CANVAS, CREAM, GOLD
from ..widgets import elide, panel
from game.royals.match import TableMatch

if TYPE_CHECKING:
    from ..app import App

#: Keyword arguments of the :class:`RoyalsAnalysisJob` a screen starts (tests: a thread and a small budget).
JOB_OPTIONS: dict[str, Any] = {}
SEAT_COLOURS = ((236, 120, 100), (110, 170, 240), (130, 210, 130), (230, 200, 90))
GRAPH = pygame.Rect(90, 150, CANVAS[0] - 180, 240)
LIST = pygame.Rect(70, 470, CANVAS[0] - 140, 236)
ROW_H = 27


class RoyalsAnalysisJob(WorkerJob):
    """Judges every decision of the match ``actions`` off the frame loop (:func:`game.royals.
    analysis.worker`); ``verdicts`` grow decision by decision; ``total`` decisions in all."""

    def __init__(self, actions: Sequence[Action], players: int, teams: bool, iterations: int = analysis.ITERATIONS,
                 playouts: int = analysis.PLAYOUTS, seed: int = 1, thread: bool = False) -> None:
        self.actions = list(actions)
        self.players, self.teams = players, teams
        self.total = analysis.count(self.actions, players, teams)
        self._positions = {i: (s.round, s.trick_no, analysis.scores_now(s))
                           for i, s in analysis.decisions(self.actions, players, teams)}
        self.verdicts: list[analysis.Verdict] = []
        texts = [str(a) for a in self.actions]
        super().__init__(analysis.worker, (texts, players, teams, iterations, playouts, seed, 5),
                         thread=thread, thread_target=self._run_thread)

    @staticmethod
    def _run_thread(conn, stop, actions, players, teams, iterations, playouts, seed, _nice) -> None:
        analysis.run(conn, actions, players, teams, iterations, playouts, seed, stop)

    @property
    def progress(self) -> float:
        return len(self.verdicts) / max(1, self.total)

    def receive(self, msg: tuple) -> None:
        if msg[0] != "verdict":
            return
        index, best, cost = int(msg[1]), Action.from_str(msg[2]), float(msg[3])
        played = self.actions[index]
        rnd, trick, scores = self._positions[index]
        self.verdicts.append(analysis.Verdict(index, played.seat, rnd, trick, played, best, cost,
                                              analysis.label_for(cost), scores))


def decision_words(action: Action, name: Callable[[int], str]) -> str:
    """A decision in the player's words: "played Knights 3", "robbed Ada", "robbed nobody",
    "executed the Queen"."""
    if action.kind is PLAY and action.card is not None:
        return _("played {card}").format(card=card_name(action.card))
    if action.kind is STEAL:
        return _("robbed {name}").format(name=name(action.target)) if action.target else _("robbed nobody")
    if action.kind is EXECUTE and action.card is not None:
        return _("executed {card}").format(card=card_name(action.card))
    return str(action)


def advice_words(action: Action, name: Callable[[int], str]) -> str:
    """The better decision as advice: "play Peasants 10", "rob Ada", "don't steal", "execute
    the Queen"."""
    if action.kind is PLAY and action.card is not None:
        return _("play {card}").format(card=card_name(action.card))
    if action.kind is STEAL:
        return _("rob {name}").format(name=name(action.target)) if action.target else _("don't steal")
    if action.kind is EXECUTE and action.card is not None:
        return _("execute {card}").format(card=card_name(action.card))
    return str(action)


def position_before(actions: Sequence[Action], index: int, players: int, teams: bool) -> State:
    """The match just before decision ``actions[index]`` (the record replayed)."""
    s = State(players, teams)
    for a in actions[:index]:
        s.push(a)
    return s


def score_curve(actions: Sequence[Action], players: int, teams: bool) -> list[tuple[int, ...]]:
    """Every seat's points so far after each action (index 0: before the first), replayed."""
    s = State(players, teams)
    out = [analysis.scores_now(s)]
    for a in actions:
        s.push(a)
        out.append(analysis.scores_now(s))
    return out


class RoyalsAnalysisScene(AnalysisScreen):
    """The analysis of the finished match ``actions`` (``names``: seat -> shown name). ``job``:
    a :class:`RoyalsAnalysisJob` (default: a new one with :data:`JOB_OPTIONS`)."""

    def __init__(self, app: "App", actions: Sequence[Action], players: int, teams: bool,
                 names: Callable[[int], str], job: RoyalsAnalysisJob | None = None,
                 on_back: Callable[[], None] | None = None) -> None:
        self.actions = list(actions)
        self.players, self.teams = players, teams
        self.names = names
        self.curve = score_curve(self.actions, players, teams)
        self.round_starts = [i for i in range(1, len(self.actions))
                             if self.actions[i].kind.value == "deal" and i > 1]
        self.job: RoyalsAnalysisJob = job if job is not None else RoyalsAnalysisJob(self.actions, players, teams,
                                                                                    **JOB_OPTIONS)
        super().__init__(app, self.job, on_back)  # ``selected``: the action index picked on the graph or list
        self.showing = False  # the selected decision's panel (hand and trick) is open

    # ------------------------------------------------------------------ scene
    def update(self, dt: float) -> None:
        self.job.poll()

    @property
    def marked(self) -> list[analysis.Verdict]:
        return [v for v in self.job.verdicts if v.label]

    def handle_event(self, event: pygame.event.Event) -> None:
        rows = (LIST.h - 54) // ROW_H
        if event.type == pygame.MOUSEWHEEL and LIST.collidepoint(pygame.mouse.get_pos()):
            self.top = max(0, min(len(self.marked) - rows, self.top - event.y))
            return
        if self.showing:  # the decision's panel: any click or key puts it away
            if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
                self.showing = False
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and GRAPH.collidepoint(event.pos):
            marked = self.marked
            if marked:
                near = min(range(len(marked)), key=lambda i: abs(self._x(marked[i].index) - event.pos[0]))
                self.show(marked[near].index)
                if not self.top <= near < self.top + rows:
                    self.top = max(0, min(near - rows // 2, len(marked) - rows))
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and LIST.collidepoint(event.pos):
            row = (event.pos[1] - (LIST.y + 44)) // ROW_H
            if 0 <= row and self.top + row < len(self.marked):
                self.show(self.marked[self.top + row].index)
            return
        super().handle_event(event)

    def show(self, index: int) -> None:
        """Select the marked decision ``actions[index]`` and show it: that player's hand and the
        trick at that moment, what was played and what was better (:meth:`decision_layout`)."""
        self.selected = index
        self.showing = True

    # ------------------------------------------------------------------ texts
    def side_texts(self) -> list[str]:
        """Per seat: "Ada: 3 marked, about 7 points lost in 38 decisions" (judged so far)."""
        out = []
        for seat in range(1, self.players + 1):
            mine = [v for v in self.job.verdicts if v.seat == seat]
            out.append(_("{name}: {marked} marked, about {points} points lost in {moves} decisions").format(
                name=self.names(seat), marked=sum(1 for v in mine if v.label),
                points=round(sum(v.cost for v in mine)), moves=len(mine)))
        return out

    def row_text(self, v: analysis.Verdict) -> str:
        """A marked decision's line in the list."""
        return _("Round {round}, trick {trick} · {name}: {move} — {label} (about {points} points); better: {best}").format(
            round=v.round, trick=v.trick, name=self.names(v.seat), move=decision_words(v.played, self.names),
            label=_(LABEL_TEXTS[v.label]), points=f"{v.cost:.1f}", best=advice_words(v.best, self.names))

    def side_layout(self) -> list[tuple[str, pygame.Surface, pygame.Rect]]:
        """Each seat's line (:meth:`side_texts`) in its colour under the graph, two a row, as
        (text, image, where); a text too wide for its half takes a smaller size."""
        art = self.app.art
        half = GRAPH.w // 2 - 10
        out = []
        for k, text in enumerate(self.side_texts()):
            for size in (19, 17, 15, 13):
                img = art.text(text, size, SEAT_COLOURS[k], shadow=True)
                if img.get_width() <= half:
                    break
            at = (GRAPH.x + (k % 2) * (GRAPH.w // 2), GRAPH.bottom + 22 + (k // 2) * 24)
            out.append((text, img, img.get_rect(topleft=at)))
        return out

    # ------------------------------------------------------------------ drawing
    def _x(self, index: int) -> float:
        return GRAPH.x + GRAPH.w * index / max(1, len(self.actions))

    def _y(self, points: float) -> float:
        low = min(0, min(min(s) for s in self.curve))
        high = max(1, max(max(s) for s in self.curve))
        return GRAPH.bottom - GRAPH.h * (points - low) / (high - low)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        surface.blit(art.table, (0, 0))
        title = art.text(_("Analysis"), 52, GOLD, shadow=True)
        surface.blit(title, title.get_rect(midtop=(CANVAS[0] // 2, 20)))
        self._draw_progress(surface)
        self._draw_graph(surface)
        for _text, img, where in self.side_layout():
            surface.blit(img, where)
        self._draw_list(surface)
        self.draw_buttons(surface)
        if self.showing and self.selected is not None:
            self._draw_decision(surface)

    def verdict(self, index: int) -> analysis.Verdict | None:
        return next((v for v in self.job.verdicts if v.index == index), None)

    def decision_layout(self) -> tuple[pygame.Rect, list[tuple[str | Card, pygame.Surface, pygame.Rect]]]:
        """The selected decision's panel (canvas px) and what it shows as (text or card, image,
        where): the headline (round, trick, who, what was played and what was better), the trick
        as it stood, that player's hand then; the played card framed red, the better one green."""
        from .art import royals_art
        art, ra = self.app.art, royals_art(self.app)
        v = self.verdict(self.selected) if self.selected is not None else None
        box = pygame.Rect(0, 0, 1040, 470)
        box.center = (CANVAS[0] // 2, 380)
        items: list[tuple[str | Card, pygame.Surface, pygame.Rect]] = []
        if v is None:
            return box, items
        s = position_before(self.actions, v.index, self.players, self.teams)
        head = self.row_text(v)
        img = art.text(head, 22, GOLD, shadow=True, wrap=box.w - 60)
        items.append((head, img, img.get_rect(topleft=(box.x + 30, box.y + 24))))
        y = items[-1][2].bottom + 18
        scale = 0.55
        for label, cards in ((_("The trick:"), [c for _seat, c in s.observation(v.seat).trick]),
                             (_("{name}'s hand:").format(name=self.names(v.seat)), list(s.hand(v.seat)))):
            t = art.text(label, 20, CREAM, shadow=True)
            items.append((label, t, t.get_rect(topleft=(box.x + 30, y))))
            x = box.x + 30
            y += t.get_height() + 6
            if not cards:
                none = art.text(_("(empty)"), 20, CREAM)
                items.append(("(empty)", none, none.get_rect(topleft=(x, y))))
            for card in cards:
                face = ra.face(card, scale)
                items.append((card, face, face.get_rect(topleft=(x, y))))
                x += face.get_width() + 8
            y += int(ra.face(cards[0], scale).get_height() if cards else 30) + 16
        return box, items

    def _draw_decision(self, surface: pygame.Surface) -> None:
        from ..dialogs import dim
        v = self.verdict(self.selected) if self.selected is not None else None
        if v is None:
            return
        dim(surface)
        box, items = self.decision_layout()
        surface.blit(panel(box.size, 245), box)
        played = v.played.card
        better = v.best.card
        for what, img, where in items:
            surface.blit(img, where)
            if not isinstance(what, str):
                if what == played:
                    pygame.draw.rect(surface, (230, 70, 50), where.inflate(8, 8), 4, border_radius=8)
                if what == better:
                    pygame.draw.rect(surface, (90, 210, 120), where.inflate(14, 14), 4, border_radius=10)
        key = self.app.art.text(_("Red: what was played. Green: what was better. Click to go on."), 18, CREAM)
        surface.blit(key, key.get_rect(midbottom=(box.centerx, box.bottom - 14)))

    def _draw_progress(self, surface: pygame.Surface) -> None:
        job = self.job
        self.draw_progress(surface, pygame.Rect(GRAPH.x, 90, GRAPH.w, 26),
                           _("Analysed {n} decisions with the strongest computer level, each from that player's "
                             "view only.").format(n=len(job.verdicts)),
                           _("Analysing decision {k} of {n}…").format(k=len(job.verdicts), n=job.total), job.progress)

    def _draw_graph(self, surface: pygame.Surface) -> None:
        art = self.app.art
        r = GRAPH
        back = r.inflate(40, 40)
        surface.blit(panel(back.size, 235, 10), back)
        zero = self._y(0)
        pygame.draw.line(surface, (120, 100, 70), (r.x, zero), (r.right, zero), 1)
        low = min(0, min(min(s) for s in self.curve))
        high = max(1, max(max(s) for s in self.curve))
        drawn: list[float] = []
        for value in (0, high, low):  # the y axis: points so far (a label too close to another is left out)
            y = self._y(value)
            if any(abs(y - other) < 16 for other in drawn):
                continue
            drawn.append(y)
            t = art.text(str(value), 16, (220, 200, 160))
            surface.blit(t, t.get_rect(midright=(r.x - 6, y)))
        axis = pygame.transform.rotate(art.text(_("points so far"), 16, (220, 200, 160)), 90)
        surface.blit(axis, axis.get_rect(midright=(r.x - 42, r.centery)))
        for k, start in enumerate([0, *self.round_starts]):
            x = self._x(start)
            if k:
                pygame.draw.line(surface, (120, 100, 70), (x, r.y), (x, r.bottom), 1)
            s = art.text(_("Round {r}").format(r=k + 1), 16, (220, 200, 160))
            surface.blit(s, (x + 4, r.y - 2))
        for seat in range(1, self.players + 1):
            points = [(self._x(i), self._y(s[seat - 1])) for i, s in enumerate(self.curve)]
            pygame.draw.lines(surface, SEAT_COLOURS[seat - 1], False, points, 3)
        for v in self.job.verdicts:
            if v.label:
                x, y = self._x(v.index), self._y(self.curve[v.index][v.seat - 1])
                pygame.draw.circle(surface, (20, 10, 4), (x, y), 8)
                pygame.draw.circle(surface, MARK_COLOURS[v.label], (x, y), 6)
                pygame.draw.circle(surface, SEAT_COLOURS[v.seat - 1], (x, y), 8, 2)
        if self.selected is not None:
            x = self._x(self.selected)
            pygame.draw.line(surface, CREAM, (x, r.y), (x, r.bottom), 2)

    def _draw_list(self, surface: pygame.Surface) -> None:
        art = self.app.art
        r = LIST
        surface.blit(panel(r.size, 235, 10), r)
        marked = self.marked
        rows = (r.h - 54) // ROW_H
        self.draw_list_head(surface, r, [v.label for v in marked], rows,
                            _("No costly decisions found: well played by all."))
        for i, v in enumerate(marked[self.top:self.top + rows]):
            line = pygame.Rect(r.x + 10, r.y + 44 + i * ROW_H, r.w - 20, ROW_H - 2)
            if v.index == self.selected:
                pygame.draw.rect(surface, (90, 60, 30), line, border_radius=6)
            pygame.draw.circle(surface, MARK_COLOURS[v.label], (line.x + 12, line.centery), 6)
            text = elide(art.font(19), self.row_text(v), line.w - 34)
            surface.blit(art.text(text, 19, SEAT_COLOURS[v.seat - 1]), (line.x + 26, line.y + 4))


def finished(state: State) -> bool:
    """Whether ``state`` is a finished match (the analysis is offered only then)."""
    return state.phase is Phase.OVER


def open_analysis(app: "App", state: State, names: Callable[[int], str]) -> RoyalsAnalysisScene:
    """Push the analysis of the finished match ``state`` (its history). Raises ValueError for a
    match not finished: an unfinished one would show the hands still hidden from a person."""
    if not finished(state):
        raise ValueError("only a finished match can be analysed")
    scene = RoyalsAnalysisScene(app, state.history, state.players, state.teams, names)
    app.push(scene)
    return scene


def analysis_button(app: "App", match: TableMatch) -> tuple[str, Callable[[], None], int | None]:
    """The result screen's "Analyse the match" button (label, action, key) for the table or replay
    of ``match``: the spec its ``modal_button_row`` takes."""
    def analyse() -> None:
        open_analysis(app, match.state, match.name)
    return (N_("Analyse the match"), analyse, pygame.K_a)


__all__ = ["RoyalsAnalysisJob", "RoyalsAnalysisScene", "analysis_button", "decision_words", "finished",
           "open_analysis", "score_curve"]
