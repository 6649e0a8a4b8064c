"""Translation hook. Every string a player sees goes through ``_()``.

``_("Draw pile")`` returns the text in the current language; ``set_language``
switches at run time. Catalogues: the four-languages issue fills them in; until
then every language falls back to the English source text.
"""

from __future__ import annotations

LANGUAGES = ("en", "de", "nl", "fr")
_current = "en"
_catalogues: dict[str, dict[str, str]] = {}


def set_language(code: str) -> None:
    """Switch the language (one of :data:`LANGUAGES`). Raises ValueError otherwise."""
    global _current
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r} (choose from {', '.join(LANGUAGES)})")
    _current = code


def language() -> str:
    return _current


def _(text: str) -> str:
    """``text`` (English source) in the current language. Use ``.format()`` on the result for fields."""
    return _catalogues.get(_current, {}).get(text, text)
