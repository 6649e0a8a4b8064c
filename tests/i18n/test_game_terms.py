"""One game played (a Rose King game, a Royals & Riots match) is a "Partie" in German and a
"partij" in Dutch, as most of each catalogue and docs/i18n.md have it; "Spiel"/"spel" stays for
the game itself: Rose King or Royals & Riots as a kind of game, the program, the rules' own
wording about the game in general ("Das Spiel endet", "Spielende", "Einde van het spel", as in
shared/rules' German and Dutch rules), or a card "out of the game"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import game

#: The noun alone: German compounds (Spieler, Spielende, Spielstärke, Spielstand) and the verb
#: ("Spielen am Bildschirm", "Spiele eine Heldenkarte") are other words; Dutch "spel", "spellen".
NOUN = {"de": re.compile(r"\bSpiel(?:s|e)?\b(?! (?:eine|sie)\b)"), "nl": re.compile(r"\b[Ss]pel(?:len)?\b")}

#: Where the noun means the game itself, not one game played (msgid starts), and why.
THE_GAME_ITSELF = {
    "{address} closed the connection without saying which game it hosts.": "which kind of game",
    "{address} hosts a game this program does not know.": "a kind of game",
    "That host plays another game.": "a kind of game",
    "Asking {address} which game it hosts…": "which kind of game",
    "A game by Dirk Henn.": "Rose King, the game",
    "Game chosen last": "which of the two games the main menu shows",
    "Game": "the saved-games list's column: which of the two games a save is",
    "The other game is a different version.": "the other program",
    "The settings could not be saved ({error}); they apply until the game is closed.": "the program",
    "The game ends at once when the last of the 52 stones is placed": "the rules' wording",
    "If the totals are equal, the player with the larger single territory wins": "the rules' wording",
    "Each of your 4 hero cards can be used once.": "an idiom (turn the tide)",
    "Only rankless cards: nobody wins, they leave the game.": "out of play",
    "Executioner: pick a card in the trick to take out of the game.": "out of play",
    "The Executioner removed {card}.": "out of play",
    "The Thief's player may take an unseen card": "out of play",
    "At the start of a round click the cards to keep": "the program hides the hands",
}
#: Dutch has no one word like "Spielende": its rules' headings and the end say "het spel".
DUTCH_TOO = {"Goal of the game": "the rules' heading", "End of the game": "the rules' heading",
             "Game over": "as the rules' heading says it"}


def catalogue(language: str) -> dict[str, str]:
    path = Path(game.__file__).parent / "locale" / language / "LC_MESSAGES" / "rose-king.po"
    with path.open("rb") as f:
        cat = read_po(f)
    out = {}
    for m in cat:
        if m.id and m.string:
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strs = m.string if isinstance(m.string, tuple) else (m.string,)
            for k, s in enumerate(strs):
                out[ids[min(k, len(ids) - 1)] + ("" if k == 0 else f" [{k}]")] = s
    return out


def exceptions(language: str) -> dict[str, str]:
    return {**THE_GAME_ITSELF, **(DUTCH_TOO if language == "nl" else {})}


@pytest.mark.parametrize("language", ["de", "nl"])
def test_one_game_played_is_a_partie(language):
    allowed = exceptions(language)
    found = {i: s for i, s in catalogue(language).items()
             if NOUN[language].search(s) and not any(i.startswith(a) for a in allowed)}
    assert not found, found


def test_every_exception_is_still_needed():
    """(An exception whose text left the catalogues, or no longer says the word, goes from the list.)"""
    tr = {language: catalogue(language) for language in ("de", "nl")}

    def says_it(language: str, start: str) -> bool:
        return any(i.startswith(start) and NOUN[language].search(s) for i, s in tr[language].items())
    for start in THE_GAME_ITSELF:
        assert says_it("de", start) or says_it("nl", start), start
    for start in DUTCH_TOO:
        assert says_it("nl", start), start


def test_the_buttons_and_lists_of_games_say_partie():
    de, nl = catalogue("de"), catalogue("nl")
    assert de["Host a game"] == de["Hosting a game"] == "Partie eröffnen"
    assert de["Join a game"] == "Partie beitreten" and de["New game"] == "Neue Partie"
    assert de["Saved games"] == "Gespeicherte Partien" and de["Playing against {name}"] == "Partie gegen {name}"
    assert nl["Host a game"] == nl["Hosting a game"] == "Partij openen"
    assert nl["Join a game"] == nl["Joining a game"] == "Meedoen aan een partij"
    assert nl["New game"] == "Nieuwe partij" and nl["Saved games"] == "Opgeslagen partijen"
