"""Why a LAN game stopped or a connection closed for good, worded once for every game and the
shell's waiting screens (docs/protocol.md, "Errors").

Each game words its own verdicts, which name a place in its play (``illegal``, ``coin``,
``forfeit``, ``desync``, ``disputed``: Rose King's move, Royals & Riots' round and trick), in its
phrases' ``stop_text``; every other closing code means the same in every game and is worded here,
in the game's own term for what stopped: Rose King's "game" (German "Partie", never "Spiel"),
Royals & Riots' "match" at a table. The shell's waiting screen words a refusal through the game's
``stop_text`` hook (:class:`game.client.lan.LanClient`), a game without one through this function.

>>> from game.i18n import set_language
>>> set_language("en")
>>> stop_text("order"), stop_text("order", term="match")
('The other program broke the network protocol: the game was stopped.', 'The other program broke the network protocol: the match was stopped.')
>>> stop_text("left", "Cy", term="match"), stop_text("eof")
('Cy left: the match is over.', 'The game was stopped: the connection failed.')
"""

from __future__ import annotations

from typing import Literal

from game.i18n import N_, _

__all__ = ["Term", "stop_text"]

#: A game's word for what stops: ``"game"`` (Rose King) or ``"match"`` (Royals & Riots).
Term = Literal["game", "match"]

#: Closing code -> its sentence per term (``game``, ``match``), marked for translation.
_SENTENCES: dict[str, tuple[str, str]] = {
    "version": (N_("The other player's program is a different version."),
                N_("The other player's program is a different version.")),
    "game": (N_("This seat belongs to another game."), N_("This seat belongs to another match.")),
    "seat": (N_("That game has no place for this player."), N_("There is no seat for this player at that table.")),
    "role": (N_("This machine cannot play against itself."), N_("This machine cannot play against itself.")),
    "protocol": (N_("The other program broke the network protocol: the game was stopped."),
                 N_("The other program broke the network protocol: the match was stopped.")),
    "internal": (N_("An error in this program stopped the game."), N_("An error in this program stopped the match.")),
    "sync": (N_("The copy of the game sent to resume it does not check out: the game was stopped."),
             N_("The copy of the match sent to resume it does not check out: the match was stopped.")),
    "left": (N_("The host left: the game is over."), N_("The host left: the match is over.")),
    "bye": (N_("The host left: the game is over."), N_("The host closed the table.")),
    "failed": (N_("The game was stopped: the connection failed."),
               N_("The match was stopped: the connection failed.")),
}
#: Codes worded alike: a machine meeting itself; any breach of the protocol's framing or order.
_SAME = {"self": "role", "order": "protocol", "schema": "protocol", "frame": "protocol", "flood": "protocol"}


def stop_text(code: str, who: str = "", term: Term = "game") -> str:
    """Why the game stopped (or could not start), in the current language, for a closing ``code``
    of the one LAN layer: ``version``, ``game`` (the seat belongs to another game or match),
    ``seat`` (no seat: the table is full, or the seat cannot be proved), ``role``/``self`` (a
    machine meets itself), ``order``/``schema``/``frame``/``flood`` (the other program broke the
    protocol), ``internal`` (an error of this program), ``sync`` (a resumed copy does not check),
    ``left`` (a player, by default the host, left), ``bye`` (the host closed the table); anything
    else reads as a failed connection. ``who``: the name of the player who left (a match names
    them; Rose King's two-player game says the host); ``term``: the game's word (module docstring).
    The English detail stays in the record and the logs."""
    if code == "left" and who and term == "match":
        return _("{name} left: the match is over.").format(name=who)
    game, match = _SENTENCES.get(_SAME.get(code, code), _SENTENCES["failed"])
    sentence = match if term == "match" else game
    return _(sentence)
