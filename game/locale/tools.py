"""Keep the translation catalogues in step with the code (Babel; a developer tool, not run by the game).

    python -m game.locale.tools update    # extract _()/ngettext()/pgettext()/N_() from game/ and net/,
                                          # merge into every .po (new entries empty, English filled in)
    python -m game.locale.tools compile   # .po -> .mo (what game.i18n reads)
    python -m game.locale.tools check     # list every problem; exit 1 if any (the test suite runs this)
    python -m game.locale.tools extract FILE.pot   # write the template, for a translator's tool

Workflow after changing a visible string: ``update``, translate the empty ``msgstr``
entries in ``game/locale/{de,nl,fr}/LC_MESSAGES/rose-king.po``, ``compile``, commit
the .po and .mo files. Entries whose source text vanished stay in the .po files as
obsolete (``#~``) so that no translation is lost; they are not compiled, and
``update`` brings one back as soon as the code uses its exact text again.

Needs Babel (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import ast
import copy
import io
import string
import sys
from datetime import datetime, timezone
from gettext import GNUTranslations
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from game import __version__
from game.i18n import DOMAIN, LANGUAGES

LOCALE_DIR = Path(__file__).resolve().parent
ROOT = LOCALE_DIR.parents[1]
#: Folders whose Python files hold player-visible strings.
SOURCE_DIRS = (ROOT / "game", ROOT / "net")
#: A fixed template date keeps the .po headers from changing on every update.
_TEMPLATE_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)
_HEADER = "# Rose King: translations of the game's texts.\n# Made by the Rose King authors; MIT licence, as the game.\n#"
_META: dict[str, Any] = dict(project="Rose King", version=__version__, charset="utf-8", last_translator="Rose King authors",
             language_team="Rose King authors", creation_date=_TEMPLATE_DATE, revision_date=_TEMPLATE_DATE)


def po_path(lang: str, locale_dir: Path | None = None) -> Path:
    """``<locale_dir>/<lang>/LC_MESSAGES/rose-king.po`` (default folder: this package's)."""
    return (locale_dir or LOCALE_DIR) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract(source_dirs: Iterable[Path] | None = None) -> Catalog:
    """The template: every message marked in the Python files below ``source_dirs``.

    Comments starting ``TRANSLATORS:`` just above a call are kept for translators.
    """
    template = Catalog(domain=DOMAIN, fuzzy=False, header_comment=_HEADER, **_META)
    for folder in SOURCE_DIRS if source_dirs is None else source_dirs:
        if not folder.is_dir():
            continue
        for filename, lineno, message, comments, context in extract_from_dir(
                folder, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
            if not message or (isinstance(message, tuple) and not all(message)):
                continue  # a call on a variable, not a literal: nothing to translate here
            where = f"{folder.name}/{filename}".replace("\\", "/")
            template.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return template


def _read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def update(locale_dir: Path | None = None, source_dirs: Iterable[Path] | None = None) -> None:
    """Merge the current template into every language's .po (creating missing files)."""
    template = extract(source_dirs)
    for lang in LANGUAGES:
        path = po_path(lang, locale_dir)
        template_copy = copy.deepcopy(template)  # Catalog.update shares the template's Message objects
        if path.exists():
            catalog = _read(path, lang)
            for message in list(catalog.obsolete.values()):  # a kept translation comes back when its text does
                catalog[message.id] = message
            catalog.obsolete.clear()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, domain=DOMAIN, fuzzy=False, header_comment=_HEADER, **_META)
        catalog.update(template_copy, no_fuzzy_matching=True, update_creation_date=False)
        if lang == "en":  # the source language: its catalogue says the source texts
            for message in catalog:
                if message.id and not _translated(message, catalog.num_plurals):
                    message.string = (message.id if isinstance(message.id, str)
                                      else tuple(message.id[min(i, 1)] for i in range(catalog.num_plurals)))
        buffer = io.BytesIO()
        write_po(buffer, catalog, width=100, include_lineno=False, include_previous=False)
        path.write_bytes(buffer.getvalue())


def compile_all(locale_dir: Path | None = None) -> None:
    """Write ``rose-king.mo`` beside every ``rose-king.po`` (fuzzy entries left out)."""
    for lang in LANGUAGES:
        path = po_path(lang, locale_dir)
        catalog = _read(path, lang)
        with path.with_suffix(".mo").open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)


def _translated(message: Message, num_plurals: int) -> bool:
    if isinstance(message.string, str):
        return bool(message.string)
    forms = tuple(message.string or ())
    return len(forms) == num_plurals and all(forms)


