"""Games on this machine that keep themselves: autosave, resume, undo, "Save as…".

A :class:`LocalGame` ties a :class:`~game.roseking.match.Match` to its save:

- the match draws cards from :class:`~game.roseking.undo.UndoHistory` over a
  :class:`~game.roseking.undo.DeckChance` seeded by the save's ``chance_seed``, so an undone
  draw brings the same card again (no fishing) and a resumed game draws what it
  would have drawn;
- after every move (and every undo) a :class:`~game.saves.BackgroundAutosaver`
  writes the record atomically off the frame loop; ``close()`` flushes it.

:class:`LocalGameScene` is the game view for such a game: an Undo button (also
Ctrl+Z and U), a pause menu with "Save as…", and questions on leaving that say
the game is kept.
"""

from __future__ import annotations

import dataclasses
import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import pygame

from game.roseking.engine import Color, Move, Rng, State
from game.fsutil import os_error_text
from game.i18n import N_, _
from game.roseking.saves import GameMeta, load_game, record_result
from game.saves import BackgroundAutosaver, SaveStore
from game.roseking.undo import DeckChance, UndoHistory

from .art import CREAM, GOLD, art_of
from ..dialogs import ConfirmDialog, PauseMenu, dim
from .game_scene import GameScene
from .layout import DISCARD_RECT, DRAW_PILE_RECT
from ..theme import CANVAS
from game.roseking.ai import make_player

from .hint import Hint
from .levels import level_name
from game.roseking.match import ComputerController, Controller, HumanController, Match
from .thinking import computer_thinker
from ..textinput import TextInput
from ..widgets import Button, ButtonScene, panel

if TYPE_CHECKING:
    from game.stats import StatsStore

    from ..app import App


class GameConfig:
    """Who plays which colour; builds fresh matches for "new game" with the same set-up.

    ``computer``: None (two people at this machine) or (computer colour, level name).
    ``seconds``/``iterations``: the computer's budget per move (see :func:`game.roseking.ai.make_player`);
    the search levels think in a worker process (:func:`~game.client.roseking.thinking.computer_thinker`).
    ``hint``: whether the game offers the hint key and button (a factory of :class:`Hint`; None: no hints).
    """

    def __init__(self, computer: tuple[Color, str] | None = None, seed: int | None = None,
                 min_delay: float = 0.35, seconds: float | None = 1.0, iterations: int | None = None,
                 hint: Callable[[], Hint] | None = Hint) -> None:
        self.computer = computer
        self.seed = seed
        self.min_delay = min_delay
        self.seconds = seconds
        self.iterations = iterations
        self.hint = hint

    def next_seed(self) -> int | None:
        """The seed of the next deal (None: random); each call moves a set seed on by one,
        so the next "new game" is a different deal, still reproducible."""
        seed = self.seed
        if self.seed is not None:
            self.seed += 1
        return seed

    def controllers(self) -> tuple[Controller, Controller]:
        """Fresh (red, white) controllers for this set-up."""
        red: Controller
        white: Controller
        if self.computer is None:
            red, white = HumanController(N_("Player 1")), HumanController(N_("Player 2"))
        else:
            color, level = self.computer
            player = make_player(level, self.seed)
            thinker = computer_thinker(level, self.seed, self.seconds, self.iterations)
            cpu = ComputerController(player, _("Computer · {level}").format(level=level_name(level)), self.min_delay,
                                     thinker=thinker)
            cpu.level = level  # the view names the level in the current language
            human = HumanController(N_("You"))
            red, white = (cpu, human) if color is Color.RED else (human, cpu)
        return red, white


