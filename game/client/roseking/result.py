"""The result panel shown over the finished game: who won and why (rulings 7 and 8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

import pygame

from game.roseking.engine import Color, Outcome, Termination, square_name
from game.roseking.engine.cards import iter_bits
from game.i18n import N_, _

from .art import COLOR_UI, CREAM, GOLD, art_of
from .layout import SIDE_RIGHT
from ..widgets import Button, ButtonScene, panel

if TYPE_CHECKING:
    from game.roseking.engine import State

    from ..app import App
    from game.roseking.match import Match


class FinishedGame(Protocol):
    """What :class:`ResultPanel` uses of the game scene under it (the game scene is the one):
    its match and buttons' actions, the move log's peeking, the mouse's place and the clocks."""

    hover_pos: tuple[int, int]

    @property
    def match(self) -> "Match": ...
    @property
    def peek(self) -> int | None:
        """The ply the move log shows instead of the end, or None."""
    @property
    def on_new_game(self) -> Callable[[], object]: ...
    @property
    def on_main_menu(self) -> Callable[[], object]: ...
    def show_ply(self, ply: int) -> None: ...
    def back_to_game(self) -> None: ...
    def player_names(self) -> tuple[str, str]: ...
    def handle_event(self, event: pygame.event.Event) -> None: ...
    def tick(self, dt: float) -> None:
        """Advance the glows, toast and banner (the match waits)."""
    def at_rest(self) -> bool: ...


def territory_lines(state: "State", color: Color) -> list[str]:
    """One line per territory of ``color``: size, points and squares, largest first."""
    lines, singles = [], []
    for group in state.territories(color):
        n = group.bit_count()
        squares = " ".join(square_name(sq) for sq in iter_bits(group))
        if n == 1:
            singles.append(squares)
        else:
            lines.append(_("{n} × {n} = {points}: {squares}").format(n=n, points=n * n, squares=squares))
    if len(singles) == 1:
        lines.append(_("a single stone, 1 point: {square}").format(square=singles[0]))
    elif singles:
        lines.append(_("{count} single stones, 1 point each: {squares}").format(
            count=len(singles), squares=" ".join(singles)))
    return lines


def headline(outcome: Outcome) -> str:
    if outcome.winner is None:
        return _("A draw!")
    return _("Red wins!") if outcome.winner is Color.RED else _("White wins!")


def decided_line(state: "State", outcome: Outcome) -> str:
    """Which rule decided (ruling 8), with the figures that decided it."""
    if outcome.decided_by == "score":
        return _("Decided by points: {red} to {white}.").format(red=outcome.red_score, white=outcome.white_score)
    red, white = state.territories(Color.RED), state.territories(Color.WHITE)
    if outcome.decided_by == "largest territory":
        return _("Points tied at {score}; the larger single territory decides: {red} to {white}.").format(
            score=outcome.red_score, red=red[0].bit_count() if red else 0, white=white[0].bit_count() if white else 0)
    if outcome.decided_by == "stones":
        return _("Points and largest territory tied; more stones on the board decide: {red} to {white}.").format(
            red=state.stones[0].bit_count(), white=state.stones[1].bit_count())
    return _("Points, largest territory and stones are all equal.")


