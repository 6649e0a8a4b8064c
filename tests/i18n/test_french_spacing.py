"""French sets a no-break space (U+00A0) before ``: ; ? !`` (docs/i18n.md), so a wrapped line
never starts with the sign: no French text of the catalogue has a plain space there."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

import game

PO = Path(game.__file__).parent / "locale" / "fr" / "LC_MESSAGES" / "rose-king.po"


def test_french_keeps_its_signs_with_the_word_before():
    with PO.open("rb") as f:
        cat = read_po(f)
    bad = []
    for m in cat:
        strs = m.string if isinstance(m.string, tuple) else (m.string,)
        bad += [s for s in strs if m.id and s and re.search(r"\S [:;?!]", s)]
    assert not bad, bad
