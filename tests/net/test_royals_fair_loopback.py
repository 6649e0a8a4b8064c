"""The dealer-free Royals & Riots machine (net.royals.fair.FAIR) over the one LAN layer on
127.0.0.1: a whole 3-seat match (host, a joiner, a computer seat the host runs) through
net.session, each peer played by net.headless.play_match; identical records `rose-king check`
accepts. The part is used directly here; it is not yet registered on the game's plugin."""

from __future__ import annotations

import threading
import time

from game.royals.plugin import GAME
from net.headless import play_match
from net.royals.fair import FAIR
from net.session import Session

LIMIT = 120.0


def test_a_whole_match_over_loopback_with_a_computer_seat():
    host = Session(FAIR, "host", "Ann", port=0, kinds=("host", "person", "computer"), computers={2: "random"},
                   date="2026-11-27T09:00:00")
    join = Session(FAIR, "join", "Bo", port=host.port, reconnect_delay=0.05)
    try:
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                host.start()
                break
            except ValueError:
                host.wait(0.05)
        verdicts: dict = {}

        def run(name, s, seed):
            verdicts[name] = play_match(s, FAIR.player("random", seed), timeout=LIMIT)
        threads = [threading.Thread(target=run, args=("host", host, 1)),
                   threading.Thread(target=run, args=("join", join, 2))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(LIMIT + 5)
        assert verdicts["host"].kind == "finished" and verdicts["join"].kind == "finished", verdicts
        rh, rj = host.view(lambda m: m.record()), join.view(lambda m: m.record())
        assert rh == rj and GAME.check(rh).startswith("ok finished")
        assert rh["lan"]["code"] == host.view(lambda m: m.code())
    finally:
        host.close(1.0)
        join.close(1.0)