class LocalGame:
    """A local game (two people, or a person against the computer) with its save and undo.

    ``state``: the game so far (a new deal, or a loaded save with its full move
    stack). ``meta``: its :class:`~game.roseking.saves.GameMeta` (id, kind, names, chance
    seed; a missing seed is drawn and kept). ``controllers``: indexed by colour;
    those with ``local_human`` are the people whose turns an undo goes back to.
    ``saver``: where the autosaves go (a new one on the default store if None). ``stats``: where a
    game against the computer is counted at its end (the window's ``app.stats``; None: not counted).
    """

    def __init__(self, state: State, meta: GameMeta, controllers: tuple[Controller, Controller],
                 saver: BackgroundAutosaver | None = None, stats: "StatsStore | None" = None) -> None:
        chance = DeckChance(meta.chance_seed)
        if meta.chance_seed is None:
            meta = dataclasses.replace(meta, chance_seed=chance.seed)
        self.meta = meta
        if saver is None:
            from game.saves import shared_store
            saver = BackgroundAutosaver(shared_store())
        self.saver, self.stats = saver, stats
        humans = [c for c in (Color.RED, Color.WHITE) if controllers[c].local_human]
        self.history = UndoHistory(state, humans, chance)
        self.match = Match(state, controllers, self.history)
        self.match.on_move.append(self.history.on_move)
        self.match.on_move.append(self._autosave)

    @classmethod
    def new(cls, config: "GameConfig", saver: BackgroundAutosaver | None = None,
            stats: "StatsStore | None" = None) -> "LocalGame":
        """A fresh deal for ``config`` (a :class:`GameConfig`);
        a seeded config gives a reproducible deal and draws."""
        seed = config.next_seed()
        red, white = config.controllers()
        computer = config.computer
        chance_seed = None if seed is None else seed * 1_000_003 + 17  # a seeded game is reproducible
        meta = GameMeta.new("local" if computer is None else "computer", red=red.label, white=white.label,
                            computer_color=None if computer is None else computer[0],
                            computer_level=None if computer is None else computer[1], chance_seed=chance_seed)
        return cls(State.random(Rng(seed)), meta, (red, white), saver, stats)

    @classmethod
    def load(cls, path: str | os.PathLike[str], saver: BackgroundAutosaver | None = None,
             stats: "StatsStore | None" = None) -> "LocalGame":
        """Resume the save at ``path`` with the same players and level. Raises
        :class:`~game.saves.SaveError` for a bad file, ValueError for a LAN game."""
        state, meta = load_game(path)
        if meta.kind == "lan":
            raise ValueError(_("a network game can only be resumed with its opponent"))
        return cls(state, meta, config_for(meta).controllers(), saver, stats)

    @property
    def state(self) -> State:
        return self.match.state

    def _autosave(self, move: Move | None = None, state: State | None = None) -> None:
        self.saver.submit(self.match.state, self.meta)
        if self.stats is not None:
            record_result(self.stats, self.meta, self.match.state)  # the statistics, at a game against the computer's end

    def can_undo(self) -> bool:
        return self.history.can_undo() and not self.match.state.is_game_over()

    def undo(self) -> list[Move]:
        """Take back one step (to the person's previous turn against the computer,
        one action between two people), cancel the computer's thinking, save. Returns the
        moves taken back, newest first ([] if there was nothing to undo)."""
        if not self.can_undo():
            return []
        popped = self.history.undo()
        self.match.restart_turn()
        self._autosave()
        return popped

    def saved(self) -> bool:
        """Whether the last autosave reached the disk (or nothing needed saving yet)."""
        return self.saver.error is None

    def save_as(self, path: str | os.PathLike[str]) -> Path:
        """Write the game to ``path`` too ("Save as…"), atomically. Raises OSError."""
        return SaveStore.save_as(self.match.state, self.meta, path)

    def close(self) -> None:
        """Write what is pending and stop the autosave thread (the match is closed by its scene)."""
        self.saver.close()


def config_for(meta: GameMeta) -> "GameConfig":
    """The menu configuration that plays like the saved game ``meta`` (same sides and level)."""

    if meta.kind == "computer" and meta.computer_color is not None and meta.computer_level is not None:
        return GameConfig((meta.computer_color, meta.computer_level))
    return GameConfig(None)


def default_save_as_path(meta: GameMeta) -> Path:
    """``<Documents>/Rose King/rose-king-<date>-<id>.json`` (platformdirs' documents folder)."""
    from platformdirs import user_documents_dir

    stamp = (meta.date or "game")[:16].replace(":", "-").replace("T", "-")
    return Path(user_documents_dir()) / "Rose King" / f"rose-king-{stamp}-{meta.game_id[:6]}.json"


