"""Why a file could not be written, in the player's language (game.fsutil.os_error_text): the
usual errnos get a translated phrase in every catalogue, anything else keeps the operating
system's own text; the settings' notice uses it, worded in the language of the moment."""

from __future__ import annotations

import errno
import os

import pytest

from game import i18n, settings
from game.fsutil import OS_ERROR_PHRASES, os_error_text
from game.settings import SettingsStore

LISTED = ["ENOSPC", "EDQUOT", "EACCES", "EPERM", "EROFS", "ENOENT", "EISDIR", "ENOTDIR", "ENAMETOOLONG", "EIO"]


def test_every_listed_errno_has_a_phrase():
    assert {errno.errorcode[c] for c in OS_ERROR_PHRASES} == set(LISTED)


@pytest.mark.parametrize("language", ["de", "nl", "fr"])
@pytest.mark.parametrize("name", LISTED)
def test_a_listed_errno_reads_in_the_players_language(language, name):
    code = getattr(errno, name)
    english_os, english_phrase = os.strerror(code), OS_ERROR_PHRASES[code]
    i18n.set_language(language)
    error = OSError(code, english_os, "/some/where/game.json")
    text = os_error_text(error)
    assert text == i18n.translations(language).gettext(english_phrase)
    assert text not in (english_os, english_phrase) and "/some/where" not in text
    assert os_error_text(english_os) == text  # the text a background writer kept (WriteFailed.reason)
    assert os_error_text(type(error)(code, english_os)) == text  # the subclass Python raises (PermissionError...)


def test_english_says_a_phrase_too():
    assert os_error_text(OSError(errno.ENOSPC, "No space left on device")) == "the disk is full"


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_unknown_errno_keeps_the_systems_text(language):
    i18n.set_language(language)
    assert os_error_text(OSError(errno.ECONNRESET, "Connection reset by peer")) == "Connection reset by peer"
    assert os_error_text(OSError("no errno at all")) == "no errno at all"
    assert os_error_text("Something the OS said") == "Something the OS said"


def test_the_settings_notice_names_the_reason_in_the_language_it_is_shown_in(tmp_path, monkeypatch):
    store = SettingsStore(tmp_path, {"LANG": "en_GB.UTF-8"})

    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(settings.os, "replace", full)
    store.update(volume=0.3)
    i18n.set_language("de")  # the notice is read after the language changed: German, whole
    assert store.notice() == ("Die Einstellungen konnten nicht gespeichert werden (der Datenträger ist voll); "
                              "sie gelten, bis das Spiel geschlossen wird.")
