"""Run-time language switching, listeners, plural forms and the first-start language."""

import gettext
from pathlib import Path

import pytest

from game import i18n
from game.i18n import _, ngettext, pgettext


def test_switching_changes_every_later_lookup():
    assert _("Draw pile") == "Draw pile"
    i18n.set_language("de")
    assert (i18n.language(), _("Draw pile"), _("Discard pile")) == ("de", "Nachziehstapel", "Ablagestapel")
    i18n.set_language("nl")
    assert _("Draw pile") == "Trekstapel"
    i18n.set_language("fr")
    assert _("Draw pile") == "Pioche"
    i18n.set_language("en")
    assert _("Draw pile") == "Draw pile"


def test_listeners_hear_every_switch_in_order_and_can_unsubscribe():
    heard = []
    stop_a = i18n.on_language_change(lambda code: heard.append(("a", code, _("New game"))))
    i18n.on_language_change(lambda code: heard.append(("b", code, _("New game"))))
    i18n.set_language("fr")
    stop_a()
    stop_a()  # a second unsubscribe is harmless
    i18n.set_language("de")
    assert heard == [("a", "fr", "Nouvelle partie"), ("b", "fr", "Nouvelle partie"), ("b", "de", "Neue Partie")]


def test_a_failing_listener_does_not_stop_the_others(caplog):
    heard = []

    def broken(code):
        raise RuntimeError("screen gone")
    i18n.on_language_change(broken)
    i18n.on_language_change(heard.append)
    i18n.set_language("nl")
    assert heard == ["nl"] and i18n.language() == "nl"
    assert "screen gone" in caplog.text


def test_an_unknown_language_is_refused_and_nothing_changes():
    heard = []
    i18n.on_language_change(heard.append)
    i18n.set_language("de")
    with pytest.raises(ValueError, match="unknown language 'es'.*en, de, nl, fr"):
        i18n.set_language("es")
    assert i18n.language() == "de" and _("Draw pile") == "Nachziehstapel" and heard == ["de"]


@pytest.mark.parametrize("lang, n, text", [
    ("en", 0, "0 cards"), ("en", 1, "1 card"), ("en", 14, "14 cards"),
    ("de", 0, "0 Karten"), ("de", 1, "1 Karte"), ("de", 2, "2 Karten"),
    ("nl", 1, "1 kaart"), ("nl", 3, "3 kaarten"),
    ("fr", 0, "0 carte"), ("fr", 1, "1 carte"), ("fr", 2, "2 cartes"),  # French: 0 is singular
])
def test_plural_forms_follow_each_language(lang, n, text):
    i18n.set_language(lang)
    assert ngettext("{count} card", "{count} cards", n).format(count=n) == text


def test_unknown_strings_and_contexts_fall_back_to_the_source_text():
    i18n.set_language("de")
    assert _("not in any catalogue") == "not in any catalogue"
    assert pgettext("menu", "Draw pile") == "Draw pile"
    assert i18n.N_("Draw pile") == "Draw pile"


def test_a_missing_catalogue_gives_english_instead_of_a_crash(monkeypatch, tmp_path, caplog):
    monkeypatch.setattr(i18n.resources, "files", lambda package: tmp_path)
    monkeypatch.setattr(i18n, "_loaded", {})
    i18n.set_language("fr")
    assert i18n.language() == "fr" and _("Draw pile") == "Draw pile"
    assert "catalogue for fr unusable" in caplog.text


REAL_MO = Path(i18n.__file__).parent / "locale" / "nl" / "LC_MESSAGES" / "rose-king.mo"


@pytest.mark.parametrize("content", [
    b"not a catalogue at all", b"", REAL_MO.read_bytes()[:10], REAL_MO.read_bytes()[:200],
    REAL_MO.read_bytes()[: REAL_MO.stat().st_size // 2],
])
def test_a_corrupt_catalogue_gives_english(monkeypatch, tmp_path, content):
    mo = tmp_path / "locale" / "nl" / "LC_MESSAGES" / "rose-king.mo"
    mo.parent.mkdir(parents=True)
    mo.write_bytes(content)
    monkeypatch.setattr(i18n.resources, "files", lambda package: tmp_path)
    monkeypatch.setattr(i18n, "_loaded", {})
    assert isinstance(i18n.translations("nl"), gettext.NullTranslations)
    i18n.set_language("nl")
    assert _("Draw pile") == "Draw pile"


@pytest.mark.parametrize("env, expected", [
    ({}, "en"),
    ({"LANG": "de_AT.UTF-8"}, "de"),
    ({"LANG": "nl_BE.utf8"}, "nl"),
    ({"LANG": "fr_CA"}, "fr"),
    ({"LANG": "fr-CH"}, "fr"),
    ({"LANG": "es_ES.UTF-8"}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({"LANGUAGE": "es:nl:de", "LANG": "fr_FR.UTF-8"}, "nl"),  # gettext's order: LANGUAGE first
    ({"LC_ALL": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"}, "de"),
    ({"LC_MESSAGES": "nl_NL", "LANG": "fr_FR"}, "nl"),
    ({"LANGUAGE": "", "LANG": "DE_de"}, "de"),
    ({"LANG": "Dutch_Belgium.1252"}, "nl"),  # how Windows names a locale
    ({"LANG": "German_Germany"}, "de"),
])
def test_first_language_follows_the_system_locale(env, expected):
    assert i18n.detect_language(env) == expected


def test_without_environment_variables_the_process_locale_decides(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(i18n._locale, "getlocale", lambda: ("French_France", "1252"))
    assert i18n.detect_language() == "fr"
    monkeypatch.setattr(i18n._locale, "getlocale", lambda: (None, None))
    assert i18n.detect_language() == "en"


def test_detect_language_reads_the_process_environment(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "fr_BE.UTF-8")
    assert i18n.detect_language() == "fr"


def test_every_language_has_its_own_name():
    assert [i18n.LANGUAGE_NAMES[c] for c in i18n.LANGUAGES] == ["English", "Deutsch", "Nederlands", "Français"]


def test_a_worded_attribute_reads_in_the_language_of_the_moment():
    class Panel:
        note = i18n.Worded("a note")

    a, b = Panel(), Panel()
    assert (a.note, Panel.note.__doc__) == ("", "a note")  # nothing set: no words
    a.note = lambda: _("Draw pile")
    b.note = "fixed"
    i18n.set_language("de")
    try:
        assert (a.note, b.note) == ("Nachziehstapel", "fixed")  # a function is worded when read
        i18n.set_language("fr")
        assert a.note == "Pioche"
    finally:
        i18n.set_language("en")
    assert a.note == "Draw pile"
