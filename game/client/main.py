"""The window's one entry point: ``rose-king`` (the main menu, or a record's replay) and
``rose-king host|join`` with a window. The command line reaches the client only here."""

from __future__ import annotations

import argparse
import sys

import pygame

from game.i18n import _

from .app import App
from .menus import MainMenu
from .saved_games import open_file, open_replay


def open_window(*args, **kwargs) -> App:
    """A new :class:`App` whose home scene is the main menu (arguments as for ``App``).
    Raises pygame.error if no window can be opened."""
    from .games import game_of_scene, register
    register()  # the one registration of every game's window side (game.client.games)
    app = App(*args, **kwargs)
    app.home = lambda: MainMenu(app)
    app.game_of_scene = game_of_scene
    return app


def run(argv: list[str]) -> int:
    """Open the game window (``rose-king`` with no arguments) at the main menu.

    ``argv``: the remaining command-line words: nothing, a game file (an unfinished game
    resumes, a finished one opens in the replay viewer), or ``["--replay", path]``
    (``rose-king replay FILE``: always the replay viewer), over the main menu. A file that cannot be opened prints
    ``FILE: error: <reason>`` on stderr and shows the same message in the window.
    Returns the exit status (2 for words it does not understand).
    """
    path = argv[1] if len(argv) == 2 and argv[0] == "--replay" else argv[0] if len(argv) == 1 else None
    if argv and (path is None or path.startswith("-")):
        print(_("rose-king: expected a record file to open, got: {words}").format(words=" ".join(argv)),
              file=sys.stderr)
        return 2
    try:
        app = open_window()
    except pygame.error as e:  # no display at all (e.g. a server without X or Wayland)
        print(_("rose-king: cannot open the game window: {error}").format(error=e), file=sys.stderr)
        return 1
    app.go_home()
    replay = len(argv) == 2
    error = None if path is None else open_replay(app, path) if replay else open_file(app, path)
    if error is not None:
        print(f"{path}: error: {error}", file=sys.stderr)
    return app.run()


def run_lan(args: argparse.Namespace) -> int:
    """``rose-king host`` / ``rose-king join`` with the window, for the game of ``args.game``
    (default: the first game)."""
    from .games import run_lan as run_game_lan
    return run_game_lan(args, open_window)
