"""The pygame-ce client: the only package that imports pygame.

- :mod:`.app`: window, fixed-timestep loop, scene stack; ``run(argv)`` is the entry point
- :mod:`.match`: who moves (person, computer, later network) and where chance comes from
- :mod:`.game_scene`, :mod:`.anims`: the board view, mouse play, move animations
- :mod:`.menus`, :mod:`.dialogs`, :mod:`.result`: main menu, pause/confirm, result panel
- :mod:`.art`, :mod:`.layout`, :mod:`.widgets`, :mod:`.tween`: sprites, geometry, buttons, easing
"""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # before any module here imports pygame
