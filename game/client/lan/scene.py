"""What every game's network table scene does alike around the shell's :class:`LanTable`, as a
base put before the game's own scene class (``class T(LanScene, GameScene)``): the banner takes
the clicks while it shows, "Menu" leaves (asking first while the match goes on), nothing is
"unsaved" once the match is over or stopped, closing leaves the table, and the scene rests only
once nothing the shell draws has changed. No game is named here.

The game's scene sets :attr:`lan` (its :class:`LanTable`, which shows the notes here through the
scene's own toast: its ``say``) and :attr:`banner_box` (a :class:`~game.client.lan.banner.Banner`
where it fits its board) and gives :meth:`played` and ``on_main_menu``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import pygame

from game.i18n import N_, _

from ..dialogs import PauseMenu
from ..scene import Scene

if TYPE_CHECKING:
    from ..app import App
    from .banner import Banner
    from .table import LanTable

#: The question before leaving a match that goes on: with one other player, with several.
LEAVE_QUESTION = (N_("Leave the network game? The other player cannot go on without you; "
                     "the game so far stays in Saved games, to watch."),
                  N_("Leave the network match? The other players cannot go on without you."))


class LanScene(Scene):
    """The shell's part of a game's network table scene (see the module docstring)."""

    app: "App"
    lan: "LanTable"
    banner_box: "Banner"
    on_main_menu: Callable[[], None]
    _end_shown = False  # the end is shown (the shell's end panel, or the game's own result)

    def played(self) -> bool:
        """Whether the match has had a move yet (leaving before one asks nothing)."""
        return True

    def net_step(self, dt: float) -> None:
        """What keeps the table following the network under a menu (default: the scene's update)."""
        self.update(dt)

    def unsaved_game(self) -> bool:
        return self.lan.unsaved() and self.played()

    def leave_question(self) -> str:
        return LEAVE_QUESTION[len(self.lan.names) > 2]

    def quit_question(self) -> str | None:
        return self.leave_question() if self.unsaved_game() else None

    def pause(self) -> None:
        """Esc / "Menu": nothing pauses at a network table; the menu can leave it."""
        self.app.push(PauseMenu(self.app, self.on_main_menu, self.unsaved_game, title=N_("Menu"),
                                on_update=self.net_step, question=self.leave_question()))

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.lan.blocked() and self.banner_box.handle_event(event):
            return
        super().handle_event(event)

    def rests(self) -> bool:
        """False once after anything the shell draws changed (the frame that shows it), else True."""
        look = self.lan.look()
        if look != getattr(self, "_lan_look", None):
            self._lan_look = look
            return False
        return not self.lan.blocked()

    #: what a refused resignation says (say, a card being drawn comes first); a game may word its own
    resign_refused = N_("Wait: the other player's move or the connection comes first.")

    def ask_resign(self) -> None:
        """"Resign": asks first, then hands the game's resign action to the session."""
        from ..dialogs import ConfirmDialog
        self.app.push(ConfirmDialog(self.app, N_("Resign this game?"), self.resign, yes=N_("Resign"),
                                    no=N_("Play on")))

    def resign(self) -> None:
        if not self.lan.resign():
            self.lan.say(lambda: _(self.resign_refused))  # (the table's say is the scene's toast)

    def end_panel(self, center: tuple[int, int]) -> None:
        """Push the shell's :class:`~game.client.lan.endpanel.EndPanel` at ``center``, once (the
        game calls it when its table shows the end)."""
        from .endpanel import EndPanel
        if not self._end_shown:
            self._end_shown = True
            self.app.push(EndPanel(self.app, self.lan, self.net_step, self.on_main_menu, center))

    def close(self) -> None:
        super().close()
        self.lan.close()


__all__ = ["LEAVE_QUESTION", "LanScene"]
