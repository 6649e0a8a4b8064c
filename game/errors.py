"""The error both games raise for an action the rules refuse, carrying a reason *code* and its
arguments; the English text is only the default message (logs, ``rose-king check``), and the
sentence a player reads is made by the game's phrases from the code, in every language
(``game.royals.phrases.illegal_text``, ``game.roseking.phrases.illegal_text``).

>>> r = Reason("must_follow", "must follow Knights", rank=3)
>>> r == "must follow Knights", r.code, r.params
(True, 'must_follow', {'rank': 3})
>>> e = IllegalMoveError(r)
>>> str(e), e.code, e.params["rank"]
('must follow Knights', 'must_follow', 3)
>>> IllegalMoveError("3 play K4: it is not our turn").code   # text alone: no code
''
"""

from __future__ import annotations

from typing import Any


class Reason(str):
    """Why an action is refused: the English text (it *is* that string, so it prints, compares
    and formats as before) plus ``code`` (a short stable identifier such as ``"not_in_hand"``)
    and ``params`` (the figures the sentence needs: ``{"seat": 2}``, ``{"rank": 3}``; ints and
    strings only). Codes are listed per game beside the rules that give them."""

    __slots__ = ("code", "params")
    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, text: str, **params: Any) -> "Reason":
        self = super().__new__(cls, text)
        self.code = code
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (the match runner's worker processes) keep the code
        return (_make_reason, (self.code, str(self), self.params))


def _make_reason(code: str, text: str, params: dict[str, Any]) -> Reason:
    return Reason(code, text, **params)


class RuleError(ValueError):
    """Base of the two errors below. ``reason``: the :class:`Reason` (``code`` ``""`` when it
    was raised with a bare text), also as ``code`` and ``params``; ``str(e)`` is the text."""

    def __init__(self, reason: "Reason | str") -> None:
        if not isinstance(reason, Reason):
            reason = Reason("", str(reason))
        super().__init__(str(reason))
        self.reason = reason
        self.code = reason.code
        self.params = reason.params

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason,))


class IllegalMoveError(RuleError):
    """A well-formed action that the rules do not allow now (both games)."""


class InvalidMoveError(RuleError):
    """Action text that cannot be parsed at all (an unknown seat, action or card; both games)."""


__all__ = ["Reason", "RuleError", "IllegalMoveError", "InvalidMoveError"]
