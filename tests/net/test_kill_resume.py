"""Kill -9 at every send point of a short match, and resume: each seat (the host included) is
killed just before one of its messages leaves, or just after it arrived, comes back from its
journal (the machine's payload at its last Save, through JSON, as the session writes it), and
every seat resumes as the layer does (tests/net/adversary.py's :class:`~tests.net.adversary.World`).
Every seat is honest: the match must go on with nobody named and every record equal (or be
called off, when the kill came before anything was bound).

Rose King: the set-up coin and the first ten plies, draws included. Royals & Riots: 2-, 3- and
4-seat tables through the keys, the deck, the keeps, the piles, the starter coin and the first
trick. A quick pass by default (a fixed share of the 3- and 4-seat tables' send points);
``RK_ADVERSARY_FULL=1`` kills at every one."""

from __future__ import annotations

import os

import pytest

from . import adversary as adv

FULL = os.environ.get("RK_ADVERSARY_FULL") == "1"
STRIDE = {"rose-king": 1, "royals-2": 1, "royals-3": 3, "royals-4": 12}


@pytest.mark.parametrize("table", tuple(STRIDE))
def test_a_seat_killed_at_any_send_resumes_and_the_match_goes_on(table, capsys):
    s = adv.sweep(adv.make_game(table), kill=True, stride=1 if FULL else STRIDE[table])
    with capsys.disabled():
        print(f"\n{table}: {s.runs} kill runs ({'full' if FULL else 'quick'} pass, {s.seconds:.1f} s CPU)")
    assert s.runs > 0
    assert not s.failed, s.report(limit=5) + (
        f"\nreplay: python -m tests.net.adversary {table} {s.failed[0].dev} {s.failed[0].k} {s.failed[0].deviation}")
    ends = set(s.statuses)
    assert ends <= {"live", "called-off"}, s.statuses   # the match went on (or was called off unbound)


@pytest.mark.parametrize("after", [False, True], ids=["before-it-leaves", "after-it-arrived"])
def test_a_host_killed_at_its_own_play_resumes_and_the_trick_goes_on(after):
    """The host killed at its own play (journaled before it leaves: killed before it left, or
    after it reached the first joiner and before the others): every joiner takes the match back
    and the trick goes on, nobody named, records equal."""
    game = adv.make_game("royals-3")
    w = adv.World(game)
    w.sendlog = []
    while w.step():
        pass
    k = next(n for s, n, to, what in w.sendlog if s == 0 and what.startswith("env[0#") and what.endswith("play]"))
    r = adv.kill_run(game, 0, k, after=after)
    assert r.status == "live" and not r.problems, r
    assert r.verdicts == {}
