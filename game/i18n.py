"""Translation: every string a player sees goes through ``_()``.

Catalogues are GNU gettext catalogues: the sources are
``game/locale/<lang>/LC_MESSAGES/rose-king.po``, compiled to ``.mo`` files next to
them by ``python -m game.locale.tools compile`` (Babel), and read here with the
standard library's :mod:`gettext` (no third-party code at run time).

Use::

    from game.i18n import _, ngettext
    _("Draw pile")                                    # "Nachziehstapel" in German
    _("Red wins by {points} points").format(points=3) # fields filled after translating
    ngettext("{count} card", "{count} cards", n).format(count=n)
    N_("How to play")                                 # mark now, translate when shown

Never glue translated fragments together: translate whole sentences with
``{fields}``, because word order differs between languages.

``set_language("de")`` switches at run time; callbacks registered with
:func:`on_language_change` are called afterwards so that screens re-render.
The first language comes from the system locale (:func:`detect_language`).
"""

from __future__ import annotations

import gettext as _gettext
import locale as _locale
import logging
import os
import struct
from importlib import resources
from typing import Callable, Mapping, overload

__all__ = [
    "DOMAIN", "LANGUAGES", "LANGUAGE_NAMES", "N_", "Text", "_", "detect_language", "language",
    "ngettext", "npgettext", "on_language_change", "pgettext", "set_language", "text_of", "translations",
    "Worded",
]

log = logging.getLogger(__name__)

#: The gettext domain: catalogues are ``game/locale/<lang>/LC_MESSAGES/rose-king.mo``.
DOMAIN = "rose-king"
#: Supported languages, ISO 639-1 codes; English is the source language.
LANGUAGES = ("en", "de", "nl", "fr")
#: Each language's name in itself (never translated: a player looks for their own).
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "de": "Deutsch", "nl": "Nederlands", "fr": "Français"}

_current = "en"
_loaded: dict[str, _gettext.NullTranslations] = {}
_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_listeners: list[Callable[[str], None]] = []


def translations(code: str) -> _gettext.NullTranslations:
    """The compiled catalogue of language ``code`` (cached).

    Reads ``game/locale/<code>/LC_MESSAGES/rose-king.mo`` from the installed package.
    A missing or unreadable file is logged and gives the English source texts
    (a game with a broken catalogue still plays). Raises ValueError for a code not
    in :data:`LANGUAGES`.
    """
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r} (choose from {', '.join(LANGUAGES)})")
    cached = _loaded.get(code)
    if cached is not None:
        return cached
    path = resources.files("game").joinpath("locale", code, "LC_MESSAGES", DOMAIN + ".mo")
    try:
        with path.open("rb") as f:
            result: _gettext.NullTranslations = _gettext.GNUTranslations(f)
    except (OSError, ValueError, struct.error) as e:  # missing; bad magic, corrupt, truncated, bad charset
        log.warning("catalogue for %s unusable (%s): showing English", code, e)
        result = _gettext.NullTranslations()
    _loaded[code] = result
    return result


def set_language(code: str) -> None:
    """Switch every later ``_()`` to ``code`` (one of :data:`LANGUAGES`) and notify listeners.

    Listeners (see :func:`on_language_change`) are called with the new code even if
    it is the current one, in registration order; one that raises is logged and the
    others still run. Raises ValueError for an unknown code (nothing changes then).
    """
    global _current, _translation
    _translation = translations(code)
    _current = code
    for callback in list(_listeners):
        try:
            callback(code)
        except Exception:  # a broken screen must not stop the others from re-rendering
            log.exception("language listener %r failed", callback)


#: A text a screen keeps to show later (a toast, a banner, a status or hint line): a function
#: that words it, called each time it is drawn so that it follows a language change at once
#: (``lambda: _("{name} is back.").format(name=name)``, the values taken when it was made), or a
#: plain string, fixed in the language it was made in.
Text = str | Callable[[], str]


def text_of(text: Text) -> str:
    """The words of ``text`` now: a string as it is, a function's result in the current language."""
    return text if isinstance(text, str) else text()


class Worded:
    """A class attribute that keeps a :data:`Text` and reads as its words now (:func:`text_of`), so
    a screen's toast, hint or notice follows a language change at once::

        class Table:
            toast = Worded("the toast's words in the current language (\"\" for none)")

        table.toast = lambda: _("{name} is back.").format(name=name)
        table.toast  # worded when read

    The kept value lives in the instance's ``_<name>`` attribute ("" until one is set)."""

    def __init__(self, doc: str = "") -> None:
        self.__doc__ = doc
        self.slot = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_" + name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Worded: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> str: ...

    def __get__(self, obj: object, owner: type | None = None) -> Worded | str:
        if obj is None:
            return self
        return text_of(getattr(obj, self.slot, ""))

    def __set__(self, obj: object, text: Text) -> None:
        setattr(obj, self.slot, text)


def language() -> str:
    """The current language code, one of :data:`LANGUAGES`."""
    return _current


def on_language_change(callback: Callable[[str], None]) -> Callable[[], None]:
    """Call ``callback(code)`` after every :func:`set_language`. Returns a function that unsubscribes."""
    _listeners.append(callback)

    def unsubscribe() -> None:
        if callback in _listeners:
            _listeners.remove(callback)
    return unsubscribe


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The system's language if it is one of :data:`LANGUAGES`, else ``"en"``.

    Looks, in gettext's order, at ``LANGUAGE`` (a colon-separated list), ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` in ``environ`` (default: ``os.environ``), then at
    :func:`locale.getlocale` (which on Windows and macOS reads the system setting).
    ``"de_AT.UTF-8"`` -> ``"de"``, Windows' ``"Dutch_Belgium.1252"`` -> ``"nl"``;
    ``"C"``/``"POSIX"`` mean no choice.
    """
    env = os.environ if environ is None else environ
    candidates: list[str] = []
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            candidates.extend(value.split(":"))
    if environ is None:
        try:
            candidates.append(_locale.getlocale()[0] or "")
        except ValueError:  # an unparsable locale name
            pass
    for name in candidates:
        code = name.replace("-", "_").split("_")[0].split(".")[0].lower()
        code = _WINDOWS_NAMES.get(code, code)
        if code in LANGUAGES:
            return code
    return "en"


#: Windows reports locales by English name ("German_Germany.1252").
_WINDOWS_NAMES = {"english": "en", "german": "de", "dutch": "nl", "french": "fr"}


def _(text: str) -> str:
    """``text`` (English source) in the current language. Use ``.format()`` on the result for fields."""
    return _translation.gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the number ``n`` in the current language's plural rule."""
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, text: str) -> str:
    """``text`` translated in ``context``, for one English word with two meanings (e.g. ``"draw"``)."""
    return _translation.pgettext(context, text)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` within ``context``."""
    return _translation.npgettext(context, singular, plural, n)


def N_(text: str) -> str:
    """Mark ``text`` for the catalogues without translating it now (for data translated when shown)."""
    return text
