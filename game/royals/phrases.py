"""Royals & Riots' player-visible sentences built from game data, in the current language.

The screens call these instead of showing the engine's English: the names of ranks and
cards, and :func:`illegal_text`, which turns a refusal of :meth:`State.illegal_reason` (or of
:meth:`SeatView.check`: a :class:`game.errors.Reason`) into a whole translated sentence by its
code and params. No pygame here.

``name`` arguments map a seat number (1..4) to the name shown for it; ``None`` means
"Seat 1", "Seat 2"... in the current language.
"""

from __future__ import annotations

from typing import Any, Callable

from game.errors import Reason
from game.i18n import N_, _, ngettext
from game.royals.engine import Card, Rank
from game.stop_words import stop_text as layer_stop_text

RANK_NAMES = {Rank.KING: N_("King"), Rank.QUEEN: N_("Queen"), Rank.ROYALS: N_("Royals"),
              Rank.KNIGHTS: N_("Knights"), Rank.MERCHANTS: N_("Merchants"), Rank.PEASANTS: N_("Peasants")}
SPECIAL_NAMES = {"THIEF": N_("Thief"), "EXECUTIONER": N_("Executioner"), "BEGGAR": N_("Beggar")}

SeatName = Callable[[int], str]


def rank_name(rank: Rank) -> str:
    """A rank's name in the current language (``Rank.KNIGHTS`` -> "Knights"/"Ritter"...)."""
    return _(RANK_NAMES[rank])


def card_name(card: Card) -> str:
    """``Knights 4 (Guildmaster)``, ``Royals 3 (Prince)``, ``Thief`` ... translated."""
    if card.rank is None:
        return _(SPECIAL_NAMES[card.name])
    if card.rank in (Rank.KING, Rank.QUEEN):
        return rank_name(card.rank)
    base = _("{rank} {number}").format(rank=rank_name(card.rank), number=card.number)
    if card.is_guildmaster:
        return _("{card} (Guildmaster)").format(card=base)
    if card.is_prince:
        return _("{card} (Prince)").format(card=base)
    if card.is_rebels:
        return _("{card} (Rebels)").format(card=base)
    return base


def seat_name(seat: int, name: SeatName | None = None) -> str:
    """The name shown for ``seat``: ``name(seat)``, or "Seat 3" in the current language."""
    return name(seat) if name is not None else _("Seat {n}").format(n=seat)


def illegal_text(reason: str, name: SeatName | None = None) -> str:
    """Why a decision is not allowed, as a sentence for the player in the current language.

    ``reason`` is a :class:`game.errors.Reason` (what :meth:`State.illegal_reason` and
    :meth:`SeatView.check` return; an :class:`~game.errors.IllegalMoveError`'s ``reason``): its
    ``code`` picks the sentence and its ``params`` fill it (the seat's name by ``name``, the rank
    by :func:`rank_name`). A reason without a code, or a code without a sentence here (a new
    one), reads "That is not allowed now.": no English text is ever parsed.
    """
    if isinstance(reason, Reason) and reason.code:
        return _code_sentence(reason.code, reason.params, name) or _("That is not allowed now.")
    return _("That is not allowed now.")


#: Refusal codes whose sentence takes no figure (``game.royals.engine.kernel.TEXTS``) -> the sentence.
_SENTENCES: dict[str, str] = {
    # the order of play (ruling 4, 5, 9)
    "over": N_("The match is over."),
    "unknown_seat": N_("There is no such seat at this table."),
    "keep_first": N_("First everyone chooses the cards to keep in hand."),
    "piles_first": N_("First everyone lays the rest of their cards down as their draw pile."),
    "starter_first": N_("First the player who starts the round is chosen."),
    "setup_in_play": N_("Now a card is played into the trick."),
    "deal_first": N_("Wait: the cards are being dealt or drawn."),
    "chance_first": N_("Wait: the cards are being dealt or drawn."),
    "not_public": N_("Wait: the cards are being dealt or drawn."),
    "deal_groups": N_("Wait: the cards are being dealt or drawn."),
    "deal_seat_size": N_("Wait: the cards are being dealt or drawn."),
    "deal_aside_size": N_("Wait: the cards are being dealt or drawn."),
    "deal_twice": N_("Wait: the cards are being dealt or drawn."),
    # playing a card (ruling 5)
    "not_in_hand": N_("That card is not in your hand."),
    # the Thief (ruling 7)
    "thief_first": N_("First the Thief's player chooses whom to rob."),
    "no_thief": N_("Nobody played the Thief in this trick."),
    "no_theft_pending": N_("Nobody played the Thief in this trick."),
    "thief_chose": N_("The Thief's player has already chosen."),
    "steal_self": N_("You cannot rob yourself with the Thief."),
    "target_empty": N_("That player has no cards in hand to steal."),
    "not_in_that_hand": N_("That card is not in that player's hand."),
    # the Executioner (ruling 7)
    "executioner_first": N_("First the Executioner's player chooses a card of the trick to execute."),
    "no_executioner": N_("Nobody played the Executioner in this trick."),
    "execute_itself": N_("The Executioner cannot execute itself."),
    "not_in_trick": N_("The Executioner can only execute a card of this trick."),
    # choosing the hand and the draw pile (ruling 4)
    "keep_not_dealt": N_("Choose your hand from the cards you were dealt."),
    "bad_pile": N_("Your draw pile must hold exactly the dealt cards you did not keep in hand."),
    "unexpected": N_("That cannot be done at this point of the round."),
}