# ---------------------------------------------------------------------- scenes
class LocalGameScene(GameScene):
    """The game view of a :class:`LocalGame`: Undo (button, Ctrl+Z, U), "Save as…" in the
    pause menu, and leaving asks with the news that the game is saved."""

    def __init__(self, app: "App", game: LocalGame, on_new_game: Callable[[], object],
                 on_main_menu: Callable[[], object], hint: "Hint | None" = None) -> None:
        super().__init__(app, game.match, on_new_game, on_main_menu, hint=hint)
        self.game = game
        self._save_error_shown: OSError | None = None
        x, w = DRAW_PILE_RECT.x - 10, DISCARD_RECT.right - DRAW_PILE_RECT.x + 20
        undo = Button((x, 672, w, 46), N_("Undo"), self.undo, size=26, enabled=game.can_undo)
        hint_button = next((b for b in self.buttons if b.key == pygame.K_h), None)
        if hint_button is not None:  # side by side: Undo left, Hint right
            half = (w - 10) // 2
            undo.rect.w = half
            hint_button.rect.update(x + half + 10, 672, w - half - 10, 46)
        self.buttons.append(undo)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and (event.key == pygame.K_u or (
                event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL)):
            self.undo()
            return
        super().handle_event(event)

    def undo(self) -> None:
        """Undo one step (see :meth:`LocalGame.undo`) and show the position at once."""
        if not self.game.can_undo():
            self.say(lambda: _("Nothing to undo."))
            return
        self.game.undo()
        self.resync()

    def update(self, dt: float) -> None:
        super().update(dt)
        error = self.game.saver.error
        if error is not None and error is not self._save_error_shown:
            self._save_error_shown = error
            self.say(lambda: _("The game could not be saved: {reason}").format(reason=os_error_text(error)))

    def unsaved_game(self) -> bool:
        return super().unsaved_game() and not self.game.saved()

    def quit_question(self) -> str | None:
        if not super().unsaved_game():  # nothing played yet, or over: nothing to lose
            return None
        return N_("Your game is saved; quit?") if self.game.saved() else N_(
            "The last move could not be saved; quit anyway?")

    def pause(self) -> None:
        self.app.push(LocalPauseMenu(self.app, self))

    def close(self) -> None:
        super().close()
        self.game.close()


class LocalPauseMenu(PauseMenu):
    """The pause menu of a local game: adds "Save as…"; leaving says the game is kept."""

    app: "App"

    def __init__(self, app: "App", scene: LocalGameScene) -> None:
        super().__init__(app, scene.on_main_menu, scene.unsaved_game)
        self.scene = scene
        self.rect.h += 140
        self.rect.centery = CANVAS[1] // 2
        x, w = self.rect.x + 50, self.rect.w - 100
        self.buttons.insert(2, Button((x, 0, w, 54), N_("Save as…"), self.save_as, key=pygame.K_s))
        self.buttons.insert(3, Button((x, 0, w, 54), N_("Watch the replay"), self.replay, key=pygame.K_w))
        for i, b in enumerate(self.buttons):
            b.rect.topleft = (x, self.rect.y + 100 + 70 * i)

    def replay(self) -> None:
        """The game so far in the replay viewer (a resumed file's replay is one click away); Back returns here."""
        from game.roseking.engine import Record
        from game.roseking.replay import Replay

        from .replay_view import ReplayScene
        game = self.scene.game
        record = Record.from_state(game.match.state, red=game.meta.red, white=game.meta.white)
        self.app.push(ReplayScene(self.app, Replay(record), on_back=self.app.pop))

    def save_as(self) -> None:
        game = self.scene.game

        def write(path: Path) -> None:
            written = game.save_as(path)
            self.scene.say(lambda: _("Saved to {path}").format(path=written), ok=True)

        self.app.push(TextEntryDialog(self.app, N_("Save the game as"), str(default_save_as_path(game.meta)),
                                      write, ok=N_("Save")))

    def main_menu(self) -> None:
        if self.scene.quit_question() is None:
            self.on_main_menu()
        elif self.scene.game.saved():
            self.app.push(ConfirmDialog(self.app, N_("Your game is saved; leave it for the main menu?"),
                                        self.on_main_menu, yes=N_("Leave"), no=N_("Stay")))
        else:
            super().main_menu()

    def quit(self) -> None:
        question = self.scene.quit_question()
        if question is None:
            self.app.quit()
        else:
            self.app.push(ConfirmDialog(self.app, question, self.app.quit, yes=N_("Quit"), no=N_("Stay")))


