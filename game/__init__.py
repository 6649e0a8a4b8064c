"""Rose King & Royals & Riots: two games, one desktop app.

- ``game/<game>/`` (``roseking``, ``royals``): a game's rules engine, computer players, record
  and plug-in (:mod:`game.registry`); pure Python, no pygame.
- Shared, game-agnostic: :mod:`game.registry`, :mod:`game.records`, :mod:`game.rng`, :mod:`game.saves`,
  :mod:`game.settings`, :mod:`game.i18n`, :mod:`game.fsutil`, :mod:`game.lan`, ``game/commands`` (the CLI)
  and ``game/client`` (the window's shell, with one sub-package per game).
"""

__version__ = "0.1.0"
