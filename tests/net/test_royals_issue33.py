"""Issue 33, attack 5 on Royals & Riots: the deadlines name the seat that owes the step (a
withholding joiner, never the host waiting for it); the 6 s (commit) and 10 s (reveal)
deadlines fire for a joiner that is connected from the start; a joiner decides only on a view
that has applied the card it drew."""

from __future__ import annotations

import threading

import pytest

from game.royals.engine import PLAY
from net import royals
from net.royals import FORFEIT_TIMEOUT, OUTCOME_TIMEOUT, HostMatch, JoinerMatch
from net.royals_session import Failed

from .royals_wire import Wire
from .test_royals_loopback import LIMIT, seat_joiners, sessions, wait_until  # noqa: F401 (fixture)


def test_a_withheld_reveal_names_the_withholder_before_any_joiner_blames_the_host():
    """Seat 3 withholds its reveal and drops; seat 2 revealed. The host's 60 s forfeit of seat 3
    (from the `commits` broadcast) comes before seat 2's wait for the outcome runs out, so every
    record names seat 3, never the honest host (7 of 12 runs named the host before)."""
    assert OUTCOME_TIMEOUT > FORFEIT_TIMEOUT
    w = Wire(3, seed=13)
    w.joiner_tamper = lambda seat, m: None if (m["t"] == "reveal" and seat == 3) else m
    w.run()
    w.host.disconnected(3, 1.0)
    t = FORFEIT_TIMEOUT + 1
    assert w.joiners[2].tick(t) == [] and w.joiners[2].over is None  # seat 2 still waits ...
    w.host.tick(t)                                                    # ... while the host judges seat 3
    w.pump()
    for peer, over in w.overs().items():
        assert over is not None and (over.kind, over.seat) == ("forfeit", 3), (peer, over)


def test_a_joiner_does_not_decide_before_the_card_it_drew_has_come():
    """Between the relay of a joiner's own play and the `you` with the card it drew, the
    joiner has no decision (even when it won the trick and leads next)."""
    w = Wire(2, ("random", "random"), seed=3)
    j = w.joiners[2]
    checked = []

    def tamper(seat, m):
        st = j.view.state
        last = st.history[-1] if st.history else None
        if (m["t"] == "you" and m["ply"] == st.ply - 1 and last is not None and last.kind is PLAY
                and last.seat == 2):
            checked.append((st.to_act == 2 and not st.is_chance(), j.my_turn()))
        return m
    w.tamper = tamper
    w.run()
    assert w.host.over.kind == "finished"
    leads = [obs for would_act, obs in checked if would_act]
    assert leads, "no play of seat 2 that won its trick while it still had a pile"
    assert all(obs is None for _, obs in checked)
    assert j.my_turn() is None and j._draw_owed is None


@pytest.mark.parametrize("withheld", ["commit", "reveal"])
def test_the_commit_and_reveal_deadlines_fire_for_a_joiner_connected_from_the_start(sessions, monkeypatch,
                                                                                    withheld):
    """A seated joiner that never commits is cut off (`withheld`, 6 s; 0.5 s here); one that
    never reveals forfeits (10 s; 0.5 s here). Before, its deadlines ran only after a resume."""
    monkeypatch.setattr(royals.host, "COMMIT_TIMEOUT", 0.5)
    monkeypatch.setattr(royals.host, "REVEAL_TIMEOUT", 0.5)
    orig = JoinerMatch._send
    monkeypatch.setattr(JoinerMatch, "_send", lambda self, msg: None if msg["t"] == withheld else orig(self, msg))
    refused = []
    seen = threading.Event()
    orig_refuse = HostMatch._refuse

    def spy(self, seat, code, reason):
        refused.append((seat, code))
        seen.set()
        return orig_refuse(self, seat, code, reason)
    monkeypatch.setattr(HostMatch, "_refuse", spy)
    host = sessions("host", "Ann", seats=2)
    seat_joiners(sessions, host, ["Bo"])
    host.start()
    if withheld == "commit":
        assert seen.wait(LIMIT / 4), "the host never cut off the joiner that withheld its commitment"
        assert refused[0] == (2, "withheld")
    else:
        seen_over: list = []
        wait_until(host, lambda: any(isinstance(e, Failed) for e in seen_over), LIMIT / 4, seen_over)
        failed = next(e for e in seen_over if isinstance(e, Failed))
        assert (failed.code, failed.seat) == ("forfeit", 2)


def test_a_joiners_forfeit_claim_against_another_seat_is_its_own_fault():
    """Seat 2 sends `error{forfeit}` naming honest seat 3 ("seat 3 withheld its reveal"): only
    the host judges withheld steps, so every record names seat 2, never seat 3."""
    from .test_royals_match import assert_match_over_for_all, joiner_turn, until
    w = Wire(3, seed=21)
    until(w, joiner_turn(2))
    evs = w.host.receive(2, {"t": "error", "code": "forfeit",
                             "reason": "seat 3, ply 5 (deal coin): it withheld its reveal"}, w.now)
    assert evs == [w.host.over]
    assert_match_over_for_all(w, "illegal", 2, "claimed a forfeit")


def test_the_host_lists_who_owes_what_for_an_open_coin():
    w = Wire(3, seed=22)
    w.joiner_tamper = lambda seat, m: None if (m["t"] == "reveal" and seat == 3) else m
    w.run()
    owed = w.host.owed()
    assert [(o.seat, o.step, o.forfeits) for o in owed] == [(3, "reveal", True)]