class ResultPanel(ButtonScene):
    """Over the finished board (territories outlined by the game scene): each side's territories,
    totals, the tie-break where it decided, and buttons for a new game and the main menu."""

    opaque = False

    app: "App"

    def __init__(self, app: "App", game: FinishedGame) -> None:
        super().__init__(app)
        self.game = game
        self.state = game.match.state
        self.outcome = self.state.outcome()
        # right of the board, above the Targets/Menu/Undo/Hint buttons (which stay usable)
        self.rect = pygame.Rect(SIDE_RIGHT.x - 5, 12, SIDE_RIGHT.w + 10, 540)
        bw = (self.rect.w - 50) // 2
        by = self.rect.bottom - 66
        self.buttons = [
            Button((self.rect.x + 20, by, bw, 48), N_("New game"), game.on_new_game, key=pygame.K_n, size=26),
            Button((self.rect.right - 20 - bw, by, bw, 48), N_("Main menu"), game.on_main_menu, key=pygame.K_m, size=26),
            Button((self.rect.x + 20, by - 58, self.rect.w - 40, 48), N_("Analyse the game"), self.analyse,
                   key=pygame.K_a, size=26),
        ]

    def analyse(self) -> None:
        """The post-game analysis of this game, over the finished board."""
        from .analysis_view import AnalysisScene
        def show(ply: int) -> None:
            self.game.show_ply(ply)  # the finished game's board shows that move; the log and Esc go back
        self.app.push(AnalysisScene(self.app, self.state, self.game.player_names(), on_show=show))

    def unsaved_game(self) -> bool:
        return False

    def headline(self) -> str:
        """The panel's title: who won ("Red wins!"; a network game's panel names the player)."""
        assert self.outcome is not None, "the result of a finished game"
        return headline(self.outcome)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.game.hover_pos = event.pos
        elif (event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL)
              and not self.rect.collidepoint(getattr(event, "pos", self.game.hover_pos))):
            self.game.handle_event(event)  # the move log and the board's buttons stay usable
            return
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.game.peek is not None:
            self.game.back_to_game()
            return
        super().handle_event(event)

    def update(self, dt: float) -> None:
        self.game.tick(dt)

    def at_rest(self) -> bool:
        return self.game.at_rest()

    def layout(self) -> list[tuple[str, pygame.Surface, pygame.Rect]]:
        """Every text on the panel as (text, image, where), canvas px: the headline, why the game
        ended and which rule decided (ruling 8), then each side's points and territories, as many
        territory lines as fit above the buttons (then "…"). Nothing reaches the buttons."""
        art = art_of(self.app)
        o = self.outcome
        assert o is not None, "the result of a finished game"
        r = self.rect
        items: list[tuple[str, pygame.Surface, pygame.Rect]] = []
        limit = min(b.rect.top for b in self.buttons) - 8  # the texts end above the buttons

        def put(text: str, surf: pygame.Surface, x: int, y: int) -> int:
            items.append((text, surf, surf.get_rect(topleft=(x, y))))
            return surf.get_height()

        color = GOLD if o.winner is None else COLOR_UI[o.winner]
        head = self.headline()
        title = art.text(head, 46, color, shadow=True)
        put(head, title, r.centerx - title.get_width() // 2, r.y + 18)
        y = r.y + 74
        why = _("All 52 stones are on the board.") if o.termination is Termination.STONES else \
            _("Neither player can move.")
        for text, size, col in ((why, 20, (220, 200, 160)), (decided_line(self.state, o), 22, CREAM)):
            y += put(text, art.text(text, size, col, wrap=r.w - 36), r.x + 18, y) + 8
        more = art.text("…", 18, CREAM)
        for c, score in ((Color.RED, o.red_score), (Color.WHITE, o.white_score)):
            y += 6
            text = _("{colour}: {points} points").format(colour=_("Red") if c is Color.RED else _("White"),
                                                           points=score)
            name = art.text(text, 28, COLOR_UI[c], shadow=True)
            if y + name.get_height() > limit:
                break
            y += put(text, name, r.x + 18, y) + 4
            lines = territory_lines(self.state, c) or [_("no stones on the board")]
            # Red's lines leave room for White's headline and first lines; a cut list ends with "…"
            room = limit - (name.get_height() + 50 if c is Color.RED else 0)
            for k, line in enumerate(lines):
                s = art.text(line, 17, CREAM, wrap=r.w - 44)
                need = s.get_height() + (0 if k == len(lines) - 1 else 3 + more.get_height())
                if y + need > room:
                    if y + more.get_height() <= room:
                        y += put("…", more, r.x + 24, y)
                    break
                y += put(line, s, r.x + 24, y) + 3
        return items

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        surface.blit(panel(self.rect.size, 255), self.rect)
        for _text, surf, rect in self.layout():
            surface.blit(surf, rect)
        self.draw_buttons(surface)
