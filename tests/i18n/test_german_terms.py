"""German names one game played (a Rose King game, a Royals & Riots match) "Partie", as most of
the catalogue and docs/i18n.md do; "Spiel" stays for the game itself: Rose King or Royals & Riots
as a kind of game, the program, and the rules' own wording about the game in general ("Das Spiel
endet", "Spielende", "Spielziel", as in shared/rules' German rules), or a card "out of the game"."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

import game

PO = Path(game.__file__).parent / "locale" / "de" / "LC_MESSAGES" / "rose-king.po"
#: The noun alone (compounds such as Spieler, Spielende, Spielstärke, Spielstand are other words,
#: and so are the verb's "Spielen am Bildschirm", "Spiele eine Heldenkarte").
SPIEL = re.compile(r"\bSpiel(?:s|e)?\b(?! (?:eine|sie)\b)")

#: Where "Spiel" means the game itself, not one game played, and why.
THE_GAME_ITSELF = {
    "{address} closed the connection without saying which game it hosts.": "which kind of game",
    "{address} hosts a game this program does not know.": "a kind of game",
    "That host plays another game.": "a kind of game",
    "Asking {address} which game it hosts…": "which kind of game",
    "A game by Dirk Henn.": "Rose King, the game",
    "The other game is a different version.": "the other program",
    "The settings could not be saved ({error}); they apply until the game is closed.": "the program",
    "The game ends at once when the last of the 52 stones is placed, or when neither player can act.":
        "the rules' wording",
    "Each of your 4 hero cards can be used once. Use them wisely: they turn the tide.": "an idiom",
    "Only rankless cards: nobody wins, they leave the game.": "out of play",
    "Executioner: pick a card in the trick to take out of the game.": "out of play",
    "The Executioner removed {card}.": "out of play",
    "The Thief's player may take an unseen card": "out of play",
    "At the start of a round click the cards to keep": "the program hides the hands",
    "If the totals are equal, the player with the larger single territory wins": "the rules' wording",
}


def exception(msgid: str) -> bool:
    return any(msgid.startswith(start) for start in THE_GAME_ITSELF)


def german() -> dict[str, str]:
    with PO.open("rb") as f:
        cat = read_po(f)
    out = {}
    for m in cat:
        if m.id and m.string:
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strs = m.string if isinstance(m.string, tuple) else (m.string,)
            for k, s in enumerate(strs):
                out[ids[min(k, len(ids) - 1)] + ("" if k == 0 else f" [{k}]")] = s
    return out


def test_one_game_played_is_a_partie():
    found = {i: s for i, s in german().items() if SPIEL.search(s) and not exception(i)}
    assert not found, found


def test_the_buttons_and_lists_of_games_say_partie():
    de = german()
    assert de["Host a game"] == "Partie eröffnen" and de["Hosting a game"] == "Partie eröffnen"
    assert de["Join a game"] == "Partie beitreten"
    assert de["New game"] == "Neue Partie"
    assert de["Saved games"] == "Gespeicherte Partien"
    assert de["Playing against {name}"] == "Partie gegen {name}"


def test_every_exception_is_still_in_the_catalogue():
    de = german()
    for start in THE_GAME_ITSELF:  # (an exception whose text left the catalogue goes from the list)
        assert any(i.startswith(start) and SPIEL.search(s) for i, s in de.items()), start