class TextEntryDialog(ButtonScene):
    """A one-line text entry over the game (a :class:`TextInput`: typing, cursor keys,
    Ctrl+U clears, Ctrl+V pastes), Enter or OK accepts, Esc or Cancel closes.

    ``on_accept(path)`` gets the text as a :class:`~pathlib.Path` (``~`` expanded) and may
    raise OSError or ValueError: the message is shown in the dialog and the text is kept,
    so nothing typed is lost. A missing folder of the default path is created.
    """

    opaque = False

    def __init__(self, app: "App", title: str, text: str, on_accept: Callable[[Path], None],
                 ok: str = N_("OK")) -> None:
        super().__init__(app)
        self.title = title
        self.default_folder = Path(text).parent
        self.on_accept = on_accept
        self.error: str | None = None
        self.rect = pygame.Rect(0, 0, 900, 290)
        self.rect.center = (CANVAS[0] // 2, CANVAS[1] // 2)
        self.field = TextInput((self.rect.x + 30, self.rect.y + 90, self.rect.w - 60, 50), text,
                               on_submit=lambda _text: self.accept(), focused=True, escape=False,
                               style="light", size=24)
        bw = 200
        self.buttons = [
            Button((self.rect.centerx - bw - 15, self.rect.bottom - 76, bw, 52), ok, self.accept),
            Button((self.rect.centerx + 15, self.rect.bottom - 76, bw, 52), N_("Cancel"), self.cancel),
        ]
        self.ready = False
        self.still = False  # the caret blinks

    @property
    def text(self) -> str:
        return self.field.text

    def update(self, dt: float) -> None:
        self.ready = True
        self.field.update(dt)

    def accept(self) -> None:
        text = self.text.strip()
        if not text:
            self.error = _("Type a file name.")
            return
        path = Path(os.path.expanduser(text))
        try:
            if path.parent == self.default_folder:
                path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_dir():
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
            self.on_accept(path)
        except (OSError, ValueError) as e:
            reason = os_error_text(e) if isinstance(e, OSError) else str(e)
            self.error = _("Could not save: {reason}").format(reason=reason)
            return
        self.app.pop()

    def cancel(self) -> None:
        self.app.pop()

    on_escape = cancel

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.TEXTINPUT and not self.ready:
            return  # not the letter of the key that opened this dialog, in the same frame
        if event.type == pygame.TEXTINPUT or (event.type == pygame.KEYDOWN and event.key == pygame.K_BACKSPACE):
            self.error = None
        if event.type != pygame.MOUSEBUTTONDOWN and self.field.handle_event(event):
            return  # clicks are for the buttons: the field stays in use until the dialog closes
        super().handle_event(event)

    def close(self) -> None:
        self.field.blur(keep=False)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = art_of(self.app)
        dim(surface)
        surface.blit(panel(self.rect.size, 255), self.rect)
        title = art.text(_(self.title), 34, GOLD, shadow=True)
        surface.blit(title, (self.rect.x + 30, self.rect.y + 28))
        self.field.draw(surface, art)
        below = self.field.rect.bottom
        if self.error:
            msg = art.text(self.error, 22, (255, 140, 120), shadow=True, wrap=self.rect.w - 60)
            surface.blit(msg, (self.rect.x + 30, below + 10))
        else:
            hint = art.text(_("Enter: save   Esc: cancel"), 19, CREAM)
            surface.blit(hint, (self.rect.x + 30, below + 12))
        self.draw_buttons(surface)


# ---------------------------------------------------------------------- starting
def play(app: "App", game: LocalGame, config: "GameConfig") -> LocalGameScene:
    """Replace the whole stack by ``game``; "New game" deals a fresh one of ``config``."""
    def again() -> None:
        play(app, LocalGame.new(config, stats=app.stats), config)

    hint = config.hint() if config.hint is not None else None  # the hard AI's suggestion
    scene = LocalGameScene(app, game, on_new_game=again, on_main_menu=app.go_home, hint=hint)
    app.reset(scene)
    return scene


def resume(app: "App", path: str | os.PathLike[str]) -> LocalGameScene:
    """Open the saved game at ``path`` and play on. Raises SaveError / ValueError (see :meth:`LocalGame.load`)."""
    game = LocalGame.load(path, stats=app.stats)
    return play(app, game, config_for(game.meta))
