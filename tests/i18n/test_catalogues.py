"""The catalogues hold every string the code shows, translated, with the right fields."""

import shutil
from gettext import GNUTranslations
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po  # Babel is a test dependency: never skip this check

from game.i18n import LANGUAGES
from game.locale import tools


def test_every_catalogue_is_complete_translated_and_compiled():
    """Fails for a string used anywhere in game/ or net/ that a catalogue lacks or leaves untranslated."""
    assert tools.problems() == []


def test_the_code_marks_many_strings():
    template = tools.extract()
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    assert len(ids) > 150
    assert {"Draw pile", "{name} cannot move and passes", "How to play", "{count} card"} <= ids


@pytest.fixture
def sandbox(tmp_path):
    """A copy of the catalogues and a tiny source tree to break on purpose."""
    locale = tmp_path / "locale"
    for lang in LANGUAGES:
        target = tools.po_path(lang, locale)
        target.parent.mkdir(parents=True)
        shutil.copy(tools.po_path(lang), target)
        shutil.copy(tools.po_path(lang).with_suffix(".mo"), target.with_suffix(".mo"))
    src = tmp_path / "game"
    src.mkdir()
    (src / "screen.py").write_text('from game.i18n import _\nTITLE = _("Draw pile")\n')
    return locale, [src]


def _edit(locale: Path, lang: str, msgid: str, change) -> None:
    path = tools.po_path(lang, locale)
    catalog = read_po(path.open("rb"), locale=lang)
    change(catalog, msgid)
    with path.open("wb") as f:
        write_po(f, catalog)


def test_a_sandbox_copy_is_clean(sandbox):
    assert tools.problems(*sandbox) == []


def test_a_new_string_in_the_code_is_reported_for_every_language(sandbox):
    locale, src = sandbox
    (src[0] / "menu.py").write_text('from game.i18n import _, ngettext\n'
                                    'A = _("Play chess instead")\n'
                                    'B = ngettext("{n} rook", "{n} rooks", 2)\n')
    found = tools.problems(locale, src)
    assert len([p for p in found if "'Play chess instead' missing" in p]) == len(LANGUAGES)
    assert len([p for p in found if "'{n} rook' missing" in p]) == len(LANGUAGES)
    assert all("menu.py" in p for p in found)


def test_update_adds_the_new_string_untranslated_and_english_filled(sandbox):
    locale, src = sandbox
    (src[0] / "menu.py").write_text('from game.i18n import _\nA = _("Play chess instead")\n')
    tools.update(locale, src)
    found = tools.problems(locale, src)
    assert "de: 'Play chess instead' is not translated" in found
    assert not any(p.startswith("en: 'Play chess instead' is not") for p in found)
    # the string no longer used (everything but "Draw pile") is kept as obsolete, not lost
    de = read_po(tools.po_path("de", locale).open("rb"), locale="de")
    assert any(m.string == "Nachziehstapel" for m in de if m.id == "Draw pile")
    assert any(m.id == "How to play" and m.string == "Spielregeln" for m in de.obsolete.values())
    # ... and comes back, translated, as soon as the code shows it again
    (src[0] / "menu.py").write_text('from game.i18n import _\nA = _("How to play")\n')
    tools.update(locale, src)
    tools.compile_all(locale)
    assert tools.problems(locale, src) == []
    de = read_po(tools.po_path("de", locale).open("rb"), locale="de")
    assert de["How to play"].string == "Spielregeln" and "How to play" not in de.obsolete


def test_untranslated_fuzzy_and_wrong_fields_are_reported(sandbox):
    locale, src = sandbox

    def blank(catalog, msgid):
        catalog[msgid].string = ""

    def fuzzy(catalog, msgid):
        catalog[msgid].flags.add("fuzzy")

    def wrong_field(catalog, msgid):
        catalog[msgid].string = "{nom} gagne"

    _edit(locale, "de", "Draw pile", blank)
    _edit(locale, "nl", "Draw pile", fuzzy)
    (src[0] / "result.py").write_text('from game.i18n import _\nX = _("{name} wins")\n')
    _edit(locale, "fr", "{name} wins", wrong_field)
    found = tools.problems(locale, src)
    assert "de: 'Draw pile' is not translated" in found
    assert "nl: 'Draw pile' is fuzzy" in found
    assert "fr: '{name} wins': translation has unknown fields ['nom']" in found


