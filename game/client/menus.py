"""The main menu: each game's ways to start (from :mod:`game.client.games`), then what
serves every game (continue, saved games, how to play, settings, quit), and the chosen game's
statistics against the computer (:mod:`game.stats`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.i18n import N_, _
from game.registry import game_by_key
from game.settings import schema_of

from .games import CLIENT_GAMES
from .saved_games import add_save_buttons
from .theme import CANVAS, CREAM, GOLD
from .widgets import Button, ButtonScene, fit_size

if TYPE_CHECKING:
    from .app import App


def layout_main_menu(buttons: list[Button], has_continue: bool, top: int = 290) -> None:
    """Two columns of buttons under the title, in list order, row by row; "Continue"
    (when there is a game to continue) spans the top row, as wide as both columns (its label
    names the players and how far the game went: one line with up to four names)."""
    cx = CANVAS[0] // 2
    rows = buttons
    y = top
    if has_continue:
        buttons[0].rect.update(cx - 390, y, 780, 60)
        rows = buttons[1:]
        y += 76
    for i, b in enumerate(rows):
        b.rect.update(cx - 390 if i % 2 == 0 else cx + 10, y + (i // 2) * 76, 380, 60)


#: Where the main menu's choice of game sits (one tab per game, side by side).
TAB_W, TAB_H, TAB_Y = 300, 64, 14


def game_tabs() -> list[pygame.Rect]:
    """The rects of the main menu's game tabs, centred in a row."""
    n = len(CLIENT_GAMES)
    x0 = CANVAS[0] // 2 - (n * TAB_W + (n - 1) * 16) // 2
    return [pygame.Rect(x0 + i * (TAB_W + 16), TAB_Y, TAB_W, TAB_H) for i in range(n)]


class MainMenu(ButtonScene):
    """Choose the game (a tab per game, with its picture; Tab switches), start it, continue or
    open a saved game, read its rules, change settings, or quit."""

    app: "App"

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        self.clock = 0.0
        # the game chosen last, also in an earlier run (the setting "game")
        chosen = app.prefs.settings.game
        self.game = next((c for c in CLIENT_GAMES if c.key == chosen), CLIENT_GAMES[0])
        w, x = 440, CANVAS[0] // 2 - 220
        game_buttons = self.game.menu_buttons(app, x, w)
        self.buttons += game_buttons
        self.buttons += [
            Button((x, 0, w, 64), N_("How to play"), self.how_to_play, key=pygame.K_h, size=32),
            Button((x, 0, w, 64), N_("Settings"), self.settings, key=pygame.K_s, size=32),
            Button((x, 0, w, 64), N_("Quit"), app.quit, key=pygame.K_q, size=32),
        ]
        add_save_buttons(self, self.app, self.game.key)  # saved games: "Continue" (this game's) on top, "Saved games"
        saved = next(b for b in self.buttons if b.key == pygame.K_l)
        self.buttons.remove(saved)
        if len(game_buttons) % 2:  # beside the first way to start, so that host and join share a row
            self.buttons.insert(self.buttons.index(game_buttons[0]) + 1, saved)
        else:
            self.buttons.insert(len(self.buttons) - 3, saved)  # beside "How to play"
        layout_main_menu(self.buttons, has_continue=self.buttons[0].key == pygame.K_c)

    def choose(self, index: int) -> None:
        """Show game ``index``'s title and ways to start it."""
        if index != CLIENT_GAMES.index(self.game):
            self.app.prefs.update(game=CLIENT_GAMES[index].key)
            self.app.replace(type(self)(self.app))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            for i, r in enumerate(game_tabs()):
                if r.collidepoint(event.pos):
                    self.choose(i)
                    return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB:
            self.choose((CLIENT_GAMES.index(self.game) + 1) % len(CLIENT_GAMES))
            return
        super().handle_event(event)

    def uses_key(self, key: int) -> bool:
        return key == pygame.K_TAB or super().uses_key(key)

    def how_to_play(self) -> None:
        self.app.push(self.game.how_to_play(self.app))

    def settings(self) -> None:
        from .settings_scene import SettingsScene
        self.app.push(SettingsScene(self.app, self.game.key))  # this game's names and levels only

    def update(self, dt: float) -> None:
        self.clock += dt

    def at_rest(self) -> bool:
        from .games import TITLE_SETTLE
        return self.clock >= TITLE_SETTLE

    def on_escape(self) -> None:
        self.app.quit()

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        self.game.draw_title(surface, self.app, self.clock, y=160)
        if len(CLIENT_GAMES) > 1:
            self.draw_tabs(surface)
        self.draw_buttons(surface)
        self.draw_stats(surface)
        hint = _("F11: full screen.")  # (outside the f-string, where the extractor sees it)
        foot = self.app.art.text(f"{_(self.game.credit)} {hint}", 20, (200, 190, 160))
        surface.blit(foot, foot.get_rect(midbottom=(CANVAS[0] // 2, CANVAS[1] - 16)))

    def stats_lines(self) -> list[str]:
        """The chosen game's statistics against the computer, one line per level played (in the
        game's words for its levels), or why there are none; in the current language."""
        stats = self.app.stats
        notice = stats.notice()
        if notice:
            return [notice]
        played = stats.of(self.game.key, game_by_key(self.game.key).levels)
        if not played:
            return [_("No matches against the computer yet: your results per level will show here.")]
        level = schema_of(self.game.key).get("computer_level")
        word = level.option_text if level is not None and level.option_text else str
        return [_("{level}: {won} of {played} won · best {best} · streak {streak}").format(
            level=word(lv), won=s.won, played=s.played, best=s.best_score, streak=s.streak)
            for lv, s in played.items()]

    def draw_stats(self, surface: pygame.Surface) -> None:
        """Under the buttons: "Against the computer", then :meth:`stats_lines` in two columns."""
        art = self.app.art
        top = max(b.rect.bottom for b in self.buttons) + 14
        lines = self.stats_lines()
        head = art.text(_("Against the computer"), 22, GOLD, shadow=True)
        surface.blit(head, head.get_rect(midtop=(CANVAS[0] // 2, top)))
        y = top + head.get_height() + 2
        if len(lines) == 1:
            s = art.text(lines[0], 20, CREAM, shadow=True, wrap=900, center=True)
            surface.blit(s, s.get_rect(midtop=(CANVAS[0] // 2, y)))
            return
        cx = CANVAS[0] // 2
        for i, line in enumerate(lines):
            size = fit_size(art, line, 20, 380)
            s = art.text(line, size, CREAM, shadow=True)
            x = cx - 10 - s.get_width() if i % 2 == 0 else cx + 10
            surface.blit(s, (x, y + (i // 2) * 24))

    def draw_tabs(self, surface: pygame.Surface) -> None:
        """Each game's tab: its picture and title; the chosen one lit."""
        from .widgets import panel
        art = self.app.art
        for game, r in zip(CLIENT_GAMES, game_tabs()):
            on = game is self.game
            surface.blit(panel(r.size, 235 if on else 150, radius=12), r)
            if on:
                pygame.draw.rect(surface, GOLD, r.inflate(6, 6), 3, border_radius=14)
            game.draw_badge(surface, self.app, pygame.Rect(r.x, r.y, 110, r.h))
            title = art.text(_(game.title), 28, GOLD if on else CREAM, shadow=True)
            surface.blit(title, title.get_rect(midleft=(r.x + 118, r.centery)))
