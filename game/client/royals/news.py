"""What happened at the table since a person's last decision, in sentences (no pygame).

In a match of several people at one screen, each person gets the table after "pass to NAME";
:func:`news_lines` tells them, from the beats played since their last decision, what they
missed: the cards played, a Thief that robbed them (the card taken and the card that went back
to their hand), executions, revolutions, and who took each trick. Only what the whole table saw
is told (every stolen card goes face up to the Thief's loot; draws are not told).
"""

from __future__ import annotations

from typing import Callable, Iterable

from game.i18n import _
from game.royals.phrases import card_name

from game.royals.match import Beat

#: At most this many lines (the latest): a whole round missed is told by the score table.
MAX_LINES = 9


def news_lines(beats: Iterable[Beat], seat: int, name: Callable[[int], str]) -> list[str]:
    """Sentences for ``seat`` about ``beats`` (in order; the latest :data:`MAX_LINES`), each
    seat named by ``name(seat)``, in the current language. Empty when nothing was missed."""
    lines: list[str] = []
    for b in beats:
        line = _line(b, seat, name)
        if line:
            lines.append(line)
    return lines[-MAX_LINES:]


def _line(b: Beat, seat: int, name: Callable[[int], str]) -> str:
    k = b.kind
    if k == "play" and b.card is not None and b.seat != seat:
        return _("{name} played {card}.").format(name=name(b.seat), card=card_name(b.card))
    if k == "steal" and b.card is not None:
        if b.target == seat:
            if b.back is not None:
                return _("The Thief ({thief}) took your {card}; your {back} went back to your hand.").format(
                    thief=name(b.seat), card=card_name(b.card), back=card_name(b.back))
            return _("The Thief ({thief}) took your {card}.").format(thief=name(b.seat), card=card_name(b.card))
        return _("The Thief ({thief}) took {card} from {victim}.").format(
            thief=name(b.seat), card=card_name(b.card), victim=name(b.target))
    if k == "execute" and b.card is not None:
        return _("The Executioner ({name}) removed {card}.").format(name=name(b.seat), card=card_name(b.card))
    if k == "revolution":
        return _("Revolution: the order is reversed.")
    if k == "restore":
        return _("The revolution is over: the normal order is back.")
    if k == "trick":
        return _("Trick to {name}.").format(name=name(b.seat))
    if k == "void":
        return _("Nobody took the trick: only rankless cards were left.")
    return ""
