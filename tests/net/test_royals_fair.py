"""The dealer-free Royals & Riots match machine (game/royals/lan/match.py and its parts), in memory:
whole matches of 2, 3 and 4 seats (teams too, computer seats too) to the end with identical
records `rose-king check` accepts; resume from the journal; the leak test."""

from __future__ import annotations

import pytest

from game.royals.plugin import GAME
from game.royals.lan import messages as fm
from game.royals.lan.match import FairMatch

from .fair_table import Net, crash


def _finished(net: Net) -> dict:
    recs = [m.record() for m in net.machines.values()]
    for m in net.machines.values():
        assert m.over is not None and m.over.kind == "finished", m.over
    assert all(r == recs[0] for r in recs), "every peer holds the same record"
    assert GAME.check(recs[0]).startswith("ok finished")
    assert recs[0]["lan"]["code"] and recs[0]["lan"]["end"] == "finished"
    return recs[0]


@pytest.mark.parametrize("n,computers,teams", [(2, (), False), (3, (), False), (4, (), False), (4, (), True),
                                               (3, (2,), False), (4, (1, 3), True), (2, (1,), False)])
def test_whole_match_to_the_end(n, computers, teams):
    net = Net(n, computers=computers, teams=teams, seed=n).start().run()
    rec = _finished(net)
    assert len(rec["rounds"]) == 3
    # the host's program holds a view only of the seats it plays
    assert set(net.machines[0].views) == {0, *computers}


def test_match_code_is_the_same_everywhere():
    net = Net(3).start()
    while not all(m.inbox is not None for m in net.machines.values()):
        net.deliver()
    codes = {m.code() for m in net.machines.values()}
    assert len(codes) == 1 and len(codes.pop()) == 9


# ---------------------------------------------------------------------------- the leak test
def leaks(net: Net) -> list[str]:
    """Every way a peer could know a card of another seat that is not open to all: a position
    of that seat it holds every key of (its own key plus every key in the bytes it received),
    or an object of its deck that opened one."""
    found = []
    for ms, m in net.machines.items():
        if m.inbox is None or not m._deck_final():
            continue
        cache = net.__dict__.setdefault("leak_cache", {}).setdefault(ms, [0, {}])
        envs = m.envs[cache[0]:]
        cache[0] = len(m.envs)
        shares: dict = cache[1]
        for env in envs:                                 # every byte it received, and its own
            if env.body[:1] in (bytes((fm.SHARES,)), bytes((fm.PLAY,)), bytes((fm.OPEN,))):
                for x in fm.decode(env.body, env.sender).items:
                    if len(x) > 1:
                        shares.setdefault((x[2:2 + x[1]], int.from_bytes(x[3 + x[1]:5 + x[1]], "big")),
                                          set()).add(x[2 + x[1]])
        public = set(m.opened)
        for no, k in m.opened:          # a drawn card played: its deck position is open to all too
            if no:
                public.add((0, m.decks[m.seat].locate(m.sids[no], k)[1]))
        for o in range(m.n):
            if o in m.local:
                continue
            for no, sid in m.sids.items():
                refs = [(0, p) for p in m.positions_of(o)] if no == 0 else (
                    [(no, k) for k in range(m.pile_n[no - 1])] if no == 1 + o else [])
                for ref in refs:
                    if ref in public:
                        continue
                    holders = shares.get((sid, ref[1]), set()) | set(m.local)
                    if holders >= set(range(m.n)):
                        found.append(f"seat {ms} holds every key of seat {o}'s position {ref}")
                    for dk in m.decks.values():
                        if (sid, ref[1]) in dk.known:
                            found.append(f"seat {ms}'s deck opened seat {o}'s position {ref}")
    return found


class LeakyDealer(FairMatch):
    """A deliberately leaky variant: its deal keys include the keys of its own positions."""

    def duties(self):
        out = super().duties()
        fixed = []
        for seat, body in out:
            if body[0] == fm.SHARES and self.stage == "round" and len(fm.decode(body, seat).items) > 1:
                dk = self.decks[seat]
                mine = [dk.share(self.sids[0], p).to_bytes() for p in self.positions_of(seat)]
                body = fm.shares(seat, list(fm.decode(body, seat).items) + mine)
            if (seat, body) not in self.done:
                fixed.append((seat, body))
        return fixed


def test_no_peer_holds_another_seats_unplayed_card():
    seen = []
    net = Net(4, computers=(2,)).start()
    net.run(each=lambda nt: seen.extend(leaks(nt)) if nt.steps % 20 == 0 else None)
    _finished(net)
    assert seen == []


def test_the_leak_test_catches_a_leaky_variant():
    seen = []
    net = Net(3, classes={1: LeakyDealer}).start()
    net.run(limit=3000, each=lambda nt: seen.extend(leaks(nt)) if nt.steps % 5 == 0 else None)
    assert any("seat 1's position" in s for s in seen), seen[:3]


# ---------------------------------------------------------------------------- resume
@pytest.mark.parametrize("who,at", [(0, 150), (1, 300), (0, 700), (2, 900)])
def test_resume_after_a_crash_gives_the_same_record(who, at):
    net = Net(3, computers=() if who != 0 else (2,) if at == 700 else ()).start()
    if who not in net.machines:
        who = 1
    net.run(limit=at)
    crash(net, who)
    net.run()
    _finished(net)


def test_a_damaged_journal_is_refused_with_a_clear_error():
    import json

    from game.royals.lan.match import _restore
    net = Net(2).start().run(limit=80)
    good = json.loads(json.dumps(net.machines[1].payload()))
    for bad in ({**good, "v": 3}, {**good, "envs": good["envs"][:3] + ["00" * 90] + good["envs"][3:]},
                {**good, "envs": good["envs"][1:]}, {**good, "keys": {}}):
        with pytest.raises(ValueError):
            _restore(1, net.table, bad, lambda n: bytes(n))
    back = _restore(1, net.table, good, lambda n: bytes(n))      # the intact journal still loads
    assert back.view.ply == net.machines[1].view.ply


# ---------------------------------------------------------------------------- the frame's binary bound
def test_an_envelope_travels_as_one_binary_bounded_by_the_parts_max_bin():
    import msgpack

    from net.framing import FrameError, decode_payload
    from game.royals.lan.match import FAIR, MAX_ENVELOPE, env_msg

    from .fair_table import SCHEMAS
    assert FAIR.max_bin == MAX_ENVELOPE == SCHEMAS.max_bin
    ok = msgpack.packb({"t": "env", "e": bytes(MAX_ENVELOPE)}, use_bin_type=True)
    assert decode_payload(ok, SCHEMAS)["e"] == bytes(MAX_ENVELOPE)
    too_long = msgpack.packb({"t": "env", "e": bytes(MAX_ENVELOPE + 1)}, use_bin_type=True)
    with pytest.raises(FrameError) as e:
        decode_payload(too_long, SCHEMAS)
    assert e.value.code == "frame"              # refused by the unpacker's bound, before any schema
    for short in (b"", bytes(88)):          # shorter than an envelope's header and signature
        with pytest.raises(FrameError) as e:
            decode_payload(msgpack.packb({"t": "env", "e": short}, use_bin_type=True), SCHEMAS)
        assert e.value.code == "schema"
    with pytest.raises(ValueError):
        env_msg(bytes(MAX_ENVELOPE + 1))
    # another game's frames keep the layer's 64-byte bound
    from net.lobby import schemas_for
    with pytest.raises(FrameError) as e:
        decode_payload(msgpack.packb({"t": "ping", "x": bytes(65)}, use_bin_type=True), schemas_for({}))
    assert e.value.code == "frame"