def _fields(text: str) -> set[str]:
    """The ``{field}`` names in a ``str.format`` text; raises ValueError for bad braces."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _key(message: Message) -> tuple[str | None, str]:
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return message.context, msgid


_CALLS = {"_": 1, "gettext": 1, "ngettext": 2, "pgettext": 2, "npgettext": 3}


def misuses(source_dirs: Iterable[Path] | None = None) -> list[str]:
    """Calls that can never be translated: ``_(f"...")``, ``_("a" + b)``, ``_("...".format(x))``, ``_("a" % x)``.

    The text must reach ``_()`` unchanged so that the catalogue lookup finds it;
    fields are filled after translating. A variable argument is fine (a ``N_`` text).
    Returns ``"file:line: ..."`` lines.
    """
    found = []
    for folder in SOURCE_DIRS if source_dirs is None else source_dirs:
        for path in sorted(folder.rglob("*.py")) if folder.is_dir() else ():
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.JoinedStr):
                    found += _calls_in_fstring(node, f"{folder.name}/{path.relative_to(folder)}")
                if not isinstance(node, ast.Call):
                    continue
                name = node.func.id if isinstance(node.func, ast.Name) else (
                    node.func.attr if isinstance(node.func, ast.Attribute) else None)
                if name not in _CALLS:
                    continue
                for arg in node.args[:_CALLS[name]]:
                    if isinstance(arg, ast.JoinedStr) or (
                            isinstance(arg, ast.BinOp) and isinstance(arg.op, (ast.Add, ast.Mod))) or (
                            isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute)
                            and isinstance(arg.func.value, ast.Constant) and arg.func.attr == "format"):
                        where = f"{folder.name}/{path.relative_to(folder)}:{node.lineno}"
                        found.append(f"{where}: {name}() of a text built at run time; pass the literal "
                                     "and fill fields after translating: _(\"...{x}\").format(x=...)")
    return found


def _calls_in_fstring(node: ast.JoinedStr, where: str) -> list[str]:
    """Translation calls inside the fields of the f-string ``node``: the extractor does not look
    into f-strings (Python before 3.12 keeps them as one token), so such a text never reaches the
    catalogues and shows in English. Translate it before the f-string."""
    out = []
    for value in node.values:
        for sub in ast.walk(value):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in _CALLS and any(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in sub.args):
                out.append(f"{where}:{sub.lineno}: {sub.func.id}() inside an f-string, where the extractor "
                           "cannot see it; translate the text into a variable first")
    return out


def problems(locale_dir: Path | None = None, source_dirs: Iterable[Path] | None = None) -> list[str]:
    """Every reason the catalogues are not ready to ship, one line each (empty list: all good).

    In the code: a call of ``_()`` on a text built at run time (:func:`misuses`).
    Per language: a .po missing or unreadable; a string used in the code but absent
    from the .po; an entry fuzzy or untranslated (every plural form); ``{fields}``
    that differ from the source's (a translation may drop the number in a singular
    plural form but never add a field); a .mo missing or older than its .po.
    """
    template = extract(source_dirs)
    found: list[str] = misuses(source_dirs)
    for lang in LANGUAGES:
        path = po_path(lang, locale_dir)
        try:
            catalog = _read(path, lang)
        except Exception as e:  # OSError, or Babel's PoFileError on a broken file
            found.append(f"{lang}: cannot read {path.name}: {e}")
            continue
        entries = {_key(m): m for m in catalog if m.id}
        for wanted in template:
            if not wanted.id:
                continue
            where = ", ".join(f for f, _ in wanted.locations)
            message = entries.get(_key(wanted))
            label = f"{lang}: {_key(wanted)[1]!r}" + (f" (context {wanted.context!r})" if wanted.context else "")
            if message is None:
                found.append(f"{label} missing (used in {where}); run: python -m game.locale.tools update")
                continue
            if message.fuzzy:
                found.append(f"{label} is fuzzy")
            if not _translated(message, catalog.num_plurals):
                found.append(f"{label} is not translated")
                continue
            found.extend(f"{label}: {e}" for e in _field_problems(message))
        found.extend(f"{lang}: {e}" for e in _mo_problems(path, catalog))
    return found


def _field_problems(message: Message) -> list[str]:
    ids = [message.id] if isinstance(message.id, str) else list(message.id)
    strings = [message.string] if isinstance(message.string, str) else list(message.string or ())
    try:
        allowed = set().union(*(_fields(i) for i in ids))
        out = []
        for text in strings:
            got = _fields(text)
            if not got <= allowed:
                out.append(f"translation has unknown fields {sorted(got - allowed)}")
            elif len(ids) == 1 and got != allowed:
                out.append(f"translation lacks fields {sorted(allowed - got)}")
        return out
    except ValueError as e:
        return [f"bad braces: {e}"]


def _mo_problems(po: Path, catalog: Catalog) -> list[str]:
    mo = po.with_suffix(".mo")
    try:
        with mo.open("rb") as f:
            compiled = GNUTranslations(f)
    except (OSError, ValueError) as e:
        return [f"cannot read {mo.name} ({e}); run: python -m game.locale.tools compile"]
    if compiled.info().get("plural-forms") != catalog.plural_forms:
        return [f"{mo.name} has other plural forms than {po.name}; run: python -m game.locale.tools compile"]
    for message in catalog:
        if not message.id or message.fuzzy or not _translated(message, catalog.num_plurals):
            continue
        if isinstance(message.id, str):
            got = (compiled.pgettext(message.context, message.id) if message.context
                   else compiled.gettext(message.id))
            stale = got != message.string
        else:
            singular, plural = message.id
            forms = tuple(message.string or ())
            # the plural rule set from the .mo's Plural-Forms (an attribute typeshed does not declare)
            index: Callable[[int], int] = getattr(compiled, "plural")
            stale = any(
                (compiled.npgettext(message.context, singular, plural, n) if message.context
                 else compiled.ngettext(singular, plural, n)) != forms[index(n)]
                for n in (0, 1, 2, 5))
        if stale:
            return [f"{mo.name} is older than {po.name}; run: python -m game.locale.tools compile"]
    return []


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.locale.tools", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("update", help="extract the strings and merge them into every .po")
    sub.add_parser("compile", help="compile every .po to .mo")
    sub.add_parser("check", help="list missing, untranslated or stale entries; exit 1 if any")
    pot = sub.add_parser("extract", help="write the template (.pot)")
    pot.add_argument("output", type=Path)
    args = parser.parse_args(argv)
    if args.command == "update":
        update()
    elif args.command == "compile":
        compile_all()
    elif args.command == "extract":
        with args.output.open("wb") as f:
            write_po(f, extract(), width=100, include_lineno=False)
    else:
        found = problems()
        for line in found:
            print(line)
        print(f"{len(found)} problem(s)" if found else "catalogues complete")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
