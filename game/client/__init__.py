"""The pygame-ce client: the only package that imports pygame.

The shell, shared by every game (modules here), and one sub-package per game:

- :mod:`.main`: the window's one entry point (``run(argv)``, ``run_lan(args)``, ``open_window()``)
- :mod:`.app`: window, fixed-timestep loop, scene stack; :mod:`.scene`: the scene protocol
- :mod:`.games`: the client side of each game of :mod:`game.registry` (menu entries, resume, replay, LAN)
- :mod:`.menus`, :mod:`.saved_games`, :mod:`.settings_scene`, :mod:`.dialogs`, :mod:`.prefs`,
  :mod:`.audio`: main menu, saved games, settings, pause/confirm, preferences, sound
- :mod:`.theme`, :mod:`.widgets`, :mod:`.textinput`, :mod:`.tween`: palette and text, buttons, text field, easing
- :mod:`.roseking`: Rose King's scenes (board, set-up, LAN, replay, how to play), art and layout

Layering: ``main`` > ``menus``/``saved_games`` > ``games`` > each game's scenes > ``app`` >
``dialogs``/``prefs``/``settings_scene``/``widgets`` > ``scene``/``theme``. Nothing imports upwards;
scenes reach the menu through ``app.go_home()`` and see the app as :class:`.scene.AppLike`.
"""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # before any module here imports pygame
