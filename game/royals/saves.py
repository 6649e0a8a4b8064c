"""Royals & Riots' side of the saved games: the saved-games list's :func:`summarize`
of a record, in the match's own words (players, the winners by name, who is to act, "round 2 of 3,
trick 5"). The keys a local save adds to the record (``game_id``, ``kind``, ``seats``,
``chance_seed``, ``starter``) are written by ``game.client.royals.saving``
(docs/royals-record-format.md, "Saved games").

>>> from game.i18n import set_language
>>> set_language("en")
>>> s = summarize(SAMPLE, "sample")
>>> s.players(), s.status(), s.progress()
('Ann – Bob – Cas', 'in progress · Cas to play', 'round 1 of 3, trick 4')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from game.i18n import _
from game.savefile import Summary, save_id, save_kind

from .engine import ROUNDS, Phase, Record, State
from .engine.record import SAMPLE

if TYPE_CHECKING:
    from game.stats import StatsStore

__all__ = ["summarize", "SAMPLE", "KINDS"]

#: The kinds of a Royals & Riots save: its matches against the computer are ``local`` (the
#: ``seats`` key names the computer seats); another kind reads as ``local``.
KINDS = ("local", "lan")


def summarize(obj: dict[str, Any], fallback_id: str) -> Summary:
    """The :class:`game.savefile.Summary` of a parsed Royals & Riots record, fully checked (every
    action replayed). Raises :class:`game.royals.engine.RecordError` for a bad record."""
    record = Record.from_dict(dict(obj))
    state = record.replay()
    names = tuple(record.players)
    outcome = state.outcome()
    result = outcome.result() if outcome is not None else None
    if outcome is not None and outcome.team_scores is not None:
        scores: tuple[int, ...] = tuple(outcome.team_scores)
    else:
        scores = tuple(outcome.scores if outcome is not None else state.scores())
    date = obj.get("date") if isinstance(obj.get("date"), str) else None
    kind = save_kind(obj, KINDS)
    seats = obj.get("seats")
    levels = [s.get("level") if isinstance(s, dict) else None for s in seats] if isinstance(seats, list) else []
    undo = obj.get("undo_marked") is True
    stopped = _stopped(obj, names) if kind == "lan" and result is None else None
    return Summary(save_id(obj, fallback_id), kind, date, state.ply, result, scores,
                   lambda: " – ".join(names), stopped or (lambda: _status(state, names)), lambda: _progress(state),
                   lambda: _note(kind, result is not None, levels, undo))


def _note(kind: str, finished: bool, levels: Sequence[object] = (), undo: bool = False) -> str | None:
    """The kind of match, for the list's second line: a network match's (it is played on only by
    joining its host again), against the computer (its levels), or people at one screen (with the
    computer); that it was played with undo."""
    if kind == "lan":
        if finished:
            return _("Network match")
        return _("Unfinished network match: it can only be watched here (Replay)")
    from .settings import LEVEL_WORDS
    computers = [_(LEVEL_WORDS[lv]) for lv in levels if isinstance(lv, str) and lv in LEVEL_WORDS]
    people = sum(1 for lv in levels if lv is None)
    if not levels:
        return None
    if people <= 1 and computers:
        text = _("Against the computer ({levels})").format(levels=", ".join(dict.fromkeys(computers)))
    elif computers:
        text = _("People at one screen, with the computer")
    else:
        text = _("People at one screen")
    if undo:
        # TRANSLATORS: the kind of match, then that an undo went back past cards shown
        text = _("{kind} · played with undo").format(kind=text)
    return text


def _stopped(obj: dict[str, Any], names: tuple[str, ...]) -> Callable[[], str] | None:
    """A network match that ended before its last round (its ``"lan"`` key's ``end`` and the 0-based
    ``seat`` at fault): its status line, worded when shown ("stopped · Ann left"), else None."""
    lan = obj.get("lan")
    if not isinstance(lan, dict):
        return None
    end = lan.get("end")
    if not isinstance(end, str) or end in ("", "finished"):
        return None
    seat = lan.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""

    def status() -> str:
        if end == "left":
            return _("stopped · {name} left").format(name=who) if who else _("stopped · a player left")
        return _("stopped · {name} broke off the match").format(name=who) if who else _("stopped")
    return status


def _status(state: State, names: tuple[str, ...]) -> str:
    outcome = state.outcome()
    if outcome is None:
        seat = state.next_starter() if state.phase in (Phase.START, Phase.DEAL) else state.to_act
        if not seat:
            return _("in progress")
        return _("in progress · {name} to play").format(name=names[seat - 1])
    scores = "–".join(str(x) for x in (outcome.team_scores or outcome.scores))
    winners = [names[s - 1] for s in outcome.winners]
    if len(winners) == 1:
        return _("{name} wins {scores}").format(name=winners[0], scores=scores)
    if len(winners) == len(names) and outcome.team_scores is None:
        return _("Draw {scores}").format(scores=scores)
    # TRANSLATORS: several winners: a team ("Ann + Cy win 23–17") or players on equal totals
    return _("{names} win {scores}").format(names=" + ".join(winners), scores=scores)


def _progress(state: State) -> str:
    if state.outcome() is not None:
        return _("all {rounds} rounds played").format(rounds=ROUNDS)
    if state.phase in (Phase.START, Phase.DEAL, Phase.KEEP, Phase.PILE):
        return _("round {round} of {rounds}, choosing hands").format(round=state.round, rounds=ROUNDS)
    return _("round {round} of {rounds}, trick {trick}").format(round=state.round, rounds=ROUNDS,
                                                               trick=state.trick_no)


def record_result(stats: "StatsStore", levels: Sequence[str | None], state: State, match_id: str) -> bool:
    """Count ``state``'s match in ``stats`` (the window's :class:`game.stats.StatsStore`) if it is
    over and was one person against the computer: ``levels`` per seat (None: a person at this
    machine, exactly one); the level counted is the strongest computer seat's; won: the person's
    seat (with teams, its team) among the winners; the score: the person's total (with teams, the
    team's). Once per ``match_id``. Returns whether it was counted now. Call it after each action
    of a local match."""
    outcome = state.outcome()
    people = [i for i, lv in enumerate(levels) if lv is None]
    computers = [lv for lv in levels if lv is not None]
    if outcome is None or len(people) != 1 or not computers:
        return False
    from .settings import LEVEL_CHOICES
    strongest = max(computers, key=lambda lv: LEVEL_CHOICES.index(lv) if lv in LEVEL_CHOICES else -1)
    seat = people[0] + 1
    if outcome.team_scores is not None:
        score = outcome.team_scores[(seat - 1) % 2]
    else:
        score = outcome.scores[seat - 1]
    try:
        return stats.record("royals-riots", strongest, seat in outcome.winners, score, match_id)
    except ValueError:  # a level this version does not count
        return False
