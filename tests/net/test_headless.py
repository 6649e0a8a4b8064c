"""The headless peer's loop (:func:`net.headless.play_match`) against a scripted session:
no sockets, so the order in which the session thread tells things is fixed by the script."""

from __future__ import annotations

from types import SimpleNamespace

from net.events import Ended
from net.headless import play_match
from net.match import Verdict

VERDICT = Verdict("forfeit", 1, (), 12, "seat 1 withheld its reveal for 1")


class TellsLate:
    """A session whose thread sets its verdict during the first wait but tells ``Ended`` only
    in the next one (the window between the two in ``Session._end``)."""

    part = SimpleNamespace(turn=None)
    role, machine, catching_up = "join", None, False

    def __init__(self) -> None:
        self.verdict: Verdict | None = None
        self.status, self.waits = "playing", 0

    def wait(self, timeout: float) -> list:
        self.waits += 1
        if self.waits == 1:
            self.verdict = VERDICT
            return []
        self.status = "over"
        return [Ended(VERDICT)]

    def poll(self) -> list:
        return []


def test_the_end_is_passed_on_even_when_the_verdict_is_set_before_it_is_told():
    seen: list = []
    session = TellsLate()
    assert play_match(session, lambda obs: None, timeout=5, on_event=seen.append) == VERDICT  # type: ignore[arg-type]
    assert seen == [Ended(VERDICT)] and session.waits == 2


def test_a_session_resumed_from_a_finished_journal_returns_its_verdict_at_once():
    session = TellsLate()
    session.verdict, session.status = VERDICT, "connecting"
    session.wait = None  # type: ignore[assignment,method-assign]  # never asked: nothing is left to tell
    assert play_match(session, lambda obs: None, timeout=5) == VERDICT  # type: ignore[arg-type]
