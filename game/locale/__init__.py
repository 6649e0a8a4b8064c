"""Translation catalogues: ``<lang>/LC_MESSAGES/rose-king.po`` (sources) and ``.mo`` (compiled).

Maintained with ``python -m game.locale.tools`` (see that module); read by :mod:`game.i18n`.
"""