def test_a_stale_or_missing_mo_is_reported(sandbox):
    locale, src = sandbox
    _edit(locale, "de", "Draw pile", lambda c, m: setattr(c[m], "string", "Stapel"))
    tools.po_path("fr", locale).with_suffix(".mo").unlink()
    found = tools.problems(locale, src)
    assert any(p.startswith("de: rose-king.mo is older") for p in found)
    assert any(p.startswith("fr: cannot read rose-king.mo") for p in found)
    tools.compile_all(locale)
    assert tools.problems(locale, src) == []


def test_the_check_command_exits_1_with_problems(sandbox, monkeypatch, capsys):
    locale, src = sandbox
    monkeypatch.setattr(tools, "LOCALE_DIR", locale)
    monkeypatch.setattr(tools, "SOURCE_DIRS", tuple(src))
    assert tools.main(["check"]) == 0
    assert "catalogues complete" in capsys.readouterr().out
    (src[0] / "menu.py").write_text('from game.i18n import _\nA = _("Play chess instead")\n')
    assert tools.main(["check"]) == 1
    out = capsys.readouterr().out
    assert "de: 'Play chess instead' missing (used in game/menu.py)" in out
    assert out.rstrip().endswith("4 problem(s)")


def test_texts_built_before_translation_are_reported(sandbox):
    locale, src = sandbox
    (src[0] / "bad.py").write_text(
        "from game.i18n import _, ngettext\n"
        "name = 'Ann'\n"
        "a = _(f'{name} wins')\n"
        "b = _('Red' + ' wins')\n"
        "c = _('{name} wins'.format(name=name))\n"
        "d = ngettext('%d card' % 1, 'cards', 2)\n"
        "e = _(name)\n"                       # a variable holding an N_ text: fine
        "f = _('{name} wins').format(name=name)\n"  # the right way
        "g = f\"{name}. {_('F11: full screen.')}\"\n")  # unseen by the extractor: never translated
    found = tools.misuses(src)
    assert [line.split(":")[1] for line in found] == ["3", "4", "5", "6", "9"]
    assert "inside an f-string" in found[-1]
    assert all(line.startswith("game/bad.py:") for line in found)
    assert set(found) <= set(tools.problems(locale, src))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalogue_loads_with_the_standard_library(lang):
    with tools.po_path(lang).with_suffix(".mo").open("rb") as f:
        t = GNUTranslations(f)
    assert t.info()["language"] == lang


# Each language's own names for the pieces (rule texts in shared/rules).
GLOSSARY = {
    "de": {"Power cards": "Machtkarten", "Hero cards": "Heldenkarten", "Crown": "Krone", "Stone": "Stein",
           "Draw pile": "Nachziehstapel", "Discard pile": "Ablagestapel", "Territory": "Gebiet"},
    "nl": {"Power cards": "Machtkaarten", "Hero cards": "Heldenkaarten", "Crown": "Kroon", "Stone": "Steen",
           "Draw pile": "Trekstapel", "Discard pile": "Aflegstapel", "Territory": "Gebied"},
    "fr": {"Power cards": "Cartes pouvoir", "Hero cards": "Cartes héros", "Crown": "Couronne", "Stone": "Pion",
           "Draw pile": "Pioche", "Discard pile": "Défausse", "Territory": "Territoire"},
}


@pytest.mark.parametrize("lang", sorted(GLOSSARY))
def test_each_language_uses_its_own_names_for_the_pieces(lang):
    catalog = read_po(tools.po_path(lang).open("rb"), locale=lang)
    assert {k: catalog[k].string for k in GLOSSARY[lang]} == GLOSSARY[lang]


def test_the_default_font_has_a_glyph_for_every_character_of_every_translation():
    """The client draws with pygame's default font; a missing glyph would show as a box."""
    import pygame
    pygame.font.init()
    font = pygame.font.Font(None, 24)
    chars = set()
    for lang in LANGUAGES:
        for message in read_po(tools.po_path(lang).open("rb"), locale=lang):
            if message.id:
                chars.update(*([message.string] if isinstance(message.string, str) else message.string))
    assert {"ß", "é", "ë", "×", "…", "–", "\u00a0"} <= chars
    assert [c for c in sorted(chars) if font.metrics(c)[0] is None] == []