def _code_sentence(code: str, params: dict[str, Any], name: SeatName | None) -> str | None:
    if code in _SENTENCES:
        return _(_SENTENCES[code])
    seat = params.get("seat")
    who = seat_name(seat, name) if seat is not None else ""
    if code in ("wrong_seat", "wrong_seat_play"):
        return _("It is {name}'s turn.").format(name=who)
    if code == "wrong_starter":
        return _("A player of {name}'s team starts this round.").format(name=who)
    if code == "must_follow":
        return _("You must follow {rank}.").format(rank=rank_name(Rank(params["rank"])))
    if code == "thief_chose_seat":
        return _("The Thief's player chose to rob {name}.").format(name=who)
    if code == "keep_size":
        count = params["size"]
        return ngettext("Your hand must hold exactly {count} different card.",
                        "Your hand must hold exactly {count} different cards.", count).format(count=count)
    return None


# --------------------------------------------------------------------------- LAN play
def stop_text(code: str, who: str = "", round: int = 0, trick: int = 0) -> str:
    """Why a LAN match of Royals & Riots stopped (or could not start), for the players, in the
    current language: the table's panel of a stopped match.

    ``code`` is a verdict's kind (:class:`net.match.Verdict`) or the closing code of
    docs/protocol.md that stopped it. Royals & Riots words its own verdicts here: ``illegal`` (a
    play the rules do not allow, or a false step of the protocol), ``coin`` (a shuffle, key or
    coin did not check), ``forfeit`` (a key or secret withheld), ``desync`` (the copies of the
    match differ), ``disputed`` (two other seats accuse each other and nothing signed shows
    which is right); every other code is the layer's, worded once for every game by
    :func:`game.stop_words.stop_text` in Royals & Riots' term, "match" (``left``: the seat
    named, by default the host, left; ``bye``: the host closed the table). ``who`` is the name
    of the seat at fault ("" when none is named); ``round``/``trick`` where it happened (round
    0: unknown; trick 0: while the round was set up). The English detail stays in the record
    and the logs.
    """
    if code == "illegal":
        if round and trick:
            return (_("{name} broke the rules in round {round}, trick {trick}: the match was stopped.") if who else
                    _("A move against the rules in round {round}, trick {trick}: the match was stopped.")).format(
                name=who, round=round, trick=trick)
        if round:
            return (_("{name} broke the rules while round {round} was set up: the match was stopped.") if who else
                    _("A move against the rules while round {round} was set up: the match was stopped.")).format(
                name=who, round=round)
        if who:
            return _("{name} broke the rules: the match was stopped.").format(name=who)
        return _("A move against the rules: the match was stopped.")
    if code == "disputed":
        return _("Two machines at the table tell different stories, and this one cannot tell which is true: "
                 "the match was stopped, and nobody is blamed.")
    if code == "desync":
        if round and trick:
            return _("The check found that the machines' copies of the match differ in round {round}, "
                     "trick {trick}: the match was stopped.").format(round=round, trick=trick)
        if round:
            return _("The check found that the machines' copies of the match differ while round {round} was "
                     "set up: the match was stopped.").format(round=round)
        return _("The check found that the machines' copies of the match differ: the match was stopped.")
    if code == "coin":
        if who:
            return _("The check of the joint coin failed on {name}'s side: the match was stopped.").format(name=who)
        return _("The check of the joint coin failed: the match was stopped.")
    if code == "forfeit":
        if who:
            return _("{name} withheld a key or a secret it owed and forfeits the match.").format(name=who)
        return _("A player withheld a key or a secret it owed and forfeits the match.")
    return layer_stop_text(code, who, "match")


def table_error_text(error: BaseException) -> str:
    """Why the host's table cannot be opened (what its session raised: an OSError when no port
    can be listened on, a ValueError for a table it refuses), as a whole sentence in the current
    language (its English text is never read)."""
    if isinstance(error, OSError):
        return _("The table cannot be opened: no network port can be opened on this machine.")
    return _("The table cannot be opened with these seats.")
